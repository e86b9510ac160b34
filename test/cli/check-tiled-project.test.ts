/**
 * `sprat check` and Tiled projects (`.tiled-project`): the project file's
 * own rules (folders, object types file, property types), the maps and
 * tilesets under its folders (each link: tileset files, images, templates),
 * the custom property types they name; and Tiled's own example project
 * (Debian's `tiled` package) checks clean.
 */
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gunzipSync } from 'fflate';
import { runCli } from '../helpers/cli.js';
import { tempTree } from '../helpers/tree.js';
import { SAMPLES } from '../helpers/paths.js';

const EXAMPLES = '/usr/share/doc/tiled/examples';
const haveExamples = fs.existsSync(path.join(EXAMPLES, 'examples.tiled-project'));
if (!haveExamples && process.env.CI) throw new Error("CI must have Debian's tiled package (its examples in /usr/share/doc/tiled/examples)");

const { dir: tmp, place } = tempTree('sprat-check-tiled-');
const png = fs.readFileSync(path.join(SAMPLES, 'interop/hero.png'));

const project = (o: Record<string, unknown>) => JSON.stringify({ automappingRulesFile: '', commands: [], ...o }, null, 4);
const tsx = (image: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<tileset version="1.8" name="set" tilewidth="16" tileheight="16" tilecount="4" columns="2">\n <image source="${image}" width="32" height="32"/>\n</tileset>\n`;
const tmx = (body: string, orientation = 'orthogonal') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<map version="1.8" orientation="${orientation}" renderorder="right-down" width="2" height="2" tilewidth="16" tileheight="16" infinite="0" nextlayerid="3" nextobjectid="2">\n${body}</map>\n`;
const layer = ' <layer id="1" name="ground" width="2" height="2">\n  <data encoding="csv">\n1,2,\n3,4\n</data>\n </layer>\n';

// A project whose maps live in maps/ and whose tilesets in ../shared-sets (outside the folder checked).
place(
  'proj/game.tiled-project',
  project({
    folders: ['maps', '../shared-sets', 'gone'],
    extensionsPath: 'extensions',
    objectTypesFile: 'types.xml',
    propertyTypes: [
      { id: 1, name: 'Door', type: 'class', members: [{ name: 'lock', type: 'string', propertyType: 'Lock', value: 'Open' }] },
      { id: 2, name: 'Dir', type: 'enum', values: ['N', 'S'] },
      { id: 3, name: 'Dir', type: 'enum', values: ['E', 'W'] },
    ],
  }),
);
place('proj/types.xml', '<?xml version="1.0"?>\n<objecttypes>\n <objecttype name="Npc" color="#ffffff"/>\n</objecttypes>\n');
place('shared-sets/set.tsx', tsx('set.png'));
place('shared-sets/set.png', png.subarray(0, 40)); // a cut PNG: does not decode
place('shared-sets/good.tsx', tsx('good.png'));
place('shared-sets/good.png', png);
// a map whose external tileset is fine, whose property types are known (Door, Npc) and unknown (Chest)
place(
  'proj/maps/ok.tmx',
  tmx(
    ' <properties>\n  <property name="door" type="class" propertytype="Door"/>\n  <property name="who" type="class" propertytype="Npc"/>\n  <property name="chest" type="class" propertytype="Chest"/>\n </properties>\n <tileset firstgid="1" source="../../shared-sets/good.tsx"/>\n' +
      layer,
  ),
);
// a map whose tileset's image does not decode, whose image layer's image is missing, and whose template is missing
place(
  'proj/maps/broken.tmx',
  tmx(
    ' <tileset firstgid="1" source="../../shared-sets/set.tsx"/>\n' +
      layer +
      ' <imagelayer id="2" name="sky">\n  <image source="sky.png" width="32" height="32"/>\n </imagelayer>\n <objectgroup id="3" name="things">\n  <object id="1" template="chest.tx" x="0" y="0"/>\n </objectgroup>\n',
  ),
);
// an isometric map (sprat does not draw it) whose tileset file is missing: still checked
place('proj/maps/iso.tmx', tmx(' <tileset firstgid="1" source="missing.tsx"/>\n' + layer, 'isometric'));
// a template whose tileset image is missing
place(
  'proj/maps/tpl.tmx',
  tmx(
    ' <tileset firstgid="1" source="../../shared-sets/good.tsx"/>\n' +
      layer +
      ' <objectgroup id="2" name="things">\n  <object id="1" template="templates/coin.tx" x="0" y="0"/>\n </objectgroup>\n',
  ),
);
place(
  'proj/maps/templates/coin.tx',
  '<?xml version="1.0" encoding="UTF-8"?>\n<template>\n <tileset firstgid="1" source="coin.tsx"/>\n <object gid="1" width="16" height="16"/>\n</template>\n',
);
place('proj/maps/templates/coin.tsx', tsx('coin.png'));
// a project that is not JSON, and one whose object types file is missing
place('bad/x.tiled-project', '{ "folders": [".",, }');
place('notypes/y.tiled-project', project({ folders: ['.'], objectTypesFile: 'objecttypes.xml' }));

async function checkJson(args: string[], cwd = tmp) {
  const r = await runCli(['check', ...args, '--json'], cwd);
  expect(r.stderr).toBe('');
  const report = JSON.parse(r.stdout) as {
    files: { path: string; format: string; problems: { severity: string; message: string; line?: number; column?: number }[] }[];
  };
  const byFile = new Map(report.files.map((f) => [f.path.split(path.sep).join('/'), f]));
  return { code: r.code, byFile };
}

describe('sprat check: Tiled projects', () => {
  it("reads the project: its folders' files are checked (also outside the folder named), its own problems placed", async () => {
    const { code, byFile } = await checkJson(['proj']);
    expect(code).toBe(1);
    // the tileset files in ../shared-sets are part of the project: checked too
    expect(byFile.has('shared-sets/good.tsx')).toBe(true);
    const own = byFile.get('proj/game.tiled-project')!;
    expect(own.format).toBe('tiled-project');
    const messages = own.problems.map((p) => `${p.severity}: ${p.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^warning: \$\.propertyTypes\[2\]\.name: the type "Dir" is defined twice/),
      expect.stringMatching(
        /^warning: \$\.propertyTypes\[0\]\.members\[0\]\.propertyType: member "lock" of "Door" has the type "Lock", which the project does not define/,
      ),
      expect.stringMatching(/^warning: \$\.folders\[2\]: the folder "gone" is not there/),
    ]);
    expect(own.problems[2]!.line).toBe(7);
  });

  it('a property naming a type the project does not define is a warning, at its line', async () => {
    const { byFile } = await checkJson(['proj']);
    const ok = byFile.get('proj/maps/ok.tmx')!;
    expect(ok.problems).toEqual([
      {
        severity: 'warning',
        message: expect.stringMatching(
          /^\$\.properties\[2\]: property "chest" has the type "Chest", which the project proj[\\/]game\.tiled-project does not define \(at line 6, column 3\)$/,
        ),
        line: 6,
        column: 3,
      },
    ]);
  });

  it('each broken link of a map is one error: an image that does not decode, a missing image layer image, a missing template', async () => {
    const { byFile } = await checkJson(['proj']);
    const messages = byFile.get('proj/maps/broken.tmx')!.problems.map((p) => p.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toMatch(/the image of tileset "set" "\.\.\/\.\.\/shared-sets\/set\.png"/);
    expect(messages[1]).toMatch(/image layer "sky" "sky\.png" not found/);
    expect(messages[2]).toMatch(/the object template "chest\.tx" not found/);
    // a template's own tileset's image
    const tpl = byFile.get('proj/maps/tpl.tmx')!.problems.map((p) => p.message);
    expect(tpl).toEqual([expect.stringMatching(/the image of tileset "set" "templates\/coin\.png" not found/)]);
  });

  it("a map sprat does not draw (isometric) is still checked for its links, and not blamed for sprat's limit", async () => {
    const { byFile } = await checkJson(['proj']);
    const iso = byFile.get('proj/maps/iso.tmx')!.problems;
    expect(iso.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([
      expect.stringMatching(/the external tileset "missing\.tsx" not found/),
    ]);
    expect(iso.some((p) => /are not drawn/.test(p.message))).toBe(false);
  });

  it('a project file that is not JSON, and a missing object types file, are errors; templates are not checked alone', async () => {
    const { code, byFile } = await checkJson(['bad', 'notypes']);
    expect(code).toBe(1);
    expect(byFile.get('bad/x.tiled-project')!.problems).toEqual([expect.objectContaining({ severity: 'error', line: 1, column: 19 })]);
    expect(byFile.get('notypes/y.tiled-project')!.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        message: expect.stringMatching(/^\$\.objectTypesFile: the object types file "objecttypes\.xml" not found/),
      }),
    ]);
    const all = await checkJson(['proj']);
    expect(all.byFile.has('proj/maps/templates/coin.tx')).toBe(false);
  });

  it('a project folder above the project (.., an absolute path) is not walked: a warning, not the whole disk', async () => {
    place('deep/a/b/far.tiled-project', project({ folders: ['/', '..', '../..', '../sib/ok', 'x/../../y'] }));
    const { code, byFile } = await checkJson(['deep']);
    expect(code).toBe(0);
    const messages = byFile.get('deep/a/b/far.tiled-project')!.problems.map((p) => p.message);
    expect(messages.filter((m) => /is not checked/.test(m))).toHaveLength(3);
    expect(messages.filter((m) => /is not there/.test(m))).toHaveLength(2);
    expect([...byFile.keys()].every((f) => f.startsWith('deep/'))).toBe(true);
  });

  it('a README or notes file is not read as a Solarus sprite', async () => {
    place('notes/README.md', 'stopped enemies/slime.png 4 0 -1\n');
    place('notes/readme.txt', 'a b 1 2 3\n');
    const r = await runCli(['check', 'notes'], tmp);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/: error: /);
    expect(r.stdout).toMatch(/total +0 +0 +0/);
  });

  describe.skipIf(!haveExamples)("Tiled's own example project", () => {
    it('checks clean: no errors; the only warnings are true ones', async () => {
      // A copy, with the gzipped maps and tilesets unpacked as Tiled users keep them.
      const copy = path.join(tmp, 'examples');
      fs.cpSync(EXAMPLES, copy, { recursive: true });
      for (const f of fs.readdirSync(copy, { recursive: true, encoding: 'utf8' })) {
        if (!f.endsWith('.gz')) continue;
        const p = path.join(copy, f);
        fs.writeFileSync(p.slice(0, -3), gunzipSync(fs.readFileSync(p)));
        fs.rmSync(p);
      }
      const { code, byFile } = await checkJson(['.'], copy);
      expect(code).toBe(0);
      const warnings = [...byFile].flatMap(([f, r]) => r.problems.map((p) => `${f}: ${p.severity}: ${p.message}`));
      expect(warnings.filter((w) => /: error: /.test(w))).toEqual([]);
      // The project names ../tests, Tiled's test maps beside examples/ in its source tree, which Debian does not ship;
      // and sprat reads but does not draw hexagonal, isometric and staggered maps (validate's warning).
      for (const w of warnings)
        expect(w).toMatch(
          /^(examples\.tiled-project: warning: \$\.folders\[1\]: the folder "\.\.\/tests" is not there|[\w-]+\.tmx: warning: \$\.orientation: "(hexagonal|isometric|staggered)" maps are read)/,
        );
      expect(byFile.get('examples.tiled-project')!.problems).toHaveLength(1);
      // every map and tileset is read as Tiled, the templates only through the maps
      expect(byFile.get('sticker-knight/map/sandbox.tmx')?.format).toBe('tiled');
      expect(byFile.has('sticker-knight/map/templates/hero.tx')).toBe(false);
      expect(byFile.has('rpg/readme.txt')).toBe(false);
    });
  });
});
