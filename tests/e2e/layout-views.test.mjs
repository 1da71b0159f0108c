// Charts a lecturer can project (issue 15): every chart of every view keeps its texts in
// its frame and its legend off the data, at 1280×720 and on a phone. The embeds are in
// layout-embeds.test.mjs: two files of about a minute each, which node --test runs beside
// the others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { showView, shots, chartsFitTheirFrames, sessions, done, VIEWS } from './browser.mjs';

const session = sessions();

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
