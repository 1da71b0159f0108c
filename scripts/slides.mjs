// `npm run slides`: what a room sees. Every embed (without and with its controls) and
// every view, in headless Chromium at 960×540, 1280×720 and 1920×1080, text sizes 1 and
// 2, light and dark: the chart's share of the frame, the smallest text drawn in it (in
// CSS pixels), and anything that leaves its frame, covers data or makes the page scroll.
// The table goes into docs/lecturers.md between <!-- slides --> and <!-- /slides -->;
// the screenshots into test-results/slides/. Needs dist/ (npm run build).
import fs from 'node:fs';
import path from 'node:path';
import { open, chartsFitTheirFrames, done, PANELS, VIEWS } from '../tests/e2e/browser.mjs';
import { root, say, writeSection } from './shell.mjs';

const SIZES = [
  [960, 540],
  [1280, 720],
  [1920, 1080],
];
const FONTS = ['1', '2'];
const THEMES = ['light', 'dark'];
// the embeds of slow panels at a size that answers in seconds (as in the e2e tests)
const QUICK = { sensors: '&sensors.pages=20000', 'sensors-beyond': '&sensors-beyond.pages=5000', bursty: '&bursty.generator.articles=60' };
const SHOTS = path.join(root, 'test-results', 'slides');

/** Sets the text size and theme as the Display menu does, and waits for the redraw. */
async function appearance(page, font, theme) {
  await page.evaluate(
    ([f, t]) => {
      for (const [id, value] of [
        ['font', f],
        ['theme', t],
      ]) {
        const select = document.querySelector(`#${id}`);
        select.value = value;
        select.dispatchEvent(new Event('change'));
      }
    },
    [font, theme],
  );
}

/** The shown chart's numbers in this state. */
async function measure(page, scope, width, height) {
  await page.waitForTimeout(450);
  const m = await page.evaluate(
    ([selector, w, h]) => {
      const canvas = [...document.querySelectorAll(`${selector} canvas`)].find((c) => c.getBoundingClientRect().width > 0);
      if (!canvas?.frame) return {};
      const r = canvas.getBoundingClientRect();
      const visible = Math.max(0, Math.min(r.bottom, h) - Math.max(r.top, 0)) * Math.max(0, Math.min(r.right, w) - Math.max(r.left, 0));
      const ratio = canvas.width / r.width;
      const smallest = Math.min(...canvas.frame.texts.map(([, t, , b]) => (b - t) / ratio));
      return { share: visible / (w * h), smallest, whole: r.bottom <= h && r.top >= 0, scroll: document.documentElement.scrollWidth > w };
    },
    [scope, width, height],
  );
  const problems = await chartsFitTheirFrames(page, scope);
  if (m?.scroll) problems.push('the page scrolls sideways');
  return { ...m, problems };
}

const rows = [];
const browser = await open({ viewport: { width: SIZES[0][0], height: SIZES[0][1] } });
const page = await browser.context.newPage();
fs.mkdirSync(SHOTS, { recursive: true });

async function states(name, url, scope, ready) {
  await page.setViewportSize({ width: SIZES[0][0], height: SIZES[0][1] });
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"]');
  await ready();
  const cells = [];
  const problems = [];
  let notWhole = 0;
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const font of FONTS) {
      let cell = null;
      for (const theme of THEMES) {
        await appearance(page, font, theme);
        const m = await measure(page, scope, width, height);
        if (m.share === undefined) {
          problems.push(`${width}×${height}, font ${font}, ${theme}: no chart drawn`);
          continue;
        }
        for (const p of m.problems) problems.push(`${width}×${height}, font ${font}, ${theme}: ${p}`);
        if (!m.whole) notWhole += 1;
        cell ??= m;
        await page.screenshot({ path: path.join(SHOTS, `${name}-${width}x${height}-font${font}-${theme}.png`) });
      }
      cells.push(!cell ? '—' : cell.share ? `${Math.round(100 * cell.share)} % · ${cell.smallest.toFixed(0)} px` : `below the first screen · ${cell.smallest.toFixed(0)} px`);
    }
  }
  rows.push({ name, cells, problems, notWhole });
  say(`${name}: ${cells.join(' | ')}${problems.length ? `; ${problems.length} problems` : ''}`);
}

for (const panel of PANELS) {
  for (const controls of ['', '&controls=1']) {
    await states(`embed ${panel}${controls ? ' + controls' : ''}`, `${browser.url}?embed=${panel}${controls}${QUICK[panel] ?? ''}`, `#${panel}`, () => done(page, panel, 180_000));
  }
}
for (const view of VIEWS) {
  const panels = () => page.evaluate(() => [...document.querySelectorAll('.view:not([hidden]) .panel')].map((p) => p.id));
  await states(`view ${view}`, `${browser.url}?view=${view}`, '.view:not([hidden]) .panel:first-of-type', async () => {
    for (const panel of await panels()) await done(page, panel, 180_000);
  });
}
await browser.close();

const header = `| shown | ${SIZES.flatMap(([w, h]) => FONTS.map((f) => `${w}×${h}, font ${f}`)).join(' | ')} | whole chart on screen | overlaps, clipping, scrolling |`;
const rule = `|---|${SIZES.flatMap(() => FONTS.map(() => '---:')).join('|')}|---|---|`;
const lines = rows.map((r) => `| ${r.name} | ${r.cells.join(' | ')} | ${r.notWhole ? `no, in ${r.notWhole} of 12` : 'yes, in all 12'} | ${r.problems.length ? r.problems.slice(0, 3).join('; ') + (r.problems.length > 3 ? `; and ${r.problems.length - 3} more` : '') : 'none'} |`);
const total = rows.reduce((n, r) => n + r.problems.length, 0);
const section = `<!-- slides -->
Each cell: the chart's share of the frame · the smallest text drawn in the chart, in CSS
pixels (light and dark give the same geometry; both are checked for problems). Written by
\`npm run slides\` on ${new Date().toISOString().slice(0, 10)}: ${rows.length} embeds and views, ${rows.length * SIZES.length * FONTS.length * THEMES.length} screenshots,
${total} problems. A view's chart is its first; "whole chart on screen" counts the states
where it ends inside the window.

${header}
${rule}
${lines.join('\n')}
<!-- /slides -->`;
writeSection(path.join(root, 'docs', 'lecturers.md'), 'slides', section);
say(`docs/lecturers.md: the slides table (${rows.length} rows, ${total} problems); screenshots in test-results/slides/`);
