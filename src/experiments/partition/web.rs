//! A synthetic web with the shape of Exposto's sample (spec §4): pages per host from a
//! power law (mean 122.48, min 1, max 78,523 at full scale), hosts sharing IPs, links
//! mostly within a host and, across hosts, mostly within a community of related hosts;
//! hosts and candidate robot sites placed on a map, RTT growing with distance plus noise.
//! The sample itself is not public: everything here is generated, from the seed.

use crate::core::field::{Nested, settings};
use crate::core::input::{InputError, count};
use crate::core::math::elementary::{exp, ln, pow, sqrt};
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

settings! {
/// The generated web. Its defaults are a classroom web: answers in about a second in a browser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WebConfig {
    /// Host names (the sample: 10,039).
    pub hosts: u64 = 600; integer("hosts").help("the thesis: 10,039").count(2, MAX_HOSTS).why("a million hosts is the limit of this simulator");
    /// Distinct IP addresses the hosts share (the sample: 2,440); at most the hosts, at
    /// least one a community (rules).
    pub ips: u64 = 150; integer("IPs").help("the thesis: 2,440").count(1, MAX_HOSTS);
    /// Mean pages per host (the sample: 122.48).
    pub mean_pages: f64 = 40.0; number("mean pages per host").help("the thesis: 122.48").at_least(1.0);
    /// Pages of the densest host (the sample: 78,523).
    pub max_pages: u64 = 4_000;
        integer("pages of the densest host").help("the thesis: 78,523").count(1, MAX_PAGES_PER_HOST).why("ten million pages on one host is the limit");
    /// Links per page (the sample: 5,657,734 / 1,246,129 = 4.54).
    pub links_per_page: f64 = 4.54; number("links per page").help("the thesis: 4.54").at_least(1.0).at_most(1000.0);
    /// Share of the links beyond each host's discovery tree that stay in their host.
    pub intra_host_share: f64 = 0.8; number("extra links within their host (share)").at_least(0.0).at_most(1.0);
    /// Hosts per community (sites of one organisation: one city, shared IPs, many links).
    pub community_size: u64 = 20; integer("hosts per community").count(1, MAX_HOSTS);
    /// Share of the links leaving a host that stay in its community.
    pub community_share: f64 = 0.7; number("links leaving a host that stay in its community (share)").at_least(0.0).at_most(1.0);
    /// Cities on the map; hosts and robot sites gather around them.
    pub cities: u64 = 25; integer("cities on the map").count(1, 10_000).why("ten thousand cities is the limit");
    /// Candidate robot sites (the thesis: about 100); a run with p robots uses the first p.
    pub robot_sites: u64 = 100; integer("candidate robot sites").help("the thesis: about 100").count(1, 1_000).why("a thousand robot sites is the limit");
    /// Map size (km, a square).
    pub map_km: f64 = 3_000.0; number("map size (km, a square)").positive().at_most(40_000.0);
    /// RTT = (base + per_km · distance) · e^(noise · N(0,1)), in milliseconds.
    pub rtt_base_ms: f64 = 5.0;
        number("RTT at distance 0 (ms)").help("RTT = (base + per km × distance) × e^(noise × N(0,1))").positive().at_most(10_000.0);
    pub rtt_ms_per_km: f64 = 0.02; number("RTT per km (ms)").at_least(0.0).at_most(10.0);
    pub rtt_noise: f64 = 0.3; number("RTT noise (σ of its logarithm)").at_least(0.0).at_most(3.0);
}
}

/// Upper bounds that keep a run inside a browser tab's memory (the estimate is checked
/// separately against the budget).
const MAX_HOSTS: u64 = 1_000_000;
const MAX_PAGES_PER_HOST: u64 = 10_000_000;

