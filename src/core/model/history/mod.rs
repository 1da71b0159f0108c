//! Change histories from the records people already have (issue 47): web-archive
//! capture indexes (CDX, CDXJ), sitemaps, crawl logs (Heritrix's crawl.log, a plain CSV)
//! and Wikipedia revisions, read record by record into each page's marks, then each
//! page's rate with its interval ([`estimate`]). Memory grows with the pages and their
//! records kept, never with the file: line formats are fed a line at a time
//! ([`lines::LineReader`]), sitemaps and MediaWiki dumps an XML event at a time
//! ([`documents::XmlReader`]); only the MediaWiki API's JSON answers are read whole.

pub mod documents;
pub mod estimate;
pub mod generate;
pub mod lines;
pub mod server;

use crate::core::labels::labelled;
use estimate::{Estimate, Estimator};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

labelled! {
/// The kinds of record Freshlab reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Told by the file's first lines.
    #[default]
    Auto => "detected from the file",
    /// The Wayback Machine's and Common Crawl's space-separated capture index.
    Cdx => "CDX capture index (space-separated)",
    /// The same as SURT key, timestamp and a JSON object a line (pywb, Common Crawl).
    Cdxj => "CDXJ capture index (key, timestamp, JSON)",
    /// sitemap.xml (or an index of sitemaps): lastmod, changefreq, priority.
    Sitemap => "sitemap.xml (lastmod, changefreq)",
    /// Heritrix's crawl.log.
    Heritrix => "Heritrix crawl.log",
    /// url,fetch_time,changed or url,fetch_time,digest.
    Csv => "CSV crawl log (url,fetch_time,changed or digest)",
    /// MediaWiki's API (prop=revisions, JSON) or an XML dump's revisions.
    Mediawiki => "MediaWiki revisions (API JSON or XML dump)",
}
}

impl Format {
    /// Read a line at a time (the others are XML streams, or JSON documents).
    pub fn by_line(self) -> bool {
        matches!(self, Format::Cdx | Format::Cdxj | Format::Heritrix | Format::Csv)
    }
}

/// The format of a file from its first bytes, None when none fits.
pub fn detect(head: &str) -> Option<Format> {
    let text = head.trim_start_matches('\u{feff}').trim_start();
    if text.starts_with('<') {
        let first = &text[..text.len().min(4096)];
        return if first.contains("<urlset") || first.contains("<sitemapindex") {
            Some(Format::Sitemap)
        } else if first.contains("<mediawiki") {
            Some(Format::Mediawiki)
        } else {
            None
        };
    }
    if text.starts_with('{') {
        return Some(Format::Mediawiki);
    }
    let line = text.lines().next().unwrap_or("");
    if line.starts_with("CDX ") {
        return Some(Format::Cdx);
    }
    let fields: Vec<&str> = line.split_whitespace().collect();
    let timestamp = |f: &str| (4..=14).contains(&f.len()) && f.bytes().all(|b| b.is_ascii_digit());
    if fields.len() >= 3 && timestamp(fields[1]) && fields[2].starts_with('{') {
        return Some(Format::Cdxj);
    }
    if fields.len() >= 6 && timestamp(fields[1]) {
        return Some(Format::Cdx);
    }
    if fields.len() >= 10 && fields[0].len() >= 19 && fields[0].as_bytes()[4] == b'-' && fields[0].contains('T') && fields[1].parse::<i64>().is_ok() {
        return Some(Format::Heritrix);
    }
    let lower = line.to_ascii_lowercase();
    if lower.contains(',') && (lower.starts_with("url") || lower.starts_with("page") || lower.contains(",url")) {
        return Some(Format::Csv);
    }
    None
}

labelled! {
/// Why a record was left out (counted, never silently).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Skip {
    Redirect => "redirect (3xx): a capture of the redirect, not of the page",
    Error => "error answer (4xx, 5xx): no content captured",
    Failed => "fetch failed (Heritrix's negative codes: DNS, connection, timeout)",
    NoStatus => "no status (not a revisit record)",
    NoDigest => "no content digest",
    NotPage => "not a web page (dns:, whois:, filedesc:, a non-HTTP URL)",
    SameTime => "the same URL and second as another record with the same content (kept once)",
    Conflicting => "the same URL and second as another record with other content (the later left out)",
    NoLastmod => "sitemap entry without lastmod",
    SitemapIndex => "an entry of a sitemap index (a sitemap to load, not a page)",
    Comment => "comment or blank line",
}
}

/// What a record says of a page at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum What {
    /// A capture with this content digest (hashed).
    Digest(u64),
    /// A visit that found the content the same as at the previous one (HTTP 304).
    Same,
    /// A visit that says whether the page changed since the previous one.
    Changed(bool),
    /// A change at this very time (a revision).
    Change,
    /// A sitemap's lastmod: the last change was at this time.
    Lastmod,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    /// Unix seconds.
    pub time: f64,
    pub what: What,
}

labelled! {
/// A sitemap's declared change frequency.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChangeFreq {
    Always => "always",
    Hourly => "hourly",
    Daily => "daily",
    Weekly => "weekly",
    Monthly => "monthly",
    Yearly => "yearly",
    Never => "never",
}
}

impl ChangeFreq {
    /// The rate it declares, per day (None: "always", every access).
    pub fn per_day(self) -> Option<f64> {
        match self {
            ChangeFreq::Always => None,
            ChangeFreq::Hourly => Some(24.0),
            ChangeFreq::Daily => Some(1.0),
            ChangeFreq::Weekly => Some(1.0 / 7.0),
            ChangeFreq::Monthly => Some(12.0 / 365.25),
            ChangeFreq::Yearly => Some(1.0 / 365.25),
            ChangeFreq::Never => Some(0.0),
        }
    }

