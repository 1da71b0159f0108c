//! The one list of experiments. Everything that enumerates experiments — the
//! configuration and result types, parsing with field-named errors, validation and the
//! cost check, starting a job, figures, tables, presets, the CLI's commands and the
//! page's entry points — follows from the `registry!` line of each.

use super::job::Job;
use super::{Choice, Experiment, Figures, FileInput, Settings, Tabular};
use crate::chart::figure::Figure;
use crate::core::field::Field;
use crate::core::input::InputError;
use crate::core::limits::{self, Cost, Limits};
use crate::table::Table;
use serde::{Deserialize, Serialize};

macro_rules! registry {
    ($($name:literal => $variant:ident($($config:tt)::+): $summary:literal,)*) => {
        /// A run's configuration; the JSON form carries `"experiment": "<name>"` beside
        /// the experiment's own fields, all optional (defaults are the sources' settings).
        /// Read it with [`config_from_value`] or [`parse_config`], which name the faulty field.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "experiment")]
        pub enum Config {
            $( #[serde(rename = $name)] $variant($($config)::+), )*
        }

        /// A run's result, tagged like its configuration.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(tag = "experiment")]
        // one per run, moved a handful of times: boxing the large variants saves nothing
        #[allow(clippy::large_enum_variant)]
        pub enum Output {
            $( #[serde(rename = $name)] $variant(<$($config)::+ as Experiment>::Output), )*
        }

        /// The experiments' names, in the registry's order.
        pub const NAMES: &[&str] = &[$($name),*];

        /// Each experiment's name and one-line summary.
        pub fn summaries() -> Vec<(&'static str, &'static str)> {
            vec![$( ($name, $summary), )*]
        }

        /// The default configuration of the experiment called `name`.
        pub fn defaults(name: &str) -> Option<Config> {
            match name {
                $( $name => Some(Config::$variant(Default::default())), )*
                _ => None,
            }
        }

        /// Each preset of experiment `name`: (name, label, configuration).
        pub fn presets(name: &str) -> Vec<(&'static str, &'static str, Config)> {
            match name {
                $( $name => <$($config)::+>::presets().into_iter().map(|p| (p.name, p.label, Config::$variant(p.config))).collect(), )*
                _ => Vec::new(),
            }
        }

        /// The named values of experiment `name`'s fields, with their labels.
        pub fn choices(name: &str) -> Vec<Choice> {
            match name {
                $( $name => <$($config)::+>::choices(), )*
                _ => Vec::new(),
            }
        }

        /// Every field of experiment `name`, described.
        pub fn fields(name: &str) -> Vec<Field> {
            match name {
                $( $name => <$($config)::+>::fields(), )*
                _ => Vec::new(),
            }
        }

        /// The file inputs of experiment `name`.
        pub fn files(name: &str) -> &'static [FileInput] {
            match name {
                $( $name => <$($config)::+>::files(), )*
                _ => &[],
            }
        }

        /// The files experiment `name` writes besides its result.
        pub fn files_out(name: &str) -> &'static [super::FileOutput] {
            match name {
                $( $name => <$($config)::+>::files_out(), )*
                _ => &[],
            }
        }

        fn config_of(name: &str, map: &serde_json::Value) -> Option<Result<Config, InputError>> {
            Some(match name {
                $( $name => from_fields(map).map(Config::$variant).map_err(|e| in_users_words(name, e)), )*
                _ => return None,
            })
        }

        impl Config {
            pub fn name(&self) -> &'static str {
                match self { $( Config::$variant(_) => $name, )* }
            }

            /// Checks every field, without the cost (cheap).
            pub fn validate_fields(&self) -> Result<(), InputError> {
                match self { $( Config::$variant(c) => c.validate(), )* }
            }

            /// What the run will cost. The peak memory carries an allowance of 7 % for
            /// what the models leave out (allocator rounding, small vectors): with it no
            /// estimate falls below a measured peak (tests/cost_model.rs, where the
            /// models alone ran 0.94–1.0 of the peak at their closest). The time is the
            /// reference machine's (see [`Cost::on_this_machine`]); in WebAssembly, times
            /// the experiment's [`super::Settings::WASM_SLOWDOWN`].
            pub fn cost(&self) -> Cost {
                let mut cost = match self { $( Config::$variant(c) => c.cost(), )* };
                cost.bytes *= MEMORY_ALLOWANCE;
                if cfg!(target_arch = "wasm32") {
                    cost.seconds *= match self { $( Config::$variant(_) => <$($config)::+ as super::Settings>::WASM_SLOWDOWN, )* };
                }
                cost
            }

            /// The pilot the cost needs ([`super::Settings::pilot_key`]).
            pub fn pilot_key(&self) -> Option<super::PilotKey> {
                match self { $( Config::$variant(c) => c.pilot_key(), )* }
            }

            /// Runs the pilot the cost needs ([`super::Settings::pilot`]).
            pub fn pilot(&self) -> Option<serde_json::Value> {
                match self { $( Config::$variant(c) => c.pilot(), )* }
            }

            /// The parts of [`Experiment::split`] (the configuration alone if it cannot be cut).
            pub fn split(&self, parts: usize) -> Vec<Config> {
                match self { $( Config::$variant(c) => c.split(parts).into_iter().map(Config::$variant).collect(), )* }
            }

            /// The configuration a part of [`Config::split`] was cut from.
            pub fn whole(&self) -> Config {
                match self { $( Config::$variant(c) => Config::$variant(c.whole()), )* }
            }

            /// Joins the parts' results (of [`Config::split`]) into the whole run's.
            pub fn merge(&self, outputs: Vec<Output>) -> Result<Output, InputError> {
                match self {
                    $( Config::$variant(c) => {
                        let parts = outputs
                            .into_iter()
                            .map(|o| match o { Output::$variant(o) => Ok(o), other => Err(InputError::new("", format!("a part's result is a {} result, not {}", other.name(), $name))) })
                            .collect::<Result<Vec<_>, _>>()?;
                        if parts.is_empty() {
                            return Err(InputError::new("", "no part's result to join"));
                        }
                        Ok(Output::$variant(c.merge(parts)))
                    } )*
                }
            }

            fn start_checked(self) -> Result<Box<dyn Job<Output>>, InputError> {
                match self {
                    $( Config::$variant(c) => Ok(Box::new(Tagged { job: c.start()?, tag: Output::$variant })), )*
                }
            }
        }

        impl Output {
            pub fn name(&self) -> &'static str {
                match self { $( Output::$variant(_) => $name, )* }
            }

            /// The result's figures (most have one).
            pub fn figures(&self) -> Vec<Figure> {
                match self { $( Output::$variant(o) => o.figures(), )* }
            }

            /// The result as a table (the CSV export).
            pub fn table(&self) -> Table {
                match self { $( Output::$variant(o) => o.table(), )* }
            }

            /// The table as experiment `reader` reads it ([`super::Tabular::table_for`]).
            pub fn table_for(&self, reader: &str) -> Table {
                match self { $( Output::$variant(o) => o.table_for(reader), )* }
            }

            /// The few numbers the CLI's `--json` prints, when not the whole result.
            pub fn brief(&self) -> Option<super::Brief> {
                match self { $( Output::$variant(o) => o.brief(), )* }
            }

            /// What the page's tables read ([`super::Figures::shown`]): the whole result
            /// unless the experiment cuts it.
            pub fn shown(&self) -> Option<Output> {
                match self { $( Output::$variant(o) => o.shown().map(Output::$variant), )* }
            }

            /// Whether this is what the page's tables read, cut from the whole ([`super::Figures::is_cut`]).
            pub fn is_cut(&self) -> bool {
                match self { $( Output::$variant(o) => o.is_cut(), )* }
            }

            /// The file a run wrote for its [`super::FileOutput`] `flag`, if it wrote one.
            pub fn file_out(&self, flag: &str) -> Option<String> {
                match self { $( Output::$variant(o) => o.file_out(flag), )* }
            }
        }
    };
}

