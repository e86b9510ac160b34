/**
 * The browser viewer: open or drop files (a document plus the sheets and
 * textures it names), or a folder served by `sprat view DIR`; see each
 * file's format, validation, summary and JSON, and play its animations:
 * a timeline of frames with their delays, play/pause/step, loop or once,
 * speed, zoom (wheel, +/-, 0 = fit), pan by drag, background, onion skin
 * and the overlays the format's render options offer (ISPRITE shapes, CTHG
 * layers); a served file is shown again when it changes on disk. Every
 * picture is the library's (`api.preview`, the very call `sprat render`
 * makes); only the onion skin and the tile grid are drawn by the page on top.
 * The values a picture offers to change (web/edit.ts) are edited in place,
 * played at once, and saved in the file's own style: over the file under
 * `sprat view --edit`, else downloaded.
 */
import { byteRanges, linePositions, load, play, validate, type Loaded } from '../src/api.js';
import { checkReport, type CheckReport } from '../src/check.js';
import type { Diagnostic } from '../src/binary/errors.js';
import { plainJson } from '../src/binary/json-array.js';
import type { IspritePlayRecord } from '../src/formats/isprite/play-cli.js';
import { elementsOf } from '../src/formats/isprite/compact.js';
import type { IspriteFrame } from '../src/formats/isprite/model.js';
import type { CommandOptions, LinePosition, ResourceLoader } from '../src/formats/types.js';
import type { RgbaImage } from '../src/render/image.js';
import { encodeRender, type ImageFormat } from '../src/render/output.js';
import type { PictureLayer } from '../src/render/pipeline.js';
import { previewOf, type Preview, type PreviewAnimation } from './preview.js';
import {
  entriesOfDrop,
  entriesOfFiles,
  entriesOfFolderInput,
  haveDirectoryPicker,
  localSource,
  pickDirectory,
  serverSource,
  type FileSource,
  type SourceFile,
} from './source.js';
import { convertFile, convertTargets, download, outNameFor, zipOf } from './convert.js';
import { startEditor, type Editor } from './edit.js';
import { keptAnswers } from './loaders.js';
import { sharingImages } from '../src/formats/resources.js';

/** A listed file: where it comes from (web/source.ts), what was read of it, and its check. */
interface OpenFile extends SourceFile {
  /** The document's bytes once read (a folder's files are read when first shown). */
  bytes?: Uint8Array;
  /** The signature when the file was last read. */
  seen?: string | null;
  /** `sprat check`'s report of it (a checked file of an opened folder), made once. */
  report?: Promise<CheckReport>;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const files: OpenFile[] = [];
/** Every loose file opened by picker or drop so far (later ones win a name clash), so earlier documents keep their sheets. */
const dropped = new Map<string, Uint8Array>();
let timer: number | undefined;
/** Bumped whenever another file is shown: a preview that finishes late for an older one is dropped. */
let generation = 0;
let activeIndex = -1;
/** The editor of the document shown (web/edit.ts), once it is read. */
let editor: Editor | null = null;

// ---------------------------------------------------------------- file list

function renderFileList(): void {
  const nav = $('files');
  const q = $<HTMLInputElement>('filter').value.trim().toLowerCase();
  const MAX_SHOWN = 1000;
  const shown: HTMLButtonElement[] = [];
  let matches = 0;
  files.forEach((f, i) => {
    if (q && !f.name.toLowerCase().includes(q)) return;
    matches++;
    if (shown.length >= MAX_SHOWN) return;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = f.name;
    b.className = i === activeIndex ? 'active' : '';
    b.dataset.index = String(i);
    b.onclick = () => void show(i);
    setStatus(b, f);
    shown.push(b);
  });
  nav.replaceChildren(...shown);
  $('filter').hidden = files.length < 2;
  const listNote = $('listnote');
  listNote.textContent = [
    listNote.dataset.server ?? '',
    matches > MAX_SHOWN ? `${matches} match; the first ${MAX_SHOWN} are listed (search to narrow)` : '',
  ]
    .filter(Boolean)
    .join(' ');
  $('empty').hidden = activeIndex >= 0;
}

// ---------------------------------------------------------------- the player

const ZOOM_MIN = 1;
const ZOOM_MAX = 32;
const view = { zoom: 3, panX: 0, panY: 0, fitted: true };

interface Player {
  preview: Preview;
  anim: number;
  frame: number;
  playing: boolean;
}
let player: Player | null = null;

function current(): PreviewAnimation | undefined {
  return player ? player.preview.animations[player.anim] : undefined;
}

/** The playback timer, mirrored in `body[data-timer]` ("on"/"off") so that a test can wait for the state, not for time. */
function setTimer(t: number | undefined): void {
  timer = t;
  document.body.dataset.timer = t === undefined ? 'off' : 'on';
}

function stopTimer(): void {
  if (timer !== undefined) clearTimeout(timer);
  setTimer(undefined);
}

function speed(): number {
  const s = Number($<HTMLSelectElement>('speed').value);
  return s > 0 ? s : 1;
}

/** The frame after `f` under the loop/once choice, or null at the end of a one-shot. */
function nextOf(a: PreviewAnimation, f: number): number | null {
  const n = a.frames.length;
  if ($<HTMLInputElement>('loop').checked) return (f + 1) % n;
  return f + 1 < n ? f + 1 : null;
}

function setPlaying(on: boolean): void {
  if (!player) return;
  const a = current();
  player.playing = on && !!a && (runtime ? runtime.runs.length > 1 : a.frames.length > 1);
  $('play').textContent = player.playing ? 'Pause' : 'Play';
  schedule();
}

function schedule(): void {
  stopTimer();
  if (runtime) {
    scheduleRuntime();
    return;
  }
  const p = player;
  const a = current();
  if (!p?.playing || !a || a.frames.length < 2) return;
  const d = a.delaysMs[p.frame];
  const delay = d !== undefined && Number.isFinite(d) && d > 0 ? d : 100;
  setTimer(
    window.setTimeout(() => {
      setTimer(undefined);
      if (player !== p || !p.playing) return;
      const next = nextOf(a, p.frame);
      if (next === null) {
        setPlaying(false);
        return;
      }
      p.frame = next;
      drawFrame();
      schedule();
    }, delay / speed()),
  );
}

function togglePlay(): void {
  const p = player;
  const a = current();
  if (!p || !a) return;
  if (runtime) {
    // Play again after the sprite stopped: from the start.
    if (!p.playing && runtime.at >= runtime.runs.length - 1) showRun(0);
    p.playing = !p.playing;
    $('play').textContent = p.playing ? 'Pause' : 'Play';
    schedule();
    return;
  }
  // Play again at the end of a one-shot: from the start.
  if (!p.playing && !$<HTMLInputElement>('loop').checked && p.frame === a.frames.length - 1) p.frame = 0;
  setPlaying(!p.playing);
  drawFrame();
}

function stepBy(d: number): void {
  const p = player;
  const a = current();
  if (!p || !a?.frames.length) return;
  if (runtime) {
    setPlaying(false);
    showRun(Math.max(0, Math.min(runtime.runs.length - 1, runtime.at + d)));
    return;
  }
  setPlaying(false);
  p.frame = (p.frame + d + a.frames.length) % a.frames.length;
  drawFrame();
}

function goTo(frame: number): void {
  if (!player) return;
  setPlaying(false);
  // Playing by the rules: the first time the rules show that frame of this sequence.
  const at = runtime?.runs.findIndex((r) => r.sequence === current()?.label && r.position === frame) ?? -1;
  if (at >= 0) {
    showRun(at);
    return;
  }
  player.frame = frame;
  drawFrame();
}

function toImageData(img: RgbaImage): ImageData {
  const pixels = new Uint8ClampedArray(img.data.length);
  pixels.set(img.data);
  return new ImageData(pixels, img.width, img.height);
}

function clearCanvas(): void {
  const canvas = $<HTMLCanvasElement>('canvas');
  canvas.width = 1;
  canvas.height = 1;
  canvas.getContext('2d')!.clearRect(0, 0, 1, 1);
  canvas.style.width = canvas.style.height = '0px';
  $('timeline').replaceChildren();
  $('frameinfo').textContent = '';
  delete document.body.dataset.frame;
  delete document.body.dataset.renderOptions;
}

function applyView(): void {
  const canvas = $<HTMLCanvasElement>('canvas');
  canvas.style.width = `${canvas.width * view.zoom}px`;
  canvas.style.height = `${canvas.height * view.zoom}px`;
  canvas.style.transform = `translate(${Math.round(view.panX)}px, ${Math.round(view.panY)}px)`;
  $('zoominfo').textContent = `${view.zoom}x`;
  placeHover();
}

/** 0 = fit: the largest integer zoom that shows the whole picture, centred. */
function fitView(): void {
  const stage = $('stage');
  const canvas = $<HTMLCanvasElement>('canvas');
  const w = Math.max(1, canvas.width);
  const h = Math.max(1, canvas.height);
  view.zoom = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, Math.floor(Math.min((stage.clientWidth - 8) / w, (stage.clientHeight - 8) / h))));
  view.panX = (stage.clientWidth - w * view.zoom) / 2;
  view.panY = (stage.clientHeight - h * view.zoom) / 2;
  view.fitted = true;
  applyView();
}

