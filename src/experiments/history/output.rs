//! What a history shows: what was read and left out, each page's rate and interval,
//! what the records cannot support, and where capture spacing limits what can be known.

use super::config::HistoryConfig;
use crate::chart::format::thousands;
use crate::core::model::history::estimate::{Estimate, Status};
use crate::core::model::history::{ChangeFreq, Format, Records, Skip};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The pages the history view lists: the fastest-changing.
pub const SHOWN_PAGES: usize = 10;

/// One page: its URL, server, weight, declared change frequency and estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PageHistory {
    pub url: String,
    /// None when the URL names no host.
    pub server: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared: Option<ChangeFreq>,
    /// Its records are exact change times (revisions).
    #[serde(default)]
    pub exact_times: bool,
    /// Its latest captured mime type (CDX, CDXJ, crawl.log).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime: Option<String>,
    /// The rate the generator gave it (generated records only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub true_rate: Option<f64>,
    pub estimate: Estimate,
}

impl PageHistory {
    /// The rate a page list gives it: the estimate, where the records support one.
    pub fn listed_rate(&self) -> Option<f64> {
        match self.estimate.status {
            Status::Estimated | Status::Coarse | Status::NeverChanged => self.estimate.rate,
            Status::AlwaysChanged | Status::OneRecord => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryOutput {
    /// The configuration, the files' text left out (their names and sizes kept).
    pub config: HistoryConfig,
    pub format: Option<Format>,
    pub bytes: f64,
    pub lines: u64,
    /// The files that were WARC files, read as their capture index (a line a record).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub warc_files: u64,
    /// Records kept, and left out by reason (largest first).
    pub kept: u64,
    pub skipped: Vec<(Skip, u64)>,
    /// Why the records were refused (nothing estimated), naming the file and line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
    pub pages: Vec<PageHistory>,
    pub servers: u64,
    /// Pages by status.
    pub statuses: Vec<(Status, u64)>,
    /// Sitemaps a sitemap index lists (to load).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub listed_sitemaps: Vec<String>,
    /// Sitemap snapshots read: dated by their files' names, and undated (each placed at
    /// its latest lastmod).
    #[serde(default)]
    pub snapshots: (u64, u64),
    /// The first and last record (Unix seconds).
    pub first: Option<f64>,
    pub last: Option<f64>,
    /// The revisions as a change trace (page,timestamp) for the bursty experiment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<String>,
    /// Pages left out of the page list: no rate the records support, or no host.
    pub left_out: u64,
    /// Pages with a captured mime type, and captures whose type was not kept (more
    /// kinds than a history keeps).
    #[serde(default)]
    pub typed: u64,
    #[serde(default)]
    pub types_over: u64,
    /// What was read, in a paragraph (the CLI's text, the page's details).
    pub said: String,
    /// Generated records: how the estimates compare with the true rates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Accuracy>,
}

/// How the estimates of generated records compare with the rates that made them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    /// Pages whose interval (or one-sided bound) holds the true rate, of those given one.
    pub covered: u64,
    pub bounded: u64,
    /// The median of estimate ÷ true rate over pages with a finite positive estimate,
    /// and the share of those within a factor 2.
    pub median_ratio: f64,
    pub within_2: f64,
    /// Pages whose true rate × typical capture spacing exceeds 2 (changes faster than
    /// the captures can tell), and of those, how many the records flag (coarse, or
    /// changed at every capture).
    pub fast: u64,
    pub fast_flagged: u64,
}

impl Accuracy {
    fn of(pages: &[PageHistory]) -> Option<Accuracy> {
        if pages.iter().any(|p| p.true_rate.is_none()) || pages.is_empty() {
            return None;
        }
        let (mut covered, mut bounded, mut ratios, mut fast, mut fast_flagged) = (0u64, 0u64, Vec::new(), 0u64, 0u64);
        for p in pages {
            let (truth, e) = (p.true_rate.expect("checked"), &p.estimate);
            if e.low.is_some() || e.high.is_some() {
                bounded += 1;
                covered += (e.low.is_none_or(|l| l <= truth) && e.high.is_none_or(|h| truth <= h)) as u64;
            }
            if let Some(r) = e.rate.filter(|r| *r > 0.0) {
                ratios.push(r / truth);
            }
            if truth * e.spacing_days > crate::core::model::history::estimate::COARSE {
                fast += 1;
                fast_flagged += matches!(e.status, Status::Coarse | Status::AlwaysChanged) as u64;
            }
        }
        ratios.sort_by(f64::total_cmp);
        let median_ratio = if ratios.is_empty() { f64::NAN } else { 0.5 * (ratios[(ratios.len() - 1) / 2] + ratios[ratios.len() / 2]) };
        let within_2 = ratios.iter().filter(|r| (0.5..=2.0).contains(*r)).count() as f64 / ratios.len().max(1) as f64;
        Some(Accuracy { covered, bounded, median_ratio, within_2, fast, fast_flagged })
    }
}

impl HistoryOutput {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        config: &HistoryConfig,
        format: Option<Format>,
        bytes: f64,
        (lines, warc_files): (u64, u64),
        records: &Records,
        listed: &[String],
        refused: Option<String>,
        pages: Vec<PageHistory>,
        trace: Option<String>,
    ) -> Self {
        let mut skipped: Vec<(Skip, u64)> = records.skipped.iter().map(|(k, v)| (*k, *v)).filter(|(_, v)| *v > 0).collect();
        skipped.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut by_status: HashMap<Status, u64> = HashMap::new();
        for p in &pages {
            *by_status.entry(p.estimate.status).or_insert(0) += 1;
        }
        let statuses = Status::ALL.iter().filter_map(|s| by_status.get(s).map(|n| (*s, *n))).collect();
        let servers = pages.iter().filter_map(|p| p.server.as_deref()).collect::<std::collections::HashSet<_>>().len() as u64;
        let times = (0..records.pages()).flat_map(|p| records.marks(p).iter().map(|m| m.time));
        let (first, last) = times.fold((None, None), |(a, b): (Option<f64>, Option<f64>), t| (Some(a.map_or(t, |a| a.min(t))), Some(b.map_or(t, |b| b.max(t)))));
        let left_out = pages.iter().filter(|p| p.listed_rate().is_none() || p.server.is_none()).count() as u64;
        let mut output = HistoryOutput {
            config: config.clone(),
            format,
            bytes,
            lines,
            warc_files,
            kept: records.kept,
            skipped,
            refused,
            pages,
            servers,
            statuses,
            listed_sitemaps: listed.to_vec(),
            snapshots: records.snapshots.iter().fold((0, 0), |(named, undated), s| if s.named { (named + 1, undated) } else { (named, undated + 1) }),
            first,
            last,
            trace,
            left_out,
            typed: 0,
            types_over: records.types_over,
            said: String::new(),
            accuracy: None,
        };
        output.typed = output.pages.iter().filter(|p| p.mime.is_some()).count() as u64;
        output.accuracy = Accuracy::of(&output.pages);
        output.said = output.sentence();
        output
    }

    /// What the page's tables read: everything but the pages, of which the
    /// [`SHOWN_PAGES`] fastest-changing (a positive rate, fastest first, ties in the
    /// records' order); the whole result stays in the worker.
    pub fn fastest_only(&self) -> HistoryOutput {
        let mut fastest: Vec<&PageHistory> = self.pages.iter().filter(|p| p.estimate.rate.is_some_and(|r| r > 0.0)).collect();
        fastest.sort_by(|a, b| b.estimate.rate.unwrap_or(0.0).total_cmp(&a.estimate.rate.unwrap_or(0.0)));
        HistoryOutput {
            config: self.config.clone(),
            format: self.format,
            bytes: self.bytes,
            lines: self.lines,
            warc_files: self.warc_files,
            kept: self.kept,
            skipped: self.skipped.clone(),
            refused: self.refused.clone(),
            pages: fastest.into_iter().take(SHOWN_PAGES).cloned().collect(),
            servers: self.servers,
            statuses: self.statuses.clone(),
            listed_sitemaps: self.listed_sitemaps.clone(),
            snapshots: self.snapshots,
            first: self.first,
            last: self.last,
            trace: self.trace.clone(),
            left_out: self.left_out,
            typed: self.typed,
            types_over: self.types_over,
            said: self.said.clone(),
            accuracy: self.accuracy.clone(),
        }
    }

    pub fn count(&self, status: Status) -> u64 {
        self.statuses.iter().find(|s| s.0 == status).map_or(0, |s| s.1)
    }

    fn sentence(&self) -> String {
        if let Some(why) = &self.refused {
            return format!("Refused, nothing estimated: {why}");
        }
        let read = if self.config.source == super::config::RecordSource::Generator {
            format!("{} generated captures of pages whose rates are known", thousands(self.kept as f64))
        } else {
            let warc = match self.warc_files {
                0 => String::new(),
                n => format!("; {} read as {} capture index, a line a record", counted(n, "WARC file", "WARC files"), if n == 1 { "its" } else { "their" }),
            };
            format!("{} records kept from {} lines ({}{warc})", thousands(self.kept as f64), thousands(self.lines as f64), self.format.map_or("no format", |f| f.label()))
        };
        let mut text = format!(
            "{read}: {} on {}. {} estimated ({} with visits too sparse to be sure), {} never seen changed (an upper bound each), {} changed at every visit (a lower bound each, no rate), {} with one record.",
            counted(self.pages.len() as u64, "page", "pages"),
            counted(self.servers, "server", "servers"),
            thousands((self.count(Status::Estimated) + self.count(Status::Coarse)) as f64),
            thousands(self.count(Status::Coarse) as f64),
            thousands(self.count(Status::NeverChanged) as f64),
            thousands(self.count(Status::AlwaysChanged) as f64),
            thousands(self.count(Status::OneRecord) as f64),
        );
        if !self.skipped.is_empty() {
            let parts: Vec<String> = self.skipped.iter().map(|(why, n)| format!("{} — {}", why.label(), counted(*n, "record", "records"))).collect();
            text.push_str(&format!(" Left out, by reason: {}.", parts.join("; ")));
        }
        let out = self.left_out;
        if out > 0 {
            let out = thousands(out as f64);
            text.push_str(&format!(" The page list leaves out {out} pages without a rate the records support or without a host (they stay in the JSON result)."));
        }
        if self.typed > 0 {
            let listed = if self.config.types {
                "the page list carries them as Content-Type metadata (only the crawlers experiment reads it)"
            } else {
                "the page list leaves them out (“page list with mime types”, --types, carries them; the button to your crawler always does)"
            };
            let kind = if self.format == Some(Format::Mediawiki) {
                "a type, their view's text/html (a wiki page's address serves HTML whatever its content model)"
            } else {
                "a captured mime type (the latest of each)"
            };
            text.push_str(&format!(" {} of {} pages have {kind}: {listed}.", thousands(self.typed as f64), thousands(self.pages.len() as f64)));
        }
        if self.typed == 0 && self.config.types && !self.pages.is_empty() {
            text.push_str(" No page has a captured mime type: the page list has no metadata column.");
        }
        if self.types_over > 0 {
            text.push_str(&format!(
                " {} captures' mime types were not kept: more than {} kinds in one history (those pages keep the type they had).",
                thousands(self.types_over as f64),
                thousands(crate::core::model::history::MAX_TYPES as f64)
            ));
        }
        if let Some(a) = &self.accuracy {
            text.push_str(&format!(
                " Against the generator's true rates: the {}% intervals hold {} of {} pages ({:.1} %); the median estimate is {:.3} times the true rate, {:.1} % within a factor 2; {} pages change faster than their captures can tell (rate × spacing > 2), {} of them flagged by their records.",
                (100.0 * self.config.confidence).round(),
                thousands(a.covered as f64),
                thousands(a.bounded as f64),
                100.0 * a.covered as f64 / a.bounded.max(1) as f64,
                a.median_ratio,
                100.0 * a.within_2,
                thousands(a.fast as f64),
                thousands(a.fast_flagged as f64)
            ));
        }
        match self.snapshots {
            (0, 0) => {}
            (named, 0) => text.push_str(&format!(
                " {}, {} by its file's name (Cho & Garcia-Molina's last-modified estimator at those times).",
                counted(named, "sitemap snapshot", "sitemap snapshots"),
                if named == 1 { "dated" } else { "each dated" }
            )),
            (named, undated) => text.push_str(&format!(
                " {}, {named} dated by {} and {undated} without a date in the name, {} at its latest lastmod (the page that set it then has no time known free of changes: put the date in the file's name, e.g. sitemap-2026-03-15.xml).",
                counted(named + undated, "sitemap snapshot", "sitemap snapshots"),
                if named == 1 { "its file's name" } else { "their files' names" },
                if undated == 1 { "placed" } else { "each placed" }
            )),
        }
        if !self.listed_sitemaps.is_empty() {
            let n = self.listed_sitemaps.len() as u64;
            let names: Vec<&str> = self.config.files.iter().map(|f| f.name.as_str()).chain(self.config.paths.iter().map(String::as_str)).collect();
            let unread: Vec<&str> = self.listed_sitemaps.iter().map(|url| file_name(url)).filter(|listed| !names.iter().any(|name| read_as(name, stem(listed)))).collect();
            let listed = counted(n, "sitemap", "sitemaps");
            text.push_str(&if unread.is_empty() {
                format!(" A sitemap index lists {listed}, each named like a file read here.")
            } else {
                let shown = unread.iter().take(5).copied().collect::<Vec<_>>().join(", ") + if unread.len() > 5 { ", …" } else { "" };
                let it = if unread.len() == 1 { "it" } else { "them" };
                format!(" A sitemap index lists {listed}; not named like a file read here: {shown}. Load {it} (several snapshots of each give lastmod histories).")
            });
        }
        text
    }
}

/// A path's or URL's file name, without its folder or query: `sitemap-posts.xml.gz` of
/// `https://example.org/sitemap-posts.xml.gz?page=2`.
fn file_name(path: &str) -> &str {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// A file name without its folder, `.gz` and `.xml`: `sitemap-posts`.
fn stem(name: &str) -> &str {
    let name = file_name(name);
    let name = name.strip_suffix(".gz").unwrap_or(name);
    name.strip_suffix(".xml").unwrap_or(name)
}

/// Whether the file `name` reads the sitemap of stem `listed`: its own, or a snapshot of
/// it named with a date after it (`sitemap-posts-2026-03-15.xml`).
fn read_as(name: &str, listed: &str) -> bool {
    let own = stem(name);
    own == listed || own.strip_prefix(listed).is_some_and(|rest| rest.starts_with(['-', '_', '.', '@']) && rest.bytes().any(|b| b.is_ascii_digit()))
}

/// `n` and its noun, singular for one.
fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n as f64), if n == 1 { one } else { many })
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
