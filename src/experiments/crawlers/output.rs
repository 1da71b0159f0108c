//! The crawlers experiment's result, its figures and its table.

use super::CrawlersConfig;
use crate::chart::figure::{Axis, Corner, Dash, Figure, Layer, Paint, Pen, series_pen};
use crate::chart::format::{amount, sig, spread_note, thousands};
use crate::core::model::seed_list::SeedsUsed;
use crate::core::model::webbase::RepositorySummary;
use crate::core::policy::crawler_files::seed_metadata::{KeyUse, NUTCH_FIXED};
use crate::core::policy::crawler_files::tuning::Objective;
use crate::core::policy::crawler_files::{Crawler, Loaded, Setting, scrapy_slots};
use crate::core::policy::pushback::Answers;
use crate::core::sim::redrawn::{self, REDRAWS};
use crate::experiments::{Brief, Figures, Tabular};
use crate::table::{Cell, Table, columns};
use serde::{Deserialize, Serialize};

/// One run: the crawler, or MERGE at its bandwidth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub label: String,
    /// Repository freshness averaged over each time bin (fewer while running).
    pub freshness: Vec<f64>,
    pub complete: bool,
    /// Its time average over the bins done (the cold start included: every page starts
    /// stale).
    pub mean: f64,
    /// Its average over the last quarter of the bins done: where the run has settled.
    pub converged: f64,
    pub requests: u64,
    /// Fetches that found the page unchanged since the previous fetch: bandwidth spent
    /// for nothing.
    pub unchanged: u64,
    /// Requests per day.
    pub bandwidth: f64,
    /// Requests less than P after the previous one to the same server (zero: P kept).
    pub violations: u64,
    /// MERGE's run: the POLITE bound of its allocation (Lemma 4.2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub polite_bound: Option<f64>,
    /// The servers' answers (requests = served + refused), and requests sent before a
    /// Retry-After or a Crawl-delay allowed.
    pub answers: Answers,
    /// Servers never requested: their Crawl-delay over the crawler's cap.
    pub skipped_servers: u64,
    /// Seconds the servers spent over capacity, summed, and how many ever were.
    pub over_capacity_s: f64,
    pub servers_over_capacity: u64,
    /// With Nutch's `generate.topN` or `generate.max.count`: pages due that a cycle's
    /// fetch list left for a later one, counted at each cycle that left them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_off_lists: Option<u64>,
    /// The caps those lists had, by their settings (`generate.topN 500`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub list_caps: String,
    /// With estimated rates, once complete: `mean` with each rate redrawn within its
    /// interval (`core::sim::redrawn`): lowest, median, highest — of the crawler run
    /// again on each redraw, or of MERGE's one schedule counted under each.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spread: Option<[f64; 3]>,
    /// The servers refused some of its requests and its back-off saw none of them:
    /// StormCrawler's QueueRegulatorBolt, whose `metadata.persist` keeps no
    /// `fetch.statusCode` or whose status codes leave out the servers' (its status codes'
    /// setting says which).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refusals_unseen: bool,
}

/// The gap between MERGE and the crawler (freshness over the last quarter), split by
/// cause: the crawler run again without Nutch's batch cycles, then also on servers
/// without limits; what remains is its revisit rule. Each part is the freshness the
/// removal gained (a sequential split: another order would share it otherwise).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GapSplit {
    pub total: f64,
    /// Nutch's batch cycles (None: none set).
    pub cycles: Option<f64>,
    /// The crawler's requests without its cycles over its own (with `generate.topN` the
    /// cycles cap its bandwidth: without them it may make many more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests_without_cycles: Option<f64>,
    /// The servers' limits and the crawler's back-off from them (None: no server has any).
    pub limits: Option<f64>,
    /// The revisit rule: MERGE's schedule against the crawler's on free servers (MERGE
    /// meets the servers' limits, so a part they cost MERGE is counted here, less).
    pub revisit: f64,
    /// Not in the gap (MERGE keeps the same P): what politeness costs the optimum at this
    /// bandwidth, UNPOLITE bound − POLITE bound (Lemma 4.2).
    pub politeness_cost: f64,
    /// Not in the gap either (MERGE keeps them too): what the servers' own Crawl-delays
    /// and capacities cost the optimum beyond P (None: MERGE does not know them).
    #[serde(default)]
    pub limits_cost: Option<f64>,
    /// The share of each server's capacity MERGE loads it to at most (`merge_load`).
    #[serde(default = "full_load")]
    pub merge_load: f64,
}

fn full_load() -> f64 {
    1.0
}

/// One server in one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerRun {
    pub requests: u64,
    pub refused: u64,
    /// Seconds it spent over capacity (from each refusal until one more request fits).
    pub over_capacity_s: f64,
    /// Its pages' weighted freshness averaged over the run (the cold start included).
    pub freshness: f64,
}

/// A server's part of the gap between the crawler and MERGE: its weight's share of
/// the repository times the difference of its freshness over the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServerGap {
    /// Its name in the page list (else `server k`, from 1).
    pub name: String,
    pub pages: u64,
    pub weight_share: f64,
    /// Its limits: robots.txt Crawl-delay (s), capacity (requests a second; None: no
    /// limit), idle response time (ms).
    pub crawl_delay_s: f64,
    pub capacity: Option<f64>,
    pub response_ms: f64,
    /// Whether the crawler skipped it (its Crawl-delay over the crawler's cap).
    pub skipped: bool,
    pub crawler: ServerRun,
    pub merge: ServerRun,
    /// Points of the repository's freshness over the run (weight share × difference).
    pub gap: f64,
}