registry! {
    "level_sets" => LevelSets(super::level_sets::LevelSetsConfig):
        "level sets of Eq 5-9, MERGE's approximation factor over r = λ/f and c = f_s/f (thesis Fig 5.6)",
    "factor_curves" => FactorCurves(super::factor_curves::FactorCurvesConfig):
        "RANDOM's and MERGE's approximation factors against x = λ/f (thesis Fig 5.2, Eq 5-2, Eq 5-8)",
    "bursts" => Bursts(super::bursts::BurstsConfig):
        "Eq 5-11's bound on channel bursts for n equally spaced elements (thesis Fig 5.7); --x X gives the bound at one excess",
    "certify" => Certify(super::certify::CertifyConfig):
        "a certified lower bound for Eq 5-9 by interval branch and bound (Conjecture 5.9, beyond the thesis)",
    "per_page" => PerPage(super::per_page::PerPageConfig):
        "one page's simulated factor with confidence intervals against Eq 5-2 (RANDOM) and Eq 5-8 (MERGE)",
    "policies" => Policies(super::policies::PoliciesConfig):
        "MERGE, RANDOM, DELAYED, UNPOLITE and deployed crawlers on a WEBBASE-like repository or your page list, against the POLITE bound (thesis Fig 5.8)",
    "allocate" => Allocate(super::allocate::AllocateConfig):
        "the four allocations (uniform, proportional, OPT_UNPOLITE, OPT_POLITE) of a page list or the generator's pages: --repository pages.csv --capacity C (requests a day) --politeness-seconds P [--objective freshness|binary|harmonic]",
    "crawlers" => Crawlers(super::crawlers::CrawlersConfig):
        "your crawler on your pages: Nutch, StormCrawler, Heritrix or Scrapy configured from its own file (--crawler-config nutch-site.xml), its freshness and fetches of unchanged pages against MERGE at the same bandwidth",
    "history" => History(super::history::HistoryConfig):
        "change rates from the records you have: freshlab history FILE… ('-' for standard input; a CDX or CDXJ capture index, sitemaps, a Heritrix crawl.log, a CSV crawl log, MediaWiki revisions; gzip read as it streams) --out pages.csv writes the page list every experiment reads",
    "learning" => Learning(super::learning::LearningConfig):
        "learning to crawl without knowing the change rates: LambdaLearnAndCrawl, explore-then-commit and MERGE on estimated rates against the oracle, for binary, harmonic or Lemma 4.2 freshness under politeness (--repository pages.csv --capacity C --objective harmonic)",
    "channel" => Channel(super::channel::ChannelConfig):
        "requests per window, per-page against per-server spacing, against Eq 5-11's bound (thesis Lemma 5.10)",
    "sensors" => Sensors(super::sensors::SensorsConfig):
        "robots vs sensors on the same page histories (Zemskov 2002), at the article's full scale",
    "bursty" => Bursty(super::bursty::BurstyConfig):
        "MERGE, MERGE2, UNPOLITE, RANDOM and GREEDY on bursty, non-Poisson changes (thesis Fig 6.3): --trace FILE.csv replays your trace, otherwise the bursty generator runs",
    "partition" => Partition(super::partition::PartitionConfig):
        "distributed crawling (Exposto 2008): hash vs graph partitioning of a synthetic web among 2–30 robots under fixed, Eq 5.4 and dynamic politeness, simulated and by Eq 5.1–5.3",
}

/// The allowance on every memory estimate ([`Config::cost`]).
const MEMORY_ALLOWANCE: f64 = 1.07;

/// Names the experiments answered to before they were renamed (in JSON files, links
/// and CLI commands), so that old files and scripts keep working.
const FORMER_NAMES: [(&str, &str); 3] = [("wikipedia", "bursty"), ("eq59", "level_sets"), ("factors", "factor_curves")];

