#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::core::math::freshness::a_star;
use crate::core::model::webbase::RepositoryConfig;
use crate::core::units::Seconds;

fn list(text: &str, capacity: f64, politeness_seconds: f64) -> AllocateOutput {
    allocations(AllocateConfig {
        source: RepositorySource::PageList,
        page_list: Some(text.into()),
        capacity,
        politeness_seconds: Seconds(politeness_seconds),
        ..Default::default()
    })
    .unwrap()
}

/// Cho & Garcia-Molina (SIGMOD 2000, Table 2): five pages on one server changing 1…5
/// times a day, synchronised 5 times a day in all. Their optimum: 1.15, 1.36, 1.35,
/// 1.14, 0.00 (the fastest page is never revisited); uniform beats proportional.
#[test]
fn the_textbook_five_pages() {
    let out = list("page,server,change_rate\ne1,s,1\ne2,s,2\ne3,s,3\ne4,s,4\ne5,s,5\n", 5.0, 0.0);
    let want = [1.15, 1.36, 1.35, 1.14, 0.0];
    for (f, w) in out.opt_unpolite.frequencies.iter().zip(want) {
        assert!((f - w).abs() < 0.005, "{:?}", out.opt_unpolite.frequencies);
    }
    assert_eq!(out.opt_polite.frequencies, out.opt_unpolite.frequencies, "no politeness: the same problem");
    assert!(out.uniform.frequencies.iter().all(|&f| (f - 1.0).abs() < 1e-12));
    assert!((out.proportional.frequencies[4] - 5.0 / 3.0).abs() < 1e-12);
    assert!(out.uniform.freshness > out.proportional.freshness);
    assert!(out.opt_unpolite.freshness > out.uniform.freshness);
    // freshness is Σ A*(λ, f) / n, recomputed independently
    let a: f64 = (1..=5).zip(&out.uniform.frequencies).map(|(l, &f)| a_star(l as f64, f)).sum::<f64>() / 5.0;
    assert!((a - out.uniform.freshness).abs() < 1e-15);
}

