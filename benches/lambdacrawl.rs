//! `cargo bench --bench lambdacrawl`: Freshlab's harmonic-staleness and binary-freshness
//! optima (no politeness) on 10⁴, 10⁵ and 10⁶ synthetic pages, the arrays the LambdaCrawl
//! peer is timed on (`--dump-pages FILE N` writes them as JSON for it). One JSON line per
//! size (median of 3 runs) for `npm run bench`.

use freshlab::bench::{LambdaCrawlConfig, LambdaCrawlResult, lambdacrawl, lambdacrawl_pages};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(k) = args.iter().position(|a| a == "--dump-pages") {
        let (file, pages) = (&args[k + 1], args[k + 2].parse().expect("a number of pages"));
        let (importances, rates, bandwidth) = lambdacrawl_pages(&LambdaCrawlConfig { pages, seed: 1 });
        let importances: Vec<f64> = importances.iter().map(|&w| w as f64).collect();
        let json =
            serde_json::json!({ "importances": importances, "change_rates": rates, "bandwidth": bandwidth, "epsilon": 1e-10, "repeat": if pages > 100_000 { 1 } else { 3 } });
        std::fs::write(file, json.to_string()).expect("writes the pages");
        return;
    }
    // `cargo test --all-targets` runs this without `--bench`: a smoke case only
    let smoke = !args.iter().any(|a| a == "--bench");
    let sizes: &[usize] = if smoke { &[1000] } else { &[10_000, 100_000, 1_000_000] };
    let runs = if smoke { 1 } else { 3 };
    let origin = Instant::now();
    let clock = || origin.elapsed().as_secs_f64();
    for &pages in sizes {
        let config = LambdaCrawlConfig { pages, seed: 1 };
        let mut results: Vec<LambdaCrawlResult> = (0..runs).map(|_| lambdacrawl(&config, clock)).collect();
        results.sort_by(|a, b| (a.harmonic_seconds + a.binary_seconds).total_cmp(&(b.harmonic_seconds + b.binary_seconds)));
        println!("{}", serde_json::json!({ "median": results[runs / 2], "all": results }));
    }
}
