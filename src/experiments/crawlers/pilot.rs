//! The estimate's pilot, where servers have limits: the crawler on one server of each
//! size class for a share of the horizon, its requests scaled to the whole.
//!
//! A crawler its servers hold back makes far fewer requests than its intervals ask, by
//! an amount only its own rules show: Nutch refetching 10,000 generated pages hourly on
//! servers of one request in 500 s made 660,660 requests where its intervals ask 5.67 M
//! (it waits its server delay after each answer, and purges a host's queue for the next
//! cycle at its fifth refusal in a row). The pilot runs the crawler's own schedule,
//! reaction and retries against the server's own load model (`pushback::drive`, the
//! run's engine) on a few thousand requests.

use super::CrawlersConfig;
use super::job::crawler_rules;
use crate::core::model::host::HostLoad;
use crate::core::model::host::{Host, Refusals};
use crate::core::model::webbase::power_law_quantile;
use crate::core::policy::Schedule;
use crate::core::policy::adaptive::Adaptive;
use crate::core::policy::crawler_files::{Loaded, Model};
use crate::core::policy::fetch_list::Cycles;
use crate::core::policy::pushback::{self, Answers, HostGate};
use crate::core::policy::{PolitenessCheck, Retry};
use crate::core::rng::{Purpose, Stream};
use crate::core::sim::freshness::{Account, Estimator, Fetch, Freshness};
use crate::core::sim::request_cost::seconds_per_request;
use std::cell::RefCell;

/// Requests the pilot simulates, about, over all its classes (a few milliseconds).
const PILOT_REQUESTS: f64 = 5_000.0;
/// Size classes at most (servers within a factor of (largest/smallest)^(1/6) share one).
const CLASSES: usize = 6;
/// Each class's run is cut in this many steps, and stopped at twice its share.
const STEPS: usize = 16;

/// The crawler's requests in one run under the servers' limits, and their native time
/// on one thread at the measured cost of a request on a server of each size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pilot {
    pub requests: f64,
    pub seconds: f64,
}

/// How the pilot's pages change: the generator's law, or a page list's mean rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PageRates {
    Law { never_changing: f64, min: f64, max: f64, exponent: f64 },
    Mean(f64),
}

impl PageRates {
    /// The rate of quantile u.
    fn at(self, u: f64) -> f64 {
        match self {
            PageRates::Law { never_changing, .. } if u < never_changing => 0.0,
            PageRates::Law { never_changing, min, max, exponent } => power_law_quantile(min, max, exponent, (u - never_changing) / (1.0 - never_changing)),
            PageRates::Mean(rate) => rate,
        }
    }
}

/// What a pilot depends on: the page checks the configuration at every edit, on its
/// main thread, and most edits leave these as they were (the last pilot is kept).
#[derive(Clone, Debug, PartialEq)]
struct Inputs {
    model: Model,
    refusals: Refusals,
    retry_times: u32,
    horizon: f64,
    seed: u64,
    rates: PageRates,
    /// (the servers' limits, servers, pages of each, what the intervals ask of one) by
    /// limits and size class.
    classes: Vec<(Host, f64, usize, f64)>,
}

thread_local! {
    static LAST: RefCell<Option<(Inputs, Pilot)>> = const { RefCell::new(None) };
}

/// The pilot for `groups` (servers' limits, and each server's pages) whose pages change
/// at `rates`, where `asked(n)` is what a server of n pages is asked by the crawler's
/// intervals alone over the horizon. Where the pilot saw no refusal, limits only slow
/// the crawler down, so a class takes the lesser of the two.
pub fn under_limits(config: &CrawlersConfig, loaded: &Loaded, groups: &[(Host, &[f64])], rates: PageRates, asked: impl Fn(f64) -> f64) -> Pilot {
    let asked = &asked;
    let rules = crawler_rules(config, &loaded.model);
    let inputs = Inputs {
        model: loaded.model,
        refusals: config.refusals(),
        retry_times: rules.retry.times,
        horizon: config.horizon_days.0,
        seed: config.seed,
        rates,
        classes: groups.iter().flat_map(|&(host, sizes)| classes(sizes).into_iter().map(move |(servers, n)| (host, servers, n, asked(n as f64)))).collect(),
    };
    if let Some(pilot) = LAST.with_borrow(|last| last.as_ref().filter(|(was, _)| *was == inputs).map(|&(_, pilot)| pilot)) {
        return pilot;
    }
    let pilot = run(config, loaded, &inputs);
    LAST.set(Some((inputs, pilot)));
    pilot
}

