meta:
  id: hallgeir_map
  title: Hallgeir Lien engine map (.map)
  file-extension: map
  license: MIT
  encoding: UTF-8
doc: |
  A map (.map) of the Hallgeir Lien engine (2007), after sprat's contract
  (docs/spec/hallgeir.md). `int` is 4 bytes signed, `double` 8 bytes
  IEEE 754, a string an int byte length then UTF-8. The source document does
  not give the byte order; files exist in both. The identifier is 3 bytes
  ("map"), or, as some writers give it, a string with its int length (3)
  first.

  Byte order: sprat reads the whole file as little-endian and, when that
  fails, as big-endian. Kaitai must choose before reading, so this spec looks
  at the first int after the identifier and takes the order that makes it
  smaller (a length or count is small; its byte-swapped value is not). A
  first int of 0 (no textures) reads the same in both orders, so then the
  int after it decides the same way. The two agree on every file but one
  whose first two ints are both 0 and that is big-endian: this spec reads it
  little-endian, sprat may find from a later field that it is big-endian.

  What sprat checks besides: no count or length is negative; nothing follows
  the last field.
doc-ref: https://sprat.invalid/contract/hallgeir.md
seq:
  - id: map
    type: map_body
instances:
  first_byte:
    pos: 0
    type: u1
  first_int_at:
    value: 'first_byte == 0x6d ? 3 : 7'
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
  map_body:
    meta:
      endian:
        switch-on: _root.order
        cases:
          1: le
          0: be
    seq:
      - id: identifier
        type: identifier
      - id: texture_count
        type: s4
      - id: textures
        type: texture
        repeat: expr
        repeat-expr: texture_count
      - id: object_count
        type: s4
      - id: objects
        type: placed_object
        repeat: expr
        repeat-expr: object_count
    types:
      identifier:
        seq:
          - id: length
            type: s4
            if: _root.first_byte != 0x6d
            valid: 3
            doc: Only in the length-prefixed form.
          - id: text
            contents: "map"
      len_string:
        seq:
          - id: len
            type: s4
          - id: value
            type: str
            size: len
      texture:
        seq:
          - id: path
            type: len_string
            doc: The bitmap to load, relative to the map.
          - id: name
            type: len_string
      placed_object:
        seq:
          - id: x
            type: s4
          - id: y
            type: s4
          - id: object
            type: len_string
            doc: The path of the .obj file.
