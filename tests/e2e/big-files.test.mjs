// A researcher's large files in the page: once a page list or a trace of tens of MB is
// loaded, editing the form stays under 50 ms of main-thread work, because the form's
// checks send the core the file's size, not its text (which goes to the worker with the
// run). With the text, each edit held the main thread for about 2 s on a 130 MB list.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sharedPage, settled, setField, showView, watchLongTasks } from './browser.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-big-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A file of `rows` lines from `row(i)`, under a header, written in pieces. */
function bigFile(name, header, rows, row) {
  const file = path.join(dir, name);
  const out = fs.openSync(file, 'w');
  fs.writeSync(out, `${header}\n`);
  for (let start = 0; start < rows; start += 100_000) {
    const lines = [];
    for (let i = start; i < Math.min(rows, start + 100_000); i++) lines.push(row(i));
    fs.writeSync(out, `${lines.join('\n')}\n`);
  }
  fs.closeSync(out);
  return file;
}

const { browser, page } = await sharedPage({ view: 'learning' });

/** Loads `file` into `panel`'s drop box (the one labelled `boxLabel`, else its first;
 * then `afterLoad`), edits `label` and waits for the form's check to say what the run
 * would cost: no main-thread task over 50 ms meanwhile, and no refusal from the load on
 * (`watchAfterLoad`: from `afterLoad` on, where the file alone is rightly refused until
 * it has run). */
async function editWithFileHeld(panel, file, label, value, { afterLoad = async () => {}, boxLabel = null, watchAfterLoad = false } = {}) {
  await settled(page);
  const box = page.locator(`#${panel}`);
  // every error the panel's status shows (a refusal from the file's size alone, before
  // the worker has read its rows, was one)
  const watchErrors = () =>
    page.evaluate((p) => {
      const status = document.querySelector(`#${p} .status`);
      window.__errors = [];
      new MutationObserver(() => status.classList.contains('is-error') && window.__errors.push(status.textContent)).observe(status, { childList: true, characterData: true, subtree: true, attributes: true });
    }, panel);
  if (!watchAfterLoad) await watchErrors();
  await (boxLabel ? box.getByLabel(boxLabel) : box.locator('input[type=file]')).setInputFiles(file);
  await page.waitForFunction((p) => [...document.querySelectorAll(`#${p} .trace-status`)].some((s) => /Loaded big-/.test(s.textContent)), panel, { timeout: 60_000 });
  await afterLoad(box);
  if (watchAfterLoad) {
    // the refusal of the moment before is cleared by the check that follows
    await page.waitForFunction((p) => !document.querySelector(`#${p} .status`).classList.contains('is-error'), panel, { timeout: 60_000 });
    await watchErrors();
  }
  const cost = () => box.locator('.estimate, .status').allTextContents();
  const noLongTask = await watchLongTasks(page, box.getByLabel(label, { exact: true }));
  await setField(page, panel, label, value);
  // the check runs once typing pauses; its note names the size of the run (until the
  // worker has read the list's shape, the note says it is reading it)
  await page.waitForFunction((p) => /Needs about/.test(document.querySelector(`#${p} .estimate`)?.textContent ?? ''), panel, { timeout: 60_000 });
  await page.waitForTimeout(500);
  await noLongTask();
  assert.deepEqual(await page.evaluate(() => window.__errors), [], 'no refusal shown while the file was read');
  // nor an error thrown by the checks (a host file's shape as bytes could not cross into
  // the core's configuration: each check threw, and the note kept the estimate before)
  assert.deepEqual(browser.errors, []);
  return (await cost()).join(' ');
}

/** The crawlers view's sample nutch-site.xml and sample hosts, loaded from its `box`. */
async function loadNutchOnSampleHosts(box) {
  await box.getByRole('button', { name: 'Load a sample nutch-site.xml' }).click();
  await box.getByRole('button', { name: 'Load the sample page list with hosts’ limits' }).click();
  await page.waitForFunction(() => /3,000 rows on 600 servers/.test(document.querySelector('#crawlers').textContent), null, { timeout: 60_000 });
}

