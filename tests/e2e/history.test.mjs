// Your history (issue 47): the sample capture index read into rates, a Wikipedia dump
// read into a trace, a gzip file decompressed by the page, bad records refused by line,
// and the page list sent to the policies view in one click; sent to your crawler and
// tuned, the tuned files are compared with yours on the same redraws of the rates.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { sessions, setField, showView, shots } from './browser.mjs';

const session = sessions();
const details = (page) => page.locator('#history .details');
const read = (page) => page.waitForFunction(() => /records kept|generated captures of pages|Refused/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });

test('the view opens on generated captures against their true rates; the sample index is read and its page list runs in the policies view', async () => {
  const browser = await session({ viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  assert.match(await details(page).textContent(), /Against the generator's true rates: the 95% intervals hold [\d,]+ of [\d,]+ pages \(9\d\.\d %\)/);
  await page.screenshot({ path: path.join(shots, 'history-generated.png'), fullPage: true });
  await page.getByRole('button', { name: 'Load the sample capture index' }).click();
  await page.waitForFunction(() => /sample-captures\.cdx/.test(document.querySelector('#history .details')?.textContent ?? '') || /3,712 records/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  const text = await details(page).textContent();
  assert.match(text, /3,712 records kept from 3,918 lines \(CDX capture index/);
  assert.match(text, /error answer \(4xx, 5xx\): no content captured — 125 records/);
  assert.match(text, /redirect \(3xx\): a capture of the redirect, not of the page — 80 records/);
  assert.match(text, /leaves out 15 pages/);
  await page.screenshot({ path: path.join(shots, 'history.png'), fullPage: true });
  await page.locator('[data-send=policies]').click();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'policies');
  await page.waitForFunction(() => /127 rows on 30 servers/.test(document.querySelector('#policies .trace-status')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await page.locator('#policies').getByLabel('pages from', { exact: true }).inputValue(), 'page_list');
  // run there: each chart's caption gives the spread under the rates redrawn within their intervals
  await page.locator('#policies').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /The change rates are estimates: with each redrawn within its interval \(20 times\), each policy's mean freshness over the run is MERGE 0\.\d+ to 0\.\d+/.test(document.querySelector('#policies')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await page.locator('#policies').textContent(), /change rates are estimates with intervals/);
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a gzip dump of revisions becomes a trace for bursty changes; bad records are refused by line; a CDX server’s JSON answer and a shard gzipped in members are read', async () => {
  const browser = await session({ viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-history-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const dump = path.join(dir, 'revisions.xml.gz');
  fs.writeFileSync(dump, zlib.gzipSync(fs.readFileSync(new URL('../../www/samples/sample-revisions.xml', import.meta.url))));
  await page.locator('#history input[type=file]').setInputFiles(dump);
  await page.waitForFunction(() => /Loaded revisions\.xml/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /2,308 records kept .*MediaWiki/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.locator('[data-send=bursty]').click();
  await page.waitForFunction(() => /Loaded revisions-trace\.csv/.test(document.querySelector('#bursty .trace-status')?.textContent ?? ''), null, { timeout: 20_000 });
  assert.equal(await page.locator('#bursty').getByLabel('changes from', { exact: true }).inputValue(), 'trace');
  // a CDX line with a bad timestamp: refused, naming the file and line
  await page.evaluate(() => globalThis.freshlab.router.go('history'));
  const bad = path.join(dir, 'bad.cdx');
  fs.writeFileSync(bad, 'com,x)/ 20260101000000 http://x.com/ text/html 200 A - - 1 0 f\ncom,x)/ 2026010 http://x.com/ text/html 200 B - - 1 0 f\n');
  await page.locator('#history input[type=file]').setInputFiles(bad);
  await page.waitForFunction(() => /Loaded bad\.cdx/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /Refused/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await details(page).textContent(), /bad\.cdx: has 1 bad row.*line 2: timestamp “2026010”/);
  // a capture index gzipped in members, as Common Crawl's cdx-NNNNN.gz shards are; and cut short
  const line = (day, digest) => `com,x)/ 202601${day}000000 http://x.com/ text/html 200 ${digest} 9\n`;
  const members = Buffer.concat([zlib.gzipSync(line('01', 'A')), zlib.gzipSync(line('02', 'B')), zlib.gzipSync(line('03', 'B'))]);
  const shard = path.join(dir, 'cdx-00000.gz');
  fs.writeFileSync(shard, members);
  await page.locator('#history input[type=file]').setInputFiles(shard);
  await page.waitForFunction(() => /Loaded cdx-00000/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /^\s*3 records kept from 3 lines/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  const cut = path.join(dir, 'cut.cdx.gz');
  fs.writeFileSync(cut, members.subarray(0, members.length - 30));
  await page.locator('#history input[type=file]').setInputFiles(cut);
  await page.waitForFunction(() => /Not loaded: cut\.cdx\.gz: its gzip data are damaged or cut short in the member at byte \d+/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  // the Wayback CDX server's answer to a query with output=json, saved as it came
  const answer = path.join(dir, 'cdx-answer.json');
  fs.writeFileSync(
    answer,
    '[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],\n' +
      ' ["com,x)/", "20260101000000", "http://x.com/", "text/html", "200", "A", "9"],\n' +
      ' ["com,x)/", "20260102000000", "http://x.com/", "text/html", "200", "B", "9"],\n' +
      ' ["com,x)/", "20260103000000", "http://x.com/", "text/html", "200", "B", "9"]]\n',
  );
  await page.locator('#history input[type=file]').setInputFiles(answer);
  await page.waitForFunction(() => /Loaded cdx-answer\.json/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /3 records kept .*output=json/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a capture index’s mime types go with its pages to your crawler, where Nutch’s rates by type read them', async () => {
  const browser = await session({ viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  // six hosts captured daily for a month: the front page changes weekly, the feed every other day
  const stamp = (d) => `202601${String(d + 1).padStart(2, '0')}000000`;
  const lines = [' CDX N b a m s k r M S V g'];
  for (let h = 0; h < 6; h += 1) {
    for (let d = 0; d < 30; d += 1) lines.push(`example,s${h})/ ${stamp(d)} https://s${h}.example/ text/html 200 H${h}V${Math.floor(d / 7)} - - 1 0 a`);
    for (let d = 0; d < 30; d += 1) lines.push(`example,s${h})/feed ${stamp(d)} https://s${h}.example/feed application/rss+xml 200 F${h}V${Math.floor(d / 2)} - - 1 0 a`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-history-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'typed.cdx');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  await page.locator('#history input[type=file]').setInputFiles(file);
  await page.waitForFunction(() => /Loaded typed\.cdx/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /360 records kept/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  assert.match(await details(page).textContent(), /12 of 12 pages have a captured mime type/);
  await page.getByRole('link', { name: 'Run your crawler on these 12 pages with their mime types' }).click();
  await page.waitForFunction(() => document.documentElement.dataset.view === 'crawlers');
  const crawlers = page.locator('#crawlers');
  await page.waitForFunction(() => /12 rows on 6 servers/.test(document.querySelector('#crawlers').textContent), null, { timeout: 20_000 });
  const xml =
    '<?xml version="1.0"?>\n<configuration>\n  <property><name>db.fetch.schedule.class</name><value>org.apache.nutch.crawl.MimeAdaptiveFetchSchedule</value></property>\n</configuration>\n';
  await crawlers.getByLabel('Your crawler’s configuration file').setInputFiles({ name: 'nutch-site.xml', mimeType: 'text/xml', buffer: Buffer.from(xml) });
  await crawlers.getByRole('button', { name: 'Load a sample adaptive-mimetypes.txt' }).click();
  await crawlers.getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /Your pages' metadata/.test(document.querySelector('#crawlers .details')?.textContent ?? ''), null, { timeout: 60_000 });
  const keys = await crawlers.locator('table.proof', { hasText: 'Your pages\' metadata' }).evaluate((t) => [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent.trim())));
  assert.deepEqual(keys.map((k) => k.slice(0, 2)), [['Content-Type', '12']]);
  // the other views get the list without the column they would refuse
  await page.evaluate(() => globalThis.freshlab.router.go('history'));
  await page.locator('[data-send=policies]').click();
  await page.waitForFunction(() => /12 rows on 6 servers/.test(document.querySelector('#policies .trace-status')?.textContent ?? ''), null, { timeout: 20_000 });
  await page.screenshot({ path: path.join(shots, 'history-typed-policies.png') });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('the sample index’s pages tuned in your crawler: the tuned files against yours on the same redraws of the estimated rates', async () => {
  const browser = await session({ viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  await page.getByRole('button', { name: 'Load the sample capture index' }).click();
  await page.waitForFunction(() => /3,712 records kept/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  await page.getByRole('link', { name: /^Run your crawler on these 127 pages/ }).click();
  await page.waitForFunction(() => /127 rows on 30 servers/.test(document.querySelector('#crawlers').textContent), null, { timeout: 20_000 });
  const crawlers = page.locator('#crawlers');
  await crawlers.getByLabel('find a tuned configuration').check();
  await crawlers.getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /Run again on the same 20 redraws/.test(document.querySelector('#crawlers .details')?.textContent ?? ''), null, { timeout: 120_000 });
  const said = (await crawlers.locator('.tuned-redrawn').textContent()).replace(/\s+/g, ' ');
  const [, fresher, lo, hi, mid] = said.match(/fresher than yours over the whole run on (\d+) of them \(by ([+−]\d\.\d{4}) to ([+−]\d\.\d{4}), median ([+−]\d\.\d{4})\)/) ?? [];
  assert.ok(fresher, said);
  const value = (s) => Number(s.replace('−', '-'));
  assert.ok(value(lo) <= value(mid) && value(mid) <= value(hi), said);
  assert.ok(Number(fresher) <= 20 && (value(lo) <= 0 || Number(fresher) === 20) && (value(hi) > 0 || Number(fresher) === 0), said);
  await crawlers.locator('.details').screenshot({ path: path.join(shots, 'crawlers-tuned-redrawn.png') });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

test('a WARC file, gzipped a record a member as crawlers write it, is read in the worker as its capture index; a damaged one is refused with its record', async () => {
  const browser = await session({ viewport: { width: 1280, height: 900 } });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-warc-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  // WARC 1.1's records (CRLF line ends; a block and then two CRLFs), ASCII throughout
  const record = (type, date, headers, blockType, block, length = block.length) =>
    `WARC/1.1\r\nWARC-Type: ${type}\r\nWARC-Date: ${date}\r\nWARC-Target-URI: http://x.com/\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Type: ${blockType}\r\nContent-Length: ${length}\r\n\r\n${block}\r\n\r\n`;
  const response = (day, digest) => record('response', `2026-01-0${day}T00:00:00Z`, [`WARC-Payload-Digest: sha1:${digest}`], 'application/http; msgtype=response', `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>${digest}</p>`);
  const request = (day) => record('request', `2026-01-0${day}T00:00:00Z`, [], 'application/http; msgtype=request', 'GET / HTTP/1.1\r\nHost: x.com\r\n\r\n');
  const notModified = record('revisit', '2026-01-04T00:00:00Z', ['WARC-Profile: http://netpreserve.org/warc/1.1/revisit/server-not-modified'], 'application/http; msgtype=response', 'HTTP/1.1 304 Not Modified\r\n\r\n');
  const records = [request(1), response(1, 'AAAA'), request(2), response(2, 'AAAA'), request(3), response(3, 'BBBB'), notModified];
  const warc = path.join(dir, 'crawl.warc.gz');
  fs.writeFileSync(warc, Buffer.concat(records.map((r) => zlib.gzipSync(r))));
  await page.locator('#history input[type=file]').setInputFiles(warc);
  await page.waitForFunction(() => /Loaded crawl\.warc \([\d.]+ KB, the capture index of a WARC file: 7 records\)/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /4 records kept from 8 lines \(CDX .*; 1 WARC file read as its capture index, a line a record\)/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 60_000 });
  const text = await details(page).textContent();
  // A A B B(304): three intervals, one changed; the requests left out as not captures
  assert.match(text, /WARC record that is not a capture.*\s*3\b/);
  const kept = await page.evaluate(() => globalThis.freshlab.router.panels.get('history').result.pages.map((p) => [p.url, p.estimate.observations, p.estimate.changes]));
  assert.deepEqual(kept, [['http://x.com/', 3, 1]]);
  // a record whose Content-Length is wrong: the next record is not where it says
  const damaged = path.join(dir, 'damaged.warc.gz');
  const broken = record('response', '2026-01-05T00:00:00Z', ['WARC-Payload-Digest: sha1:CCCC'], 'text/html', '<p>C</p>', 3);
  fs.writeFileSync(damaged, Buffer.concat([...records, broken, response(6, 'DDDD')].map((r) => zlib.gzipSync(r))));
  await page.locator('#history input[type=file]').setInputFiles(damaged);
  await page.waitForFunction(() => /Not loaded: damaged\.warc\.gz: WARC record 9 \(at byte \d+ of the decompressed file\): starts with “/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  // cut short inside its last member
  const cut = path.join(dir, 'cut.warc.gz');
  fs.writeFileSync(cut, fs.readFileSync(warc).subarray(0, -30));
  await page.locator('#history input[type=file]').setInputFiles(cut);
  await page.waitForFunction(() => /Not loaded: cut\.warc\.gz: .*cut short/.test(document.querySelector('#history .trace-status')?.textContent ?? ''));
  assert.deepEqual(browser.errors, []);
  await page.close();
});

/** In the tests' own build, a history of 20,000 generated pages read: its page, the hook
 * that sets the tab's bytes (0: leaves them) and answers the worker's heap, and that heap
 * (the pages the worker keeps). */
async function historyKept() {
  const browser = await session({ hooks: true });
  const page = await browser.newPage(`${browser.url}?view=history`);
  await read(page);
  await setField(page, 'history', 'generated pages', 20_000);
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /Computed in/.test(document.querySelector('#history .status').textContent) && /20,000/.test(document.querySelector('#history .details')?.textContent ?? ''), null, { timeout: 120_000 });
  const hook = (bytes) => page.evaluate((b) => globalThis.freshlab.client.hookForTest('tab-test', String(b)), bytes);
  const kept = (await hook(0)).result;
  assert.ok(kept > 3e6, `the worker keeps the history's pages (6.1 MB when written): ${kept} bytes`);
  return { browser, page, hook, kept };
}

// A history's pages stay in the worker, and each run is checked beside what the worker
// keeps: a history near the tab's limit could not run again beside its own last result
// (refused, saying to reload). The view now frees its own result and runs again, once.
// The tests' own build lowers the tab's limit so that a run of seconds meets it.
test('a history run again beside its own last result: the view frees it and runs (the tests\' own build)', async () => {
  const { browser, page, hook, kept } = await historyKept();
  const needs = await page.evaluate(() => {
    const panel = globalThis.freshlab.router.panels.get('history');
    return panel.core.estimate(panel.check()).bytes;
  });
  // a tab where the run fits beside half of what is kept, not beside all of it
  await hook(Math.round(needs + kept / 2));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  // (the status of the run before says "Computed in" too: waited for is this run's end, or its refusal)
  await page.waitForFunction(() => /was freed in the worker|needs about|Not run/.test(document.querySelector('#history .status').textContent), null, { timeout: 120_000 });
  assert.match(await page.locator('#history .status').textContent(), /^Computed in .*, once this view’s last result was freed in the worker to make room\.$/);
  // the new result is the view's: its export comes from the worker that keeps it
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#history').getByRole('button', { name: /as CSV$/ }).first().click()]);
  assert.match(download.suggestedFilename(), /freshlab-history/);
  // a tab the run alone fills: beside anything kept, refused, saying so
  await setField(page, 'history', 'generated pages', 20_001);
  const fills = await page.evaluate(() => {
    const panel = globalThis.freshlab.router.panels.get('history');
    return panel.core.estimate(panel.check()).bytes;
  });
  await hook(Math.ceil(fills));
  await page.locator('#history').getByRole('button', { name: 'Read' }).click();
  await page.waitForFunction(() => /the page keeps of earlier results/.test(document.querySelector('#history .status').textContent), null, { timeout: 120_000 });
  assert.deepEqual(browser.errors, []);
  await page.close();
});

// Refused beside what other views keep (a history's pages), a view with no result of its
// own to free could only say to reload: it now frees every view's last result and runs.
// Their charts stay; a history's pages, a cut of the whole, are read again to export.
test('a run refused beside another view\'s history frees every view\'s result and runs (the tests\' own build)', async () => {
  const { browser, page, hook, kept } = await historyKept();
  await showView(page, 'crawlers');
  const needs = await page.evaluate(() => {
    const panel = globalThis.freshlab.router.panels.get('crawlers');
    return panel.core.estimate(panel.check()).bytes;
  });
  // the crawlers' run fits the tab alone, not beside the history's pages
  await hook(Math.round(needs + kept / 2));
  await page.locator('#crawlers').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /freed in the worker|needs about|Not run/.test(document.querySelector('#crawlers .status').textContent), null, { timeout: 120_000 });
  assert.match(await page.locator('#crawlers .status').textContent(), /^Computed in .*, once every view’s last result was freed in the worker to make room/);
  assert.ok((await hook(0)).result < kept / 2, 'the history\'s pages freed');
  // the history's chart stays; its pages, asked for, are to be read again
  await showView(page, 'history');
  assert.equal(await page.locator('#history canvas').count() > 0, true);
  await page.locator('#history').getByRole('button', { name: /as CSV$/ }).first().click();
  await page.waitForFunction(() => /freed to make room for another view.s run/.test(document.querySelector('#history .status').textContent), null, { timeout: 30_000 });
  assert.match(await page.locator('#history .status').textContent(), /run it again/);
  assert.deepEqual(browser.errors, []);
  await page.close();
});
