//! What a page's metadata changes in a crawler's rule: the keys each crawler reads from
//! its seed list, given as a page list's `metadata` column
//! ([`crate::core::model::page_metadata`]).

use super::{Crawler, Entry, Loaded, MINUTE, Model, SECOND, nutch_mimes, stormcrawler};
use crate::core::model::page_metadata::values;
use crate::core::policy::adaptive::{PageStart, Rule};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// StormCrawler's custom intervals for one `key=value`, merged as DefaultScheduler.init
/// merges them: for any status, for FETCHED, for FETCH_ERROR, in days (∞: -1, never).
/// A page whose metadata matches several takes the first: StormCrawler's order is a
/// HashMap's (none set), Freshlab's the file's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CustomInterval {
    pub key: String,
    pub value: String,
    pub any: Option<f64>,
    pub fetched: Option<f64>,
    pub fetch_error: Option<f64>,
}

/// The custom intervals a StormCrawler file declares, in the file's order (each entry
/// already read by [`stormcrawler::custom`]; statuses Freshlab's servers never give
/// are kept out).
pub fn custom_intervals(entries: &[Entry]) -> Vec<CustomInterval> {
    let mut out: Vec<CustomInterval> = Vec::new();
    for e in entries.iter().filter(|e| !e.null) {
        let Ok(Some(c)) = stormcrawler::custom(&e.name, e.value.trim()) else { continue };
        let days = c.minutes.map_or(f64::INFINITY, |m| f64::from(m) * MINUTE);
        let at = match out.iter().position(|x| x.key == c.key && x.value == c.value) {
            Some(at) => at,
            None => {
                out.push(CustomInterval { key: c.key.into(), value: c.value.into(), any: None, fetched: None, fetch_error: None });
                out.len() - 1
            }
        };
        let slot = match c.status {
            None => &mut out[at].any,
            Some("FETCHED") => &mut out[at].fetched,
            Some("FETCH_ERROR") => &mut out[at].fetch_error,
            Some(_) => continue,
        };
        *slot = Some(days);
    }
    out
}

/// What one key of the pages' metadata did in the run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeyUse {
    pub key: String,
    /// Pages whose metadata gives it.
    pub pages: u64,
    pub meaning: String,
}

/// The pages' own starts: the distinct ones (None: the rule's), each kind of metadata's
/// index into them, and what each key did.
#[derive(Clone, Debug, PartialEq)]
pub struct Starts {
    pub starts: Vec<Option<PageStart>>,
    pub of_kind: Vec<u16>,
    pub keys: Vec<KeyUse>,
}

/// The starts the pages' metadata gives under the crawler `loaded` running `model` (its
/// file's, or a tuning candidate's; `kinds`: canonical metadata texts, `pages`: each
/// kind's pages). Err: the first kind whose metadata the crawler cannot take, and why.
pub fn starts(loaded: &Loaded, model: &Model, kinds: &[String], pages: &[u64]) -> Result<Starts, (usize, String)> {
    let mut table = StartTable::default();
    let mut of_kind = Vec::with_capacity(kinds.len());
    for (k, kind) in kinds.iter().enumerate() {
        let start = start_of(loaded, model, kind).map_err(|why| (k, why))?;
        if loaded.crawler == Crawler::Nutch {
            injected_score(kind).map_err(|why| (k, why))?;
        }
        of_kind.push(table.index(start).ok_or_else(|| (k, format!("gives pages more than {} different custom intervals; give fewer", u16::MAX)))?);
    }
    let starts = table.starts;
    let mut keys: Vec<KeyUse> = Vec::new();
    for (kind, &n) in kinds.iter().zip(pages) {
        let mut seen: Vec<&str> = Vec::new();
        for key in kind.split('\t').filter_map(|p| p.split_once('=')).map(|(k, _)| k) {
            if n == 0 || seen.contains(&key) {
                continue;
            }
            seen.push(key);
            match keys.iter_mut().find(|u| u.key == key) {
                Some(u) => u.pages += n,
                None => keys.push(KeyUse { key: key.into(), pages: n, meaning: meaning(loaded, model, key) }),
            }
        }
    }
    Ok(Starts { starts, of_kind, keys })
}

/// A start as a key (its numbers' bits).
type StartKey = (u64, bool, Option<u64>, Option<[u64; 2]>);

