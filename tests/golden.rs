//! Same configuration → the same result, bit for bit, natively and in WebAssembly: both
//! targets compare against the files in tests/golden/, written natively with
//! `FRESHLAB_BLESS=1 cargo test --test golden` when a change is intended.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use freshlab::chart::draw::figure_svg;
use freshlab::chart::theme::DrawOptions;
use freshlab::experiments::{parse_config, run};

fn check(name: &str, actual: &str, golden: &str) {
    #[cfg(not(target_arch = "wasm32"))]
    if std::env::var_os("FRESHLAB_BLESS").is_some() {
        std::fs::write(format!("{}/tests/golden/{name}", env!("CARGO_MANIFEST_DIR")), actual).expect("write golden file");
        return;
    }
    assert!(actual == golden, "{name} differs from tests/golden/{name}; if the change is intended, regenerate natively with FRESHLAB_BLESS=1 cargo test --test golden");
}

fn result_json(config: &str) -> String {
    let output = run(parse_config(config).expect("valid config"), |_, _| {}).expect("runs");
    serde_json::to_string_pretty(&output).expect("serialises") + "\n"
}

#[test]
fn level_sets() {
    check("level_sets.json", &result_json(r#"{"experiment":"level_sets","grid":31,"levels":[0.93,0.95,0.99]}"#), include_str!("golden/level_sets.json"));
}

#[test]
fn factor_curves() {
    check("factor_curves.json", &result_json(r#"{"experiment":"factor_curves","points":40,"c":3}"#), include_str!("golden/factor_curves.json"));
}

#[test]
fn bursts() {
    check("bursts.json", &result_json(r#"{"experiment":"bursts","points":30,"n":[5462,50000]}"#), include_str!("golden/bursts.json"));
}

#[test]
fn certificate() {
    check("certify.json", &result_json(r#"{"experiment":"certify","tolerance":1e-8}"#), include_str!("golden/certify.json"));
}

#[test]
fn svg_chart() {
    let output = run(parse_config(r#"{"experiment":"factor_curves","points":60}"#).unwrap(), |_, _| {}).unwrap();
    let svg = figure_svg(&output.figures()[0], 720, 450, &DrawOptions::default()).unwrap();
    check("factor_curves.svg", &svg, include_str!("golden/factor_curves.svg"));
}

#[test]
fn repository_policies() {
    let config = r#"{"experiment":"policies","repository":{"pages":800,"servers":12,"top_share":0.1},"politeness_seconds":3600,"horizon_days":90,"capacities":[0.1,0.9],"bins":20,"crawlers":["nutch","stormcrawler"]}"#;
    check("policies.json", &result_json(config), include_str!("golden/policies.json"));
}

#[test]
fn repository_policies_exact_estimator() {
    let config = r#"{"experiment":"policies","repository":{"pages":500,"servers":8,"top_share":0.3},"politeness_seconds":3600,"horizon_days":60,"capacities":[0.5],"bins":10,"estimator":"exact","crawlers":[]}"#;
    check("policies_exact.json", &result_json(config), include_str!("golden/policies_exact.json"));
}

#[test]
fn per_page_factors() {
    check("per_page.json", &result_json(r#"{"experiment":"per_page","points":4,"revisits":300,"replications":4}"#), include_str!("golden/per_page.json"));
}

#[test]
fn channel_windows() {
    check(
        "channel.json",
        &result_json(r#"{"experiment":"channel","repository":{"pages":2000,"servers":20},"windows":200,"window_requests":100}"#),
        include_str!("golden/channel.json"),
    );
}

#[test]
fn robots_and_sensors() {
    let config = r#"{"experiment":"sensors","pages":500,"horizon":200000,"week":200000,"sample_every":5000,"stationary_from":100000,"robot_sweep":[2]}"#;
    check("sensors.json", &result_json(config), include_str!("golden/sensors.json"));
}

#[test]
fn bursty_changes() {
    let config = r#"{"experiment":"bursty","generator":{"articles":20,"days":40},"politeness_seconds":20000,"fractions":[0.5,1],"training_days":10,"renewal_steps":256}"#;
    check("bursty.json", &result_json(config), include_str!("golden/bursty.json"));
}

#[test]
fn distributed_crawling() {
    let config = r#"{"experiment":"partition","web":{"hosts":80,"ips":20,"mean_pages":10,"max_pages":200,"robot_sites":8},"robots":[2,5],"schemes":["hash_host","hash_url","graph_rtt","graph_geo","graph_rtt_ip"],"politeness":["fixed","density","dynamic","fixed_mean"]}"#;
    check("partition.json", &result_json(config), include_str!("golden/partition.json"));
}

/// Learning to crawl (issue 17): MLE re-estimation, the objectives' solvers with caps,
/// Poisson and MERGE crawls and the estimators' chart, bit for bit on both targets.
#[test]
fn learning() {
    let config = r#"{"experiment":"learning","repository":{"pages":200,"servers":8},"capacity":40,"politeness_seconds":3600,"horizon_days":60,"epoch_days":10,"explore_days":20,"bins":6,"estimator_runs":50,"estimator_visits":10}"#;
    check("learning.json", &result_json(config), include_str!("golden/learning.json"));
}
