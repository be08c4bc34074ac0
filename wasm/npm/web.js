// Browser and bundler entry point: `await init()` once, then call `evaluate`.
import initWasm, * as raw from './kubefit_wasm.js';
import { createApi } from './kubefit.js';

let ready = false;

/**
 * Loads the WebAssembly module: by default `kubefit_wasm_bg.wasm` next to this file (bundlers
 * understand the `new URL(..., import.meta.url)` it uses), or the URL, `Response`, bytes or
 * `WebAssembly.Module` given.
 */
export default async function init(input) {
  await initWasm(input === undefined ? undefined : { module_or_path: input });
  ready = true;
}

/** Instantiates the module synchronously from its bytes or a compiled `WebAssembly.Module`. */
export function initSync(module) {
  raw.initSync({ module });
  ready = true;
}

export const { evaluate, evaluateText, schedule, version, __kubefitPanicForTests } = createApi(raw, () => ready);
