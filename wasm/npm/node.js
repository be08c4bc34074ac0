// Node entry point (ESM; CommonJS gets it through `node.cjs`). The module is compiled
// synchronously at import, so `evaluate` works right away; `init` exists so that code
// written for browsers (`await init()`) runs unchanged.
import { readFileSync } from 'node:fs';
import * as raw from './kubefit_wasm.js';
import { createApi } from './kubefit.js';

raw.initSync({ module: readFileSync(new URL('./kubefit_wasm_bg.wasm', import.meta.url)) });

/** Already initialised in Node: resolves at once. */
export default async function init() {}

/** Already initialised in Node: does nothing. */
export function initSync() {}

export const { evaluate, evaluateText, schedule, version, __kubefitPanicForTests } = createApi(raw, () => true);
