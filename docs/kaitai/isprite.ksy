meta:
  id: isprite
  title: Vision Riders Integrated Sprite System 1.0 (ISPRITE)
  file-extension:
    - isprite
    - sprite
  license: MIT
  endian: le
  encoding: UTF-8
doc: |
  An ISPRITE sprite: a 24-byte header, then chunks (META, MET+, TEX, SLIC,
  NAME, TIER, FRAM and any unknown ones) in any order, META first when
  present. This follows sprat's contract (docs/spec/isprite.md), which
  settles where the source document contradicts itself: the header is 24
  bytes (erratum 1), the TIER closing marker is "C" = 0x43 (erratum 2), the
  collision fields sit at offsets 5, 6, 8, 14, 17, 21 with bytes 4 and 20
  reserved (erratum 3), attachment mirroring is a u2 and graphic mirroring a
  u1 (erratum 4), and a frame's size counts everything but its own four bytes,
  the "F" marker included (erratum 12).

  What a Kaitai spec cannot say, sprat checks: file_size = file length - 12;
  a known chunk appears once; TIER's groups nest by their markers (here a
  flat list of markers: a "G" opens a group, a "C" closes the latest one);
  in minor version 0 a record's size fields must agree with its content.
doc-ref: https://sprat.invalid/contract/isprite.md
seq:
  - id: header
    type: header
  - id: chunks
    type: chunk
    repeat: eos
