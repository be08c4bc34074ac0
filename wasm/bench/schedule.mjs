// Placement in wasm: the npm package's `schedule` on the four benchmark clusters of the
// scheduling issue (`kubefit_tests::placement`), in both profiles.
//
//   node wasm/bench/schedule.mjs [CASE-PREFIX...]
//   KUBEFIT_BENCH_PROFILES=openshift-3.11 KUBEFIT_BENCH_ROUNDS=1 node wasm/bench/schedule.mjs
//
// The package is KUBEFIT_BENCH_PKG (set by `./dev bench`), else wasm/pkg (`./dev pkg`).
// The YAML comes from `cargo run --release -p kubefit-tests --example placement -- --dump
// CASE`, written once to target/bench-data/. Each case and profile runs in a fresh Node
// process; the figure is the whole call (read, build, place every pending pod, serialise
// and parse the scheduling section), first call and best of the next two: with the
// default report (100 000 per-node verdicts: the first 20 pods of a 5 000-node cluster
// with every node's verdict) and with decisions only (`maxNodeVerdicts: 0`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
const PKG = process.env.KUBEFIT_BENCH_PKG ?? join(ROOT, 'wasm', 'pkg');
const CASES = [
  'default-5000n-1000b-10000p',
  'hostname-anti-affinity-1000n-1000p',
  'zone-affinity-5000n-5000p',
  'preemption-5000n-5000p',
];
const PROFILES = (process.env.KUBEFIT_BENCH_PROFILES ?? 'kubernetes-1.34,openshift-3.11').split(',');
const ROUNDS = Number(process.env.KUBEFIT_BENCH_ROUNDS ?? 3);

function input(name) {
  const file = join(TARGET, 'bench-data', `${name}.yaml`);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    const run = spawnSync(
      'cargo',
      ['run', '-q', '--release', '-p', 'kubefit-tests', '--example', 'placement', '--', '--dump', name],
      { cwd: ROOT, maxBuffer: 1 << 30 },
    );
    if (run.status !== 0) throw new Error(`generator failed: ${run.stderr}`);
    writeFileSync(file, run.stdout);
  }
  return file;
}

if (process.argv[2] === '--child') {
  const [, , , file, profile, verdicts] = process.argv;
  const schedule = { profile, ...(verdicts === 'default' ? {} : { maxNodeVerdicts: Number(verdicts) }) };
  const kubefit = await import(pathToFileURL(join(PKG, 'node.js')));
  const bytes = readFileSync(file);
  const times = [];
  let outcomes;
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    const result = kubefit.schedule(bytes, { schedule });
    times.push(performance.now() - started);
    outcomes = {};
    for (const pod of result.scheduling.pods) outcomes[pod.outcome] = (outcomes[pod.outcome] ?? 0) + 1;
  }
  const best = times.length > 1 ? Math.min(...times.slice(1)) : Number.NaN;
  process.stdout.write(JSON.stringify({ first: times[0], best, outcomes }));
} else {
  const wanted = process.argv.slice(2);
  console.log(`| case | profile | report | first call | best of ${ROUNDS - 1} more | outcomes |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const name of CASES.filter((c) => wanted.length === 0 || wanted.some((w) => c.startsWith(w)))) {
    const file = input(name);
    for (const profile of PROFILES) {
      for (const verdicts of ['default', '0']) {
        const child = spawnSync(
          process.execPath,
          [fileURLToPath(import.meta.url), '--child', file, profile, verdicts],
          { encoding: 'utf8', maxBuffer: 1 << 26 },
        );
        if (child.status !== 0) throw new Error(child.stderr);
        const { first, best, outcomes } = JSON.parse(child.stdout);
        const ms = (t) => (t === null || Number.isNaN(t) ? '–' : `${Math.round(t)} ms`);
        const report = verdicts === 'default' ? 'default' : 'decisions only';
        console.log(
          `| ${name} | ${profile} | ${report} | ${ms(first)} | ${ms(best)} | ${JSON.stringify(outcomes)} |`,
        );
      }
    }
  }
}
