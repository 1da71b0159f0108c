// Charts a lecturer can project (issue 15): every embed fills a slide at every text size
// and slide shape with no scrollbar, its texts in the frame and its legend off the data.
// The views' charts are in layout-views.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { auditAccessibility, shots, chartsFitTheirFrames, sessions, done, pickTextSize, PANELS } from './browser.mjs';

const session = sessions();
// the embeds of slow panels at a size that answers in seconds
const QUICK = { sensors: '&sensors.pages=20000', 'sensors-beyond': '&sensors-beyond.pages=5000', bursty: '&bursty.generator.articles=60' };

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
        await pickTextSize(page, font);
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
