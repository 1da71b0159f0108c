//! Freshlab's binary and harmonic optima against `../shared/reference/crawl_rates.py`, an
//! independent implementation from the papers' closed forms (LambdaCrawl's, with and
//! without per-server caps; it agrees with Microsoft's published code to 1.8e-15). The
//! reference knows one cap for every server; servers with caps of their own (a
//! Crawl-delay, a capacity: issue 46) are checked through the optimum's structure, each
//! part solved by the reference. Skipped, saying so, where ../shared is absent; the
//! reference's numpy is installed into build/peer-venv by `npm test`.
#![cfg(not(target_arch = "wasm32"))]

use freshlab::core::alloc::objective::Objective;
use freshlab::core::alloc::opt::{optimal_for, optimal_within};
use freshlab::core::model::repository::Repository;
use freshlab::core::rng::{Purpose, Stream};
use std::path::{Path, PathBuf};
use std::process::Command;

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reference/crawl_rates.py")
}

/// The Python to run the reference with, or `None` (saying so) where ../shared is absent.
fn python() -> Option<PathBuf> {
    if !reference().exists() {
        eprintln!("skipped: {} is absent, so there is no reference to compare with", reference().display());
        return None;
    }
    let python = std::env::var_os("FRESHLAB_PEER_PYTHON").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("build/peer-venv/bin/python"));
    assert!(
        python.exists(),
        "the reference needs Python with numpy at {}: run `npm test` (it makes that virtual environment with pip) or set FRESHLAB_PEER_PYTHON",
        python.display()
    );
    Some(python)
}

/// The reference's optimum of the pages `pages` of `repo` at `bandwidth`, one cap for
/// every server or none.
fn reference_rates(python: &Path, repo: &Repository, pages: &[usize], objective: Objective, bandwidth: f64, cap: Option<f64>, name: &str) -> Vec<f64> {
    // one file a call: the tests run on several threads of one process
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("freshlab-crawl-rates-{}-{call}-{name}.csv", std::process::id()));
    let mut csv = String::from("page,server,change_rate,weight\n");
    for &i in pages {
        // `{}` writes the shortest decimal that reads back to the same f64
        csv += &format!("p{i},s{},{},{}\n", repo.server_of(i), repo.lambda[i], repo.weight(i));
    }
    std::fs::write(&file, csv).unwrap();
    let mut command = Command::new(python);
    command.arg(reference()).arg(&file).args(["--bandwidth", &bandwidth.to_string(), "--objective", if objective == Objective::Harmonic { "harmonic" } else { "binary" }]);
    if let Some(cap) = cap {
        command.args(["--cap", &cap.to_string()]);
    }
    let out = command.output().expect("the reference's Python starts");
    std::fs::remove_file(&file).ok();
    assert!(out.status.success(), "the reference failed: {}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    json["rates"].as_array().unwrap().iter().map(|v| v.as_f64().unwrap()).collect()
}

/// `servers` servers of 20 to 300 pages from test stream `k`: importances in f32 (as
/// Freshlab stores them), change rates log-uniform over four decades.
fn pages(k: u64, servers: usize) -> Repository {
    let mut s = Stream::of(2019, Purpose::Test, k);
    let mut server_start = vec![0];
    for _ in 0..servers {
        server_start.push(server_start.last().unwrap() + 20 + (s.uniform() * 280.0) as usize);
    }
    let n = *server_start.last().unwrap();
    let weight: Vec<f32> = (0..n).map(|_| s.uniform_in(0.1, 10.0) as f32).collect();
    let lambda: Vec<f64> = (0..n).map(|_| 10f64.powf(s.uniform_in(-2.0, 2.0))).collect();
    Repository { lambda, weight: Some(weight), server_start, observed: None }
}

fn assert_close(ours: &[f64], theirs: &[f64], pages: &[usize], what: &str) {
    assert_eq!(theirs.len(), pages.len(), "{what}");
    for (&i, &r) in pages.iter().zip(theirs) {
        let f = ours[i];
        assert!((f - r).abs() <= 1e-9 * r.max(1e-12), "{what}, page {i}: Freshlab {f}, the reference {r}");
    }
}

const OBJECTIVES: [Objective; 2] = [Objective::Harmonic, Objective::Binary];