impl RunResult {
    /// What held the crawler back besides its rule, in words: its servers' push-back and
    /// Nutch's fetch lists ("" when nothing did).
    pub fn held_back_words(&self) -> String {
        let a = &self.answers;
        let mut said = Vec::new();
        if let Some(left) = self.left_off_lists.filter(|&n| n > 0) {
            said.push(format!("{} pages due left off a cycle's fetch list ({}), each counted at each cycle", thousands(left as f64), self.list_caps));
        }
        if a.refused > 0 {
            let unseen = if self.refusals_unseen { ", none seen by StormCrawler's back-off, which so blocked no host" } else { "" };
            said.push(format!("{} refused ({} % of requests){unseen}", thousands(a.refused as f64), sig(100.0 * a.refused as f64 / self.requests.max(1) as f64, 3)));
        }
        if a.before_retry_after > 0 {
            said.push(format!("{} sent before a Retry-After allowed", thousands(a.before_retry_after as f64)));
        }
        if a.under_crawl_delay > 0 {
            said.push(format!("{} sooner than a Crawl-delay allowed", thousands(a.under_crawl_delay as f64)));
        }
        if self.skipped_servers > 0 {
            said.push(format!("{} servers never requested (their Crawl-delay over the cap)", thousands(self.skipped_servers as f64)));
        }
        if self.servers_over_capacity > 0 {
            let hours = sig(self.over_capacity_s / 3600.0, 3);
            said.push(format!(
                "{} server{} over capacity for {hours} {} in all",
                thousands(self.servers_over_capacity as f64),
                if self.servers_over_capacity == 1 { "" } else { "s" },
                if hours == "1" { "hour" } else { "hours" }
            ));
        }
        if a.response_s > 0.0 && self.requests > 0 {
            said.push(format!("answers in {} s on average", sig(a.response_s / self.requests as f64, 3)));
        }
        said.join(", ")
    }

    /// The share of fetches that found nothing new.
    pub fn wasted_share(&self) -> f64 {
        if self.requests == 0 { 0.0 } else { self.unchanged as f64 / self.requests as f64 }
    }
}

/// A setting the tuning changed: its value in the file as loaded (or the shipped
/// default) and in the tuned file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedChange {
    pub name: String,
    pub from: String,
    pub to: String,
}

/// The tuned configuration to take home.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tuned {
    /// The name the crawler gives the file (`nutch-site.xml`).
    pub file_name: String,
    /// The file: the one loaded with the changes made (each marked by a comment).
    pub text: String,
    /// The changes (none: nothing the search tried did better within the budget).
    pub changes: Vec<TunedChange>,
    /// The freshness the search maximised.
    pub objective: Objective,
    /// That freshness and the requests, as the search measured them.
    pub predicted: (f64, u64),
    /// The same, re-simulated from the file read back by the crawler's parser.
    pub confirmed: Option<(f64, u64)>,
    /// The requests the file as loaded made: no candidate may make more.
    pub budget: u64,
    /// The requests the servers refused the file as loaded: no candidate may be refused
    /// more often.
    #[serde(default)]
    pub refusals: u64,
    /// Runs the search made, and the candidates they fitted to the budget.
    pub runs: usize,
    pub candidates: usize,
    /// The freshest candidate within the budget and its requests, kept or not (what the
    /// search came closest with when nothing beat the file as loaded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub freshest: Option<(f64, u64)>,
    /// Where a host file or seed list written beside the tuned file was kept: the tuned
    /// file without it, its freshness and requests as the search measured them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settings_alone: Option<(f64, u64)>,
    /// Nutch on named hosts: each host's own bounds, tried last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hosts: Option<TunedHosts>,
    /// Nutch or StormCrawler on a page list: each page's fixed interval in a seed list,
    /// tried very last.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<TunedSeeds>,
    /// Nutch's MimeAdaptiveFetchSchedule: its rates by type, moved with the fit (None:
    /// no type's rate moved).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mimes: Option<TunedMimes>,
    /// The last candidates not tried (a host file, sheets, a seed list), each with why.
    #[serde(default)]
    pub untried: Vec<String>,
    /// With estimated rates: the tuned files against yours on the same redraws of the
    /// rates (set once both have run on every redraw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redrawn: Option<TunedRedrawn>,
}

/// The search scores its candidates on the estimated rates; the records leave each rate
/// anywhere in its interval. The tuned files and yours, run again on the same redraws of
/// the rates within their intervals (`core::sim::redrawn`), compared redraw by redraw on
/// the freshness the search scored: how often the tuning's gain survives rates the
/// records do not pin down.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedRedrawn {
    /// Redraws on which the tuned files kept the pages fresher than yours, of all.
    pub fresher: usize,
    pub redraws: usize,
    /// The tuned files' freshness less yours on each redraw: lowest, median, highest.
    pub difference: [f64; 3],
}

impl TunedRedrawn {
    /// Each redraw's (yours, tuned) freshness as the search scored it.
    pub fn of(pairs: &[(f64, f64); REDRAWS]) -> TunedRedrawn {
        let difference = pairs.map(|(yours, tuned)| tuned - yours);
        TunedRedrawn { fresher: difference.iter().filter(|d| **d > 0.0).count(), redraws: REDRAWS, difference: redrawn::spread(difference, 1.0) }
    }

    /// In words, the freshness compared as `objective` scores it.
    pub fn words(&self, objective: Objective) -> String {
        let [lo, mid, hi] = self.difference;
        format!(
            "with the rates redrawn within their intervals ({} times), the tuned files kept the pages fresher than yours {} on {} of them (by {lo:+.4} to {hi:+.4}, median {mid:+.4})",
            self.redraws,
            objective.words(),
            self.fresher
        )
    }
}

/// The seed list the tuning wrote (Nutch's Injector's or StormCrawler's format): each page
/// its interval fixed (`nutch.fetchInterval.fixed`, `scheduler.delay.mins`) at the
/// optimum's for it, stretched to the budget, and what it gave with the best settings
/// found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedSeeds {
    pub file_name: String,
    /// The key that fixes each page's interval.
    pub key: String,
    pub text: String,
    pub pages: u64,
    /// The shortest and the longest interval it gives, in seconds (pages never
    /// refetched aside).
    pub shortest_s: u64,
    pub longest_s: u64,
    /// Pages never refetched (StormCrawler's -1: pages the optimum never requests).
    pub never: u64,
    /// The tuning's freshness and requests with it, fitted to the budget (None: no fit
    /// within it).
    pub tried: Option<(f64, u64)>,
    /// With no fit: the freshest run within the requests, and its refusals, more than
    /// the file as loaded's.
    #[serde(default)]
    pub ruder: Option<(f64, u64, u64)>,
    /// Whether it kept the pages fresher than the settings (and host bounds) alone.
    pub kept: bool,
}

