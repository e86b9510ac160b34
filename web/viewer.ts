/**
 * The browser viewer: open or drop files (a document plus the sheets and
 * textures it names), see its format, validation, summary and JSON, and
 * play its animations. When started by `sprat view FILE...`, the files come
 * from the local server. Everything runs in the page through the library.
 */
import { load, validate } from '../src/api.js';
import type { ResourceLoader } from '../src/formats/types.js';
import type { RgbaImage } from '../src/render/image.js';
import { previewOf, type Preview } from './preview.js';
import { droppedLoader, normalise, serverLoader } from './loaders.js';

interface OpenFile {
  name: string;
  bytes: Uint8Array;
  /** Resources relative to this file. */
  resources: ResourceLoader;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const files: OpenFile[] = [];
let dropped = new Map<string, Uint8Array>();
let timer: number | undefined;

function renderFileList(active: number): void {
  const nav = $('files');
  nav.replaceChildren(
    ...files.map((f, i) => {
      const b = document.createElement('button');
      b.textContent = f.name;
      b.className = i === active ? 'active' : '';
      b.onclick = () => void show(i);
      return b;
    }),
  );
  $('empty').hidden = files.length > 0;
}

function drawImage(img: RgbaImage, zoom: number): void {
  const canvas = $<HTMLCanvasElement>('canvas');
  canvas.width = Math.max(1, img.width);
  canvas.height = Math.max(1, img.height);
  canvas.style.width = `${canvas.width * zoom}px`;
  canvas.style.height = `${canvas.height * zoom}px`;
  const ctx = canvas.getContext('2d')!;
  if (img.width && img.height) {
    const pixels = new Uint8ClampedArray(img.data.length);
    pixels.set(img.data);
    ctx.putImageData(new ImageData(pixels, img.width, img.height), 0, 0);
  }
}

function startPreview(preview: Preview): void {
  const select = $<HTMLSelectElement>('animation');
  const play = $<HTMLButtonElement>('play');
  select.replaceChildren(
    ...preview.animations.map((a, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = a.label;
      return o;
    }),
  );
  let anim = 0;
  let frame = 0;
  let playing = true;
  const zoom = () => Number($<HTMLInputElement>('zoom').value);
  const showFrame = () => {
    const a = preview.animations[anim];
    if (!a || a.frames.length === 0) {
      $('frameinfo').textContent = 'nothing to show';
      return;
    }
    drawImage(a.frames[frame]!, zoom());
    $('frameinfo').textContent = `frame ${frame + 1} / ${a.frames.length}`;
  };
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    const a = preview.animations[anim];
    if (!playing || !a || a.frames.length < 2) return;
    const delay = a.delaysMs[frame] ?? 100;
    if (!Number.isFinite(delay) || delay <= 0) return;
    timer = window.setTimeout(() => {
      const next = a.next(frame);
      if (next === null) {
        playing = false;
        play.textContent = 'Play';
        return;
      }
      frame = next;
      showFrame();
      schedule();
    }, delay);
  };
  select.onchange = () => {
    anim = Number(select.value);
    frame = 0;
    showFrame();
    schedule();
  };
  play.onclick = () => {
    playing = !playing;
    play.textContent = playing ? 'Pause' : 'Play';
    schedule();
  };
  const stepBy = (d: number) => {
    const a = preview.animations[anim];
    if (!a || !a.frames.length) return;
    playing = false;
    play.textContent = 'Play';
    frame = (frame + d + a.frames.length) % a.frames.length;
    showFrame();
  };
  $('prev').onclick = () => stepBy(-1);
  $('next').onclick = () => stepBy(1);
  $<HTMLInputElement>('zoom').oninput = showFrame;
  $('preview').hidden = preview.animations.length === 0;
  $('previewnote').textContent = preview.note ?? '';
  showFrame();
  schedule();
}

async function show(index: number): Promise<void> {
  if (timer !== undefined) clearTimeout(timer);
  renderFileList(index);
  const f = files[index]!;
  $('doc').hidden = false;
  $('title').textContent = f.name;
  const diags = $('diagnostics');
  diags.replaceChildren();
  const note = (cls: string, text: string) => {
    const li = document.createElement('li');
    li.className = cls;
    li.textContent = text;
    diags.append(li);
  };
  const v = validate(f.bytes, f.name);
  if (v.valid) note('ok', 'valid');
  for (const d of v.diagnostics) note(d.severity, `${d.severity}: ${d.message}`);
  $('preview').hidden = true;
  try {
    const loaded = load(f.bytes, f.name);
    $('format').textContent = `${loaded.handler.title} (${loaded.handler.name}), ${f.bytes.length} bytes`;
    $('summary').textContent = loaded.handler.inspectText(loaded.doc);
    $('json').textContent = JSON.stringify(loaded.handler.inspectJson(loaded.doc), null, 2);
    const box = $('framesizebox');
    box.hidden = true;
    const preview = async (options: Record<string, string>) => {
      try {
        startPreview(await previewOf(loaded, f.resources, options));
      } catch (e) {
        $('preview').hidden = false;
        $('previewnote').textContent = `no preview: ${(e as Error).message}`;
        // Some formats (Hallgeir sprites) do not store the frame size: ask for it.
        if (/--frame-size/.test((e as Error).message)) box.hidden = false;
      }
    };
    const input = $<HTMLInputElement>('framesize');
    input.value = '';
    input.onchange = () => void preview(input.value ? { 'frame-size': input.value } : {});
    await preview({});
  } catch (e) {
    $('format').textContent = `cannot read: ${(e as Error).message}`;
    $('summary').textContent = '';
    $('json').textContent = '';
  }
  document.body.dataset.ready = String(index);
}

async function openLocal(list: FileList | File[]): Promise<void> {
  const all = [...list];
  dropped = new Map();
  for (const f of all) {
    const bytes = new Uint8Array(await f.arrayBuffer());
    dropped.set(normalise((f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name), bytes);
    dropped.set(f.name, bytes);
  }
  const before = files.length;
  for (const f of all) {
    if (/\.(png|bmp|gif|jpe?g)$/i.test(f.name)) continue;
    const where = normalise((f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name);
    files.push({ name: f.name, bytes: dropped.get(f.name)!, resources: droppedLoader(dropped, where) });
  }
  if (files.length > before) await show(before);
}

async function openServed(): Promise<void> {
  const r = await fetch('api/files').catch(() => null);
  if (!r || !r.ok) return;
  const list = (await r.json()) as { id: number; name: string }[];
  for (const item of list) {
    const b = await fetch(`files/${item.id}`);
    files.push({ name: item.name, bytes: new Uint8Array(await b.arrayBuffer()), resources: serverLoader(item.id) });
  }
  if (files.length) await show(0);
}

$<HTMLInputElement>('picker').onchange = (e) => void openLocal((e.target as HTMLInputElement).files ?? []);
document.addEventListener('dragover', (e) => {
  e.preventDefault();
  document.body.classList.add('dragging');
});
document.addEventListener('dragleave', () => document.body.classList.remove('dragging'));
document.addEventListener('drop', (e) => {
  e.preventDefault();
  document.body.classList.remove('dragging');
  if (e.dataTransfer?.files.length) void openLocal(e.dataTransfer.files);
});
renderFileList(-1);
void openServed().finally(() => {
  document.body.dataset.loaded = 'true';
});
