//! The `freshlab` command: every experiment of the page, from flags or a JSON config.

mod args;

use args::{Outputs, flag_for, parse};
use freshlab::chart::draw::figure_svg;
use freshlab::chart::figures::{figures, sig, thousands};
use freshlab::chart::theme::DrawOptions;
use freshlab::experiment::{Config, Output, config_from_value, start};
use freshlab::input::InputError;
use freshlab::math::bursts::burst_bound;
use freshlab::table::table;
use serde_json::{Map, Value, json};
use std::io::{IsTerminal, Read, Write};
use std::time::{Duration, Instant};

const USAGE: &str = "\
freshlab — a laboratory for web-crawler revisit policies under politeness

usage: freshlab <command> [--field value ...] [--json] [--svg FILE] [--png FILE] [--csv FILE] [--out FILE]

commands:
  eq59      level sets of Eq 5-9, MERGE's factor over (r, c) (thesis Fig 5.6);
            --json prints {\"min\": m, \"r\": r, \"c\": c}
  factors   RANDOM's and MERGE's factors against x = λ/f (Fig 5.2)
  bursts    Eq 5-11's bound on channel bursts (Fig 5.7); --n N --x X prints the bound
  certify   a certified lower bound for Eq 5-9 (Conjecture 5.9)
  policies  MERGE, RANDOM, DELAYED, UNPOLITE and deployed crawlers on a WEBBASE-like
            repository (Fig 5.8); --webbase starts from the full-scale settings;
            --repository pages.csv runs them on your own page list
  allocate  the four allocations (uniform, proportional, OPT_UNPOLITE, OPT_POLITE) of a
            page list or the generator's pages: --repository pages.csv --capacity C
            (requests a day) --politeness-seconds P (0: no limit); --json gives each
            allocation's freshness and per-page frequencies in the file's order
  per-page  one page's simulated factor with confidence intervals against Eq 5-2/5-8
  channel   requests per window, per-page against per-server spacing, and Eq 5-11
  sensors   robots vs sensors on the same page histories (Zemskov 2002), full scale
  wikipedia MERGE, MERGE2, UNPOLITE, RANDOM and GREEDY on non-Poisson changes (thesis
            Fig 6.3): --trace FILE.csv replays a page,timestamp trace, otherwise the
            bursty generator runs (--generator.articles N …); --thesis: 10,000
            articles at P = 15 s
  partition distributed crawling (Exposto 2008): hash vs graph partitioning of a
            synthetic web among 2–30 robots under fixed, Eq 5.4 and dynamic politeness,
            simulated and by Eq 5.1–5.3; --thesis: the sample's 1.25 M URLs, every scheme
  trace     writes the generator's trace as CSV (page,timestamp) to standard output
  run       any experiment from --config FILE.json ('-' reads standard input);
            --json prints the same result object the page receives
  help      this text; 'freshlab <command> --help' lists a command's fields

Every field of an experiment's JSON config is also a flag: r_min is --r-min, and a
nested field is written with a dot: --repository.pages 50000.
Charts: --svg FILE or --png FILE [--scale 2 --width 900 --height 560 --dark --font-scale 1.5].
Data: --csv FILE; config and result: --out FILE.json (the page's JSON export).
";

/// An error worth one line, and the exit code it deserves.
pub struct Failure {
    pub message: String,
    pub code: i32,
}

fn usage_error(message: impl Into<String>) -> Failure {
    Failure { message: message.into(), code: 2 }
}

/// "--levels (item 2): must increase" from an error about field `levels[1]`.
fn explain(e: &InputError, from_file: bool) -> Failure {
    if e.field.is_empty() {
        return usage_error(e.message.clone());
    }
    let (base, index) = match e.field.split_once('[') {
        Some((b, rest)) => (b, rest.trim_end_matches(']').parse::<usize>().ok()),
        None => (e.field.as_str(), None),
    };
    let item = index.map(|i| format!(" (item {})", i + 1)).unwrap_or_default();
    let name = if from_file { format!("{} ({}){item}", e.field, flag_for(base)) } else { format!("{}{item}", flag_for(base)) };
    usage_error(format!("{name}: {}", e.message))
}

fn experiment_name(command: &str) -> Option<&'static str> {
    Some(match command {
        "eq59" => "level_sets",
        "factors" => "factor_curves",
        "bursts" => "bursts",
        "certify" => "certify",
        "policies" => "policies",
        "allocate" => "allocate",
        "per-page" => "per_page",
        "channel" => "channel",
        "sensors" => "sensors",
        "wikipedia" | "trace" => "wikipedia",
        "partition" => "partition",
        _ => return None,
    })
}

pub fn main_with(argv: &[String]) -> Result<(), Failure> {
    let Some(command) = argv.first() else {
        return Err(usage_error(USAGE));
    };
    let rest = &argv[1..];
    if matches!(command.as_str(), "help" | "--help" | "-h") {
        print!("{USAGE}");
        return Ok(());
    }
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        print!("{}", command_help(command)?);
        return Ok(());
    }
    let (outputs, mut fields) = parse(rest).map_err(usage_error)?;
    let from_file = outputs.config.is_some();
    let mut object = match &outputs.config {
        Some(path) => read_config(path)?,
        None => Map::new(),
    };
    let experiment = match command.as_str() {
        "run" => {
            if outputs.config.is_none() {
                return Err(usage_error("freshlab run needs --config FILE.json (or --config - to read standard input)"));
            }
            None
        }
        other => Some(experiment_name(other).ok_or_else(|| usage_error(format!("unknown command '{other}'\n\n{USAGE}")))?),
    };
    if let Some(name) = experiment {
        object.insert("experiment".into(), Value::String(name.into()));
    }
    // bursts: --x asks for the bound at one excess
    let excess = if command == "bursts" { fields.remove("x") } else { None };
    if command == "policies" && fields.remove("webbase").is_some() {
        let preset = serde_json::to_value(freshlab::revisit::repository::PoliciesConfig::webbase()).expect("configs serialise");
        if let Value::Object(preset) = preset {
            for (k, v) in preset {
                object.entry(k).or_insert(v);
            }
        }
    }
    if command == "wikipedia" && fields.remove("thesis").is_some() {
        let preset = serde_json::to_value(freshlab::wikipedia::thesis_scale()).expect("configs serialise");
        if let Value::Object(preset) = preset {
            for (k, v) in preset {
                object.entry(k).or_insert(v);
            }
        }
    }
    if command == "partition" && fields.remove("thesis").is_some() {
        let preset = serde_json::to_value(freshlab::distributed::thesis_scale()).expect("configs serialise");
        if let Value::Object(preset) = preset {
            for (k, v) in preset {
                object.entry(k).or_insert(v);
            }
        }
    }
    if matches!(command.as_str(), "policies" | "allocate") {
        // --repository FILE and --page-list FILE name a page list (--repository.pages N is the generator's)
        for key in ["repository", "page_list"] {
            if fields.get(key).is_some_and(|v| !v.is_object()) {
                let path = fields.remove(key).expect("present");
                object.insert("page_list".into(), Value::String(read_page_list(&path, key)?));
                object.entry("source").or_insert(Value::String("page_list".into()));
            }
        }
    }
    if let Some(path) = fields.remove("trace") {
        object.insert("trace".into(), Value::String(read_trace(&path)?));
        object.entry("source").or_insert(Value::String("trace".into()));
    }
    let defaults = experiment.map(|name| serde_json::to_value(config_from_value(json!({ "experiment": name })).expect("defaults are valid")).expect("configs serialise"));
    for (k, v) in fields {
        // a list field given one value is a list of one
        let is_list = defaults.as_ref().and_then(|d| k.split('.').try_fold(d, |node, part| node.get(part))).is_some_and(Value::is_array);
        let v = if is_list && !v.is_array() { Value::Array(vec![v]) } else { v };
        insert_path(&mut object, &k, v);
    }
    let config = config_from_value(Value::Object(object)).map_err(|e| explain(&e, from_file))?;
    if let Some(x) = excess {
        return print_burst_bounds(&config, &x, &outputs);
    }
    if command == "trace" {
        let Config::Wikipedia(c) = &config else { unreachable!("trace builds a wikipedia config") };
        let trace = c.generator.generate(c.seed, freshlab::wikipedia::GENERATOR_STREAM).map_err(|e| explain(&e, from_file))?;
        print!("{}", trace.to_csv());
        return Ok(());
    }
    let output = execute(config.clone(), &outputs).map_err(|e| explain(&e, from_file))?;
    write_files(&output, &outputs)?;
    if let Some(path) = &outputs.out {
        let text = serde_json::to_string_pretty(&json!({ "config": config, "result": output })).expect("results serialise");
        std::fs::write(path, text + "\n").map_err(|e| Failure { message: format!("cannot write {path}: {e}"), code: 1 })?;
    }
    print_result(command, &output, &outputs);
    Ok(())
}

