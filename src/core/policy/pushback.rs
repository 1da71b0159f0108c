//! How each crawler spaces its requests to one server and reacts when the server pushes
//! back (429 or 503, with or without Retry-After; a robots.txt Crawl-delay): the earliest
//! time of its next request to that server after each answer. Times are days, settings
//! seconds. Each rule cites the code or documentation it follows.

use super::{PolitenessCheck, Retry, Schedule, short_of};
use crate::core::labels::labelled;
use crate::core::model::host::{Answer, Host, HostLoad, Refusal, Refusals};
use crate::core::rng::Stream;
use crate::core::sim::freshness::Freshness;
use serde::{Deserialize, Serialize};

const SECOND: f64 = 1.0 / 86_400.0;
const DAY_S: f64 = 86_400.0;
/// Nutch forgets a host's exceptions after 30 quiet minutes
/// (`fetcher.exceptions.per.queue.clear.after`, NUTCH-3067).
const FORGIVE_S: f64 = 1_800.0;
/// MERGE's rule: this many answers in a row within capacity halve a doubled gap.
const MERGE_CALM_ANSWERS: u32 = 10;
/// MERGE's and Google's gap when lengthened from none (P = 0): doubling zero would leave
/// a refusing server hammered (MERGE after Scrapy without a download delay sent 8.3 M
/// requests to 100 servers of one request in 500 s, as many as the crawler).
const FIRST_BACKOFF_S: f64 = 1.0;
/// Google's slow-down, in Freshlab's numbers (Google publishes none): an answer slower
/// than this many times the host's fastest is the site "slowing down"…
const GOOGLE_SLOW: f64 = 2.0;
/// …and lengthens the gap by this factor; this many quick answers in a row ("responds
/// quickly for a while") shorten it by the same, never below P.
const GOOGLE_STEP: f64 = 1.25;
const GOOGLE_QUICK_ANSWERS: u32 = 10;

/// How a crawler's fetcher keeps a server's robots.txt Crawl-delay, resolved from its
/// settings ([`crate::core::policy::crawler_files::Model::crawl_delay_rule`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrawlDelayRule {
    /// Kept up to this many seconds (negative: however long)…
    pub cap_s: f64,
    /// …a longer one skipping the server (Nutch FetcherThread; StormCrawler FetcherBolt
    /// by default), or fetched at the cap (StormCrawler `fetcher.max.crawl.delay.force`).
    pub skips_over_cap: bool,
    /// A shorter one raised to this: Nutch's `fetcher.min.crawl.delay`, by default its
    /// `fetcher.server.delay` (NUTCH-2775); StormCrawler's server delay with
    /// `fetcher.server.delay.force` (PR #549); 0 otherwise.
    pub floor_s: f64,
    /// Whether it spaces the requests at all: Nutch's and StormCrawler's FetchItemQueue
    /// with several threads waits `fetcher.server.min.delay` whatever it says.
    pub spaces: bool,
}

impl CrawlDelayRule {
    /// Kept up to `cap_s` seconds, a server asking more skipped, a shorter one kept.
    pub const fn up_to(cap_s: f64) -> Self {
        CrawlDelayRule { cap_s, skips_over_cap: true, floor_s: 0.0, spaces: true }
    }

    /// Over the cap (a negative cap: none).
    fn over_cap(&self, delay_s: f64) -> bool {
        self.cap_s >= 0.0 && delay_s > self.cap_s
    }
}

/// A crawler's reaction, with its settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "crawler")]
pub enum Reaction {
    /// Nutch FetchItemQueue.finishFetchItem (the next fetch `crawlDelay` after the
    /// fetch ends) and FetchItemQueues.checkExceptionThreshold (NUTCH-2946): each
    /// exception delays the queue by `fetcher.exceptions.per.queue.delay` × 2^(k−1) for
    /// the k-th; at `fetcher.max.exceptions.per.queue` (when not −1) the queue is purged.
    /// Retry-After is not read. A purged queue's pages wait for the next crawl cycle
    /// (`cycle_days`; 0: no cycles set, a day).
    Nutch {
        exception_delay_s: f64,
        max_exceptions: i64,
        #[serde(default)]
        cycle_days: f64,
    },
    /// StormCrawler's fetcher (the next fetch `fetcher.server.delay` after the fetch
    /// ends) and its URLFrontier QueueRegulatorBolt (HostBackoff.blockUntilFor, PR #1973
    /// and #1984), which blocks the host's frontier queue: a Retry-After honoured up to
    /// `urlfrontier.max.retry.after` (−1: no cap), a refusal without one as
    /// [`StormBackoff`] says; each block lengthened by a random share up to
    /// `urlfrontier.backoff.jitter`, and only ever extended.
    Stormcrawler {
        max_retry_after_s: f64,
        jitter: f64,
        #[serde(default)]
        backoff: StormBackoff,
    },
    /// Heritrix DispositionProcessor.politenessDelayFor: `delayFactor` × the fetch's
    /// duration, within `minDelayMs` and `maxDelayMs`, and at least the Crawl-delay up
    /// to `respectCrawlDelayUpToSeconds`, counted from the fetch's end. 429 and 503 are
    /// answers like any other; Retry-After is not read.
    Heritrix { delay_factor: f64, max_delay_s: f64 },
    /// Scrapy's downloader slot: `DOWNLOAD_DELAY` between request starts (× a uniform
    /// 0.5–1.5 when `RANDOMIZE_DOWNLOAD_DELAY`), `CONCURRENT_REQUESTS_PER_DOMAIN` at once
    /// when there is no delay; AutoThrottle (when enabled) moves the delay halfway to
    /// latency / `AUTOTHROTTLE_TARGET_CONCURRENCY` after each response (straight to it
    /// when that is longer), at least `DOWNLOAD_DELAY` and then at most
    /// `AUTOTHROTTLE_MAX_DELAY`, a refused response never lowering it
    /// (scrapy/extensions/throttle.py, AutoThrottle._adjust_delay). Robots.txt Crawl-delay and Retry-After are not
    /// read (scrapy#3849).
    Scrapy { randomize: bool, concurrency: f64, autothrottle: bool, start_delay_s: f64, max_delay_s: f64, target_concurrency: f64 },
    /// Freshlab's rule for MERGE and OPT_POLITE: P (or the Crawl-delay when longer)
    /// between request starts; a refusal with Retry-After waits it out; without one the
    /// server's gap doubles (at most a day; from P = 0, from a second); ten answers in a
    /// row within capacity halve it back, never below P.
    Merge,
    /// Google's documented crawl capacity limit (Search Central, "Large site owner's guide
    /// to managing your crawl budget": a site that responds quickly for a while has its
    /// limit raised, one that slows down or answers server errors has it lowered; "How
    /// HTTP status codes affect Google's crawlers": 500, 503 and 429 slow the crawl of
    /// the host name, which recovers as the errors stop). Google supports no robots.txt
    /// Crawl-delay (its robots.txt specification) and documents no Retry-After: neither
    /// is read. The numbers are Freshlab's: the gap starts at P; a refusal doubles it (at
    /// most a day), an answer over twice the host's fastest lengthens it 1.25× (either
    /// from a second where P = 0), and ten quick answers in a row shorten it 1.25×, never
    /// below P.
    Google,
}

