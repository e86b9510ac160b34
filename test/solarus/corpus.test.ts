import { describe, expect, it } from 'vitest';
import { validate } from '../../src/api.js';
import {
  formatLines,
  formatLua,
  modelToSheet,
  readLines,
  readLua,
  sheetToModel,
  solarusHandler,
  solarusLuaHandler,
  writeLua,
} from '../../src/formats/solarus/index.js';
import { corpusBytes, corpusFiles, enc, NO_FILES } from './helpers.js';

const files = corpusFiles();
const dec = new TextDecoder();

describe('Solarus corpus (zsdx, 207 sprites in both syntaxes)', () => {
  it('has the 207 files', () => {
    expect(files.length).toBe(207);
  });

  it('every file validates in both syntaxes, detected by content as .dat', () => {
    for (const id of files) {
      const o = validate(corpusBytes('old', id), id);
      expect(o.format, id).toBe('solarus');
      expect(o.valid, `${id}: ${o.diagnostics.map((d) => d.message).join('; ')}`).toBe(true);
      const n = validate(corpusBytes('new', id), id);
      expect(n.format, id).toBe('solarus-lua');
      expect(n.valid, `${id}: ${n.diagnostics.map((d) => d.message).join('; ')}`).toBe(true);
      // Only the frame_delay 0 warning (rule 7) is expected in this corpus.
      for (const d of [...o.diagnostics, ...n.diagnostics]) expect(d.message, id).toMatch(/frame_delay 0 with several frames/);
    }
  });

  it('every old file written in the Lua syntax equals the official converter output byte for byte', () => {
    for (const id of files) {
      const sheet = readLines(corpusBytes('old', id));
      expect(Buffer.from(writeLua(sheet)).equals(corpusBytes('new', id)), id).toBe(true);
    }
  });

  it('the same through the common model (solarus toModel, solarus-lua fromModel)', async () => {
    for (const id of files) {
      const sheet = solarusHandler.read(corpusBytes('old', id));
      const model = await solarusHandler.toModel!(sheet, NO_FILES);
      const back = await solarusLuaHandler.fromModel!(model);
      expect(dec.decode(solarusLuaHandler.write!(back)), id).toBe(dec.decode(corpusBytes('new', id)));
    }
  });

  it('every new file reads to the same sheet as its old one', () => {
    for (const id of files) {
      expect(readLua(corpusBytes('new', id)), id).toEqual(readLines(corpusBytes('old', id)));
    }
  });

  it('each syntax round-trips itself', () => {
    for (const id of files) {
      const newBytes = corpusBytes('new', id);
      expect(Buffer.from(writeLua(readLua(newBytes))).equals(newBytes), id).toBe(true);
      const old = readLines(corpusBytes('old', id));
      const text = formatLines(old);
      expect(readLines(enc(text)), id).toEqual(old);
      expect(formatLines(readLines(enc(text))), id).toBe(text);
    }
  });

  it('model conversion keeps every animation, direction, frame rectangle and origin', async () => {
    for (const id of files) {
      const sheet = readLines(corpusBytes('old', id));
      const model = await solarusHandler.toModel!(sheet, NO_FILES);
      expect(modelToSheet('solarus', model), id).toEqual(sheet);
      expect(formatLua(modelToSheet('solarus-lua', await sheetToModel('solarus-lua', sheet, NO_FILES))), id).toBe(
        dec.decode(corpusBytes('new', id)),
      );
    }
  });
});
