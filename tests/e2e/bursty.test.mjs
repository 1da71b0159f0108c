// Bursty changes in a real browser: the five policies of the thesis's Fig 6.3 run in the
// worker; traces are imported from a file, dropped or loaded from the sample, and bad
// ones are refused with their lines.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedPage, inkOf, setField, settled, shots, watchLongTasks, done } from './browser.mjs';

const { page } = await sharedPage({ view: 'bursty' });
const status = () => page.locator('#bursty .status').textContent();

test('the view opens on its chart, and says what a run costs', async () => {
  await done(page, 'bursty', 120_000);
  assert.ok((await inkOf(page, '#bursty .chart-0 canvas')) > 0.005, 'the defaults drawn at load');
  assert.match(await page.locator('#bursty .chart-0 figcaption').textContent(), /^200 articles, [\d,]+ changes over 91 days/);
  const note = await page.locator('#bursty .estimate').textContent();
  assert.match(note, /^Needs about [\d.]+ MB and [\d,.]+( × 10\^\d+)? requests and GREEDY evaluations: roughly [\d.]+ s here\.$/);
});

test('five policies run in the worker and sit beside the thesis gaps', async () => {
  // the runs at load (and the engine's first draw of this view's figures) come first
  await settled(page);
  const noLongTask = await watchLongTasks(page, page.locator('#bursty').getByRole('button', { name: 'Simulate' }));
  await setField(page, 'bursty', 'articles (generator)', 60);
  await setField(page, 'bursty', 'politeness P (seconds)', 2500);
  await page.locator('#bursty').getByRole('button', { name: 'Simulate' }).click();
  await done(page, 'bursty', 120_000);
  const rows = await page.locator('#bursty table.proof tbody tr').evaluateAll((trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 5);
  assert.equal(rows[0][0], 'MERGE − UNPOLITE');
  assert.equal(rows[0][1], '|gap| < 0.4');
  assert.equal(rows[2][1], '10.30 ± 0.95');
  for (const r of rows) assert.equal(r.length, 7, 'five request rates');
  assert.ok(rows.every((r) => r.slice(2).every((c) => /^-?[\d.]+$/.test(c))), JSON.stringify(rows));
  for (const k of [0, 1, 2]) assert.ok((await inkOf(page, `#bursty .chart-${k} canvas`)) > 0.005, `figure ${k + 1} drawn`);
  assert.match(await page.locator('#bursty .chart-0 figcaption').textContent(), /60 articles, [\d,]+ changes over 91 days/);
  await noLongTask();
  await page.locator('#bursty').screenshot({ path: path.join(shots, 'wikipedia.png') });
});

test('the article\'s fetches are shown at another rate without a rerun, and a rate beyond the list is refused', async () => {
  const caption = () => page.locator('#bursty .chart-2 figcaption').textContent();
  assert.match(await caption(), /^At 20 % of the maximum rate\. Row 0: /);
  await setField(page, 'bursty', 'its fetches at request rate (from 0, in the list’s order)', 4);
  await page.waitForFunction(() => /Redrawn from the last run/.test(document.querySelector('#bursty .status').textContent));
  assert.match(await caption(), /^At 100 % of the maximum rate\. Row 0: /);
  assert.doesNotMatch(await status(), /Computed in/);
  await setField(page, 'bursty', 'its fetches at request rate (from 0, in the list’s order)', 5);
  await page.waitForFunction(() => /must be below the number of request rates \(5\)/.test(document.querySelector('#bursty .status').textContent));
  assert.match(await status(), /^Check “its fetches at request rate/);
  await setField(page, 'bursty', 'its fetches at request rate (from 0, in the list’s order)', 0);
  await page.waitForFunction(() => /Redrawn from the last run/.test(document.querySelector('#bursty .status').textContent));
  assert.match(await caption(), /^At 20 % of the maximum rate\. Row 0: /);
});

test('GREEDY\'s pilot for the estimate runs in the worker: a first guess without it until it answers', async () => {
  // the worker's pilots held until the test lets them go
  await page.evaluate(() => {
    const pool = globalThis.freshlab.client;
    globalThis.realPilot = pool.pilot;
    globalThis.heldPilots = [];
    pool.pilot = (config) => new Promise((resolve, reject) => globalThis.heldPilots.push(() => globalThis.realPilot.call(pool, config).then(resolve, reject)));
  });
  const note = () => page.locator('#bursty .estimate').textContent();
  // the estimate of the form's configuration, with the field as the form sent it, and
  // with the pilot run on this thread (only this test does that)
  const estimates = () =>
    page.evaluate(() => {
      const { core, router } = globalThis.freshlab;
      const { greedy_pilot: pilot, ...inputs } = router.panels.get('bursty').noted;
      return { pilot, sent: core.estimate({ ...inputs, greedy_pilot: pilot }).seconds, here: core.estimate(inputs).seconds, held: globalThis.heldPilots.length };
    });
  await setField(page, 'bursty', 'burstiness σ', 2.7);
  await page.waitForFunction(() => /first guess: a short pilot run in the background refines it\)\.$/.test(document.querySelector('#bursty .estimate').textContent));
  const guess = await estimates();
  assert.equal(guess.held, 1, 'one pilot asked of the worker');
  assert.equal(guess.pilot.works, undefined, 'its key only, while it runs');
  assert.notEqual(guess.sent, guess.here, 'priced without the pilot');
  await page.evaluate(() => globalThis.heldPilots.shift()());
  await page.waitForFunction(() => !/first guess/.test(document.querySelector('#bursty .estimate').textContent));
  const piloted = await estimates();
  assert.ok(piloted.pilot.works, JSON.stringify(piloted.pilot));
  assert.equal(piloted.sent, piloted.here, 'the worker\'s pilot is the one this thread would run');
  assert.match(await note(), /^Needs about [\d.]+ MB and [\d,.]+ requests and GREEDY evaluations: roughly [\d.]+ s here\.$/);
  // back to inputs whose pilot the worker gave: nothing asked, no guess
  await setField(page, 'bursty', 'burstiness σ', 2);
  await page.waitForTimeout(600);
  assert.equal((await estimates()).held, 0);
  assert.doesNotMatch(await note(), /first guess/);
  // a run started before its pilot's answer: the answer, coming in later, does not make
  // the chart out of date (the pilot priced the run; it is not one of its inputs)
  await setField(page, 'bursty', 'burstiness σ', 2.9);
  await page.waitForFunction(() => globalThis.heldPilots.length === 1);
  await page.locator('#bursty').getByRole('button', { name: 'Simulate' }).click();
  await done(page, 'bursty', 120_000);
  await page.evaluate(() => globalThis.heldPilots.shift()());
  await page.waitForFunction(() => !/first guess/.test(document.querySelector('#bursty .estimate').textContent));
  // the form checked again (the same value typed again)
  await setField(page, 'bursty', 'burstiness σ', 2.9);
  await page.waitForTimeout(500);
  assert.ok(await page.locator('#bursty .stale-note').isHidden(), await page.locator('#bursty .stale-note').textContent());
  await page.evaluate(() => (globalThis.freshlab.client.pilot = globalThis.realPilot));
  // the run and its export leave the pilot out: it priced the run, it is not part of it
  const configs = await page.evaluate(() => {
    const panel = globalThis.freshlab.router.panels.get('bursty');
    return [Object.keys(panel.lastConfig), Object.keys(panel.result.config)];
  });
  for (const keys of configs) assert.ok(keys.includes('generator') && !keys.includes('greedy_pilot'), keys.join());
});

