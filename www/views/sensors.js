// Robots vs sensors (Zemskov 2002; spec §3): the article's experiment at full scale, its
// figures beside Freshlab's, and what lies beyond it.
import { number as fmt, percent, percent as pct, integer as int, integer, relative as diff } from '../ui/format.js';

const MODEL_FIELDS = [
  'pages', 'horizon', 'week', 'changes_per_week', 'requests_per_week', 'download_min', 'download_max', 'notify_min', 'notify_max',
  'size_min', 'size_max', 'states', 'no_change_rules', 'unchanged_never_changes', 'ties', 'sample_every', 'stationary_from',
  'seed',
];

function metricsTable(result, final) {
  const p = result.published;
  const robot = result.results.find((r) => r.concept === 'robot');
  const sensors = result.results.find((r) => r.concept === 'sensors');
  const row = (name, article, ours, d) => `<tr><th scope="row">${name}</th><td class="num">${article}</td><td class="num">${ours}</td><td class="num">${d}</td></tr>`;
  const rows = [];
  if (robot) {
    rows.push(row('robot: stationary freshness', pct(p.robot_freshness), `${pct(robot.stationary_mean)} ± ${fmt(100 * (robot.stationary_half_width ?? 0), 2)}`, robot.stationary_mean === null ? '—' : `${((robot.stationary_mean - p.robot_freshness) * 100).toFixed(1)} points`));
    rows.push(row('robot: bytes downloaded', int(p.robot_bytes), int(robot.bytes), diff(robot.bytes, p.robot_bytes)));
    rows.push(row('robot: cycle ends', p.robot_cycle_ends.map(int).join(', '), robot.cycle_ends.map(int).join(', '), robot.cycle_ends.slice(0, 2).map((c, k) => diff(c, p.robot_cycle_ends[k])).join(', ')));
    rows.push(row('robot: wait, min / mean / max', `${int(p.robot_wait.min)} / ${int(p.robot_wait.mean)} / ${int(p.robot_wait.max)}`, `${int(robot.waits.min)} / ${int(robot.waits.mean)} / ${int(robot.waits.max)}`, diff(robot.waits.mean, p.robot_wait.mean)));
    rows.push(row('robot: downloads (useful)', '—', `${int(robot.downloads)} (${pct(robot.useful_downloads / Math.max(1, robot.downloads))})`, 'counted here first'));
  }
  if (sensors) {
    rows.push(row('sensors: stationary freshness', pct(p.sensor_freshness), `${pct(sensors.stationary_mean)} ± ${fmt(100 * (sensors.stationary_half_width ?? 0), 2)}`, sensors.stationary_mean === null ? '—' : `${((sensors.stationary_mean - p.sensor_freshness) * 100).toFixed(1)} points`));
    rows.push(row('sensors: bytes downloaded', int(p.sensor_bytes), int(sensors.bytes), diff(sensors.bytes, p.sensor_bytes)));
    rows.push(row('sensors: wait, min / mean / max', `${int(p.sensor_wait.min)} / ${int(p.sensor_wait.mean)} / ${int(p.sensor_wait.max)}`, `${int(sensors.waits.min)} / ${int(sensors.waits.mean)} / ${int(sensors.waits.max)}`, diff(sensors.waits.mean, p.sensor_wait.mean)));
    rows.push(row('sensors: notifications at once, at most', int(p.max_notifications), int(sensors.max_concurrent), diff(sensors.max_concurrent, p.max_notifications)));
    rows.push(row('sensors: downloads (useful)', '—', `${int(sensors.downloads)} (${pct(sensors.useful_downloads / Math.max(1, sensors.downloads))})`, ''));
  }
  const changes = result.results.map((r) => `${r.concept}: ${int(r.changes_between_downloads.min)} / ${fmt(r.changes_between_downloads.mean, 3)} / ${int(r.changes_between_downloads.max)}`).join('; ');
  const ties = result.results.map((r) => `${r.concept} ${int(r.ties)}`).join(', ');
  const events = result.results.reduce((s, r) => s + r.events, 0);
  return `
    <table class="proof"><caption>The article's figures beside Freshlab's${final ? '' : ' (so far)'}</caption>
      <thead><tr><th scope="col">measure</th><th scope="col">article</th><th scope="col">Freshlab</th><th scope="col">difference</th></tr></thead>
      <tbody>${rows.join('')}</tbody></table>
    <p>Changes between consecutive downloads of a page (min / mean / max): ${changes}. A change fell in the same unit as an observation
      ${ties} times (${result.config.ties === 'change_first' ? 'the change was taken first' : 'the observation was taken first'}).
      ${int(events)} events simulated; a change event changes the page with probability ${fmt(result.effective_share, 3)}.
      The article needed ${fmt(p.hours[0], 3)} h to build its event log and ${fmt(p.hours[1] + p.hours[2], 3)} h to run both concepts (Pentium 4, SimPy 0.5, MySQL).</p>
    <p class="fineprint">Readings (the article leaves them open): a copy is current from the moment its download completes and equals the page then;
      an error page answers at once with no bytes and its state is recorded; sensors see every request, errors included; at time 0 every sensor knows its page;
      a wait runs from the change that made the copy stale; episodes open at the horizon are not counted; size after state 4 is uniform in [65, current],
      after state 5 in [current, 122,880]. Units run from 0 to the horizon inclusive. Freshlab's byte counts run about 12 % above the article's for both
      concepts, which points to a different reading of the size rules.</p>`;
}

