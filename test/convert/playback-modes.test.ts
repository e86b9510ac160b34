/**
 * Tag direction and repeat (the model's `playback`, docs/interop.md): the
 * frames are written in the order they play everywhere; formats that cannot
 * store the mode get one note per kind naming the animations, and the sheet
 * formats carry it so it comes back (Aseprite tags, TexturePacker meta.sprat).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, formatByName, load } from '../../src/api.js';
import type { ResourceLoader } from '../../src/formats/types.js';
import { fsResourceLoader } from '../../src/node/fs.js';
import { loopText } from '../../src/model/playback.js';
import { CORPUS } from '../helpers/paths.js';

const ASE = path.join(CORPUS, 'interop/viniciusgerevini+godot-aseprite-wizard/test/sample_test_file.aseprite');
const bytes = new Uint8Array(fs.readFileSync(ASE));
const resources = fsResourceLoader(path.dirname(ASE));

/** The written files served first, then the source's folder. */
function beside(files: { name: string; bytes: Uint8Array }[], under: ResourceLoader): ResourceLoader {
  const m = new Map(files.map((f) => [f.name, f.bytes]));
  return { load: async (p) => m.get(p) ?? under.load(p), exists: async (p) => m.has(p) || under.exists(p) };
}

describe('tag direction and repeat', () => {
  it('to formats that cannot store them: one note per kind, naming the animations and their mode', async () => {
    for (const to of ['cthg', 'solarus', 'isprite', 'hallgeir-sprite']) {
      const { notes } = await convert(load(bytes, 's.aseprite'), formatByName(to), 's.out', resources);
      const dir = notes.filter((n) => n.includes('tag directions are not stored'));
      const rep = notes.filter((n) => n.includes('tag repeat counts are not stored'));
      expect(dir, to).toEqual([
        `${to}: tag directions are not stored; the frames are written in the order they play: "2-reverse-animation" (reverse), "3-ping-pong-animation" (pingpong), "4-ping-pong-reverse" (pingpong_reverse), "7-reverse-repeat-3" (reverse), "8-ping-pong-repeat-1" (pingpong), ... (7 in all)`,
      ]);
      expect(rep, to).toEqual([
        `${to}: tag repeat counts are not stored; the repeats are written out as frames: "5-forward-repeat-1" (once), "6-forward-repeat-2" (2 times), "7-reverse-repeat-3" (3 times), "8-ping-pong-repeat-1" (once), "9-ping-pong-repeat-3" (3 times), "12-ping-pong-reverse-repeat-2" (2 times)`,
      ]);
    }
  });

  it('through TexturePacker (meta.sprat) and back to Aseprite JSON: every tag keeps its direction and repeat', async () => {
    const tp = await convert(load(bytes, 's.aseprite'), formatByName('texturepacker'), 's.tp.json', resources);
    expect(tp.notes.filter((n) => /not stored/.test(n))).toEqual([]);
    const back = await convert(
      load(tp.files[0]!.bytes, 's.tp.json', 'texturepacker'),
      formatByName('aseprite'),
      's.back.json',
      beside(tp.files, resources),
    );
    const tags = (
      JSON.parse(new TextDecoder().decode(back.files[0]!.bytes)) as {
        meta: { frameTags: { name: string; direction: string; repeat?: string }[] };
      }
    ).meta.frameTags;
    const original = load(bytes, 's.aseprite').doc as { tags: { name: string; direction: string; repeat: number }[] };
    expect(tags.map((t) => [t.name, t.direction, Number(t.repeat ?? 0)])).toEqual(
      original.tags.map((t) => [t.name, t.direction, t.repeat]),
    );
  });
});

describe('loopText', () => {
  it('says a repeat of 1 as "once"', () => {
    const frames = [{ durationMs: 100 }, { durationMs: 100 }] as Parameters<typeof loopText>[0]['frames'];
    expect(loopText({ frames, loopTo: 0, mode: { direction: 'pingpong', repeat: 1 } })).toBe('loops to frame 0, pingpong, once');
    expect(loopText({ frames, loopTo: 0, mode: { direction: 'forward', repeat: 3 } })).toBe('loops to frame 0, forward, 3 times');
  });
});
