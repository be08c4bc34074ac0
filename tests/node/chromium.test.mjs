// The browser entry (`web.js`) of the installed package in headless Chromium: a page
// served on 127.0.0.1 loads it with `await init()`, evaluates, survives a panic, and
// writes what it saw into the DOM, which `--dump-dom` prints.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CLUSTER, project, ROOT } from './helpers.mjs';

const chromium = ['chromium', 'chromium-browser', 'google-chrome']
  .map((name) => spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim())
  .find(Boolean);

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>kubefit browser test</title>
<pre id="out">not run</pre>
<script type="module">
  import init, { evaluate, evaluateText, version, __kubefitPanicForTests } from './kubefit/web.js';
  const out = {};
  try {
    try { evaluate('a: 1'); out.beforeInit = 'no error'; } catch (error) { out.beforeInit = error.message; }
    await init();
    const cluster = ${JSON.stringify(CLUSTER)};
    out.version = version();
    out.first = evaluate(cluster);
    out.wrongType = evaluate(null).report.diagnostics.map((d) => d.code);
    out.surrogate = evaluate('a: "\\uD800"').report.diagnostics.map((d) => d.code);
    out.panic = __kubefitPanicForTests().report.diagnostics.map((d) => d.code);
    out.afterPanic = evaluate(cluster).ok;
    out.text = evaluateText(cluster);
  } catch (error) {
    out.error = String(error);
  }
  document.getElementById('out').textContent = JSON.stringify(out);
</script>
`;

test('the browser entry works in headless Chromium', { skip: !chromium && 'no chromium' }, async () => {
  const site = mkdtempSync(join(tmpdir(), 'kubefit-site-'));
  const profile = mkdtempSync(join(tmpdir(), 'kubefit-chromium-'));
  after(() => {
    rmSync(site, { recursive: true, force: true });
    rmSync(profile, { recursive: true, force: true });
  });
  cpSync(join(project(), 'node_modules', 'kubefit'), join(site, 'kubefit'), { recursive: true });
  writeFileSync(join(site, 'index.html'), PAGE);

  const server = spawn(process.execPath, [join(ROOT, 'tools', 'serve.mjs'), site, '127.0.0.1', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  after(() => server.kill());
  const url = await new Promise((resolve, reject) => {
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (line) => {
      const found = /http:\/\/127\.0\.0\.1:\d+\//.exec(line);
      if (found) resolve(found[0]);
    });
    server.on('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });

  const browser = spawn(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
    `--user-data-dir=${profile}`, '--virtual-time-budget=10000', '--dump-dom', url,
  ], { stdio: ['ignore', 'pipe', 'ignore'] });
  let dom = '';
  browser.stdout.setEncoding('utf8');
  browser.stdout.on('data', (chunk) => { dom += chunk; });
  const code = await new Promise((resolve) => browser.on('exit', resolve));
  assert.equal(code, 0);

  const json = /<pre id="out">(.*)<\/pre>/s.exec(dom)?.[1];
  assert.ok(json && json !== 'not run', `the page did not run:\n${dom.slice(0, 2000)}`);
  const out = JSON.parse(json.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&'));
  assert.equal(out.error, undefined);
  assert.match(out.beforeInit, /`await init\(\)` first/);
  assert.equal(out.first.ok, true);
  assert.equal(out.first.report.nodes[0].name, 'worker-1');
  assert.deepEqual(out.wrongType, ['argument/invalid-type']);
  assert.deepEqual(out.surrogate, ['input/lone-surrogate']);
  assert.deepEqual(out.panic, ['internal/panic']);
  assert.equal(out.afterPanic, true);
  assert.match(out.text, /worker-1/);
});
