/**
 * What the viewer animates for a document: the library's `preview` (every
 * picture `renderViews` lists, drawn by the very call `sprat render` makes).
 */
export { preview as previewOf, type Preview, type PreviewAnimation } from '../src/api.js';
