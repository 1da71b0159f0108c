//! What a run may cost, and the one table of limits every run is checked against
//! before it starts — the same for the CLI, the page and its worker (issue 13).
//!
//! Every experiment states its cost from its configuration alone ([`Cost`]): work in
//! its own units (events, requests, evaluations), peak bytes, and an estimated time
//! from a measured cost per unit. Costs are computed in floating point, so a huge
//! configuration gives a huge (or infinite) estimate, never a wrapped small one.

use super::input::InputError;
use super::speed;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// How far a run may go where it runs.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    /// Peak memory in bytes.
    pub bytes: f64,
    /// Estimated run time in seconds of this machine's native code.
    pub seconds: f64,
    /// Bytes already held where the run would go, outside it: in the page's worker, the
    /// results it keeps (a history's pages stay there); none natively.
    #[serde(default)]
    pub held: f64,
}

/// The CLI and tests: the 24 GiB workstation less room for the system and the results;
/// two days of computing.
pub const NATIVE: Limits = Limits { bytes: 16.0 * GIB, seconds: 48.0 * 3600.0, held: 0.0 };
/// A browser tab: WebAssembly can address 4 GiB, and a tab holding more than 2 GiB is
/// at risk on an ordinary laptop. The page refuses on memory only: a long run says
/// beforehand what it will take, shows its progress and partial results, and can be
/// cancelled (issue 45: a refusal on an estimated time refused runs that took seconds).
pub const BROWSER: Limits = Limits { bytes: 2.0 * GIB, seconds: f64::INFINITY, held: 0.0 };

const GIB: f64 = (1u64 << 30) as f64;

/// The limits of the build running this code, with what it holds outside the run
/// ([`hold`]).
pub fn here() -> Limits {
    let held = HELD.load(Ordering::Relaxed) as f64;
    if cfg!(target_arch = "wasm32") { Limits { held, ..tab() } } else { Limits { held, ..NATIVE } }
}

/// A browser tab's limits: [`BROWSER`], or in the end-to-end tests' own build those
/// [`tab_for_test`] set.
fn tab() -> Limits {
    #[cfg(feature = "test-hooks")]
    if let bytes @ 1.. = TAB_FOR_TEST.load(Ordering::Relaxed) {
        return Limits { bytes: bytes as f64, ..BROWSER };
    }
    BROWSER
}

/// A tab of these bytes (0: [`BROWSER`]'s), so that an end-to-end test can run into the
/// tab's limit with a run of seconds (the tests' own build only).
#[cfg(feature = "test-hooks")]
static TAB_FOR_TEST: AtomicU64 = AtomicU64::new(0);

/// Sets the tab's bytes for the next runs (the tests' own build only).
#[cfg(feature = "test-hooks")]
pub fn tab_for_test(bytes: u64) {
    TAB_FOR_TEST.store(bytes, Ordering::Relaxed);
}

/// Bytes held outside the next runs (the page's worker sets it, as each run starts, to
/// the heap its kept results take).
static HELD: AtomicU64 = AtomicU64::new(0);

/// Sets the bytes held outside the next runs.
pub fn hold(bytes: u64) {
    HELD.store(bytes, Ordering::Relaxed);
}

/// Which field to change, and how, when a run is too big.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Fix {
    pub field: String,
    pub advice: String,
}

impl Fix {
    pub fn new(field: impl Into<String>, advice: impl Into<String>) -> Self {
        Fix { field: field.into(), advice: advice.into() }
    }
}

/// A run's cost, from its configuration alone.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Units of work; the job's progress counts the same units.
    pub work: f64,
    /// What a unit of work is ("requests", "events", …).
    pub unit: String,
    /// Peak bytes held by the run.
    pub bytes: f64,
    /// Estimated run time, one thread, on the reference machine (a measured cost per
    /// unit there); [`Cost::on_this_machine`] gives this machine's.
    pub seconds: f64,
    /// What to change when the memory is over the limit.
    pub memory_fix: Fix,
    /// What to change when the time is over the limit.
    pub time_fix: Fix,
}

impl Cost {
    /// The estimate on this machine: the time scaled by its measured
    /// [`slowness`](super::speed::slowness) (which a first call measures).
    pub fn on_this_machine(mut self) -> Cost {
        self.seconds *= speed::slowness();
        self
    }

