// W13 in wasm: the npm package's `evaluate` on kubectl-shaped JSON and YAML given as bytes
// (a Uint8Array), with throughput (MiB/s, pods/s) and peak wasm memory.
//
//   node wasm/bench/decode.mjs            both sizes: S (500 nodes / 15 000 pods, best of 5)
//                                         and M (5 000 / 150 000, one call per process)
//   node wasm/bench/decode.mjs S|M        one size
//
// The package is KUBEFIT_BENCH_PKG (set by `./dev bench`), else wasm/pkg (`./dev pkg`).
// Inputs come from the Rust generator (`kubefit_tests::generate`, the same bytes as the
// native benchmarks), written once to target/bench-data/ by
// `cargo run --release -p kubefit-tests --example generate -- NODES PODS json|yaml`.
//
// Each (size, format) runs in a fresh Node process, because wasm memory only grows: the
// memory's size after the first call is that call's peak. Figures per run:
// - first: the first `evaluate` (the instance grows its memory during it);
// - best: the best of the following calls (memory already grown);
// - raw: the raw wasm-bindgen export, which returns the report as a JSON string: `evaluate`
//   without its `JSON.parse`;
// - memory: `WebAssembly.Memory` size after the first call, and its ratio to the input.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const MIB = 1024 * 1024;
const SIZES = {
  S: { nodes: 500, pods: 15_000, calls: 6 },
  M: { nodes: 5_000, pods: 150_000, calls: 2 },
};
const DEFAULT_MAX_INPUT_BYTES = 512 * MIB;

if (process.argv[2] === '--child') {
  child(process.argv[3], process.argv[4], Number(process.argv[5]), Number(process.argv[6]), Number(process.argv[7]));
} else {
  parent(process.argv.slice(2));
}

function parent(args) {
  const pkg = resolve(process.env.KUBEFIT_BENCH_PKG ?? join(ROOT, 'wasm', 'pkg'));
  if (!existsSync(join(pkg, 'node.js'))) {
    throw new Error(`no npm package in ${pkg}: run \`./dev pkg\` (or \`./dev bench\`) first`);
  }
  const sizes = args.length ? args : Object.keys(SIZES);
  console.log(`kubefit ${JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')).version} (${pkg}), Node ${process.version}, V8 ${process.versions.v8}`);
  for (const name of sizes) {
    const size = SIZES[name];
    if (!size) throw new Error(`unknown size \`${name}\`: S or M`);
    for (const format of ['json', 'yaml']) {
      const file = input(size, format);
      const result = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', pkg, file, size.nodes, size.pods, size.calls],
        { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
      );
      if (result.status !== 0) throw new Error(`the ${name} ${format} run failed (exit ${result.status})`);
      const run = JSON.parse(result.stdout.toString());
      const rate = (ms) => `${(run.bytes / MIB / (ms / 1000)).toFixed(1)} MiB/s (${Math.round(size.pods / (ms / 1000))} pods/s, ${(ms / 1000).toFixed(3)} s)`;
      console.log(`\n${name} ${size.nodes} nodes / ${size.pods} pods, ${format}: ${(run.bytes / MIB).toFixed(1)} MiB`);
      console.log(`  evaluate, first call:          ${rate(run.first)}`);
      if (run.best !== null) console.log(`  evaluate, best of ${size.calls - 1}:          ${rate(run.best)}`);
      console.log(`  raw export (no JSON.parse):    ${rate(run.raw)}`);
      console.log(`  wasm memory after first call:  ${(run.memory / MIB).toFixed(0)} MiB = ${(run.memory / run.bytes).toFixed(2)}x input`);
      console.log(`  report: ${(run.report / MIB).toFixed(1)} MiB of JSON; process peak RSS ${(run.maxRss / MIB).toFixed(0)} MiB${run.raisedLimit ? '; maxInputBytes raised (input > 512 MiB)' : ''}`);
    }
  }
}

/** The generated input file, made once. */
function input({ nodes, pods }, format) {
  const dir = join(process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target'), 'bench-data');
  const file = join(dir, `cluster-${nodes}x${pods}.${format}`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  console.error(`generating ${file}`);
  const out = openSync(`${file}.tmp`, 'w');
  const result = spawnSync(
    'cargo',
    ['run', '--quiet', '--release', '-p', 'kubefit-tests', '--example', 'generate', '--', String(nodes), String(pods), format],
    { cwd: ROOT, stdio: ['ignore', out, 'inherit'] },
  );
  closeSync(out);
  if (result.status !== 0) throw new Error(`the generator failed (exit ${result.status})`);
  renameSync(`${file}.tmp`, file);
  return file;
}

async function child(pkg, file, nodes, pods, calls) {
  const api = await import(pathToFileURL(join(pkg, 'node.js')).href); // instantiates the module
  const raw = await import(pathToFileURL(join(pkg, 'kubefit_wasm.js')).href);
  // wasm-bindgen's initSync hands back the instance already made by node.js.
  const wasm = raw.initSync({ module: readFileSync(join(pkg, 'kubefit_wasm_bg.wasm')) });
  const bytes = new Uint8Array(readFileSync(file));
  const raisedLimit = bytes.length > DEFAULT_MAX_INPUT_BYTES;
  const options = raisedLimit ? { limits: { maxInputBytes: 2 ** 32 - 1 } } : undefined;

  const time = (run) => {
    const start = process.hrtime.bigint();
    const value = run();
    return [value, Number(process.hrtime.bigint() - start) / 1e6];
  };
  const check = (result) => {
    if (!result.ok || result.report.diagnostics.length > 0 || result.report.nodes.length !== nodes || result.report.pods.length !== pods) {
      const first = result.report?.diagnostics?.[0];
      throw new Error(`unexpected report: ok ${result.ok}, ${result.report?.nodes?.length} nodes, ${result.report?.pods?.length} pods, ${JSON.stringify(first)}`);
    }
  };

  const [result, first] = time(() => api.evaluate(bytes, options));
  const memory = wasm.memory.buffer.byteLength;
  check(result);
  let best = null;
  for (let call = 1; call < calls; call += 1) {
    const [again, ms] = time(() => api.evaluate(bytes, options));
    check(again);
    best = best === null ? ms : Math.min(best, ms);
  }
  const [[ok, , payload], rawMs] = time(() => raw.evaluate(bytes, options));
  if (!ok) throw new Error('the raw export failed');
  process.stdout.write(JSON.stringify({
    bytes: bytes.length,
    first,
    best,
    raw: rawMs,
    memory,
    report: payload.length,
    maxRss: process.resourceUsage().maxRSS * 1024,
    raisedLimit,
  }));
}