test('a page list of 60 MB held by the learning view: editing the form stays light', async () => {
  const file = bigFile('big-pages.csv', 'page,server,change_rate,weight', 1_000_000, (i) => `https://site${i % 20_000}.example/page/${i},site${i % 20_000}.example,0.${(i * 7919) % 100_000},1`);
  assert.ok(fs.statSync(file).size > 50e6);
  const words = await editWithFileHeld('learning', file, 'time bins', 47);
  // the estimate reads the list's shape: its import alone holds ~420 bytes a page
  const mb = Number(/Needs about ([\d.]+) MB/.exec(words)?.[1]);
  assert.ok(mb >= 420 && mb < 2048, words);
});

test('a trace of 60 MB held by the bursty view: editing the form stays light', async () => {
  await showView(page, 'bursty');
  const file = bigFile('big-trace.csv', 'page,timestamp', 3_000_000, (i) => `a${i % 5000},${1_600_000_000 + 10 * i}`);
  assert.ok(fs.statSync(file).size > 50e6);
  const words = await editWithFileHeld('bursty', file, 'GREEDY samples per article', 2, { afterLoad: (box) => box.getByLabel('changes from').selectOption('trace') });
  assert.match(words, /needs about/i, words);
  // the worker reads its shape: the estimate then prices its own articles and changes
  await page.waitForFunction(() => /3,000,000 changes of 5,000 articles over 348 days/.test(document.querySelector('#bursty .trace-status').textContent), null, { timeout: 60_000 });
});

// The host file is read once, in the worker, for its shape (its hosts and bounds): the
// form's checks send the shape, never the text (one of 0.9 MB read at every check took
// 83 ms, and the file was limited to 256 KB until then, now 64 MB: the tuned file of a
// page list of 12,000 hosts, 470 KB, could not be loaded back)
test('a Nutch host file of 30 MB held by the crawlers view: editing the form stays light', async () => {
  await showView(page, 'crawlers');
  const file = bigFile('big-hosts.txt', '# every host its own bounds', 1_000_000, (i) => `site${i + 1}.example 3600 ${86_400 + (i % 1000)}`);
  assert.ok(fs.statSync(file).size > 28e6, `${fs.statSync(file).size} bytes`);
  // Nutch's adaptive schedule on the sample hosts, which the file's first two name (the
  // file on the generated pages before them, which have no host names, is refused: a
  // loaded machine showed that refusal before the samples came)
  const words = await editWithFileHeld('crawlers', file, 'time bins of the freshness curves', 47, { afterLoad: loadNutchOnSampleHosts, boxLabel: 'Nutch’s per-host intervals (adaptive-host-specific-intervals.txt)', watchAfterLoad: true });
  assert.match(words, /needs about/i, words);
  const status = await page.locator('#crawlers .trace-status').allTextContents();
  assert.ok(status.some((s) => /Loaded big-hosts\.txt \([\d,]+ KB\): 1,000,000 hosts/.test(s)), status.join(' | '));
});

// A seed list is read once, in the worker, for its shape (its pages and pairs): the
// form's checks send the shape, never the text (a 2 MB list read at every edit held the
// page 0.47 s; the list was limited to 256 KB until then, now 64 MB)
test('a seed list of 35 MB held by the crawlers view: editing the form stays light', async () => {
  // the view afresh (the host file's test left its form edited, its run not redone)
  await page.goto(page.url().replace(/\?.*$/, '?view=crawlers'));
  await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
  const file = bigFile('big-seeds.txt', '# every page its own interval', 500_000, (i) => `https://site${i % 20_000}.example/page/${i}\tnutch.fetchInterval.fixed=${3600 + (i % 1000)}`);
  assert.ok(fs.statSync(file).size > 30e6, `${fs.statSync(file).size} bytes`);
  const words = await editWithFileHeld('crawlers', file, 'time bins of the freshness curves', 48, { afterLoad: loadNutchOnSampleHosts, boxLabel: 'Your seed list (Nutch’s Injector, StormCrawler’s seeds)', watchAfterLoad: true });
  assert.match(words, /needs about/i, words);
  const status = await page.locator('#crawlers .trace-status').allTextContents();
  assert.ok(status.some((s) => /Loaded big-seeds\.txt \([\d,]+ KB\): 500,000 pages/.test(s)), status.join(' | '));
});

