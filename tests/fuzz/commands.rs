//! The fuzzer's command-line cases (issue 45): sweeps with random grids (values mutated,
//! fields repeated or unknown, grids past the 100,000-point limit), sharded and merged,
//! merges of tampered directories, and runs split with `--part` and joined. Each case
//! runs the built `freshlab` and checks that nothing is dropped or mislabelled: a sweep
//! that exits 0 has every point of its grid, each run at its values; a merge of shards
//! writes the unsharded sweep's file; a tampered merge is refused naming the file; the
//! joined parts equal the whole run; every refusal has a message.

use crate::cases::{mutant, pick, small};
use freshlab::core::rng::{Purpose, Stream};
use freshlab::experiments::registry::command;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Experiments whose small runs take milliseconds, and fields worth varying.
const GRIDS: &[(&str, &[&str])] = &[
    ("factor_curves", &["points", "c", "x_max", "log_x"]),
    ("level_sets", &["grid", "r_max", "c_max"]),
    ("bursts", &["points", "n"]),
    ("allocate", &["capacity", "politeness_seconds", "repository.pages", "repository.servers", "objective"]),
    ("policies", &["politeness_seconds", "repository.pages", "horizon_days", "bins"]),
];

/// `freshlab args…` → (exit code, stdout, stderr).
fn freshlab(args: &[String]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_freshlab")).args(args).output().expect("freshlab runs");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// The small configuration as flags: `--repository.pages 300 --horizon-days 30 …`.
fn flags_of(value: &Value, prefix: &str, out: &mut Vec<String>) {
    if let Value::Object(map) = value {
        for (k, v) in map {
            let key = if prefix.is_empty() { k.replace('_', "-") } else { format!("{prefix}.{}", k.replace('_', "-")) };
            match v {
                Value::Object(_) => flags_of(v, &key, out),
                Value::Array(items) => out.extend([format!("--{key}"), items.iter().map(text).collect::<Vec<_>>().join(",")]),
                _ => out.extend([format!("--{key}"), text(v)]),
            }
        }
    }
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

fn get<'a>(value: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted.split('.').try_fold(value, |node, key| node.get(key))
}

fn same(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b || text(a) == text(b),
    }
}

/// One command-line case; `Err` says what went wrong.
pub fn command_case(seed: u64, k: u64, dir: &Path) -> Result<String, String> {
    let mut rng = Stream::of(seed, Purpose::Test, 1_000_000 + k);
    let (experiment, fields) = *pick(&mut rng, GRIDS);
    let base = small(experiment);
    let defaults = serde_json::to_value(freshlab::experiments::registry::defaults(experiment).expect("registered")).expect("serialises");
    let mut args = vec!["sweep".to_string(), command(experiment)];
    flags_of(&base, "", &mut args);
    // the grid: 1 to 3 fields of 1 to 3 values, mostly mild mutants of the small values
    let mut grid: Vec<(String, Vec<Value>)> = Vec::new();
    let kind = rng.below(20);
    // kind 0: 17 fields of 2 values (131,072 points); 1: a field repeated; 2: an unknown one
    let varied = match kind {
        0 => 17,
        1 => 2 + rng.below(2) as usize,
        _ => 1 + rng.below(3) as usize,
    };
    for v in 0..varied {
        let field = if kind == 1 && v == 1 {
            grid[0].0.clone()
        } else if kind == 2 && v == 0 {
            "zz_not_a_field".to_string()
        } else {
            pick(&mut rng, fields).to_string()
        };
        let old = get(&base, &field).or_else(|| get(&defaults, &field)).cloned().unwrap_or(json!(1));
        let count = if kind == 0 { 2 } else { 1 + rng.below(3) as usize };
        let values: Vec<Value> = (0..count).map(|_| if rng.below(4) == 0 { mutant(&old, &mut rng) } else { old.clone() }).collect();
        grid.push((field, values));
    }
    for (field, values) in &grid {
        args.extend(["--vary".into(), format!("{field}={}", values.iter().map(text).collect::<Vec<_>>().join(","))]);
    }
    let whole = dir.join(format!("case-{k}"));
    let mut run = args.clone();
    run.extend(["--dir".into(), whole.display().to_string(), "--quiet".into()]);
    let (code, _, err) = freshlab(&run);
    let points: usize = grid.iter().map(|(_, v)| v.len()).product();
    let described = format!("{} --vary {}", command(experiment), grid.iter().map(|(f, v)| format!("{f}×{}", v.len())).collect::<Vec<_>>().join(" --vary "));
    if code != 0 {
        if err.trim().is_empty() || code == 101 {
            return Err(format!("{described}: exit {code} with {}", if err.trim().is_empty() { "no message".into() } else { err }));
        }
        // a refusal must have a reason the grid gives: a field repeated or unknown, too many points, a value refused
        let repeated = grid.iter().enumerate().any(|(i, (f, _))| grid[..i].iter().any(|(g, _)| g == f));
        if (repeated || kind == 2 || points > 100_000) && code != 2 {
            return Err(format!("{described}: refused with exit {code}, not as a usage error: {err}"));
        }
        return Ok(format!("refused: {}", err.lines().next().unwrap_or("")));
    }
    if points > 100_000 || kind == 1 || kind == 2 {
        return Err(format!("{described}: a grid that must be refused ran ({points} points)"));
    }
    // every point of the grid, each at its values (the first --vary slowest)
    let csv = std::fs::read_to_string(whole.join("sweep.csv")).map_err(|e| format!("{described}: no sweep.csv ({e})"))?;
    let ids: std::collections::BTreeSet<usize> = csv.lines().skip(1).filter_map(|l| l.split(',').next()?.parse().ok()).collect();
    if ids != (1..=points).collect() {
        return Err(format!("{described}: sweep.csv has points {ids:?}, the grid {points}"));
    }
    for p in 0..points {
        let file = whole.join(format!("point-{:04}.json", p + 1));
        let point: Value = serde_json::from_str(&std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?).map_err(|e| e.to_string())?;
        let mut rest = p;
        for (field, values) in grid.iter().rev() {
            let asked = &values[rest % values.len()];
            rest /= values.len();
            let ran = get(&point["config"], field).cloned().unwrap_or(Value::Null);
            // a list field varies by single values
            let ran = match ran {
                Value::Array(items) if items.len() == 1 && !asked.is_array() => items[0].clone(),
                other => other,
            };
            if !same(&ran, asked) {
                return Err(format!("{described}: point {} ran {field} = {ran}, the grid says {asked}", p + 1));
            }
        }
    }
    // the same grid in two shards, merged: the same sweep.csv; then a point cut short
    if rng.below(3) == 0 && points > 1 {
        let shards = dir.join(format!("case-{k}-shards"));
        for part in ["1/2", "2/2"] {
            let mut shard = args.clone();
            shard.extend(["--dir".into(), shards.display().to_string(), "--shard".into(), part.into(), "--quiet".into()]);
            let (code, _, err) = freshlab(&shard);
            if code != 0 {
                return Err(format!("{described}: shard {part} failed: {err}"));
            }
        }
        let merge = ["sweep".to_string(), "--merge".into(), shards.display().to_string()];
        let (code, _, err) = freshlab(&merge);
        let merged = std::fs::read_to_string(shards.join("sweep.csv")).unwrap_or_default();
        if code != 0 || merged != csv {
            return Err(format!("{described}: the merged shards differ from the whole sweep (exit {code}: {err})"));
        }
        let victim = shards.join(format!("point-{:04}.csv", 1 + rng.below(points as u64)));
        let header = std::fs::read_to_string(&victim).unwrap_or_default().lines().next().unwrap_or("").to_string();
        std::fs::write(&victim, format!("{header}\n")).map_err(|e| e.to_string())?;
        let (code, _, err) = freshlab(&merge);
        let name = victim.file_name().unwrap().to_string_lossy().to_string();
        if code == 0 || !err.contains(&name) {
            return Err(format!("{described}: a merge with {name} cut to its header was not refused naming it (exit {code}: {err})"));
        }
    }
    Ok(format!("{points} points"))
}