impl Nested for WebConfig {
    /// Sizes a power law can reach; communities within the web, an IP for each.
    fn rules(&self, prefix: &str) -> Result<(), InputError> {
        let f = |name: &str| format!("{prefix}{name}");
        let reachable = (self.max_pages as f64 - 1.0) / ln(self.max_pages as f64).max(1e-300);
        if self.max_pages > 1 && self.mean_pages > reachable.max(1.0) {
            return Err(InputError::new(
                f("mean_pages"),
                format!("cannot be reached by a power law with at most {} pages per host (the flattest gives {reachable:.1}); lower it or raise web.max_pages", self.max_pages),
            ));
        }
        // the densest host always gets max_pages: the others hold at least one each
        if self.max_pages as f64 + self.hosts as f64 - 1.0 > self.mean_pages * self.hosts as f64 * (1.0 + 1e-9) {
            return Err(InputError::new(
                f("max_pages"),
                format!(
                    "is more than the {} pages {} hosts of {} pages on average can hold with one page each for the others; lower it, or raise web.mean_pages",
                    self.mean_pages * self.hosts as f64,
                    self.hosts,
                    self.mean_pages
                ),
            ));
        }
        if self.max_pages == 1 && self.mean_pages != 1.0 {
            return Err(InputError::new(f("mean_pages"), format!("must be 1 when {} is 1", f("max_pages"))));
        }
        count(&f("community_size"), self.community_size, 1, self.hosts, "a community cannot hold more hosts than the web")?;
        let communities = self.hosts.div_ceil(self.community_size);
        if self.ips < communities {
            return Err(InputError::new(
                f("ips"),
                format!("must be at least {communities}, one for each community of {} hosts (got {}); raise web.ips or web.community_size", self.community_size, self.ips),
            ));
        }
        count(&f("ips"), self.ips, 1, self.hosts, "each IP serves at least one host")
    }
}

impl WebConfig {
    /// The sample's totals (spec §4): 10,039 hosts, 2,440 IPs, 122.48 pages per host.
    pub fn thesis() -> Self {
        WebConfig { hosts: 10_039, ips: 2_440, mean_pages: 122.48, max_pages: 78_523, ..WebConfig::default() }
    }

