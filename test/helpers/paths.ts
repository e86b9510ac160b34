import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** ../shared beside the checkout (as in CI). */
export const SHARED = path.resolve(ROOT, '../shared');
export const CORPUS = path.join(SHARED, 'corpus');
export const SAMPLES = path.join(ROOT, 'samples');
