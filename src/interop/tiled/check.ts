/**
 * `sprat check` for Tiled: what a map or tileset references, each found and
 * decoded (tileset files, tileset and tile images, image-layer images,
 * object templates and their tilesets), one problem per broken link, for
 * every orientation (a map sprat does not draw is still checked); and the
 * rules of a Tiled project (`.tiled-project`): its folders, its object types
 * file, and the custom property types its files name.
 */
import { diagnostic, diagnosticFromError, isFormatError, type Diagnostic } from '../../binary/errors.js';
import { LimitError } from '../../binary/limits.js';
import type { CommandOptions, ResourceLoader } from '../../formats/types.js';
import { loadImage, loadResource } from '../../formats/resources.js';
import { limitsFrom } from '../../binary/limits.js';
import { errorIn, JsonReader, key } from '../json.js';
import { readTileset, resolveTileset, type TiledDoc, type TiledLayer } from './index.js';
import { looksLikeXml, readXmlDocument, xmlRootName } from './xml.js';

const FORMAT = 'tiled';

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);

function dirOf(p: string): string {
  const i = Math.max(p.lastIndexOf('/'), p.lastIndexOf('\\'));
  return i < 0 ? '' : p.slice(0, i + 1);
}

function problem(e: unknown): Diagnostic {
  if (isFormatError(e)) return diagnosticFromError(e);
  if (e instanceof LimitError) return { severity: 'error', message: e.message };
  throw e;
}

/** The images a tileset names: its own image, or each tile's (a collection of images). */
function tilesetImages(ts: { image?: string; raw?: J }): string[] {
  const names = ts.image === undefined || ts.image === '' ? [] : [ts.image];
  const tiles = Array.isArray(ts.raw?.tiles) ? (ts.raw.tiles as unknown[]) : [];
  for (const t of tiles) if (isObj(t) && typeof t.image === 'string' && t.image) names.push(t.image);
  return names;
}

/**
 * Every file a Tiled map or tileset references, found and decoded: one
 * problem per broken link (the external tileset's own problem once, not
 * again for its images). Never throws for bad input.
 */
export async function tiledResourceProblems(doc: TiledDoc, resources: ResourceLoader, options?: CommandOptions): Promise<Diagnostic[]> {
  const limits = limitsFrom(options);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  const add = (d: Diagnostic) => {
    if (seen.has(d.message)) return;
    seen.add(d.message);
    out.push(d);
  };
  const images = async (ts: { name: string; image?: string; raw?: J }, dir: string) => {
    for (const n of tilesetImages(ts)) {
      try {
        await loadImage(resources, { format: FORMAT, what: `the image of tileset "${ts.name}"`, name: dir + n }, limits);
      } catch (e) {
        add(problem(e));
      }
    }
  };
  for (let i = 0; i < doc.tilesets.length; i++) {
    let resolved: Awaited<ReturnType<typeof resolveTileset>>;
    try {
      resolved = await resolveTileset(doc, i, resources, []);
    } catch (e) {
      add(problem(e));
      continue;
    }
    await images(resolved.ts, resolved.dir);
  }
  const templates = new Set<string>();
  const visit = async (ls: readonly TiledLayer[], at: string) => {
    for (let i = 0; i < ls.length; i++) {
      const l = ls[i]!;
      const path = `${at}[${i}]`;
      if (l.type === 'group') await visit(l.layers, `${path}.layers`);
      else if (l.type === 'imagelayer' && typeof l.raw.image === 'string' && l.raw.image) {
        try {
          await loadImage(resources, { format: FORMAT, what: `the image of image layer "${l.name}"`, name: l.raw.image }, limits);
        } catch (e) {
          add(isFormatError(e) ? diagnosticFromError(errorIn(doc, FORMAT, `${path}.image`, e.reason)) : problem(e));
        }
      } else if (l.type === 'objectgroup' && Array.isArray(l.raw.objects)) {
        const objects = l.raw.objects as unknown[];
        for (let k = 0; k < objects.length; k++) {
          const o = objects[k];
          if (!isObj(o) || typeof o.template !== 'string' || templates.has(o.template)) continue;
          templates.add(o.template);
          for (const d of await templateProblems(doc, o.template, resources, options))
            add(d.line === undefined && d.offset === undefined ? { ...d, ...placeOf(doc, `${path}.objects[${k}].template`) } : d);
        }
      }
    }
  };
  await visit(doc.layers, '$.layers');
  return out;
}

