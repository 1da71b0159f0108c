//! Freshlab's binary and harmonic allocations against Microsoft's public LambdaCrawl
//! code (../shared/peers/optimal-freshness, NeurIPS 2019), on the same synthetic
//! (importance, change rate) arrays, without politeness (the peer has none). Skipped,
//! saying so, where ../shared is absent; the peer's Python (numpy, scipy) is installed
//! into build/peer-venv by `npm test`.
#![cfg(not(target_arch = "wasm32"))]

use freshlab::core::alloc::objective::Objective;
use freshlab::core::alloc::opt::optimal_for;
use freshlab::core::model::repository::Repository;
use freshlab::core::rng::{Purpose, Stream};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/peers/optimal-freshness")
}

fn python() -> PathBuf {
    std::env::var_os("FRESHLAB_PEER_PYTHON").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("build/peer-venv/bin/python"))
}

#[test]
fn binary_and_harmonic_rates_agree_with_lambdacrawl() {
    if !peer_dir().join("LambdaCrawlExps.py").exists() {
        eprintln!("skipped: {} is absent, so there is no peer to compare with", peer_dir().display());
        return;
    }
    let python = python();
    assert!(
        python.exists(),
        "the peer needs Python with numpy and scipy at {}: run `npm test` (it makes that virtual environment with pip) or set FRESHLAB_PEER_PYTHON",
        python.display()
    );
    // 3,000 pages: importances in f32 (as Freshlab stores them), change rates log-uniform
    // over four decades, bandwidth half of Σλ
    let mut s = Stream::of(2019, Purpose::Test, 0);
    let n = 3000;
    let importances: Vec<f32> = (0..n).map(|_| s.uniform_in(0.1, 10.0) as f32).collect();
    let rates: Vec<f64> = (0..n).map(|_| 10f64.powf(s.uniform_in(-2.0, 2.0))).collect();
    let bandwidth = 0.5 * rates.iter().sum::<f64>();
    let job = serde_json::json!({"importances": importances.iter().map(|&w| w as f64).collect::<Vec<_>>(), "change_rates": rates, "bandwidth": bandwidth, "epsilon": 1e-13});
    let mut child = Command::new(&python)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/lambdacrawl_peer.py"))
        .env("FRESHLAB_PEER_DIR", peer_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the peer's Python starts");
    child.stdin.take().unwrap().write_all(job.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the peer failed: {}", String::from_utf8_lossy(&out.stderr));
    let peer: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let repo = Repository { lambda: rates.clone(), weight: Some(importances), server_start: vec![0, n] };
    for (objective, key, tolerance) in [(Objective::Harmonic, "harmonic", 1e-9), (Objective::Binary, "binary", 1e-9)] {
        let theirs: Vec<f64> = peer[key].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect();
        let (ours, kkt) = optimal_for(objective, &repo, bandwidth, None);
        assert!(kkt.worst() < 1e-10, "{key}: {kkt:?}");
        let starved = ours.iter().filter(|&&f| f == 0.0).count();
        if objective == Objective::Binary {
            assert!(starved > 0, "binary freshness starves some pages at this bandwidth");
        }
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            // the peer's bisection stops at an absolute 1e-13 on its multiplier; a
            // starved page is 0 on both sides (the peer writes a rounding-level value)
            let scale = bandwidth / n as f64;
            assert!((a - b).abs() <= tolerance * a.abs().max(scale), "{key} page {i} (λ = {}, w = {}): Freshlab {a}, peer {b}", repo.lambda[i], repo.weight(i));
        }
        let (sum_ours, sum_theirs) = (ours.iter().sum::<f64>(), theirs.iter().sum::<f64>());
        assert!((sum_ours - bandwidth).abs() < 1e-9 * bandwidth && (sum_theirs - bandwidth).abs() < 1e-6 * bandwidth, "{key}: Σ {sum_ours} vs {sum_theirs} (B = {bandwidth})");
    }
}
