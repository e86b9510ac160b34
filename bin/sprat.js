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

const run = (main) =>
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
const main = bundledMain();
if (main) run(main);
else import('../dist/cli/main.js').then((m) => run(m.main));
