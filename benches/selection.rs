//! `cargo bench --bench selection`: the cost of choosing the article of one request in
//! the thesis's ch. 6 setting (10,000 bursty articles, P = 15 s): GREEDY with the
//! thesis's 3-sample estimator (144 ms per selection on a Core 2 Quad), GREEDY with the
//! renewal-equation expectation, and MERGE (166 ns). One JSON line per case (median of
//! 3 runs) for `npm run bench`.

use freshlab::bench::{SelectionConfig, SelectionResult, Selector, selection};
use std::time::Instant;

fn main() {
    // `cargo test --all-targets` runs this without `--bench`: a smoke case only
    let smoke = !std::env::args().any(|a| a == "--bench");
    let quick = std::env::args().any(|a| a == "--quick");
    let articles = if smoke {
        100
    } else if quick {
        1000
    } else {
        10_000
    };
    let runs = if smoke { 1 } else { 3 };
    let origin = Instant::now();
    let clock = || origin.elapsed().as_secs_f64();
    let scale = if smoke { 100 } else { 1 };
    for (selector, selections) in [(Selector::Greedy, 2000 / scale), (Selector::GreedyExact, 2000 / scale), (Selector::Merge, 2_000_000 / scale)] {
        let config = SelectionConfig { articles, selector, selections, samples: 3 };
        let mut results: Vec<SelectionResult> = (0..runs).map(|_| selection(&config, clock)).collect();
        results.sort_by(|a, b| a.ns_per_selection.total_cmp(&b.ns_per_selection));
        let all: Vec<f64> = results.iter().map(|r| r.ns_per_selection).collect();
        println!("{}", serde_json::json!({ "median": results[runs / 2], "all_ns_per_selection": all }));
    }
}
