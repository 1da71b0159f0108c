// `npm run figures`: the researcher's guide's tables of measured figures, written from
// the CLI's JSON so they cannot go stale. Each table sits between <!-- figures:NAME -->
// and <!-- /figures:NAME --> in docs/researchers.md and is replaced whole. Takes about two minutes
// (the WEBBASE preset's allocations at 14.5 M pages take most of it).
import fs from 'node:fs';
import path from 'node:path';
import { root, run, say } from './shell.mjs';

const cli = path.join(root, 'target', 'release', 'freshlab');

function freshlab(...args) {
  say(`freshlab ${args.join(' ')}`);
  return JSON.parse(run(cli, [...args, '--json', '--quiet'], { capture: true }).stdout);
}

const f = (v, digits = 3) => (v === null || v === undefined ? '—' : Number(v).toFixed(digits));
const int = (v) => Math.round(v).toLocaleString('en');
const pct = (v, digits = 1) => `${(100 * v).toFixed(digits)} %`;
const signed = (v, digits = 3) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(digits)}`;
const table = (head, rows) => [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

// The POLITE bound the thesis's figures imply (§5.5), points reading.
const IMPLIED = { 0.01: 0.083 / (0.97 - 0.812), 0.1: 0.065 / (0.975 - 0.875), 0.9: 0.062 / (0.977 - 0.886) };
const THESIS_LOSS = { 0.01: 0.083, 0.1: 0.065, 0.9: 0.062 };

function calibration(classroom, webbase) {
  const rows = [];
  for (const [name, out] of [
    ['classroom', classroom],
    ['WEBBASE preset', webbase],
  ]) {
    for (const c of out.capacities) {
      rows.push([
        name,
        pct(c.share, 0),
        f(IMPLIED[c.share]),
        f(c.polite_bound),
        signed(c.polite_bound - IMPLIED[c.share]),
        f(c.unpolite_bound),
        int(c.capped.servers),
        pct(c.capped.page_share),
        pct(c.capped.freshness_share),
      ]);
    }
  }
  return table(['repository', 'C', 'B implied by the thesis', 'POLITE bound', 'difference', 'UNPOLITE bound', 'capped servers', 'their pages', 'their share of POLITE freshness'], rows);
}

function ratios(out) {
  const rows = [];
  for (const c of out.capacities) {
    const get = (p) => c.curves.find((k) => k.policy === p);
    const [merge, delayed, random, unpolite] = ['merge', 'delayed', 'random', 'unpolite'].map(get);
    rows.push([
      pct(c.share, 0),
      `${f(merge.ratio_end)} / ${f(merge.ratio_mean)} (${f(merge.published_ratio)})`,
      `${f(random.ratio_end)} / ${f(random.ratio_mean)} (${f(random.published_ratio)})`,
      `${f(delayed.ratio_end)} / ${f(delayed.ratio_mean)}`,
      `${f(unpolite.ratio_end)} / ${f(unpolite.ratio_mean)} (${int(unpolite.violations)})`,
      `${f(100 * (merge.end - random.end), 1)} (${f(100 * THESIS_LOSS[c.share], 1)})`,
    ]);
  }
  return table(['C', 'MERGE end / whole run (thesis)', 'RANDOM end / whole run (thesis)', 'DELAYED', 'UNPOLITE (violations)', 'RANDOM\'s loss, points (thesis)'], rows);
}

function sensors(stated, other) {
  const p = stated.published;
  const spread = (w) => `${int(w.min)} / ${int(w.mean)} / ${int(w.max)}`;
  const bytes = (b) => `${(b / 1e9).toFixed(1)} × 10⁹`;
  // one column: the robot's and the sensors' readings, as the article gives them
  const cells = (robot, sensors) => [
    `${pct(robot.freshness)} / ${pct(sensors.freshness)}`,
    robot.cycle_ends.map(int).join(' and '),
    spread(robot.waits),
    spread(sensors.waits),
    int(sensors.at_once),
    `${bytes(robot.bytes)} / ${bytes(sensors.bytes)}`,
  ];
  const column = (out) => {
    const [robot, sensor] = ['robot', 'sensors'].map((concept) => out.results.find((r) => r.concept === concept));
    return cells({ ...robot, freshness: robot.stationary_mean }, { ...sensor, freshness: sensor.stationary_mean, at_once: sensor.max_concurrent });
  };
  const article = cells(
    { freshness: p.robot_freshness, cycle_ends: p.robot_cycle_ends, waits: p.robot_wait, bytes: p.robot_bytes },
    { freshness: p.sensor_freshness, waits: p.sensor_wait, bytes: p.sensor_bytes, at_once: p.max_notifications },
  );
  const names = ['stationary freshness, robot / sensors', "robot's cycles end at", 'wait, robot: min / mean / max', 'wait, sensors: min / mean / max', 'notifications handled at once, at most', 'bytes, robot / sensors'];
  const a = column(stated);
  const b = column(other);
  return table(['', 'article', 'Freshlab, rule as stated (seed 1)', 'Freshlab, state 6 never a change (seed 1)'], names.map((n, k) => [n, article[k], a[k], b[k]]));
}

function textbook(out) {
  const names = { uniform: 'uniform', proportional: 'proportional', opt_unpolite: 'optimal (OPT_UNPOLITE = OPT_POLITE here)' };
  const rows = Object.entries(names).map(([key, name]) => [name, ...out[key].frequencies.map((v) => f(v, 2)), f(out[key].freshness, 4)]);
  rows.push(["Cho & Garcia-Molina's optimum", '1.15', '1.36', '1.35', '1.14', '0.00', '—']);
  return table(['allocation', 'λ = 1', 'λ = 2', 'λ = 3', 'λ = 4', 'λ = 5', 'freshness'], rows);
}

function partition(out) {
  const rows = out.comparisons.map((c) => [`${c.name} (${c.figure})`, `${f(c.published, 2).replace(/\.?0+$/, '')} %`, c.measured === null ? `— (needs ${c.needs})` : `${f(c.measured, 1)} %`]);
  return table(['reduction 100·(1 − A/B), A against B', 'thesis', 'Freshlab'], rows);
}

// Learning to crawl on its defaults, for each objective (and again crawled equally
// spaced, and with half the pages announcing their changes): every policy's freshness, harmonic staleness,
// requests sooner than P and bandwidth misplaced at the end.
const LEARNING_LABELS = {
  oracle: 'oracle (knows the rates)',
  learn_and_crawl: 'LambdaLearnAndCrawl',
  explore_then_commit: 'explore-then-commit',
  uniform: 'uniform (no learning)',
  oracle_merge: 'MERGE knowing the rates',
  merge_learned: 'MERGE (learned rates)',
  nutch: 'Nutch adaptive',
  stormcrawler: 'StormCrawler adaptive',
};
function learning(runs) {
  const rows = [];
  for (const [objective, out] of runs) {
    for (const c of out.policies) {
      rows.push([objective, LEARNING_LABELS[c.policy], f(c.mean_freshness, 4), f(c.mean_harmonic, 4), int(c.requests / out.config.horizon_days), pct(c.violations / Math.max(1, c.requests)), f(c.rate_errors.at(-1), 3), c.interval_scale == null ? '—' : `× ${f(c.interval_scale, 3)}`]);
    }
  }
  return table(['objective', 'policy', 'freshness', 'harmonic staleness', 'requests a day', 'requests sooner than P', 'bandwidth misplaced at the end', 'intervals'], rows);
}

/** The theory views' published claims beside what Freshlab computes: the certified bound
 * of Eq 5-9 (its lower ends rounded down, its upper ends up, so the digits stay proved),
 * Corollary 5.5's minimum and the §5.4 example of Eq 5-11. */
/** The bursty experiment's gaps, in points of freshness, at each request rate. */
function bursty(out) {
  const rates = [...new Set(out.points.map((p) => p.fraction))];
  const head = `| gap, points of freshness | ${rates.map((r) => `${Math.round(100 * r)} %`).join(' | ')} | thesis |`;
  const rule = `|---|${rates.map(() => '---').join('|')}|---|`;
  const rows = out.gaps.map((g) => `| ${g.name} | ${g.measured.map((v) => f(v, 2)).join(' | ')} | ${g.published.replace(/\|/g, '\\|')} |`);
  return [head, rule, ...rows].join('\n');
}

function theory(certify, curves, bursts) {
  const down = (v, digits) => (Math.floor(v * 10 ** digits) / 10 ** digits).toFixed(digits);
  const up = (v, digits) => (Math.ceil(v * 10 ** digits) / 10 ** digits).toFixed(digits);
  const proved =
    certify.status === 'converged'
      ? `**proved** ≥ ${down(certify.global_bound, 10)} for every r > 0, c ≥ 1; the minimum is in [${down(certify.lower_bound, 10)}, ${up(certify.upper_bound, 10)}] at r ≈ ${f(certify.best.r, 6)}, c ≈ ${f(certify.best.c, 6)}`
      : `not proved: the certifier stopped (${certify.status}) with the minimum in [${down(certify.lower_bound, 10)}, ${up(certify.upper_bound, 10)}]`;
  const random = curves.random_bound_min;
  const servers = bursts.curves[0];
  return table(
    ['claim in the source', 'published', 'Freshlab'],
    [
      ["Conjecture 5.9: MERGE's factor (Eq 5-9) stays above", '0.927 (local search)', proved],
      ["Corollary 5.5: RANDOM's factor exceeds", '0.77 at x ≈ 1.793', `${f(random.value, 6)} at x = ${f(random.x, 5)}`],
      [
        `§5.4: ${int(servers.n)} servers, Pr[more than ${bursts.x.at(-1)} requests above the mean]`,
        '< 10 %',
        `${f(servers.bound.at(-1), 4)} at x = ${bursts.x.at(-1)}; the bound reaches ${pct(bursts.config.probability, 0)} at x = ${f(servers.excess_at_probability, 2)}`,
      ],
    ],
  );
}

function replace(text, name, body) {
  const start = `<!-- figures:${name} -->`;
  const end = `<!-- /figures:${name} -->`;
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/researchers.md has no ${start} … ${end} block`);
  return `${text.slice(0, a + start.length)}\n${body}\n${text.slice(b)}`;
}

