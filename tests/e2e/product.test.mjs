// The page as a lab (issues 5 and 15): a live chart on the first screen, one view at a
// time with links, back and forward; honest state (out of date, invalid, cancelled);
// messages in the user's words; embeds for slides; exports; the keyboard; the
// accessibility audit; hosting under a sub-path; the weight of a first load. (Charts and
// embeds at every size: layout-views.test.mjs and layout-embeds.test.mjs.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { showView, inkOf, pixelsOf, drawnAtLeast, setField, auditAccessibility, shots, settled, dist, sessions, done, VIEWS, GROUPS, EXPERIMENTS } from './browser.mjs';
import { viewsOf } from '../../www/views/index.js';

const session = sessions();
const fieldValue = (page, panel, label) => page.locator(`#${panel}`).getByLabel(label, { exact: true }).inputValue();

test('the start opens on a live chart, on the first screen', async () => {
  const browser = await session({ viewport: { width: 1280, height: 720 } });
  const page = await browser.context.newPage();
  await page.goto(browser.url);
  await page.waitForFunction(() => Number(document.querySelector('#home canvas')?.dataset.drawn ?? 0) > 0, null, { timeout: 20_000 });
  const box = await page.locator('#home canvas').boundingBox();
  assert.ok(box.y + box.height / 2 < 720 && box.height > 300, `the chart on the first screen: ${JSON.stringify(box)}`);
  assert.ok((await inkOf(page, '#home canvas')) > 0.02);
  // one sentence says what it shows; the way to every view is in plain sight
  assert.match(await page.locator('.view-home .lede').textContent(), /politeness cost/);
  assert.equal(await page.locator('header.site .menu-group').count(), GROUPS.length);
  assert.equal(await page.locator('.cards-by-source a[data-view]').count(), VIEWS.length - 1);
  // the views are the registry's experiments, one each, under their names and in order
  assert.deepEqual(await page.evaluate(() => globalThis.freshlab.core.experiments().map((e) => e.command)), EXPERIMENTS);
  assert.deepEqual((await page.locator('.menu-all a[data-view]').evaluateAll((as) => as.map((a) => a.dataset.view))).sort(), ['home', ...EXPERIMENTS].sort());
  assert.throws(() => viewsOf([...EXPERIMENTS, 'no_such_experiment'].map((command) => ({ command }))), /no view for no_such_experiment/);
  assert.throws(() => viewsOf(EXPERIMENTS.slice(1).map((command) => ({ command }))), new RegExp(`no experiment ${EXPERIMENTS[0]}`));
  await page.screenshot({ path: path.join(shots, 'start-1280x720.png') });
  // how fast it comes is measured by npm run bench (first chart drawn, bytes), not by a timed test
  // a student changes P and the chart follows
  const drawn = Number(await page.locator('#home canvas').getAttribute('data-drawn'));
  await setField(page, 'home', 'politeness P (seconds between two requests to a server)', 86400);
  await drawnAtLeast(page, 'home', drawn + 1);
  await page.waitForFunction(() => /home\.politeness_seconds=86400/.test(location.search), null, { timeout: 5000 });
  await page.close();
});

test('one view at a time: menus, links, back and forward, and old links', async () => {
  const browser = await session();
  const page = await browser.newPage();
  assert.equal(await page.evaluate(() => document.documentElement.dataset.view), 'home');
  // the header's menu for a source lists its views; choosing one shows it alone
  await page.locator('header.site summary', { hasText: 'Theory' }).click();
  await page.locator('header.site .menu-group a[data-view="certify"]').click();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'certify');
  assert.match(page.url(), /\?view=certify$/);
  assert.equal(await page.locator('#home').isVisible(), false);
  assert.equal(await page.locator('header.site details[open]').count(), 0, 'the menu closed');
  // the header stays on screen
  await page.mouse.wheel(0, 2000);
  await page.waitForTimeout(200);
  assert.equal((await page.locator('header.site').boundingBox()).y, 0);
  // tabs to the source's other views
  await page.locator('.view-certify .tabs a', { hasText: 'RANDOM against MERGE' }).click();
  await drawnAtLeast(page, 'factor-curves', 1);
  await page.goBack();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'certify');
  await page.goBack();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'home');
  await page.goForward();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'certify');
  // links from before the views: a panel's parameters, an old embed name, a view's anchor
  const old = await browser.newPage(`${browser.url}?factors.c=2.5`);
  await old.waitForFunction(() => /For c = 2\.5,/.test(document.querySelector('#factor-curves figcaption')?.textContent ?? ''), null, { timeout: 20_000 });
  const anchor = await browser.newPage(`${browser.url}#view-wikipedia`);
  await anchor.waitForFunction(() => document.documentElement.dataset.view === 'bursty');
  const unknown = await browser.newPage(`${browser.url}?view=eq510`);
  assert.match(await unknown.locator('.notice').textContent(), /Nothing here is called “eq510”/);
  for (const p of [page, old, anchor, unknown]) await p.close();
  assert.deepEqual(browser.errors, []);
});

