//! Every experiment of Freshlab, one folder each, behind one interface: [`Experiment`].
//!
//! An experiment is its configuration (with defaults and validation), its cost model,
//! its job, its output, its figures, its table and its presets. The one list of
//! experiments is in [`registry`]: the configuration and result enums, the CLI's
//! commands and help, and the page's entry points all follow from it. Adding an
//! experiment takes a folder here, a line in the registry and a view in `www/views/`
//! (docs/ARCHITECTURE.md).

pub mod inputs;
pub mod job;
pub mod registry;

pub mod allocate;
pub mod bursts;
pub mod bursty;
pub mod certify;
pub mod channel;
pub mod crawlers;
pub mod factor_curves;
pub mod history;
pub mod learning;
pub mod level_sets;
pub mod partition;
pub mod per_page;
pub mod policies;
pub mod sensors;

pub use job::{Job, Plan, Sliced, ready};
pub use registry::{Config, NAMES, Output, config_from_value, parse_config, run, start};

use crate::chart::figure::Figure;
use crate::core::field::{Declared, Field};
use crate::core::input::InputError;
use crate::core::limits::Cost;
use crate::table::Table;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::fmt::Debug;

/// One experiment, known by its configuration: everything the page, the worker, the CLI
/// and the tests need of it, but its name and summary, which are its entry in
/// [`registry`].
pub trait Experiment: Settings + Serialize + DeserializeOwned + Default + Clone + Debug + PartialEq + 'static {
    type Output: Figures + Tabular + Serialize + DeserializeOwned + Clone + Debug + PartialEq + 'static;

    /// Prepares the run of this configuration, valid and within the limits.
    fn start(self) -> Result<Box<dyn Job<Self::Output>>, InputError>;
    /// Named starting points besides the defaults (the CLI's `--<name>`, the page's
    /// preset buttons).
    fn presets() -> Vec<Preset<Self>> {
        Vec::new()
    }
    /// Fields the CLI fills from a file (`--trace FILE`).
    fn files() -> &'static [FileInput] {
        &[]
    }
    /// The files a run writes besides its result (`--tuned FILE`).
    fn files_out() -> &'static [FileOutput] {
        &[]
    }
    /// Every field of the configuration, described: the page's forms and the CLI's help
    /// take each one's label, help, kind and range from here — its declaration
    /// ([`crate::core::field::settings!`]).
    fn fields() -> Vec<Field> {
        Self::declared_fields("")
    }
    /// The fields whose values the core names, with each value's label: the page's
    /// forms and tables and the CLI's help take them from here, so a label is written
    /// once.
    fn choices() -> Vec<Choice> {
        Vec::new()
    }
    /// The configuration cut into at most `parts` independent parts whose results
    /// [`Experiment::merge`] joins into the whole run's, to the last bit (the page's pool
    /// of workers). Experiments that cannot be cut return the configuration alone.
    fn split(&self, _parts: usize) -> Vec<Self> {
        vec![self.clone()]
    }
    /// Joins the results (final or partial) of [`Experiment::split`]'s parts, in order.
    fn merge(&self, outputs: Vec<Self::Output>) -> Self::Output {
        outputs.into_iter().next().expect("a part's result")
    }
    /// The configuration a part of [`Experiment::split`] was cut from (itself when whole).
    fn whole(&self) -> Self {
        self.clone()
    }
}

/// An experiment's configuration: its checks and its cost.
pub trait Settings: Declared {
    /// Checks every field (cheap: safe on a page's main thread for any size of run): its
    /// declared range, then the rules between fields.
    fn validate(&self) -> Result<(), InputError> {
        self.check_fields("")?;
        self.rules()
    }
    /// The rules a range cannot say: between fields (`explore_days` within
    /// `horizon_days`), or over a whole list (no policy twice).
    fn rules(&self) -> Result<(), InputError>;
    /// Work, peak memory and time of a run, from the configuration alone (cheap); the
    /// one place where a run's size is weighed against the limits (`core::limits`).
    fn cost(&self) -> Cost;
    /// How many times slower this experiment's work runs as WebAssembly than the speed
    /// probe says WebAssembly runs here (the page's estimate multiplies by it): 1 unless
    /// measured otherwise, its measurement on the constant.
    const WASM_SLOWDOWN: f64 = 1.0;
    /// A pilot run the cost needs (milliseconds: bursty's GREEDY counts), named by its
    /// field and the key of its inputs. The page's form asks its worker for it
    /// ([`Settings::pilot`]) and sends it in that field; elsewhere the cost runs it.
    fn pilot_key(&self) -> Option<PilotKey> {
        None
    }
    /// Runs the pilot [`Settings::pilot_key`] names: the value for its field.
    fn pilot(&self) -> Option<serde_json::Value> {
        None
    }
}

