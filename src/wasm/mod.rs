//! The thin boundary between the core and JavaScript: the worker runs experiments
//! through [`Run`] and keeps each result where it was computed ([`Held`]); the page
//! gets what its tables show and the figures, read into [`Plots`], which draws them
//! (plotters on a canvas) and exports them as SVG (a result of 20,000 pages read on the
//! page's thread held it 0.13–0.17 s; its figures are a few thousand points). Configs,
//! results and figures cross as plain objects (serde-wasm-bindgen); errors cross as
//! `{field, message}` objects.

use crate::chart::draw::{draw_measured, figure_svg};
use crate::chart::figure::Figure;
use crate::chart::theme::DrawOptions;
use crate::core::input::InputError;
use crate::core::limits;
use crate::core::math::freshness::merge_factor;
use crate::experiments::registry;
use crate::experiments::{Job, Output, config_from_value, start};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

mod canvas;
use canvas::measured_canvas;

/// The heap counted, so that the results the worker keeps count against its next run.
#[global_allocator]
static HEAP: crate::core::heap::Counted = crate::core::heap::Counted;

#[wasm_bindgen]
extern "C" {
    /// Set by the worker and the page: receives a panic's message before the trap.
    #[wasm_bindgen(js_namespace = globalThis, js_name = __freshlabPanic)]
    fn report_panic(message: &str);
}

/// Installs the panic hook; called once when the module starts.
#[wasm_bindgen(start)]
pub fn on_start() {
    std::panic::set_hook(Box::new(|info| report_panic(&info.to_string())));
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible().serialize_bytes_as_arrays(false)).map_err(|e| error_js(&InputError::new("", e.to_string())))
}

fn error_js(e: &InputError) -> JsValue {
    to_js(e).unwrap_or_else(|_| JsValue::from_str(&e.to_string()))
}

fn json_of(value: JsValue, what: &str) -> Result<serde_json::Value, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|e| error_js(&InputError::new("", format!("{what} is not a plain object: {e}"))))
}

fn output_of(value: JsValue) -> Result<Output, JsValue> {
    serde_wasm_bindgen::from_value(value).map_err(|e| error_js(&InputError::new("", format!("not a Freshlab result: {e}"))))
}

fn options_of(value: JsValue) -> Result<DrawOptions, JsValue> {
    let options: DrawOptions = if value.is_undefined() || value.is_null() {
        DrawOptions::default()
    } else {
        serde_wasm_bindgen::from_value(value).map_err(|e| error_js(&InputError::new("options", e.to_string())))?
    };
    options.validate().map_err(|e| error_js(&e))?;
    Ok(options)
}

/// One experiment run, advanced in slices by the worker.
#[wasm_bindgen]
pub struct Run {
    job: Option<Box<dyn Job<Output>>>,
}

#[wasm_bindgen]
impl Run {
    /// Validates `config` (an object with an `experiment` field); throws `{field, message}`.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Run, JsValue> {
        // what this module's heap holds before the run: the results kept (its config too, a
        // few kilobytes); the run's estimate is checked beside it
        limits::hold(crate::core::heap::live() as u64);
        let config = config_from_value(json_of(config, "the configuration")?).map_err(|e| error_js(&e))?;
        Ok(Run { job: Some(start(config).map_err(|e| error_js(&e))?) })
    }

    /// Does about `budget` units of work; returns the fraction done.
    pub fn advance(&mut self, budget: f64) -> f64 {
        self.job.as_mut().map_or(1.0, |j| j.advance(budget.clamp(1.0, 1e12) as u64))
    }

    pub fn done(&self) -> bool {
        self.job.as_ref().is_none_or(|j| j.done())
    }

    /// The partial result, or `undefined` when the experiment has none.
    pub fn partial(&self) -> Option<Held> {
        self.job.as_ref().and_then(|j| j.partial()).map(|output| Held { output })
    }

    /// The final result; the run is spent afterwards.
    pub fn finish(&mut self) -> Result<Held, JsValue> {
        let job = self.job.take().ok_or_else(|| error_js(&InputError::new("", "this run has already finished")))?;
        Ok(Held { output: job.finish() })
    }
}

/// A result kept where it was computed (the worker): the page reads what its tables
/// show ([`Held::shown`]) and the figures; the CSV, the page lists sent to other views,
/// a redraw with other display settings and the JSON export are made here, from the
/// whole result (a history's 20,000 pages, crossing to the page, held its main thread
/// 30–35 ms).
#[wasm_bindgen]
pub struct Held {
    output: Output,
}

