// The "MERGE vs RANDOM" view in a real browser: simulations through the worker with
// progress, partial curves and cancel; the ratio table beside the thesis's figures;
// exports; presets; configurations too big for a tab refused with the estimate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { sharedPage, inkOf, drawnAtLeast, setField, shots, watchLongTasks } from './browser.mjs';

const { browser, page } = await sharedPage();

const done = (panel) => page.waitForFunction((p) => /Computed in/.test(document.querySelector(`#${p} .status`).textContent), panel, { timeout: 60_000 });

test('the three experiments draw, the repository with one chart per capacity and one for the crawlers', async () => {
  for (const panel of ['per-page', 'channel', 'repository']) await done(panel);
  assert.equal(await page.locator('#repository canvas').count(), 4);
  for (const canvas of await page.locator('#view-policies canvas').all()) {
    const ink = await canvas.evaluate((c) => {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - d[0]) + Math.abs(d[i + 1] - d[1]) + Math.abs(d[i + 2] - d[2]) > 30) n++;
      return n / (c.width * c.height);
    });
    assert.ok(ink > 0.02, `a chart of the view is blank (${ink})`);
  }
  await page.locator('#view-policies').screenshot({ path: path.join(shots, 'policies.png') });
  assert.deepEqual(browser.errors, []);
});

test('the ratio table shows the thesis beside each measured ratio, and politeness', async () => {
  const rows = await page.locator('#repository table.proof').first().evaluate((t) => [...t.tBodies[0].rows].map((r) => [...r.cells].map((c) => c.textContent.trim())));
  assert.equal(rows.length, 12, 'three capacities × four policies');
  const [, , freshness, ratio, thesis, difference] = rows.find((r) => r[0] === '1 %' && r[1] === 'MERGE');
  assert.equal(thesis, '0.97', 'the thesis figure for MERGE at 1 %');
  assert.ok(Math.abs(Number(ratio) - 0.97 - Number(difference)) < 2e-3, `difference ${difference} = ${ratio} − 0.97`);
  assert.ok(Number(freshness) > 0 && Number(ratio) <= 1.01);
  const violations = (r) => Number(r[6].replace(/,/g, ''));
  assert.ok(rows.filter((r) => r[1] === 'UNPOLITE').some((r) => violations(r) > 0), 'UNPOLITE violates politeness');
  for (const r of rows.filter((r) => r[1] !== 'UNPOLITE')) assert.equal(violations(r), 0, `no violation: ${r}`);
  assert.match(await page.locator('#repository .details').textContent(), /synthetic/);
  const crawlers = await page.locator('#repository table.proof').nth(1).locator('tbody tr').allTextContents();
  assert.equal(crawlers.length, 3);
});

test('a repository run streams partial curves, shows progress and cancels without blocking the page', async () => {
  const noLongTask = await watchLongTasks(page, page.locator('#repository').getByRole('button', { name: 'Simulate' }));
  await setField(page, 'repository', 'simulated days', 3650);
  await page.locator('#repository').getByRole('button', { name: 'Simulate' }).click();
  await page.waitForFunction(() => Number(document.querySelector('#repository progress').value) > 0.02, null, { timeout: 30_000 });
  await page.waitForFunction(() => /\(running\)/.test(document.querySelector('#repository .details').textContent), null, { timeout: 30_000 });
  await page.waitForTimeout(1500);
  await page.locator('#repository').getByRole('button', { name: 'Cancel' }).click();
  await page.waitForFunction(() => /Cancelled/.test(document.querySelector('#repository .status').textContent), null, { timeout: 10_000 });
  await noLongTask();
  await setField(page, 'repository', 'simulated days', 365);
});

test('exports download the data and the charts', async () => {
  const save = async (locator) => {
    const [download] = await Promise.all([page.waitForEvent('download'), locator.click()]);
    const file = path.join(shots, download.suggestedFilename());
    await download.saveAs(file);
    return file;
  };
  const csv = fs.readFileSync(await save(page.locator('#repository').getByRole('button', { name: /as CSV/ })), 'utf8');
  assert.equal(csv.split('\n')[0], 'group,share_of_maximum,policy,day,freshness');
  assert.ok(csv.split('\n').length > 100);
  const json = JSON.parse(fs.readFileSync(await save(page.locator('#per-page').getByRole('button', { name: /as JSON/ })), 'utf8'));
  assert.equal(json.config.experiment, 'per_page');
  assert.equal(json.result.experiment, 'per_page');
  const svg = fs.readFileSync(await save(page.locator('#channel').getByRole('button', { name: 'Download this chart as SVG' })), 'utf8');
  assert.match(svg, /^<svg/);
  const png = fs.readFileSync(await save(page.locator('#repository').getByRole('button', { name: 'Download this chart as PNG' }).nth(1)));
  assert.deepEqual([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(''), 'PNG');
  const width = png.readUInt32BE(16);
  const canvasWidth = await page.locator('#repository canvas').nth(1).evaluate((c) => c.getBoundingClientRect().width);
  assert.ok(Math.abs(width - 2 * Math.round(canvasWidth)) <= 2, `PNG at 2×: ${width} vs ${canvasWidth}`);
});

test('the WEBBASE preset shows what the full scale needs, and too big is refused with the estimate', async () => {
  await page.locator('#repository').getByRole('button', { name: 'WEBBASE scale' }).click();
  await page.waitForFunction(() => /MB/.test(document.querySelector('#repository .estimate').textContent), null, { timeout: 5000 });
  const note = await page.locator('#repository .estimate').textContent();
  assert.match(note, /Needs about \d+ MB/);
  assert.equal(await page.locator('#repository').getByLabel('pages', { exact: true }).inputValue(), '14500000');
  const input = await setField(page, 'repository', 'pages', 50000000);
  await page.waitForFunction(() => /MB/.test(document.querySelector('#repository .status').textContent), null, { timeout: 5000 });
  assert.match(await page.locator('#repository .status').textContent(), /needs about \d+ MB .* browser tab/);
  assert.equal(await input.getAttribute('aria-invalid'), 'true');
  await page.locator('#repository').getByRole('button', { name: 'Classroom size' }).click();
  await page.waitForFunction(() => document.querySelector('#repository .status').textContent === '', null, { timeout: 5000 });
});
