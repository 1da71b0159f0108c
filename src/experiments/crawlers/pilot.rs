//! The estimate's pilot, where servers have limits: the crawler on one server of each
//! size class for a share of the horizon and past its first sweep, its requests scaled
//! to the whole.
//!
//! A crawler its servers hold back makes far fewer requests than its intervals ask, by
//! an amount only its own rules show: Nutch refetching 10,000 generated pages hourly on
//! servers of one request in 500 s made 660,660 requests where its intervals ask 5.67 M
//! (it waits its server delay after each answer, and purges a host's queue for the next
//! cycle at its fifth refusal in a row). The pilot runs the crawler's own schedule,
//! reaction and retries against the server's own load model (`pushback::drive`, the
//! run's engine) on a few thousand requests, more where the crawler makes more than its
//! intervals ask (StormCrawler's storm of refused pages coming back: 60,000 at most, about
//! 10 ms natively, so the page's worker runs it: [`LimitsPilot`]).
//!
//! A flight its requests stop inside a storm of refused pages carries the storm on: to
//! its end, where the pages not yet fetched drain, or over the whole horizon where the
//! pages already fetched take the server's few answers and the refused ones settle in a
//! number whose returns alone hold the server over its capacity ([`Held`]).

use super::CrawlersConfig;
use super::job::crawler_rules;
use crate::core::input::InputError;
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
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// Requests the pilot simulates, about, over all its classes (a few milliseconds).
const PILOT_REQUESTS: f64 = 5_000.0;
/// Requests the pilot simulates at most, over all its classes, where a crawler makes
/// more than its intervals ask (a refused page comes back sooner) or a server's first
/// sweep is long.
const MOST_REQUESTS: f64 = 60_000.0;
/// Size classes at most (servers within a factor of (largest/smallest)^(1/6) share one).
const CLASSES: usize = 6;
/// Each class's run is cut in this many steps over its share of the horizon (and goes on
/// in steps as long, then twice as long every this many, until its pace settles).
const STEPS: usize = 16;

/// The crawler's requests in one run under the servers' limits, and their native time
/// on one thread at the measured cost of a request on a server of each size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pilot {
    pub requests: f64,
    pub seconds: f64,
}

/// A pilot run elsewhere (the page's worker: it takes milliseconds, too long for the
/// page's main thread at every edit) for the configuration whose [`key`] it carries: its
/// requests and time, or None while it runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsPilot {
    pub key: String,
    #[serde(default)]
    pub flown: Option<Pilot>,
}

impl LimitsPilot {
    /// What a pilot can give: a short key, finite counts not negative.
    pub fn check(&self) -> Result<(), InputError> {
        let counts = self.flown.iter().flat_map(|p| [p.requests, p.seconds]);
        if self.key.len() > 64 || counts.into_iter().any(|c| !(c.is_finite() && c >= 0.0)) {
            return Err(InputError::new("limits_pilot", "is not a pilot's counts (the page's worker computes them); remove it"));
        }
        Ok(())
    }
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

/// What a pilot depends on: the page checks the configuration at every edit, and most
/// edits leave these as they were (the last pilot is kept); their digest is its key.
#[derive(Clone, Debug, PartialEq)]
pub struct Inputs {
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

impl Inputs {
    /// The pilot's inputs for `groups` (servers' limits, and each server's pages) whose
    /// pages change at `rates`, where `asked(n)` is what a server of n pages is asked by
    /// the crawler's intervals alone over the horizon.
    pub fn of(config: &CrawlersConfig, loaded: &Loaded, groups: &[(Host, &[f64])], rates: PageRates, asked: &dyn Fn(f64) -> f64) -> Self {
        let rules = crawler_rules(config, &loaded.model);
        Inputs {
            model: loaded.model,
            refusals: config.refusals(),
            retry_times: rules.retry.times,
            horizon: config.horizon_days.0,
            seed: config.seed,
            rates,
            classes: groups.iter().flat_map(|&(host, sizes)| classes(sizes).into_iter().map(move |(servers, n)| (host, servers, n, asked(n as f64)))).collect(),
        }
    }

