// `npm run bench:compare -- --before DIR`: the native kernels (cargo bench: scheduling,
// selection, sensors, partitioning) of an earlier checkout DIR and of this tree, side by
// side in one sitting, alternating (before, now, before, now…) so that the machine's
// drift falls on both; writes the table between <!-- compare --> and <!-- /compare -->
// in BENCHMARKS.md (which `npm run bench` keeps). Make DIR with
// `git worktree add DIR <commit>`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, run, say, output, writeSection } from './shell.mjs';

const at = process.argv.indexOf('--before');
if (at < 0 || !process.argv[at + 1]) {
  console.error('usage: npm run bench:compare -- --before DIR [--rounds N]  (DIR: a checkout of the earlier commit)');
  process.exit(2);
}
const before = path.resolve(process.argv[at + 1]);
const roundsAt = process.argv.indexOf('--rounds');
const rounds = roundsAt > 0 ? Number(process.argv[roundsAt + 1]) : 3;
if (!Number.isInteger(rounds) || rounds < 1 || rounds > 20) {
  console.error(`--rounds must be a whole number from 1 to 20 (got ${process.argv[roundsAt + 1]})`);
  process.exit(2);
}
const KERNELS = ['scheduling', 'selection', 'sensors', 'partitioning'];
const trees = [
  { name: 'before', dir: before },
  { name: 'now', dir: root },
];

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const commit = (dir) => output('git', ['-C', dir, 'log', '-1', '--format=%h %s']).slice(0, 100);

for (const t of trees) {
  say(`building the benchmarks of ${t.name} (${commit(t.dir)})…`);
  run('cargo', ['bench', '--no-run', '--quiet'], { cwd: t.dir, env: { ...process.env, CARGO_TARGET_DIR: path.join(t.dir, 'target') } });
  t.bins = Object.fromEntries(
    KERNELS.map((k) => {
      const deps = path.join(t.dir, 'target', 'release', 'deps');
      const found = fs
        .readdirSync(deps)
        .filter((f) => new RegExp(`^${k}-[0-9a-f]+$`).test(f))
        .map((f) => path.join(deps, f))
        .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
      if (!found.length) throw new Error(`${t.name} has no ${k} benchmark in ${deps}`);
      return [k, found[0]];
    }),
  );
}

/** The fields that tell a benchmark's cases apart. */
const ID_KEYS = ['policy', 'accounting', 'selector', 'scheme', 'robots', 'politeness', 'pages', 'threads', 'parts', 'what'];

/** A case's name (its identifying fields) and its measured repetitions. */
function cases(stdout) {
  return stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      const o = JSON.parse(l);
      const runsKey = Object.keys(o).find((k) => k.startsWith('all_'));
      const kind = o.sweep ? 'sweep' : o.links_only ? 'links only' : '';
      // the sensors benchmark named no thread count while it had one thread
      const src = o.median?.config ?? o.sweep ?? o.links_only ?? (o.pages !== undefined ? { threads: 1, ...o } : o);
      const fields = ID_KEYS.filter((k) => src[k] !== undefined).map((k) => (k === 'what' ? src[k] : `${k} ${src[k]}`));
      return { name: [kind, ...fields].filter(Boolean).join(', '), unit: runsKey.slice(4), runs: o[runsKey] };
    });
}

const results = {}; // kernel → case → { unit, before: [], now: [] }
for (let r = 1; r <= rounds; r++) {
  for (const k of KERNELS) {
    for (const t of trees) {
      say(`round ${r}/${rounds}: ${k}, ${t.name}…`);
      for (const c of cases(run(t.bins[k], ['--bench'], { capture: true, cwd: t.dir }).stdout)) {
        const slot = ((results[k] ??= {})[c.name] ??= { unit: c.unit, before: [], now: [] });
        slot[t.name].push(...c.runs);
      }
    }
  }
}

const fmt = (v) => (v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toPrecision(3));
const rows = [];
for (const k of KERNELS) {
  for (const [name, s] of Object.entries(results[k] ?? {})) {
    if (!s.before.length || !s.now.length) {
      rows.push(`| ${k} | ${name} | ${s.unit} | ${s.before.length ? fmt(median(s.before)) : 'absent'} | ${s.now.length ? fmt(median(s.now)) : 'absent'} | — |`);
      continue;
    }
    const [b, n] = [median(s.before), median(s.now)];
    const range = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    rows.push(`| ${k} | ${name} | ${s.unit.replaceAll('_', ' ')} | ${fmt(b)} (${range(s.before)}) | ${fmt(n)} (${range(s.now)}) | ${(n / b).toFixed(2)} |`);
  }
}
const section = `<!-- compare -->
## Before and after, side by side (\`npm run bench:compare\`)

The native kernels of two commits, built and run in one sitting on this machine,
alternating before / now for ${rounds} round${rounds > 1 ? 's' : ''}; each run repeats its workload 3–5 times, and the
table gives the median and the range of all repetitions. Lower is faster. On this shared
2-core machine a ratio within a few percent of 1 is noise, and the memory-bound GREEDY
with the computed expectation moves by up to 60 % between repetitions of one binary.

- before: \`${commit(before)}\`
- now: \`${commit(root)}\`
- date: ${new Date().toISOString().slice(0, 10)}; load average (1 min) at the start: ${os.loadavg()[0].toFixed(2)}

| kernel | case | unit | before | now | now ÷ before |
|---|---|---|---:|---:|---:|
${rows.join('\n')}
<!-- /compare -->`;

writeSection(path.join(root, 'BENCHMARKS.md'), 'compare', section);
say('BENCHMARKS.md: the side-by-side table rewritten');
