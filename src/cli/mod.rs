//! The `freshlab` command: every experiment of the page, from flags or a JSON config.

mod args;
mod parts;
mod progress;
mod stdin;
mod sweep;

use args::{OUTPUT_FLAGS, Outputs, flag_for, list_of, parse};
use freshlab::chart::draw::figure_svg;
use progress::Progress;

use freshlab::chart::theme::DrawOptions;
use freshlab::core::input::InputError;
use freshlab::core::input::nearest;
use freshlab::core::model::csv_rows;
use freshlab::core::{limits, speed};
use freshlab::experiments::registry::{canonical, choices, defaults, fields, files, presets, summaries, visible_fields};
use freshlab::experiments::{Config, FileInput, Output, config_from_value, start};
use serde_json::{Map, Value, json};
use std::io::{Read, Write};

/// The usage text: the tools, then every experiment of the registry.
fn usage() -> String {
    let mut text = String::from(
        "freshlab — a laboratory for web-crawler revisit policies under politeness\n\n\
         usage: freshlab <command> [--field value ...] [--json] [--svg FILE] [--png FILE] [--csv FILE] [--out FILE]\n\n\
         experiments:\n",
    );
    for (name, summary) in summaries() {
        text.push_str(&format!("  {:<14}{}\n", freshlab::experiments::registry::command(name), wrap(summary, 16)));
    }
    text.push_str(
        "\ntools:\n\
         \x20 run           any experiment from --config FILE.json ('-' reads standard input): a config, the page's\n\
         \x20               JSON export or an --out file; --json prints the same result object the page receives\n\
         \x20 sweep         one experiment over a grid of values on every core, or shards of it on many\n\
         \x20               machines: 'freshlab sweep --help'\n\
         \x20 join          joins the parts of one run (each run with --part K/N --out FILE.json, on one\n\
         \x20               machine or many) into the whole run's result: 'freshlab join --help'\n\
         \x20 trace         writes the bursty generator's trace as CSV (page,timestamp) to standard output\n\
         \x20 help          this text; 'freshlab <command> --help' lists a command's fields and presets\n\n\
         Every field of an experiment's JSON config is also a flag: r_min is --r-min, and a\n\
         nested field is written with a dot: --repository.pages 50000.\n\
         Charts: --svg FILE or --png FILE [--scale 2 --width 900 --height 560 --dark --font-scale 1.5].\n\
         Data: --csv FILE (or --out FILE.csv); config and result: --out FILE.json (the page's JSON export).\n\
         Runs: --threads N (default: every core; the result is the same with any number),\n\
         --quiet (no progress bar on standard error), --estimate (print the config and what it\n\
         would cost — work, memory, time — without running it), --part K/N (only part K of N,\n\
         for 'freshlab join').\n",
    );
    text
}

