//! The fuzzer's cases (issue 13), the same natively and in WebAssembly: case k of seed s
//! takes experiment k mod 11, starts from its defaults or a preset, in half the cases
//! sets its named fields (objective, policies, schemes…) to values drawn from their
//! choices, and mutates one to three of its fields — boundary values, subnormals, ±∞ and NaN (null: what a page's
//! NaN becomes), huge and tiny numbers, wrong types, repeated and enormous lists, extremes
//! of two fields at once — or, for experiments that read files, mutates a page list or a
//! trace; or (one case in five) sets a single field, nested ones included, and nothing
//! else, as a flag does. Deterministic: the same (seed, k) is the same case on every target.

use freshlab::core::policy::crawler_files::{Crawler, shipped};
use freshlab::core::rng::{Purpose, Stream};
use freshlab::experiments::registry::{NAMES, choices, defaults, presets};
use serde_json::{Map, Value, json};

/// One case: the configuration as the page or a file would give it.
pub struct Case {
    pub experiment: &'static str,
    pub config: Value,
    /// What was changed, for the report.
    pub mutations: Vec<String>,
}

const NUMBERS: &[f64] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    3.0,
    10.0,
    1e-6,
    1e-12,
    1e-300,
    1e-308,
    2.2250738585072014e-308,
    5e-324,
    1e6,
    1e9,
    1e12,
    1e15,
    9007199254740992.0,
    1e18,
    1e300,
    1.7976931348623157e308,
    -1e300,
    0.999999999999,
    1.000000000001,
    123456.789,
    4294967296.0,
];

pub fn pick<'a, T>(rng: &mut Stream, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len() as u64) as usize]
}

/// Every path to a leaf (or a list) of a JSON object: ["repository", "pages"], ["n", "2"].
fn paths(value: &Value, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match value {
        Value::Object(map) => {
            for (k, v) in map {
                if k == "experiment" {
                    continue;
                }
                prefix.push(k.clone());
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            out.push(prefix.clone());
            for (k, v) in items.iter().enumerate().take(4) {
                prefix.push(k.to_string());
                paths(v, prefix, out);
                prefix.pop();
            }
        }
        _ => out.push(prefix.clone()),
    }
}

fn get_mut<'a>(value: &'a mut Value, path: &[String]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |node, key| match node {
        Value::Object(map) => map.get_mut(key),
        Value::Array(items) => key.parse::<usize>().ok().and_then(|k| items.get_mut(k)),
        _ => None,
    })
}

/// A value to put where `old` was.
pub fn mutant(old: &Value, rng: &mut Stream) -> Value {
    let number = |rng: &mut Stream| -> Value {
        let n = match rng.below(4) {
            0 => *pick(rng, NUMBERS),
            1 => -*pick(rng, NUMBERS),
            2 => old.as_f64().unwrap_or(1.0) * 10f64.powi(rng.below(25) as i32 - 12),
            _ => old.as_f64().unwrap_or(1.0) + rng.below(5) as f64 - 2.0,
        };
        serde_json::Number::from_f64(n).map_or(Value::Null, Value::Number)
    };
    if rng.below(5) < 2 {
        // a mild change that often stays valid: scaled a little, or one step away
        return match old {
            Value::Number(n) if n.is_u64() => json!(n.as_u64().unwrap_or(1).saturating_mul(1 + rng.below(3)) / (1 + rng.below(3))),
            Value::Number(n) => serde_json::Number::from_f64(n.as_f64().unwrap_or(1.0) * rng.uniform_in(0.25, 4.0)).map_or(Value::Null, Value::Number),
            Value::Bool(b) => json!(!b),
            Value::Array(items) if items.len() > 1 => Value::Array(items[..items.len() - 1].to_vec()),
            other => other.clone(),
        };
    }
    match rng.below(20) {
        0 => Value::Null, // NaN or ±∞ from the page
        1 => json!("abc"),
        2 => json!("0,5"),
        3 => json!(true),
        4 => json!([]),
        5 => json!({}),
        6 => json!(u64::MAX),
        7 => json!(9_223_372_036_854_775_808u64),
        8 => json!(-5),
        9 => match old {
            Value::Array(items) if !items.is_empty() => Value::Array(items.iter().chain(items.iter()).cloned().collect()),
            Value::Array(_) => json!([1]),
            other => json!([other.clone(), other.clone()]),
        },
        10 => match old {
            Value::Array(items) if !items.is_empty() => Value::Array(vec![items[0].clone(); 10_000]),
            _ => number(rng),
        },
        11 => match old {
            Value::Array(items) => Value::Array(items.iter().rev().cloned().collect()),
            Value::Bool(b) => json!(!b),
            Value::String(_) => json!(""),
            _ => number(rng),
        },
        12 => match old {
            Value::String(s) => Value::String(format!("{s}_not")),
            _ => number(rng),
        },
        _ => number(rng),
    }
}