/// The experiment a name means: its own (with '-' or '_'), or a former one.
pub fn canonical(name: &str) -> Option<&'static str> {
    let name = name.replace('-', "_");
    let name = FORMER_NAMES.iter().find(|(old, _)| *old == name).map_or(name.as_str(), |(_, new)| new);
    NAMES.iter().copied().find(|n| *n == name)
}

/// An experiment's job, its results tagged as [`Output`].
struct Tagged<O> {
    job: Box<dyn Job<O>>,
    tag: fn(O) -> Output,
}

impl<O> Job<Output> for Tagged<O> {
    fn advance(&mut self, budget: u64) -> f64 {
        self.job.advance(budget)
    }
    fn done(&self) -> bool {
        self.job.done()
    }
    fn partial(&self) -> Option<Output> {
        self.job.partial().map(self.tag)
    }
    fn finish(self: Box<Self>) -> Output {
        (self.tag)(self.job.finish())
    }
    fn work(&self) -> f64 {
        self.job.work()
    }
}

impl Config {
    /// Checks every field and the cost against `limits` (cheap: safe on a page's main
    /// thread whatever the size of the run).
    pub fn validate(&self, limits: &Limits) -> Result<(), InputError> {
        self.validate_fields()?;
        self.cost().check(limits)
    }
}

/// Validates a configuration, checks its cost against the limits of this build, and
/// prepares its run.
pub fn start(config: Config) -> Result<Box<dyn Job<Output>>, InputError> {
    config.validate(&limits::here())?;
    config.start_checked()
}

/// Runs a configuration to the end, calling `on_progress` between slices.
pub fn run(config: Config, mut on_progress: impl FnMut(f64, &dyn Job<Output>)) -> Result<Output, InputError> {
    let mut job = start(config)?;
    while !job.done() {
        let fraction = job.advance(1_000_000);
        on_progress(fraction, job.as_ref());
    }
    Ok(job.finish())
}

/// The name users type and see for experiment `name`: its CLI command, embed id and view
/// (`level_sets` → `level-sets`; the configuration's `experiment` field and the folder
/// keep the underscore Rust needs).
pub fn command(name: &str) -> String {
    name.replace('_', "-")
}

/// Deserialises one experiment's fields, naming the field at fault on error.
/// (From a borrowed value: a page list's text is copied once, into the configuration.)
fn from_fields<T: serde::de::DeserializeOwned>(map: &serde_json::Value) -> Result<T, InputError> {
    serde_path_to_error::deserialize(map).map_err(|error| {
        let field = error.path().to_string();
        InputError::new(field, crate::core::input::serde_message(&error.inner().to_string()))
    })
}

/// The fields a user of experiment `name` can set, by their full paths: the form's and
/// the flags' (`fields()`), the files the CLI reads, and the sizes that stand for a file
/// the page holds. Internal fields (a worker's share of a run) are not among them.
pub fn visible_fields(name: &str) -> Vec<String> {
    let mut keys: Vec<String> = fields(name).iter().map(|f| f.key.to_string()).collect();
    for input in files(name) {
        if !keys.iter().any(|k| k == input.field) {
            keys.push(input.field.to_string());
        }
        // a page list may come as JSON rows instead of CSV text
        if input.field == "page_list" {
            keys.push("page_rows".into());
        }
    }
    keys
}

/// serde's refusal of a field or a value, in the words of what the user can set: an
/// unknown field gets the nearest visible one (not serde's list, which holds internal
/// fields), a value not among a field's choices gets that field's values (not every
/// value of its type: `crawlers` is not offered MERGE).
fn in_users_words(name: &str, error: InputError) -> InputError {
    let quoted = |text: &str| text.split('`').nth(1).map(str::to_string);
    if error.message.starts_with("unknown field") {
        let Some(given) = quoted(&error.message) else { return error };
        let parent = error.field.rsplit_once('.').map_or(String::new(), |(p, _)| format!("{p}."));
        let shown = if error.field.ends_with(&given) { error.field.clone() } else { format!("{parent}{given}") };
        let siblings: Vec<String> =
            visible_fields(name).into_iter().filter_map(|k| k.strip_prefix(parent.as_str()).map(|rest| rest.split('.').next().unwrap_or(rest).to_string())).collect();
        let mut unique: Vec<&str> = siblings.iter().map(String::as_str).collect();
        unique.dedup();
        let hint = match crate::core::input::nearest(&given, unique.iter().copied()) {
            Some(near) => format!("did you mean {parent}{near}?"),
            None => format!("the fields{} are {}", if parent.is_empty() { String::new() } else { format!(" of {}", parent.trim_end_matches('.')) }, unique.join(", ")),
        };
        return InputError::new(shown, format!("is not a setting of {name}; {hint}"));
    }
    if let Some(value) =
        error.message.strip_prefix("must be one of ").and_then(|rest| rest.split("(got \"").nth(1)).map(|v| v.trim_end_matches(')').trim_end_matches('"').to_string())
    {
        let base = error.field.split('[').next().unwrap_or_default().to_string();
        if let Some(choice) = choices(name).into_iter().find(|c| c.field == base) {
            let values: Vec<&str> = choice.options.iter().map(|(v, _)| v.as_str()).collect();
            let near = crate::core::input::nearest(&value, values.iter().copied()).map_or(String::new(), |n| format!("; did you mean {n}?"));
            return InputError::new(error.field, format!("must be one of {} (got \"{value}\"){near}", values.join(", ")));
        }
    }
    error
}

