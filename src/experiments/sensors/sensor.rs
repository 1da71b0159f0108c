//! The sensor concept (§4.2): a sensor sees every external request to its page; when the
//! page changed since it last looked, it notifies the robot, which starts a download at
//! once when the notification arrives (any number in parallel). Notifications may be
//! lost [beyond].

use super::page::{LifeRules, Ties, is_error, uniform_int};
use super::record::{Record, WaitEnds};
use super::robot::Watched;
use crate::core::math::elementary::ceil_unit;
use crate::core::rng::Stream;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Pending {
    /// A notification reaches the robot: the download starts.
    Arrives,
    /// A download ends.
    Completes { start: u64 },
}

pub struct SensedPage {
    pub watched: Watched,
    requests: Stream,
    /// The page's own draws: notification delays, download times, losses.
    draws: Stream,
    /// Continuous time of the next external request (its unit is the ceiling).
    next_request: f64,
    /// The version the sensor last saw (at t = 0 it knows its page).
    known: u32,
    /// Notifications in flight and downloads in progress, by unit.
    pending: Vec<(u64, Pending)>,
}

/// The settings every sensed page shares.
pub struct SensorRules {
    pub request_rate: f64,
    pub notify: (u64, u64),
    pub download: (u64, u64),
    pub loss: f64,
    pub ties: Ties,
}

/// Totals over the sensed pages.
#[derive(Default)]
pub struct SensorTotals {
    pub notifications: u64,
    pub lost: u64,
    /// [arrival, completion) of the downloads begun since the job last swept them (for
    /// the largest number at once).
    pub busy: Vec<(u64, u64)>,
}

impl SensedPage {
    pub fn new(watched: Watched, mut requests: Stream, draws: Stream, rules: &SensorRules) -> Self {
        let next_request = if rules.request_rate > 0.0 { requests.exponential(rules.request_rate) } else { f64::INFINITY };
        let known = watched.life.version;
        SensedPage { watched, requests, draws, next_request, known, pending: Vec::new() }
    }

    /// Bytes per sensed page on a 64-bit machine (checked by a test), plus a pending
    /// event; one figure on every target, so that results do not depend on it.
    pub const BYTES: u64 = 216;

    /// Counts and draws the requests that can only find nothing new: the sensor has seen
    /// the current version, and they fall before the page's next change, the next
    /// pending event and `until`. Each does exactly what the general step would (one
    /// event, one draw of the same stream), without its bookkeeping.
    #[inline]
    fn skip_quiet_requests(&mut self, until: u64, request_rate: f64, record: &mut Record) {
        if self.watched.life.version != self.known {
            return;
        }
        let pending = self.pending.iter().map(|p| p.0).min().unwrap_or(u64::MAX);
        let quiet_until = until.min(self.watched.life.next_change()).min(pending);
        // ⌈x⌉ < q exactly when x ≤ q − 1, for a whole q below 2⁵³ (until is at most the
        // horizon + 1): one comparison a request instead of a ceiling
        let Some(last_quiet) = quiet_until.checked_sub(1) else { return };
        let last_quiet = last_quiet as f64;
        while self.next_request <= last_quiet {
            record.events += 1;
            self.next_request += self.requests.exponential(request_rate);
        }
    }

