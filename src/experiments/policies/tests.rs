//! Tests of the policies experiment.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::core::alloc::AllocationKind;
use crate::core::limits;
use crate::core::model::page_list::PageRow;
use crate::core::model::source::RepositorySource;
use crate::core::model::webbase::RepositoryConfig;
use crate::core::policy::PolicyKind;
use crate::core::sim::freshness::Estimator;
use crate::core::units::{Days, Seconds};
use crate::experiments::Settings;

/// Validates, checks the cost and plans, as the registry does.
fn start(config: PoliciesConfig) -> Result<Sliced<PoliciesJob>, InputError> {
    config.validate()?;
    config.cost().check(&limits::here())?;
    Ok(Sliced::new(PoliciesJob::new(config)?))
}

fn small() -> PoliciesConfig {
    PoliciesConfig {
        repository: RepositoryConfig { pages: 1500, servers: 30, top_share: 0.1, ..Default::default() },
        politeness_seconds: Seconds(3600.0),
        horizon_days: Days(240.0),
        bins: 40,
        ..Default::default()
    }
}

fn run(config: PoliciesConfig) -> PoliciesOutput {
    start(config).unwrap().finish()
}

#[test]
fn politeness_holds_on_every_request_except_for_unpolite() {
    let out = run(small());
    for c in &out.capacities {
        for k in &c.curves {
            match k.policy {
                PolicyKind::Unpolite => assert!(k.violations > 0 || c.share < 0.05, "UNPOLITE at {} should collide", c.share),
                _ => assert_eq!(k.violations, 0, "{:?} at {}", k.policy, c.share),
            }
            assert!(k.requests > 0);
        }
    }
    for c in &out.crawlers {
        assert_eq!(c.curve.violations, 0, "{:?}", c.curve.policy);
    }
}

#[test]
fn bandwidth_matches_the_allocation() {
    let out = run(small());
    for c in &out.capacities {
        for k in &c.curves {
            assert!((k.bandwidth / c.allocation.total - 1.0).abs() < 0.02, "{:?}: {} vs {}", k.policy, k.bandwidth, c.allocation.total);
        }
    }
}

/// Per-page equally spaced revisits reach A* for every page: once every page has
/// been visited, UNPOLITE's expected freshness is the bound of its allocation.
#[test]
fn unpolite_reaches_the_bound_and_merge_and_delayed_stay_close() {
    let out = run(PoliciesConfig {
        policies: vec![PolicyKind::Unpolite, PolicyKind::Merge, PolicyKind::Delayed, PolicyKind::Random],
        crawlers: vec![],
        horizon_days: Days(600.0),
        ..small()
    });
    for c in &out.capacities {
        let get = |p: PolicyKind| c.curves.iter().find(|k| k.policy == p).unwrap().converged;
        assert!((get(PolicyKind::Unpolite) / c.polite_bound - 1.0).abs() < 0.01, "{}: {} vs {}", c.share, get(PolicyKind::Unpolite), c.polite_bound);
        assert!(get(PolicyKind::Merge) <= c.polite_bound * 1.01);
        assert!(get(PolicyKind::Merge) >= 0.927 * c.polite_bound, "Conjecture 5.9 on the repository (Prop 5.1)");
        assert!(get(PolicyKind::Random) >= 0.77 * c.polite_bound, "Cor 5.5 on the repository (Prop 5.1)");
        assert!(get(PolicyKind::Random) < get(PolicyKind::Merge));
        assert!(c.unpolite_bound >= c.polite_bound - 1e-12);
    }
}

#[test]
fn the_two_estimators_agree_within_the_noise() {
    let base = PoliciesConfig { policies: vec![PolicyKind::Merge, PolicyKind::Random], crawlers: vec![], capacities: vec![0.1], ..small() };
    let expected = run(base.clone());
    let exact = run(PoliciesConfig { estimator: Estimator::Exact, ..base });
    for (a, b) in expected.capacities[0].curves.iter().zip(&exact.capacities[0].curves) {
        // 1,500 pages: the exact estimator's time average has a standard error well
        // under 0.01 here
        assert!((a.mean - b.mean).abs() < 0.015, "{:?}: {} vs {}", a.policy, a.mean, b.mean);
        assert_eq!(b.estimator, Estimator::Exact);
    }
}