function placeOf(doc: TiledDoc, path: string): { line?: number; column?: number } {
  const e = errorIn(doc, FORMAT, path, '');
  return e.line === undefined ? {} : { line: e.line, column: e.column };
}

/** An object template (.tx/.tj) is there, reads as a template, and its tileset and images are there. */
async function templateProblems(doc: TiledDoc, name: string, resources: ResourceLoader, options?: CommandOptions): Promise<Diagnostic[]> {
  let bytes: Uint8Array;
  try {
    bytes = (await loadResource(resources, { format: FORMAT, what: 'the object template', name })).bytes;
  } catch (e) {
    return [problem(e)];
  }
  let json: J;
  let r: JsonReader;
  try {
    if (looksLikeXml(bytes)) {
      const x = readXmlDocument(FORMAT, bytes, undefined, name);
      r = x.reader;
      json = x.json;
      if (xmlRootName(bytes) !== 'template') throw r.error(name, `expected a <template> root element, found a ${String(json.type)}`);
    } else {
      r = new JsonReader(FORMAT, name);
      json = r.obj(r.parse(bytes), name);
      if (json.type !== 'template') throw r.error(`${name}.type`, `expected "template", found ${JSON.stringify(json.type)}`);
    }
    if (!isObj(json.object)) throw r.error(name, 'the template holds no object');
    if (!isObj(json.tileset)) return [];
    const ts = readTileset(r, json.tileset, `${name}.tileset`, true);
    const dir = dirOf(name);
    if (ts.source === undefined)
      return await tiledResourceProblems({ ...doc, tilesets: [ts], layers: [] }, withDir(resources, dir), options);
    return await tiledResourceProblems({ ...doc, tilesets: [{ ...ts, source: dir + ts.source }], layers: [] }, resources, options);
  } catch (e) {
    if (isFormatError(e) && !e.reason.startsWith(name))
      return [diagnostic('error', `${name}: ${e.reason}`, { line: e.line, column: e.column })];
    return [problem(e)];
  }
}

/** `resources` seen from the folder `dir` (relative to the loader's own), for a template's embedded tileset's image. */
function withDir(resources: ResourceLoader, dir: string): ResourceLoader {
  if (!dir) return resources;
  return {
    load: (p) => resources.load(dir + p),
    exists: (p) => resources.exists(dir + p),
    ...(resources.describe ? { describe: (p: string) => resources.describe!(dir + p) } : {}),
  };
}

// ---------------------------------------------------------------- projects

/** What `check` needs of a Tiled project: the folders its files are in, and the names of the types it defines. */
export interface TiledProject {
  /** Folders as the project names them (relative to its own folder). */
  folders: string[];
  /** Custom property types (propertyTypes) and object types (objectTypesFile) by name. */
  types: string[];
  objectTypesFile?: string;
  extensionsPath?: string;
}

/**
 * Whether `check` follows a project folder: inside the project's own folder,
 * or in a sibling of it (`../tests`, as Tiled's examples name one); never an
 * absolute path or a folder above (`..`, `../..`), which could be the whole disk.
 */
export function projectFolderFollowed(folder: string): boolean {
  if (/^([\\/]|[A-Za-z]:)/.test(folder)) return false;
  const parts: string[] = [];
  let up = 0;
  for (const seg of folder.split(/[\\/]+/)) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (parts.length) parts.pop();
      else up++;
    } else parts.push(seg);
  }
  return up === 0 || (up === 1 && parts.length > 0);
}

