//! A configuration field, declared once: its key, type, default, label, help and range
//! ([`settings!`]). From that one declaration come the configuration's struct and its
//! `Default`, the described fields the page's forms and the CLI's flags and `--help`
//! show, and the range checks, each message naming the field's full dotted path.

use crate::core::input::{InputError, check, count, shown};
use crate::core::units::{Days, Seconds};
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
    /// Free text (a crawler's settings as `name=value; …`), checked by the experiment.
    Text,
}

/// One field of a configuration, described.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    /// Its path in the configuration (`repository.pages` for a nested one).
    pub key: String,
    pub label: &'static str,
    pub kind: FieldKind,
    /// A line more (a published value, a unit, a reading); empty when the label says all.
    #[serde(skip_serializing_if = "str::is_empty")]
    pub help: &'static str,
    /// The values it may take (each item's, for a list): checked by [`Range::check`],
    /// said by `--help` and given to the form's inputs as their bounds.
    #[serde(skip_serializing_if = "Range::is_any")]
    pub range: Range,
}

impl Field {
    pub fn new(label: &'static str, kind: FieldKind) -> Self {
        Field { key: String::new(), label, kind, help: "", range: Range::ANY }
    }
    pub fn number(label: &'static str) -> Self {
        Field::new(label, FieldKind::Number)
    }
    pub fn integer(label: &'static str) -> Self {
        Field::new(label, FieldKind::Integer)
    }
    pub fn optional(label: &'static str) -> Self {
        Field::new(label, FieldKind::Optional)
    }
    pub fn list(label: &'static str) -> Self {
        Field::new(label, FieldKind::List)
    }
    pub fn bool(label: &'static str) -> Self {
        Field::new(label, FieldKind::Bool)
    }
    pub fn select(label: &'static str) -> Self {
        Field::new(label, FieldKind::Select)
    }
    pub fn choices(label: &'static str) -> Self {
        Field::new(label, FieldKind::Choices)
    }
    pub fn text(label: &'static str) -> Self {
        Field::new(label, FieldKind::Text)
    }
    /// P, the least time between two requests to one server (spec §1.1).
    pub fn politeness() -> Self {
        Field::number("politeness P (seconds)").positive()
    }
    /// P where 0 turns politeness off; otherwise at least a microsecond (below that,
    /// the optimum's per-server caps reach 10¹⁵ requests a day and its harmonic
    /// multiplier wλ/f² leaves what an f64 holds).
    pub fn politeness_or_none() -> Self {
        Field::number("politeness P (seconds; 0: none)").zero_or_at_least(1e-6)
    }
    /// A field described once for several configurations (`shared(Estimator::field())`).
    pub fn shared(field: Field) -> Self {
        field
    }
    /// The seed of every random stream of a run (same seed, same numbers).
    pub fn seed() -> Self {
        Field::integer("seed")
    }

    /// The same field, with a line of help.
    pub fn help(self, help: &'static str) -> Self {
        Field { help, ..self }
    }
    /// The same field at its path in the configuration.
    pub fn at(self, key: String) -> Self {
        Field { key, ..self }
    }
    /// Greater than 0.
    pub fn positive(self) -> Self {
        self.bounded(|r| Range { min: Some(0.0), min_excluded: true, ..r })
    }
    pub fn at_least(self, min: f64) -> Self {
        self.bounded(|r| Range { min: Some(min), min_excluded: false, ..r })
    }
    /// 0, or at least `min` (0 turns the setting off).
    pub fn zero_or_at_least(self, min: f64) -> Self {
        self.bounded(|r| Range { min: Some(min), min_excluded: false, or_zero: true, ..r })
    }
    pub fn at_most(self, max: f64) -> Self {
        self.bounded(|r| Range { max: Some(max), max_excluded: false, ..r })
    }
    /// Less than `bound`.
    pub fn below(self, bound: f64) -> Self {
        self.bounded(|r| Range { max: Some(bound), max_excluded: true, ..r })
    }
    /// A whole number from `min` to `max`.
    pub fn count(self, min: u64, max: u64) -> Self {
        self.bounded(|r| Range { min: Some(min as f64), max: Some(max as f64), min_excluded: false, max_excluded: false, whole: true, ..r })
    }
    /// Why the range stops at its maximum (said when a value is over it).
    pub fn why(self, why_max: &'static str) -> Self {
        self.bounded(|r| Range { why_max, ..r })
    }
    fn bounded(self, change: impl FnOnce(Range) -> Range) -> Self {
        Field { range: change(self.range), ..self }
    }
}