#[test]
fn partial_results_grow_and_the_run_is_reproducible() {
    // 0.9 × 720 requests/day over 600 days: four slices of about 100,000 requests
    let config = PoliciesConfig { capacities: vec![0.9], crawlers: vec![PolicyKind::Nutch], horizon_days: Days(600.0), ..small() };
    let mut job = start(config.clone()).unwrap();
    job.advance(5_000);
    let first = job.partial();
    assert!(!first.done);
    let running = first.capacities[0].curves.last().unwrap();
    assert!(!running.complete && running.freshness.len() < 40, "{} bins", running.freshness.len());
    // odd budgets must not change a single bit of the result
    let mut budget = 7_777;
    while !job.done() {
        job.advance(budget);
        budget = budget * 3 % 250_001 + 1;
    }
    let out = job.finish();
    assert!(out.done);
    assert_eq!(out.crawlers.len(), 1);
    assert!(out.crawlers[0].merge_same_bandwidth.is_some());
    assert!(out.crawlers[0].polite_bound_same_bandwidth.is_some());
    assert_eq!(run(config), out, "same seed, same result");
}

/// Issue 16: shards fixed by the configuration, combined in order, so 1, 2, 4 or 16
/// threads — and budgets that run one slice or many at a time — give the same bits;
/// likewise for a sample of servers, whose every server is a shard.
#[test]
fn the_result_does_not_depend_on_threads_or_budgets() {
    use crate::core::parallel::set_threads;
    let whole = PoliciesConfig { capacities: vec![0.1, 0.9], crawlers: vec![PolicyKind::Nutch], horizon_days: Days(600.0), ..small() };
    let sampled = PoliciesConfig { crawlers: vec![], sample_servers: Some(24), ..whole.clone() };
    for config in [whole, sampled] {
        set_threads(1);
        let reference = run(config.clone());
        for (threads, budget) in [(1, 1), (2, 250_000), (4, 3_000_000), (16, u64::MAX / 8)] {
            set_threads(threads);
            let mut job = start(config.clone()).unwrap();
            while !job.done() {
                job.advance(budget);
            }
            assert_eq!(job.finish(), reference, "{threads} threads, budget {budget}, sample {:?}", config.sample_servers);
        }
    }
    set_threads(0);
}

/// Issue 16: the page's pool of workers — the runs dealt to parts, each part run on its
/// own, the results joined — gives the whole run's result, to the last bit.
#[test]
fn parts_of_a_split_run_join_into_the_whole() {
    use crate::experiments::Experiment;
    let config = PoliciesConfig { capacities: vec![0.1, 0.5, 0.9], crawlers: vec![PolicyKind::Nutch, PolicyKind::Fixed], horizon_days: Days(300.0), ..small() };
    let whole = run(config.clone());
    for parts in [2, 3, 5, 64] {
        let split = config.split(parts);
        assert_eq!(split.len(), parts.min(config.runs()), "{parts} parts");
        let mut dealt: Vec<u64> = split.iter().flat_map(|c| c.only_runs.clone().unwrap()).collect();
        dealt.sort_unstable();
        assert_eq!(dealt, (0..config.runs() as u64).collect::<Vec<_>>(), "every run once");
        let outputs: Vec<PoliciesOutput> = split.into_iter().map(run).collect();
        assert_eq!(config.merge(outputs), whole, "{parts} parts");
    }
    assert_eq!(config.split(1), vec![config.clone()]);
    let bad = PoliciesConfig { only_runs: Some(vec![0, 99]), ..config };
    assert_eq!(bad.validate().unwrap_err().field, "only_runs[1]");
}