test('a link reproduces the exact configuration and chart, seed included', async () => {
  const browser = await session();
  const typed = await browser.newPage(`${browser.url}?view=factor-curves`);
  await drawnAtLeast(typed, 'factor-curves', 1);
  await setField(typed, 'factor-curves', 'c = f_s/f', 2.5);
  await setField(typed, 'factor-curves', 'x to', 6);
  await typed.waitForFunction(() => /factor-curves\.c=2\.5/.test(location.search) && /factor-curves\.x_max=6/.test(location.search), null, { timeout: 5000 });
  await typed.waitForFunction(() => /For c = 2\.5,/.test(document.querySelector('#factor-curves figcaption')?.textContent ?? ''));
  await typed.waitForTimeout(500);
  const linked = await browser.newPage(typed.url());
  await linked.waitForFunction(() => /For c = 2\.5,/.test(document.querySelector('#factor-curves figcaption')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await fieldValue(linked, 'factor-curves', 'c = f_s/f'), '2.5');
  assert.equal(await fieldValue(linked, 'factor-curves', 'x to'), '6');
  await linked.waitForTimeout(500);
  assert.equal(await pixelsOf(linked, '#factor-curves canvas'), await pixelsOf(typed, '#factor-curves canvas'), 'same pixels');
  // a seeded simulation from a link gives the same numbers
  const query = '?view=per-page&per-page.seed=7&per-page.points=4&per-page.replications=4&per-page.revisits=300';
  const seeded = await browser.newPage(`${browser.url}${query}`);
  await done(seeded, 'per-page');
  const again = await browser.newPage(`${browser.url}${query}`);
  await done(again, 'per-page');
  const summary = (p) => p.locator('#per-page figcaption').textContent();
  assert.equal(await summary(again), await summary(seeded));
  assert.match(await summary(seeded), /300 revisits × 4 replications/);
  for (const p of [typed, linked, seeded, again]) await p.close();
});

test('back and forward step through changes', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=bursts`);
  await drawnAtLeast(page, 'bursts', 1);
  await setField(page, 'bursts', 'mark probability', 0.2);
  await page.waitForFunction(() => /bursts\.probability=0\.2/.test(location.search), null, { timeout: 5000 });
  await setField(page, 'bursts', 'mark probability', 0.3);
  await page.waitForFunction(() => /bursts\.probability=0\.3/.test(location.search), null, { timeout: 5000 });
  await page.goBack();
  await page.waitForFunction(() => /falls to 0\.2 at/.test(document.querySelector('#bursts figcaption').textContent), null, { timeout: 10_000 });
  assert.equal(await fieldValue(page, 'bursts', 'mark probability'), '0.2');
  await page.goBack();
  await page.waitForFunction(() => /falls to 0\.1 at/.test(document.querySelector('#bursts figcaption').textContent), null, { timeout: 10_000 });
  assert.equal(await fieldValue(page, 'bursts', 'mark probability'), '0.1');
  await page.goForward();
  await page.waitForFunction(() => /falls to 0\.2 at/.test(document.querySelector('#bursts figcaption').textContent), null, { timeout: 10_000 });
  await page.close();
});

test('honest state: an edit not yet run marks the chart out of date, the link keeps what the chart shows; invalid input greys it', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=partition`);
  await done(page, 'partition', 120_000);
  const before = page.url();
  await setField(page, 'partition', 'numbers of robots', '2, 4');
  await page.waitForFunction(() => !document.querySelector('#partition .stale-note').hidden, null, { timeout: 5000 });
  assert.match(await page.locator('#partition .stale-note').textContent(), /Out of date: the chart shows the last run, not your changes\. Press “Simulate”/);
  assert.equal(await page.locator('#partition .chart-0 .stale-stamp').textContent(), 'Out of date');
  // under the chart, beside its exports: never over its title or its data
  const [canvas, stamp] = [await page.locator('#partition .chart-0 canvas').boundingBox(), await page.locator('#partition .chart-0 .stale-stamp').boundingBox()];
  assert.ok(stamp.y >= canvas.y + canvas.height, `the stamp (${JSON.stringify(stamp)}) is under the chart (${JSON.stringify(canvas)})`);
  await page.waitForTimeout(800);
  assert.equal(page.url(), before, 'the link still says what the chart shows');
  await page.screenshot({ path: path.join(shots, 'stale.png') });
  // running it brings chart, link and form together again
  await page.locator('#partition').getByRole('button', { name: 'Simulate' }).click();
  await done(page, 'partition', 120_000);
  assert.equal(await page.locator('#partition .stale-note').isHidden(), true);
  await page.waitForFunction(() => /partition\.robots=2,4/.test(location.search), null, { timeout: 5000 });
  // a chart that follows the form: invalid input greys it and says why
  await showView(page, 'factor-curves');
  await drawnAtLeast(page, 'factor-curves', 1);
  await setField(page, 'factor-curves', 'c = f_s/f', '0.5');
  await page.waitForFunction(() => document.querySelector('#factor-curves .charts').classList.contains('invalid'), null, { timeout: 5000 });
  assert.match(await page.locator('#factor-curves .stale-note').textContent(), /Not redrawn: Check “c = f_s\/f”: must be at least 1/);
  await setField(page, 'factor-curves', 'c = f_s/f', '5');
  await page.waitForFunction(() => !document.querySelector('#factor-curves .charts').classList.contains('stale'), null, { timeout: 5000 });
  await page.close();
});