/// Sets `a.b.c` in nested objects, creating them as needed.
fn insert_path(object: &mut Map<String, Value>, path: &str, value: Value) {
    match path.split_once('.') {
        None => {
            object.insert(path.to_string(), value);
        }
        Some((head, rest)) => {
            let child = object.entry(head.to_string()).or_insert_with(|| Value::Object(Map::new()));
            if !child.is_object() {
                *child = Value::Object(Map::new());
            }
            insert_path(child.as_object_mut().expect("an object"), rest, value);
        }
    }
}

/// The text of a trace file, checked (encoding, rows) before the run starts.
fn read_trace(path: &Value) -> Result<String, Failure> {
    let Value::String(path) = path else {
        return Err(usage_error(format!("--trace needs a file name (got {path})")));
    };
    let bytes = std::fs::read(path).map_err(|e| usage_error(format!("cannot read trace file {path}: {e}")))?;
    freshlab::model::trace::parse(&bytes).map_err(|e| usage_error(format!("--trace {path}: {}", e.message)))?;
    Ok(String::from_utf8(bytes).expect("parse checked the encoding"))
}

/// The text of a page list, checked (encoding, header, rows) before the run starts.
fn read_page_list(path: &Value, flag: &str) -> Result<String, Failure> {
    let flag = flag_for(flag);
    let Value::String(path) = path else {
        return Err(usage_error(format!("{flag} needs a CSV file name (got {path})")));
    };
    let bytes = std::fs::read(path).map_err(|e| usage_error(format!("cannot read page list {path}: {e}")))?;
    freshlab::model::page_list::parse(&bytes, "page_list").map_err(|e| usage_error(format!("{flag} {path}: {}", e.message)))?;
    Ok(String::from_utf8(bytes).expect("parse checked the encoding"))
}

