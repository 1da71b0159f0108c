//! The WebAssembly boundary as the worker and the page use it: plain objects in and
//! out, errors as {field, message}, never a panic for bad input.
#![cfg(target_arch = "wasm32")]

use freshlab::wasm::{Held, PageCounter, Plots, Run, choices, crawler_of, defaults, eq59, estimate, experiments, fields, limits, merge, preset, split, unpack, validate};
use js_sys::{JSON, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::wasm_bindgen_test as test;

fn object(json: &str) -> JsValue {
    JSON::parse(json).expect("valid JSON")
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).expect("property")
}

fn field_of(error: JsValue) -> String {
    get(&error, "field").as_string().expect("errors carry a field")
}

fn held_at_end(config: &str) -> Held {
    let mut run = Run::new(object(config)).expect("valid config");
    while !run.done() {
        run.advance(10_000.0);
    }
    run.finish().expect("result")
}

fn run_to_end(config: &str) -> JsValue {
    held_at_end(config).whole().expect("a plain object")
}

fn text(value: &JsValue) -> String {
    JSON::stringify(value).unwrap().as_string().unwrap()
}

#[test]
fn a_run_returns_a_plain_result_object() {
    let held = held_at_end(r#"{"experiment": "level_sets", "grid": 41}"#);
    let result = held.whole().unwrap();
    assert_eq!(get(&result, "experiment").as_string().unwrap(), "level_sets");
    assert_eq!(text(&held.shown().unwrap()), text(&result), "the page's tables read a level set's result whole");
    let minimum = get(&result, "minimum");
    let value = get(&minimum, "value").as_f64().unwrap();
    assert!(value > 0.927 && value < 0.9275);
    let plots = Plots::new(held.figures(JsValue::UNDEFINED).expect("a result")).expect("its figures");
    assert!(plots.svg(640, 400, JsValue::UNDEFINED, 0).unwrap().starts_with("<svg"));
    assert_eq!(field_of(plots.svg(640, 400, JsValue::UNDEFINED, 1).expect_err("one figure only")), "index");
    assert!(held.table(None).starts_with("level,line,r,c\n"));
    assert!(plots.summary(0).unwrap().contains("smallest factor"));
    assert_eq!(plots.count(), 1);
}

#[test]
fn certify_reports_partial_results_while_it_runs() {
    let mut run = Run::new(object(r#"{"experiment": "certify", "enclosure": "natural", "max_boxes": 20000}"#)).unwrap();
    run.advance(3000.0);
    assert!(!run.done());
    let partial = run.partial().unwrap();
    assert_eq!(get(&partial.shown().unwrap(), "status").as_string().unwrap(), "running");
    assert!(Plots::new(partial.figures(JsValue::UNDEFINED).unwrap()).unwrap().count() >= 1);
    while !run.done() {
        run.advance(100_000.0);
    }
    let result = run.finish().unwrap().whole().unwrap();
    assert_eq!(get(&result, "status").as_string().unwrap(), "budget_exhausted");
    assert!(run.finish().is_err(), "a spent run refuses to finish twice");
}

#[test]
fn bad_input_comes_back_as_field_and_message() {
    let e = Run::new(object(r#"{"experiment": "level_sets", "r_min": -2}"#)).err().unwrap();
    assert_eq!(field_of(e.clone()), "r_min");
    assert!(get(&e, "message").as_string().unwrap().contains("greater than 0"));
    let config = object(r#"{"experiment": "level_sets"}"#);
    Reflect::set(&config, &JsValue::from_str("c_max"), &JsValue::from_f64(f64::NAN)).unwrap();
    let e = Run::new(config).err().unwrap();
    assert_eq!(field_of(e.clone()), "c_max");
    assert!(get(&e, "message").as_string().unwrap().contains("not a number"));
    assert_eq!(field_of(Run::new(object(r#"{"experiment": "level_sets", "grid": 5.5}"#)).err().unwrap()), "grid");
    assert_eq!(field_of(Run::new(object(r#"{"experiment": "nope"}"#)).err().unwrap()), "experiment");
    assert_eq!(field_of(Run::new(object(r#"{"r_min": 1}"#)).err().unwrap()), "experiment");
    assert_eq!(field_of(Run::new(JsValue::from_f64(3.0)).err().unwrap()), "");
    assert_eq!(field_of(validate(object(r#"{"experiment": "bursts", "n": [5000, -1]}"#)).unwrap()), "n[1]");
    assert!(validate(object(r#"{"experiment": "bursts"}"#)).unwrap().is_null());
    let held = held_at_end(r#"{"experiment": "bursts"}"#);
    assert!(held.figures(object(r#"{"experiment": "bursts", "n": "many"}"#)).is_err(), "a configuration the result cannot be drawn under");
    assert!(Plots::new(held.whole().unwrap()).is_err(), "a result, not its figures");
    let plots = Plots::new(held.figures(JsValue::UNDEFINED).unwrap()).unwrap();
    assert_eq!(field_of(plots.svg(640, 400, object(r#"{"font_scale": 99}"#), 0).err().unwrap()), "font_scale");
}

#[test]
fn whole_numbers_from_javascript_fill_integer_fields() {
    let result = run_to_end(r#"{"experiment": "factor_curves", "points": 25}"#);
    assert_eq!(js_sys::Array::from(&get(&result, "x")).length(), 25);
}

#[test]
fn the_values_of_a_field_and_their_labels_come_from_the_core() {
    let learning = choices("learning").unwrap();
    let policies = js_sys::Array::from(&get(&learning, "policies"));
    assert_eq!(policies.length(), 8);
    let first = js_sys::Array::from(&policies.get(0));
    assert_eq!((first.get(0).as_string().unwrap(), first.get(1).as_string().unwrap()), ("oracle".into(), "oracle (knows the rates)".into()));
    let objective = js_sys::Array::from(&get(&learning, "objective"));
    assert_eq!(js_sys::Array::from(&objective.get(0)).get(0).as_string().unwrap(), "harmonic", "the default first");
    // an experiment without such fields: an empty object; no experiment: an error
    assert_eq!(js_sys::Object::keys(&js_sys::Object::from(choices("level_sets").unwrap())).length(), 0);
    let e = choices("nonsense").unwrap_err();
    assert_eq!(get(&e, "field").as_string().unwrap(), "experiment");
    assert!(get(&e, "message").as_string().unwrap().starts_with("unknown experiment \"nonsense\"; use one of level_sets, "));
}

#[test]
fn every_field_is_described_by_the_core() {
    // the words the page's form shows, by former names too
    let described = js_sys::Array::from(&fields("eq59").unwrap());
    let first = described.get(0);
    assert_eq!(get(&first, "key").as_string().unwrap(), "r_min");
    assert_eq!(get(&first, "label").as_string().unwrap(), "r from");
    assert_eq!(get(&first, "kind").as_string().unwrap(), "number");
    assert_eq!(get(&first, "help").as_string().unwrap(), "r = λ/f > 0");
    let pages = js_sys::Array::from(&fields("policies").unwrap()).find(&mut |f, _, _| get(&f, "key").as_string().as_deref() == Some("repository.pages"));
    assert_eq!(get(&pages, "label").as_string().unwrap(), "pages (generator)");
    // a field with nothing more to say has no help at all
    let seed = js_sys::Array::from(&fields("policies").unwrap()).find(&mut |f, _, _| get(&f, "key").as_string().as_deref() == Some("seed"));
    assert!(get(&seed, "help").is_undefined());
    let e = fields("nonsense").unwrap_err();
    assert!(get(&e, "message").as_string().unwrap().contains("unknown experiment"));
}

#[test]
fn defaults_come_from_the_core() {
    let names: Vec<String> = js_sys::Array::from(&experiments().unwrap()).iter().map(|e| get(&e, "name").as_string().unwrap()).collect();
    // every experiment of the registry, in its order, the thesis's first
    assert_eq!(names, freshlab::experiments::registry::NAMES);
    assert_eq!(names[..3], ["level_sets", "factor_curves", "bursts"]);
    let cost = estimate(object(r#"{"experiment": "policies", "repository": {"pages": 1000000}}"#)).unwrap();
    assert!(get(&cost, "bytes").as_f64().unwrap() > 40e6);
    assert_eq!(get(&cost, "unit").as_string().unwrap(), "requests");
    assert_eq!(field_of(estimate(object(r#"{"experiment": "policies", "horizon_days": -1}"#)).err().unwrap()), "horizon_days");
    let browser = get(&limits().unwrap(), "browser");
    assert_eq!(get(&browser, "bytes").as_f64(), Some(2.0 * (1u64 << 30) as f64));
    let webbase = preset("policies", "webbase").unwrap();
    assert_eq!(get(&get(&webbase, "repository"), "pages").as_f64(), Some(14_500_000.0));
    let sampled = preset("policies", "webbase_sampled").unwrap();
    assert_eq!(get(&get(&sampled, "repository"), "pages").as_f64(), Some(14_500_000.0));
    assert_eq!(get(&sampled, "sample_servers").as_f64(), Some(32.0));
    assert_eq!(field_of(preset("policies", "nope").err().unwrap()), "preset");
    let d = defaults("level_sets").unwrap();
    assert_eq!(get(&d, "r_max").as_f64(), Some(9.0));
    assert_eq!(get(&d, "highlight_below").as_f64(), Some(0.93));
    assert!(defaults("nope").is_err());
    assert_eq!(eq59(1.0, 1.0), 1.0);
}

#[test]
fn a_repository_run_reports_partial_curves_then_all_figures() {
    let config = r#"{"experiment": "policies", "repository": {"pages": 2000, "servers": 20}, "horizon_days": 60, "capacities": [0.1, 0.9], "crawlers": ["nutch"]}"#;
    let mut run = Run::new(object(config)).unwrap();
    run.advance(20_000.0);
    let partial = run.partial().unwrap().shown().unwrap();
    assert!(!get(&partial, "done").as_bool().unwrap());
    while !run.done() {
        run.advance(1e6);
    }
    let held = run.finish().unwrap();
    assert!(get(&held.shown().unwrap(), "done").as_bool().unwrap());
    let plots = Plots::new(held.figures(JsValue::UNDEFINED).unwrap()).unwrap();
    assert_eq!(plots.count(), 6, "two capacities, the ratios to the bound, the crawlers and one server page by page per capacity");
    assert!(plots.summary(2).unwrap().contains("POLITE"), "{}", plots.summary(2).unwrap());
    assert!(plots.summary(3).unwrap().contains("Nutch"));
    assert!(plots.summary(4).unwrap().contains("RANDOM"), "{}", plots.summary(4).unwrap());
}

#[test]
fn a_distributed_crawl_runs_with_four_figures_and_refuses_what_cannot_be() {
    let config = r#"{"experiment": "partition", "web": {"hosts": 60, "ips": 15, "mean_pages": 8, "max_pages": 100}, "robots": [2, 4]}"#;
    let mut run = Run::new(object(config)).unwrap();
    run.advance(500.0);
    assert!(!get(&run.partial().unwrap().shown().unwrap(), "complete").as_bool().unwrap());
    while !run.done() {
        run.advance(1e5);
    }
    let held = run.finish().unwrap();
    let plots = Plots::new(held.figures(JsValue::UNDEFINED).unwrap()).unwrap();
    assert_eq!(plots.count(), 4, "time, exchanges, algebraic, map");
    assert!(plots.summary(0).unwrap().contains("politeness violations: 0"));
    assert!(held.table(None).starts_with("source,scheme,politeness,robots,"));
    let e = estimate(object(r#"{"experiment": "partition", "robots": [2, 2]}"#)).err().unwrap();
    assert_eq!(field_of(e), "robots[1]");
    let cost = estimate(object(r#"{"experiment": "partition"}"#)).unwrap();
    assert_eq!(get(&cost, "unit").as_string().unwrap(), "events");
    let thesis = preset("partition", "thesis").unwrap();
    assert_eq!(get(&get(&thesis, "web"), "hosts").as_f64(), Some(10_039.0));
}

/// The crawlers view sets its crawler from the file dropped: whose file it is, from its
/// form, under the names the configurations use.
#[test]
fn a_crawlers_file_says_whose_it_is() {
    assert_eq!(crawler_of("<?xml version=\"1.0\"?>\n<configuration></configuration>").as_deref(), Some("nutch"));
    assert_eq!(crawler_of("config:\n  fetchInterval.default: 1440\n").as_deref(), Some("stormcrawler"));
    assert_eq!(crawler_of("<beans></beans>").as_deref(), Some("heritrix"));
    assert_eq!(crawler_of("# settings\nDOWNLOAD_DELAY = 2\n").as_deref(), Some("scrapy"));
    assert_eq!(crawler_of("just some words").as_deref(), None);
    let config = object(r#"{"experiment": "crawlers"}"#);
    Reflect::set(&config, &JsValue::from_str("crawler"), &JsValue::from_str(&crawler_of("config:\n  x: 1\n").unwrap())).unwrap();
    assert!(validate(config).unwrap().is_null(), "a valid crawlers configuration");
}

/// The page's worker reads a history's gzipped records so: the members' text joined and
/// sized, and a member cut short refused by its first byte, as {field, message}.
#[test]
fn gzipped_records_unpack_to_their_text_and_a_cut_member_is_named() {
    use std::io::Write;
    let member = |text: &str| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    };
    let bytes = [member("a 20260101000000 x\n"), member("b 20260102000000 y\n")].concat();
    let read = unpack(&bytes, 1 << 20, true).expect("two whole members");
    assert_eq!(get(&read, "text").as_string().as_deref(), Some("a 20260101000000 x\nb 20260102000000 y\n"));
    assert_eq!(get(&read, "bytes").as_f64(), Some(38.0));
    assert_eq!(get(&read, "warc").as_bool(), Some(false));
    let second = member("a 20260101000000 x\n").len();
    let error = unpack(&bytes[..bytes.len() - 3], 1 << 20, true).expect_err("cut short");
    let message = get(&error, "message").as_string().unwrap();
    assert!(message.contains(&format!("in the member at byte {second} of")), "{message}");
}

/// A crawl log in time order names each page once in its head: the page's worker counts
/// its pages over the whole file as it loads it, a piece at a time (pieces cutting lines);
/// a sorted index's head tells them, unless it is loaded with other files (their pages
/// are counted together), and a file within its first megabyte is read whole.
#[test]
fn a_logs_pages_are_counted_as_it_loads_and_a_sorted_index_is_told_by_its_head_unless_loaded_with_others() {
    let line = |page: usize, day: usize| format!("https://example.org/page/{page},2026-01-{:02}T00:00:00Z,D{page}V{}\n", day + 1, day / 2);
    let mut log = String::from("url,fetch_time,digest\n");
    let mut sorted = log.clone();
    for day in 0..20 {
        log.extend((0..2_000).map(|page| line(page, day)));
    }
    for page in 0..2_000 {
        sorted.extend((0..20).map(|day| line(page, day)));
    }
    assert!(log.len() > 1 << 20, "past the first megabyte: {}", log.len());
    let mut counter = PageCounter::new();
    assert!(counter.file(&log[..1 << 20], log.len() as f64, false), "a log's head cannot tell its pages");
    for piece in log.as_bytes().chunks(100_003) {
        counter.feed(std::str::from_utf8(piece).unwrap());
    }
    let pages = counter.pages();
    assert!((pages - 2_000.0).abs() < 0.02 * 2_000.0, "{pages}");
    assert!(!PageCounter::new().file(&sorted[..1 << 20], sorted.len() as f64, false), "a sorted index: its head tells");
    assert!(!PageCounter::new().file(&log[..1 << 19], (1 << 19) as f64, false), "within its first megabyte");
    // loaded with another file, the sorted index is counted too: both name the same pages
    assert!(counter.file(&sorted[..1 << 20], sorted.len() as f64, true), "one of several files");
    counter.feed(&sorted);
    assert!((counter.pages() - pages).abs() < 1e-9, "the same 2,000 pages add none");
}

/// A history's pages stay where it was computed: the page's tables read the ten
/// fastest-changing, its figures, CSV and JSON come from the whole.
#[test]
fn a_held_history_shows_its_ten_fastest_pages_and_keeps_them_all() {
    let held = held_at_end(r#"{"experiment": "history", "pages": 300, "servers": 10, "seed": 7}"#);
    let (whole, shown) = (held.whole().unwrap(), held.shown().unwrap());
    let rates = |result: &JsValue| -> Vec<f64> { js_sys::Array::from(&get(result, "pages")).iter().filter_map(|p| get(&get(&p, "estimate"), "rate").as_f64()).collect() };
    let all = rates(&whole);
    assert_eq!(js_sys::Array::from(&get(&whole, "pages")).length(), 300);
    let mut fastest: Vec<f64> = all.iter().copied().filter(|r| *r > 0.0).collect();
    fastest.sort_by(|a, b| b.total_cmp(a));
    fastest.truncate(10);
    assert_eq!(rates(&shown), fastest, "the ten fastest, fastest first");
    assert_eq!(text(&get(&shown, "statuses")), text(&get(&whole, "statuses")));
    assert_eq!(
        text(&held.figures(JsValue::UNDEFINED).unwrap()),
        text(&Held::figures(&held_at_end(r#"{"experiment": "history", "pages": 300, "servers": 10, "seed": 7}"#), JsValue::UNDEFINED).unwrap())
    );
    let listed = 300 - get(&whole, "left_out").as_f64().unwrap() as usize;
    assert_eq!(held.table(None).lines().count(), listed + 1, "a row for every listed page, not the ten shown");
    // a worker restarted keeps again what the page was shown, but not a cut of it
    let e = Held::again(shown).err().expect("a cut is refused");
    assert!(get(&e, "message").as_string().unwrap().contains("run it again"));
    assert_eq!(Held::again(whole.clone()).unwrap().table(None), held.table(None));
    let level = held_at_end(r#"{"experiment": "level_sets", "grid": 21}"#);
    assert_eq!(Held::again(level.shown().unwrap()).unwrap().table(None), level.table(None));
}

/// A display setting changed after the run redraws its figures from the held result.
#[test]
fn a_held_result_is_redrawn_under_a_display_setting() {
    let config = r#"{"experiment": "bursty", "generator": {"articles": 40}, "fractions": [0.05, 0.5]}"#;
    let held = held_at_end(config);
    let first = text(&held.figures(JsValue::UNDEFINED).unwrap());
    let other = get(&held.whole().unwrap(), "config");
    Reflect::set(&other, &JsValue::from_str("article_rate"), &JsValue::from_f64(1.0)).unwrap();
    let redrawn = text(&held.figures(other).unwrap());
    assert_ne!(first, redrawn, "another request rate's article curve");
    assert_eq!(text(&held.figures(JsValue::NULL).unwrap()), first, "the held result is unchanged");
}

/// The pool's join: the parts' whole results joined in a worker give one run's result.
#[test]
fn the_parts_of_a_split_run_join_into_one_runs_result() {
    let config = r#"{"experiment": "policies", "repository": {"pages": 3000, "servers": 40}, "horizon_days": 30, "capacities": [0.2, 0.6]}"#;
    let alone = run_to_end(config);
    let parts = js_sys::Array::from(&split(object(config), 2).unwrap());
    assert_eq!(parts.length(), 2);
    let wholes: Vec<JsValue> = parts.iter().map(|part| run_to_end(&text(&part))).collect();
    let joined = merge(object(config), wholes).unwrap();
    assert_eq!(text(&joined.whole().unwrap()), text(&alone));
    assert_eq!(text(&joined.shown().unwrap()), text(&alone));
}

/// What the worker's heap already holds (the results it keeps: a history's pages stay
/// there) counts against the next run's memory: a history estimated just under the
/// tab's limit is refused beside 300 MB held, saying so, and passes once it is freed.
#[test]
fn what_the_worker_keeps_counts_against_the_next_run() {
    let browser = get(&get(&limits().unwrap(), "browser"), "bytes").as_f64().unwrap();
    let config = |pages: u32| format!(r#"{{"experiment": "history", "pages": {pages}, "servers": 10}}"#);
    let bytes = |pages: u32| get(&estimate(object(&config(pages))).unwrap(), "bytes").as_f64().unwrap();
    // the most pages within 200 MB of the limit (the estimate grows with the pages)
    let (mut low, mut high) = (1u32, 1_000_000u32);
    while high - low > 1 {
        let middle = (low + high) / 2;
        if bytes(middle) <= browser - 200e6 { low = middle } else { high = middle }
    }
    assert!(bytes(low) > browser - 250e6, "{} of {browser}", bytes(low));
    let held = vec![1u8; 300_000_000];
    let refused = Run::new(object(&config(low))).err().expect("refused beside what is held");
    assert_eq!(field_of(refused.clone()), "pages");
    assert!(text(&refused).contains("the page keeps of earlier results"), "{}", text(&refused));
    // the page is told what is kept, to free its own and run again
    assert!(get(&refused, "kept").as_f64().is_some_and(|kept| kept >= 300e6), "{:?}", get(&refused, "kept"));
    drop(held);
    // freed, the next run (a small one) finds the heap without it, and the history
    // passes the checks (run, it would generate its pages for seconds)
    Run::new(object(r#"{"experiment": "level_sets", "grid": 11}"#)).unwrap();
    assert!(validate(object(&config(low))).unwrap().is_null(), "accepted once freed");
}