/** Zooms by integer steps about a point of the stage (default its centre). */
function zoomBy(step: number, cx?: number, cy?: number): void {
  const stage = $('stage');
  const z = Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, view.zoom + step));
  if (z === view.zoom) return;
  const x = cx ?? stage.clientWidth / 2;
  const y = cy ?? stage.clientHeight / 2;
  view.panX = x - ((x - view.panX) * z) / view.zoom;
  view.panY = y - ((y - view.panY) * z) / view.zoom;
  view.zoom = z;
  view.fitted = false;
  applyView();
}

function drawFrame(): void {
  const p = player;
  const a = current();
  if (!p || !a || a.frames.length === 0) {
    clearCanvas();
    $('frameinfo').textContent = 'nothing to show';
    editor?.update(undefined, 0);
    return;
  }
  const img = a.frames[p.frame]!;
  const canvas = $<HTMLCanvasElement>('canvas');
  const resized = canvas.width !== Math.max(1, img.width) || canvas.height !== Math.max(1, img.height);
  canvas.width = Math.max(1, img.width);
  canvas.height = Math.max(1, img.height);
  const ctx = canvas.getContext('2d')!;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (img.width && img.height) ctx.putImageData(toImageData(img), 0, 0);
  // Onion skin: the previous frame at 30 % over the pipeline's pixels.
  if ($<HTMLInputElement>('onion').checked && a.frames.length > 1) {
    const prev = p.frame > 0 ? p.frame - 1 : $<HTMLInputElement>('loop').checked ? a.frames.length - 1 : -1;
    const pi = prev >= 0 ? a.frames[prev] : undefined;
    if (pi?.width && pi.height) {
      const off = document.createElement('canvas');
      off.width = pi.width;
      off.height = pi.height;
      off.getContext('2d')!.putImageData(toImageData(pi), 0, 0);
      ctx.globalAlpha = 0.3;
      ctx.drawImage(off, 0, 0);
      ctx.globalAlpha = 1;
    }
  }
  // Tile grid: a line every N pixels (the level's tile size when known, else 16; the user may change N).
  const n = Math.floor(Number($<HTMLInputElement>('gridsize').value));
  if ($<HTMLInputElement>('grid').checked && n >= 1 && n <= 4096) {
    ctx.fillStyle = 'rgba(255, 0, 255, 0.5)';
    for (let x = 0; x < canvas.width; x += n) ctx.fillRect(x, 0, 1, canvas.height);
    for (let y = 0; y < canvas.height; y += n) ctx.fillRect(0, y, canvas.width, 1);
  }
  if (resized && view.fitted) fitView();
  else applyView();
  const delay = a.delaysMs[p.frame];
  const tick = runtime?.runs[runtime.at]?.tick;
  $('frameinfo').textContent =
    `frame ${p.frame + 1} / ${a.frames.length}${delay !== undefined ? ` · ${msText(delay)} ms` : ''}` +
    (tick !== undefined ? ` · tick ${tick}` : '');
  for (const b of $('timeline').children) b.classList.toggle('current', (b as HTMLElement).dataset.frame === String(p.frame));
  document.body.dataset.frame = String(p.frame);
  // What `sprat render` is given for the picture on screen (for tests and the curious).
  document.body.dataset.renderOptions = JSON.stringify(a.options);
  // The values of this picture and frame that can be changed.
  editor?.update(a.options, p.frame);
}

/** A delay as shown: to a tenth of a millisecond (15 frames a second: 66.7 ms). */
function msText(ms: number): string {
  return String(Math.round(ms * 10) / 10);
}

function buildTimeline(): void {
  const a = current();
  const strip = $('timeline');
  if (!a || a.frames.length < 2) {
    strip.replaceChildren();
    return;
  }
  strip.replaceChildren(
    ...a.frames.map((_, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.frame = String(i);
      const d = a.delaysMs[i];
      b.textContent = `${i}${d !== undefined ? ` · ${msText(d)}ms` : ''}`;
      b.title = `frame ${i}${d !== undefined ? `, ${msText(d)} ms` : ''}`;
      b.onclick = () => goTo(i);
      return b;
    }),
  );
}

function selectAnimation(i: number, frame = 0): void {
  if (!player) return;
  player.anim = i;
  startRuntime();
  const a = current();
  player.frame = a && frame < a.frames.length ? frame : 0;
  $<HTMLInputElement>('loop').checked = a?.loops !== 1;
  $<HTMLSelectElement>('animation').value = String(i);
  buildTimeline();
  drawFrame();
  setPlaying(true);
}

/** What a reload keeps: the animation (by label), frame and whether it played. */
interface Kept {
  label: string;
  frame: number;
  playing: boolean;
}

/**
 * Shows a new preview; `keep` keeps the animation and frame (the same document drawn with other options);
 * `restore` picks them by label (the document reloaded from disk), when they still exist.
 */
function startPreview(preview: Preview, keep = false, restore?: Kept): void {
  const select = $<HTMLSelectElement>('animation');
  const old = player;
  // Views of one animation (directions, CTHG views) grouped under its name.
  const groups = new Map<string, HTMLOptionElement[]>();
  preview.animations.forEach((a, i) => {
    const o = new Option(a.label, String(i));
    const key = typeof a.options.animation === 'string' ? a.options.animation : '';
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(o);
  });
  select.replaceChildren(
    ...[...groups].flatMap(([name, options]) => {
      if (!name || options.length < 2 || groups.size < 2) return options;
      const g = document.createElement('optgroup');
      g.label = name;
      g.append(...options);
      return [g];
    }),
  );
  select.hidden = preview.animations.length < 2;
  player = { preview, anim: 0, frame: 0, playing: false };
  $('preview').hidden = preview.animations.length === 0;
  $('previewnote').textContent = preview.note ?? '';
  if (!keep) view.fitted = true;
  if (restore) {
    const i = preview.animations.findIndex((a) => a.label === restore.label);
    selectAnimation(i >= 0 ? i : 0, i >= 0 ? restore.frame : 0);
    if (!restore.playing) setPlaying(false);
    return;
  }
  const anim = keep && old && old.anim < preview.animations.length ? old.anim : 0;
  selectAnimation(anim, keep && old ? old.frame : 0);
  if (keep && old && !old.playing) setPlaying(false);
}

// ---------------------------------------------------------------- ISPRITE: follow-ups and triggers (the rules `sprat play` runs)

/** The document shown (for `play`). */
let shownLoaded: Loaded | null = null;
/** The most ticks played from one start (`sprat play --ticks`); past them the run starts over. */
const RUNTIME_TICKS = 2000;
const MAX_LOG_LINES = 300;

/** A stretch of ticks showing one position of one sequence (a frame activated, then held). */
interface Run {
  tick: number;
  ticks: number;
  sequence: string | null;
  position: number | null;
  frame: number | null;
  triggers: string[];
  stopped: boolean;
}

/** Playing by the format's play rules: the runs `sprat play` gives from the chosen sequence, and the run shown. */
let runtime: { runs: Run[]; at: number; start: string } | null = null;

/**
 * When the follow-ups box is ticked: plays the sequence chosen by the
 * rules `sprat play` follows (its follow-up when it ends, triggers as
 * frames are activated), as `sprat play FILE --ticks N --script "0:group
 * GROUP;0:play NAME"` prints them; else null.
 */
function startRuntime(): void {
  runtime = null;
  $('playlog').replaceChildren();
  delete document.body.dataset.tick;
  const a = current();
  if ($('followupsbox').hidden || !$<HTMLInputElement>('followups').checked || !a || !shownLoaded?.handler.play) return;
  if (a.options.attach !== undefined) {
    // With an attached sprite the pictures are cut where either sprite changes, not one per position.
    logLine('follow-ups and triggers are played without an attached sprite: choose "nothing" to attach');
    return;
  }
  const path = typeof a.options.animation === 'string' ? a.options.animation : '';
  const cut = path.lastIndexOf('/');
  if (cut < 0) return;
  let records: IspritePlayRecord[];
  try {
    const script = `0:group ${path.slice(0, cut)};0:play ${path.slice(cut + 1)}`;
    records = play(shownLoaded, { ticks: String(RUNTIME_TICKS), script }).records as IspritePlayRecord[];
  } catch (e) {
    logLine(`cannot play: ${(e as Error).message}`);
    return;
  }
  const runs: Run[] = [];
  for (const r of records) {
    const last = runs[runs.length - 1];
    if (last && last.sequence === r.sequence && last.position === r.position && last.stopped === r.stopped && !r.triggers.length) {
      last.ticks++;
      continue;
    }
    runs.push({ ...r, ticks: 1 });
    if (r.stopped) break; // nothing moves after the sprite stops
  }
  runtime = { runs, at: -1, start: path };
  showRun(0);
}

function logLine(text: string): void {
  const log = $('playlog');
  const li = document.createElement('li');
  li.textContent = text;
  log.append(li);
  while (log.childElementCount > MAX_LOG_LINES) log.firstElementChild?.remove();
  log.scrollTop = log.scrollHeight;
}

