// End-to-end tests of the playground: the built site (www/dist, or KUBEFIT_SITE) served on
// 127.0.0.1 by tools/serve.mjs and driven in the Debian Chromium by playwright-core.
// `./dev test` runs them as the e2e layer, after building the site and a ~50 MB dump.
//
// Every step saves a screenshot under target/screenshots/ for a person to look at, and the
// measured figures (first evaluation, large dump) go to target/screenshots/measurements.json;
// they are recorded, never asserted. The tests wait for states of the page, never for time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, deflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SITE = resolve(process.env.KUBEFIT_SITE ?? join(ROOT, 'www/dist'));
const TARGET = process.env.CARGO_TARGET_DIR ?? join(ROOT, 'target');
const SHOTS = join(TARGET, 'screenshots');
const DUMP = process.env.KUBEFIT_E2E_DUMP;
const measurements = {};

let server;
let base;
let browser;

before(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = spawn(process.execPath, [join(ROOT, 'tools/serve.mjs'), SITE, '127.0.0.1', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  base = await new Promise((resolveUrl, reject) => {
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) resolveUrl(match[0]);
    });
    server.on('exit', (code) => reject(new Error(`the server stopped (${code}): ${output}`)));
  });
  // playwright-core starts Chromium with a fresh temporary profile of its own.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
  writeFileSync(join(SHOTS, 'measurements.json'), `${JSON.stringify(measurements, null, 2)}\n`);
  console.log('measurements:', JSON.stringify(measurements));
});

/** A fresh browser context (its own storage), with the clipboard allowed. */
async function context(options = {}) {
  const ctx = await browser.newContext({
    viewport: { width: 1440, height: 900 },
    acceptDownloads: true,
    ...options,
  });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  return ctx;
}

/**
 * Opens the playground and waits until it has loaded (the first evaluation is shown and
 * the network is idle: the module, the stylesheet and the worker's scripts are in). From
 * then on every request the page or its worker makes is recorded in `page.late`.
 */
async function open(ctx, fragment = '') {
  const page = await ctx.newPage();
  page.errors = [];
  page.on('pageerror', (error) => page.errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(message.text());
  });
  await page.goto(`${base}${fragment}`);
  await page.waitForFunction(() => performance.getEntriesByName('kubefit:evaluated').length > 0);
  await page.waitForLoadState('networkidle');
  page.late = [];
  page.on('request', (request) => {
    if (/^https?:/.test(request.url())) page.late.push(request.url());
  });
  return page;
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

const editor = (page) => page.locator('textarea#source');
const nodeNames = (page) => page.locator('table.nodes tbody .node-name').allTextContents();
const status = (page) => page.locator('footer .status');

/** A v1 share link, written here with Node's zlib: an encoder independent of the app's. */
function link(state) {
  const payload = deflateRawSync(Buffer.from(JSON.stringify(state))).toString('base64url');
  return `#v1.${payload}`;
}

test('the example is evaluated when the page opens, and the version is shown', async () => {
  const ctx = await context();
  const page = await open(ctx);
  measurements.firstEvaluationMs = Math.round(
    await page.evaluate(() => performance.getEntriesByName('kubefit:evaluated')[0].startTime),
  );
  assert.deepEqual(await nodeNames(page), ['worker-1', 'worker-2', 'gpu-1']);
  assert.match(await page.locator('.brand .badge').textContent(), /^v\d+\.\d+\.\d+/);
  assert.equal(await page.locator('.tab.selected [role=tab]').textContent(), 'mixed-cluster.yaml');
  assert.match(await page.locator('.problems h2').textContent(), /No problems/);
  await shot(page, '01-example');

  // The page may not fetch anything any more: the module narrowed the policy.
  const fetched = await page.evaluate(() =>
    fetch('./index.html').then(() => 'fetched', (error) => `blocked: ${error}`));
  assert.match(fetched, /^blocked/);
  assert.deepEqual(page.late.filter((url) => !url.endsWith('/index.html')), []);
  assert.deepEqual(page.errors.filter((e) => !/Content Security Policy|index\.html/.test(e)), []);
  await ctx.close();
});

