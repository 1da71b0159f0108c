//! Distributed crawling (Exposto 2008, ch. 5–6; spec §4): splitting the web's servers
//! among robots by hashing or by multi-objective graph partitioning, under fixed,
//! density-adjusted (Eq 5.4) and dynamic politeness — simulated (§6.4) and estimated
//! algebraically (Eq 5.1–5.3) for each number of robots.

pub mod algebraic;
pub mod compare;
pub mod download;
pub mod figures;
pub mod graph;
pub mod graph_partition;
pub mod scheme;
pub mod table;
#[cfg(test)]
mod tests;
pub mod web;

use super::{Choice, Experiment, Job, Plan, Preset, Sliced};
use crate::core::field::settings;
use crate::core::input::{InputError, count, distinct};
use crate::core::limits::{Cost, Fix};
use crate::experiments::Settings;
use algebraic::{AlgebraicParams, download_time, exchange_time, redistribution_time};
use compare::{Comparison, comparisons};
use download::{Download, DownloadParams, Politeness, density_mean_wait};
use graph::Unit;
use scheme::{Assignment, Cuts, GraphParams, Scheme, Topology, assign};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use web::{Web, WebConfig};

settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct PartitionConfig {
    /// Numbers of robots (the thesis: 2 to 30); each at most `web.robot_sites` (a rule).
    pub robots: Vec<u64> = vec![2, 5, 10, 15, 20, 25, 30]; list("numbers of robots").help("the thesis: 2 to 30").count(1, 1_000);
    pub schemes: Vec<Scheme> = vec![Scheme::HashHost, Scheme::GraphRtt]; choices("partitioners");
    pub politeness: Vec<Politeness> = vec![Politeness::Fixed, Politeness::Density];
        choices("politeness").help("fixed: td after each download; dynamic: 10 × the last download");
    pub web: WebConfig = WebConfig::default(); nested;
    pub download: DownloadParams = DownloadParams::default(); nested;
    pub graph: GraphParams = GraphParams::default(); nested;
    pub algebraic: AlgebraicParams = AlgebraicParams::default(); nested;
    /// Robots of the map panel (0: the largest number run).
    pub map_robots: u64 = 0; integer("robots on the map (0: the most)");
    pub seed: u64 = 1; seed();
}
}

/// The sample's scale (1.25 M URLs, 10,039 hosts), every scheme and politeness of the
/// thesis's figures.
pub fn thesis_scale() -> PartitionConfig {
    PartitionConfig {
        web: WebConfig::thesis(),
        robots: (2..=30).step_by(2).collect(),
        schemes: vec![Scheme::HashHost, Scheme::GraphRtt, Scheme::GraphGeo, Scheme::GraphRttIp],
        politeness: Politeness::ALL.to_vec(),
        ..PartitionConfig::default()
    }
}

/// What a run will cost, from its configuration alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    pub pages: f64,
    pub links: f64,
    /// Download simulations (robot counts × schemes × politeness).
    pub simulations: u64,
    /// Events of all simulations together (about pages + links + hosts each).
    pub events: f64,
    /// The extra wake-ups of robots' queues when URLs are hashed (cheap events).
    pub wakes: f64,
    pub bytes: u64,
}

impl PartitionConfig {
    pub fn estimate(&self) -> Estimate {
        let pages = self.web.expected_pages();
        let links = self.web.expected_links();
        let simulations = (self.robots.len() * self.schemes.len() * self.politeness.len()) as u64;
        let sites = self.web.robot_sites as f64;
        // the web (pages, links, the RTT table) and one run's lanes, queues and owners:
        // about 12 bytes a page or link (measured, tests/cost_model.rs)
        let bytes = 12.3 * (pages + links) + self.web.ips as f64 * sites * 4.0 + self.web.hosts as f64 * 300.0;
        // a simulation: each page arrives and is downloaded, and robots wake (measured)
        let events = simulations as f64 * (2.1 * pages + self.web.hosts as f64);
        // hashing URLs spreads each host over the robots, whose queues then wake about
        // 1.56·p^0.73 times more a page with p robots, cheaply (measured on the classroom
        // web at 2, 10 and 30 robots: 2.6, 8.4 and 17.4 events a page more, the run's
        // time hardly longer; the fuzz campaign's case 15,011 made 2.3 times the work
        // estimated without them)
        let url_schemes = self.schemes.iter().filter(|&&s| s == Scheme::HashUrl).count() as f64;
        let wakes = url_schemes * self.politeness.len() as f64 * self.robots.iter().map(|&r| 1.56 * (r as f64).powf(0.73) * pages).sum::<f64>();
        Estimate { pages, links, simulations, events, wakes, bytes: bytes as u64 }
    }
}

