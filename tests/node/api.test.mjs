// The library API, through both entry points a Node user has: ESM import and require().
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { BAD_YAML, CLUSTER, PENDING_CLUSTER, codes, importEsm, project, requireCjs } from './helpers.mjs';

const esm = await importEsm();
const cjs = requireCjs();

test('ESM and CommonJS share one instance and one API', () => {
  assert.equal(cjs.evaluate, esm.evaluate);
  for (const name of ['evaluate', 'evaluateText', 'schedule', 'version', 'initSync', 'default']) {
    assert.equal(typeof esm[name], 'function', name);
  }
  const pkg = JSON.parse(readFileSync(join(project(), 'node_modules/kubefit/package.json'), 'utf8'));
  assert.equal(esm.version(), pkg.version);
});

test('require() and import load the package without a warning', () => {
  const scripts = [
    ['--eval', "console.log(typeof require('kubefit').evaluate('a: 1').ok)"],
    ['--input-type=module', '--eval', "import { evaluate } from 'kubefit'; console.log(typeof evaluate('a: 1').ok)"],
  ];
  for (const args of scripts) {
    const { status, stdout, stderr } = spawnSync(process.execPath, args, { cwd: project(), encoding: 'utf8' });
    assert.equal(status, 0, stderr);
    assert.equal(stdout, 'boolean\n');
    assert.equal(stderr, '', 'no ExperimentalWarning or other noise');
  }
});

test('init resolves at once in Node, for code written for browsers', async () => {
  await esm.default();
  assert.equal(esm.evaluate(CLUSTER).ok, true);
});

for (const [name, kubefit] of [['ESM', esm], ['CommonJS', cjs]]) {
  describe(name, () => {
    test('evaluates a small cluster', () => {
      const result = kubefit.evaluate(CLUSTER);
      assert.equal(result.ok, true, JSON.stringify(result.report.diagnostics));
      assert.deepEqual(Object.keys(result), ['ok', 'report']);
      const [node] = result.report.nodes;
      assert.equal(node.name, 'worker-1');
      assert.equal(node.requested.cpu, '500m');
      assert.equal(result.report.pods[0].pod, 'shop/web');
      assert.equal(result.report.pods[0].state, 'bound');
    });

    test('reads bytes, named sources and arrays like a string', () => {
      const fromString = kubefit.evaluate(CLUSTER).report;
      const fromBytes = kubefit.evaluate(Buffer.from(CLUSTER)).report;
      const fromArray = kubefit.evaluate([{ name: 'cluster.yaml', text: new TextEncoder().encode(CLUSTER) }]).report;
      assert.deepEqual(fromBytes, fromString);
      assert.deepEqual(fromArray.nodes, fromString.nodes);
      const [node, pod] = CLUSTER.split('---\n');
      assert.deepEqual(kubefit.evaluate([node, pod]).report.pods, fromString.pods);
    });

    test('bad YAML gives a located diagnostic, not an exception', () => {
      const result = kubefit.evaluate([{ name: 'broken.yaml', text: BAD_YAML }]);
      assert.equal(result.ok, false);
      const [diagnostic] = result.report.diagnostics;
      assert.equal(diagnostic.severity, 'error');
      assert.equal(diagnostic.source, 'broken.yaml');
      assert.equal(diagnostic.line, 3, JSON.stringify(diagnostic));
      assert.equal(typeof diagnostic.column, 'number');
      assert.equal(typeof diagnostic.offset, 'number');
    });

    test('format "text" and evaluateText render tables', () => {
      const text = kubefit.evaluateText(CLUSTER);
      assert.match(text, /worker-1/);
      assert.match(text, /shop\/web/);
      assert.deepEqual(kubefit.evaluate(CLUSTER, { format: 'text' }), { ok: true, text });
      const bad = kubefit.evaluate(BAD_YAML, { format: 'text' });
      assert.equal(bad.ok, false);
      assert.match(bad.text, /error/);
    });

    test('schedule returns the scheduling section with typed options', () => {
      const pending = PENDING_CLUSTER;
      const result = kubefit.schedule(pending);
      assert.deepEqual(Object.keys(result), ['ok', 'scheduling', 'diagnostics']);
      assert.equal(result.ok, true);
      assert.equal(result.scheduling.profile, 'kubernetes-1.34');
      const [big] = result.scheduling.pods;
      assert.equal(big.pod, 'shop/big');
      assert.equal(big.outcome, 'unschedulable');
      assert.match(big.message, /^0\/1 nodes are available: 1 Insufficient cpu\./);
      assert.deepEqual(result.scheduling, kubefit.evaluate(pending).report.scheduling);

      const legacy = kubefit.schedule(pending, { schedule: { profile: 'openshift-3.11', preemption: false } });
      assert.equal(legacy.scheduling.profile, 'openshift-3.11');
      assert.equal(legacy.scheduling.pods[0].message, '0/1 nodes are available: 1 Insufficient cpu.');

      const wrong = kubefit.schedule(pending, { schedule: { profile: 'kubernetes-1.99' } });
      assert.equal(wrong.ok, false);
      assert.deepEqual(codes(wrong), ['argument/invalid-type']);
      assert.equal(wrong.diagnostics[0].path, 'options.schedule.profile');
      const typo = kubefit.schedule(pending, { schedule: { seeds: 1 } });
      assert.deepEqual(codes(typo), ['argument/unknown-option']);
    });

    test('limits are applied', () => {
      const result = kubefit.evaluate(CLUSTER, { limits: { maxInputBytes: 10 } });
      assert.equal(result.ok, false);
      assert.deepEqual(codes(result.report), ['input/too-large']);
    });
  });
}