test('editing the text changes the tables', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await editor(page).fill(
    'kind: Node\nmetadata: {name: alpha}\nstatus: {allocatable: {cpu: "2", memory: 4Gi, pods: "10"}}\n',
  );
  await page.waitForFunction(() =>
    [...document.querySelectorAll('table.nodes tbody .node-name')].map((e) => e.textContent).join() === 'alpha');
  // Real typing at the end of the text.
  await editor(page).press('Control+End');
  await page.keyboard.type('---\nkind: Node\nmetadata: {name: beta}\n');
  await page.waitForFunction(() =>
    [...document.querySelectorAll('table.nodes tbody .node-name')].map((e) => e.textContent).join() === 'alpha,beta');
  assert.match(await page.locator('.summary').textContent(), /Nodes2/);
  await shot(page, '02-edited');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('invalid YAML gets an inline diagnostic at its line, and clicking it moves the cursor', async () => {
  const ctx = await context();
  const page = await open(ctx);
  const text = [
    'kind: Node',
    'metadata: {name: n1}',
    'status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}',
    '---',
    'kind: Pod',
    'metadata: {name: broken, namespace: shop}',
    'spec:',
    '  containers:',
    '  - name: app',
    '    resources: {requests: {cpu: lots}}',
    '',
  ].join('\n');
  await editor(page).fill(text);
  const marker = page.locator('.gutter .marker.error');
  await marker.waitFor();
  assert.equal(await marker.textContent(), '10');
  assert.equal(await page.locator('.underlay mark.error').textContent(), 'lots');
  // The underline sits on line 10 of the text area.
  const area = await editor(page).boundingBox();
  const mark = await page.locator('.underlay mark.error').boundingBox();
  const lineHeight = await editor(page).evaluate((e) => parseFloat(getComputedStyle(e).lineHeight));
  const paddingTop = await editor(page).evaluate((e) => parseFloat(getComputedStyle(e).paddingTop));
  assert.ok(Math.abs(mark.y - (area.y + paddingTop + 9 * lineHeight)) < 3, `${mark.y} vs ${area.y}`);
  assert.match(await page.locator('.problems .left-out').textContent(), /Pod\/shop\/broken/);
  const problem = page.locator('.problem.error .problem-button');
  assert.match(await problem.textContent(), /mixed-cluster\.yaml:10:/);
  await shot(page, '03-diagnostic');

  await editor(page).evaluate((e) => e.setSelectionRange(0, 0));
  await problem.click();
  const caret = await page.evaluate(() => ({
    focused: document.activeElement?.id,
    start: document.activeElement?.selectionStart,
  }));
  assert.deepEqual(caret, { focused: 'source', start: text.indexOf('lots') });
  await shot(page, '04-diagnostic-clicked');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('the gallery loads the documented examples', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.getByRole('button', { name: 'Examples' }).click();
  const dialog = page.locator('dialog.gallery');
  await dialog.waitFor();
  await shot(page, '05-gallery');
  await dialog.getByRole('button', { name: /^Taints and tolerations: three taints/ }).click();
  await page.waitForFunction(() => document.querySelector('.tab.selected [role=tab]')?.textContent === 'taints-three.yaml');
  assert.equal(await dialog.isVisible(), false);
  assert.deepEqual(
    await page.locator('table.nodes tbody .taint').allTextContents(),
    ['key1=value1:NoSchedule', 'key1=value1:NoExecute', 'key2=value2:NoSchedule'],
  );
  await shot(page, '06-taints-example');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('the pods table filters by namespace and text, and tables sort', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.getByRole('tab', { name: /^Nodes/ }).click();
  await page.locator('table.nodes thead button', { hasText: 'CPU' }).click();
  await page.locator('table.nodes thead button', { hasText: 'CPU' }).click();
  assert.equal(await page.locator('table.nodes th[aria-sort=descending]').textContent(), 'CPU↓');
  assert.deepEqual(await nodeNames(page), ['gpu-1', 'worker-1', 'worker-2']);

  await page.getByRole('tab', { name: /^Pods/ }).click();
  const rows = page.locator('table.pods tbody tr');
  assert.equal(await rows.count(), 7);
  await page.locator('#pod-namespace').selectOption('ml');
  await page.waitForFunction(() => document.querySelectorAll('table.pods tbody tr').length === 2);
  await page.locator('#pod-filter').fill('train');
  await page.waitForFunction(() => document.querySelectorAll('table.pods tbody tr').length === 1);
  assert.match(await rows.first().textContent(), /ml\/trainer/);
  await page.locator('#pod-filter').fill('');
  await page.locator('#pod-namespace').selectOption('');
  await shot(page, '07-pods');
  // Arrow keys move between the panel tabs.
  await page.getByRole('tab', { name: /^Pods/ }).focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-placement');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-disruption');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.activeElement?.id === 'tab-report');
  assert.match(await page.locator('.report-text').textContent(), /NODES \(3\)/);
  await shot(page, '08-report-text');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('a copied link opens the same state in a fresh browser', async () => {
  const ctx = await context();
  const page = await open(ctx);
  const text = `${readFileSync(join(ROOT, 'web/examples/01-mixed-cluster.yaml'), 'utf8')}# shared ✓ 🚀\n`;
  await editor(page).fill(text);
  await page.getByRole('tab', { name: /^Pods/ }).click();
  await page.locator('#pod-namespace').selectOption('shop');
  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.locator('.toast', { hasText: 'Link copied' }).waitFor();
  const url = await page.evaluate(() => navigator.clipboard.readText());
  assert.ok(url.startsWith(`${base}#v1.`), url);
  await shot(page, '09-link-copied');

  const other = await context();
  const shared = await open(other, url.slice(base.length));
  assert.equal(await editor(shared).inputValue(), text);
  assert.equal(await shared.locator('[role=tab][aria-selected=true]#tab-pods').count(), 1);
  assert.equal(await shared.locator('#pod-namespace').inputValue(), 'shop');
  assert.equal(new URL(shared.url()).hash, '', 'the link is taken out of the address');
  await shot(shared, '10-link-opened');

  // The state also survives a reload, through the saved session.
  await editor(shared).fill(`${text}# edited after opening\n`);
  // Wait until the saved session holds the edit (it is saved shortly after a change).
  // (Polled from here: waitForFunction does not wait for an async predicate.)
  while (!(await shared.evaluate(async () => {
    const saved = JSON.parse(localStorage.getItem('kubefit.playground') ?? 'null');
    if (!saved) return false;
    const bytes = Uint8Array.from(atob(saved.slice(3).replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
    const json = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
    return json.includes('# edited after opening');
  })));
  await shared.reload();
  await shared.waitForFunction(() => performance.getEntriesByName('kubefit:evaluated').length > 0);
  assert.equal(await editor(shared).inputValue(), `${text}# edited after opening\n`);
  assert.deepEqual(page.late, []);
  await ctx.close();
  await other.close();
});

test('a hostile link runs nothing and inserts no markup', async () => {
  const attack = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
  const yaml = [
    'kind: Node',
    `metadata: {name: n1, labels: {a: '${attack}'}}`,
    `spec: {taints: [{key: k, value: 'javascript:window.__pwned=3', effect: NoSchedule}]}`,
    '---',
    'kind: Pod',
    `metadata: {name: p, namespace: '${attack}'}`,
    'spec: {containers: [{name: c, image: "javascript:alert(1)"}]}',
    '---',
    `kind: '${attack}'`,
    '',
  ].join('\n');
  const fragment = link({
    documents: [{ name: `${attack}.yaml`, text: yaml }, { name: 'javascript:alert(1)', text: '' }],
    panel: 'pods',
  });
  const ctx = await context();
  await ctx.addInitScript(() => { window.__pwned = 0; });
  const dialogs = [];
  ctx.on('page', (p) => p.on('dialog', (dialog) => { dialogs.push(dialog.message()); dialog.dismiss(); }));
  const page = await open(ctx, fragment);
  // Most of it is invalid, so it shows up in the problem list and as left-out objects.
  await page.locator('#panel-pods').waitFor();
  await page.locator('.problem.error').first().waitFor();
  const found = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.querySelectorAll('script').length,
    images: document.querySelectorAll('img').length,
    links: document.querySelectorAll('a[href]').length,
    frames: document.querySelectorAll('iframe, object, embed').length,
    text: document.body.innerText,
  }));
  assert.equal(found.pwned, 0);
  assert.equal(found.scripts, 1, 'only the loader');
  assert.equal(found.images, 0);
  assert.equal(found.links, 0);
  assert.equal(found.frames, 0);
  assert.deepEqual(dialogs, []);
  assert.ok(found.text.includes('<script>window.__pwned = 1</script>'), 'shown as text');
  assert.ok(found.text.includes('javascript:alert(1)'), 'shown as text');
  await shot(page, '11-hostile-link');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('files open by drag and drop, and the report downloads as JSON and text', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['kind: Node\nmetadata: {name: dropped}\n'], 'dropped.yaml'));
    const app = document.querySelector('.app');
    app.dispatchEvent(new DragEvent('dragover', { dataTransfer: data, bubbles: true, cancelable: true }));
    app.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => document.querySelector('.tab.selected [role=tab]')?.textContent === 'dropped.yaml');
  assert.deepEqual(await nodeNames(page), ['dropped'], 'it replaced the untouched example');

  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Report JSON' }).click(),
  ]);
  assert.equal(json.suggestedFilename(), 'kubefit-report.json');
  const report = JSON.parse(readFileSync(await json.path(), 'utf8'));
  assert.equal(report.nodes[0].name, 'dropped');
  const [text] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Report text' }).click(),
  ]);
  assert.equal(text.suggestedFilename(), 'kubefit-report.txt');
  assert.match(readFileSync(await text.path(), 'utf8'), /NODES \(1\)/);
  await shot(page, '12-dropped-file');
  assert.deepEqual(page.late, []);
  await ctx.close();
});