#[wasm_bindgen]
impl Held {
    /// A result the page was shown, kept again by a worker that no longer has it (one
    /// restarted since, or that freed it for another view's run): refused where the page
    /// was shown a cut of it (a history's pages).
    pub fn again(shown: JsValue) -> Result<Held, JsValue> {
        let output = output_of(shown)?;
        if output.is_cut() {
            return Err(error_js(&InputError::new(
                "",
                "this result's pages are no longer in the worker that read them (freed to make room for another view's run, or the worker was restarted since: an internal error, or a run that did not stop when cancelled): run it again",
            )));
        }
        Ok(Held { output })
    }

    /// What the page's tables read (the whole result unless the experiment cuts it).
    pub fn shown(&self) -> Result<JsValue, JsValue> {
        match self.output.shown() {
            Some(cut) => to_js(&cut),
            None => to_js(&self.output),
        }
    }

    /// The whole result as a plain object (the JSON export; a part's, for the join).
    pub fn whole(&self) -> Result<JsValue, JsValue> {
        to_js(&self.output)
    }

    /// The result's figures (for [`Plots::new`]); with `config`, as drawn under that
    /// configuration (display settings changed since the run, nothing recomputed).
    pub fn figures(&self, config: JsValue) -> Result<JsValue, JsValue> {
        if config.is_undefined() || config.is_null() {
            return to_js(&self.output.figures());
        }
        let value = to_js(&self.output)?;
        js_sys::Reflect::set(&value, &JsValue::from_str("config"), &config)?;
        to_js(&output_of(value)?.figures())
    }

    /// The result's data as CSV; with `reader`, as the page list that experiment reads.
    pub fn table(&self, reader: Option<String>) -> String {
        match reader {
            Some(reader) => self.output.table_for(&reader),
            None => self.output.table(),
        }
        .to_csv()
    }
}

/// The default configuration of an experiment: the page's forms start from it.
#[wasm_bindgen]
pub fn defaults(experiment: &str) -> Result<JsValue, JsValue> {
    let config = config_from_value(serde_json::json!({ "experiment": experiment })).map_err(|e| error_js(&e))?;
    to_js(&config)
}

/// The experiments: `[{name, command (its view and embed id), summary, presets: [{name,
/// label}]}]`, in the registry's order.
#[wasm_bindgen]
pub fn experiments() -> Result<JsValue, JsValue> {
    let list: Vec<serde_json::Value> = registry::summaries()
        .into_iter()
        .map(|(name, summary)| {
            let presets: Vec<serde_json::Value> = registry::presets(name).into_iter().map(|(p, label, _)| serde_json::json!({"name": p, "label": label})).collect();
            serde_json::json!({"name": name, "command": registry::command(name), "summary": summary, "presets": presets})
        })
        .collect();
    to_js(&list)
}

/// The named values of an experiment's fields, with their labels (the ones its charts
/// use): `{field: [[value, label], …]}`, from which the page's forms and tables take them.
#[wasm_bindgen]
pub fn choices(experiment: &str) -> Result<JsValue, JsValue> {
    let map: serde_json::Map<String, serde_json::Value> =
        registry::choices(registry::named(experiment).map_err(|e| error_js(&e))?).into_iter().map(|c| (c.field.to_owned(), serde_json::json!(c.options))).collect();
    to_js(&map)
}

/// Every field of an experiment, described: `[{key, label, kind, help?}, …]`, from which
/// the page's forms take each field's label, help and input.
#[wasm_bindgen]
pub fn fields(experiment: &str) -> Result<JsValue, JsValue> {
    to_js(&registry::fields(registry::named(experiment).map_err(|e| error_js(&e))?))
}

/// The configuration of an experiment's named preset (`webbase`, `thesis`…).
#[wasm_bindgen]
pub fn preset(experiment: &str, name: &str) -> Result<JsValue, JsValue> {
    let config = registry::presets(experiment).into_iter().find(|(p, _, _)| *p == name).map(|(_, _, c)| c);
    let config = config.ok_or_else(|| error_js(&InputError::new("preset", format!("{experiment} has no preset called {name}"))))?;
    to_js(&config)
}

/// The limits every run is checked against, in the page and natively:
/// `{browser: {bytes, seconds}, native: {bytes, seconds}}`.
#[wasm_bindgen]
pub fn limits() -> Result<JsValue, JsValue> {
    to_js(&serde_json::json!({"browser": limits::BROWSER, "native": limits::NATIVE}))
}

