// Shared set-up for the end-to-end tests: Debian's Chromium driven by playwright-core,
// and the built dist/ served on a free local port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { after } from 'node:test';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { root } from '../../scripts/shell.mjs';

export const dist = path.join(root, 'dist');
/** The same site with the core's test hooks (a panic, an endless loop on demand). */
export const distTest = path.join(root, 'dist-test');
export const shots = path.join(root, 'test-results');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** Starts the server and a browser; returns {url, newPage, close}. With `subPath`, the
 * site is served under that path (as a hosted copy would be). */
export async function open({ viewport = { width: 1280, height: 900 }, colorScheme = 'light', subPath = '', hooks = false, bench = false } = {}) {
  const built = hooks ? distTest : bench ? path.join(root, 'dist-bench') : dist;
  if (!fs.existsSync(path.join(built, 'app.js'))) throw new Error(`${path.basename(built)}/ is not built: run npm test (or npm run build)`);
  fs.mkdirSync(shots, { recursive: true });
  let site = built;
  if (subPath) {
    site = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-host-'));
    fs.cpSync(built, path.join(site, subPath), { recursive: true });
  }
  const server = await serve(site, 0);
  // every path the browser asked the server for (a cached file is not asked for again)
  const requests = [];
  server.on('request', (request) => requests.push(new URL(request.url, 'http://x').pathname));
  const url = `http://127.0.0.1:${server.address().port}/${subPath ? `${subPath}/` : ''}`;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'freshlab-e2e-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: '/usr/bin/chromium', args: ARGS, viewport, colorScheme, acceptDownloads: true });
  const errors = [];
  async function newPage(address = url) {
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(address);
    await page.waitForSelector('html[data-ready="true"]', { timeout: 20_000 });
    return page;
  }
  async function close() {
    await context.close();
    server.close();
    fs.rmSync(profile, { recursive: true, force: true });
    if (subPath) fs.rmSync(site, { recursive: true, force: true });
  }
  return { url, context, newPage, close, errors, requests };
}

/** A test file's browsers: `session(options)` opens a fresh one for a test, closing the
 * previous test's first (a file's tests run in turn); the last closes after the file. */
export function sessions() {
  const opened = [];
  after(async () => {
    for (const b of opened) await b.close();
  });
  return async (options) => {
    while (opened.length) await opened.pop().close();
    const browser = await open(options);
    opened.push(browser);
    return browser;
  };
}

/** Picks the Display menu's text size (`font`: '1', '1.25', '1.5', '2'), as a user does:
 * the page is not reloaded. */
export const pickTextSize = (page, font) =>
  page.evaluate((value) => {
    const select = document.querySelector('#font');
    select.value = value;
    select.dispatchEvent(new Event('change'));
  }, font);

/** Resolves once `panel` says its run is computed; past `timeout`, fails with what the
 * panel's status and progress said and the workers' runs in flight (a run that never
 * finished once, in a fresh clone's e2e, left only "Timeout 120000ms exceeded"). */
export const done = (page, panel, timeout = 60_000) =>
  page.waitForFunction((p) => /Computed in/.test(document.querySelector(`#${p} .status`)?.textContent ?? ''), panel, { timeout }).catch(async (e) => {
    const state = await page
      .evaluate((p) => {
        const pool = globalThis.freshlab?.client;
        const progress = document.querySelector(`#${p} .progress`);
        return JSON.stringify({
          status: document.querySelector(`#${p} .status`)?.textContent,
          progress: progress && !progress.hidden ? progress.querySelector('.eta')?.textContent : '(hidden)',
          pending: pool?.clients?.map((c) => c.pending.size),
          restarts: pool?.restarts,
        });
      }, panel)
      .catch((error) => `(the page did not answer: ${error.message})`);
    throw new Error(`${e.message}; #${panel} then: ${state}`);
  });

// the page's own list of views, groups and panels, from the core's registry as the page
// builds it: a new experiment's view is tested without editing the tests
const views = await import('../../www/views/index.js');
const pkg = await import('../../build/pkg/freshlab.js');
await pkg.default({ module_or_path: fs.readFileSync(new URL('../../build/pkg/freshlab_bg.wasm', import.meta.url)) });
/** The core's experiments by their command names, in the registry's order. */
export const EXPERIMENTS = pkg.experiments().map((e) => e.command);
const pageViews = views.viewsOf(pkg.experiments());
export const GROUPS = views.GROUPS;
export const VIEWS = pageViews.map((v) => v.id);
export const PANELS = pageViews.flatMap((v) => v.panels.map((p) => p.id));

