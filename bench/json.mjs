// JSON at any size ("every JSON writer streams its output ... at
// >= 0.7x JSON.stringify's speed for the same text"): `inspect --json` of a
// generated input of every format, made as the CLI makes it (the format's
// inspectJson, then sprat's streaming writer, src/binary/json-chunks.ts jsonChunks),
// against JSON.stringify(value, null, 2) of the same document as plain
// objects (made once, before timing: JSON.stringify is given its input for
// free). The texts are compared byte for byte before anything is timed.
import { beginSuite, compare, config } from './lib.mjs';
import { SWEEP_FORMATS, makeInput } from './inputs.mjs';
import { mod, sprat } from './sprat.mjs';

const { jsonChunks } = await mod('binary/json-chunks');
const { plainJson } = await mod('binary/json-array');
const { LIMIT_SPECS } = await mod('binary/limits');
const unlimited = Object.fromEntries(LIMIT_SPECS.map((s) => [s.option, 2 ** 40]));
const limits = Object.fromEntries(LIMIT_SPECS.map((s) => [s.key, 2 ** 40]));

export async function run() {
  beginSuite('json');
  const size = config.mode === 'tiny' ? 20_000 : config.mode === 'quick' ? 500_000 : 2_000_000;
  const formats = config.mode === 'tiny' ? ['isprite', 'tiled'] : SWEEP_FORMATS;
  for (const format of formats) {
    const input = await makeInput(format, size);
    const { handler, doc } = sprat.load(input.bytes, input.name, input.format, unlimited, { keepBytes: true });
    const plain = plainJson(handler.inspectJson(doc, {}));
    const text = () => {
      const parts = [];
      for (const c of jsonChunks(handler.inspectJson(doc, {}), 2, limits)) parts.push(c);
      return parts.join('');
    };
    const textBytes = Buffer.byteLength(JSON.stringify(plain, null, 2));
    await compare(
      `inspect --json text, ${format} (${(input.size / 1e6).toFixed(1)} MB input, ${(textBytes / 1e6).toFixed(1)} MB of JSON)`,
      {
        amount: textBytes,
        peers: [
          {
            name: 'sprat inspectJson + streaming writer',
            output: text,
            fn: () => {
              let n = 0;
              for (const c of jsonChunks(handler.inspectJson(doc, {}), 2, limits)) n += c.length;
              return n;
            },
          },
          { name: 'JSON.stringify of the plain document', fn: () => JSON.stringify(plain, null, 2) },
        ],
        check: (a, b) => (a === b ? null : 'texts differ'),
        checkNote: 'same text',
        target: { peer: 'JSON.stringify of the plain document', ratio: 0.7 },
        note: 'MB/s of JSON text; the plain document is made once before timing (JSON.stringify gets it for free)',
      },
    );
  }
}
