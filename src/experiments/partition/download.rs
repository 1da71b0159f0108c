//! The discrete-event download simulator of the thesis's §6.4: events *URL arrives at a
//! robot*, *download starts* (a robot's wake-up) and *download ends*; each robot keeps
//! its URLs per server and a priority queue of the servers' earliest allowed times
//! (politeness); when a download ends the page's links are routed — to the robot itself
//! at once, or to the owning robot after the one-way delay between the two.

use super::scheme::Assignment;
use super::web::{Web, distance};
use crate::core::field::{Nested, settings};
use crate::core::labels::labelled;
use crate::core::math::elementary::ln;
use crate::core::sim::queue::{Engine, EventQueue};
use crate::core::units::Seconds;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;

labelled! {
/// The wait between two downloads from one server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Politeness {
    /// td seconds after each download ends (the thesis: 15 s).
    Fixed => "fixed",
    /// Eq 5.4: td_max − (ln pages / ln pages_max)(td_max − 1), by the server's pages.
    Density => "by density (Eq 5.4)",
    /// Heydon & Najork: a multiple (10) of the previous download's duration.
    Dynamic => "dynamic (10 × last download)",
    /// Fixed at the mean wait Eq 5.4 gives per download (the thesis: 4.45 s), for the
    /// fair comparison of §5.2.5.
    FixedMean => "fixed at Eq 5.4's mean",
}
}

settings! {
/// The simulated robots (thesis §5.2.4).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DownloadParams {
    /// td for fixed politeness and td_max for Eq 5.4 (the thesis: 15 s).
    pub politeness_s: Seconds = Seconds(15.0); number("politeness td, and td_max of Eq 5.4 (s)").help("the thesis: 15").at_least(1.0).at_most(86_400.0);
    /// Bandwidth of each robot, KB/s (the thesis: 250).
    pub bandwidth_kb_s: f64 = 250.0; number("robot bandwidth (KB/s)").help("the thesis: 250").positive().at_most(1e9);
    /// Simultaneous connections to different servers (the thesis: 50).
    pub connections: u64 = 50; integer("connections per robot").help("the thesis: 50").count(1, 100_000);
    /// Page size, KB (the thesis: 25).
    pub page_kb: f64 = 25.0; number("page size (KB)").help("the thesis: 25").positive().at_most(1e6);
    /// The multiple of the last download's duration for dynamic politeness (10).
    pub dynamic_factor: f64 = 10.0; number("dynamic politeness: multiple of the last download").help("Heydon & Najork: 10").at_least(0.0).at_most(1e4);
}
}

/// Its fields' ranges only.
impl Nested for DownloadParams {}

/// Eq 5.4: the wait for a server of `pages` pages when the densest has `pages_max`:
/// td_max for a one-page server, 1 s for the densest.
pub fn density_wait(pages: f64, pages_max: f64, td_max: f64) -> f64 {
    if pages_max <= 1.0 { td_max } else { td_max - ln(pages) / ln(pages_max) * (td_max - 1.0) }
}

/// Eq 5.4's waits weighted by downloads (each page once): Σ pages·td / Σ pages.
pub fn density_mean_wait(server_pages: &[f64], td_max: f64) -> f64 {
    let max = server_pages.iter().copied().fold(1.0, f64::max);
    let total: f64 = server_pages.iter().sum();
    server_pages.iter().filter(|&&n| n > 0.0).map(|&n| n * density_wait(n, max, td_max)).sum::<f64>() / total
}

/// What a download run measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// When the last download ended (s).
    pub total_s: f64,
    pub downloads: u64,
    /// Links routed (all links of all downloaded pages) and those sent to another robot.
    pub routed: u64,
    pub crossed: u64,
    /// Downloads started before their server's politeness allowed (must be 0).
    pub violations: u64,
    /// Mean wait imposed after a download (s).
    pub mean_wait_s: f64,
    /// When each robot's last download ended (s).
    pub robot_end_s: Vec<f64>,
}

