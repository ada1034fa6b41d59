;; The dot product of routing's hot loop, four lanes at a time (WebAssembly SIMD).
;; Vectors live in the imported memory, zero-padded to a multiple of four floats;
;; scripts/build-dot-kernel.ts compiles this file into src/models/dot-kernel-wasm.ts.
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
      (f32.add (f32x4.extract_lane 2 (local.get $sum)) (f32x4.extract_lane 3 (local.get $sum))))))
