// `npm run bench:files`: what checking a crawler's configuration costs (issue 46). The
// page checks its form on its main thread, the crawler's file as it is (at most 1 MB),
// at every edit: its validation and its estimate. For each crawler's format, a file of
// about 0.9 MB of settings Freshlab does not read (the worst a file under the limit
// asks: every name listed, and measured against the settings for a typo), and the
// samples the page offers. The page's module (build/pkg, as `npm run build` makes it)
// is timed in Node, a fresh process a run: the first check (the file read) and the
// checks after (each a field edited, the file the same: read once and kept); the
// command line's `--estimate` less the same without the file. Medians of 3 processes,
// of 5 checks after the first in each. Writes the section between <!-- files --> and
// <!-- /files --> in BENCHMARKS.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { benchStart, root, run, say, writeSection } from './shell.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** In a child process: the page's module, fresh, checks `file` as `crawler`'s six times. */
async function child(crawler, file) {
  const core = await import(path.join(root, 'build', 'pkg', 'freshlab.js'));
  core.initSync({ module: fs.readFileSync(path.join(root, 'build', 'pkg', 'freshlab_bg.wasm')) });
  const text = fs.readFileSync(file, 'utf8');
  // the module's first call measures its speed: before the timings
  core.estimate({ experiment: 'crawlers' });
  const checks = [];
  for (let k = 0; k < 6; k++) {
    const config = { experiment: 'crawlers', crawler, crawler_config: text, seed: k + 1 };
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
  say(`${c.what}: the page's module, 3 fresh processes of 6 checks; the command line's --estimate, 5 runs with and without the file…`);
  const runs = Array.from({ length: 3 }, () => JSON.parse(run(process.execPath, [path.join(root, 'scripts', 'bench-files.mjs'), '--child', c.crawler, c.file], { capture: true }).stdout));
  const cli = estimateSeconds(['--crawler', c.crawler, '--crawler-config', c.file]) - estimateSeconds(['--crawler', c.crawler]);
  rows.push({ ...c, bytes: fs.statSync(c.file).size, first: median(runs.map((r) => r[0])), after: median(runs.flatMap((r) => r.slice(1))), cli, runs });
}

const ms = (x) => (x < 10 ? x.toFixed(1) : x.toFixed(0));
const section = `<!-- files -->
## Checking a crawler's configuration (issue 46; \`npm run bench:files\`)

The page checks its form on its main thread at every edit — its validation and its
estimate — and a crawler's configuration (at most 1 MB) goes to those checks as it is.
For each format, a file of about 0.9 MB of settings Freshlab does not read (each is listed,
and measured against the crawler's settings for a typo: the most work a file under the
limit asks), and the samples the page offers. The page's module (\`build/pkg\`, built by
\`npm run build\`) in Node ${process.version}, a fresh process each of 3 runs: the first check reads the file;
each check after (a field edited, the file the same) finds the read kept
(\`crawler_files::recent\`). The command line: \`freshlab crawlers --crawler-config FILE --estimate\`
less the same without the file (medians of 5; under 1 ms, a process's start varies more).
Milliseconds, medians; ${os.cpus().length} cores of
${os.cpus()[0]?.model ?? 'an unknown CPU'}, load average ${loadAtStart.toFixed(2)} at the start, ${new Date().toISOString().slice(0, 10)}.

| file | KB | settings | page's module: first check | each check after | command line |
|---|---:|---:|---:|---:|---:|
${rows.map((r) => `| ${r.what} | ${(r.bytes / 1024).toFixed(0)} | ${r.entries === null ? '—' : r.entries.toLocaleString('en')} | ${ms(r.first)} | ${ms(r.after)} | ${r.cli < 0.001 ? '< 1' : ms(1000 * r.cli)} |`).join('\n')}

The page's rule is 50 ms a task: ${
  rows.every((r) => r.after <= 50) ? 'every check after the first keeps to it' : `the checks after the first do not for ${rows.filter((r) => r.after > 50).map((r) => r.what).join('; ')}`
}; ${
  rows.every((r) => r.first <= 50) ? 'so does every first check' : `the first check does not, once, as the file is loaded, for ${rows.filter((r) => r.first > 50).map((r) => `${r.what} (${ms(r.first)} ms)`).join('; ')}`
}. Before 2026-12-05 (CHANGELOG), a crawler-beans.cxml of 10,000 beans took 7.5 s at every
check, a settings.py of 37,000 names 0.54 s.

Runs (ms, each process's six checks): ${JSON.stringify(Object.fromEntries(rows.map((r) => [r.what, r.runs.map((x) => x.map((v) => Number(v.toFixed(1))))])))}
<!-- /files -->`;
writeSection(path.join(root, 'BENCHMARKS.md'), 'files', section);
say(`BENCHMARKS.md: ${rows.map((r) => `${r.what} ${ms(r.first)} / ${ms(r.after)} ms`).join('; ')}`);
