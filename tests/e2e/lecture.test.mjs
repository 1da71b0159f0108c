// In the lecture hall (issue 44), the page's side: every embed with controls is a chart
// first and has its Run button; the header folds its menus rather than scroll or overlap
// at every text size; every view's first chart is whole on the first screen; the WCAG 2.2
// AA rules pass on every view. The deck itself is in slides.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { auditWcag22, chartsFitTheirFrames, done, pickTextSize, sessions, shots, showView, settled, GROUPS, PANELS, VIEWS } from './browser.mjs';

const session = sessions();
// the embeds of slow panels at a size that answers in seconds
const QUICK = { sensors: '&sensors.pages=20000', 'sensors-beyond': '&sensors-beyond.pages=5000', bursty: '&bursty.generator.articles=60' };

test('every embed with controls keeps at least 60 % of a 960×540 slide at font 2 for its chart, with a Run button that runs', async () => {
  const browser = await session({ viewport: { width: 960, height: 540 } });
  const page = await browser.context.newPage();
  for (const panel of PANELS) {
    await page.goto(`${browser.url}?embed=${panel}&controls=1&font=2${QUICK[panel] ?? ''}`);
    await page.waitForSelector('html[data-ready="true"]');
    await done(page, panel, 120_000);
    await page.waitForTimeout(300);
    const where = `${panel} with controls, 960×540, font 2`;
    const canvas = await page.locator(`#${panel} canvas:visible`).boundingBox();
    const share = (canvas.width * canvas.height) / (960 * 540);
    assert.ok(share >= 0.6, `${where}: the chart covers ${(100 * share).toFixed(1)} % of the slide`);
    const box = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight }));
    assert.ok(box.sw <= 960 && box.sh <= 540, `${where}: scrolls (${JSON.stringify(box)})`);
    assert.deepEqual(await chartsFitTheirFrames(page, `#${panel}`), [], where);
    // the key fields are on the slide, in a strip or behind its Values button
    const strip = page.locator(`#${panel} .strip-field`);
    assert.ok((await strip.count()) > 0, `${where}: no field on the slide`);
    const drawer = page.locator(`#${panel} .drawer-toggle:visible`);
    if (await drawer.count()) {
      await drawer.click();
      assert.ok(await strip.first().isVisible(), `${where}: the drawer shows the fields`);
      await page.keyboard.press('Escape');
      assert.equal(await strip.first().isVisible(), false, `${where}: Escape closes the drawer`);
    } else {
      assert.ok(await strip.first().isVisible(), `${where}: the strip shows the fields`);
    }
    const run = page.locator(`#${panel} button.run`);
    if (await run.count()) {
      assert.ok(await run.isVisible(), `${where}: its Run button is shown`);
      const drawn = Number(await page.locator(`#${panel} canvas:visible`).getAttribute('data-drawn'));
      await run.click();
      await page.waitForFunction(([p, n]) => Number([...document.querySelectorAll(`#${p} canvas`)].find((c) => c.getBoundingClientRect().width > 0)?.dataset.drawn ?? 0) > n && /Computed in/.test(document.querySelector(`#${p} .status`).textContent), [panel, drawn], { timeout: 120_000 });
    }
    if (panel === 'policies') await page.screenshot({ path: path.join(shots, `embed-controls-${panel}-960x540-font2.png`) });
  }
  assert.deepEqual(browser.errors, []);
});

test('a slide names the fields it shows: controls=p,capacity; an unknown name is said, not ignored', async () => {
  const browser = await session({ viewport: { width: 960, height: 540 } });
  const page = await browser.newPage(`${browser.url}?embed=home&controls=p,capacity,nonsense&font=2`);
  await done(page, 'home');
  const shown = await page.locator('#home .strip-field input').evaluateAll((inputs) => inputs.map((i) => i.name));
  assert.deepEqual(shown, ['politeness_seconds', 'capacities']);
  assert.match(await page.locator('#home .slide-notice').textContent(), /nothing here is called “nonsense”/);
  // an auto-run chart reruns on a change: no Run button needed; Enter runs at once
  const drawer = page.locator('#home .drawer-toggle:visible');
  if (await drawer.count()) await drawer.click();
  const p = page.locator('#home .strip-field input[name="politeness_seconds"]');
  await p.fill('7200');
  await p.press('Enter');
  await page.waitForFunction(() => /home\.politeness_seconds=7200/.test(location.search), null, { timeout: 10_000 });
  assert.notEqual(await page.evaluate(() => document.activeElement?.name), 'politeness_seconds', 'Enter leaves the field, so the deck has its keys back');
});

