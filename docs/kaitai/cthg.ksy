meta:
  id: cthg
  title: CorsixTH animation file (CTHG, version 513)
  application: CorsixTH
  file-extension: dat
  license: MIT
  endian: le
  encoding: UTF-8
doc: |
  The animation file of CorsixTH (CTHG, version 513), as sprat reads it
  (docs/spec/cthg.md, which settles the document's open points). A
  header, then blocks until the end of the file, each a 2-byte ID: SP
  (sprite: size and 32bpp run-length pixel data), FR (frame: sprite
  elements), CA (grouped animation: a name, a tile size and the first frame
  of each of the four views). Blocks have no size field, so an unknown ID
  ends the parse (sprat reports it as an error at its offset).

  Each block type is numbered separately in file order from 0; a reference
  is such a number, 0xFFFFFFFF for none. Kaitai keeps the blocks in one list
  in file order; count them per type to resolve a reference.

  A sprite's pixel data is read as its list of runs (pixel_run): the run's
  type and pixel count, then its opacity, recolour layer, RGB colours or
  recolour table indices. What a Kaitai spec cannot express, and sprat
  checks or does besides:
  - expanding the runs to pixels (top-left first, row by row; type 2 leaves
    pixels transparent, type 3 looks each index up in a 256-entry RGB table
    of the run's layer, a grey ramp when the application has none);
  - that the runs cover exactly width × height pixels (a run may not pass
    the last pixel, and a run after the last pixel, even of 0 pixels, is an
    error) and use exactly data_length bytes;
  - that the header counts equal what the blocks hold (an error in
    `sprat validate`, a warning elsewhere);
  - that a reference names a block defined before it, and that every frame
    of a view (first … first + frame_count − 1) exists when the CA block is
    read.
doc-ref: https://sprat.invalid/contract/cthg.md
seq:
  - id: magic
    contents: CTHG
  - id: version
    type: u2
    valid: 513
    doc: 512 + 1. Versions 0-511 are the older free graphics formats.
  - id: animation_count
    type: u4
    doc: Number of CA blocks.
  - id: frame_count
    type: u4
    doc: Number of FR blocks.
  - id: element_count
    type: u4
    doc: Total sprite elements in the FR blocks.
  - id: sprite_count
    type: u4
    doc: Number of SP blocks.
  - id: sprite_bytes
    type: u4
    doc: Total pixel data bytes of the SP blocks.
  - id: blocks
    type: block
    repeat: eos
types:
  block:
    seq:
      - id: block_id
        type: str
        size: 2
        valid:
          any-of:
            - '"SP"'
            - '"FR"'
            - '"CA"'
      - id: body
        type:
          switch-on: block_id
          cases:
            '"SP"': sprite
            '"FR"': frame
            '"CA"': animation
  animation:
    doc: A grouped animation (CA).
    seq:
      - id: tile_size
        type: u2
        doc: Part of the animation's identity with its name (the encoder writes 64).
      - id: frame_count
        type: u4
        doc: Frames in each view; a view's frames are consecutive FR blocks.
      - id: name_length
        type: u1
      - id: name
        type: str
        size: name_length
      - id: north
        type: u4
        doc: First FR block of the north view, 0xFFFFFFFF for none.
      - id: east
        type: u4
      - id: south
        type: u4
      - id: west
        type: u4
  frame:
    doc: A frame (FR).
    seq:
      - id: sound
        type: u2
        doc: Sound played when the frame is shown, 0 for none.
      - id: element_count
        type: u2
      - id: elements
        type: element
        repeat: expr
        repeat-expr: element_count
  element:
    seq:
      - id: sprite
        type: u4
        doc: SP block number, 0xFFFFFFFF for none (the element draws nothing).
      - id: x
        type: s2
      - id: y
        type: s2
      - id: layer_class
        type: u1
        doc: Drawn when layer_id is 0 or the application selects layer_id for this class.
      - id: layer_id
        type: u1
      - id: flags
        type: u2
        doc: 0x1 flip vertically, 0x2 flip horizontally, 0x4 50 % opacity, 0x8 25 % opacity; other bits kept.
  sprite:
    doc: A sprite (SP).
    seq:
      - id: width
        type: u2
      - id: height
        type: u2
      - id: data_length
        type: u4
      - id: pixels
        type: pixel_runs
        size: data_length
  pixel_runs:
    doc: |
      The run-length pixel data, a list of runs to the end of the data.
      Expanding them to width × height pixels is for the application (see
      the file's doc).
    seq:
      - id: runs
        type: pixel_run
        repeat: eos
  pixel_run:
    seq:
      - id: kind
        type: b2
        enum: run_kind
        doc: The run's first byte >> 6.
      - id: count
        type: b6
        doc: Pixels in the run (first byte & 63); 0 is legal and paints nothing.
      - id: layer
        type: u1
        if: kind == run_kind::recolour
        doc: The recolour layer whose table the indices look up.
      - id: alpha
        type: u1
        if: kind == run_kind::translucent or kind == run_kind::recolour
        doc: Opacity of every pixel of the run (0-255).
      - id: colours
        type: rgb
        repeat: expr
        repeat-expr: count
        if: kind == run_kind::opaque or kind == run_kind::translucent
      - id: indices
        size: count
        if: kind == run_kind::recolour
        doc: One recolour table index per pixel.
    instances:
      opacity:
        value: 'kind == run_kind::opaque ? 255 : kind == run_kind::transparent ? 0 : alpha'
        doc: The run's opacity, whatever its kind.
  rgb:
    seq:
      - id: r
        type: u1
      - id: g
        type: u1
      - id: b
        type: u1
enums:
  run_kind:
    0: opaque
    1: translucent
    2: transparent
    3: recolour