/// Issue 16: without crawlers the pool's parts share out the servers — every run on each
/// part's shards, their bins joined in shard order — and give the whole run's result to
/// the last bit, for the whole repository and for a sample of servers; the joined partial
/// results show only the curves every part has begun, and never claim to be done.
#[test]
fn parts_sharing_the_servers_join_into_the_whole() {
    use crate::experiments::Experiment;
    let whole = PoliciesConfig { capacities: vec![0.1, 0.9], crawlers: vec![], horizon_days: Days(300.0), ..small() };
    let sampled = PoliciesConfig { sample_servers: Some(24), ..whole.clone() };
    for config in [whole, sampled] {
        let reference = run(config.clone());
        // more parts than the 30 servers' shards, for the whole repository: some parts empty
        let counts: &[usize] = if config.sample_servers.is_some() { &[2, 5] } else { &[3, 40] };
        for &parts in counts {
            let split = config.split(parts);
            let of = split.len() as u64;
            assert_eq!(of, if config.sample_servers.is_some() { parts as u64 } else { parts.min(job::SHARDS) as u64 });
            assert!(split.iter().enumerate().all(|(k, c)| c.server_part == Some(ServerPart { index: k as u64, of })));
            let outputs: Vec<PoliciesOutput> = split.iter().cloned().map(run).collect();
            assert!(outputs.iter().all(|o| o.part.is_some() && o.capacities.iter().flat_map(|c| &c.curves).all(|c| c.part.is_some() && c.freshness.is_empty())));
            let joined = config.merge(outputs.clone());
            assert_eq!(joined, reference, "{parts} parts, sample {:?}", config.sample_servers);
            assert!(joined.capacities.iter().flat_map(|c| &c.curves).all(|c| c.part.is_none()));
            // one part missing: the bounds, no curve, not done
            let short = config.merge(outputs[1..].to_vec());
            assert!(!short.done && short.capacities.iter().all(|c| c.curves.is_empty()));
        }
        // every part, like the whole run, as many slices in as take the whole run into its
        // second curve: the joined partial is the whole run's, the run in progress incomplete
        let long = PoliciesConfig { horizon_days: Days(3000.0), ..config.clone() };
        let showing = |o: &PoliciesOutput| o.capacities.iter().flat_map(|c| &c.curves).any(|c| !c.complete && !c.freshness.is_empty());
        let mut job = start(long.clone()).unwrap();
        let mut slices = 0;
        while !showing(&job.partial()) || job.partial().capacities[0].curves.len() < 2 {
            job.advance(1);
            slices += 1;
        }
        let whole = job.partial();
        // a part's progress is its own: near the end of its work, near 1
        let one = PoliciesConfig { capacities: vec![0.9], policies: vec![PolicyKind::Merge], ..long.clone() };
        let mut part = start(one.split(3).remove(1)).unwrap();
        let mut last = 0.0;
        while !part.done() {
            let fraction = part.advance(100_000);
            if !part.done() {
                last = fraction;
            }
        }
        assert!(last > 0.8 && last < 1.0, "{last}");
        let sliced = |config: PoliciesConfig| {
            let mut job = start(config).unwrap();
            for _ in 0..slices {
                job.advance(1);
            }
            job.partial()
        };
        let joined = long.merge(long.split(3).into_iter().map(sliced).collect());
        assert_eq!(joined, whole);
        let curves: Vec<&PolicyCurve> = joined.capacities.iter().flat_map(|c| &c.curves).collect();
        let (done, running) = curves.split_at(curves.len() - 1);
        assert!(done.iter().all(|c| c.complete), "the runs before, complete");
        assert!(!joined.done && !running[0].complete && !running[0].freshness.is_empty() && running[0].freshness.len() < 40, "{:?}", running[0].freshness.len());
    }
    let part = PoliciesConfig { server_part: Some(ServerPart { index: 2, of: 2 }), crawlers: vec![], ..small() };
    assert_eq!(part.validate().unwrap_err().field, "server_part.index");
    let crawling = PoliciesConfig { server_part: Some(ServerPart { index: 0, of: 2 }), ..small() };
    assert_eq!(crawling.validate().unwrap_err().field, "crawlers");
}

#[test]
fn published_ratios_are_attached_where_the_thesis_has_them() {
    assert_eq!(published_ratio(PolicyKind::Merge, 0.1), Some(0.975));
    assert_eq!(published_ratio(PolicyKind::Random, 0.9), Some(0.886));
    assert_eq!(published_ratio(PolicyKind::Delayed, 0.1), None);
    assert_eq!(published_ratio(PolicyKind::Merge, 0.5), None);
}