say('building the release CLI (cargo build --release)…');
run('cargo', ['build', '--release', '--bin', 'freshlab']);
const dir = fs.mkdtempSync(path.join(root, 'target', 'figures-'));
const five = path.join(dir, 'five.csv');
fs.writeFileSync(five, 'page,server,change_rate\ne1,s,1\ne2,s,2\ne3,s,3\ne4,s,4\ne5,s,5\n');
const classroom = freshlab('policies');
const webbase = freshlab('policies', '--webbase', '--policies', '[]', '--crawlers', '[]');
const stated = freshlab('sensors');
const other = freshlab('sensors', '--unchanged-never-changes', 'true');
const allocations = freshlab('allocate', '--repository', five, '--capacity', '5', '--politeness-seconds', '0');
const certified = freshlab('certify');
const curves = freshlab('factor-curves');
const servers = freshlab('bursts', '--n', '[5462]', '--x-max', '160', '--points', '17');
const learned = ['harmonic', 'binary', 'freshness'].map((objective) => [objective, freshlab('learning', '--objective', objective)]);
for (const objective of ['harmonic', 'binary']) {
  learned.push([`${objective}, crawled equally spaced`, freshlab('learning', '--objective', objective, '--spacing', 'equal')]);
}
for (const objective of ['harmonic', 'binary', 'freshness']) {
  learned.push([`${objective}, half the pages announcing their changes`, freshlab('learning', '--objective', objective, '--observed-share', '0.5')]);
}
const changes = freshlab('bursty');
const crawl = freshlab('partition', '--schemes', 'hash_host,hash_url,hash_ip,graph_rtt,graph_geo,graph_rtt_ip', '--politeness', 'fixed,density,dynamic,fixed_mean');
fs.rmSync(dir, { recursive: true, force: true });

const guide = path.join(root, 'docs', 'researchers.md');
let text = fs.readFileSync(guide, 'utf8');
text = replace(text, 'calibration', calibration(classroom, webbase));
text = replace(text, 'repository', ratios(classroom));
text = replace(text, 'sensors', sensors(stated, other));
text = replace(text, 'textbook', textbook(allocations));
text = replace(text, 'partition', partition(crawl));
text = replace(text, 'bursty', bursty(changes));
text = replace(text, 'learning', learning(learned));
text = replace(text, 'theory', theory(certified, curves, servers));
fs.writeFileSync(guide, text);
say('docs/researchers.md: calibration, repository, sensors, textbook, bursty, partition, learning and theory tables rewritten from the CLI');