/** Shows run `i` (its sequence's picture at its position) and logs what happened on the way. */
function showRun(i: number): void {
  const rt = runtime;
  const p = player;
  if (!rt || !p) return;
  const run = rt.runs[i];
  if (!run) return;
  if (i === 0) {
    $('playlog').replaceChildren();
    logLine(`tick 0: plays ${rt.start}`);
  }
  // Stepping back does not log again.
  const from = i > rt.at ? rt.at + 1 : i;
  for (let k = Math.max(from, 0); k <= i && i > rt.at; k++) {
    const r = rt.runs[k]!;
    const prev = rt.runs[k - 1];
    if (prev && prev.sequence !== r.sequence) logLine(`tick ${r.tick}: follow-up: ${r.sequence ?? '(none)'}`);
    for (const t of r.triggers)
      logLine(`tick ${r.tick}: trigger ${JSON.stringify(t)} (${r.sequence} position ${r.position}, frame ${r.frame})`);
    if (r.stopped) logLine(`tick ${r.tick}: stopped${r.sequence ? ` at the end of ${r.sequence}` : ''}`);
  }
  rt.at = i;
  const anim = p.preview.animations.findIndex((a) => a.label === run.sequence);
  if (anim >= 0 && anim !== p.anim) {
    p.anim = anim;
    $<HTMLSelectElement>('animation').value = String(anim);
    buildTimeline();
  }
  const a = current();
  p.frame = a && run.position !== null && run.position < a.frames.length ? run.position : 0;
  document.body.dataset.tick = String(run.tick);
  drawFrame();
}

function scheduleRuntime(): void {
  const rt = runtime;
  const p = player;
  if (!rt || !p?.playing) return;
  const run = rt.runs[rt.at];
  if (!run || run.stopped) {
    setPlayingLabel(false);
    return;
  }
  const a = current();
  // A frame is held its hold time: what `render` gives as its delay.
  const d = a && run.position !== null ? a.delaysMs[run.position] : undefined;
  const delay = d !== undefined && Number.isFinite(d) && d > 0 ? d : 100;
  setTimer(
    window.setTimeout(() => {
      setTimer(undefined);
      if (runtime !== rt || player !== p || !p.playing) return;
      if (rt.at + 1 >= rt.runs.length) {
        logLine(`(${RUNTIME_TICKS} ticks played: from the start again)`);
        showRun(0);
      } else showRun(rt.at + 1);
      scheduleRuntime();
    }, delay / speed()),
  );
}

function setPlayingLabel(on: boolean): void {
  if (!player) return;
  player.playing = on;
  $('play').textContent = on ? 'Pause' : 'Play';
}

// ---------------------------------------------------------------- the field tree

/** Children listed per opened node at most (a big file's 100 000 frames are not made into elements at once). */
const MAX_TREE_CHILDREN = 500;

type Ranges = Record<string, [number, number]>;

type Lines = Record<string, LinePosition>;

function rangeText(r: [number, number] | undefined): string {
  return r ? ` @ bytes ${r[0]}–${r[1] - 1} (0x${r[0].toString(16)}, ${r[1] - r[0]} bytes)` : '';
}

function lineText(l: LinePosition | undefined): string {
  return l ? ` @ line ${l.line}${l.column !== undefined ? `, column ${l.column}` : ''}` : '';
}

/** A place in the file a diagnostic names. */
type Place = { offset: number } | { line: number; column?: number };

/** Opens the tree at the node nearest a place and selects it; false when no node is there (set by buildTree). */
let revealPlace: (place: Place) => boolean = () => false;
/** The tree node nearest a place, if any (set by buildTree). */
let pathAt: (place: Place) => string | undefined = () => undefined;

/**
 * The node nearest a place: for a byte offset the smallest range holding it;
 * for a line the last node that starts at or before it (line, then column).
 * Ties go to the deepest node.
 */
function nearestPath(place: Place, ranges: Ranges, lines: Lines): string | undefined {
  const depth = (p: string) => p.split('/').length;
  let best: string | undefined;
  if ('offset' in place) {
    let size = Infinity;
    for (const [p, [s, e]] of Object.entries(ranges)) {
      if (place.offset < s || place.offset >= e) continue;
      if (e - s < size || (e - s === size && depth(p) > depth(best!))) {
        best = p;
        size = e - s;
      }
    }
    return best;
  }
  const at = (l: LinePosition) => l.line * 1e7 + (l.column ?? 0);
  const want = place.line * 1e7 + (place.column ?? 1e7 - 1);
  let bestAt = -1;
  for (const [p, l] of Object.entries(lines)) {
    const a = at(l);
    if (a > want) continue;
    if (a > bestAt || (a === bestAt && depth(p) > depth(best!))) {
      best = p;
      bestAt = a;
    }
  }
  return best;
}

/**
 * The inspect JSON as a tree (objects and arrays open on demand), each node
 * with its byte range when the format knows it; clicking a node shows it and
 * goes to the frame, animation or layer it is about.
 */
function buildTree(json: unknown, ranges: Ranges, bytes: Uint8Array, lines: Lines = {}): void {
  const tree = $('tree');
  /** How to list an object node's children (done when it is first opened). */
  const fillers = new WeakMap<Element, () => void>();
  const info = $('fieldinfo');
  info.textContent = '';
  const select = (el: HTMLElement, path: string, value: unknown) => {
    for (const s of tree.querySelectorAll('.selected')) s.classList.remove('selected');
    el.classList.add('selected');
    document.body.dataset.selectedPath = path;
    const r = ranges[path];
    const head = r ? [...bytes.subarray(r[0], Math.min(r[1], r[0] + 16))].map((b) => b.toString(16).padStart(2, '0')).join(' ') : '';
    const shown = value !== null && typeof value === 'object' ? '' : ` = ${JSON.stringify(value)}`;
    info.textContent = `${path || '/'}${shown}${rangeText(r)}${lineText(lines[path])}${head ? `: ${head}${r![1] - r![0] > 16 ? ' …' : ''}` : ''}`;
    goToPath(path, json);
  };
  const node = (key: string, value: unknown, path: string): HTMLElement => {
    const bytesNote = document.createElement('span');
    bytesNote.className = 'bytes';
    bytesNote.textContent = rangeText(ranges[path]) + lineText(lines[path]);
    if (value !== null && typeof value === 'object') {
      const d = document.createElement('details');
      d.dataset.path = path;
      const s = document.createElement('summary');
      const n = Array.isArray(value) ? value.length : Object.keys(value).length;
      s.append(`${key}: ${Array.isArray(value) ? `[${n}]` : `{${n}}`}`, bytesNote);
      s.onclick = () => select(s, path, value);
      d.append(s);
      const fill = () => {
        if (d.childElementCount > 1) return;
        const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
        d.append(
          ...entries.slice(0, MAX_TREE_CHILDREN).map(([k, v]) => node(k, v, `${path}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`)),
        );
        if (entries.length > MAX_TREE_CHILDREN) {
          const more = document.createElement('div');
          more.className = 'leaf';
          more.textContent = `… ${entries.length - MAX_TREE_CHILDREN} more (see the JSON)`;
          d.append(more);
        }
      };
      fillers.set(d, fill);
      d.addEventListener('toggle', () => {
        if (d.open) fill();
      });
      return d;
    }
    const leaf = document.createElement('div');
    leaf.className = 'leaf';
    leaf.dataset.path = path;
    leaf.append(`${key}: ${JSON.stringify(value)}`, bytesNote);
    leaf.onclick = () => select(leaf, path, value);
    return leaf;
  };
  if (json !== null && typeof json === 'object') {
    const root = node('document', json, '');
    (root as HTMLDetailsElement).open = true;
    tree.replaceChildren(root);
  } else tree.replaceChildren();
  pathAt = (place) => (tree.firstElementChild ? nearestPath(place, ranges, lines) : undefined);
  revealPlace = (place) => {
    const target = pathAt(place);
    if (target === undefined) return false;
    // Down from the root, opening each node on the way (as far as the tree lists children).
    let el = tree.firstElementChild as HTMLElement | null;
    if (!el) return false;
    let at = '';
    for (const seg of target.split('/').slice(1)) {
      if (el.tagName !== 'DETAILS') break;
      fillers.get(el)?.();
      (el as HTMLDetailsElement).open = true;
      const next = `${at}/${seg}`;
      const child = [...el.children].find((c) => (c as HTMLElement).dataset.path === next) as HTMLElement | undefined;
      if (!child) break;
      el = child;
      at = next;
    }
    const handle = el.tagName === 'DETAILS' ? (el.querySelector(':scope > summary') as HTMLElement) : el;
    handle.click();
    if (el.tagName === 'DETAILS') (el as HTMLDetailsElement).open = true;
    handle.scrollIntoView({ block: 'nearest' });
    return true;
  };
}