/** Share of a canvas's pixels that differ from its top-left pixel (the background). */
export function inkOf(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { width, height } = canvas;
    const data = canvas.getContext('2d').getImageData(0, 0, width, height).data;
    let ink = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i] - data[0]) + Math.abs(data[i + 1] - data[1]) + Math.abs(data[i + 2] - data[2]) > 30) ink += 1;
    }
    return ink / (width * height);
  });
}

/** Runs axe-core on the page; returns the serious and critical violations. */
export async function auditAccessibility(page) {
  const source = fs.readFileSync(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  await page.evaluate(source);
  const result = await page.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }));
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Runs axe-core with the WCAG 2.2 A and AA rules (2.0, 2.1 and 2.2's target size among
 * them) on the page; returns every violation, whatever its impact. */
export async function auditWcag22(page) {
  const source = fs.readFileSync(path.join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => Boolean(globalThis.axe)))) await page.evaluate(source);
  const result = await page.evaluate(() => globalThis.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }));
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** A fingerprint of the canvas's pixels, to tell whether a redraw changed them. */
export function pixelsOf(page, selector) {
  return page.$eval(selector, (canvas) => {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let hash = 0;
    for (let i = 0; i < data.length; i += 7) hash = (hash * 31 + data[i]) | 0;
    return hash;
  });
}

/** One browser and one page for a whole test file (the views' tests share them, as a user
 * keeps one tab open); the browser closes after the file's last test. */
export async function sharedPage(options = {}) {
  const { after } = await import('node:test');
  const browser = await open(options);
  after(() => browser.close());
  return { browser, page: await browser.newPage(options.view ? `${browser.url}?view=${options.view}` : browser.url) };
}

/** Shows view `id` as the header's menu would (a new history entry). */
export async function showView(page, id) {
  await page.evaluate((view) => globalThis.freshlab.router.go(view), id);
  await page.waitForFunction((view) => document.documentElement.dataset.view === view, id);
}

/** Every text of every chart drawn in the shown view lies inside its canvas, and no
 * legend covers a point of its figure (the core reports both with each drawing). */
export async function chartsFitTheirFrames(page, where = '.view:not([hidden])') {
  const problems = await page.evaluate((selector) => {
    const out = [];
    for (const canvas of document.querySelectorAll(`${selector} canvas`)) {
      const f = canvas.frame;
      if (!f || canvas.getBoundingClientRect().width === 0) continue;
      const name = `${canvas.closest('.panel').id} chart ${canvas.closest('.chart').className.match(/chart-(\d+)/)[1]} (${f.width}×${f.height})`;
      if (f.width !== canvas.width || f.height !== canvas.height) out.push(`${name}: drawn at ${f.width}×${f.height}, canvas ${canvas.width}×${canvas.height}`);
      for (const [l, t, r, b] of f.texts) if (l < 0 || t < 0 || r > f.width || b > f.height) out.push(`${name}: text at [${l}, ${t}, ${r}, ${b}] leaves the frame`);
      if (f.legend_covers > 0) out.push(`${name}: the legend covers ${f.legend_covers} points`);
    }
    return out;
  }, where);
  return problems;
}

/** Waits until a panel's chart has been drawn `count` times or more. */
export function drawnAtLeast(page, panel, count) {
  return page.waitForFunction(([p, n]) => Number(document.querySelector(`#${p} canvas`)?.dataset.drawn ?? 0) >= n, [panel, count], { timeout: 20_000 });
}

/** Types into the field labelled `label` inside `panel`. */
export async function setField(page, panel, label, value) {
  const input = page.locator(`#${panel}`).getByLabel(label, { exact: true });
  await input.fill(String(value));
  return input;
}

/** Waits until the panels that run at load have finished (and the engine has drawn its
 * first charts), so that a test's long-task window covers its own work only. */
export function settled(page, except = []) {
  const skip = except.map((id) => `:not(#${id})`).join('');
  return page.waitForFunction((selector) => [...document.querySelectorAll(selector)].every((s) => /Computed in/.test(s.textContent)), `.view:not([hidden]) .panel${skip} .status`, { timeout: 120_000 });
}

/** The trace session of a main-thread check still running, if any. */
let unfinishedTrace = null;

