//! Deployed crawlers' own configuration files, read with a parser of each format:
//! Nutch's `nutch-site.xml`, StormCrawler's `crawler-conf.yaml`, Heritrix's
//! `crawler-beans.cxml` and Scrapy's `settings.py`. Each crawler's settings are declared
//! once ([`Known`]: the file's name for it, the shipped default, what it sets in the
//! model); a file's value replaces the default, every setting is reported with its
//! value and whether it came from the file, unknown names are listed as ignored, and
//! anything that cannot be read is refused with the line and the fix.

pub mod heritrix;
pub mod heritrix_rules;
pub mod heritrix_sheets;
pub mod java_properties;
pub mod nutch;
pub mod nutch_hosts;
pub mod nutch_mimes;
mod recent;
pub mod scrapy;
pub mod scrapy_slots;
pub mod seed_metadata;
pub mod storm_threads;
pub mod stormcrawler;
pub mod tuning;
pub mod write;
pub mod yaml_map;

use super::adaptive::{Intervals, Rule};
use super::pushback::{CrawlDelayRule, Reaction};
use crate::core::input::{InputError, Letters, edits_within};
use crate::core::labels::labelled;
use crate::core::model::host::Host;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

labelled! {
/// The crawlers whose files Freshlab reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Crawler {
    Nutch => "Apache Nutch (nutch-site.xml)",
    Stormcrawler => "Apache StormCrawler (crawler-conf.yaml)",
    Heritrix => "Heritrix (crawler-beans.cxml)",
    Scrapy => "Scrapy (settings.py)",
}
}

impl Crawler {
    /// Its name in configurations and on the command line (`--crawler nutch`).
    pub fn name(self) -> &'static str {
        match self {
            Crawler::Nutch => "nutch",
            Crawler::Stormcrawler => "stormcrawler",
            Crawler::Heritrix => "heritrix",
            Crawler::Scrapy => "scrapy",
        }
    }
}

/// Files larger than this are not a crawler's configuration (nutch-default.xml, every
/// setting Nutch has, is about 100 KB); the page reads the file at each check of its form
/// (in its worker over 64 K characters), so a parse must stay within a tenth of a second.
pub const MAX_BYTES: usize = 1 << 20;

/// What Freshlab models of a crawler: its revisit rule and how it spaces the requests
/// to one server.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Model {
    pub intervals: Intervals,
    /// The least time between two requests to one server, in seconds, with one
    /// request at a time (Nutch and StormCrawler `fetcher.server.delay`, Scrapy
    /// `DOWNLOAD_DELAY`, Heritrix `minDelayMs`).
    pub server_delay_s: f64,
    /// …and with several at a time (`fetcher.server.min.delay`).
    pub min_delay_s: f64,
    /// Requests one server may have in flight (`fetcher.threads.per.queue`).
    pub threads_per_queue: f64,
    /// robots.txt Crawl-delay honoured up to this many seconds (beyond, Nutch and
    /// StormCrawler skip the server's pages)…
    pub crawl_delay_cap_s: f64,
    /// …StormCrawler fetching them at the cap instead (`fetcher.max.crawl.delay.force`);
    #[serde(default)]
    pub crawl_delay_forced: bool,
    /// a shorter one raised to this (Nutch `fetcher.min.crawl.delay`, StormCrawler
    /// `fetcher.server.delay.force`).
    #[serde(default)]
    pub crawl_delay_floor: DelayFloor,
    /// How it spaces requests by the server's answers and reacts to 429 and 503.
    pub reaction: Reaction,
    /// A page refused with 429 or 503 is tried again this many days later…
    pub retry_days: f64,
    /// …after this many retries at the crawler's next chance (Scrapy `RETRY_TIMES`;
    /// 0 for the others), for the statuses it retries (`RETRY_HTTP_CODES`).
    pub retry_times: u32,
    pub retries_429: bool,
    pub retries_503: bool,
    /// Nutch's MimeAdaptiveFetchSchedule: rates by a page's Content-Type, from its file
    /// beside the configuration ([`nutch_mimes`]).
    #[serde(default)]
    pub by_type: bool,
    /// The tuning's factor on the share of fetches that find a change for every type
    /// adaptive-mimetypes.txt lists (1: the file's rates), as its fit moves `inc_rate`
    /// ([`nutch_mimes::MimeRates::scaled`])…
    #[serde(default = "unscaled")]
    pub type_share: f64,
    /// …and each of the file's first [`TUNED_TYPES`] types' own factor besides (its
    /// knob in the search).
    #[serde(default = "unled")]
    pub type_lead: [f64; TUNED_TYPES],
}

/// What a robots.txt Crawl-delay shorter than the crawler's own gap is raised to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DelayFloor {
    /// Nothing: the Crawl-delay is kept however short (StormCrawler by default).
    #[default]
    None,
    /// The server delay (`fetcher.server.delay`): Nutch's `fetcher.min.crawl.delay` by
    /// default (NUTCH-2775), StormCrawler's with `fetcher.server.delay.force`.
    ServerDelay,
    /// Nutch's `fetcher.min.crawl.delay` as set, in seconds.
    Seconds(f64),
}

/// The types of adaptive-mimetypes.txt (the first in the file) the tuning moves apart.
pub const TUNED_TYPES: usize = 6;

fn unscaled() -> f64 {
    1.0
}

fn unled() -> [f64; TUNED_TYPES] {
    [1.0; TUNED_TYPES]
}

impl Model {
    /// The factor on the share of changed fetches of the file's `k`-th type.
    pub fn share_of_type(&self, k: usize) -> f64 {
        self.type_share * self.type_lead.get(k).copied().unwrap_or(1.0)
    }
}

