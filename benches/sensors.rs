//! `cargo bench --bench sensors`: the article's full experiment (200,000 pages, one week,
//! robot and sensors), and the smaller configuration the SimPy peer can finish, on one
//! thread and on every core. Prints one JSON line per case: median seconds of 3 runs
//! (21 for a run under 100,000 pages), events, events per second.

use freshlab::core::parallel;
use freshlab::experiments::sensors::SensorsConfig;
use freshlab::experiments::{Config, Output, run};
use std::time::Instant;

fn main() {
    // `cargo test --all-targets` runs this without `--bench`: a smoke case only
    let smoke = !std::env::args().any(|a| a == "--bench");
    let default = if smoke { vec![500] } else { vec![200_000, 2_000] };
    let pages: Vec<u64> = std::env::args().skip_while(|a| a != "--pages").nth(1).map(|s| s.split(',').map(|p| p.parse().expect("pages")).collect()).unwrap_or(default);
    // a run of milliseconds is repeated more: its first runs pay for cold caches, page
    // faults and thread start-up, which a median of three would still half reflect
    let count = |n: u64| {
        if smoke {
            1
        } else if n >= 100_000 {
            3
        } else {
            21
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<usize> = if cores > 1 { vec![1, cores] } else { vec![1] };
    for (n, threads) in pages.iter().flat_map(|&n| threads.iter().map(move |&t| (n, t))) {
        parallel::set_threads(threads);
        let count = count(n);
        let mut runs: Vec<(f64, u64, f64, f64)> = (0..count)
            .map(|_| {
                let t = Instant::now();
                let Output::Sensors(out) = run(Config::Sensors(SensorsConfig { pages: n, ..Default::default() }), |_, _| {}).expect("valid") else {
                    unreachable!("a sensors result")
                };
                let seconds = t.elapsed().as_secs_f64();
                let events: u64 = out.results.iter().map(|r| r.events).sum();
                let fresh = |k: usize| out.results[k].stationary_mean.unwrap_or(f64::NAN);
                (seconds, events, fresh(0), fresh(1))
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (seconds, events, robot, sensors) = runs[count / 2];
        println!(
            "{}",
            serde_json::json!({ "pages": n, "threads": threads, "seconds": seconds, "events": events, "events_per_second": events as f64 / seconds, "robot_freshness": robot, "sensor_freshness": sensors, "all_seconds": runs.iter().map(|r| r.0).collect::<Vec<_>>() })
        );
    }
}