impl TunedSeeds {
    /// In words, beside the file as loaded's `refusals`.
    pub fn words(&self, refusals: u64) -> String {
        let tried = tried_words(self.tried, self.ruder, refusals);
        let verdict = match (self.kept, self.key.as_str()) {
            (false, _) if self.tried.is_none() => "not kept",
            (false, _) => "not fresher than the settings alone: not kept",
            (true, NUTCH_FIXED) => "kept: inject it (bin/nutch inject with -overwrite, so that pages already in the CrawlDb take their interval; --tuned-seeds)",
            (true, _) => {
                "kept: inject it into a new status index (a seed of a URL already known does not replace its metadata) with the tuned file's DefaultScheduler (--tuned-seeds)"
            }
        };
        let never = match self.never {
            0 => String::new(),
            n => format!("; {} never refetched", thousands(n as f64)),
        };
        format!(
            "{} giving each of {} pages its own fixed interval ({}, {} s to {} s{never}) from the optimum's: {tried}; {verdict}",
            self.file_name,
            thousands(self.pages as f64),
            self.key,
            thousands(self.shortest_s as f64),
            thousands(self.longest_s as f64)
        )
    }
}

/// Nutch's `adaptive-mimetypes.txt` as the tuning moved it: each listed type's inc_rate
/// moved with the fit and by the type's own knob (the decrement rates kept).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedMimes {
    pub file_name: String,
    pub text: String,
    /// Each type whose inc_rate moved, from and to.
    pub changes: Vec<TunedChange>,
}

impl TunedMimes {
    pub fn words(&self) -> String {
        let each: Vec<String> = self.changes.iter().map(|c| format!("{} {} → {}", c.name, c.from, c.to)).collect();
        format!("{} with its types' rates moved ({}): write it beside the tuned file (--tuned-mimes)", self.file_name, each.join(", "))
    }
}

/// A last candidate's fitted run in words (`tried`: freshness and requests), or without
/// one, the freshest run within the requests that the servers refused more often than
/// the file as loaded (`refusals`).
fn tried_words(tried: Option<(f64, u64)>, ruder: Option<(f64, u64, u64)>, refusals: u64) -> String {
    match (tried, ruder) {
        (Some((f, r)), _) => format!("{} on {} requests", sig(f, 4), thousands(r as f64)),
        (None, Some((f, r, refused))) => format!(
            "no fit within the budget: at best {} on {} requests, but refused {} times against the file's {}",
            sig(f, 4),
            thousands(r as f64),
            thousands(refused as f64),
            thousands(refusals as f64)
        ),
        (None, None) => "no fit within the budget".into(),
    }
}

/// Nutch's `adaptive-host-specific-intervals.txt` the tuning wrote from the optimum's
/// intervals for each host's pages, and what it gave with the best settings found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedHosts {
    pub file_name: String,
    pub text: String,
    /// Hosts the file bounds, and their pages.
    pub hosts: u64,
    pub pages: u64,
    /// The tuning's freshness (its objective) and requests with the bounds, fitted to the
    /// budget (None: no fit within it).
    pub tried: Option<(f64, u64)>,
    /// With no fit: the freshest run within the requests, and its refusals, more than
    /// the file as loaded's.
    #[serde(default)]
    pub ruder: Option<(f64, u64, u64)>,
    /// Whether they kept the pages fresher than the settings alone: the tuned files are
    /// then both (the confirmation runs them together).
    pub kept: bool,
    /// Written into the tuned file itself (Heritrix's sheets, Scrapy's slots), not beside it.
    #[serde(default)]
    pub inside: bool,
    /// Scrapy's slots under the file's AutoThrottle: each says `'throttle': False`, so
    /// that AutoThrottle (which would move its delay toward the host's latency) leaves it.
    #[serde(default)]
    pub throttled: bool,
    /// Heritrix's gaps rounded up to one of 100 a decade so that hosts share sheets (each
    /// host's own would have passed the 1 MB a crawler's file may have).
    #[serde(default)]
    pub shared_gaps: bool,
    /// Heritrix's sheets giving hosts their own revisit (None: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revisits: Option<TunedRevisits>,
}

/// The hosts Heritrix's tuned sheets give their own revisit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TunedRevisits {
    pub hosts: u64,
    /// The shortest and longest revisit given (seconds), and the hosts never revisited.
    pub shortest_s: u64,
    pub longest_s: u64,
    pub never: u64,
    /// The tuned file turns Heritrix's ReschedulingProcessor on (the file had it off).
    pub turned_on: bool,
}

impl TunedHosts {
    /// In words, beside the file as loaded's `refusals`.
    pub fn words(&self, refusals: u64) -> String {
        let tried = tried_words(self.tried, self.ruder, refusals);
        if self.inside {
            let verdict = match (self.kept, self.tried) {
                (true, _) => "kept: in the tuned file",
                (false, None) => "not kept",
                (false, Some(_)) => "not fresher than the settings alone: not kept",
            };
            let rules = if self.file_name == scrapy_slots::NAME { "Scrapy's DOWNLOAD_SLOTS" } else { "Heritrix's sheets" };
            let held = if self.throttled {
                "each held to a request per 1/capacity, its slot's 'throttle': False keeping your file's AutoThrottle off it (Scrapy 2.11.1 and later; AutoThrottle would move the delay toward the host's latency)"
            } else if self.shared_gaps {
                "each held to a request per 1/capacity rounded up to one of 100 gaps a decade (at most 2.3 % slower), hosts of near capacities sharing a sheet (with a gap of its own each, the sheets would have passed the 1 MB a crawler's file may have)"
            } else {
                "each held to a request per 1/capacity"
            };
            let hosts = |n: u64| format!("{} {}", thousands(n as f64), if n == 1 { "host" } else { "hosts" });
            let mut parts = Vec::new();
            if self.hosts > 0 {
                parts.push(format!("{} over capacity, {held}, the others at the file's gap", hosts(self.hosts)));
            }
            if let Some(r) = &self.revisits {
                let never = if r.never > 0 { format!(", {} never", thousands(r.never as f64)) } else { String::new() };
                let days = |s: u64| sig(s as f64 / 86_400.0, 3);
                let span = match r.hosts > r.never {
                    true if r.shortest_s == r.longest_s => format!(" of {} days", days(r.shortest_s)),
                    true => format!(" from {} to {} days", days(r.shortest_s), days(r.longest_s)),
                    false => String::new(),
                };
                let on = if r.turned_on { ", the ReschedulingProcessor turned on (defined and named in the disposition chain)" } else { "" };
                parts.push(format!("{} each revisited after its own delay (rescheduler.rescheduleDelaySeconds{span}{never}) from the optimum's marginal value for its pages, stretched by one factor to the budget{on}", hosts(r.hosts)));
            }
            return format!("{rules} over {} pages: {}: {tried}; {verdict}", thousands(self.pages as f64), parts.join("; and "));
        }
        let verdict = match (self.kept, self.tried) {
            (true, _) => "kept: write it beside the tuned file (--tuned-hosts)",
            (false, None) => "not kept",
            (false, Some(_)) => "not fresher than the settings alone: not kept",
        };
        format!("{} for {} hosts ({} pages) from the optimum's intervals: {tried}; {verdict}", self.file_name, thousands(self.hosts as f64), thousands(self.pages as f64))
    }
}

