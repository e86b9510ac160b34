;; LZF in WebAssembly, for speed: the clzf2 and liblzf compressors (the
;; same bytes as compress.ts) and a checking decoder. The decoder checks
;; every token (input bounds, references before the output, the output
;; limit) and only says "damaged"; the JavaScript `measure` then names the
;; problem. Assembled into wasm-bytes.ts by scripts/build-lzf-wasm.mjs
;; (npm run build:wasm). The memory is imported: wasm.ts gives each
;; instance one of the size a job needs and, where a job needs more, binds a
;; new instance to a new, bigger memory (never `memory.grow`, which detaches
;; the old buffer and so slows every typed-array access in the process).
(module
  (import "env" "mem" (memory 1))

  ;; The hash-table slot of hval: liblzf 3.6 (HLOG 16, VERY_FAST) when lib,
  ;; else the editor's CLZF2 (2^14 entries, its own shift).
  (func $slot (param $h i32) (param $lib i32) (result i32)
    (if (result i32) (local.get $lib)
      (then (i32.and (i32.sub (i32.shr_u (local.get $h) (i32.const 8)) (i32.mul (local.get $h) (i32.const 5))) (i32.const 0xffff)))
      (else
        (i32.and
          (i32.shr_u
            (i32.xor (local.get $h) (i32.shl (local.get $h) (i32.const 5)))
            (i32.sub (i32.const 10) (i32.mul (local.get $h) (i32.const 5))))
          (i32.const 0x3fff)))))

  ;; compress(n, out, htab, lib): compresses the n bytes at address 0 to out
  ;; with the clzf2 (lib 0) or liblzf (lib 1) flavour, byte for byte as the
  ;; JavaScript compressors in compress.ts; htab is room for the hash table
  ;; (256 KiB). Returns the output length.
  (func (export "compress") (param $n i32) (param $out i32) (param $htab i32) (param $lib i32) (result i32)
    (local $ip i32) (local $op i32) (local $lit i32) (local $hval i32) (local $addr i32)
    (local $ref i32) (local $off i32) (local $len i32) (local $maxlen i32) (local $p i32) (local $last i32) (local $l i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (memory.fill (local.get $htab) (i32.const 0) (select (i32.const 262144) (i32.const 65536) (local.get $lib)))
    (local.set $op (i32.add (local.get $out) (i32.const 1)))
    (local.set $hval (i32.shl (i32.load8_u (i32.const 0)) (i32.const 8)))
    (if (i32.gt_u (local.get $n) (i32.const 1))
      (then (local.set $hval (i32.or (local.get $hval) (i32.load8_u (i32.const 1))))))
    (local.set $last (i32.sub (local.get $n) (i32.const 2)))
    (block $main
      (loop $top
        (br_if $main (i32.ge_s (local.get $ip) (local.get $last)))
        (local.set $hval (i32.or (i32.shl (local.get $hval) (i32.const 8)) (i32.load8_u offset=2 (local.get $ip))))
        (local.set $addr (i32.add (local.get $htab) (i32.shl (call $slot (local.get $hval) (local.get $lib)) (i32.const 2))))
        (local.set $ref (i32.load (local.get $addr)))
        (i32.store (local.get $addr) (local.get $ip))
        (local.set $off (i32.sub (i32.sub (local.get $ip) (local.get $ref)) (i32.const 1)))
        (if (i32.and
              (i32.and
                (i32.and (i32.lt_u (local.get $off) (i32.const 8192)) (i32.gt_s (local.get $ref) (i32.const 0)))
                (i32.or (local.get $lib) (i32.lt_u (i32.add (local.get $ip) (i32.const 4)) (local.get $n))))
              (i32.and
                (i32.eq (i32.load16_u (local.get $ref)) (i32.load16_u (local.get $ip)))
                (i32.eq (i32.load8_u offset=2 (local.get $ref)) (i32.load8_u offset=2 (local.get $ip)))))
          (then
            (local.set $maxlen (i32.sub (i32.sub (local.get $n) (local.get $ip)) (i32.const 2)))
            (if (i32.gt_u (local.get $maxlen) (i32.const 264)) (then (local.set $maxlen (i32.const 264))))
            (local.set $len (i32.const 3))
            (if (i32.and (local.get $lib) (i32.gt_u (local.get $maxlen) (i32.const 16)))
              (then
                ;; liblzf's unrolled loop looks at bytes 3..18 before maxlen
                (block $stop
                  (loop $u
                    (br_if $stop (i32.gt_u (local.get $len) (i32.const 18)))
                    (br_if $stop (i32.ne (i32.load8_u (i32.add (local.get $ref) (local.get $len)))
                                         (i32.load8_u (i32.add (local.get $ip) (local.get $len)))))
                    (local.set $len (i32.add (local.get $len) (i32.const 1)))
                    (br $u)))
                (if (i32.gt_u (local.get $len) (i32.const 18))
                  (then
                    (local.set $len (i32.const 19))
                    (block $stop2
                      (loop $v
                        (br_if $stop2 (i32.ge_u (local.get $len) (local.get $maxlen)))
                        (br_if $stop2 (i32.ne (i32.load8_u (i32.add (local.get $ref) (local.get $len)))
                                              (i32.load8_u (i32.add (local.get $ip) (local.get $len)))))
                        (local.set $len (i32.add (local.get $len) (i32.const 1)))
                        (br $v))))))
              (else
                (block $stop3
                  (loop $w
                    (br_if $stop3 (i32.ge_u (local.get $len) (local.get $maxlen)))
                    (br_if $stop3 (i32.ne (i32.load8_u (i32.add (local.get $ref) (local.get $len)))
                                          (i32.load8_u (i32.add (local.get $ip) (local.get $len)))))
                    (local.set $len (i32.add (local.get $len) (i32.const 1)))
                    (br $w)))))
            ;; end the literal run (or drop its empty control byte)
            (i32.store8 (i32.sub (i32.sub (local.get $op) (local.get $lit)) (i32.const 1)) (i32.sub (local.get $lit) (i32.const 1)))
            (if (i32.eqz (local.get $lit)) (then (local.set $op (i32.sub (local.get $op) (i32.const 1)))))
            (local.set $l (i32.sub (local.get $len) (i32.const 2)))
            (if (i32.lt_u (local.get $l) (i32.const 7))
              (then
                (i32.store8 (local.get $op) (i32.add (i32.shr_u (local.get $off) (i32.const 8)) (i32.shl (local.get $l) (i32.const 5))))
                (local.set $op (i32.add (local.get $op) (i32.const 1))))
              (else
                (i32.store8 (local.get $op) (i32.add (i32.shr_u (local.get $off) (i32.const 8)) (i32.const 224)))
                (i32.store8 offset=1 (local.get $op) (i32.sub (local.get $l) (i32.const 7)))
                (local.set $op (i32.add (local.get $op) (i32.const 2)))))
            (i32.store8 (local.get $op) (local.get $off))
            (local.set $op (i32.add (local.get $op) (i32.const 2)))
            (local.set $lit (i32.const 0))
            (if (local.get $lib)
              (then
                (local.set $ip (i32.add (local.get $ip) (local.get $len)))
                (br_if $main (i32.ge_s (local.get $ip) (local.get $last)))
                (local.set $p (i32.sub (local.get $ip) (i32.const 2))))
              (else
                (local.set $p (i32.sub (i32.add (local.get $ip) (local.get $len)) (i32.const 2)))
                (local.set $ip (i32.add (local.get $ip) (local.get $len)))))
            (local.set $hval (i32.or (i32.shl (i32.load8_u (local.get $p)) (i32.const 8)) (i32.load8_u offset=1 (local.get $p))))
            (local.set $hval (i32.or (i32.shl (local.get $hval) (i32.const 8)) (i32.load8_u offset=2 (local.get $p))))
            (i32.store (i32.add (local.get $htab) (i32.shl (call $slot (local.get $hval) (local.get $lib)) (i32.const 2))) (local.get $p))
            (local.set $p (i32.add (local.get $p) (i32.const 1)))
            (local.set $hval (i32.or (i32.shl (local.get $hval) (i32.const 8)) (i32.load8_u offset=2 (local.get $p))))
            (i32.store (i32.add (local.get $htab) (i32.shl (call $slot (local.get $hval) (local.get $lib)) (i32.const 2))) (local.get $p)))
          (else
            (local.set $lit (i32.add (local.get $lit) (i32.const 1)))
            (i32.store8 (local.get $op) (i32.load8_u (local.get $ip)))
            (local.set $op (i32.add (local.get $op) (i32.const 1)))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (if (i32.eq (local.get $lit) (i32.const 32))
              (then
                (i32.store8 (i32.sub (local.get $op) (i32.const 33)) (i32.const 31))
                (local.set $lit (i32.const 0))
                (local.set $op (i32.add (local.get $op) (i32.const 1)))))))
        (br $top)))
    ;; the last bytes are literals
    (block $tail
      (loop $t
        (br_if $tail (i32.ge_s (local.get $ip) (local.get $n)))
        (local.set $lit (i32.add (local.get $lit) (i32.const 1)))
        (i32.store8 (local.get $op) (i32.load8_u (local.get $ip)))
        (local.set $op (i32.add (local.get $op) (i32.const 1)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (if (i32.eq (local.get $lit) (i32.const 32))
          (then
            (i32.store8 (i32.sub (local.get $op) (i32.const 33)) (i32.const 31))
            (local.set $lit (i32.const 0))
            (local.set $op (i32.add (local.get $op) (i32.const 1)))))
        (br $t)))
    (i32.store8 (i32.sub (i32.sub (local.get $op) (local.get $lit)) (i32.const 1)) (i32.sub (local.get $lit) (i32.const 1)))
    (if (i32.eqz (local.get $lit)) (then (local.set $op (i32.sub (local.get $op) (i32.const 1)))))
    (i32.sub (local.get $op) (local.get $out)))

  ;; Where `run` stopped when it needs more room: the input position of the
  ;; token it could not write, and the output position.
  (global $gip (export "gip") (mut i32) (i32.const 0))
  (global $gop (export "gop") (mut i32) (i32.const 0))

;; run(ip, inEnd, op, outStart, cap, limitEnd): checks and decodes the
  ;; stream from ip to inEnd, writing at op. Returns 0 when done (the output
  ;; ends at $gop), 1 when the next token does not fit below cap (grow the
  ;; memory and call again from $gip, $gop), -1 when the stream is damaged or
  ;; its output passes limitEnd (the JavaScript `measure` then names the
  ;; problem). The input lies below outStart, and cap <= limitEnd.
  ;;
  ;; Speed: while a token ends 32 bytes or more below cap, short literal runs
  ;; and references are copied in whole 8-byte words, which may write up to
  ;; 32 bytes past the token's end, below cap (the next tokens overwrite
  ;; them; the output is [outStart, $gop)). A word read may pass inEnd, into
  ;; the output area above it: such bytes are never kept.
  (func (export "run") (param $ip i32) (param $inEnd i32) (param $op i32) (param $outStart i32) (param $cap i32) (param $limitEnd i32) (result i32)
    (local $ctrl i32) (local $len i32) (local $ref i32) (local $end i32) (local $tok i32) (local $dist i32) (local $fast i32)
    ;; tokens ending at or below $fast may overcopy
    (local.set $fast (i32.sub (local.get $cap) (i32.const 32)))
    (block $done
      (loop $top
        (br_if $done (i32.ge_u (local.get $ip) (local.get $inEnd)))
        (local.set $tok (local.get $ip))
        (local.set $ctrl (i32.load8_u (local.get $ip)))
        (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
        (if (i32.lt_u (local.get $ctrl) (i32.const 32))
          (then
            (local.set $len (i32.add (local.get $ctrl) (i32.const 1)))
            (if (i32.gt_u (i32.add (local.get $ip) (local.get $len)) (local.get $inEnd)) (then (return (i32.const -1))))
            (local.set $end (i32.add (local.get $op) (local.get $len)))
            (if (i32.le_u (local.get $end) (local.get $fast))
              (then
                ;; 1-32 bytes: four words
                (i64.store (local.get $op) (i64.load (local.get $ip)))
                (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $ip)))
                (i64.store offset=16 (local.get $op) (i64.load offset=16 (local.get $ip)))
                (i64.store offset=24 (local.get $op) (i64.load offset=24 (local.get $ip)))
                (local.set $op (local.get $end))
                (local.set $ip (i32.add (local.get $ip) (local.get $len)))
                (br $top)))
            (if (i32.gt_u (local.get $end) (local.get $cap))
              (then
                (if (i32.gt_u (local.get $end) (local.get $limitEnd)) (then (return (i32.const -1))))
                (global.set $gip (local.get $tok)) (global.set $gop (local.get $op)) (return (i32.const 1))))
            (memory.copy (local.get $op) (local.get $ip) (local.get $len))
            (local.set $op (local.get $end))
            (local.set $ip (i32.add (local.get $ip) (local.get $len))))
          (else
            (local.set $len (i32.shr_u (local.get $ctrl) (i32.const 5)))
            (if (i32.eq (local.get $len) (i32.const 7))
              (then
                (if (i32.ge_u (local.get $ip) (local.get $inEnd)) (then (return (i32.const -1))))
                (local.set $len (i32.add (local.get $len) (i32.load8_u (local.get $ip))))
                (local.set $ip (i32.add (local.get $ip) (i32.const 1)))))
            (if (i32.ge_u (local.get $ip) (local.get $inEnd)) (then (return (i32.const -1))))
            (local.set $dist
              (i32.add
                (i32.or (i32.shl (i32.and (local.get $ctrl) (i32.const 31)) (i32.const 8)) (i32.load8_u (local.get $ip)))
                (i32.const 1)))
            (local.set $ref (i32.sub (local.get $op) (local.get $dist)))
            (if (i32.lt_s (local.get $ref) (local.get $outStart)) (then (return (i32.const -1))))
            (local.set $ip (i32.add (local.get $ip) (i32.const 1)))
            (local.set $len (i32.add (local.get $len) (i32.const 2)))
            (local.set $end (i32.add (local.get $op) (local.get $len)))
            (if (i32.and (i32.le_u (local.get $end) (local.get $fast)) (i32.le_u (local.get $len) (i32.const 16)))
              (then
                (if (i32.ge_u (local.get $dist) (i32.const 8))
                  (then
                    ;; 3-16 bytes, 8 or more back: two words (the second
                    ;; reads only bytes the first has made final)
                    (i64.store (local.get $op) (i64.load (local.get $ref)))
                    (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $ref)))
                    (local.set $op (local.get $end))
                    (br $top)))
                (if (i32.eq (local.get $dist) (i32.const 1))
                  (then
                    ;; a run of one byte: two words of it
                    (i64.store (local.get $op) (i64.mul (i64.load8_u (local.get $ref)) (i64.const 0x0101010101010101)))
                    (i64.store offset=8 (local.get $op) (i64.load (local.get $op)))
                    (local.set $op (local.get $end))
                    (br $top)))))
            (if (i32.gt_u (local.get $end) (local.get $cap))
              (then
                (if (i32.gt_u (local.get $end) (local.get $limitEnd)) (then (return (i32.const -1))))
                (global.set $gip (local.get $tok)) (global.set $gop (local.get $op)) (return (i32.const 1))))
            (if (i32.and (i32.le_u (local.get $end) (local.get $fast)) (i32.ge_u (local.get $dist) (i32.const 8)))
              (then
                ;; 17-264 bytes, 8 or more back (overlapping or not): 32
                ;; bytes a step, word by word, each word read only after the
                ;; words before it are written (so it reads final bytes);
                ;; cheaper than a memory.copy call for these short lengths
                (loop $quad
                  (i64.store (local.get $op) (i64.load (local.get $ref)))
                  (i64.store offset=8 (local.get $op) (i64.load offset=8 (local.get $ref)))
                  (i64.store offset=16 (local.get $op) (i64.load offset=16 (local.get $ref)))
                  (i64.store offset=24 (local.get $op) (i64.load offset=24 (local.get $ref)))
                  (local.set $op (i32.add (local.get $op) (i32.const 32)))
                  (local.set $ref (i32.add (local.get $ref) (i32.const 32)))
                  (br_if $quad (i32.lt_u (local.get $op) (local.get $end))))
                (local.set $op (local.get $end))
                (br $top)))
            (if (i32.ge_u (local.get $dist) (local.get $len))
              (then
                (memory.copy (local.get $op) (local.get $ref) (local.get $len))
                (local.set $op (local.get $end)))
              (else
                (if (i32.eq (local.get $dist) (i32.const 1))
                  (then
                    (memory.fill (local.get $op) (i32.load8_u (local.get $ref)) (local.get $len))
                    (local.set $op (local.get $end)))
                  (else
                    (if (i32.le_u (local.get $end) (local.get $fast))
                      (then
                        ;; an overlapping copy (a repeated pattern): the
                        ;; output repeats with period $dist, so also with
                        ;; any multiple of it; with a period of 8 or more
                        ;; (the first multiple from 8: its first bytes one
                        ;; by one), whole words copy it
                        (if (i32.lt_u (local.get $dist) (i32.const 8))
                          (then
                            (local.set $dist
                              (i32.mul (local.get $dist)
                                (i32.div_u (i32.add (local.get $dist) (i32.const 7)) (local.get $dist))))
                            (local.set $ctrl (i32.add (local.get $op) (local.get $dist)))
                            (if (i32.gt_u (local.get $ctrl) (local.get $end)) (then (local.set $ctrl (local.get $end))))
                            (loop $head
                              (i32.store8 (local.get $op) (i32.load8_u (local.get $ref)))
                              (local.set $op (i32.add (local.get $op) (i32.const 1)))
                              (local.set $ref (i32.add (local.get $ref) (i32.const 1)))
                              (br_if $head (i32.lt_u (local.get $op) (local.get $ctrl))))))
                        (block $words
                          (loop $word
                            (br_if $words (i32.ge_u (local.get $op) (local.get $end)))
                            (i64.store (local.get $op) (i64.load (i32.sub (local.get $op) (local.get $dist))))
                            (local.set $op (i32.add (local.get $op) (i32.const 8)))
                            (br $word)))
                        (local.set $op (local.get $end)))
                      (else
                        (loop $copy
                          (i32.store8 (local.get $op) (i32.load8_u (local.get $ref)))
                          (local.set $op (i32.add (local.get $op) (i32.const 1)))
                          (local.set $ref (i32.add (local.get $ref) (i32.const 1)))
                          (br_if $copy (i32.lt_u (local.get $op) (local.get $end))))))))))))
        (br $top)))
    (global.set $gop (local.get $op))
    (i32.const 0))

  ;; split(src, n, le, dst), for SpriteTile levels (which are LZF inside, so
  ;; their cells can be split where the decoder left them): the n 7-byte
  ;; cells at src (le: 1 little-endian, 0 big) become i16 tiles at dst, u16
  ;; flags at dst + 2n, i16 order at dst + 4n and u8 triggers at dst + 6n,
  ;; little-endian. Returns -1, or the index of the first cell with a tile
  ;; below -1 or a rotation above 1800 (the caller then reports it).
  (func (export "split") (param $src i32) (param $n i32) (param $le i32) (param $dst i32) (result i32)
    (call $splitFrom (local.get $src) (i32.const 0) (local.get $n) (local.get $le) (local.get $dst)))

  ;; splitFrom(src, from, n, le, dst): split's cells from index `from` on (the
  ;; same layout for all n cells): the SIMD split of split.wat imports it for
  ;; its tail and for a step with a bad cell.
  (func $splitFrom (export "splitFrom") (param $src i32) (param $from i32) (param $n i32) (param $le i32) (param $dst i32) (result i32)
    (local $i i32) (local $p i32) (local $t i32) (local $f i32) (local $o i32)
    (local $fl i32) (local $or i32) (local $tr i32)
    (local.set $i (local.get $from))
    (local.set $fl (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $or (i32.add (local.get $dst) (i32.shl (local.get $n) (i32.const 2))))
    (local.set $tr (i32.add (local.get $or) (i32.shl (local.get $n) (i32.const 1))))
    (local.set $p (i32.add (local.get $src) (i32.mul (local.get $from) (i32.const 7))))
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
