//! `cargo bench --bench partitioning`: Exposto's pipeline on the full-scale synthetic web
//! (10,039 hosts, 1.23 M pages, 5.6 M links): generating the web, building the graph,
//! partitioning among robots (hash, or graph with KL/FM) and simulating the crawl (§6.4).
//! Then the hyperlink objective alone, partitioned by Freshlab's greedy + KL/FM, for the
//! METIS peer (`bench/metis_peer.py`) on the same graph (`--dump-graph FILE` writes it).
//! Also the page's default sweep. One JSON line per case (median of 3 runs) for
//! `npm run bench`; `--quick` runs the classroom web instead.

use freshlab::bench::{PartitioningConfig, PartitioningResult, partitioning};
use freshlab::experiments::partition::graph::{Graph, Unit, Units};
use freshlab::experiments::partition::graph_partition::{loads, partition};
use freshlab::experiments::partition::{PartitionConfig, download::Politeness, scheme::Scheme, web::WebConfig};
use freshlab::experiments::{Config, run};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `cargo test --all-targets` runs this without `--bench`: a smoke case only
    let smoke = !args.iter().any(|a| a == "--bench");
    let web = if smoke || args.iter().any(|a| a == "--quick") { WebConfig::default() } else { WebConfig::thesis() };
    let runs = if smoke { 1 } else { 3 };
    if let Some(file) = args.iter().skip_while(|a| *a != "--dump-graph").nth(1) {
        let links = links_graph(&web, 1);
        std::fs::write(file, metis_json(&links).to_string()).expect("writable dump file");
        return;
    }
    let origin = Instant::now();
    let clock = || origin.elapsed().as_secs_f64();
    for (scheme, robots) in [(Scheme::HashHost, 30), (Scheme::GraphRtt, 2), (Scheme::GraphRtt, 30)] {
        let config = PartitioningConfig { web: web.clone(), robots, scheme, politeness: Politeness::Density, seed: 1 };
        let mut results: Vec<PartitioningResult> = (0..runs).map(|_| partitioning(&config, clock)).collect();
        let total = |r: &PartitioningResult| r.generate_s + r.topology_s + r.partition_s + r.simulate_s;
        results.sort_by(|a, b| total(a).total_cmp(&total(b)));
        let all: Vec<f64> = results.iter().map(total).collect();
        println!("{}", serde_json::json!({ "median": results[runs / 2], "all_total_s": all }));
    }
    if smoke {
        return;
    }
    let mut sweeps: Vec<f64> = (0..3)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(run(Config::Partition(PartitionConfig::default()), |_, _| {}).expect("valid"));
            t.elapsed().as_secs_f64()
        })
        .collect();
    sweeps.sort_by(f64::total_cmp);
    println!(
        "{}",
        serde_json::json!({ "sweep": { "what": "the page's default run (classroom web, 7 robot counts × 2 schemes × 2 politeness)", "seconds": sweeps[1] }, "all_seconds": sweeps })
    );
    let links = links_graph(&web, 1);
    for parts in [2, 30] {
        let g = Graph { parts, ..links.clone() };
        let mut runs: Vec<(f64, f64, f64)> = (0..5)
            .map(|_| {
                let t = Instant::now();
                let (part, cut) = partition(&g, 0.05);
                let seconds = t.elapsed().as_secs_f64();
                let load = loads(&g.weight, &part, parts);
                let balance = load.iter().copied().fold(0.0, f64::max) / (g.weight.iter().sum::<f64>() / parts as f64);
                (seconds, cut, balance)
            })
            .collect();
        runs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let (seconds, cut, balance) = runs[2];
        println!(
            "{}",
            serde_json::json!({ "links_only": { "parts": parts, "seconds": seconds, "cut": cut, "total": g.total(), "max_load_ratio": balance, "units": g.units() }, "all_seconds": runs.iter().map(|r| r.0).collect::<Vec<_>>() })
        );
    }
}

/// The hosts' hyperlink graph of the web generated from `seed`.
fn links_graph(web: &WebConfig, seed: u64) -> Graph {
    let web = web.generate(seed).expect("a valid web");
    Graph::links(&web, &Units::new(&web, Unit::Host), 1)
}

/// The graph in METIS's CSR form (integer weights: pages and link counts).
fn metis_json(g: &Graph) -> serde_json::Value {
    serde_json::json!({
        "xadj": g.start,
        "adjncy": g.adj,
        "eweights": g.w.iter().map(|&w| w as u64).collect::<Vec<_>>(),
        "vweights": g.weight.iter().map(|&w| w as u64).collect::<Vec<_>>(),
    })
}
