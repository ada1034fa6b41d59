;; The hot loops of routing: the dot product of the exact stage, four lanes at a time (WebAssembly SIMD), and the
;; Hamming distances of the dense coarse stage, 64 bits at a time. Data lives in the imported memory.
;; scripts/build-routing-kernel.ts compiles this file into src/models/routing-kernel-wasm.ts.
(module
  (import "env" "memory" (memory 1))
  ;; Sum over `lanes` groups of four floats of a[i] * b[i]; a and b are byte offsets, 16-byte aligned.
  (func (export "dot") (param $a i32) (param $b i32) (param $lanes i32) (result f32)
    (local $end i32)
    (local $sum v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $lanes) (i32.const 4))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $sum
          (f32x4.add (local.get $sum)
            (f32x4.mul (v128.load align=16 (local.get $a)) (v128.load align=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $next)))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $sum)) (f32x4.extract_lane 1 (local.get $sum)))
      (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum)))))
  ;; For each of `rows` codes of `words` 64-bit words from `codes`: the bits in which it differs from the code at
  ;; `query`, written as a 16-bit count at `out`. All offsets in bytes, 8-byte aligned.
  (func (export "hamming") (param $codes i32) (param $query i32) (param $rows i32) (param $words i32) (param $out i32)
    (local $end i32)
    (local $word i32)
    (local $distance i64)
    (local.set $end (i32.add (local.get $out) (i32.shl (local.get $rows) (i32.const 1))))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $distance (i64.const 0))
        (local.set $word (i32.const 0))
        (block $row_done
          (loop $next
            (br_if $row_done (i32.ge_u (local.get $word) (local.get $words)))
            (local.set $distance
              (i64.add (local.get $distance)
                (i64.popcnt
                  (i64.xor
                    (i64.load (i32.add (local.get $codes) (i32.shl (local.get $word) (i32.const 3))))
                    (i64.load (i32.add (local.get $query) (i32.shl (local.get $word) (i32.const 3))))))))
            (local.set $word (i32.add (local.get $word) (i32.const 1)))
            (br $next)))
        (i32.store16 (local.get $out) (i32.wrap_i64 (local.get $distance)))
        (local.set $codes (i32.add (local.get $codes) (i32.shl (local.get $words) (i32.const 3))))
        (local.set $out (i32.add (local.get $out) (i32.const 2)))
        (br $row))))
)
