// The package's TypeScript declarations, checked with tsc against a consumer file in the
// throwaway project: right uses compile, wrong ones are rejected (`@ts-expect-error`).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { project, ROOT } from './helpers.mjs';

test('the declarations type evaluate precisely', () => {
  const dir = join(project(), `types-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  for (const file of ['check.ts', 'check.cts', 'tsconfig.json']) {
    copyFileSync(join(ROOT, 'tests', 'node', 'types', file), join(dir, file));
  }
  // The project's package.json has no "type": these files are ESM (.ts with an import in a
  // "module" scope) only if the folder says so.
  writeFileSync(join(dir, 'package.json'), '{"type": "module"}\n');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const { status, stdout, stderr } = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
  assert.equal(status, 0, `${stdout}${stderr}`);
});
