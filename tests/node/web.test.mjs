// The browser/bundler entry (`web.js`), run in Node: it must not touch Node APIs, must
// refuse calls before `init`, and must work after `init` with bytes or a compiled module.
// (Its own process: the Node entry would otherwise have initialised the shared glue.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CLUSTER, project } from './helpers.mjs';

const dir = join(project(), 'node_modules', 'kubefit');

test('the browser entry imports no Node module', () => {
  for (const file of ['web.js', 'kubefit.js', 'kubefit_wasm.js']) {
    const source = readFileSync(join(dir, file), 'utf8');
    assert.doesNotMatch(source, /from ['"]node:|require\(/, file);
  }
});

test('the browser entry needs init, then evaluates', async () => {
  const web = await import(pathToFileURL(join(dir, 'web.js')).href);
  assert.throws(() => web.evaluate(CLUSTER), /`await init\(\)` first/);
  await web.default(readFileSync(join(dir, 'kubefit_wasm_bg.wasm')));
  const result = web.evaluate(CLUSTER);
  assert.equal(result.ok, true);
  assert.equal(result.report.nodes[0].name, 'worker-1');
  // A second init is harmless.
  await web.default();
  web.initSync(new WebAssembly.Module(readFileSync(join(dir, 'kubefit_wasm_bg.wasm'))));
  assert.equal(web.evaluate(CLUSTER).ok, true);
});

test('the exports map sends browsers and bundlers to web.js and Node to node.js', () => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const root = pkg.exports['.'];
  assert.equal(Object.keys(root)[0], 'types', 'types must come first');
  assert.deepEqual(root.node, { import: './node.js', require: './node.cjs' });
  assert.equal(root.default, './web.js');
  assert.deepEqual(pkg.bin, { kubefit: 'bin/kubefit.js' });
  const wasmFiles = pkg.files.filter((file) => file.endsWith('.wasm'));
  assert.deepEqual(wasmFiles, ['kubefit_wasm_bg.wasm'], 'one .wasm file');
});
