// The disruption timeline in wasm, excluding input decode: the native benchmark
// (`tests/examples/disruption.rs`) compiled for wasm32-wasip1 and run by Node's WASI.
//
//   node wasm/bench/disruption.mjs [CASE...]
//
// Builds `target/wasm32-wasip1/release/examples/disruption.wasm` when missing (adding the
// `wasm32-wasip1` target first). The program generates the
// 5 000-node, 150 000-pod cluster itself, builds it (not timed), then times each case.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
const WASM = join(TARGET, 'wasm32-wasip1', 'release', 'examples', 'disruption.wasm');

if (!existsSync(WASM)) {
  // Quick when the target is there; `./dev bench` may run on a machine without it.
  spawnSync('rustup', ['target', 'add', 'wasm32-wasip1'], { cwd: ROOT, stdio: 'inherit' });
  const build = spawnSync(
    'cargo',
    ['build', '--release', '-p', 'kubefit-tests', '--example', 'disruption', '--target', 'wasm32-wasip1'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const wasi = new WASI({
  version: 'preview1',
  returnOnExit: true,
  args: ['disruption', ...process.argv.slice(2)],
  env: { KUBEFIT_BENCH_ROUNDS: process.env.KUBEFIT_BENCH_ROUNDS ?? '3' },
});
const module = await WebAssembly.compile(readFileSync(WASM));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
wasi.start(instance);
