//! Every experiment behind one configuration type, one job interface and one result
//! type: the page's worker, the CLI and the tests all run the same code.

use crate::concepts::{SensorsConfig, SensorsJob, SensorsOutput};
use crate::distributed::{PartitionConfig, PartitionJob, PartitionOutput};
use crate::input::InputError;
use crate::revisit::allocate::{AllocateConfig, AllocateOutput, allocations};
use crate::revisit::channel::{ChannelConfig, ChannelOutput, channel};
use crate::revisit::per_page::{PerPageConfig, PerPageJob, PerPageOutput};
use crate::revisit::repository::{PoliciesConfig, PoliciesJob, PoliciesOutput};
use crate::theory::certify::{CertifyConfig, CertifyJob, CertifyOutput};
use crate::theory::channel_bursts::{BurstsConfig, BurstsOutput, bursts};
use crate::theory::factor_curves::{FactorCurvesConfig, FactorCurvesOutput, factor_curves};
use crate::theory::level_sets::{LevelSetsConfig, LevelSetsJob, LevelSetsOutput};
use crate::wikipedia::{WikipediaConfig, WikipediaJob, WikipediaOutput};
use serde::{Deserialize, Serialize};

/// A run's configuration; the JSON form carries `"experiment": "<name>"` beside the
/// experiment's own fields, all optional (defaults are the sources' settings).
/// Read it with [`config_from_value`] or [`parse_config`], which name the faulty field.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "experiment", rename_all = "snake_case")]
pub enum Config {
    /// Level sets of Eq 5-9 (Fig 5.6).
    LevelSets(LevelSetsConfig),
    /// RANDOM and MERGE factors against λ/f (Fig 5.2).
    FactorCurves(FactorCurvesConfig),
    /// Eq 5-11 bounds on channel bursts (Fig 5.7).
    Bursts(BurstsConfig),
    /// Certified lower bound for Eq 5-9 (Conjecture 5.9).
    Certify(CertifyConfig),
    /// Revisit policies on a repository (Fig 5.8) and deployed crawlers' schedules.
    Policies(PoliciesConfig),
    /// The four allocations of a repository (spec §1.3), page by page.
    Allocate(AllocateConfig),
    /// A page's simulated factor against Eq 5-2 and Eq 5-8.
    PerPage(PerPageConfig),
    /// Requests per window against Eq 5-11.
    Channel(ChannelConfig),
    /// Robots vs sensors (Zemskov 2002).
    Sensors(SensorsConfig),
    /// Non-Poisson changes: MERGE, MERGE2, UNPOLITE, RANDOM, GREEDY (thesis ch. 6).
    Wikipedia(WikipediaConfig),
    /// Distributed crawling: hash vs graph partitioning under politeness (Exposto 2008).
    Partition(PartitionConfig),
}

/// A run's result, tagged like its configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "experiment", rename_all = "snake_case")]
pub enum Output {
    LevelSets(LevelSetsOutput),
    FactorCurves(FactorCurvesOutput),
    Bursts(BurstsOutput),
    Certify(CertifyOutput),
    Policies(PoliciesOutput),
    Allocate(AllocateOutput),
    PerPage(PerPageOutput),
    Channel(ChannelOutput),
    Sensors(SensorsOutput),
    Wikipedia(WikipediaOutput),
    Partition(PartitionOutput),
}

/// A run that advances in slices, so a caller can report progress, show partial
/// results and cancel between slices.
pub trait Job {
    /// Does about `budget` units of work; returns the fraction done, in [0, 1].
    fn advance(&mut self, budget: u64) -> f64;
    fn done(&self) -> bool;
    /// The result so far, for experiments whose partial results mean something.
    fn partial(&self) -> Option<Output> {
        None
    }
    /// The final result (runs to the end first if needed).
    fn finish(self: Box<Self>) -> Output;
}

/// A result computed at once (closed-form curves take microseconds).
struct Ready(Output);

impl Job for Ready {
    fn advance(&mut self, _: u64) -> f64 {
        1.0
    }
    fn done(&self) -> bool {
        true
    }
    fn finish(self: Box<Self>) -> Output {
        self.0
    }
}

impl Job for LevelSetsJob {
    fn advance(&mut self, budget: u64) -> f64 {
        LevelSetsJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        LevelSetsJob::done(self)
    }
    fn finish(self: Box<Self>) -> Output {
        Output::LevelSets(LevelSetsJob::finish(*self))
    }
}

