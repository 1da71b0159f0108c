#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::core::math::freshness::a_star;

fn list(text: &str, capacity: f64, politeness_seconds: f64) -> AllocateOutput {
    allocations(AllocateConfig { source: RepositorySource::PageList, page_list: Some(text.into()), capacity, politeness_seconds, ..Default::default() }).unwrap()
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
    assert_eq!(allocations(AllocateConfig { politeness_seconds: -1.0, ..base() }).unwrap_err().field, "politeness_seconds");
    assert_eq!(allocations(AllocateConfig { page_list: None, ..base() }).unwrap_err().field, "page_list");
    let e = allocations(AllocateConfig { page_list: Some("page,server,change_rate,weight\na,s,1,0\n".into()), ..base() }).unwrap_err();
    assert!(e.message.contains("weight 0"), "{e}");
}