describe('wrong JavaScript types are diagnostics, never exceptions', () => {
  const cyclic = {};
  cyclic.self = cyclic;
  const cyclicArray = [];
  cyclicArray.push(cyclicArray);
  const throwing = new Proxy({}, { get() { throw new Error('no'); } });
  const cases = [
    ['a number', 42, /`input` must be a string, a Uint8Array, or an array .* got the number `42`/],
    ['null', null, /got `null`/],
    ['undefined', undefined, /got `undefined`/],
    ['a boolean', true, /got the boolean `true`/],
    ['a bigint', 10n, /got a bigint/],
    ['a symbol', Symbol('s'), /got a symbol/],
    ['a function', () => CLUSTER, /got a function/],
    ['an object without text', { name: 'x.yaml' }, /got an object/],
    ['a cyclic object', cyclic, /got an object/],
    ['a cyclic array', cyclicArray, /`input\[0\]` must be .* got an array/],
    ['a proxy with a throwing getter', [throwing], /`input\[0\]\.text`/],
    ['a number as text', [{ text: 5 }], /`input\[0\]\.text` must be a string or a Uint8Array, got the number `5`/],
    ['a number as name', [{ name: 1, text: 'a: 1' }], /`input\[0\]\.name` must be a string/],
    ['an ArrayBuffer', new ArrayBuffer(4), /ArrayBuffer/],
    ['a Uint16Array', new Uint16Array(4), /typed array other than Uint8Array/],
  ];
  for (const [name, input, message] of cases) {
    test(name, () => {
      const result = esm.evaluate(input);
      assert.equal(result.ok, false);
      assert.equal(result.report.diagnostics.length, 1, JSON.stringify(result.report.diagnostics));
      const [diagnostic] = result.report.diagnostics;
      assert.equal(diagnostic.code, 'argument/invalid-type');
      assert.match(diagnostic.message, message);
      assert.equal(typeof esm.evaluateText(input), 'string');
    });
  }

  const badOptions = [
    ['options not an object', 5, 'options', /`options` must be an object/],
    ['limits not an object', { limits: 3 }, 'options.limits', /must be an object, got the number `3`/],
    ['a negative limit', { limits: { maxDepth: -1 } }, 'options.limits.maxDepth', /non-negative integer, got the number `-1`/],
    ['a fractional limit', { limits: { maxDocuments: 1.5 } }, 'options.limits.maxDocuments', /non-negative integer/],
    ['a string limit', { limits: { maxDepth: '5' } }, 'options.limits.maxDepth', /got the string `5`/],
    ['an unknown format', { format: 'yaml' }, 'options.format', /`"json"` or `"text"`, got the string `yaml`/],
  ];
  for (const [name, options, path, message] of badOptions) {
    test(name, () => {
      const result = esm.evaluate(CLUSTER, options);
      assert.equal(result.ok, false);
      assert.deepEqual(codes(result.report), ['argument/invalid-type']);
      assert.equal(result.report.diagnostics[0].path, path);
      assert.match(result.report.diagnostics[0].message, message);
    });
  }

  test('unknown option names warn, and cyclic options are fine', () => {
    const options = { limits: { maxDepth: 64 }, fromat: 'text' };
    options.limits.self = options;
    const result = esm.evaluate(CLUSTER, options);
    assert.equal(result.ok, true);
    assert.deepEqual(codes(result.report), ['argument/unknown-option', 'argument/unknown-option']);
    assert.match(result.report.diagnostics[0].message, /`options.fromat`/);
  });

  test('format "text" is honoured even when another option is wrong', () => {
    const result = esm.evaluate(CLUSTER, { format: 'text', limits: 'none' });
    assert.equal(result.ok, false);
    assert.match(result.text, /argument\/invalid-type/);
  });
});

test('a string with a lone surrogate is reported with its UTF-16 offset', () => {
  const text = 'apiVersion: v1\nkind: Node\nmetadata: {name: "n\uD800"}\n';
  const result = esm.evaluate([{ name: 'paste.yaml', text }, CLUSTER]);
  assert.equal(result.ok, false);
  const [diagnostic] = result.report.diagnostics;
  assert.equal(diagnostic.code, 'input/lone-surrogate');
  assert.equal(diagnostic.source, 'paste.yaml');
  assert.equal(diagnostic.offset, text.indexOf('\uD800'));
  assert.equal(diagnostic.line, 3);
  assert.match(diagnostic.message, /\\u\{d800\}/);
  // The other source is still evaluated.
  assert.equal(result.report.nodes[0].name, 'worker-1');
  // A surrogate pair is fine.
  const result2 = esm.evaluate(`# 😀 fits in two UTF-16 code units\n${CLUSTER}`);
  assert.equal(result2.ok, true, JSON.stringify(result2.report.diagnostics));
});

test('a panic becomes an internal/panic diagnostic and the next call works', () => {
  const result = esm.__kubefitPanicForTests();
  assert.equal(result.ok, false);
  assert.deepEqual(codes(result.report), ['internal/panic']);
  assert.match(result.report.diagnostics[0].message, /panic requested by a test/);
  assert.equal(typeof result.report.kubefitVersion, 'string', 'the report has its usual shape');
  // The instance was replaced: everything works again, twice over.
  assert.equal(esm.evaluate(CLUSTER).ok, true);
  assert.equal(esm.__kubefitPanicForTests().ok, false);
  assert.equal(cjs.evaluate(CLUSTER).report.nodes[0].name, 'worker-1');
  assert.match(esm.evaluateText(CLUSTER), /worker-1/);
});