impl Job for CertifyJob {
    fn advance(&mut self, budget: u64) -> f64 {
        // a box costs about 30 formula evaluations
        CertifyJob::advance(self, budget.div_ceil(30))
    }
    fn done(&self) -> bool {
        CertifyJob::done(self)
    }
    fn partial(&self) -> Option<Output> {
        Some(Output::Certify(self.output()))
    }
    fn finish(mut self: Box<Self>) -> Output {
        while !CertifyJob::done(&self) {
            CertifyJob::advance(&mut self, 100_000);
        }
        Output::Certify(self.output())
    }
}

impl Job for PoliciesJob {
    fn advance(&mut self, budget: u64) -> f64 {
        PoliciesJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        PoliciesJob::done(self)
    }
    fn partial(&self) -> Option<Output> {
        Some(Output::Policies(PoliciesJob::partial(self)))
    }
    fn finish(self: Box<Self>) -> Output {
        Output::Policies(PoliciesJob::finish(*self))
    }
}

impl Job for PerPageJob {
    fn advance(&mut self, budget: u64) -> f64 {
        PerPageJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        PerPageJob::done(self)
    }
    fn partial(&self) -> Option<Output> {
        Some(Output::PerPage(self.output()))
    }
    fn finish(mut self: Box<Self>) -> Output {
        while !PerPageJob::done(&self) {
            PerPageJob::advance(&mut self, u64::MAX);
        }
        Output::PerPage(self.output())
    }
}

impl Job for SensorsJob {
    fn advance(&mut self, budget: u64) -> f64 {
        SensorsJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        SensorsJob::done(self)
    }
    fn partial(&self) -> Option<Output> {
        Some(Output::Sensors(SensorsJob::partial(self)))
    }
    fn finish(self: Box<Self>) -> Output {
        Output::Sensors(SensorsJob::finish(*self))
    }
}

impl Job for PartitionJob {
    fn advance(&mut self, budget: u64) -> f64 {
        PartitionJob::advance(self, budget)
    }
    fn done(&self) -> bool {
        PartitionJob::done(self)
    }
    fn partial(&self) -> Option<Output> {
        Some(Output::Partition(PartitionJob::partial(self)))
    }
    fn finish(self: Box<Self>) -> Output {
        Output::Partition(PartitionJob::finish(*self))
    }
}

/// Checks a configuration without preparing its run (cheap: safe on a page's main
/// thread, whatever the size of the run).
pub fn validate(config: &Config) -> Result<(), InputError> {
    match config {
        Config::LevelSets(c) => c.validate(),
        Config::FactorCurves(c) => c.validate(),
        Config::Bursts(c) => c.validate(),
        Config::Certify(c) => c.validate(),
        Config::Policies(c) => c.validate(),
        Config::Allocate(c) => c.validate(),
        Config::PerPage(c) => c.validate(),
        Config::Channel(c) => c.validate(),
        Config::Sensors(c) => c.validate(),
        Config::Wikipedia(c) => c.validate(),
        Config::Partition(c) => c.validate(),
    }
}

/// Validates a configuration and prepares its run.
pub fn start(config: Config) -> Result<Box<dyn Job>, InputError> {
    Ok(match config {
        Config::LevelSets(c) => Box::new(LevelSetsJob::new(c)?),
        Config::FactorCurves(c) => Box::new(Ready(Output::FactorCurves(factor_curves(c)?))),
        Config::Bursts(c) => Box::new(Ready(Output::Bursts(bursts(c)?))),
        Config::Certify(c) => Box::new(CertifyJob::new(c)?),
        Config::Policies(c) => Box::new(PoliciesJob::new(c)?),
        Config::Allocate(c) => Box::new(Ready(Output::Allocate(allocations(c)?))),
        Config::PerPage(c) => Box::new(PerPageJob::new(c)?),
        Config::Channel(c) => Box::new(Ready(Output::Channel(channel(c)?))),
        Config::Sensors(c) => Box::new(SensorsJob::new(c)?),
        Config::Wikipedia(c) => Box::new(WikipediaJob::new(c)?),
        Config::Partition(c) => Box::new(PartitionJob::new(c)?),
    })
}

