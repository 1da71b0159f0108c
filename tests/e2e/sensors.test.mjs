// Robots vs sensors in a real browser: the article's full experiment (200,000 pages, one
// week) runs in the worker in seconds, grows live, and is shown beside the article.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sharedPage, inkOf, setField, settled, shots, watchLongTasks, done } from './browser.mjs';

const { page } = await sharedPage({ view: 'sensors' });

test('the full published experiment runs in the worker, growing live, without blocking the page', async () => {
  // the load-time runs and the engine's first draws come first; then a fresh run
  await settled(page);
  const noLongTask = await watchLongTasks(page, page.locator('#sensors').getByRole('button', { name: 'Simulate' }));
  await page.locator('#sensors').getByRole('button', { name: 'Simulate' }).click();
  // a partial curve appears while the run is in progress
  await page.waitForFunction(() => /\(so far\)/.test(document.querySelector('#sensors .details').textContent), null, { timeout: 60_000 });
  await done(page, 'sensors', 120_000);
  const status = await page.locator('#sensors .status').textContent();
  // "Computed in 927 ms." or "Computed in 1.2 s."
  const [, amount] = status.match(/Computed in ([\d.,]+) (ms|s)\b/) ?? [null, '0'];
  assert.ok(Number(amount.replace(/,/g, '')) > 0, status);
  await noLongTask();
  assert.ok((await inkOf(page, '#sensors canvas')) > 0.02);
  await page.locator('#sensors').screenshot({ path: path.join(shots, 'sensors.png') });
});

test('the metrics sit beside the article with the difference', async () => {
  const rows = await page.locator('#sensors table.proof').evaluate((t) => Object.fromEntries([...t.tBodies[0].rows].map((r) => [r.cells[0].textContent, [...r.cells].slice(1).map((c) => c.textContent)])));
  const [article, ours] = rows['robot: stationary freshness'];
  assert.equal(article, '40.7 %');
  const robot = Number(ours.match(/^([\d.]+) %/)[1]);
  assert.ok(Math.abs(robot - 40.7) < 5, `robot ${robot} %`);
  const sensors = Number(rows['sensors: stationary freshness'][1].match(/^([\d.]+) %/)[1]);
  assert.ok(Math.abs(sensors - 93.6) < 2, `sensors ${sensors} %`);
  assert.equal(rows['sensors: notifications at once, at most'][0], '12');
  assert.match(rows['robot: cycle ends'][1], /^3,1\d\d,\d{3}, 5,8\d\d,\d{3}/);
  assert.match(rows['robot: bytes downloaded'][2], /^[+-]\d+\.\d %$/);
});

test('beyond the article: more robots cost bandwidth, and the chart says how many match the sensors', async () => {
  await setField(page, 'sensors-beyond', 'robot counts to try', '1, 4, 16, 64');
  await page.locator('#sensors-beyond').getByRole('button', { name: 'Simulate' }).click();
  await done(page, 'sensors-beyond', 120_000);
  assert.equal(await page.locator('#sensors-beyond canvas').count(), 2);
  const rows = await page.locator('#sensors-beyond table.proof').evaluate((t) => [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 4);
  const fresh = rows.map((r) => Number(r[1].replace(' %', '')));
  assert.ok(fresh.every((v, k) => k === 0 || v > fresh[k - 1]), `${fresh}`);
  assert.match(await page.locator('#sensors-beyond figcaption').nth(1).textContent(), /robots reach the sensors' freshness|No number of robots/);
});

test('a pool of workers shares out the sensed pages and deals out the other runs, to the same bits as one worker', async () => {
  const outcome = await page.evaluate(async () => {
    const pool = globalThis.freshlab.client;
    const [size, minSeconds] = [pool.size, pool.minSeconds];
    // three workers whatever the cores, and even for a short run
    Object.assign(pool, { size: 3, minSeconds: 0 });
    try {
      const config = { experiment: 'sensors', pages: 2000, sensor_share: 0.5, robot_sweep: [2, 4] };
      const parts = pool.parts(config).map((c) => ({ runs: c.only_runs, pieces: c.sensed_parts ?? [] }));
      const pooled = await pool.run(config).promise;
      const single = await pool.clients[0].run(config).promise;
      return { parts, workers: pooled.workers, same: JSON.stringify(pooled.result) === JSON.stringify(single.result), done: pooled.result.done, busy: pool.busy };
    } finally {
      Object.assign(pool, { size, minSeconds });
    }
  });
  assert.equal(outcome.workers, 3, JSON.stringify(outcome.parts));
  // the sensors' run (1) cut into its 17 parts of pages (the robots' list of the unsensed
  // pages, 16 shards of the sensed), dealt out with the robots' concept and the sweep's counts
  assert.deepEqual(outcome.parts.flatMap((p) => p.pieces).sort((a, b) => a - b), [...Array(17).keys()], 'every part of the sensors’ run once');
  assert.ok(outcome.parts.every((p) => p.runs.includes(1) === p.pieces.length > 0));
  assert.deepEqual(outcome.parts.flatMap((p) => p.runs.filter((k) => k !== 1)).sort(), [0, 2, 3], 'every other run once');
  assert.ok(outcome.same, 'the joined result is the single worker’s, to the last bit');
  assert.ok(outcome.done);
  assert.equal(outcome.busy, 0, 'no worker left running');
  // the article's experiment on two workers: partial results joined off the main thread
  // (a concept once every part doing it has reported) grow live, and a cancel leaves no worker (nor the joining one) computing
  const cancelled = await page.evaluate(async () => {
    const pool = globalThis.freshlab.client;
    const size = pool.size;
    pool.size = 2;
    try {
      let cancel;
      const partial = new Promise((resolve) => {
        const run = pool.run({ experiment: 'sensors', pages: 200000, horizon: 60480000 }, { onProgress: (fraction, result) => result?.results.length === 2 && resolve(result) });
        cancel = run.cancel;
        run.promise.catch(() => {});
        globalThis.pooledSensors = run;
      });
      const result = await partial;
      const busyWhileRunning = pool.busy;
      cancel();
      const error = await globalThis.pooledSensors.promise.then(() => 'finished', (e) => e.name);
      for (let i = 0; i < 50 && pool.busy > 0; i++) await new Promise((r) => setTimeout(r, 100));
      return { busyWhileRunning, error, busyAfter: pool.busy, concepts: result.results.map((r) => r.concept), done: result.done };
    } finally {
      pool.size = size;
    }
  });
  assert.ok(cancelled.busyWhileRunning >= 2, `workers busy: ${cancelled.busyWhileRunning}`);
  assert.deepEqual(cancelled.concepts, ['robot', 'sensors'], 'a joined partial result shows both concepts');
  assert.equal(cancelled.done, false);
  assert.equal(cancelled.error, 'Cancelled');
  assert.equal(cancelled.busyAfter, 0, 'no worker left computing');
});

test('a bad state table is refused next to its field', async () => {
  const input = await setField(page, 'sensors', 'state frequencies 1–6', '0.1, 0.2, -1, 0.2, 0.2, 0.2');
  const errorId = (await input.getAttribute('aria-describedby')).split(' ')[1];
  await page.waitForFunction((id) => document.getElementById(id).textContent.length > 0, errorId, { timeout: 5000 });
  assert.match(await page.locator(`#${errorId}`).textContent(), /item 3: must be at least 0/);
  await setField(page, 'sensors', 'state frequencies 1–6', '0.083, 0.125, 0.125, 0.25, 0.25, 0.166');
});
