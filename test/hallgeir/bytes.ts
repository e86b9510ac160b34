/** Builds Hallgeir files field by field, independently of the project's writer. */
export class Builder {
  private parts: number[] = [];
  constructor(readonly le: boolean) {}
  int(v: number): this {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setInt32(0, v, this.le);
    this.parts.push(...b);
    return this;
  }
  double(v: number): this {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, this.le);
    this.parts.push(...b);
    return this;
  }
  raw(...bytes: number[]): this {
    this.parts.push(...bytes);
    return this;
  }
  /** The identifier as the source document gives it: 3 bytes, no length (Identifier, string, size 3). */
  id(s: string): this {
    this.parts.push(...new TextEncoder().encode(s));
    return this;
  }
  str(s: string): this {
    const b = new TextEncoder().encode(s);
    this.int(b.length);
    this.parts.push(...b);
    return this;
  }
  get length(): number {
    return this.parts.length;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

export interface FrameSpec {
  x: number;
  y: number;
  delay: number;
  next: number;
}

export function spriteBytes(le: boolean, name: string, texture: string, animations: { name: string; frames: FrameSpec[] }[]): Uint8Array {
  const b = new Builder(le).id('str').str(name).str(texture).int(animations.length);
  for (const a of animations) {
    b.str(a.name).int(a.frames.length);
    for (const f of a.frames) b.int(f.x).int(f.y).double(f.delay).int(f.next);
  }
  return b.bytes();
}

export function objectBytes(le: boolean, name: string, sprite: string): Uint8Array {
  return new Builder(le).id('obj').str(name).str(sprite).bytes();
}

export function mapBytes(
  le: boolean,
  textures: { path: string; name: string }[],
  objects: { x: number; y: number; object: string }[],
): Uint8Array {
  const b = new Builder(le).id('map').int(textures.length);
  for (const t of textures) b.str(t.path).str(t.name);
  b.int(objects.length);
  for (const o of objects) b.int(o.x).int(o.y).str(o.object);
  return b.bytes();
}