/// Distinct starts, each given an index once.
#[derive(Default)]
pub struct StartTable {
    pub starts: Vec<Option<PageStart>>,
    index: HashMap<StartKey, u16>,
}

impl StartTable {
    /// `start`'s index (None past u16's range).
    pub fn index(&mut self, start: Option<PageStart>) -> Option<u16> {
        let key = start.map_or((u64::MAX, false, None, None), |s| (s.initial.to_bits(), s.fixed, s.later.map(f64::to_bits), s.rates.map(|r| r.map(f64::to_bits))));
        if let Some(&i) = self.index.get(&key) {
            return Some(i);
        }
        let i = u16::try_from(self.starts.len()).ok()?;
        self.starts.push(start);
        self.index.insert(key, i);
        Some(i)
    }
}

/// Nutch's Injector: the page's `nutch.score` (None: not given, `db.score.injected`).
pub fn injected_score(kind: &str) -> Result<Option<f64>, String> {
    values(kind, "nutch.score")
        .next()
        .map(|v| v.parse::<f64>().ok().filter(|s| s.is_finite()).ok_or_else(|| format!("nutch.score={v} must be a number (the page's injected score)")))
        .transpose()
}

/// Nutch's `db.score.injected`: the score of a page injected without `nutch.score`.
pub const SCORE_INJECTED: f64 = 1.0;

/// The page's Content-Type in its metadata (as given, before cleaning), if any.
pub fn content_type(kind: &str) -> Option<&str> {
    values(kind, "Content-Type").next()
}

/// A page's start from its metadata (a canonical text) under `loaded` running `model`
/// (None: its metadata changes nothing, the rule's).
pub fn start_of(loaded: &Loaded, model: &Model, kind: &str) -> Result<Option<PageStart>, String> {
    let i = model.intervals;
    let mut start = PageStart { initial: i.initial, fixed: false, later: None, rates: None };
    let mut own = false;
    match loaded.crawler {
        Crawler::Nutch => {
            // Injector: nutch.fetchInterval sets the page's interval (seconds); then
            // nutch.fetchInterval.fixed sets it and marks it fixed
            if let Some(v) = values(kind, "nutch.fetchInterval").next() {
                let seconds: u32 = v
                    .parse()
                    .ok()
                    .filter(|&s| s > 0)
                    .ok_or_else(|| format!("nutch.fetchInterval={v} must be a whole number of seconds above 0 (the Injector's custom interval)"))?;
                start.initial = f64::from(seconds) * SECOND;
                own = true;
            }
            if let Some(v) = values(kind, NUTCH_FIXED).next() {
                let seconds: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| format!("nutch.fetchInterval.fixed={v} must be a number of seconds above 0 (an interval AdaptiveFetchSchedule keeps)"))?;
                start.initial = seconds * SECOND;
                start.fixed = i.rule == Rule::Nutch;
                own = true;
                if let Some(m) = i.refetch_max.filter(|&m| start.fixed && start.initial > m && i.cycle == 0.0) {
                    return Err(format!(
                        "nutch.fetchInterval.fixed={v} is past db.fetch.interval.max ({} s): Nutch forces such a page to a refetch at every generate cycle, so set Nutch's batch cycle (nutch_cycle_hours) to run it, or give a fixed interval of at most {} s",
                        m / SECOND,
                        m / SECOND
                    ));
                }
            }
            // MimeAdaptiveFetchSchedule.setFetchSchedule: the rates of the page's type
            // (cleaned as MimeUtil.cleanMimeType does) where the file lists it, as a
            // tuning moves them (the file it writes, read back, gives the same)
            if let Some(t) = content_type(kind).filter(|_| model.by_type && i.rule == Rule::Nutch) {
                let typed = nutch_mimes::clean(t);
                if let Some((k, r)) = loaded.mime_rates.iter().enumerate().find(|(_, r)| r.mime == typed) {
                    start.rates = Some(r.scaled(model.share_of_type(k)));
                    own = true;
                }
            }
        }
        Crawler::Stormcrawler => {
            // DefaultScheduler.schedule: scheduler.delay.mins first, for every status
            if let Some(v) = values(kind, STORMCRAWLER_DELAY).next() {
                let minutes = match v {
                    "-1" => f64::INFINITY,
                    _ => f64::from(
                        v.parse::<u32>()
                            .ok()
                            .filter(|&m| m > 0)
                            .ok_or_else(|| format!("scheduler.delay.mins={v} must be a whole number of minutes above 0, or -1 never to refetch"))?,
                    ),
                };
                start.initial = minutes * MINUTE;
                start.later = Some(minutes * MINUTE);
                own = true;
            } else if let Some(c) = loaded.custom_intervals.iter().find(|c| values(kind, &c.key).any(|v| v == c.value)) {
                // checkCustomInterval: the first that matches, for the status, else for any
                let (fetched, error) = (c.fetched.or(c.any), c.fetch_error.or(c.any));
                start.initial = fetched.unwrap_or(i.initial);
                start.later = error;
                own = fetched.is_some() || error.is_some();
            }
        }
        Crawler::Heritrix | Crawler::Scrapy => {}
    }
    Ok(own.then_some(start))
}

