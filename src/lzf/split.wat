;; The SpriteTile cell split of lzf.wat in WebAssembly SIMD: the same
;; results, 16 cells a step. A module of its own so that engines without
;; SIMD (which reject it) keep the LZF module and its scalar split. It is
;; bound to the LZF instance's memory. Assembled into split-wasm-bytes.ts by
;; scripts/build-lzf-wasm.mjs (npm run build:wasm).
(module
  (import "env" "mem" (memory 1))
  ;; lzf.wat's scalar split from a cell on: the tail, or a step with a bad cell
  (import "env" "splitFrom" (func $splitFrom (param i32 i32 i32 i32 i32) (result i32)))

  ;; split(src, n, le, dst): as lzf.wat's split (the n 7-byte cells at src
  ;; become i16 tiles at dst, u16 flags at dst + 2n, i16 order at dst + 4n
  ;; and u8 triggers at dst + 6n, little-endian; returns -1 or the index of
  ;; the first cell with a tile below -1 or a rotation above 1800).
  ;;
  ;; 16 cells a step: eight 16-byte loads, each at two cells (the last one
  ;; reads 2 bytes past the step's 112, so steps run only while those bytes
  ;; are inside the memory); a swizzle groups each pair's fields into i32
  ;; lanes (2 tiles, 2 flags, 2 orders, 2 triggers as u16), and 4x4
  ;; transposes of those lanes make the tile, flag and order vectors of 8
  ;; cells. A step with a bad cell, and the last n mod 16 cells, go through
  ;; the scalar loop (which so returns the same first bad index).
  (func (export "split") (param $src i32) (param $n i32) (param $le i32) (param $dst i32) (result i32)
    (local $i i32) (local $p i32)
    (local $fl i32) (local $or i32) (local $tr i32) (local $stop i32) (local $last i32)
    (local $mask v128)
    (local $a0 v128) (local $a1 v128) (local $a2 v128) (local $a3 v128)
    (local $lo v128) (local $hi v128) (local $lo2 v128) (local $hi2 v128)
    (local $t0 v128) (local $f0 v128) (local $o0 v128) (local $r0 v128)
    (local $t1 v128) (local $f1 v128) (local $o1 v128) (local $r1 v128)
    (local.set $fl (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $or (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $tr (i32.add (local.get $or) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $p (local.get $src))
    ;; a pair of cells (bytes 0-13) -> lanes: tiles, flags, orders, triggers
    (local.set $mask
      (select (result v128)
        (v128.const i8x16 0 1 7 8 2 3 9 10 4 5 11 12 6 0x80 13 0x80)
        (v128.const i8x16 1 0 8 7 3 2 10 9 5 4 12 11 6 0x80 13 0x80)
        (local.get $le)))
    ;; steps run while i + 16 <= n and their reads (to p + 114) stay in the memory
    (local.set $stop (i32.and (local.get $n) (i32.const -16)))
    (local.set $last (i32.sub (i32.mul (memory.size) (i32.const 65536)) (i32.const 128)))
    (block $simd
      (loop $step
        (br_if $simd (i32.ge_u (local.get $i) (local.get $stop)))
        (br_if $simd (i32.gt_u (local.get $p) (local.get $last)))
        ;; cells i .. i+7
        (local.set $a0 (i8x16.swizzle (v128.load (local.get $p)) (local.get $mask)))
        (local.set $a1 (i8x16.swizzle (v128.load offset=14 (local.get $p)) (local.get $mask)))
        (local.set $a2 (i8x16.swizzle (v128.load offset=28 (local.get $p)) (local.get $mask)))
        (local.set $a3 (i8x16.swizzle (v128.load offset=42 (local.get $p)) (local.get $mask)))
        (local.set $lo (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $a0) (local.get $a1)))
        (local.set $hi (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $a0) (local.get $a1)))
        (local.set $lo2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $a2) (local.get $a3)))
        (local.set $hi2 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $a2) (local.get $a3)))
        (local.set $t0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $lo) (local.get $lo2)))
        (local.set $f0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $lo) (local.get $lo2)))
        (local.set $o0 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $hi) (local.get $hi2)))
        (local.set $r0 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $hi) (local.get $hi2)))
        ;; cells i+8 .. i+15
        (local.set $a0 (i8x16.swizzle (v128.load offset=56 (local.get $p)) (local.get $mask)))
        (local.set $a1 (i8x16.swizzle (v128.load offset=70 (local.get $p)) (local.get $mask)))
        (local.set $a2 (i8x16.swizzle (v128.load offset=84 (local.get $p)) (local.get $mask)))
        (local.set $a3 (i8x16.swizzle (v128.load offset=98 (local.get $p)) (local.get $mask)))
        (local.set $lo (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $a0) (local.get $a1)))
        (local.set $hi (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $a0) (local.get $a1)))
        (local.set $lo2 (i8x16.shuffle 0 1 2 3 16 17 18 19 4 5 6 7 20 21 22 23 (local.get $a2) (local.get $a3)))
        (local.set $hi2 (i8x16.shuffle 8 9 10 11 24 25 26 27 12 13 14 15 28 29 30 31 (local.get $a2) (local.get $a3)))
        (local.set $t1 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $lo) (local.get $lo2)))
        (local.set $f1 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $lo) (local.get $lo2)))
        (local.set $o1 (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $hi) (local.get $hi2)))
        (local.set $r1 (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $hi) (local.get $hi2)))
        ;; a tile below -1 or a rotation over 1800: the scalar loop finds which
        (br_if $simd
          (v128.any_true
            (v128.or
              (v128.or (i16x8.lt_s (local.get $t0) (v128.const i16x8 -1 -1 -1 -1 -1 -1 -1 -1))
                       (i16x8.lt_s (local.get $t1) (v128.const i16x8 -1 -1 -1 -1 -1 -1 -1 -1)))
              (v128.or (i16x8.gt_s (v128.and (local.get $f0) (v128.const i16x8 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff))
                                   (v128.const i16x8 1800 1800 1800 1800 1800 1800 1800 1800))
                       (i16x8.gt_s (v128.and (local.get $f1) (v128.const i16x8 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff 0x7ff))
                                   (v128.const i16x8 1800 1800 1800 1800 1800 1800 1800 1800))))))
        (v128.store (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 1))) (local.get $t0))
        (v128.store offset=16 (i32.add (local.get $dst) (i32.shl (local.get $i) (i32.const 1))) (local.get $t1))
        (v128.store (i32.add (local.get $fl) (i32.shl (local.get $i) (i32.const 1))) (local.get $f0))
        (v128.store offset=16 (i32.add (local.get $fl) (i32.shl (local.get $i) (i32.const 1))) (local.get $f1))
        (v128.store (i32.add (local.get $or) (i32.shl (local.get $i) (i32.const 1))) (local.get $o0))
        (v128.store offset=16 (i32.add (local.get $or) (i32.shl (local.get $i) (i32.const 1))) (local.get $o1))
        ;; triggers: u16 lanes of at most 255
        (v128.store (i32.add (local.get $tr) (local.get $i)) (i8x16.narrow_i16x8_u (local.get $r0) (local.get $r1)))
        (local.set $p (i32.add (local.get $p) (i32.const 112)))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $step)))
    ;; the scalar loop of lzf.wat: the tail, or the step with a bad cell
    (call $splitFrom (local.get $src) (local.get $i) (local.get $n) (local.get $le) (local.get $dst)))
)