impl CrawlersOutput {
    /// The settings the file (or `--set`) gave, with their lines, and the names it gives
    /// that Freshlab does not read (None: the crawler's shipped defaults, nothing ignored).
    fn loaded_words(&self) -> Option<String> {
        let said = |s: &Setting| {
            let over = match s.replaced.as_slice() {
                [] => String::new(),
                [one] => format!("; it replaces line {one}'s"),
                lines => format!("; it replaces lines {}'", lines.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
            };
            let at = match (s.set, &s.file, s.line) {
                (true, ..) => "set over the file".to_string(),
                (false, Some(file), Some(line)) => format!("{file}, line {line}{over}"),
                (false, None, Some(line)) => format!("line {line}{over}"),
                _ => "the file".to_string(),
            };
            format!("{}={} ({at})", s.name, s.value)
        };
        let (aside, given): (Vec<&Setting>, Vec<&Setting>) = self.loaded.settings.iter().filter(|s| s.from_file || s.set).partition(|s| s.aside);
        // entries read but not in this run, those for the same reason together, with it
        let mut why: Vec<(&str, Vec<String>)> = Vec::new();
        for s in aside {
            match why.last_mut() {
                Some((meaning, these)) if *meaning == s.meaning => these.push(said(s)),
                _ => why.push((&s.meaning, vec![said(s)])),
            }
        }
        let ignored: Vec<String> = self.loaded.ignored.iter().map(|(name, line)| format!("{name} (line {line})")).collect();
        let mut words = Vec::new();
        // a setting under which the crawler runs otherwise than the file names: first
        for s in self.loaded.settings.iter().filter(|s| s.overrules) {
            words.push(format!("Run otherwise than your file names: {}: {}", said(s), s.meaning));
        }
        if !given.is_empty() {
            words.push(format!("Settings from your file (every other at the crawler's shipped default): {}", given.into_iter().map(said).collect::<Vec<_>>().join(", ")));
        }
        let passed: Vec<String> = self
            .loaded
            .settings
            .iter()
            .filter(|s| !s.passed_over.is_empty())
            .map(|s| {
                format!("{} ({} {})", s.name, if s.passed_over.len() == 1 { "line" } else { "lines" }, s.passed_over.iter().map(u64::to_string).collect::<Vec<_>>().join(", "))
            })
            .collect();
        if !passed.is_empty() {
            let why = match self.loaded.crawler {
                Crawler::Stormcrawler => "Given null, which StormCrawler reads as not given (the default stands)",
                _ => "Given no value, which Nutch passes over (an earlier line's value or the default stands)",
            };
            words.push(format!("{why}: {}", passed.join(", ")));
        }
        if !why.is_empty() {
            let why: Vec<String> = why.into_iter().map(|(meaning, these)| format!("{}: {meaning}", these.join(", "))).collect();
            words.push(format!("Read from your file but not in this run: {}", why.join("; ")));
        }
        if !ignored.is_empty() {
            words.push(format!("Ignored (not settings Freshlab reads): {}", ignored.join(", ")));
        }
        if !self.loaded.meant.is_empty() {
            let meant: Vec<String> = self.loaded.meant.iter().map(|(name, setting)| format!("{name} for {setting}")).collect();
            words.push(format!("Mistyped? These ignored names are a letter or two from a setting, which keeps its default: {}", meant.join(", ")));
        }
        (!words.is_empty()).then(|| words.join("\n"))
    }
}

impl Tuned {
    /// Whether the tuning kept a host file (its confirmation then runs with it).
    pub fn hosts_kept(&self) -> bool {
        self.hosts.as_ref().is_some_and(|h| h.kept)
    }

    /// The files kept beside the tuned one that fix intervals: the host file, the seed
    /// list or both.
    pub fn beside(&self) -> &'static str {
        match (self.hosts.as_ref().is_some_and(|h| h.kept && !h.inside), self.seeds_kept()) {
            (true, true) => "host file and seed list",
            (true, false) => "host file",
            _ => "seed list",
        }
    }

    /// Whether the tuning kept a seed list (its confirmation then runs with it).
    pub fn seeds_kept(&self) -> bool {
        self.seeds.as_ref().is_some_and(|s| s.kept)
    }

    /// Whether the tuning changed anything: a setting, the rates by type, a host file or a
    /// seed list.
    pub fn changed(&self) -> bool {
        !self.changes.is_empty() || self.mimes.is_some() || self.hosts_kept() || self.seeds_kept()
    }

    /// The candidates' limits: the file as loaded's requests, and its refusals where the
    /// servers refused some.
    fn limits(&self) -> String {
        match self.refusals {
            0 => format!("{} requests", thousands(self.budget as f64)),
            n => format!("{} requests and {} refusals", thousands(self.budget as f64), thousands(n as f64)),
        }
    }