/// StormCrawler's back-off without Retry-After (HostBackoff, its `urlfrontier.backoff.*`
/// settings) and what the QueueRegulatorBolt sees of a refusal: it reads the status code
/// and the Retry-After header from the metadata the status updater emits after the
/// `metadata.persist` filter, and acts on the status codes it is given.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StormBackoff {
    /// The first block (`urlfrontier.backoff.base.secs`, seconds; 0: none without a
    /// Retry-After)…
    pub base_s: f64,
    /// …multiplied by this on each new incident (`urlfrontier.backoff.factor`), the
    /// product's whole seconds kept…
    pub factor: f64,
    /// …up to this (`urlfrontier.backoff.max.secs`, seconds).
    pub max_s: f64,
    /// A host quiet this long after its block ends is forgiven, its next incident
    /// starting again from the base (`urlfrontier.backoff.decay.secs`, seconds).
    pub decay_s: f64,
    /// `urlfrontier.backoff.status.codes` holds 429, and 503.
    pub on_429: bool,
    pub on_503: bool,
    /// The bolt sees the refusals: `fetch.statusCode` survives `metadata.persist` (and,
    /// in a run, the servers' status is among the codes)…
    pub sees_refusals: bool,
    /// …and their Retry-After: `protocol.md.prefix` + `retry-after` survives too.
    pub sees_retry_after: bool,
    /// The bolt's robots pacing (CrawlDelayPolicy, PR #2000): a host whose Crawl-delay is
    /// over `fetcher.max.crawl.delay` (fetched at that cap) has its frontier queue paced
    /// at the Crawl-delay, its whole seconds rounded up, up to this
    /// (`urlfrontier.robots.delay.max.secs`); 0: no pacing
    /// (`urlfrontier.robots.crawl.delay.enabled` false).
    #[serde(default)]
    pub paces_up_to_s: f64,
}

impl StormBackoff {
    /// HostBackoff's defaults (60 s doubled up to a day, forgiven 30 minutes after the
    /// block, on 429 and 503), unseen: crawler-default.yaml's `metadata.persist` keeps
    /// neither the status code nor the header.
    pub const SHIPPED: StormBackoff = StormBackoff {
        base_s: 60.0,
        factor: 2.0,
        max_s: 86_400.0,
        decay_s: 1_800.0,
        on_429: true,
        on_503: true,
        sees_refusals: false,
        sees_retry_after: false,
        paces_up_to_s: 0.0,
    };
}

impl Default for StormBackoff {
    fn default() -> Self {
        StormBackoff::SHIPPED
    }
}

labelled! {
/// How the best Freshlab knows (MERGE on OPT_POLITE) reacts when a server pushes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Backoff {
    Freshlab => "Freshlab's rule",
    Google => "Google's documented slow-down",
}
}

impl Backoff {
    pub fn reaction(self) -> Reaction {
        match self {
            Backoff::Freshlab => Reaction::Merge,
            Backoff::Google => Reaction::Google,
        }
    }
}

/// What the crawler keeps about one server.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostGate {
    /// The earliest time of the next request (days).
    pub not_before: f64,
    /// Nutch's exceptions in a row (forgiven when quiet).
    incidents: u32,
    /// The last refusal (days).
    last_refusal: f64,
    /// StormCrawler: the block escalated to so far (seconds; 0: none), and the end of the
    /// host's current or last block (days).
    backoff_s: f64,
    block_until: f64,
    /// Scrapy's AutoThrottle delay, MERGE's current gap (seconds; 0: not yet set).
    delay_s: f64,
    /// MERGE: answers within capacity since the last refusal; Google: quick answers in a row.
    calm: u32,
    /// Google: the host's fastest answer so far (seconds; infinite: none yet).
    fastest_s: f64,
}

impl Default for HostGate {
    fn default() -> Self {
        HostGate { not_before: 0.0, incidents: 0, last_refusal: f64::NEG_INFINITY, backoff_s: 0.0, block_until: f64::NEG_INFINITY, delay_s: 0.0, calm: 0, fastest_s: f64::INFINITY }
    }
}

impl HostGate {
    /// A server the crawler never requests.
    pub fn closed() -> Self {
        HostGate { not_before: f64::INFINITY, ..HostGate::default() }
    }
}

impl Reaction {
    /// Whether the crawler requests this server at all: Nutch and StormCrawler skip a
    /// host whose Crawl-delay is over their cap (`fetcher.max.crawl.delay`), StormCrawler
    /// not with `fetcher.max.crawl.delay.force`.
    pub fn skips(self, host: &Host, rule: &CrawlDelayRule) -> bool {
        matches!(self, Reaction::Nutch { .. } | Reaction::Stormcrawler { .. }) && rule.skips_over_cap && rule.over_cap(host.crawl_delay_s)
    }