#[test]
fn what_would_not_fit_is_refused_with_the_estimate() {
    let big = PoliciesConfig { repository: RepositoryConfig { pages: 90_000_000, servers: 5462, ..Default::default() }, ..Default::default() };
    let estimate = big.estimate();
    assert!(estimate.bytes_per_page <= 61, "{}", estimate.bytes_per_page);
    if cfg!(target_arch = "wasm32") {
        let e = start(big).err().unwrap();
        assert_eq!(e.field, "repository.pages");
        assert!(e.message.contains("GB") && e.message.contains("browser tab"), "{}", e.message);
    }
    let webbase = PoliciesConfig::webbase();
    // natively, even on a machine four times slower than the reference (this project's
    // slower host is about 2×): the check itself scales the time by the machine's probed
    // speed, which WebAssembly beside the end-to-end browsers once read over 7× (6.9 h
    // then passed the 48 h limit)
    let cost = webbase.cost();
    assert!(cost.bytes <= limits::NATIVE.bytes && 4.0 * cost.seconds <= limits::NATIVE.seconds, "the WEBBASE preset fits natively: {cost:?}");
    let allocated_only = PoliciesConfig { crawlers: vec![], ..PoliciesConfig::webbase() };
    assert_eq!(allocated_only.estimate().bytes_per_page, 40, "the issue's budget: at most 48 bytes per page");
    let exact = PoliciesConfig { crawlers: vec![], estimator: Estimator::Exact, ..PoliciesConfig::webbase() };
    assert_eq!(exact.estimate().bytes_per_page, 48);
    // Time is refused natively only: the page says beforehand how long a run takes.
    let long = crate::experiments::Config::Policies(PoliciesConfig { horizon_days: Days(36_000.0), politeness_seconds: Seconds(0.001), ..Default::default() });
    assert!(long.validate(&limits::BROWSER).is_ok(), "the page refuses on memory only");
    let e = long.validate(&limits::NATIVE).err().unwrap();
    assert_eq!(e.field, "horizon_days");
    assert!(e.message.contains("requests"));
}

/// Issue 12: on the classroom default politeness binds at every capacity (capped
/// servers, POLITE visibly below UNPOLITE), and a bounds-only run reports it.
#[test]
fn politeness_binds_on_the_classroom_default() {
    let out = run(PoliciesConfig { policies: vec![], crawlers: vec![], ..Default::default() });
    assert_eq!(out.capacities.len(), 3);
    for c in &out.capacities {
        assert!(c.capped.servers > 0 && c.capped.page_share > 0.1, "C = {}: {:?}", c.share, c.capped);
        assert!(c.unpolite_bound - c.polite_bound > 0.005, "C = {}: {} vs {}", c.share, c.polite_bound, c.unpolite_bound);
        assert!(c.capped.freshness_share > 0.0 && c.capped.freshness_share <= 1.0);
        assert!(c.allocation.kkt.as_ref().unwrap().worst() < 1e-9, "{:?}", c.allocation.kkt);
    }
    assert!(out.capacities[2].unpolite_bound - out.capacities[2].polite_bound > 0.2);
}

fn page_list_of(servers: &[&[(f64, f64)]]) -> String {
    let mut text = String::from("page,server,change_rate,frequency\n");
    for (s, pages) in servers.iter().enumerate() {
        for (k, (lambda, f)) in pages.iter().enumerate() {
            text.push_str(&format!("p{s}_{k},server{s},{lambda},{f}\n"));
        }
    }
    text
}

