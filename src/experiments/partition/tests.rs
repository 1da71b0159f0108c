#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

fn small() -> PartitionConfig {
    PartitionConfig {
        web: WebConfig { hosts: 150, ips: 40, mean_pages: 15.0, max_pages: 600, ..WebConfig::default() },
        robots: vec![2, 6],
        schemes: vec![Scheme::HashHost, Scheme::HashUrl, Scheme::GraphRtt, Scheme::GraphRttIp],
        politeness: Politeness::ALL.to_vec(),
        ..PartitionConfig::default()
    }
}

#[test]
fn a_sweep_downloads_every_page_politely_and_measures_the_exchanges_the_partition_implies() {
    let out = Sliced::new(PartitionJob::new(small()).unwrap()).finish();
    assert!(out.complete);
    assert_eq!(out.points.len(), 2 * 4 * 4);
    for p in &out.points {
        assert_eq!(p.violations, 0, "{p:?}");
        assert_eq!(p.downloads, out.web.pages, "{p:?}: every page once");
        let alg = out.algebraic.iter().find(|a| a.scheme == p.scheme && a.robots == p.robots).unwrap();
        assert!((p.exchange_pct - alg.crossing_pct).abs() < 1e-9, "routed URLs cross as the partition says: {p:?}");
        // the densest server bounds the time: pages × (wait + at least 0.1 s)
    }
    let time = |s: Scheme, q: Politeness, r: u64| out.points.iter().find(|p| p.scheme == s && p.politeness == q && p.robots == r).unwrap().total_s;
    // fixed politeness: the densest host needs (600 − 1) waits of 15 s
    assert!(time(Scheme::HashHost, Politeness::Fixed, 6) >= 599.0 * 15.0);
    // Eq 5.4 lets the densest host go at 1 s: far faster
    assert!(time(Scheme::GraphRtt, Politeness::Density, 6) < 0.3 * time(Scheme::HashHost, Politeness::Fixed, 6));
    // the graph keeps more links at home than hashing the host, and far more than hashing URLs
    let x = |s: Scheme| out.points.iter().find(|p| p.scheme == s && p.robots == 6).unwrap().exchange_pct;
    assert!(x(Scheme::GraphRtt) < x(Scheme::HashHost) && x(Scheme::HashHost) < x(Scheme::HashUrl), "{} {} {}", x(Scheme::GraphRtt), x(Scheme::HashHost), x(Scheme::HashUrl));
    assert!(out.comparisons.iter().filter(|c| c.measured.is_some()).count() >= 10);
    assert!(out.map.is_some());
    assert!(out.central_s > out.algebraic.iter().map(|a| a.download_s).fold(0.0, f64::max), "distributing helps in Eq 5.1–5.2");
}

#[test]
fn slices_do_not_change_the_result() {
    let config = PartitionConfig { schemes: vec![Scheme::HashHost, Scheme::GraphRtt], politeness: vec![Politeness::Dynamic], ..small() };
    let whole = Sliced::new(PartitionJob::new(config.clone()).unwrap()).finish();
    let mut job = Sliced::new(PartitionJob::new(config).unwrap());
    let mut last = 0.0;
    while !job.done() {
        let f = job.advance(777);
        assert!(f >= last && f <= 1.0);
        last = f;
    }
    assert_eq!(job.finish(), whole);
}

#[test]
fn bad_configs_name_their_field() {
    let e = PartitionConfig { robots: vec![2, 2], ..PartitionConfig::default() }.validate().unwrap_err();
    assert_eq!(e.field, "robots[1]");
    let e = PartitionConfig { robots: vec![200], ..PartitionConfig::default() }.validate().unwrap_err();
    assert_eq!(e.field, "robots[0]");
    let e = PartitionConfig { schemes: vec![], ..PartitionConfig::default() }.validate().unwrap_err();
    assert_eq!(e.field, "schemes");
    let e = PartitionConfig { map_robots: 7, ..PartitionConfig::default() }.validate().unwrap_err();
    assert_eq!(e.field, "map_robots");
    let e = PartitionConfig { web: WebConfig { hosts: 1_000_000, mean_pages: 2000.0, max_pages: 1_000_000, ips: 100_000, ..WebConfig::default() }, ..PartitionConfig::default() }
        .cost()
        .check(&crate::core::limits::here())
        .unwrap_err();
    assert_eq!(e.field, "web.hosts");
    assert!(e.message.contains("GB"), "{}", e.message);
}
