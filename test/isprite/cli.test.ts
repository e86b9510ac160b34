import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runCli } from '../helpers/cli.js';
import { SAMPLES } from '../helpers/paths.js';
import { inspectIspriteJson, readIsprite, writeIsprite, type IspriteDocument } from '../../src/formats/isprite/index.js';

const HERO = path.join(SAMPLES, 'isprite', 'hero.isprite');
const expected = JSON.parse(readFileSync(path.join(import.meta.dirname, 'hero.inspect.json'), 'utf8'));

function tmp(): string {
  return mkdtempSync(path.join(tmpdir(), 'sprat-isprite-'));
}

describe('sprat and ISPRITE files', () => {
  it('inspect --json on the sample gives the expected JSON, keys in order', async () => {
    const r = await runCli(['inspect', '--json', HERO]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(JSON.stringify(expected, null, 2) + '\n');
  });

  it('inspect prints a summary with the group tree', async () => {
    const r = await runCli(['inspect', HERO]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('ISPRITE 1.0, 10 frames per second');
    expect(r.stdout).toContain('    attack (3 frames, then idle, 15 fps): 6 7 8');
    expect(r.stdout).toContain('  idle (2 frames, loops to 0, default): 0 1');
  });

  it('validate says ok', async () => {
    const r = await runCli(['validate', HERO]);
    expect(r).toEqual({ code: 0, stdout: `${HERO}: ok\n`, stderr: '' });
  });

  it('convert a.isprite b.isprite gives identical bytes', async () => {
    const dir = tmp();
    try {
      const out = path.join(dir, 'b.isprite');
      const r = await runCli(['convert', HERO, out]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(Buffer.compare(readFileSync(out), readFileSync(HERO))).toBe(0);
      // .sprite is the other extension, found by content anyway.
      const out2 = path.join(dir, 'c.sprite');
      expect((await runCli(['convert', out, out2])).code).toBe(0);
      expect(Buffer.compare(readFileSync(out2), readFileSync(HERO))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a corrupt file: exit 1 and exactly one error line naming the byte', async () => {
    const dir = tmp();
    try {
      const bad = readFileSync(HERO);
      bad[8] = bad[8]! ^ 1; // the file size field
      const file = path.join(dir, 'bad.isprite');
      writeFileSync(file, bad);
      for (const cmd of [
        ['inspect', file],
        ['inspect', '--json', file],
        ['convert', file, path.join(dir, 'out.isprite')],
      ]) {
        const r = await runCli(cmd);
        expect(r.code, cmd.join(' ')).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(new RegExp(`^sprat: error: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .* \\(at byte 8\\)\\n$`));
      }
      // convert left nothing behind
      expect(readdirSync(dir)).toEqual(['bad.isprite']);
      const v = await runCli(['validate', file]);
      expect(v.code).toBe(1);
      expect(v.stdout).toMatch(/^.*bad\.isprite: error: file size field .* \(at byte 8\)\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('validate lists warnings on stderr and stays valid', async () => {
    const dir = tmp();
    try {
      const doc = readIsprite(readFileSync(HERO));
      doc.frames[1]!.holdTime = 0;
      doc.extraMeta!.push(['sequence-frame-rate:Root/nothing', 'fast']);
      const file = path.join(dir, 'warn.isprite');
      writeFileSync(file, writeIsprite(doc));
      const r = await runCli(['validate', file]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${file}: ok\n`);
      expect(r.stderr).toContain('frame 1 has hold time 0');
      expect(r.stderr).toContain('MET+ sequence-frame-rate:Root/nothing names no sequence');
      expect(r.stderr).toContain('value "fast" is not a frame rate');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('inspect JSON follows the contract example', () => {
  it('same keys, same order, same values', () => {
    const doc: IspriteDocument = {
      version: [1, 0],
      nonStandard: false,
      workFile: false,
      nonStandardId: '',
      frameRate: 30,
      meta: null,
      extraMeta: null,
      textures: [{ path: 'sheets/hero', nearest: true }],
      slices: [{ texture: 0, rotated: false, x: 0, y: 0, width: 16, height: 24 }],
      names: ['hand', 'hurtbox'],
      tree: [
        {
          kind: 'group',
          name: 'Armed',
          children: [{ kind: 'sequence', name: 'attack', loopPoint: null, followUp: 'idle', frames: [3, 4, 5] }],
        },
        { kind: 'sequence', name: 'idle', loopPoint: 0, followUp: '', frames: [0, 1] },
      ],
      frames: [
        {
          holdTime: 1,
          loopPoint: false,
          label: '',
          triggers: '',
          notes: '',
          elements: [
            { type: 'graphic', expanded: false, name: null, slice: 0, x: -8, y: -24, flipX: false, flipY: false },
            {
              type: 'graphic',
              expanded: true,
              name: 0,
              slice: 1,
              x: 2.5,
              y: -10,
              flipX: true,
              flipY: false,
              originX: 3,
              originY: 4,
              rotation: 45,
              scaleX: 1,
              scaleY: 0.5,
              opacity: 65535,
            },
            {
              type: 'attachment',
              name: 0,
              id: 0,
              x: 4,
              y: -12,
              flipX: false,
              flipY: false,
              rotation: 0,
              scaleX: 1,
              scaleY: 1,
              opacity: 65535,
            },
            { type: 'rect', name: 1, id: 0, x: -6, y: -20, width: 12, height: 20, rotation: 0 },
            { type: 'circle', name: 1, id: 1, x: 0, y: -10, radius: 6.5 },
            { type: 'unknown', marker: 88, name: null, data: new Uint8Array(4) },
          ],
        },
      ],
      unknownChunks: [{ id: 'XTRA', data: new Uint8Array(12) }],
    };
    const contract = `{
  "format": "isprite",
  "version": [1, 0],
  "nonStandard": false,
  "workFile": false,
  "nonStandardId": "",
  "frameRate": 30,
  "meta": null,
  "extraMeta": null,
  "textures": [{"path": "sheets/hero", "nearest": true}],
  "slices": [{"texture": 0, "rotated": false, "x": 0, "y": 0, "width": 16, "height": 24}],
  "names": ["hand", "hurtbox"],
  "tree": [
    {"group": "Armed", "children": [
      {"sequence": "attack", "loopPoint": null, "followUp": "idle", "frames": [3, 4, 5]}
    ]},
    {"sequence": "idle", "loopPoint": 0, "followUp": "", "frames": [0, 1]}
  ],
  "frames": [
    {"holdTime": 1, "loopPoint": false, "label": "", "triggers": "", "notes": "", "elements": [
      {"type": "graphic", "expanded": false, "name": null, "slice": 0, "x": -8, "y": -24, "flipX": false, "flipY": false},
      {"type": "graphic", "expanded": true, "name": 0, "slice": 1, "x": 2.5, "y": -10, "flipX": true, "flipY": false,
       "originX": 3, "originY": 4, "rotation": 45, "scaleX": 1, "scaleY": 0.5, "opacity": 65535},
      {"type": "attachment", "name": 0, "id": 0, "x": 4, "y": -12, "flipX": false, "flipY": false,
       "rotation": 0, "scaleX": 1, "scaleY": 1, "opacity": 65535},
      {"type": "rect", "name": 1, "id": 0, "x": -6, "y": -20, "width": 12, "height": 20, "rotation": 0},
      {"type": "circle", "name": 1, "id": 1, "x": 0, "y": -10, "radius": 6.5},
      {"type": "unknown", "marker": 88, "name": null, "size": 4}
    ]}
  ],
  "unknownChunks": [{"id": "XTRA", "size": 12}]
}`;
    // Compare as text so that key order counts.
    expect(JSON.stringify(inspectIspriteJson(doc))).toBe(JSON.stringify(JSON.parse(contract)));
    // The same document, written and read back, inspects the same (version 1.1 for nothing: it is all 1.0).
    expect(JSON.stringify(inspectIspriteJson(readIsprite(writeIsprite(doc))))).toBe(JSON.stringify(JSON.parse(contract)));
  });
});