/// A run split with --part K/N and joined equals the whole run, to the last bit.
pub fn parts_case(seed: u64, k: u64, dir: &Path) -> Result<String, String> {
    let mut rng = Stream::of(seed, Purpose::Test, 2_000_000 + k);
    let mut args = vec!["policies".to_string()];
    let mut base = small("policies");
    base["repository"]["pages"] = json!(100 + rng.below(400));
    base["repository"]["servers"] = json!(2 + rng.below(30));
    flags_of(&base, "", &mut args);
    let n = 2 + rng.below(4);
    let out = |name: &str| -> PathBuf { dir.join(format!("parts-{k}-{name}.json")) };
    let mut whole = args.clone();
    whole.extend(["--out".into(), out("whole").display().to_string()]);
    let (code, _, err) = freshlab(&whole);
    if code != 0 {
        return Err(format!("policies {args:?}: {err}"));
    }
    let mut join = vec!["join".to_string()];
    for part in 1..=n {
        let mut one = args.clone();
        one.extend(["--part".into(), format!("{part}/{n}"), "--out".into(), out(&format!("{part}")).display().to_string()]);
        let (code, _, err) = freshlab(&one);
        if code != 0 {
            return Err(format!("part {part}/{n}: {err}"));
        }
        join.push(out(&format!("{part}")).display().to_string());
    }
    // a part given twice, or one missing, is refused
    if rng.below(2) == 0 {
        let mut twice = join.clone();
        twice[1] = twice[2].clone();
        let (code, _, err) = freshlab(&twice);
        if code == 0 || err.trim().is_empty() {
            return Err(format!("a join of {n} parts with one given twice was not refused: {err}"));
        }
    }
    join.extend(["--out".into(), out("joined").display().to_string()]);
    let (code, _, err) = freshlab(&join);
    if code != 0 {
        return Err(format!("join of {n} parts: {err}"));
    }
    let read = |name: &str| -> Value { serde_json::from_str(&std::fs::read_to_string(out(name)).unwrap_or_default()).unwrap_or(Value::Null) };
    if read("whole")["result"] != read("joined")["result"] {
        return Err(format!("policies {:?} in {n} parts, joined, differs from the whole run", base["repository"]));
    }
    Ok(format!("{n} parts"))
}
