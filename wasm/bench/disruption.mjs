// The disruption timeline in wasm, excluding input decode: the native benchmark
// (`tests/examples/disruption.rs`) compiled for wasm32-wasip1 and run by Node's WASI.
//
//   node wasm/bench/disruption.mjs [CASE...]
//
// The program generates the 5 000-node, 150 000-pod cluster itself, builds it (not
// timed), then times each case.
import { runExample } from './lib/wasi.mjs';

await runExample('disruption', process.argv.slice(2));
