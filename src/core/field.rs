//! What a configuration field is to its readers: the label and help the page's forms
//! show and the CLI's `--help` prints, and the kind of input it takes — written once,
//! beside the experiment that reads the field.

use serde::Serialize;

/// The input a field takes on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Number,
    Integer,
    /// A number that may be left empty, meaning none.
    Optional,
    /// A list of numbers.
    List,
    Bool,
    /// One of the values the experiment names (`Experiment::choices`).
    Select,
    /// Any set of the values the experiment names.
    Choices,
}

/// One field of a configuration, described.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// Its path in the configuration (`repository.pages` for a nested one).
    pub key: &'static str,
    pub label: &'static str,
    pub kind: FieldKind,
    /// A line more (a published value, a unit, a reading); empty when the label says all.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub help: &'static str,
}

impl Field {
    pub fn new(key: &'static str, label: &'static str, kind: FieldKind) -> Self {
        Field { key, label, kind, help: "" }
    }
    pub fn number(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Number)
    }
    pub fn integer(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Integer)
    }
    pub fn optional(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Optional)
    }
    pub fn list(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::List)
    }
    pub fn bool(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Bool)
    }
    pub fn select(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Select)
    }
    pub fn choices(key: &'static str, label: &'static str) -> Self {
        Field::new(key, label, FieldKind::Choices)
    }
    /// The same field, with a line of help.
    pub fn help(self, help: &'static str) -> Self {
        Field { help, ..self }
    }
    /// P, the least time between two requests to one server (spec §1.1).
    pub fn politeness() -> Self {
        Field::number("politeness_seconds", "politeness P (seconds)")
    }
    /// P where 0 turns politeness off.
    pub fn politeness_or_none() -> Self {
        Field::number("politeness_seconds", "politeness P (seconds; 0: none)")
    }
    /// The seed of every random stream of a run (same seed, same numbers).
    pub fn seed() -> Self {
        Field::integer("seed", "seed")
    }
}
