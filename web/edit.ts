/**
 * The viewer's editor: the values the shown picture offers to change (the
 * library's `editables`, src/edit.ts: a Solarus animation's frame_delay,
 * loop frame and direction origin, an ISPRITE frame's hold time and element
 * positions, a CTHG element's offset), each a number field; a change makes
 * the edited document (`applyEdit`), which the page plays at once, and
 * "save" writes it with the format's writer in the file's own style
 * (`editedBytes`): over the file itself under `sprat view --edit` (the
 * server's `PUT files/N`), else as a download.
 *
 * For tests: `body[data-edits]` counts the edits not saved, `data-saved`
 * holds what the last save did (`file NAME`, `download NAME`, or '' when it
 * failed), `#editnote` the last error or result in one line.
 */
import type { Loaded } from '../src/api.js';
import { applyEdit, editables, editedBytes, type EditableValue } from '../src/edit.js';
import type { CommandOptions } from '../src/formats/types.js';
import { download } from './convert.js';
import type { SourceFile } from './source.js';

/** Most values listed for one picture (an ISPRITE frame may hold thousands of elements). */
const MAX_FIELDS = 40;

export interface EditedFile {
  name: string;
  save?: SourceFile['save'];
  /** The version of the file on disk the page read (a served file). */
  seen?: string | null;
  bytes?: Uint8Array;
}

export interface Editor {
  /** Lists the values of the picture on screen (`view`: its render options; undefined: none shown) at frame `frame`. */
  update(view: CommandOptions | undefined, frame: number): void;
  /** True while edits are not saved (the page then does not reload the file when it changes on disk). */
  dirty(): boolean;
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

function baseName(p: string): string {
  return p.replace(/^.*\//, '');
}

/**
 * Starts editing `loaded`, the document of `file`; `changed` gets each edited
 * document (the page redraws from it, fetching nothing), `saved` the bytes
 * written over the file.
 */
export function startEditor(
  loaded: Loaded,
  file: EditedFile,
  changed: (edited: Loaded) => void,
  saved: (bytes: Uint8Array) => void,
): Editor {
  const box = $('editbox');
  const fields = $('editfields');
  const note = $('editnote');
  const save = $<HTMLButtonElement>('save');
  let doc = loaded;
  let edits = 0;
  /** Bumped with each edit: the values listed are the previous document's. */
  let generation = 0;
  let shown = '';
  let view: CommandOptions | undefined;
  let frame = 0;
  const inPlace = file.save !== undefined;
  const writable = loaded.handler.write !== undefined && loaded.handler.edits !== undefined;
  box.hidden = true;
  fields.replaceChildren();
  note.textContent = '';
  save.dataset.mode = inPlace ? 'file' : 'download';
  save.textContent = inPlace ? 'save' : 'download edited';
  save.title = inPlace
    ? 'write the edited file over itself (sprat view --edit)'
    : 'download the edited file (the file itself is not changed; sprat view --edit saves in place)';
  document.body.dataset.edits = '0';
  delete document.body.dataset.saved;

  const count = (n: number) => {
    edits = n;
    document.body.dataset.edits = String(n);
    save.disabled = n === 0;
  };
  count(0);

  const list = (): void => {
    const values = view && writable ? editables(doc, view, frame) : [];
    const sig = `${generation}\u0000${values.map((v) => `${v.key}=${v.parts.map((p) => p.value).join(',')}`).join('\u0001')}`;
    box.hidden = values.length === 0 && edits === 0;
    if (sig === shown) return;
    // Not under the user's fingers: a field being typed in stays until it is left (or Enter).
    const focused = document.activeElement as HTMLInputElement | null;
    if (focused && fields.contains(focused) && shown.startsWith(`${generation}\u0000`)) return;
    const refocus = focused && fields.contains(focused) ? `${focused.dataset.key}\u0000${focused.dataset.part}` : null;
    shown = sig;
    fields.replaceChildren(...values.slice(0, MAX_FIELDS).map(field));
    if (values.length > MAX_FIELDS) fields.append(` (and ${values.length - MAX_FIELDS} more)`);
    if (refocus)
      for (const input of fields.querySelectorAll('input'))
        if (`${input.dataset.key}\u0000${input.dataset.part}` === refocus) input.focus();
  };

  const field = (v: EditableValue): HTMLElement => {
    const label = document.createElement('label');
    label.dataset.key = v.key;
    label.title = v.parts.map((p) => `${p.name}: ${p.min} to ${p.max}`).join(', ');
    const inputs = v.parts.map((p, i) => {
      const input = document.createElement('input');
      input.type = 'number';
      input.value = String(p.value);
      input.min = String(p.min);
      input.max = String(p.max);
      input.step = String(p.step);
      input.dataset.key = v.key;
      input.dataset.part = String(i);
      input.setAttribute('aria-label', v.parts.length > 1 ? `${v.label} ${p.name}` : v.label);
      input.onchange = () => apply(v, inputs);
      return input;
    });
    label.append(`${v.label} `);
    inputs.forEach((input, i) => {
      if (v.parts.length > 1) label.append(` ${v.parts[i]!.name} `);
      label.append(input);
    });
    return label;
  };

  const apply = (v: EditableValue, inputs: HTMLInputElement[]): void => {
    // An empty or unreadable field is NaN: refused by the library's check, with its words.
    const values = inputs.map((input) => (input.value.trim() === '' ? Number.NaN : Number(input.value)));
    let edited: Loaded;
    try {
      edited = applyEdit(doc, v, values);
    } catch (e) {
      note.textContent = (e as Error).message;
      for (const input of inputs) input.setAttribute('aria-invalid', 'true');
      document.body.dataset.editError = (e as Error).message;
      return;
    }
    delete document.body.dataset.editError;
    doc = edited;
    generation++;
    count(edits + 1);
    note.textContent = `${v.label}: ${values.join(', ')} (${edits} edit${edits === 1 ? '' : 's'} not saved)`;
    changed(edited);
    list();
  };

  save.onclick = async () => {
    delete document.body.dataset.saved;
    let bytes: Uint8Array;
    try {
      bytes = editedBytes(doc);
    } catch (e) {
      note.textContent = `cannot save: ${(e as Error).message}`;
      document.body.dataset.saved = '';
      return;
    }
    const name = baseName(file.name);
    if (!file.save) {
      download(name, bytes);
      note.textContent = `downloaded ${name} (the file itself is unchanged)`;
      document.body.dataset.saved = `download ${name}`;
      return;
    }
    save.disabled = true;
    note.textContent = 'saving…';
    try {
      file.seen = await file.save(bytes, file.seen);
      file.bytes = bytes;
      count(0);
      note.textContent = `saved ${file.name}`;
      saved(bytes);
      document.body.dataset.saved = `file ${file.name}`;
    } catch (e) {
      save.disabled = false;
      note.textContent = `cannot save: ${(e as Error).message}`;
      document.body.dataset.saved = '';
    }
  };

  return {
    update(v, f) {
      view = v;
      frame = f;
      list();
    },
    dirty: () => edits > 0,
  };
}