/// Checks a configuration and its cost without preparing its run (cheap enough for the
/// page's main thread): `null` when valid, else `{field, message}`.
#[wasm_bindgen]
pub fn validate(config: JsValue) -> Result<JsValue, JsValue> {
    let checked = config_from_value(json_of(config, "the configuration")?).and_then(|c| c.validate(&limits::here()));
    match checked {
        Ok(()) => Ok(JsValue::NULL),
        Err(e) => Ok(error_js(&e)),
    }
}

/// What a configuration will cost before it runs — `{work, unit, bytes, seconds,
/// memory_fix, time_fix}` — or `{field, message}` if a field is invalid. The seconds are
/// this module's, as far as [`speed_probe`] has measured it (twice the reference
/// machine's native time before any probe).
#[wasm_bindgen]
pub fn estimate(config: JsValue) -> Result<JsValue, JsValue> {
    let config = config_from_value(json_of(config, "the configuration")?).map_err(|e| error_js(&e))?;
    config.validate_fields().map_err(|e| error_js(&e))?;
    to_js(&config.cost().on_this_machine())
}

/// The pilot a configuration's estimate needs, `{field, key}`, or undefined when it
/// needs none (or cannot be read): cheap. The form sends the worker's [`pilot`] for that
/// key in that field, and the estimate is priced without a pilot until it has one.
#[wasm_bindgen]
pub fn pilot_key(config: JsValue) -> Result<JsValue, JsValue> {
    let key = json_of(config, "the configuration").ok().and_then(|c| config_from_value(c).ok()).and_then(|c| c.pilot_key());
    key.map_or(Ok(JsValue::UNDEFINED), |k| to_js(&k))
}

/// Runs the pilot a configuration's estimate needs (milliseconds: the page's worker
/// runs it): the value of the field [`pilot_key`] names, or undefined.
#[wasm_bindgen]
pub fn pilot(config: JsValue) -> Result<JsValue, JsValue> {
    let config = config_from_value(json_of(config, "the configuration")?).map_err(|e| error_js(&e))?;
    config.pilot().map_or(Ok(JsValue::UNDEFINED), |p| to_js(&p))
}

/// A file's bytes as the text they hold (`core::unpack`): gzip decompressed (a member
/// or many), a WARC file as the capture index it implies where `warc_too` (the history
/// view's records), at most `most` bytes of text: `{text, bytes, warc}`. The page's
/// worker reads a dropped file so (its plain text it decodes itself, without a copy into
/// this module). Err: what cannot be read and where, as `{field: "", message}`.
#[wasm_bindgen]
pub fn unpack(bytes: &[u8], most: usize, warc_too: bool) -> Result<JsValue, JsValue> {
    crate::core::unpack::text_of(bytes, most, warc_too).map_err(|e| error_js(&InputError::new("", e))).and_then(|u| to_js(&u))
}

/// Runs the machine's speed probe once (a few milliseconds) and returns this module's
/// slowness against the reference machine's native code, the least seen so far. The
/// page calls it a few times when idle, each in a task of its own.
#[wasm_bindgen]
pub fn speed_probe() -> f64 {
    crate::core::speed::record_probe()
}

/// A page list's shape — pages, servers and their sizes, rates: what a run's cost
/// depends on — read in one pass (the page's worker computes it once when a list is
/// loaded, and the form's checks send it in place of the text).
#[wasm_bindgen]
pub fn list_shape(text: &str) -> Result<JsValue, JsValue> {
    to_js(&crate::core::model::page_list::ListShape::of(text))
}

/// A seed list's shape — its size, pages and distinct pairs: what the form's checks need
/// of it — read once by the page's worker when a list is loaded. Err: the line it cannot
/// read, as `{field: "seed_list", message}`.
#[wasm_bindgen]
pub fn seed_shape(text: &str) -> Result<JsValue, JsValue> {
    match crate::core::model::seed_list::SeedShape::of(text) {
        Ok(shape) => to_js(&shape),
        Err(message) => Err(error_js(&InputError::new("seed_list", message))),
    }
}

/// A trace's shape — its size, articles, changes and period: what the form's checks need
/// of it — read once by the page's worker when a trace is loaded. Err: what it cannot
/// read, as `{field: "trace", message}` (the view keeps the file and the run says it).
#[wasm_bindgen]
pub fn trace_shape(text: &str) -> Result<JsValue, JsValue> {
    match crate::core::model::trace::TraceShape::of(text) {
        Ok(shape) => to_js(&shape),
        Err(e) => Err(error_js(&e)),
    }
}