fn run(config: &CrawlersConfig, loaded: &Loaded, inputs: &Inputs) -> Pilot {
    let budget = PILOT_REQUESTS / inputs.classes.len().max(1) as f64;
    let (mut requests, mut seconds) = (0.0, 0.0);
    for (k, &(host, servers, n, asked)) in inputs.classes.iter().enumerate() {
        let share = (budget / asked.max(1.0)).min(1.0);
        let flight = Flight { until: inputs.horizon * share, most: (2.0 * budget) as u64, class: k as u64 };
        let (made, refused) = run_one(config, loaded, host, n, inputs.rates, flight);
        // a run stopped in its first steps (a cold start's burst of retries) tells no
        // rate: the intervals' estimate then stands, each refusal retried as the
        // crawler's rules allow
        let retried = if refused { 1.0 + f64::from(inputs.retry_times) } else { 1.0 };
        let one = match made {
            Some(made) if refused => made,
            Some(made) => made.min(asked),
            None => asked * retried,
        };
        requests += servers * one;
        seconds += servers * one * seconds_per_request(n as f64);
    }
    Pilot { requests, seconds }
}

/// Size classes: (servers, pages of each), by the servers' sizes on a log scale.
fn classes(sizes: &[f64]) -> Vec<(f64, usize)> {
    let (lo, hi) = sizes.iter().fold((f64::INFINITY, 0.0_f64), |(lo, hi), &n| (lo.min(n.max(1.0)), hi.max(n.max(1.0))));
    let span = (hi / lo).ln().max(1e-12);
    let mut count = [0.0; CLASSES];
    let mut pages = [0.0; CLASSES];
    for &n in sizes {
        let n = n.max(1.0);
        let k = ((CLASSES as f64 * (n / lo).ln() / span) as usize).min(CLASSES - 1);
        count[k] += 1.0;
        pages[k] += n;
    }
    (0..CLASSES).filter(|&k| count[k] > 0.0).map(|k| (count[k], (pages[k] / count[k]).round().max(1.0) as usize)).collect()
}

/// How far one server of the pilot runs: until `until` days, at most `most` requests, on
/// the stream of its class `class`.
struct Flight {
    until: f64,
    most: u64,
    class: u64,
}