    /// The RTT law without its noise, in seconds, for a distance in km (between robot
    /// sites, and the mean a download between a host and a robot sees).
    pub fn rtt_s_of_km(&self) -> impl Fn(f64) -> f64 + 'static {
        let (base, per_km) = (self.rtt_base_ms, self.rtt_ms_per_km);
        move |km| (base + per_km * km) / 1000.0
    }

    /// Expected pages and links (exact once generated; host sizes are matched to the mean).
    pub fn expected_pages(&self) -> f64 {
        self.mean_pages * self.hosts as f64
    }

    pub fn expected_links(&self) -> f64 {
        self.links_per_page * self.expected_pages()
    }

    /// Generates the web of `seed`.
    pub fn generate(&self, seed: u64) -> Result<Web, InputError> {
        self.validate("web.")?;
        let sizes = host_sizes(self.hosts as usize, self.mean_pages, self.max_pages);
        let mut sizes_rng = Stream::of(seed, Purpose::WebSizes, 0);
        let mut sizes = sizes;
        // the densest host lands anywhere: shuffle (Fisher–Yates)
        for k in (1..sizes.len()).rev() {
            sizes.swap(k, sizes_rng.below(k as u64 + 1) as usize);
        }
        let hosts = sizes.len();
        let mut host_start = Vec::with_capacity(hosts + 1);
        let mut total = 0u64;
        host_start.push(0u32);
        for &s in &sizes {
            total += s as u64;
            if total > u32::MAX as u64 / 2 {
                return Err(InputError::new("web.hosts", "the web would hold over two billion pages; lower web.hosts or web.mean_pages"));
            }
            host_start.push(total as u32);
        }
        let community_size = self.community_size as usize;
        let communities = hosts.div_ceil(community_size);
        let host_community: Vec<u32> = (0..hosts).map(|h| (h / community_size) as u32).collect();

        // places: cities with Zipf weights; each community in a city; IPs and sites near it
        let mut places = Stream::of(seed, Purpose::WebPlaces, 0);
        let cities: Vec<[f64; 2]> = (0..self.cities).map(|_| [places.uniform_in(0.0, self.map_km), places.uniform_in(0.0, self.map_km)]).collect();
        let city_weight: Vec<f64> = (0..cities.len()).map(|k| 1.0 / (k as f64 + 1.0)).collect();
        let pick_city = |rng: &mut Stream| pick(&city_weight, rng);
        let scatter = (self.map_km / 100.0).max(1.0);
        let map = self.map_km;
        let near = |rng: &mut Stream, c: [f64; 2], km: f64| [(c[0] + km * rng.normal()).clamp(0.0, map), (c[1] + km * rng.normal()).clamp(0.0, map)];
        let community_city: Vec<usize> = (0..communities).map(|_| pick_city(&mut places)).collect();
        // IPs per community, in proportion to its hosts, at least one each
        let members: Vec<usize> = (0..communities).map(|c| community_size.min(hosts - c * community_size)).collect();
        let ips_per = apportion(self.ips as usize, &members);
        let mut ip_start = vec![0usize];
        for &n in &ips_per {
            ip_start.push(ip_start.last().unwrap() + n);
        }
        let mut ip_position = Vec::with_capacity(self.ips as usize);
        for (c, &n) in ips_per.iter().enumerate() {
            for _ in 0..n {
                ip_position.push(near(&mut places, cities[community_city[c]], scatter));
            }
        }
        let mut host_ip = Vec::with_capacity(hosts);
        for h in 0..hosts {
            let c = h / community_size;
            let j = h - c * community_size;
            let pool = ips_per[c];
            let k = if j < pool { j } else { places.below(pool as u64) as usize };
            host_ip.push((ip_start[c] + k) as u32);
        }
        let site_position: Vec<[f64; 2]> = (0..self.robot_sites)
            .map(|_| {
                let city = cities[pick_city(&mut places)];
                near(&mut places, city, scatter)
            })
            .collect();
        let ips = ip_position.len();
        let sites = site_position.len();
        let mut rtt_ip_site = Vec::with_capacity(ips * sites);
        let rtt_s = self.rtt_s_of_km();
        for (ip, p) in ip_position.iter().enumerate() {
            let mut noise = Stream::of(seed, Purpose::WebRttRow, ip as u64);
            for s in &site_position {
                rtt_ip_site.push((rtt_s(distance(*p, *s)) * exp(self.rtt_noise * noise.normal())) as f32);
            }
        }

        // links: each host's discovery tree, then extra links inside the host, the
        // community or the whole web
        let pages = total as usize;
        let wanted = (self.links_per_page * pages as f64).round() as usize;
        let tree = pages - hosts;
        let extra = wanted.saturating_sub(tree);
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(tree + extra);
        for h in 0..hosts {
            let (a, n) = (host_start[h], host_start[h + 1] - host_start[h]);
            for k in 1..n {
                pairs.push((a + (k - 1) / 2, a + k));
            }
        }
        let mut host_of = Vec::with_capacity(pages);
        for (h, &size) in sizes.iter().enumerate().take(hosts) {
            host_of.extend(std::iter::repeat_n(h as u32, size as usize));
        }
        let mut rng = Stream::of(seed, Purpose::WebLinks, 0);
        let leave_community = (1.0 - self.intra_host_share) * (1.0 - self.community_share);
        for _ in 0..extra {
            let source = rng.below(pages as u64) as u32;
            let h = host_of[source as usize] as usize;
            let u = rng.uniform();
            let (lo, hi) = if u < self.intra_host_share {
                (host_start[h], host_start[h + 1])
            } else if u < 1.0 - leave_community {
                let c = h / community_size;
                (host_start[c * community_size], host_start[((c + 1) * community_size).min(hosts)])
            } else {
                (0, pages as u32)
            };
            pairs.push((source, lo + rng.below((hi - lo) as u64) as u32));
        }
        // compressed rows by source page (counting sort keeps each row's order)
        let mut link_start = vec![0u32; pages + 1];
        for &(s, _) in &pairs {
            link_start[s as usize + 1] += 1;
        }
        for k in 0..pages {
            link_start[k + 1] += link_start[k];
        }
        let mut fill = link_start.clone();
        let mut link_target = vec![0u32; pairs.len()];
        for &(s, t) in &pairs {
            link_target[fill[s as usize] as usize] = t;
            fill[s as usize] += 1;
        }
        Ok(Web { host_start, host_of, host_ip, host_community, ip_position, site_position, rtt_ip_site, link_start, link_target, communities })
    }
}

/// Euclidean distance on the map (km).
pub fn distance(a: [f64; 2], b: [f64; 2]) -> f64 {
    sqrt((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2))
}

/// An index drawn with probability proportional to `weights`.
fn pick(weights: &[f64], rng: &mut Stream) -> usize {
    let total: f64 = weights.iter().sum();
    let mut u = rng.uniform() * total;
    for (k, &w) in weights.iter().enumerate() {
        if u < w {
            return k;
        }
        u -= w;
    }
    weights.len() - 1
}