test('messages in the user’s words, under the field being edited', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=per-page`);
  await done(page, 'per-page');
  // the message under `label` once it matches `expected` (a string or a pattern)
  const errorOf = async (panel, label, expected) => {
    const input = page.locator(`#${panel}`).getByLabel(label, { exact: true });
    const id = (await input.getAttribute('aria-describedby')).split(' ')[1];
    const [source, flags] = typeof expected === 'string' ? [expected.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), ''] : [expected.source, expected.flags];
    await page
      .waitForFunction(([el, s, f]) => new RegExp(s, f).test(el.textContent), [await page.locator(`#${id}`).elementHandle(), `^${source}$`.replace('^^', '^').replace('$$', '$'), flags], { timeout: 5000 })
      .catch(() => {});
    return page.locator(`#${id}`).textContent();
  };
  // a negative whole number: the field's whole range, not the type's
  await setField(page, 'per-page', 'replications', '-5');
  assert.equal(await errorOf('per-page', 'replications', 'must be a whole number from 2 to 1000 (got -5)'), 'must be a whole number from 2 to 1000 (got -5)');
  // too large: the range, and the reason for the upper limit only
  await setField(page, 'per-page', 'replications', '1e8');
  assert.equal(await errorOf('per-page', 'replications', 'must be a whole number from 2 to 1000 (got 100000000): more replications narrow the 95 % interval little and cost time'), 'must be a whole number from 2 to 1000 (got 100000000): more replications narrow the 95 % interval little and cost time');
  await setField(page, 'per-page', 'replications', '30');
  // a decimal comma
  await setField(page, 'per-page', 'c = f_s/f', '0,5');
  assert.match(await errorOf('per-page', 'c = f_s/f', /“0,5” is not a number: write 0\.5 with a decimal point/), /“0,5” is not a number: write 0\.5 with a decimal point/);
  await setField(page, 'per-page', 'c = f_s/f', '5');
  // an inverted range, under the field the user changed, in its words
  await showView(page, 'level-sets');
  await drawnAtLeast(page, 'level-sets', 1);
  await setField(page, 'level-sets', 'r from', '10');
  assert.match(await errorOf('level-sets', 'r from', /^must be less than r_max \(10 ≥ 9\).*/), /^must be less than r_max \(10 ≥ 9\)/);
  assert.equal(await page.locator('#level-sets').getByLabel('r to', { exact: true }).getAttribute('aria-invalid'), null);
  await setField(page, 'level-sets', 'r from', '0.05');
  await setField(page, 'level-sets', 'r to', '0.01');
  assert.match(await errorOf('level-sets', 'r to', /^must be greater than r_min.*/), /^must be greater than r_min/);
  await setField(page, 'level-sets', 'r to', '9');
  await page.close();
});

