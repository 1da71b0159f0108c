// The main-thread check the other files rely on can fail: a task doing a fixed amount of
// work that takes about 300 ms of CPU here fails it, one of about 3–12 ms passes. The work
// is counted in steps, not timed, so that a busy machine (which stretches a task's wall
// clock, not its CPU time) cannot shrink it below the threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedPage, settled, watchLongTasks } from './browser.mjs';

const { page } = await sharedPage();
// the work runs in a task of the page's own (a timer), as the page's code does: what the
// devtools protocol evaluates may run outside the page's tasks
const compute = (steps) =>
  page.evaluate(
    (steps) =>
      new Promise((done) =>
        setTimeout(() => {
          let x = 1;
          for (let i = 0; i < steps; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
          done(x);
        }),
      ),
    steps,
  );

test('a task computing for about 300 ms on the main thread fails the check', async () => {
  await settled(page);
  const check = await watchLongTasks(page, page.locator('header.site .brand'));
  await compute(2e8);
  await assert.rejects(check, /main-thread tasks over 50 ms of CPU: \d+ ms of CPU/);
});

test('a task computing for a few ms passes it', async () => {
  const check = await watchLongTasks(page, page.locator('header.site .brand'));
  await compute(2e6);
  await check();
});