test('every control is reachable by keyboard, with a visible focus', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.keyboard.press('Tab');
  const first = await page.evaluate(() => ({
    text: document.activeElement.textContent,
    outline: getComputedStyle(document.activeElement).outlineStyle,
  }));
  assert.deepEqual(first, { text: 'Examples', outline: 'solid' });
  const reached = new Set();
  for (let i = 0; i < 40; i++) {
    reached.add(await page.evaluate(() => document.activeElement.id || document.activeElement.textContent));
    await page.keyboard.press('Tab');
  }
  for (const control of ['Examples', 'Open files…', 'Copy link', 'Report JSON', 'Report text', 'source', 'tab-nodes']) {
    assert.ok(reached.has(control), `${control} in ${[...reached].join(' | ')}`);
  }
  await ctx.close();
});

test('the layout works in dark mode and in a narrow window', async () => {
  const dark = await context({ colorScheme: 'dark' });
  const page = await open(dark);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(background, 'rgb(246, 247, 249)', 'the dark palette applies');
  await shot(page, '13-dark');
  await dark.close();

  const narrow = await context({ viewport: { width: 420, height: 900 } });
  const small = await open(narrow);
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no sideways scrolling: ${overflow}px`);
  await small.screenshot({ path: join(SHOTS, '14-narrow.png'), fullPage: true });
  await narrow.close();
});

test('the placement panel explains a preemption, and a failing cell shows its cause in the input', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.locator('dialog.gallery').getByRole('button', { name: /priority and preemption/ }).click();
  await page.waitForFunction(() => document.querySelector('.tab.selected [role=tab]')?.textContent === 'priority-preemption.yaml');
  await page.getByRole('tab', { name: /^Placement/ }).click();
  const message = '0/1 nodes are available: 1 Insufficient cpu.';
  assert.equal(await page.locator('#placement-message').textContent(), message);
  assert.match(await page.locator('table.pending tr.selected').textContent(), /default\/nginx1000000nominatednode1/);
  assert.deepEqual(await page.locator('.placement .notes li').allTextContents(), [
    'Preemption evicts default/batch-1 (priority 100, grace period 30 s, against its PodDisruptionBudget)',
    'Violated PodDisruptionBudgets: default/batch',
  ]);
  // One failing cell: NodeResourcesFit on node1, with its reason.
  const failing = page.locator('table.matrix td.fail button');
  assert.equal(await failing.count(), 1);
  assert.equal(await failing.getAttribute('title'), 'Insufficient cpu');
  assert.match(await failing.getAttribute('aria-label'), /^NodeResourcesFit fails on node1: Insufficient cpu/);
  assert.equal(await page.locator('table.matrix td.pass').count(), 11);

  await page.getByRole('button', { name: 'Copy the message' }).click();
  await page.locator('.toast', { hasText: 'Message copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), message);

  // By keyboard: from the node filter, past node1's name, to the failing cell.
  await page.locator('#placement-filter').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('title')), 'Insufficient cpu');
  await shot(page, '17-placement');
  // Enter selects the field of node1 the reason is about, in the editor.
  await page.keyboard.press('Enter');
  const selected = await page.evaluate(() => {
    const area = document.activeElement;
    return { id: area.id, text: area.value.slice(area.selectionStart, area.selectionEnd), before: area.value.slice(0, area.selectionStart) };
  });
  assert.equal(selected.id, 'source');
  assert.equal(selected.text, 'allocatable');
  assert.match(selected.before, /name: node1\n[^]*status:\n  $/);
  await shot(page, '18-placement-cause');
  assert.deepEqual(page.late, []);
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

test('the disruption panel plays a Scenario, and a what-if button adds a step to it', async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.locator('dialog.gallery').getByRole('button', { name: /tolerationSeconds/ }).click();
  await page.waitForFunction(() => document.querySelector('.tab.selected [role=tab]')?.textContent === 'toleration-seconds.yaml');
  await page.getByRole('tab', { name: /^Disruption/ }).click();
  const head = page.locator('.scenario-head');
  assert.equal(await head.textContent(), 'The Scenario in toleration-seconds.yaml, played to 2h0m0s: 11 events, 2 evictions.');
  // One lane per node on one axis; every event is a mark and a line in words.
  assert.deepEqual(await page.locator('.timeline .lane h4').allTextContents(), ['Nodenode1', 'Nodenode2', 'Nodenode3']);
  assert.deepEqual(await page.locator('.axis text').allTextContents(), ['0s', '30m0s', '1h0m0s', '1h30m0s', '2h0m0s']);
  assert.equal(await page.locator('.track line:not(.grid)').count(), 11);
  assert.equal(await page.locator('.timeline .events li').count(), 11);
  const evictions = page.locator('table.evictions tbody tr');
  assert.equal(await evictions.count(), 2);
  // Each evicted pod's node before, and where its replacement is after.
  const cells = (row) => evictions.nth(row).locator('th, td').allTextContents();
  assert.deepEqual(await cells(0), [
    'default/web-abcde', '0s', 'taint', 'node1', 'node3as web-5p8q2', 'Marking for deletion Pod default/web-abcde',
  ]);
  assert.deepEqual(await cells(1), [
    'default/patient', '1h0m0s', 'taint', 'node1', 'not replaced', 'Marking for deletion Pod default/patient',
  ]);
  await shot(page, '19-disruption');

  // What if node3 were drained too? The replacement has nowhere to go until node2's
  // taint is removed at 10m.
  await page.getByRole('tab', { name: /^Nodes/ }).click();
  await page.getByRole('button', { name: 'drain: add {at: 0s, drain: node3} to the Scenario' }).click();
  await page.waitForFunction(() => document.querySelector('#tab-disruption')?.getAttribute('aria-selected') === 'true');
  const selected = await page.evaluate(() => {
    const area = document.activeElement;
    return { id: area.id, step: area.value.slice(area.selectionStart, area.selectionEnd) };
  });
  assert.deepEqual(selected, { id: 'source', step: '{at: 0s, drain: node3}' });
  assert.match(
    await editor(page).inputValue(),
    /\n {4}- \{at: 10m, untaint: \{node: node2, key: key1, effect: NoExecute\}\}\n {4}- \{at: 0s, drain: node3\}\n$/,
  );
  await page.locator('.lane[aria-label="Node/node3"] li', { hasText: 'node/node3 drained' }).waitFor();
  assert.equal(await head.textContent(), 'The Scenario in toleration-seconds.yaml, played to 2h0m0s: 16 events, 2 evictions.');
  assert.equal((await cells(0))[4], 'node2as web-5p8q2');
  assert.match(await page.locator('.lane[aria-label="Node/node2"] .events').textContent(), /pod-pending.*0\/3 nodes are available/);
  await shot(page, '20-disruption-what-if');

  // Machines: hooks hold the deletion; the conditions say which. The MachineSet's
  // replacement (Provisioning, no node yet) follows the deleted machine.
  await page.getByRole('button', { name: 'Examples' }).click();
  await page.locator('dialog.gallery').getByRole('button', { name: /Machine deletion lifecycle hooks/ }).click();
  await page.waitForFunction(() => document.querySelector('.tab.selected [role=tab]')?.textContent === 'machine-deletion-hooks.yaml');
  assert.deepEqual(await page.locator('.machines .conditions .pill').allTextContents(), [
    'Drainable=True', 'Drained=True', 'Terminable=True',
    'Drainable=True', 'Terminable=True',
  ]);
  await page.locator('.machines').scrollIntoViewIfNeeded();
  await shot(page, '21-disruption-machines');

  // Without a Scenario, the panel offers one.
  await editor(page).fill('kind: Node\nmetadata: {name: solo}\n');
  await page.locator('.disruption.intro').waitFor();
  await shot(page, '22-disruption-intro');
  await page.getByRole('button', { name: 'Add this Scenario to the input' }).click();
  await page.locator('.lane[aria-label="Node/solo"]').waitFor();
  assert.match(await editor(page).inputValue(), /\n---\napiVersion: kubefit.dev\/v1alpha1\nkind: Scenario\n/);
  assert.deepEqual(page.late, []);
  assert.deepEqual(page.errors, []);
  await ctx.close();
});

// Issue 3 set 400 KB for the playground of its stage; the storage model and the volume
// plugins of issue 4 took the site to 423 KB, the disruption engine and panel of issue 5
// to 491 KB, and the equivalence cache that follows binds (inter-pod affinity, preemption)
// to 504 KB, and the disruption speed work of sessions 9, 10, 17, 19 and 23 to 506.5,
// 508.5, 509.7, 512.4 and 514.4 KB (BENCHMARKS.md, playground size and sessions 9, 10, 17,
// 19 and 23), the shared pod facts and disruption fidelity fixes of session 26 to
// 515.8 KB, session 27's node lifecycle zones (rate limits, disruption modes) to
// 519.4 KB, and session 28's fidelity fixes from upstream review (pod readiness in
// budgets, MarkPodsNotReady, controllers' scale, kubectl 1.11's drain) to 522.4 KB, and
// session 29's second round of fixes from upstream review (preemption's nominations and
// start times, second scheduling attempts, 3.11's admission chain, node eviction and
// daemon pods, controllers' adoption and labels, plugin arguments, MachineSet delete
// priorities, ExtendedResourceToleration) to 537.1 KB, and session 30's third round
// (Go's sort orders, scheduling gates, pod-level and milli defaulting, event truncation,
// grace periods, drain timeouts, the taint eviction controllers' triggers, 1.11's
// nominated pods and orphans, node-affinity values per release, in-place resize
// accounting) to 546.9 KB, and session 31's fourth round (the controllers starting on
// the input's taints and not-ready nodes, kubelets coming back, running pods' own
// priorities, validation of controller flags and preemption arguments, List anchors,
// status-aware report rows) to 549.0 KB (548 970 B), and session 32's fifth round
// (the 1.34 scheduler configuration's validation: plugin sets, queue sort and plugin
// arguments; YAML tags, merge keys and integral floats; Scenario field checks; the 3.11
// node lifecycle's deletions and taints; kubectl's drain filters and skip-wait; Machine
// sets' replica sync and machines deleting in the input; last scheduling attempts;
// replacements made from their controllers' templates, named after them, admitted as
// created pods, Jobs' backoff and StatefulSets' ordinal order) to 563.6 KB (563 576 B),
// and session 33's sixth round (3.11's PodTolerationRestriction admission, pod-affinity
// selectors 1.11 admits failing in its scheduler, Policy names reused, preferAvoidPods
// decoded as Go's encoding/json, two default StorageClasses; 1.11 preemptors' full next
// cycle and cleared nominations; the sampled scan's zone order; 1.34's NoSchedule pass on
// every node update and PodGC on out-of-service nodes) to 575.3 KB (575 269 B), and
// session 34's seventh round (the 1.34 scheduler configuration decoded strictly and its
// PreFilter and PreScore points; YAML documents cut as kubectl cuts them, float and null
// keys; ReadWriteOncePod counts in preemption; budgets' controllers, failSafe and
// allowances in flight; Jobs' one backoff, controllers' wanted counts, finalizers,
// DaemonSets recreating their pods; machine drains one at a time, PodGC for removed
// nodes, the drain's poll) to 590.0 KB (589 988 B).
// The budget stops unnoticed growth; raising it is a decision recorded there.
test('the site fits its 590 KB brotli budget', () => {
  const total = readdirSync(SITE).reduce((sum, name) => sum + brotliCompressSync(readFileSync(join(SITE, name))).length, 0);
  measurements.siteBrotliBytes = total;
  assert.ok(total <= 590_000, `${total} bytes brotli`);
});

test('a large dump is evaluated in the worker while the page stays responsive', { skip: !DUMP && 'KUBEFIT_E2E_DUMP is not set' }, async () => {
  const ctx = await context();
  const page = await open(ctx);
  await page.getByRole('tab', { name: /^Pods/ }).click();
  await page.evaluate(() => {
    window.__frames = 0;
    window.__maxGap = 0;
    let last = performance.now();
    const tick = (now) => {
      window.__frames += 1;
      window.__maxGap = Math.max(window.__maxGap, now - last);
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const started = Date.now();
  await page.locator('#open-files').setInputFiles(DUMP);
  await page.waitForFunction(() => document.querySelector('.file-card'));
  await page.waitForFunction(() => /background worker…/.test(document.querySelector('footer .status').textContent));
  const framesBefore = await page.evaluate(() => window.__frames);
  // Typing while the worker evaluates: the filter takes every key at once.
  await page.locator('#pod-filter').pressSequentially('web', { delay: 20 });
  const during = await page.evaluate(() => ({
    filter: document.querySelector('#pod-filter').value,
    status: document.querySelector('footer .status').textContent,
    frames: window.__frames,
  }));
  assert.equal(during.filter, 'web');
  assert.match(during.status, /background worker…/, 'still evaluating while we typed');
  assert.ok(during.frames > framesBefore, 'frames kept coming');
  await shot(page, '15-large-dump-evaluating');
  await page.waitForFunction(
    () => /Evaluated in a background worker in \d+ ms/.test(document.querySelector('footer .status').textContent),
    null,
    { timeout: 180_000 },
  );
  const elapsed = Date.now() - started;
  const result = await page.evaluate(() => ({
    status: document.querySelector('footer .status').textContent,
    summary: document.querySelector('.summary').textContent,
    maxGap: window.__maxGap,
    frames: window.__frames,
  }));
  assert.match(result.summary, /Nodes200/);
  await page.locator('#pod-filter').fill('');
  await shot(page, '16-large-dump-done');
  measurements.largeDump = {
    bytes: statSync(DUMP).size,
    openToResultsMs: elapsed,
    workerMs: Number(result.status.match(/(\d+) ms/)[1]),
    longestFrameGapMs: Math.round(result.maxGap),
    frames: result.frames,
  };
  assert.deepEqual(page.late, []);
  await ctx.close();
});