/** Scrolls `locator` (the control a test is about to use) into view and lets the page
 * render, then records every main-thread task from there on. The scroll is not measured: a
 * user scrolls to a panel first and then starts a run; what is measured is the run.
 *
 * A task fails the check when it keeps the main thread busy for more than 50 ms of CPU
 * time (Chromium's trace of each task, `tdur`). Its wall-clock length (the longtask API)
 * is reported too but does not decide: on this 2-core machine the worker holds one core,
 * and the scheduler can leave a 10 ms task of ours waiting for the other long enough to
 * look like a 60 ms one, which is contention, not our code blocking the page. Returns an
 * async function that asserts no task went over. */
export async function watchLongTasks(page, locator) {
  await locator.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForTimeout(300);
  await page.evaluate(() => {
    globalThis.longTaskObserver?.disconnect();
    globalThis.longTasks = [];
    globalThis.longTaskObserver = new PerformanceObserver((list) => globalThis.longTasks.push(...list.getEntries().map((e) => Math.round(e.duration))));
    globalThis.longTaskObserver.observe({ type: 'longtask' });
  });
  // a test that failed before its check left its trace running: stop it, or this one
  // could not start (Chromium traces one session at a time)
  await unfinishedTrace?.detach().catch(() => {});
  const trace = await page.context().newCDPSession(page);
  unfinishedTrace = trace;
  const events = [];
  trace.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await trace.send('Tracing.start', { categories: 'toplevel,__metadata,blink.user_timing,devtools.timeline', transferMode: 'ReportEvents' });
  await page.evaluate(() => performance.mark('freshlab:watch'));
  return async () => {
    await page.evaluate(() => performance.mark('freshlab:watched'));
    const complete = new Promise((done) => trace.once('Tracing.tracingComplete', done));
    await trace.send('Tracing.end');
    await complete;
    await trace.detach();
    unfinishedTrace = null;
    const wallClock = await page.evaluate(() => globalThis.longTasks);
    // marks made after the trace started and before it ended name the page's main thread
    // and show the trace covers the watch: one that started late or lost its last events
    // fails here instead of passing work it did not see
    const [mark, end] = ['freshlab:watch', 'freshlab:watched'].map((name) => events.find((e) => e.name === name));
    assert.ok(mark && end && end.pid === mark.pid && end.tid === mark.tid, `the trace holds the marks made when the watch began and ended (${events.length} events)`);
    const tasks = events.filter((e) => e.name === 'ThreadControllerImpl::RunTask' && e.ph === 'X' && e.pid === mark.pid && e.tid === mark.tid);
    assert.ok(tasks.length > 0, `the trace holds the page's main-thread tasks (${events.length} events)`);
    // a task the trace gives no CPU time for (rare, under load) is judged by its wall clock
    const cpu = (t) => (Number.isFinite(t.tdur) ? t.tdur : t.dur);
    // a busy task is named with the longest work inside it (the timeline's events: a
    // script's function and file, a layout, a paint, a collection), so that a failure
    // says what to mend
    const inside = (t) =>
      events
        .filter((e) => e !== t && e.ph === 'X' && e.pid === mark.pid && e.tid === mark.tid && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 5000)
        .sort((a, b) => b.dur - a.dur)
        .slice(0, 4)
        .map((e) => `${e.name} ${Math.round(e.dur / 1000)} ms${e.args?.data?.functionName || e.args?.data?.url ? ` (${[e.args.data.functionName, e.args.data.url?.split('/').pop()].filter(Boolean).join(' in ')})` : ''}`);
    const busy = tasks.filter((t) => cpu(t) > 50_000).map((t) => `${Math.round(cpu(t) / 1000)} ms of CPU in ${Math.round(t.dur / 1000)} ms [${inside(t).join('; ') || 'nothing traced inside'}]`);
    assert.deepEqual(busy, [], `main-thread tasks over 50 ms of CPU: ${busy.join(', ')}`);
    // the margin, said in every log: a check passing at 45 ms fails on a busier machine
    const largest = tasks.reduce((a, b) => (cpu(b) > cpu(a) ? b : a));
    console.log(`the largest main-thread task: ${(cpu(largest) / 1000).toFixed(1)} ms of CPU in ${(largest.dur / 1000).toFixed(1)} ms [${inside(largest).join('; ') || 'nothing over 5 ms inside'}]`);
    if (wallClock.length > 0) {
      const most = Math.max(...tasks.map(cpu)) / 1000;
      console.log(`main-thread tasks over 50 ms of wall-clock time: ${wallClock.join(', ')} ms, yet none used more than ${most.toFixed(1)} ms of CPU (the rest was waiting for a core)`);
    }
  };
}