impl Settings for PartitionConfig {
    fn rules(&self) -> Result<(), InputError> {
        if self.robots.is_empty() || self.robots.len() > 64 {
            return Err(InputError::new("robots", "give 1 to 64 numbers of robots, such as 2, 5, 10, 20, 30"));
        }
        let ip_units = self.schemes.iter().any(|s| s.unit() == Unit::Ip);
        for (k, &p) in self.robots.iter().enumerate() {
            let field = format!("robots[{k}]");
            count(&field, p, 1, self.web.robot_sites, "there are no more robot sites (raise web.robot_sites)")?;
            if p > self.web.hosts || (ip_units && p > self.web.ips) {
                return Err(InputError::new(field, format!("{p} robots cannot each get a server: the web has {} hosts and {} IPs", self.web.hosts, self.web.ips)));
            }
            if self.robots[..k].contains(&p) {
                return Err(InputError::new(field, format!("{p} appears twice; list each number of robots once")));
            }
        }
        distinct("schemes", &self.schemes)?;
        distinct("politeness", &self.politeness)?;
        if self.schemes.is_empty() {
            return Err(InputError::new("schemes", "choose at least one partitioner"));
        }
        if self.politeness.is_empty() {
            return Err(InputError::new("politeness", "choose at least one politeness policy"));
        }
        if self.map_robots != 0 && !self.robots.contains(&self.map_robots) {
            return Err(InputError::new("map_robots", format!("must be one of the numbers of robots run ({}), or 0 for the largest", list(&self.robots))));
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        let e = self.estimate();
        // each partition counts a pass over the pages and links, as its job does
        let partitions = (self.robots.len() * self.schemes.len()) as f64 * (e.pages + e.links);
        Cost {
            work: e.events + e.wakes + partitions,
            unit: "events".into(),
            bytes: e.bytes as f64,
            seconds: (e.events + partitions) * SECONDS_PER_EVENT + e.wakes * SECONDS_PER_WAKE,
            memory_fix: Fix::new("web.hosts", "use fewer hosts or pages per host"),
            time_fix: Fix::new("robots", "run fewer numbers of robots, schemes or politeness policies, or a smaller web"),
        }
    }
}

/// Native time per event of the download simulation (BENCHMARKS.md: about a million
/// downloads a second, three events each).
const SECONDS_PER_EVENT: f64 = 150e-9;
/// …and per extra wake-up of a robot's queue when URLs are hashed (the case above: 1.7 M
/// of them in about 0.01 s more).
const SECONDS_PER_WAKE: f64 = 10e-9;

impl Experiment for PartitionConfig {
    type Output = PartitionOutput;

    fn start(self) -> Result<Box<dyn Job<PartitionOutput>>, InputError> {
        Ok(Box::new(Sliced::new(PartitionJob::new(self)?)))
    }

    fn presets() -> Vec<Preset<Self>> {
        vec![Preset { name: "thesis", label: "the sample's scale: 10,039 hosts, 1.25 M URLs, every scheme and politeness", config: thesis_scale() }]
    }

    fn choices() -> Vec<Choice> {
        vec![Choice::of("schemes", &Scheme::ALL, Scheme::label), Choice::of("politeness", &Politeness::ALL, Politeness::label)]
    }
}

fn list(values: &[u64]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

/// The generated web, in numbers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WebSummary {
    pub hosts: u64,
    pub ips: u64,
    pub pages: u64,
    pub links: u64,
    pub max_host_pages: u64,
    /// Links within their host, and within their community, % of all.
    pub intra_host_pct: f64,
    pub intra_community_pct: f64,
    /// Eq 5.4's mean wait per download with hosts as servers (the thesis: 4.45 s).
    pub density_mean_wait_s: f64,
}

/// One download simulation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimPoint {
    pub scheme: Scheme,
    pub politeness: Politeness,
    pub robots: u64,
    /// Total download time (s).
    pub total_s: f64,
    /// Routed URLs sent to another robot, %.
    pub exchange_pct: f64,
    /// Downloads that broke a server's politeness (always 0).
    pub violations: u64,
    pub downloads: u64,
    pub mean_wait_s: f64,
    /// Pages of the busiest robot over the mean.
    pub load_ratio: f64,
}

/// One partition's algebraic estimates.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AlgebraicPoint {
    pub scheme: Scheme,
    pub robots: u64,
    /// Eq 5.1–5.2 (s).
    pub download_s: f64,
    /// Eq 5.3 (s).
    pub exchange_s: f64,
    /// Eq 5.3 with the URLs moved when one robot is added (when one more site exists).
    pub redistribution_s: Option<f64>,
    pub load_ratio: f64,
    pub cut: Option<Cuts>,
    /// Links that cross robots, % (the simulations measure the same share).
    pub crossing_pct: f64,
}

