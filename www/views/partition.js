// Distributed crawling (Exposto 2008, ch. 5–6; spec §4): hash vs graph partitioning of a
// synthetic web among robots, under fixed, density-adjusted and dynamic politeness.
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
    'robots', 'schemes', 'politeness', 'web.hosts', 'web.ips', 'web.mean_pages', 'web.max_pages', 'web.links_per_page',
    'web.intra_host_share', 'web.community_size', 'web.community_share', 'web.cities', 'web.robot_sites', 'download.politeness_s',
    'download.bandwidth_kb_s', 'download.connections', 'download.page_kb', 'download.dynamic_factor', 'graph.imbalance',
    'graph.proximity_preference', 'graph.links_preference', 'algebraic.bandwidth_kbit_s', 'algebraic.page_kb', 'map_robots',
    'seed',
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
