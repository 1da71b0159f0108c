// Distributed crawling (Exposto 2008, ch. 5–6; spec §4): hash vs graph partitioning of a
// synthetic web among robots, under fixed, density-adjusted and dynamic politeness.
import { SEED_FIELD } from '../ui/fields.js';
import { number as fmt, integer as int } from '../ui/format.js';

/** The published reductions beside the measured ones. */
function comparisonsTable(result, final) {
  const rows = result.comparisons
    .map((c) => {
      const measured = c.measured === null ? `<td colspan="2" class="missing">not run: add ${c.needs}</td>` : `<td class="num">${fmt(c.measured, 3)} %</td><td class="num">${c.measured - c.published >= 0 ? '+' : ''}${fmt(c.measured - c.published, 3)}</td>`;
      return `<tr><th scope="row">${c.name}</th><td>${c.figure}</td><td class="num">${fmt(c.published, 3)} %</td>${measured}</tr>`;
    })
    .join('');
  const w = result.web;
  const sims = result.points.length;
  const violations = result.points.reduce((s, p) => s + p.violations, 0);
  return `
    <table class="proof"><caption>Reductions (100 · (1 − A/B), over the robot counts both ran): the thesis beside Freshlab${final ? '' : ' (so far)'}</caption>
      <thead><tr><th scope="col">A against B</th><th scope="col">thesis figure</th><th scope="col">thesis</th><th scope="col">Freshlab</th><th scope="col">difference (points)</th></tr></thead>
      <tbody>${rows}</tbody></table>
    <p>The web: ${int(w.hosts)} hosts on ${int(w.ips)} IPs, ${int(w.pages)} pages (the densest host ${int(w.max_host_pages)}), ${int(w.links)} links;
      ${fmt(w.intra_host_pct)} % of links stay in their host and ${fmt(w.intra_community_pct)} % in their community. Eq 5.4 gives a mean wait of
      ${fmt(w.density_mean_wait_s)} s per download (the thesis: 4.45 s). ${sims} download simulations, ${violations} politeness violations.
      One central robot would need ${fmt(result.central_s / 3600)} h by Eq 5.1–5.2.</p>
    <p class="fineprint">The thesis's 1,246,129 URLs, 5,657,734 links, 10,039 hosts and 2,440 IPs are not public: this web is synthetic, generated
      with their shape (pages per host from a power law with the thesis's mean and maximum, hosts sharing IPs, links mostly within a host and a
      community of hosts, hosts and robots on a map with RTT growing with distance), so reductions may differ — above all those that depend on the
      real link structure and RTTs. Readings: a download takes 2·RTT plus the page over the robot's bandwidth shared among its connections at the
      start; politeness is kept per host, or per IP when the IP is the unit; with the hash of URLs the robots share each server's politeness; the
      redistribution time moves the URLs that change robot when one robot is added.</p>`;
}

const panel = {
  id: 'partition',
  heading: 'Download time and URL exchanges against the number of robots',
  keyFields: ['robots', 'schemes', 'politeness'],
  auto: false,
  action: 'Simulate',
  fields: [
    { key: 'robots', label: 'numbers of robots', kind: 'list', help: 'the thesis: 2 to 30' },
    { key: 'schemes', label: 'partitioners', kind: 'choices' },
    { key: 'politeness', label: 'politeness', kind: 'choices', help: 'fixed: td after each download; dynamic: 10 × the last download' },
    { key: 'web.hosts', label: 'hosts', kind: 'integer', help: 'the thesis: 10,039' },
    { key: 'web.ips', label: 'IPs', kind: 'integer', help: 'the thesis: 2,440' },
    { key: 'web.mean_pages', label: 'mean pages per host', kind: 'number', help: 'the thesis: 122.48' },
    { key: 'web.max_pages', label: 'pages of the densest host', kind: 'integer', help: 'the thesis: 78,523' },
    { key: 'web.links_per_page', label: 'links per page', kind: 'number', help: 'the thesis: 4.54' },
    { key: 'web.intra_host_share', label: 'extra links within their host (share)', kind: 'number' },
    { key: 'web.community_size', label: 'hosts per community', kind: 'integer' },
    { key: 'web.community_share', label: 'links leaving a host that stay in its community (share)', kind: 'number' },
    { key: 'web.cities', label: 'cities on the map', kind: 'integer' },
    { key: 'web.robot_sites', label: 'candidate robot sites', kind: 'integer', help: 'the thesis: about 100' },
    { key: 'download.politeness_s', label: 'politeness td, and td_max of Eq 5.4 (s)', kind: 'number', help: 'the thesis: 15' },
    { key: 'download.bandwidth_kb_s', label: 'robot bandwidth (KB/s)', kind: 'number', help: 'the thesis: 250' },
    { key: 'download.connections', label: 'connections per robot', kind: 'integer', help: 'the thesis: 50' },
    { key: 'download.page_kb', label: 'page size (KB)', kind: 'number', help: 'the thesis: 25' },
    { key: 'download.dynamic_factor', label: 'dynamic politeness: multiple of the last download', kind: 'number', help: 'Heydon & Najork: 10' },
    { key: 'graph.imbalance', label: 'balance tolerance ε', kind: 'number' },
    { key: 'graph.proximity_preference', label: 'preference: proximity (RTT or distance)', kind: 'number' },
    { key: 'graph.links_preference', label: 'preference: hyperlinks', kind: 'number' },
    { key: 'algebraic.bandwidth_kbit_s', label: 'Eq 5.1–5.3 bandwidth (kbit/s)', kind: 'number', help: 'the thesis: 16' },
    { key: 'algebraic.page_kb', label: 'Eq 5.1 page size (KB)', kind: 'number', help: 'the thesis: 10' },
    { key: 'map_robots', label: 'robots on the map (0: the most)', kind: 'integer' },
    SEED_FIELD,
  ],
  presets: [
    {
      label: 'Every partitioner and politeness',
      values: (core) => {
        const { schemes, politeness } = core.choices('partition');
        return { ...core.defaults('partition'), schemes: schemes.map((s) => s[0]), politeness: politeness.map((p) => p[0]) };
      },
    },
    { label: 'Thesis scale (1.25 M URLs; minutes)', values: (core) => core.preset('partition', 'thesis') },
  ],
  estimate: true,
  details: (result, element, phase) => (element.innerHTML = comparisonsTable(result, phase === 'final')),
};

export default {
  id: 'partition',
  group: 'partition',
  title: 'Distributed crawling: who should download which server?',
  card: 'Hash vs graph partitioning of the web among 2–30 robots, under fixed, density-adjusted and dynamic politeness.',
  source: 'Exposto 2008, Figs 5.4–5.23',
  lede: `<p>A crawl shared by several robots must split the web: hashing each host name is simple and keeps a server's politeness in one
    robot; partitioning a graph of robot–server RTTs and host-to-host links (Exposto's thesis, ch. 5–6) should also keep links — and the URLs
    robots send each other — at home. With politeness kept, the densest server bounds the total time whatever the split; a wait that shrinks
    with a server's size (<strong>Eq 5.4</strong>) changes that. The thesis's data are not public: the web here is synthetic, with its shape.
    The discrete-event simulator of §6.4 (URL arrives, download starts, download ends; per-server politeness queues; 250 KB/s, 50 connections,
    25 KB pages) and Eq 5.1–5.3 run for each partitioner and number of robots; the default web has 600 hosts so that it answers in about a second.</p>`,
  panels: [panel],
};