test('the sample trace loads and replays', async () => {
  await page.locator('#bursty').getByRole('button', { name: 'Load the sample trace' }).click();
  // the sample is a script of its own, fetched on demand: the source switches once it is in
  const source = page.locator('#bursty').getByLabel('changes from');
  for (let i = 0; i < 100 && (await source.inputValue()) !== 'trace'; i++) await page.waitForTimeout(100);
  assert.equal(await source.inputValue(), 'trace');
  // its shape, read in the worker, is what the estimate prices (not its size)
  await page.waitForFunction(() => /6,707 changes of 20 articles over 91 days/.test(document.querySelector('#bursty .trace-status').textContent));
  await setField(page, 'bursty', 'article shown below (from 0)', 20);
  await page.waitForFunction(() => /must be below the number of articles \(20\)/.test(document.querySelector('#bursty .status').textContent));
  await setField(page, 'bursty', 'article shown below (from 0)', 0);
  await setField(page, 'bursty', 'politeness P (seconds)', 7200);
  await page.locator('#bursty').getByRole('button', { name: 'Simulate' }).click();
  await done(page, 'bursty', 120_000);
  assert.match(await page.locator('#bursty .details').textContent(), /20 articles, 6,707 changes over 91 days from 2007-01-01/);
  assert.match(await page.locator('#bursty .chart-1 figcaption').textContent(), /^Global warming: /);
  // the address, once the run is in, names the trace by its size and rows (its changes,
  // not its articles)
  await page.waitForFunction(() => /bursty\.file=234951%3A6707%3Asample-trace\.csv/.test(location.search), null, { timeout: 5000 });
});