impl Model {
    /// How its fetcher keeps a server's robots.txt Crawl-delay.
    pub fn crawl_delay_rule(&self) -> CrawlDelayRule {
        let floor_s = match self.crawl_delay_floor {
            DelayFloor::None => 0.0,
            DelayFloor::ServerDelay => self.server_delay_s,
            DelayFloor::Seconds(s) => s,
        };
        CrawlDelayRule { cap_s: self.crawl_delay_cap_s, skips_over_cap: !self.crawl_delay_forced, floor_s, spaces: self.threads_per_queue <= 1.0 }
    }

    /// The gap the crawler keeps between two requests to one server, in seconds: Nutch's
    /// FetchItemQueue waits `crawlDelay` after each request with one thread per queue and
    /// `minCrawlDelay` with more (StormCrawler's FetchItemQueue likewise). Heritrix's
    /// DispositionProcessor.politenessDelayFor caps its wait, the least gap included, at
    /// `maxDelayMs`; Scrapy's AutoThrottle bounds its delay, DOWNLOAD_DELAY included, by
    /// `AUTOTHROTTLE_MAX_DELAY`.
    pub fn politeness_s(&self) -> f64 {
        let gap = if self.threads_per_queue > 1.0 { self.min_delay_s } else { self.server_delay_s };
        match self.reaction {
            Reaction::Heritrix { max_delay_s, .. } | Reaction::Scrapy { autothrottle: true, max_delay_s, .. } => gap.min(max_delay_s),
            _ => gap,
        }
    }

    /// The gap it keeps to one server, in seconds: its own, or a shorter Crawl-delay its
    /// fetcher keeps in its place (StormCrawler's by default, Nutch's over
    /// `fetcher.min.crawl.delay`).
    pub fn own_gap_s(&self, host: &Host) -> f64 {
        let gap = self.politeness_s();
        gap.min(self.reaction.gap_s(host, gap, &self.crawl_delay_rule()))
    }
}

/// One setting a crawler reads from its file, declared once.
pub struct Known {
    /// Its name in the file.
    pub name: &'static str,
    /// The crawler's shipped default, as the file would write it.
    pub default: &'static str,
    /// What it sets in the model ("" where Freshlab reads it but does not model it yet).
    pub meaning: &'static str,
    /// Sets the model from the value's text; the error says what the value must be.
    pub apply: fn(&mut Model, &str) -> Result<(), String>,
}

/// A setting as the run used it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Setting {
    pub name: String,
    pub value: String,
    /// From the file (else the shipped default).
    pub from_file: bool,
    /// Its line in the file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The lines of the same file that give it before: the last wins, as the crawler's
    /// loader reads it (Hadoop's Configuration, a Python module), and these are said.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replaced: Vec<u64>,
    /// The file beside the configuration that gives it (Heritrix's overrides file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The lines that give it a value the crawler passes over (Nutch's empty value,
    /// StormCrawler's null), its `meaning` saying why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub passed_over: Vec<u64>,
    /// What it sets in the model; empty: read, not modelled yet.
    pub meaning: String,
    /// Set over the file by the run's own settings (`crawler_settings`, `--set`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub set: bool,
    /// Read from the file but not in this run (its `meaning` says why): Heritrix's sheet
    /// no association lays, overrides file not given, rescheduler that would not run.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub aside: bool,
    /// Runs the crawler otherwise than another of the file's settings names (its
    /// `meaning` says how): StormCrawler's `metadata.persist` without `signature`, under
    /// which AdaptiveScheduler falls back to DefaultScheduler's interval. Said first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub overrules: bool,
}

/// A crawler's file, read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Loaded {
    pub crawler: Crawler,
    pub model: Model,
    /// Every known setting, from the file or its default, in the declaration's order;
    /// then the file's entries the crawler reads that change nothing on Freshlab's pages,
    /// each saying why (a StormCrawler custom interval by metadata, a Heritrix overrides
    /// file).
    pub settings: Vec<Setting>,
    /// Names the file gives that Freshlab does not read, with their lines.
    pub ignored: Vec<(String, u64)>,
    /// Of those, each that is one or two letters from a setting Freshlab reads, with that
    /// setting (`db.fetch.schedule.adaptive.inc_rat` → `…inc_rate`): a typo there would
    /// keep the setting's default without a word.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meant: Vec<(String, String)>,
    /// StormCrawler's custom intervals by a page's metadata, in the file's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom_intervals: Vec<seed_metadata::CustomInterval>,
    /// Nutch's rates by type (MimeAdaptiveFetchSchedule's file), when given beside it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mime_rates: Vec<nutch_mimes::MimeRates>,
    /// Heritrix's sheets over the hosts their SURT prefixes cover, in the file's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sheets: Vec<heritrix_sheets::SheetRule>,
    /// Heritrix runs the file's ReschedulingProcessor ([`heritrix::rescheduler_idle`]):
    /// a sheet may then give a host its own revisit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reschedules: bool,
}

/// Reads `text` as `crawler`'s configuration file, named `field` in messages.
pub fn read(crawler: Crawler, text: &str, field: &str) -> Result<Loaded, InputError> {
    read_beside(crawler, text, None, [field, field])
}

/// [`read`], with Heritrix's overrides file (its name and text) beside the configuration,
/// checked beforehand ([`heritrix::location`], [`heritrix::located_pairs`]); a value it
/// gives that cannot be taken is refused naming `fields[1]`.
pub fn read_beside(crawler: Crawler, text: &str, overrides: Option<(&str, &str)>, fields: [&str; 2]) -> Result<Loaded, InputError> {
    recent::read(recent::Given { crawler, text, overrides, fields }, || read_anew(crawler, text, overrides, fields))
}

