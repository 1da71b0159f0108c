//! Command-line flags become configuration fields: `--r-min 0.1` is `"r_min": 0.1`, so
//! the CLI, the JSON files and the page share one validation and one set of messages.

use serde_json::{Map, Value};

/// Flags that steer the CLI itself rather than the experiment.
#[derive(Debug, Default, PartialEq)]
pub struct Outputs {
    pub json: bool,
    pub svg: Option<String>,
    pub png: Option<String>,
    pub csv: Option<String>,
    /// Writes {config, result} as JSON, as the page's JSON export does.
    pub out: Option<String>,
    /// PNG pixel ratio (2 for slides).
    pub scale: f64,
    pub config: Option<String>,
    pub width: u32,
    pub height: u32,
    pub dark: bool,
    pub font_scale: f64,
    pub quiet: bool,
    /// Threads a run may use (0: every core).
    pub threads: usize,
    /// Prints the config and its cost estimate instead of running.
    pub estimate: bool,
    /// Runs only part K of N of the run (`--part K/N`, K from 1), for `freshlab join`.
    pub part: Option<(usize, usize)>,
    /// The fields given as a flag with no value (`--log-r`): true for a yes-or-no field,
    /// a mistake for any other.
    pub bare: Vec<String>,
    /// Arguments not written as flags: the files of `freshlab history FILE…`.
    pub positional: Vec<String>,
}

/// The flags that steer the CLI itself, as `parse` knows them.
pub const OUTPUT_FLAGS: &[&str] = &["json", "dark", "quiet", "estimate", "svg", "csv", "png", "out", "scale", "threads", "config", "part", "width", "height", "font-scale"];

/// "2/8" → (2, 8): `--shard` and `--part` K/N, with 1 ≤ K ≤ N. `auto/8` takes K from
/// the batch scheduler that started the process ([`scheduler_index`]).
pub fn k_of_n(flag: &str, text: &str) -> Result<(usize, usize), String> {
    k_of_n_in(flag, text, &|name| std::env::var(name).ok())
}

/// [`k_of_n`] with the environment given (for the tests).
pub fn k_of_n_in(flag: &str, text: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<(usize, usize), String> {
    let auto = text.split_once('/').is_some_and(|(k, _)| k.trim() == "auto");
    let parsed = text.split_once('/').and_then(|(k, n)| {
        let n = n.trim().parse::<usize>().ok()?;
        let k = if auto { scheduler_index(env).ok()? } else { k.trim().parse::<usize>().ok()? };
        Some((k, n))
    });
    match parsed {
        Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok((k, n)),
        Some((k, n)) if auto => {
            Err(format!("--{flag} auto/{n}: the scheduler's task is number {k} of its array, outside 1–{n}; make the array as long as N (sbatch --array=1-{n}, completions: {n})"))
        }
        None if auto => Err(format!("--{flag} auto/N: {}", scheduler_index(env).err().unwrap_or_else(|| format!("N must be a whole number (got {text})")))),
        _ => Err(format!("--{flag} must be K/N with whole numbers 1 ≤ K ≤ N, or auto/N under a batch scheduler, e.g. --{flag} 2/8 (got {text})")),
    }
}

/// This process's place (from 1) in its batch scheduler's array: Slurm's
/// SLURM_ARRAY_TASK_ID counted from SLURM_ARRAY_TASK_MIN (so `--array=0-7` and
/// `--array=1-8` both give 1–8), or a Kubernetes Indexed Job's JOB_COMPLETION_INDEX
/// (from 0).
pub fn scheduler_index(env: &dyn Fn(&str) -> Option<String>) -> Result<usize, String> {
    let number = |name: &str| env(name).map(|v| v.trim().parse::<usize>().map_err(|_| format!("{name} is \"{v}\", not a whole number")));
    if let Some(id) = number("SLURM_ARRAY_TASK_ID") {
        let (id, min) = (id?, number("SLURM_ARRAY_TASK_MIN").transpose()?.unwrap_or(1));
        return id.checked_sub(min).map(|k| k + 1).ok_or_else(|| format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"));
    }
    if let Some(index) = number("JOB_COMPLETION_INDEX") {
        return Ok(index? + 1);
    }
    Err("neither SLURM_ARRAY_TASK_ID (a Slurm array job) nor JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) is set: give K/N yourself".into())
}

/// The flag's spelling for a config field: r_min → --r-min.
pub fn flag_for(field: &str) -> String {
    format!("--{}", field.replace('_', "-"))
}

/// A flag's value: JSON when it parses (numbers, true/false, [lists]), otherwise a
/// string; a comma-separated string becomes a list where the field is one
/// ([`list_of`]), and elsewhere stays a string, so that "0,5" for a number is refused
/// with a hint to write 0.5.
fn value_of(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.into()))
}