impl Measured {
    pub fn exchange_pct(&self) -> f64 {
        if self.routed == 0 { 0.0 } else { 100.0 * self.crossed as f64 / self.routed as f64 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    Arrive { robot: u32, page: u32 },
    Wake { robot: u32 },
    End { robot: u32, page: u32, lane: u32 },
}

/// One robot's URLs for one server.
struct Lane {
    robot: u32,
    server: u32,
    queue: VecDeque<u32>,
    /// In its robot's ready queue, or waiting on its server.
    queued: bool,
    in_flight: bool,
    /// When its download in flight started.
    started: f64,
}

struct Server {
    busy: bool,
    ready: f64,
    pages: f64,
    /// Other robots' lanes waiting for this server to be free (only when a server's
    /// pages are split among robots, as with the hash of URLs).
    waiting: Vec<u32>,
}

struct Robot {
    site: usize,
    ready: EventQueue<u32>,
    active: u64,
    wake_at: f64,
    end: f64,
}

/// A download run in progress, advanced event by event.
pub struct Download {
    web: Arc<Web>,
    assignment: Arc<Assignment>,
    politeness: Politeness,
    params: DownloadParams,
    fixed_wait: f64,
    pages_max: f64,
    engine: Engine<Event>,
    lanes: Vec<Lane>,
    lane_of_page: Vec<u32>,
    servers: Vec<Server>,
    robots: Vec<Robot>,
    /// One-way delay between robots (s), robots × robots.
    delay: Vec<f64>,
    discovered: Vec<bool>,
    /// Per server: a download in flight, and the earliest next start politeness allows.
    audit: Vec<(bool, f64)>,
    m: Measured,
    wait_sum: f64,
    events: u64,
}

impl Download {
    /// Starts a crawl of `web` split by `a` among `robots` robots at sites 0..robots:
    /// each host's first page arrives at its robot at time 0. `rtt_s(km)` gives the RTT
    /// between two robot sites `km` apart.
    pub fn new(web: Arc<Web>, a: Arc<Assignment>, robots: usize, politeness: Politeness, params: &DownloadParams, rtt_s: impl Fn(f64) -> f64) -> Self {
        let mut server_pages = vec![0.0; a.servers];
        for h in 0..web.hosts() {
            server_pages[a.server_of_host[h] as usize] += web.host_pages(h) as f64;
        }
        let pages_max = server_pages.iter().copied().fold(1.0, f64::max);
        let fixed_wait = match politeness {
            Politeness::FixedMean => density_mean_wait(&server_pages, params.politeness_s.0),
            _ => params.politeness_s.0,
        };
        let mut lanes = Vec::new();
        let mut index: HashMap<(u32, u32), u32> = HashMap::new();
        let mut lane_of_page = Vec::with_capacity(web.pages());
        for page in 0..web.pages() {
            let (robot, server) = (a.owner[page], a.server_of_host[web.host_of[page] as usize]);
            let lane = *index.entry((robot, server)).or_insert_with(|| {
                lanes.push(Lane { robot, server, queue: VecDeque::new(), queued: false, in_flight: false, started: 0.0 });
                lanes.len() as u32 - 1
            });
            lane_of_page.push(lane);
        }
        let servers = server_pages.iter().map(|&pages| Server { busy: false, ready: 0.0, pages, waiting: Vec::new() }).collect();
        let robots_v: Vec<Robot> = (0..robots).map(|site| Robot { site, ready: EventQueue::new(), active: 0, wake_at: f64::INFINITY, end: 0.0 }).collect();
        let mut delay = vec![0.0; robots * robots];
        for j in 0..robots {
            for l in 0..robots {
                if j != l {
                    delay[j * robots + l] = rtt_s(distance(web.site_position[j], web.site_position[l])) / 2.0;
                }
            }
        }
        let (page_count, server_count) = (web.pages(), a.servers);
        let mut engine = Engine::new();
        for h in 0..web.hosts() {
            let seed = web.host_start[h];
            engine.schedule(0.0, Event::Arrive { robot: a.owner[seed as usize], page: seed });
        }
        let m = Measured { total_s: 0.0, downloads: 0, routed: 0, crossed: 0, violations: 0, mean_wait_s: 0.0, robot_end_s: vec![0.0; robots] };
        Download {
            web,
            assignment: a,
            politeness,
            params: params.clone(),
            fixed_wait,
            pages_max,
            engine,
            lanes,
            lane_of_page,
            servers,
            robots: robots_v,
            delay,
            discovered: vec![false; page_count],
            audit: vec![(false, 0.0); server_count],
            m,
            wait_sum: 0.0,
            events: 0,
        }
    }

    /// Processes up to `budget` events; returns true when the crawl is over.
    pub fn advance(&mut self, budget: u64) -> bool {
        // the engine lends itself to the handlers, which schedule what follows
        let mut engine = std::mem::take(&mut self.engine);
        let over = engine.run_for(budget, |engine, now, event| {
            self.events += 1;
            match event {
                Event::Arrive { robot, page } => {
                    self.discover(robot, page, now);
                    self.start_downloads(engine, robot as usize, now);
                }
                Event::Wake { robot } => {
                    if self.robots[robot as usize].wake_at == now {
                        self.robots[robot as usize].wake_at = f64::INFINITY;
                        self.start_downloads(engine, robot as usize, now);
                    }
                }
                Event::End { robot, page, lane } => self.end(engine, robot as usize, page as usize, lane as usize, now),
            }
        });
        self.engine = engine;
        over
    }

    /// Events still queued (a rough progress measure).
    pub fn pending(&self) -> usize {
        self.engine.pending()
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    pub fn downloads(&self) -> u64 {
        self.m.downloads
    }

    /// The measurements (call when `advance` returned true).
    pub fn finish(mut self) -> Measured {
        self.m.mean_wait_s = if self.m.downloads == 0 { 0.0 } else { self.wait_sum / self.m.downloads as f64 };
        self.m.robot_end_s = self.robots.iter().map(|r| r.end).collect();
        self.m
    }

    /// A URL reaches its robot: new pages join their lane.
    fn discover(&mut self, robot: u32, page: u32, now: f64) {
        if std::mem::replace(&mut self.discovered[page as usize], true) {
            return;
        }
        let lane = self.lane_of_page[page as usize];
        let l = &mut self.lanes[lane as usize];
        debug_assert_eq!(l.robot, robot);
        l.queue.push_back(page);
        if !l.queued && !l.in_flight {
            self.enqueue(lane, now);
        }
    }

    /// Puts a lane in its robot's ready queue at its server's allowed time, or on the
    /// server's waiting list while another robot downloads from it.
    fn enqueue(&mut self, lane: u32, now: f64) {
        let l = &mut self.lanes[lane as usize];
        l.queued = true;
        let s = &mut self.servers[l.server as usize];
        if s.busy {
            s.waiting.push(lane);
        } else {
            self.robots[l.robot as usize].ready.push(s.ready.max(now), lane);
        }
    }

    /// Starts downloads while the robot has free connections and a server is ready;
    /// otherwise sets a wake-up for the next allowed time.
    fn start_downloads(&mut self, engine: &mut Engine<Event>, robot: usize, now: f64) {
        while self.robots[robot].active < self.params.connections {
            let Some((at, lane)) = self.robots[robot].ready.peek() else { return };
            if at > now {
                if at < self.robots[robot].wake_at {
                    self.robots[robot].wake_at = at;
                    engine.schedule(at, Event::Wake { robot: robot as u32 });
                }
                return;
            }
            self.robots[robot].ready.pop();
            let server = self.lanes[lane as usize].server as usize;
            let s = &mut self.servers[server];
            if s.busy {
                s.waiting.push(lane);
                continue;
            }
            if s.ready > now {
                let at = s.ready;
                self.robots[robot].ready.push(at, lane);
                continue;
            }
            let l = &mut self.lanes[lane as usize];
            let page = l.queue.pop_front().expect("a queued lane has a URL");
            l.queued = false;
            l.in_flight = true;
            l.started = now;
            s.busy = true;
            // the audit: kept apart from the scheduling state it checks
            let audit = &mut self.audit[server];
            if audit.0 || now < audit.1 {
                self.m.violations += 1;
            }
            audit.0 = true;
            let r = &mut self.robots[robot];
            r.active += 1;
            // the robot's bandwidth is shared by its connections at the start
            let transfer = self.params.page_kb * r.active as f64 / self.params.bandwidth_kb_s;
            let duration = 2.0 * self.web.rtt(self.web.host_of[page as usize] as usize, r.site) + transfer;
            engine.schedule(now + duration, Event::End { robot: robot as u32, page, lane });
        }
    }

    fn end(&mut self, engine: &mut Engine<Event>, robot: usize, page: usize, lane: usize, now: f64) {
        let r = &mut self.robots[robot];
        r.active -= 1;
        r.end = now;
        self.m.downloads += 1;
        self.m.total_s = now;
        let server = self.lanes[lane].server as usize;
        let s = &mut self.servers[server];
        let started = self.lanes[lane].started;
        let wait = match self.politeness {
            Politeness::Fixed | Politeness::FixedMean => self.fixed_wait,
            Politeness::Density => density_wait(s.pages, self.pages_max, self.params.politeness_s.0),
            Politeness::Dynamic => self.params.dynamic_factor * (now - started),
        };
        self.wait_sum += wait;
        s.busy = false;
        s.ready = now + wait;
        self.audit[server] = (false, now + wait);
        let waiting = std::mem::take(&mut s.waiting);
        self.lanes[lane].in_flight = false;
        if !self.lanes[lane].queue.is_empty() {
            self.enqueue(lane as u32, now);
        }
        for other in waiting {
            let r = self.lanes[other as usize].robot as usize;
            self.robots[r].ready.push(now + wait, other);
            if r != robot {
                self.start_downloads(engine, r, now);
            }
        }
        for k in self.web.link_start[page] as usize..self.web.link_start[page + 1] as usize {
            let target = self.web.link_target[k];
            let to = self.assignment.owner[target as usize];
            self.m.routed += 1;
            if to as usize == robot {
                self.discover(to, target, now);
            } else {
                self.m.crossed += 1;
                let at = now + self.delay[robot * self.robots.len() + to as usize];
                engine.schedule(at, Event::Arrive { robot: to, page: target });
            }
        }
        self.start_downloads(engine, robot, now);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A hand-built web: hosts of the given sizes (one IP each, all at one spot), the
    /// given links (page → page), RTT `rtt` seconds to every robot site; sites 100 km apart.
    pub(crate) fn tiny_web(sizes: &[u32], links: &[(u32, u32)], rtt: f32, sites: usize) -> Web {
        let mut host_start = vec![0];
        let mut host_of = Vec::new();
        for (h, &n) in sizes.iter().enumerate() {
            host_start.push(host_start[h] + n);
            host_of.extend(std::iter::repeat_n(h as u32, n as usize));
        }
        let pages = host_of.len();
        let mut link_start = vec![0u32; pages + 1];
        for &(s, _) in links {
            link_start[s as usize + 1] += 1;
        }
        for k in 0..pages {
            link_start[k + 1] += link_start[k];
        }
        let mut sorted = links.to_vec();
        sorted.sort_by_key(|l| l.0);
        Web {
            host_start,
            host_of,
            host_ip: (0..sizes.len() as u32).collect(),
            host_community: vec![0; sizes.len()],
            ip_position: vec![[0.0, 0.0]; sizes.len()],
            site_position: (0..sites).map(|k| [100.0 * k as f64, 0.0]).collect(),
            rtt_ip_site: vec![rtt; sizes.len() * sites],
            link_start,
            link_target: sorted.iter().map(|l| l.1).collect(),
            communities: 1,
        }
    }

    fn by_host(web: &Web, robot_of_host: &[u32]) -> Assignment {
        Assignment {
            owner: (0..web.pages()).map(|p| robot_of_host[web.host_of[p] as usize]).collect(),
            server_of_host: (0..web.hosts() as u32).collect(),
            servers: web.hosts(),
            cut: None,
        }
    }

    fn run(web: &Web, a: &Assignment, robots: usize, politeness: Politeness, params: &DownloadParams) -> Measured {
        let mut d = Download::new(Arc::new(web.clone()), Arc::new(a.clone()), robots, politeness, params, |km| 0.01 + 0.0002 * km);
        while !d.advance(7) {}
        d.finish()
    }

    #[test]
    fn one_server_waits_politeness_between_downloads() {
        // pages 0 → 1, 0 → 2 on one host; RTT 50 ms: each download takes 2·0.05 + 25/250 = 0.2 s
        let web = tiny_web(&[3], &[(0, 1), (0, 2)], 0.05, 1);
        let a = by_host(&web, &[0]);
        let m = run(&web, &a, 1, Politeness::Fixed, &DownloadParams::default());
        assert!((m.total_s - (3.0 * 0.2 + 2.0 * 15.0)).abs() < 1e-6, "{}", m.total_s);
        assert_eq!((m.downloads, m.routed, m.crossed, m.violations), (3, 2, 0, 0));
        assert!((m.mean_wait_s - 15.0).abs() < 1e-9);
        // dynamic: 10 × 0.2 s after each download
        let m = run(&web, &a, 1, Politeness::Dynamic, &DownloadParams::default());
        assert!((m.total_s - (3.0 * 0.2 + 2.0 * 2.0)).abs() < 1e-6, "{}", m.total_s);
        // by density: the only server is the densest, so it waits 1 s
        let m = run(&web, &a, 1, Politeness::Density, &DownloadParams::default());
        assert!((m.total_s - (3.0 * 0.2 + 2.0 * 1.0)).abs() < 1e-6, "{}", m.total_s);
    }

    #[test]
    fn connections_share_the_robots_bandwidth_and_bound_its_parallelism() {
        let web = tiny_web(&[1, 1], &[], 0.05, 1);
        let a = by_host(&web, &[0, 0]);
        // two connections: the second download shares the bandwidth (0.2 s of transfer)
        let m = run(&web, &a, 1, Politeness::Fixed, &DownloadParams::default());
        assert!((m.total_s - (0.1 + 0.2)).abs() < 1e-6, "{}", m.total_s);
        // one connection: one after the other, each alone on the link
        let m = run(&web, &a, 1, Politeness::Fixed, &DownloadParams { connections: 1, ..DownloadParams::default() });
        assert!((m.total_s - 2.0 * 0.2).abs() < 1e-6, "{}", m.total_s);
    }

    #[test]
    fn links_to_another_robot_cross_after_the_one_way_delay() {
        // host 0: pages 0 → 1; host 1: pages 2, 3; page 1 links to page 3 (host 1's second page)
        let web = tiny_web(&[2, 2], &[(0, 1), (1, 3)], 0.05, 2);
        let a = by_host(&web, &[0, 1]);
        let m = run(&web, &a, 2, Politeness::Fixed, &DownloadParams::default());
        assert_eq!((m.downloads, m.routed, m.crossed, m.violations), (4, 2, 1, 0));
        // robot 1: page 2 at 0–0.2; page 3 arrives at 0.2 + 15 + 0.2 + (0.01 + 0.02)/2, after
        // host 1's politeness (0.2 + 15), so it starts at once and ends 0.2 later
        let arrive = 0.2 + 15.0 + 0.2 + 0.015;
        assert!((m.total_s - (arrive + 0.2)).abs() < 1e-6, "{}", m.total_s);
        assert!((m.robot_end_s[0] - 15.4).abs() < 1e-6);
        // on one robot nothing crosses
        let m = run(&web, &by_host(&web, &[0, 0]), 1, Politeness::Fixed, &DownloadParams::default());
        assert_eq!((m.crossed, m.downloads), (0, 4));
    }

    #[test]
    fn robots_sharing_a_server_keep_its_politeness() {
        // hash of URLs: one host's pages split between two robots; the server is shared
        let web = tiny_web(&[6], &[(0, 1), (0, 2), (1, 3), (1, 4), (2, 5)], 0.05, 2);
        let a = Assignment { owner: vec![0, 1, 0, 1, 0, 1], server_of_host: vec![0], servers: 1, cut: None };
        let m = run(&web, &a, 2, Politeness::Fixed, &DownloadParams::default());
        assert_eq!((m.downloads, m.violations), (6, 0));
        // six downloads of at least 0.2 s and five waits of 15 s, one at a time
        assert!(m.total_s >= 6.0 * 0.2 + 5.0 * 15.0 - 1e-9, "{}", m.total_s);
    }

    #[test]
    fn eq_5_4_spans_td_max_to_one_second() {
        assert_eq!(density_wait(1.0, 78_523.0, 15.0), 15.0);
        assert!((density_wait(78_523.0, 78_523.0, 15.0) - 1.0).abs() < 1e-12);
        // halfway in log pages, halfway in wait
        assert!((density_wait(78_523f64.sqrt(), 78_523.0, 15.0) - 8.0).abs() < 1e-9);
        assert_eq!(density_wait(1.0, 1.0, 15.0), 15.0, "a web of one-page servers");
        // the download-weighted mean: (1·15 + 4·1)/5
        assert!((density_mean_wait(&[1.0, 4.0], 15.0) - 19.0 / 5.0).abs() < 1e-12);
    }
}
