//! The fuzzer (issue 13): every experiment's configuration mutated (`cases.rs`), run
//! through parsing, validation and the cost model; the cases whose estimate is small
//! are run to the end, each in a worker process under a time and memory limit, with
//! its peak memory and work measured against the estimate.
//!
//! `cargo test --test fuzz` runs the CI campaign (3,000 cases, seed 1, a few minutes);
//! `npm run fuzz -- --cases 1000000` the long one. Settings (environment):
//! FRESHLAB_FUZZ_CASES, _SEED, _JOBS (worker processes), _TIMEOUT (seconds a case may
//! take), _RUN_SECONDS (largest estimated time of a case that is run), _MEMORY (bytes a
//! worker may address), _SUMMARY (a file for the summary as JSON).
#![cfg(not(target_arch = "wasm32"))]

mod cases;
mod commands;

#[path = "../common/counting.rs"]
mod counting;

use cases::{case, describe, silent_change};
use freshlab::chart::draw::figure_svg;
use freshlab::chart::theme::DrawOptions;
use freshlab::core::limits;
use freshlab::experiments::{Config, config_from_value, start};
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

fn setting(name: &str, default: f64) -> f64 {
    std::env::var(format!("FRESHLAB_FUZZ_{name}")).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What became of one case.
fn outcome(seed: u64, k: u64, run_seconds: f64) -> serde_json::Value {
    outcome_of(case(seed, k), k, run_seconds)
}

/// Replays one case of a campaign, `FRESHLAB_FUZZ_REPLAY=experiment:k` (the experiment
/// its number named when it was found; `npm run fuzz -- --replay experiment:k`): prints
/// it and what becomes of it.
#[test]
#[ignore = "replays one case, named by FRESHLAB_FUZZ_REPLAY"]
fn replay() {
    let Ok(named) = std::env::var("FRESHLAB_FUZZ_REPLAY") else { return };
    let (experiment, k) = named.split_once(':').expect("experiment:k");
    let experiment = freshlab::experiments::NAMES.iter().find(|n| **n == experiment).expect("a registered experiment");
    let k: u64 = k.parse().expect("a case number");
    let case = cases::case_of(setting("SEED", 1.0) as u64, k, experiment);
    freshlab::core::parallel::set_threads(1);
    println!("{}", describe(&case));
    println!("{}", outcome_of(case, k, setting("RUN_SECONDS", 60.0)));
}

fn outcome_of(case: cases::Case, k: u64, run_seconds: f64) -> serde_json::Value {
    let experiment = case.experiment;
    let config: Config = match config_from_value(case.config.clone()) {
        Ok(c) => c,
        Err(e) => return json!({"k": k, "experiment": experiment, "outcome": "refused", "stage": "parse", "field": e.field, "message": e.message}),
    };
    // what was asked is what runs: every field given as given, every other the default
    if let Some(change) = silent_change(experiment, &case.config, &serde_json::to_value(&config).expect("configs serialise")) {
        return json!({"k": k, "experiment": experiment, "outcome": "silent_change", "message": change});
    }
    // the page checks every edit on its main thread: the cost and the checks must be
    // cheap whatever the input, valid or not — under 50 ms of the thread's CPU time, as
    // the end-to-end tests judge the page's tasks (the test layers' builds run beside the
    // campaign on two cores: they stretched bursty's 15 ms check to 56 ms of wall clock,
    // CI 2026-12-03, not its CPU time)
    // — as the page checks it: a pilot the cost needs (bursty's GREEDY counts) runs in
    // its worker, and the form sends its key alone until the worker answers
    let as_the_page_checks = awaiting_its_pilot(&with_files_as_the_form_holds(config.clone()));
    let checking = thread_cpu_seconds();
    as_the_page_checks.cost();
    let checked = as_the_page_checks.validate(&limits::NATIVE);
    let check_seconds = thread_cpu_seconds() - checking;
    let cost = config.cost();
    if check_seconds > 0.05 {
        return json!({"k": k, "experiment": experiment, "outcome": "slow_check", "cpu_seconds": check_seconds});
    }
    if let Err(e) = checked {
        return json!({"k": k, "experiment": experiment, "outcome": "refused", "stage": "validate", "field": e.field, "message": e.message});
    }
    if cost.seconds > run_seconds || cost.bytes > 512e6 {
        return json!({"k": k, "experiment": experiment, "outcome": "skipped", "seconds": cost.seconds, "bytes": cost.bytes});
    }
    let base = counting::mark();
    let started = Instant::now();
    let mut job = match start(config) {
        Ok(job) => job,
        // a page list or trace is read when the job starts: its real size may refuse it
        Err(e) => return json!({"k": k, "experiment": experiment, "outcome": "refused", "stage": "start", "field": e.field, "message": e.message}),
    };
    while !job.done() {
        job.advance(1 << 16);
    }
    let work = job.work();
    let output = job.finish();
    let peak = counting::peak_since(base) as f64;
    // every figure is drawn (plotters hung on axes it cannot mark): it must finish or
    // say in its frame why it cannot be drawn
    for figure in output.figures() {
        figure_svg(&figure, 640, 400, &DrawOptions::default()).map_err(|e| format!("figure {}: {e}", figure.title)).expect("every figure draws");
    }
    drop(output);
    let seconds = started.elapsed().as_secs_f64();
    // within its estimate both ways (issue 45): memory never below the peak (a run of a
    // few MB has the allocator's and the output's constant besides: 2 MB), nor more than
    // 1.5× above it where the peak is large enough to say (20 MB); the work within 2×;
    // a run over a second within 2× of its time — judged by `npm run fuzz` on a quiet
    // machine (FRESHLAB_FUZZ_JUDGE_TIME), not in the test layers, whose builds run beside
    // them (performance is shown by benchmarks, not by timed tests)
    // — the estimate on this machine, as the CLI and the page give it (the cost model's
    // seconds are the reference machine's: compared unscaled, a machine twice as slow
    // read every estimate at the edge, 0.5)
    let judge_time = std::env::var("FRESHLAB_FUZZ_JUDGE_TIME").is_ok();
    let estimated_seconds = cost.clone().on_this_machine().seconds;
    let outcome = if peak > cost.bytes + 2e6 || work > 2.0 * cost.work + 1e4 {
        "over_estimate"
    } else if (peak > 20e6 && cost.bytes > 1.5 * peak) || (judge_time && seconds > 1.0 && !(0.5..=2.0).contains(&(estimated_seconds / seconds))) {
        "estimate_off"
    } else {
        "ran"
    };
    json!({"k": k, "experiment": experiment, "outcome": outcome, "peak": peak, "bytes": cost.bytes, "work": work, "estimated_work": cost.work, "seconds": seconds, "estimated_seconds": estimated_seconds})
}

/// A history's files as the page's form checks them (views/history.js, `heads`): each
/// its size and its pages as the worker counted them while it loaded the file, where
/// its head cannot tell them (wasm `PageCounter`), and the first characters (256 K, 256 K
/// over all) of every k-th file, at most 64 of them; the others unsampled, together by
/// kind (pages counted or not, WARC or not), a few entries. The page
/// never checks a whole text on its main thread: a case of 10,000 crawl.logs given
/// inline took 1.6 s counted here (and, as the page held them, 0.12 s: it now samples).
fn with_files_as_the_form_holds(config: Config) -> Config {
    use freshlab::core::model::history::Format;
    use freshlab::experiments::history::config::{RecordFile, floor_char};
    use freshlab::experiments::history::cost::{counted_format, counted_together};
    let Config::History(mut history) = config else { return config };
    let several = history.files.len() > 1;
    let every = history.files.len().div_ceil(64).max(1);
    let room = ((256usize << 10) / history.files.len().div_ceil(every).max(1)).clamp(4096, 256 * 1024);
    // the texts the page's worker holds, their pages counted together as it loads them
    let held = |f: &RecordFile| f.bytes.is_none() && !f.warc;
    let formats: Vec<Option<Format>> =
        history.files.iter().map(|f| held(f).then(|| counted_format(&f.text[..floor_char(&f.text, 1 << 20)], f.text.len() as f64, Format::Auto, several)).flatten()).collect();
    let counted = counted_together(&formats, |k, count| count.feed(&history.files[k].text));
    for (k, file) in history.files.iter_mut().enumerate().filter(|(_, f)| held(f)) {
        let bytes = file.text.len() as u64;
        file.pages = counted[k].or(file.pages);
        file.text.truncate(if k % every == 0 { floor_char(&file.text, room) } else { 0 });
        file.unsampled = k % every != 0;
        file.bytes = Some(bytes);
    }
    let (rest, mut files): (Vec<_>, Vec<_>) = std::mem::take(&mut history.files).into_iter().partition(|f| f.unsampled);
    let mut kinds: Vec<RecordFile> = Vec::new();
    for file in rest {
        let kind = |f: &RecordFile| (f.pages.is_some(), f.warc);
        match kinds.iter_mut().find(|k| kind(k) == kind(&file)) {
            Some(group) => {
                group.bytes = Some(group.bytes.unwrap_or(0) + file.bytes.unwrap_or(0));
                group.pages = group.pages.map(|p| p + file.pages.unwrap_or(0.0));
            }
            None => kinds.push(file),
        }
    }
    files.extend(kinds);
    history.files = files;
    Config::History(history)
}

/// The configuration as the page's form sends it while its worker runs the pilot the
/// cost needs: the pilot's field holds its key alone.
fn awaiting_its_pilot(config: &Config) -> Config {
    let Some(want) = config.pilot_key() else { return config.clone() };
    let mut json = serde_json::to_value(config).expect("configs serialise");
    json[want.field] = json!({ "key": want.key });
    config_from_value(json).expect("a pilot's key is a valid field")
}

/// The CPU time this thread has used, in seconds.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec for the call to fill in
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    assert_eq!(status, 0, "the thread's CPU clock");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// Elsewhere, the wall clock since the first call (a busy machine stretches it).
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn thread_cpu_seconds() -> f64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// A worker process: runs the cases it is given, one line per case started and ended.
#[test]
#[ignore = "the fuzz campaign's worker process, started by fuzz_campaign"]
fn worker() {
    let Ok(range) = std::env::var("FRESHLAB_FUZZ_RANGE") else { return };
    let (from, to) = range.split_once('-').map(|(a, b)| (a.parse::<u64>().unwrap(), b.parse::<u64>().unwrap())).expect("a range a-b");
    let (seed, run_seconds) = (setting("SEED", 1.0) as u64, setting("RUN_SECONDS", 0.05));
    // one thread a case: the estimates are of one thread's time, and the campaign's
    // worker processes share the cores (a parallel run's wall time would depend on
    // whether the other worker is busy)
    freshlab::core::parallel::set_threads(1);
    // the speed probe a check near the limits makes runs once a process (the page runs
    // its probes in idle tasks, never in a check): made here, not in a case's check time
    freshlab::core::speed::slowness();
    std::panic::set_hook(Box::new(|_| {}));
    let mut out = std::io::stdout().lock();
    for k in from..to {
        writeln!(out, "start {k}").unwrap();
        out.flush().unwrap();
        let line = match std::panic::catch_unwind(|| outcome(seed, k, run_seconds)) {
            Ok(v) => v.to_string(),
            Err(panic) => {
                let message = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
                json!({"k": k, "experiment": experiment_of(k), "outcome": "panic", "message": message}).to_string()
            }
        };
        writeln!(out, "done {line}").unwrap();
        out.flush().unwrap();
    }
}

/// A worker for cases from..to, limited to `memory` bytes of address space.
fn spawn(from: u64, to: u64, memory: f64) -> (Child, mpsc::Receiver<String>) {
    let exe = std::env::current_exe().expect("this test's binary");
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec \"$0\" \"$@\"", (memory / 1024.0) as u64))
        .arg(exe)
        .args(["--ignored", "--exact", "worker", "--nocapture", "--test-threads", "1"])
        .env("FRESHLAB_FUZZ_RANGE", format!("{from}-{to}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the worker starts");
    let (send, receive) = mpsc::channel();
    let stdout = child.stdout.take().expect("piped");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if send.send(line).is_err() {
                break;
            }
        }
    });
    (child, receive)
}