/// Nutch's seed-list key for an interval AdaptiveFetchSchedule keeps (Injector).
pub const NUTCH_FIXED: &str = "nutch.fetchInterval.fixed";

/// StormCrawler's metadata key for a page's own interval, which DefaultScheduler.schedule
/// reads before any other (minutes; -1: never refetch).
pub const STORMCRAWLER_DELAY: &str = "scheduler.delay.mins";

/// How a crawler's seed list fixes one page's interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FixedKey {
    pub key: &'static str,
    /// Its unit, in days.
    pub unit: f64,
    /// The keys it stands for: any the page held is replaced.
    replaces: &'static [&'static str],
    /// How to say "never refetch" (None: the crawler has no such value).
    pub never: Option<&'static str>,
}

/// The key `crawler`'s seed list fixes a page's interval with (None: it has none):
/// Nutch's Injector `nutch.fetchInterval.fixed` in seconds (AdaptiveFetchSchedule keeps
/// it; DefaultFetchSchedule keeps any); StormCrawler's `scheduler.delay.mins` in minutes
/// (DefaultScheduler's alone: AdaptiveScheduler adapts it).
pub fn fixed_key(crawler: Crawler) -> Option<FixedKey> {
    match crawler {
        Crawler::Nutch => Some(FixedKey { key: NUTCH_FIXED, unit: SECOND, replaces: &["nutch.fetchInterval", NUTCH_FIXED], never: None }),
        Crawler::Stormcrawler => Some(FixedKey { key: STORMCRAWLER_DELAY, unit: MINUTE, replaces: &[STORMCRAWLER_DELAY], never: Some("-1") }),
        Crawler::Heritrix | Crawler::Scrapy => None,
    }
}

/// A page's metadata (a canonical text) with its interval fixed at `value` units of
/// `key` (None: never refetched): any interval `key` stands for replaced, the other pairs
/// kept in order.
pub fn with_fixed_interval(kind: &str, key: &FixedKey, value: Option<u64>) -> String {
    let kept = kind.split('\t').filter(|p| !p.is_empty() && !p.split_once('=').is_some_and(|(k, _)| key.replaces.contains(&k)));
    let value = value.map_or_else(|| key.never.unwrap_or("-1").to_string(), |v| v.to_string());
    kept.chain(std::iter::once(format!("{}={value}", key.key).as_str())).collect::<Vec<_>>().join("\t")
}

/// A seed list (Nutch's Injector's and StormCrawler's format: the URL, then its `key=value`
/// pairs, separated by tabs; a line starting with `#` is a comment), from `pages`' names and metadata.
pub fn seed_list<'a>(about: &str, pages: impl Iterator<Item = (&'a str, &'a str)>) -> String {
    let mut text: String = about.lines().map(|l| format!("# {l}\n")).collect();
    for (name, kind) in pages {
        text.push_str(name);
        if !kind.is_empty() {
            text.push('\t');
            text.push_str(kind);
        }
        text.push('\n');
    }
    text
}

