// Prints the frames file of bench_ingest_load --frames for the bundle
// run.sh built (esbuild, CommonJS) and injected a debug id into: for each
// of the SITES rules, the minified positions of the two frames the throw
// leaves in the bundle (the rule, then submitShipping that called it), as
// V8 reports them after running it.
//
//   node frames.js BUNDLE SITES > frames.txt
//
// Output: "debug_id <uuid>", then one line per site:
//   "site <inner function> <line> <column> <caller function> <line> <column>"
// (1-based, minified names as V8 names them).
'use strict';
const fs = require('fs');
const path = require('path');

const [bundleArg, sitesArg] = process.argv.slice(2);
const bundle = path.resolve(bundleArg);
const sites = Number(sitesArg);
const text = fs.readFileSync(bundle, 'utf8');
const id = /\/\/# debugId=([0-9a-f-]{36})/.exec(text);
if (!id) {
  console.error(`${bundle} has no //# debugId= comment (sentry-cli sourcemaps inject)`);
  process.exit(1);
}
const { submitShipping } = require(bundle);
const lines = [`debug_id ${id[1]}`];
const at = /^\s*at (?:(.+?) \()?(.+):(\d+):(\d+)\)?$/;
for (let site = 0; site < sites; site++) {
  let stack = '';
  try {
    submitShipping({ rules: [], subtotal: 10 }, site);
  } catch (err) {
    stack = err.stack;
  }
  const frames = [];
  for (const line of stack.split('\n')) {
    const m = at.exec(line);
    if (m && m[2] === bundle) frames.push(`${m[1] || '?'} ${m[3]} ${m[4]}`);
  }
  if (frames.length < 2) {
    console.error(`site ${site}: fewer than two frames in the bundle:\n${stack}`);
    process.exit(1);
  }
  lines.push(`site ${frames[0]} ${frames[1]}`);
}
process.stdout.write(lines.join('\n') + '\n');