test('a bad trace is refused with its lines, and an unreadable one at once', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const bad = path.join(dir, 'bad.csv');
  fs.writeFileSync(bad, 'page,timestamp\nA,2007-01-01T00:00Z\nA,2007-01-01T00:00Z\nB,soon\n');
  await page.locator('#bursty input[type=file]').setInputFiles(bad);
  await page.waitForFunction(() => /Loaded bad\.csv/.test(document.querySelector('#bursty .trace-status').textContent));
  // the worker reading its shape says at once what the run will refuse
  await page.waitForFunction(() => /but a run will refuse it: .*2 bad rows/.test(document.querySelector('#bursty .trace-status').textContent));
  await page.locator('#bursty').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /bad rows/.test(document.querySelector('#bursty .status').textContent), null, { timeout: 30_000 });
  const text = await status();
  assert.match(text, /has 2 bad rows; nothing was imported/);
  assert.match(text, /line 3: repeats the time of line 2/);
  assert.match(text, /line 4: “soon” is not an ISO-8601 time/);
  const latin1 = path.join(dir, 'latin1.csv');
  fs.writeFileSync(latin1, Buffer.from([...Buffer.from('A,0\nCaf'), 0xe9, ...Buffer.from(',60\n')]));
  await page.locator('#bursty input[type=file]').setInputFiles(latin1);
  await page.waitForFunction(() => /not UTF-8/.test(document.querySelector('#bursty .trace-status').textContent));
  assert.match(await page.locator('#bursty .trace-status').textContent(), /byte \d+ on line 2 is not valid UTF-8/);
  // and stays said once the form has checked the inputs again (the box's refresh wrote
  // over it with "No trace loaded" when the file was read in the worker)
  await page.waitForTimeout(1000);
  assert.match(await page.locator('#bursty .trace-status').textContent(), /Not loaded: latin1\.csv is not UTF-8 text \(byte \d+ on line 2/);
  // back to the generator: the panel runs again
  await page.locator('#bursty').getByLabel('changes from').selectOption('generator');
});

test('a trace dropped on the panel is loaded', async () => {
  await page.evaluate(() => {
    const data = new DataTransfer();
    data.items.add(new File(['page,timestamp\nA,2007-01-01T00:00Z\nA,2007-01-02T00:00Z\nB,1167609600\nB,1167700000\n'], 'dropped.csv', { type: 'text/csv' }));
    document.querySelector('#bursty .trace-drop').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  });
  await page.waitForFunction(() => /Loaded dropped\.csv/.test(document.querySelector('#bursty .trace-status').textContent));
  assert.equal(await page.locator('#bursty').getByLabel('changes from').inputValue(), 'trace');
  await page.locator('#bursty').getByRole('button', { name: 'Simulate' }).click();
  // done, or an error: either way the status says so
  await page.waitForFunction(() => document.querySelector('#bursty .status').textContent.length > 0 && !document.querySelector('#bursty button.run-button, #bursty .buttons button:not(.secondary)').disabled, null, { timeout: 90_000 });
  assert.match(await status(), /Computed in/);
  assert.match(await page.locator('#bursty .details').textContent(), /2 articles, 4 changes over 2 days from 2007-01-01/);
});