    /// What the tuning found, in words.
    pub fn words(&self) -> String {
        let mut hosts = self.mimes.as_ref().map_or_else(String::new, |m| format!("; {}", m.words()));
        if let Some(h) = &self.hosts {
            hosts.push_str(&format!("; {}", h.words(self.refusals)));
        }
        if let Some(s) = &self.seeds {
            hosts.push_str(&format!("; {}", s.words(self.refusals)));
            let beside = match (self.hosts_kept(), self.mimes.is_some()) {
                (true, true) => "the host file and the rates by type beside it change",
                (true, false) => "the host file beside it changes",
                (false, true) => "the rates by type beside it change",
                (false, false) => "",
            };
            if s.kept && !beside.is_empty() {
                hosts.push_str(&format!(" (it fixes every page's interval: {beside} nothing)"));
            }
        }
        for why in &self.untried {
            hosts.push_str(&format!("; {why}"));
        }
        if let Some(r) = self.redrawn.filter(|_| self.changed()) {
            hosts.push_str(&format!("; {}", r.words(self.objective)));
        }
        if !self.changed() && self.candidates == 0 {
            return format!("tuning: no candidate to try (the file as loaded stands){hosts}");
        }
        if !self.changed() {
            return format!(
                "tuning: none of {} candidates ({} runs) kept the pages fresher on at most {}; the file as loaded is the best found{}{hosts}",
                self.candidates,
                self.runs,
                self.limits(),
                self.freshest.map_or_else(String::new, |(f, r)| format!(" (the freshest candidate: {} {} on {} requests)", sig(f, 4), self.objective.words(), thousands(r as f64)))
            );
        }
        let each: Vec<String> = self.changes.iter().map(|c| format!("{} {} → {}", c.name, if c.from.is_empty() { "unset" } else { &c.from }, c.to)).collect();
        let alone = self.settings_alone.map_or_else(String::new, |(f, r)| {
            let with = if self.mimes.is_some() { format!("{} with the tuned rates by type", self.file_name) } else { self.file_name.clone() };
            format!("; the tuned {with} alone, without the {} beside it: {} on {} requests", self.beside(), sig(f, 4), thousands(r as f64))
        });
        format!(
            "tuning: {} candidates ({} runs) on at most {}; kept {}; freshness {} {} on {} requests (re-simulated from the files read back: {}){alone}{hosts}",
            self.candidates,
            self.runs,
            self.limits(),
            if each.is_empty() { "the settings as loaded".into() } else { each.join(", ") },
            self.objective.words(),
            sig(self.predicted.0, 4),
            thousands(self.predicted.1 as f64),
            self.confirmed.map_or_else(|| "not yet".into(), |(f, r)| format!("{} on {} requests", sig(f, 4), thousands(r as f64)))
        )
    }
}

/// The tuning while it searches.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuningProgress {
    /// Runs done.
    pub runs: usize,
    /// The most runs it may make.
    pub most: usize,
    /// The best freshness found so far (the file as loaded's at first), as the tuning
    /// scores it.
    pub freshness: f64,
    pub objective: Objective,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CrawlersOutput {
    pub config: CrawlersConfig,
    /// The crawler's settings as run: each with its value and where it came from.
    pub loaded: Loaded,
    pub repository: RepositorySummary,
    /// The gap the crawler keeps between two requests to one server.
    pub politeness_seconds: f64,
    pub bin_days: f64,
    /// The crawler, then MERGE on OPT_POLITE at its bandwidth, then the tuned file's run.
    pub runs: Vec<RunResult>,
    /// The servers where the crawler loses most against MERGE, largest part first
    /// (once both have run), and how many servers there are in all.
    #[serde(default)]
    pub servers: Vec<ServerGap>,
    /// The gap split by cause, once its runs are done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<GapSplit>,
    /// Why the gap is not split, when a run of the split was stopped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_unsplit: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuned: Option<Tuned>,
    /// Where the tuned file keeps fewer pages fresh than yours by the freshness the search
    /// did not score ([`Self::other_objective_note`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuned_note: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuning: Option<TuningProgress>,
    /// Nutch's per-host interval bounds as used (with the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_intervals: Option<HostBoundsUsed>,
    /// Heritrix's sheets over the pages' hosts, as used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sheets: Option<SheetsUsed>,
    /// What a seed list did to the page list's pages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seeds: Option<SeedsUsed>,
    /// The keys of the pages' metadata (a page list's column), with their pages and what
    /// each does under the crawler.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metadata: Vec<KeyUse>,
    pub done: bool,
}

/// What a seed list did to the page list's pages, in words.
pub fn seeds_said(used: &SeedsUsed) -> String {
    let pages = if used.pages == 1 { "page" } else { "pages" };
    let mut said = format!("The seed list gives {} of the page list's {} {pages}", thousands(used.matched as f64), thousands(used.pages as f64));
    if used.replaced > 0 {
        said.push_str(&format!(", {} of them in place of the page list's own metadata", thousands(used.replaced as f64)));
    }
    if used.unmatched_count > 0 {
        let more = if used.unmatched_count > used.unmatched.len() as u64 { ", …" } else { "" };
        let n = used.unmatched_count;
        said.push_str(&format!("; {} {} not in the page list, not run ({}{more})", thousands(n as f64), if n == 1 { "seed is" } else { "seeds are" }, used.unmatched.join(", ")));
    }
    said
}