// A crawler's configuration (at most 1 MB) was checked on the main thread as it is, and
// the checks keep what reading it gave (now in the worker, over 64 K characters: below): a crawler-beans.cxml of 10,000 beans held the
// page 7.5 s at each check (roxmltree's line of a node counted from the file's start, at
// each of its beans); then, read in linear time, 70 ms at each of the check's two reads
test('a crawler-beans.cxml near the 1 MB limit held by the crawlers view: editing the form stays light', async () => {
  await page.goto(page.url().replace(/\?.*$/, '?view=crawlers'));
  await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
  const file = bigFile(
    'big-crawler-beans.cxml',
    '<?xml version="1.0" encoding="UTF-8"?>\n<beans xmlns="http://www.springframework.org/schema/beans">\n<bean id="disposition" class="org.archive.crawler.postprocessor.DispositionProcessor"><property name="delayFactor" value="4.0"/></bean>',
    10_000,
    (i) => (i < 9_999 ? `<bean id="b${i}" class="org.example.Thing"><property name="p${i}" value="${i}"/></bean>` : '</beans>'),
  );
  const bytes = fs.statSync(file).size;
  assert.ok(bytes > 850e3 && bytes < 2 ** 20, `${bytes} bytes`);
  const words = await editWithFileHeld('crawlers', file, 'time bins of the freshness curves', 49, { boxLabel: 'Your crawler’s configuration file' });
  assert.match(words, /needs about/i, words);
  assert.equal(await page.locator('#crawlers').getByLabel('crawler', { exact: true }).inputValue(), 'heritrix', 'the crawler is set from the file');
});

// A crawler's file over 64 K characters is checked in the worker, not on the main thread:
// there a crawler-conf.yaml of 42,000 keys took 150 ms to read as it loaded, and each
// edit of the crawler settings written over it 100 ms more (a new text to read each time).
test('a crawler-conf.yaml near the 1 MB limit: loading it and editing the settings over it keep the main thread light, and its problems still show', async () => {
  await page.goto(page.url().replace(/\?.*$/, '?view=crawlers'));
  await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
  await settled(page);
  const file = bigFile('big-crawler-conf.yaml', 'config:\n  fetcher.server.delay: 2.0', 41_000, (i) => `  my.key.${i}: ${i}`);
  const bytes = fs.statSync(file).size;
  assert.ok(bytes > 850e3 && bytes < 2 ** 20, `${bytes} bytes`);
  const box = page.locator('#crawlers');
  const note = () => page.evaluate(() => document.querySelector('#crawlers .estimate').textContent);
  const settings = 'crawler settings over the file (name=value; …)';
  const noLongTask = await watchLongTasks(page, box.getByLabel(settings, { exact: true }));
  // every note the form shows: the worker's check says it is under way, then its estimate
  await page.evaluate(() => {
    const estimate = document.querySelector('#crawlers .estimate');
    window.__notes = [];
    new MutationObserver(() => window.__notes.push(estimate.textContent)).observe(estimate, { childList: true, characterData: true, subtree: true });
  });
  const answered = () => page.waitForFunction(() => /in the worker/.test(window.__notes.at(-2) ?? '') && /Needs about/.test(window.__notes.at(-1)), null, { timeout: 60_000 });
  await box.getByLabel('Your crawler’s configuration file').setInputFiles(file);
  await page.waitForFunction(() => /Loaded big-crawler-conf/.test(document.querySelector('#crawlers').textContent), null, { timeout: 60_000 });
  await answered();
  assert.equal(await box.getByLabel('crawler', { exact: true }).inputValue(), 'stormcrawler', 'the crawler is set from the file');
  const loaded = await note();
  // each edit of the settings over the file is a new file to read: the worker reads it
  for (const delay of [3, 4, 5]) {
    await page.evaluate(() => (window.__notes = []));
    await setField(page, 'crawlers', settings, `fetcher.server.delay=${delay}`);
    await answered();
  }
  // a value the crawler cannot take is refused by name, as on the page's thread
  await setField(page, 'crawlers', settings, 'fetcher.server.delay=soon');
  await page.waitForFunction(() => /fetcher\.server\.delay/.test(document.querySelector('#crawlers .status').textContent), null, { timeout: 60_000 });
  assert.match(await page.locator('#crawlers .status').textContent(), /number/);
  await setField(page, 'crawlers', settings, 'fetcher.server.delay=5');
  await page.waitForFunction(() => /Needs about/.test(document.querySelector('#crawlers .estimate').textContent) && !document.querySelector('#crawlers .status').classList.contains('is-error'), null, { timeout: 60_000 });
  await page.waitForTimeout(500);
  await noLongTask();
  assert.match(loaded, /Needs about .* roughly/, loaded);
  // and the run reads the file as checked
  await box.getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /Computed in/.test(document.querySelector('#crawlers .status').textContent), null, { timeout: 120_000 });
  assert.match(await box.textContent(), /fetcher\.server\.delay/);
  assert.deepEqual(browser.errors, []);
});

