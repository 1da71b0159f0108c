// In the lecture hall (issue 44): a chart on a slide that a room can read and a lecturer
// can drive. A reveal.js deck (the npm package) of three Freshlab slides, served from
// another origin as a lecturer's deck would be and from the same one: change a value on a
// slide, run it, press the right arrow inside the chart, and the deck moves on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sessions, shots, done } from './browser.mjs';
import { serve } from '../../scripts/serve.mjs';
import { root } from '../../scripts/shell.mjs';

const session = sessions();

/** A reveal.js deck of three slides embedding Freshlab at `freshlab` (an address), written
 * into `dir` with reveal.js's own files. Each slide is the code the Embed dialog writes for
 * reveal.js: an iframe with data-src, which reveal.js loads when the slide is near. */
function writeDeck(dir, freshlab) {
  const reveal = path.join(root, 'node_modules', 'reveal.js', 'dist');
  fs.mkdirSync(path.join(dir, 'reveal'), { recursive: true });
  for (const file of ['reveal.js', 'reveal.css']) fs.copyFileSync(path.join(reveal, file), path.join(dir, 'reveal', file));
  const slide = (query) => `<section><iframe data-src="${freshlab}${query}" width="960" height="540" style="border:0" title="Freshlab"></iframe></section>`;
  fs.writeFileSync(
    path.join(dir, 'deck.html'),
    `<!doctype html><html><head><meta charset="utf-8"><link rel="stylesheet" href="reveal/reveal.css"></head><body>
<div class="reveal"><div class="slides">
${slide('?embed=home&controls=p&font=2')}
${slide('?embed=policies&controls=1&font=2')}
${slide('?embed=factor-curves&font=2')}
</div></div>
<script src="reveal/reveal.js"></script>
<script>Reveal.initialize({ width: 960, height: 540, hash: false, transition: 'none' });</script>
</body></html>`,
  );
}

/** The deck's horizontal slide. */
const slideOf = (page) => page.evaluate(() => globalThis.Reveal.getIndices().h);

async function driveDeck(page, frameOf) {
  await page.waitForFunction(() => globalThis.Reveal?.isReady());
  // slide 1: change P on the slide, Enter runs it, the right arrow moves on
  const first = await frameOf(0);
  await first.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  await done(first, 'home', 60_000);
  const p = first.locator('#home').getByLabel('politeness P', { exact: false });
  await p.fill('3600');
  await p.press('Enter');
  await first.waitForFunction(() => /Computed in/.test(document.querySelector('#home .status').textContent) && /home\.politeness_seconds=3600/.test(location.search), null, { timeout: 30_000 });
  // a click on the chart, as a lecturer points at it; then the arrow key inside the frame
  await first.locator('#home canvas').click();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => globalThis.Reveal.getIndices().h === 1, null, { timeout: 5000 });
  // slide 2: the values in a drawer (they do not fit beside each other at font 2), a run
  // with progress and Cancel, then a clicker's Page Down
  const second = await frameOf(1);
  await second.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  await done(second, 'policies', 120_000);
  const values = second.getByRole('button', { name: 'Values' });
  await values.click();
  const days = second.locator('#policies').getByLabel('simulated days', { exact: false });
  await days.fill('730');
  await days.press('Enter');
  await second.waitForSelector('#policies .progress:not([hidden])', { timeout: 10_000 }).catch(() => {});
  await done(second, 'policies', 120_000);
  assert.equal(await second.locator('#policies .controls.drawer-open').count(), 0, 'Enter closed the drawer');
  assert.match(await second.locator('#policies figcaption').first().textContent(), /2 years|730/);
  await second.locator('#policies canvas:visible').click();
  await page.keyboard.press('PageDown');
  await page.waitForFunction(() => globalThis.Reveal.getIndices().h === 2, null, { timeout: 5000 });
  // slide 3: back with the left arrow, from inside the plain embed
  const third = await frameOf(2);
  await third.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  await third.locator('canvas:visible').click();
  await page.keyboard.press('ArrowLeft');
  await page.waitForFunction(() => globalThis.Reveal.getIndices().h === 1, null, { timeout: 5000 });
  // reveal.js reloads a slide's chart when it comes back: the slide shows it again
  const again = await frameOf(1);
  await again.waitForSelector('html[data-ready="true"]', { timeout: 30_000 });
  await done(again, 'policies', 120_000);
}

for (const origin of ['another origin', 'the same origin']) {
  test(`a reveal.js deck from ${origin}: change a value on a slide, run it, and the arrow keys inside the chart move the deck`, async () => {
    const browser = await session({ viewport: { width: 1280, height: 720 } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-deck-'));
    let server = null;
    let deckUrl;
    if (origin === 'another origin') {
      writeDeck(dir, browser.url);
      server = await serve(dir, 0);
      deckUrl = `http://127.0.0.1:${server.address().port}/deck.html`;
    } else {
      // the deck beside a copy of the site, on the site's own server
      fs.cpSync(path.join(root, 'dist'), path.join(dir, 'site'), { recursive: true });
      writeDeck(dir, 'site/');
      server = await serve(dir, 0);
      deckUrl = `http://127.0.0.1:${server.address().port}/deck.html`;
    }
    try {
      const page = await browser.context.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(deckUrl);
      const frameOf = async (k) => {
        const handle = await page.waitForSelector(`.slides > section:nth-child(${k + 1}) iframe[src]`, { state: 'attached', timeout: 20_000 });
        return handle.contentFrame();
      };
      await driveDeck(page, frameOf);
      await page.screenshot({ path: path.join(shots, `deck-${origin.replace(/ /g, '-')}.png`) });
      assert.deepEqual(errors, []);
      await page.close();
    } finally {
      server?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
}