    /// Whether the crawler waits out a Retry-After it is given: StormCrawler where its
    /// QueueRegulatorBolt sees the header.
    pub fn honours_retry_after(self) -> bool {
        match self {
            Reaction::Stormcrawler { backoff, .. } => backoff.sees_refusals && backoff.sees_retry_after,
            Reaction::Merge => true,
            _ => false,
        }
    }

    /// The reaction on servers that refuse with `status`: StormCrawler's bolt acts on the
    /// codes of `urlfrontier.backoff.status.codes` alone.
    pub fn on_status(self, status: Refusal) -> Self {
        match self {
            Reaction::Stormcrawler { max_retry_after_s, jitter, mut backoff } => {
                backoff.sees_refusals &= match status {
                    Refusal::TooManyRequests => backoff.on_429,
                    Refusal::Unavailable => backoff.on_503,
                };
                Reaction::Stormcrawler { max_retry_after_s, jitter, backoff }
            }
            other => other,
        }
    }

    /// Whether the crawler keeps a robots.txt Crawl-delay (up to its cap).
    pub fn honours_crawl_delay(self) -> bool {
        !matches!(self, Reaction::Scrapy { .. } | Reaction::Google)
    }

    /// The crawler's gap between two requests to `host` (seconds): its own `gap_s`, or the
    /// Crawl-delay where it keeps it — Nutch and StormCrawler take it in place of their
    /// server delay (FetcherThread: `fiq.crawlDelay`), raised to their floor and, where
    /// StormCrawler fetches past its cap, at the cap (or, paced by its frontier, at the
    /// Crawl-delay's whole seconds up to the pacing's most); with several threads a queue
    /// they keep their own; Heritrix and MERGE at least it (Heritrix up to its cap).
    pub fn gap_s(self, host: &Host, gap_s: f64, rule: &CrawlDelayRule) -> f64 {
        let delay = host.crawl_delay_s;
        match self {
            _ if delay <= 0.0 => gap_s,
            Reaction::Nutch { .. } | Reaction::Stormcrawler { .. } if !rule.spaces => gap_s,
            Reaction::Stormcrawler { backoff, .. } if rule.over_cap(delay) && backoff.paces_up_to_s > 0.0 => delay.ceil().min(backoff.paces_up_to_s).max(rule.cap_s),
            Reaction::Nutch { .. } | Reaction::Stormcrawler { .. } if rule.over_cap(delay) => rule.cap_s,
            Reaction::Nutch { .. } | Reaction::Stormcrawler { .. } => delay.max(rule.floor_s),
            Reaction::Heritrix { .. } => gap_s.max(delay.min(rule.cap_s)),
            Reaction::Merge => gap_s.max(delay),
            Reaction::Scrapy { .. } | Reaction::Google => gap_s,
        }
    }

    /// After a request to `host` that began at `t` (days) and got `answer`: the earliest
    /// time of the next one, kept in `gate`. `gap_s` is the crawler's gap (its server
    /// delay, P for MERGE).
    #[allow(clippy::too_many_arguments)]
    pub fn next(self, gate: &mut HostGate, host: &Host, t: f64, answer: Answer, gap_s: f64, rule: &CrawlDelayRule, rng: &mut Stream) -> f64 {
        let gap = self.gap_s(host, gap_s, rule);
        let end = t + answer.seconds() * SECOND;
        let refused = matches!(answer, Answer::Refused { .. });
        if refused && matches!(self, Reaction::Nutch { .. }) {
            if t - gate.last_refusal > FORGIVE_S * SECOND {
                gate.incidents = 0;
            }
            gate.incidents += 1;
            gate.last_refusal = t;
        }
        let next = match self {
            Reaction::Nutch { exception_delay_s, max_exceptions, cycle_days } => {
                let mut next = end + gap * SECOND;
                if refused {
                    if exception_delay_s > 0.0 {
                        next += exception_delay_s * pow2(gate.incidents - 1) * SECOND;
                    }
                    if max_exceptions >= 0 && i64::from(gate.incidents) >= max_exceptions {
                        // the queue is purged: its pages wait for the next cycle (a day
                        // where no cycle is set)
                        let cycle_start = if cycle_days > 0.0 { cycle_days * ((t / cycle_days).floor() + 1.0) } else { t + 1.0 };
                        next = next.max(cycle_start);
                        gate.incidents = 0;
                    }
                }
                next
            }
            Reaction::Stormcrawler { max_retry_after_s, jitter, backoff } => {
                let next = end + gap * SECOND;
                match answer {
                    Answer::Refused { retry_after_s, .. } if backoff.sees_refusals => next.max(storm_block(gate, backoff, retry_after_s, max_retry_after_s, jitter, t, rng)),
                    _ => next,
                }
            }
            Reaction::Heritrix { delay_factor, max_delay_s } => {
                // DispositionProcessor.politenessDelayFor: the delay factor × the fetch's
                // duration, at least minDelayMs, then at most maxDelayMs; then at least
                // the Crawl-delay up to its cap
                let wait = (delay_factor * answer.seconds()).max(gap_s).min(max_delay_s);
                end + wait.max(self.gap_s(host, 0.0, rule)) * SECOND
            }
            Reaction::Scrapy { randomize, concurrency, autothrottle, start_delay_s, max_delay_s, target_concurrency } => {
                let mut delay = gap_s;
                if autothrottle {
                    let old = if gate.delay_s > 0.0 { gate.delay_s } else { start_delay_s.max(gap_s) };
                    // AutoThrottle._adjust_delay: halfway to the target, straight to it
                    // when it is longer, within DOWNLOAD_DELAY and then the most
                    let target = answer.seconds() / target_concurrency;
                    let mut new = ((old + target) / 2.0).max(target).max(gap_s).min(max_delay_s);
                    if refused && new < old {
                        new = old;
                    }
                    gate.delay_s = new;
                    delay = new;
                }
                if randomize && delay > 0.0 {
                    delay *= 0.5 + rng.uniform();
                }
                if delay > 0.0 {
                    t + delay * SECOND
                } else {
                    // no delay: `concurrency` requests in flight, one starting as each ends
                    t + answer.seconds() / concurrency * SECOND
                }
            }
            Reaction::Merge => {
                if gate.delay_s < gap {
                    gate.delay_s = gap;
                }
                match answer {
                    Answer::Refused { retry_after_s: Some(s), .. } => {
                        gate.calm = 0;
                        t + gate.delay_s.max(s) * SECOND
                    }
                    Answer::Refused { retry_after_s: None, .. } => {
                        gate.calm = 0;
                        gate.delay_s = (2.0 * gate.delay_s.max(FIRST_BACKOFF_S)).min(DAY_S.max(gap));
                        t + gate.delay_s * SECOND
                    }
                    Answer::Ok { .. } => {
                        gate.calm += 1;
                        if gate.calm >= MERGE_CALM_ANSWERS && gate.delay_s > gap {
                            gate.delay_s = (gate.delay_s / 2.0).max(gap);
                            gate.calm = 0;
                        }
                        t + gate.delay_s * SECOND
                    }
                }
            }
            Reaction::Google => {
                if gate.delay_s < gap {
                    gate.delay_s = gap;
                }
                let seconds = answer.seconds();
                let slow = !refused && seconds > GOOGLE_SLOW * gate.fastest_s;
                if !refused {
                    gate.fastest_s = gate.fastest_s.min(seconds);
                }
                if refused || slow {
                    gate.calm = 0;
                    let factor = if refused { 2.0 } else { GOOGLE_STEP };
                    gate.delay_s = (factor * gate.delay_s.max(FIRST_BACKOFF_S)).min(DAY_S.max(gap));
                } else {
                    gate.calm += 1;
                    if gate.calm >= GOOGLE_QUICK_ANSWERS && gate.delay_s > gap {
                        gate.delay_s = (gate.delay_s / GOOGLE_STEP).max(gap);
                        gate.calm = 0;
                    }
                }
                t + gate.delay_s * SECOND
            }
        };
        gate.not_before = next;
        next
    }
}

