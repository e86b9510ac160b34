/**
 * Real files from public projects, read where their packages install them (the project keeps no copies:
 * test/fixtures/REAL-FILES.md lists each source, version, path and licence). A folder is copied into a
 * temporary one (the `.gz` files Debian compresses are unpacked there) so that tests may write beside the
 * maps. A missing source skips its tests on a developer machine and fails them in CI (`.ci/run` installs
 * the Debian packages; the npm packages are dev dependencies).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'fflate';
import { ROOT } from './paths.js';

export interface RealSource {
  /** Short name, used in test titles. */
  name: string;
  /** Where the package installs the files. */
  dir: string;
  /** Debian or npm package that ships them. */
  package: string;
}

const NPM = path.join(ROOT, 'node_modules');

export const SOURCES = {
  tiled: { name: 'tiled', dir: '/usr/share/doc/tiled/examples', package: 'Debian tiled' },
  btanks: { name: 'btanks', dir: '/usr/share/games/btanks/data', package: 'Debian btanks-data' },
  tmxParser: { name: 'tmx-parser', dir: path.join(NPM, 'tmx-parser/test'), package: 'npm tmx-parser' },
  animatedTiles: {
    name: 'phaser-animated-tiles',
    dir: path.join(NPM, 'phaser-animated-tiles/src/demo/assets'),
    package: 'npm phaser-animated-tiles',
  },
  phaserGames: {
    name: 'phaser create-game',
    dir: path.join(NPM, '@phaserjs/create-game/scaffolding/demo'),
    package: 'npm @phaserjs/create-game',
  },
  pixiExamples: { name: 'pixi-examples', dir: path.join(NPM, 'pixi-examples/_assets'), package: 'npm pixi-examples' },
  asepriteAtlas: { name: 'aseprite-atlas', dir: path.join(NPM, 'aseprite-atlas/demo'), package: 'npm aseprite-atlas' },
} satisfies Record<string, RealSource>;

/** True when the source is installed; in CI a missing one throws (CI installs every source). */
export function haveSource(s: RealSource): boolean {
  const have = fs.existsSync(s.dir);
  if (!have && process.env.CI) throw new Error(`CI must have ${s.package} (${s.dir}) for the real-file tests`);
  return have;
}

function copyTree(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const e of fs.readdirSync(from, { withFileTypes: true })) {
    const a = path.join(from, e.name);
    if (e.isDirectory()) copyTree(a, path.join(to, e.name));
    else if (e.isFile() && e.name.endsWith('.gz')) {
      fs.writeFileSync(path.join(to, e.name.slice(0, -3)), gunzipSync(new Uint8Array(fs.readFileSync(a))));
    } else if (e.isFile()) fs.copyFileSync(a, path.join(to, e.name));
  }
}

/** A temporary copy of the source's folder (gzipped files unpacked), made once per test file. */
const copies = new Map<string, string>();
export function copyOf(s: RealSource): string {
  let dir = copies.get(s.dir);
  if (!dir) {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), `sprat-real-${s.name.replace(/\W+/g, '-')}-`));
    copyTree(s.dir, dir);
    copies.set(s.dir, dir);
  }
  return dir;
}

/** Files under `dir` (relative, `/`-separated, sorted) whose name matches. */
export function filesUnder(dir: string, match: RegExp): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (match.test(e.name)) out.push(r);
    }
  };
  walk(dir, '');
  return out.sort();
}