/// A history's files' pages, counted together as the page's worker loads them where
/// their heads cannot tell them (a log of many visits in time order looks like an index
/// of one capture a page there; several files may name the same pages): read a piece at
/// a time, so a file's text is not copied here whole.
#[wasm_bindgen]
#[derive(Default)]
pub struct PageCounter(Option<crate::core::model::history::count::PageCount>);

#[wasm_bindgen]
impl PageCounter {
    #[wasm_bindgen(constructor)]
    pub fn new() -> PageCounter {
        PageCounter::default()
    }

    /// Begins a file of `bytes` bytes whose first characters are `head` (a megabyte or
    /// more), one of `several` loaded together; false where its pages are not counted
    /// (`history::cost::counted_format`: its head tells them), and then nothing is fed.
    pub fn file(&mut self, head: &str, bytes: f64, several: bool) -> bool {
        use crate::core::model::history::{Format, count::PageCount};
        let Some(format) = crate::experiments::history::cost::counted_format(head, bytes, Format::Auto, several) else {
            return false;
        };
        PageCount::begin(&mut self.0, format);
        true
    }

    /// Reads the file's next piece (a line it cuts is read with the next).
    pub fn feed(&mut self, text: &str) {
        if let Some(count) = self.0.as_mut() {
            count.feed(text);
        }
    }

    /// The pages the files counted so far name, the last ended (within 0.81 %, the
    /// count's standard error).
    pub fn pages(&mut self) -> f64 {
        self.0.as_mut().map_or(0.0, |count| count.pages())
    }
}

/// Nutch's host file's shape (`adaptive-host-specific-intervals.txt`) — its size, hosts
/// and bounds: what the form's checks need of it — read once by the page's worker when
/// a file is loaded. Err: what it cannot read, as `{field: "host_intervals", message}`.
#[wasm_bindgen]
pub fn host_shape(text: &str) -> Result<JsValue, JsValue> {
    use crate::core::policy::crawler_files::nutch_hosts;
    match nutch_hosts::HostsShape::of(text) {
        Ok(shape) => to_js(&shape),
        Err(message) => Err(error_js(&InputError::new("host_intervals", format!("({}) {message}", nutch_hosts::FILE_NAME)))),
    }
}

/// Whose configuration file `text` is, from its form (`nutch`, `stormcrawler`,
/// `heritrix`, `scrapy`; undefined when it cannot tell): the crawlers view sets its
/// crawler field from the file dropped, as the CLI does without `--crawler`.
#[wasm_bindgen]
pub fn crawler_of(text: &str) -> Option<String> {
    crate::core::policy::crawler_files::detect(text).map(|c| c.name().to_string())
}

/// The configuration cut into at most `parts` parts for a pool of workers (an array of
/// configurations; one when the experiment cannot be cut).
#[wasm_bindgen]
pub fn split(config: JsValue, parts: usize) -> Result<JsValue, JsValue> {
    let config = config_from_value(json_of(config, "the configuration")?).map_err(|e| error_js(&e))?;
    to_js(&config.split(parts.clamp(1, 64)))
}

/// Joins the results (final or partial, each [`Held::whole`]) of `split`'s parts into
/// the whole run's, the same to the last bit as one worker's.
#[wasm_bindgen]
pub fn merge(config: JsValue, results: Vec<JsValue>) -> Result<Held, JsValue> {
    let config = config_from_value(json_of(config, "the configuration")?).map_err(|e| error_js(&e))?;
    let outputs = results.into_iter().map(output_of).collect::<Result<Vec<_>, _>>()?;
    Ok(Held { output: config.merge(outputs).map_err(|e| error_js(&e))? })
}

/// A result's figures ready to show: read from JavaScript once, then drawn, summarised
/// and exported as often as the page needs (a redraw costs only the drawing).
#[wasm_bindgen]
pub struct Plots {
    figures: Vec<Figure>,
}

#[wasm_bindgen]
impl Plots {
    /// Reads the figures [`Held::figures`] returned.
    #[wasm_bindgen(constructor)]
    pub fn new(figures: JsValue) -> Result<Plots, JsValue> {
        let figures = serde_wasm_bindgen::from_value(figures).map_err(|e| error_js(&InputError::new("", format!("not a Freshlab result's figures: {e}"))))?;
        Ok(Plots { figures })
    }