/** A `.tiled-project` file (by name). */
export function isTiledProjectName(name: string): boolean {
  return /\.tiled-project$/i.test(name);
}

/**
 * Reads a `.tiled-project` (JSON): its folders, extensions path, object
 * types file and property types, with each problem of its shape placed at
 * its line and column. Throws a FormatError when it is no JSON object.
 */
export function readTiledProject(bytes: Uint8Array, fileName = ''): { project: TiledProject; problems: Diagnostic[] } {
  const r = new JsonReader(FORMAT);
  const o = r.obj(r.parse(bytes), '$');
  const problems: Diagnostic[] = [];
  const project: TiledProject = { folders: [], types: [] };
  const strings = (k: string): string[] => {
    if (o[k] === undefined) return [];
    if (!Array.isArray(o[k])) {
      problems.push(r.diagnostic('error', `$${key(k)}`, 'expected an array of folder names'));
      return [];
    }
    const out: string[] = [];
    (o[k] as unknown[]).forEach((v, i) => {
      if (typeof v === 'string') out.push(v);
      else problems.push(r.diagnostic('error', `$${key(k)}[${i}]`, 'expected a folder name (a string)'));
    });
    return out;
  };
  project.folders = strings('folders');
  if (!Array.isArray(o.folders))
    problems.push(r.diagnostic('warning', '$', `the project names no "folders": no map or tileset is part of it`));
  for (const k of ['objectTypesFile', 'extensionsPath'] as const) {
    const v = o[k];
    if (v === undefined || v === '') continue;
    if (typeof v !== 'string') problems.push(r.diagnostic('error', `$.${k}`, 'expected a path (a string)'));
    else project[k] = v;
  }
  const types = o.propertyTypes;
  const names = new Map<string, string>();
  if (types !== undefined && !Array.isArray(types)) problems.push(r.diagnostic('error', '$.propertyTypes', 'expected an array of types'));
  if (Array.isArray(types)) {
    types.forEach((t, i) => {
      const at = `$.propertyTypes[${i}]`;
      if (!isObj(t) || typeof t.name !== 'string' || !t.name) {
        problems.push(r.diagnostic('error', at, 'expected a type with a "name"'));
        return;
      }
      const before = names.get(t.name);
      if (before !== undefined)
        problems.push(r.diagnostic('warning', `${at}.name`, `the type "${t.name}" is defined twice (also at ${before})`));
      else names.set(t.name, at);
      if (t.type !== undefined && t.type !== 'class' && t.type !== 'enum')
        problems.push(
          r.diagnostic('warning', `${at}.type`, `unknown kind of type ${JSON.stringify(t.type)} (Tiled knows "class" and "enum")`),
        );
    });
    // A class member whose own type is a custom one must name a type the project defines.
    types.forEach((t, i) => {
      if (!isObj(t) || !Array.isArray(t.members)) return;
      t.members.forEach((m, j) => {
        if (isObj(m) && typeof m.propertyType === 'string' && m.propertyType && !names.has(m.propertyType))
          problems.push(
            r.diagnostic(
              'warning',
              `$.propertyTypes[${i}].members[${j}].propertyType`,
              `member "${String(m.name)}" of "${String(t.name)}" has the type "${m.propertyType}", which the project does not define`,
            ),
          );
      });
    });
  }
  project.types = [...names.keys()];
  void fileName;
  return { project, problems };
}

