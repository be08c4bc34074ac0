// How the report crosses from wasm to JS: a JSON string parsed with JSON.parse (what the
// package does) against JS objects built call by call by serde-wasm-bindgen's
// json_compatible serializer. Evaluation runs once; only the transfers are timed.
// Run by `./dev bench` (KUBEFIT_BENCH_PKG is a package built with the `transfer-bench`
// feature). Sizes: KUBEFIT_BENCH_NODES, KUBEFIT_BENCH_PODS, KUBEFIT_BENCH_ROUNDS.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cluster } from './cluster.mjs';

const pkg = process.env.KUBEFIT_BENCH_PKG;
if (!pkg) throw new Error('KUBEFIT_BENCH_PKG is not set: run `./dev bench`');
await import(pathToFileURL(join(pkg, 'node.js')).href); // instantiates the module
const raw = await import(pathToFileURL(join(pkg, 'kubefit_wasm.js')).href);

const nodes = Number(process.env.KUBEFIT_BENCH_NODES ?? 500);
const pods = Number(process.env.KUBEFIT_BENCH_PODS ?? 150000);
const rounds = Number(process.env.KUBEFIT_BENCH_ROUNDS ?? 7);
const input = cluster({ nodes, pods, padding: false });
const kept = raw.__benchPrepare(input);
console.log(`report on ${nodes} nodes and ${kept} pods (from ${(input.length / 1e6).toFixed(1)} MB of YAML)`);

function time(run) {
  const start = process.hrtime.bigint();
  const value = run();
  return [value, Number(process.hrtime.bigint() - start) / 1e6];
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const json = [];
const parse = [];
const object = [];
let size = 0;
for (let round = 0; round < rounds; round += 1) {
  const [text, serialised] = time(() => raw.__benchJson());
  const [fromJson, parsed] = time(() => JSON.parse(text));
  json.push(serialised + parsed);
  parse.push(parsed);
  size = text.length;
  const [fromObjects, built] = time(() => raw.__benchObject());
  object.push(built);
  if (round === 0) assert.deepEqual(fromObjects, fromJson, 'both transfers give the same report');
}
console.log(`report JSON: ${(size / 1e6).toFixed(1)} MB; median of ${rounds} rounds:`);
console.log(`  serde_json string + JSON.parse: ${median(json).toFixed(0)} ms (of which JSON.parse ${median(parse).toFixed(0)} ms)`);
console.log(`  serde-wasm-bindgen objects:     ${median(object).toFixed(0)} ms`);