const article = {
  id: 'sensors',
  heading: 'The article\'s experiment: robot against sensors over one week',
  keyFields: ['pages', 'changes_per_week', 'requests_per_week'],
  auto: false,
  action: 'Simulate',
  initial: (core) => core.defaults('sensors'),
  fields: MODEL_FIELDS,
  hover: (_core, x, y) => `unit ${integer(x)}: ${percent(y)} fresh`,
  details: (result, element, phase) => (element.innerHTML = metricsTable(result, phase === 'final')),
};

const beyond = {
  id: 'sensors-beyond',
  heading: 'Beyond the article: smarter robots, fewer sensors',
  intro: `<p>How many robots — how many bytes a week — does it take to be as fresh as the sensors? And what if only some servers run a
    sensor, or notifications get lost?</p>`,
  keyFields: ['robots', 'robot_order', 'sensor_share'],
  experiment: 'sensors',
  auto: false,
  action: 'Simulate',
  initial: (core) => ({ ...core.defaults('sensors'), pages: 20000, robot_sweep: [1, 2, 4, 8, 16, 32] }),
  fields: [
    { key: 'pages', help: '' },
    'robots', 'robot_order', 'rate_spread', 'sensor_share', 'notification_loss', 'robot_sweep', 'seed',
  ],
  hover: (_core, x, y) => `${fmt(x, 3)}: ${percent(y)}`,
  details(result, element) {
    const rows = result.sweep
      .map((s) => `<tr><td class="num">${s.robots}</td><td class="num">${pct(s.stationary_mean)}</td><td class="num">${int(s.bytes_per_week)}</td></tr>`)
      .join('');
    const sensors = result.results.find((r) => r.concept === 'sensors');
    const weeks = result.config.horizon / result.config.week;
    element.innerHTML = `
      ${
        rows
          ? `<table class="proof"><caption>Robots needed: freshness and bytes a week for each number of robots</caption>
        <thead><tr><th scope="col">robots</th><th scope="col">stationary freshness</th><th scope="col">bytes per week</th></tr></thead><tbody>${rows}</tbody></table>`
          : ''
      }
      ${sensors ? `<p>Sensors: ${pct(sensors.stationary_mean)} fresh for ${int(sensors.bytes / weeks)} bytes a week, ${int(sensors.lost_notifications)} of ${int(sensors.notifications)} notifications lost.</p>` : ''}
      <p class="fineprint">The useful share of the robots' downloads, which the article names as future work, is in the table of the panel above.</p>`;
  },
};

export default {
  id: 'sensors',
  group: 'sensors',
  title: 'Robots vs sensors: who notices a change first?',
  card: 'A robot walking its list against sensors that notify changes, on the same page histories, at the article\'s full scale.',
  source: 'Zemskov 2002, §6, Fig 3',
  lede: `<p>Zemskov (2002, Russian) compared a robot that keeps walking its list of pages with sensors on the servers that watch every
    visitor's request and notify the search engine when a page has changed. His simulation of 200,000 pages over one week took 35 hours.
    Here both concepts run on the very same page histories — every page's changes and requests come from its own seeded stream — in a few
    seconds: 200,000 pages, 6 changes and 70 external requests per page per week, downloads of 1–40 units, notifications of 1–3 units.
    Every parameter of the model can be changed.</p>`,
  panels: [article, beyond],
};
