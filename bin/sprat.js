#!/usr/bin/env node
// The `sprat` command. It loads the bundled command line (dist/cli/sprat.cjs,
// made by scripts/build-cli.mjs) with V8's code cache beside it, for a fast
// start; without the bundle (a build without it) it imports dist/cli/main.js.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

function bundledMain() {
  const file = path.join(__dirname, '..', 'dist', 'cli', 'sprat.cjs');
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const vm = require('node:vm');
  const Module = require('node:module');
  let cachedData;
  try {
    cachedData = fs.readFileSync(`${file}.cache`);
  } catch {
    // no cache: V8 compiles as usual
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  const mod = { exports: {} };
  script.runInThisContext().call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  return mod.exports.main;
}

// The command line prints its own errors (src/cli/io.ts: an internal error is
// one line and exit 70, EX_SOFTWARE); this is for a failure before it runs (a
// damaged build): the same one line, never Node's report with the source text.
function internalError(e) {
  let message;
  try {
    message = e instanceof Error ? (e.name && e.name !== 'Error' ? `${e.name}: ${e.message}` : e.message) : String(e);
  } catch {
    message = 'an exception that cannot be shown';
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this escapes
  message = message.replace(/[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  if (message.length > 300) message = `${message.slice(0, 297)}...`;
  const debug = process.argv.includes('--debug');
  process.stderr.write(`sprat: internal error: ${message}${debug ? `\n${e?.stack ?? ''}` : ' (run with --debug for the stack)'}\n`);
  process.exitCode = 70;
}

const run = (main) =>
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  }, internalError);
try {
  const main = bundledMain();
  if (main) run(main);
  else import('../dist/cli/main.js').then((m) => run(m.main), internalError);
} catch (e) {
  internalError(e);
}