fn read_config(path: &str) -> Result<Map<String, Value>, Failure> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| usage_error(format!("cannot read standard input: {e}")))?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| usage_error(format!("cannot read config file {path}: {e}")))?
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(usage_error(format!("{path}: the config must be a JSON object such as {{\"experiment\": \"level_sets\"}}"))),
        Err(e) => Err(usage_error(format!("{path}: not valid JSON: {e}"))),
    }
}

fn command_help(command: &str) -> Result<String, Failure> {
    let name = experiment_name(command).ok_or_else(|| usage_error(format!("no help for '{command}'\n\n{USAGE}")))?;
    let defaults = config_from_value(json!({ "experiment": name })).expect("defaults are valid");
    let Value::Object(map) = serde_json::to_value(&defaults).expect("configs serialise") else { unreachable!() };
    let mut text = format!("freshlab {command}: fields and their defaults\n");
    for (k, v) in map.iter().filter(|(k, _)| *k != "experiment") {
        match v {
            Value::Object(inner) => {
                for (ik, iv) in inner {
                    text.push_str(&format!("  {:<34} {iv}\n", flag_for(&format!("{k}.{ik}"))));
                }
            }
            _ => text.push_str(&format!("  {:<34} {v}\n", flag_for(k))),
        }
    }
    if command == "bursts" {
        text.push_str("  --x                                an excess; prints Eq 5-11's bound at x for each n\n");
    }
    if command == "wikipedia" {
        text.push_str("  --trace FILE.csv                   replays a trace of page,timestamp rows (ISO-8601 or Unix seconds)\n");
        text.push_str("  --thesis                           the thesis's scale: 10,000 articles, P = 15 s (GREEDY takes hours)\n");
    }
    if command == "partition" {
        text.push_str("  --thesis                           the sample's scale: 10,039 hosts, 1.25 M URLs, every scheme and politeness\n");
    }
    if matches!(command, "policies" | "allocate") {
        text.push_str("  --repository FILE.csv              your own pages: page,server,change_rate[,weight][,frequency] (per day)\n");
    }
    if command == "policies" {
        text.push_str("  --webbase                          start from the WEBBASE scale (14.5 M pages, 5,462 servers, P = 15 s, 6 years)\n");
    }
    text.push_str("outputs: --json  --svg FILE  --png FILE  --scale 2  --csv FILE  --out FILE.json  --width PX  --height PX  --dark  --font-scale F  --quiet\n");
    Ok(text)
}

/// Runs the job, reporting progress on a terminal's standard error once a second.
fn execute(config: Config, outputs: &Outputs) -> Result<Output, InputError> {
    let mut job = start(config)?;
    let show = !outputs.quiet && std::io::stderr().is_terminal();
    let started = Instant::now();
    let mut last = Instant::now();
    while !job.done() {
        let fraction = job.advance(2_000_000);
        if show && last.elapsed() > Duration::from_secs(1) {
            eprint!("\r{:5.1}% after {:.0} s", 100.0 * fraction, started.elapsed().as_secs_f64());
            last = Instant::now();
        }
    }
    if show && started.elapsed() > Duration::from_secs(1) {
        eprintln!("\rdone in {:.1} s          ", started.elapsed().as_secs_f64());
    }
    Ok(job.finish())
}

