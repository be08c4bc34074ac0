// The scenario fixtures (tests/scenarios/*/) through the installed package: the same
// subset matching as the native runner (tests/src/lib.rs).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { importEsm, ROOT } from './helpers.mjs';

const { evaluate } = await importEsm();
const root = join(ROOT, 'tests', 'scenarios');

/** Where `actual` does not contain `expected`, as `path: expected X, got Y`. */
function subset(path, expected, actual, differences) {
  if (isObject(expected) && isObject(actual)) {
    for (const [key, value] of Object.entries(expected)) {
      if (key in actual) subset(`${path}.${key}`, value, actual[key], differences);
      else differences.push(`${path}.${key}: missing, expected ${JSON.stringify(value)}`);
    }
  } else if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) {
      differences.push(`${path}: expected ${expected.length} elements, got ${actual.length}: ${JSON.stringify(actual)}`);
      return;
    }
    expected.forEach((value, index) => subset(`${path}[${index}]`, value, actual[index], differences));
  } else if (!isDeepStrictEqual(expected, actual)) {
    differences.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function isObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isDeepStrictEqual(a, b) {
  try {
    assert.deepStrictEqual(a, b);
    return true;
  } catch {
    return false;
  }
}

const scenarios = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(root, entry.name, 'expected.json')))
  .map((entry) => entry.name)
  .sort();

test('there are scenarios', () => assert.ok(scenarios.length > 0));

for (const name of scenarios) {
  test(name, () => {
    const dir = join(root, name);
    const file = ['input.yaml', 'input.json', 'input.bin'].find((candidate) => existsSync(join(dir, candidate)));
    assert.ok(file, 'the scenario has an input');
    const { report } = evaluate([{ name: file, text: readFileSync(join(dir, file)) }]);
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8'));
    const differences = [];
    subset('$', expected, report, differences);
    assert.deepEqual(differences, []);
  });
}