/// A list field's value: a list as given, "a,b,c" split into its items, "none" the empty
/// list (as the page's links write it: `policies.crawlers=none`), or a single value as a
/// list of one.
pub fn list_of(value: Value) -> Value {
    match value {
        Value::Array(_) => value,
        Value::String(text) if text == "none" => Value::Array(Vec::new()),
        Value::String(text) if text.contains(',') => {
            Value::Array(text.split(',').map(|t| serde_json::from_str(t.trim()).unwrap_or_else(|_| Value::String(t.trim().into()))).collect())
        }
        other => Value::Array(vec![other]),
    }
}

/// Splits `args` into output flags and configuration fields.
pub fn parse(args: &[String]) -> Result<(Outputs, Map<String, Value>), String> {
    let mut outputs = Outputs { width: 900, height: 560, font_scale: 1.0, scale: 2.0, ..Default::default() };
    let mut fields = Map::new();
    let mut k = 0;
    while k < args.len() {
        let arg = &args[k];
        let Some(name) = arg.strip_prefix("--") else {
            outputs.positional.push(arg.clone());
            k += 1;
            continue;
        };
        let (name, inline) = match name.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (name, None),
        };
        let takes_value = |k: usize| args.get(k + 1).filter(|next| !next.starts_with("--")).cloned();
        let mut value = || -> Option<String> {
            if inline.is_some() {
                return inline.clone();
            }
            let v = takes_value(k);
            if v.is_some() {
                k += 1;
            }
            v
        };
        let need = |v: Option<String>, what: &str| v.ok_or_else(|| format!("--{name} needs {what}"));
        match name {
            "json" => outputs.json = true,
            "dark" => outputs.dark = true,
            "quiet" => outputs.quiet = true,
            "estimate" => outputs.estimate = true,
            "svg" => outputs.svg = Some(need(value(), "a file name, e.g. --svg chart.svg")?),
            "csv" => outputs.csv = Some(need(value(), "a file name, e.g. --csv data.csv")?),
            "png" => outputs.png = Some(need(value(), "a file name, e.g. --png chart.png")?),
            "out" => outputs.out = Some(need(value(), "a file name, e.g. --out run.json")?),
            "scale" => {
                let v = need(value(), "a pixel ratio such as 2")?;
                outputs.scale = v.parse().ok().filter(|f: &f64| (0.5..=4.0).contains(f)).ok_or_else(|| format!("--scale must be a number from 0.5 to 4 (got {v})"))?;
            }
            "threads" => {
                let v = need(value(), "a number of threads such as 2")?;
                outputs.threads = v
                    .parse()
                    .ok()
                    .filter(|n: &usize| (1..=1024).contains(n))
                    .ok_or_else(|| format!("--threads must be a whole number from 1 to 1024 (got {v}); leave it out to use every core"))?;
            }
            "config" => outputs.config = Some(need(value(), "a JSON file, e.g. --config run.json")?),
            // a crawler's setting over its file (crawlers): --set NAME=VALUE, repeatable
            "set" => {
                let v = need(value(), "NAME=VALUE, e.g. --set fetcher.server.delay=10")?;
                let joined = match fields.get("crawler_settings") {
                    Some(Value::String(before)) if !before.trim().is_empty() => format!("{before}; {v}"),
                    _ => v,
                };
                fields.insert("crawler_settings".into(), Value::String(joined));
            }
            "part" => outputs.part = Some(k_of_n("part", &need(value(), "K/N, e.g. --part 2/8")?)?),
            "width" | "height" => {
                let v = need(value(), "a size in pixels")?;
                let px: u32 = v.parse().ok().filter(|p| (200..=8000).contains(p)).ok_or_else(|| format!("--{name} must be a whole number of pixels from 200 to 8000 (got {v})"))?;
                if name == "width" { outputs.width = px } else { outputs.height = px }
            }
            "font-scale" => {
                let v = need(value(), "a factor such as 1.5")?;
                outputs.font_scale = v.parse().ok().filter(|f: &f64| (0.5..=4.0).contains(f)).ok_or_else(|| format!("--font-scale must be a number from 0.5 to 4 (got {v})"))?;
            }
            _ => {
                let field = name.replace('-', "_"); // dots (nested fields) stay
                let v = value().map(|t| value_of(&t)).unwrap_or_else(|| {
                    outputs.bare.push(field.clone());
                    Value::Bool(true)
                });
                if fields.insert(field, v).is_some() {
                    return Err(format!("--{name} is given twice; keep one"));
                }
            }
        }
        k += 1;
    }
    Ok((outputs, fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn flags_map_to_fields_and_outputs() {
        let (out, fields) = parse(&strings(&["--r-min", "0.1", "--log-r", "--levels", "0.93,0.95", "--json", "--svg", "a.svg", "--c-max=30"])).unwrap();
        assert!(out.json);
        assert_eq!(out.svg.as_deref(), Some("a.svg"));
        assert_eq!(fields["r_min"], serde_json::json!(0.1));
        assert_eq!(fields["log_r"], serde_json::json!(true));
        assert_eq!(list_of(fields["levels"].clone()), serde_json::json!([0.93, 0.95]));
        // a link's empty list, as a flag
        assert_eq!(list_of(serde_json::json!("none")), serde_json::json!([]));
        assert_eq!(fields["c_max"], serde_json::json!(30));
    }

    /// A crawler's settings over its file: `--set NAME=VALUE`, repeatable, into one field.
    #[test]
    fn set_flags_join_into_the_crawler_settings() {
        let (_, fields) = parse(&strings(&["--set", "fetcher.server.delay=10", "--set=db.fetch.schedule.adaptive.max_interval=604800"])).unwrap();
        assert_eq!(fields["crawler_settings"], serde_json::json!("fetcher.server.delay=10; db.fetch.schedule.adaptive.max_interval=604800"));
        assert!(parse(&strings(&["--set"])).unwrap_err().contains("NAME=VALUE"));
    }

    #[test]
    fn negative_numbers_are_values_and_mistakes_are_explained() {
        let (_, fields) = parse(&strings(&["--r-min", "-1"])).unwrap();
        assert_eq!(fields["r_min"], serde_json::json!(-1));
        // a bare word is a file (freshlab history FILE…); other commands refuse it (main_with)
        assert_eq!(parse(&strings(&["r-min"])).unwrap().0.positional, ["r-min"]);
        assert!(parse(&strings(&["--svg"])).unwrap_err().contains("--svg needs"));
        assert!(parse(&strings(&["--width", "12"])).unwrap_err().contains("200 to 8000"));
        assert!(parse(&strings(&["--grid", "5", "--grid", "6"])).unwrap_err().contains("twice"));
        assert_eq!(parse(&strings(&["--part", "2/8"])).unwrap().0.part, Some((2, 8)));
        for bad in ["0/8", "9/8", "2", "a/b", "2/0"] {
            assert!(parse(&strings(&["--part", bad])).unwrap_err().contains("--part must be K/N"), "{bad}");
        }
    }

    /// Issue 45: `auto/N` takes K from Slurm's array or a Kubernetes Indexed Job.
    #[test]
    fn auto_takes_the_schedulers_index() {
        let env = |pairs: &'static [(&'static str, &'static str)]| move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
        assert_eq!(k_of_n_in("shard", "auto/8", &env(&[("SLURM_ARRAY_TASK_ID", "3")])), Ok((3, 8)));
        assert_eq!(k_of_n_in("shard", "auto/8", &env(&[("SLURM_ARRAY_TASK_ID", "0"), ("SLURM_ARRAY_TASK_MIN", "0")])), Ok((1, 8)));
        assert_eq!(k_of_n_in("shard", "auto/8", &env(&[("SLURM_ARRAY_TASK_ID", "8"), ("SLURM_ARRAY_TASK_MIN", "1")])), Ok((8, 8)));
        assert_eq!(k_of_n_in("shard", "auto/8", &env(&[("SLURM_ARRAY_TASK_ID", "12"), ("SLURM_ARRAY_TASK_MIN", "5")])), Ok((8, 8)));
        assert_eq!(k_of_n_in("part", "auto/4", &env(&[("JOB_COMPLETION_INDEX", "3")])), Ok((4, 4)));
        assert!(k_of_n_in("shard", "auto/4", &env(&[("JOB_COMPLETION_INDEX", "4")])).unwrap_err().contains("outside 1–4"));
        assert!(k_of_n_in("shard", "auto/4", &env(&[])).unwrap_err().contains("neither SLURM_ARRAY_TASK_ID"));
        assert!(k_of_n_in("shard", "auto/4", &env(&[("SLURM_ARRAY_TASK_ID", "x")])).unwrap_err().contains("not a whole number"));
        let (_, fields) = parse(&strings(&["--r-min", "abc"])).unwrap();
        assert_eq!(fields["r_min"], serde_json::json!("abc"));
    }
}
