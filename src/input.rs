//! Errors in user input: each names the field at fault and says how to fix it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A rejected input. `field` is the configuration key (as in the JSON config, the URL
/// and the CLI flag of the same name); `message` says what is wrong and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputError {
    pub field: String,
    pub message: String,
}

impl InputError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() { write!(f, "{}", self.message) } else { write!(f, "{}: {}", self.field, self.message) }
    }
}

impl std::error::Error for InputError {}

/// Checks a number against the rules most fields share.
pub struct Check<'a> {
    field: &'a str,
    value: f64,
}

/// Starts the checks of `value` for `field`; every number must be finite.
pub fn check(field: &str, value: f64) -> Result<Check<'_>, InputError> {
    if value.is_nan() {
        return Err(InputError::new(field, "is not a number; enter a number such as 1.5"));
    }
    if value.is_infinite() {
        return Err(InputError::new(field, "is infinite; enter a finite number"));
    }
    Ok(Check { field, value })
}

impl Check<'_> {
    pub fn positive(self) -> Result<Self, InputError> {
        if self.value > 0.0 { Ok(self) } else { Err(self.fail(format!("must be greater than 0 (got {})", self.value))) }
    }

    pub fn at_least(self, min: f64) -> Result<Self, InputError> {
        if self.value >= min { Ok(self) } else { Err(self.fail(format!("must be at least {min} (got {})", self.value))) }
    }

    pub fn at_most(self, max: f64) -> Result<Self, InputError> {
        if self.value <= max { Ok(self) } else { Err(self.fail(format!("must be at most {max} (got {})", self.value))) }
    }

    pub fn below(self, bound: f64) -> Result<Self, InputError> {
        if self.value < bound { Ok(self) } else { Err(self.fail(format!("must be less than {bound} (got {})", self.value))) }
    }

    pub fn integer(self) -> Result<Self, InputError> {
        if self.value.fract() == 0.0 { Ok(self) } else { Err(self.fail(format!("must be a whole number (got {})", self.value))) }
    }

    fn fail(&self, message: String) -> InputError {
        InputError::new(self.field, message)
    }
}

/// `lo < hi` for a range given by two fields.
pub fn ordered(lo_field: &str, lo: f64, hi_field: &str, hi: f64) -> Result<(), InputError> {
    if lo < hi { Ok(()) } else { Err(InputError::new(hi_field, format!("must be greater than {lo_field} ({hi} ≤ {lo}); swap the two or widen the range"))) }
}

/// A whole number of items within [min, max] (grid sizes, counts).
pub fn count(field: &str, value: u64, min: u64, max: u64, why_max: &str) -> Result<(), InputError> {
    if value < min {
        Err(InputError::new(field, format!("must be at least {min} (got {value})")))
    } else if value > max {
        Err(InputError::new(field, format!("must be at most {max} (got {value}): {why_max}")))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn messages_name_the_field_and_the_fix() {
        let e = check("r_min", f64::NAN).err().unwrap();
        assert_eq!(e.field, "r_min");
        assert!(e.message.contains("not a number"));
        let e = check("c_min", 0.5).unwrap().at_least(1.0).err().unwrap();
        assert_eq!(e.to_string(), "c_min: must be at least 1 (got 0.5)");
        let e = ordered("r_min", 5.0, "r_max", 1.0).unwrap_err();
        assert_eq!(e.field, "r_max");
        assert!(e.message.contains("swap"));
        assert!(count("grid", 10_000, 2, 1000, "a finer grid would not change the picture").is_err());
        assert!(check("x", f64::INFINITY).is_err());
        assert!(check("x", 2.5).unwrap().integer().is_err());
    }
}