/// Hosts on the map, coloured by robot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MapData {
    pub scheme: Scheme,
    pub robots: u64,
    /// [x km, y km, robot, pages] per host.
    pub hosts: Vec<[f64; 4]>,
    pub sites: Vec<[f64; 2]>,
    pub map_km: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PartitionOutput {
    pub config: PartitionConfig,
    pub complete: bool,
    pub web: WebSummary,
    /// Eq 5.1–5.2 with one central robot at site 0 (s).
    pub central_s: f64,
    pub algebraic: Vec<AlgebraicPoint>,
    pub points: Vec<SimPoint>,
    pub comparisons: Vec<Comparison>,
    pub map: Option<MapData>,
}

/// One partition and the simulations that use it.
struct Task {
    robots: u64,
    scheme: Scheme,
}

/// A sweep in progress: partitions one by one, each followed by its simulations.
pub struct PartitionJob {
    config: PartitionConfig,
    web: Arc<Web>,
    topologies: [Option<Topology>; 2],
    tasks: Vec<Task>,
    next_task: usize,
    /// The current partition and the next politeness policy to simulate with it.
    current: Option<(Arc<Assignment>, usize)>,
    summary: WebSummary,
    central_s: f64,
    algebraic: Vec<AlgebraicPoint>,
    points: Vec<SimPoint>,
    map: Option<MapData>,
    complete: bool,
}

/// One download simulation in progress.
pub struct Simulation {
    assignment: Arc<Assignment>,
    politeness: Politeness,
    robots: usize,
    scheme: Scheme,
    download: Download,
}

/// Events per slice of a simulation (the granularity of progress and cancellation).
const SLICE_EVENTS: u64 = 200_000;

impl PartitionJob {
    /// Generates the web of a valid configuration and plans its partitions.
    pub fn new(config: PartitionConfig) -> Result<Self, InputError> {
        let web = Arc::new(config.web.generate(config.seed)?);
        let tasks = config.robots.iter().flat_map(|&robots| config.schemes.iter().map(move |&scheme| Task { robots, scheme })).collect();
        let summary = summarise(&web, config.download.politeness_s.0);
        let all_central = Assignment { owner: vec![0; web.pages()], server_of_host: (0..web.hosts() as u32).collect(), servers: web.hosts(), cut: None };
        let central_s = download_time(&web, &all_central, 1, &config.algebraic);
        Ok(PartitionJob {
            config,
            web,
            topologies: [None, None],
            tasks,
            next_task: 0,
            current: None,
            summary,
            central_s,
            algebraic: Vec::new(),
            points: Vec::new(),
            map: None,
            complete: false,
        })
    }

    fn topology(&mut self, unit: Unit) -> &Topology {
        let slot = &mut self.topologies[unit as usize];
        slot.get_or_insert_with(|| Topology::new(&self.web, unit))
    }

    /// Partitions for the next task and computes its algebraic estimates.
    fn partition_next(&mut self) {
        let Task { robots, scheme } = self.tasks[self.next_task];
        self.next_task += 1;
        let p = robots as usize;
        if scheme.is_graph() {
            self.topology(scheme.unit());
        }
        let seed = self.config.seed;
        let (web, graph) = (Arc::clone(&self.web), self.config.graph.clone());
        let topology = self.topologies[scheme.unit() as usize].as_ref();
        let a = assign(&web, scheme, p, &graph, topology, seed);
        let units = if scheme.unit() == Unit::Ip { web.ips() } else { web.hosts() };
        let redistribution_s = (robots < self.config.web.robot_sites && p < units).then(|| {
            let after = assign(&web, scheme, p + 1, &graph, topology, seed);
            redistribution_time(&web, &a, &after, p + 1, &self.config.algebraic, &self.config.web.rtt_s_of_km())
        });
        let load = a.loads(p);
        let load_ratio = load.iter().copied().fold(0.0, f64::max) / (web.pages() as f64 / p as f64);
        let crossing = (0..web.pages()).map(|page| web.links_of(page).iter().filter(|&&t| a.owner[t as usize] != a.owner[page]).count()).sum::<usize>();
        self.algebraic.push(AlgebraicPoint {
            scheme,
            robots,
            download_s: download_time(&web, &a, p, &self.config.algebraic),
            exchange_s: exchange_time(&web, &a, p, &self.config.algebraic, &self.config.web.rtt_s_of_km()),
            redistribution_s,
            load_ratio,
            cut: a.cut,
            crossing_pct: 100.0 * crossing as f64 / web.links().max(1) as f64,
        });
        let map_robots = if self.config.map_robots == 0 { *self.config.robots.iter().max().expect("validated") } else { self.config.map_robots };
        let map_scheme = self.config.schemes.iter().copied().find(|s| s.is_graph()).unwrap_or(self.config.schemes[0]);
        if robots == map_robots && scheme == map_scheme {
            self.map = Some(MapData {
                scheme,
                robots,
                hosts: (0..web.hosts())
                    .map(|h| {
                        let at = web.ip_position[web.host_ip[h] as usize];
                        [at[0], at[1], a.owner[web.host_start[h] as usize] as f64, web.host_pages(h) as f64]
                    })
                    .collect(),
                sites: web.site_position[..p].to_vec(),
                map_km: self.config.web.map_km,
            });
        }
        self.current = Some((Arc::new(a), 0));
    }

