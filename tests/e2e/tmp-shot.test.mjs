import { test } from 'node:test';
import { open, settled } from './browser.mjs';
test('shots', async () => {
  const b = await open({ viewport: { width: 800, height: 600 } });
  for (const q of ['?embed=learning&font=3', '?embed=learning&controls=1&font=3']) {
    const page = await b.newPage(b.url + q);
    await settled(page);
    await page.waitForFunction(() => /Computed in/.test(document.querySelector('.embedded .status')?.textContent ?? ''), null, { timeout: 120000 }).catch(() => {});
    await page.waitForTimeout(500);
    const name = q.replace(/[^a-z0-9]+/g, '_');
    await page.screenshot({ path: `/tmp/shot${name}.png` });
    console.log(q, JSON.stringify(await page.evaluate(() => { const c = [...document.querySelectorAll('canvas')].find((c) => c.offsetParent); const f = c.frame; return { h: f.texts.map((t) => t[3] - t[1]), legend: f.legend, w: f.width, ht: f.height }; })));
  }
  await b.close();
});
