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

/// The peer's Python, or `None` (saying so) where ../shared is absent.
fn peer_python() -> Option<PathBuf> {
    if !peer_dir().join("LambdaCrawlExps.py").exists() {
        eprintln!("skipped: {} is absent, so there is no peer to compare with", peer_dir().display());
        return None;
    }
    let python = python();
    assert!(
        python.exists(),
        "the peer needs Python with numpy and scipy at {}: run `npm test` (it makes that virtual environment with pip) or set FRESHLAB_PEER_PYTHON",
        python.display()
    );
    Some(python)
}

/// Runs bench/lambdacrawl_peer.py on `job` and reads its JSON answer.
fn run_peer(python: &Path, job: &serde_json::Value) -> serde_json::Value {
    let mut child = Command::new(python)
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
    serde_json::from_slice(&out.stdout).unwrap()
}

/// 3,000 pages from test stream `k`: importances in f32 (as Freshlab stores them),
/// change rates log-uniform over four decades.
fn pages(k: u64) -> (Stream, Vec<f32>, Vec<f64>) {
    let mut s = Stream::of(2019, Purpose::Test, k);
    let importances: Vec<f32> = (0..3000).map(|_| s.uniform_in(0.1, 10.0) as f32).collect();
    let rates: Vec<f64> = (0..3000).map(|_| 10f64.powf(s.uniform_in(-2.0, 2.0))).collect();
    (s, importances, rates)
}

fn numbers(v: &serde_json::Value) -> Vec<f64> {
    v.as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect()
}

#[test]
fn binary_and_harmonic_rates_agree_with_lambdacrawl() {
    let Some(python) = peer_python() else { return };
    // bandwidth half of Σλ
    let (_, importances, rates) = pages(0);
    let n = rates.len();
    let bandwidth = 0.5 * rates.iter().sum::<f64>();
    let job = serde_json::json!({"importances": importances.iter().map(|&w| w as f64).collect::<Vec<_>>(), "change_rates": rates, "bandwidth": bandwidth, "epsilon": 1e-13});
    let peer = run_peer(&python, &job);
    let repo = Repository { lambda: rates.clone(), weight: Some(importances), server_start: vec![0, n], observed: None };
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

/// Pages whose every change is observed (the peer's complete-observation sources): on
/// observed pages alone Freshlab's crawl probabilities f/λ equal the peer's
/// `LambdaCrawl_ComplObs` (Algorithm 2, exact on both sides); beside other pages, the
/// peer's LambdaCrawl (Algorithm 3) searches the split of the bandwidth between the two
/// kinds to 0.5 % of it, where Freshlab solves both kinds with one multiplier, so its
/// harmonic staleness is at most the peer's, and close to it.
#[test]
fn observed_pages_agree_with_lambdacrawl() {
    let Some(python) = peer_python() else { return };
    let (mut s, importances, rates) = pages(1);
    let n = rates.len();
    let observed: Vec<bool> = (0..n).map(|_| s.uniform() < 0.3).collect();
    let seen = |i: &usize| observed[*i];
    let (obs, other): (Vec<usize>, Vec<usize>) = (0..n).partition(seen);
    let bandwidth = 0.5 * obs.iter().map(|&i| rates[i]).sum::<f64>();
    let job = serde_json::json!({"importances": importances.iter().map(|&w| w as f64).collect::<Vec<_>>(), "change_rates": rates, "observed": observed, "bandwidth": bandwidth, "epsilon": 1e-13});
    let peer = run_peer(&python, &job);

    // observed pages alone
    let alone = Repository {
        lambda: obs.iter().map(|&i| rates[i]).collect(),
        weight: Some(obs.iter().map(|&i| importances[i]).collect()),
        server_start: vec![0, obs.len()],
        observed: Some(vec![true; obs.len()]),
    };
    let (f, kkt) = optimal_for(Objective::Harmonic, &alone, bandwidth, None);
    assert!(kkt.worst() < 1e-10, "{kkt:?}");
    let theirs = numbers(&peer["observed_probs"]);
    assert!(theirs.contains(&1.0) && theirs.iter().any(|&p| p < 1.0), "the case has pages crawled at every change and pages not");
    for (k, (&fk, &p)) in f.iter().zip(&theirs).enumerate() {
        let ours = fk / alone.lambda[k];
        assert!((ours - p).abs() <= 1e-9 * p, "observed page {k}: Freshlab p = {ours}, peer {p}");
    }

    // both kinds: compare the harmonic staleness Σ w ln(1 + λ/ρ) + Σ −w ln p
    let repo = Repository { lambda: rates.clone(), weight: Some(importances.clone()), server_start: vec![0, n], observed: Some(observed.clone()) };
    let (f, kkt) = optimal_for(Objective::Harmonic, &repo, bandwidth, None);
    assert!(kkt.worst() < 1e-10, "{kkt:?}");
    let cost = |rate_of: &dyn Fn(usize) -> f64| (0..n).map(|i| repo.weight(i) * Objective::Harmonic.page_value(&repo, i, rate_of(i))).sum::<f64>();
    let (peer_rates, peer_probs) = (numbers(&peer["mixed_rates"]), numbers(&peer["mixed_probs"]));
    let mut peer_f = vec![0.0; n];
    for (k, &i) in other.iter().enumerate() {
        peer_f[i] = peer_rates[k];
    }
    for (k, &i) in obs.iter().enumerate() {
        peer_f[i] = peer_probs[k] * rates[i];
    }
    let (ours, theirs) = (cost(&|i| f[i]), cost(&|i| peer_f[i]));
    let split = |g: &[f64]| obs.iter().map(|&i| g[i]).sum::<f64>() / bandwidth;
    eprintln!("harmonic staleness: Freshlab {ours}, peer {theirs}; bandwidth to observed pages: Freshlab {:.4}, peer {:.4}", split(&f), split(&peer_f));
    assert!(ours <= theirs * (1.0 + 1e-12), "one multiplier for both kinds is the optimum: {ours} > peer {theirs}");
    assert!(theirs - ours <= 1e-3 * ours, "the peer's split search is close: {ours} vs {theirs}");
    assert!((peer_f.iter().sum::<f64>() / bandwidth - 1.0).abs() < 1e-6, "the peer spends the bandwidth");
}