    fn output(&self) -> PartitionOutput {
        PartitionOutput {
            config: self.config.clone(),
            complete: self.complete,
            web: self.summary.clone(),
            central_s: self.central_s,
            algebraic: self.algebraic.clone(),
            points: self.points.clone(),
            comparisons: comparisons(&self.config.robots, &self.points, &self.algebraic, Some(self.central_s)),
            map: self.map.clone(),
        }
    }
}

impl Plan for PartitionJob {
    type Run = Simulation;
    type Output = PartitionOutput;

    /// The next simulation: the next politeness with the current partition, or the next
    /// partition (its algebraic estimates computed at once) with the first.
    fn begin(&mut self) -> Option<(Simulation, f64)> {
        let mut setup = 0.0;
        if self.current.as_ref().is_none_or(|(_, q)| *q == self.config.politeness.len()) {
            if self.next_task == self.tasks.len() {
                return None;
            }
            self.partition_next();
            setup = (self.web.pages() + self.web.links()) as f64;
        }
        let (a, q) = self.current.as_mut().expect("a partition");
        let politeness = self.config.politeness[*q];
        *q += 1;
        let Task { robots, scheme } = self.tasks[self.next_task - 1];
        let download = Download::new(Arc::clone(&self.web), Arc::clone(a), robots as usize, politeness, &self.config.download, self.config.web.rtt_s_of_km());
        Some((Simulation { assignment: Arc::clone(a), politeness, robots: robots as usize, scheme, download }, setup))
    }

    fn step(&mut self, run: &mut Simulation) -> (f64, bool) {
        let before = run.download.events();
        let over = run.download.advance(SLICE_EVENTS);
        ((run.download.events() - before) as f64, over)
    }

    fn end(&mut self, run: Simulation) {
        let load = run.assignment.loads(run.robots);
        let load_ratio = load.iter().copied().fold(0.0, f64::max) / (self.web.pages() as f64 / run.robots as f64);
        let m = run.download.finish();
        self.points.push(SimPoint {
            scheme: run.scheme,
            politeness: run.politeness,
            robots: run.robots as u64,
            total_s: m.total_s,
            exchange_pct: m.exchange_pct(),
            violations: m.violations,
            downloads: m.downloads,
            mean_wait_s: m.mean_wait_s,
            load_ratio,
        });
    }

    fn output(&self, _running: Option<&Simulation>) -> PartitionOutput {
        PartitionJob::output(self)
    }

    fn total_work(&self) -> f64 {
        let e = self.config.estimate();
        e.events + e.wakes + (self.tasks.len() * (self.web.pages() + self.web.links())) as f64
    }

    fn complete(&mut self) {
        self.complete = true;
    }
}

fn summarise(web: &Web, td_max: f64) -> WebSummary {
    let (mut host, mut community) = (0u64, 0u64);
    for page in 0..web.pages() {
        let h = web.host_of[page] as usize;
        for &t in web.links_of(page) {
            let g = web.host_of[t as usize] as usize;
            host += (g == h) as u64;
            community += (web.host_community[g] == web.host_community[h]) as u64;
        }
    }
    let links = web.links().max(1) as f64;
    let host_pages: Vec<f64> = (0..web.hosts()).map(|h| web.host_pages(h) as f64).collect();
    WebSummary {
        hosts: web.hosts() as u64,
        ips: web.ips() as u64,
        pages: web.pages() as u64,
        links: web.links() as u64,
        max_host_pages: host_pages.iter().copied().fold(0.0, f64::max) as u64,
        intra_host_pct: 100.0 * host as f64 / links,
        intra_community_pct: 100.0 * community as f64 / links,
        density_mean_wait_s: density_mean_wait(&host_pages, td_max),
    }
}