#[test]
fn a_page_list_as_csv_or_inline_rows_gives_the_same_run() {
    let csv = "page,server,change_rate,weight\na,s1,0.5,2\nb,s2,0.1,1\nc,s1,0.02,1\nd,s3,0,1\n";
    let base = PoliciesConfig {
        source: RepositorySource::PageList,
        politeness_seconds: Seconds(86_400.0),
        horizon_days: Days(120.0),
        crawlers: vec![],
        capacities: vec![0.5],
        bins: 20,
        ..Default::default()
    };
    let from_csv = run(PoliciesConfig { page_list: Some(csv.into()), ..base.clone() });
    let rows = crate::core::model::page_list::parse(csv.as_bytes(), "x").unwrap();
    let inline: Vec<PageRow> = (0..4)
        .map(|k| PageRow {
            page: rows.names[k].clone(),
            server: ["s1", "s2", "s1", "s3"][k].into(),
            change_rate: [0.5, 0.1, 0.02, 0.0][k],
            weight: Some([2.0, 1.0, 1.0, 1.0][k]),
            frequency: None,
            observed: None,
            crawl_delay: None,
            capacity: None,
            response_ms: None,
            rate_low: None,
            rate_high: None,
            metadata: None,
        })
        .collect();
    let from_rows = run(PoliciesConfig { page_rows: Some(inline), ..base });
    assert_eq!(from_csv.capacities, from_rows.capacities);
    assert_eq!(from_csv.page_names, vec!["a", "b", "c", "d"]);
    assert_eq!(from_csv.server_names, vec!["s1", "s2", "s3"]);
    assert_eq!(from_csv.max_rate, 3.0, "three servers, P = one day");
}

#[test]
fn given_frequencies_skip_allocation_and_must_respect_the_caps() {
    let text = page_list_of(&[&[(1.0, 0.3), (0.5, 0.2)], &[(0.2, 0.4)]]);
    let base =
        PoliciesConfig { source: RepositorySource::PageList, politeness_seconds: Seconds(86_400.0), horizon_days: Days(60.0), crawlers: vec![], bins: 20, ..Default::default() };
    let e = start(PoliciesConfig { page_list: Some(text.clone()), ..base.clone() }).err().unwrap();
    assert_eq!(e.field, "allocation");
    let out = run(PoliciesConfig { page_list: Some(text), allocation: AllocationKind::Given, ..base.clone() });
    assert_eq!(out.capacities.len(), 1);
    assert!((out.capacities[0].capacity - 0.9).abs() < 1e-12);
    assert_eq!(out.capacities[0].allocation.kind, AllocationKind::Given);
    let over = page_list_of(&[&[(1.0, 0.8), (0.5, 0.7)]]);
    let e = start(PoliciesConfig { page_list: Some(over), allocation: AllocationKind::Given, ..base }).err().unwrap();
    assert!(e.field == "page_list" && e.message.contains("server0"), "{e}");
}

/// Server by server against the closed forms: each repository below is one server
/// with given frequencies, so its freshness is that server's. Over 12 seeds, RANDOM's
/// mean (last quarter) is within 3 standard errors of Eq 5-2 summed over its pages,
/// and MERGE's is at least Eq 5-4's bound and at most the server's A* sum (the POLITE
/// bound of these frequencies), less 3 standard errors.
#[test]
fn each_server_agrees_with_eq_5_2_and_eq_5_4() {
    use crate::core::math::freshness::{merge_freshness_bound, random_freshness};
    let servers: [&[(f64, f64)]; 3] = [&[(1.0, 0.5), (0.3, 0.2), (2.0, 0.3)], &[(0.5, 0.9)], &[(0.1, 0.05), (0.1, 0.05), (1.5, 0.6), (0.8, 0.3)]];
    for pages in servers {
        let fs: f64 = pages.iter().map(|p| p.1).sum();
        let n = pages.len() as f64;
        let eq_5_2: f64 = pages.iter().map(|&(l, f)| random_freshness(l, f, fs)).sum::<f64>() / n;
        let eq_5_4: f64 = pages.iter().map(|&(l, f)| merge_freshness_bound(l, f, fs)).sum::<f64>() / n;
        let bound: f64 = pages.iter().map(|&(l, f)| crate::core::math::freshness::a_star(l, f)).sum::<f64>() / n;
        let sample = |policy: PolicyKind| {
            let values: Vec<f64> = (0..12)
                .map(|seed| {
                    let config = PoliciesConfig {
                        source: RepositorySource::PageList,
                        page_list: Some(page_list_of(&[pages])),
                        allocation: AllocationKind::Given,
                        politeness_seconds: Seconds(86_400.0),
                        horizon_days: Days(4000.0),
                        policies: vec![policy],
                        crawlers: vec![],
                        bins: 20,
                        seed,
                        ..Default::default()
                    };
                    run(config).capacities[0].curves[0].converged
                })
                .collect();
            let mean = values.iter().sum::<f64>() / 12.0;
            let sd = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / 11.0).sqrt();
            (mean, sd / 12f64.sqrt())
        };
        let (random, se) = sample(PolicyKind::Random);
        assert!((random - eq_5_2).abs() <= 3.0 * se + 1e-9, "RANDOM {random} ± {se} vs Eq 5-2 {eq_5_2}");
        let (merge, se) = sample(PolicyKind::Merge);
        assert!(merge >= eq_5_4 - 3.0 * se - 1e-9, "MERGE {merge} ± {se} below Eq 5-4 {eq_5_4}");
        assert!(merge <= bound + 3.0 * se + 1e-9, "MERGE {merge} ± {se} above the bound {bound}");
    }
}