    /// How many figures the result has.
    pub fn count(&self) -> usize {
        self.figures.len()
    }

    /// Draws figure `index` on `canvas` (its pixel size as set by the page); returns
    /// the plotting frame for pointer mapping.
    pub fn draw(&self, canvas: HtmlCanvasElement, options: JsValue, index: usize) -> Result<JsValue, JsValue> {
        let options = options_of(options)?;
        let figure = self.figure(index)?;
        let backend = measured_canvas(canvas).ok_or_else(|| error_js(&InputError::new("", "the canvas has no 2D context")))?;
        let frame = draw_measured(backend, figure, &options).map_err(|e| error_js(&InputError::new("", e)))?;
        to_js(&frame)
    }

    /// Figure `index` as an SVG document.
    pub fn svg(&self, width: u32, height: u32, options: JsValue, index: usize) -> Result<String, JsValue> {
        figure_svg(self.figure(index)?, width.clamp(200, 8000), height.clamp(150, 8000), &options_of(options)?).map_err(|e| error_js(&InputError::new("", e)))
    }

    /// A plain-text account of figure `index`'s key numbers (for screen readers).
    pub fn summary(&self, index: usize) -> Result<String, JsValue> {
        Ok(self.figure(index)?.summary.clone())
    }

    /// Figure `index`, or an error naming the index.
    fn figure(&self, index: usize) -> Result<&Figure, JsValue> {
        let count = self.figures.len();
        self.figures.get(index).ok_or_else(|| error_js(&InputError::new("index", format!("this result has {count} figure(s); ask for one from 0 to {}", count.saturating_sub(1)))))
    }
}

/// Eq 5-9 at one point (the level-set chart's hover read-out).
#[wasm_bindgen]
pub fn eq59(r: f64, c: f64) -> f64 {
    merge_factor(r, c)
}

/// Panics on purpose: lets the end-to-end test prove that a panic is reported and the
/// worker restarted (the tests' own build only).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn panic_for_test(message: &str) {
    panic!("{message}");
}

/// Lowers the tab's limit to `bytes` for the next runs in this module (0: the real
/// one), and says what its heap holds now: lets the end-to-end test run into the limit
/// with a run of seconds (the tests' own build only).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn tab_for_test(bytes: f64) -> f64 {
    limits::tab_for_test(bytes as u64);
    crate::core::heap::live() as f64
}

/// Loops for ever: lets the end-to-end test prove that the worker's watchdog catches a
/// hang (the tests' own build only).
#[cfg(feature = "test-hooks")]
#[wasm_bindgen]
pub fn hang_for_test() -> f64 {
    let mut x = 0.0f64;
    loop {
        x = std::hint::black_box(x + 1.0);
        if x < 0.0 {
            return x;
        }
    }
}

/// Times one benchmark kernel with the page's clock (the browser half of `npm run bench`;
/// the benchmark's own build only): `kernel` is `scheduling` (`config` a `BenchConfig`),
/// `selection` (GREEDY or MERGE page selection, a `SelectionConfig`), `lambdacrawl` (the
/// harmonic and binary optima on the LambdaCrawl peer's pages, a `LambdaCrawlConfig`) or
/// `partitioning` (the distributed pipeline phase by phase, a `PartitioningConfig`); the
/// result is the kernel's own (`BenchResult`, …).
#[cfg(feature = "bench")]
#[wasm_bindgen]
pub fn bench(kernel: &str, config: JsValue) -> Result<JsValue, JsValue> {
    use crate::bench;
    fn read<C: serde::de::DeserializeOwned>(config: JsValue) -> Result<C, JsValue> {
        serde_wasm_bindgen::from_value(config).map_err(|e| error_js(&InputError::new("", e.to_string())))
    }
    let now = || js_sys::Date::now() / 1000.0;
    match kernel {
        "scheduling" => to_js(&bench::scheduling(&read(config)?, now)),
        "selection" => to_js(&bench::selection(&read(config)?, now)),
        "lambdacrawl" => to_js(&bench::lambdacrawl(&read(config)?, now)),
        "partitioning" => {
            let config: bench::PartitioningConfig = read(config)?;
            config.web.validate().map_err(|e| error_js(&e))?;
            to_js(&bench::partitioning(&config, now))
        }
        other => Err(error_js(&InputError::new("kernel", format!("unknown benchmark kernel \"{other}\"; use scheduling, selection, lambdacrawl or partitioning")))),
    }
}