/// One to three of the crawler's own settings (`name=value; …`), each at its shipped
/// value, −1, a whole number or a fraction: what a crawler engineer types over the file.
fn crawler_settings(config: &Value, rng: &mut Stream) -> String {
    let crawler: Crawler = serde_json::from_value(config["crawler"].clone()).unwrap_or(Crawler::Nutch);
    let known = shipped(crawler).settings;
    let mut parts: Vec<String> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        let setting = pick(rng, &known);
        if parts.iter().any(|p| p.starts_with(&format!("{}=", setting.name))) {
            continue;
        }
        let value = match rng.below(4) {
            0 => "-1".to_string(),
            1 => rng.below(100_000).to_string(),
            2 => format!("{:.3}", rng.uniform_in(0.0, 2.0)),
            _ => setting.value.clone(),
        };
        parts.push(format!("{}={value}", setting.name));
    }
    parts.join("; ")
}

/// A configuration file of each crawler as its users write them: the page's sample
/// nutch-site.xml, a StormCrawler crawler-conf.yaml with -1s and fetcher.maxThreads
/// patterns over the page lists' servers, a Heritrix profile setting
/// the politeness by its overrides, a Scrapy settings.py, and the page's sample
/// crawler-beans.cxml with its sheets.
const CRAWLER_FILES: [(&str, &str); 5] = [
    ("heritrix", include_str!("../../www/samples/crawler-beans.cxml")),
    ("nutch", include_str!("../../www/samples/nutch-site.xml")),
    (
        "stormcrawler",
        "config:\n  topology.workers: 1\n  scheduler.class: \"org.apache.stormcrawler.persistence.AdaptiveScheduler\"\n  fetchInterval.default: 1440\n  fetchInterval.fetch.error: -1\n  scheduler.adaptive.fetchInterval.rate.decr: 0.5\n  metadata.persist:\n   - _redirTo\n  fetcher.server.delay: 2.0\n  fetcher.server.min.delay: 0.5\n  fetcher.maxThreads.s[0-2]: 2\n  fetcher.maxThreads.s(1|4): 3.5\n",
    ),
    (
        "heritrix",
        "<beans xmlns=\"http://www.springframework.org/schema/beans\">\n <bean id=\"simpleOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">\n  <property name=\"properties\">\n   <value>\n# overrides\nmetadata.jobName=basic\ndisposition.delayFactor=3.0\ndisposition.minDelayMs : 5000\ndisposition.maxDelayMs \\\n  40000\n   </value>\n  </property>\n </bean>\n <bean id=\"disposition\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\">\n  <property name=\"respectCrawlDelayUpToSeconds\" value=\"300\" />\n </bean>\n</beans>\n",
    ),
    (
        "scrapy",
        "BOT_NAME = \"quotes\"\nSPIDER_MODULES = [\"quotes.spiders\"]\nDOWNLOAD_DELAY = 1\nCONCURRENT_REQUESTS_PER_DOMAIN = 1\nAUTOTHROTTLE_ENABLED = True\nAUTOTHROTTLE_TARGET_CONCURRENCY = 1.0\nITEM_PIPELINES = {\n    \"quotes.pipelines.QuotesPipeline\": 300,\n}\n",
    ),
];