test('the embed dialog gives an iframe of this chart in its current state, and previews it', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=level-sets`);
  await drawnAtLeast(page, 'level-sets', 1);
  await setField(page, 'level-sets', 'r to', 4);
  await page.waitForFunction(() => /r_max=4/.test(location.search), null, { timeout: 5000 });
  await page.locator('#level-sets').getByRole('button', { name: /^Embed/ }).click();
  const dialog = page.locator('dialog.embed-dialog[open]');
  const snippet = await dialog.locator('.embed-code').inputValue();
  const src = snippet.match(/<iframe src="([^"]+)" width="960" height="540"/)?.[1].replace(/&amp;/g, '&');
  assert.ok(src, snippet);
  assert.match(src, /embed=level-sets/);
  assert.match(src, /level-sets\.r_max=4/);
  assert.match(src, /font=1\.5/, 'for a room by default');
  assert.doesNotMatch(src, /view=/, 'the embed names its panel');
  // the preview shows exactly that address, at the slide's size
  assert.equal(await dialog.locator('.embed-preview iframe').getAttribute('src'), src);
  assert.equal(await dialog.locator('.embed-preview iframe').getAttribute('width'), '960');
  // 4:3, dark, its key values, as a reveal.js slide
  await dialog.getByLabel('Slide size').selectOption({ label: '4:3, 1024 × 768' });
  await dialog.getByLabel('Theme').selectOption('dark');
  await dialog.getByLabel('Controls on the slide').selectOption('key');
  await dialog.getByLabel('Code for').selectOption('reveal');
  const slide = await dialog.locator('.embed-code').inputValue();
  assert.match(slide, /^<section>\n {2}<iframe data-src="[^"]*theme=dark[^"]*controls=1[^"]*" width="1024" height="768"/);
  await dialog.getByRole('button', { name: 'Close' }).click();
  assert.equal(await page.locator('dialog.embed-dialog[open]').count(), 0);
  const embedded = await browser.newPage(src);
  await drawnAtLeast(embedded, 'level-sets', 1);
  assert.match(await embedded.locator('#level-sets figcaption').textContent(), /r from 0\.05 to 4 /);
  await page.close();
  await embedded.close();
});

test('every chart exports PNG at 2× and SVG; the data as CSV and JSON', async () => {
  const browser = await session();
  // one page per view: Chromium stops a page's downloads after about ten in a row
  for (const panel of ['level-sets', 'factor-curves', 'bursts', 'certify', 'per-page', 'channel']) {
    const page = await browser.newPage();
    const save = async (locator) => {
      const [download] = await Promise.all([page.waitForEvent('download'), locator.click()]);
      const file = path.join(shots, `export-${download.suggestedFilename()}`);
      await download.saveAs(file);
      return file;
    };
    await showView(page, panel);
    await drawnAtLeast(page, panel, 1);
    await settled(page);
    const section = page.locator(`#${panel}`);
    const png = fs.readFileSync(await save(section.getByRole('button', { name: 'Download this chart as PNG' }).first()));
    assert.equal(png.subarray(1, 4).toString(), 'PNG');
    const cssWidth = await section.locator('canvas').first().evaluate((c) => c.getBoundingClientRect().width);
    assert.ok(Math.abs(png.readUInt32BE(16) - 2 * Math.round(cssWidth)) <= 2, `${panel}: PNG width`);
    const svg = fs.readFileSync(await save(section.getByRole('button', { name: 'Download this chart as SVG' }).first()), 'utf8');
    assert.match(svg, /^<svg[^>]*width="\d+"/);
    assert.match(svg, /<\/svg>\s*$/);
    const csv = fs.readFileSync(await save(section.getByRole('button', { name: /as CSV$/ })), 'utf8').trim().split('\n');
    assert.ok(csv.length > 3, `${panel}: CSV rows`);
    const columns = csv[0].split(',').length;
    assert.ok(csv.slice(1).every((row) => row.split(',').length === columns), `${panel}: ragged CSV`);
    const json = JSON.parse(fs.readFileSync(await save(section.getByRole('button', { name: /as JSON$/ })), 'utf8'));
    assert.equal(json.config.experiment, json.result.experiment);
    await page.close();
  }
});