#[test]
fn bad_lists_are_refused() {
    let bad = |c: PoliciesConfig| start(c).err().unwrap().field;
    assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Nutch], ..small() }), "policies");
    assert_eq!(bad(PoliciesConfig { crawlers: vec![PolicyKind::Merge], ..small() }), "crawlers");
    assert_eq!(bad(PoliciesConfig { policies: vec![PolicyKind::Merge, PolicyKind::Merge], ..small() }), "policies[1]");
    assert_eq!(bad(PoliciesConfig { capacities: vec![0.1, 0.1], ..small() }), "capacities[1]");
    assert_eq!(bad(PoliciesConfig { capacities: vec![1.5], ..small() }), "capacities[0]");
    assert_eq!(bad(PoliciesConfig { capacities: vec![], ..small() }), "capacities");
    assert_eq!(bad(PoliciesConfig { page_list: Some("page,server,change_rate\na,s,1\n".into()), ..small() }), "page_list");
    assert_eq!(bad(PoliciesConfig { source: RepositorySource::PageList, ..small() }), "page_list");
    assert_eq!(bad(PoliciesConfig { allocation: AllocationKind::Given, ..small() }), "allocation");
    assert_eq!(bad(PoliciesConfig { politeness_seconds: Seconds(-1.0), ..small() }), "politeness_seconds");
}

#[test]
fn a_sample_of_servers_estimates_the_whole_run_within_its_interval() {
    // 200 servers; samples of 48 to 67 draws (each size its own independent draws)
    let config = PoliciesConfig {
        repository: RepositoryConfig { pages: 6000, servers: 200, top_share: 0.1, ..Default::default() },
        politeness_seconds: Seconds(3600.0),
        horizon_days: Days(60.0),
        bins: 12,
        capacities: vec![0.1, 0.9],
        policies: vec![PolicyKind::Merge, PolicyKind::Random],
        crawlers: vec![],
        ..Default::default()
    };
    let whole = run(config.clone());
    assert!(whole.sample.is_none());
    let (mut covered, mut covered_end, mut tried) = (0, 0, 0);
    for n in 48..68u64 {
        let out = run(PoliciesConfig { sample_servers: Some(n), ..config.clone() });
        let summary = out.sample.as_ref().expect("a sample summary");
        assert_eq!((summary.draws, summary.groups), (n, 16));
        assert!(summary.page_share > 0.0 && summary.page_share < 1.0, "{summary:?}");
        for (c, exact) in out.capacities.iter().zip(&whole.capacities) {
            // the bounds and allocations are the whole repository's, not estimated
            assert_eq!(c.polite_bound, exact.polite_bound);
            for (k, e) in c.curves.iter().zip(&exact.curves) {
                let interval = k.sampled.as_ref().expect("an interval");
                assert_eq!(interval.freshness_half_width.len(), k.freshness.len());
                assert!(interval.mean_half_width > 0.0 && interval.mean_half_width < 0.05, "{interval:?}");
                tried += 1;
                covered += usize::from((k.mean - e.mean).abs() <= interval.mean_half_width);
                covered_end += usize::from((k.end - e.end).abs() <= interval.end_half_width);
            }
        }
    }
    // 95 % intervals: 80 tries cover at least 68 times but with probability 1e-4 (the
    // ratio estimator's: 77 and 76 times)
    assert!(covered >= 68, "the whole run's mean is inside {covered} of {tried} intervals");
    assert!(covered_end >= 68, "the whole run's last bin is inside {covered_end} of {tried} intervals");
}

