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
// Each (size, format, stage) runs in a fresh Node process, because wasm memory only grows:
// the memory's size after the first call is that call's peak. Two stages:
// - decode: only the input stage, text to validated objects (W13), through the bench-only
//   export `__benchDecode` (packages built with the `decode-bench` feature, as `./dev bench`
//   does; skipped otherwise);
// - evaluate: the package's `evaluate`, everything up to the parsed report.
// Figures per run:
// - first: the first call (the instance grows its memory during it);
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
const DEFAULT_MAX_INPUT_BYTES = 1024 * MIB; // kubefit_core::Limits::default().max_input_bytes

if (process.argv[2] === '--child') {
  const [pkg, file, nodes, pods, calls, stage] = process.argv.slice(3);
  child(pkg, file, Number(nodes), Number(pods), Number(calls), stage);
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
      const run = (stage) => {
        const result = spawnSync(
          process.execPath,
          [fileURLToPath(import.meta.url), '--child', pkg, file, size.nodes, size.pods, size.calls, stage],
          { stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 20 },
        );
        if (result.status !== 0) throw new Error(`the ${name} ${format} ${stage} run failed (exit ${result.status})`);
        return JSON.parse(result.stdout.toString());
      };
      const decode = run('decode');
      const evaluate = run('evaluate');
      const rate = (ms) => `${(evaluate.bytes / MIB / (ms / 1000)).toFixed(1)} MiB/s (${Math.round(size.pods / (ms / 1000))} pods/s, ${(ms / 1000).toFixed(3)} s)`;
      const memory = (run) => `${(run.memory / MIB).toFixed(0)} MiB = ${(run.memory / run.bytes).toFixed(2)}x input`;
      console.log(`\n${name} ${size.nodes} nodes / ${size.pods} pods, ${format}: ${(evaluate.bytes / MIB).toFixed(1)} MiB${evaluate.raisedLimit ? '; maxInputBytes raised (input > 1 GiB)' : ''}`);
      if (decode.skipped) {
        console.log('  decode: skipped (the package has no `__benchDecode`: build it with the decode-bench feature)');
      } else {
        console.log(`  decode, first call:            ${rate(decode.first)}`);
        if (decode.best !== null) console.log(`  decode, best of ${size.calls - 1}:            ${rate(decode.best)}`);
        console.log(`  wasm memory after decoding:    ${memory(decode)}`);
      }
      console.log(`  evaluate, first call:          ${rate(evaluate.first)}`);
      if (evaluate.best !== null) console.log(`  evaluate, best of ${size.calls - 1}:          ${rate(evaluate.best)}`);
      console.log(`  raw export (no JSON.parse):    ${rate(evaluate.raw)}`);
      console.log(`  wasm memory after evaluate:    ${memory(evaluate)}`);
      console.log(`  report: ${(evaluate.report / MIB).toFixed(1)} MiB of JSON; process peak RSS ${(evaluate.maxRss / MIB).toFixed(0)} MiB`);
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

async function child(pkg, file, nodes, pods, calls, stage) {
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
  const checkDecoded = ([objects, diagnostics]) => {
    if (objects !== nodes + pods || diagnostics !== 0) {
      throw new Error(`unexpected decoding: ${objects} objects, ${diagnostics} diagnostics`);
    }
  };
  const [call, verify] = stage === 'decode'
    ? [() => raw.__benchDecode(bytes, options), checkDecoded]
    : [() => api.evaluate(bytes, options), check];
  if (stage === 'decode' && typeof raw.__benchDecode !== 'function') {
    process.stdout.write(JSON.stringify({ skipped: true }));
    return;
  }

  const [result, first] = time(call);
  const memory = wasm.memory.buffer.byteLength;
  verify(result);
  let best = null;
  for (let n = 1; n < calls; n += 1) {
    const [again, ms] = time(call);
    verify(again);
    best = best === null ? ms : Math.min(best, ms);
  }
  let rawMs = null;
  let report = null;
  if (stage === 'evaluate') {
    const [[ok, , payload], ms] = time(() => raw.evaluate(bytes, options));
    if (!ok) throw new Error('the raw export failed');
    rawMs = ms;
    report = payload.length;
  }
  process.stdout.write(JSON.stringify({
    bytes: bytes.length,
    first,
    best,
    raw: rawMs,
    memory,
    report,
    maxRss: process.resourceUsage().maxRSS * 1024,
    raisedLimit,
  }));
}