/// What `key` of a page's metadata does under `loaded` running `model`.
fn meaning(loaded: &Loaded, model: &Model, key: &str) -> String {
    let rule = model.intervals.rule;
    let said = match (loaded.crawler, key) {
        (Crawler::Nutch, "nutch.fetchInterval") => "the page's first interval (seconds): the Injector's custom interval, which the schedule then adapts",
        (Crawler::Nutch, "nutch.fetchInterval.fixed") if rule == Rule::Nutch => {
            "an interval AdaptiveFetchSchedule keeps as it is (seconds): the page is refetched that often, changed or not"
        }
        (Crawler::Nutch, "nutch.fetchInterval.fixed") => "the page's interval (seconds), which DefaultFetchSchedule keeps",
        (Crawler::Nutch, "nutch.score") => {
            "the page's injected score: a crawl cycle's fetch list (generate.topN, generate.max.count) takes the highest first, a page without one at db.score.injected, 1.0; kept as injected (Freshlab has no links for OPIC to add to it)"
        }
        (Crawler::Nutch, "Content-Type") if model.by_type && !loaded.mime_rates.is_empty() => {
            "the page's type: MimeAdaptiveFetchSchedule adapts a page whose type adaptive-mimetypes.txt lists (the part before any ';', as written there) at the type's inc and dec rates, the others at inc_rate and dec_rate"
        }
        (Crawler::Nutch, "Content-Type") if model.by_type => {
            "the page's type, for MimeAdaptiveFetchSchedule's rates by type: give its adaptive-mimetypes.txt beside the file; without it every page adapts at inc_rate and dec_rate"
        }
        (Crawler::Nutch, "Content-Type") => "the page's type: read by MimeAdaptiveFetchSchedule only (db.fetch.schedule.class), not by this schedule",
        (Crawler::Stormcrawler, "scheduler.delay.mins") => "the page's interval for every status (minutes): DefaultScheduler's first check, AdaptiveScheduler's first interval",
        (Crawler::Stormcrawler, k) if loaded.custom_intervals.iter().any(|c| c.key == k) => "picks the file's custom interval (fetchInterval.key=value) of the value it holds",
        (Crawler::Heritrix | Crawler::Scrapy, _) => "not read: this crawler takes no revisit setting from a page's metadata (Freshlab's recrawl interval applies)",
        _ => "not read by this crawler's revisit rule",
    };
    said.into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::model::page_metadata::canonical;
    use crate::core::policy::crawler_files::read;

    fn storm(yaml: &str) -> Loaded {
        read(Crawler::Stormcrawler, yaml, "crawler_config").unwrap()
    }

    /// DefaultScheduler: scheduler.delay.mins first; then the first custom interval whose
    /// key=value the page holds, its status's or its any-status minutes; a FETCH_ERROR
    /// custom interval is the page's wait after a refusal.
    #[test]
    fn stormcrawlers_custom_intervals_by_metadata() {
        let loaded = storm(
            "config:\n  fetchInterval.isFeed=true: 10\n  fetchInterval.FETCH_ERROR.isFeed=true: 30\n  fetchInterval.FETCHED.lang=fr: 2880\n  fetchInterval.DISCOVERED.lang=en: 5\n",
        );
        assert_eq!(loaded.custom_intervals.len(), 3);
        let start = |m: &str| start_of(&loaded, &loaded.model, &canonical(m).unwrap()).unwrap();
        assert_eq!(start(""), None);
        assert_eq!(start("isFeed=true"), Some(PageStart { initial: 10.0 * MINUTE, fixed: false, later: Some(30.0 * MINUTE), rates: None }));
        assert_eq!(start("isFeed=false"), None);
        // a key holding several values: any of them matches
        assert_eq!(start("lang=de|lang=fr"), Some(PageStart { initial: 2.0, fixed: false, later: None, rates: None }));
        // a status Freshlab's servers never give changes nothing
        assert_eq!(start("lang=en"), None);
        assert_eq!(start("isFeed=true|scheduler.delay.mins=60"), Some(PageStart { initial: 60.0 * MINUTE, fixed: false, later: Some(60.0 * MINUTE), rates: None }));
        assert_eq!(start("scheduler.delay.mins=-1").map(|s| s.initial), Some(f64::INFINITY));
        assert!(start_of(&loaded, &loaded.model, "scheduler.delay.mins=0").unwrap_err().contains("above 0"));
    }

    /// Injector: nutch.fetchInterval (seconds) is the first interval; then
    /// nutch.fetchInterval.fixed sets it and AdaptiveFetchSchedule keeps it.
    #[test]
    fn nutchs_injected_intervals() {
        let adaptive = read(
            Crawler::Nutch,
            "<configuration><property><name>db.fetch.schedule.class</name><value>org.apache.nutch.crawl.AdaptiveFetchSchedule</value></property></configuration>",
            "c",
        )
        .unwrap();
        let start = |l: &Loaded, m: &str| start_of(l, &l.model, &canonical(m).unwrap());
        assert_eq!(start(&adaptive, "nutch.fetchInterval=86400").unwrap(), Some(PageStart { initial: 1.0, fixed: false, later: None, rates: None }));
        assert_eq!(
            start(&adaptive, "nutch.fetchInterval=86400|nutch.fetchInterval.fixed=3600").unwrap(),
            Some(PageStart { initial: 1.0 / 24.0, fixed: true, later: None, rates: None })
        );
        assert_eq!(start(&adaptive, "nutch.score=10").unwrap(), None);
        assert_eq!(injected_score(&canonical("nutch.score=2.5|lang=en").unwrap()), Ok(Some(2.5)));
        assert_eq!(injected_score("lang=en"), Ok(None));
        assert!(injected_score("nutch.score=high").unwrap_err().contains("must be a number"));
        assert!(start(&adaptive, "nutch.fetchInterval=1.5").unwrap_err().contains("whole number of seconds"));
        // past db.fetch.interval.max (90 days): refetched at every cycle, which needs one
        assert!(start(&adaptive, "nutch.fetchInterval.fixed=8640000").unwrap_err().contains("nutch_cycle_hours"));
        let shipped = super::super::shipped(Crawler::Nutch);
        assert_eq!(start(&shipped, "nutch.fetchInterval.fixed=3600").unwrap(), Some(PageStart { initial: 1.0 / 24.0, fixed: false, later: None, rates: None }));
    }

    /// MimeAdaptiveFetchSchedule: the rates of the page's type (before any ';'), where
    /// its file lists the type; a type it does not list, or a schedule that is not it,
    /// keeps inc_rate and dec_rate.
    #[test]
    fn nutchs_rates_by_type() {
        let class = |c: &str| format!("<configuration><property><name>db.fetch.schedule.class</name><value>org.apache.nutch.crawl.{c}</value></property></configuration>");
        let mut mime = read(Crawler::Nutch, &class("MimeAdaptiveFetchSchedule"), "c").unwrap();
        mime.mime_rates = super::super::nutch_mimes::read("text/html\t0.5\t0.1\n").unwrap();
        let start = |l: &Loaded, m: &str| start_of(l, &l.model, &canonical(m).unwrap()).unwrap();
        assert_eq!(start(&mime, "Content-Type=text/html; charset=utf-8").and_then(|s| s.rates), Some([0.5, 0.1]));
        assert_eq!(start(&mime, "Content-Type=application/pdf"), None);
        let mut adaptive = read(Crawler::Nutch, &class("AdaptiveFetchSchedule"), "c").unwrap();
        adaptive.mime_rates = mime.mime_rates.clone();
        assert_eq!(start(&adaptive, "Content-Type=text/html"), None);
    }

    #[test]
    fn every_key_is_said_with_its_pages() {
        let loaded = storm("config:\n  fetchInterval.isFeed=true: 10\n");
        let kinds = vec![String::new(), canonical("isFeed=true|lang=en").unwrap(), canonical("isFeed=false").unwrap()];
        let s = starts(&loaded, &loaded.model, &kinds, &[5, 2, 3]).unwrap();
        assert_eq!(s.of_kind, vec![0, 1, 0]);
        assert_eq!(s.starts, vec![None, Some(PageStart { initial: 10.0 * MINUTE, fixed: false, later: Some(10.0 * MINUTE), rates: None })]);
        assert_eq!(s.keys.iter().map(|k| (k.key.as_str(), k.pages)).collect::<Vec<_>>(), vec![("isFeed", 5), ("lang", 2)]);
        assert!(s.keys[0].meaning.contains("custom interval"));
        assert!(s.keys[1].meaning.contains("not read"));
        let heritrix = super::super::shipped(Crawler::Heritrix);
        assert!(starts(&heritrix, &heritrix.model, &kinds, &[5, 2, 3]).unwrap().keys[0].meaning.contains("no revisit setting"));
        let bad = vec![canonical("scheduler.delay.mins=soon").unwrap()];
        assert_eq!(starts(&loaded, &loaded.model, &bad, &[1]).unwrap_err().0, 0);
    }
}