/// Runs cases from..to in workers, restarting one after a hang or a crash; returns every
/// case's outcome.
fn campaign(from: u64, to: u64, timeout: Duration, memory: f64) -> Vec<serde_json::Value> {
    let mut results = Vec::new();
    let mut next = from;
    while next < to {
        let (mut child, lines) = spawn(next, to, memory);
        let mut current = None;
        loop {
            match lines.recv_timeout(timeout) {
                Ok(line) if line.starts_with("start ") => current = line[6..].parse::<u64>().ok(),
                Ok(line) if line.starts_with("done ") => {
                    let v: serde_json::Value = serde_json::from_str(&line[5..]).expect("a worker's JSON line");
                    next = v["k"].as_u64().expect("k") + 1;
                    results.push(v);
                    current = None;
                }
                Ok(_) => {}
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let k = current.unwrap_or(next);
                    let _ = child.kill();
                    let _ = child.wait();
                    results.push(json!({"k": k, "experiment": experiment_of(k), "outcome": "hang", "message": format!("no answer in {} s", timeout.as_secs())}));
                    next = k + 1;
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = child.wait().expect("the worker ends");
                    let mut stderr = String::new();
                    if let Some(mut e) = child.stderr.take() {
                        let _ = std::io::Read::read_to_string(&mut e, &mut stderr);
                    }
                    if let Some(k) = current {
                        let kind = if stderr.contains("memory allocation") || stderr.contains("out of memory") { "oom" } else { "crash" };
                        let tail: String = stderr.lines().rev().take(3).collect::<Vec<_>>().join(" | ");
                        results.push(json!({"k": k, "experiment": experiment_of(k), "outcome": kind, "message": format!("{status}: {tail}")}));
                        next = k + 1;
                    } else if !status.success() && next < to {
                        panic!("a worker failed outside any case ({status}): {stderr}");
                    }
                    break;
                }
            }
        }
    }
    results
}