/// `total` items shared in proportion to `members`, at least one each and at most
/// `members[k]` (largest remainders). Needs members.len() ≤ total ≤ Σ members.
fn apportion(total: usize, members: &[usize]) -> Vec<usize> {
    let all: usize = members.iter().sum();
    let spare = total - members.len();
    let room: Vec<usize> = members.iter().map(|m| m - 1).collect();
    let room_total = all - members.len();
    let mut share: Vec<usize> = room.iter().map(|&r| (r * spare).checked_div(room_total).unwrap_or(0)).collect();
    let mut left = spare - share.iter().sum::<usize>();
    let mut order: Vec<usize> = (0..members.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse((room[k] * spare).checked_rem(room_total).unwrap_or(0)));
    for &k in order.iter().cycle() {
        if left == 0 {
            break;
        }
        if share[k] < room[k] {
            share[k] += 1;
            left -= 1;
        }
    }
    share.iter().map(|s| s + 1).collect()
}

/// Quantile of the Pareto law with exponent `alpha` on [1, max]: Q(u) = (1 − u(1 − max^−α))^(−1/α).
fn pareto_quantile(u: f64, alpha: f64, max: f64) -> f64 {
    pow(1.0 - u * (1.0 - pow(max, -alpha)), -1.0 / alpha)
}

/// Pages per host: the Pareto quantiles at (k + ½)/n, rounded down, with the densest
/// host at exactly `max`; the exponent is set by bisection so the mean matches.
/// (Quantiles rather than draws: the total is then what the mean promises, not a
/// heavy-tailed sample's accident.)
pub fn host_sizes(n: usize, mean: f64, max: u64) -> Vec<u32> {
    let sizes_for = |alpha: f64| -> Vec<u32> {
        let mut s: Vec<u32> = (0..n).map(|k| (pareto_quantile((k as f64 + 0.5) / n as f64, alpha, max as f64).floor() as u32).clamp(1, max as u32)).collect();
        s[n - 1] = max as u32;
        s
    };
    let total = |s: &[u32]| s.iter().map(|&x| x as f64).sum::<f64>();
    let target = mean * n as f64;
    // the total falls as alpha grows; search log(alpha) in [1e-4, 50]
    let (mut lo, mut hi) = (ln(1e-4), ln(50.0));
    for _ in 0..80 {
        let mid = 0.5 * (lo + hi);
        if total(&sizes_for(exp(mid))) > target { lo = mid } else { hi = mid }
    }
    let (a, b) = (sizes_for(exp(lo)), sizes_for(exp(hi)));
    if (total(&a) - target).abs() <= (total(&b) - target).abs() { a } else { b }
}

/// The generated web. Pages are numbered host by host; hosts community by community.
#[derive(Clone, Debug)]
pub struct Web {
    /// Pages of host h: host_start[h] .. host_start[h + 1].
    pub host_start: Vec<u32>,
    pub host_of: Vec<u32>,
    pub host_ip: Vec<u32>,
    pub host_community: Vec<u32>,
    pub ip_position: Vec<[f64; 2]>,
    pub site_position: Vec<[f64; 2]>,
    /// RTT between IP i and robot site s (seconds), row-major by IP.
    pub rtt_ip_site: Vec<f32>,
    /// Links of page p: link_target[link_start[p] .. link_start[p + 1]].
    pub link_start: Vec<u32>,
    pub link_target: Vec<u32>,
    pub communities: usize,
}

impl Web {
    pub fn hosts(&self) -> usize {
        self.host_start.len() - 1
    }

    pub fn pages(&self) -> usize {
        self.host_of.len()
    }

    pub fn ips(&self) -> usize {
        self.ip_position.len()
    }

    pub fn sites(&self) -> usize {
        self.site_position.len()
    }

    pub fn links(&self) -> usize {
        self.link_target.len()
    }

    pub fn host_pages(&self, h: usize) -> u32 {
        self.host_start[h + 1] - self.host_start[h]
    }

    pub fn links_of(&self, page: usize) -> &[u32] {
        &self.link_target[self.link_start[page] as usize..self.link_start[page + 1] as usize]
    }

    /// RTT between host h's IP and robot site s, in seconds.
    pub fn rtt(&self, h: usize, site: usize) -> f64 {
        self.rtt_ip_site[self.host_ip[h] as usize * self.sites() + site] as f64
    }