/// [`read_beside`], the file read again.
fn read_anew(crawler: Crawler, text: &str, overrides: Option<(&str, &str)>, fields: [&str; 2]) -> Result<Loaded, InputError> {
    let field = fields[0];
    if text.len() > MAX_BYTES {
        return Err(InputError::new(field, format!("is {} KB, over the {} KB a crawler's configuration may have; is it the right file?", text.len() >> 10, MAX_BYTES >> 10)));
    }
    // Heritrix's beans, parsed once for its settings and its sheets
    let beans = if crawler == Crawler::Heritrix { Some(xml(text, "Heritrix", "beans").map_err(|why| InputError::new(field, why))?) } else { None };
    let entries = match crawler {
        Crawler::Nutch => nutch::entries(text),
        Crawler::Stormcrawler => stormcrawler::entries(text),
        Crawler::Heritrix => beans.as_ref().map_or_else(|| Ok(Vec::new()), |doc| heritrix::entries(doc, overrides)),
        Crawler::Scrapy => scrapy::entries(text),
    }
    .map_err(|e| InputError::new(field, e))?;
    // rules over hosts the file itself gives: Scrapy's slots, StormCrawler's patterns
    let slots = match crawler {
        Crawler::Scrapy => Some(scrapy_slots::read(&entries, text).map_err(|e| InputError::new(field, e))?),
        Crawler::Stormcrawler => Some(storm_threads::read(&entries).map_err(|e| InputError::new(field, e))?),
        _ => None,
    };
    let mut loaded = apply(crawler, entries, fields)?;
    if let Some(slots) = slots {
        loaded.ignored.retain(|(name, _)| name != scrapy_slots::NAME && !name.starts_with(storm_threads::PREFIX));
        loaded.meant.retain(|(name, _)| !name.starts_with(storm_threads::PREFIX));
        return with_sheets(loaded, slots).map_err(|e| InputError::new(field, e));
    }
    let Some(doc) = beans else { return Ok(loaded) };
    let mut sheets = heritrix_sheets::read(&doc).map_err(|e| InputError::new(field, e))?;
    heritrix_revisit(&doc, &mut loaded, &mut sheets);
    with_sheets(loaded, sheets).map_err(|e| InputError::new(field, e))
}

/// Heritrix's revisit ([`heritrix::RESCHEDULE`]) where Heritrix runs it: where the
/// file's ReschedulingProcessor would not run ([`heritrix::rescheduler_idle`]), the
/// crawl's delay and every sheet's are said with why and left out (the recrawl interval
/// beside the file stands in); where it runs, a sheet's delay is laid over the URLs its
/// association covers (a host's, a path's, its decide rules'), each page revisited at
/// its own URL's (ReschedulingProcessor reads the fetched URL's settings).
fn heritrix_revisit(doc: &Xml, loaded: &mut Loaded, sheets: &mut heritrix_sheets::Sheets) {
    let named = |name: &str| name == heritrix::RESCHEDULE;
    let Some(why) = heritrix::rescheduler_idle(doc) else {
        loaded.reschedules = true;
        return;
    };
    if let Some(s) = loaded.settings.iter_mut().find(|s| named(&s.name) && s.from_file) {
        (s.aside, s.meaning) = (true, why.clone());
        let k = heritrix::KNOWN.iter().find(|k| named(k.name)).expect("a known setting");
        (k.apply)(&mut loaded.model, k.default).expect("the default reads");
    }
    for rule in &mut sheets.rules {
        rule.settings.retain(|(name, ..)| !named(name));
    }
    let (idle, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut sheets.entries).into_iter().partition(|(_, e)| named(&e.name));
    sheets.entries = kept;
    sheets.aside.extend(idle.into_iter().map(|(sheet, e)| (Entry { name: format!("{} (sheet {sheet})", e.name), ..e }, why.clone())));
}

/// `loaded` with its rules over hosts (Heritrix's sheets, Scrapy's DOWNLOAD_SLOTS): each
/// setting a rule gives that Freshlab reads listed (its value checked), the others
/// ignored with their lines, and the associations it cannot apply said.
fn with_sheets(mut loaded: Loaded, sheets: heritrix_sheets::Sheets) -> Result<Loaded, String> {
    let crawler = loaded.crawler;
    for (sheet, e) in &sheets.entries {
        let name = match crawler {
            Crawler::Scrapy | Crawler::Stormcrawler => heritrix_sheets::said(crawler, sheet, &e.name),
            _ => format!("{} (sheet {sheet})", e.name),
        };
        let Some(k) = heritrix_sheets::rule_settings(crawler).iter().find(|k| k.name == e.name) else {
            loaded.ignored.push((name, e.line));
            continue;
        };
        // (StormCrawler keeps a pattern's whole number of threads)
        let read = if crawler == Crawler::Stormcrawler { storm_threads::threads(&heritrix_sheets::said(crawler, sheet, &e.name), &e.value) } else { e.value.clone() };
        let mut scratch = loaded.model;
        (k.apply)(&mut scratch, &read).map_err(|why| {
            format!(
                "{} (line {}): {why} (got \"{}\"{}); fix the value or remove the entry",
                heritrix_sheets::said(crawler, sheet, &e.name),
                e.line,
                e.value.trim(),
                placeholder(crawler, &e.value)
            )
        })?;
        // (the rules that lay this setting)
        let over: Vec<String> =
            sheets.rules.iter().filter(|r| r.sheet == *sheet && (crawler == Crawler::Scrapy || r.sets(&e.name))).map(heritrix_sheets::SheetRule::over).collect();
        let meaning = match (&over[..], crawler) {
            (_, Crawler::Scrapy) => format!("for {sheet}'s requests (that host exactly), in place of {}: {}", k.default, k.meaning),
            (_, Crawler::Stormcrawler) => format!(
                "for the hosts {sheet} matches as a whole (Pattern.matches on the queue's id: here each page's server as your page list names it, its URL's host where the row names none, in lower case), in place of {}: {}{}; a host two patterns match takes the first in this file here (StormCrawler either: it keeps its patterns in a HashMap, without order)",
                k.default,
                k.meaning,
                if read == e.value.trim() { String::new() } else { format!("; StormCrawler reads {read} (intValue keeps a fraction's whole part)") }
            ),
            ([], _) => "a sheet that no association Freshlab applies lays over any URL, so not in this run".to_string(),
            (o, _) => format!("over {}: {}", o.join(", "), k.meaning),
        };
        let aside = over.is_empty() && !matches!(crawler, Crawler::Scrapy | Crawler::Stormcrawler);
        loaded.settings.push(Setting {
            name,
            value: if read == e.value.trim() || crawler != Crawler::Stormcrawler { e.value.clone() } else { format!("{} = {read}", e.value.trim()) },
            from_file: true,
            line: Some(e.line),
            replaced: Vec::new(),
            file: None,
            passed_over: Vec::new(),
            meaning,
            set: false,
            aside,
            overrules: false,
        });
    }
    for (e, why) in sheets.aside {
        loaded.settings.push(Setting {
            name: e.name,
            value: e.value,
            from_file: true,
            line: Some(e.line),
            replaced: Vec::new(),
            file: None,
            passed_over: Vec::new(),
            meaning: why,
            set: false,
            aside: true,
            overrules: false,
        });
    }
    loaded.sheets = sheets.rules;
    Ok(loaded)
}