#[test]
fn a_sample_needs_a_draw_per_group_and_no_crawlers() {
    let base = PoliciesConfig { crawlers: vec![], ..small() };
    assert_eq!(PoliciesConfig { sample_servers: Some(15), ..base.clone() }.validate().unwrap_err().field, "sample_servers");
    assert_eq!(PoliciesConfig { sample_servers: Some(16), crawlers: vec![PolicyKind::Nutch], ..base.clone() }.validate().unwrap_err().field, "crawlers");
    assert!(PoliciesConfig { sample_servers: Some(16), ..base }.validate().is_ok());
}

/// A sample's estimate of requests is far off (each sampled server counted at up to one
/// request every P): the progress still follows the runs' simulated time, never falls,
/// and is near 1 when the last run nears its end.
#[test]
fn progress_follows_the_runs_when_the_request_estimate_is_off() {
    let config = PoliciesConfig {
        repository: RepositoryConfig { pages: 100_000, servers: 2000, ..Default::default() },
        sample_servers: Some(16),
        capacities: vec![0.01, 0.02],
        crawlers: vec![],
        horizon_days: Days(30.0),
        ..small()
    };
    let mut job = start(config).unwrap();
    let (mut last, mut steps) = (0.0, 0);
    while !job.done() {
        let fraction = job.advance(2_000);
        assert!(fraction >= last, "the progress fell from {last} to {fraction}");
        if !job.done() {
            last = fraction;
        }
        steps += 1;
    }
    let out = job.partial();
    let made: f64 = out.capacities.iter().flat_map(|c| &c.curves).map(|c| c.requests as f64).sum();
    let estimated = out.estimate.requests;
    assert!(estimated > 1.3 * made, "the estimate is close ({estimated} for {made}): the test shows nothing");
    assert!(last > 0.97 && steps >= 10, "{last} after {steps} steps");
}

/// Parts of a run split by runs (crawlers compared) each report their share of the whole
/// run's progress, which the page's pool adds up: together near 1 at their ends, never over.
#[test]
fn parts_of_the_runs_report_shares_of_the_whole_progress() {
    let config = PoliciesConfig { horizon_days: Days(60.0), ..small() };
    let parts = config.split(3);
    assert!(parts.iter().all(|p| p.only_runs.is_some()), "split by runs");
    let lasts: Vec<f64> = parts
        .into_iter()
        .map(|part| {
            let mut job = start(part).unwrap();
            let mut last = 0.0;
            while !job.done() {
                let fraction = job.advance(5_000);
                if !job.done() {
                    last = fraction;
                }
            }
            last
        })
        .collect();
    let sum: f64 = lasts.iter().sum();
    assert!(sum > 0.8 && sum <= 1.0, "{lasts:?}");
}

/// A page list that marks pages whose every change is announced is refused, naming the
/// list, rather than run with the column dropped (the policies do not listen).
#[test]
fn a_page_list_with_announced_pages_is_refused_not_dropped() {
    let config = PoliciesConfig { source: RepositorySource::PageList, page_list: Some("page,server,change_rate,observed\na,s,1,1\nb,s,1,0\n".into()), ..small() };
    let e = start(config).err().expect("refused");
    assert_eq!(e.field, "page_list");
    assert!(e.message.contains("drop the observed column"), "{e}");
}