/// Runs a configuration to the end, calling `on_progress` between slices.
pub fn run(config: Config, mut on_progress: impl FnMut(f64, &dyn Job)) -> Result<Output, InputError> {
    let mut job = start(config)?;
    while !job.done() {
        let fraction = job.advance(1_000_000);
        on_progress(fraction, job.as_ref());
    }
    Ok(job.finish())
}

/// The experiments' names, as the `experiment` field spells them.
pub const EXPERIMENTS: [&str; 11] = ["level_sets", "factor_curves", "bursts", "certify", "policies", "allocate", "per_page", "channel", "sensors", "wikipedia", "partition"];

/// Deserialises one experiment's fields, naming the field at fault on error.
fn fields<T: serde::de::DeserializeOwned>(map: serde_json::Map<String, serde_json::Value>) -> Result<T, InputError> {
    serde_path_to_error::deserialize(serde_json::Value::Object(map)).map_err(|error| {
        let field = error.path().to_string();
        let message = error.inner().to_string();
        // JavaScript's NaN and ±Infinity have no JSON form and arrive as null.
        let message = if message.starts_with("invalid type: null") { "is not a number (empty, NaN or infinite); enter a number".to_string() } else { message };
        InputError::new(field, message)
    })
}

/// Reads a configuration from a JSON value (the page's object, or a parsed file).
pub fn config_from_value(value: serde_json::Value) -> Result<Config, InputError> {
    let serde_json::Value::Object(mut map) = value else {
        return Err(InputError::new("", r#"the configuration must be an object such as {"experiment": "level_sets"}"#));
    };
    let known = EXPERIMENTS.join(", ");
    let name = match map.remove("experiment") {
        Some(serde_json::Value::String(name)) => name,
        Some(other) => {
            return Err(InputError::new("experiment", format!("must be a name (one of {known}), not {other}")));
        }
        None => {
            return Err(InputError::new("experiment", format!("is missing; add \"experiment\": one of {known}")));
        }
    };
    Ok(match name.as_str() {
        "level_sets" => Config::LevelSets(fields(map)?),
        "factor_curves" => Config::FactorCurves(fields(map)?),
        "bursts" => Config::Bursts(fields(map)?),
        "certify" => Config::Certify(fields(map)?),
        "policies" => Config::Policies(fields(map)?),
        "allocate" => Config::Allocate(fields(map)?),
        "per_page" => Config::PerPage(fields(map)?),
        "channel" => Config::Channel(fields(map)?),
        "sensors" => Config::Sensors(fields(map)?),
        "wikipedia" => Config::Wikipedia(fields(map)?),
        "partition" => Config::Partition(fields(map)?),
        other => {
            return Err(InputError::new("experiment", format!("unknown experiment \"{other}\"; use one of {known}")));
        }
    })
}

/// Parses a JSON configuration (as written by the page's "export" and read by the CLI).
pub fn parse_config(json: &str) -> Result<Config, InputError> {
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| InputError::new("", format!("not valid JSON: {e}")))?;
    config_from_value(value)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn json_configs_round_trip_with_defaults() {
        let c = parse_config(r#"{"experiment": "level_sets", "r_max": 5}"#).unwrap();
        let Config::LevelSets(ls) = &c else { panic!("{c:?}") };
        assert_eq!(ls.r_max, 5.0);
        assert_eq!(ls.c_max, 20.0);
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(parse_config(&text).unwrap(), c);
        assert!(matches!(parse_config(r#"{"experiment":"certify"}"#).unwrap(), Config::Certify(_)));
    }

    #[test]
    fn bad_json_names_the_field() {
        let e = parse_config(r#"{"experiment": "level_sets", "r_min": "abc"}"#).unwrap_err();
        assert_eq!(e.field, "r_min");
        assert!(e.message.contains("invalid type"), "{}", e.message);
        let e = parse_config(r#"{"experiment": "level_sets", "r_mni": 1}"#).unwrap_err();
        assert!(e.message.contains("unknown field `r_mni`"), "{e}");
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
            let a = validate(&config).unwrap_err();
            let b = start(config).err().unwrap();
            assert_eq!(a, b, "{json}");
        }
        assert!(validate(&parse_config(r#"{"experiment":"policies"}"#).unwrap()).is_ok());
    }

    #[test]
    fn invalid_values_are_refused_before_running() {
        let e = start(parse_config(r#"{"experiment":"certify","c_min":0.5}"#).unwrap()).err().unwrap();
        assert_eq!(e.field, "c_min");
    }
}
