// Charts a lecturer can project (issue 15): every chart of every view keeps its texts in
// its frame and its legend off the data, at 1280×720 and on a phone; every embed fills a
// slide at every font size with no scrollbar. In a file of its own, so that node --test
// runs it beside the other files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { showView, auditAccessibility, shots, chartsFitTheirFrames, sessions, done, VIEWS, PANELS } from './browser.mjs';

const session = sessions();
// the embeds of slow panels at a size that answers in seconds
const QUICK = { sensors: '&sensors.pages=20000', 'sensors-beyond': '&sensors-beyond.pages=5000', bursty: '&bursty.generator.articles=60' };

test('every chart of every view keeps its texts in its frame and its legend off the data: 1280×720 and a phone', async () => {
  for (const viewport of [
    { width: 1280, height: 720 },
    { width: 390, height: 844 },
  ]) {
    const browser = await session({ viewport });
    const page = await browser.newPage();
    for (const view of VIEWS) {
      await showView(page, view);
      const panels = await page.locator('.view:not([hidden]) .panel').evaluateAll((s) => s.map((p) => p.id));
      for (const panel of panels) {
        // a panel that waits for its button (on a phone, inside the folded form)
        if (/Press/.test(await page.locator(`#${panel} .placeholder`).textContent())) {
          const folded = !(await page.locator(`#${panel} .controls`).evaluate((d) => d.open));
          if (folded) await page.locator(`#${panel} .controls > summary`).click();
          await page.locator(`#${panel} .buttons .primary`).click();
          if (folded) await page.locator(`#${panel} .controls > summary`).click();
        }
        await page.waitForFunction((p) => Number(document.querySelector(`#${p} canvas`)?.dataset.drawn ?? 0) > 0, panel, { timeout: 120_000 });
        await done(page, panel, 120_000);
      }
      await page.waitForTimeout(400);
      assert.deepEqual(await chartsFitTheirFrames(page), [], `${view} at ${viewport.width}×${viewport.height}`);
      if (viewport.width < 500) {
        assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), `${view}: no horizontal scroll on the phone`);
        // the chart comes before the form, which is folded away
        const chart = await page.locator('.view:not([hidden]) .panel canvas').first().boundingBox();
        const form = await page.locator('.view:not([hidden]) .panel .controls').first().boundingBox();
        assert.ok(chart.y < form.y, `${view}: the chart comes first`);
        assert.equal(await page.locator('.view:not([hidden]) .panel .controls[open]').count(), 0, `${view}: the form is folded`);
        await page.screenshot({ path: path.join(shots, `phone-${view}.png`), fullPage: true });
      }
    }
    assert.deepEqual(browser.errors, []);
    await page.close();
  }
});

// The slides an embed is checked on: loaded once at the first (its font from the URL),
// then the font switched from the toolbar's control and the window resized, as a lecturer
// might on the day; each state is checked once redrawn. One load per embed (it was one per
// slide) keeps the computations to one a panel.
const SLIDES = [
  { width: 960, height: 540, font: '1' },
  { width: 960, height: 540, font: '1.5' },
  { width: 960, height: 540, font: '2' },
  { width: 1024, height: 768, font: '1.5' },
  { width: 1280, height: 720, font: '1' },
];
// the screenshots kept: the last font of each size
const SHOTS = new Set([2, 3, 4]);

test('every embed fills a slide, 960×540 at font 1, 1.5 and 2, 1024×768 and 1280×720: no scrollbars, texts in the frame, legends off the data', async () => {
  const browser = await session({ viewport: SLIDES[0] });
  const page = await browser.context.newPage();
  for (const panel of PANELS) {
    const figure = panel === 'policies' ? '&figure=4' : panel === 'partition' ? '&figure=4' : '';
    const shown = Number(figure.match(/figure=(\d)/)?.[1] ?? 1) - 1;
    const canvas = page.locator(`#${panel} .chart-${shown} canvas`);
    const drawn = async () => Number((await canvas.getAttribute('data-drawn')) ?? 0);
    await page.setViewportSize(SLIDES[0]);
    await page.goto(`${browser.url}?embed=${panel}&font=${SLIDES[0].font}${figure}${QUICK[panel] ?? ''}`);
    await page.waitForFunction(([p, k]) => Number(document.querySelector(`#${p} .chart-${k} canvas`)?.dataset.drawn ?? 0) > 0, [panel, shown], { timeout: 120_000 });
    await done(page, panel, 120_000);
    for (const [i, { width, height, font }] of SLIDES.entries()) {
      if (i > 0) {
        const before = await drawn();
        await page.setViewportSize({ width, height });
        // the toolbar's text-size control (hidden in an embed; the page listens the same)
        await page.evaluate((f) => {
          const select = document.querySelector('#font');
          select.value = f;
          select.dispatchEvent(new Event('change'));
        }, font);
        await page.waitForFunction(([p, k, n]) => Number(document.querySelector(`#${p} .chart-${k} canvas`)?.dataset.drawn ?? 0) > n, [panel, shown, before], { timeout: 20_000 });
      }
      await page.waitForTimeout(300);
      const where = `${panel} at ${width}×${height}, font ${font}`;
      assert.equal(await page.evaluate(() => document.documentElement.dataset.fontScale), font, `${where}: the font applied`);
      const box = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth, sh: document.documentElement.scrollHeight, w: innerWidth, h: innerHeight }));
      assert.ok(box.sw <= box.w && box.sh <= box.h, `${where}: scrolls (${JSON.stringify(box)})`);
      const frame = await canvas.boundingBox();
      assert.ok(frame.width > 0.9 * width && frame.height > 0.6 * height, `${where}: chart ${frame.width}×${frame.height}`);
      assert.deepEqual(await chartsFitTheirFrames(page, `#${panel} .chart-${shown}`), [], where);
      if (SHOTS.has(i)) await page.screenshot({ path: path.join(shots, `embed-${panel}-${width}x${height}-font${font}.png`) });
    }
  }
  assert.deepEqual(await auditAccessibility(page), []);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