/// The pilot a configuration's cost needs: the field that carries it, and the key of its
/// inputs (a pilot whose key is another's stands for nothing).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PilotKey {
    pub field: &'static str,
    pub key: String,
}

impl PilotKey {
    /// A digest of a pilot's inputs, the same natively and in the page's worker.
    pub fn digest(inputs: &impl Serialize) -> String {
        use std::hash::{Hash, Hasher};
        let text = serde_json::to_string(inputs).unwrap_or_default();
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        text.hash(&mut hasher);
        format!("{:016x}", hasher.finish())
    }
}

/// What the page draws and the CLI writes as SVG or PNG.
pub trait Figures {
    fn figures(&self) -> Vec<Figure>;
    /// The few numbers the CLI prints for this result, when the whole result (with
    /// `--json`) or its figures' summaries (without) are not what a reader asked for.
    fn brief(&self) -> Option<Brief> {
        None
    }
    /// The text of the file the run wrote for its [`FileOutput`] `flag`, if it wrote one.
    fn file_out(&self, _flag: &str) -> Option<String> {
        None
    }
    /// What the page's tables read, where that is less than the whole result (which
    /// stays in the worker for the figures, the CSV and the exports): `None` when the
    /// page reads it whole.
    fn shown(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// Whether this is such a cut (a page that gets it back cannot rebuild the whole).
    fn is_cut(&self) -> bool {
        false
    }
}

/// The result as a table: the CSV export.
pub trait Tabular {
    fn table(&self) -> Table;
    /// The table as experiment `reader` reads it (a page list handed to another view):
    /// the export, unless a column is for some readers only.
    fn table_for(&self, _reader: &str) -> Table {
        self.table()
    }
}

/// A result in a few numbers: as JSON (`--json`) and, if it has one, as text.
pub struct Brief {
    pub json: serde_json::Value,
    pub text: Option<String>,
}

/// A named configuration.
pub struct Preset<C> {
    pub name: &'static str,
    pub label: &'static str,
    pub config: C,
}

/// The values a field takes: each one's JSON name and its label (the one the charts use).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The field's path in the configuration (`repository.pages` for a nested one).
    pub field: &'static str,
    pub options: Vec<(String, &'static str)>,
}

impl Choice {
    /// `values`, each named as the configuration names it (their unit variants'
    /// serde names) and labelled by `label`.
    pub fn of<T: Serialize + Copy>(field: &'static str, values: &[T], label: fn(T) -> &'static str) -> Self {
        let name = |v: &T| match serde_json::to_value(v) {
            Ok(serde_json::Value::String(name)) => name,
            other => unreachable!("a choice is a unit variant, not {other:?}"),
        };
        Choice { field, options: values.iter().map(|v| (name(v), label(*v))).collect() }
    }
}

/// A file a run writes besides its result, by the CLI's `--<flag> FILE` (the page
/// offers it as a download).
pub struct FileOutput {
    pub flag: &'static str,
    /// The boolean field the flag turns on (the run that writes the file), if any.
    pub sets: Option<&'static str>,
    pub help: &'static str,
}

/// A configuration field read from a file by the CLI.
pub struct FileInput {
    /// The flag, without its dashes (`--trace FILE`), then any other spelling.
    pub flags: &'static [&'static str],
    /// The field that receives the file's text.
    pub field: &'static str,
    /// A field set from the file's text unless given (`source = trace`; a crawler's file
    /// sets `crawler` to whose it is), by flag or in a JSON configuration alike
    /// ([`registry::config_from_value`]).
    pub sets: fn(&str) -> Option<(&'static str, &'static str)>,
    /// Checks the text before the run, naming the faulty line.
    pub check: fn(&[u8]) -> Result<(), InputError>,
    /// The largest file accepted, checked before the file is read.
    pub max_bytes: u64,
    /// A table of rows (its separator is said), not a document.
    pub table: bool,
    pub help: &'static str,
}