/// Two servers; P caps the first. By hand: server s1 holds two pages of λ = 1 and can
/// take at most 1/P = 2 a day, so OPT_POLITE gives each 1; the one page of s2 (λ = 1)
/// takes the rest of C = 3.5, i.e. 1.5 (below its cap). Without the cap the three
/// pages share C equally.
#[test]
fn a_politeness_limit_caps_one_server() {
    let text = "page,server,change_rate\na,s1,1\nb,s1,1\nc,s2,1\n";
    let out = list(text, 3.5, 43_200.0);
    for (f, w) in out.opt_polite.frequencies.iter().zip([1.0, 1.0, 1.5]) {
        assert!((f - w).abs() < 1e-9, "{:?}", out.opt_polite.frequencies);
    }
    for f in &out.opt_unpolite.frequencies {
        assert!((f - 3.5 / 3.0).abs() < 1e-9, "{:?}", out.opt_unpolite.frequencies);
    }
    assert_eq!(out.opt_polite.capped.servers, 1);
    assert!((out.opt_polite.capped.page_share - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!(out.opt_unpolite.report.servers_over_cap, 1);
    assert!(out.opt_polite.report.kkt.as_ref().unwrap().worst() < 1e-9);
    let want = (2.0 * a_star(1.0, 1.0) + a_star(1.0, 1.5)) / 3.0;
    assert!((out.opt_polite.freshness - want).abs() < 1e-12);
}

#[test]
fn weights_are_importance_and_the_files_order_is_kept() {
    let out = list("page,server,change_rate,weight\nz,s2,1,3\na,s1,1,1\nm,s2,1,1\n", 2.0, 0.0);
    assert_eq!(out.pages, vec!["z", "a", "m"]);
    let f = &out.opt_unpolite.frequencies;
    assert!(f[0] > f[1] && (f[1] - f[2]).abs() < 1e-9, "{f:?}");
}

#[test]
fn bad_input_is_refused() {
    let base = || AllocateConfig { source: RepositorySource::PageList, page_list: Some("page,server,change_rate\na,s,1\n".into()), ..Default::default() };
    assert_eq!(allocations(AllocateConfig { capacity: 0.0, ..base() }).unwrap_err().field, "capacity");
    assert_eq!(allocations(AllocateConfig { politeness_seconds: Seconds(-1.0), ..base() }).unwrap_err().field, "politeness_seconds");
    assert_eq!(allocations(AllocateConfig { page_list: None, ..base() }).unwrap_err().field, "page_list");
    let e = allocations(AllocateConfig { page_list: Some("page,server,change_rate,weight\na,s,1,0\n".into()), ..base() }).unwrap_err();
    assert!(e.message.contains("weight 0"), "{e}");
}

/// A page list's observed column under harmonic staleness: the observed page is crawled
/// on a change with probability f/λ, by hand as in `observed_pages_by_hand` (C = 1.25:
/// 3/4 of a = 2 and 1/2 of b = 1); the output marks it and the CSV export has the column.
#[test]
fn observed_pages_from_a_page_list() {
    let text = "page,server,change_rate,observed\na,s,2,1\nb,s,1,0\n";
    let out =
        allocations(AllocateConfig { source: RepositorySource::PageList, page_list: Some(text.into()), capacity: 1.25, objective: Objective::Harmonic, ..Default::default() })
            .unwrap();
    assert_eq!(out.observed, vec![true, false]);
    let f = &out.opt_unpolite.frequencies;
    assert!((f[0] - 0.75).abs() < 1e-12 && (f[1] - 0.5).abs() < 1e-12, "{f:?}");
    // freshness: a is fresh with probability 3/8, b with 1/2 / (1 + 1/2) = 1/3
    assert!((out.opt_unpolite.freshness - (3.0 / 8.0 + 1.0 / 3.0) / 2.0).abs() < 1e-12);
    // staleness: −ln(3/8) for a, ln(1 + 1/(1/2)) = ln 3 for b
    assert!((out.opt_unpolite.cost.unwrap() - (-(3.0f64 / 8.0).ln() + 3f64.ln()) / 2.0).abs() < 1e-12);
    assert!((out.opt_unpolite.observed_crawled.unwrap() - 0.375).abs() < 1e-12);
    let table = crate::experiments::Tabular::table(&out);
    assert_eq!(table.columns[..3], ["page", "change_rate", "observed"]);
    assert_eq!(table.columns.last().unwrap(), "p_opt_polite");
    assert_eq!(table.rows.len(), 2);
    // a crawls 3/4 a day of its 2 changes: each announced change with probability 3/8
    assert!(matches!(table.rows[0].last(), Some(crate::table::Cell::Number(p)) if (p - 0.375).abs() < 1e-12));
    assert!(matches!(table.rows[1].last(), Some(crate::table::Cell::Text(t)) if t.is_empty()));
    // without the column the same pages are solved as any others
    let plain = list("page,server,change_rate\na,s,2\nb,s,1\n", 1.25, 0.0);
    assert!(plain.observed.is_empty() && plain.opt_unpolite.observed_crawled.is_none());
}

/// `observed_share` marks a share of the generated pages, with the seed; the optima
/// never crawl one of them more often than it changes, and they pay less than the
/// same pages unobserved (a change seen is a change that need not be guessed).
#[test]
fn observed_share_of_generated_pages() {
    let base = AllocateConfig {
        objective: Objective::Harmonic,
        repository: RepositoryConfig { pages: 2000, servers: 40, ..Default::default() },
        politeness_seconds: Seconds(600.0),
        ..Default::default()
    };
    let out = allocations(AllocateConfig { observed_share: 0.5, ..base.clone() }).unwrap();
    let n = out.observed.iter().filter(|&&o| o).count();
    assert!((800..1200).contains(&n), "about half of 2,000 pages: {n}");
    for a in [&out.opt_unpolite, &out.opt_polite] {
        assert!(a.report.kkt.as_ref().unwrap().worst() < 1e-10);
        assert!(out.observed.iter().zip(&a.frequencies).zip(&out.change_rates).all(|((&o, &f), &l)| !o || f <= l));
    }
    assert_eq!(allocations(AllocateConfig { observed_share: 0.5, ..base.clone() }).unwrap(), out, "the seed decides");
    let unobserved = allocations(base).unwrap();
    assert!(out.opt_polite.cost.unwrap() < unobserved.opt_polite.cost.unwrap());
}

/// Observed pages under both freshness objectives, whose value w·f/λ is linear: by
/// hand as in `observed_pages_under_binary_freshness_by_hand` (binary, C = 1: b takes
/// √2 − 1 at m = 1/2 and a the rest of C); under the thesis's freshness the generated
/// pages meet the KKT conditions and are never crawled more often than they change,
/// and so they are fresher than the same pages unobserved. `observed_share` beside a
/// page list, or outside [0, 1], is refused on its field.
#[test]
fn observed_pages_under_the_freshness_objectives() {
    let text = "page,server,change_rate,observed\na,s,2,yes\nb,s,1,no\n";
    let listed = |objective, observed_share| AllocateConfig {
        source: RepositorySource::PageList,
        page_list: Some(text.into()),
        capacity: 1.0,
        objective,
        observed_share,
        ..Default::default()
    };
    let out = allocations(listed(Objective::Binary, 0.0)).unwrap();
    let f = &out.opt_unpolite.frequencies;
    let edge = 2f64.sqrt() - 1.0;
    assert!((f[0] - (1.0 - edge)).abs() < 1e-12 && (f[1] - edge).abs() < 1e-12, "{f:?}");
    // binary freshness: a is fresh with probability f/λ, b with f/(1 + f)
    assert!((out.opt_unpolite.freshness - ((1.0 - edge) / 2.0 + edge / (1.0 + edge)) / 2.0).abs() < 1e-12);
    assert!((out.opt_unpolite.observed_crawled.unwrap() - (1.0 - edge) / 2.0).abs() < 1e-12);
    let base = AllocateConfig { repository: RepositoryConfig { pages: 2000, servers: 40, ..Default::default() }, politeness_seconds: Seconds(600.0), ..Default::default() };
    let out = allocations(AllocateConfig { observed_share: 0.3, ..base.clone() }).unwrap();
    for a in [&out.opt_unpolite, &out.opt_polite] {
        assert!(a.report.kkt.as_ref().unwrap().worst() < 1e-10, "{:?}", a.report.kkt);
        assert!(out.observed.iter().zip(&a.frequencies).zip(&out.change_rates).all(|((&o, &f), &l)| !o || f <= l));
    }
    assert!(out.opt_polite.freshness > allocations(base).unwrap().opt_polite.freshness);
    assert_eq!(allocations(listed(Objective::Harmonic, 0.1)).unwrap_err().field, "observed_share");
    assert_eq!(allocations(AllocateConfig { observed_share: 1.5, ..Default::default() }).unwrap_err().field, "observed_share");
}

/// Estimated rates (a history's page list): the result says so, and the spread of each
/// allocation's freshness under rates redrawn within their intervals holds the
/// freshness itself when the intervals are points, and widens with them.
#[test]
fn estimated_rates_give_a_spread() {
    let points = list("page,server,change_rate,rate_low,rate_high\ne1,s,1,1,1\ne2,s,2,2,2\ne3,s,0,0,0\n", 5.0, 0.0);
    assert_eq!(points.repository.estimated_rates, Some(3));
    let spread = points.spread.as_ref().expect("a spread");
    for (a, [lo, mid, hi]) in points.allocations().into_iter().zip(&spread.freshness) {
        assert!((lo - a.freshness).abs() < 1e-12 && (hi - a.freshness).abs() < 1e-12 && lo <= mid, "{lo} {mid} {hi} vs {}", a.freshness);
    }
    let wide = list("page,server,change_rate,rate_low,rate_high\ne1,s,1,0.5,2\ne2,s,2,1,4\ne3,s,0,0,0.3\n", 5.0, 0.0);
    for [lo, mid, hi] in &wide.spread.as_ref().unwrap().freshness {
        assert!(lo < mid && mid < hi, "{lo} {mid} {hi}");
    }
    assert!(list("page,server,change_rate\ne1,s,1\n", 5.0, 0.0).spread.is_none());
}