/// What Heritrix's sheets covered: the SURT prefixes Freshlab applies, the hosts under
/// some (and their pages), and the prefixes none of the pages falls under.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetsUsed {
    pub prefixes: u64,
    /// DecideRuledSheetAssociations whose rules Freshlab evaluates.
    #[serde(default)]
    pub decide_rules: u64,
    pub hosts: u64,
    pub pages: u64,
    pub unmatched: Vec<String>,
    /// Hosts more than one rule gives a setting the others give too, where the crawler
    /// takes either (StormCrawler's patterns; Freshlab the first in the file).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ambiguous: u64,
    /// The same in words, for the page.
    pub said: String,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl SheetsUsed {
    /// For `crawler`'s rules: Heritrix's SURT prefixes and decide-ruled associations,
    /// Scrapy's slots, StormCrawler's patterns (`ambiguous`: hosts two of them match).
    pub fn of(crawler: Crawler, [prefixes, decide_rules, hosts, pages, ambiguous]: [u64; 5], unmatched: Vec<String>) -> Self {
        let missing = match unmatched.len() {
            0 => String::new(),
            n if crawler == Crawler::Scrapy => {
                format!("; {n} {} of none of the pages ({})", if n == 1 { "is" } else { "are" }, unmatched.iter().take(20).cloned().collect::<Vec<_>>().join(", "))
            }
            n if crawler == Crawler::Stormcrawler => {
                format!("; {n} {} none of the pages' hosts ({})", if n == 1 { "matches" } else { "match" }, unmatched.iter().take(20).cloned().collect::<Vec<_>>().join(", "))
            }
            n => format!("; {n} {} none of the pages ({})", if n == 1 { "covers" } else { "cover" }, unmatched.iter().take(20).cloned().collect::<Vec<_>>().join(", ")),
        };
        let (whose, one, many) = match crawler {
            Crawler::Scrapy => ("Scrapy's DOWNLOAD_SLOTS", "slot", "slots"),
            Crawler::Stormcrawler => ("StormCrawler's fetcher.maxThreads", "pattern", "patterns"),
            _ => ("Heritrix's sheets", "SURT prefix", "SURT prefixes"),
        };
        let ruled = match decide_rules {
            0 => String::new(),
            1 => " and 1 association by decide rules".to_string(),
            n => format!(" and {n} associations by decide rules"),
        };
        let either = match ambiguous {
            0 => String::new(),
            n => format!(
                "; {} {} more than one pattern, taking the first in the file here (StormCrawler takes either: it keeps its patterns in a HashMap, without order)",
                thousands(n as f64),
                if n == 1 { "host matches" } else { "hosts match" }
            ),
        };
        let said = format!(
            "{whose}: {} {}{ruled} set {} {} ({} pages) apart from the {} settings{missing}{either}",
            prefixes,
            if prefixes == 1 { one } else { many },
            thousands(hosts as f64),
            if hosts == 1 { "host" } else { "hosts" },
            thousands(pages as f64),
            if crawler == Crawler::Heritrix { "crawl's" } else { "file's" }
        );
        SheetsUsed { prefixes, decide_rules, hosts, pages, unmatched, ambiguous, said }
    }
}

/// What `adaptive-host-specific-intervals.txt` bound: its hosts, those with pages here,
/// and the hosts it names that have none (the first 20).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostBoundsUsed {
    pub hosts: u64,
    pub matched: u64,
    pub pages: u64,
    pub unmatched: Vec<String>,
    /// Hosts with pages whose shortest interval lies past db.fetch.interval.max (with
    /// their lines): Nutch forces their pages to a refetch at the cycles where they fall
    /// due more than it after the generate (refused without cycles).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub past_max: Vec<(String, u64)>,
    /// The same in words (`words`), for the page.
    pub said: String,
}

impl HostBoundsUsed {
    /// What the file bound, and the hosts it names without pages here.
    pub fn of(hosts: u64, matched: u64, pages: u64, unmatched: Vec<String>) -> Self {
        let mut used = HostBoundsUsed { hosts, matched, pages, unmatched, past_max: Vec::new(), said: String::new() };
        used.said = used.words(None);
        used
    }

    /// The same, with the hosts whose shortest interval lies past `refetch_max`.
    pub fn with_past_max(mut self, past_max: Vec<(String, u64)>, refetch_max: Option<f64>) -> Self {
        self.past_max = past_max;
        self.said = self.words(refetch_max);
        self
    }

    /// In words (`refetch_max`: Nutch's db.fetch.interval.max, in days, for the hosts
    /// past it).
    pub fn words(&self, refetch_max: Option<f64>) -> String {
        let past = match (refetch_max, self.past_max.len()) {
            (Some(m), n) if n > 0 => {
                let named: Vec<String> = self.past_max.iter().take(10).map(|(h, line)| format!("{h}, line {line}")).collect();
                format!(
                    "; {n} of them give a shortest interval past db.fetch.interval.max ({} days): Nutch's generate takes a page due more than that after it at once, so those hosts' pages are refetched at every crawl cycle where the interval passes the maximum by more than the cycle; lower their minimum or raise db.fetch.interval.max ({}{})",
                    sig(m, 4),
                    named.join("; "),
                    if n > named.len() { "; …" } else { "" }
                )
            }
            _ => String::new(),
        };
        let missing = if self.unmatched.is_empty() {
            String::new()
        } else {
            format!(
                "; {} name no server of the pages ({}{})",
                thousands((self.hosts - self.matched) as f64),
                self.unmatched.join(", "),
                if (self.hosts - self.matched) as usize > self.unmatched.len() { ", …" } else { "" }
            )
        };
        format!(
            "{} of the {} hosts of {} bound the adaptive intervals of {} pages{past}{missing}",
            thousands(self.matched as f64),
            thousands(self.hosts as f64),
            crate::core::policy::crawler_files::nutch_hosts::FILE_NAME,
            thousands(self.pages as f64)
        )
    }
}

impl GapSplit {
    /// The split in words, in points of freshness.
    pub fn words(&self) -> String {
        let points = |x: f64| format!("{} points", sig(100.0 * x, 3));
        let mut parts = Vec::new();
        if let Some(c) = self.cycles {
            let more = match self.requests_without_cycles {
                Some(r) if r > 1.1 => format!(
                    " (without them it makes {}× its requests: the cycles' fetch lists capped its bandwidth, and MERGE has the crawler's, so the revisit rule's part compares unequal bandwidths)",
                    sig(r, 3)
                ),
                _ => String::new(),
            };
            parts.push(format!("batch cycles {}{more}", points(c)));
        }
        if let Some(l) = self.limits {
            parts.push(format!("servers' limits and back-off {}", points(l)));
        }
        parts.push(format!("the revisit rule {}", points(self.revisit)));
        let headroom = if self.merge_load < 1.0 { format!(" (MERGE loading each to at most {} % of its capacity)", sig(100.0 * self.merge_load, 3)) } else { String::new() };
        let limits = self.limits_cost.map_or(String::new(), |l| format!(", and the servers' own Crawl-delays and capacities{headroom} {} more", points(l)));
        format!(
            "The gap to MERGE, {} over the last quarter, by cause: {}; politeness costs none of it (MERGE keeps the same P) but costs the optimum itself {} at this bandwidth{limits}",
            points(self.total),
            parts.join(", "),
            points(self.politeness_cost)
        )
    }
}

