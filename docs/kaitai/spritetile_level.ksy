meta:
  id: spritetile_level
  title: SpriteTile level (decompressed)
  application: SpriteTile TileEditor
  license: MIT
  encoding: ASCII
doc: |
  A SpriteTile level (`.bytes`, versions 2 and 3) after sprat's contract
  (docs/spec/spritetile.md), once decompressed. On disk the whole file
  is one raw LZF stream with no header and no length; LZF decompression is
  outside what Kaitai describes, so decompress the file first (sprat's
  `decompress` from `sprat/lzf`, liblzf's `lzf_decompress`, ...) and give
  this spec the decompressed bytes.

  Inside: `SpriteTileLevel`, an endianness byte (0 big, 1 little) that sets
  the byte order of every later value, the version, a tag table (7-byte
  names, offsets from the start of the data) and the tags' data. `lvlayrs`
  holds the layers and their cells (7 bytes each, from the lower-left
  corner, along the bottom row, then up row by row); `numsets` the number of
  tile sets (32 when absent). Every other tag is opaque data to sprat, kept
  as it is. A tag's data runs from its offset to the next larger tag offset,
  or to the end (tag_entry.size).

  What sprat checks besides: version 2 or 3; at least one tag; no name
  twice; offsets past the tag table and inside the data; layers and the
  numsets value fit inside their tag's extent with nothing left over;
  numsets is 32, 16, 8, 4 or 2; no tile below -1; rotation (flags & 0x7ff)
  at most 1800; layerLock 0-3 (`validate`).
doc-ref: https://sprat.invalid/contract/spritetile.md
seq:
  - id: magic
    contents: SpriteTileLevel
  - id: endianness
    type: u1
    valid:
      any-of:
        - 0
        - 1
    doc: 1 little-endian, 0 big-endian, for every value after this byte.
  - id: level
    type: level_body
types:
  level_body:
    meta:
      endian:
        switch-on: _root.endianness
        cases:
          1: le
          0: be
    seq:
      - id: version
        type: s4
      - id: tag_count
        type: s4
      - id: tags
        type: tag_entry
        repeat: expr
        repeat-expr: tag_count
    types:
      tag_entry:
        seq:
          - id: name
            type: str
            size: 7
          - id: offset
            type: s4
            doc: From the start of the decompressed data.
        instances:
          extent_end:
            pos: 0
            io: _root._io
            type: extent_scan(offset)
            doc: Where this tag's data ends (the next larger tag offset, or the end of the data).
          size:
            value: extent_end.value - offset
          body:
            pos: offset
            io: _root._io
            type:
              switch-on: name
              cases:
                '"lvlayrs"': layers
                '"numsets"': num_sets
            doc: The contents of the tags sprat reads; other tags' data is opaque.
      extent_scan:
        doc: The smallest tag offset above `after`, or the end of the data, found tag by tag (reads no bytes).
        params:
          - id: after
            type: s4
        seq:
          - id: steps
            type: 'extent_step(after, _root.level.tags[_index].offset, _index == 0 ? _root._io.size : steps[_index - 1].best)'
            repeat: expr
            repeat-expr: _root.level.tag_count
        instances:
          value:
            value: steps.last.best
      extent_step:
        params:
          - id: after
            type: s4
          - id: candidate
            type: s4
          - id: previous
            type: s4
        instances:
          best:
            value: '(candidate > after and candidate < previous) ? candidate : previous'
      num_sets:
        seq:
          - id: value
            type: s4
            doc: Tile sets; tiles per set = 32768 / value.
      layers:
        seq:
          - id: layer_count
            type: s4
          - id: layers
            type: layer
            repeat: expr
            repeat-expr: layer_count
      layer:
        seq:
          - id: marker
            contents: lyrdata
          - id: tile_size_x
            type: f4
          - id: tile_size_y
            type: f4
          - id: scroll_x
            type: s4
          - id: scroll_y
            type: s4
          - id: preview_size
            type: s4
          - id: z
            type: f4
          - id: layer_lock
            type: s4
            doc: 0 none, 1 X, 2 Y, 3 X and Y.
          - id: add_border
            type: s4
          - id: width
            type: s4
          - id: height
            type: s4
          - id: cells
            type: cell
            repeat: expr
            repeat-expr: width * height
            doc: From the lower-left corner, along the bottom row, then up row by row.
      cell:
        seq:
          - id: tile
            type: s2
            doc: -1 empty; else set = tile / tiles per set, number = tile % tiles per set.
          - id: flags
            type: u2
            doc: Bits 0-10 rotation × 5 (counter-clockwise degrees), 0x0800 flip Y, 0x1000 flip X, 0x8000 collider; bits 13-14 kept.
          - id: order
            type: s2
          - id: trigger
            type: u1
