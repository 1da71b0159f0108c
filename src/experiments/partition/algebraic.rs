//! The thesis's algebraic estimates (§5.2.2, Eq 5.1–5.3): download, exchange and
//! redistribution times of a partition, from RTTs, pages and links alone.

use super::scheme::Assignment;
use super::web::{Web, distance};
use crate::core::field::{Nested, settings};
use crate::core::units::Seconds;
use serde::{Deserialize, Serialize};

settings! {
/// The thesis's parameters: ps = 10 KB, su = 40 B, L = 10, N = 10, PT = 15 s,
/// BW = 16 kbit/s (1 KB = 1,000 bytes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AlgebraicParams {
    /// BW: bandwidth of every path (kbit/s).
    pub bandwidth_kbit_s: f64 = 16.0; number("Eq 5.1–5.3 bandwidth (kbit/s)").help("the thesis: 16").positive().at_most(1e9);
    /// ps: mean page size (KB).
    pub page_kb: f64 = 10.0; number("Eq 5.1 page size (KB)").help("the thesis: 10").positive().at_most(1e6);
    /// su: mean URL size (bytes).
    pub url_bytes: f64 = 40.0; number("Eq 5.3 mean URL size (bytes)").positive().at_most(1e5);
    /// L: pages fetched in parallel over persistent connections to one server.
    pub per_server: f64 = 10.0; number("Eq 5.1–5.2 pages fetched in parallel from one server (L)").at_least(1.0).at_most(1e4);
    /// N: simultaneous connections to different servers (and links sent at once).
    pub connections: f64 = 10.0; number("Eq 5.1–5.3 connections to different servers (N)").at_least(1.0).at_most(1e6);
    /// PT: politeness interval.
    pub politeness_s: Seconds = Seconds(15.0); number("Eq 5.1–5.2 politeness interval PT (s)").at_least(0.0).at_most(1e5);
}
}

/// Its fields' ranges only.
impl Nested for AlgebraicParams {}

impl AlgebraicParams {
    fn bytes_per_s(&self) -> f64 {
        self.bandwidth_kbit_s * 1000.0 / 8.0
    }
}

/// Eq 5.1–5.2: each robot's time, (1/N)·Σ over its servers of (M_i/L)(2·RTT_ij +
/// L·ps/BW + PT), and the slowest robot's (the total). Eq 5.1 is linear in M_i, so the
/// sum runs over pages; a server split among robots counts for each its part.
pub fn download_time(web: &Web, a: &Assignment, robots: usize, p: &AlgebraicParams) -> f64 {
    let per_page_fixed = p.page_kb * 1000.0 / p.bytes_per_s() + p.politeness_s.0 / p.per_server;
    let mut time = vec![0.0; robots];
    for h in 0..web.hosts() {
        for page in web.host_start[h] as usize..web.host_start[h + 1] as usize {
            let j = a.owner[page] as usize;
            time[j] += 2.0 * web.rtt(h, j) / p.per_server + per_page_fixed;
        }
    }
    time.iter().map(|t| t / p.connections).fold(0.0, f64::max)
}

/// Eq 5.3's form: the slowest robot's (1/N)·Σ_{l≠j} (2·RTT_jl + su·n_jl/BW) over the
/// robots l it sends to, for `n[j][l]` URLs from j to l.
fn transfer_time(web: &Web, n: &[u64], robots: usize, p: &AlgebraicParams, rtt_s: &dyn Fn(f64) -> f64) -> f64 {
    let mut worst: f64 = 0.0;
    for j in 0..robots {
        let mut t = 0.0;
        for l in 0..robots {
            let count = n[j * robots + l];
            if l != j && count > 0 {
                t += 2.0 * rtt_s(distance(web.site_position[j], web.site_position[l])) + p.url_bytes * count as f64 / p.bytes_per_s();
            }
        }
        worst = worst.max(t / p.connections);
    }
    worst
}

/// Eq 5.3: exchange time, with n_jl the links from robot j's pages to robot l's.
pub fn exchange_time(web: &Web, a: &Assignment, robots: usize, p: &AlgebraicParams, rtt_s: &dyn Fn(f64) -> f64) -> f64 {
    let mut n = vec![0u64; robots * robots];
    for page in 0..web.pages() {
        let j = a.owner[page] as usize;
        for &t in web.links_of(page) {
            n[j * robots + a.owner[t as usize] as usize] += 1;
        }
    }
    transfer_time(web, &n, robots, p, rtt_s)
}

/// The redistribution time when robots go from `before` to `after`: Eq 5.3 with n_jl
/// the URLs that move from robot j to robot l.
pub fn redistribution_time(web: &Web, before: &Assignment, after: &Assignment, robots_after: usize, p: &AlgebraicParams, rtt_s: &dyn Fn(f64) -> f64) -> f64 {
    let mut n = vec![0u64; robots_after * robots_after];
    for page in 0..web.pages() {
        n[before.owner[page] as usize * robots_after + after.owner[page] as usize] += 1;
    }
    transfer_time(web, &n, robots_after, p, rtt_s)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::experiments::partition::download::tests::tiny_web;

    fn assignment(owner: Vec<u32>, servers: usize) -> Assignment {
        Assignment { owner, server_of_host: (0..servers as u32).collect(), servers, cut: None }
    }

    #[test]
    fn eq_5_1_and_5_2_by_hand() {
        // two hosts of 20 and 10 pages, RTT 0.1 s; BW = 16 kbit/s = 2,000 B/s
        let web = tiny_web(&[20, 10], &[], 0.1, 2);
        let p = AlgebraicParams::default();
        // a server of M pages: (M/10)(2·0.1 + 10·10,000/2,000 + 15) = (M/10)·65.2
        let one = download_time(&web, &assignment(vec![0; 30], 2), 1, &p);
        assert!((one - (2.0 + 1.0) * 65.2 / 10.0).abs() < 1e-6, "{one}");
        let mut owner = vec![0; 20];
        owner.extend([1; 10]);
        let two = download_time(&web, &assignment(owner, 2), 2, &p);
        assert!((two - 2.0 * 65.2 / 10.0).abs() < 1e-6, "the slower robot: {two}");
    }

    #[test]
    fn eq_5_3_by_hand() {
        // 3 links from robot 0's pages to robot 1's, 1 back; sites 100 km apart
        let web = tiny_web(&[2, 2], &[(0, 2), (0, 3), (1, 2), (2, 0), (2, 3)], 0.1, 3);
        let a = assignment(vec![0, 0, 1, 1], 2);
        let p = AlgebraicParams::default();
        let rtt = |km: f64| 0.01 + 0.0001 * km; // 0.02 s
        // robot 0: (2·0.02 + 40·3/2,000)/10; robot 1: (2·0.02 + 40·1/2,000)/10
        let et = exchange_time(&web, &a, 2, &p, &rtt);
        assert!((et - (0.04 + 0.06) / 10.0).abs() < 1e-12, "{et}");
        // going to 3 robots: page 3 moves from robot 1 to robot 2 (sites 100 km apart)
        let after = assignment(vec![0, 0, 1, 2], 3);
        let rt = redistribution_time(&web, &a, &after, 3, &p, &rtt);
        assert!((rt - (0.04 + 0.02) / 10.0).abs() < 1e-12, "{rt}");
    }
}