/// The model of `crawler` at its shipped defaults (no file).
pub fn shipped(crawler: Crawler) -> Loaded {
    apply(crawler, Vec::new(), ["", ""]).expect("the shipped defaults read")
}

/// The settings `text` sets over the file (`name=value`, separated by `;` or new lines;
/// blank parts ignored; or as the crawler's command line takes them: [`command_line`]),
/// each a name `crawler` reads; a name given twice or unknown is
/// refused, naming it and the fix.
pub fn overrides(crawler: Crawler, text: &str) -> Result<Vec<(&'static str, String)>, String> {
    let table = known(crawler);
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let lines = text.split([';', '\n']).map(str::trim).filter(|p| !p.is_empty());
    for part in lines.map(|line| command_line(crawler, line)).collect::<Result<Vec<_>, _>>()?.concat() {
        let part = part.as_str();
        let (name, value) = part.split_once('=').ok_or_else(|| format!("“{part}” is not name=value (e.g. fetcher.server.delay=5)"))?;
        let (name, value) = (name.trim(), value.trim());
        if crawler == Crawler::Stormcrawler && name.starts_with(storm_threads::PREFIX) {
            return Err(format!("{name}: a pattern's threads are read from your crawler-conf.yaml, not set over it; add the line to the file"));
        }
        let k = table.iter().find(|k| k.name == name).ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|k| k.name).collect();
            format!("“{name}” is not a setting Freshlab reads for {}; it reads {}", crawler.label(), names.join(", "))
        })?;
        if out.iter().any(|(n, _)| *n == k.name) {
            return Err(format!("{name} is given twice; keep one"));
        }
        if value.is_empty() {
            return Err(format!("{name} has no value; write {name}=<value> or leave it out to keep the file's"));
        }
        let mut scratch = shipped(crawler).model;
        (k.apply)(&mut scratch, value).map_err(|why| format!("{name}: {why} (got \"{value}\")"))?;
        out.push((k.name, value.to_string()));
    }
    Ok(out)
}

/// A line of settings as name=value parts: itself, or where a word of it is the
/// crawler's own option for a setting on its command line, each of its options as the
/// shell splits them: Nutch's `-D name=value` (Hadoop's GenericOptionsParser, which every `bin/nutch`
/// tool runs, and `bin/crawl -D`; also `-Dname=value`), Scrapy's `-s NAME=VALUE`
/// (`scrapy crawl --set`); and Nutch's Generator's `-topN N`, which it writes over
/// `generate.topN`. Anything else on such a line (a whole command pasted) is refused by
/// name.
fn command_line(crawler: Crawler, line: &str) -> Result<Vec<String>, String> {
    let flag = match crawler {
        Crawler::Nutch => "-D",
        Crawler::Scrapy => "-s",
        Crawler::Stormcrawler | Crawler::Heritrix => return Ok(vec![line.to_string()]),
    };
    let top_n = crawler == Crawler::Nutch;
    let option = |word: &str| word == flag || word.strip_prefix(flag).is_some_and(|part| part.contains('=')) || (top_n && word == "-topN");
    if !line.split_whitespace().any(option) {
        return Ok(vec![line.to_string()]);
    }
    let words = shlex::split(line).ok_or_else(|| format!("“{line}” has a quote that is not closed; close it as the shell would"))?;
    let mut parts = Vec::new();
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        if word == flag {
            parts.push(words.next().ok_or_else(|| format!("“{line}” ends with {flag} and no name=value after it"))?);
        } else if top_n && word == "-topN" {
            let n = words.next().ok_or_else(|| format!("“{line}” ends with -topN and no count after it"))?;
            parts.push(format!("generate.topN={n}"));
        } else if let Some(part) = word.strip_prefix(flag) {
            parts.push(part.to_string());
        } else {
            let also = if top_n { " (and the Generator's -topN N)" } else { "" };
            return Err(format!("“{word}” is not a {flag} option; give only the settings, each as {flag} name=value or name=value{also}"));
        }
    }
    Ok(parts)
}

/// The Java getter a crawler reads a setting with, which decides what it makes of the
/// value's text or type: Hadoop's Configuration (Nutch), StormCrawler's ConfUtils.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Getter {
    Int,
    Long,
    Float,
    Boolean,
    Text,
    List,
}

/// A name and value the file gives, with its line.
pub struct Entry {
    pub name: String,
    pub value: String,
    pub line: u64,
    /// The file beside the configuration that gives it (Heritrix's overrides file); None:
    /// the configuration itself.
    pub file: Option<String>,
    /// Hadoop's `<final>true</final>` (Nutch): the file's later lines for it are passed over.
    pub fixed: bool,
    /// A YAML null (StormCrawler: `~`, `null` or nothing), which ConfUtils reads as a
    /// setting not given: the default applies, the line passed over.
    pub null: bool,
}