/// `text` wrapped at 88 columns, continuation lines indented by `indent`.
fn wrap(text: &str, indent: usize) -> String {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("a line");
        if !line.is_empty() && indent + line.len() + 1 + word.chars().count() > 88 {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines.join(&format!("\n{}", " ".repeat(indent)))
}

/// An error worth one line, and the exit code it deserves.
pub struct Failure {
    pub message: String,
    pub code: i32,
}

fn usage_error(message: impl Into<String>) -> Failure {
    Failure { message: message.into(), code: 2 }
}

/// Whether some experiment has a flag for `field` (or for the object holding it): what
/// the page and the command line set themselves (`boxes_pilot`) has none.
fn has_flag(field: &str) -> bool {
    let top = field.split('.').next().unwrap_or(field);
    freshlab::experiments::registry::NAMES.iter().any(|name| visible_fields(name).iter().any(|k| k.split('.').next() == Some(top)))
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
    let name = match (from_file, has_flag(base)) {
        (true, true) => format!("{} ({}){item}", e.field, flag_for(base)),
        (true, false) => format!("{}{item}", e.field),
        (false, _) => format!("{}{item}", flag_for(base)),
    };
    usage_error(format!("{name}: {}", e.message))
}

pub fn main_with(argv: &[String]) -> Result<(), Failure> {
    let Some(command) = argv.first() else {
        return Err(usage_error(usage()));
    };
    let rest = &argv[1..];
    if matches!(command.as_str(), "help" | "--help" | "-h") {
        print!("{}", usage());
        return Ok(());
    }
    if command == "sweep" {
        return sweep::main(rest);
    }
    if command == "join" {
        return parts::join(rest);
    }
    let experiment = match command.as_str() {
        "run" => None,
        "trace" => Some("bursty"),
        other => Some(canonical(other).ok_or_else(|| usage_error(format!("unknown command '{other}'\n\n{}", usage())))?),
    };
    if rest.iter().any(|a| a == "--help" || a == "-h") {
        let name = experiment.ok_or_else(|| usage_error("freshlab run takes --config FILE.json; its fields are the experiment's (see 'freshlab <experiment> --help')"))?;
        print!("{}", command_help(command, name));
        return Ok(());
    }
    let (outputs, fields) = parse(rest).map_err(usage_error)?;
    if let Some(arg) = outputs.positional.first()
        && experiment != Some("history")
    {
        return Err(usage_error(format!("unexpected argument '{arg}': options are written --name value")));
    }
    let from_file = outputs.config.is_some();
    let mut written = Vec::new();
    let mut object = config_object(experiment, &outputs, fields, Some(&mut written))?;
    if !outputs.positional.is_empty() {
        // files as arguments: the records of `freshlab history FILE…`, read as streams
        object.insert("paths".into(), Value::Array(outputs.positional.iter().cloned().map(Value::String).collect()));
        object.entry("source").or_insert_with(|| Value::String("files".into()));
    }
    // `-` or a pipe among the paths (an argument, or a config's): the records piped in,
    // kept in a file for the run (removed after it)
    let spooled = stdin::spool_streams(&mut object, outputs.config.as_deref() == Some("-"), outputs.quiet)?;
    let mut config = config_from_value(Value::Object(object)).map_err(|e| explain(&e, from_file))?;
    // a history's pages are counted over files whose first megabyte cannot tell them,
    // before they are priced (history::cost::counted_format)
    if let Config::History(history) = &config
        && !outputs.quiet
    {
        let counted = freshlab::experiments::history::cost::counted_bytes(history);
        if counted >= 100e6 {
            eprintln!("freshlab: counting the pages of {:.0} MB of records before pricing them (their first megabytes cannot tell them)…", counted / 1e6);
        }
    }
    if let Some((k, n)) = outputs.part {
        config = parts::part_of(config, k, n, outputs.out.as_deref())?;
    }
    if command == "trace" {
        return write_trace(&config).map_err(|e| explain(&e, from_file));
    }
    if outputs.estimate {
        // what the run would cost, and whether it may run here, without running it
        let refused = config.validate(&limits::here()).err().map(|e| explain(&e, from_file).message);
        // the time is this machine's: the model's times the probe's slowness, said beside it
        println!(
            "{}",
            json!({ "config": without_file_texts(&stdin::named(&config, spooled.as_ref()), rest), "cost": config.cost().on_this_machine(), "slowness": speed::slowness(), "refused": refused })
        );
        return Ok(());
    }
    let output = execute(config.clone(), &outputs).map_err(|e| explain(&e, from_file))?;
    if let Output::History(history) = &output
        && let Some(why) = &history.refused
    {
        // records that cannot be read: the file, line and fix, and nothing written
        return Err(usage_error(format!("records refused: {why}")));
    }
    write_files(&output, &outputs)?;
    // a file the run did not write (a tuning that kept no host file) fails the command
    // once the rest is written and the result, which says why, is printed
    let mut missing = Vec::new();
    for (flag, path) in &written {
        let shown = flag_for(flag);
        let Some(text) = output.file_out(flag) else {
            let help = freshlab::experiments::registry::files_out(output.name()).iter().find(|o| o.flag == *flag).map_or("", |o| o.help);
            missing.push(format!("{shown}: the run wrote no such file (the flag {help}; the result above says what the run made); nothing written to {path}"));
            continue;
        };
        std::fs::write(path, text).map_err(|e| Failure { message: format!("cannot write {path} ({shown}): {e}"), code: 1 })?;
        if !outputs.quiet {
            eprintln!("freshlab: wrote {path}");
        }
    }
    if let Some(path) = &outputs.out {
        if path.ends_with(".csv") {
            // --out FILE.csv: the result's table (history: the page list), as --csv writes it
            std::fs::write(path, output.table().to_csv()).map_err(|e| Failure { message: format!("cannot write {path} (--out): {e}"), code: 1 })?;
        } else {
            write_export(path, &stdin::named(&config, spooled.as_ref()), &output)?;
        }
    }
    match outputs.part {
        // a part's figures would show its servers' share alone: say where it went instead
        Some((k, n)) if !outputs.json => {
            if !outputs.quiet {
                eprintln!("freshlab: part {k}/{n} done; when every part is, join their --out files with: freshlab join PART.json …");
            }
        }
        _ => print_result(&output, &outputs),
    }
    if missing.is_empty() { Ok(()) } else { Err(Failure { message: missing.join("\n"), code: 1 }) }
}

/// The files experiment `name` writes besides its result (`--tuned FILE`): each flag
/// taken out of the fields, the field it turns on set, and (flag, path) returned.
fn files_out(name: &str, fields: &mut Map<String, Value>) -> Result<Vec<(&'static str, String)>, Failure> {
    let mut written = Vec::new();
    for out in freshlab::experiments::registry::files_out(name) {
        let Some(path) = fields.remove(out.flag) else { continue };
        let Value::String(path) = path else {
            return Err(usage_error(format!("{} needs a file name, e.g. {} {}", flag_for(out.flag), flag_for(out.flag), "tuned.xml")));
        };
        if let Some(field) = out.sets {
            fields.insert(field.into(), Value::Bool(true));
        }
        written.push((out.flag, path));
    }
    Ok(written)
}

/// `{config, result}` as the page's JSON export writes it, streamed to `path` (a result
/// with a frequency for each of millions of pages is never held as one string).
pub fn write_export(path: &str, config: &Config, output: &Output) -> Result<(), Failure> {
    #[derive(serde::Serialize)]
    struct Export<'a> {
        config: &'a Config,
        result: &'a Output,
    }
    let fail = |e: &dyn std::fmt::Display| Failure { message: format!("cannot write {path}: {e}"), code: 1 };
    let file = std::fs::File::create(path).map_err(|e| fail(&e))?;
    let mut writer = std::io::BufWriter::new(file);
    serde_json::to_writer_pretty(&mut writer, &Export { config, result: output }).map_err(|e| fail(&e))?;
    writer.write_all(b"\n").and_then(|()| writer.flush()).map_err(|e| fail(&e))
}