/** The names of the object types an object types file (Tiled's XML `<objecttypes>` or its JSON array) defines. */
export function objectTypeNames(bytes: Uint8Array, name: string): string[] {
  const text = new TextDecoder().decode(bytes);
  if (/^\s*</.test(text)) {
    if (!/<objecttypes[\s>/]/.test(text)) throw new Error(`${name} holds no <objecttypes> element`);
    return [...text.matchAll(/<objecttype\s[^>]*?name="([^"]*)"/g)].map((m) => decodeXmlEntities(m[1]!));
  }
  const r = new JsonReader(FORMAT, name);
  const v = r.parse(bytes);
  if (!Array.isArray(v)) throw r.error(name, 'expected an array of object types');
  return v.filter(isObj).flatMap((t) => (typeof t.name === 'string' ? [t.name] : []));
}

function decodeXmlEntities(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
}

/**
 * The problems of a project file: its own shape, then its folders (a folder
 * that is not there: a warning) and its object types file (not there or
 * unreadable: an error). `resources` is relative to the project's folder.
 */
export async function tiledProjectProblems(
  bytes: Uint8Array,
  fileName: string,
  resources: ResourceLoader,
): Promise<{ project?: TiledProject; problems: Diagnostic[] }> {
  let read: ReturnType<typeof readTiledProject>;
  try {
    read = readTiledProject(bytes, fileName);
  } catch (e) {
    return { problems: [problem(e)] };
  }
  const { project, problems } = read;
  const r = new JsonReader(FORMAT);
  r.parse(bytes);
  for (let i = 0; i < project.folders.length; i++) {
    const f = project.folders[i]!;
    const dir = f === '' || f === '.' ? './' : f.replace(/[\\/]*$/, '/');
    if (!projectFolderFollowed(f))
      problems.push(
        r.diagnostic(
          'warning',
          `$.folders[${i}]`,
          `the folder "${f}" is not checked: sprat follows a project's folders inside its own folder or a sibling of it`,
        ),
      );
    else if (!(await resources.exists(dir)))
      problems.push(r.diagnostic('warning', `$.folders[${i}]`, `the folder "${f}" is not there (${resources.describe?.(f) ?? f})`));
  }
  if (project.objectTypesFile !== undefined) {
    try {
      const { bytes: b } = await loadResource(resources, { format: FORMAT, what: 'the object types file', name: project.objectTypesFile });
      for (const n of objectTypeNames(b, project.objectTypesFile)) project.types.push(n);
    } catch (e) {
      const why = isFormatError(e) ? e.reason : (e as Error).message;
      problems.push(r.diagnostic('error', '$.objectTypesFile', why));
    }
  }
  return { project, problems };
}

/**
 * Properties of a map or tileset that name a custom type (`propertytype`)
 * the project does not define: one warning each, at the property. Looks at
 * every `properties` list in the document (map, layers, objects, tilesets,
 * tiles, wang sets) and at objects' and tiles' `class`/`type`... only the
 * properties: an object's class may be any name.
 */
export function undefinedPropertyTypes(bytes: Uint8Array, types: ReadonlySet<string>, projectName: string): Diagnostic[] {
  let json: unknown;
  let r: JsonReader;
  try {
    if (looksLikeXml(bytes)) {
      const x = readXmlDocument(FORMAT, bytes);
      json = x.json;
      r = x.reader;
    } else {
      r = new JsonReader(FORMAT);
      json = r.parse(bytes);
    }
  } catch {
    return []; // validation says what is wrong
  }
  const out: Diagnostic[] = [];
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(v)) {
      v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
      return;
    }
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      if (k === 'properties' && Array.isArray(x)) {
        x.forEach((p, i) => {
          if (isObj(p) && typeof p.propertytype === 'string' && p.propertytype && !types.has(p.propertytype))
            out.push(
              r.diagnostic(
                'warning',
                `${path}.properties[${i}]`,
                `property "${String(p.name)}" has the type "${p.propertytype}", which the project ${projectName} does not define`,
              ),
            );
        });
      } else if (k !== 'data' && k !== 'chunks') walk(x, `${path}${key(k)}`, depth + 1);
    }
  };
  walk(json, '$', 0);
  return out;
}