/// The command-line campaign (issue 45): random sweeps (merged from shards, and a merge
/// of a tampered point refused), and policies runs split in parts and joined.
/// FRESHLAB_FUZZ_COMMANDS cases (60 in the CI).
#[test]
fn fuzz_commands() {
    let cases = setting("COMMANDS", 60.0) as u64;
    let seed = setting("SEED", 1.0) as u64;
    let dir = std::env::temp_dir().join(format!("freshlab-fuzz-commands-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let mut outcomes: std::collections::BTreeMap<String, u64> = Default::default();
    for k in 0..cases {
        let result = if k % 4 == 3 { commands::parts_case(seed, k, &dir) } else { commands::command_case(seed, k, &dir) };
        match result {
            Ok(what) => {
                *outcomes
                    .entry(if k % 4 == 3 {
                        "parts joined".into()
                    } else if what.starts_with("refused") {
                        "sweep refused with a message".into()
                    } else {
                        "sweep complete".into()
                    })
                    .or_default() += 1
            }
            Err(e) => failures.push(e),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("FUZZ-COMMANDS {}", json!({"cases": cases, "seed": seed, "outcomes": outcomes, "failures": failures.len()}));
    assert!(failures.is_empty(), "{} failing command case(s):\n{}", failures.len(), failures.join("\n"));
}

/// The check of what runs would have seen issue 45's silent change: `--repository.top-share
/// 0.6` had given learning the generator's own repository defaults, not learning's.
#[test]
fn a_silent_change_is_seen() {
    use freshlab::core::model::webbase::RepositoryConfig;
    let asked = json!({"experiment": "learning", "repository": {"top_share": 0.6}});
    let mut ran = serde_json::to_value(freshlab::experiments::registry::defaults("learning").unwrap()).unwrap();
    ran["repository"] = serde_json::to_value(RepositoryConfig { top_share: 0.6, ..Default::default() }).unwrap();
    let change = silent_change("learning", &asked, &ran).expect("seen");
    assert!(change.contains("repository.pages asked 2000, runs 10000"), "{change}");
    let accepted = serde_json::to_value(config_from_value(asked.clone()).unwrap()).unwrap();
    assert_eq!(silent_change("learning", &asked, &accepted), None, "and today's configuration is what was asked");
}

/// The experiment case `k` is of (`cases::case`), for a case that crashed or hung: its
/// replay is `npm run fuzz -- --replay experiment:k`.
fn experiment_of(k: u64) -> &'static str {
    freshlab::experiments::NAMES[(k % freshlab::experiments::NAMES.len() as u64) as usize]
}

/// Outcomes by experiment: `{experiment: {outcome: count}}`.
fn by_experiment(results: &[serde_json::Value]) -> serde_json::Value {
    let mut table: std::collections::BTreeMap<String, std::collections::BTreeMap<String, u64>> = Default::default();
    for r in results {
        let experiment = freshlab::experiments::registry::command(experiment_of(r["k"].as_u64().expect("k")));
        *table.entry(experiment).or_default().entry(r["outcome"].as_str().unwrap_or("?").to_string()).or_default() += 1;
    }
    json!(table)
}

#[test]
fn fuzz_campaign() {
    let cases = setting("CASES", 3000.0) as u64;
    let seed = setting("SEED", 1.0) as u64;
    let jobs = setting("JOBS", 2.0).max(1.0) as u64;
    let timeout = Duration::from_secs_f64(setting("TIMEOUT", 10.0));
    let memory = setting("MEMORY", 4.0 * (1u64 << 30) as f64);
    let started = Instant::now();
    // the workers share the cases in contiguous blocks
    let blocks: Vec<(u64, u64)> = (0..jobs).map(|j| (cases * j / jobs, cases * (j + 1) / jobs)).collect();
    let mut results: Vec<serde_json::Value> = std::thread::scope(|scope| {
        blocks.iter().map(|&(a, b)| scope.spawn(move || campaign(a, b, timeout, memory))).collect::<Vec<_>>().into_iter().flat_map(|h| h.join().expect("a campaign")).collect()
    });
    // a run judged on its time ran beside another worker, which shares the cores and the
    // memory bus (the default sensors run, 84 MB: 1.0 s beside one, 0.50 s alone against
    // 0.47 s estimated): it is timed again alone, on the machine's own speed
    for r in results.iter_mut().filter(|r| r["outcome"] == "estimate_off") {
        let k = r["k"].as_u64().expect("a case number");
        if let Some(alone) = campaign(k, k + 1, timeout, memory).pop() {
            *r = alone;
        }
    }
    let count = |kind: &str| results.iter().filter(|r| r["outcome"] == kind).count();
    let failures: Vec<&serde_json::Value> = results.iter().filter(|r| !matches!(r["outcome"].as_str(), Some("refused" | "skipped" | "ran"))).collect();
    let empty_messages = results.iter().filter(|r| r["outcome"] == "refused" && r["message"].as_str().is_none_or(|m| m.trim().is_empty())).count();
    // the runs whose time is judged (over a second), and their estimate ÷ measured time
    let mut timed: Vec<f64> = results
        .iter()
        .filter(|r| matches!(r["outcome"].as_str(), Some("ran" | "estimate_off" | "over_estimate")) && r["seconds"].as_f64().is_some_and(|s| s > 1.0))
        .map(|r| r["estimated_seconds"].as_f64().unwrap_or(f64::NAN) / r["seconds"].as_f64().unwrap_or(f64::NAN))
        .collect();
    timed.sort_by(f64::total_cmp);
    let time_ratios = json!({
        "runs": timed.len(),
        "median": timed.get(timed.len() / 2),
        "lowest": timed.first(),
        "highest": timed.last(),
    });
    let summary = json!({
        "cases": results.len(),
        "seed": seed,
        "refused": count("refused"),
        "skipped_as_too_big_to_run_here": count("skipped"),
        "ran": count("ran"),
        "panics": count("panic") + count("crash"),
        "hangs": count("hang"),
        "out_of_memory": count("oom"),
        "over_estimate": count("over_estimate"),
        "estimate_off": count("estimate_off"),
        "runs_over_a_second": time_ratios,
        "silent_changes": count("silent_change"),
        "by_experiment": by_experiment(&results),
        "slow_checks": count("slow_check"),
        "refusals_without_a_message": empty_messages,
        "seconds": started.elapsed().as_secs_f64(),
        "run_seconds_budget": setting("RUN_SECONDS", 0.05),
        "timeout_seconds": timeout.as_secs_f64(),
        "memory_limit_bytes": memory,
    });
    println!("FUZZ-SUMMARY {summary}");
    if let Ok(path) = std::env::var("FRESHLAB_FUZZ_SUMMARY") {
        std::fs::write(&path, serde_json::to_string_pretty(&json!({"summary": summary, "failures": failures})).unwrap()).expect("the summary file");
    }
    assert_eq!(results.len() as u64, cases, "every case has an outcome");
    let report: Vec<String> = failures.iter().take(20).map(|r| format!("{r}\n    case: {}", describe(&case(seed, r["k"].as_u64().unwrap())))).collect();
    assert!(failures.is_empty() && empty_messages == 0, "{} failing case(s):\n{}", failures.len(), report.join("\n"));
}