test('an edit not yet run says "Out of date" in the slide\'s strip, clear of the chart, and a run takes it away', async () => {
  const browser = await session({ viewport: { width: 960, height: 540 } });
  const page = await browser.newPage(`${browser.url}?embed=policies&controls=1&font=2`);
  await done(page, 'policies', 120_000);
  const drawer = page.locator('#policies .drawer-toggle:visible');
  if (await drawer.count()) await drawer.click();
  const field = page.locator('#policies .strip-field input:visible').first();
  await field.fill(String(2 * Number(await field.inputValue())));
  await page.keyboard.press('Escape');
  const stamp = page.locator('#policies .controls .stale-stamp');
  await stamp.waitFor({ state: 'visible', timeout: 5000 });
  assert.equal(await stamp.textContent(), 'Out of date');
  assert.match(await stamp.getAttribute('title'), /the chart shows the last run, not your changes/);
  const [chart, badge] = [await page.locator('#policies canvas:visible').boundingBox(), await stamp.boundingBox()];
  assert.ok(badge.y >= chart.y + chart.height, `the stamp (${JSON.stringify(badge)}) is under the chart (${JSON.stringify(chart)}), not over it`);
  assert.ok(badge.x + badge.width <= 960 && badge.y + badge.height <= 540, `the stamp is on the slide: ${JSON.stringify(badge)}`);
  assert.deepEqual(await chartsFitTheirFrames(page, '#policies'), []);
  await page.screenshot({ path: path.join(shots, 'embed-controls-policies-out-of-date.png') });
  await page.locator('#policies button.run').click();
  await done(page, 'policies', 120_000);
  assert.equal(await stamp.isHidden(), true, 'the run brings chart and values together again');
  assert.deepEqual(browser.errors, []);
});

test('the header folds its menus instead of scrolling or overlapping, at every text size, 1280×720 and 1920×1080', async () => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 1920, height: 1080 },
  ]) {
    const browser = await session({ viewport });
    const page = await browser.newPage(`${browser.url}?view=partition`);
    for (const font of ['1', '1.25', '1.5', '2']) {
      await pickTextSize(page, font);
      await page.waitForTimeout(200);
      const where = `${viewport.width}×${viewport.height}, font ${font}`;
      const layout = await page.evaluate(() => {
        const bar = document.querySelector('header.site .bar');
        const shown = [...bar.querySelectorAll('.brand, .menu > summary')].filter((e) => e.getClientRects().length > 0).map((e) => [e.textContent, e.getBoundingClientRect().toJSON()]);
        return { page: document.documentElement.scrollWidth, header: bar.scrollWidth, bar: bar.clientWidth, width: innerWidth, shown, folded: document.querySelector('header.site').classList.contains('folded') };
      });
      assert.equal(layout.page, layout.width, `${where}: the page scrolls sideways`);
      assert.ok(layout.header <= layout.bar, `${where}: the header scrolls sideways (${layout.header} > ${layout.bar})`);
      for (const [k, [a, ra]] of layout.shown.entries()) {
        assert.ok(ra.right <= layout.width && ra.left >= 0, `${where}: “${a}” leaves the screen`);
        for (const [b, rb] of layout.shown.slice(k + 1)) {
          const overlap = ra.left < rb.right && rb.left < ra.right && ra.top < rb.bottom && rb.top < ra.bottom;
          assert.ok(!overlap, `${where}: “${a}” is drawn over “${b}”`);
        }
      }
      // folded or not, every view is one menu away
      const menus = await page.locator('header.site .menu:visible > summary').allTextContents();
      assert.deepEqual(menus, layout.folded ? ['Views', 'Display'] : [...GROUPS.map((g) => g.label), 'Display'], where);
      if (font === '2') await page.screenshot({ path: path.join(shots, `header-${viewport.width}x${viewport.height}-font2.png`) });
    }
    // a menu left by the keyboard closes
    const menu = page.locator('header.site details:visible').first();
    await menu.locator('summary').focus();
    await page.keyboard.press('Enter');
    assert.equal(await menu.evaluate((m) => m.open), true);
    for (let k = 0; k < 60 && (await menu.evaluate((m) => m.contains(document.activeElement))); k++) await page.keyboard.press('Tab');
    assert.equal(await menu.evaluate((m) => m.open), false, 'a menu the focus left stays open');
  }
});

