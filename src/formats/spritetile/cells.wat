;; Splits SpriteTile's 7-byte cells into four arrays, in WebAssembly for
;; speed. Assembled into cells-wasm.ts by scripts/build-lzf-wasm.mjs.
(module
  (memory (export "memory") 1)

  ;; split(src, n, le, dst): the n cells at src (le: 1 little-endian, 0 big)
  ;; become i16 tiles at dst, u16 flags at dst + 2n, i16 order at dst + 4n
  ;; and u8 triggers at dst + 6n, little-endian. Returns -1, or the index of
  ;; the first cell with a tile below -1 or a rotation above 1800 (the caller
  ;; then reports it).
  (func (export "split") (param $src i32) (param $n i32) (param $le i32) (param $dst i32) (result i32)
    (local $i i32) (local $p i32) (local $t i32) (local $f i32) (local $o i32)
    (local $fl i32) (local $or i32) (local $tr i32)
    (local.set $fl (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $or (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $tr (i32.add (local.get $or) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $p (local.get $src))
    (block $done
      (loop $top
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (local.get $le)
          (then
            (local.set $t (i32.load16_u (local.get $p)))
            (local.set $f (i32.load16_u offset=2 (local.get $p)))
            (local.set $o (i32.load16_u offset=4 (local.get $p))))
          (else
            (local.set $t (i32.or (i32.shl (i32.load8_u (local.get $p)) (i32.const 8)) (i32.load8_u offset=1 (local.get $p))))
            (local.set $f (i32.or (i32.shl (i32.load8_u offset=2 (local.get $p)) (i32.const 8)) (i32.load8_u offset=3 (local.get $p))))
            (local.set $o (i32.or (i32.shl (i32.load8_u offset=4 (local.get $p)) (i32.const 8)) (i32.load8_u offset=5 (local.get $p))))))
        (if (i32.or
              (i32.and (i32.ge_u (local.get $t) (i32.const 0x8000)) (i32.ne (local.get $t) (i32.const 0xffff)))
              (i32.gt_u (i32.and (local.get $f) (i32.const 0x7ff)) (i32.const 1800)))
          (then (return (local.get $i))))
        (i32.store16 (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 1))) (local.get $t))
        (i32.store16 (i32.add (local.get $fl) (i32.shl (local.get $i) (i32.const 1))) (local.get $f))
        (i32.store16 (i32.add (local.get $or) (i32.shl (local.get $i) (i32.const 1))) (local.get $o))
        (i32.store8 (i32.add (local.get $tr) (local.get $i)) (i32.load8_u offset=6 (local.get $p)))
        (local.set $p (i32.add (local.get $p) (i32.const 7)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $top)))
    (i32.const -1))
)
