// `npm run bench:files`: what checking a crawler's configuration costs (issue 46). The
// page checks its form at every edit, the crawler's file as it is (at most 1 MB): its
// validation and its estimate, on its main thread, or in its worker for files over 64 K
// characters (panel.js WORKER_CHECK_CHARS). For each crawler's format, a file of
// about 0.9 MB of settings Freshlab does not read (the worst a file under the limit
// asks: every name listed, and measured against the settings for a typo), and the
// samples the page offers. The page's module (build/pkg, as `npm run build` makes it)
// is timed in Node, a fresh process a run: the first check (the file read) and the
// checks after (each a field edited, the file the same: read once and kept); the checks
// as the crawler settings over the file are edited (each a new text to read); the
// command line's `--estimate` less the same without the file. Medians of 3 processes,
// of 5 checks after the first in each. Writes the section between <!-- files --> and
// <!-- /files --> in BENCHMARKS.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchStart, root, run, say, writeSection } from './shell.mjs';

/** The page checks files over this many characters in its worker (www/ui/panel.js). */
const WORKER_CHECK_CHARS = Number(/const WORKER_CHECK_CHARS = ([\d* ]+);/.exec(fs.readFileSync(path.join(root, 'www', 'ui', 'panel.js'), 'utf8'))[1].split('*').reduce((a, b) => a * Number(b), 1));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A setting each crawler reads, edited in the form's crawler settings. */
const SETTING = { nutch: 'fetcher.server.delay', stormcrawler: 'fetcher.server.delay', heritrix: 'disposition.delayFactor', scrapy: 'DOWNLOAD_DELAY' };

/** In a child process: the page's module, fresh, checks `file` as `crawler`'s six times,
 * then three times with a setting written over it, each time another value. */
async function child(crawler, file) {
  const core = await import(path.join(root, 'build', 'pkg', 'freshlab.js'));
  core.initSync({ module: fs.readFileSync(path.join(root, 'build', 'pkg', 'freshlab_bg.wasm')) });
  const text = fs.readFileSync(file, 'utf8');
  // the module's first call measures its speed: before the timings
  core.estimate({ experiment: 'crawlers' });
  const checks = [];
  for (let k = 0; k < 9; k++) {
    const config = { experiment: 'crawlers', crawler, crawler_config: text, seed: k + 1, ...(k >= 6 && { crawler_settings: `${SETTING[crawler]}=${k - 2}` }) };
    const started = performance.now();
    const problem = core.validate(config);
    if (problem) throw new Error(`${file}: ${JSON.stringify(problem)}`);
    core.estimate(config);
    checks.push(performance.now() - started);
  }
  process.stdout.write(JSON.stringify(checks));
}

if (process.argv[2] === '--child') {
  await child(process.argv[3], process.argv[4]);
  process.exit(0);
}

/** A file of `header`, then `line(i)` for as many i as keep it under 0.9 MB, then `footer`. */
function filled(name, header, line, footer = '') {
  const lines = [header];
  let bytes = header.length + footer.length + 1;
  for (let i = 0; bytes < 900_000; i++) {
    lines.push(line(i));
    bytes += lines.at(-1).length + 1;
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n${footer}`);
  return { file, entries: lines.length - 1 };
}

const { loadAtStart, bin } = benchStart();
say('building the page (npm run build: the module the page checks its form with)…');
run('npm', ['run', '--silent', 'build']);
const dir = path.join(root, 'build', 'bench-files');
fs.mkdirSync(dir, { recursive: true });
const sample = (name) => ({ file: path.join(root, 'www', 'samples', name), entries: null });
const cases = [
  { what: 'nutch-site.xml, unread properties', crawler: 'nutch', ...filled('nutch-site.xml', '<?xml version="1.0"?>\n<configuration>', (i) => `<property><name>my.prop.${i}</name><value>${i}</value></property>`, '</configuration>\n') },
  { what: 'crawler-conf.yaml, unread keys', crawler: 'stormcrawler', ...filled('crawler-conf.yaml', 'config:', (i) => `  my.key.${i}: ${i}`) },
  {
    what: 'crawler-beans.cxml, beans of unread properties',
    crawler: 'heritrix',
    ...filled(
      'crawler-beans.cxml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<beans xmlns="http://www.springframework.org/schema/beans">\n<bean id="disposition" class="org.archive.crawler.postprocessor.DispositionProcessor"><property name="delayFactor" value="4.0"/></bean>',
      (i) => `<bean id="b${i}" class="org.example.Thing"><property name="p${i}" value="${i}"/></bean>`,
      '</beans>\n',
    ),
  },
  {
    what: 'crawler-beans.cxml, sheets over hosts',
    crawler: 'heritrix',
    ...filled(
      'crawler-beans-sheets.cxml',
      '<?xml version="1.0" encoding="UTF-8"?>\n<beans xmlns="http://www.springframework.org/schema/beans">',
      (i) =>
        `<bean id="s${i}" class="org.archive.spring.Sheet"><property name="map"><map><entry key="disposition.minDelayMs" value="${1000 + i}"/></map></property></bean>\n` +
        `<bean class="org.archive.crawler.spring.SurtPrefixesSheetAssociation"><property name="surtPrefixes"><list><value>http://(com,h${i},</value></list></property><property name="targetSheetNames"><list><value>s${i}</value></list></property></bean>`,
      '</beans>\n',
    ),
  },
  { what: 'settings.py, unread names', crawler: 'scrapy', ...filled('settings.py', '# a project of many settings', (i) => `MY_SETTING_${i} = ${i}`) },
  { what: 'the sample nutch-site.xml', crawler: 'nutch', ...sample('nutch-site.xml') },
  { what: 'the sample crawler-beans.cxml', crawler: 'heritrix', ...sample('crawler-beans.cxml') },
  { what: 'the sample settings.py', crawler: 'scrapy', ...sample('settings.py') },
];

