// `npm run fuzz -- --cases 1000000 [--commands 2000] [--run-seconds 0.05] [--seed 1]
// [--jobs 2] [--write] [--replay experiment:k]`: the long fuzz campaign (issues 13 and 45). Every experiment's
// configuration is mutated (or one field alone set, as a flag does) and run through
// parsing, validation and the cost model; what is accepted must be what was asked; the
// cases estimated under --run-seconds are run to the end and drawn, each in a worker
// process limited in time and memory, and checked against their estimate both ways.
// --commands cases run the CLI's sweeps (sharded, merged, tampered) and parts (joined).
// Prints the counts, by experiment; --write writes them into docs/researchers.md.
// The CI's test layers run 3,000 cases and 60 commands natively, 1,500 cases in wasm.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, say } from './shell.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const k = args.indexOf(`--${name}`);
  return k >= 0 ? args[k + 1] : fallback;
};
const cases = Number(option('cases', 100000));
const seed = Number(option('seed', 1));
const jobs = Number(option('jobs', 2));
const commands = Number(option('commands', Math.max(60, Math.round(cases / 500))));
const runSeconds = Number(option('run-seconds', 0.05));
if (!(runSeconds > 0)) {
  console.error(`freshlab fuzz: --run-seconds must be a number of seconds > 0 (got ${option('run-seconds')})`);
  process.exit(2);
}
for (const [name, value] of [
  ['cases', cases],
  ['commands', commands],
  ['seed', seed],
  ['jobs', jobs],
]) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`freshlab fuzz: --${name} must be a whole number ≥ 1 (got ${option(name)})`);
    process.exit(2);
  }
}
// optimised, but with integer overflow checked (a release build would wrap silently),
// in a target directory of its own so that the page's and the CLI's builds stay
const build = {
  ...process.env,
  RUSTFLAGS: `${process.env.RUSTFLAGS ?? ''} -C overflow-checks=on`.trim(),
  CARGO_TARGET_DIR: path.join(root, 'target', 'fuzz'),
  FRESHLAB_FUZZ_SEED: String(seed),
};
// --replay experiment:k: one case of a campaign (its experiment is in the summary's
// failures), printed with what becomes of it, under the campaign's memory limit
const replay = option('replay');
if (replay !== undefined) {
  if (!/^[a-z_]+:\d+$/.test(replay)) {
    console.error(`freshlab fuzz: --replay takes experiment:case, e.g. history:43660 (got ${replay})`);
    process.exit(2);
  }
  say(`replaying case ${replay} (seed ${seed})…`);
  const memoryKiB = Math.round(Number(process.env.FRESHLAB_FUZZ_MEMORY ?? 4 * 2 ** 30) / 1024);
  const compile = ['test', '--release', '--test', 'fuzz', '--no-run'];
  if (spawnSync('cargo', compile, { cwd: root, stdio: 'inherit', env: build }).status !== 0) process.exit(1);
  // built first: the compiler itself needs more address space than a case is given
  const cargo = `ulimit -v ${memoryKiB} && exec cargo ${compile.slice(0, -1).join(' ')} -- --ignored --exact replay --nocapture`;
  const r = spawnSync('sh', ['-c', cargo], { cwd: root, stdio: 'inherit', env: { ...build, FRESHLAB_FUZZ_REPLAY: replay } });
  process.exit(r.status ?? 1);
}
const summaryFile = path.join(root, 'build', 'fuzz-summary.json');
fs.mkdirSync(path.dirname(summaryFile), { recursive: true });
say(`fuzzing ${cases.toLocaleString('en')} cases and ${commands.toLocaleString('en')} commands (seed ${seed}, ${jobs} worker processes; cargo test --release --test fuzz, overflow checks on)…`);
const result = spawnSync('cargo', ['test', '--release', '--test', 'fuzz', '--', '--nocapture', '--test-threads', '1', 'fuzz_'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  maxBuffer: 1 << 28,
  env: {
    ...build,
    FRESHLAB_FUZZ_CASES: String(cases),
    FRESHLAB_FUZZ_JOBS: String(jobs),
    FRESHLAB_FUZZ_COMMANDS: String(commands),
    FRESHLAB_FUZZ_JUDGE_TIME: '1',
    FRESHLAB_FUZZ_RUN_SECONDS: String(runSeconds),
    FRESHLAB_FUZZ_SUMMARY: summaryFile,
  },
});
// the test runner may print a test's name on the line before its output: "test x ... FUZZ-…"
const marked = (tag) => result.stdout.split('\n').find((l) => l.includes(`${tag} `))?.replace(/^.*?(FUZZ-)/, '$1');
process.stdout.write(result.stdout.split('\n').filter((l) => !l.includes('FUZZ-')).join('\n'));
const line = marked('FUZZ-SUMMARY');
const commandLine = marked('FUZZ-COMMANDS');
if (!line || !commandLine) {
  console.error('freshlab fuzz: the campaign printed no summary');
  process.exit(1);
}
const s = JSON.parse(line.slice('FUZZ-SUMMARY '.length));
const c = JSON.parse(commandLine.slice('FUZZ-COMMANDS '.length));
const n = (v) => Number(v).toLocaleString('en');
const t = s.runs_over_a_second;
const ratio = (v) => (v == null ? '–' : Number(v).toFixed(2));
const rows = [
  ['cases', n(s.cases)],
  ['refused with a message (invalid or over the limits)', n(s.refused)],
  [`valid, too large to run here (estimated over ${runSeconds} s or 512 MB)`, n(s.skipped_as_too_big_to_run_here)],
  ['run to the end and every figure drawn', n(s.ran)],
  ['panics', n(s.panics)],
  ['hangs (no answer in 10 s)', n(s.hangs)],
  ['out of memory (4 GB of address space)', n(s.out_of_memory)],
  ['accepted, but not as asked (a field given, or one left to its default, changed)', n(s.silent_changes)],
  ['over their estimate (peak memory over it + 2 MB, or work over 2×)', n(s.over_estimate)],
  ['estimate too high (memory over 1.5× a peak of 20 MB or more) or, for runs over 1 s, time outside ½–2×', n(s.estimate_off)],
  [
    `runs over 1 s (their time judged): estimate ÷ measured time, median ${ratio(t.median)}, lowest ${ratio(t.lowest)}, highest ${ratio(t.highest)}`,
    n(t.runs),
  ],
  ['checks over 50 ms of CPU (the page runs them on its main thread)', n(s.slow_checks)],
  ['refusals without a message', n(s.refusals_without_a_message)],
];
const outcomes = [...new Set(Object.values(s.by_experiment).flatMap((o) => Object.keys(o)))].sort();
const byExperiment = [
  `| experiment | ${outcomes.join(' | ')} |`,
  `|---|${outcomes.map(() => '---:').join('|')}|`,
  ...Object.entries(s.by_experiment).map(([e, o]) => `| ${e} | ${outcomes.map((k) => n(o[k] ?? 0)).join(' | ')} |`),
];
const commandRows = Object.entries(c.outcomes).map(([k, v]) => `| ${k} | ${n(v)} |`);
const table = [
  `Seed ${s.seed}, ${Math.round(s.seconds / 60)} minutes on this machine (\`npm run fuzz -- --cases ${cases} --commands ${commands} --run-seconds ${runSeconds}\`):`,
  '',
  '| outcome | cases |',
  '|---|---|',
  ...rows.map((r) => `| ${r[0]} | ${r[1]} |`),
  '',
  'By experiment (the CLI command each case is of):',
  '',
  ...byExperiment,
  '',
  `Command-line cases: sweeps with random grids (a third also sharded, merged, and a point cut short and refused), and policies runs split in parts and joined; ${n(c.failures)} failed:`,
  '',
  '| outcome | cases |',
  '|---|---|',
  ...commandRows,
].join('\n');
console.log(`\n${table}`);
if (args.includes('--write')) {
  const guide = path.join(root, 'docs', 'researchers.md');
  const text = fs.readFileSync(guide, 'utf8');
  const re = /(<!-- figures:fuzz -->\n)[\s\S]*?(<!-- \/figures:fuzz -->)/;
  if (!re.test(text)) {
    console.error('freshlab fuzz: docs/researchers.md has no <!-- figures:fuzz --> block to write into');
    process.exit(1);
  }
  fs.writeFileSync(guide, text.replace(re, `$1${table}\n$2`));
  say('docs/researchers.md: the fuzz table is written');
}
if (result.status !== 0) {
  say(`the campaign found failing cases: see ${path.relative(root, summaryFile)}`);
  process.exit(1);
}
