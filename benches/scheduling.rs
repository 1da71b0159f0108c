//! `cargo bench`: cost per scheduled request of MERGE and RANDOM at 1 M pages on
//! 5,462 servers (OPT_POLITE at 90 %, P = 15 s), scheduling alone and with freshness
//! accounting. Prints one JSON line per case (median of 5 runs) for `npm run bench`.

use freshlab::bench::{BenchConfig, BenchResult, scheduling};
use freshlab::core::policy::PolicyKind;
use std::time::Instant;

/// Writes the benchmark's workload (server sizes and OPT_POLITE frequencies) for the
/// peer implementation: u64 count of servers, their page counts (u64), then f (f64),
/// little-endian.
fn dump(path: &str, pages: u64) {
    let repo = freshlab::core::model::webbase::generate(&freshlab::core::model::webbase::RepositoryConfig { pages, servers: 5462, ..Default::default() }, 1);
    let p = 15.0 / 86_400.0;
    let f = freshlab::core::alloc::allocate(&repo, freshlab::core::alloc::AllocationKind::OptPolite, 0.9 * 5462.0 / p, p).f;
    let mut bytes = Vec::new();
    bytes.extend((repo.servers() as u64).to_le_bytes());
    for s in 0..repo.servers() {
        bytes.extend((repo.server_pages(s).len() as u64).to_le_bytes());
    }
    for v in f {
        bytes.extend(v.to_le_bytes());
    }
    std::fs::write(path, bytes).expect("write the workload");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(k) = args.iter().position(|a| a == "--dump") {
        return dump(&args[k + 1], 1_000_000);
    }
    // `cargo test --all-targets` runs this without `--bench`: a smoke case only
    let smoke = !args.iter().any(|a| a == "--bench");
    let quick = args.iter().any(|a| a == "--quick");
    let (pages, requests, runs) = if smoke {
        (20_000, 100_000, 1)
    } else if quick {
        (100_000, 2_000_000, 3)
    } else {
        (1_000_000, 20_000_000, 5)
    };
    let origin = Instant::now();
    let clock = || origin.elapsed().as_secs_f64();
    for policy in [PolicyKind::Merge, PolicyKind::Random] {
        for accounting in [false, true] {
            let config = BenchConfig { pages, servers: 5462, policy, requests, accounting };
            let mut results: Vec<BenchResult> = (0..runs).map(|_| scheduling(&config, clock)).collect();
            results.sort_by(|a, b| a.ns_per_request.total_cmp(&b.ns_per_request));
            let median = &results[runs / 2];
            let spread: Vec<f64> = results.iter().map(|r| r.ns_per_request).collect();
            println!("{}", serde_json::json!({ "median": median, "all_ns_per_request": spread }));
        }
    }
}