/** Seconds of `freshlab crawlers … --estimate`, the median of 5. */
const estimateSeconds = (args) =>
  median(
    Array.from({ length: 5 }, () => {
      const started = process.hrtime.bigint();
      run(bin, ['crawlers', ...args, '--estimate', '--quiet'], { capture: true });
      return Number(process.hrtime.bigint() - started) / 1e9;
    }),
  );

const rows = [];
for (const c of cases) {
  say(`${c.what}: the page's module, 3 fresh processes of 9 checks; the command line's --estimate, 5 runs with and without the file…`);
  const runs = Array.from({ length: 3 }, () => JSON.parse(run(process.execPath, [path.join(root, 'scripts', 'bench-files.mjs'), '--child', c.crawler, c.file], { capture: true }).stdout));
  const cli = estimateSeconds(['--crawler', c.crawler, '--crawler-config', c.file]) - estimateSeconds(['--crawler', c.crawler]);
  const chars = fs.readFileSync(c.file, 'utf8').length;
  rows.push({ ...c, bytes: fs.statSync(c.file).size, worker: chars > WORKER_CHECK_CHARS, first: median(runs.map((r) => r[0])), after: median(runs.flatMap((r) => r.slice(1, 6))), edited: median(runs.flatMap((r) => r.slice(6))), cli, runs });
}

const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
const section = `<!-- files -->
## Checking a crawler's configuration (issue 46; \`npm run bench:files\`)

The page checks its form at every edit — its validation and its estimate — and a
crawler's configuration (at most 1 MB) goes to those checks as it is: on the page's main
thread, or, for files over ${(WORKER_CHECK_CHARS / 1024).toFixed(0)} K characters, in its worker (\`www/ui/panel.js\`,
\`WORKER_CHECK_CHARS\`), the main thread only waiting for the answer. For each format, a file of about 0.9 MB of settings Freshlab does not read (each is listed,
and measured against the crawler's settings for a typo: the most work a file under the
limit asks), and the samples the page offers. The page's module (\`build/pkg\`, built by
\`npm run build\`) in Node ${process.version}, a fresh process each of 3 runs: the first check reads the file;
each check after (a field edited, the file the same) finds the read kept
(\`crawler_files::recent\`); an edit of the crawler settings over the file is a new text to
read (three edits, each another value of ${Object.entries(SETTING).map(([c, n]) => `${c}'s \`${n}\``).join(', ')}). The command line: \`freshlab crawlers --crawler-config FILE --estimate\`
less the same without the file (medians of 5; under 1 ms, a process's start varies more).
Milliseconds, medians; ${os.cpus().length} cores of
${os.cpus()[0]?.model ?? 'an unknown CPU'}, load average ${loadAtStart.toFixed(2)} at the start, ${new Date().toISOString().slice(0, 10)}.

| file | KB | settings | checked in the page's | first check | each check after | an edit of the settings over it | command line |
|---|---:|---:|---|---:|---:|---:|---:|
${rows.map((r) => `| ${r.what} | ${(r.bytes / 1024).toFixed(0)} | ${r.entries === null ? '—' : r.entries.toLocaleString('en')} | ${r.worker ? 'worker' : 'main thread'} | ${ms(r.first)} | ${ms(r.after)} | ${ms(r.edited)} | ${r.cli < 0.001 ? '< 1' : ms(1000 * r.cli)} |`).join('\n')}

The page's rule is 50 ms a task on its main thread: ${(() => {
  const main = rows.filter((r) => !r.worker);
  const over = main.filter((r) => Math.max(r.first, r.after, r.edited) > 50);
  return over.length === 0
    ? `every check of the files the main thread checks (${main.map((r) => r.what).join('; ')}) keeps to it`
    : `these checks on the main thread do not: ${over.map((r) => `${r.what} (${ms(Math.max(r.first, r.after, r.edited))} ms)`).join('; ')}`;
})()}. The files over ${(WORKER_CHECK_CHARS / 1024).toFixed(0)} K characters are checked in the worker: their checks there
(up to ${ms(Math.max(...rows.filter((r) => r.worker).map((r) => Math.max(r.first, r.edited))))} ms) delay the estimate under the form, not the page; before
2026-12-05 they ran on the main thread (CHANGELOG). Before that, a crawler-beans.cxml of 10,000
beans took 7.5 s at every check, a settings.py of 37,000 names 0.54 s.

Runs (ms, each process's nine checks, the last three with the settings edited): ${JSON.stringify(Object.fromEntries(rows.map((r) => [r.what, r.runs.map((x) => x.map((v) => Number(v.toFixed(1))))])))}
<!-- /files -->`;
writeSection(path.join(root, 'BENCHMARKS.md'), 'files', section);
say(`BENCHMARKS.md: ${rows.map((r) => `${r.what} ${ms(r.first)} / ${ms(r.after)} ms`).join('; ')}`);
