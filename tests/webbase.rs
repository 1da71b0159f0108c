//! Issue 12: on the WEBBASE preset (14.5 M pages on 5,462 servers, P = 15 s) politeness
//! binds at all three capacities, as on the classroom default (tested in the library).
//! Native only: the three allocations at full scale hold about 2 GB and take a while.
#![cfg(not(target_arch = "wasm32"))]

use freshlab::experiments::policies::PoliciesConfig;
use freshlab::experiments::{Config, Output, run};

#[test]
fn politeness_binds_on_the_webbase_preset() {
    let config = PoliciesConfig { policies: vec![], crawlers: vec![], ..PoliciesConfig::webbase() };
    let Output::Policies(out) = run(Config::Policies(config), |_, _| {}).unwrap() else { unreachable!("a policies result") };
    assert_eq!(out.repository.pages, 14_500_000);
    assert_eq!(out.capacities.len(), 3);
    for c in &out.capacities {
        assert!(c.capped.servers > 0 && c.capped.page_share > 0.2, "C = {}: {:?}", c.share, c.capped);
        assert!(c.unpolite_bound - c.polite_bound > 0.02, "C = {}: POLITE {} vs UNPOLITE {}", c.share, c.polite_bound, c.unpolite_bound);
        assert!(c.allocation.kkt.as_ref().unwrap().worst() < 1e-9, "{:?}", c.allocation.kkt);
    }
}