impl CrawlersOutput {
    /// Where the tuned file keeps fewer pages fresh than yours by the freshness the search
    /// did not score (once settled, tuned over the whole run; or the reverse), in words.
    pub fn other_objective_note(&self) -> Option<String> {
        let t = self.tuned.as_ref()?;
        let (yours, tuned) = (self.runs.first()?, self.runs.iter().find(|r| r.label.ends_with(", tuned"))?);
        let (other, why) = match t.objective {
            Objective::WholeRun => {
                (Objective::Settled, "the search scored freshness over the whole run, where its gain comes earlier; tuned for freshness once settled, it scores the last quarter")
            }
            Objective::Settled => (
                Objective::WholeRun,
                "the search scored freshness once settled, and the change costs the crawl's start; tuned for freshness over the whole run, it scores the start too",
            ),
        };
        let (t_other, y_other) = (other.of(tuned.mean, tuned.converged), other.of(yours.mean, yours.converged));
        (t_other < y_other).then(|| format!("{} the tuned file keeps {} of the pages fresh against your file's {}: {why}", other.words(), sig(t_other, 4), sig(y_other, 4)))
    }

    /// The servers where the crawler loses most, in words (None before MERGE has run,
    /// or when it loses nowhere).
    pub fn servers_words(&self) -> Option<String> {
        let losing: Vec<String> = self
            .servers
            .iter()
            .filter(|g| g.gap > 0.0)
            .take(3)
            .map(|g| {
                format!(
                    "{} ({} page{}, {} % of the weight): {} against MERGE's {}, {} points{}",
                    g.name,
                    thousands(g.pages as f64),
                    if g.pages == 1 { "" } else { "s" },
                    sig(100.0 * g.weight_share, 3),
                    sig(g.crawler.freshness, 3),
                    sig(g.merge.freshness, 3),
                    sig(100.0 * g.gap, 3),
                    if g.skipped {
                        ", skipped (its Crawl-delay over the cap)"
                    } else if g.crawler.refused > 0 {
                        ", refused some requests"
                    } else {
                        ""
                    }
                )
            })
            .collect();
        (!losing.is_empty()).then(|| format!("Where the crawler loses most over the run: {}", losing.join("; ")))
    }
}

/// The pen of the k-th run drawn: the crawler's amber dashed, MERGE's blue solid, the
/// tuned file's green dotted (three colours and three patterns), then the rest of the palette.
fn run_pen(k: usize) -> Pen {
    series_pen([4, 0, 2, 1, 3, 5, 6, 7][k % 8] + 8 * (k / 8))
}

impl Figures for CrawlersOutput {
    fn figures(&self) -> Vec<Figure> {
        let horizon = self.config.horizon_days.0;
        let mut layers: Vec<Layer> = self
            .runs
            .iter()
            .enumerate()
            .map(|(k, r)| {
                let line = r.freshness.iter().enumerate().map(|(b, &v)| [(b as f64 + 0.5) * self.bin_days, v]).collect();
                Layer::lines(format!("{}{}", r.label, if r.complete { "" } else { " (running)" }), vec![line], run_pen(k))
            })
            .collect();
        let bound = self.runs.get(1).and_then(|m| m.polite_bound);
        if let Some(b) = bound {
            layers.push(Layer::HLine { label: format!("POLITE bound at its bandwidth {}", sig(b, 4)), y: b, pen: Pen::new(Paint::Foreground, Dash::Dashed) });
        }
        let low = self.runs.iter().flat_map(|r| r.freshness.iter().copied()).fold(bound.unwrap_or(1.0), f64::min);
        let each: Vec<String> = self
            .runs
            .iter()
            .map(|r| {
                let pushed = r.held_back_words();
                format!(
                    "{}: freshness {} over the last quarter ({} over the whole run), {} requests ({} a day), {} % of them to pages that had not changed, {} politeness violations{}",
                    r.label,
                    sig(r.converged, 3),
                    sig(r.mean, 3),
                    thousands(r.requests as f64),
                    amount(r.bandwidth),
                    sig(100.0 * r.wasted_share(), 3),
                    thousands(r.violations as f64),
                    if pushed.is_empty() { String::new() } else { format!("; {pushed}") }
                )
            })
            .collect();
        vec![Figure {
            title: format!("How fresh {} keeps the pages", self.loaded.crawler.label()),
            x: Axis::linear("time (days)", 0.0, horizon),
            y: Axis::linear("freshness (share of pages up to date)", ((low - 0.05) * 10.0).floor().max(0.0) / 10.0, 1.0),
            layers,
            legend: Corner::LowerRight,
            summary: format!(
                "Over {} days on {} pages and {} servers, {}. {}.{}",
                sig(horizon, 4),
                thousands(self.repository.pages as f64),
                thousands(self.repository.servers as f64),
                if self.politeness_seconds > 0.0 {
                    format!("at most one request every {} s per server", sig(self.politeness_seconds, 3))
                } else {
                    "no wait between two requests to a server (the crawler's delay is 0 s)".to_string()
                },
                each.join("; "),
                spread_note(
                    "the freshness over the whole run (the crawler run again on each redraw, as it adapts to what it fetches; MERGE's schedule counted under it)",
                    REDRAWS,
                    &self.runs.iter().filter_map(|r| Some((r.label.clone(), r.spread?))).collect::<Vec<_>>()
                )
            ),
        }]
    }

