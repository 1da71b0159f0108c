// The page as a product (issue 5): links that reproduce a view, back and forward,
// embeds for slides, exports, keyboard use, the accessibility audit, narrow screens,
// hosting under a sub-path, and never a blank chart without an explanation.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { open, inkOf, pixelsOf, drawnAtLeast, setField, auditAccessibility, shots, settled } from './browser.mjs';

const opened = [];
async function session(options) {
  const browser = await open(options);
  opened.push(browser);
  return browser;
}
after(async () => {
  for (const b of opened) await b.close();
});

const fieldValue = (page, panel, label) => page.locator(`#${panel}`).getByLabel(label, { exact: true }).inputValue();

test('a link reproduces the exact configuration and chart, seed included', async () => {
  const browser = await session();
  const typed = await browser.newPage();
  await drawnAtLeast(typed, 'factors', 1);
  await setField(typed, 'factors', 'c = f_s/f', 2.5);
  await setField(typed, 'factors', 'x to', 6);
  await typed.waitForFunction(() => /factors\.c=2\.5/.test(location.search) && /factors\.x_max=6/.test(location.search), null, { timeout: 5000 });
  await typed.waitForFunction(() => /For c = 2\.5,/.test(document.querySelector('#factors figcaption')?.textContent ?? ''));
  await typed.waitForTimeout(500);
  const link = typed.url();
  const linked = await browser.newPage(link);
  await linked.waitForFunction(() => /For c = 2\.5,/.test(document.querySelector('#factors figcaption')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await fieldValue(linked, 'factors', 'c = f_s/f'), '2.5');
  assert.equal(await fieldValue(linked, 'factors', 'x to'), '6');
  await linked.waitForTimeout(500);
  assert.equal(await pixelsOf(linked, '#factors canvas'), await pixelsOf(typed, '#factors canvas'), 'same pixels');
  // a seeded simulation from a link gives the same numbers
  const seeded = await browser.newPage(`${browser.url}?per-page.seed=7&per-page.points=4&per-page.replications=4&per-page.revisits=300`);
  await seeded.waitForFunction(() => /Computed in/.test(document.querySelector('#per-page .status').textContent), null, { timeout: 30_000 });
  const again = await browser.newPage(`${browser.url}?per-page.seed=7&per-page.points=4&per-page.replications=4&per-page.revisits=300`);
  await again.waitForFunction(() => /Computed in/.test(document.querySelector('#per-page .status').textContent), null, { timeout: 30_000 });
  const summary = (p) => p.locator('#per-page figcaption').textContent();
  assert.equal(await summary(again), await summary(seeded));
  assert.match(await summary(seeded), /300 revisits × 4 replications/);
  for (const p of [typed, linked, seeded, again]) await p.close();
});

test('back and forward step through changes', async () => {
  const browser = await session();
  const page = await browser.newPage();
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

for (const [width, height] of [
  [1280, 720],
  [1024, 768],
]) {
  test(`embedded charts fill a ${width}×${height} slide without scrollbars`, async () => {
    const browser = await session({ viewport: { width, height } });
    for (const [panel, extra] of [
      ['level-sets', '&font=1.5'],
      ['repository', '&figure=2&controls=1&theme=dark'],
      ['sensors', '&sensors.pages=20000'],
      ['partition', '&figure=4&font=1.25'],
    ]) {
      const page = await browser.newPage(`${browser.url}?embed=${panel}${extra}`);
      const shown = Number(extra.match(/figure=(\d)/)?.[1] ?? 1) - 1;
      await page.waitForFunction(([p, k]) => Number(document.querySelector(`#${p} .chart-${k} canvas`)?.dataset.drawn ?? 0) > 0, [panel, shown], { timeout: 60_000 });
      await page.waitForTimeout(800);
      const box = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight, w: innerWidth, h: innerHeight }));
      assert.ok(box.sw <= box.w && box.sh <= box.h, `${panel}: scrolls (${JSON.stringify(box)})`);
      const canvas = await page.locator(`#${panel} .chart-${shown} canvas`).boundingBox();
      assert.ok(canvas.width > 0.9 * width && canvas.height > 0.6 * height, `${panel}: chart ${canvas.width}×${canvas.height}`);
      assert.ok((await inkOf(page, `#${panel} .chart-${shown} canvas`)) > 0.02);
      await page.screenshot({ path: path.join(shots, `embed-${panel}-${width}x${height}.png`) });
      assert.deepEqual(await auditAccessibility(page), []);
      await page.close();
    }
  });
}

