//! The `freshlab` command as a user runs it: outputs, files and error messages.
#![cfg(not(target_arch = "wasm32"))]

use std::process::Command;

fn freshlab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_freshlab")).args(args).output().expect("runs");
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Runs a command that must be refused as a usage error (exit 2); returns its message.
fn refusal(args: &[&str]) -> String {
    let (code, out, err) = freshlab(args);
    assert_eq!(code, 2, "{args:?} was not refused: {out}{err}");
    err
}

/// A fresh directory of this test process's own, named after the test that uses it,
/// removed when dropped (a failing test's too).
fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("freshlab-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

struct Scratch(std::path::PathBuf);

impl std::ops::Deref for Scratch {
    type Target = std::path::PathBuf;
    fn deref(&self) -> &std::path::PathBuf {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

#[test]
fn level_sets_prints_the_minimum_of_the_default_region() {
    let (code, out, _) = freshlab(&["level-sets", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v.as_object().unwrap().len(), 3, "exactly min, r and c: {out}");
    assert!((v["min"].as_f64().unwrap() - 0.927_230_437).abs() < 1e-9);
    assert!((v["r"].as_f64().unwrap() - 1.6374).abs() < 1e-3);
    assert!((v["c"].as_f64().unwrap() - 2.2706).abs() < 1e-3);
}

#[test]
fn certify_prints_the_bound_and_its_region() {
    let (code, out, _) = freshlab(&["certify", "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let lower = v["lower_bound"].as_f64().unwrap();
    assert!(lower > 0.927 && lower <= v["upper_bound"].as_f64().unwrap());
    assert_eq!(v["region"]["r_min"], 0.25);
    assert_eq!(v["region"]["c_max"], 1000.0);
    assert_eq!(v["status"], "converged");
    assert_eq!(v["global_bound"].as_f64().unwrap(), lower);
    assert_eq!(v["tails"].as_array().unwrap().len(), 3);
}

#[test]
fn bursts_prints_the_bound_at_one_excess() {
    let (code, out, _) = freshlab(&["bursts", "--n", "5462", "--x", "160"]);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), "n = 5,462: Pr[X_t > E[X_t] + 160] < 0.0981841");
    let (_, out, _) = freshlab(&["bursts", "--n", "5462", "--x", "160", "--json"]);
    let v = json(&out);
    assert!((v["bound"].as_f64().unwrap() - 0.098_184_127).abs() < 1e-8);
}

#[test]
fn every_command_writes_its_chart_and_data() {
    let dir = scratch("cli");
    for command in ["level-sets", "factor-curves", "bursts", "certify"] {
        let svg = dir.join(format!("{command}.svg"));
        let csv = dir.join(format!("{command}.csv"));
        let (code, _, err) = freshlab(&[command, "--svg", svg.to_str().unwrap(), "--csv", csv.to_str().unwrap(), "--quiet"]);
        assert_eq!(code, 0, "{command}: {err}");
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.starts_with("<svg") && text.contains("</svg>"));
        let data = std::fs::read_to_string(&csv).unwrap();
        assert!(data.lines().count() > 2, "{command}: {data}");
    }
    let (code, _, _) = freshlab(&["bursts", "--n", "5462", "--x", "160", "--svg", dir.join("b.svg").to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(dir.join("b.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn run_reads_the_page_config_and_prints_the_page_result() {
    let dir = scratch("run");
    let config = dir.join("c.json");
    std::fs::write(&config, r#"{"experiment": "factor_curves", "c": 2, "points": 20}"#).unwrap();
    let (code, out, _) = freshlab(&["run", "--config", config.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["experiment"], "factor_curves");
    assert_eq!(v["x"].as_array().unwrap().len(), 20);
    // flags override the file
    let (_, out, _) = freshlab(&["run", "--config", config.to_str().unwrap(), "--points", "30", "--json"]);
    assert_eq!(json(&out)["x"].as_array().unwrap().len(), 30);
    std::fs::write(&config, r#"{"experiment": "factor_curves", "c": "two"}"#).unwrap();
    let err = refusal(&["run", "--config", config.to_str().unwrap()]);
    assert!(err.contains("c (--c): must be a number"), "{err}");
    // a field the page sets itself has no flag to name
    std::fs::write(&config, r#"{"experiment": "certify", "boxes_pilot": {"key": 3}}"#).unwrap();
    let err = refusal(&["run", "--config", config.to_str().unwrap()]);
    assert!(err.contains("boxes_pilot.key: must be a string (got 3)") && !err.contains("--boxes-pilot"), "{err}");
    std::fs::write(&config, "{ not json").unwrap();
    let err = refusal(&["run", "--config", config.to_str().unwrap()]);
    assert!(err.contains("not valid JSON"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_names_the_flag_and_exits_with_2() {
    for (args, expected) in [
        (vec!["level-sets", "--r-min", "-1"], "--r-min: must be greater than 0"),
        (vec!["level-sets", "--r-min", "0"], "--r-min: must be greater than 0"),
        (vec!["level-sets", "--r-min", "abc"], "--r-min: must be a number (got \"abc\")"),
        (vec!["level-sets", "--r-min", "0,5"], "write 0.5 with a decimal point"),
        (vec!["level-sets", "--grid", "-5"], "--grid: must be a whole number from 11 to 1001 (got -5)"),
        (vec!["level-sets", "--c-min", "0.5"], "--c-min: must be at least 1"),
        (vec!["level-sets", "--r-min", "5", "--r-max", "2"], "--r-max: must be greater than r_min"),
        (vec!["level-sets", "--grid", "100000"], "--grid: must be a whole number from 11 to 1001 (got 100000)"),
        (vec!["level-sets", "--levels", "0.9,abc"], "--levels"),
        (vec!["level-sets", "--r-mni", "1"], "--r-mni is not an option of level-sets; did you mean --r-min?"),
        // issue 45: a flag a user can see, a value where one is needed, a field's own choices
        (vec!["learning", "--politeness-secs", "60"], "--politeness-secs is not an option of learning; did you mean --politeness-seconds?"),
        (vec!["allocate", "--capacity"], "--capacity needs a value, e.g. --capacity 400"),
        (vec!["policies", "--crawlers", "heritrix"], "--crawlers (item 1): must be one of nutch, stormcrawler, fixed (got \"heritrix\")"),
        (vec!["bursty", "--generator.rate-min", "0"], "--generator.rate-min: must be at least 0.000001 (got 0)"),
        (vec!["learning", "--repository.pagez", "5"], "did you mean --repository.pages?"),
        (vec!["certify", "--max-boxes", "1000000000"], "GB of memory"),
        (vec!["certify", "--max-boxes", "9223372036854775808"], "GB of memory"),
        (vec!["bursts", "--n", "5462", "--x", "-3"], "--x: must be at least 0"),
        (vec!["bursts", "--n", "0", "--x", "5"], "--n (item 1): must be a whole number from 1 to"),
        (vec!["bursts", "--n", "2.5", "--x", "5"], "--n (item 1): must be a whole number"),
        (vec!["frobnicate"], "unknown command 'frobnicate'"),
        (vec!["run"], "needs --config"),
        (vec!["level-sets", "--svg"], "--svg needs a file name"),
    ] {
        let (code, _, err) = freshlab(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: expected «{expected}» in «{err}»");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn help_lists_every_field_as_a_flag() {
    let (code, out, _) = freshlab(&["certify", "--help"]);
    assert_eq!(code, 0);
    for flag in ["--r-min", "--c-max", "--tolerance", "--max-boxes", "--enclosure"] {
        assert!(out.contains(flag), "{flag} missing from {out}");
    }
    // the values of the fields the core names, with their labels, under their flags
    let (code, out, _) = freshlab(&["learning", "--help"]);
    assert_eq!(code, 0);
    // each flag's label and help (the page's form's), then the values of a select
    let after = |flag: &str| out.lines().skip_while(|l| !l.trim_start().starts_with(flag)).skip(1).take(3).map(str::trim).collect::<Vec<_>>();
    assert_eq!(
        after("--policies"),
        [
            "policies — Nutch and StormCrawler have their intervals scaled until they spend the bandwidth",
            "oracle: oracle (knows the rates)",
            "learn_and_crawl: LambdaLearnAndCrawl"
        ],
        "{out}"
    );
    assert_eq!(after("--objective"), ["objective", "harmonic: harmonic staleness (Poisson crawls)", "binary: binary freshness (Poisson crawls)"], "{out}");
    assert_eq!(after("--repository.pages")[0], "pages (generator) — WEBBASE: 14,500,000", "{out}");
    let (code, out, _) = freshlab(&["help"]);
    assert_eq!(code, 0);
    assert!(out.contains("level-sets") && out.contains("certify") && out.contains("bursty"));
    // the former names still run
    let (code, out, _) = freshlab(&["eq59", "--json"]);
    assert_eq!(code, 0);
    assert!(json(&out)["min"].as_f64().unwrap() > 0.927);
}

/// A classroom repository small enough for a test run.
const SMALL_REPOSITORY: &[&str] = &["--repository.pages", "600", "--repository.servers", "10", "--repository.top-share", "0.3"];

#[test]
fn policies_runs_from_flags_and_prints_the_page_result() {
    let (code, out, err) = freshlab(&[&["policies"], SMALL_REPOSITORY, &["--horizon-days", "30", "--capacities", "0.5", "--crawlers", "[]", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["experiment"], "policies");
    assert_eq!(v["capacities"].as_array().unwrap().len(), 1, "a single value for a list field is a list of one");
    assert_eq!(v["capacities"][0]["curves"].as_array().unwrap().len(), 4);
    assert!(v["done"].as_bool().unwrap());
    // the same config through run --config gives the same object
    let dir = scratch("pol");
    let config = dir.join("p.json");
    std::fs::write(
        &config,
        serde_json::to_string(
            &v["config"].as_object().unwrap().clone().into_iter().chain([("experiment".to_string(), serde_json::json!("policies"))]).collect::<serde_json::Map<_, _>>(),
        )
        .unwrap(),
    )
    .unwrap();
    let (code, again, _) = freshlab(&["run", "--config", config.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&again), v);
    // every figure is written
    let svg = dir.join("rep.svg");
    let (code, _, err) = freshlab(&[&["policies"], SMALL_REPOSITORY, &["--horizon-days", "30", "--crawlers", "nutch", "--svg", svg.to_str().unwrap()]].concat());
    assert_eq!(code, 0, "{err}");
    for name in ["rep.svg", "rep-2.svg", "rep-3.svg", "rep-4.svg"] {
        assert!(dir.join(name).exists(), "{name} missing: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn policies_refuses_what_would_not_fit() {
    let err = refusal(&["policies", "--repository.pages", "300000000"]);
    assert!(err.contains("--repository.pages: must be a whole number from 1 to 100000000 (got 300000000)"), "{err}");
    let err = refusal(&["policies", "--policies", "nutch"]);
    assert!(err.contains("list it under crawlers"), "{err}");
    let err = refusal(&["policies", "--estimator", "psychic"]);
    assert!(err.contains("--estimator") && err.contains("must be one of expected, exact (got \"psychic\")"), "{err}");
}

#[test]
fn per_page_and_channel_run() {
    let (code, out, err) = freshlab(&["per-page", "--points", "3", "--revisits", "200", "--replications", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["simulated"][0]["points"].as_array().unwrap().len(), 3);
    let (code, out, _) = freshlab(&["channel", "--windows", "100"]);
    assert_eq!(code, 0);
    assert!(out.contains("Per-server spacing"));
}

#[test]
fn sensors_runs_from_flags() {
    let (code, out, err) = freshlab(&["sensors", "--pages", "300", "--seed", "7", "--horizon", "100000", "--week", "100000", "--stationary-from", "50000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["experiment"], "sensors");
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    assert_eq!(v["config"]["seed"], 7);
    assert_eq!(v["published"]["max_notifications"], 12);
    let err = refusal(&["sensors", "--ties", "whenever"]);
    assert!(err.contains("--ties"), "{err}");
}

#[test]
fn png_and_json_files_like_the_page_exports() {
    let dir = scratch("png");
    let (png, out) = (dir.join("f.png"), dir.join("f.json"));
    let (code, _, err) = freshlab(&["factor-curves", "--png", png.to_str().unwrap(), "--out", out.to_str().unwrap(), "--width", "500", "--height", "300", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let width = u32::from_be_bytes(bytes[16..20].try_into().unwrap());
    assert_eq!(width, 1000, "2× by default, for slides");
    let v = json(&std::fs::read_to_string(&out).unwrap());
    assert_eq!(v["config"]["experiment"], "factor_curves");
    assert_eq!(v["result"]["experiment"], "factor_curves");
    let err = refusal(&["factor-curves", "--png", png.to_str().unwrap(), "--scale", "9"]);
    assert!(err.contains("--scale"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bursty_replays_a_trace_and_refuses_a_bad_one() {
    let (code, out, err) =
        freshlab(&["bursty", "--trace", concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-trace.csv"), "--politeness-seconds", "7200", "--fractions", "0.5,1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["experiment"], "bursty");
    assert_eq!(v["trace"]["articles"], 20);
    assert_eq!(v["trace"]["changes"], 6707);
    assert_eq!(v["points"].as_array().unwrap().len(), 12, "six policies at two rates");
    assert!(v["config"]["trace"].is_null(), "the result does not repeat the trace");
    let dir = scratch("trace");
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "page,timestamp\nA,2007-01-01T00:00Z\nA,2006-01-01T00:00Z\n").unwrap();
    let err = refusal(&["bursty", "--trace", bad.to_str().unwrap()]);
    assert!(err.contains("line 3: is earlier than line 2 for page “A”; sort each page's rows by time"), "{err}");
    // Wikipedia revisions read by history, written as a trace with --trace-out, replayed
    let trace = dir.join("wiki-trace.csv");
    let pages = dir.join("wiki-pages.csv");
    let revisions = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-revisions.xml");
    let (code, _, err) = freshlab(&["history", revisions, "--trace-out", trace.to_str().unwrap(), "--out", pages.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = freshlab(&["bursty", "--trace", trace.to_str().unwrap(), "--fractions", "0.5", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["trace"]["articles"], 15);
    // its page list in the trace's place: said where the trace is
    let err = refusal(&["bursty", "--trace", pages.to_str().unwrap()]);
    assert!(err.contains("this is a page list of rates; a history of Wikipedia revisions writes its trace with freshlab history FILE --trace-out"), "{err}");
    // records that give no trace: the flag fails, saying what it writes
    let none = dir.join("none.csv");
    let (code, _, err) = freshlab(&["history", concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-captures.cdx"), "--trace-out", none.to_str().unwrap(), "--quiet"]);
    assert!(code != 0 && err.contains("--trace-out: the run wrote no such file (the flag writes MediaWiki revisions as a change trace") && !none.exists(), "{err}");
    let (code, out, _) = freshlab(&["trace", "--generator.articles", "2", "--generator.days", "30", "--generator.min-changes-per-year", "300"]);
    assert_eq!(code, 0);
    assert!(out.starts_with("page,timestamp\nArticle 1,2007-01-"), "{out}");
}

#[test]
fn partition_runs_from_flags_and_refuses_bad_robot_counts() {
    let (code, out, err) = freshlab(&["partition", "--web.hosts", "120", "--web.ips", "30", "--web.mean-pages", "12", "--web.max-pages", "400", "--robots", "2,4", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["experiment"], "partition");
    assert_eq!(v["points"].as_array().unwrap().len(), 2 * 2 * 2, "two robot counts, two schemes, two politeness policies");
    assert!(v["points"].as_array().unwrap().iter().all(|p| p["violations"] == 0));
    assert_eq!(v["comparisons"].as_array().unwrap().len(), 16);
    let err = refusal(&["partition", "--robots", "2,500"]);
    assert!(err.contains("--robots (item 2): must be a whole number from 1 to 100 (got 500)"), "{err}");
    let err = refusal(&["partition", "--schemes", "hash_everything"]);
    assert!(err.contains("hash_everything"), "{err}");
    let (code, out, _) = freshlab(&["partition", "--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("--thesis") && out.contains("--web.max-pages"), "{out}");
}

/// Issue 12: the textbook case from the researcher's guide runs in one line, and a page list feeds both
/// `allocate` and `policies`; a bad list is refused with its line.
#[test]
fn allocate_reads_a_page_list_and_policies_runs_on_it() {
    let dir = scratch("alloc");
    let five = dir.join("five.csv");
    std::fs::write(&five, "page,server,change_rate\ne1,s,1\ne2,s,2\ne3,s,3\ne4,s,4\ne5,s,5\n").unwrap();
    let (code, out, err) = freshlab(&["allocate", "--repository", five.to_str().unwrap(), "--capacity", "5", "--politeness-seconds", "0", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    for name in ["uniform", "proportional", "opt_unpolite", "opt_polite"] {
        assert_eq!(v[name]["frequencies"].as_array().unwrap().len(), 5, "{name}");
        assert!(v[name]["freshness"].as_f64().unwrap() > 0.3, "{name}");
    }
    let f: Vec<f64> = v["opt_unpolite"]["frequencies"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!((f[1] - 1.36).abs() < 0.005 && f[4] == 0.0, "{f:?}");
    // the shipped sample page list runs through the policies experiment
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-pages.csv");
    let (code, out, err) = freshlab(&["policies", "--repository", sample, "--horizon-days", "60", "--crawlers", "[]", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert!(v["capacities"][0]["capped"]["servers"].as_u64().unwrap() > 0, "the sample caps a server at 1 %");
    assert_eq!(v["page_names"].as_array().unwrap().len() as u64, v["repository"]["pages"].as_u64().unwrap());
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "page,server,change_rate\na,s,-2\n").unwrap();
    let err = refusal(&["allocate", "--repository", bad.to_str().unwrap(), "--capacity", "5"]);
    assert!(err.contains("line 2: change_rate must be a finite number ≥ 0"), "{err}");
}

/// Issue 17: `allocate --objective binary|harmonic` gives each allocation's freshness
/// (and for harmonic its cost) with the frequencies in the file's order; the optimum
/// under each objective is best under that objective; an unknown objective is named.
#[test]
fn allocate_takes_the_objective() {
    let dir = scratch("objective");
    let list = dir.join("pages.csv");
    std::fs::write(&list, "page,server,change_rate,weight\nz,s2,10,1\na,s1,1,1\nb,s1,2,1\nc,s1,0.5,2\nd,s2,1,1\n").unwrap();
    let run = |objective: &str| {
        let (code, out, err) =
            freshlab(&["allocate", "--repository", list.to_str().unwrap(), "--capacity", "4", "--politeness-seconds", "43200", "--objective", objective, "--json"]);
        assert_eq!(code, 0, "{objective}: {err}");
        json(&out)
    };
    let binary = run("binary");
    assert_eq!(binary["config"]["objective"], "binary");
    let fresh = |v: &serde_json::Value, k: &str| v[k]["freshness"].as_f64().unwrap();
    for other in ["uniform", "proportional"] {
        assert!(fresh(&binary, "opt_polite") >= fresh(&binary, other), "binary: OPT_POLITE beats {other}");
    }
    assert!(fresh(&binary, "opt_unpolite") >= fresh(&binary, "opt_polite"));
    let harmonic = run("harmonic");
    let cost = |k: &str| harmonic[k]["cost"].as_f64().unwrap();
    for other in ["uniform", "proportional"] {
        assert!(cost("opt_polite") <= cost(other), "harmonic: OPT_POLITE costs least, not more than {other}");
    }
    assert_eq!(harmonic["opt_polite"]["starved"], 0, "harmonic staleness starves no page");
    let f = harmonic["opt_unpolite"]["frequencies"].as_array().unwrap();
    assert_eq!(f.len(), 5);
    assert!(f[0].as_f64().unwrap() > f[4].as_f64().unwrap(), "file order: z (λ = 10) is first and crawled more than d (λ = 1)");
    let freshness = run("freshness");
    assert!(freshness["opt_polite"].get("cost").is_none(), "no cost under freshness");
    // the configuration names its objective, so the page's form starts from it (an
    // export from before, without it, still reads as freshness)
    assert_eq!(freshness["config"]["objective"], "freshness");
    let err = refusal(&["allocate", "--objective", "cheapest"]);
    assert!(err.contains("--objective") && err.contains("freshness, binary, harmonic"), "{err}");
}

/// Issue 13's reproducers for the bursty experiment: each exits 0 (or 2 with a message)
/// instead of panicking or looping.
#[test]
fn inputs_that_passed_validation_no_longer_panic_or_hang() {
    for args in [
        &["bursty", "--fractions", "0.0001", "--json"][..],
        &["bursty", "--politeness-seconds", "2592000", "--json"],
        &["bursty", "--generator.burstiness", "0", "--json"],
        &["bursty", "--training-days", "0.01", "--json"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--generator.articles", "20", "--policies", "merge,merge2,unpolite,random"]);
        let (code, _, err) = freshlab(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    let (code, _, err) = freshlab(&["trace", "--generator.rate-min", "1e-306"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rate-min") || err.contains("rate_min"), "{err}");
    let dir = scratch("13");
    let trace = dir.join("t.csv");
    std::fs::write(&trace, "A,1167609600\nA,1167609700\n").unwrap();
    let (code, _, err) = freshlab(&["bursty", "--trace", trace.to_str().unwrap(), "--policies", "merge,merge2,random", "--json"]);
    assert_eq!(code, 0, "{err}");
}

/// Issue 13's reproducers, verbatim: each exits 0 or 2 (with a message naming a field)
/// within a minute and under 4 GB of address space — never a panic, a hang or a
/// runaway allocation.
#[test]
fn every_reproducer_of_issue_13_exits_cleanly_within_limits() {
    let dir = scratch("repro");
    let trace = dir.join("t.csv");
    std::fs::write(&trace, "A,1167609600\nA,1167609700\n").unwrap();
    let yesterday = dir.join("y.csv");
    std::fs::write(&yesterday, "A,yesterday\nA,1167609700\n").unwrap();
    let svg = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let schemes = vec!["hash_host"; 10_000].join(",");
    let t = trace.to_str().unwrap();
    let cases: Vec<(Vec<String>, &[i32], &str)> = vec![
        (vec!["wikipedia".into(), "--trace".into(), t.into()], &[0], ""),
        (vec!["wikipedia".into(), "--politeness-seconds".into(), "2592000".into()], &[0], ""),
        (vec!["wikipedia".into(), "--fractions".into(), "0.0001".into()], &[0], ""),
        (vec!["wikipedia".into(), "--training-days".into(), "0.01".into()], &[0], ""),
        (vec!["wikipedia".into(), "--generator.burstiness".into(), "0".into()], &[0], ""),
        (vec!["trace".into(), "--generator.rate-min".into(), "1e-306".into()], &[2], "rate-min"),
        (vec!["factors".into(), "--log-x".into(), "--x-min".into(), "1e-308".into(), "--svg".into(), svg("f.svg")], &[0], ""),
        (vec!["eq59".into(), "--log-r".into(), "--r-min".into(), "1e-308".into(), "--svg".into(), svg("e.svg")], &[0, 2], ""),
        (vec!["per-page".into(), "--x-min".into(), "1e-308".into(), "--svg".into(), svg("p.svg")], &[0, 2], ""),
        (vec!["policies".into(), "--horizon-days".into(), "5e-324".into(), "--svg".into(), svg("h.svg")], &[0, 2], ""),
        (vec!["partition".into(), "--download.bandwidth-kb-s".into(), "1e-308".into(), "--svg".into(), svg("d.svg")], &[0, 2], ""),
        // 7.9 G requests: refused for memory while every fetch of the followed article was
        // kept (63 GB); with one mark a 4,000th of the period, about 5 minutes and 72 KB,
        // accepted (its estimate, here)
        (
            vec!["wikipedia", "--generator.articles", "1", "--politeness-seconds", "0.001", "--policies", "merge", "--fractions", "1", "--estimate"]
                .into_iter()
                .map(String::from)
                .collect(),
            &[0],
            "",
        ),
        // since the downloads' intervals are kept a slice at a time, a long horizon costs
        // time (about 18 min here), not memory: its estimate is accepted; many pages are refused
        (vec!["sensors".into(), "--horizon".into(), "5000000000".into(), "--estimate".into()], &[0], ""),
        (vec!["sensors".into(), "--pages".into(), "50000000".into()], &[2], "GB, more than the 17.2 GB this program allows"),
        (vec!["sensors".into(), "--week".into(), "1".into(), "--changes-per-week".into(), "0".into()], &[2], "--horizon"),
        (
            vec![
                "partition",
                "--web.hosts",
                "2",
                "--web.ips",
                "1",
                "--web.community-size",
                "2",
                "--web.mean-pages",
                "1.5",
                "--web.max-pages",
                "10000000",
                "--web.links-per-page",
                "1000",
                "--robots",
                "2",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            &[2],
            "--web.max-pages",
        ),
        (vec!["partition".into(), "--schemes".into(), schemes], &[2], "--schemes (item 2): repeats item 1"),
        (vec!["bursts".into(), "--x".into(), "5".into(), "--n".into(), "0".into()], &[2], "--n (item 1)"),
        (vec!["bursts".into(), "--x".into(), "5".into(), "--n".into(), "2.5".into()], &[2], "--n (item 1)"),
        (vec!["bursty".into(), "--trace".into(), t.into(), "--source".into(), "generator".into()], &[2], "--trace: is given but source is generator"),
        (vec!["bursty".into(), "--trace".into(), yesterday.to_str().unwrap().into()], &[2], "line 1: “yesterday”"),
        (vec!["channel".into(), "--capacity".into(), "5e-324".into()], &[2], "--capacity"),
        (vec!["certify".into(), "--max-boxes".into(), "9223372036854775808".into()], &[2], "--max-boxes"),
    ];
    for (args, codes, expected) in cases {
        let mut command = std::process::Command::new("sh");
        command.arg("-c").arg("ulimit -v 4194304 && exec timeout 120 \"$0\" \"$@\"").arg(env!("CARGO_BIN_EXE_freshlab")).args(&args).arg("--quiet");
        let started = std::time::Instant::now();
        let out = command.output().expect("runs");
        let (code, err) = (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).to_string());
        let shown: Vec<&str> = args.iter().map(|a| if a.len() > 60 { "…" } else { a.as_str() }).collect();
        assert!(codes.contains(&code), "{shown:?} exited {code} after {:.1} s: {err}", started.elapsed().as_secs_f64());
        assert!(!err.contains("panicked") && !err.contains("memory allocation"), "{shown:?}: {err}");
        assert!(err.contains(expected), "{shown:?}: expected «{expected}» in «{err}»");
    }
    // run --config reads what the page exports and what --out writes
    let out_file = dir.join("run.json");
    let (code, _, err) = freshlab(&["factor-curves", "--points", "30", "--out", out_file.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = freshlab(&["run", "--config", out_file.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&out)["x"].as_array().unwrap().len(), 30);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 16: `--threads` changes nothing but the speed; a bad count is named.
#[test]
fn threads_give_the_same_result_and_a_bad_count_is_named() {
    let args = ["policies", "--repository.pages", "1500", "--repository.servers", "30", "--horizon-days", "120", "--json"];
    let runs: Vec<String> = ["1", "2", "4"]
        .iter()
        .map(|t| {
            let (code, out, err) = freshlab(&[&args[..], &["--threads", t]].concat());
            assert_eq!(code, 0, "{err}");
            // not a terminal: no progress bar, nothing mixed into the JSON
            assert!(err.is_empty(), "stderr: {err}");
            json(&out);
            out
        })
        .collect();
    assert!(runs.iter().all(|r| *r == runs[0]));
    let err = refusal(&[&args[..], &["--threads", "0"]].concat());
    assert!(err.contains("--threads must be a whole number from 1 to 1024 (got 0)"), "{err}");
}

/// Issue 16: a sweep writes one result per point and a combined CSV; shards run
/// separately and merged give the same file; a missing shard is named.
#[test]
fn a_sweep_and_its_merged_shards_agree() {
    let base = std::env::temp_dir().join(format!("freshlab-sweep-{}", std::process::id()));
    let (whole, sharded) = (base.join("whole"), base.join("sharded"));
    let args = |dir: &std::path::Path| -> Vec<String> {
        [
            "sweep",
            "policies",
            "--repository.pages",
            "800",
            "--repository.servers",
            "20",
            "--horizon-days",
            "60",
            "--crawlers",
            "nutch",
            "--vary",
            "seed=1,2",
            "--vary",
            "capacities=0.1,0.5,0.9",
            "--quiet",
            "--dir",
        ]
        .iter()
        .map(|s| s.to_string())
        .chain([dir.display().to_string()])
        .collect()
    };
    let run = |extra: &[&str], dir: &std::path::Path| {
        let all: Vec<String> = args(dir).into_iter().chain(extra.iter().map(|s| s.to_string())).collect();
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        freshlab(&refs)
    };
    let (code, _, err) = run(&[], &whole);
    assert_eq!(code, 0, "{err}");
    for p in 1..=6 {
        assert!(whole.join(format!("point-{p:04}.json")).exists());
    }
    let csv = std::fs::read_to_string(whole.join("sweep.csv")).unwrap();
    assert!(csv.starts_with("point,seed,capacities,"), "{}", &csv[..80]);
    // point 5 is seed 2, capacity 0.5
    assert!(csv.lines().any(|l| l.starts_with("5,2,0.5,")));
    let point: serde_json::Value = json(&std::fs::read_to_string(whole.join("point-0005.json")).unwrap());
    assert_eq!(point["config"]["seed"], 2);
    assert_eq!(point["config"]["capacities"], serde_json::json!([0.5]));
    for k in ["1/3", "3/3"] {
        assert_eq!(run(&["--shard", k], &sharded).0, 0);
    }
    let dir = sharded.display().to_string();
    let err = refusal(&["sweep", "--merge", &dir]);
    assert!(err.contains("2 of 6 points have no result") && err.contains("missing: 2, 5"), "{err}");
    assert_eq!(run(&["--shard", "2/3"], &sharded).0, 0);
    let (code, _, err) = freshlab(&["sweep", "--merge", &dir]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(sharded.join("sweep.csv")).unwrap(), csv, "merged shards = the whole sweep");
    // bad input names the flag
    let (code, _, err) = run(&["--shard", "4/3"], &base.join("bad"));
    assert_eq!(code, 2);
    assert!(err.contains("--shard must be K/N"), "{err}");
    let err = refusal(&["sweep", "policies", "--vary", "seed=1,2", "--dir", &base.join("bad2").display().to_string(), "--horizon-days", "-1"]);
    assert!(err.contains("point 1 (seed = 1): --horizon-days"), "{err}");
    // issue 45: a merge checks every point against the grid: a point cut to its header,
    // another sweep's point, a manifest claiming more points than its grid has
    let point = sharded.join("point-0004.csv");
    let whole_point = std::fs::read_to_string(&point).unwrap();
    std::fs::write(&point, whole_point.lines().next().unwrap().to_string() + "\n").unwrap();
    let err = refusal(&["sweep", "--merge", &dir]);
    assert!(err.contains("point-0004.csv: holds 0 rows of the") && err.contains("cut short"), "{err}");
    // --resume runs only that point again, and the merge is whole
    let (code, _, err) = run(&["--resume"], &sharded);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(sharded.join("sweep.csv")).unwrap(), csv, "resumed = the whole sweep");
    std::fs::copy(sharded.join("point-0002.json"), sharded.join("point-0003.json")).unwrap();
    let err = refusal(&["sweep", "--merge", &dir]);
    assert!(err.contains("point-0003.json: its configuration is not the grid's"), "{err}");
    let manifest = sharded.join("sweep.json");
    let text = std::fs::read_to_string(&manifest).unwrap().replace("\"points\": 6", "\"points\": 10000000000");
    std::fs::write(&manifest, text).unwrap();
    let err = refusal(&["sweep", "--merge", &dir]);
    assert!(err.contains("claims 10000000000 points but its grid has 6"), "{err}");
    // a field varied twice, or one the experiment does not have
    let err = refusal(&["sweep", "policies", "--vary", "seed=1,2", "--vary", "seed=3", "--dir", &base.join("bad3").display().to_string()]);
    assert!(err.contains("--vary seed: given twice"), "{err}");
    let err = refusal(&["sweep", "policies", "--vary", "politeness_secs=1,2", "--dir", &base.join("bad3").display().to_string()]);
    assert!(err.contains("did you mean politeness_seconds?"), "{err}");
    let _ = std::fs::remove_dir_all(&base);
}

/// Issue 16: one run spread over machines — each part run with `--part K/N --out`, then
/// `freshlab join` — gives the whole run's file and printout to the last bit, by servers
/// (no crawlers) and by runs (crawlers, and the sensors experiment); a missing, repeated
/// or foreign part is named.
#[test]
fn parts_run_apart_join_into_the_whole_run() {
    let dir = scratch("parts");
    let path = |name: &str| dir.join(name).display().to_string();
    let small = ["policies", "--repository.pages", "3000", "--repository.servers", "40", "--horizon-days", "100", "--quiet"];
    for (crawlers, n) in [("[]", 3), ("nutch", 5)] {
        let run = |extra: &[&str]| {
            let args: Vec<&str> = small.iter().copied().chain(["--crawlers", crawlers]).chain(extra.iter().copied()).collect();
            let (code, out, err) = freshlab(&args);
            assert_eq!(code, 0, "{args:?}: {err}");
            out
        };
        let whole = run(&["--out", &path("whole.json")]);
        let mut parts = Vec::new();
        for k in 1..=n {
            let file = path(&format!("part{k}.json"));
            assert_eq!(run(&["--part", &format!("{k}/{n}"), "--out", &file]), "", "a part prints nothing on stdout");
            parts.push(file);
        }
        let mut join = vec!["join"];
        join.extend(parts.iter().rev().map(String::as_str));
        let joined = path("joined.json");
        join.extend(["--out", &joined]);
        let (code, out, err) = freshlab(&join);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out, whole, "crawlers {crawlers}: the joined printout");
        assert_eq!(std::fs::read_to_string(&joined).unwrap(), std::fs::read_to_string(path("whole.json")).unwrap(), "crawlers {crawlers}: the joined file");
        let err = refusal(&["join", &parts[0], &parts[1]]);
        assert!(err.contains(&format!("cut into {n} parts; missing: --part 3/{n}")), "{err}");
        let err = refusal(&["join", &parts[0], &parts[0]]);
        assert!(err.contains("are the same part"), "{err}");
    }
    let other = path("other.json");
    let args: Vec<&str> = small.iter().copied().chain(["--crawlers", "nutch", "--capacities", "0.5", "--part", "2/5", "--out", &other]).collect();
    assert_eq!(freshlab(&args).0, 0);
    assert!(refusal(&["join", &path("part1.json"), &other]).contains("a part of another run"));
    assert!(refusal(&["policies", "--part", "1/3"]).contains("--part 1/3 needs --out"));
    assert!(refusal(&["policies", "--crawlers", "[]", "--part", "2/80", "--out", &other]).contains("cuts into 64 parts at most; use --part K/64"));
    assert!(refusal(&["bursts", "--part", "1/2", "--out", &other]).contains("bursts cannot be cut into parts"));
    assert!(refusal(&["sensors", "--part", "1/40", "--out", &other]).contains("cuts into 17 parts at most; use --part K/17"), "the robots' run and 16 shards of the sensed pages");
    // the sensors experiment deals out its runs and the sensed pages' shards
    let sensors = ["sensors", "--pages", "300", "--horizon", "100000", "--week", "100000", "--stationary-from", "50000", "--robot-sweep", "[2,3]", "--quiet"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = sensors.iter().copied().chain(extra.iter().copied()).collect();
        let (code, out, err) = freshlab(&args);
        assert_eq!(code, 0, "{args:?}: {err}");
        out
    };
    let whole = run(&["--out", &path("sensors.json")]);
    let parts: Vec<String> = (1..=3).map(|k| path(&format!("sensors{k}.json"))).collect();
    for (k, file) in parts.iter().enumerate() {
        run(&["--part", &format!("{}/3", k + 1), "--out", file]);
    }
    let joined = path("sensors-joined.json");
    let (code, out, err) = freshlab(&["join", &parts[2], &parts[0], &parts[1], "--out", &joined]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, whole, "sensors: the joined printout");
    assert_eq!(std::fs::read_to_string(&joined).unwrap(), std::fs::read_to_string(path("sensors.json")).unwrap(), "sensors: the joined file");
    assert!(refusal(&["policies", "--part", "4/3", "--out", &other]).contains("--part must be K/N"));
    std::fs::write(path("empty.json"), "{}").unwrap();
    assert!(refusal(&["join", &path("empty.json")]).contains("not a part's result; write each part with --out"));
    assert!(refusal(&["join", &path("whole.json"), "--capacities", "0.5"]).contains("output flags only"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 17: `freshlab learning` runs from flags and a page list, with every config
/// field as a flag, and names a bad field.
#[test]
fn learning_runs_on_a_page_list() {
    let dir = scratch("learning");
    let list = dir.join("pages.csv");
    let mut text = String::from("page,server,change_rate,weight\n");
    for k in 0..60 {
        text += &format!("p{k},s{},{},{}\n", k % 4, 0.02 + 0.05 * (k % 7) as f64, 1 + k % 3);
    }
    std::fs::write(&list, text).unwrap();
    let (code, out, err) = freshlab(&[
        "learning",
        "--repository",
        list.to_str().unwrap(),
        "--capacity",
        "12",
        "--politeness-seconds",
        "14400",
        "--objective",
        "binary",
        "--horizon-days",
        "90",
        "--epoch-days",
        "15",
        "--policies",
        "oracle,learn_and_crawl",
        "--estimator-runs",
        "20",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = json(&out);
    assert_eq!(v["repository"]["pages"], 60);
    let policies = v["policies"].as_array().unwrap();
    assert_eq!(policies.len(), 2);
    for p in policies {
        let f = p["mean_freshness"].as_f64().unwrap();
        assert!(f > 0.0 && f < 1.0, "{p}");
    }
    let err = refusal(&["learning", "--epoch-days", "0"]);
    assert!(err.contains("--epoch-days"), "{err}");
}

/// `freshlab trace | head`: the reader leaves after a few lines; the command ends without
/// a panic's message (it panicked on the broken pipe before). The CSV (2 MB) is larger than
/// the pipe's buffer, so the command is still writing when the reader closes it.
#[test]
fn a_reader_that_leaves_early_ends_the_command_quietly() {
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_freshlab")).arg("trace").stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ends");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
}

/// Issue 45: `--estimate` names a file it read (its bytes and rows), not its text; the
/// configuration it prints runs again by `run --config`.
#[test]
fn estimate_prints_a_file_as_its_name_bytes_and_rows() {
    let dir = scratch("estimate-file");
    let list = dir.join("pages.csv");
    let rows: String = (0..500).map(|i| format!("p{i},s{},0.5\n", i % 7)).collect();
    std::fs::write(&list, format!("page,server,change_rate\n{rows}")).unwrap();
    let (code, out, _) = freshlab(&["allocate", "--repository", list.to_str().unwrap(), "--estimate"]);
    assert_eq!(code, 0, "{out}");
    let printed = json(&out);
    assert_eq!(printed["config"]["page_list"], serde_json::json!({ "file": list.to_str().unwrap(), "bytes": 24 + rows.len(), "rows": 501, "separator": "comma-separated" }));
    assert!(out.len() < 2000 && !out.contains("p499"), "{out}");
    // and that configuration runs again (`run --config`) as the flags do: its file read
    // from the name it prints, beside the configuration where not found as given
    let estimate = dir.join("estimate.json");
    std::fs::write(&estimate, &out).unwrap();
    let (_, by_flags, _) = freshlab(&["allocate", "--repository", list.to_str().unwrap(), "--json"]);
    let (code, by_config, err) = freshlab(&["run", "--config", estimate.to_str().unwrap(), "--json"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(json(&by_config), json(&by_flags));
    let mut relative = printed.clone();
    relative["config"]["page_list"]["file"] = "pages.csv".into();
    std::fs::write(&estimate, relative.to_string()).unwrap();
    let (code, by_config, _) = freshlab(&["run", "--config", estimate.to_str().unwrap(), "--json"]);
    assert_eq!((code, json(&by_config)), (0, json(&by_flags)));
    // a file changed since is run as it is, and said; an object naming no file is refused
    std::fs::write(&list, format!("page,server,change_rate\n{rows}p500,s0,0.5\n")).unwrap();
    let (code, _, err) = freshlab(&["run", "--config", estimate.to_str().unwrap(), "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains(&format!("where the config says {} (the file changed since): running the file as it is now", 24 + rows.len())), "{err}");
    relative["config"]["page_list"] = serde_json::json!({ "rows": 501 });
    std::fs::write(&estimate, relative.to_string()).unwrap();
    let message = refusal(&["run", "--config", estimate.to_str().unwrap()]);
    assert!(message.contains("page_list (in the config): give the file's text, or name it as {\"file\": \"pages.csv\"}, or add --repository FILE beside --config"), "{message}");
}

/// Issue 46: `--tuned FILE` writes the tuned configuration in the crawler's own format;
/// loaded back with `--crawler-config`, it runs as the tuned run did. Without a file
/// name the flag is refused by name.
#[test]
fn crawlers_tuned_writes_a_file_that_runs_as_predicted() {
    let dir = scratch("crawlers-tuned");
    let tuned = dir.join("tuned-nutch-site.xml");
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/nutch-site.xml");
    let small = ["--repository.pages", "2000", "--repository.servers", "100", "--horizon-days", "200"];
    let mut args = vec!["crawlers", "--crawler-config", sample, "--tuned", tuned.to_str().unwrap(), "--json", "--quiet"];
    args.extend(small);
    let (code, out, err) = freshlab(&args);
    assert_eq!(code, 0, "{err}");
    let result = json(&out);
    let predicted = &result["runs"][2];
    assert!(result["tuned"]["changes"].as_array().is_some_and(|c| !c.is_empty()), "{result}");
    let text = std::fs::read_to_string(&tuned).unwrap();
    assert!(text.contains("<name>http.agent.name</name>") && text.contains("Freshlab's tuning; was"), "{text}");
    let mut again = vec!["crawlers", "--crawler-config", tuned.to_str().unwrap(), "--json", "--quiet"];
    again.extend(small);
    let (code, out, err) = freshlab(&again);
    assert_eq!(code, 0, "{err}");
    let rerun = &json(&out)["runs"][0];
    assert_eq!(rerun["requests"], predicted["requests"]);
    assert!((rerun["mean_freshness"].as_f64().unwrap() - predicted["mean_freshness"].as_f64().unwrap()).abs() < 1e-12);
    assert!(refusal(&["crawlers", "--tuned"]).contains("--tuned needs a file name"));
    // the same run from its JSON (--out, then run --config) writes the same file
    let config = dir.join("config.json");
    let mut saved = vec!["crawlers", "--crawler-config", sample, "--tune", "--out", config.to_str().unwrap(), "--quiet"];
    saved.extend(small);
    assert_eq!(freshlab(&saved).0, 0);
    let from_json = dir.join("from-json.xml");
    let (code, _, err) = freshlab(&["run", "--config", config.to_str().unwrap(), "--tuned", from_json.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&from_json).unwrap(), text);
    // generated pages have no host names: no host file, and asking for one writes nothing
    let hosts = dir.join("hosts.txt");
    let mut asked = vec!["crawlers", "--crawler-config", sample, "--tuned-hosts", hosts.to_str().unwrap(), "--quiet"];
    asked.extend(small);
    let (code, _, err) = freshlab(&asked);
    assert!(code != 0 && err.contains("--tuned-hosts: the run wrote no such file (the flag writes the tuned adaptive-host-specific-intervals.txt") && !hosts.exists(), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// Issue 46: on named hosts, `--tuned-hosts FILE` writes the tuning's Nutch host file
/// beside `--tuned FILE`, and `--tuned-seeds FILE` its seed list of each page's fixed
/// interval; loaded back together (`--host-intervals`, `--seed-list` beside the page
/// list), they run as the tuning measured them. `--help` lists all three.
#[test]
fn crawlers_tuned_hosts_and_seeds_write_nutchs_files_that_run_as_predicted() {
    let dir = scratch("crawlers-tuned-hosts");
    let (tuned, hosts, seeds) = (dir.join("nutch-site.xml"), dir.join("adaptive-host-specific-intervals.txt"), dir.join("seeds.txt"));
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/nutch-site.xml");
    let list = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-hosts.csv");
    let short = ["--horizon-days", "200"];
    let mut args = vec![
        "crawlers",
        "--crawler-config",
        sample,
        "--repository",
        list,
        "--tuned",
        tuned.to_str().unwrap(),
        "--tuned-hosts",
        hosts.to_str().unwrap(),
        "--tuned-seeds",
        seeds.to_str().unwrap(),
        "--json",
        "--quiet",
    ];
    args.extend(short);
    let (code, out, err) = freshlab(&args);
    assert_eq!(code, 0, "{err}");
    let result = json(&out);
    let t = &result["tuned"];
    assert_eq!((&t["hosts"]["kept"], &t["seeds"]["kept"]), (&serde_json::json!(true), &serde_json::json!(true)), "{t}");
    let text = std::fs::read_to_string(&hosts).unwrap();
    assert!(text.starts_with("# adaptive-host-specific-intervals.txt") && text.contains("\nsite1.example "), "{text}");
    let rerun = |extra: &[&str], pages: &str| {
        let mut again = vec!["crawlers", "--crawler-config", tuned.to_str().unwrap(), "--repository", pages, "--json", "--quiet"];
        again.extend(extra);
        again.extend(short);
        let (code, out, err) = freshlab(&again);
        assert_eq!(code, 0, "{err}");
        json(&out)["runs"][0].clone()
    };
    // the host file as the search ran it, before the seed list
    let with_hosts = rerun(&["--host-intervals", hosts.to_str().unwrap()], list);
    assert_eq!(with_hosts["requests"], t["hosts"]["tried_requests"]);
    assert!((with_hosts["mean_freshness"].as_f64().unwrap() - t["hosts"]["tried_freshness"].as_f64().unwrap()).abs() < 1e-12);
    // the seed list: a comment, then each page of the list with its interval fixed;
    // given beside the page list (`--seed-list`), joined by page, it runs as predicted
    let seeded = std::fs::read_to_string(&seeds).unwrap();
    let lines: Vec<&str> = seeded.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), std::fs::read_to_string(list).unwrap().lines().count() - 1);
    assert!(lines.iter().all(|l| l.starts_with("https://site") && l.contains("\tnutch.fetchInterval.fixed=")), "{}", lines[0]);
    let predicted = &result["runs"][2];
    let with_seeds = rerun(&["--seed-list", seeds.to_str().unwrap()], list);
    assert_eq!(with_seeds["requests"], predicted["requests"]);
    assert!((with_seeds["mean_freshness"].as_f64().unwrap() - predicted["mean_freshness"].as_f64().unwrap()).abs() < 1e-12);
    let (_, help, _) = freshlab(&["crawlers", "--help"]);
    assert!(help.contains("--tuned FILE") && help.contains("--tuned-hosts FILE") && help.contains("--tuned-seeds FILE") && help.contains("--tuned-mimes FILE"), "{help}");
    std::fs::remove_dir_all(dir).ok();
}

/// Issue 46: a crawler's file says whose it is, so `--crawler` may be left out (given, it
/// wins, and one that disagrees with the file is refused); a seed list's metadata column
/// gives pages the file's custom intervals, the same run as `run --config` with the
/// pages inline.
#[test]
fn crawlers_take_the_crawler_from_its_file_and_a_seed_lists_metadata() {
    let dir = scratch("crawlers-seed-list");
    let yaml = dir.join("crawler-conf.yaml");
    std::fs::write(&yaml, "config:\n  fetchInterval.isFeed=true: 60\n").unwrap();
    let list = dir.join("seeds.csv");
    std::fs::write(&list, "page,server,change_rate,metadata\nfeed,a.example,4,isFeed=true\npage,b.example,0.1,lang=en\n").unwrap();
    let args = ["crawlers", "--crawler-config", yaml.to_str().unwrap(), "--repository", list.to_str().unwrap(), "--horizon-days", "10.3", "--json", "--quiet"];
    let (code, out, err) = freshlab(&args);
    assert_eq!(code, 0, "{err}");
    let result = json(&out);
    assert_eq!(result["runs"][0]["run"], "Apache StormCrawler (crawler-conf.yaml)");
    // hourly for the feed over 10.3 days, daily for the other page
    assert_eq!(result["runs"][0]["requests"], 248 + 11);
    assert_eq!(result["metadata"][0]["key"], "isFeed");
    let rows = serde_json::json!([
        {"page": "feed", "server": "a.example", "change_rate": 4.0, "metadata": "isFeed=true"},
        {"page": "page", "server": "b.example", "change_rate": 0.1, "metadata": "lang=en"}
    ]);
    let config = serde_json::json!({"experiment": "crawlers", "crawler": "stormcrawler", "crawler_config": std::fs::read_to_string(&yaml).unwrap(),
        "source": "page_list", "page_rows": rows, "horizon_days": 10.3});
    let file = dir.join("run.json");
    std::fs::write(&file, config.to_string()).unwrap();
    let (code, again, err) = freshlab(&["run", "--config", file.to_str().unwrap(), "--json", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&again)["runs"], result["runs"]);
    // the JSON need not say whose file it is, no more than the flag does
    let mut unsaid = config;
    unsaid.as_object_mut().unwrap().remove("crawler");
    std::fs::write(&file, unsaid.to_string()).unwrap();
    let (code, detected, err) = freshlab(&["run", "--config", file.to_str().unwrap(), "--json", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json(&detected)["runs"], result["runs"]);
    let message = refusal(&["crawlers", "--crawler", "nutch", "--crawler-config", yaml.to_str().unwrap()]);
    assert!(message.contains("set crawler to stormcrawler"), "{message}");
}

/// A file over its flag's limit is refused before it is read, its size and the limit
/// said in the units that tell them apart (a host file's limit, 256 KB then, was "0 MB",
/// a 2.8 MB page list over a 2 MB limit would have been "2 MB, over the 2 MB limit").
#[test]
fn a_file_over_its_limit_says_both_sizes() {
    let dir = scratch("over-the-limit");
    let (mimes, hosts) = (dir.join("adaptive-mimetypes.txt"), dir.join("hosts.txt"));
    std::fs::write(&mimes, "x".repeat(1_200_000)).unwrap();
    std::fs::write(&hosts, "x".repeat((64 << 20) + 150_000)).unwrap();
    let err = refusal(&["crawlers", "--mime-rates", mimes.to_str().unwrap()]);
    assert!(err.contains("the file is 1.1 MB, over the 1 MB limit"), "{err}");
    let err = refusal(&["crawlers", "--host-intervals", hosts.to_str().unwrap()]);
    assert!(err.contains("the file is 64.1 MB, over the 64 MB limit"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

/// Issue 16: where standard error is not a terminal (a log, a pipe, CI), a run estimated
/// over a minute says so once, at its start, with the way to silence it; `--quiet` does.
#[test]
fn a_long_run_off_a_terminal_says_its_estimate_at_the_start() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // a century at P = 1 min: hours of work on 7 MB
    let long = ["policies", "--repository.pages", "100000", "--horizon-days", "36525", "--politeness-seconds", "60"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_freshlab")).args(long).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(first.starts_with("freshlab: this run is estimated at about "), "{first}");
    assert!(first.contains("--estimate says more; --quiet silences this"), "{first}");
    let (code, _, err) = freshlab(&["policies", "--repository.pages", "2000", "--repository.servers", "40", "--json"]);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("estimated at about"), "a short run says nothing: {err}");
    let mut quiet = Command::new(env!("CARGO_BIN_EXE_freshlab")).args(long).arg("--quiet").stdout(Stdio::null()).stderr(Stdio::piped()).spawn().expect("runs");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    quiet.kill().unwrap();
    let out = quiet.wait_with_output().unwrap();
    assert_eq!(String::from_utf8(out.stderr).unwrap(), "", "--quiet prints nothing");
}

/// Every file a flag names is decoded by the core's one decoder: a crawler's
/// configuration saved with a byte-order mark is read (it had been refused as no crawler
/// configuration Freshlab knows), and a bad byte in any of them is named by its byte and
/// line, with the fix.
#[test]
fn every_file_flag_decodes_as_the_page_lists_do() {
    let dir = scratch("decoded");
    let sample = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/nutch-site.xml")).unwrap();
    let bom = dir.join("nutch-site.xml");
    std::fs::write(&bom, [b"\xEF\xBB\xBF".as_slice(), &sample].concat()).unwrap();
    let (code, out, err) = freshlab(&["crawlers", "--crawler-config", bom.to_str().unwrap(), "--horizon-days", "5", "--quiet"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("fetcher.server.delay=30.0 (line 17)"), "{out}");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, b"# hosts\nexample.org 60\xFF 3600\n").unwrap();
    for flag in ["--crawler-config", "--host-intervals", "--mime-rates", "--seed-list", "--heritrix-overrides"] {
        let err = refusal(&["crawlers", flag, bad.to_str().unwrap()]);
        assert!(err.contains(&format!("{flag} {}: is not UTF-8 text (byte 23 on line 2 is not valid UTF-8); save the file as UTF-8 text", bad.display())), "{flag}: {err}");
    }
    // a file that is no crawler's: what Freshlab looks for; one with nothing in it: so said
    std::fs::write(&bad, "- a list\n- of things\n").unwrap();
    assert!(refusal(&["crawlers", "--crawler-config", bad.to_str().unwrap()]).contains("its first setting is none of an XML <configuration> (nutch-site.xml)"));
    std::fs::write(&bad, "# nothing yet\n\n").unwrap();
    assert!(refusal(&["crawlers", "--crawler-config", bad.to_str().unwrap()]).contains("holds no settings (it is empty, or comments only)"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A crawler file's name a letter from a setting is said in `--json` too (`meant`).
#[test]
fn a_mistyped_crawler_setting_is_in_the_json() {
    let dir = scratch("meant");
    let file = dir.join("nutch-site.xml");
    std::fs::write(&file, "<configuration>\n<property><name>db.fetch.schedule.adaptive.inc_rat</name><value>0.3</value></property>\n</configuration>\n").unwrap();
    let (code, out, _) = freshlab(&["crawlers", "--crawler-config", file.to_str().unwrap(), "--horizon-days", "30", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(json(&out)["meant"], serde_json::json!([["db.fetch.schedule.adaptive.inc_rat", "db.fetch.schedule.adaptive.inc_rate"]]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs `freshlab args` with `input` on standard input.
fn freshlab_piped(args: &[&str], input: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_freshlab")).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("ends");
    // (a command refused before it reads its input closes the pipe first)
    match writer.join().unwrap() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => panic!("cannot write its input: {e}"),
        _ => {}
    }
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// Issue 47: records piped in (`curl … | freshlab history -`, gzip or not) give the
/// file's result; the estimate and --out name them `-`, and `run --config` of the
/// estimate with the records piped again gives the same; the temporary file is
/// removed; a pipe's path is kept the same way; `-` twice, or beside a config read from
/// standard input, and nothing piped, are refused.
#[test]
fn history_reads_records_piped_on_standard_input() {
    let cdx = concat!(env!("CARGO_MANIFEST_DIR"), "/www/samples/sample-captures.cdx");
    let records = std::fs::read(cdx).unwrap();
    let (code, from_file, _) = freshlab(&["history", cdx, "--json", "--quiet"]);
    assert_eq!(code, 0);
    let (code, piped, err) = freshlab_piped(&["history", "-", "--json"], &records);
    assert_eq!(code, 0, "{err}");
    assert_eq!(piped, from_file);
    assert!(err.contains("from standard input"), "{err}");
    let kept = err.split_whitespace().find(|w| w.ends_with("/standard-input")).expect("names where it is kept");
    assert!(!std::path::Path::new(kept).exists(), "{kept} is left behind");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &records).unwrap();
    let (code, zipped, err) = freshlab_piped(&["history", "-", "--json", "--quiet"], &gz.finish().unwrap());
    assert_eq!((code, zipped), (0, from_file.clone()), "{err}");
    // the estimate names the records `-`: run again with them piped, the same result
    let (code, estimate, _) = freshlab_piped(&["history", "-", "--estimate", "--quiet"], &records);
    assert_eq!(code, 0);
    let config = json(&estimate)["config"].clone();
    assert_eq!(config["paths"], serde_json::json!(["-"]));
    let dir = scratch("history_reads_records_piped_on_standard_input");
    let saved = dir.join("estimate.json");
    std::fs::write(&saved, config.to_string()).unwrap();
    let (code, rerun, err) = freshlab_piped(&["run", "--config", saved.to_str().unwrap(), "--json", "--quiet"], &records);
    assert_eq!((code, rerun), (0, from_file.clone()), "{err}");
    let (code, _, err) = freshlab_piped(&["run", "--config", "-"], config.to_string().as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("standard input ('-') is given twice"), "{err}");
    let (code, _, err) = freshlab_piped(&["history", "-", "-"], &records);
    assert!(code == 2 && err.contains("given twice"), "{err}");
    let (code, _, err) = freshlab_piped(&["history", "-"], b"");
    assert!(code == 2 && err.contains("standard input is empty"), "{err}");
    // a pipe's path (as `<(zcat …)` gives one): kept too, named as given again
    let fifo = dir.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()), "mkfifo makes a pipe");
    let writer = {
        let (fifo, records) = (fifo.clone(), records.clone());
        std::thread::spawn(move || std::fs::write(fifo, records))
    };
    let (code, from_pipe, err) = freshlab(&["history", fifo.to_str().unwrap(), "--json"]);
    writer.join().unwrap().expect("written");
    assert_eq!((code, from_pipe), (0, from_file), "{err}");
    assert!(err.contains(&format!("read 541 KB from {}", fifo.display())), "{err}");
}
