// The `kubefit` bin of the installed package: exit codes, output formats, stdin.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { BAD_YAML, CLUSTER, PENDING_CLUSTER, ROOT, cli } from './helpers.mjs';

const dir = mkdtempSync(join(tmpdir(), 'kubefit-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const good = join(dir, 'cluster.yaml');
const bad = join(dir, 'broken.yaml');
writeFileSync(good, CLUSTER);
writeFileSync(bad, BAD_YAML);

test('valid input: exit 0 and the report as JSON on stdout', () => {
  const { status, stdout, stderr } = cli(['evaluate', good]);
  assert.equal(status, 0, stderr);
  const report = JSON.parse(stdout);
  assert.equal(report.nodes[0].name, 'worker-1');
  assert.equal('ok' in report, false, 'stdout is the report, not the tagged result');
  assert.equal(stderr, '');
});

test('input with errors: exit 1, diagnostics located in the named file', () => {
  const { status, stdout } = cli(['evaluate', good, bad]);
  assert.equal(status, 1);
  const [diagnostic] = JSON.parse(stdout).diagnostics;
  assert.equal(diagnostic.source, bad);
  assert.equal(diagnostic.line, 3);
});

test('-o text renders tables, in every spelling', () => {
  const { status, stdout } = cli(['evaluate', '-o', 'text', good]);
  assert.equal(status, 0);
  assert.match(stdout, /worker-1/);
  assert.match(stdout, /shop\/web/);
  for (const spelling of [['-otext'], ['-o=text'], ['--output', 'text'], ['--output=text']]) {
    assert.equal(cli(['evaluate', good, ...spelling]).stdout, stdout, spelling.join(' '));
  }
  assert.equal(cli(['evaluate', bad, '-o', 'text']).status, 1);
});

test('scheduling options choose the profile and turn preemption off', () => {
  const pending = join(dir, 'pending.yaml');
  writeFileSync(pending, PENDING_CLUSTER);
  const scheduling = (args) => {
    const { status, stdout, stderr } = cli(['evaluate', pending, ...args]);
    assert.equal(status, 0, stderr);
    return JSON.parse(stdout).scheduling;
  };
  assert.equal(scheduling([]).profile, 'kubernetes-1.34');
  const legacy = scheduling(['--profile', 'openshift-3.11', '--no-preemption', '--seed=3']);
  assert.equal(legacy.profile, 'openshift-3.11');
  assert.equal(legacy.pods[0].message, '0/1 nodes are available: 1 Insufficient cpu.');
  assert.deepEqual(scheduling(['--profile=openshift-3.11']).profile, 'openshift-3.11');
});

test('- and no file read standard input', () => {
  const dash = cli(['evaluate', '-'], { input: CLUSTER });
  assert.equal(dash.status, 0, dash.stderr);
  assert.equal(JSON.parse(dash.stdout).nodes[0].name, 'worker-1');
  const none = cli(['evaluate', '-o', 'text'], { input: BAD_YAML });
  assert.equal(none.status, 1);
  assert.match(none.stdout, /<stdin>:3:/);
});

test('usage errors: exit 2 with a message on stderr', () => {
  for (const args of [
    [],
    ['frobnicate'],
    ['evaluate', '--frobnicate', good],
    ['evaluate', '-o', 'yaml', good],
    ['evaluate', good, '-o'],
    ['evaluate', good, '--profile', 'kubernetes-1.99'],
    ['evaluate', good, '--profile'],
    ['evaluate', good, '--seed=-1'],
    ['evaluate', join(dir, 'missing.yaml')],
    ['evaluate', dir],
  ]) {
    const { status, stdout, stderr } = cli(args);
    assert.equal(status, 2, args.join(' '));
    assert.equal(stdout, '', args.join(' '));
    assert.match(stderr, /^kubefit: .+\n\nUsage: kubefit evaluate/, args.join(' '));
  }
  assert.match(cli(['evaluate', join(dir, 'missing.yaml')]).stderr, /cannot read `.*missing\.yaml`: no such file/);
});

test('--help and --version', () => {
  for (const flag of ['--help', '-h', 'help']) {
    const { status, stdout } = cli([flag]);
    assert.equal(status, 0);
    assert.match(stdout, /^Usage: kubefit evaluate \[FILE\|-\]\.\.\. \[-o json\|text\]/);
  }
  const { status, stdout } = cli(['--version']);
  assert.equal(status, 0);
  assert.match(stdout, /^kubefit \d+\.\d+\.\d+/);
});

test('a large file is passed as bytes', () => {
  // 20 000 pods, about 4 MB: big enough that a string detour would show, small enough for CI.
  const pods = [];
  for (let i = 0; i < 20000; i += 1) {
    pods.push(`---\napiVersion: v1\nkind: Pod\nmetadata: {name: p${i}, namespace: load}\nspec:\n  nodeName: worker-1\n  containers:\n  - name: c\n    resources: {requests: {cpu: 1m, memory: 1Mi}}\n`);
  }
  const big = join(dir, 'big.yaml');
  writeFileSync(big, CLUSTER + pods.join(''));
  const { status, stdout, stderr } = cli(['evaluate', big]);
  assert.equal(status, 0, stderr);
  assert.equal(JSON.parse(stdout).pods.length, 20001);
});

test('--at stops the Scenario timeline and shows the cluster there', () => {
  const input = join(ROOT, 'tests', 'scenarios', 'disruption-drain-budget', 'input.yaml');
  const report = (args) => {
    const { status, stdout, stderr } = cli(['evaluate', input, ...args]);
    assert.equal(status, 0, stderr);
    return JSON.parse(stdout);
  };
  const whole = report([]);
  assert.equal(whole.timelineUntil, 3600);
  assert.deepEqual(whole.evictions.map((eviction) => [eviction.pod, eviction.at, eviction.rescheduledTo]), [
    ['default/web-aaaaa', 60, 'node2'],
    ['default/web-bbbbb', 65, 'node2'],
  ]);
  // Before the drains, the tables show the input; at 65s, node1 is cordoned and the web
  // pods' replacements run on node2.
  assert.equal(whole.nodes[0].unschedulable, false);
  const at = report(['--at', '65s']);
  assert.equal(at.timelineUntil, 65);
  assert.equal(at.nodes[0].unschedulable, true);
  assert.equal(at.nodes[1].pods, 3);
  assert.equal(report(['--at=1m']).evictions.length, 1);
  // Without rescheduling, the replacements stay unplaced, so the budget never allows the
  // second eviction.
  const unplaced = report(['--no-reschedule']);
  assert.deepEqual(unplaced.evictions.map((eviction) => eviction.rescheduledTo), [null]);
  const text = cli(['evaluate', input, '-o', 'text']).stdout;
  assert.match(text, /TIMELINE \(until 1h0m0s, 15 events\)/);
  assert.match(text, /1m5s\s+Evicted\s+Pod\/default\/web-bbbbb/);
  const bad = cli(['evaluate', input, '--at', '5x']);
  assert.equal(bad.status, 1);
  assert.equal(JSON.parse(bad.stdout).diagnostics[0].code, 'argument/invalid-duration');
});