    /// Runs this page's events before unit `until`.
    pub fn advance(&mut self, until: u64, life_rules: &LifeRules, rules: &SensorRules, record: &mut Record, totals: &mut SensorTotals) {
        loop {
            self.skip_quiet_requests(until, rules.request_rate, record);
            let request = ceil_unit(self.next_request);
            let pending = self.pending.iter().enumerate().min_by_key(|(_, p)| **p).map(|(k, p)| (k, *p));
            // a request and a pending event in the same unit: the pending one first
            let take_pending = pending.is_some_and(|(_, (t, _))| t <= request);
            let t = if take_pending { pending.unwrap().1.0 } else { request };
            if t >= until {
                break;
            }
            if take_pending {
                let (k, (_, what)) = pending.unwrap();
                self.pending.swap_remove(k);
                self.watched.observe(t, rules.ties, life_rules, record);
                match what {
                    Pending::Arrives => {
                        if is_error(self.watched.life.state) {
                            self.watched.complete(t, t, WaitEnds::Start, record);
                        } else {
                            let end = t + uniform_int(&mut self.draws, rules.download.0, rules.download.1);
                            totals.busy.push((t, end));
                            self.pending.push((end, Pending::Completes { start: t }));
                        }
                    }
                    Pending::Completes { start } => self.watched.complete(start, t, WaitEnds::Start, record),
                }
            } else {
                record.events += 1;
                self.watched.observe(t, rules.ties, life_rules, record);
                self.next_request += self.requests.exponential(rules.request_rate);
                if self.watched.life.version != self.known {
                    self.known = self.watched.life.version;
                    totals.notifications += 1;
                    record.events += 1;
                    if rules.loss > 0.0 && self.draws.uniform() < rules.loss {
                        totals.lost += 1;
                    } else {
                        let arrives = t + uniform_int(&mut self.draws, rules.notify.0, rules.notify.1);
                        self.pending.push((arrives, Pending::Arrives));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;
    use crate::experiments::sensors::page::PageLife;
    use crate::experiments::sensors::record::Replica;

    fn rules() -> LifeRules {
        LifeRules { cumulative: [0.0, 0.0, 0.0, 0.5, 1.0, 1.0], no_change_rules: true, unchanged_never_changes: false, size_min: 65, size_max: 1000 }
    }

    #[cfg(target_pointer_width = "64")]
    #[test]
    fn the_stated_size_covers_the_layout() {
        assert!(std::mem::size_of::<SensedPage>() as u64 + 16 <= SensedPage::BYTES, "{}", std::mem::size_of::<SensedPage>());
    }

    /// A request in the very unit of a change: ChangeFirst notifies at that request,
    /// ObservationFirst does not (the sensor saw the old page).
    #[test]
    fn the_tie_rule_decides_what_a_request_sees() {
        for (ties, notified) in [(Ties::ChangeFirst, 1), (Ties::ObservationFirst, 0)] {
            let life = PageLife::new(Stream::of(5, Purpose::Test, 5), &rules(), 1e-3);
            let change = life.next_change();
            let rules_s = SensorRules { request_rate: 1e-12, notify: (1, 1), download: (1, 1), loss: 0.0, ties };
            let mut page = SensedPage::new(Watched { life, copy: Replica::new() }, Stream::of(5, Purpose::Test, 6), Stream::of(5, Purpose::Test, 7), &rules_s);
            page.next_request = change as f64 - 0.5; // its unit is the change's
            let mut record = Record::new(change + 10, 1);
            let mut totals = SensorTotals::default();
            page.advance(change + 1, &rules(), &rules_s, &mut record, &mut totals);
            assert_eq!(totals.notifications, notified, "{ties:?}");
            assert_eq!(record.ties, 1);
        }
    }

    /// Notification after 1 unit, download of 1: the copy is current 2 units after the
    /// request that saw the change; the wait (until the download starts) is from the change.
    #[test]
    fn a_hand_built_episode() {
        let life = PageLife::new(Stream::of(8, Purpose::Test, 8), &rules(), 1e-4);
        let change = life.next_change();
        let rules_s = SensorRules { request_rate: 1e-12, notify: (1, 1), download: (1, 1), loss: 0.0, ties: Ties::ChangeFirst };
        let mut page = SensedPage::new(Watched { life, copy: Replica::new() }, Stream::of(8, Purpose::Test, 9), Stream::of(8, Purpose::Test, 10), &rules_s);
        page.next_request = (change + 100) as f64;
        let horizon = change + 200;
        let mut record = Record::new(horizon, 1);
        let mut totals = SensorTotals::default();
        page.advance(change + 103, &rules(), &rules_s, &mut record, &mut totals);
        assert_eq!(totals.busy, vec![(change + 101, change + 102)]);
        assert_eq!(record.waits.spread().max, 101, "from the change to the download's start");
        assert_eq!((record.downloads, record.useful), (1, 1));
        page.watched.copy.close(page.watched.life.version, horizon, &mut record);
        let counts = record.counts();
        assert_eq!((counts[change as usize - 1], counts[change as usize], counts[change as usize + 101], counts[change as usize + 102]), (1, 0, 0, 1));
    }
}