/** The preview animation and frame a JSON pointer is about (an ISPRITE or CTHG frame, a sequence, a view), if any. */
function frameForPath(
  path: string,
  json: unknown,
): { label?: string; match?: (o: Record<string, string>) => boolean; frame: number } | null {
  const p = /^\/frames\/(\d+)(?:\/|$)/.exec(path);
  const format = (json as { format?: unknown }).format;
  if (format === 'isprite') {
    type Node = { sequence?: string; group?: string; frames?: number[]; children?: Node[] };
    const seqs: { path: string; frames: number[] }[] = [];
    const walk = (nodes: Node[], at: string, jsonAt: string) =>
      nodes.forEach((n, i) => {
        if (n.sequence !== undefined) {
          const s = { path: `${at}/${n.sequence}`, frames: n.frames ?? [] };
          seqs.push(s);
          if (`${jsonAt}/${i}` === path || path.startsWith(`${jsonAt}/${i}/frames/`)) wanted ??= s;
        } else if (n.children) walk(n.children, `${at}/${n.group}`, `${jsonAt}/${i}/children`);
      });
    let wanted: { path: string; frames: number[] } | undefined;
    walk(((json as { tree?: Node[] }).tree ?? []) as Node[], 'Root', '/tree');
    if (wanted && !p) {
      const k = /\/frames\/(\d+)$/.exec(path);
      return { label: wanted.path, frame: k ? Number(k[1]) : 0 };
    }
    if (!p) return null;
    const id = Number(p[1]);
    const s = seqs.find((x) => x.frames.includes(id));
    return s ? { label: s.path, frame: s.frames.indexOf(id) } : null;
  }
  if (format === 'cthg' && p) {
    const id = Number(p[1]);
    type Anim = { name: string; frameCount: number; views: Record<string, number | null> };
    for (const a of ((json as { animations?: Anim[] }).animations ?? []) as Anim[]) {
      for (const [view, first] of Object.entries(a.views)) {
        if (first !== null && id >= first && id < first + a.frameCount)
          return { match: (o) => o.animation === a.name && o.view === view, frame: id - first };
      }
    }
  }
  if (format === 'ase') {
    // An Aseprite tag: its animation from the start; a frame: the picture of every frame.
    const t = /^\/tags\/(\d+)(?:\/|$)/.exec(path);
    const name = t ? (json as { tags?: { name?: string }[] }).tags?.[Number(t[1])]?.name : undefined;
    if (name !== undefined) return { match: (o) => o.animation === name, frame: 0 };
    if (p) return { match: (o) => o.animation === undefined, frame: Number(p[1]) };
  }
  return null;
}

function goToPath(path: string, json: unknown): void {
  // A level's layer: marked in the layer list.
  const layer = /^\/layers\/(\d+)$/.exec(path);
  for (const l of $('levellayers').querySelectorAll('label')) l.classList.remove('selected');
  if (layer) $('levellayers').querySelectorAll('label')[Number(layer[1])]?.classList.add('selected');
  const want = frameForPath(path, json);
  const p = player;
  if (!want || !p) return;
  const i = p.preview.animations.findIndex((a) => (want.label !== undefined ? a.label === want.label : want.match!(a.options)));
  const a = p.preview.animations[i];
  if (!a || want.frame >= a.frames.length) return;
  if (i !== p.anim) selectAnimation(i, want.frame);
  goTo(want.frame);
}

// ---------------------------------------------------------------- a level's layers and the cell inspector

/** The layer choices for the document shown (`--hide-layers`, `--layer-opacity`), by layer number. */
const levelChoice = { hidden: new Set<number>(), opacity: new Map<number, number>() };

/** The layer choices as the render options `sprat render` takes. */
function layerOptions(): CommandOptions {
  const o: CommandOptions = {};
  if (levelChoice.hidden.size) o['hide-layers'] = [...levelChoice.hidden].sort((a, b) => a - b).join(',');
  const faded = [...levelChoice.opacity].filter(([, v]) => v < 1).sort((a, b) => a[0] - b[0]);
  if (faded.length) o['layer-opacity'] = faded.map(([i, v]) => `${i}=${v}`).join(',');
  return o;
}

/** The list of a level's layers: show/hide and opacity for each, drawn again through the pipeline on change. */
function buildLevelLayers(layers: PictureLayer[], rerender: () => void): void {
  const box = $('levellayers');
  box.hidden = layers.length === 0;
  // A layer in a group the user hides is not drawn either: shown unchecked and disabled while its group is hidden.
  const groupHidden = (i: number): boolean => {
    for (let p = layers[i]?.parent, n = 0; p !== undefined && n < layers.length; p = layers[p]?.parent, n++) {
      if (levelChoice.hidden.has(p)) return true;
    }
    return false;
  };
  const boxes: HTMLInputElement[] = [];
  const refresh = () => {
    layers.forEach((l, i) => {
      const cb = boxes[i];
      if (!cb || l.hidden) return;
      const inHidden = groupHidden(i);
      cb.checked = !inHidden && !levelChoice.hidden.has(i);
      cb.disabled = inHidden;
      cb.title = inHidden ? 'in a hidden group: not drawn' : '';
    });
  };
  box.replaceChildren(
    ...(layers.length ? ['layers:'] : []),
    ...layers.map((l, i) => {
      const label = document.createElement('label');
      const shown = document.createElement('input');
      shown.type = 'checkbox';
      shown.checked = !l.hidden && !levelChoice.hidden.has(i);
      // A layer the file hides (an Aseprite hidden or reference layer) is never drawn.
      shown.disabled = l.hidden === true;
      if (l.hidden) label.title = 'hidden in the file: not drawn';
      shown.dataset.layer = String(i);
      shown.setAttribute('aria-label', `show layer ${l.name}`);
      boxes[i] = shown;
      shown.onchange = () => {
        if (shown.checked) levelChoice.hidden.delete(i);
        else levelChoice.hidden.add(i);
        refresh();
        saveState();
        rerender();
      };
      const opacity = document.createElement('input');
      opacity.type = 'range';
      opacity.min = '0';
      opacity.max = '100';
      opacity.step = '5';
      opacity.value = String(Math.round((levelChoice.opacity.get(i) ?? 1) * 100));
      opacity.dataset.layerOpacity = String(i);
      opacity.setAttribute('aria-label', `opacity of layer ${l.name}`);
      opacity.title = 'opacity';
      opacity.onchange = () => {
        const v = Number(opacity.value) / 100;
        if (v >= 1) levelChoice.opacity.delete(i);
        else levelChoice.opacity.set(i, v);
        saveState();
        rerender();
      };
      opacity.disabled = l.hidden === true;
      label.append(shown, ` ${l.name} `, opacity);
      return label;
    }),
  );
  refresh();
}

/** The cell or object under the pointer, in picture coordinates (null: none); pinned by a click. */
let hovered: { x: number; y: number; width: number; height: number } | null = null;
let pinned = false;

function fieldsText(f: Record<string, unknown>): string {
  return Object.entries(f)
    .map(([k, v]) => `${k} ${typeof v === 'string' ? JSON.stringify(v) : String(v)}`)
    .join(', ');
}

function placeHover(): void {
  const box = $('hovercell');
  const a = current();
  if (!hovered || !a) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  box.style.transform = `translate(${Math.round(view.panX + (hovered.x + a.originX) * view.zoom)}px, ${Math.round(view.panY + (hovered.y + a.originY) * view.zoom)}px)`;
  box.style.width = `${hovered.width * view.zoom}px`;
  box.style.height = `${hovered.height * view.zoom}px`;
}

function clearInspector(): void {
  hovered = null;
  pinned = false;
  $('inspector').hidden = true;
  $('inspector').textContent = '';
  $('inspector').classList.remove('pinned');
  placeHover();
}

/** Shows the layer, cell (x, y), its fields and the objects under the page point (clientX, clientY). */
function inspectAt(clientX: number, clientY: number): void {
  const a = current();
  const out = $('inspector');
  if (!a?.layers.length) return;
  const canvas = $<HTMLCanvasElement>('canvas');
  const r = canvas.getBoundingClientRect();
  const px = Math.floor((clientX - r.left) / view.zoom);
  const py = Math.floor((clientY - r.top) / view.zoom);
  if (px < 0 || py < 0 || px >= canvas.width || py >= canvas.height) return;
  const x = px - a.originX;
  const y = py - a.originY;
  const lines = [`pixel ${x}, ${y}`];
  let box: typeof hovered = null;
  a.layers.forEach((l, i) => {
    const hidden = levelChoice.hidden.has(i) ? ' (hidden)' : '';
    const g = l.grid;
    if (g && g.cellWidth > 0 && g.cellHeight > 0) {
      const col = Math.floor((x - g.x) / g.cellWidth);
      const row = g.bottomUp ? Math.floor((g.y - y) / g.cellHeight) : Math.floor((y - g.y) / g.cellHeight);
      if (col >= 0 && row >= 0 && col < g.columns && row < g.rows) {
        const f = l.cell?.(col, row);
        lines.push(`layer ${i} ${l.name}${hidden}: x ${col}, y ${row}: ${f ? fieldsText(f) : 'empty'}`);
        if (!box || (f && !hidden)) {
          const top = g.bottomUp ? g.y - (row + 1) * g.cellHeight : g.y + row * g.cellHeight;
          box = { x: g.x + col * g.cellWidth, y: top, width: g.cellWidth, height: g.cellHeight };
        }
      }
    }
    for (const o of l.objects ?? []) {
      if (x < o.x || y < o.y || x >= o.x + o.width || y >= o.y + o.height) continue;
      lines.push(`layer ${i} ${l.name}${hidden}: object ${fieldsText(o.fields)}`);
      box = { x: o.x, y: o.y, width: o.width, height: o.height };
    }
  });
  if (lines.length === 1) lines.push('nothing here');
  hovered = box;
  out.hidden = false;
  out.textContent = lines.join('\n');
  placeHover();
}

// ---------------------------------------------------------------- page options kept across a page reload

const STATE_KEY = 'sprat-viewer';
const MAX_SAVED_DOCS = 50;

/** What is kept of one document: its animation and frame, zoom and pan, grid size and layer choices. */
interface SavedDoc {
  anim: string;
  frame: number;
  zoom: number;
  panX: number;
  panY: number;
  fitted: boolean;
  gridsize: string;
  hidden: number[];
  opacity: [number, number][];
}

interface Saved {
  /** The file shown (its name in the list). */
  active?: string;
  docs: Record<string, SavedDoc>;
  speed?: string;
  onion?: boolean;
  grid?: boolean;
  background?: string;
}