/// The entry that gives setting `name` its value among `entries`: the last, as each
/// crawler's loader keeps it, but for one Nutch passes over (`skipped`: an empty value,
/// which Hadoop sets no property from) and none after the first final one (Hadoop's
/// loadProperty ignores an attempt to override a final parameter); and the lines so
/// passed over after it.
fn winner<'a>(entries: &'a [Entry], name: &str, skipped: impl Fn(&Entry) -> bool) -> (Option<&'a Entry>, Vec<u64>) {
    let cutoff = entries.iter().position(|e| e.name == name && e.fixed).map_or(entries.len(), |i| i + 1);
    let given = entries[..cutoff].iter().rev().find(|e| e.name == name && !skipped(e));
    (given, entries[cutoff..].iter().filter(|e| e.name == name).map(|e| e.line).collect())
}

/// Every setting a crawler reads: its own, then the fetcher's (Nutch's and
/// StormCrawler's, which share their names).
fn known(crawler: Crawler) -> Vec<&'static Known> {
    let (own, fetcher): (&'static [Known], &'static [Known]) = match crawler {
        Crawler::Nutch => (nutch::KNOWN, &nutch::FETCHER),
        Crawler::Stormcrawler => (stormcrawler::KNOWN, &stormcrawler::FETCHER),
        Crawler::Heritrix => (heritrix::KNOWN, &[]),
        Crawler::Scrapy => (scrapy::KNOWN, &[]),
    };
    own.iter().chain(fetcher).collect()
}

/// The fetcher's settings, named alike by Nutch and StormCrawler (which grew from it):
/// the gap between two requests to a host (`server_delay`: the crawler's default), the
/// gap with several requests in flight, how many, the robots.txt Crawl-delay cap, and
/// what one queue holds.
pub const fn fetcher_settings(server_delay: &'static str) -> [Known; 5] {
    [
        Known { name: "fetcher.server.delay", default: server_delay, meaning: "the gap between two requests to a server, one at a time (seconds)", apply: server_delay_s },
        Known { name: "fetcher.server.min.delay", default: "0.0", meaning: "the gap with several requests at a time (seconds)", apply: min_delay_s },
        Known {
            name: "fetcher.threads.per.queue",
            default: "1",
            meaning: "requests one server may have in flight (more than one: the queue waits fetcher.server.min.delay, and no robots.txt Crawl-delay)",
            apply: threads_per_queue,
        },
        Known {
            name: "fetcher.max.crawl.delay",
            default: "30",
            meaning: "robots.txt Crawl-delay kept up to this (seconds); a host asking for more is skipped (StormCrawler: fetched at this cap with fetcher.max.crawl.delay.force; -1: never skipped, its Crawl-delay kept however long)",
            apply: crawl_delay_cap_s,
        },
        Known {
            name: "fetcher.queue.mode",
            default: "byHost",
            meaning: "what one politeness queue holds: a host, a domain or an IP address. Freshlab's queue is a page's server as your page list names it (its URL's host where the row names none): for byDomain or byIP, name each page's domain or address in the list's server column",
            apply: queue_mode,
        },
    ]
}

/// FetchItemQueues' queue mode: byHost, byDomain or byIP, read for its check alone (the
/// run queues by the page list's servers). The crawlers force any other value to byHost
/// with an error in their log; here it is refused with the three.
fn queue_mode(_: &mut Model, v: &str) -> Result<(), String> {
    match v {
        "byHost" | "byDomain" | "byIP" => Ok(()),
        _ => Err("must be byHost, byDomain or byIP (the fetcher forces any other value to byHost, with an error in its log)".into()),
    }
}

fn server_delay_s(m: &mut Model, v: &str) -> Result<(), String> {
    m.server_delay_s = number(v, "seconds")?;
    Ok(())
}

fn min_delay_s(m: &mut Model, v: &str) -> Result<(), String> {
    m.min_delay_s = number(v, "seconds")?;
    Ok(())
}

pub(super) fn threads_per_queue(m: &mut Model, v: &str) -> Result<(), String> {
    m.threads_per_queue =
        whole(v, "threads", 1, u64::MAX).map_err(|why| format!("{why}: a queue of no thread never hands out a URL, so its host's pages would never be fetched"))? as f64;
    Ok(())
}

/// nutch-default.xml: "If set to -1 the fetcher will never skip such pages and will wait
/// the amount of time retrieved from robots.txt Crawl-Delay, however long that might be."
fn crawl_delay_cap_s(m: &mut Model, v: &str) -> Result<(), String> {
    m.crawl_delay_cap_s = if v == "-1" { -1.0 } else { number(v, "seconds").map_err(|e| format!("{e}, or -1 never to skip a host"))? };
    Ok(())
}