    fn brief(&self) -> Option<Brief> {
        let rows: Vec<serde_json::Value> = self
            .runs
            .iter()
            .map(|r| {
                serde_json::json!({
                    "run": r.label, "freshness_last_quarter": r.converged, "mean_freshness": r.mean, "requests": r.requests,
                    "unchanged_fetches": r.unchanged, "violations": r.violations,
                    "served": r.answers.ok, "refused": r.answers.refused, "before_retry_after": r.answers.before_retry_after,
                    "under_crawl_delay": r.answers.under_crawl_delay, "skipped_servers": r.skipped_servers,
                    "over_capacity_seconds": r.over_capacity_s, "servers_over_capacity": r.servers_over_capacity,
                    "mean_response_seconds": if r.requests > 0 { r.answers.response_s / r.requests as f64 } else { 0.0 },
                    "mean_freshness_redrawn": r.spread, "left_off_fetch_lists": r.left_off_lists,
                })
            })
            .collect();
        let text = self
            .runs
            .iter()
            .map(|r| {
                let pushed = r.held_back_words();
                let redrawn =
                    r.spread.map(|[lo, _, hi]| format!("; over the whole run {:.4}, {lo:.4} to {hi:.4} with the rates redrawn within their intervals", r.mean)).unwrap_or_default();
                format!(
                    "{}: freshness {:.4} over the last quarter, {} requests, {:.1} % unchanged{}{redrawn}",
                    r.label,
                    r.converged,
                    r.requests,
                    100.0 * r.wasted_share(),
                    if pushed.is_empty() { String::new() } else { format!("; {pushed}") }
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let mut json = serde_json::json!({"runs": rows, "servers": self.servers, "settings": self.loaded.settings, "ignored": self.loaded.ignored});
        if !self.loaded.meant.is_empty() {
            json["meant"] = serde_json::json!(self.loaded.meant);
        }
        let mut text = text;
        if let Some(words) = self.loaded_words() {
            text.push_str(&format!("\n{words}"));
        }
        if let Some(g) = &self.gap {
            json["gap"] = serde_json::json!(g);
            text.push_str(&format!("\n{}", g.words()));
        }
        if let Some(why) = &self.gap_unsplit {
            json["gap_unsplit"] = serde_json::json!(why);
            text.push_str(&format!("\nThe gap to MERGE: {why}"));
        }
        if let Some(words) = self.servers_words() {
            text.push_str(&format!("\n{words}"));
        }
        if let Some(h) = &self.host_intervals {
            json["host_intervals"] = serde_json::json!(h);
            text.push_str(&format!("\n{}", h.said));
        }
        if let Some(sheets) = &self.sheets {
            json["sheets"] = serde_json::json!(sheets);
            text.push_str(&format!("\n{}", sheets.said));
        }
        if let Some(seeds) = &self.seeds {
            json["seeds"] = serde_json::json!(seeds);
            text.push_str(&format!("\n{}", seeds.said));
        }
        if !self.metadata.is_empty() {
            json["metadata"] = serde_json::json!(self.metadata);
            let keys: Vec<String> =
                self.metadata.iter().map(|k| format!("{} ({} {}): {}", k.key, thousands(k.pages as f64), if k.pages == 1 { "page" } else { "pages" }, k.meaning)).collect();
            text.push_str(&format!("\nThe pages' metadata: {}", keys.join("; ")));
        }
        if let Some(t) = &self.tuned {
            json["tuned"] = serde_json::json!({"changes": t.changes, "objective": t.objective, "predicted_freshness": t.predicted.0, "predicted_requests": t.predicted.1,
                "confirmed_freshness": t.confirmed.map(|c| c.0), "confirmed_requests": t.confirmed.map(|c| c.1), "budget": t.budget, "runs": t.runs, "candidates": t.candidates, "freshest_freshness": t.freshest.map(|c| c.0), "freshest_requests": t.freshest.map(|c| c.1), "settings_alone_freshness": t.settings_alone.map(|c| c.0), "settings_alone_requests": t.settings_alone.map(|c| c.1), "untried": t.untried, "refusals": t.refusals, "note": self.tuned_note,
                "redrawn": t.redrawn.filter(|_| t.changed())});
            if let Some(h) = &t.hosts {
                json["tuned"]["hosts"] = serde_json::json!({"file_name": h.file_name, "hosts": h.hosts, "pages": h.pages, "kept": h.kept, "inside": h.inside, "throttled": h.throttled, "revisits": h.revisits,
                    "tried_freshness": h.tried.map(|c| c.0), "tried_requests": h.tried.map(|c| c.1)});
            }
            if let Some(m) = &t.mimes {
                json["tuned"]["mimes"] = serde_json::json!({"file_name": m.file_name, "changes": m.changes});
            }
            if let Some(s) = &t.seeds {
                json["tuned"]["seeds"] = serde_json::json!({"file_name": s.file_name, "key": s.key, "pages": s.pages, "never": s.never, "shortest_seconds": s.shortest_s, "longest_seconds": s.longest_s,
                    "kept": s.kept, "tried_freshness": s.tried.map(|c| c.0), "tried_requests": s.tried.map(|c| c.1)});
            }
            text.push_str(&format!("\n{}", t.words()));
            if let Some(note) = &self.tuned_note {
                text.push_str(&format!("; {note}"));
            }
        }
        Some(Brief { json, text: Some(text) })
    }

    fn file_out(&self, flag: &str) -> Option<String> {
        let tuned = self.tuned.as_ref()?;
        match flag {
            "tuned" => Some(tuned.text.clone()),
            // Heritrix's sheets are in the tuned file itself
            "tuned_hosts" => tuned.hosts.as_ref().filter(|h| h.kept && !h.inside).map(|h| h.text.clone()),
            "tuned_seeds" => tuned.seeds.as_ref().filter(|s| s.kept).map(|s| s.text.clone()),
            "tuned_mimes" => tuned.mimes.as_ref().map(|m| m.text.clone()),
            _ => None,
        }
    }
}

impl Tabular for CrawlersOutput {
    fn table(&self) -> Table {
        let mut rows = Vec::new();
        for r in &self.runs {
            for (k, v) in r.freshness.iter().enumerate() {
                rows.push(vec![r.label.as_str().into(), Cell::Number((k as f64 + 0.5) * self.bin_days), Cell::Number(*v)]);
            }
        }
        Table { columns: columns(&["run", "day", "freshness"]), rows }
    }
}