/// The configuration as `--estimate` prints it: a file's text (a page list of 50 MB)
/// replaced by what it is — the file named on the command line, its bytes, rows and
/// how a table's fields are separated.
fn without_file_texts(config: &Config, args: &[String]) -> Value {
    let mut shown = serde_json::to_value(config).expect("configs serialise");
    for input in files(config.name()) {
        let Some(Value::String(text)) = shown.get(input.field) else { continue };
        let file = args.windows(2).find(|w| input.flags.iter().any(|f| w[0] == flag_for(f))).map(|w| w[1].clone());
        let mut summary = json!({ "file": file, "bytes": text.len(), "rows": text.lines().count() });
        // a table's separator (a crawler's configuration is not a table)
        if input.table {
            summary["separator"] = json!(freshlab::core::model::csv_rows::Separator::of(text).name());
        }
        shown[input.field] = summary;
    }
    shown
}

/// The JSON config of a command: `--config FILE` (if given), then the presets, files and
/// fields given as flags, over the experiment's defaults. `written`: where the files the run writes besides its result (`--tuned FILE`) go,
/// once the experiment is known (from the command or the file); None where none may be
/// written (a sweep).
fn config_object(
    experiment: Option<&'static str>,
    outputs: &Outputs,
    mut fields: Map<String, Value>,
    written: Option<&mut Vec<(&'static str, String)>>,
) -> Result<Map<String, Value>, Failure> {
    let mut object = match &outputs.config {
        Some(path) => read_config(path)?,
        None if experiment.is_none() => return Err(usage_error("freshlab run needs --config FILE.json (or --config - to read standard input)")),
        None => Map::new(),
    };
    let name = match experiment {
        Some(name) => name,
        None => match object.get("experiment").and_then(Value::as_str).and_then(canonical) {
            Some(name) => name,
            None => config_from_value(Value::Object(object.clone())).map(|c| c.name()).map_err(|e| explain(&e, true))?,
        },
    };
    object.insert("experiment".into(), Value::String(name.into()));
    read_named_files(&mut object, name, outputs.config.as_deref())?;
    if let Some(written) = written {
        written.extend(files_out(name, &mut fields)?);
    }
    for (preset, _, config) in presets(name) {
        if fields.remove(preset).is_some() {
            let Value::Object(values) = serde_json::to_value(config).expect("configs serialise") else { unreachable!("a config is an object") };
            for (k, v) in values {
                object.entry(k).or_insert(v);
            }
        }
    }
    for input in files(name) {
        // `--repository FILE` names a file; `--repository.pages N` a field of the generator
        for &flag in input.flags {
            if fields.get(flag).is_none_or(Value::is_object) {
                continue;
            }
            let path = fields.remove(flag).expect("present");
            // (what the file implies, `source` or whose crawler, the configuration's reader
            // sets from its text, as for a JSON configuration's: `config_from_value`)
            object.insert(input.field.into(), Value::String(read_input(&path, flag, input)?));
        }
    }
    let defaults = serde_json::to_value(defaults(name).expect("a registered name")).expect("configs serialise");
    let visible = visible_fields(name);
    for (k, v) in fields {
        // every flag names a setting a user sees, and takes a value unless it is yes or no
        let known = visible.iter().any(|f| f == &k) || defaults.pointer(&format!("/{}", k.replace('.', "/"))).is_some_and(|d| d.is_object() && v.is_object());
        if !known {
            let candidates: Vec<String> =
                visible.iter().cloned().chain(presets(name).into_iter().map(|(p, _, _)| p.to_string())).chain(OUTPUT_FLAGS.iter().map(|f| f.replace('-', "_"))).collect();
            let hint = match nearest(&k, candidates.iter().map(String::as_str)) {
                Some(near) => format!("did you mean {}?", flag_for(near)),
                None => format!("'freshlab {} --help' lists every option", freshlab::experiments::registry::command(name)),
            };
            return Err(usage_error(format!("{} is not an option of {}; {hint}", flag_for(&k), freshlab::experiments::registry::command(name))));
        }
        if outputs.bare.contains(&k) {
            let default = defaults.pointer(&format!("/{}", k.replace('.', "/"))).cloned().unwrap_or(Value::Null);
            if !default.is_boolean() {
                let example = match &default {
                    Value::Array(items) => items.iter().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect::<Vec<_>>().join(","),
                    Value::String(text) => text.clone(),
                    Value::Null => "…".into(),
                    Value::Number(n) if n.as_f64().is_some_and(|x| x.fract() == 0.0 && x.abs() < 1e15) => format!("{}", n.as_f64().unwrap_or_default() as i64),
                    other => other.to_string(),
                };
                return Err(usage_error(format!("{} needs a value, e.g. {} {example}", flag_for(&k), flag_for(&k))));
            }
        }
        set_field(&mut object, name, &k, v);
    }
    Ok(object)
}

/// A JSON configuration's file fields given as `{"file": "pages.csv"}` — as `--estimate`
/// prints them, beside the file's bytes and rows — read as their flag reads the file:
/// the path as given, else beside the configuration file. Where the file's bytes are
/// not the configuration's, the run goes on with the file as it is and says so.
fn read_named_files(object: &mut Map<String, Value>, name: &str, config: Option<&str>) -> Result<(), Failure> {
    for input in files(name) {
        let Some(Value::Object(named)) = object.get(input.field) else { continue };
        let flag = flag_for(input.flags[0]);
        let Some(Value::String(file)) = named.get("file") else {
            return Err(usage_error(format!(
                "{} (in the config): give the file's text, or name it as {{\"file\": \"pages.csv\"}}, or add {flag} FILE beside --config",
                input.field
            )));
        };
        let beside = config.filter(|c| *c != "-").and_then(|c| std::path::Path::new(c).parent()).map(|dir| dir.join(file));
        let path = match beside {
            Some(beside) if !std::path::Path::new(file).exists() && beside.exists() => beside.to_string_lossy().into_owned(),
            _ => file.clone(),
        };
        let said = named.get("bytes").and_then(Value::as_u64);
        let text = read_input(&Value::String(path.clone()), input.flags[0], input)?;
        if let Some(said) = said.filter(|&b| b != text.len() as u64) {
            eprintln!("freshlab: {} {path} is {} bytes, where the config says {said} (the file changed since): running the file as it is now", input.field, text.len());
        }
        object.insert(input.field.into(), Value::String(text));
    }
    Ok(())
}

/// Sets field `path` (`a.b` for a nested field) of experiment `name`'s config; a list
/// field given one value becomes a list of one.
fn set_field(object: &mut Map<String, Value>, name: &str, path: &str, value: Value) {
    let defaults = serde_json::to_value(defaults(name).expect("a registered name")).expect("configs serialise");
    let is_list = path.split('.').try_fold(&defaults, |node, part| node.get(part)).is_some_and(Value::is_array);
    insert_path(object, path, if is_list { list_of(value) } else { value });
}

/// The bursty generator's trace as CSV on standard output.
fn write_trace(config: &Config) -> Result<(), InputError> {
    let Config::Bursty(c) = config else { unreachable!("trace builds a bursty config") };
    freshlab::core::field::Nested::validate(&c.generator, "generator.")?;
    c.generator.cost().check(&limits::here())?;
    print!("{}", c.generator.generate(c.seed)?.to_csv());
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

/// A file's size in words: whole KB under a MB, else MB to a tenth (a 2.8 MB file over a
/// 2 MB limit was said to be "2 MB, over the 2 MB limit", a host file's 256 KB limit "0 MB").
fn size_words(bytes: u64) -> String {
    if bytes < 1 << 20 {
        return format!("{} KB", bytes.div_ceil(1 << 10));
    }
    let mb = bytes as f64 / f64::from(1 << 20);
    if mb.fract() == 0.0 { format!("{mb} MB") } else { format!("{:.1} MB", (mb * 10.0).floor() / 10.0) }
}

/// The text of a file named by a flag (`--trace FILE`), its size checked before it is
/// read and its rows checked (encoding, header, every line) before the run starts.
fn read_input(path: &Value, flag: &str, input: &FileInput) -> Result<String, Failure> {
    let flag = flag_for(flag);
    let Value::String(path) = path else {
        return Err(usage_error(format!("{flag} needs a file name (got {path})")));
    };
    let size = std::fs::metadata(path).map_err(|e| usage_error(format!("cannot read {path} ({flag}): {e}")))?.len();
    if size > input.max_bytes {
        return Err(usage_error(format!("{flag} {path}: the file is {}, over the {} limit; keep fewer rows", size_words(size), size_words(input.max_bytes))));
    }
    let bytes = std::fs::read(path).map_err(|e| usage_error(format!("cannot read {path} ({flag}): {e}")))?;
    (input.check)(&bytes).map_err(|e| usage_error(format!("{flag} {path}: {}", e.message)))?;
    // the text as the check read it (a BOM dropped)
    let text = csv_rows::decode_as(&bytes, input.field, usize::MAX, "", "UTF-8 text").map_err(|e| usage_error(format!("{flag} {path}: {}", e.message)))?;
    Ok(text.to_owned())
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
        // a whole export — {"config": …, "result": …}, as the page and --out write it — is read as its config
        Ok(Value::Object(mut map)) if !map.contains_key("experiment") && map.get("config").is_some_and(|c| c.get("experiment").is_some()) => match map.remove("config") {
            Some(Value::Object(config)) => Ok(config),
            _ => unreachable!("checked above"),
        },
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(usage_error(format!("{path}: the config must be a JSON object such as {{\"experiment\": \"level_sets\"}}"))),
        Err(e) => Err(usage_error(format!("{path}: not valid JSON: {e}"))),
    }
}

fn command_help(command: &str, name: &str) -> String {
    let config = serde_json::to_value(defaults(name).expect("a registered name")).expect("configs serialise");
    let choices = choices(name);
    let mut text = format!("freshlab {command}: fields, their defaults and what they are\n");
    // in the order of the page's forms (every field of the defaults is described: a
    // registry test), with the label and help the forms show
    for f in fields(name) {
        let value = config.pointer(&format!("/{}", f.key.replace('.', "/"))).unwrap_or(&Value::Null);
        let help = if f.help.is_empty() { String::new() } else { format!(" — {}", f.help) };
        let range = if f.range.is_any() { String::new() } else { format!(" ({})", f.range.words()) };
        text.push_str(&format!("  {:<34} {value}{range}\n{:37}{}{help}\n", flag_for(&f.key), "", f.label));
        // the values it takes, one a line: "value: label" where the label says more
        for (v, label) in choices.iter().filter(|c| c.field == f.key).flat_map(|c| &c.options) {
            let line = if v.eq_ignore_ascii_case(label) { v.clone() } else { format!("{v}: {label}") };
            text.push_str(&format!("{:37}{line}\n", ""));
        }
    }
    for input in files(name) {
        let flags: Vec<String> = input.flags.iter().map(|f| format!("{} FILE", flag_for(f))).collect();
        text.push_str(&format!("  {:<34} {}\n", flags.join(", "), input.help));
    }
    for out in freshlab::experiments::registry::files_out(name) {
        text.push_str(&format!("  {:<34} {}\n", format!("{} FILE", flag_for(out.flag)), out.help));
    }
    for (preset, label, _) in presets(name) {
        text.push_str(&format!("  {:<34} {label}\n", flag_for(preset)));
    }
    text.push_str("outputs: --json  --svg FILE  --png FILE  --scale 2  --csv FILE  --out FILE.json  --width PX  --height PX  --dark  --font-scale F  --quiet  --threads N (default: every core)  --estimate (the cost, without running)  --part K/N (for freshlab join)\n");
    text
}

/// Runs the job, with progress on a terminal's standard error (`progress.rs`).
fn execute(config: Config, outputs: &Outputs) -> Result<Output, InputError> {
    let cost = config.cost();
    freshlab::core::parallel::set_threads(outputs.threads);
    let mut job = start(config)?;
    let mut progress = Progress::new(outputs.quiet, &cost.unit, cost.seconds);
    while !job.done() {
        let fraction = job.advance(2_000_000);
        progress.update(fraction, job.work());
    }
    progress.finish();
    Ok(job.finish())
}

fn write_files(output: &Output, outputs: &Outputs) -> Result<(), Failure> {
    let write = |path: &str, text: String| std::fs::write(path, text).map_err(|e| Failure { message: format!("cannot write {path}: {e}"), code: 1 });
    let all = output.figures();
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
        let options = DrawOptions { dark: outputs.dark, pixel_ratio: 1.0, font_scale: outputs.font_scale, text_frame: None };
        each(path, &|fig| figure_svg(fig, outputs.width, outputs.height, &options).map(String::into_bytes))?;
    }
    if let Some(path) = &outputs.png {
        let options = DrawOptions { dark: outputs.dark, pixel_ratio: outputs.scale, font_scale: outputs.font_scale, text_frame: None };
        each(path, &|fig| png(fig, outputs.width, outputs.height, &options))?;
    }
    if let Some(path) = &outputs.csv {
        write(path, output.table().to_csv())?;
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

fn print_result(output: &Output, outputs: &Outputs) {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let brief = output.brief();
    if outputs.json && brief.is_none() {
        // streamed, as --out is: the whole result is never one string
        if serde_json::to_writer(&mut out, output).is_ok() {
            let _ = writeln!(out);
        }
        return;
    }
    let text = match (outputs.json, brief) {
        (true, Some(b)) => b.json.to_string(),
        (true, None) => unreachable!("streamed above"),
        (false, Some(freshlab::experiments::Brief { text: Some(text), .. })) => text,
        (false, _) => output.figures().into_iter().map(|f| f.summary).collect::<Vec<_>>().join("\n"),
    };
    let _ = writeln!(out, "{text}");
}