/// The shipped model, then each known setting's value (the file's where it gives one).
/// A value that cannot be taken is refused naming `field` (`beside`: the file beside).
fn apply(crawler: Crawler, entries: Vec<Entry>, [field, beside]: [&str; 2]) -> Result<Loaded, InputError> {
    let mut model = match crawler {
        Crawler::Nutch => nutch::SHIPPED,
        Crawler::Stormcrawler => stormcrawler::SHIPPED,
        Crawler::Heritrix => heritrix::SHIPPED,
        Crawler::Scrapy => scrapy::SHIPPED,
    };
    let table = known(crawler);
    let mut settings = Vec::new();
    for &k in &table {
        // the last value a file gives wins, as each crawler's configuration loader does
        // Hadoop's Configuration sets no property whose value is empty (Nutch keeps the
        // default, or an earlier line's value)
        let empty = |e: &Entry| crawler == Crawler::Nutch && e.value.trim().is_empty();
        let (given, past_final) = winner(&entries, k.name, empty);
        let mut skipped: Vec<u64> = entries.iter().filter(|e| e.name == k.name && empty(e) && !past_final.contains(&e.line)).map(|e| e.line).collect();
        // StormCrawler's map keeps the last value, and ConfUtils reads a null there as a
        // setting not given: its default
        let given = match given {
            Some(e) if e.null => {
                skipped.push(e.line);
                None
            }
            g => g,
        };
        let (value, line) = given.map_or((k.default, None), |e| (e.value.as_str(), Some(e.line)));
        // Nutch reads every value through Hadoop's variable substitution, the property's
        // own value or its nutch-default.xml value standing for a ${name} (the Crawl-delay
        // floor's own default kept as the server delay, which a tuning may change)
        let substituted = match crawler {
            Crawler::Nutch if value.contains("${") && !(k.name == "fetcher.min.crawl.delay" && value.trim() == "${fetcher.server.delay}") => {
                let raw = |name: &str| winner(&entries, name, empty).0.map(|e| e.value.clone()).or_else(|| table.iter().find(|k| k.name == name).map(|k| k.default.to_string()));
                Some(nutch::substitute(value, raw).and_then(|read| nutch::hadoop_form(k.name, read.trim()).unwrap_or(Ok(read))))
            }
            // a form Hadoop's getter reads (hexadecimal, Java's float literals): its number
            Crawler::Nutch => nutch::hadoop_form(k.name, value.trim()),
            // a fraction where StormCrawler reads a whole number: its whole part
            Crawler::Stormcrawler => stormcrawler::cast(k.name, value).map(Ok),
            _ => None,
        };
        let at = |line: Option<u64>| match (line, given.and_then(|e| e.file.as_deref())) {
            (None, _) => String::from(" (its default)"),
            (Some(l), None) => format!(" (line {l})"),
            (Some(l), Some(file)) => format!(" ({file}, line {l})"),
        };
        let field_of = || if given.is_some_and(|e| e.file.is_some()) { beside } else { field };
        let read = match &substituted {
            Some(Ok(read)) => read.as_str(),
            Some(Err(why)) => return Err(InputError::new(field_of(), format!("{}{}: {why} (got \"{}\")", k.name, at(line), value.trim()))),
            None => value,
        };
        (k.apply)(&mut model, read.trim()).map_err(|why| {
            let unbound = match crawler {
                Crawler::Nutch if read.contains("${") => " — its ${…} names no property of the file, nor a nutch-default.xml setting Freshlab reads",
                _ => placeholder(crawler, read),
            };
            let got = if read == value { format!("\"{}\"", value.trim()) } else { format!("\"{}\", read as \"{}\"", value.trim(), read.trim()) };
            InputError::new(field_of(), format!("{}{}: {why} (got {got}{unbound}); fix the value or remove the line to keep the default {}", k.name, at(line), k.default))
        })?;
        let file = given.and_then(|e| e.file.clone());
        let replaced = given.map_or_else(Vec::new, |g| entries.iter().filter(|e| e.name == k.name && e.file == g.file && e.line < g.line).map(|e| e.line).collect());
        settings.push(Setting {
            name: k.name.into(),
            value: if read == value { value.trim().into() } else { format!("{} = {}", value.trim(), read.trim()) },
            from_file: given.is_some(),
            line,
            replaced,
            file,
            passed_over: skipped.clone(),
            meaning: {
                let passed_over = match crawler {
                    Crawler::Stormcrawler => "null, which StormCrawler reads as not given (ConfUtils returns the default)",
                    _ => "no value, which Nutch passes over (Hadoop sets no property without one)",
                };
                let mut meaning = match skipped.as_slice() {
                    [] => k.meaning.to_string(),
                    [line] => format!("{}; line {line} gives it {passed_over}", k.meaning),
                    lines => format!("{}; lines {} give it {passed_over}", k.meaning, lines.iter().map(u64::to_string).collect::<Vec<_>>().join(", ")),
                };
                if crawler == Crawler::Stormcrawler && read != value {
                    let getter = stormcrawler::getter(k.name).map_or("", stormcrawler::confutils);
                    meaning.push_str(&format!("; StormCrawler reads a whole number here ({getter} keeps a fraction's whole part)"));
                }
                if let Some(fixed) = entries.iter().find(|e| e.name == k.name && e.fixed).filter(|_| !past_final.is_empty()) {
                    let lines: Vec<String> = past_final.iter().map(u64::to_string).collect();
                    let them = if lines.len() == 1 { "line" } else { "lines" };
                    meaning.push_str(&format!(
                        "; line {} makes it final, so Nutch passes over {them} {} (Hadoop ignores an attempt to override a final parameter)",
                        fixed.line,
                        lines.join(", ")
                    ));
                }
                meaning
            },
            set: false,
            aside: false,
            overrules: false,
        });
    }
    let mut ignored = Vec::new();
    // each name's lines in each file, in order (one pass: a file copied whole from the
    // crawler's defaults names hundreds)
    let mut named: HashMap<(&str, Option<&str>), Vec<usize>> = HashMap::new();
    for (at, e) in entries.iter().enumerate() {
        named.entry((e.name.as_str(), e.file.as_deref())).or_default().push(at);
    }
    for (at, e) in entries.iter().enumerate().filter(|(_, e)| !table.iter().any(|k| k.name == e.name)) {
        let given = &named[&(e.name.as_str(), e.file.as_deref())];
        // given again later in the same file: the later one counts, as for a known setting
        if given.last() != Some(&at) {
            continue;
        }
        let replaced: Vec<u64> = given[..given.len() - 1].iter().map(|&k| entries[k].line).collect();
        // (a property Nutch reads through another's ${name})
        let variable = format!("${{{}}}", e.name);
        let stands_in: Vec<&str> = settings.iter().filter(|s| crawler == Crawler::Nutch && s.value.contains(&variable)).map(|s| s.name.as_str()).collect();
        let why = match crawler {
            Crawler::Nutch if !stands_in.is_empty() => Ok(Some(format!("read as {variable} in {}", stands_in.join(", ")))),
            Crawler::Nutch => Ok(nutch::aside(e, &model)),
            Crawler::Stormcrawler => stormcrawler::aside(e),
            Crawler::Heritrix => Ok(heritrix::aside(e)),
            Crawler::Scrapy => Ok(None),
        }
        .map_err(|why| InputError::new(field, format!("{} (line {}): {why}", e.name, e.line)))?;
        match why {
            // Heritrix's (an overrides file not given) is not in the run; the others
            // (StormCrawler's custom intervals and kept metadata, Nutch's types file) are
            Some(why) => settings.push(Setting {
                name: e.name.clone(),
                value: e.value.trim().into(),
                from_file: true,
                line: Some(e.line),
                replaced,
                file: e.file.clone(),
                passed_over: Vec::new(),
                meaning: why,
                set: false,
                aside: crawler == Crawler::Heritrix,
                overrules: false,
            }),
            None => ignored.push((e.file.as_ref().map_or_else(|| e.name.clone(), |f| format!("{} ({f})", e.name)), e.line)),
        }
    }
    if crawler == Crawler::Stormcrawler {
        let seen = stormcrawler::queue_stream(&entries, &mut model).map_err(|why| InputError::new(field, why))?;
        if let Some(codes) = settings.iter_mut().find(|s| s.name == stormcrawler::STATUS_CODES) {
            codes.meaning.push_str(&seen);
        }
        let (meaning, overrules) = stormcrawler::kept_metadata(&entries, &mut model);
        if let Some(persist) = settings.iter_mut().find(|s| s.name == "metadata.persist") {
            (persist.meaning, persist.overrules) = (meaning, overrules);
        }
    }
    check(&model, crawler, &settings).map_err(|why| InputError::new(field, why))?;
    if let Reaction::Heritrix { max_delay_s, .. } = model.reaction
        && model.server_delay_s > max_delay_s
        && let Some(least) = settings.iter_mut().find(|s| s.name == "disposition.minDelayMs")
    {
        least.meaning = format!("{}; here over maxDelayMs, so Heritrix waits {} ms: raise maxDelayMs with it for a longer gap", least.meaning, max_delay_s * 1000.0);
    }
    let custom_intervals = if crawler == Crawler::Stormcrawler { seed_metadata::custom_intervals(&entries) } else { Vec::new() };
    let known: Vec<(&str, Letters)> = table.iter().map(|k| (k.name, Letters::of(&k.name.to_lowercase()))).collect();
    let meant = ignored.iter().filter_map(|(name, _)| meant(name, &known).map(|m| (name.clone(), m.to_string()))).collect();
    Ok(Loaded { crawler, model, settings, ignored, meant, custom_intervals, mime_rates: Vec::new(), sheets: Vec::new(), reschedules: false })
}