test('the keyboard reaches everything, with a visible focus', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=factor-curves`);
  await drawnAtLeast(page, 'factor-curves', 1);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'focus is visible');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  let guard = 0;
  while ((await page.evaluate(() => document.activeElement.closest?.('#factor-curves') && document.activeElement.tagName)) !== 'INPUT' && guard++ < 200) await page.keyboard.press('Tab');
  assert.ok(guard < 200, 'the panel is reachable by Tab');
  const drawn = Number(await page.locator('#factor-curves canvas').getAttribute('data-drawn'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('8');
  await drawnAtLeast(page, 'factor-curves', drawn + 1);
  await page.waitForFunction(() => /For c = 8,/.test(document.querySelector('#factor-curves figcaption').textContent), null, { timeout: 10_000 });
  while ((await page.evaluate(() => document.activeElement.textContent)) !== 'JSON' && guard++ < 400) await page.keyboard.press('Tab');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /\.json$/);
  // the header's menus open from the keyboard and lead to a view
  await page.locator('header.site summary', { hasText: 'Robots vs sensors' }).focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.documentElement.dataset.view === 'sensors');
  await page.close();
});

test('no serious accessibility violation, light or dark, on the start and the views', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const browser = await session({ colorScheme });
    const page = await browser.newPage();
    await drawnAtLeast(page, 'home', 1);
    assert.deepEqual(await auditAccessibility(page), [], `${colorScheme}: start`);
    for (const view of ['level-sets', 'policies', 'sensors']) {
      await showView(page, view);
      await page.waitForFunction(() => document.querySelector('.view:not([hidden]) canvas, .view:not([hidden]) .placeholder'));
      assert.deepEqual(await auditAccessibility(page), [], `${colorScheme}: ${view}`);
    }
    await page.close();
  }
});

test('a copy hosted under a sub-path works', async () => {
  const browser = await session({ subPath: 'courses/ir/freshlab' });
  const page = await browser.newPage();
  assert.match(page.url(), /\/courses\/ir\/freshlab\/$/);
  await drawnAtLeast(page, 'home', 1);
  await showView(page, 'factor-curves');
  await setField(page, 'factor-curves', 'c = f_s/f', 3);
  await page.waitForFunction(() => location.pathname === '/courses/ir/freshlab/' && /factor-curves\.c=3/.test(location.search), null, { timeout: 5000 });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a bad link explains itself where the chart would be', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?view=level-sets&level-sets.r_min=-1`);
  await page.waitForFunction(() => /No chart yet/.test(document.querySelector('#level-sets .placeholder').textContent), null, { timeout: 10_000 });
  assert.match(await page.locator('#level-sets .placeholder').textContent(), /r from.*must be greater than 0/);
  assert.equal(await page.locator('#level-sets').getByLabel('r from', { exact: true }).getAttribute('aria-invalid'), 'true');
  await page.close();
});

test('a light first load: the module apart, streamed, and cached once for every embed', async () => {
  const app = fs.statSync(path.join(dist, 'app.js')).size;
  assert.ok(app < 200_000, `app.js is ${app} bytes: the module and the samples stay out of it`);
  const browser = await session();
  const page = await browser.newPage();
  await drawnAtLeast(page, 'home', 1);
  const wasm = browser.requests.filter((p) => p.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `the module is fetched once: ${browser.requests}`);
  assert.ok(!browser.requests.some((p) => p.endsWith('freshlab-wasm.js')), 'the file:// copy is not loaded over http');
  // a second embed (another slide) takes the module from the cache: not asked for again
  const second = await browser.newPage(`${browser.url}?embed=level-sets`);
  await drawnAtLeast(second, 'level-sets', 1);
  assert.equal(browser.requests.filter((p) => p.endsWith('.wasm')).length, 1, 'the module came from the cache');
  // the server compresses as a static host would
  const response = await fetch(`${browser.url}${wasm[0].slice(1)}`, { headers: { 'accept-encoding': 'br' } });
  assert.equal(response.headers.get('content-encoding'), 'br');
  assert.match(response.headers.get('cache-control'), /immutable/);
  await page.close();
  await second.close();
});