    /// Refuses a run over `limits`, with the estimate, the limit and the field to change.
    /// A NaN estimate is refused too: it can only come from an unchecked input. The time
    /// is judged on this machine; a run under a hundredth of the limit on the reference
    /// machine passes without measuring it (no machine is that much slower).
    pub fn check(&self, limits: &Limits) -> Result<(), InputError> {
        let browser = limits.bytes <= BROWSER.bytes;
        let place = if browser { "a browser tab" } else { "this program" };
        let more = if browser { " (the command-line freshlab allows more)" } else { "" };
        if self.bytes.is_nan() || self.bytes > limits.bytes {
            return Err(InputError::new(
                &self.memory_fix.field,
                format!("needs about {}, more than the {} {place} allows{more}; {}", bytes(self.bytes), bytes(limits.bytes), self.memory_fix.advice),
            ));
        }
        if self.bytes + limits.held > limits.bytes {
            let refused = InputError::new(
                &self.memory_fix.field,
                format!(
                    "needs about {}, which beside the {} the page keeps of earlier results (a history's pages stay in its worker) is more than the {} {place} allows{more}; {}, or reload the page to free what it keeps",
                    bytes(self.bytes),
                    bytes(limits.held),
                    bytes(limits.bytes),
                    self.memory_fix.advice
                ),
            );
            return Err(InputError { kept: Some(limits.held), ..refused });
        }
        let seconds = if self.seconds <= limits.seconds / 100.0 { self.seconds } else { self.seconds * speed::slowness() };
        if seconds.is_nan() || seconds > limits.seconds {
            return Err(InputError::new(
                &self.time_fix.field,
                format!(
                    "would take about {} ({:.2e} {}), more than the {} {place} allows; {}",
                    duration(seconds),
                    self.work,
                    self.unit,
                    duration(limits.seconds),
                    self.time_fix.advice
                ),
            ));
        }
        Ok(())
    }
}

/// 1.2 GB, 640 MB, 12 KB.
pub fn bytes(b: f64) -> String {
    if !b.is_finite() {
        return "more memory than any machine has".into();
    }
    let (v, unit) = if b >= 1e9 {
        (b / 1e9, "GB")
    } else if b >= 1e6 {
        (b / 1e6, "MB")
    } else {
        (b / 1e3, "KB")
    };
    format!("{} {unit}", if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") })
}

/// 3.5 hours, 12 minutes, 40 s.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds > 3.2e9 {
        return "longer than a century".into();
    }
    for (size, name) in [(86_400.0 * 365.25, "years"), (86_400.0, "days"), (3600.0, "hours"), (60.0, "minutes")] {
        if seconds >= 2.0 * size {
            return format!("{:.1} {name}", seconds / size);
        }
    }
    format!("{seconds:.1} s")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn cost(bytes: f64, seconds: f64) -> Cost {
        Cost {
            work: seconds * 1e8,
            unit: "requests".into(),
            bytes,
            seconds,
            memory_fix: Fix::new("pages", "use fewer pages"),
            time_fix: Fix::new("horizon", "shorten the horizon"),
        }
    }

    #[test]
    fn over_the_limits_names_the_field_the_estimate_and_the_limit() {
        assert!(cost(1e6, 1.0).check(&NATIVE).is_ok());
        let e = cost(3e9, 1.0).check(&BROWSER).unwrap_err();
        assert_eq!(e.field, "pages");
        assert!(e.message.contains("3.0 GB") && e.message.contains("2.1 GB") && e.message.contains("browser tab") && e.message.contains("fewer pages"), "{e}");
        let e = cost(1e6, 1e9).check(&NATIVE).unwrap_err();
        assert_eq!(e.field, "horizon");
        // the time said is this machine's: the reference machine's 31.7 years times its slowness
        let here = duration(1e9 * speed::slowness());
        assert!(e.message.contains(&format!("would take about {here}")) && e.message.contains("2.0 days"), "{e}");
        assert!(cost(f64::NAN, 1.0).check(&NATIVE).is_err(), "NaN is refused, not let through");
        assert!(cost(f64::INFINITY, 1.0).check(&NATIVE).unwrap_err().message.contains("more memory than any machine"));
    }

    /// What the page's worker keeps of earlier results counts against the tab's limit.
    #[test]
    fn what_is_held_counts_against_the_limit() {
        let holding = Limits { held: 1.5e9, ..BROWSER };
        assert!(cost(0.5e9, 1.0).check(&holding).is_ok());
        let e = cost(0.7e9, 1.0).check(&holding).unwrap_err();
        assert_eq!(e.field, "pages");
        assert!(
            e.message.contains("needs about 700 MB, which beside the 1.5 GB the page keeps")
                && e.message.contains("browser tab")
                && e.message.ends_with("use fewer pages, or reload the page to free what it keeps"),
            "{e}"
        );
        assert_eq!(e.kept, Some(1.5e9), "the page is told what is kept, to free its own");
        assert!(cost(0.7e9, 1.0).check(&BROWSER).is_ok());
        assert_eq!(cost(2.5e9, 1.0).check(&holding).unwrap_err().kept, None, "over the limit alone: nothing to free");
    }
}