/// A crawler as the driver needs it: its reaction, its own gap between two requests to a
/// server (seconds), its Crawl-delay cap (seconds) and when a refused page is tried
/// again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrawlerRules {
    pub reaction: Reaction,
    pub gap_s: f64,
    pub crawl_delay: CrawlDelayRule,
    pub retry: Retry,
}

/// A crawler's rules on one server: one set for every page, or (Heritrix's sheets over
/// paths) each page its own set's, `of[page]` indexing `sets`: the gap owed after a
/// fetch is the fetched page's (DispositionProcessor reads the fetched URL's settings).
#[derive(Clone, Copy)]
pub enum ServerRules<'a> {
    One(&'a CrawlerRules),
    ByPage { sets: &'a [CrawlerRules], of: &'a [u16] },
}

impl<'a> ServerRules<'a> {
    #[inline]
    fn of(self, page: usize) -> &'a CrawlerRules {
        match self {
            ServerRules::One(rules) => rules,
            ServerRules::ByPage { sets, of } => &sets[usize::from(of[page])],
        }
    }
}

/// One server as the driver sees it: its limits and how it refuses, its load, and what
/// the crawler keeps about it.
pub struct Server<'a> {
    pub host: &'a Host,
    pub refusals: Refusals,
    pub load: &'a mut HostLoad,
    pub gate: &'a mut HostGate,
}

/// The answers a crawler got, and the requests it sent too soon.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Answers {
    pub ok: u64,
    /// 429 or 503.
    pub refused: u64,
    /// Requests sent before the server's last Retry-After had passed.
    pub before_retry_after: u64,
    /// Requests sent less than the server's Crawl-delay after the previous one.
    pub under_crawl_delay: u64,
    /// Every answer's time, summed (seconds).
    pub response_s: f64,
}

impl Answers {
    pub fn add(&mut self, other: &Answers) {
        self.ok += other.ok;
        self.refused += other.refused;
        self.before_retry_after += other.before_retry_after;
        self.under_crawl_delay += other.under_crawl_delay;
        self.response_s += other.response_s;
    }

    pub fn requests(&self) -> u64 {
        self.ok + self.refused
    }
}

/// Runs `schedule`'s requests to one server before `until`, each no earlier than the
/// crawler's gate allows: the server answers, a page it served is accounted and shown to
/// the schedule, a refused one is tried again later, and the crawler's reaction sets the
/// gate. A request delayed by the gate delays the schedule's later ones (a schedule that
/// fell behind catches up no faster than the gate lets it). Returns the request count.
#[allow(clippy::too_many_arguments)]
pub fn drive(
    schedule: &mut dyn Schedule,
    until: f64,
    f: &[f64],
    visitor: &mut impl Freshness,
    check: &mut PolitenessCheck,
    rng: &mut Stream,
    rules: ServerRules,
    server: Server,
    answers: &mut Answers,
) -> u64 {
    let Server { host, refusals, load, gate } = server;
    let mut requests = 0;
    loop {
        let t = schedule.next_time().max(gate.not_before);
        // (a NaN time ends the run as the horizon does)
        if t.partial_cmp(&until) != Some(std::cmp::Ordering::Less) {
            return requests;
        }
        let (_, page) = schedule.take(f, rng);
        let crawler = rules.of(page);
        check.request(t);
        if let ServerRules::ByPage { .. } = rules {
            check.owe(crawler.gap_s * SECOND);
        }
        // (a microsecond's slack: the wait is kept in days, the header in seconds)
        if t < load.retry_until - 1e-6 * SECOND {
            answers.before_retry_after += 1;
        }
        if short_of(t - load.last, host.crawl_delay_s * SECOND, t) {
            answers.under_crawl_delay += 1;
        }
        let answer = load.answer(host, refusals, t);
        match answer {
            Answer::Ok { .. } => {
                answers.ok += 1;
                let fetch = visitor.visit(page, t, rng);
                schedule.observe(page, t, fetch);
            }
            Answer::Refused { .. } => {
                answers.refused += 1;
                schedule.refused(page, t, crawler.retry);
            }
        }
        answers.response_s += answer.seconds();
        crawler.reaction.next(gate, host, t, answer, crawler.gap_s, &crawler.crawl_delay, rng);
        requests += 1;
    }
}

