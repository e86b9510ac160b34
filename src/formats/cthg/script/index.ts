/**
 * `cthg-script`: CorsixTH's AnimationEncoder language (a text script plus
 * PNGs). It compiles to CTHG (`sprat convert anims.txt out.dat`) byte for
 * byte as the real encoder does, and a CTHG file decompiles to it
 * (`sprat convert anim.dat out.txt`): the script plus one PNG per sprite.
 * It lives in the CTHG folder because it is built on its codec (a format
 * folder imports no other's), as the two Solarus syntaxes share one.
 */
import { diagnostic, diagnosticFromError, isFormatError, type Diagnostic, printableLines } from '../../../binary/errors.js';
import { foundResources, type ResourceRequest } from '../../resources.js';
import type { CommandOptions, FormatHandler, LinePosition, OutputFile, RenderView, ResourceLoader } from '../../types.js';
import { cthgToModel } from '../convert.js';
import type { CthgDocument } from '../model.js';
import { cthgPicture, RENDER_OPTIONS } from '../render.js';
import {
  FIX_CROP_OPTION,
  FIX_SOUNDS_OPTION,
  IGNORE_HEADER_OPTION,
  KEEP_SPRITES_OPTION,
  compileScript,
  scriptCompileOptions,
  type CompileResult,
} from './compile.js';
import { decompileCthg, spritePngs } from './decompile.js';
import { SCRIPT_FORMAT, TILE_SIZE, formatElement, printScript, readScript, sniffScript, type CthgScript } from './syntax.js';

export * from './syntax.js';
export {
  compileScript,
  cropBox,
  FIX_CROP_OPTION,
  FIX_SOUNDS_OPTION,
  IGNORE_HEADER_OPTION,
  KEEP_SPRITES_OPTION,
  SCRIPT_COMPILE_OPTIONS,
  scriptCompileOptions,
  type CompileResult,
} from './compile.js';
export { decompileCthg, spritePngs, type Decompiled } from './decompile.js';

/** What `convert` hands the script writer from a CTHG file: the document to decompile. */
export interface DecompileRequest {
  decompile: CthgDocument;
}

function isDecompileRequest(doc: unknown): doc is DecompileRequest {
  return typeof doc === 'object' && doc !== null && 'decompile' in doc;
}

