;; LZF decoding and SpriteTile cell splitting in WebAssembly, for speed.
;; Only ever run on streams that the JavaScript `measure` pass has already
;; checked (and on buffers it sized): no bounds checks here beyond the ones
;; WebAssembly itself makes. Assembled into wasm-bytes.ts by
;; scripts/build-lzf-wasm.mjs (npm run build:wasm).
(module
  (memory (export "memory") 1)

  ;; measure(ip, inLen, limit): checks the stream and returns its output size,
  ;; or -1 when it is damaged or its output passes limit (the JavaScript
  ;; `measure` then finds and names the problem).
  (func (export "measure") (param $ip i32) (param $inLen i32) (param $limit i32) (result i32)
    (local $inEnd i32) (local $ctrl i32) (local $len i32) (local $op i32) (local $q i32)
    (local.set $inEnd (i32.add (local.get $ip) (local.get $inLen)))
    (block $done
      (loop $top
        (br_if $done (i32.ge_u (local.get $ip) (local.get $inEnd)))
        (local.set $ctrl (i32.load8_u (local.get $ip)))
        (if (i32.lt_u (local.get $ctrl) (i32.const 32))
          (then
            (local.set $len (i32.add (local.get $ctrl) (i32.const 1)))
            (local.set $ip (i32.add (local.get $ip) (i32.add (local.get $len) (i32.const 1))))
            (if (i32.gt_u (local.get $ip) (local.get $inEnd)) (then (return (i32.const -1))))
            (local.set $op (i32.add (local.get $op) (local.get $len))))
          (else
            (local.set $len (i32.shr_u (local.get $ctrl) (i32.const 5)))
            (local.set $q (i32.add (local.get $ip) (i32.const 1)))
            (if (i32.eq (local.get $len) (i32.const 7))
              (then
                (if (i32.ge_u (local.get $q) (local.get $inEnd)) (then (return (i32.const -1))))
                (local.set $len (i32.add (local.get $len) (i32.load8_u (local.get $q))))
                (local.set $q (i32.add (local.get $q) (i32.const 1)))))
            (if (i32.ge_u (local.get $q) (local.get $inEnd)) (then (return (i32.const -1))))
            (if (i32.ge_u
                  (i32.or (i32.shl (i32.and (local.get $ctrl) (i32.const 31)) (i32.const 8)) (i32.load8_u (local.get $q)))
                  (local.get $op))
              (then (return (i32.const -1))))
            (local.set $ip (i32.add (local.get $q) (i32.const 1)))
            (local.set $op (i32.add (local.get $op) (i32.add (local.get $len) (i32.const 2))))))
        (br_if $top (i32.le_u (local.get $op) (local.get $limit)))
        (return (i32.const -1))))
    (local.get $op))

  ;; decode(ip, inLen, op): decodes inLen bytes at ip to op; returns the end of the output.
  (func (export "decode") (param $ip i32) (param $inLen i32) (param $op i32) (result i32)
    (local $inEnd i32) (local $ctrl i32) (local $len i32) (local $ref i32) (local $end i32)
    (local.set $inEnd (i32.add (local.get $ip) (local.get $inLen)))
    (block $done
      (loop $top
        (br_if $done (i32.ge_u (local.get $ip) (local.get $inEnd)))
        (local.set $ctrl (i32.load8_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (if (i32.lt_u (local.get $ctrl) (i32.const 32))
          (then
            (local.set $len (i32.add (local.get $ctrl) (i32.const 1)))
            (if (i32.lt_u (local.get $len) (i32.const 16))
              (then
                (local.set $end (i32.add (local.get $op) (local.get $len)))
                (loop $lit
                  (i32.store8 (local.get $op) (i32.load8_u (local.get $ip)))
                  (local.set $op (i32.add (local.get $op) (i32.const 1)))
                  (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
                  (br_if $lit (i32.lt_u (local.get $op) (local.get $end)))))
              (else
                (memory.copy (local.get $op) (local.get $ip) (local.get $len))
                (local.set $op (i32.add (local.get $op) (local.get $len)))
                (local.set $ip (i32.add (local.get $ip) (local.get $len))))))
          (else
            (local.set $len (i32.shr_u (local.get $ctrl) (i32.const 5)))
            (if (i32.eq (local.get $len) (i32.const 7))
              (then
                (local.set $len (i32.add (local.get $len) (i32.load8_u (local.get $ip))))
                (local.set $ip (i32.add (local.get $ip) (i32.const 1)))))
            (local.set $ref
              (i32.sub
                (i32.sub (local.get $op)
                  (i32.or (i32.shl (i32.and (local.get $ctrl) (i32.const 31)) (i32.const 8)) (i32.load8_u (local.get $ip))))
                (i32.const 1)))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (local.set $len (i32.add (local.get $len) (i32.const 2)))
            (if (i32.and
                  (i32.ge_u (local.get $len) (i32.const 16))
                  (i32.ge_u (i32.sub (local.get $op) (local.get $ref)) (local.get $len)))
              (then
                (memory.copy (local.get $op) (local.get $ref) (local.get $len))
                (local.set $op (i32.add (local.get $op) (local.get $len))))
              (else
                (local.set $end (i32.add (local.get $op) (local.get $len)))
                (loop $copy
                  (i32.store8 (local.get $op) (i32.load8_u (local.get $ref)))
                  (local.set $op (i32.add (local.get $op) (i32.const 1)))
                  (local.set $ref (i32.add (local.get $ref) (i32.const 1)))
                  (br_if $copy (i32.lt_u (local.get $op) (local.get $end))))))))
        (br $top)))
    (local.get $op))
)
