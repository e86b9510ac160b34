meta:
  id: hallgeir_spr
  title: Hallgeir Lien engine sprite (.spr)
  file-extension: spr
  license: MIT
  encoding: UTF-8
doc: |
  A sprite (.spr) of the Hallgeir Lien engine (2007), after sprat's contract
  (docs/spec/hallgeir.md). `int` is 4 bytes signed, `double` 8 bytes
  IEEE 754, a string an int byte length then UTF-8. The source document does
  not give the byte order; files exist in both. The identifier is 3 bytes
  ("str"), or, as some writers give it, a string with its int length (3)
  first.

  Byte order: sprat reads the whole file as little-endian and, when that
  fails, as big-endian. Kaitai must choose before reading, so this spec looks
  at the first int after the identifier and takes the order that makes it
  smaller (a length or count is small; its byte-swapped value is not). A
  first int of 0 (an empty sprite name) reads the same in both orders, so then the
  int after it decides the same way. The two agree on every file but one
  whose first two ints are both 0 and that is big-endian: this spec reads it
  little-endian, sprat may find from a later field that it is big-endian.

  What sprat checks besides: no count or length is negative; nothing follows
  the last field; a next frame is -1 or a frame of the same
  animation; a delay is finite (<= 0 holds the frame forever).
doc-ref: https://sprat.invalid/contract/hallgeir.md
seq:
  - id: sprite
    type: sprite_body
instances:
  first_byte:
    pos: 0
    type: u1
  first_int_at:
    value: 'first_byte == 0x73 ? 3 : 7'
    doc: Where the first int after the identifier lies (3 bytes, or an int length and 3 bytes).
  first_int_le:
    pos: first_int_at
    type: u4le
  first_int_be:
    pos: first_int_at
    type: u4be
  second_int_le:
    pos: first_int_at + 4
    type: u4le
  second_int_be:
    pos: first_int_at + 4
    type: u4be
  order:
    value: 'first_int_le != first_int_be ? (first_int_le < first_int_be ? 1 : 0) : (second_int_le <= second_int_be ? 1 : 0)'
    doc: 1 little-endian, 0 big-endian.
types:
  sprite_body:
    meta:
      endian:
        switch-on: _root.order
        cases:
          1: le
          0: be
    seq:
      - id: identifier
        type: identifier
      - id: name
        type: len_string
      - id: texture
        type: len_string
        doc: The texture's name (its bitmap is found through a map's texture list, or beside the file).
      - id: animation_count
        type: s4
      - id: animations
        type: animation
        repeat: expr
        repeat-expr: animation_count
    types:
      identifier:
        seq:
          - id: length
            type: s4
            if: _root.first_byte != 0x73
            valid: 3
            doc: Only in the length-prefixed form.
          - id: text
            contents: "str"
      len_string:
        seq:
          - id: len
            type: s4
          - id: value
            type: str
            size: len
      animation:
        seq:
          - id: name
            type: len_string
          - id: frame_count
            type: s4
          - id: frames
            type: frame
            repeat: expr
            repeat-expr: frame_count
      frame:
        seq:
          - id: x
            type: s4
            doc: The frame's upper-left corner in the texture.
          - id: y
            type: s4
          - id: delay
            type: f8
            doc: Seconds; <= 0 holds the frame forever.
          - id: next
            type: s4
            doc: The next frame of this animation, or -1 to stay on this frame.
