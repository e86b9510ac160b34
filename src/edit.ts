/**
 * Editing a document in place, whatever its format (browser-safe): the
 * values a picture offers to change (its handler's `edits`), the document
 * with new ones, and its bytes written by the format's own writer in the
 * file's own style, so that `sprat diff ORIGINAL SAVED` names exactly the
 * changes. The viewer's editor (web/edit.ts) is a shell over these.
 *
 * ```ts
 * const loaded = load(bytes, 'slime.dat');
 * const [delay] = editables(loaded, { animation: 'walking', direction: '0' }, 0);
 * const changed = applyEdit(loaded, delay, [120]); // animation "walking" frame_delay 120
 * const saved = editedBytes(changed);
 * ```
 */
import type { Loaded } from './api.js';
import { FormatError } from './binary/errors.js';
import type { CommandOptions, EditableValue } from './formats/types.js';

export type { EditableValue, EditablePart } from './formats/types.js';

/**
 * What can be changed in the picture `view` shows (render options, as
 * `renderViews` or the viewer's preview give them) at its frame `frame`;
 * [] when the format offers no edit, or none there.
 */
export function editables(loaded: Loaded, view: CommandOptions, frame: number): EditableValue[] {
  return loaded.handler.edits?.(loaded.doc, view, frame) ?? [];
}

/**
 * The document with `value` set to `values` (one per part), as a new Loaded
 * (`loaded` is left as it is). A value the format cannot hold is a one-line
 * FormatError.
 */
export function applyEdit(loaded: Loaded, value: EditableValue, values: readonly number[]): Loaded {
  return { handler: loaded.handler, doc: value.apply(values), warnings: loaded.warnings };
}

/** The document's bytes as its format's writer writes them, in the style the file was read in. */
export function editedBytes(loaded: Loaded): Uint8Array {
  const h = loaded.handler;
  if (!h.write) throw new FormatError(h.name, `${h.name} files cannot be written`);
  return h.write(loaded.doc);
}