/// The values a number may take: bounds (each included or not), whole or not.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Range {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub min_excluded: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub max_excluded: bool,
    /// 0 is allowed below `min` (it turns the setting off).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub or_zero: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub whole: bool,
    #[serde(skip)]
    pub why_max: &'static str,
}

impl Range {
    /// Any finite number.
    pub const ANY: Range = Range { min: None, min_excluded: false, max: None, max_excluded: false, or_zero: false, whole: false, why_max: "" };

    pub fn is_any(&self) -> bool {
        self.min.is_none() && self.max.is_none() && !self.whole
    }

    /// Checks every number `value` holds, named `key` (`key[k]` for a list's items).
    pub fn check<T: Numbers + ?Sized>(&self, key: &str, value: &T) -> Result<(), InputError> {
        let numbers = value.numbers();
        for (k, &x) in numbers.iter().enumerate() {
            let name = if T::LIST { format!("{key}[{k}]") } else { key.to_string() };
            self.check_one(&name, x)?;
        }
        Ok(())
    }

    fn check_one(&self, key: &str, x: f64) -> Result<(), InputError> {
        if self.whole {
            check(key, x)?.at_least(0.0)?.integer()?;
            let (min, max) = (self.min.unwrap_or(0.0) as u64, self.max.unwrap_or(u64::MAX as f64) as u64);
            return count(key, x as u64, min, max, self.why_max);
        }
        let mut checked = check(key, x)?;
        if self.or_zero && x == 0.0 {
            return Ok(());
        }
        if let (true, Some(min)) = (self.or_zero, self.min) {
            if x < min {
                return Err(InputError::new(key, format!("must be 0 (none) or at least {} (got {})", shown(min), shown(x))));
            }
        } else if let Some(min) = self.min {
            // an excluded minimum is 0 (`positive`, the one way to declare one)
            checked = if self.min_excluded { checked.positive()? } else { checked.at_least(min)? };
        }
        if let Some(max) = self.max {
            checked = if self.max_excluded { checked.below(max)? } else { checked.at_most(max)? };
        }
        let _ = checked;
        Ok(())
    }

    /// The range in words, for `--help` ("from 10 to 1000", "greater than 0, at most 1").
    pub fn words(&self) -> String {
        let n = shown;
        if self.whole {
            return match (self.min, self.max) {
                (Some(lo), Some(hi)) => format!("a whole number from {} to {}", n(lo), n(hi)),
                _ => "a whole number".into(),
            };
        }
        let lo = self.min.map(|m| {
            if self.or_zero {
                format!("0 or at least {}", n(m))
            } else if self.min_excluded {
                format!("greater than {}", n(m))
            } else {
                format!("at least {}", n(m))
            }
        });
        let hi = self.max.map(|m| if self.max_excluded { format!("less than {}", n(m)) } else { format!("at most {}", n(m)) });
        [lo, hi].into_iter().flatten().collect::<Vec<_>>().join(", ")
    }
}

/// The numbers a setting holds, for its range check: a number, none (an empty
/// optional, a named value, a flag), or each item of a list.
pub trait Numbers {
    /// A list: its items are named by their index in messages.
    const LIST: bool = false;
    fn numbers(&self) -> Vec<f64>;
}

macro_rules! numbers_as_f64 {
    ($($t:ty),*) => { $( impl Numbers for $t { fn numbers(&self) -> Vec<f64> { vec![*self as f64] } } )* };
}
numbers_as_f64!(f64, u64, u32, usize);

impl Numbers for Seconds {
    fn numbers(&self) -> Vec<f64> {
        vec![self.0]
    }
}
impl Numbers for Days {
    fn numbers(&self) -> Vec<f64> {
        vec![self.0]
    }
}
impl Numbers for bool {
    fn numbers(&self) -> Vec<f64> {
        Vec::new()
    }
}
impl Numbers for String {
    fn numbers(&self) -> Vec<f64> {
        Vec::new()
    }
}
impl<T: Numbers> Numbers for Option<T> {
    const LIST: bool = T::LIST;
    fn numbers(&self) -> Vec<f64> {
        self.as_ref().map_or_else(Vec::new, Numbers::numbers)
    }
}
impl<T: Numbers, const N: usize> Numbers for [T; N] {
    const LIST: bool = true;
    fn numbers(&self) -> Vec<f64> {
        self.iter().flat_map(Numbers::numbers).collect()
    }
}
impl<T: Numbers> Numbers for Vec<T> {
    const LIST: bool = true;
    fn numbers(&self) -> Vec<f64> {
        self.iter().flat_map(Numbers::numbers).collect()
    }
}