fn write_files(output: &Output, outputs: &Outputs) -> Result<(), Failure> {
    let write = |path: &str, text: String| std::fs::write(path, text).map_err(|e| Failure { message: format!("cannot write {path}: {e}"), code: 1 });
    let all = figures(output);
    let each = |path: &str, render: &dyn Fn(&freshlab::chart::figure::Figure) -> Result<Vec<u8>, String>| -> Result<(), Failure> {
        for (k, fig) in all.iter().enumerate() {
            // the first figure goes to FILE, the others to FILE-2, FILE-3…
            let name = if k == 0 { path.to_string() } else { numbered(path, k + 1) };
            let bytes = render(fig).map_err(|e| Failure { message: e, code: 1 })?;
            std::fs::write(&name, bytes).map_err(|e| Failure { message: format!("cannot write {name}: {e}"), code: 1 })?;
            if k > 0 && !outputs.quiet {
                eprintln!("freshlab: wrote figure {} to {name}", k + 1);
            }
        }
        Ok(())
    };
    if let Some(path) = &outputs.svg {
        let options = DrawOptions { dark: outputs.dark, pixel_ratio: 1.0, font_scale: outputs.font_scale };
        each(path, &|fig| figure_svg(fig, outputs.width, outputs.height, &options).map(String::into_bytes))?;
    }
    if let Some(path) = &outputs.png {
        let options = DrawOptions { dark: outputs.dark, pixel_ratio: outputs.scale, font_scale: outputs.font_scale };
        each(path, &|fig| png(fig, outputs.width, outputs.height, &options))?;
    }
    if let Some(path) = &outputs.csv {
        write(path, table(output).to_csv())?;
    }
    Ok(())
}

/// A PNG of the figure (the rasteriser and its font exist only in native builds; the
/// test harness also compiles this program for WebAssembly, where it is never run).
#[cfg(not(target_arch = "wasm32"))]
fn png(fig: &freshlab::chart::figure::Figure, width: u32, height: u32, options: &DrawOptions) -> Result<Vec<u8>, String> {
    freshlab::chart::raster::figure_png(fig, width, height, options)
}

#[cfg(target_arch = "wasm32")]
fn png(_: &freshlab::chart::figure::Figure, _: u32, _: u32, _: &DrawOptions) -> Result<Vec<u8>, String> {
    Err("PNG output needs the native build of freshlab".into())
}

/// chart.svg → chart-2.svg
fn numbered(path: &str, k: usize) -> String {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.contains('/') => format!("{stem}-{k}.{ext}"),
        _ => format!("{path}-{k}"),
    }
}

fn print_result(command: &str, output: &Output, outputs: &Outputs) {
    let mut out = std::io::stdout().lock();
    let text = match (command, output, outputs.json) {
        ("eq59", Output::LevelSets(o), true) => json!({"min": o.minimum.value, "r": o.minimum.r, "c": o.minimum.c}).to_string(),
        ("certify", Output::Certify(o), true) => json!({
            "lower_bound": o.lower_bound,
            "region": {"r_min": o.config.r_min, "r_max": o.config.r_max, "c_min": o.config.c_min, "c_max": o.config.c_max},
            "upper_bound": o.upper_bound,
            "best": {"r": o.best_r, "c": o.best_c},
            "status": o.status,
            "boxes_split": o.boxes_split,
            "tails": o.tails,
            "global_bound": o.global_bound,
        })
        .to_string(),
        (_, _, true) => serde_json::to_string(output).expect("results serialise"),
        (_, _, false) => figures(output).into_iter().map(|f| f.summary).collect::<Vec<_>>().join("\n"),
    };
    let _ = writeln!(out, "{text}");
}

fn print_burst_bounds(config: &Config, x: &Value, outputs: &Outputs) -> Result<(), Failure> {
    let Config::Bursts(cfg) = config else { unreachable!("only bursts takes --x") };
    let x = x.as_f64().filter(|v| v.is_finite() && *v >= 0.0).ok_or_else(|| usage_error(format!("--x must be a number ≥ 0 (got {x})")))?;
    let rows: Vec<Value> = cfg.n.iter().map(|&n| json!({"n": n, "x": x, "bound": burst_bound(n, x)})).collect();
    if outputs.json {
        let v = if rows.len() == 1 { rows[0].clone() } else { Value::Array(rows) };
        println!("{v}");
    } else {
        for &n in &cfg.n {
            println!("n = {}: Pr[X_t > E[X_t] + {}] < {}", thousands(n), sig(x, 6), sig(burst_bound(n, x), 6));
        }
    }
    if outputs.svg.is_some() || outputs.png.is_some() || outputs.csv.is_some() {
        let output = execute(config.clone(), outputs).map_err(|e| explain(&e, false))?;
        write_files(&output, outputs)?;
    }
    Ok(())
}
