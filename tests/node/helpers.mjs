// Shared by the Node tests: the packed tarball installed into a throwaway project, loaded
// the way users load it (bare `kubefit` specifier, ESM and CommonJS), and the CLI.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let installed;

/** The project with the package installed: `./dev test` makes one; otherwise make one here. */
export function project() {
  if (installed) return installed;
  if (process.env.KUBEFIT_TEST_PROJECT) return (installed = process.env.KUBEFIT_TEST_PROJECT);
  const tarball = resolve(process.env.KUBEFIT_TARBALL ?? newestTarball());
  const dir = mkdtempSync(join(tmpdir(), 'kubefit-node-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'package.json'), '{"name": "kubefit-node-tests", "private": true}\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
    cwd: dir,
    stdio: 'inherit',
  });
  return (installed = dir);
}

function newestTarball() {
  const dir = join(ROOT, 'target', 'npm');
  const found = readdirSync(dir)
    .filter((name) => /^kubefit-.*\.tgz$/.test(name))
    .map((name) => join(dir, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found.length) throw new Error('no target/npm/kubefit-*.tgz: run `./dev pkg` first');
  return found[0];
}

/** `import * as kubefit from 'kubefit'`, resolved from the project. */
export async function importEsm() {
  const file = join(project(), `esm-entry-${process.pid}.mjs`);
  writeFileSync(file, "export * from 'kubefit';\nexport { default } from 'kubefit';\n");
  return import(pathToFileURL(file).href);
}

/** `require('kubefit')`, resolved from the project. */
export function requireCjs(specifier = 'kubefit') {
  return createRequire(join(project(), 'package.json'))(specifier);
}

/** Runs the installed `kubefit` bin. */
export function cli(args, { input, maxBuffer = 1 << 30 } = {}) {
  const result = spawnSync(join(project(), 'node_modules', '.bin', 'kubefit'), args, {
    cwd: project(),
    input,
    maxBuffer,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return result;
}

/** A small valid cluster: one node, one pod bound to it. */
export const CLUSTER = `apiVersion: v1
kind: Node
metadata: {name: worker-1}
status:
  allocatable: {cpu: '4', memory: 16Gi, pods: '110'}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: shop}
spec:
  nodeName: worker-1
  containers:
  - name: web
    resources: {requests: {cpu: 500m, memory: 1Gi}}
`;

/** CLUSTER plus a pending pod that fits nowhere: it asks for 8 CPUs of a 4-CPU node. */
export const PENDING_CLUSTER = `${CLUSTER}---
apiVersion: v1
kind: Pod
metadata: {name: big, namespace: shop}
spec:
  containers:
  - name: big
    resources: {requests: {cpu: '8'}}
`;

/** YAML with a syntax error on line 3. */
export const BAD_YAML = 'apiVersion: v1\nkind: Node\nmetadata: {name: [oops\n';

export function codes(report) {
  return report.diagnostics.map((diagnostic) => diagnostic.code);
}
