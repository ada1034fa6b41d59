;; The hot loops of routing: the dot product of the exact stage, four lanes at a time (WebAssembly SIMD), and the
;; Hamming distances of the dense coarse stage, 64 bits at a time. Data lives in the imported memory.
;; scripts/build-routing-kernel.ts compiles this file into src/models/routing-kernel-wasm.ts.
(module
  (import "env" "memory" (memory 1))
  ;; Sum over `lanes` groups of four floats of a[i] * b[i]; a and b are byte offsets, 16-byte aligned. Four sums run
  ;; side by side over 16 floats a step: one sum waits on its previous add every step, four keep the adder busy.
  (func (export "dot") (param $a i32) (param $b i32) (param $lanes i32) (result f32)
    (local $end i32)
    (local $wide_end i32)
    (local $sum0 v128)
    (local $sum1 v128)
    (local $sum2 v128)
    (local $sum3 v128)
    (local.set $end (i32.add (local.get $a) (i32.shl (local.get $lanes) (i32.const 4))))
    (local.set $wide_end (i32.add (local.get $a) (i32.shl (i32.and (local.get $lanes) (i32.const -4)) (i32.const 4))))
    (block $wide_done
      (loop $wide
        (br_if $wide_done (i32.ge_u (local.get $a) (local.get $wide_end)))
        (local.set $sum0
          (f32x4.add (local.get $sum0)
            (f32x4.mul (v128.load offset=0 align=16 (local.get $a)) (v128.load offset=0 align=16 (local.get $b)))))
        (local.set $sum1
          (f32x4.add (local.get $sum1)
            (f32x4.mul (v128.load offset=16 align=16 (local.get $a)) (v128.load offset=16 align=16 (local.get $b)))))
        (local.set $sum2
          (f32x4.add (local.get $sum2)
            (f32x4.mul (v128.load offset=32 align=16 (local.get $a)) (v128.load offset=32 align=16 (local.get $b)))))
        (local.set $sum3
          (f32x4.add (local.get $sum3)
            (f32x4.mul (v128.load offset=48 align=16 (local.get $a)) (v128.load offset=48 align=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 64)))
        (local.set $b (i32.add (local.get $b) (i32.const 64)))
        (br $wide)))
    ;; The last one to three lanes when `lanes` is not a multiple of four.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $a) (local.get $end)))
        (local.set $sum0
          (f32x4.add (local.get $sum0)
            (f32x4.mul (v128.load align=16 (local.get $a)) (v128.load align=16 (local.get $b)))))
        (local.set $a (i32.add (local.get $a) (i32.const 16)))
        (local.set $b (i32.add (local.get $b) (i32.const 16)))
        (br $next)))
    (local.set $sum0 (f32x4.add (f32x4.add (local.get $sum0) (local.get $sum1)) (f32x4.add (local.get $sum2) (local.get $sum3))))
    (f32.add
      (f32.add (f32x4.extract_lane 0 (local.get $sum0)) (f32x4.extract_lane 1 (local.get $sum0)))
      (f32.add (f32x4.extract_lane 2 (local.get $sum0)) (f32x4.extract_lane 3 (local.get $sum0)))))
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