test('every view shows its whole first chart on the first screen at 1280×720, at every text size, and passes the WCAG 2.2 AA rules', async () => {
  const browser = await session({ viewport: { width: 1280, height: 720 } });
  const page = await browser.newPage();
  const textSize = async (font) => {
    await pickTextSize(page, font);
    await page.waitForTimeout(300);
  };
  for (const view of VIEWS) {
    await showView(page, view);
    await settled(page);
    // the room's and the hall's sizes shrink the heading and let the header scroll
    // away (html.short); at the hall's, the panel's explanation follows its chart
    for (const font of ['1', '1.5', '2']) {
      await textSize(font);
      const chart = await page.locator('.view:not([hidden]) .panel canvas').first().boundingBox();
      const where = `${view} at text size ${font}`;
      assert.ok(chart.y + chart.height <= 720, `${where}: the first chart ends at ${Math.round(chart.y + chart.height)} px`);
      assert.ok(chart.height >= 240, `${where}: the first chart is ${Math.round(chart.height)} px tall`);
    }
    await textSize('1');
    assert.deepEqual(await auditWcag22(page), [], view);
  }
  await textSize('2');
  await page.screenshot({ path: path.join(shots, 'short-home-1280x720-font2.png') });
  await textSize('1');
  // and the Embed dialog
  await showView(page, 'policies');
  await page.locator('#policies').getByRole('button', { name: /^Embed/ }).click();
  await page.waitForSelector('dialog.embed-dialog[open]');
  assert.deepEqual(await auditWcag22(page), [], 'the Embed dialog');
  await page.screenshot({ path: path.join(shots, 'embed-dialog.png') });
  assert.deepEqual(browser.errors, []);
});

test('a 1080-pixel projector at 200 % zoom (960×540) at the hall’s text size: every view’s first chart whole on the first screen, its text inside its frame', async () => {
  const browser = await session({ viewport: { width: 960, height: 540 } });
  const page = await browser.newPage(`${browser.url}?font=2`);
  for (const view of VIEWS) {
    await showView(page, view);
    await settled(page);
    await page.waitForTimeout(300);
    const chart = await page.locator('.view:not([hidden]) .panel canvas').first().boundingBox();
    assert.ok(chart.y + chart.height <= 540, `${view}: the first chart ends at ${Math.round(chart.y + chart.height)} px`);
    assert.ok(chart.height >= 240, `${view}: the first chart is ${Math.round(chart.height)} px tall`);
    assert.deepEqual(await chartsFitTheirFrames(page), [], view);
  }
  await showView(page, 'crawlers');
  await page.screenshot({ path: path.join(shots, 'short-crawlers-960x540-font2.png') });
  assert.deepEqual(browser.errors, []);
});

test("at the hall's text size a 1280×720 projector gets a phone's layout: the chart first at the whole width, the form folded under it", async () => {
  const browser = await session({ viewport: { width: 1280, height: 720 } });
  const page = await browser.newPage(`${browser.url}?view=crawlers&font=2`);
  await done(page, 'crawlers', 120_000);
  await page.waitForTimeout(300);
  const layout = () =>
    page.evaluate(() => {
      const box = (selector) => document.querySelector(selector).getBoundingClientRect();
      const [chart, form, panel] = [box('#crawlers canvas'), box('#crawlers .controls'), box('#crawlers')];
      return { narrow: document.documentElement.classList.contains('narrow'), chart, form, panel, folded: !document.querySelector('#crawlers .controls').open, scrolls: document.documentElement.scrollWidth > innerWidth };
    });
  const hall = await layout();
  assert.ok(hall.narrow, 'font 2 at 1280 px: the narrow layout');
  assert.ok(hall.chart.width >= 0.9 * hall.panel.width, `the chart takes ${Math.round(hall.chart.width)} of the panel's ${Math.round(hall.panel.width)} px`);
  assert.ok(hall.chart.bottom <= hall.form.top, 'the chart comes before the form');
  assert.ok(hall.folded, 'the form is folded');
  assert.ok(!hall.scrolls, 'no horizontal scroll');
  // the sibling views in one scrolling row: the panel starts by 360 px (their three
  // rows had pushed it to 397, the chart to 485)
  assert.ok(hall.panel.top <= 360, `the panel starts at ${Math.round(hall.panel.top)} px`);
  assert.deepEqual(await chartsFitTheirFrames(page), [], 'font 2');
  await page.screenshot({ path: path.join(shots, 'hall-crawlers-1280x720-font2.png') });
  // the Display menu's text size switches it back, without a reload
  await pickTextSize(page, '1.5');
  await page.waitForTimeout(300);
  const room = await layout();
  assert.ok(!room.narrow, 'font 1.5 at 1280 px: the form beside the chart');
  assert.ok(room.form.left >= room.chart.right, 'the form to the right of the chart');
  assert.deepEqual(browser.errors, []);
});

test('a run on a slide shows its progress and cancels like the full page', async () => {
  const browser = await session({ viewport: { width: 960, height: 540 } });
  // a repository large enough to take many seconds: the run at load is still going
  const page = await browser.newPage(`${browser.url}?embed=policies&controls=1&font=2&policies.repository.pages=200000&policies.repository.servers=5000`);
  const progress = page.locator('#policies .progress');
  await progress.waitFor({ state: 'visible', timeout: 20_000 });
  assert.match(await progress.locator('.eta').textContent(), /%|starting/);
  await progress.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#policies .status').textContent), null, { timeout: 20_000 });
  assert.equal(await progress.isVisible(), false, 'the progress strip goes away');
  assert.ok(await page.locator('#policies button.run').isEnabled(), 'the Run button is back');
  assert.deepEqual(browser.errors, []);
});