/// A small page list, a third of them with an observed column, mutated.
fn page_list(rng: &mut Stream) -> String {
    let observed = rng.below(3) == 0;
    let mut text = String::from(if observed { "page,server,change_rate,weight,observed\n" } else { "page,server,change_rate,weight\n" });
    let servers = 1 + rng.below(6);
    for k in 0..(2 + rng.below(40)) {
        text.push_str(&format!("p{k},s{},{},{}", rng.below(servers), rng.uniform_in(0.0, 3.0), 1.0 + rng.below(3) as f64));
        text.push_str(if !observed {
            "\n"
        } else if rng.below(2) == 0 {
            ",1\n"
        } else {
            ",0\n"
        });
    }
    mutate_text(text, rng)
}

/// A small page list with the metadata a seed list gives (the keys Nutch and StormCrawler
/// read, and one no rule reads), mutated.
fn seed_list(rng: &mut Stream) -> String {
    let mut text = String::from("page,server,change_rate,metadata\n");
    let servers = 1 + rng.below(6);
    let keys = ["isFeed=true", "section=news", "lang=en", "scheduler.delay.mins=", "nutch.fetchInterval=", "nutch.fetchInterval.fixed=", "nutch.score="];
    for k in 0..(2 + rng.below(40)) {
        let key = *pick(rng, &keys);
        let value = if key.ends_with('=') { format!("{}", 1 + rng.below(200_000)) } else { String::new() };
        text.push_str(&format!("p{k},s{},{},{key}{value}\n", rng.below(servers), rng.uniform_in(0.0, 3.0)));
    }
    mutate_text(text, rng)
}

