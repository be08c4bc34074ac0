// Placement in wasm without input decode or the report's trip to JavaScript: the native
// benchmark (`tests/examples/placement.rs`) compiled for wasm32-wasip1 and run by Node's
// WASI, timing `schedule::run` alone (`schedule.mjs` times the package's whole call).
//
//   node wasm/bench/placement.mjs [CASE-PREFIX...] [openshift-3.11]
//   KUBEFIT_BENCH_VERDICTS=0 node wasm/bench/placement.mjs   # decisions only
import { runExample } from './lib/wasi.mjs';

await runExample('placement', process.argv.slice(2));