function readSaved(): Saved {
  try {
    const v = JSON.parse(sessionStorage.getItem(STATE_KEY) ?? 'null') as Saved | null;
    if (v && typeof v === 'object' && v.docs && typeof v.docs === 'object') return v;
  } catch {
    // storage off or damaged: nothing kept
  }
  return { docs: {} };
}

/** Keeps the page's choices in the tab's session storage (read back once, when the page loads again). */
function saveState(): void {
  try {
    const s = readSaved();
    const f = files[activeIndex];
    if (f) {
      s.active = f.name;
      delete s.docs[f.name];
      s.docs[f.name] = {
        anim: current()?.label ?? '',
        frame: player?.frame ?? 0,
        zoom: view.zoom,
        panX: view.panX,
        panY: view.panY,
        fitted: view.fitted,
        gridsize: $<HTMLInputElement>('gridsize').value,
        hidden: [...levelChoice.hidden],
        opacity: [...levelChoice.opacity],
      };
      const names = Object.keys(s.docs);
      for (const n of names.slice(0, Math.max(0, names.length - MAX_SAVED_DOCS))) delete s.docs[n];
    }
    s.speed = $<HTMLSelectElement>('speed').value;
    s.onion = $<HTMLInputElement>('onion').checked;
    s.grid = $<HTMLInputElement>('grid').checked;
    s.background = $<HTMLSelectElement>('background').value;
    sessionStorage.setItem(STATE_KEY, JSON.stringify(s));
  } catch {
    // storage off or full: nothing kept
  }
}

/** The state saved before the page was loaded again; used by the first file shown, then dropped. */
let pendingRestore: Saved | null = readSaved();

function restoreToggles(s: Saved): void {
  const speedSelect = $<HTMLSelectElement>('speed');
  if (s.speed && [...speedSelect.options].some((o) => o.value === s.speed)) speedSelect.value = s.speed;
  $<HTMLInputElement>('onion').checked = s.onion === true;
  $<HTMLInputElement>('grid').checked = s.grid === true;
  const bg = $<HTMLSelectElement>('background');
  if (s.background && [...bg.options].some((o) => o.value === s.background)) {
    bg.value = s.background;
    $('stage').className = s.background;
  }
}

/** A saved document's entry, its numbers checked (a damaged entry is dropped). */
function savedDoc(s: Saved | null, name: string): SavedDoc | undefined {
  const d = s?.docs[name];
  const int = (v: unknown, lo: number, hi: number) => typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi;
  const num = (v: unknown) => typeof v === 'number' && Number.isFinite(v);
  if (!d || typeof d.anim !== 'string' || !int(d.frame, 0, 1e9) || !int(d.zoom, ZOOM_MIN, ZOOM_MAX) || !num(d.panX) || !num(d.panY))
    return undefined;
  if (!Array.isArray(d.hidden) || !d.hidden.every((n) => int(n, 0, 1e6))) return undefined;
  if (!Array.isArray(d.opacity) || !d.opacity.every((p) => Array.isArray(p) && int(p[0], 0, 1e6) && num(p[1]) && p[1] >= 0 && p[1] <= 1))
    return undefined;
  return d;
}

// ---------------------------------------------------------------- export

/** A file name part from a label: "walking (down)" -> "walking-down". */
function slug(text: string): string {
  return text.replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '') || 'picture';
}

/**
 * Downloads the current frame (PNG) or the animation (GIF, APNG), encoded
 * by the command line's encoders (src/render/output.ts): the pipeline's
 * pixels and delays, without the page's onion skin.
 */