/// A configuration declared by [`settings!`]: its fields, described, and their checks.
pub trait Declared {
    /// Every field a user can set, described, at its path under `prefix` (`repository.`).
    fn declared_fields(prefix: &str) -> Vec<Field>;
    /// Every field's range (and each nested object's [`Nested::validate`]), named by its
    /// path under `prefix`.
    fn check_fields(&self, prefix: &str) -> Result<(), InputError>;
}

/// An object nested in configurations (`repository`): its fields' ranges, then the
/// rules between them.
pub trait Nested: Declared {
    /// The rules between its fields (`rate_min < rate_max`), named under `prefix`.
    fn rules(&self, _prefix: &str) -> Result<(), InputError> {
        Ok(())
    }
    fn validate(&self, prefix: &str) -> Result<(), InputError> {
        self.check_fields(prefix)?;
        self.rules(prefix)
    }
}

/// Declares a configuration once. Each field is written as
///
/// ```text
/// /// Its doc comment.
/// pub capacity: f64 = 0.5; number("C as a share of the maximum").help("…").positive().at_most(1.0);
/// pub repository: RepositoryConfig = RepositoryConfig::default(); nested;
/// pub only_runs: Option<Vec<u64>> = None; internal;
/// ```
///
/// — its name, type and default, then how a user sees it: a [`Field`] constructor with
/// its help and range, `nested` for an object declared the same way (its fields appear
/// under `name.`), or `internal` for what the page and the CLI set themselves. Gives
/// the struct, its `Default` and its [`Declared`] implementation.
macro_rules! settings {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $(
                $(#[$fmeta:meta])*
                pub $field:ident : $ty:ty = $default:expr ; $how:ident $( ( $($args:tt)* ) )? $( . $m:ident ( $($margs:tt)* ) )* ;
            )*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $( $field: $default, )* }
            }
        }

        impl $crate::core::field::Declared for $name {
            fn declared_fields(prefix: &str) -> Vec<$crate::core::field::Field> {
                let mut fields = Vec::new();
                $( $crate::core::field::settings!(@describe fields, prefix, $field, $ty, $how $( ( $($args)* ) )? $( . $m ( $($margs)* ) )*); )*
                fields
            }

            fn check_fields(&self, prefix: &str) -> Result<(), $crate::core::input::InputError> {
                $( $crate::core::field::settings!(@check prefix, $field, &self.$field, $how $( ( $($args)* ) )? $( . $m ( $($margs)* ) )*); )*
                Ok(())
            }
        }
    };
    (@describe $fields:ident, $prefix:ident, $field:ident, $ty:ty, internal) => {};
    (@describe $fields:ident, $prefix:ident, $field:ident, $ty:ty, nested) => {
        $fields.extend(<$ty as $crate::core::field::Declared>::declared_fields(&format!("{}{}.", $prefix, stringify!($field))));
    };
    (@describe $fields:ident, $prefix:ident, $field:ident, $ty:ty, $how:ident ( $($args:tt)* ) $( . $m:ident ( $($margs:tt)* ) )*) => {
        $fields.push($crate::core::field::Field::$how($($args)*) $( . $m ( $($margs)* ) )* .at(format!("{}{}", $prefix, stringify!($field))));
    };
    (@check $prefix:ident, $field:ident, $value:expr, internal) => {};
    (@check $prefix:ident, $field:ident, $value:expr, nested) => {
        $crate::core::field::Nested::validate($value, &format!("{}{}.", $prefix, stringify!($field)))?;
    };
    (@check $prefix:ident, $field:ident, $value:expr, $how:ident ( $($args:tt)* ) $( . $m:ident ( $($margs:tt)* ) )*) => {
        let field = $crate::core::field::Field::$how($($args)*) $( . $m ( $($margs)* ) )*;
        if !field.range.is_any() {
            field.range.check(&format!("{}{}", $prefix, stringify!($field)), $value)?;
        }
    };
}
pub(crate) use settings;

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    settings! {
        /// A nested object: its own ranges and a rule between its fields.
        #[derive(Clone, Debug, PartialEq)]
        pub struct Inner {
            pub low: f64 = 1.0; number("low").positive();
            pub high: f64 = 2.0; number("high").at_most(10.0);
        }
    }

    impl Nested for Inner {
        fn rules(&self, prefix: &str) -> Result<(), InputError> {
            crate::core::input::ordered(&format!("{prefix}low"), self.low, &format!("{prefix}high"), self.high)
        }
    }

    settings! {
        #[derive(Clone, Debug, PartialEq)]
        pub struct Outer {
            /// A count with a reason for its maximum.
            pub windows: u64 = 40; integer("windows").count(10, 100).why("enough");
            pub shares: Vec<f64> = vec![0.5]; list("shares").positive().at_most(1.0);
            pub draws: Option<u64> = None; optional("draws").count(1, 5);
            pub delay: Seconds = Seconds(15.0); politeness();
            pub inner: Inner = Inner { low: 3.0, ..Inner::default() }; nested;
            pub part: Option<u64> = None; internal;
        }
    }

    #[test]
    fn one_declaration_gives_defaults_fields_and_checks() {
        let outer = Outer::default();
        assert_eq!((outer.windows, outer.inner.low, outer.inner.high, outer.part), (40, 3.0, 2.0, None));
        let keys: Vec<String> = Outer::declared_fields("").into_iter().map(|f| f.key).collect();
        assert_eq!(keys, ["windows", "shares", "draws", "delay", "inner.low", "inner.high"]);
        // the defaults' own nested rule: 3 ≥ 2
        assert_eq!(outer.check_fields("").unwrap_err().field, "inner.high");
        let fixed = Outer { inner: Inner::default(), ..Outer::default() };
        assert!(fixed.check_fields("").is_ok());
        let fault = |o: Outer| o.check_fields("").unwrap_err();
        let windows = fault(Outer { windows: 101, ..fixed.clone() });
        assert_eq!((windows.field.as_str(), windows.message.as_str()), ("windows", "must be a whole number from 10 to 100 (got 101): enough"));
        let share = fault(Outer { shares: vec![0.5, 0.0], ..fixed.clone() });
        assert_eq!((share.field.as_str(), share.message.as_str()), ("shares[1]", "must be greater than 0 (got 0)"));
        assert_eq!(fault(Outer { draws: Some(0), ..fixed.clone() }).field, "draws");
        assert_eq!(fault(Outer { delay: Seconds(0.0), ..fixed.clone() }).field, "delay");
        assert_eq!(fault(Outer { inner: Inner { low: f64::NAN, high: 2.0 }, ..fixed.clone() }).field, "inner.low");
        assert_eq!(fault(Outer { inner: Inner { low: 1.0, high: 11.0 }, ..fixed.clone() }).message, "must be at most 10 (got 11)");
    }

    #[test]
    fn a_range_in_words() {
        assert_eq!(Field::integer("n").count(10, 1000).range.words(), "a whole number from 10 to 1000");
        assert_eq!(Field::number("c").positive().at_most(1.0).range.words(), "greater than 0, at most 1");
        assert_eq!(Field::number("s").at_least(0.0).below(1.0).range.words(), "at least 0, less than 1");
        assert!(Field::select("x").range.is_any());
        assert_eq!(Field::politeness_or_none().at_most(10.0).range.words(), "0 or at least 0.000001, at most 10");
    }

    #[test]
    fn zero_turns_a_setting_off_and_anything_else_keeps_its_floor() {
        let p = Field::politeness_or_none().at_most(10.0).range;
        for ok in [0.0, 1e-6, 0.5, 10.0] {
            assert!(p.check("p", &ok).is_ok(), "{ok}");
        }
        let under = p.check("p", &1e-300).unwrap_err();
        assert_eq!((under.field.as_str(), under.message.as_str()), ("p", "must be 0 (none) or at least 0.000001 (got 1e-300)"));
        assert_eq!(p.check("p", &-1.0).unwrap_err().message, "must be 0 (none) or at least 0.000001 (got -1)");
        assert_eq!(p.check("p", &11.0).unwrap_err().message, "must be at most 10 (got 11)");
    }
}