/// StormCrawler's HostBackoff.blockUntilFor on a refusal at `t` (days) the bolt sees:
/// the end of the host's block (days). Its state is forgotten `decay_s` after its block
/// ends (the cache entry's lifetime); a Retry-After it sees is honoured up to its cap
/// without escalating; a refusal without one while a block runs is the same incident;
/// else the block is the base, then the last × the factor (its whole seconds) up to the
/// most. Every block is lengthened by a random share up to `jitter` and only extends.
fn storm_block(gate: &mut HostGate, backoff: StormBackoff, retry_after_s: Option<f64>, max_retry_after_s: f64, jitter: f64, t: f64, rng: &mut Stream) -> f64 {
    if t >= gate.block_until + backoff.decay_s * SECOND {
        gate.backoff_s = 0.0;
    }
    let explicit = retry_after_s.filter(|&s| backoff.sees_retry_after && s > 0.0).map(|s| if max_retry_after_s >= 0.0 { s.min(max_retry_after_s) } else { s });
    let delay_s = match explicit {
        Some(s) => s,
        None if t < gate.block_until => return gate.block_until,
        None => {
            gate.backoff_s = if gate.backoff_s == 0.0 { backoff.base_s } else { (gate.backoff_s * backoff.factor).min(backoff.max_s).floor() };
            if gate.backoff_s <= 0.0 {
                return f64::NEG_INFINITY;
            }
            gate.backoff_s
        }
    };
    let until = t + delay_s * (1.0 + jitter * rng.uniform()) * SECOND;
    if until > gate.block_until {
        gate.block_until = until;
    }
    gate.block_until
}

