//! `freshlab sweep` (issue 16): one experiment's config run over a grid of values, the
//! points spread over every core, one result per point and a combined CSV; `--shard k/n`
//! runs every n-th point (a batch scheduler's array job on many machines), and
//! `freshlab sweep --merge DIR` joins the shards' points into the same combined CSV.
//!
//! DIR holds `sweep.json` (the grid), `point-0001.json` ({config, result}, as `--out`
//! writes), `point-0001.csv` (the point's table, its grid values first) and, once every
//! point is there, `sweep.csv`.

use super::args::{Outputs, k_of_n, parse};
use super::{Failure, config_object, explain, set_field, usage_error, write_export};
use freshlab::core::input::nearest;
use freshlab::core::{limits, parallel};
use freshlab::experiments::registry::{canonical, visible_fields};
use freshlab::experiments::{Output, config_from_value, start};
use freshlab::table::{Cell, Table};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub const HELP: &str = "freshlab sweep <experiment> [--field value ...] --vary FIELD=V1,V2,... [--vary ...] --dir DIR
                       [--shard K/N] [--threads T] [--quiet]
freshlab sweep --merge DIR

Runs the experiment at every point of the grid (every combination of the --vary
values; the first --vary changes slowest), on every core (as many points at once as
the memory holds, by their estimates), and writes into DIR one
result per point (point-0001.json, point-0001.csv) and the combined sweep.csv.
A list field varies by single values: --vary capacities=0.01,0.1 runs [0.01], then [0.1].

--shard K/N runs only points K, K+N, K+2N, … (K from 1 to N), for a batch scheduler
spreading the grid over machines; --shard auto/N takes K from the scheduler: Slurm's
array (SLURM_ARRAY_TASK_ID, from SLURM_ARRAY_TASK_MIN) or a Kubernetes Indexed Job
(JOB_COMPLETION_INDEX). GNU parallel: --shard {}/N. Each shard writes its points into
DIR (a shared or copied directory); --merge DIR then checks every point against the grid
(its configuration, its result, its CSV row for row) and writes sweep.csv, the same file
an unsharded sweep writes. --resume reruns only the points whose files are missing,
damaged or cut short. A grid has at most 100,000 points; each field is varied once.
";

/// The grid, as written to `sweep.json`: what every shard must agree on.
struct Grid {
    experiment: String,
    base: Map<String, Value>,
    vary: Vec<(String, Vec<Value>)>,
}

/// The most points a sweep runs.
const MAX_POINTS: usize = 100_000;

impl Grid {
    /// The number of points: the product of the values' counts, checked against
    /// [`MAX_POINTS`] as it is formed (64 fields of two values each no longer wrap to 0).
    fn points(&self) -> Result<usize, Failure> {
        let mut points: usize = 1;
        for (field, values) in &self.vary {
            if values.is_empty() {
                return Err(usage_error(format!("--vary {field}: has no values; give at least one, e.g. --vary {field}=1,2")));
            }
            points = points.checked_mul(values.len()).filter(|&p| p <= MAX_POINTS).ok_or_else(|| {
                let counts: Vec<String> = self.vary.iter().map(|(f, v)| format!("{} of {f}", v.len())).collect();
                usage_error(format!("--vary: the grid ({}) has over 100,000 points, the most a sweep runs; vary fewer fields or values", counts.join(" × ")))
            })?;
        }
        Ok(points)
    }

    /// The varied values of point `p` (0-based), the first field changing slowest.
    fn values(&self, p: usize) -> Vec<(&str, &Value)> {
        let mut rest = p;
        let mut out = vec![];
        for (field, values) in self.vary.iter().rev() {
            out.push((field.as_str(), &values[rest % values.len()]));
            rest /= values.len();
        }
        out.reverse();
        out
    }

    fn config(&self, p: usize) -> Map<String, Value> {
        let mut object = self.base.clone();
        for (field, value) in self.values(p) {
            set_field(&mut object, &self.experiment, field, value.clone());
        }
        object
    }

    fn to_json(&self, points: usize) -> Value {
        json!({ "experiment": self.experiment, "base": self.base, "vary": self.vary.iter().map(|(f, v)| json!([f, v])).collect::<Vec<_>>(), "points": points })
    }