    /// Map distance between host h and robot site s (km).
    pub fn km(&self, h: usize, site: usize) -> f64 {
        distance(self.ip_position[self.host_ip[h] as usize], self.site_position[site])
    }

    /// Bytes the web takes in memory (pages, links, RTT table).
    pub fn bytes(&self) -> usize {
        4 * (self.host_start.len() + self.host_of.len() + self.host_ip.len() + self.host_community.len() + self.rtt_ip_site.len() + self.link_start.len() + self.link_target.len())
            + 16 * (self.ip_position.len() + self.site_position.len())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn host_sizes_follow_the_sample_totals() {
        let s = host_sizes(10_039, 122.48, 78_523);
        let total: u64 = s.iter().map(|&x| x as u64).sum();
        let mean = total as f64 / s.len() as f64;
        assert!((mean - 122.48).abs() < 0.05, "mean {mean}");
        assert_eq!(*s.iter().max().unwrap(), 78_523);
        assert_eq!(*s.iter().min().unwrap(), 1);
        // a power law: the top 1 % of hosts hold a large share of the pages
        let mut sorted = s.clone();
        sorted.sort_unstable_by(|a, b| b.cmp(a));
        let top: u64 = sorted[..100].iter().map(|&x| x as u64).sum();
        assert!(top as f64 > 0.3 * total as f64, "top 1 % hold {top} of {total}");
    }

    #[test]
    fn apportion_gives_each_at_least_one_and_never_more_than_it_holds() {
        assert_eq!(apportion(3, &[5, 5, 5]), vec![1, 1, 1]);
        assert_eq!(apportion(15, &[5, 5, 5]), vec![5, 5, 5]);
        let a = apportion(10, &[10, 4, 1]);
        assert_eq!(a.iter().sum::<usize>(), 10);
        assert!(a.iter().zip([10, 4, 1]).all(|(&x, m)| x >= 1 && x <= m), "{a:?}");
    }

    #[test]
    fn the_web_has_what_its_config_asks() {
        let c = WebConfig::default();
        let w = c.generate(7).unwrap();
        assert_eq!(w.hosts(), 600);
        assert!((w.pages() as f64 / 600.0 - 40.0).abs() < 0.1);
        assert_eq!((0..w.hosts()).map(|h| w.host_pages(h)).max(), Some(4_000));
        assert_eq!(w.links(), (4.54 * w.pages() as f64).round() as usize);
        let used: std::collections::BTreeSet<u32> = w.host_ip.iter().copied().collect();
        assert_eq!(used.len(), 150, "every IP serves a host");
        // every page is reachable from its host's first page (the discovery tree)
        for h in 0..w.hosts() {
            let (a, b) = (w.host_start[h] as usize, w.host_start[h + 1] as usize);
            let mut seen = vec![false; b - a];
            let mut stack = vec![a];
            seen[0] = true;
            while let Some(p) = stack.pop() {
                for &t in w.links_of(p) {
                    let t = t as usize;
                    if (a..b).contains(&t) && !seen[t - a] {
                        seen[t - a] = true;
                        stack.push(t);
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "host {h}");
        }
        // most links stay in their host
        let intra = (0..w.pages()).map(|p| w.links_of(p).iter().filter(|&&t| w.host_of[t as usize] == w.host_of[p]).count()).sum::<usize>();
        assert!(intra as f64 > 0.8 * w.links() as f64, "{intra} of {}", w.links());
        assert!(w.rtt_ip_site.iter().all(|&r| r > 0.0 && r < 1.0));
        let again = c.generate(7).unwrap();
        assert_eq!((again.link_target, again.host_ip, again.rtt_ip_site), (w.link_target, w.host_ip, w.rtt_ip_site), "same seed, same web");
    }

    #[test]
    fn impossible_webs_are_refused_with_the_field() {
        let e = WebConfig { mean_pages: 5000.0, ..WebConfig::default() }.validate("web.").unwrap_err();
        assert_eq!(e.field, "web.mean_pages");
        let e = WebConfig { ips: 10, ..WebConfig::default() }.validate("web.").unwrap_err();
        assert_eq!(e.field, "web.ips");
        assert!(e.message.contains("community"), "{}", e.message);
        let e = WebConfig { links_per_page: 0.5, ..WebConfig::default() }.validate("web.").unwrap_err();
        assert_eq!(e.field, "web.links_per_page");
    }
}