    /// The digest that keys the pilot of these inputs, the same natively and in the
    /// page's worker (their debug text: every field, floats written exactly).
    pub fn key(&self) -> String {
        crate::experiments::PilotKey::digest(&format!("{self:?}"))
    }
}

thread_local! {
    static LAST: RefCell<Option<(Inputs, Pilot)>> = const { RefCell::new(None) };
}

/// The pilot of `inputs`: the one the configuration carries where its key is theirs
/// (None while the worker runs it, or where it carries another's); run here where it
/// carries none. Where the pilot saw no refusal, limits only slow the crawler down, so
/// a class takes the lesser of the two.
pub fn under_limits(config: &CrawlersConfig, loaded: &Loaded, inputs: &Inputs) -> Option<Pilot> {
    match &config.limits_pilot {
        Some(LimitsPilot { key, flown: Some(pilot) }) if *key == inputs.key() => Some(*pilot),
        Some(_) => None,
        None => Some(flown(config, loaded, inputs)),
    }
}

/// The pilot of `inputs`, run here (the last one kept).
pub fn flown(config: &CrawlersConfig, loaded: &Loaded, inputs: &Inputs) -> Pilot {
    if let Some(pilot) = LAST.with_borrow(|last| last.as_ref().filter(|(was, _)| was == inputs).map(|&(_, pilot)| pilot)) {
        return pilot;
    }
    let pilot = run(config, loaded, inputs);
    LAST.set(Some((inputs.clone(), pilot)));
    pilot
}

fn run(config: &CrawlersConfig, loaded: &Loaded, inputs: &Inputs) -> Pilot {
    let budget = PILOT_REQUESTS / inputs.classes.len().max(1) as f64;
    let (mut requests, mut seconds, mut flown) = (0.0, 0.0, 0.0);
    // the largest servers fly last, spending what the smaller left
    let mut order: Vec<usize> = (0..inputs.classes.len()).collect();
    order.sort_by_key(|&k| inputs.classes[k].2);
    for (flying, k) in order.into_iter().enumerate() {
        let (host, servers, n, asked) = inputs.classes[k];
        // past the first sweep of the server's pages (each due at the start, fetched
        // back to back), twice over: a share of the horizon inside it sees only that burst
        let sweep = n as f64 * (loaded.model.own_gap_s(&host) + host.response_s) / 86_400.0;
        let until = (inputs.horizon * (budget / asked.max(1.0)).min(1.0)).max(2.0 * sweep).min(inputs.horizon);
        // each class may spend what the classes before it left
        let most = (2.0 * budget).max((MOST_REQUESTS - flown) / (inputs.classes.len() - flying) as f64);
        let flight = Flight { until, most: most as u64, class: k as u64 };
        let one = run_one(config, loaded, host, n, inputs.rates, flight);
        flown += one.flown;
        let made = match one.made {
            Some(made) if one.refused => made,
            Some(made) => made.min(asked),
            // a run stopped before its first sweep ended: the intervals' estimate where the
            // server refused nothing; where it refused, the sweep's storm of refused pages
            // coming back (StormCrawler's at its error interval) goes on to the sweep's end
            // at the pages' pace of fetches, its pace falling with the pages left, and the
            // intervals' pace after it
            None if one.refused => one.storm.requests(inputs.horizon, asked / inputs.horizon).max(asked * (1.0 + f64::from(inputs.retry_times))),
            None => asked,
        };
        requests += servers * made;
        seconds += servers * made * seconds_per_request(n as f64);
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

/// How far one server of the pilot runs: at least until `until` days (on past its first
/// sweep until its pace settles), at most `most` requests, on the stream of its class
/// `class`.
struct Flight {
    until: f64,
    most: u64,
    class: u64,
}

/// One server of `n` pages and limits `host` under the crawler for at least `until` days and on
/// until its pace settles past its first sweep (every page fetched once: before, refused
/// pages come back in bursts), stopped at `most` requests: its requests over the horizon,
/// those made and the rest at the pace past the sweep, or None where it was stopped
/// before the sweep ended; none at all where the crawler skips the server (its
/// Crawl-delay over the crawler's cap).
fn run_one(config: &CrawlersConfig, loaded: &Loaded, host: Host, n: usize, rates: PageRates, flight: Flight) -> Flown {
    let Flight { until, most, class } = flight;
    let model = &loaded.model;
    let rules = crawler_rules(config, model);
    if rules.reaction.skips(&host, &rules.crawl_delay) {
        return Flown { made: Some(0.0), ..Flown::default() };
    }
    let lambda: Vec<f64> = (0..n).map(|i| rates.at((i as f64 + 0.5) / n as f64)).collect();
    let horizon = config.horizon_days.0;
    let mut visits = PilotVisits::new(&lambda, horizon);
    // (the server's own gap, as the run's: a shorter Crawl-delay the fetcher keeps)
    let gap_s = model.own_gap_s(&host);
    let mut schedule = Capped { schedule: Adaptive::with(model.intervals, 0..n, gap_s / 86_400.0, 1.0), left: most };
    let mut check = PolitenessCheck::new(gap_s / 86_400.0);
    // a stream of its own: the crawler's runs' purpose, series 1 (the runs are series 0)
    let mut rng = Stream::of(config.seed, Purpose::ServerSchedule { run: 2, series: 1 }, class);
    let (mut load, mut gate, mut answers) = (HostLoad::default(), HostGate::default(), Answers::default());
    // (time, requests made by then) at the end of each step, and (pages not yet
    // fetched, answers ok, refused) then
    let mut made = vec![(0.0, 0.0)];
    let mut counts = vec![(n as f64, 0.0, 0.0)];
    // Nutch's cycles' fetch lists: this server's cap a cycle (the list over all servers
    // is bounded in the estimate)
    let mut cycles = Cycles::of(&model.intervals);
    // steps of until / STEPS; past STEPS, on until the pace settles (a long transient:
    // refused pages coming back in bursts), each STEPS more twice as long
    let (mut end, mut step) = (0.0, until / STEPS as f64);
    // the step by whose end every page had been fetched once (the cold start's sweep)
    let mut swept: Option<usize> = None;
    while end < horizon {
        let steps = made.len() - 1;
        let past = |k: usize| made[steps].0 >= 2.0 * made[k].0 && steps - k >= 4 && settled(&made[k..]);
        if steps >= STEPS && swept.is_some_and(past) {
            break;
        }
        if steps > STEPS && steps % STEPS == 0 {
            step *= 2.0;
        }
        end = (end + step).min(horizon);
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
        // (stopped: the last request's time, not its page's due time, far behind in a backlog)
        let reached = if schedule.left == 0 { load.last.max(made[steps].0) } else { end };
        made.push((reached, made[steps].1 + requests as f64));
        counts.push((visits.unfetched as f64, answers.ok as f64, answers.refused as f64));
        if visits.unfetched == 0 && swept.is_none() {
            swept = Some(steps + 1);
        }
        if schedule.left == 0 {
            break;
        }
    }
    let steps = made.len() - 1;
    let (reached, total) = made[steps];
    let last_quarter = made[steps.saturating_sub((steps / 4).max(1))];
    let pace = (total - last_quarter.1) / (reached - last_quarter.0).max(f64::MIN_POSITIVE);
    let storm = Storm { reached, made: total, pace, fetched: 1.0 - visits.unfetched as f64 / n as f64, held: Held::of(&made, &counts, n, host.capacity) };
    let mut flown = Flown { made: None, refused: answers.refused > 0, flown: total, storm };
    // a flight that ended at the horizon made what it made; one stopped before its
    // first sweep ended tells no pace past that burst
    if end >= horizon && schedule.left > 0 {
        flown.made = Some(total);
        return flown;
    }
    let Some(k) = swept.filter(|&k| steps - k >= 2) else { return flown };
    // the pace past the sweep: of the later half where it settled, else of the last quarter
    let (from, before) = made[if settled(&made[k..]) { k + (steps - k) / 2 } else { steps - ((steps - k) / 4).max(1) }];
    if reached > from {
        flown.made = Some(total + (total - before) / (reached - from) * (horizon - reached).max(0.0));
    }
    flown
}

/// Whether the pace of `made`'s (time, requests) over its last quarter of steps is
/// within a tenth of the quarter's before.
fn settled(made: &[(f64, f64)]) -> bool {
    let s = made.len() - 1;
    let pace = |a: usize, b: usize| (made[b].1 - made[a].1) / (made[b].0 - made[a].0).max(f64::MIN_POSITIVE);
    let (late, early) = (pace(s - s / 4, s), pace(s / 2, s - s / 4));
    (late - early).abs() <= 0.1 * late.max(early)
}

/// What one server's flight made: its requests over the horizon (None where it was
/// stopped before its first sweep ended), whether the server refused any, the requests
/// flown, and where it stopped.
#[derive(Default)]
struct Flown {
    made: Option<f64>,
    refused: bool,
    flown: f64,
    storm: Storm,
}

/// Where a flight stopped: the time reached (days), its requests by then, their pace over
/// its last quarter of steps (a day), the share of its pages fetched once, and how the
/// storm of refused pages went over its last half.
#[derive(Clone, Copy, Debug, Default)]
struct Storm {
    reached: f64,
    made: f64,
    pace: f64,
    fetched: f64,
    held: Option<Held>,
}

/// A storm of refused pages over a flight's last half of steps: of `pages`, `unfetched`
/// not yet fetched at its end; a day, `ok` answers, `drain` pages fetched a first time,
/// `returns` refused requests for each page not yet fetched; the server's capacity (a
/// day).
#[derive(Clone, Copy, Debug)]
struct Held {
    pages: f64,
    unfetched: f64,
    ok: f64,
    drain: f64,
    returns: f64,
    capacity: f64,
}

impl Held {
    /// The storm of a flight by its steps' (time, requests) and (pages unfetched, ok,
    /// refused), on a server of `n` pages and `capacity` requests a second; None over
    /// fewer than four steps.
    fn of(made: &[(f64, f64)], counts: &[(f64, f64, f64)], n: usize, capacity: f64) -> Option<Held> {
        let s = made.len() - 1;
        let h = s / 2;
        let days = made[s].0 - made[h].0;
        if s < 4 || days <= 0.0 {
            return None;
        }
        let ((u_h, ok_h, no_h), (u, ok, no)) = (counts[h], counts[s]);
        let mean_unfetched = (u_h + u) / 2.0;
        let returns = if mean_unfetched > 0.0 { (no - no_h) / days / mean_unfetched } else { 0.0 };
        Some(Held { pages: n as f64, unfetched: u, ok: (ok - ok_h) / days, drain: (u_h - u) / days, returns, capacity: capacity * 86_400.0 })
    }

    /// Its requests over `left` more days where it never drains: the pages fetched take
    /// the ok answers the first fetches do not (`refetch` a day each), so the pages not
    /// yet fetched settle where the ok answers are all refetches, u* = pages − ok/refetch
    /// (du/dt = refetch·(u* − u)); where the refused pages there come back faster than
    /// the server's capacity, their returns alone hold it over capacity and the storm
    /// goes on: (returns·u(t) + ok) a day. None where it drains (the server's returns
    /// fall within its capacity, or nothing takes the ok answers from the first fetches).
    fn requests(self, left: f64) -> Option<f64> {
        let fetched = self.pages - self.unfetched;
        let refetch = if fetched > 0.0 { (self.ok - self.drain).max(0.0) / fetched } else { 0.0 };
        if refetch <= 0.0 || left <= 0.0 {
            return None;
        }
        let settles = self.pages - self.ok / refetch;
        if settles * self.returns <= self.capacity {
            return None;
        }
        // the mean of u(t) = u* + (u0 − u*)·e^(−refetch·t) over the days left
        let decay = refetch * left;
        let mean = settles + (self.unfetched - settles) * (-(-decay).exp_m1() / decay);
        Some((self.returns * mean + self.ok) * left)
    }
}

impl Storm {
    /// Requests over `horizon` days: those made, the sweep's going on at a pace falling
    /// from its last to none at the sweep's end (its share of pages fetched kept growing
    /// as it grew), and `after` a day past its end.
    fn requests(self, horizon: f64, after: f64) -> f64 {
        let left = (horizon - self.reached).max(0.0);
        if let Some(held) = self.held.and_then(|h| h.requests(left)) {
            return self.made + held;
        }
        let sweep = if self.fetched > 0.0 { self.reached * (1.0 / self.fetched - 1.0) } else { f64::INFINITY };
        let storm = left.min(sweep);
        let storm_requests = if sweep.is_finite() { self.pace * (storm - storm * storm / (2.0 * sweep)) } else { self.pace * storm };
        self.made + storm_requests + after * (left - storm)
    }
}

/// A schedule that stops after `left` more requests (∞ after).
struct Capped {
    schedule: Adaptive,
    left: u64,
}

impl Schedule for Capped {
    fn next_time(&self) -> f64 {
        if self.left == 0 { f64::INFINITY } else { self.schedule.next_time() }
    }
    fn take(&mut self, f: &[f64], rng: &mut Stream) -> (f64, usize) {
        self.left -= 1;
        self.schedule.take(f, rng)
    }
    fn observe(&mut self, page: usize, time: f64, fetch: Option<Fetch>) {
        self.schedule.observe(page, time, fetch);
    }
    fn refused(&mut self, page: usize, time: f64, retry: Retry) {
        self.schedule.refused(page, time, retry);
    }
}

/// The pilot's fetches, accounted so that an adaptive schedule sees what they found.
/// and the first sweep's end: when every page had been fetched once.
struct PilotVisits<'a> {
    account: Account,
    lambda: &'a [f64],
    fetched: Vec<bool>,
    unfetched: usize,
}

impl<'a> PilotVisits<'a> {
    fn new(lambda: &'a [f64], horizon: f64) -> Self {
        PilotVisits { account: Account::new(Estimator::Exact, lambda, |_| 1.0, horizon, 1), lambda, fetched: vec![false; lambda.len()], unfetched: lambda.len() }
    }
}

impl Freshness for PilotVisits<'_> {
    fn visit(&mut self, page: usize, time: f64, rng: &mut Stream) -> Option<Fetch> {
        if !std::mem::replace(&mut self.fetched[page], true) {
            self.unfetched -= 1;
        }
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

    /// A storm held, by hand: 100 pages, 80 not yet fetched; a day 10 ok answers, 2 of
    /// them first fetches, 12 refused requests per page not fetched. The 20 fetched take
    /// 8 a day (0.4 each), so the unfetched settle at 100 − 10/0.4 = 75, whose returns
    /// (900 a day) exceed a capacity of 500: over 10 days u(t) = 75 + 5·e^(−0.4t), mean
    /// 75 + 5·(1 − e^(−4))/4, and (12·mean + 10)·10 requests. Under a capacity of 1,000,
    /// or with every ok answer a first fetch, the storm drains: None.
    #[test]
    fn a_storm_held_over_capacity_goes_on() {
        let held = Held { pages: 100.0, unfetched: 80.0, ok: 10.0, drain: 2.0, returns: 12.0, capacity: 500.0 };
        let mean = 75.0 + 5.0 * (1.0 - (-4.0_f64).exp()) / 4.0;
        let requests = held.requests(10.0).expect("held");
        assert!((requests - (12.0 * mean + 10.0) * 10.0).abs() < 1e-9, "{requests}");
        assert_eq!(Held { capacity: 1000.0, ..held }.requests(10.0), None);
        assert_eq!(Held { drain: 10.0, ..held }.requests(10.0), None);
        assert_eq!(held.requests(0.0), None);
    }
}
