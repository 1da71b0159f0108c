// Distributed crawling in a real browser: the sweep runs in the worker at load, its four
// figures and the thesis's reductions appear, every partitioner runs from the preset
// without blocking the page, bad robot counts are refused, and a link reproduces a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { sharedPage, inkOf, setField, settled, shots, auditAccessibility, watchLongTasks, done } from './browser.mjs';

const { browser, page } = await sharedPage({ view: 'partition' });
const status = () => page.locator('#partition .status').textContent();
const computed = (p = page) => done(p, 'partition', 120_000);

test('the default sweep runs at load: four figures and the thesis beside Freshlab', async () => {
  await settled(page);
  for (const k of [0, 1, 2, 3]) assert.ok((await inkOf(page, `#partition .chart-${k} canvas`)) > 0.005, `figure ${k + 1} drawn`);
  const rows = await page.locator('#partition table.proof tbody tr').evaluateAll((trs) => trs.map((r) => [...r.cells].map((c) => c.textContent)));
  assert.equal(rows.length, 16);
  const exchanges = rows.find((r) => r[0] === 'URL exchanges, graph vs hash');
  assert.deepEqual(exchanges.slice(1, 3), ['Fig 5.13', '76 %']);
  assert.match(exchanges[3], /^\d[\d.]* %$/, 'measured');
  assert.match(rows.find((r) => r[0].startsWith('download time, hosts vs IPs'))[3], /^not run: add graph \(RTT \+ links\), IPs with politeness fixed$/, 'what to add to measure the rest');
  const details = await page.locator('#partition .details').textContent();
  assert.match(details, /600 hosts on 150 IPs, 24,000 pages/);
  assert.match(details, /28 download simulations, 0 politeness violations/);
  assert.match(details, /this web is synthetic/);
  assert.match(await page.locator('#partition .chart-0 figcaption').textContent(), /politeness violations: 0\. With 30 robots: hash of host, fixed: [\d.]+ h/);
  assert.match(await page.locator('#partition .chart-3 figcaption').textContent(), /^600 hosts split among 30 robots by graph \(RTT \+ links\), hosts/);
  // the form offers the values the core names, with the labels of its charts
  const partitioners = await page.locator('#partition fieldset.field-choices').first().locator('label').allTextContents();
  assert.deepEqual(partitioners, ['hash of host', 'hash of URL', 'hash of IP', 'graph (RTT + links), hosts', 'graph (distance + links), hosts', 'graph (RTT + links), IPs']);
});

test('every partitioner and politeness runs in the worker without blocking the page', async () => {
  const noLongTask = await watchLongTasks(page, page.locator('#partition').getByRole('button', { name: 'Simulate' }));
  await page.locator('#partition').getByRole('button', { name: 'Every partitioner and politeness' }).click();
  await page.locator('#partition').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => document.querySelector('#partition progress')?.value > 0, null, { timeout: 30_000 });
  await computed();
  const measured = await page.locator('#partition table.proof tbody tr td:nth-child(4)').allTextContents();
  assert.ok(measured.every((m) => /^-?\d[\d.,]* %$/.test(m)), `every reduction measured: ${measured}`);
  assert.match(await page.locator('#partition .details').textContent(), /168 download simulations, 0 politeness violations/);
  await noLongTask();
  await page.locator('#partition').screenshot({ path: path.join(shots, 'partition.png') });
  assert.deepEqual(await auditAccessibility(page), []);
});

test('robot counts the web cannot take are refused, naming the field', async () => {
  await setField(page, 'partition', 'numbers of robots', '2, 2');
  await page.locator('#partition').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /numbers of robots/.test(document.querySelector('#partition .status').textContent), null, { timeout: 10_000 });
  assert.match(await status(), /2 appears twice; list each number of robots once/);
  await setField(page, 'partition', 'numbers of robots', '2, 500');
  await page.locator('#partition').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => /from 1 to 100 \(got 500\)/.test(document.querySelector('#partition .status').textContent), null, { timeout: 10_000 });
  assert.match(await status(), /there are no more robot sites \(raise web\.robot_sites\)/);
});

test('a link reproduces the run, seed included', async () => {
  const linked = await browser.newPage(`${browser.url}?partition.robots=3,6&partition.seed=7#view-partition`);
  await computed(linked);
  assert.equal(await linked.locator('#partition').getByLabel('numbers of robots', { exact: true }).inputValue(), '3, 6');
  const caption = await linked.locator('#partition .chart-0 figcaption').textContent();
  assert.match(caption, /^8 simulations/);
  const again = await browser.newPage(`${browser.url}?partition.robots=3,6&partition.seed=7#view-partition`);
  await computed(again);
  assert.equal(await again.locator('#partition .chart-0 figcaption').textContent(), caption, 'same seed, same numbers');
  await linked.close();
  await again.close();
});