// A file is read in the worker, never on the page's main thread: the page keeps its
// handle (a File), its size and shape, and a run names it by marker (worker-files.js).
// Before, decoding a 100 MB index held the main thread 0.44 s, and starting a run on a
// 60 MB page list 2.0 s (the pool's cost and cut read the whole list's text here); then
// the press of the button 46–65 ms, at the limit (the shape's 20,000 servers' sizes read
// one by one at each of the check's three reads, and copied at each comparison of the
// form with the chart: now runs of equal sizes, and the file's serial in the comparison)
test('a page list of 60 MB: loading it, starting its run and cancelling it keep the main thread light', async () => {
  await page.goto(page.url().replace(/\?.*$/, '?view=learning'));
  await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
  await settled(page);
  const file = path.join(dir, 'big-pages.csv');
  assert.ok(fs.existsSync(file), 'the first test wrote the list');
  const box = page.locator('#learning');
  const noLongTask = await watchLongTasks(page, box.locator('input[type=file]'));
  await box.locator('input[type=file]').setInputFiles(file);
  await page.waitForFunction(() => /Loaded big-pages\.csv \([\d,]+ KB\): 1,000,000 rows on 20,000 servers/.test(document.querySelector('#learning .trace-status').textContent), null, { timeout: 60_000 });
  await box.getByRole('button', { name: 'Simulate' }).click();
  // the worker reads the list from its handle and builds the run meanwhile
  await page.waitForTimeout(3000);
  await box.getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#learning .status').textContent), null, { timeout: 30_000 });
  await noLongTask();
  assert.deepEqual(browser.errors, []);
});

test('a capture index gzipped in 60 members (21 MB of text) loads, is read, shown and sent to another view without holding the main thread', async () => {
  await page.goto(page.url().replace(/\?.*$/, '?view=history'));
  await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
  await settled(page);
  // Common Crawl's shards are gzipped a block of 3,000 lines a member
  const members = [];
  const lines = [' CDX N b a m s k r M S V g'];
  for (let i = 0; i < 180_000; i++) {
    const page = i % 20_000;
    const day = String(1 + Math.floor(i / 20_000)).padStart(2, '0');
    lines.push(`example,site${page % 500})/p${page} 202601${day}000000 http://site${page % 500}.example/p${page} text/html 200 D${page}V${Math.floor(i / 40_000)}${'A'.repeat(24)} - - 9000 ${i} crawl-00001.warc.gz`);
  }
  for (let k = 0; k < lines.length; k += 3000) members.push(zlib.gzipSync(`${lines.slice(k, k + 3000).join('\n')}\n`));
  const file = path.join(dir, 'cdx-00042.gz');
  fs.writeFileSync(file, Buffer.concat(members));
  const box = page.locator('#history');
  const noLongTask = await watchLongTasks(page, box.locator('input[type=file]'));
  await box.locator('input[type=file]').setInputFiles(file);
  await page.waitForFunction(() => /Loaded cdx-00042 \([\d,.]+ KB\)/.test(document.querySelector('#history .trace-status').textContent), null, { timeout: 60_000 });
  // in time order (nine rounds over 20,000 pages) its head names each page once, as an
  // index of one crawl would: its pages were counted as it loaded, and it is priced by
  // them (taken for a page a capture, it had read 200 MB)
  await page.waitForFunction(() => /Needs about .* bytes of records/.test(document.querySelector('#history .estimate')?.textContent ?? ''), null, { timeout: 20_000 });
  const needs = await box.locator('.estimate').textContent();
  const mb = Number(/Needs about ([\d.]+) MB/.exec(needs)?.[1]);
  assert.ok(mb > 21 && mb < 60, needs);
  // the result of 20,000 pages stays in the worker: the page gets the figures built there
  // (read here, the whole result held the main thread 0.13–0.17 s) and the ten pages its
  // table lists (crossing whole, the result's copy took 30–35 ms); the exports and the
  // page list are written there
  await box.getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /Computed in/.test(document.querySelector('#history .status').textContent), null, { timeout: 120_000 });
  const read = await page.evaluate(() => {
    const { result } = globalThis.freshlab.router.panels.get('history');
    return { pages: result.statuses.reduce((sum, [, n]) => sum + n, 0), shown: result.pages.length, said: result.said };
  });
  assert.equal(read.pages, 20_000, read.said);
  assert.equal(read.shown, 10, 'the ten fastest-changing pages cross to the page');
  assert.equal(await box.locator('canvas').count(), 3, 'the rates, the spacing and the servers are drawn');
  // the exports are written by the worker: the JSON holds the whole result and the
  // configuration with the index's text, the CSV a row a page
  const saved = async (name) => {
    const [download] = await Promise.all([page.waitForEvent('download'), box.getByRole('button', { name: `Download the data of How often your pages change as ${name}` }).click()]);
    const file = path.join(dir, download.suggestedFilename());
    await download.saveAs(file);
    return fs.readFileSync(file, 'utf8');
  };
  const exported = JSON.parse(await saved('JSON'));
  assert.equal(exported.result.pages.length, 20_000);
  assert.equal(exported.config.files[0].text.split('\n').length, 180_002, 'the index, its legend and its last line end');
  assert.equal((await saved('CSV')).trim().split('\n').length, 20_001);
  await box.locator('[data-send=policies]').click();
  await page.waitForFunction(() => /Loaded cdx-00042-pages\.csv \([\d,.]+ KB\): 20,000 rows on 500 servers/.test(document.querySelector('#policies .trace-status')?.textContent), null, { timeout: 60_000 });
  await noLongTask();
  assert.deepEqual(browser.errors, []);
});

