// The weight of the page: bytes transferred on a first visit and on a second embed (a
// second slide of the same deck, from the browser's cache), and the time from navigation
// to the first chart drawn, in headless Chromium over the local server. Used by
// `npm run bench` for BENCHMARKS.md; `node scripts/load.mjs [DIST] [--plain]` prints one
// measurement (--plain: the server sends files uncompressed, as npm start did before).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Bytes on the wire of everything one page loads, from the devtools protocol. */
async function transferred(page, address, ready) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  const files = [];
  cdp.on('Network.loadingFinished', (e) => (bytes += e.encodedDataLength));
  cdp.on('Network.responseReceived', (e) => files.push({ url: new URL(e.response.url).pathname, cached: e.response.fromDiskCache || e.response.fromMemoryCache || e.response.status === 304 }));
  const started = Date.now();
  await page.goto(address);
  await page.waitForFunction(ready, null, { timeout: 60_000 });
  const ms = Date.now() - started;
  await page.waitForTimeout(300);
  await cdp.detach();
  return { bytes, ms, files };
}

/** Measures `dir` (a built dist/): the first visit and a second embed in the same
 * browser. `firstChart`: a page function true once the landing view's chart is drawn. */
export async function measureLoad(dir, { compress = true, embed = 'level-sets', runs = 3 } = {}) {
  const first = [];
  const second = [];
  for (let k = 0; k < runs; k++) {
    const server = await serve(dir, 0, { compress });
    const url = `http://127.0.0.1:${server.address().port}/`;
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-load-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS, viewport: { width: 1280, height: 720 } });
    try {
      const drawn = () => [...document.querySelectorAll('canvas')].some((c) => Number(c.dataset.drawn ?? 0) > 0);
      first.push(await transferred(await context.newPage(), url, drawn));
      second.push(await transferred(await context.newPage(), `${url}?embed=${embed}`, drawn));
    } finally {
      await context.close();
      server.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return {
    first_bytes: median(first.map((r) => r.bytes)),
    first_chart_ms: median(first.map((r) => r.ms)),
    second_bytes: median(second.map((r) => r.bytes)),
    second_chart_ms: median(second.map((r) => r.ms)),
    files: first[0].files,
    second_files: second[0].files,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'dist';
  const result = await measureLoad(dir, { compress: !process.argv.includes('--plain') });
  console.log(JSON.stringify(result, null, 1));
}