test('the embed button gives an iframe of this chart in its current state', async () => {
  const browser = await session();
  const page = await browser.newPage();
  await drawnAtLeast(page, 'level-sets', 1);
  await setField(page, 'level-sets', 'r to', 4);
  await page.waitForFunction(() => /r_max=4/.test(location.search), null, { timeout: 5000 });
  await page.locator('#level-sets').getByRole('button', { name: /^Embed/ }).click();
  const snippet = await page.locator('#level-sets .embed-code').inputValue();
  const src = snippet.match(/<iframe src="([^"]+)" width="960" height="540"/)?.[1].replace(/&amp;/g, '&');
  assert.ok(src, snippet);
  assert.match(src, /embed=level-sets/);
  assert.match(src, /level-sets\.r_max=4/);
  assert.doesNotMatch(src, /factors\./, 'only this panel');
  const embedded = await browser.newPage(src);
  await drawnAtLeast(embedded, 'level-sets', 1);
  assert.equal(await embedded.locator('#factors').isVisible(), false);
  assert.match(await embedded.locator('#level-sets figcaption').textContent(), /r from 0\.05 to 4 /);
  await page.close();
  await embedded.close();
});

test('every chart exports PNG at 2× and SVG; the data as CSV and JSON', async () => {
  const browser = await session();
  const page = await browser.newPage();
  for (const panel of ['level-sets', 'factors', 'bursts', 'certify', 'per-page', 'channel']) await drawnAtLeast(page, panel, 1);
  // the load-time runs still growing their tables move the buttons below them: a click can land where a button was
  await settled(page);
  const save = async (locator) => {
    const [download] = await Promise.all([page.waitForEvent('download'), locator.click()]);
    const file = path.join(shots, `export-${download.suggestedFilename()}`);
    await download.saveAs(file);
    return file;
  };
  for (const panel of ['level-sets', 'factors', 'bursts', 'certify', 'per-page', 'channel']) {
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
  }
  await page.close();
});

test('the keyboard reaches everything, with a visible focus', async () => {
  const browser = await session();
  const page = await browser.newPage();
  await drawnAtLeast(page, 'factors', 1);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.className), 'skip');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
  assert.notEqual(outline, 'none', 'focus is visible');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'main');
  // walk to the factors panel's first field and change it from the keyboard
  let guard = 0;
  while ((await page.evaluate(() => document.activeElement.closest?.('#factors') && document.activeElement.tagName)) !== 'INPUT' && guard++ < 200) await page.keyboard.press('Tab');
  assert.ok(guard < 200, 'the factors panel is reachable by Tab');
  const drawn = Number(await page.locator('#factors canvas').getAttribute('data-drawn'));
  await page.keyboard.press('Control+A');
  await page.keyboard.type('8');
  await drawnAtLeast(page, 'factors', drawn + 1);
  // a redraw for another reason (the layout settling as later panels fill in) can come
  // first: wait for the one the edit asked for
  await page.waitForFunction(() => /For c = 8,/.test(document.querySelector('#factors figcaption').textContent), null, { timeout: 10_000 });
  // buttons respond to the keyboard too
  while ((await page.evaluate(() => document.activeElement.textContent)) !== 'JSON' && guard++ < 400) await page.keyboard.press('Tab');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  assert.match(download.suggestedFilename(), /\.json$/);
  await page.close();
});

test('no serious accessibility violation, light or dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    const browser = await session({ colorScheme });
    const page = await browser.newPage();
    for (const panel of ['level-sets', 'per-page', 'channel']) await drawnAtLeast(page, panel, 1);
    assert.deepEqual(await auditAccessibility(page), [], colorScheme);
    await page.close();
  }
});

test('a narrow screen gets one column and no sideways scrolling', async () => {
  const browser = await session({ viewport: { width: 390, height: 844 } });
  const page = await browser.newPage();
  await drawnAtLeast(page, 'level-sets', 1);
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), 'no horizontal scroll');
  const canvas = await page.locator('#level-sets canvas').boundingBox();
  assert.ok(canvas.width > 300, `chart ${canvas.width} wide`);
  await page.screenshot({ path: path.join(shots, 'narrow.png') });
  await page.close();
});

test('a copy hosted under a sub-path works', async () => {
  const browser = await session({ subPath: 'courses/ir/freshlab' });
  const page = await browser.newPage();
  assert.match(page.url(), /\/courses\/ir\/freshlab\/$/);
  await drawnAtLeast(page, 'level-sets', 1);
  await setField(page, 'factors', 'c = f_s/f', 3);
  await page.waitForFunction(() => location.pathname === '/courses/ir/freshlab/' && /factors\.c=3/.test(location.search), null, { timeout: 5000 });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a bad link explains itself where the chart would be', async () => {
  const browser = await session();
  const page = await browser.newPage(`${browser.url}?level-sets.r_min=-1`);
  await page.waitForFunction(() => /No chart yet/.test(document.querySelector('#level-sets .placeholder').textContent), null, { timeout: 10_000 });
  assert.match(await page.locator('#level-sets .placeholder').textContent(), /r from.*must be greater than 0/);
  assert.equal(await page.locator('#level-sets').getByLabel('r from', { exact: true }).getAttribute('aria-invalid'), 'true');
  await page.close();
});
