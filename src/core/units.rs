//! Units as types (issue 45): a setting in seconds and one in days are not both `f64`.
//! The simulators' clock runs in days (the bursty experiment's in minutes); politeness
//! and server delays are given in seconds. [`Seconds::in_days`] is the one conversion.
//!
//! Both serialise as the bare number (`"politeness_seconds": 15`), so configuration
//! files, links and the page's form are unchanged.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Seconds in a day.
const SECONDS_PER_DAY: f64 = 86_400.0;

/// A duration in seconds (politeness P, a server's delay).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seconds(pub f64);

/// A duration or a time in days (horizons, epochs; the simulators' clock).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Days(pub f64);

impl Seconds {
    /// The same duration in days: the one conversion.
    pub fn in_days(self) -> Days {
        Days(self.0 / SECONDS_PER_DAY)
    }

    /// Requests a server can take in a day at one per this duration (∞ for 0).
    pub fn per_day(self) -> f64 {
        SECONDS_PER_DAY / self.0
    }

    /// The same duration in minutes: the bursty experiment's clock (thesis ch. 6 counts
    /// its traces' time in minutes).
    pub fn in_minutes(self) -> f64 {
        self.0 / 60.0
    }
}

impl Days {
    /// The same duration in seconds.
    pub fn in_seconds(self) -> Seconds {
        Seconds(self.0 * SECONDS_PER_DAY)
    }
}

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} s", self.0)
    }
}

impl fmt::Display for Days {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} days", self.0)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn one_conversion_both_ways_and_the_bare_number_on_the_wire() {
        assert_eq!(Seconds(86_400.0).in_days(), Days(1.0));
        assert_eq!(Seconds(15.0).in_days().in_seconds(), Seconds(15.0));
        assert_eq!(Seconds(15.0).per_day(), 5760.0);
        assert_eq!(serde_json::to_string(&Seconds(15.0)).unwrap(), "15.0");
        assert_eq!(serde_json::from_str::<Days>("2191.5").unwrap(), Days(2191.5));
    }
}