/// The setting `name` is most likely a typo of: one at most two edits away (letters
/// and case alike), none where two are as near. `known`: each setting's name, and the
/// letters of the name in lower case.
fn meant<'a>(name: &str, known: &[(&'a str, Letters)]) -> Option<&'a str> {
    let letters = Letters::of(&name.to_lowercase());
    let mut near: Vec<(usize, &str)> = known.iter().filter_map(|(k, of_k)| edits_within(&letters, of_k, 2).map(|d| (d, *k))).filter(|&(d, _)| d >= 1).collect();
    near.sort_unstable();
    match near.as_slice() {
        [(d, k), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(k),
        _ => None,
    }
}

/// What no crawler can run with, whatever the file says: said by the crawler's own
/// setting names, with the value and line each has (or its default).
fn check(m: &Model, crawler: Crawler, settings: &[Setting]) -> Result<(), String> {
    let i = m.intervals;
    // the settings that give the shortest, longest and default intervals and the decrement
    let names = match crawler {
        Crawler::Nutch => {
            Some(["db.fetch.schedule.adaptive.min_interval", "db.fetch.schedule.adaptive.max_interval", "db.fetch.interval.default", "db.fetch.schedule.adaptive.dec_rate"])
        }
        Crawler::Stormcrawler => {
            Some(["scheduler.adaptive.fetchInterval.min", "scheduler.adaptive.fetchInterval.max", "fetchInterval.default", "scheduler.adaptive.fetchInterval.rate.decr"])
        }
        Crawler::Heritrix | Crawler::Scrapy => None,
    };
    let said = |k: usize, value: f64| match names {
        Some(names) => {
            let name = names[k];
            match settings.iter().find(|s| s.name == name) {
                Some(s) if s.set => format!("{name} = {} (set over the file)", s.value),
                Some(s) if !s.from_file => format!("{name} = {} (its default)", s.value),
                Some(s) => format!("{name} = {} ({})", s.value, s.line.map_or_else(|| "in the file".to_string(), |l| format!("line {l}"))),
                None => format!("{name} (its default)"),
            }
        }
        None if k == 3 => format!("the decrement rate ({value})"),
        None => format!("the {} ({value} days)", ["shortest interval", "longest interval", "recrawl interval"][k]),
    };
    if !(i.min > 0.0 && i.min <= i.max) {
        return Err(format!("{} must be above 0 and at most {}: lower the one or raise the other", said(0, i.min), said(1, i.max)));
    }
    if i.initial <= 0.0 {
        return Err(format!("{} must be above 0", said(2, i.initial)));
    }
    if i.rule != Rule::Fixed && i.dec_rate >= 1.0 {
        return Err(format!("{} must be below 1: the interval would fall to 0", said(3, i.dec_rate)));
    }
    Ok(())
}

/// A number of `unit` (at least 0) from a setting's text.
pub fn number(text: &str, unit: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
        _ => Err(format!("must be a number of {unit}, at least 0")),
    }
}

/// A whole number of `unit` from `least` to `most` from a setting's text.
pub fn whole(text: &str, unit: &str, least: u64, most: u64) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if (least..=most).contains(&n) => Ok(n),
        _ if most == u64::MAX => Err(format!("must be a whole number of {unit}, at least {least}")),
        _ => Err(format!("must be a whole number of {unit} from {least} to {most}")),
    }
}