/// One server of `n` pages and limits `host` under the crawler until `until` days, stopped at `most`
/// requests: its requests over the horizon, those made and the rest at the rate of the
/// later half of the run (past the cold start), or None where it was stopped in the
/// first half of its [`STEPS`]; none at all where the crawler skips the server (its Crawl-delay
/// over the crawler's cap). And whether the server refused any.
fn run_one(config: &CrawlersConfig, loaded: &Loaded, host: Host, n: usize, rates: PageRates, flight: Flight) -> (Option<f64>, bool) {
    let Flight { until, most, class } = flight;
    let model = &loaded.model;
    let rules = crawler_rules(config, model);
    if rules.reaction.skips(&host, &rules.crawl_delay) {
        return (Some(0.0), false);
    }
    let lambda: Vec<f64> = (0..n).map(|i| rates.at((i as f64 + 0.5) / n as f64)).collect();
    let mut visits = PilotVisits { account: Account::new(Estimator::Exact, &lambda, |_| 1.0, until, 1), lambda: &lambda };
    // (the server's own gap, as the run's: a shorter Crawl-delay the fetcher keeps)
    let gap_s = model.own_gap_s(&host);
    let mut schedule = Capped { schedule: Adaptive::with(model.intervals, 0..n, gap_s / 86_400.0, 1.0), left: most, last: 0.0 };
    let mut check = PolitenessCheck::new(gap_s / 86_400.0);
    // a stream of its own: the crawler's runs' purpose, series 1 (the runs are series 0)
    let mut rng = Stream::of(config.seed, Purpose::ServerSchedule { run: 2, series: 1 }, class);
    let (mut load, mut gate, mut answers) = (HostLoad::default(), HostGate::default(), Answers::default());
    // (time, requests made by then) at the end of each step
    let mut made = vec![(0.0, 0.0)];
    // Nutch's cycles' fetch lists: this server's cap a cycle (the list over all servers
    // is bounded in the estimate)
    let mut cycles = Cycles::of(&model.intervals);
    for step in 1..=STEPS {
        let end = until * step as f64 / STEPS as f64;
        let mut requests = 0;
        let mut drive_to = |schedule: &mut Capped, to: f64| {
            let server = pushback::Server { host: &host, refusals: config.refusals(), load: &mut load, gate: &mut gate };
            pushback::drive(schedule, to, &[], &mut visits, &mut check, &mut rng, pushback::ServerRules::One(&rules), server, &mut answers)
        };
        if let Some(c) = cycles.as_mut() {
            while let Some(start) = c.due_before(end) {
                requests += drive_to(&mut schedule, start);
                c.make(&mut [&mut schedule.schedule], |_| 1.0, config.seed);
            }
        }
        requests += drive_to(&mut schedule, end);
        let reached = if schedule.left == 0 { schedule.last } else { end };
        made.push((reached, made[step - 1].1 + requests as f64));
        if schedule.left == 0 {
            break;
        }
    }
    let refused = answers.refused > 0;
    let steps = made.len() - 1;
    if steps < 2 || (schedule.left == 0 && steps < STEPS / 2) {
        return (None, refused);
    }
    let ((from, before), (reached, total)) = (made[steps / 2], made[steps]);
    let rate = if reached > from { (total - before) / (reached - from) } else { return (None, refused) };
    (Some(total + rate * (config.horizon_days.0 - reached).max(0.0)), refused)
}

/// A schedule that stops after `left` more requests (∞ after), the time of its last kept.
struct Capped {
    schedule: Adaptive,
    left: u64,
    last: f64,
}

impl Schedule for Capped {
    fn next_time(&self) -> f64 {
        if self.left == 0 { f64::INFINITY } else { self.schedule.next_time() }
    }
    fn take(&mut self, f: &[f64], rng: &mut Stream) -> (f64, usize) {
        self.left -= 1;
        let (t, page) = self.schedule.take(f, rng);
        self.last = t;
        (t, page)
    }
    fn observe(&mut self, page: usize, time: f64, fetch: Option<Fetch>) {
        self.schedule.observe(page, time, fetch);
    }
    fn refused(&mut self, page: usize, time: f64, retry: Retry) {
        self.schedule.refused(page, time, retry);
    }
}

/// The pilot's fetches, accounted so that an adaptive schedule sees what they found.
struct PilotVisits<'a> {
    account: Account,
    lambda: &'a [f64],
}

impl Freshness for PilotVisits<'_> {
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        self.account.visit(page, time, self.lambda[page], 1.0, rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_keep_every_server_and_page() {
        let sizes = [600.0, 600.0, 10.0, 4.0, 4.0, 3.0, 1.0];
        let c = classes(&sizes);
        assert_eq!(c.iter().map(|&(m, _)| m).sum::<f64>(), 7.0);
        assert!(c.len() <= CLASSES && c.iter().any(|&(m, n)| m == 2.0 && n == 600), "{c:?}");
        assert_eq!(classes(&[5.0; 4]), vec![(4.0, 5)]);
    }
}
