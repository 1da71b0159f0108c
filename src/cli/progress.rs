//! Progress on standard error (issue 16): a bar with the share done, the rate in the
//! experiment's own units and the time left, shown once a run has taken a second;
//! silent with `--quiet`, never on standard output (where `--json` goes). Where standard
//! error is not a terminal, a run estimated over a minute says so once, at its start.

use freshlab::core::limits::duration;
use freshlab::core::speed;
#[cfg(not(target_arch = "wasm32"))]
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// The test harness also compiles this program for WebAssembly, where it never runs and
/// indicatif is not built: there the bar is never drawn.
#[cfg(target_arch = "wasm32")]
struct ProgressBar;

#[cfg(target_arch = "wasm32")]
impl ProgressBar {
    fn set_message(&self, _: String) {}
    fn set_position(&self, _: u64) {}
    fn finish_and_clear(&self) {}
}

/// Steps of the bar: the job reports a fraction, drawn in hundred-thousandths (a run of
/// hours moves it every few tenths of a second).
const STEPS: u64 = 100_000;

/// Below this share done, the time left is the estimate's (the run's own pace is not yet
/// known).
const PACE_KNOWN: f64 = 0.01;

pub struct Progress {
    started: Instant,
    unit: String,
    /// The run's estimated time on the reference machine (seconds).
    estimate: f64,
    bar: Option<ProgressBar>,
    enabled: bool,
}

impl Progress {
    /// `unit`: what the job's work counts ("requests", "events"…); `estimate`: the run's
    /// estimated seconds on the reference machine.
    pub fn new(quiet: bool, unit: &str, estimate: f64) -> Self {
        let terminal = std::io::stderr().is_terminal();
        // over a minute on this machine (the estimate is the reference machine's)
        if !quiet && !terminal && estimate * speed::slowness() > 60.0 {
            eprintln!("freshlab: this run is estimated at about {} on this machine (--estimate says more; --quiet silences this)", duration(estimate * speed::slowness()));
        }
        Progress { started: Instant::now(), unit: unit.to_string(), estimate, bar: None, enabled: !quiet && terminal }
    }

    /// The time left at `fraction` done: from the run's pace once it is known, else the
    /// estimate's less the time spent.
    fn left(&self, fraction: f64) -> String {
        let spent = self.started.elapsed().as_secs_f64();
        if fraction >= PACE_KNOWN {
            return format!("{} left", duration(spent * (1.0 - fraction) / fraction));
        }
        let estimated = self.estimate * speed::slowness();
        if estimated > spent { format!("about {} left (estimated)", duration(estimated - spent)) } else { "time left not yet known".into() }
    }

    /// The job has done `work` units, `fraction` of the whole.
    pub fn update(&mut self, fraction: f64, work: f64) {
        if !self.enabled || self.started.elapsed() < Duration::from_secs(1) {
            return;
        }
        let left = self.left(fraction.clamp(0.0, 1.0));
        #[cfg(target_arch = "wasm32")]
        let bar = self.bar.get_or_insert(ProgressBar);
        #[cfg(not(target_arch = "wasm32"))]
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(Some(STEPS), ProgressDrawTarget::stderr_with_hz(4));
            let style = ProgressStyle::with_template("{bar:32.cyan/blue} {msg}").expect("a valid template").progress_chars("█▉▊▋▌▍▎▏ ");
            bar.set_style(style);
            bar
        });
        let (seconds, fraction) = (self.started.elapsed().as_secs_f64(), fraction.clamp(0.0, 1.0));
        bar.set_message(format!("{:.1} % · {} {}/s · {left}", 100.0 * fraction, rate(work / seconds), self.unit));
        bar.set_position((fraction * STEPS as f64) as u64);
    }

    /// Clears the bar and says how long the run took (if it was shown).
    pub fn finish(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
            eprintln!("freshlab: done in {:.1} s", self.started.elapsed().as_secs_f64());
        }
    }
}

/// A rate in a few digits: 950, 12.3 k, 4.56 M, 1.2 G.
fn rate(per_second: f64) -> String {
    let (value, prefix) = match per_second {
        r if r >= 1e9 => (r / 1e9, " G"),
        r if r >= 1e6 => (r / 1e6, " M"),
        r if r >= 1e3 => (r / 1e3, " k"),
        r => (r, " "),
    };
    let digits = if value >= 100.0 {
        0
    } else if value >= 10.0 {
        1
    } else {
        2
    };
    format!("{value:.digits$}{}", prefix.trim_end())
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn rates_are_short() {
        assert_eq!(rate(950.0), "950");
        assert_eq!(rate(12_345.0), "12.3 k");
        assert_eq!(rate(4_560_000.0), "4.56 M");
        assert_eq!(rate(1.2e9), "1.20 G");
    }
}