/// A limit: a whole number of `unit` from 1, or −1 for none (None).
pub fn limit(text: &str, unit: &str) -> Result<Option<u64>, String> {
    if text == "-1" {
        return Ok(None);
    }
    whole(text, unit, 1, u64::MAX).map(Some).map_err(|_| format!("must be a whole number of {unit} from 1, or -1 for no limit"))
}

/// A rate in [0, 1].
pub fn rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err("must be a rate from 0 to 1 (the projects advise at most 0.5)".into()),
    }
}

/// true or false (Python's True and False too).
pub fn boolean(text: &str) -> Result<bool, String> {
    match text {
        "true" | "True" => Ok(true),
        "false" | "False" => Ok(false),
        _ => Err("must be true or false".into()),
    }
}

/// What a `${…}` in `value` is where `crawler` reads the file through something that
/// fills it in before Freshlab could ("": none, or Nutch, whose Hadoop substitution
/// Freshlab does itself).
fn placeholder(crawler: Crawler, value: &str) -> &'static str {
    match crawler {
        _ if !value.contains("${") => "",
        // FluxParser.loadYaml replaces each ${key} of its --filter properties file and each
        // ${ENV-NAME} (with --env-filter) in the text before reading it
        Crawler::Stormcrawler => {
            " — a placeholder Storm's Flux fills in when it starts the topology (${name} from the properties file given with --filter, ${ENV-NAME} from the environment with --env-filter); Freshlab reads the file alone: write the value Flux would put there"
        }
        // Spring's PropertyPlaceholderConfigurer (<context:property-placeholder>) fills
        // ${name} from its properties when Heritrix builds the job
        Crawler::Heritrix => {
            " — a Spring placeholder, which a <context:property-placeholder> or PropertyPlaceholderConfigurer fills in from its properties when Heritrix builds the job; Freshlab reads this file alone: write the value there"
        }
        Crawler::Nutch | Crawler::Scrapy => "",
    }
}

/// Seconds and minutes in days (the rules' clock).
pub const SECOND: f64 = 1.0 / 86_400.0;
pub const MINUTE: f64 = 1.0 / 1440.0;

#[cfg(test)]
mod tests;

/// Whose configuration `text` is, from its form: XML with `<configuration>` (Nutch) or
/// `<beans>` (Heritrix), `NAME = value` lines (Scrapy), else YAML (StormCrawler); None
/// when it cannot tell.
pub fn detect(text: &str) -> Option<Crawler> {
    let body = text.trim_start_matches('\u{feff}').trim_start();
    if body.starts_with('<') {
        // its first element, not the whole file parsed (the page asks at every check);
        // one not well-formed (cut short, say) is still whose it says, and that crawler's
        // reader says what is wrong and where
        return match first_element(body)?.as_str() {
            "configuration" => Some(Crawler::Nutch),
            "beans" => Some(Crawler::Heritrix),
            _ => None,
        };
    }
    let assignment = |l: &str| l.split_once('=').is_some_and(|(n, _)| !n.trim().is_empty() && n.trim().chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'));
    let first = body.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'));
    if first.is_some_and(assignment) {
        return Some(Crawler::Scrapy);
    }
    if first.is_some_and(|l| l.contains(':')) {
        return Some(Crawler::Stormcrawler);
    }
    None
}

/// `text` parsed as XML for `crawler`, whose root element is `root`; Err says what is
/// wrong and where (roxmltree's line and column; a file cut short, by its last line).
pub(super) fn xml<'a>(text: &'a str, crawler: &str, root: &str) -> Result<Xml<'a>, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| match e {
        roxmltree::Error::UnclosedRootNode => {
            format!("ends (line {}) before its <{root}> element closes: is the file cut short? Copy it whole, to its </{root}>", text.lines().count())
        }
        e => format!("is not XML that {crawler} can read: {e}"),
    })?;
    Ok(Xml { rows: Rows::of(text), doc })
}

/// A parsed XML file and its line starts: a node's line by binary search (roxmltree's
/// `text_pos_at` counts from the start at each call: a nutch-site.xml of 12,000
/// properties, under the 1 MB limit, took 2.3 s to list with it, a crawler-beans.cxml of
/// 10,000 beans 2.7 s).
pub(super) struct Xml<'input> {
    doc: roxmltree::Document<'input>,
    rows: Rows,
}

impl<'input> std::ops::Deref for Xml<'input> {
    type Target = roxmltree::Document<'input>;

    fn deref(&self) -> &Self::Target {
        &self.doc
    }
}

impl Xml<'_> {
    /// The 1-based line where `node` starts.
    pub(super) fn line(&self, node: roxmltree::Node) -> u64 {
        self.rows.at(node.range().start)
    }
}

/// The 1-based line of a byte of a text, by binary search over its line starts.
pub(super) struct Rows(Vec<usize>);

impl Rows {
    pub(super) fn of(text: &str) -> Rows {
        Rows(std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect())
    }

    pub(super) fn at(&self, at: usize) -> u64 {
        self.0.partition_point(|&start| start <= at) as u64
    }
}

/// The local name of the first element of XML text, past its declaration, comments and
/// doctype (`<spring:beans …>` is `beans`).
fn first_element(text: &str) -> Option<String> {
    let mut rest = text;
    loop {
        rest = &rest[rest.find('<')? + 1..];
        if rest.starts_with(['?', '!']) {
            rest = &rest[if rest.starts_with("!--") { rest.find("-->")? + 3 } else { rest.find('>')? + 1 }..];
            continue;
        }
        let name: String = rest.chars().take_while(|c| !c.is_whitespace() && !matches!(c, '>' | '/')).collect();
        return Some(name.rsplit(':').next()?.to_string());
    }
}
