// The main-thread check the other files rely on can fail: a task that computes for 150 ms
// fails it, one of 20 ms passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedPage, watchLongTasks } from './browser.mjs';

const { page } = await sharedPage();
const compute = (ms) =>
  page.evaluate((ms) => {
    const start = performance.now();
    while (performance.now() - start < ms);
  }, ms);

test('a task computing for 150 ms on the main thread fails the check', async () => {
  const check = await watchLongTasks(page, page.locator('h1'));
  await compute(150);
  await assert.rejects(check, /main-thread tasks over 50 ms of CPU: \d+ ms of CPU/);
});

test('a task computing for 20 ms passes it', async () => {
  const check = await watchLongTasks(page, page.locator('h1'));
  await compute(20);
  await check();
});