/// Without caps, and with one cap 1/P for every server that holds some of them (the
/// thesis's OPT_POLITE under LambdaCrawl's objectives).
#[test]
fn optima_with_and_without_one_cap_agree_with_the_reference() {
    let Some(python) = python() else { return };
    let repo = pages(0, 12);
    let all: Vec<usize> = (0..repo.pages()).collect();
    let bandwidth = 0.3 * repo.lambda.iter().sum::<f64>();
    for objective in OBJECTIVES {
        let (free, kkt) = optimal_for(objective, &repo, bandwidth, None);
        assert!(kkt.worst() < 1e-10, "{objective:?}: {kkt:?}");
        assert_close(&free, &reference_rates(&python, &repo, &all, objective, bandwidth, None, "free"), &all, &format!("{objective:?} without caps"));
        // a cap a little over the mean server's share: some servers held, others not
        let cap = 1.5 * bandwidth / repo.servers() as f64;
        let (polite, kkt) = optimal_for(objective, &repo, bandwidth, Some(1.0 / cap));
        assert!(kkt.worst() < 1e-10, "{objective:?}: {kkt:?}");
        let held = (0..repo.servers()).filter(|&s| polite[repo.server_pages(s)].iter().sum::<f64>() >= cap * (1.0 - 1e-9)).count();
        assert!(held > 0 && held < repo.servers(), "{objective:?}: {held} servers held, the case needs some and not all");
        assert_close(&polite, &reference_rates(&python, &repo, &all, objective, bandwidth, Some(cap), "polite"), &all, &format!("{objective:?} with cap {cap}"));
    }
}

/// The multiplier ν a page's optimal rate ρ > 0 says (∂cost/∂ρ at ρ, the closed forms
/// inverted): harmonic μδ/(ρ(ρ + δ)), binary μδ/(ρ + δ)².
fn multiplier(objective: Objective, weight: f64, lambda: f64, rate: f64) -> f64 {
    if objective == Objective::Harmonic { weight * lambda / (rate * (rate + lambda)) } else { weight * lambda / ((rate + lambda) * (rate + lambda)) }
}

/// Each server with its own cap (as the crawlers experiment's MERGE has: the least of
/// 1/P, its Crawl-delay's and its capacity's). The optimum then splits in two: each
/// server held at its cap spends exactly its cap as it would alone, and the servers not
/// held share the rest as if there were no caps, each under its own. So the reference,
/// run on each held server alone at its cap and on the others together at what is
/// left, must give Freshlab's rates; and a held server's multiplier must be at least
/// the others' (holding it back is what its cap costs).
#[test]
fn optima_with_each_servers_own_cap_agree_with_the_reference_part_by_part() {
    let Some(python) = python() else { return };
    let repo = pages(1, 10);
    let bandwidth = 0.3 * repo.lambda.iter().sum::<f64>();
    let mut s = Stream::of(2019, Purpose::Test, 2);
    // caps from a third to three times the mean share, and one server without any
    let mut caps: Vec<f64> = (0..repo.servers()).map(|_| bandwidth / repo.servers() as f64 * 10f64.powf(s.uniform_in(-0.5, 0.5))).collect();
    caps[3] = f64::INFINITY;
    for objective in OBJECTIVES {
        let (f, kkt) = optimal_within(objective, &repo, bandwidth, &caps);
        assert!(kkt.worst() < 1e-10, "{objective:?}: {kkt:?}");
        let sum = |s: usize| f[repo.server_pages(s)].iter().sum::<f64>();
        let held: Vec<usize> = (0..repo.servers()).filter(|&s| sum(s) >= caps[s] * (1.0 - 1e-9)).collect();
        assert!(!held.is_empty() && held.len() < repo.servers() - 1, "{objective:?}: held {held:?}, the case needs some and not all");
        let mut held_multipliers = Vec::new();
        for &s in &held {
            let pages: Vec<usize> = repo.server_pages(s).collect();
            let theirs = reference_rates(&python, &repo, &pages, objective, caps[s], None, &format!("held{s}"));
            assert_close(&f, &theirs, &pages, &format!("{objective:?}, server {s} held at {}", caps[s]));
            let k = theirs.iter().position(|&r| r > 0.0).unwrap();
            held_multipliers.push(multiplier(objective, repo.weight(pages[k]), repo.lambda[pages[k]], theirs[k]));
        }
        let free: Vec<usize> = (0..repo.servers()).filter(|s| !held.contains(s)).flat_map(|s| repo.server_pages(s)).collect();
        let rest = bandwidth - held.iter().map(|&s| caps[s]).sum::<f64>();
        let theirs = reference_rates(&python, &repo, &free, objective, rest, None, "free");
        assert_close(&f, &theirs, &free, &format!("{objective:?}, the servers not held, at {rest}"));
        for s in (0..repo.servers()).filter(|s| !held.contains(s)) {
            assert!(sum(s) <= caps[s] * (1.0 + 1e-12), "{objective:?}: server {s} not held passes its cap");
        }
        let k = theirs.iter().position(|&r| r > 0.0).unwrap();
        let global = multiplier(objective, repo.weight(free[k]), repo.lambda[free[k]], theirs[k]);
        for (&s, &m) in held.iter().zip(&held_multipliers) {
            assert!(m >= global * (1.0 - 1e-9), "{objective:?}: server {s} is held with multiplier {m} under the others' {global}");
        }
    }
}
