//! One run spread over machines: `--part K/N` runs part K of the N that
//! [`Config::split`] cuts a run into (the policies' servers, or its runs when crawlers are
//! compared), and `freshlab join FILE…` joins the parts' `--out` files into the whole
//! run's result, the same to the last bit as one machine's.

use super::args::parse;
use super::{Failure, explain, print_result, usage_error, write_export, write_files};
use freshlab::experiments::{Config, Output, config_from_value};
use serde_json::Value;

pub const HELP: &str = "\
freshlab join PART.json PART.json … [--json] [--svg FILE] [--csv FILE] [--out FILE.json]

Joins the parts of one run, each written by 'freshlab <experiment> … --part K/N --out
PART.json' (on one machine or many: a Slurm array, Kubernetes indexed Jobs, GNU
parallel), into the whole run's result, the same to the last bit as one run's. Give
every part's file, once each. Without crawlers, the policies experiment cuts its servers
into at most 64 parts; with crawlers, its runs. The sensors experiment deals out its runs
(each concept, each robot count of the sweep) and the shards of its sensed pages.
";

/// Part `k` (from 1) of the `n` parts of `config`; a part's result is read only by
/// `freshlab join`, so it must be written with `--out`.
pub fn part_of(config: Config, k: usize, n: usize, out: Option<&str>) -> Result<Config, Failure> {
    if out.is_none() {
        return Err(usage_error(format!("--part {k}/{n} needs --out PART.json: a part's result is read by freshlab join")));
    }
    let mut parts = config.split(n);
    if parts.len() != n {
        let most = parts.len();
        let what = if most == 1 {
            format!("{} cannot be cut into parts: run it whole (leave --part out)", config.name())
        } else {
            format!("{} with this configuration cuts into {most} parts at most; use --part K/{most}", config.name())
        };
        return Err(usage_error(format!("--part {k}/{n}: {what}")));
    }
    Ok(parts.swap_remove(k - 1))
}

/// `freshlab join FILE… [output flags]`.
pub fn join(args: &[String]) -> Result<(), Failure> {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    let files: Vec<&String> = args.iter().take_while(|a| !a.starts_with("--")).collect();
    let (outputs, fields) = parse(&args[files.len()..]).map_err(usage_error)?;
    if let Some(field) = fields.keys().next() {
        return Err(usage_error(format!(
            "freshlab join takes the parts' files and output flags only (got --{}); set the run's fields when running its parts",
            field.replace('_', "-")
        )));
    }
    if outputs.part.is_some() || outputs.config.is_some() || outputs.estimate {
        return Err(usage_error("freshlab join takes the parts' files and output flags only (--json, --svg, --png, --csv, --out)"));
    }
    if files.is_empty() {
        return Err(usage_error(format!("freshlab join needs the parts' files first\n\n{HELP}")));
    }
    let parts = files.iter().map(|f| read_part(f)).collect::<Result<Vec<_>, _>>()?;
    let whole = parts[0].0.whole();
    for ((config, _), file) in parts.iter().zip(&files) {
        if config.whole() != whole {
            return Err(usage_error(format!("{file}: a part of another run than {} (their configurations differ beyond the part)", files[0])));
        }
    }
    for (k, (config, _)) in parts.iter().enumerate() {
        if let Some(again) = parts[..k].iter().position(|(c, _)| c == config) {
            return Err(usage_error(format!("{} and {} are the same part; give each part's file once", files[again], files[k])));
        }
    }
    // the N the parts were cut for: the one whose parts hold them all
    let cut = (1..=64).map(|n| whole.split(n)).find(|all| parts.iter().all(|(c, _)| all.contains(c)));
    let Some(all) = cut else {
        return Err(usage_error(format!("{}: not a part of {}'s run cut by --part K/N (its parts are written with --part and --out)", files[0], whole.name())));
    };
    let n = all.len();
    let missing: Vec<String> = (0..n).filter(|&k| !parts.iter().any(|(c, _)| *c == all[k])).map(|k| format!("{}/{n}", k + 1)).collect();
    if !missing.is_empty() {
        return Err(usage_error(format!("the run was cut into {n} parts; missing: --part {}; give every part's file", missing.join(", "))));
    }
    let merged = whole.merge(parts.into_iter().map(|(_, o)| o).collect()).map_err(|e| explain(&e, true))?;
    write_files(&merged, &outputs)?;
    if let Some(path) = &outputs.out {
        write_export(path, &whole, &merged)?;
    }
    print_result(&merged, &outputs);
    Ok(())
}

/// A part's `--out` file: its configuration and its result.
fn read_part(file: &str) -> Result<(Config, Output), Failure> {
    let text = std::fs::read_to_string(file).map_err(|e| Failure { message: format!("cannot read {file}: {e}"), code: 1 })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| usage_error(format!("{file}: not valid JSON: {e}")))?;
    let (Some(config), Some(result)) = (value.get("config"), value.get("result")) else {
        return Err(usage_error(format!("{file}: not a part's result; write each part with --out FILE.json")));
    };
    let config = config_from_value(config.clone()).map_err(|e| usage_error(format!("{file}: {}", explain(&e, true).message)))?;
    let output: Output = serde_json::from_value(result.clone()).map_err(|e| usage_error(format!("{file}: the result is not a Freshlab result: {e}")))?;
    if output.name() != config.name() {
        return Err(usage_error(format!("{file}: a {} result under a {} configuration", output.name(), config.name())));
    }
    Ok((config, output))
}