/// Reads a configuration from a JSON value: the page's object, a configuration file, or
/// a whole export — `{"config": …, "result": …}` as the page's JSON button and the CLI's
/// `--out` write it.
pub fn config_from_value(value: serde_json::Value) -> Result<Config, InputError> {
    let serde_json::Value::Object(mut map) = value else {
        return Err(InputError::new("", r#"the configuration must be an object such as {"experiment": "level_sets"}"#));
    };
    if !map.contains_key("experiment")
        && let Some(serde_json::Value::Object(inner)) = map.get("config")
        && inner.contains_key("experiment")
    {
        let Some(serde_json::Value::Object(inner)) = map.remove("config") else { unreachable!("checked above") };
        map = inner;
    }
    let known = NAMES.join(", ");
    let name = match map.remove("experiment") {
        Some(serde_json::Value::String(name)) => name,
        Some(other) => return Err(InputError::new("experiment", format!("must be a name (one of {known}), not {other}"))),
        None => return Err(InputError::new("experiment", format!("is missing; add \"experiment\": one of {known}"))),
    };
    let name = named(&name)?;
    // a file given as text sets what it implies unless given, as its flag does
    for input in files(name) {
        let text = map.get(input.field).and_then(serde_json::Value::as_str).filter(|t| !t.trim().is_empty());
        if let Some((field, value)) = text.and_then(input.sets) {
            map.entry(field).or_insert_with(|| value.into());
        }
    }
    let map = serde_json::Value::Object(over_defaults(name, map));
    let parsed = config_of(name, &map).expect("a registered name has a configuration");
    parsed.map_err(|e| with_range(name, map, e))
}

/// The fields `given` sets, over experiment `name`'s defaults, object by object: a nested
/// object given in part (`{"repository": {"top_share": 0.6}}`, `--repository.top-share
/// 0.6`, a form's one field) keeps this experiment's defaults for the rest, never its
/// type's. Lists and values replace the default whole.
fn over_defaults(name: &str, given: serde_json::Map<String, serde_json::Value>) -> serde_json::Map<String, serde_json::Value> {
    fn merge(base: &mut serde_json::Map<String, serde_json::Value>, given: serde_json::Map<String, serde_json::Value>) {
        for (key, value) in given {
            match (base.get_mut(&key), value) {
                (Some(serde_json::Value::Object(inner)), serde_json::Value::Object(value)) => merge(inner, value),
                (_, value) => {
                    base.insert(key, value);
                }
            }
        }
    }
    let Ok(serde_json::Value::Object(mut base)) = serde_json::to_value(defaults(name).expect("a registered name")) else { unreachable!("a config is an object") };
    base.remove("experiment");
    merge(&mut base, given);
    base
}

/// The experiment `name` means ([`canonical`]), or the error that lists the names.
pub fn named(name: &str) -> Result<&'static str, InputError> {
    canonical(name).ok_or_else(|| InputError::new("experiment", format!("unknown experiment \"{name}\"; use one of {}", NAMES.join(", "))))
}

/// A whole-number field given a negative or fractional value: serde knows only that it
/// must be a whole number; the experiment's own check knows its range. It is asked with
/// the nearest whole number in the field, and its range, if it names one, is given.
fn with_range(name: &str, map: serde_json::Value, error: InputError) -> InputError {
    let Some(given) = error.message.strip_prefix("must be a whole number of at least 0 (got ").and_then(|m| m.strip_suffix(')')) else { return error };
    let Ok(value) = given.parse::<f64>() else { return error };
    let serde_json::Value::Object(mut map) = map else { return error };
    let mut node = &mut map;
    let path: Vec<&str> = error.field.split('.').collect();
    for key in &path[..path.len() - 1] {
        match node.get_mut(*key) {
            Some(serde_json::Value::Object(inner)) => node = inner,
            _ => return error,
        }
    }
    node.insert(path[path.len() - 1].to_string(), serde_json::json!(value.round().max(0.0) as u64));
    let probe = config_of(name, &serde_json::Value::Object(map)).and_then(|c| c.ok()).map(|c| c.validate_fields());
    match probe {
        Some(Err(e)) if e.field == error.field && e.message.starts_with("must be a whole number from ") => {
            let range = e.message.split(" (got ").next().unwrap_or_default();
            InputError::new(error.field, format!("{range} (got {given})"))
        }
        _ => error,
    }
}

/// Parses a JSON configuration (as written by the page's export and read by the CLI).
pub fn parse_config(json: &str) -> Result<Config, InputError> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| InputError::new("", format!("not valid JSON: {e}")))?;
    config_from_value(value)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::chart::draw::figure_svg;
    use crate::chart::theme::DrawOptions;

    #[test]
    fn every_registered_experiment_answers_to_its_own_name() {
        for name in NAMES {
            let config = defaults(name).unwrap();
            assert_eq!(config.name(), *name);
            let text = serde_json::to_string(&config).unwrap();
            assert_eq!(parse_config(&text).unwrap(), config, "{name}: defaults survive a JSON round trip");
            assert!(config.validate_fields().is_ok(), "{name}: defaults are valid");
            let cost = config.cost();
            assert!(cost.work > 0.0 && cost.bytes > 0.0 && cost.seconds >= 0.0, "{name}: {cost:?}");
            // the page runs every view's defaults as it opens (www/ui/panel.js), in the
            // worker: by the cost model they take seconds, not minutes
            assert!(cost.seconds <= 10.0, "{name}'s defaults are estimated at {} s: too long to run on opening the page", cost.seconds);
        }
    }

    /// The page's estimate of a crawlers run carries the experiment's measured
    /// WebAssembly slowdown; natively, and for an experiment the probe speaks for, the
    /// time is the model's.
    #[test]
    fn an_estimate_in_webassembly_carries_the_experiments_slowdown() {
        use crate::experiments::Settings;
        let crawlers = crate::experiments::crawlers::CrawlersConfig::default();
        let model = Settings::cost(&crawlers).seconds;
        let registered = Config::Crawlers(crawlers).cost().seconds;
        let expected = if cfg!(target_arch = "wasm32") { 1.2 * model } else { model };
        assert!((registered - expected).abs() <= 1e-12 * expected, "{registered} against {expected}");
        let learning = crate::experiments::learning::LearningConfig::default();
        assert_eq!(Config::Learning(learning.clone()).cost().seconds, Settings::cost(&learning).seconds);
    }

    /// The same run by flag and by JSON: a file given as text in a JSON configuration sets
    /// what its flag sets (`source`, whose crawler), unless the JSON says otherwise.
    #[test]
    fn a_file_in_a_json_configuration_sets_what_its_flag_sets() {
        let scrapy = serde_json::json!({"experiment": "crawlers", "crawler_config": "DOWNLOAD_DELAY = 10\n"});
        let Config::Crawlers(c) = config_from_value(scrapy.clone()).unwrap() else { unreachable!() };
        assert_eq!(c.crawler, crate::core::policy::crawler_files::Crawler::Scrapy);
        assert!(c.validate().is_ok());
        let mut told = scrapy;
        told["crawler"] = "nutch".into();
        let Config::Crawlers(c) = config_from_value(told).unwrap() else { unreachable!() };
        assert!(c.validate().unwrap_err().message.contains("set crawler to scrapy"), "a crawler given is kept, and refused with the fix");
        let list = serde_json::json!({"experiment": "policies", "page_list": "page,server,change_rate\na,s,0.5\n"});
        let Config::Policies(p) = config_from_value(list.clone()).unwrap() else { unreachable!() };
        assert_eq!(serde_json::to_value(p.source).unwrap(), "page_list");
        let mut told = list;
        told["source"] = "generator".into();
        let Config::Policies(p) = config_from_value(told).unwrap() else { unreachable!() };
        assert!(p.validate().unwrap_err().message.contains("set source to page_list"));
    }

    #[test]
    fn every_choice_is_a_value_its_field_accepts() {
        let mut fields = 0;
        for name in NAMES {
            let base = serde_json::to_value(defaults(name).unwrap()).unwrap();
            for choice in choices(name) {
                fields += 1;
                let pointer = format!("/{}", choice.field.replace('.', "/"));
                // the page's form starts from the default it finds there
                let default = base.pointer(&pointer).unwrap_or_else(|| panic!("{name}'s defaults leave out {}", choice.field)).clone();
                assert!(!choice.options.is_empty(), "{name}.{}", choice.field);
                let mut seen = std::collections::HashSet::new();
                for (value, label) in &choice.options {
                    assert!(seen.insert(value), "{name}.{}: {value} twice", choice.field);
                    assert!(!label.is_empty());
                    let mut json = base.clone();
                    let one = serde_json::Value::String(value.clone());
                    *json.pointer_mut(&pointer).unwrap() = if default.is_array() { serde_json::json!([one]) } else { one };
                    let config = config_from_value(json).unwrap_or_else(|e| panic!("{name}.{} = {value}: {e}", choice.field));
                    // a page list (and its own frequencies), an imported trace and records need their
                    // file; every other value runs as it is
                    if !["given", "page_list", "trace", "files"].contains(&value.as_str()) {
                        config.validate_fields().unwrap_or_else(|e| panic!("{name}.{} = {value}: {e}", choice.field));
                    }
                }
            }
        }
        assert_eq!(fields, 32, "the fields whose values the core names");
    }

    #[test]
    fn every_field_is_described_once_with_the_kind_of_its_default() {
        use crate::core::field::FieldKind;
        for name in NAMES {
            let base = serde_json::to_value(defaults(name).unwrap()).unwrap();
            let described = fields(name);
            let keys: Vec<&str> = described.iter().map(|f| f.key.as_str()).collect();
            let mut seen = std::collections::HashSet::new();
            for field in &described {
                assert!(seen.insert(field.key.as_str()), "{name}.{} described twice", field.key);
                assert!(!field.label.is_empty(), "{name}.{}", field.key);
                let value = base.pointer(&format!("/{}", field.key.replace('.', "/")));
                let numbers = |v: &serde_json::Value| v.as_array().is_some_and(|a| a.iter().all(|x| x.is_number()));
                let strings = |v: &serde_json::Value| v.as_array().is_some_and(|a| a.iter().all(|x| x.is_string()));
                let fits = match (field.kind, value) {
                    (FieldKind::Optional, None) => true,
                    (_, None) => false,
                    (FieldKind::Number, Some(v)) => v.is_number(),
                    (FieldKind::Integer, Some(v)) => v.is_u64(),
                    (FieldKind::Optional, Some(v)) => v.is_null() || v.is_number(),
                    (FieldKind::List, Some(v)) => numbers(v),
                    (FieldKind::Bool, Some(v)) => v.is_boolean(),
                    (FieldKind::Select, Some(v)) => v.is_string(),
                    (FieldKind::Choices, Some(v)) => strings(v),
                    (FieldKind::Text, Some(v)) => v.is_string(),
                };
                assert!(fits, "{name}.{}: a {:?} field, its default is {value:?}", field.key, field.kind);
                let named = choices(name).iter().any(|c| c.field == field.key);
                assert_eq!(named, matches!(field.kind, FieldKind::Select | FieldKind::Choices), "{name}.{}: values named by choices() if and only if a select", field.key);
            }
            // every field of the defaults (one level down, as the CLI's flags go) is
            // described, but those read from a file
            let Some(map) = base.as_object() else { panic!("{name}: a config is an object") };
            for (key, value) in map.iter().filter(|(k, _)| *k != "experiment") {
                let leaves: Vec<String> = match value.as_object() {
                    Some(inner) => inner.keys().map(|k| format!("{key}.{k}")).collect(),
                    None => vec![key.clone()],
                };
                for leaf in leaves {
                    let from_file = files(name).iter().any(|f| f.field == leaf);
                    assert!(from_file || keys.contains(&leaf.as_str()), "{name}.{leaf} is not described in fields()");
                }
            }
        }
    }

    /// A pilot the cost needs (run in the page's worker) sent in its field with its key
    /// prices the run as the pilot run here does; with its key alone (still running), the
    /// cost does not run it. Every experiment that has one.
    #[test]
    fn a_pilot_sent_in_its_field_stands_for_the_pilot_run_here() {
        let mut piloted = Vec::new();
        for name in NAMES {
            let config = defaults(name).unwrap();
            let Some(want) = config.pilot_key() else { continue };
            let mut json = serde_json::to_value(&config).unwrap();
            let pilot = config.pilot().unwrap();
            assert_eq!(pilot["key"], want.key.as_str(), "{name}");
            json[want.field] = pilot;
            assert_eq!(config_from_value(json.clone()).unwrap().cost(), config.cost(), "{name}");
            json[want.field] = serde_json::json!({ "key": want.key });
            assert_ne!(config_from_value(json).unwrap().cost(), config.cost(), "{name}: priced without its pilot");
            piloted.push(*name);
        }
        assert_eq!(piloted, ["certify", "bursty"]);
    }

    #[test]
    fn a_size_stands_for_a_file_in_the_checks_but_not_in_a_run() {
        // the page checks its form with the size of the file it holds, not the file
        let list = format!("page,server,change_rate\n{}", (0..500).map(|i| format!("p{i},s{},0.5\n", i % 7)).collect::<String>());
        let trace = (0..400).map(|i| format!("a{},{}\n", i % 3, 1_600_000_000 + 3600 * i)).collect::<String>();
        for (experiment, source, file, size) in
            [("learning", "page_list", "page_list", "page_list_bytes"), ("policies", "page_list", "page_list", "page_list_bytes"), ("bursty", "trace", "trace", "trace_bytes")]
        {
            let text = if source == "trace" { &trace } else { &list };
            let with = |extra: serde_json::Value| {
                let mut config = serde_json::json!({ "experiment": experiment, "source": source });
                config.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
                config_from_value(config).unwrap()
            };
            let sent = with(serde_json::json!({ file: text }));
            let sized = with(serde_json::json!({ size: text.len() }));
            assert!(sized.validate_fields().is_ok(), "{experiment}");
            if source == "trace" {
                // a size alone guesses the articles and changes; the shape (read in the
                // page's worker) gives the text's own estimate
                let shape = crate::core::model::trace::TraceShape::of(text).unwrap();
                let shaped = with(serde_json::json!({ "trace_shape": shape }));
                assert!(shaped.validate_fields().is_ok(), "{experiment}");
                assert_eq!(shaped.cost(), sent.cost(), "{experiment}: the shape's estimate is the text's");
                assert_ne!(sized.cost(), sent.cost(), "{experiment}: 400 rows of 3 articles are not guessed from their size");
                let both = with(serde_json::json!({ file: text, "trace_shape": shape })).validate_fields().unwrap_err();
                assert_eq!(both.field, "trace_shape", "{experiment}: {both}");
                let with_size = with(serde_json::json!({ size: text.len(), "trace_shape": shape })).validate_fields().unwrap_err();
                assert_eq!(with_size.field, size, "{experiment}: {with_size}");
            } else {
                // a page list's size alone bounds its cost from above; its shape (read in
                // the page's worker) gives the text's own estimate
                let (by_size, by_text) = (sized.cost(), sent.cost());
                assert!(by_size.bytes >= by_text.bytes && by_size.seconds >= by_text.seconds, "{experiment}: {by_size:?} below {by_text:?}");
                let shape = crate::core::model::page_list::ListShape::of(text);
                let shaped = with(serde_json::json!({ "page_list_shape": shape }));
                assert!(shaped.validate_fields().is_ok(), "{experiment}");
                assert_eq!(shaped.cost(), by_text, "{experiment}: the shape's estimate is the text's");
                let both = with(serde_json::json!({ file: text, "page_list_shape": shape })).validate_fields().unwrap_err();
                assert_eq!(both.field, "page_list_shape", "{experiment}: {both}");
            }
            // never both; over the limit like the text; and a run needs the file itself
            let both = with(serde_json::json!({ file: text, size: text.len() })).validate_fields().unwrap_err();
            assert_eq!(both.field, size, "{experiment}: {both}");
            let huge = with(serde_json::json!({ size: 600u64 << 20 })).validate_fields().unwrap_err();
            assert!(huge.field == file && huge.message.contains("over the 512 MB limit"), "{experiment}: {huge}");
            let Err(e) = start(sized) else { panic!("{experiment}: ran without its file") };
            assert!(e.field == file && e.message.contains("a run needs"), "{experiment}: {e}");
            let generator = config_from_value(serde_json::json!({ "experiment": experiment, size: 10 })).unwrap().validate_fields().unwrap_err();
            assert_eq!(generator.field, size, "{experiment}: {generator}");
        }
    }

    /// Every leaf of a configuration's JSON with its path (`["repository", "pages"]`).
    fn leaves(value: &serde_json::Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, serde_json::Value)>) {
        match value.as_object() {
            Some(map) => {
                for (k, v) in map {
                    path.push(k.clone());
                    leaves(v, path, out);
                    path.pop();
                }
            }
            None => out.push((path.clone(), value.clone())),
        }
    }

    /// Issue 45: a nested field set alone — even to its default — leaves the object's
    /// other fields at this experiment's defaults: every leaf of every experiment's
    /// defaults, set alone to its default, gives the defaults.
    #[test]
    fn a_nested_field_set_alone_keeps_the_experiments_other_defaults() {
        let mut nested = 0;
        for name in NAMES {
            let config = defaults(name).unwrap();
            let json = serde_json::to_value(&config).unwrap();
            let mut all = Vec::new();
            leaves(&json, &mut Vec::new(), &mut all);
            for (path, value) in all.into_iter().filter(|(p, _)| p[0] != "experiment") {
                nested += usize::from(path.len() > 1);
                let mut given = value;
                for key in path.iter().rev() {
                    given = serde_json::json!({ key.as_str(): given });
                }
                given["experiment"] = serde_json::json!(name);
                let parsed = config_from_value(given.clone()).unwrap_or_else(|e| panic!("{name}: {given}: {e}"));
                assert_eq!(parsed, config, "{name}: {} set alone changed other fields", path.join("."));
            }
        }
        assert!(nested >= 20, "{nested} nested fields");
        // and a value other than the default changes that field only
        let c = parse_config(r#"{"experiment": "learning", "repository": {"top_share": 0.7}}"#).unwrap();
        let Config::Learning(l) = c else { panic!() };
        let Config::Learning(d) = defaults("learning").unwrap() else { panic!() };
        assert_eq!((l.repository.pages, l.repository.servers, l.repository.top_share), (d.repository.pages, d.repository.servers, 0.7));
    }

    /// Issue 45: every refusal names a field the user can see — a field of the page's
    /// form or the CLI's flags by its full path, a file the CLI reads, or none — never
    /// an internal key: each leaf of every experiment's defaults is set to values out of
    /// any range, alone (and each such configuration's cost is computed, as the page's
    /// form asks it: without a panic; issue 45 found one for 0 servers, one for a horizon
    /// of 0).
    #[test]
    fn every_refusal_names_a_field_the_user_sees() {
        let mut refused = 0;
        for name in NAMES {
            let mut visible: Vec<String> = fields(name).iter().map(|f| f.key.to_string()).collect();
            visible.extend(files(name).iter().map(|f| f.field.to_string()));
            // the sizes that stand for a held file in the page's checks
            visible.extend(["page_list_bytes", "trace_bytes", "trace_shape", "experiment", ""].map(String::from));
            let json = serde_json::to_value(defaults(name).unwrap()).unwrap();
            let mut all = Vec::new();
            leaves(&json, &mut Vec::new(), &mut all);
            for (path, default) in all.into_iter().filter(|(p, _)| p[0] != "experiment") {
                let bad: Vec<serde_json::Value> = match &default {
                    serde_json::Value::Number(n) if n.is_u64() => {
                        vec![serde_json::json!(0), serde_json::json!(1), serde_json::json!(u64::MAX), serde_json::json!(-1), serde_json::json!(0.5)]
                    }
                    serde_json::Value::Number(_) => [-1.0, 0.0, 1e300, -1e300, 1e-300, 0.5].map(|v| serde_json::json!(v)).to_vec(),
                    serde_json::Value::Array(_) => vec![serde_json::json!([]), serde_json::json!([-1]), serde_json::json!([1e300]), serde_json::json!(["x"])],
                    serde_json::Value::String(_) => vec![serde_json::json!("nonsense")],
                    serde_json::Value::Bool(_) => vec![serde_json::json!(2)],
                    serde_json::Value::Null => vec![serde_json::json!(-1), serde_json::json!("x")],
                    serde_json::Value::Object(_) => unreachable!("leaves"),
                };
                for value in bad {
                    let mut given = value.clone();
                    for key in path.iter().rev() {
                        given = serde_json::json!({ key.as_str(): given });
                    }
                    given["experiment"] = serde_json::json!(name);
                    let error = match config_from_value(given.clone()) {
                        Err(e) => e,
                        Ok(config) => {
                            // the page asks the cost of every edit, valid or not: never a panic
                            let _ = config.cost();
                            match config.validate_fields() {
                                Err(e) => e,
                                Ok(()) => continue,
                            }
                        }
                    };
                    refused += 1;
                    for field in std::iter::once(&error.field).chain(error.pair.as_ref().map(|p| &p.field)) {
                        let base = field.split('[').next().unwrap_or_default();
                        assert!(visible.iter().any(|v| v == base), "{name}: {} = {value}: refused naming “{field}”, which no form field or flag shows ({error})", path.join("."));
                    }
                }
            }
        }
        assert!(refused > 300, "{refused} refusals");
    }

    /// Issue 45: an unknown field gets the nearest one a user can set, not serde's list of
    /// every field (internal ones included); a value gets its field's own choices.
    #[test]
    fn unknown_fields_and_values_are_answered_in_the_users_words() {
        let e = parse_config(r#"{"experiment": "learning", "politeness_secs": 60}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("politeness_secs", "is not a setting of learning; did you mean politeness_seconds?"));
        let e = parse_config(r#"{"experiment": "learning", "repository": {"pagez": 60}}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("repository.pagez", "is not a setting of learning; did you mean repository.pages?"));
        let e = parse_config(r#"{"experiment": "learning", "zebra": 60}"#).unwrap_err();
        assert!(e.message.starts_with("is not a setting of learning; the fields are source, repository, capacity,"), "{e}");
        assert!(!e.message.contains("page_list_bytes") || visible_fields("learning").contains(&"page_list_bytes".to_string()), "{e}");
        assert!(!e.message.contains("only_runs") && !e.message.contains("server_part"), "{e}");
        let e = parse_config(r#"{"experiment": "policies", "crawlers": ["heritrix"]}"#).unwrap_err();
        assert_eq!(e.field, "crawlers[0]");
        assert!(e.message.starts_with("must be one of nutch, stormcrawler, fixed (got \"heritrix\")"), "{e}");
        let e = parse_config(r#"{"experiment": "policies", "policies": ["mrege"]}"#).unwrap_err();
        assert!(e.message.ends_with("did you mean merge?"), "{e}");
    }

    #[test]
    fn an_empty_choice_asks_for_one() {
        let e = parse_config(r#"{"experiment": "per_page", "policies": []}"#).unwrap().validate_fields().unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("policies", "choose at least one policy: merge, random or both"));
        let e = parse_config(r#"{"experiment": "per_page", "policies": ["delayed"]}"#).unwrap().validate_fields().unwrap_err();
        assert!(e.message.starts_with("choose among merge and random"), "{e}");
    }

    #[test]
    fn a_negative_or_fractional_whole_number_is_told_its_range() {
        let e = parse_config(r#"{"experiment": "per_page", "replications": -5}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("replications", "must be a whole number from 2 to 1000 (got -5)"));
        let e = parse_config(r#"{"experiment": "level_sets", "grid": 2.5}"#).unwrap_err();
        assert_eq!(e.message, "must be a whole number from 11 to 1001 (got 2.5)");
        // nested fields too; a field without a range of its own keeps serde's words
        let e = parse_config(r#"{"experiment": "policies", "repository": {"pages": -3}}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("repository.pages", "must be a whole number from 1 to 100000000 (got -3)"));
        let e = parse_config(r#"{"experiment": "per_page", "seed": -1}"#).unwrap_err();
        assert_eq!(e.message, "must be a whole number of at least 0 (got -1)");
    }

    #[test]
    fn json_configs_round_trip_with_defaults() {
        let c = parse_config(r#"{"experiment": "level_sets", "r_max": 5}"#).unwrap();
        let Config::LevelSets(ls) = &c else { panic!("{c:?}") };
        assert_eq!(ls.r_max, 5.0);
        assert_eq!(ls.c_max, 20.0);
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(parse_config(&text).unwrap(), c);
        assert!(matches!(parse_config(r#"{"experiment":"certify"}"#).unwrap(), Config::Certify(_)));
        assert!(matches!(parse_config(r#"{"experiment":"wikipedia"}"#).unwrap(), Config::Bursty(_)), "the former name still reads");
    }

    #[test]
    fn an_export_with_config_and_result_is_read_as_its_config() {
        let config = parse_config(r#"{"experiment":"factor_curves","points":40}"#).unwrap();
        let output = run(config.clone(), |_, _| {}).unwrap();
        let export = serde_json::json!({ "config": config, "result": output });
        assert_eq!(config_from_value(export).unwrap(), config);
    }

    #[test]
    fn bad_json_names_the_field() {
        let e = parse_config(r#"{"experiment": "level_sets", "r_min": "abc"}"#).unwrap_err();
        assert_eq!(e.field, "r_min");
        assert!(e.message.contains("must be a number"), "{}", e.message);
        let e = parse_config(r#"{"experiment": "level_sets", "r_mni": 1}"#).unwrap_err();
        assert_eq!((e.field.as_str(), e.message.as_str()), ("r_mni", "is not a setting of level_sets; did you mean r_min?"));
        let e = parse_config(r#"{"experiment": "sorcery"}"#).unwrap_err();
        assert!(e.message.contains("unknown experiment") && e.message.contains("level_sets"), "{e}");
        let e = parse_config(r#"{"experiment": "certify", "tolerance": null}"#).unwrap_err();
        assert_eq!(e.field, "tolerance");
        assert!(e.message.contains("not a number"), "{e}");
        let e = parse_config(r#"{"r_min": 1}"#).unwrap_err();
        assert!(e.message.contains("experiment"), "{e}");
        let e = parse_config(r#"{"experiment": "bursts", "n": [5000, "x"]}"#).unwrap_err();
        assert_eq!(e.field, "n[1]");
        assert!(parse_config("").is_err());
        assert!(parse_config("{} {}").is_err());
    }

    #[test]
    fn every_experiment_runs_and_reports_progress() {
        for json in [r#"{"experiment":"level_sets","grid":51}"#, r#"{"experiment":"factor_curves"}"#, r#"{"experiment":"bursts"}"#, r#"{"experiment":"certify","tolerance":1e-6}"#]
        {
            let mut last = 0.0;
            let out = run(parse_config(json).unwrap(), |f, _| {
                assert!(f >= last - 1e-12 || f == 1.0);
                last = f;
            })
            .unwrap();
            let text = serde_json::to_string(&out).unwrap();
            let back: Output = serde_json::from_str(&text).unwrap();
            assert!(back == out, "{json}: the result does not survive a JSON round trip");
        }
    }

    #[test]
    fn validation_agrees_with_starting() {
        for json in [
            r#"{"experiment":"level_sets","grid":5}"#,
            r#"{"experiment":"policies","capacities":[2]}"#,
            r#"{"experiment":"per_page","c":0}"#,
            r#"{"experiment":"channel","windows":1}"#,
        ] {
            let config = parse_config(json).unwrap();
            let a = config.validate(&limits::here()).unwrap_err();
            let b = start(config).err().unwrap();
            assert_eq!(a, b, "{json}");
        }
        assert!(parse_config(r#"{"experiment":"policies"}"#).unwrap().validate(&limits::here()).is_ok());
    }

    #[test]
    fn invalid_values_are_refused_before_running() {
        let e = start(parse_config(r#"{"experiment":"certify","c_min":0.5}"#).unwrap()).err().unwrap();
        assert_eq!(e.field, "c_min");
    }

    #[test]
    fn every_theory_figure_renders_to_svg_with_its_labels() {
        for (json, must_contain) in [
            (r#"{"experiment":"level_sets","grid":61}"#, "min 0.92723"),
            (r#"{"experiment":"factor_curves"}"#, "RANDOM bound, Cor 5.5"),
            (r#"{"experiment":"bursts"}"#, "n = 5,000,000"),
            (r#"{"experiment":"certify","tolerance":1e-6}"#, "tolerance"),
        ] {
            let out = run(parse_config(json).unwrap(), |_, _| {}).unwrap();
            let fig = out.figures().swap_remove(0);
            assert!(!fig.summary.is_empty());
            for dark in [false, true] {
                let svg = figure_svg(&fig, 800, 500, &DrawOptions { dark, ..Default::default() }).unwrap();
                assert!(svg.starts_with("<svg") && svg.contains(must_contain), "{json}: {must_contain} missing");
                assert!(svg.matches("<polyline").count() + svg.matches("<path").count() + svg.matches("<line").count() > 5);
            }
        }
    }
}