/** The stem of an output name: `out/anim.txt` -> `anim`. */
function stemOf(outName: string): string {
  const base = outName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** CTHG -> script, for the CTHG handler's `convertTo`: the request to write, and what the script cannot say as the file does. */
export function decompileForConvert(doc: CthgDocument): { doc: DecompileRequest; notes: string[] } {
  return { doc: { decompile: doc }, notes: decompileCthg(doc, 'x').notes };
}

/** Decompiled files: the script (OUT) first, then the sprites' PNGs beside it. */
export function decompileFiles(doc: CthgDocument, outName: string): OutputFile[] {
  const stem = stemOf(outName);
  const d = decompileCthg(doc, stem);
  // The second line, `// sprat: compile ...`, holds the compile options (printScript writes the script's compileLine).
  const header = `decompiled by sprat; compile with: sprat convert ${outName} ${stem}.dat`;
  return [{ name: outName, bytes: printScript(d.script, header) }, ...spritePngs(d)];
}

function inspectJson(doc: CthgScript): unknown {
  return {
    format: SCRIPT_FORMAT,
    animations: doc.animations.map((a) => ({
      name: a.name,
      tileSize: a.tileSize ?? TILE_SIZE,
      view: a.view,
      line: a.line,
      frames: a.frames.map((f) => ({
        sound: f.sound ?? 0,
        elements: f.elements.map((e) => ({
          base: e.base ?? null,
          recolour: e.recolour ?? null,
          layer: e.layer ?? null,
          left: e.left ?? 0,
          top: e.top ?? 0,
          width: e.width ?? -1,
          height: e.height ?? -1,
          xOffset: e.xOffset ?? 0,
          yOffset: e.yOffset ?? 0,
          alpha: e.alpha ?? 100,
          horFlip: e.horFlip === true,
          vertFlip: e.vertFlip === true,
          displayIf: e.displayIf ?? null,
        })),
      })),
    })),
  };
}

function inspectText(doc: CthgScript): string {
  const lines = [`CorsixTH AnimationEncoder script: ${doc.animations.length} animation${doc.animations.length === 1 ? '' : 's'}`];
  for (const a of doc.animations) {
    lines.push(
      `  "${a.name}" ${a.view} (tile size ${a.tileSize ?? TILE_SIZE}, line ${a.line}): ${a.frames.length} frame${a.frames.length === 1 ? '' : 's'}`,
    );
    a.frames.forEach((f, i) => {
      lines.push(`    frame ${i}${f.sound ? ` (sound ${f.sound})` : ''}`);
      for (const e of f.elements) lines.push(`      ${formatElement(e)}`);
    });
  }
  return `${printableLines(lines)}\n`;
}

function validate(bytes: Uint8Array): Diagnostic[] {
  try {
    const doc = readScript(bytes);
    const kept = scriptCompileOptions(doc).options[FIX_SOUNDS_OPTION.name] === true;
    const out: Diagnostic[] = [];
    for (const a of doc.animations) {
      if (a.rawName)
        out.push(diagnostic('warning', `the name of animation "${a.name}" is not valid UTF-8`, { line: a.line, column: a.column }));
      for (const f of a.frames) {
        if (f.sound) {
          out.push(
            diagnostic(
              'warning',
              `sound ${f.sound}: the real encoder drops frame sounds (${kept ? 'sprat keeps them: the "// sprat: compile" line has --fix-sounds' : 'compile with --fix-sounds to keep them'})`,
              {
                line: f.line,
                column: f.column,
              },
            ),
          );
        }
      }
    }
    return out;
  } catch (e) {
    if (isFormatError(e)) return [diagnosticFromError(e)];
    throw e;
  }
}

function requests(doc: CthgScript): ResourceRequest[] {
  const names = new Map<string, string>();
  for (const a of doc.animations) {
    for (const f of a.frames) {
      for (const e of f.elements) {
        if (e.base) names.set(e.base, 'image');
        if (e.recolour) names.set(e.recolour, 'recolour image');
      }
    }
  }
  return [...names].map(([name, what]) => ({ format: SCRIPT_FORMAT, what, name }));
}

/** A cache of derived data: each script's compiled document, by loader (one per command), for its pictures. */
const compiled = new WeakMap<CthgScript, WeakMap<ResourceLoader, Map<string, Promise<CompileResult>>>>();

function compiledFor(doc: CthgScript, resources: ResourceLoader, options: CommandOptions): Promise<CompileResult> {
  // The cache's per-script level (derived data only).
  const byLoader = compiled.get(doc) ?? compiled.set(doc, new WeakMap()).get(doc)!;
  const byOptions = byLoader.get(resources) ?? byLoader.set(resources, new Map()).get(resources)!;
  const key = [FIX_CROP_OPTION, KEEP_SPRITES_OPTION, IGNORE_HEADER_OPTION].map((o) => options[o.name] === true).join();
  let p = byOptions.get(key);
  if (!p) {
    p = compileScript(doc, resources, options);
    byOptions.set(key, p);
  }
  return p;
}

function views(doc: CthgScript): RenderView[] {
  const out: RenderView[] = [];
  const seen = new Set<string>();
  for (const a of doc.animations) {
    const key = `${a.name}\u0000${a.view}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ label: `${a.name} (${a.view})`, options: { animation: a.name, view: a.view } });
  }
  return out;
}

/** Where each animation, frame, element and given element field was in the script (inspect JSON pointers). */
function linePositions(doc: CthgScript): Record<string, LinePosition> {
  const out: Record<string, LinePosition> = {};
  doc.animations.forEach((a, i) => {
    const ap = `/animations/${i}`;
    out[ap] = { line: a.line, column: a.column };
    a.frames.forEach((f, j) => {
      const fp = `${ap}/frames/${j}`;
      out[fp] = { line: f.line, column: f.column };
      f.elements.forEach((e, k) => {
        const ep = `${fp}/elements/${k}`;
        out[ep] = { line: e.line, column: e.column };
        for (const [field, at] of Object.entries(e.at ?? {})) if (at) out[`${ep}/${field}`] = { line: at.line, column: at.column };
      });
    });
  });
  return out;
}

export const cthgScriptHandler: FormatHandler<CthgScript> = {
  name: 'cthg-script',
  title: 'CorsixTH AnimationEncoder script',
  extensions: ['.txt'],
  text: true,
  compilesTo: { '.dat': 'cthg' },
  sniff: sniffScript,
  read: (bytes) => readScript(bytes),
  write: (doc) => printScript(doc),
  async writeFiles(doc, outName) {
    const d = doc as CthgScript | DecompileRequest;
    if (isDecompileRequest(d)) return decompileFiles(d.decompile, outName);
    return [{ name: outName, bytes: printScript(d) }];
  },
  validate,
  inspectJson,
  inspectText,
  linePositions,
  resourceOptions: [FIX_SOUNDS_OPTION, FIX_CROP_OPTION, KEEP_SPRITES_OPTION, IGNORE_HEADER_OPTION],
  async convertTo(doc, target, options, resources) {
    if (target.name !== 'cthg' || !resources) return undefined;
    return compileScript(doc, resources, options);
  },
  references: (doc, resources) => foundResources(resources, requests(doc)),
  // To other formats: the compiled file's model.
  toModel: async (doc, resources, options) => cthgToModel((await compiledFor(doc, resources, options ?? {})).doc),
  async picture(doc, options, resources) {
    const { doc: cthg } = await compiledFor(doc, resources, options);
    return cthgPicture(cthg, options, resources);
  },
  renderViews: views,
  renderOptions: RENDER_OPTIONS,
};