/// 2^k, at most 2^31 (Nutch caps its shift there).
fn pow2(k: u32) -> f64 {
    f64::from(1u32 << k.min(31))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    const OK: Answer = Answer::Ok { seconds: 2.0 };
    const REFUSED: Answer = Answer::Refused { seconds: 0.5, retry_after_s: None };
    const RETRY_120: Answer = Answer::Refused { seconds: 0.5, retry_after_s: Some(120.0) };

    fn rng() -> Stream {
        Stream::of(1, Purpose::ServerSchedule { run: 0, series: 0 }, 0)
    }

    /// Seconds from `t` (days) to the next request.
    fn wait(reaction: Reaction, gate: &mut HostGate, host: &Host, t: f64, answer: Answer, gap_s: f64) -> f64 {
        (reaction.next(gate, host, t, answer, gap_s, &CrawlDelayRule::up_to(30.0), &mut rng()) - t) / SECOND
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Nutch: the server delay after the fetch ends; then 10 s, 20 s, 40 s more for the
    /// 1st, 2nd, 3rd exception in a row (delay 10 s); at 5 exceptions the queue waits a
    /// day; Retry-After changes nothing.
    #[test]
    fn nutch_waits_its_delay_after_the_fetch_and_doubles_its_exception_delay() {
        let r = Reaction::Nutch { exception_delay_s: 10.0, max_exceptions: 5, cycle_days: 0.0 };
        let (host, mut gate) = (Host::default(), HostGate::default());
        assert!(close(wait(r, &mut gate, &host, 0.0, OK, 5.0), 7.0));
        let mut t = 0.0;
        for expected in [10.0, 20.0, 40.0, 80.0] {
            assert!(close(wait(r, &mut gate, &host, t, REFUSED, 5.0), 0.5 + 5.0 + expected));
            t += 60.0 * SECOND;
        }
        assert!(close(wait(r, &mut gate, &host, t, RETRY_120, 5.0), 86_400.0), "the 5th purges the queue for a day");
        // counted afresh after it
        assert!(close(wait(r, &mut gate, &host, t + 1.0, RETRY_120, 5.0), 0.5 + 5.0 + 10.0));
        // with 6-hour cycles, the fifth at hour 1 (its first four a minute apart before it)
        // purges the queue until hour 6
        let r = Reaction::Nutch { exception_delay_s: 10.0, max_exceptions: 5, cycle_days: 0.25 };
        let mut gate = HostGate::default();
        let hour = 1.0 / 24.0;
        for k in 0..4 {
            wait(r, &mut gate, &host, hour - f64::from(4 - k) * 60.0 * SECOND, REFUSED, 5.0);
        }
        assert!(close(wait(r, &mut gate, &host, hour, REFUSED, 5.0), 5.0 * 3600.0), "until the next cycle, 5 h on");
    }

    /// Nutch and StormCrawler forget a host's incidents after 30 quiet minutes.
    #[test]
    fn incidents_are_forgiven_after_thirty_quiet_minutes() {
        let r = Reaction::Nutch { exception_delay_s: 10.0, max_exceptions: -1, cycle_days: 0.0 };
        let (host, mut gate) = (Host::default(), HostGate::default());
        wait(r, &mut gate, &host, 0.0, REFUSED, 5.0);
        assert!(close(wait(r, &mut gate, &host, 1_000.0 * SECOND, REFUSED, 5.0), 0.5 + 5.0 + 20.0));
        assert!(close(wait(r, &mut gate, &host, 3_000.0 * SECOND, REFUSED, 5.0), 0.5 + 5.0 + 10.0));
    }

    /// StormCrawler seeing the refusals and their Retry-After (its metadata.persist
    /// keeping both), its back-off as given, no jitter.
    fn storm(max_retry_after_s: f64, base_s: f64, factor: f64, max_s: f64) -> Reaction {
        let backoff = StormBackoff { base_s, factor, max_s, sees_refusals: true, sees_retry_after: true, ..StormBackoff::SHIPPED };
        Reaction::Stormcrawler { max_retry_after_s, jitter: 0.0, backoff }
    }

    /// HostBackoff: a Retry-After is honoured up to its cap (120 s → 100 s) and does not
    /// escalate; without one the host is blocked 60 s, then 120 s, 240 s (each refusal
    /// as the last block ends), at most a day.
    #[test]
    fn stormcrawler_honours_retry_after_and_doubles_its_block() {
        let r = storm(100.0, 60.0, 2.0, 86_400.0);
        let (host, mut gate) = (Host::default(), HostGate::default());
        assert!(close(wait(r, &mut gate, &host, 0.0, RETRY_120, 1.0), 100.0), "capped at 100 s");
        let mut t = 100.0 * SECOND;
        for expected in [60.0, 120.0, 240.0] {
            assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), expected), "after the explicit one, from the base");
            t += expected * SECOND;
        }
        let mut gate = HostGate { backoff_s: 60_000.0, block_until: 0.0, ..HostGate::default() };
        assert!(close(wait(r, &mut gate, &host, SECOND, REFUSED, 1.0), 86_400.0), "at most a day");
        // a refusal without Retry-After while the block runs is the same incident
        let mut gate = HostGate::default();
        wait(r, &mut gate, &host, 0.0, REFUSED, 1.0);
        assert!(close(wait(r, &mut gate, &host, 10.0 * SECOND, REFUSED, 1.0), 50.0));
        // a block only extends: a shorter Retry-After inside it leaves it
        assert!(close(wait(r, &mut gate, &host, 10.0 * SECOND, Answer::Refused { seconds: 0.5, retry_after_s: Some(5.0) }, 1.0), 50.0));
        // jitter lengthens every block by at most its share, Retry-After's too
        let jittery = match storm(-1.0, 60.0, 2.0, 86_400.0) {
            Reaction::Stormcrawler { backoff, .. } => Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.1, backoff },
            _ => unreachable!(),
        };
        let w = wait(jittery, &mut HostGate::default(), &host, 0.0, REFUSED, 1.0);
        assert!((60.0..66.0).contains(&w), "{w}");
        let w = wait(jittery, &mut HostGate::default(), &host, 0.0, RETRY_120, 1.0);
        assert!((120.0..132.0).contains(&w) && w != 120.0, "{w}");
    }

    /// HostBackoff forgives a host quiet for `decay` (30 minutes) after its block ends,
    /// not after its last refusal: a refusal as a 1,920 s block ends escalates (3,840 s)
    /// though the last refusal was 32 minutes before; one 20 minutes after that block
    /// ends escalates again; one 31 minutes after the next starts again from the base.
    #[test]
    fn stormcrawler_forgives_a_host_quiet_after_its_block() {
        let r = storm(-1.0, 60.0, 2.0, 86_400.0);
        let host = Host::default();
        let mut gate = HostGate::default();
        let mut t = 0.0;
        for block in [60.0, 120.0, 240.0, 480.0, 960.0, 1_920.0] {
            assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), block));
            t += block * SECOND;
        }
        assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), 3_840.0));
        let t = t + (3_840.0 + 1_200.0) * SECOND;
        assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), 7_680.0));
        let t = t + (7_680.0 + 1_860.0) * SECOND;
        assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), 60.0));
    }

    /// The factor's product keeps its whole seconds (10, 15, 22, 33), up to the most (a
    /// most of 30: 10, 15, 22, 30, 30); a base of 0 blocks nothing without Retry-After,
    /// which is still honoured.
    #[test]
    fn stormcrawlers_backoff_settings_shape_the_blocks() {
        let host = Host::default();
        for (r, blocks) in [(storm(-1.0, 10.0, 1.5, 86_400.0), vec![10.0, 15.0, 22.0, 33.0]), (storm(-1.0, 10.0, 1.5, 30.0), vec![10.0, 15.0, 22.0, 30.0, 30.0])] {
            let (mut gate, mut t) = (HostGate::default(), 0.0);
            for block in blocks {
                assert!(close(wait(r, &mut gate, &host, t, REFUSED, 1.0), block), "{block}");
                t += block * SECOND;
            }
        }
        let none = storm(-1.0, 0.0, 2.0, 86_400.0);
        let mut gate = HostGate::default();
        assert!(close(wait(none, &mut gate, &host, 0.0, REFUSED, 1.0), 1.5), "the answer and the server delay alone");
        assert!(close(wait(none, &mut gate, &host, 0.0, RETRY_120, 1.0), 120.0));
    }

    /// What the QueueRegulatorBolt does not see it cannot act on: without the status code
    /// kept, no block at all; without the header kept, a Retry-After is a refusal like
    /// any other (60 s); with the servers' status not among its codes, none.
    #[test]
    fn stormcrawler_blocks_only_what_its_bolt_sees() {
        let host = Host::default();
        let seen = storm(-1.0, 60.0, 2.0, 86_400.0);
        let Reaction::Stormcrawler { backoff, .. } = seen else { unreachable!() };
        let blind = Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff { sees_refusals: false, ..backoff } };
        assert!(close(wait(blind, &mut HostGate::default(), &host, 0.0, RETRY_120, 1.0), 1.5));
        assert!(!blind.honours_retry_after() && seen.honours_retry_after());
        let headerless = Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff { sees_retry_after: false, ..backoff } };
        assert!(close(wait(headerless, &mut HostGate::default(), &host, 0.0, RETRY_120, 1.0), 60.0));
        let only_429 = Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff { on_503: false, ..backoff } };
        assert_eq!(only_429.on_status(Refusal::TooManyRequests), only_429);
        assert!(close(wait(only_429.on_status(Refusal::Unavailable), &mut HostGate::default(), &host, 0.0, RETRY_120, 1.0), 1.5));
    }

    /// Heritrix: 5 × a 2 s fetch = 10 s after it ends, within 3–30 s; a Crawl-delay of 60 s
    /// is kept up to its cap of 30 s here.
    #[test]
    fn heritrix_waits_its_factor_times_the_fetch() {
        let r = Reaction::Heritrix { delay_factor: 5.0, max_delay_s: 30.0 };
        let mut gate = HostGate::default();
        assert!(close(wait(r, &mut gate, &Host::default(), 0.0, OK, 3.0), 2.0 + 10.0));
        assert!(close(wait(r, &mut gate, &Host::default(), 0.0, Answer::Ok { seconds: 0.1 }, 3.0), 0.1 + 3.0));
        assert!(close(wait(r, &mut gate, &Host::default(), 0.0, Answer::Ok { seconds: 20.0 }, 3.0), 20.0 + 30.0));
        let slow = Host { crawl_delay_s: 60.0, ..Host::default() };
        assert!(close(wait(r, &mut gate, &slow, 0.0, Answer::Ok { seconds: 0.1 }, 3.0), 0.1 + 30.0));
    }

    /// Scrapy's AutoThrottle: from its start delay 5 s, a 2 s latency at target 1 moves the
    /// delay to 3.5 s, then 2.75 s; a refusal's short latency does not lower it; a longer
    /// latency is taken whole; AUTOTHROTTLE_MAX_DELAY bounds it last.
    #[test]
    fn scrapy_autothrottle_moves_halfway_to_the_latency() {
        let r = Reaction::Scrapy { randomize: false, concurrency: 8.0, autothrottle: true, start_delay_s: 5.0, max_delay_s: 60.0, target_concurrency: 1.0 };
        let (host, mut gate) = (Host::default(), HostGate::default());
        assert!(close(wait(r, &mut gate, &host, 0.0, OK, 0.0), 3.5));
        assert!(close(wait(r, &mut gate, &host, 0.0, OK, 0.0), 2.75));
        assert!(close(wait(r, &mut gate, &host, 0.0, RETRY_120, 0.0), 2.75));
        // a latency over the delay is taken at once, not halfway: 8 s, not (2.75 + 8) / 2
        assert!(close(wait(r, &mut gate, &host, 0.0, Answer::Ok { seconds: 8.0 }, 0.0), 8.0));
        // past AUTOTHROTTLE_MAX_DELAY the most wins, even over a longer DOWNLOAD_DELAY
        assert!(close(wait(r, &mut HostGate::default(), &host, 0.0, Answer::Ok { seconds: 90.0 }, 0.0), 60.0));
        assert!(close(wait(r, &mut HostGate::default(), &host, 0.0, OK, 75.0), 60.0));
        // without AutoThrottle or delay: eight in flight
        let plain = Reaction::Scrapy { randomize: false, concurrency: 8.0, autothrottle: false, start_delay_s: 5.0, max_delay_s: 60.0, target_concurrency: 1.0 };
        assert!(close(wait(plain, &mut HostGate::default(), &host, 0.0, OK, 0.0), 0.25));
        // Crawl-delay is not read
        let slow = Host { crawl_delay_s: 60.0, ..Host::default() };
        assert!(close(wait(plain, &mut HostGate::default(), &slow, 0.0, OK, 1.0), 1.0));
    }

    /// MERGE: P between starts (the Crawl-delay when longer); Retry-After waited out; a
    /// headerless refusal doubles the gap, ten calm answers halve it back.
    #[test]
    fn merge_doubles_its_gap_on_refusal_and_halves_it_when_calm() {
        let r = Reaction::Merge;
        let (host, mut gate) = (Host::default(), HostGate::default());
        assert!(close(wait(r, &mut gate, &host, 0.0, OK, 10.0), 10.0));
        assert!(close(wait(r, &mut gate, &host, 0.0, RETRY_120, 10.0), 120.0));
        assert!(close(wait(r, &mut gate, &host, 0.0, REFUSED, 10.0), 20.0));
        assert!(close(wait(r, &mut gate, &host, 0.0, REFUSED, 10.0), 40.0));
        for _ in 0..9 {
            assert!(close(wait(r, &mut gate, &host, 0.0, OK, 10.0), 40.0));
        }
        assert!(close(wait(r, &mut gate, &host, 0.0, OK, 10.0), 20.0));
        let slow = Host { crawl_delay_s: 60.0, ..Host::default() };
        assert!(close(wait(r, &mut HostGate::default(), &slow, 0.0, OK, 10.0), 60.0));
    }

    /// Google: P between starts whatever the Crawl-delay; a refusal doubles the gap and
    /// Retry-After is not read; an answer over twice the host's fastest lengthens it
    /// 1.25×; ten quick answers in a row shorten it 1.25×, never below P (by hand).
    #[test]
    fn google_slows_on_refusals_and_slow_answers_and_speeds_up_after_quick_ones() {
        let r = Reaction::Google;
        let quick = Answer::Ok { seconds: 0.2 };
        let (host, mut gate) = (Host { crawl_delay_s: 60.0, ..Host::default() }, HostGate::default());
        assert!(close(wait(r, &mut gate, &host, 0.0, quick, 10.0), 10.0), "Crawl-delay not read");
        assert!(close(wait(r, &mut gate, &host, 0.0, RETRY_120, 10.0), 20.0), "Retry-After not read");
        assert!(close(wait(r, &mut gate, &host, 0.0, REFUSED, 10.0), 40.0));
        assert!(close(wait(r, &mut gate, &host, 0.0, Answer::Ok { seconds: 0.4 }, 10.0), 40.0), "twice the fastest is not slow");
        assert!(close(wait(r, &mut gate, &host, 0.0, Answer::Ok { seconds: 0.41 }, 10.0), 50.0), "over twice is");
        for _ in 0..9 {
            assert!(close(wait(r, &mut gate, &host, 0.0, quick, 10.0), 50.0));
        }
        assert!(close(wait(r, &mut gate, &host, 0.0, quick, 10.0), 40.0));
        // 40 → 32 → 25.6 → 20.48 → 16.4 → 13.1 → 10.5 → 10: seven steps of ten answers
        for _ in 0..69 {
            wait(r, &mut gate, &host, 0.0, quick, 10.0);
        }
        assert!(close(wait(r, &mut gate, &host, 0.0, quick, 10.0), 10.0), "seventy quick answers bring it back to P");
        for _ in 0..20 {
            assert!(close(wait(r, &mut gate, &host, 0.0, quick, 10.0), 10.0), "never below P");
        }
        assert!(!r.honours_retry_after() && !r.honours_crawl_delay() && !r.skips(&host, &CrawlDelayRule::up_to(30.0)));
    }

    /// With P = 0 a refusal still slows MERGE and Google: from a second, doubling (by
    /// hand: 2 s, 4 s; Google's slow answer 1.25 s), and calm answers bring it back to 0.
    #[test]
    fn without_politeness_a_refusal_still_backs_off() {
        let host = Host::default();
        for r in [Reaction::Merge, Reaction::Google] {
            let mut gate = HostGate::default();
            assert!(close(wait(r, &mut gate, &host, 0.0, OK, 0.0), 0.0));
            assert!(close(wait(r, &mut gate, &host, 0.0, REFUSED, 0.0), 2.0), "{r:?}");
            assert!(close(wait(r, &mut gate, &host, 0.0, REFUSED, 0.0), 4.0), "{r:?}");
        }
        let mut gate = HostGate::default();
        wait(Reaction::Google, &mut gate, &host, 0.0, Answer::Ok { seconds: 0.1 }, 0.0);
        assert!(close(wait(Reaction::Google, &mut gate, &host, 0.0, Answer::Ok { seconds: 1.0 }, 0.0), 1.25));
        let mut gate = HostGate::default();
        wait(Reaction::Merge, &mut gate, &host, 0.0, REFUSED, 0.0);
        for _ in 0..10 {
            wait(Reaction::Merge, &mut gate, &host, 0.0, OK, 0.0);
        }
        assert!(close(wait(Reaction::Merge, &mut gate, &host, 0.0, OK, 0.0), 1.0), "halved once: 2 → 1");
    }

    /// Nutch and StormCrawler skip a host whose Crawl-delay is over their cap; the others
    /// never do.
    #[test]
    fn a_crawl_delay_over_the_cap_skips_the_host_for_nutch_and_stormcrawler() {
        let slow = Host { crawl_delay_s: 60.0, ..Host::default() };
        let (cap_30, cap_60) = (CrawlDelayRule::up_to(30.0), CrawlDelayRule::up_to(60.0));
        assert!(Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: -1, cycle_days: 0.0 }.skips(&slow, &cap_30));
        assert!(!Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: -1, cycle_days: 0.0 }.skips(&slow, &cap_60));
        assert!(!Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: -1, cycle_days: 0.0 }.skips(&slow, &CrawlDelayRule::up_to(-1.0)));
        assert!(Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff::SHIPPED }.skips(&slow, &cap_30));
        assert!(!Reaction::Heritrix { delay_factor: 5.0, max_delay_s: 30.0 }.skips(&slow, &cap_30));
        assert!(!Reaction::Merge.skips(&slow, &cap_30));
    }

    /// Nutch FetcherThread (NUTCH-2775): a Crawl-delay shorter than
    /// `fetcher.min.crawl.delay` is raised to it; StormCrawler FetcherBolt: kept as it
    /// is unless `fetcher.server.delay.force` (then the server delay), and with
    /// `fetcher.max.crawl.delay.force` one past the cap is fetched at the cap, not
    /// skipped; with several threads a queue both keep `fetcher.server.min.delay` (by
    /// hand: the next request the gap after a 2 s fetch ends).
    #[test]
    fn the_crawl_delay_is_floored_capped_or_not_read_as_each_fetcher_does() {
        let nutch = Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: -1, cycle_days: 0.0 };
        let storm = Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff::SHIPPED };
        let (quick, slow) = (Host { crawl_delay_s: 1.0, ..Host::default() }, Host { crawl_delay_s: 60.0, ..Host::default() });
        let after = |r: Reaction, host: &Host, gap_s: f64, rule: CrawlDelayRule| (r.next(&mut HostGate::default(), host, 0.0, OK, gap_s, &rule, &mut rng())) / SECOND - 2.0;
        let floored = CrawlDelayRule { floor_s: 5.0, ..CrawlDelayRule::up_to(30.0) };
        assert!(close(after(nutch, &quick, 5.0, floored), 5.0), "raised to fetcher.min.crawl.delay");
        assert!(close(after(nutch, &quick, 5.0, CrawlDelayRule { floor_s: 0.5, ..floored }), 1.0), "kept above it");
        assert!(close(after(storm, &quick, 5.0, CrawlDelayRule::up_to(30.0)), 1.0), "StormCrawler keeps a shorter one");
        assert!(close(after(storm, &quick, 5.0, floored), 5.0), "…but not with fetcher.server.delay.force");
        let forced = CrawlDelayRule { skips_over_cap: false, ..CrawlDelayRule::up_to(30.0) };
        assert!(!storm.skips(&slow, &forced));
        assert!(close(after(storm, &slow, 1.0, forced), 30.0), "fetched at the cap");
        let threads = CrawlDelayRule { spaces: false, ..floored };
        assert!(close(after(nutch, &slow, 0.5, threads), 0.5) && close(after(storm, &quick, 0.5, threads), 0.5), "several threads: the min delay");
        assert!(nutch.skips(&slow, &threads), "…and a long one still skips the host");
    }

    /// StormCrawler's robots pacing (CrawlDelayPolicy, PR #2000): a host over the cap,
    /// fetched at it, is paced at its Crawl-delay by the frontier, 60.5 s as 61 s (the
    /// fetcher reports its whole seconds rounded up), at most the pacing's most (45 s), never
    /// under the cap; one within the cap keeps its own Crawl-delay.
    #[test]
    fn stormcrawlers_frontier_paces_a_host_over_the_cap_at_its_crawl_delay() {
        let paced = |most: f64| Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.0, backoff: StormBackoff { paces_up_to_s: most, ..StormBackoff::SHIPPED } };
        let forced = CrawlDelayRule { skips_over_cap: false, ..CrawlDelayRule::up_to(30.0) };
        let (slow, quick) = (Host { crawl_delay_s: 60.5, ..Host::default() }, Host { crawl_delay_s: 10.0, ..Host::default() });
        assert!(close(paced(86_400.0).gap_s(&slow, 1.0, &forced), 61.0));
        assert!(close(paced(45.0).gap_s(&slow, 1.0, &forced), 45.0));
        assert!(close(paced(20.0).gap_s(&slow, 1.0, &forced), 30.0), "never under the cap it is fetched at");
        assert!(close(paced(0.0).gap_s(&slow, 1.0, &forced), 30.0), "no pacing: the cap");
        assert!(close(paced(86_400.0).gap_s(&quick, 1.0, &forced), 10.0));
    }
}