test('two thousand small crawl logs held by the history view: the form prices them from 63 heads and stays light, its status names five of them, and the run reads every file', async () => {
  await showView(page, 'history');
  const box = page.locator('#history');
  // a log a page (twelve monthly visits of its URL), as a crawl kept per URL would be
  const log = (f) => Array.from({ length: 12 }, (_, v) => `2025-${String(v + 1).padStart(2, '0')}-01T05:00:00Z 200 10 http://s${f % 50}.example/p${f} - - text/html #001 20250101000000+1 sha1:D${f}x${v >> 2} - -\n`).join('');
  const files = Array.from({ length: 2000 }, (_, f) => ({ name: `crawl-${f}.log`, mimeType: 'text/plain', buffer: Buffer.from(log(f)) }));
  await box.locator('input[type=file]').setInputFiles(files);
  await page.waitForFunction(
    () => /Loaded 2,000 files \(crawl-0\.log, crawl-1\.log, crawl-2\.log, crawl-3\.log, crawl-4\.log, … and 1,995 more\)/.test(document.querySelector('#history .trace-status').textContent),
    null,
    { timeout: 60_000 },
  );
  // each check holds the heads of 63 files and the others together (each check of every
  // file's head had held the main thread 133 ms)
  const entries = await page.evaluate(() => globalThis.freshlab.router.panels.get('history').records.heads.map((h) => (h.unsampled ? h.name : 'head')));
  assert.deepEqual(entries.filter((e) => e !== 'head'), ['1,937 more files']);
  assert.equal(entries.length, 64);
  // watched from here: the test's own hand-over of 2,000 files' bytes to the input is one
  // message of the browser's (431 ms of CPU), which a user's choice of files on disk is not
  const noLongTask = await watchLongTasks(page, box.getByLabel('confidence of the intervals', { exact: true }));
  await setField(page, 'history', 'confidence of the intervals', 0.9);
  await page.waitForFunction(() => /Needs about .* bytes of records/.test(document.querySelector('#history .estimate')?.textContent ?? ''), null, { timeout: 20_000 });
  await page.waitForTimeout(500);
  await box.getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /Computed in/.test(document.querySelector('#history .status').textContent), null, { timeout: 120_000 });
  const read = await page.evaluate(() => {
    const { result } = globalThis.freshlab.router.panels.get('history');
    return { pages: result.statuses.reduce((sum, [, n]) => sum + n, 0), said: result.said };
  });
  assert.equal(read.pages, 2000, read.said);
  await noLongTask();
  assert.deepEqual(browser.errors, []);
});