/// Small records of one of the history's formats, with the statuses, mime types and
/// digests its readers tell apart, mutated.
fn records(rng: &mut Stream) -> (String, String) {
    let mimes = ["text/html", "application/rss+xml", "text/html; charset=utf-8", "unk", "-", "warc/revisit", "a|b", "text/plain"];
    let statuses = ["200", "200", "304", "301", "404", "-"];
    let format = rng.below(7);
    // CDX and CDXJ as the index servers answer a query with output=json, a third of them
    let answer = format <= 1 && rng.below(3) == 0;
    let mut lines: Vec<String> = match format {
        0 if answer => vec![r#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],"#.into()],
        0 => vec![" CDX N b a m s k r M S V g".into()],
        3 => vec![r#"<?xml version="1.0" encoding="UTF-8"?>"#.into(), r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#.into()],
        4 => vec!["url,fetch_time,digest".into()],
        5 => vec!["<mediawiki>".into(), "<siteinfo><base>https://en.wikipedia.org/wiki/Main_Page</base></siteinfo>".into(), "<page><title>A</title>".into()],
        _ => Vec::new(),
    };
    let mut t = 1_735_689_600u64;
    for _ in 0..(2 + rng.below(40)) {
        t += 1 + rng.below(400_000);
        let (page, digest, mime, status) = (rng.below(5), rng.below(3), *pick(rng, &mimes), *pick(rng, &statuses));
        let iso = format!("2025-{:02}-{:02}T{:02}:00:00Z", 1 + rng.below(12), 1 + rng.below(28), rng.below(24));
        let stamp: String = iso.chars().filter(char::is_ascii_digit).collect();
        lines.push(match format {
            0 if answer => format!(r#" ["ex,s{page})/", "{stamp}", "http://s{page}.example/", "{mime}", "{status}", "D{digest}", "1"],"#),
            0 => format!("ex,s{page})/ {stamp} http://s{page}.example/ {mime} {status} D{digest} - - 1 0 a"),
            1 if answer => {
                format!(r#"{{"urlkey": "ex,s{page})/", "timestamp": "{stamp}", "url": "http://s{page}.example/", "mime": "{mime}", "status": "{status}", "digest": "D{digest}"}}"#)
            }
            1 => format!(r#"ex,s{page})/ {stamp} {{"url": "http://s{page}.example/", "mime": "{mime}", "status": "{status}", "digest": "D{digest}"}}"#),
            2 => format!("{iso} {status} 10 http://s{page}.example/ - - {mime} #001 {stamp}000+1 sha1:D{digest} - -"),
            3 => format!("<url><loc>http://s{page}.example/</loc><lastmod>{}</lastmod><changefreq>daily</changefreq></url>", &iso[..10]),
            4 => format!("http://s{page}.example/,{t},D{digest}"),
            5 => format!("<revision><id>{t}</id><timestamp>{iso}</timestamp></revision>"),
            // a WARC response (or revisit, or request) record, CRLF line ends
            _ => {
                let kind = *pick(rng, &["response", "response", "revisit", "request", "resource"]);
                let block = format!("HTTP/1.1 {status} X\r\nContent-Type: {mime}\r\n\r\nbody {digest}");
                format!(
                    "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Target-URI: http://s{page}.example/\r\nWARC-Date: {iso}\r\nWARC-Payload-Digest: sha1:D{digest}\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
                    block.len()
                )
            }
        });
    }
    match format {
        0 if answer => lines.push(" [],\n [\"ex%2Cs0%29%2F+20250101000000%21\"]]".into()),
        3 => lines.push("</urlset>".into()),
        5 => lines.extend(["</page>".to_string(), "</mediawiki>".to_string()]),
        _ => {}
    }
    let name = ["a.cdx", "a.cdxj", "crawl.log", "sitemap-2025-06-01.xml", "log.csv", "dump.xml", "crawl.warc"][format as usize];
    // half the WARC files whole (a mutated line end shifts every record after it)
    if format == 6 && rng.below(2) == 0 {
        return (name.into(), lines.concat());
    }
    let text = if format == 6 { lines.concat() } else { lines.join("\n") };
    (name.into(), mutate_text(text, rng))
}

/// A small trace, mutated.
fn trace(rng: &mut Stream) -> String {
    let mut text = String::from("page,timestamp\n");
    let mut t = 1_167_609_600u64;
    for k in 0..(2 + rng.below(60)) {
        t += 1 + rng.below(200_000);
        text.push_str(&format!("a{},{}\n", k % (1 + rng.below(5)), t));
    }
    mutate_text(text, rng)
}

fn mutate_text(text: String, rng: &mut Stream) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(3) {
        let k = rng.below(lines.len() as u64) as usize;
        match rng.below(12) {
            0 => {
                lines.remove(k);
            }
            1 => lines.insert(k, lines[k].clone()),
            2 => lines[k].push('"'),
            3 => lines[k] = lines[k].replace(',', ",NaN,"),
            4 => lines[k] = lines[k].replace(|c: char| c.is_ascii_digit(), "9"),
            5 => lines[k] = format!("{},-1", lines[k].split(',').next().unwrap_or("")),
            6 => lines[k] = lines[k].replace('.', ","),
            7 => lines[k].push_str(",extra"),
            8 => lines[k] = "x".repeat(2000),
            9 => {
                let j = rng.below(lines.len() as u64) as usize;
                lines.swap(k, j)
            }
            10 => lines[k] = format!("{},1e308", lines[k].split(',').next().unwrap_or("")),
            _ => lines.clear(),
        }
        if lines.is_empty() {
            break;
        }
    }
    let joined = lines.join(if rng.below(4) == 0 { "\r\n" } else { "\n" });
    if rng.below(10) == 0 { format!("\u{feff}{joined}") } else { joined }
}

/// Each experiment scaled down to run in milliseconds: most cases start here, so that
/// a mutation that keeps a configuration valid is also run.
pub fn small(experiment: &str) -> Value {
    match experiment {
        "level_sets" => json!({"grid": 41}),
        "factor_curves" | "bursts" => json!({"points": 100}),
        "certify" => json!({"max_boxes": 2000, "tolerance": 1e-6}),
        "per_page" => json!({"points": 3, "revisits": 100, "replications": 3}),
        "policies" => json!({"repository": {"pages": 300, "servers": 10}, "horizon_days": 30, "bins": 10}),
        "allocate" => json!({"repository": {"pages": 300, "servers": 10}}),
        "channel" => json!({"repository": {"pages": 300, "servers": 10}, "windows": 100, "window_requests": 20}),
        "sensors" => json!({"pages": 200, "horizon": 20000, "week": 20000, "sample_every": 1000, "stationary_from": 10000}),
        "bursty" => json!({"generator": {"articles": 10, "days": 20}, "politeness_seconds": 20000, "fractions": [0.5, 1], "renewal_steps": 128}),
        "partition" => json!({"web": {"hosts": 40, "ips": 10, "mean_pages": 5, "max_pages": 40, "robot_sites": 8}, "robots": [2, 4]}),
        _ => json!({}),
    }
}

/// `over` laid over `base`, object by object.
fn overlay(base: &mut Value, over: &Value) {
    match (base, over) {
        (Value::Object(b), Value::Object(o)) => {
            for (k, v) in o {
                match b.get_mut(k) {
                    Some(slot) if slot.is_object() && v.is_object() => overlay(slot, v),
                    _ => {
                        b.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (b, o) => *b = o.clone(),
    }
}

/// Case `k` of the campaign seeded with `seed`: one case in five sets a single field
/// and nothing else, as one flag or one form field does (`sparse`), the others mutate a
/// whole configuration.
pub fn case(seed: u64, k: u64) -> Case {
    case_of(seed, k, NAMES[(k % NAMES.len() as u64) as usize])
}

/// Case `k` of the campaign made of `experiment` (a case found when the registry held
/// other experiments: its number then named another).
pub fn case_of(seed: u64, k: u64, experiment: &'static str) -> Case {
    let mut rng = Stream::of(seed, Purpose::Test, k);
    if rng.below(5) == 0 {
        return sparse(experiment, &mut rng);
    }
    let mut config = serde_json::to_value(defaults(experiment).expect("registered")).expect("serialises");
    let mut mutations = Vec::new();
    let named = presets(experiment);
    if rng.below(4) != 0 {
        overlay(&mut config, &small(experiment));
        mutations.push("small".into());
    } else if !named.is_empty() && rng.below(4) == 0 {
        let (name, _, preset) = &named[rng.below(named.len() as u64) as usize];
        config = serde_json::to_value(preset).expect("serialises");
        mutations.push(format!("preset {name}"));
    }
    // half the cases: each named field at one of its values (a list of them: a few, in
    // any order), so that every objective, policy and scheme meets the mutations
    if rng.below(2) == 0 {
        for choice in choices(experiment) {
            let path: Vec<String> = choice.field.split('.').map(String::from).collect();
            let names: Vec<&String> = choice.options.iter().map(|(name, _)| name).collect();
            let Some(slot) = get_mut(&mut config, &path) else { continue };
            let value = match slot {
                Value::Array(_) => {
                    let mut some: Vec<&String> = names.iter().copied().filter(|_| rng.below(2) == 0).collect();
                    if some.is_empty() {
                        some.push(*pick(&mut rng, &names));
                    }
                    json!(some)
                }
                _ => json!(pick(&mut rng, &names)),
            };
            mutations.push(format!("{} = {value}", choice.field));
            *slot = value;
        }
    }
    // experiments that read files: sometimes a mutated file instead of a field
    match (experiment, rng.below(3)) {
        ("policies" | "allocate", 0) => {
            config["source"] = json!("page_list");
            config["page_list"] = json!(page_list(&mut rng));
            mutations.push("a mutated page list".into());
        }
        ("crawlers", 2) => {
            config["source"] = json!("page_list");
            config["page_list"] = json!(seed_list(&mut rng));
            mutations.push("a mutated seed list".into());
            if rng.below(2) == 0 {
                // StormCrawler with custom intervals by the seed list's keys
                let file = format!("config:\n  fetchInterval.isFeed=true: {}\n  fetchInterval.FETCH_ERROR.section=news: {}\n", 1 + rng.below(2000), 1 + rng.below(2000));
                mutations.push(format!("StormCrawler's custom intervals {file:?}"));
                config["crawler"] = json!("stormcrawler");
                config["crawler_config"] = json!(file);
            }
        }
        ("history", 0 | 1) => {
            let (name, text) = records(&mut rng);
            config["source"] = json!("files");
            config["files"] = json!([{ "name": name, "text": text }]);
            config["types"] = json!(rng.below(2) == 0);
            mutations.push(format!("mutated records {name}"));
        }
        ("bursty", 0) => {
            config["source"] = json!("trace");
            config["trace"] = json!(trace(&mut rng));
            mutations.push("a mutated trace".into());
        }
        ("crawlers", 1) => {
            let (crawler, text) = pick(&mut rng, &CRAWLER_FILES);
            config["crawler"] = json!(crawler);
            config["crawler_config"] = json!(mutate_text(text.to_string(), &mut rng));
            mutations.push(format!("a mutated {crawler} file"));
            if *crawler == "heritrix" && rng.below(2) == 0 {
                // pages on the hosts the sample's sheets name
                let mut list = String::from("page,server,change_rate\n");
                for k in 0..(2 + rng.below(30)) {
                    let host = format!("site{}.example", 1 + rng.below(4));
                    list.push_str(&format!("https://{host}/{k},{host},{}\n", rng.uniform_in(0.0, 3.0)));
                }
                config["source"] = json!("page_list");
                config["page_list"] = json!(mutate_text(list, &mut rng));
                mutations.push("a mutated page list on the sheets' hosts".into());
            }
        }
        ("crawlers", 0) => {
            let settings = crawler_settings(&config, &mut rng);
            mutations.push(format!("crawler settings {settings}"));
            config["crawler_settings"] = json!(settings);
            if rng.below(2) == 0 {
                config["nutch_cycle_hours"] = json!(1 + rng.below(48));
                mutations.push(format!("nutch_cycle_hours = {}", config["nutch_cycle_hours"]));
            }
        }
        _ => {}
    }
    let mut leaves = Vec::new();
    paths(&config, &mut Vec::new(), &mut leaves);
    for _ in 0..1 + rng.below(3) {
        if leaves.is_empty() {
            break;
        }
        let path = pick(&mut rng, &leaves).clone();
        match rng.below(30) {
            0 => {
                // an unknown field beside it
                if let Some(Value::Object(map)) = get_mut(&mut config, &path[..path.len().saturating_sub(1)]) {
                    map.insert("zz_unknown".into(), json!(1));
                    mutations.push(format!("{}.zz_unknown = 1", path[..path.len() - 1].join(".")));
                }
            }
            1 => {
                // removed: its default
                if let Some(Value::Object(map)) = get_mut(&mut config, &path[..path.len().saturating_sub(1)]) {
                    map.remove(path.last().expect("a key"));
                    mutations.push(format!("{} removed", path.join(".")));
                }
            }
            _ => {
                if let Some(slot) = get_mut(&mut config, &path) {
                    let value = mutant(slot, &mut rng);
                    let shown: String = value.to_string().chars().take(60).collect();
                    mutations.push(format!("{} = {shown}", path.join(".")));
                    *slot = value;
                }
            }
        }
    }
    if let Value::Object(map) = &mut config {
        map.insert("experiment".into(), json!(experiment));
    }
    Case { experiment, config, mutations }
}

/// One field of the defaults, nested ones included, set to a mild mutant of its value
/// and nothing else beside it: `{"experiment": "learning", "repository": {"top_share":
/// 0.6}}`, as `freshlab learning --repository.top-share 0.6` asks (issue 45: that ran
/// 10,000 pages on 1,000 servers, not the command's 2,000 on 40).
fn sparse(experiment: &'static str, rng: &mut Stream) -> Case {
    let full = serde_json::to_value(defaults(experiment).expect("registered")).expect("serialises");
    let mut leaves = Vec::new();
    paths(&full, &mut Vec::new(), &mut leaves);
    // a list's items are set with the list
    leaves.retain(|p| p.iter().all(|k| k.parse::<usize>().is_err()) && !p.is_empty());
    let mut config = json!({ "experiment": experiment });
    let Some(path) = leaves.get(rng.below(leaves.len().max(1) as u64) as usize).cloned() else {
        return Case { experiment, config, mutations: vec!["sparse: nothing to set".into()] };
    };
    let old = path.iter().try_fold(&full, |node, key| node.get(key)).cloned().unwrap_or(Value::Null);
    let value = if rng.below(2) == 0 { old.clone() } else { mutant(&old, rng) };
    let mut slot = &mut config;
    for key in &path[..path.len() - 1] {
        slot = slot.as_object_mut().expect("an object").entry(key.clone()).or_insert_with(|| json!({}));
    }
    slot.as_object_mut().expect("an object").insert(path.last().expect("a key").clone(), value.clone());
    let shown: String = value.to_string().chars().take(60).collect();
    Case { experiment, config, mutations: vec![format!("sparse: only {} = {shown}", path.join("."))] }
}

/// Where an accepted configuration differs from what was asked: each field asked is as
/// asked, each field not asked is the experiment's default. Numbers compare as numbers
/// (2 and 2.0 are one value). `None` when it is exactly what was asked.
pub fn silent_change(experiment: &str, asked: &Value, accepted: &Value) -> Option<String> {
    let mut expected = serde_json::to_value(defaults(experiment).expect("registered")).expect("serialises");
    overlay(&mut expected, asked);
    // a file given as text sets what its flag sets, unless asked otherwise (a crawler's
    // file, whose crawler it is; a page list, the source)
    for input in freshlab::experiments::registry::files(experiment) {
        let text = asked.get(input.field).and_then(Value::as_str).filter(|t| !t.trim().is_empty());
        if let Some((field, value)) = text.and_then(input.sets).filter(|(field, _)| asked.get(field).is_none()) {
            expected[field] = Value::String(value.into());
        }
    }
    let mut differences = Vec::new();
    compare(&expected, accepted, &mut Vec::new(), &mut differences);
    (!differences.is_empty()).then(|| differences.join("; "))
}

fn compare(expected: &Value, got: &Value, path: &mut Vec<String>, out: &mut Vec<String>) {
    match (expected, got) {
        (Value::Object(e), Value::Object(g)) => {
            for (k, v) in e {
                path.push(k.clone());
                match g.get(k) {
                    Some(w) => compare(v, w, path, out),
                    // left out when it is none, or an empty list (a history's files)
                    None if v.is_null() || v.as_array().is_some_and(Vec::is_empty) => {}
                    None => out.push(format!("{} was {v}, is gone", path.join("."))),
                }
                path.pop();
            }
        }
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => {}
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (k, (x, y)) in a.iter().zip(b).enumerate() {
                path.push(k.to_string());
                compare(x, y, path, out);
                path.pop();
            }
        }
        (a, b) if a == b => {}
        (a, b) => {
            let short = |v: &Value| v.to_string().chars().take(40).collect::<String>();
            out.push(format!("{} asked {}, runs {}", path.join("."), short(a), short(b)));
        }
    }
}

/// The case as one line for the report (a config a user can rerun with `freshlab run`).
pub fn describe(case: &Case) -> String {
    let mut config = case.config.clone();
    for file in ["page_list", "trace"] {
        if let Some(Value::String(text)) = config.get(file) {
            let short: String = text.chars().take(120).collect();
            config[file] = Value::String(short);
        }
    }
    let _: Option<&Map<String, Value>> = config.as_object();
    format!("{} [{}]: {}", case.experiment, case.mutations.join("; "), config)
}
