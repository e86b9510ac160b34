;; WebAssembly SIMD kernels of the compositor (src/render/compose.ts): the
;; same pixels as its JavaScript loops, bit for bit (same integer rounding,
;; same floating-point expressions in the same order). Pixels are straight
;; RGBA words (little-endian: R is the low byte). The memory is imported:
;; compose.ts gives a private one, grown as needed, and copies the source
;; rectangle and the destination box into it for each draw, or a canvas
;; image's own memory, drawn in place (its sources copied in, or read in
;; place when placed there by placeOnCanvas).
;;
;; Every row kernel works in two steps: it writes the row's source pixels,
;; with their final alpha, to a temporary row, then `over` blends that row
;; onto the destination, four pixels per vector.
(module
  (import "env" "mem" (memory 1))

  ;; Source-over of the pixel q (its own alpha ignored) with alpha A onto the word at o: blendPx / blendWord.
  (func $px (param $o i32) (param $q i32) (param $A i32)
    (local $p i32) (local $D i32) (local $ia i32) (local $t i32) (local $tg i32)
    (local $sA i32) (local $dD i32) (local $den i32) (local $den2 i32)
    (if (i32.eqz (local.get $A)) (then (return)))
    (if (i32.eq (local.get $A) (i32.const 255))
      (then (i32.store (local.get $o) (i32.or (local.get $q) (i32.const 0xff000000))) (return)))
    (local.set $p (i32.load (local.get $o)))
    (local.set $D (i32.shr_u (local.get $p) (i32.const 24)))
    (if (i32.eqz (local.get $D))
      (then
        (i32.store (local.get $o)
          (i32.or (i32.and (local.get $q) (i32.const 0xffffff)) (i32.shl (local.get $A) (i32.const 24))))
        (return)))
    (local.set $ia (i32.sub (i32.const 255) (local.get $A)))
    (if (i32.eq (local.get $D) (i32.const 255))
      (then
        (local.set $t
          (i32.add
            (i32.add
              (i32.mul (i32.and (local.get $q) (i32.const 0xff00ff)) (local.get $A))
              (i32.mul (i32.and (local.get $p) (i32.const 0xff00ff)) (local.get $ia)))
            (i32.const 0x800080)))
        (local.set $tg
          (i32.add
            (i32.add
              (i32.mul (i32.and (i32.shr_u (local.get $q) (i32.const 8)) (i32.const 255)) (local.get $A))
              (i32.mul (i32.and (i32.shr_u (local.get $p) (i32.const 8)) (i32.const 255)) (local.get $ia)))
            (i32.const 128)))
        (i32.store (local.get $o)
          (i32.or
            (i32.or
              (i32.and
                (i32.shr_u
                  (i32.add (local.get $t) (i32.and (i32.shr_u (local.get $t) (i32.const 8)) (i32.const 0xff00ff)))
                  (i32.const 8))
                (i32.const 0xff00ff))
              (i32.shl (i32.shr_u (i32.add (local.get $tg) (i32.shr_u (local.get $tg) (i32.const 8))) (i32.const 8)) (i32.const 8)))
            (i32.const 0xff000000)))
        (return)))
    ;; Both translucent: the exact straight-alpha formula of blendPx.
    (local.set $sA (i32.mul (local.get $A) (i32.const 255)))
    (local.set $dD (i32.mul (local.get $D) (local.get $ia)))
    (local.set $den (i32.add (local.get $sA) (local.get $dD)))
    (local.set $den2 (i32.shl (local.get $den) (i32.const 1)))
    (local.set $t (i32.add (local.get $den) (i32.const 128)))
    (i32.store (local.get $o)
      (i32.or
        (i32.or
          (call $ch (local.get $q) (local.get $p) (i32.const 0) (local.get $sA) (local.get $dD) (local.get $den) (local.get $den2))
          (i32.shl
            (call $ch (local.get $q) (local.get $p) (i32.const 8) (local.get $sA) (local.get $dD) (local.get $den) (local.get $den2))
            (i32.const 8)))
        (i32.or
          (i32.shl
            (call $ch (local.get $q) (local.get $p) (i32.const 16) (local.get $sA) (local.get $dD) (local.get $den) (local.get $den2))
            (i32.const 16))
          (i32.shl (i32.shr_u (i32.add (local.get $t) (i32.shr_u (local.get $t) (i32.const 8))) (i32.const 8)) (i32.const 24))))))

  ;; One channel (at bit sh) of blendPx's translucent case: (2*(cs*sA + cd*dD) + den) / den2, truncated.
  (func $ch (param $q i32) (param $p i32) (param $sh i32) (param $sA i32) (param $dD i32) (param $den i32) (param $den2 i32) (result i32)
    (i32.div_u
      (i32.add
        (i32.shl
          (i32.add
            (i32.mul (i32.and (i32.shr_u (local.get $q) (local.get $sh)) (i32.const 255)) (local.get $sA))
            (i32.mul (i32.and (i32.shr_u (local.get $p) (local.get $sh)) (i32.const 255)) (local.get $dD)))
          (i32.const 1))
        (local.get $den))
      (local.get $den2)))

  ;; `over` with opacity (lut: the 256-byte table of final alphas, lut[255]
  ;; its alpha for opaque texels): the same pixels as `over` with that table.
  ;; Four opaque texels onto four opaque pixels (the usual case) blend with
  ;; the constant alpha lut[255], without looking anything up.
  (func $overOp (param $d i32) (param $s i32) (param $n i32) (param $lut i32)
    (call $overOpK (local.get $d) (local.get $s) (local.get $n) (local.get $lut)
      (v128.const i32x4 0xffffff 0xffffff 0xffffff 0xffffff)
      (v128.const i32x4 0xff000000 0xff000000 0xff000000 0xff000000)
      (v128.const i8x16 3 3 3 3 7 7 7 7 11 11 11 11 15 15 15 15)
      (v128.const i16x8 128 128 128 128 128 128 128 128)))

  ;; $overOp with its constants as parameters (as $overK).
  (func $overOpK (param $d i32) (param $s i32) (param $n i32) (param $lut i32)
    (param $kRgb v128) (param $kA v128) (param $kSwz v128) (param $k128 v128)
    (local $end i32) (local $sv v128) (local $dv v128) (local $sv2 v128) (local $dv2 v128) (local $q i32) (local $opq i32) (local $opqv v128)
    (local $ov v128) (local $iov v128) (local $av v128) (local $iav v128) (local $lo v128) (local $hi v128)
    (local.set $opq (i32.load8_u offset=255 (local.get $lut)))
    (local.set $opqv (i32x4.splat (i32.shl (local.get $opq) (i32.const 24))))
    (local.set $ov (i8x16.splat (local.get $opq)))
    (local.set $iov (i8x16.splat (i32.sub (i32.const 255) (local.get $opq))))
    (local.set $end (i32.add (local.get $d) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $quad
        (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
        ;; Eight opaque texels onto eight opaque pixels: two vectors, one test each.
        (if (i32.le_u (i32.add (local.get $d) (i32.const 32)) (local.get $end))
          (then
            (local.set $sv (v128.load align=1 (local.get $s)))
            (local.set $sv2 (v128.load offset=16 align=1 (local.get $s)))
            ;; Eight transparent texels: nothing to draw.
            (if (i32.eqz (v128.any_true (v128.and (v128.or (local.get $sv) (local.get $sv2)) (local.get $kA))))
              (then
                (local.set $d (i32.add (local.get $d) (i32.const 32)))
                (local.set $s (i32.add (local.get $s) (i32.const 32)))
                (br $quad)))
            (if (i32.and (i32.ne (local.get $opq) (i32.const 255)) (i32x4.all_true (i32x4.eq (v128.or (v128.and (local.get $sv) (local.get $sv2)) (local.get $kRgb)) (v128.const i32x4 -1 -1 -1 -1))))
              (then
                (local.set $dv (v128.load align=1 (local.get $d)))
                (local.set $dv2 (v128.load offset=16 align=1 (local.get $d)))
                (if (i32x4.all_true (i32x4.eq (v128.or (v128.and (local.get $dv) (local.get $dv2)) (local.get $kRgb)) (v128.const i32x4 -1 -1 -1 -1)))
                  (then
                    (v128.store align=1 (local.get $d)
                      (v128.or
                        (i8x16.narrow_i16x8_u
                          (i16x8.shr_u (i16x8.add (local.tee $lo (i16x8.add (i16x8.add (i16x8.extmul_low_i8x16_u (local.get $sv) (local.get $ov))
                                                                             (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $lo) (i32.const 8))) (i32.const 8))
                          (i16x8.shr_u (i16x8.add (local.tee $hi (i16x8.add (i16x8.add (i16x8.extmul_high_i8x16_u (local.get $sv) (local.get $ov))
                                                                             (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $hi) (i32.const 8))) (i32.const 8)))
                        (local.get $kA)))
                    (v128.store offset=16 align=1 (local.get $d)
                      (v128.or
                        (i8x16.narrow_i16x8_u
                          (i16x8.shr_u (i16x8.add (local.tee $lo (i16x8.add (i16x8.add (i16x8.extmul_low_i8x16_u (local.get $sv2) (local.get $ov))
                                                                             (i16x8.extmul_low_i8x16_u (local.get $dv2) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $lo) (i32.const 8))) (i32.const 8))
                          (i16x8.shr_u (i16x8.add (local.tee $hi (i16x8.add (i16x8.add (i16x8.extmul_high_i8x16_u (local.get $sv2) (local.get $ov))
                                                                             (i16x8.extmul_high_i8x16_u (local.get $dv2) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $hi) (i32.const 8))) (i32.const 8)))
                        (local.get $kA)))
                    (local.set $d (i32.add (local.get $d) (i32.const 32)))
                    (local.set $s (i32.add (local.get $s) (i32.const 32)))
                    (br $quad)))))))
        (local.set $sv (v128.load align=1 (local.get $s)))
        (if (i32x4.all_true (i32x4.eq (v128.or (local.get $sv) (local.get $kRgb)) (v128.const i32x4 -1 -1 -1 -1)))
          (then
            ;; Four opaque texels: all take the alpha lut[255].
            (if (i32.eq (local.get $opq) (i32.const 255))
              (then (v128.store align=1 (local.get $d) (local.get $sv)))
              (else
                (local.set $dv (v128.load align=1 (local.get $d)))
                (if (i32x4.all_true (i32x4.eq (v128.or (local.get $dv) (local.get $kRgb)) (v128.const i32x4 -1 -1 -1 -1)))
                  (then
                    (v128.store align=1 (local.get $d)
                      (v128.or
                        (i8x16.narrow_i16x8_u
                          (i16x8.shr_u (i16x8.add (local.tee $lo (i16x8.add (i16x8.add (i16x8.extmul_low_i8x16_u (local.get $sv) (local.get $ov))
                                                                             (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $lo) (i32.const 8))) (i32.const 8))
                          (i16x8.shr_u (i16x8.add (local.tee $hi (i16x8.add (i16x8.add (i16x8.extmul_high_i8x16_u (local.get $sv) (local.get $ov))
                                                                             (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $iov)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $hi) (i32.const 8))) (i32.const 8)))
                        (local.get $kA))))
                  (else
                    (local.set $sv (v128.or (v128.and (local.get $sv) (local.get $kRgb))
                                            (local.get $opqv)))
                    (call $px (local.get $d) (i32x4.extract_lane 0 (local.get $sv)) (i8x16.extract_lane_u 3 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 4)) (i32x4.extract_lane 1 (local.get $sv)) (i8x16.extract_lane_u 7 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 8)) (i32x4.extract_lane 2 (local.get $sv)) (i8x16.extract_lane_u 11 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 12)) (i32x4.extract_lane 3 (local.get $sv)) (i8x16.extract_lane_u 15 (local.get $sv))))))))
          (else
            (if (v128.any_true (v128.and (local.get $sv) (local.get $kA)))
              (then
                ;; Some texels not opaque (none is opaque after the table: lut[a] <= a).
                (local.set $sv (i8x16.replace_lane 3 (local.get $sv)
                  (i32.load8_u (i32.add (local.get $lut) (i8x16.extract_lane_u 3 (local.get $sv))))))
                (local.set $sv (i8x16.replace_lane 7 (local.get $sv)
                  (i32.load8_u (i32.add (local.get $lut) (i8x16.extract_lane_u 7 (local.get $sv))))))
                (local.set $sv (i8x16.replace_lane 11 (local.get $sv)
                  (i32.load8_u (i32.add (local.get $lut) (i8x16.extract_lane_u 11 (local.get $sv))))))
                (local.set $sv (i8x16.replace_lane 15 (local.get $sv)
                  (i32.load8_u (i32.add (local.get $lut) (i8x16.extract_lane_u 15 (local.get $sv))))))
                (if (v128.any_true (v128.and (local.get $sv) (local.get $kA)))
                  (then
                    (local.set $dv (v128.load align=1 (local.get $d)))
                    (if (i32x4.all_true (i32x4.eq (v128.or (local.get $dv) (local.get $kRgb)) (v128.const i32x4 -1 -1 -1 -1)))
                      (then
                        (local.set $av (i8x16.swizzle (local.get $sv)
                          (local.get $kSwz)))
                        (local.set $iav (i8x16.sub (v128.const i32x4 -1 -1 -1 -1) (local.get $av)))
                        (v128.store align=1 (local.get $d)
                          (v128.or
                        (i8x16.narrow_i16x8_u
                          (i16x8.shr_u (i16x8.add (local.tee $lo (i16x8.add (i16x8.add (i16x8.extmul_low_i8x16_u (local.get $sv) (local.get $av))
                                                                             (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $iav)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $lo) (i32.const 8))) (i32.const 8))
                          (i16x8.shr_u (i16x8.add (local.tee $hi (i16x8.add (i16x8.add (i16x8.extmul_high_i8x16_u (local.get $sv) (local.get $av))
                                                                             (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $iav)))
                                                                  (local.get $k128)))
                                                  (i16x8.shr_u (local.get $hi) (i32.const 8))) (i32.const 8)))
                        (local.get $kA))))
                      (else
                        (call $px (local.get $d) (i32x4.extract_lane 0 (local.get $sv)) (i8x16.extract_lane_u 3 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 4)) (i32x4.extract_lane 1 (local.get $sv)) (i8x16.extract_lane_u 7 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 8)) (i32x4.extract_lane 2 (local.get $sv)) (i8x16.extract_lane_u 11 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 12)) (i32x4.extract_lane 3 (local.get $sv)) (i8x16.extract_lane_u 15 (local.get $sv)))))))))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $quad)))
    ;; The last 0-3 pixels.
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $n) (i32.const 3)) (i32.const 2))))
    (block $done2
      (loop $one
        (br_if $done2 (i32.ge_u (local.get $d) (local.get $end)))
        (local.set $q (i32.load (local.get $s)))
        (call $px (local.get $d) (local.get $q) (i32.load8_u (i32.add (local.get $lut) (i32.shr_u (local.get $q) (i32.const 24)))))
        (local.set $d (i32.add (local.get $d) (i32.const 4)))
        (local.set $s (i32.add (local.get $s) (i32.const 4)))
        (br $one))))

  ;; Source-over of the n pixels at s onto the n pixels at d. lut: 0, or the
  ;; address of a 256-byte table mapping each source alpha (opacity).
  (func $over (export "over") (param $d i32) (param $s i32) (param $n i32) (param $lut i32)
    (if (local.get $lut) (then (call $overOp (local.get $d) (local.get $s) (local.get $n) (local.get $lut)) (return)))
    (call $overK (local.get $d) (local.get $s) (local.get $n)
      (v128.const i32x4 0xffffff 0xffffff 0xffffff 0xffffff)
      (v128.const i32x4 0xff000000 0xff000000 0xff000000 0xff000000)
      (v128.const i8x16 3 3 3 3 7 7 7 7 11 11 11 11 15 15 15 15)
      (v128.const i16x8 128 128 128 128 128 128 128 128)))

  ;; `over` without a table. Its constants come in as parameters (kRgb: 0xffffff
  ;; in each lane, kA: 0xff000000, kSwz: the swizzle spreading each alpha
  ;; over its pixel, k128: 128 in each i16 lane), so that the compiler keeps
  ;; them in registers instead of rebuilding them for every four pixels.
  (func $overK (param $d i32) (param $s i32) (param $n i32) (param $kRgb v128) (param $kA v128) (param $kSwz v128) (param $k128 v128)
    (local $end i32) (local $sv v128) (local $dv v128) (local $av v128) (local $q i32)
    (local $iav v128) (local $lo v128) (local $hi v128) (local $sv2 v128)
    (local.set $end (i32.add (local.get $d) (i32.shl (i32.and (local.get $n) (i32.const -4)) (i32.const 2))))
    (block $done
      (loop $quad
        (br_if $done (i32.ge_u (local.get $d) (local.get $end)))
        (local.set $sv (v128.load align=1 (local.get $s)))
        ;; Eight opaque texels: copied, one test.
        (if (i32.le_u (i32.add (local.get $d) (i32.const 32)) (local.get $end))
          (then
            (local.set $sv2 (v128.load offset=16 align=1 (local.get $s)))
            (if (i32x4.all_true (i32x4.eq (v128.or (v128.and (local.get $sv) (local.get $sv2))
                                                   (local.get $kRgb))
                                          (v128.const i32x4 -1 -1 -1 -1)))
              (then
                (v128.store align=1 (local.get $d) (local.get $sv))
                (v128.store offset=16 align=1 (local.get $d) (local.get $sv2))
                (local.set $d (i32.add (local.get $d) (i32.const 32)))
                (local.set $s (i32.add (local.get $s) (i32.const 32)))
                (br $quad)))
            ;; Eight transparent texels: nothing to draw.
            (if (i32.eqz (v128.any_true (v128.and (v128.or (local.get $sv) (local.get $sv2)) (local.get $kA))))
              (then
                (local.set $d (i32.add (local.get $d) (i32.const 32)))
                (local.set $s (i32.add (local.get $s) (i32.const 32)))
                (br $quad)))))
        (if (i32x4.all_true (i32x4.eq (v128.or (local.get $sv) (local.get $kRgb))
                                      (v128.const i32x4 -1 -1 -1 -1)))
          (then (v128.store align=1 (local.get $d) (local.get $sv)))
          (else
            (if (v128.any_true (v128.and (local.get $sv) (local.get $kA)))
              (then
                (local.set $dv (v128.load align=1 (local.get $d)))
                (if (i32x4.all_true (i32x4.eq (v128.or (local.get $dv) (local.get $kRgb))
                                              (v128.const i32x4 -1 -1 -1 -1)))
                  (then
                    ;; Onto opaque pixels: every lane at once (A = 255 gives the source, A = 0 the destination).
                    (local.set $av (i8x16.swizzle (local.get $sv)
                      (local.get $kSwz)))
                    (local.set $iav (i8x16.sub (v128.const i32x4 -1 -1 -1 -1) (local.get $av)))
                    ;; Per 16-bit lane: t = cs*A + cd*(255 - A) + 128, then (t + (t >> 8)) >> 8 (div255).
                    (local.set $lo (i16x8.add (i16x8.add (i16x8.extmul_low_i8x16_u (local.get $sv) (local.get $av))
                                                         (i16x8.extmul_low_i8x16_u (local.get $dv) (local.get $iav)))
                                              (local.get $k128)))
                    (local.set $hi (i16x8.add (i16x8.add (i16x8.extmul_high_i8x16_u (local.get $sv) (local.get $av))
                                                         (i16x8.extmul_high_i8x16_u (local.get $dv) (local.get $iav)))
                                              (local.get $k128)))
                    (v128.store align=1 (local.get $d)
                      (v128.or
                        (i8x16.narrow_i16x8_u
                          (i16x8.shr_u (i16x8.add (local.get $lo) (i16x8.shr_u (local.get $lo) (i32.const 8))) (i32.const 8))
                          (i16x8.shr_u (i16x8.add (local.get $hi) (i16x8.shr_u (local.get $hi) (i32.const 8))) (i32.const 8)))
                        (local.get $kA))))
                  (else
                    (call $px (local.get $d) (i32x4.extract_lane 0 (local.get $sv)) (i8x16.extract_lane_u 3 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 4)) (i32x4.extract_lane 1 (local.get $sv)) (i8x16.extract_lane_u 7 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 8)) (i32x4.extract_lane 2 (local.get $sv)) (i8x16.extract_lane_u 11 (local.get $sv)))
                    (call $px (i32.add (local.get $d) (i32.const 12)) (i32x4.extract_lane 3 (local.get $sv)) (i8x16.extract_lane_u 15 (local.get $sv)))))))))
        (local.set $d (i32.add (local.get $d) (i32.const 16)))
        (local.set $s (i32.add (local.get $s) (i32.const 16)))
        (br $quad)))
    ;; The last 0-3 pixels.
    (local.set $end (i32.add (local.get $end) (i32.shl (i32.and (local.get $n) (i32.const 3)) (i32.const 2))))
    (block $done2
      (loop $one
        (br_if $done2 (i32.ge_u (local.get $d) (local.get $end)))
        (local.set $q (i32.load (local.get $s)))
        (call $px (local.get $d) (local.get $q) (i32.shr_u (local.get $q) (i32.const 24)))
        (local.set $d (i32.add (local.get $d) (i32.const 4)))
        (local.set $s (i32.add (local.get $s) (i32.const 4)))
        (br $one))))

  ;; `over` for h rows of n pixels (strides in bytes): the blit.
  (func (export "blit") (param $d i32) (param $ds i32) (param $s i32) (param $ss i32) (param $n i32) (param $h i32) (param $lut i32)
    (block $done
      (loop $row
        (br_if $done (i32.le_s (local.get $h) (i32.const 0)))
        (call $over (local.get $d) (local.get $s) (local.get $n) (local.get $lut))
        (local.set $d (i32.add (local.get $d) (local.get $ds)))
        (local.set $s (i32.add (local.get $s) (local.get $ss)))
        (local.set $h (i32.sub (local.get $h) (i32.const 1)))
        (br $row))))

;; Nearest texels through a column table, four at a time where the four
  ;; columns lie within four neighbouring texels (scales >= 1 and flips):
  ;; group g (pixels 4g..4g+3) loads the 16 bytes at row + bases[g]*4 and
  ;; picks its texels with the 16-byte swizzle mask at masks + 16g (lanes
  ;; >= 16 give 0: no texel). bases[g] < 0: the group is looked up pixel by
  ;; pixel in cols (as `table`, mul 4). Then `over` at d.
  (func (export "table4") (param $t i32) (param $masks i32) (param $bases i32) (param $cols i32) (param $n i32)
    (param $row i32) (param $d i32) (param $lut i32)
    (local $g i32) (local $groups i32) (local $b i32) (local $k i32) (local $c i32) (local $p i32)
    (local.set $groups (i32.shr_u (i32.add (local.get $n) (i32.const 3)) (i32.const 2)))
    (block $done
      (loop $group
        (br_if $done (i32.ge_u (local.get $g) (local.get $groups)))
        (local.set $b (i32.load (i32.add (local.get $bases) (i32.shl (local.get $g) (i32.const 2)))))
        (local.set $p (i32.add (local.get $t) (i32.shl (local.get $g) (i32.const 4))))
        (if (i32.ge_s (local.get $b) (i32.const 0))
          (then
            (v128.store (local.get $p)
              (i8x16.swizzle
                (v128.load align=1 (i32.add (local.get $row) (i32.shl (local.get $b) (i32.const 2))))
                (v128.load (i32.add (local.get $masks) (i32.shl (local.get $g) (i32.const 4)))))))
          (else
            (local.set $k (i32.const 0))
            (block $kdone
              (loop $px
                (br_if $kdone (i32.ge_u (local.get $k) (i32.const 4)))
                (local.set $c (i32.load (i32.add (local.get $cols) (i32.shl (i32.add (i32.shl (local.get $g) (i32.const 2)) (local.get $k)) (i32.const 2)))))
                (i32.store (i32.add (local.get $p) (i32.shl (local.get $k) (i32.const 2)))
                  (if (result i32) (i32.lt_s (local.get $c) (i32.const 0))
                    (then (i32.const 0))
                    (else (i32.load (i32.add (local.get $row) (i32.shl (local.get $c) (i32.const 2)))))))
                (local.set $k (i32.add (local.get $k) (i32.const 1)))
                (br $px)))))
        (local.set $g (i32.add (local.get $g) (i32.const 1)))
        (br $group)))
    (call $over (local.get $d) (local.get $t) (local.get $n) (local.get $lut)))

    ;; Nearest texels through a column table (scales, flips, quarter turns):
  ;; pixel k takes the word at base + cols[k]*mul (none when cols[k] < 0);
  ;; then `over` at d.
  (func (export "table") (param $t i32) (param $cols i32) (param $n i32) (param $base i32) (param $mul i32) (param $d i32) (param $lut i32)
    (local $k i32) (local $c i32)
    (block $done
      (loop $px
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $c (i32.load (i32.add (local.get $cols) (i32.shl (local.get $k) (i32.const 2)))))
        (i32.store (i32.add (local.get $t) (i32.shl (local.get $k) (i32.const 2)))
          (if (result i32) (i32.lt_s (local.get $c) (i32.const 0))
            (then (i32.const 0))
            (else (i32.load (i32.add (local.get $base) (i32.mul (local.get $c) (local.get $mul)))))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $px)))
    (call $over (local.get $d) (local.get $t) (local.get $n) (local.get $lut)))

  ;; The nearest texel of destination pixel x of a row under an affine map,
  ;; as affineNearest's checked loop: u = i0*(x + 1/2) + ru, v = i1*(x + 1/2) + rv;
  ;; texel (sx + floor(u), sy + floor(v)) when u in [0, sw), v in [0, sh) and
  ;; it lies in [bx0, bx1) x [by0, by1); texel (X, Y) is the word at
  ;; org + Y*stride + X*4 (i32 arithmetic wraps). 0 for none.
  (func $nearestChecked (param $org i32) (param $stride i32)
    (param $i0 f64) (param $i1 f64) (param $ru f64) (param $rv f64) (param $sx f64) (param $sy f64) (param $sw f64) (param $sh f64)
    (param $bx0 f64) (param $bx1 f64) (param $by0 f64) (param $by1 f64) (param $x i32) (result i32)
    (local $cx f64) (local $u f64) (local $v f64) (local $X f64) (local $Y f64)
    (local.set $cx (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5)))
    (local.set $u (f64.add (f64.mul (local.get $i0) (local.get $cx)) (local.get $ru)))
    (local.set $v (f64.add (f64.mul (local.get $i1) (local.get $cx)) (local.get $rv)))
    (if (i32.and
          (i32.and (f64.ge (local.get $u) (f64.const 0)) (f64.ge (local.get $v) (f64.const 0)))
          (i32.and (f64.lt (local.get $u) (local.get $sw)) (f64.lt (local.get $v) (local.get $sh))))
      (then
        (local.set $X (f64.add (local.get $sx) (f64.floor (local.get $u))))
        (local.set $Y (f64.add (local.get $sy) (f64.floor (local.get $v))))
        (if (i32.and
              (i32.and (f64.ge (local.get $X) (local.get $bx0)) (f64.lt (local.get $X) (local.get $bx1)))
              (i32.and (f64.ge (local.get $Y) (local.get $by0)) (f64.lt (local.get $Y) (local.get $by1))))
          (then
            (return (i32.load
              (i32.add (local.get $org)
                (i32.add (i32.mul (i32.trunc_f64_s (local.get $Y)) (local.get $stride))
                         (i32.shl (i32.trunc_f64_s (local.get $X)) (i32.const 2))))))))))
    (i32.const 0))

  ;; Nearest texels of destination pixels [xa, xb) of one row (see
  ;; $nearestChecked); in [ia, ib) (nearestRun: every texel exists, u, v >= 0)
  ;; u and v are computed together in one f64x2 (the same IEEE operations)
  ;; and truncated. Then `over` at d.
  (func (export "nearest") (param $t i32) (param $org i32) (param $stride i32)
    (param $i0 f64) (param $i1 f64) (param $ru f64) (param $rv f64) (param $sx f64) (param $sy f64) (param $sw f64) (param $sh f64)
    (param $bx0 f64) (param $bx1 f64) (param $by0 f64) (param $by1 f64)
    (param $xa i32) (param $xb i32) (param $ia i32) (param $ib i32) (param $d i32) (param $lut i32)
    (local $x i32) (local $p i32) (local $k v128) (local $r v128) (local $cx v128) (local $uv v128) (local $base i32)
    (if (i32.ge_s (local.get $ia) (local.get $ib))
      (then (local.set $ia (local.get $xb)) (local.set $ib (local.get $xb))))
    (local.set $x (local.get $xa))
    (local.set $p (local.get $t))
    (block $done
      (loop $px
        (br_if $done (i32.ge_s (local.get $x) (local.get $ia)))
        (i32.store (local.get $p)
          (call $nearestChecked (local.get $org) (local.get $stride) (local.get $i0) (local.get $i1) (local.get $ru) (local.get $rv)
            (local.get $sx) (local.get $sy) (local.get $sw) (local.get $sh) (local.get $bx0) (local.get $bx1) (local.get $by0) (local.get $by1)
            (local.get $x)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $px)))
    (if (i32.lt_s (local.get $x) (local.get $ib))
      (then
        (local.set $k (f64x2.replace_lane 1 (f64x2.splat (local.get $i0)) (local.get $i1)))
        (local.set $r (f64x2.replace_lane 1 (f64x2.splat (local.get $ru)) (local.get $rv)))
        (local.set $base (i32.add (local.get $org)
          (i32.add (i32.mul (i32.trunc_sat_f64_s (local.get $sy)) (local.get $stride))
                   (i32.shl (i32.trunc_sat_f64_s (local.get $sx)) (i32.const 2)))))
        (local.set $cx (f64x2.splat (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5))))
        (block $rdone
          (loop $rpx
            (br_if $rdone (i32.ge_s (local.get $x) (local.get $ib)))
            (local.set $uv (i32x4.trunc_sat_f64x2_s_zero
              (f64x2.add (f64x2.mul (local.get $k) (local.get $cx)) (local.get $r))))
            (i32.store (local.get $p)
              (i32.load (i32.add (local.get $base)
                (i32.add (i32.mul (i32x4.extract_lane 1 (local.get $uv)) (local.get $stride))
                         (i32.shl (i32x4.extract_lane 0 (local.get $uv)) (i32.const 2))))))
            (local.set $cx (f64x2.add (local.get $cx) (v128.const f64x2 1 1)))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (local.set $x (i32.add (local.get $x) (i32.const 1)))
            (br $rpx)))))
    (block $done2
      (loop $px2
        (br_if $done2 (i32.ge_s (local.get $x) (local.get $xb)))
        (i32.store (local.get $p)
          (call $nearestChecked (local.get $org) (local.get $stride) (local.get $i0) (local.get $i1) (local.get $ru) (local.get $rv)
            (local.get $sx) (local.get $sy) (local.get $sw) (local.get $sh) (local.get $bx0) (local.get $bx1) (local.get $by0) (local.get $by1)
            (local.get $x)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $px2)))
    (call $over (local.get $d) (local.get $t) (i32.sub (local.get $xb) (local.get $xa)) (local.get $lut)))

  ;; Math.round for the non-negative values of the bilinear path (exact: x - floor(x) is).
  (func $round (param $x f64) (result f64)
    (local $f f64)
    (local.set $f (f64.floor (local.get $x)))
    (if (result f64) (f64.ge (f64.sub (local.get $x) (local.get $f)) (f64.const 0.5))
      (then (f64.add (local.get $f) (f64.const 1)))
      (else (local.get $f))))

  ;; The premultiplied mix of the four texels (weights w0-w3) as
  ;; affineBilinear's general case: the pixel word with its final alpha
  ;; (through the table lut), 0 when nothing is drawn. inv: multiply by
  ;; 1 / sum wa and add 1/2 (bilinearExact) instead of Math.round(... / sum wa).
  (func $mix4 (param $q0 i32) (param $q1 i32) (param $q2 i32) (param $q3 i32)
    (param $w0 f64) (param $w1 f64) (param $w2 f64) (param $w3 f64) (param $lut i32) (param $inv i32) (result i32)
    (local $p0 f64) (local $p1 f64) (local $p2 f64) (local $p3 f64) (local $a f64) (local $ia f64) (local $A i32)
    (local $rg v128) (local $f2 v128) (local $b f64) (local $B i32)
    (local.set $p0 (f64.mul (f64.convert_i32_u (i32.shr_u (local.get $q0) (i32.const 24))) (local.get $w0)))
    (local.set $p1 (f64.mul (f64.convert_i32_u (i32.shr_u (local.get $q1) (i32.const 24))) (local.get $w1)))
    (local.set $p2 (f64.mul (f64.convert_i32_u (i32.shr_u (local.get $q2) (i32.const 24))) (local.get $w2)))
    (local.set $p3 (f64.mul (f64.convert_i32_u (i32.shr_u (local.get $q3) (i32.const 24))) (local.get $w3)))
    (local.set $a (f64.add (f64.add (f64.add (local.get $p0) (local.get $p1)) (local.get $p2)) (local.get $p3)))
    (local.set $A (i32.trunc_sat_f64_s (call $round (local.get $a))))
    (if (i32.le_s (local.get $A) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.gt_s (local.get $A) (i32.const 255)) (then (local.set $A (i32.const 255))))
    (local.set $A (i32.load8_u (i32.add (local.get $lut) (local.get $A))))
    (if (i32.eqz (local.get $A)) (then (return (i32.const 0))))
    ;; Red and green in the two lanes of an f64x2, blue alone: the same sums in the same order.
    (local.set $rg (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.swizzle (i32x4.splat (local.get $q0)) (v128.const i8x16 0 16 16 16 1 16 16 16 16 16 16 16 16 16 16 16))) (f64x2.splat (local.get $p0))))
    (local.set $rg (f64x2.add (local.get $rg) (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.swizzle (i32x4.splat (local.get $q1)) (v128.const i8x16 0 16 16 16 1 16 16 16 16 16 16 16 16 16 16 16))) (f64x2.splat (local.get $p1)))))
    (local.set $rg (f64x2.add (local.get $rg) (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.swizzle (i32x4.splat (local.get $q2)) (v128.const i8x16 0 16 16 16 1 16 16 16 16 16 16 16 16 16 16 16))) (f64x2.splat (local.get $p2)))))
    (local.set $rg (f64x2.add (local.get $rg) (f64x2.mul (f64x2.convert_low_i32x4_s (i8x16.swizzle (i32x4.splat (local.get $q3)) (v128.const i8x16 0 16 16 16 1 16 16 16 16 16 16 16 16 16 16 16))) (f64x2.splat (local.get $p3)))))
    (local.set $b (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q0) (i32.const 16)) (i32.const 255))) (local.get $p0)))
    (local.set $b (f64.add (local.get $b) (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q1) (i32.const 16)) (i32.const 255))) (local.get $p1))))
    (local.set $b (f64.add (local.get $b) (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q2) (i32.const 16)) (i32.const 255))) (local.get $p2))))
    (local.set $b (f64.add (local.get $b) (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q3) (i32.const 16)) (i32.const 255))) (local.get $p3))))
    (if (local.get $inv)
      (then
        ;; bilinearExact: times 1 / sum, plus 1/2, truncated.
        (local.set $ia (f64.div (f64.const 1) (local.get $a)))
        (local.set $rg (i32x4.trunc_sat_f64x2_s_zero
          (f64x2.add (f64x2.mul (local.get $rg) (f64x2.splat (local.get $ia))) (v128.const f64x2 0.5 0.5))))
        (local.set $B (i32.trunc_sat_f64_s (f64.add (f64.mul (local.get $b) (local.get $ia)) (f64.const 0.5)))))
      (else
        ;; Math.round(sum / a): floor, plus 1 when the fraction is at least 1/2.
        (local.set $rg (f64x2.div (local.get $rg) (f64x2.splat (local.get $a))))
        (local.set $f2 (f64x2.floor (local.get $rg)))
        (local.set $rg (i32x4.trunc_sat_f64x2_s_zero
          (f64x2.add (local.get $f2)
            (v128.and (f64x2.ge (f64x2.sub (local.get $rg) (local.get $f2)) (v128.const f64x2 0.5 0.5)) (v128.const f64x2 1 1)))))
        (local.set $B (i32.trunc_sat_f64_s (call $round (f64.div (local.get $b) (local.get $a)))))))
    (i32.or
      (i32.or (i32x4.extract_lane 0 (local.get $rg)) (i32.shl (i32x4.extract_lane 1 (local.get $rg)) (i32.const 8)))
      (i32.or (i32.shl (local.get $B) (i32.const 16)) (i32.shl (local.get $A) (i32.const 24)))))

  ;; (Bytes go to doubles with f64x2.convert_low_i32x4_s: the same values as
  ;; the unsigned conversion, in one x64 instruction instead of four.)
  ;; bilinearExact for two soft-rim pixels at once, one per f64x2 lane: the
  ;; same IEEE operations in the same order as the JavaScript for each (so
  ;; the same bytes), one division for both. va, vb: the quads (q0 q1 q2 q3
  ;; in i32 lanes); tx, ty: [A's, B's] fractions. Writes A's word at pa,
  ;; returns B's (0 for none). A single pixel passes itself as both.
  (func $exact2 (param $va v128) (param $vb v128) (param $tx v128) (param $ty v128) (param $lut i32) (param $pa i32)
    (result i32)
    (local $mx v128) (local $my v128) (local $w v128) (local $t v128) (local $p0 v128) (local $p1 v128) (local $p2 v128) (local $p3 v128)
    (local $a v128) (local $f v128) (local $r v128) (local $g v128) (local $b v128) (local $ia v128) (local $rgb v128) (local $A v128)
    (local $t1 v128) (local $t2 v128) (local $t3 v128) (local $x i32) (local $y i32)
    (local.set $mx (f64x2.sub (v128.const f64x2 1 1) (local.get $tx)))
    (local.set $my (f64x2.sub (v128.const f64x2 1 1) (local.get $ty)))
    ;; Texel i of both quads: [A's word, B's word] in the low two i32 lanes.
    (local.set $t (i8x16.shuffle 0 1 2 3 16 17 18 19 0 1 2 3 16 17 18 19 (local.get $va) (local.get $vb)))
    (local.set $t1 (i8x16.shuffle 4 5 6 7 20 21 22 23 4 5 6 7 20 21 22 23 (local.get $va) (local.get $vb)))
    (local.set $t2 (i8x16.shuffle 8 9 10 11 24 25 26 27 8 9 10 11 24 25 26 27 (local.get $va) (local.get $vb)))
    (local.set $t3 (i8x16.shuffle 12 13 14 15 28 29 30 31 12 13 14 15 28 29 30 31 (local.get $va) (local.get $vb)))
    ;; p_i = alpha_i * w_i (w0 = (1-tx)(1-ty), w1 = tx(1-ty), w2 = (1-tx)ty, w3 = tx ty).
    (local.set $p0 (f64x2.mul (f64x2.convert_low_i32x4_s (i32x4.shr_u (local.get $t) (i32.const 24)))
      (f64x2.mul (local.get $mx) (local.get $my))))
    (local.set $p1 (f64x2.mul (f64x2.convert_low_i32x4_s (i32x4.shr_u (local.get $t1) (i32.const 24)))
      (f64x2.mul (local.get $tx) (local.get $my))))
    (local.set $p2 (f64x2.mul (f64x2.convert_low_i32x4_s (i32x4.shr_u (local.get $t2) (i32.const 24)))
      (f64x2.mul (local.get $mx) (local.get $ty))))
    (local.set $p3 (f64x2.mul (f64x2.convert_low_i32x4_s (i32x4.shr_u (local.get $t3) (i32.const 24)))
      (f64x2.mul (local.get $tx) (local.get $ty))))
    (local.set $a (f64x2.add (f64x2.add (f64x2.add (local.get $p0) (local.get $p1)) (local.get $p2)) (local.get $p3)))
    ;; Math.round(a): floor, plus 1 when the fraction is at least 1/2.
    (local.set $f (f64x2.floor (local.get $a)))
    (local.set $A (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (local.get $f)
      (v128.and (f64x2.ge (f64x2.sub (local.get $a) (local.get $f)) (v128.const f64x2 0.5 0.5)) (v128.const f64x2 1 1)))))
    (local.set $mx (v128.const i32x4 0xff 0xff 0 0))
    (local.set $r (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (local.get $t) (local.get $mx))) (local.get $p0)))
    (local.set $g (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t) (i32.const 8)) (local.get $mx))) (local.get $p0)))
    (local.set $b (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t) (i32.const 16)) (local.get $mx))) (local.get $p0)))
    (local.set $r (f64x2.add (local.get $r) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (local.get $t1) (local.get $mx))) (local.get $p1))))
    (local.set $g (f64x2.add (local.get $g) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t1) (i32.const 8)) (local.get $mx))) (local.get $p1))))
    (local.set $b (f64x2.add (local.get $b) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t1) (i32.const 16)) (local.get $mx))) (local.get $p1))))
    (local.set $r (f64x2.add (local.get $r) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (local.get $t2) (local.get $mx))) (local.get $p2))))
    (local.set $g (f64x2.add (local.get $g) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t2) (i32.const 8)) (local.get $mx))) (local.get $p2))))
    (local.set $b (f64x2.add (local.get $b) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t2) (i32.const 16)) (local.get $mx))) (local.get $p2))))
    (local.set $r (f64x2.add (local.get $r) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (local.get $t3) (local.get $mx))) (local.get $p3))))
    (local.set $g (f64x2.add (local.get $g) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t3) (i32.const 8)) (local.get $mx))) (local.get $p3))))
    (local.set $b (f64x2.add (local.get $b) (f64x2.mul (f64x2.convert_low_i32x4_s (v128.and (i32x4.shr_u (local.get $t3) (i32.const 16)) (local.get $mx))) (local.get $p3))))
    ;; Times 1 / a, plus 1/2, truncated (a = 0 gives no pixel below, and trunc_sat does not trap).
    (local.set $ia (f64x2.div (v128.const f64x2 1 1) (local.get $a)))
    (local.set $rgb (v128.or
      (v128.or
        (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (f64x2.mul (local.get $r) (local.get $ia)) (v128.const f64x2 0.5 0.5)))
        (i32x4.shl (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (f64x2.mul (local.get $g) (local.get $ia)) (v128.const f64x2 0.5 0.5))) (i32.const 8)))
      (i32x4.shl (i32x4.trunc_sat_f64x2_s_zero (f64x2.add (f64x2.mul (local.get $b) (local.get $ia)) (v128.const f64x2 0.5 0.5))) (i32.const 16))))
    ;; The final alphas through the table, lane by lane.
    (local.set $x (i32x4.extract_lane 0 (local.get $A)))
    (if (i32.gt_s (local.get $x) (i32.const 0))
      (then
        (if (i32.gt_s (local.get $x) (i32.const 255)) (then (local.set $x (i32.const 255))))
        (local.set $x (i32.load8_u (i32.add (local.get $lut) (local.get $x))))))
    (i32.store (local.get $pa)
      (select (i32.or (i32x4.extract_lane 0 (local.get $rgb)) (i32.shl (local.get $x) (i32.const 24))) (i32.const 0)
        (i32.gt_s (local.get $x) (i32.const 0))))
    (local.set $y (i32x4.extract_lane 1 (local.get $A)))
    (if (i32.le_s (local.get $y) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.gt_s (local.get $y) (i32.const 255)) (then (local.set $y (i32.const 255))))
    (local.set $y (i32.load8_u (i32.add (local.get $lut) (local.get $y))))
    (if (i32.eqz (local.get $y)) (then (return (i32.const 0))))
    (i32.or (i32x4.extract_lane 1 (local.get $rgb)) (i32.shl (local.get $y) (i32.const 24))))

  ;; Plain weighted mean of an opaque quad, rounded (affineBilinear's opaque case).
  (func $mean (param $q0 i32) (param $q1 i32) (param $q2 i32) (param $q3 i32) (param $sh i32)
    (param $w0 f64) (param $w1 f64) (param $w2 f64) (param $w3 f64) (result i32)
    (i32.trunc_sat_f64_s
      (call $round
        (f64.add
          (f64.add
            (f64.add
              (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q0) (local.get $sh)) (i32.const 255))) (local.get $w0))
              (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q1) (local.get $sh)) (i32.const 255))) (local.get $w1)))
            (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q2) (local.get $sh)) (i32.const 255))) (local.get $w2)))
          (f64.mul (f64.convert_i32_u (i32.and (i32.shr_u (local.get $q3) (local.get $sh)) (i32.const 255))) (local.get $w3))))))

  ;; One bilinear pixel of affineBilinear's checked loop at x (the word to blend, 0 for none).
  (func $bilinearChecked (param $org i32) (param $stride i32)
    (param $i0 f64) (param $i1 f64) (param $ru f64) (param $rv f64) (param $sx f64) (param $sy f64) (param $sw f64) (param $sh f64)
    (param $bx0 f64) (param $bx1 f64) (param $by0 f64) (param $by1 f64) (param $x i32) (param $lut i32) (param $opaqueA i32) (param $aligned i32)
    (result i32)
    (local $cx f64) (local $u f64) (local $v f64) (local $fu f64) (local $fv f64) (local $iu f64) (local $iv f64)
    (local $tx f64) (local $ty f64) (local $w0 f64) (local $w1 f64) (local $w2 f64) (local $w3 f64)
    (local $o i32) (local $q0 i32) (local $q1 i32) (local $q2 i32) (local $q3 i32)
    (local $inX0 i32) (local $inX1 i32) (local $inY0 i32) (local $inY1 i32)
    (local.set $cx (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5)))
    (local.set $u (f64.add (f64.mul (local.get $i0) (local.get $cx)) (local.get $ru)))
    (local.set $v (f64.add (f64.mul (local.get $i1) (local.get $cx)) (local.get $rv)))
    (if (i32.eqz (i32.and
          (i32.and (f64.ge (local.get $u) (f64.const 0)) (f64.ge (local.get $v) (f64.const 0)))
          (i32.and (f64.lt (local.get $u) (local.get $sw)) (f64.lt (local.get $v) (local.get $sh)))))
      (then (return (i32.const 0))))
    (local.set $fu (f64.sub (f64.add (local.get $sx) (local.get $u)) (f64.const 0.5)))
    (local.set $fv (f64.sub (f64.add (local.get $sy) (local.get $v)) (f64.const 0.5)))
    (local.set $iu (f64.floor (local.get $fu)))
    (local.set $iv (f64.floor (local.get $fv)))
    (local.set $tx (f64.sub (local.get $fu) (local.get $iu)))
    (local.set $ty (f64.sub (local.get $fv) (local.get $iv)))
    (local.set $w0 (f64.mul (f64.sub (f64.const 1) (local.get $tx)) (f64.sub (f64.const 1) (local.get $ty))))
    (local.set $w1 (f64.mul (local.get $tx) (f64.sub (f64.const 1) (local.get $ty))))
    (local.set $w2 (f64.mul (f64.sub (f64.const 1) (local.get $tx)) (local.get $ty)))
    (local.set $w3 (f64.mul (local.get $tx) (local.get $ty)))
    (local.set $inX0 (i32.and (f64.ge (local.get $iu) (local.get $bx0)) (f64.lt (local.get $iu) (local.get $bx1))))
    (local.set $inX1 (i32.and (f64.ge (f64.add (local.get $iu) (f64.const 1)) (local.get $bx0))
                              (f64.lt (f64.add (local.get $iu) (f64.const 1)) (local.get $bx1))))
    (local.set $inY0 (i32.and (f64.ge (local.get $iv) (local.get $by0)) (f64.lt (local.get $iv) (local.get $by1))))
    (local.set $inY1 (i32.and (f64.ge (f64.add (local.get $iv) (f64.const 1)) (local.get $by0))
                              (f64.lt (f64.add (local.get $iv) (f64.const 1)) (local.get $by1))))
    (if (i32.and (i32.and (local.get $inX0) (local.get $inX1)) (i32.and (local.get $inY0) (local.get $inY1)))
      (then
        (local.set $o (i32.add (local.get $org)
          (i32.add (i32.mul (i32.trunc_f64_s (local.get $iv)) (local.get $stride)) (i32.shl (i32.trunc_f64_s (local.get $iu)) (i32.const 2)))))
        (local.set $q0 (i32.load (local.get $o)))
        (local.set $q1 (i32.load offset=4 (local.get $o)))
        (local.set $q2 (i32.load (i32.add (local.get $o) (local.get $stride))))
        (local.set $q3 (i32.load offset=4 (i32.add (local.get $o) (local.get $stride))))
        (if (local.get $aligned)
          (then
            (if (i32.eqz (i32.shr_u (i32.or (i32.or (local.get $q0) (local.get $q1)) (i32.or (local.get $q2) (local.get $q3))) (i32.const 24)))
              (then (return (i32.const 0))))
            (if (i32.eq (i32.shr_u (i32.and (i32.and (local.get $q0) (local.get $q1)) (i32.and (local.get $q2) (local.get $q3))) (i32.const 24))
                        (i32.const 255))
              (then
                (return
                  (i32.or
                    (i32.or
                      (call $mean (local.get $q0) (local.get $q1) (local.get $q2) (local.get $q3) (i32.const 0)
                        (local.get $w0) (local.get $w1) (local.get $w2) (local.get $w3))
                      (i32.shl (call $mean (local.get $q0) (local.get $q1) (local.get $q2) (local.get $q3) (i32.const 8)
                        (local.get $w0) (local.get $w1) (local.get $w2) (local.get $w3)) (i32.const 8)))
                    (i32.or
                      (i32.shl (call $mean (local.get $q0) (local.get $q1) (local.get $q2) (local.get $q3) (i32.const 16)
                        (local.get $w0) (local.get $w1) (local.get $w2) (local.get $w3)) (i32.const 16))
                      (i32.shl (local.get $opaqueA) (i32.const 24))))))))))
      (else
        (local.set $o (i32.add (local.get $org)
          (i32.add (i32.mul (i32.trunc_sat_f64_s (local.get $iv)) (local.get $stride)) (i32.shl (i32.trunc_sat_f64_s (local.get $iu)) (i32.const 2)))))
        (if (i32.and (local.get $inY0) (local.get $inX0)) (then (local.set $q0 (i32.load (local.get $o)))))
        (if (i32.and (local.get $inY0) (local.get $inX1)) (then (local.set $q1 (i32.load offset=4 (local.get $o)))))
        (local.set $o (i32.add (local.get $o) (local.get $stride)))
        (if (i32.and (local.get $inY1) (local.get $inX0)) (then (local.set $q2 (i32.load (local.get $o)))))
        (if (i32.and (local.get $inY1) (local.get $inX1)) (then (local.set $q3 (i32.load offset=4 (local.get $o)))))))
    (call $mix4 (local.get $q0) (local.get $q1) (local.get $q2) (local.get $q3)
      (local.get $w0) (local.get $w1) (local.get $w2) (local.get $w3) (local.get $lut) (i32.const 0)))

  ;; bilinearRun's opaque and transparent quads for up to n pixels from p
  ;; (positions U, V in 16.16, steps dU, dV): stops at the first quad that is
  ;; neither (the soft rim) and returns how many pixels it wrote. Opaque
  ;; quads: bilinearRun's integer interpolation as two dot products of i16
  ;; pairs: per channel c0*(4096 - tx) + c1*tx (= (c0 << 12) + (c1 - c0)*tx),
  ;; >> 4, then rt*(4096 - ty) + rb*ty + 2^19 (= (rt << 12) + (rb - rt)*ty
  ;; + 2^19), >> 20, with rt and rb taken as rt - 32768 and rb - 32768 (i16:
  ;; kSign) and 2^27 + 2^19 added back (kRound); two pixels at a time where
  ;; both quads are opaque. The constants (k4096: 4096 in each i32 lane) come
  ;; in as parameters so that the compiler keeps them in registers instead of
  ;; rebuilding each one for every pixel.
  (func $fastRun (param $p i32) (param $U i32) (param $V i32) (param $dU i32) (param $dV i32) (param $n i32)
    (param $org i32) (param $stride i32) (param $A i32) (param $A2 i64) (param $blend i32) (param $duv v128) (param $duv2 v128)
    (param $kSign v128) (param $kRound v128) (param $k4096 v128)
    (param $dd i32) (param $kA v128) (param $kIA v128) (param $k128 v128) (result i32)
    (local $dq i64)
    (local $uv v128) (local $wv v128) (local $k i32) (local $o i32) (local $o2 i32)
    (local $qa i64) (local $qb i64) (local $qc i64) (local $qd i64)
    (local $quad v128) (local $quad2 v128) (local $c0 v128) (local $top v128) (local $bot v128) (local $all v128) (local $all2 v128)
    ;; [U, V, U + dU, V + dV], for the weights (steps: duv = [dU, dV, dU, dV], duv2 = 2 duv).
    (local.set $uv (i32x4.add (i32x4.replace_lane 3 (i32x4.replace_lane 1 (i32x4.splat (local.get $U)) (local.get $V)) (local.get $V))
      (v128.and (local.get $duv) (v128.const i32x4 0 0 -1 -1))))
    (block $done
      (loop $px
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $o (i32.add (local.get $org)
          (i32.add (i32.mul (i32.shr_s (local.get $V) (i32.const 16)) (local.get $stride))
                   (i32.shl (i32.shr_s (local.get $U) (i32.const 16)) (i32.const 2)))))
        ;; The quad's top (q0, q1) and bottom (q2, q3) pairs as two i64s, for the alpha tests.
        (local.set $qa (i64.load (local.get $o)))
        (local.set $qb (i64.load (i32.add (local.get $o) (local.get $stride))))
        ;; Weights [tx, ty] = (U >> 4) & 4095, (V >> 4) & 4095 (the next pixel's in lanes 2, 3), as i16 pairs (4096 - t, t).
        (local.set $wv (i32x4.shr_u (i32x4.shl (local.get $uv) (i32.const 16)) (i32.const 20)))
        (local.set $wv (i32x4.add (i32x4.sub (i32x4.shl (local.get $wv) (i32.const 16)) (local.get $wv)) (local.get $k4096)))
        (if (i64.eq (i64.and (i64.and (local.get $qa) (local.get $qb)) (i64.const 0xff000000ff000000)) (i64.const 0xff000000ff000000))
          (then
            ;; [q0 q1 q2 q3] and [q1 q2 q3 q0]: their bytes interleaved give the pairs
            ;; (c0, c1) of the top row (low half) and (c2, c3) of the bottom row (high half).
            (local.set $quad (i64x2.replace_lane 1 (i64x2.splat (local.get $qa)) (local.get $qb)))
            (if (i32.lt_s (i32.add (local.get $k) (i32.const 1)) (local.get $n))
              (then
                ;; The next pixel's quad opaque too: both at once.
                (local.set $o2 (i32.add (local.get $org)
          (i32.add (i32.mul (i32.shr_s (i32.add (local.get $V) (local.get $dV)) (i32.const 16)) (local.get $stride))
                   (i32.shl (i32.shr_s (i32.add (local.get $U) (local.get $dU)) (i32.const 16)) (i32.const 2)))))
                (local.set $qc (i64.load (local.get $o2)))
                (local.set $qd (i64.load (i32.add (local.get $o2) (local.get $stride))))
                (if (i64.eq (i64.and (i64.and (local.get $qc) (local.get $qd)) (i64.const 0xff000000ff000000)) (i64.const 0xff000000ff000000))
                  (then
                    (local.set $quad2 (i64x2.replace_lane 1 (i64x2.splat (local.get $qc)) (local.get $qd)))
                    (local.set $c0 (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 0 1 2 3 (local.get $quad) (local.get $quad)))
                    (local.set $top (i32x4.dot_i16x8_s
                      (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $quad) (local.get $c0)))
                      (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $wv) (local.get $wv))))
                    (local.set $bot (i32x4.dot_i16x8_s
                      (i16x8.extend_low_i8x16_u (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $quad) (local.get $c0)))
                      (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $wv) (local.get $wv))))
                    (local.set $all (i32x4.shr_u (i32x4.add (local.get $kRound) (i32x4.dot_i16x8_s
                      (v128.xor
                        (i8x16.shuffle 0 1 18 19 4 5 22 23 8 9 26 27 12 13 30 31
                          (i32x4.shr_u (local.get $top) (i32.const 4)) (i32x4.shl (local.get $bot) (i32.const 12)))
                        (local.get $kSign))
                      (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $wv) (local.get $wv)))) (i32.const 20)))
                    (local.set $c0 (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 0 1 2 3 (local.get $quad2) (local.get $quad2)))
                    (local.set $top (i32x4.dot_i16x8_s
                      (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $quad2) (local.get $c0)))
                      (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $wv) (local.get $wv))))
                    (local.set $bot (i32x4.dot_i16x8_s
                      (i16x8.extend_low_i8x16_u (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $quad2) (local.get $c0)))
                      (i8x16.shuffle 8 9 10 11 8 9 10 11 8 9 10 11 8 9 10 11 (local.get $wv) (local.get $wv))))
                    (local.set $all2 (i32x4.shr_u (i32x4.add (local.get $kRound) (i32x4.dot_i16x8_s
                      (v128.xor
                        (i8x16.shuffle 0 1 18 19 4 5 22 23 8 9 26 27 12 13 30 31
                          (i32x4.shr_u (local.get $top) (i32.const 4)) (i32x4.shl (local.get $bot) (i32.const 12)))
                        (local.get $kSign))
                      (i8x16.shuffle 12 13 14 15 12 13 14 15 12 13 14 15 12 13 14 15 (local.get $wv) (local.get $wv)))) (i32.const 20)))
                    (local.set $all (i16x8.narrow_i32x4_s (local.get $all) (local.get $all2)))
                    ;; Opacity onto two opaque destination pixels (at p + dd): blended here
                    ;; (as `over`: t = cs*A + cd*(255 - A) + 128, (t + (t >> 8)) >> 8 per
                    ;; channel), nothing left in the row for `over`.
                    (if (local.get $blend)
                      (then
                        (local.set $dq (i64.load (i32.add (local.get $p) (local.get $dd))))
                        (if (i64.eq (i64.and (local.get $dq) (i64.const 0xff000000ff000000)) (i64.const 0xff000000ff000000))
                          (then
                            (local.set $all (i16x8.add (i16x8.add (i16x8.mul (local.get $all) (local.get $kA))
                              (i16x8.mul (i16x8.extend_low_i8x16_u (i64x2.splat (local.get $dq))) (local.get $kIA))) (local.get $k128)))
                            (local.set $all (i16x8.shr_u (i16x8.add (local.get $all) (i16x8.shr_u (local.get $all) (i32.const 8))) (i32.const 8)))
                            (i64.store (i32.add (local.get $p) (local.get $dd))
                              (i64.or (i64x2.extract_lane 0 (i8x16.narrow_i16x8_u (local.get $all) (local.get $all)))
                                      (i64.const 0xff000000ff000000)))
                            (i64.store (local.get $p) (i64.const 0))
                            (local.set $p (i32.add (local.get $p) (i32.const 8)))
                            (local.set $U (i32.add (local.get $U) (i32.shl (local.get $dU) (i32.const 1))))
                            (local.set $V (i32.add (local.get $V) (i32.shl (local.get $dV) (i32.const 1))))
                            (local.set $uv (i32x4.add (local.get $uv) (local.get $duv2)))
                            (local.set $k (i32.add (local.get $k) (i32.const 2)))
                            (br $px)))))
                    (i64.store (local.get $p) (i64.or
                      (i64.and (i64x2.extract_lane 0 (i8x16.narrow_i16x8_u (local.get $all) (local.get $all))) (i64.const 0x00ffffff00ffffff))
                      (local.get $A2)))
                    (local.set $p (i32.add (local.get $p) (i32.const 8)))
                    (local.set $U (i32.add (local.get $U) (i32.shl (local.get $dU) (i32.const 1))))
                    (local.set $V (i32.add (local.get $V) (i32.shl (local.get $dV) (i32.const 1))))
                    (local.set $uv (i32x4.add (local.get $uv) (local.get $duv2)))
                    (local.set $k (i32.add (local.get $k) (i32.const 2)))
                    (br $px)))))
            (local.set $c0 (i8x16.shuffle 4 5 6 7 8 9 10 11 12 13 14 15 0 1 2 3 (local.get $quad) (local.get $quad)))
            (local.set $top (i32x4.dot_i16x8_s
              (i16x8.extend_low_i8x16_u (i8x16.shuffle 0 16 1 17 2 18 3 19 4 20 5 21 6 22 7 23 (local.get $quad) (local.get $c0)))
              (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $wv) (local.get $wv))))
            (local.set $bot (i32x4.dot_i16x8_s
              (i16x8.extend_low_i8x16_u (i8x16.shuffle 8 24 9 25 10 26 11 27 12 28 13 29 14 30 15 31 (local.get $quad) (local.get $c0)))
              (i8x16.shuffle 0 1 2 3 0 1 2 3 0 1 2 3 0 1 2 3 (local.get $wv) (local.get $wv))))
            (local.set $all (i32x4.shr_u (i32x4.add (local.get $kRound) (i32x4.dot_i16x8_s
              (v128.xor
                (i8x16.shuffle 0 1 18 19 4 5 22 23 8 9 26 27 12 13 30 31
                  (i32x4.shr_u (local.get $top) (i32.const 4)) (i32x4.shl (local.get $bot) (i32.const 12)))
                (local.get $kSign))
              (i8x16.shuffle 4 5 6 7 4 5 6 7 4 5 6 7 4 5 6 7 (local.get $wv) (local.get $wv)))) (i32.const 20)))
            (local.set $all (i16x8.narrow_i32x4_s (local.get $all) (local.get $all)))
            (i32.store (local.get $p) (i32.or
              (i32.and (i32x4.extract_lane 0 (i8x16.narrow_i16x8_u (local.get $all) (local.get $all))) (i32.const 0xffffff))
              (local.get $A))))
          (else
            ;; Not transparent either: a rim quad.
            (br_if $done (i64.ne (i64.and (i64.or (local.get $qa) (local.get $qb)) (i64.const 0xff000000ff000000)) (i64.const 0)))
            (i32.store (local.get $p) (i32.const 0))))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $U (i32.add (local.get $U) (local.get $dU)))
        (local.set $V (i32.add (local.get $V) (local.get $dV)))
        (local.set $uv (i32x4.add (local.get $uv) (local.get $duv)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $px)))
    (local.get $k))

  ;; bilinearRun's soft-rim quads (neither opaque nor transparent at the
  ;; fixed-point position U, V) for up to n pixels from p (destination x):
  ;; bilinearExact at the exact position sx + (i0*cx + ru) - 1/2, sy + (i1*cx
  ;; + rv) - 1/2 (k2 = [i0, i1], r2 = [ru, rv], s2 = [sx, sy]: u and v in one
  ;; f64x2, the same IEEE operations), two pixels at a time in $exact2 (the
  ;; first waits until the second comes; a lone one at the end takes both
  ;; lanes). Stops at the first opaque or transparent quad; returns how many
  ;; pixels it wrote.
  (func $rimRun (param $p i32) (param $U i32) (param $V i32) (param $dU i32) (param $dV i32) (param $n i32) (param $x i32)
    (param $org i32) (param $stride i32) (param $lut i32) (param $k2 v128) (param $r2 v128) (param $s2 v128) (result i32)
    (local $k i32) (local $o i32) (local $all i64) (local $f v128) (local $i v128) (local $t v128)
    (local $pend i32) (local $quad v128) (local $pquad v128) (local $pt v128) (local $cx v128)
    (local.set $cx (f64x2.splat (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5))))
    (block $done
      (loop $px
        (br_if $done (i32.ge_s (local.get $k) (local.get $n)))
        (local.set $o (i32.add (local.get $org)
          (i32.add (i32.mul (i32.shr_s (local.get $V) (i32.const 16)) (local.get $stride))
                   (i32.shl (i32.shr_s (local.get $U) (i32.const 16)) (i32.const 2)))))
        ;; Alphas of the quad at U, V: stop when all are 255 or all 0.
        (local.set $all (i64.and (i64.and (i64.load (local.get $o)) (i64.load (i32.add (local.get $o) (local.get $stride))))
                                 (i64.const 0xff000000ff000000)))
        (br_if $done (i64.eq (local.get $all) (i64.const 0xff000000ff000000)))
        (br_if $done (i64.eqz (i64.and (i64.or (i64.load (local.get $o)) (i64.load (i32.add (local.get $o) (local.get $stride))))
                                       (i64.const 0xff000000ff000000))))
        ;; [fu, fv] at the exact position, [iu, iv] truncated, [tx, ty] = [fu - iu, fv - iv].
        (local.set $f (f64x2.sub (f64x2.add (local.get $s2) (f64x2.add (f64x2.mul (local.get $k2) (local.get $cx)) (local.get $r2)))
                                 (v128.const f64x2 0.5 0.5)))
        (local.set $i (i32x4.trunc_sat_f64x2_s_zero (local.get $f)))
        (local.set $t (f64x2.sub (local.get $f) (f64x2.convert_low_i32x4_s (local.get $i))))
        (local.set $o (i32.add (local.get $org)
          (i32.add (i32.mul (i32x4.extract_lane 1 (local.get $i)) (local.get $stride))
                   (i32.shl (i32x4.extract_lane 0 (local.get $i)) (i32.const 2)))))
        (local.set $quad (v128.load64_lane 1 (i32.add (local.get $o) (local.get $stride)) (v128.load64_zero (local.get $o))))
        (if (local.get $pend)
          (then
            (i32.store (local.get $p)
              (call $exact2 (local.get $pquad) (local.get $quad)
                (i8x16.shuffle 0 1 2 3 4 5 6 7 16 17 18 19 20 21 22 23 (local.get $pt) (local.get $t))
                (i8x16.shuffle 8 9 10 11 12 13 14 15 24 25 26 27 28 29 30 31 (local.get $pt) (local.get $t))
                (local.get $lut) (local.get $pend)))
            (local.set $pend (i32.const 0)))
          (else
            (local.set $pend (local.get $p))
            (local.set $pquad (local.get $quad))
            (local.set $pt (local.get $t))))
        (local.set $cx (f64x2.add (local.get $cx) (v128.const f64x2 1 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $U (i32.add (local.get $U) (local.get $dU)))
        (local.set $V (i32.add (local.get $V) (local.get $dV)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $px)))
    ;; A rim pixel left waiting: alone (itself in both lanes).
    (if (local.get $pend)
      (then (drop (call $exact2 (local.get $pquad) (local.get $pquad)
        (f64x2.splat (f64x2.extract_lane 0 (local.get $pt))) (f64x2.splat (f64x2.extract_lane 1 (local.get $pt)))
        (local.get $lut) (local.get $pend)))))
    (local.get $k))

  ;; Bilinear pixels [xa, xb) of one row, as affineBilinear: [ia, ib) (empty
  ;; when ia >= ib) through bilinearRun's fixed-point steps (dU, dV), the
  ;; rest checked; then `over` at d.
  (func (export "bilinear") (param $t i32) (param $org i32) (param $stride i32)
    (param $i0 f64) (param $i1 f64) (param $ru f64) (param $rv f64) (param $sx f64) (param $sy f64) (param $sw f64) (param $sh f64)
    (param $bx0 f64) (param $bx1 f64) (param $by0 f64) (param $by1 f64)
    (param $xa i32) (param $xb i32) (param $ia i32) (param $ib i32) (param $dU i32) (param $dV i32)
    (param $d i32) (param $lut i32) (param $opaqueA i32) (param $aligned i32)
    (call $bilinearRow (local.get $t) (local.get $org) (local.get $stride)
      (local.get $i0) (local.get $i1) (local.get $ru) (local.get $rv) (local.get $sx) (local.get $sy) (local.get $sw) (local.get $sh)
      (local.get $bx0) (local.get $bx1) (local.get $by0) (local.get $by1)
      (local.get $xa) (local.get $xb) (local.get $ia) (local.get $ib) (local.get $dU) (local.get $dV)
      (local.get $d) (local.get $lut) (local.get $opaqueA) (local.get $aligned)
      (v128.const i32x4 0x80008000 0x80008000 0x80008000 0x80008000)
      (v128.const i32x4 134742016 134742016 134742016 134742016)
      (v128.const i32x4 4096 4096 4096 4096)
      (i16x8.splat (local.get $opaqueA)) (i16x8.splat (i32.sub (i32.const 255) (local.get $opaqueA)))
      (v128.const i16x8 128 128 128 128 128 128 128 128)))

  ;; The row of `bilinear`. kSign, kRound: the opaque quads' constants
  ;; (0x8000 in each i16 lane; 2^27 + 2^19 in each i32 lane), passed in so
  ;; that the compiler keeps them in registers instead of rebuilding each
  ;; one for every pixel.
  (func $bilinearRow (param $t i32) (param $org i32) (param $stride i32)
    (param $i0 f64) (param $i1 f64) (param $ru f64) (param $rv f64) (param $sx f64) (param $sy f64) (param $sw f64) (param $sh f64)
    (param $bx0 f64) (param $bx1 f64) (param $by0 f64) (param $by1 f64)
    (param $xa i32) (param $xb i32) (param $ia i32) (param $ib i32) (param $dU i32) (param $dV i32)
    (param $d i32) (param $lut i32) (param $opaqueA i32) (param $aligned i32) (param $kSign v128) (param $kRound v128) (param $k4096 v128)
    (param $kA v128) (param $kIA v128) (param $k128 v128)
    (local $x i32) (local $p i32) (local $end i32) (local $U i32) (local $V i32) (local $cx f64) (local $o i32)
    (local $w i32) (local $k2 v128) (local $r2 v128) (local $s2 v128)
    (local $A i32) (local $A2 i64) (local $blend i32) (local $duv v128)
    (if (i32.ge_s (local.get $ia) (local.get $ib))
      (then (local.set $ia (local.get $xb)) (local.set $ib (local.get $xb))))
    (local.set $x (local.get $xa))
    (local.set $p (local.get $t))
    ;; Checked pixels before the run.
    (block $done
      (loop $px
        (br_if $done (i32.ge_s (local.get $x) (local.get $ia)))
        (i32.store (local.get $p)
          (call $bilinearChecked (local.get $org) (local.get $stride) (local.get $i0) (local.get $i1) (local.get $ru) (local.get $rv)
            (local.get $sx) (local.get $sy) (local.get $sw) (local.get $sh) (local.get $bx0) (local.get $bx1) (local.get $by0) (local.get $by1)
            (local.get $x) (local.get $lut) (local.get $opaqueA) (local.get $aligned)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $px)))
    ;; The run: 16 pixels per anchor.
    ;; For $fastRun: the alpha of opaque quads in the top byte (of one word, of two), whether to blend it
    ;; in the run (0 < A < 255), the steps [dU, dV, dU, dV].
    (local.set $A (i32.shl (local.get $opaqueA) (i32.const 24)))
    (local.set $A2 (i64.or (i64.extend_i32_u (local.get $A)) (i64.shl (i64.extend_i32_u (local.get $A)) (i64.const 32))))
    (local.set $blend (i32.lt_u (i32.sub (local.get $opaqueA) (i32.const 1)) (i32.const 254)))
    (local.set $duv (i32x4.replace_lane 3 (i32x4.replace_lane 1 (i32x4.splat (local.get $dU)) (local.get $dV)) (local.get $dV)))
    (local.set $k2 (f64x2.replace_lane 1 (f64x2.splat (local.get $i0)) (local.get $i1)))
    (local.set $r2 (f64x2.replace_lane 1 (f64x2.splat (local.get $ru)) (local.get $rv)))
    (local.set $s2 (f64x2.replace_lane 1 (f64x2.splat (local.get $sx)) (local.get $sy)))
    (block $rdone
      (loop $block
        (br_if $rdone (i32.ge_s (local.get $x) (local.get $ib)))
        (local.set $end (select (i32.add (local.get $x) (i32.const 16)) (local.get $ib)
                                (i32.lt_s (i32.add (local.get $x) (i32.const 16)) (local.get $ib))))
        (local.set $cx (f64.add (f64.convert_i32_s (local.get $x)) (f64.const 0.5)))
        (local.set $U (i32.trunc_sat_f64_s (f64.add (f64.mul (f64.sub (f64.add (local.get $sx)
          (f64.add (f64.mul (local.get $i0) (local.get $cx)) (local.get $ru))) (f64.const 0.5)) (f64.const 65536)) (f64.const 0.5))))
        (local.set $V (i32.trunc_sat_f64_s (f64.add (f64.mul (f64.sub (f64.add (local.get $sy)
          (f64.add (f64.mul (local.get $i1) (local.get $cx)) (local.get $rv))) (f64.const 0.5)) (f64.const 65536)) (f64.const 0.5))))
        (block $bdone
          (loop $rpx
            (br_if $bdone (i32.ge_s (local.get $x) (local.get $end)))
            ;; Opaque and transparent quads (all but the soft rim): $fastRun, up to the next rim quad.
            (local.set $w (call $fastRun (local.get $p) (local.get $U) (local.get $V) (local.get $dU) (local.get $dV)
              (i32.sub (local.get $end) (local.get $x)) (local.get $org) (local.get $stride)
              (local.get $A) (local.get $A2) (local.get $blend) (local.get $duv) (i32x4.add (local.get $duv) (local.get $duv))
              (local.get $kSign) (local.get $kRound) (local.get $k4096)
              (i32.sub (local.get $d) (local.get $t)) (local.get $kA) (local.get $kIA) (local.get $k128)))
            (local.set $x (i32.add (local.get $x) (local.get $w)))
            (local.set $p (i32.add (local.get $p) (i32.shl (local.get $w) (i32.const 2))))
            (local.set $U (i32.add (local.get $U) (i32.mul (local.get $w) (local.get $dU))))
            (local.set $V (i32.add (local.get $V) (i32.mul (local.get $w) (local.get $dV))))
            (br_if $bdone (i32.ge_s (local.get $x) (local.get $end)))
            ;; Soft-rim quads: $rimRun, up to the next opaque or transparent quad.
            (local.set $w (call $rimRun (local.get $p) (local.get $U) (local.get $V) (local.get $dU) (local.get $dV)
              (i32.sub (local.get $end) (local.get $x)) (local.get $x) (local.get $org) (local.get $stride) (local.get $lut)
              (local.get $k2) (local.get $r2) (local.get $s2)))
            (local.set $x (i32.add (local.get $x) (local.get $w)))
            (local.set $p (i32.add (local.get $p) (i32.shl (local.get $w) (i32.const 2))))
            (local.set $U (i32.add (local.get $U) (i32.mul (local.get $w) (local.get $dU))))
            (local.set $V (i32.add (local.get $V) (i32.mul (local.get $w) (local.get $dV))))
            (br $rpx)))
        (br $block)))
    ;; Checked pixels after the run.
    (block $done2
      (loop $px2
        (br_if $done2 (i32.ge_s (local.get $x) (local.get $xb)))
        (i32.store (local.get $p)
          (call $bilinearChecked (local.get $org) (local.get $stride) (local.get $i0) (local.get $i1) (local.get $ru) (local.get $rv)
            (local.get $sx) (local.get $sy) (local.get $sw) (local.get $sh) (local.get $bx0) (local.get $bx1) (local.get $by0) (local.get $by1)
            (local.get $x) (local.get $lut) (local.get $opaqueA) (local.get $aligned)))
        (local.set $p (i32.add (local.get $p) (i32.const 4)))
        (local.set $x (i32.add (local.get $x) (i32.const 1)))
        (br $px2)))
    (call $over (local.get $d) (local.get $t) (i32.sub (local.get $xb) (local.get $xa)) (i32.const 0)))
)