types:
  header:
    seq:
      - id: magic
        contents: "ISPRITE "
      - id: file_size
        type: u4
        doc: The file's length minus 12 (the magic and this field; erratum 9).
      - id: major
        type: u1
        valid: 1
      - id: minor
        type: u1
        doc: Any minor version of major 1 is read; later ones may add bytes to strided records, frames and elements.
      - id: flags
        type: u1
      - id: non_standard_id
        type: str
        size: 3
        encoding: ASCII
        doc: Trailing zero bytes are padding.
      - id: frame_rate
        type: u1
        doc: The master rate, frames per second (0 = the application steps by hand).
      - id: reserved
        size: 5
        doc: Written as zero, ignored on read (erratum 1).
    instances:
      non_standard:
        value: (flags & 1) != 0
      work_file:
        value: (flags & 2) != 0
  chunk:
    seq:
      - id: id
        type: str
        size: 4
        encoding: ASCII
      - id: size
        type: u4
        doc: Bytes after this field.
      - id: body
        size: size
        type:
          switch-on: id
          cases:
            '"META"': meta_chunk
            '"MET+"': extra_meta_chunk
            '"TEX "': tex_chunk
            '"SLIC"': slic_chunk
            '"NAME"': name_chunk
            '"TIER"': tier_chunk
            '"FRAM"': fram_chunk
        doc: Unknown chunks are kept as bytes (sprat writes them back).
  len_string:
    doc: A u2 byte length, then UTF-8 (never NUL-terminated).
    seq:
      - id: len
        type: u2
      - id: value
        type: str
        size: len
  fixed:
    doc: 24-bit fixed point, value = int_part + frac / 256 (so -0.5 is -1 and 128).
    seq:
      - id: int_part
        type: s2
      - id: frac
        type: u1
    instances:
      value:
        value: int_part + frac / 256.0
  point:
    seq:
      - id: x
        type: fixed
      - id: y
        type: fixed
  timestamp:
    doc: All eight bytes zero means unknown.
    seq:
      - id: day
        type: u1
      - id: month
        type: u1
      - id: year
        type: u2
        doc: Years since 1 BCE, so 1992 means 1992 CE.
      - id: hour
        type: u1
      - id: minute
        type: u1
      - id: second
        type: u1
      - id: centisecond
        type: u1
    instances:
      is_unknown:
        value: day == 0 and month == 0 and year == 0 and hour == 0 and minute == 0 and second == 0 and centisecond == 0
  meta_chunk:
    seq:
      - id: created
        type: timestamp
      - id: saved
        type: timestamp
      - id: work_time_ms
        type: u8
      - id: tags
        type: len_string
      - id: title
        type: len_string
      - id: project
        type: len_string
      - id: author
        type: len_string
      - id: company
        type: len_string
      - id: contact
        type: len_string
      - id: url
        type: len_string
      - id: copyright
        type: len_string
      - id: comments
        type: len_string
      - id: originating_program
        type: len_string
      - id: program
        type: len_string
  extra_meta_chunk:
    doc: |
      (name, value) pairs up to the chunk's end. sprat's own keys (erratum 6):
      `default-sequence` = PATH and `sequence-frame-rate:PATH` = 0-255.
    seq:
      - id: entries
        type: extra_meta_entry
        repeat: eos
  extra_meta_entry:
    seq:
      - id: name
        type: len_string
      - id: value
        type: len_string
  tex_chunk:
    seq:
      - id: count
        type: u1
      - id: stride
        type: u1
        doc: The size of each texture's record before its path (at least 1; larger in later versions, the rest skipped).
      - id: textures
        type: texture
        repeat: expr
        repeat-expr: count
  texture:
    seq:
      - id: record
        size: _parent.stride
        type: texture_record
      - id: path
        type: len_string
  texture_record:
    seq:
      - id: flags
        type: u1
    instances:
      nearest:
        value: (flags & 1) != 0
  slic_chunk:
    seq:
      - id: count
        type: u4
      - id: stride
        type: u1
        doc: The size of each slice record (at least 10).
      - id: slices
        size: stride
        type: slice
        repeat: expr
        repeat-expr: count
  slice:
    doc: A rectangle of a texture; (0, 0) is the upper-left pixel (erratum 5).
    seq:
      - id: texture
        type: u1
      - id: flags
        type: u1
      - id: x
        type: u2
      - id: y
        type: u2
      - id: width
        type: u2
      - id: height
        type: u2
    instances:
      rotated:
        value: (flags & 1) != 0
  name_chunk:
    seq:
      - id: count
        type: u2
      - id: names
        type: len_string
        repeat: expr
        repeat-expr: count
  tier_chunk:
    doc: The tree below Root, as markers in file order; it must end back in Root.
    seq:
      - id: entries
        type: tier_entry
        repeat: eos
  tier_entry:
    seq:
      - id: marker
        type: u1
        enum: tier_marker
      - id: body
        type:
          switch-on: marker
          cases:
            'tier_marker::group': group_open
            'tier_marker::sequence': sequence
        doc: Nothing follows a "C" (it closes the latest open group).
  group_open:
    seq:
      - id: name
        type: len_string
  sequence:
    seq:
      - id: frame_count
        type: u4
      - id: loop_point
        type: u4
        doc: 0xFFFFFFFF = no loop.
      - id: name
        type: len_string
      - id: follow_up
        type: len_string
      - id: frames
        type: u4
        repeat: expr
        repeat-expr: frame_count
        doc: Frame IDs (indices into FRAM's frames).
  fram_chunk:
    seq:
      - id: count
        type: u4
      - id: max_element_count
        type: u2
        doc: The most elements any frame holds (computed by writers).
      - id: frames
        type: frame
        repeat: expr
        repeat-expr: count
  frame:
    seq:
      - id: marker
        contents: "F"
      - id: size
        type: u4
        doc: The frame's whole length minus 4, counting the marker (erratum 12).
      - id: body
        size: size - 1
        type: frame_body
  frame_body:
    seq:
      - id: element_count
        type: u2
      - id: hold_time
        type: u2
        doc: Playback frames to hold; 0 is played as 1 (erratum 10).
      - id: flags
        type: u1
      - id: label
        type: len_string
      - id: triggers
        type: len_string
      - id: notes
        type: len_string
      - id: elements
        type: element
        repeat: expr
        repeat-expr: element_count
    instances:
      loop_point:
        value: (flags & 1) != 0
        doc: Kept as data; the sequence's loop point decides playback (erratum 7).
  element:
    seq:
      - id: marker
        type: u1
        enum: element_marker
      - id: name
        type: u2
        doc: Index into NAME's names; 0xFFFF = none.
      - id: size
        type: u1
        doc: Bytes after this field; an unknown marker is skipped by it.
      - id: body
        size: size
        type:
          switch-on: marker
          cases:
            'element_marker::simple_graphic': simple_graphic
            'element_marker::expanded_graphic': expanded_graphic
            'element_marker::attachment': attachment
            'element_marker::collision': collision
  simple_graphic:
    seq:
      - id: slice
        type: u2
      - id: position
        type: point
      - id: mirror
        type: u1
        doc: Bit 0 horizontal, bit 1 vertical.
  expanded_graphic:
    seq:
      - id: slice
        type: u2
      - id: position
        type: point
      - id: mirror
        type: u1
      - id: origin
        type: point
      - id: rotation
        type: fixed
        doc: Degrees, clockwise.
      - id: scale_x
        type: fixed
      - id: scale_y
        type: fixed
      - id: opacity
        type: u2
        doc: 65535 = opaque.
  attachment:
    seq:
      - id: id
        type: u2
      - id: position
        type: point
      - id: mirror
        type: u2
        doc: A u2 here (erratum 4); bit 0 horizontal, bit 1 vertical.
      - id: rotation
        type: fixed
      - id: scale_x
        type: fixed
      - id: scale_y
        type: fixed
      - id: opacity
        type: u2
  collision:
    seq:
      - id: reserved
        type: u1
        doc: Offset 4 of the element; written as zero (erratum 3).
      - id: shape
        type: u1
        enum: collision_shape
      - id: id
        type: u2
      - id: position
        type: point
      - id: shape_fields
        type:
          switch-on: shape
          cases:
            'collision_shape::rect': collision_rect
            'collision_shape::circle': collision_circle
  collision_rect:
    doc: Rotation is about the upper-left corner, clockwise, in degrees.
    seq:
      - id: width
        type: fixed
      - id: height
        type: fixed
      - id: reserved
        type: u1
        doc: Offset 20 of the element (erratum 3).
      - id: rotation
        type: fixed
  collision_circle:
    seq:
      - id: radius
        type: fixed
enums:
  tier_marker:
    0x47: group
    0x53: sequence
    0x43: close
  element_marker:
    0x67: simple_graphic
    0x47: expanded_graphic
    0x41: attachment
    0x43: collision
  collision_shape:
    0x72: rect
    0x63: circle
