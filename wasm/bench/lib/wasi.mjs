// Runs one of the native benchmark programs (`tests/examples/NAME.rs`) compiled for
// wasm32-wasip1 under Node's WASI, so that wasm figures can leave input decode out the
// way the native ones do. Builds `target/wasm32-wasip1/release/examples/NAME.wasm` when
// missing (adding the `wasm32-wasip1` target first).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');

export async function runExample(name, args) {
  const wasm = join(TARGET, 'wasm32-wasip1', 'release', 'examples', `${name}.wasm`);
  if (!existsSync(wasm)) {
    // Quick when the target is there; `./dev bench` may run on a machine without it.
    spawnSync('rustup', ['target', 'add', 'wasm32-wasip1'], { cwd: ROOT, stdio: 'inherit' });
    const build = spawnSync(
      'cargo',
      ['build', '--release', '-p', 'kubefit-tests', '--example', name, '--target', 'wasm32-wasip1'],
      { cwd: ROOT, stdio: 'inherit' },
    );
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const wasi = new WASI({
    version: 'preview1',
    returnOnExit: true,
    args: [name, ...args],
    env: {
      KUBEFIT_BENCH_ROUNDS: process.env.KUBEFIT_BENCH_ROUNDS ?? '3',
      ...(process.env.KUBEFIT_BENCH_VERDICTS ? { KUBEFIT_BENCH_VERDICTS: process.env.KUBEFIT_BENCH_VERDICTS } : {}),
    },
  });
  const module = await WebAssembly.compile(readFileSync(wasm));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  wasi.start(instance);
}