function exportAs(format: ImageFormat): void {
  const p = player;
  const a = current();
  if (!p || !a?.frames.length) return;
  const still = format === 'png';
  let bytes: Uint8Array;
  try {
    bytes = still
      ? encodeRender({ frames: [a.frames[p.frame]!] }, 'png')
      : encodeRender({ frames: a.frames, delaysMs: a.delaysMs.length ? a.delaysMs : undefined, loops: a.loops }, format);
  } catch (e) {
    $('previewnote').textContent = `cannot export: ${(e as Error).message}`;
    return;
  }
  const base = ($('title').textContent ?? 'sprite').replace(/^.*\//, '').replace(/\.[^.]*$/, '');
  download(`${slug(base)}-${slug(a.label)}${still ? `-${p.frame}` : ''}.${format}`, bytes);
}

/**
 * The convert controls for the shown document: the formats it converts to;
 * the button runs `sprat convert`'s call (web/convert.ts) and downloads the
 * result, one file or a zip of several; `body[data-converted]` then holds
 * the names downloaded (for tests), `#convertnote` the notes or the error.
 */
function convertControls(loaded: Loaded, f: OpenFile): void {
  const select = $<HTMLSelectElement>('convert-to');
  const targets = convertTargets(loaded);
  const before = select.value;
  select.replaceChildren(...targets.map((t) => new Option(`${t.title} (${t.name})`, t.name)));
  // The choice made for the previous file, else the file's own format (re-encoded).
  if (targets.some((t) => t.name === before)) select.value = before;
  else if (targets.includes(loaded.handler)) select.value = loaded.handler.name;
  $('convertbox').hidden = targets.length === 0;
  $('convertnote').textContent = '';
  $('convert').onclick = async () => {
    const target = targets.find((t) => t.name === select.value);
    if (!target) return;
    delete document.body.dataset.converted;
    $('convertnote').textContent = 'converting…';
    try {
      const { files: out, notes } = await convertFile(loaded, target, f.name, f.resources);
      const zipped = out.length > 1;
      const name = zipped ? `${outNameFor(f.name, target).replace(/\.[^.]*$/, '')}.zip` : out[0]!.name;
      download(name, zipped ? zipOf(out) : out[0]!.bytes);
      $('convertnote').textContent = notes.length ? notes.map((n) => `note: ${n}`).join('\n') : `downloaded ${name}`;
      document.body.dataset.converted = name;
    } catch (e) {
      $('convertnote').textContent = `cannot convert: ${(e as Error).message}`;
      document.body.dataset.converted = '';
    }
  };
}

// ---------------------------------------------------------------- render options the format offers

/** CTHG: each layer class the frames use, with its layer ids (id 0 always draws). */
function layerClasses(doc: unknown): Map<number, number[]> {
  const out = new Map<number, Set<number>>();
  const frames = (doc as { frames?: { elements?: { layerClass: number; layerId: number }[] }[] }).frames;
  for (const f of Array.isArray(frames) ? frames : []) {
    for (const e of f.elements ?? []) {
      if (!e.layerId) continue;
      if (!out.has(e.layerClass)) out.set(e.layerClass, new Set());
      out.get(e.layerClass)!.add(e.layerId);
    }
  }
  return new Map([...out].sort((a, b) => a[0] - b[0]).map(([c, ids]) => [c, [...ids].sort((a, b) => a - b)]));
}

function renderControls(optionNames: Set<string>, doc: unknown, palettes: string[], rerender: () => void): () => CommandOptions {
  const opts = $('renderopts');
  const layers = $('layers');
  opts.replaceChildren();
  layers.replaceChildren();
  layers.hidden = true;
  const getters: (() => CommandOptions)[] = [];
  if (optionNames.has('shapes')) {
    const l = document.createElement('label');
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.id = 'opt-shapes';
    c.onchange = rerender;
    l.append(c, ' shapes (collision, attachment points)');
    opts.append(l);
    getters.push(() => (c.checked ? { shapes: true } : {}));
  }
  if (optionNames.has('origin')) {
    const l = document.createElement('label');
    const c = document.createElement('input');
    c.type = 'checkbox';
    c.id = 'opt-origin';
    c.onchange = rerender;
    l.append(c, ' origin');
    opts.append(l);
    getters.push(() => (c.checked ? { origin: true } : {}));
  }
  if (optionNames.has('layers')) {
    const classes = layerClasses(doc);
    if (classes.size) {
      layers.hidden = false;
      layers.append('layers:');
      const selects: [number, HTMLSelectElement][] = [];
      for (const [cls, ids] of classes) {
        const l = document.createElement('label');
        const s = document.createElement('select');
        s.dataset.layerClass = String(cls);
        s.setAttribute('aria-label', `layer class ${cls}`);
        s.append(new Option('none', ''), ...ids.map((id) => new Option(String(id), String(id))));
        // Show the first choice of each class: a fan with blades, a patient with a head.
        s.value = String(ids[0]);
        s.onchange = rerender;
        l.append(`class ${cls} `, s);
        layers.append(l);
        selects.push([cls, s]);
      }
      getters.push(() => {
        const text = selects
          .filter(([, s]) => s.value)
          .map(([c, s]) => `${c}=${s.value}`)
          .join(',');
        return text ? { layers: text } : {};
      });
    }
  }
  if (optionNames.has('attach')) {
    // ISPRITE: another open sprite drawn at the attachment points of a name (`--attach POINT=FILE`).
    const points = attachmentNames(doc);
    const sprites = files.map((x, i) => ({ name: x.name, i })).filter((x) => /\.(isprite|sprite)$/i.test(x.name));
    if (points.length && sprites.length) {
      const l = document.createElement('label');
      const sprite = document.createElement('select');
      sprite.id = 'opt-attach';
      sprite.setAttribute('aria-label', 'attached sprite');
      sprite.append(new Option('nothing', ''), ...sprites.map((x) => new Option(x.name, String(x.i))));
      const point = document.createElement('select');
      point.id = 'opt-attach-point';
      point.setAttribute('aria-label', 'attachment point');
      point.append(...points.map((p) => new Option(p, p)));
      sprite.onchange = rerender;
      point.onchange = () => {
        if (sprite.value) rerender();
      };
      l.append('attach ', sprite, ' at ', point);
      opts.append(l);
      getters.push(() => {
        const i = sprite.value === '' ? -1 : Number(sprite.value);
        attachChoice = i;
        const f = files[i];
        return f && point.value ? { attach: `${point.value}=${baseName(f.name)}` } : {};
      });
    }
  }
  if (optionNames.has('recolour') && palettes.length) {
    const l = document.createElement('label');
    const layer = document.createElement('input');
    layer.type = 'number';
    layer.min = '0';
    layer.max = '255';
    layer.value = '1';
    layer.id = 'opt-recolour-layer';
    layer.setAttribute('aria-label', 'recolour layer');
    layer.style.width = '4em';
    const pal = document.createElement('select');
    pal.id = 'opt-recolour';
    pal.setAttribute('aria-label', 'recolour palette');
    pal.append(new Option('no recolour', ''), ...palettes.map((p) => new Option(p, p)));
    layer.onchange = () => {
      if (pal.value) rerender();
    };
    pal.onchange = rerender;
    l.append('recolour layer ', layer, ' with ', pal);
    opts.append(l);
    getters.push(() => {
      const n = Number(layer.value);
      return pal.value && Number.isInteger(n) && n >= 0 && n <= 255 ? { recolour: `${n}=${pal.value}` } : {};
    });
  }
  return () => Object.assign({}, ...getters.map((g) => g()));
}

// ---------------------------------------------------------------- tile images (`--tileset`)

/** The tile sets a SpriteTile level's cells use (a raw tile number over the tiles per set), in order. */
function spriteTileSets(doc: unknown): number[] {
  const d = doc as { numSets?: number; layers?: { tiles?: ArrayLike<number> }[] | null };
  const per = 32768 / (d.numSets || 32);
  const used = new Set<number>();
  for (const l of d.layers ?? []) {
    const tiles = l.tiles ?? [];
    for (let i = 0; i < tiles.length; i++) if (tiles[i]! >= 0) used.add(Math.floor(tiles[i]! / per));
  }
  return [...used].sort((a, b) => a - b);
}

/**
 * The tile images a level or sprite is drawn with, as `render --tileset`
 * takes them. SpriteTile: for each tile set the cells use, an image (the
 * pictures beside the level; `LEVEL-set_N.png`, as `sprat convert` writes a
 * set's image, listed first for set N) and a tile size, and the same choice
 * as the command line's text (`0=tiles.png:16x16,...`), either edited.
 * Solarus: the image of the animations drawn from the map's tileset (the
 * quest's tilesets). Nothing is chosen unless the command line gave it.
 */
function tilesetControls(
  format: string,
  doc: unknown,
  docName: string,
  pictures: string[],
  given: CommandOptions,
  rerender: () => void,
): () => CommandOptions {
  const box = $('tilesets');
  box.replaceChildren();
  box.hidden = true;
  const givenText = typeof given.tileset === 'string' ? given.tileset : '';
  if (format === 'spritetile') {
    const sets = spriteTileSets(doc);
    if (!sets.length) return () => (givenText ? { tileset: givenText } : {});
    box.hidden = false;
    box.append('tiles:');
    const stem = baseName(docName).replace(/\.[^.]*$/, '');
    const text = document.createElement('input');
    text.id = 'opt-tileset';
    text.placeholder = 'SET=IMAGE.png:WxH,...';
    text.title = 'the tile images as sprat render --tileset takes them';
    text.setAttribute('aria-label', 'tile images (as --tileset)');
    text.size = 24;
    const rows = sets.map((set) => {
      const own = `${stem}-set_${set}.png`;
      const ordered = [...pictures.filter((p) => baseName(p) === own), ...pictures.filter((p) => baseName(p) !== own)];
      const image = document.createElement('select');
      image.dataset.set = String(set);
      image.setAttribute('aria-label', `tile image for set ${set}`);
      image.append(new Option('flat colours', ''), ...ordered.map((p) => new Option(baseName(p) === own ? `${p} (set ${set})` : p, p)));
      const size = document.createElement('input');
      size.value = '16x16';
      size.size = 6;
      size.dataset.setSize = String(set);
      size.setAttribute('aria-label', `tile size for set ${set}`);
      size.title = 'tile size WxH in the image';
      const l = document.createElement('label');
      l.append(`set ${set} `, image, ' ', size);
      box.append(l);
      const changed = () => {
        text.value = rows
          .filter((r) => r.image.value && /^\d+x\d+$/.test(r.size.value.trim()))
          .map((r) => `${r.set}=${r.image.value}:${r.size.value.trim()}`)
          .join(',');
        rerender();
      };
      image.onchange = changed;
      size.onchange = () => {
        if (image.value) changed();
      };
      return { set, image, size };
    });
    /** The text's choices shown in the rows (an image not listed is added to its row's list). */
    const toRows = () => {
      const named = new Map<number, [string, string]>();
      for (const part of text.value.split(',')) {
        const m = /^\s*(\d+)=(.+):(\d+x\d+)\s*$/.exec(part);
        if (m) named.set(Number(m[1]), [m[2]!, m[3]!]);
      }
      for (const r of rows) {
        const n = named.get(r.set);
        if (n && ![...r.image.options].some((o) => o.value === n[0])) r.image.append(new Option(n[0], n[0]));
        r.image.value = n ? n[0] : '';
        if (n) r.size.value = n[1];
      }
    };
    text.onchange = () => {
      toRows();
      rerender();
    };
    text.value = givenText;
    toRows();
    box.append(text);
    return () => (text.value.trim() ? { tileset: text.value.trim() } : {});
  }
  const anims = (doc as { animations?: { image?: string }[] }).animations;
  if ((format === 'solarus' || format === 'solarus-lua') && Array.isArray(anims) && anims.some((a) => a.image === 'tileset')) {
    box.hidden = false;
    const image = document.createElement('select');
    image.id = 'opt-tileset';
    image.setAttribute('aria-label', 'tileset image');
    const choices = givenText && !pictures.includes(givenText) ? [givenText, ...pictures] : pictures;
    image.append(new Option('none', ''), ...choices.map((p) => new Option(p, p)));
    image.value = givenText;
    image.onchange = rerender;
    const l = document.createElement('label');
    l.append('tileset image (animations drawn from the map’s tileset) ', image);
    box.append(l);
    return () => (image.value ? { tileset: image.value } : {});
  }
  return () => (givenText ? { tileset: givenText } : {});
}

// ---------------------------------------------------------------- ISPRITE: an attached sprite

/** The open file drawn at the attachment points (`--attach`), or -1. */
let attachChoice = -1;

function baseName(p: string): string {
  return p.replace(/^.*\//, '');
}

/** The names of an ISPRITE document's attachment points. */
function attachmentNames(doc: unknown): string[] {
  const d = doc as { names?: string[]; frames?: IspriteFrame[] };
  const out = new Set<string>();
  // (elementsOf leaves a big file's frames compact: src/formats/isprite/compact.ts.)
  for (const f of Array.isArray(d.frames) ? d.frames : [])
    for (const e of elementsOf(f))
      if (e.type === 'attachment' && e.name !== null && d.names?.[e.name] !== undefined) out.add(d.names[e.name]!);
  return [...out].sort();
}

/**
 * The document's resources plus an attached open file: its bytes by its base
 * name, and the files beside it (its textures) through its own loader.
 */
function withAttached(parent: ResourceLoader, child: OpenFile): ResourceLoader {
  const name = baseName(child.name);
  const childs = new Set<string>();
  return {
    async load(p) {
      if (p === name) return child.bytes ?? (child.bytes = await child.read());
      return childs.has(p) ? child.resources.load(p) : parent.load(p);
    },
    async exists(p) {
      if (p === name || (await parent.exists(p))) return true;
      if (!(await child.resources.exists(p))) return false;
      childs.add(p);
      return true;
    },
    describe: parent.describe,
  };
}

// ---------------------------------------------------------------- one document

/**
 * A level's tile size in pixels when its document says it (a Tiled map or tileset), else 16. SpriteTile
 * layers give a world size, not pixels (the render picks the pixels per cell), so they get 16.
 */
function tileSizeOf(doc: unknown): number {
  const o = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined);
  const d = o(doc);
  const first = (k: string) => {
    const v = d?.[k];
    return Array.isArray(v) ? o(v[0]) : undefined;
  };
  for (const r of [d, first('layers'), first('tilesets'), o(d?.map)]) {
    for (const [w, h] of [
      ['tileWidth', 'tileHeight'],
      ['tilewidth', 'tileheight'],
    ] as const) {
      const n = r?.[w];
      if (typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 4096 && typeof r?.[h] === 'number') return n;
    }
  }
  return 16;
}

/** Shows file `index`; `reload` reads it again from the server, keeping the animation, frame and view. */
async function show(index: number, reload = false): Promise<void> {
  // The page loaded again: the first file shown gets back what was chosen for it.
  const restored = !reload ? savedDoc(pendingRestore, files[index]!.name) : undefined;
  pendingRestore = null;
  const kept: Kept | undefined =
    reload && player
      ? { label: current()?.label ?? '', frame: player.frame, playing: player.playing }
      : restored
        ? { label: restored.anim, frame: restored.frame, playing: false }
        : undefined;
  if (!reload) {
    // Layer choices belong to one document (kept when it reloads from disk).
    levelChoice.hidden = new Set(restored?.hidden ?? []);
    levelChoice.opacity = new Map(restored?.opacity ?? []);
  }
  const gen = ++generation;
  delete document.body.dataset.ready;
  delete document.body.dataset.diagnosed;
  delete document.body.dataset.previewed;
  delete document.body.dataset.preview;
  stopTimer();
  player = null;
  activeIndex = index;
  renderFileList();
  const f = files[index]!;
  $('doc').hidden = false;
  $('title').textContent = f.name;
  // Nothing of the previous file stays on screen.
  clearCanvas();
  $('preview').hidden = true;
  $('previewnote').textContent = '';
  $('format').textContent = '';
  $('summary').textContent = '';
  $('json').textContent = '';
  $('renderopts').replaceChildren();
  $('layers').replaceChildren();
  $('tilesets').replaceChildren();
  $('tilesets').hidden = true;
  $('framesizebox').hidden = true;
  $('convertbox').hidden = true;
  $('levellayers').replaceChildren();
  $('levellayers').hidden = true;
  clearInspector();
  shownLoaded = null;
  editor = null;
  $('editbox').hidden = true;
  runtime = null;
  $('followupsbox').hidden = true;
  $('playlog').replaceChildren();
  $('tree').replaceChildren();
  $('fieldinfo').textContent = '';
  delete document.body.dataset.selectedPath;
  const diags = $('diagnostics');
  diags.replaceChildren();
  revealPlace = () => false;
  pathAt = () => undefined;
  /** Diagnostics that name a place: made clickable once the tree is built, when a node is there. */
  const placed: [HTMLLIElement, Place][] = [];
  const note = (cls: string, text: string, d?: Diagnostic) => {
    const li = document.createElement('li');
    li.className = cls;
    li.textContent = text;
    // Where the error or warning is, when it says.
    const place: Place | undefined =
      d?.offset !== undefined ? { offset: d.offset } : d?.line !== undefined ? { line: d.line, column: d.column } : undefined;
    if (place) placed.push([li, place]);
    diags.append(li);
  };
  // An error or warning whose place is in the tree: a click opens the tree there.
  const linkPlaces = () => {
    for (const [li, place] of placed) {
      if (pathAt(place) === undefined) continue;
      li.classList.add('jump');
      li.tabIndex = 0;
      li.title = 'show its place in the fields';
      li.onclick = () => {
        ($('fieldsbox') as HTMLDetailsElement).open = true;
        revealPlace(place);
      };
      li.onkeydown = (e) => {
        if (e.key === 'Enter') li.click();
      };
    }
  };
  try {
    if (reload) f.bytes = undefined;
    if (!f.bytes && f.version) f.seen = await f.version().catch(() => null);
    if (!f.bytes) f.bytes = await f.read();
  } catch (e) {
    if (gen !== generation) return;
    $('format').textContent = `cannot read: ${(e as Error).message}`;
    document.body.dataset.ready = String(index);
    return;
  }
  if (gen !== generation) return;
  const bytes = f.bytes;
  const diagnose = (list: readonly Diagnostic[]) => {
    diags.replaceChildren();
    placed.length = 0;
    if (!list.some((d) => d.severity === 'error')) note('ok', 'valid');
    for (const d of list) note(d.severity, `${d.severity}: ${d.message}`, d);
  };
  diagnose(validate(bytes, f.name).diagnostics);
  // A file of an opened folder: then what `sprat check` says of it there (its references found and drawn), when it is known.
  if (f.checked)
    void reportOf(f).then((r) => {
      if (gen !== generation) return;
      diagnose(r.problems);
      linkPlaces();
      document.body.dataset.diagnosed = String(index);
    });
  try {
    // The document shown: as read, then as edited (web/edit.ts); every picture is drawn from it.
    let loaded = load(bytes, f.name);
    shownLoaded = loaded;
    // One loader for this document's pictures: its sheets fetched and decoded, its candidate places probed, once, however often it is drawn again.
    const resources = sharingImages(keptAnswers(f.resources));
    convertControls(loaded, f);
    // ISPRITE sequences end in follow-ups and fire triggers: played by the rules `sprat play` runs, with a log.
    $('followupsbox').hidden = loaded.handler.name !== 'isprite';
    $('format').textContent = `${loaded.handler.title} (${loaded.handler.name}), ${bytes.length} bytes`;
    $('summary').textContent = loaded.handler.inspectText(loaded.doc);
    if (!reload) $<HTMLInputElement>('gridsize').value = restored?.gridsize || String(tileSizeOf(loaded.doc));
    const json = plainJson(loaded.handler.inspectJson(loaded.doc));
    $('json').textContent = JSON.stringify(json, null, 2);
    buildTree(json, byteRanges(loaded, bytes), bytes, linePositions(loaded, bytes));
    linkPlaces();
    const box = $('framesizebox');
    const input = $<HTMLInputElement>('framesize');
    input.value = '';
    const names = new Set((loaded.handler.renderOptions ?? []).map((o) => o.name));
    let drawn = false;
    /** Bumped for every preview of this document: only the latest request's result is shown. */
    let request = 0;
    const levels = names.has('hide-layers');
    const preview = async (): Promise<void> => {
      const mine = ++request;
      // `body[data-preview]`: "busy" from a request until the latest one is on screen, then "done" (tests wait for it).
      document.body.dataset.preview = 'busy';
      const options: CommandOptions = { ...fixed, ...renderOptions(), ...tileOptions(), ...(levels ? layerOptions() : {}) };
      if (input.value) options['frame-size'] = input.value;
      const keep = drawn || kept !== undefined;
      try {
        const child = options.attach !== undefined ? files[attachChoice] : undefined;
        const p = await previewOf(loaded, child ? withAttached(resources, child) : resources, options);
        if (gen !== generation || mine !== request) return;
        const first = !drawn;
        startPreview(p, keep, drawn ? undefined : kept);
        drawn = true;
        if (first && levels) {
          const layers = p.animations[0]?.layers ?? [];
          buildLevelLayers(layers, () => void preview());
          // The grid of the cells the renderer drew (a SpriteTile level's cell size depends on its tilesets).
          const g = layers.find((l) => l.grid)?.grid;
          if (g && !reload && !restored && g.cellWidth >= 1 && g.cellWidth <= 4096)
            $<HTMLInputElement>('gridsize').value = String(g.cellWidth);
        }
        if (first && restored) {
          view.zoom = restored.zoom;
          view.panX = restored.panX;
          view.panY = restored.panY;
          if (restored.fitted) fitView();
          else {
            view.fitted = false;
            applyView();
          }
          drawFrame();
        }
      } catch (e) {
        if (gen !== generation || mine !== request) return;
        // Layer choices the document no longer has (it changed on disk): dropped, and drawn again.
        if (levels && (levelChoice.hidden.size || levelChoice.opacity.size) && /--(hide-layers|layer-opacity)/.test((e as Error).message)) {
          levelChoice.hidden.clear();
          levelChoice.opacity.clear();
          return preview();
        }
        stopTimer();
        player = null;
        drawn = false;
        clearCanvas();
        $('preview').hidden = false;
        $('previewnote').textContent = `no preview: ${(e as Error).message}`;
        // Some formats (Hallgeir sprites) do not store the frame size: ask for it.
        if (/--frame-size/.test((e as Error).message)) box.hidden = false;
      }
      document.body.dataset.previewed = String(index);
      document.body.dataset.preview = 'done';
    };
    const takesTileset = (loaded.handler.resourceOptions ?? []).some((o) => o.name === 'tileset');
    const palettes = names.has('recolour') || takesTileset ? await f.palettes().catch(() => []) : [];
    // The command line's resource options for this file (`sprat view level.bytes --tileset ...`): the tile choice starts from them.
    const given: CommandOptions = f.given ? await f.given().catch(() => ({})) : {};
    if (gen !== generation) return;
    const { tileset: _, ...fixed } = given;
    const renderOptions = renderControls(names, loaded.doc, names.has('recolour') ? palettes : [], () => void preview());
    const tileOptions = takesTileset
      ? tilesetControls(loaded.handler.name, loaded.doc, f.name, palettes, given, () => void preview())
      : () => ({});
    input.onchange = () => void preview();
    editor = startEditor(
      loaded,
      f,
      (edited) => {
        // The edited document, played at once: its summary, JSON, validation and pictures (nothing fetched again).
        loaded = edited;
        shownLoaded = edited;
        convertControls(edited, f);
        $('summary').textContent = edited.handler.inspectText(edited.doc);
        const json = plainJson(edited.handler.inspectJson(edited.doc));
        $('json').textContent = JSON.stringify(json, null, 2);
        buildTree(json, {}, new Uint8Array(0));
        try {
          diagnose(validate(edited.handler.write!(edited.doc), f.name, edited.handler.name).diagnostics);
        } catch (e) {
          diagnose([{ severity: 'error', message: (e as Error).message }]);
        }
        void preview();
      },
      (saved) => {
        f.bytes = saved;
      },
    );
    await preview();
  } catch (e) {
    if (gen !== generation) return;
    $('format').textContent = `cannot read: ${(e as Error).message}`;
    $('summary').textContent = '';
    $('json').textContent = '';
  }
  if (gen === generation) document.body.dataset.ready = String(index);
}

// ---------------------------------------------------------------- opening files

/**
 * Lists the files of `source`: an opened folder's replace the list, others
 * are added to it. Shows the first one added (`loose` files: always; else
 * only when they are a few, the user searches a long list and picks), then
 * checks a folder's files in the background.
 */
async function openSource(source: FileSource, replace: boolean, loose = false): Promise<void> {
  const listed = await source.list();
  if (!listed) return;
  if (replace) {
    checking++;
    files.length = 0;
    activeIndex = -1;
    ++generation;
    $('doc').hidden = true;
    $('checknote').textContent = '';
    delete document.body.dataset.checked;
  }
  if (replace || listed.note !== undefined) $('listnote').dataset.server = listed.note ?? '';
  const before = files.length;
  files.push(...listed.files);
  renderFileList();
  if (replace && !files.length) $('empty').textContent = 'No file sprat reads in that folder.';
  // The file shown before the page loaded again; else a few named files: the first. A folder's long list: the user searches and picks.
  const again = files.findIndex((f, i) => i >= before && f.name === pendingRestore?.active);
  const added = files.length - before;
  if (again >= 0) await show(again);
  else if (added && (loose || added <= 20)) await show(before);
  else if (added) $('empty').textContent = `${files.length} files: search the list and pick one.`;
  if (listed.files.some((f) => f.checked)) void checkAll();
}

/** Bumped when the list is replaced: a background check of the old list stops. */
let checking = 0;

/** `sprat check`'s report of a checked file, made once (the list's status and the shown file's diagnostics share it). */
function reportOf(f: OpenFile): Promise<CheckReport> {
  // (A file `check` reads and cannot draw says why; one it skips is not listed.)
  f.report ??= f
    .read()
    .then(async (bytes) => (await checkReport(bytes, f.name, f.resources)) ?? { format: null, problems: [] })
    .catch((e: unknown) => ({ format: null, problems: [{ severity: 'error' as const, message: (e as Error).message }] }));
  return f.report;
}

/**
 * Checks every checked file of the list in turn, as `sprat check` run in the
 * opened folder does: each button gets `data-status` (ok, warning, error),
 * and `#checknote` the totals; `body[data-checked]` when all are done.
 */
async function checkAll(): Promise<void> {
  const run = checking;
  const list = files.slice();
  let errors = 0;
  let warnings = 0;
  let done = 0;
  for (const f of list) {
    if (!f.checked) continue;
    const r = await reportOf(f);
    if (run !== checking) return;
    const e = r.problems.filter((p) => p.severity === 'error').length;
    const w = r.problems.length - e;
    errors += e;
    warnings += w;
    done++;
    statusOf.set(f, e ? `error:${e}` : w ? `warning:${w}` : 'ok');
    const b = $('files').querySelector<HTMLButtonElement>(`button[data-index="${files.indexOf(f)}"]`);
    if (b) setStatus(b, f);
    $('checknote').textContent = `check: ${done} files, ${errors} errors, ${warnings} warnings`;
    // Let the page draw and answer between files.
    await new Promise((ok) => setTimeout(ok, 0));
  }
  if (run === checking) document.body.dataset.checked = String(done);
}

/** Each checked file's status once known: "ok", "warning:N" or "error:N". */
const statusOf = new WeakMap<OpenFile, string>();

/** A list button's status from the check (an attribute, so that the button's text stays the file's path). */
function setStatus(b: HTMLButtonElement, f: OpenFile): void {
  const s = statusOf.get(f);
  if (!s) return;
  const [kind, n] = s.split(':');
  b.dataset.status = kind;
  b.dataset.problems = kind === 'ok' ? '' : `${n} ${kind}${n === '1' ? '' : 's'}`;
  b.title = kind === 'ok' ? 'check: no problems' : `check: ${b.dataset.problems}`;
}

// ---------------------------------------------------------------- controls, keyboard, pointer

$('play').onclick = togglePlay;
$('prev').onclick = () => stepBy(-1);
$('next').onclick = () => stepBy(1);
$<HTMLSelectElement>('animation').onchange = (e) => selectAnimation(Number((e.target as HTMLSelectElement).value));
$('loop').onchange = () => schedule();
$('followups').onchange = () => {
  startRuntime();
  if (!runtime) $('playlog').replaceChildren();
  setPlaying(true);
};
$('speed').onchange = () => schedule();
$('onion').onchange = () => drawFrame();
$('grid').onchange = () => drawFrame();
$('gridsize').onchange = () => drawFrame();
$('zoomin').onclick = () => zoomBy(1);
$('zoomout').onclick = () => zoomBy(-1);
$('fit').onclick = fitView;
$('export-png').onclick = () => exportAs('png');
$('export-gif').onclick = () => exportAs('gif');
$('export-apng').onclick = () => exportAs('apng');
$<HTMLSelectElement>('background').onchange = (e) => {
  $('stage').className = (e.target as HTMLSelectElement).value;
};
$<HTMLInputElement>('filter').oninput = () => renderFileList();

document.addEventListener('keydown', (e) => {
  const t = e.target as HTMLElement;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (
    t.tagName === 'SELECT' ||
    t.tagName === 'TEXTAREA' ||
    (t.tagName === 'INPUT' && !['checkbox', 'range'].includes((t as HTMLInputElement).type))
  )
    return;
  if ($('doc').hidden) return;
  let done = true;
  if (e.key === ' ') togglePlay();
  else if (e.key === 'ArrowLeft') stepBy(-1);
  else if (e.key === 'ArrowRight') stepBy(1);
  else if (e.key === '+' || e.key === '=') zoomBy(1);
  else if (e.key === '-' || e.key === '_') zoomBy(-1);
  else if (e.key === '0') fitView();
  else done = false;
  if (done) e.preventDefault();
});

const stage = $('stage');
stage.addEventListener(
  'wheel',
  (e) => {
    e.preventDefault();
    const r = stage.getBoundingClientRect();
    zoomBy(e.deltaY < 0 ? 1 : -1, e.clientX - r.left, e.clientY - r.top);
  },
  { passive: false },
);
let drag: { x: number; y: number; moved: number } | null = null;
stage.addEventListener('pointerdown', (e) => {
  drag = { x: e.clientX, y: e.clientY, moved: 0 };
  stage.setPointerCapture(e.pointerId);
  stage.classList.add('panning');
});
stage.addEventListener('pointermove', (e) => {
  if (!drag) {
    // A level: the cell and objects under the pointer (unless a click pinned one).
    if (!pinned) inspectAt(e.clientX, e.clientY);
    return;
  }
  view.panX += e.clientX - drag.x;
  view.panY += e.clientY - drag.y;
  drag = { x: e.clientX, y: e.clientY, moved: drag.moved + Math.abs(e.clientX - drag.x) + Math.abs(e.clientY - drag.y) };
  view.fitted = false;
  applyView();
});
const endDrag = () => {
  drag = null;
  stage.classList.remove('panning');
};
stage.addEventListener('pointerup', (e) => {
  // A click (no drag) on a level pins what is under it, or lets it go.
  if (drag && drag.moved < 3 && current()?.layers.length) {
    pinned = !pinned;
    if (pinned) {
      pinned = false;
      inspectAt(e.clientX, e.clientY);
      pinned = !$('inspector').hidden;
    }
    $('inspector').classList.toggle('pinned', pinned);
  }
  endDrag();
});
stage.addEventListener('pointercancel', endDrag);

$<HTMLInputElement>('picker').onchange = (e) =>
  void openSource(localSource(entriesOfFiles((e.target as HTMLInputElement).files ?? []), false, dropped), false, true);
$<HTMLInputElement>('folder').onchange = (e) =>
  void openSource(localSource(entriesOfFolderInput((e.target as HTMLInputElement).files ?? []), true), true);
// The directory picker where the browser has it (File System Access API); the folder input always.
$('pickfolder').hidden = !haveDirectoryPicker();
$('pickfolder').onclick = async () => {
  const entries = await pickDirectory().catch(() => null);
  if (entries) await openSource(localSource(entries, true), true);
};
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  if (!e.dataTransfer?.files.length) return;
  // A folder dropped alone opens as a folder; else the files, loose (read now: the drop's items last only this event).
  void entriesOfDrop(e.dataTransfer).then(({ entries, folder }) =>
    openSource(folder ? localSource(entries, true) : localSource(entries, false, dropped), folder, !folder),
  );
});
/**
 * Files change on disk while the page is open (the user edits a sprite or
 * its sheet): every second, the shown served file's signature is asked for,
 * and the file shown again when it changed (the animation and frame kept).
 */
let polling = false;
setInterval(() => {
  const index = activeIndex;
  const f = files[index];
  // Unsaved edits are kept: the file is not shown again from disk under them (saving then says it changed).
  if (polling || !f?.version || document.body.dataset.ready !== String(index) || document.hidden || editor?.dirty()) return;
  polling = true;
  void f
    .version()
    .catch(() => null)
    .then(async (v) => {
      if (v !== null && v !== f.seen && index === activeIndex && document.body.dataset.ready === String(index)) await show(index, true);
    })
    .finally(() => {
      polling = false;
    });
}, 1000);

window.addEventListener('pagehide', saveState);
if (pendingRestore) restoreToggles(pendingRestore);
renderFileList();
/** The static site (docs/site.md) has no server behind it: it asks none, and opens only what the user gives it. */
const STATIC = document.querySelector<HTMLMetaElement>('meta[name="sprat-source"]')?.content === 'static';
void (STATIC ? Promise.resolve() : openSource(serverSource(), false)).finally(() => {
  document.body.dataset.loaded = 'true';
});