    pub fn parse(text: &str) -> Option<ChangeFreq> {
        ChangeFreq::ALL.into_iter().find(|c| c.label().eq_ignore_ascii_case(text.trim()))
    }
}

/// At most this many pages in one history (a page list's limit).
pub const MAX_PAGES: usize = super::page_list::MAX_ROWS;
/// Bytes a page and a record take in [`Records`] (measured: tests/cost_model.rs).
pub const BYTES_PER_PAGE: f64 = 160.0;
pub const BYTES_PER_MARK: f64 = 24.0;

/// Every page's records as read so far.
#[derive(Clone, Debug, Default)]
pub struct Records {
    index: HashMap<Box<str>, u32>,
    pub urls: Vec<Box<str>>,
    marks: Vec<Vec<Mark>>,
    /// Declared change frequencies (sitemaps), by page.
    pub changefreq: HashMap<u32, ChangeFreq>,
    /// Weights given by the records (a CSV's weight column, a sitemap's priority).
    pub weights: HashMap<u32, f64>,
    /// Records kept, and left out by reason.
    pub kept: u64,
    pub skipped: HashMap<Skip, u64>,
}

impl Records {
    pub fn pages(&self) -> usize {
        self.urls.len()
    }

    /// The page of `url`, added if new (None: over [`MAX_PAGES`]).
    pub fn page(&mut self, url: &str) -> Option<u32> {
        if let Some(&p) = self.index.get(url) {
            return Some(p);
        }
        if self.urls.len() >= MAX_PAGES {
            return None;
        }
        let p = self.urls.len() as u32;
        self.index.insert(url.into(), p);
        self.urls.push(url.into());
        self.marks.push(Vec::new());
        Some(p)
    }

    /// Keeps a record of `url`; Err when one more page would pass the limit.
    pub fn add(&mut self, url: &str, mark: Mark) -> Result<u32, String> {
        let page = self.page(url).ok_or_else(|| format!("more than {MAX_PAGES} pages (the limit); read fewer sites or a shorter period"))?;
        self.marks[page as usize].push(mark);
        self.kept += 1;
        Ok(page)
    }

    pub fn skip(&mut self, why: Skip) {
        *self.skipped.entry(why).or_insert(0) += 1;
    }

    pub fn marks(&self, page: usize) -> &[Mark] {
        &self.marks[page]
    }

    /// Every page's estimate at `confidence`, in the order pages were first met; the
    /// records of one second twice are counted in `skipped` here.
    pub fn estimates(&mut self, confidence: f64) -> Vec<Estimate> {
        let mut out = Vec::with_capacity(self.urls.len());
        let level = estimate::Level::of(confidence);
        for page in 0..self.urls.len() {
            let mut marks = std::mem::take(&mut self.marks[page]);
            marks.sort_by(|a, b| a.time.total_cmp(&b.time));
            let (estimate, same, conflicting) = page_estimate(&marks, &level);
            *self.skipped.entry(Skip::SameTime).or_insert(0) += same;
            *self.skipped.entry(Skip::Conflicting).or_insert(0) += conflicting;
            self.marks[page] = marks;
            out.push(estimate);
        }
        self.skipped.retain(|_, n| *n > 0);
        out
    }
}

/// Seconds in a day: rates are per day.
const DAY: f64 = 86_400.0;

/// One page's estimate from its marks in time order, and the records of an already seen
/// second it left out (same content, other content).
fn page_estimate(marks: &[Mark], level: &estimate::Level) -> (Estimate, u64, u64) {
    let (mut same, mut conflicting) = (0u64, 0u64);
    let exact = |estimator| {
        let mut times: Vec<f64> = marks.iter().map(|m| m.time).collect();
        let before = times.len();
        times.dedup();
        let span = times.last().copied().unwrap_or(0.0) - times.first().copied().unwrap_or(0.0);
        (estimate::from_exact_at(times.len().saturating_sub(1) as u64, span / DAY, estimator, level), (before - times.len()) as u64)
    };
    match marks.first().map(|m| m.what) {
        Some(What::Change) => {
            let (e, dup) = exact(Estimator::ExactTimes);
            return (e, dup, 0);
        }
        Some(What::Lastmod) => {
            let (e, dup) = exact(Estimator::LastmodHistory);
            return (e, dup, 0);
        }
        _ => {}
    }
    // visits: each interval since the previous kept visit, changed or not
    let mut intervals: Vec<(f64, bool)> = Vec::with_capacity(marks.len());
    let mut last: Option<(f64, Option<u64>)> = None;
    for m in marks {
        let Some((time, digest)) = last else {
            last = Some((m.time, if let What::Digest(d) = m.what { Some(d) } else { None }));
            continue;
        };
        if m.time == time {
            match (m.what, digest) {
                (What::Digest(d), Some(before)) if d != before => conflicting += 1,
                _ => same += 1,
            }
            continue;
        }
        let (changed, now) = match m.what {
            What::Digest(d) => match digest {
                Some(before) => (before != d, Some(d)),
                // the content before is unknown (a first 304): this capture starts anew
                None => {
                    last = Some((m.time, Some(d)));
                    continue;
                }
            },
            What::Same => (false, digest),
            What::Changed(c) => (c, None),
            What::Change | What::Lastmod => (true, None),
        };
        intervals.push(((m.time - time) / DAY, changed));
        last = Some((m.time, now));
    }
    (estimate::from_intervals_at(&intervals, level), same, conflicting)
}

/// FNV-1a: a content digest's text as 64 bits (the same on every target).
pub fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}