    fn from_json(value: &Value, path: &Path) -> Result<Grid, Failure> {
        let bad = || usage_error(format!("{}: not a sweep's grid (written by freshlab sweep); run the sweep again", path.display()));
        let experiment = value["experiment"].as_str().ok_or_else(bad)?.to_string();
        let base = value["base"].as_object().ok_or_else(bad)?.clone();
        let vary = value["vary"]
            .as_array()
            .ok_or_else(bad)?
            .iter()
            .map(|pair| Some((pair.get(0)?.as_str()?.to_string(), pair.get(1)?.as_array()?.clone())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        let grid = Grid { experiment, base, vary };
        // the manifest is checked as a new sweep's grid is: a point count it claims must
        // be the grid's (a tampered or truncated manifest is named, not trusted)
        let points = grid.points().map_err(|e| usage_error(format!("{}: {}", path.display(), e.message)))?;
        if value["points"].as_u64() != Some(points as u64) {
            return Err(usage_error(format!("{}: claims {} points but its grid has {points}; it was changed or cut: run the sweep again", path.display(), value["points"])));
        }
        check_vary(&grid.experiment, &grid.vary).map_err(|e| usage_error(format!("{}: {}", path.display(), e.message)))?;
        Ok(grid)
    }
}

/// Every varied field is a setting of the experiment, varied once (a field in two
/// --vary would be run with the later values and labelled with the earlier).
fn check_vary(experiment: &str, vary: &[(String, Vec<Value>)]) -> Result<(), Failure> {
    let visible = visible_fields(experiment);
    for (k, (field, _)) in vary.iter().enumerate() {
        if !visible.iter().any(|v| v == field) {
            let near = nearest(field, visible.iter().map(String::as_str))
                .map_or_else(|| format!("'freshlab {} --help' lists them", freshlab::experiments::registry::command(experiment)), |n| format!("did you mean {n}?"));
            return Err(usage_error(format!("--vary {field}: not a setting of {experiment}; {near}")));
        }
        if vary[..k].iter().any(|(f, _)| f == field) {
            return Err(usage_error(format!("--vary {field}: given twice; give its values once, e.g. --vary {field}=1,2,3")));
        }
    }
    Ok(())
}

fn io(path: &Path, e: std::io::Error) -> Failure {
    Failure { message: format!("cannot write {}: {e}", path.display()), code: 1 }
}

fn point_file(dir: &Path, p: usize, ext: &str) -> PathBuf {
    dir.join(format!("point-{:04}.{ext}", p + 1))
}

/// `freshlab sweep …`.
pub fn main(args: &[String]) -> Result<(), Failure> {
    if args.is_empty() || args.iter().any(|a| a == "--help" || a == "-h") {
        print!("{HELP}");
        return Ok(());
    }
    if args[0] == "--merge" {
        let dir = args.get(1).ok_or_else(|| usage_error("--merge needs the sweep's directory: freshlab sweep --merge DIR"))?;
        if args.len() > 2 {
            return Err(usage_error(format!("freshlab sweep --merge takes only the directory (got also '{}')", args[2])));
        }
        return merge(Path::new(dir), false).map(|_| ());
    }
    let experiment = canonical(&args[0]).ok_or_else(|| usage_error(format!("freshlab sweep needs an experiment first, such as policies (got '{}')\n\n{HELP}", args[0])))?;
    // the sweep's own flags, then the experiment's fields as any command takes them
    let (mut vary, mut dir, mut shard, mut resume, mut rest) = (Vec::new(), None, None, false, Vec::new());
    let mut k = 1;
    while k < args.len() {
        let value = |k: usize| args.get(k + 1).cloned().ok_or_else(|| usage_error(format!("{} needs a value", args[k])));
        match args[k].as_str() {
            "--vary" => vary.push(value(k)?),
            "--dir" => dir = Some(value(k)?),
            "--shard" => shard = Some(value(k)?),
            "--merge" => return Err(usage_error("--merge takes only the directory: freshlab sweep --merge DIR")),
            "--resume" => {
                resume = true;
                k += 1;
                continue;
            }
            other => {
                rest.push(other.to_string());
                k += 1;
                continue;
            }
        }
        k += 2;
    }
    let dir = PathBuf::from(dir.ok_or_else(|| usage_error("freshlab sweep needs --dir DIR, where each point's result is written"))?);
    if vary.is_empty() {
        return Err(usage_error("freshlab sweep needs at least one --vary FIELD=V1,V2,…, e.g. --vary seed=1,2,3"));
    }
    let (outputs, fields) = parse(&rest).map_err(usage_error)?;
    let from_file = outputs.config.is_some();
    let base = config_object(Some(experiment), &outputs, fields, None)?;
    let grid = Grid { experiment: experiment.to_string(), base, vary: vary.iter().map(|v| parse_vary(v)).collect::<Result<_, _>>()? };
    check_vary(experiment, &grid.vary)?;
    let (index, count) = match &shard {
        Some(text) => k_of_n("shard", text).map_err(usage_error)?,
        None => (1, 1),
    };
    let points = grid.points()?;
    // every point's config is checked before any runs; with --resume, the points whose
    // files are there and whole are kept
    let mut configs = Vec::new();
    let mut kept = 0;
    for p in (index - 1..points).step_by(count) {
        if resume && check_point(&grid, p, &dir).is_ok() {
            kept += 1;
            continue;
        }
        let config = config_from_value(Value::Object(grid.config(p))).and_then(|c| c.validate(&limits::here()).map(|_| c)).map_err(|e| {
            let at: Vec<String> = grid.values(p).iter().map(|(f, v)| format!("{f} = {v}")).collect();
            let failure = explain(&e, from_file);
            usage_error(format!("point {} ({}): {}", p + 1, at.join(", "), failure.message))
        })?;
        configs.push((p, config));
    }
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    let manifest = dir.join("sweep.json");
    let text = serde_json::to_string_pretty(&grid.to_json(points)).expect("a grid serialises") + "\n";
    match std::fs::read_to_string(&manifest) {
        Ok(existing) if existing != text => {
            return Err(usage_error(format!("{} holds another sweep's grid; use another --dir or remove it", dir.display())));
        }
        _ => std::fs::write(&manifest, &text).map_err(|e| io(&manifest, e))?,
    }
    if resume && !outputs.quiet {
        eprintln!("freshlab: --resume: {kept} points already done and whole, {} to run", configs.len());
    }
    run_points(&grid, configs, &dir, &outputs)?;
    if count == 1 {
        merge(&dir, outputs.quiet)?;
    } else if !outputs.quiet {
        eprintln!("freshlab: shard {index}/{count} done; when every shard is, join them with: freshlab sweep --merge {}", dir.display());
    }
    Ok(())
}

/// "capacities=0.01,0.1" → ("capacities", [0.01, 0.1]).
fn parse_vary(text: &str) -> Result<(String, Vec<Value>), Failure> {
    let (field, values) = text.split_once('=').ok_or_else(|| usage_error(format!("--vary {text}: write FIELD=V1,V2,…, e.g. --vary seed=1,2,3")))?;
    let field = field.trim().trim_start_matches("--").replace('-', "_");
    let values: Vec<Value> = values.split(',').map(|t| serde_json::from_str(t.trim()).unwrap_or_else(|_| Value::String(t.trim().into()))).collect();
    if field.is_empty() || values.iter().any(|v| v.as_str() == Some("")) {
        return Err(usage_error(format!("--vary {text}: a field name and non-empty values are needed, e.g. --vary seed=1,2,3")));
    }
    Ok((field, values))
}

/// Runs the points on every core allowed (each point on one thread when there are more
/// points than threads) and writes each point's files as it ends.
fn run_points(grid: &Grid, configs: Vec<(usize, freshlab::experiments::Config)>, dir: &Path, outputs: &Outputs) -> Result<(), Failure> {
    parallel::set_threads(outputs.threads);
    // no more points at once than the memory holds: each may take its estimate
    let largest = configs.iter().map(|(_, c)| c.cost().bytes).fold(1.0, f64::max);
    let fit = (limits::here().bytes / largest).floor().max(1.0) as usize;
    let threads = parallel::threads().min(fit);
    parallel::set_threads(threads);
    let inner = if configs.len() >= threads { 1 } else { (parallel::threads() / configs.len().max(1)).max(1) };
    let total = configs.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let started = Instant::now();
    let mut work: Vec<(usize, Option<freshlab::experiments::Config>, Result<(), Failure>)> = configs.into_iter().map(|(p, c)| (p, Some(c), Ok(()))).collect();
    parallel::for_each(&mut work, |(p, config, result)| {
        parallel::set_threads(inner);
        let config = config.take().expect("each point runs once");
        *result = run_point(grid, *p, config, dir);
        let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if !outputs.quiet && result.is_ok() {
            let at: Vec<String> = grid.values(*p).iter().map(|(f, v)| format!("{f}={v}")).collect();
            eprintln!("freshlab: point {} ({}) done, {n} of {total} after {:.1} s", *p + 1, at.join(" "), started.elapsed().as_secs_f64());
        }
    });
    work.into_iter().try_for_each(|(_, _, r)| r)
}

fn run_point(grid: &Grid, p: usize, config: freshlab::experiments::Config, dir: &Path) -> Result<(), Failure> {
    let mut job = start(config.clone()).map_err(|e| usage_error(format!("point {}: {}", p + 1, explain(&e, false).message)))?;
    while !job.done() {
        job.advance(2_000_000);
    }
    let output = job.finish();
    let json_path = point_file(dir, p, "json");
    write_export(&json_path.display().to_string(), &config, &output)?;
    let table = output.table();
    let values = grid.values(p);
    let mut columns: Vec<String> = vec!["point".into()];
    columns.extend(values.iter().map(|(f, _)| f.to_string()));
    columns.extend(table.columns);
    let prefix: Vec<Cell> = std::iter::once(Cell::Number((p + 1) as f64))
        .chain(values.iter().map(|(_, v)| v.as_f64().map_or_else(|| Cell::Text(v.as_str().map_or_else(|| v.to_string(), str::to_string)), Cell::Number)))
        .collect();
    let rows = table.rows.into_iter().map(|row| prefix.iter().cloned().chain(row).collect()).collect();
    let csv_path = point_file(dir, p, "csv");
    std::fs::write(&csv_path, Table { columns, rows }.to_csv()).map_err(|e| io(&csv_path, e))
}

/// Whether point `p`'s files in `dir` are its whole result: its JSON holds the grid's
/// configuration for `p` and a result, and its CSV holds that result's table, row for
/// row, after the point's grid values. Says what is wrong, naming the file.
fn check_point(grid: &Grid, p: usize, dir: &Path) -> Result<(), String> {
    let json_path = point_file(dir, p, "json");
    let text = std::fs::read_to_string(&json_path).map_err(|e| format!("{}: {e}", json_path.display()))?;
    let saved: Value = serde_json::from_str(&text).map_err(|e| format!("{}: not valid JSON ({e}): cut or damaged", json_path.display()))?;
    let want = config_from_value(Value::Object(grid.config(p))).map_err(|e| format!("the grid's point is not a valid configuration ({e})"))?;
    let config = config_from_value(saved["config"].clone()).map_err(|e| format!("{}: its configuration does not read ({e})", json_path.display()))?;
    if config != want {
        return Err(format!("{}: its configuration is not the grid's for this point (another sweep's, or changed)", json_path.display()));
    }
    let output: Output = serde_json::from_value(saved["result"].clone()).map_err(|e| format!("{}: its result does not read ({e})", json_path.display()))?;
    let rows = output.table().rows.len();
    let csv_path = point_file(dir, p, "csv");
    let mut reader = csv::Reader::from_path(&csv_path).map_err(|e| format!("{}: {e}", csv_path.display()))?;
    let mut count = 0;
    for record in reader.records() {
        let record = record.map_err(|e| format!("{}: {e}", csv_path.display()))?;
        if record.get(0) != Some((p + 1).to_string().as_str()) {
            return Err(format!("{}: row {} names point {}, not {}", csv_path.display(), count + 2, record.get(0).unwrap_or(""), p + 1));
        }
        count += 1;
    }
    if count != rows {
        return Err(format!("{}: holds {count} rows of the {rows} its result has: cut short", csv_path.display()));
    }
    Ok(())
}

/// Joins every point's CSV into `sweep.csv`, in point order; names the missing points
/// (and the shards that should have written them) if any is absent.
fn merge(dir: &Path, quiet: bool) -> Result<PathBuf, Failure> {
    let manifest = dir.join("sweep.json");
    let text = std::fs::read_to_string(&manifest).map_err(|e| usage_error(format!("{}: {e}; is {} a sweep's directory?", manifest.display(), dir.display())))?;
    let value: Value = serde_json::from_str(&text).map_err(|e| usage_error(format!("{}: not valid JSON ({e})", manifest.display())))?;
    let grid = Grid::from_json(&value, &manifest)?;
    let points = grid.points()?;
    let missing: Vec<usize> = (0..points).filter(|&p| !point_file(dir, p, "csv").exists() || !point_file(dir, p, "json").exists()).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(10).map(|p| (p + 1).to_string()).collect();
        let more = if missing.len() > 10 { format!(" and {} more", missing.len() - 10) } else { String::new() };
        return Err(usage_error(format!(
            "{} of {points} points have no result in {} yet (missing: {}{more}); run the shards that hold them (point P belongs to shard ((P − 1) mod N) + 1 of --shard K/N)",
            missing.len(),
            dir.display(),
            shown.join(", ")
        )));
    }
    // every point is checked against the grid before any is joined
    for p in 0..points {
        check_point(&grid, p, dir)
            .map_err(|why| usage_error(format!("point {} of {}: {why}; run it again (freshlab sweep … --resume reruns only such points)", p + 1, dir.display())))?;
    }
    let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    let mut header: Option<csv::StringRecord> = None;
    for p in 0..points {
        let path = point_file(dir, p, "csv");
        let mut reader = csv::Reader::from_path(&path).map_err(|e| usage_error(format!("{}: {e}", path.display())))?;
        let columns = reader.headers().map_err(|e| usage_error(format!("{}: {e}", path.display())))?.clone();
        match &header {
            None => {
                writer.write_record(&columns).expect("writing to memory cannot fail");
                header = Some(columns);
            }
            Some(h) if *h != columns => return Err(usage_error(format!("{}: its columns differ from point 1's; was it written by another sweep?", path.display()))),
            Some(_) => {}
        }
        for record in reader.records() {
            let record = record.map_err(|e| usage_error(format!("{}: {e}", path.display())))?;
            writer.write_record(&record).expect("writing to memory cannot fail");
        }
    }
    let out = dir.join("sweep.csv");
    std::fs::write(&out, writer.into_inner().expect("writing to memory cannot fail")).map_err(|e| io(&out, e))?;
    if !quiet {
        eprintln!("freshlab: wrote {} ({points} points)", out.display());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(vary: Vec<(String, Vec<Value>)>) -> Grid {
        Grid { experiment: "policies".into(), base: Map::new(), vary }
    }

    /// Issue 45: 64 fields of two values each made 2⁶⁴ points, which wrapped to 0 and
    /// wrote an empty sweep; the count is checked as it is formed.
    #[test]
    fn a_grid_too_large_is_refused_before_it_wraps() {
        let wide = grid((0..64).map(|k| (format!("f{k}"), vec![json!(1), json!(2)])).collect());
        assert!(wide.points().unwrap_err().message.contains("over 100,000 points"), "{}", wide.points().err().unwrap().message);
        let ok = grid(vec![("seed".into(), vec![json!(1), json!(2), json!(3)]), ("capacities".into(), vec![json!(0.1), json!(0.9)])]);
        assert_eq!(ok.points().ok(), Some(6));
        let empty = grid(vec![("seed".into(), vec![])]);
        assert!(empty.points().unwrap_err().message.contains("has no values"));
        assert!(check_vary("policies", &[("seed".into(), vec![json!(1)]), ("seed".into(), vec![json!(2)])]).unwrap_err().message.contains("given twice"));
        assert!(check_vary("policies", &[("politeness_secs".into(), vec![json!(1)])]).unwrap_err().message.contains("did you mean politeness_seconds?"));
    }
}