/// A history's page list (issue 47): every completed curve carries its spread under the
/// rates redrawn within their intervals. Point intervals give the run's own mean (the
/// same schedule, the same expectation); wider ones a range; a run split by servers
/// joins into the whole run's spread to the last bit.
#[test]
fn estimated_rates_give_each_run_a_spread() {
    use crate::experiments::Experiment;
    let list = |width: f64| crate::core::model::page_list::estimated_list(240, 12, |k| 0.02 * (1.0 + (k % 17) as f64), width);
    let config = |width: f64| PoliciesConfig {
        source: RepositorySource::PageList,
        page_list: Some(list(width)),
        politeness_seconds: Seconds(7200.0),
        capacities: vec![0.1, 0.5],
        crawlers: vec![PolicyKind::Nutch],
        horizon_days: Days(200.0),
        ..small()
    };
    let point = run(config(1.0));
    for curve in point.capacities.iter().flat_map(|c| &c.curves) {
        let [lo, mid, hi] = curve.spread.expect("a spread");
        assert!(lo == mid && mid == hi, "{:?}: {lo} {mid} {hi}", curve.policy);
        assert!((mid - curve.mean).abs() < 1e-9 * curve.mean, "{:?}: {mid} against the run's {}", curve.policy, curve.mean);
    }
    let crawler = &point.crawlers[0];
    assert!(crawler.curve.spread.is_some() && crawler.merge_same_bandwidth.as_ref().unwrap().spread.is_some());
    let wide = run(config(3.0));
    for curve in wide.capacities.iter().flat_map(|c| &c.curves) {
        let [lo, mid, hi] = curve.spread.expect("a spread");
        assert!(lo <= mid && mid <= hi && lo < hi, "{:?}: {lo} {mid} {hi}", curve.policy);
    }
    let servers_only = PoliciesConfig { crawlers: vec![], ..config(3.0) };
    let whole = run(servers_only.clone());
    let parts: Vec<PoliciesOutput> = servers_only.split(3).into_iter().map(run).collect();
    // (the joined result keeps the list in its configuration; a run's drops it once read)
    assert_eq!(PoliciesOutput { config: whole.config.clone(), ..servers_only.merge(parts) }, whole);
    assert!(
        run(PoliciesConfig { page_list: Some("page,server,change_rate\na,s,1\nb,t,0.1\n".into()), ..config(1.0) })
            .capacities
            .iter()
            .flat_map(|c| &c.curves)
            .all(|c| c.spread.is_none())
    );
}

/// A crawler that reacts to what its fetches show (Nutch), on estimated rates, is run
/// again on each redraw of the rates (issue 47): the changes it sees follow them, and so
/// does its schedule. Each rerun is exactly the crawler's run on a page list of that
/// redraw's rates (the same streams), so the spread is that of those 20 runs; with point
/// intervals every rerun is the run itself. The fixed schedule, which does not react,
/// keeps its one schedule counted under the redraws.
#[test]
fn a_reacting_crawler_is_run_again_on_each_redraw() {
    use crate::core::model::page_list::{estimated_list, redrawn_lists};
    use crate::core::sim::redrawn::{REDRAWS, spread};
    let config = |list: String| PoliciesConfig {
        source: RepositorySource::PageList,
        page_list: Some(list),
        politeness_seconds: Seconds(7200.0),
        capacities: vec![0.1],
        policies: vec![PolicyKind::Merge],
        crawlers: vec![PolicyKind::Nutch, PolicyKind::Fixed],
        horizon_days: Days(120.0),
        ..small()
    };
    let list = |width: f64| estimated_list(120, 6, |k| 0.02 * (1.0 + (k % 17) as f64), width);
    let point = run(config(list(1.0)));
    let nutch = &point.crawlers[0].curve;
    let [lo, mid, hi] = nutch.spread.expect("a spread");
    for x in [lo, mid, hi] {
        assert!((x - nutch.mean).abs() <= 1e-12, "point intervals: a rerun {x} against the run's {}", nutch.mean);
    }

    let wide = list(3.0);
    let out = run(config(wide.clone()));
    let mut means = [0.0; REDRAWS];
    for (mean, list) in means.iter_mut().zip(redrawn_lists(&wide, point.config.seed)) {
        *mean = run(config(list)).crawlers[0].curve.mean;
    }
    let expected = spread(means, 1.0);
    let got = out.crawlers[0].curve.spread.expect("a spread");
    for (g, e) in got.iter().zip(expected) {
        assert!((g - e).abs() <= 1e-12, "Nutch's spread {got:?}, its runs on the redraws {expected:?}");
    }
    // the fixed 30 days: one schedule, counted (a rerun would draw other changes, not
    // other fetch times); its spread is not that of reruns
    let fixed = &out.crawlers[1].curve;
    assert!(fixed.spread.is_some_and(|[lo, _, hi]| lo < hi));
}
