//! The history experiment's configuration: the records (files' text from the page or a
//! JSON config, or paths the CLI streams), their format, what a server is, the
//! intervals' confidence; its checks and its cost.

use super::cost;
use crate::core::input::InputError;
use crate::core::labels::labelled;
use crate::core::limits::{Cost, Fix};
use crate::core::model::history::generate::{Captures, Generator};
use crate::core::model::history::server::ServerBy;
use crate::core::model::history::{self, Format};
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

/// One file of records: its name (said in messages) and its text.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordFile {
    pub name: String,
    /// The text (decompressed by the page when it was gzip).
    #[serde(default)]
    pub text: String,
    /// The file's size: kept when the text is left out of a result's copy of the
    /// config, or when the text is only the file's first bytes, standing for it in the
    /// page's checks (its records a byte are sampled there; a run needs the whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The text is a WARC file's capture index, which the page's worker read from the
    /// file as it loaded (a WARC holds binary payloads: it cannot travel as text).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub warc: bool,
    /// The pages the file names, counted by the page's worker as it loaded the file,
    /// where its head cannot tell them, or those it adds to the files before it
    /// ([`cost::counted_format`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<f64>,
    /// Its head is left out of the page's checks, which hold the heads of at most 64
    /// files, spread evenly over those loaded (`views/history.js`, `SAMPLED_FILES`):
    /// priced as the sampled files are together (their records a
    /// byte and pages a record, [`cost`]), by its size and its pages counted. The page
    /// sends such files as a few entries, each several files together (their sizes and
    /// pages summed), which price as they would one by one. (Each check
    /// of 2,000 small logs' heads held the page's main thread for 133 ms.)
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unsampled: bool,
}

labelled! {
/// Where the records come from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordSource {
    /// Generated captures of pages whose rates are known (what the estimates recover).
    #[default]
    Generator => "generated captures (known rates)",
    /// The files loaded (the page) or named (`freshlab history FILE…`).
    Files => "your records",
}
}

crate::core::field::settings! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryConfig {
    pub source: RecordSource = RecordSource::Generator; select("records from").help("generated captures of pages whose rates are known, or your files (the page's file box; freshlab history FILE…)");
    pub pages: u64 = 1000; integer("generated pages").count(1, 1_000_000);
    pub servers: u64 = 50; integer("their servers").count(1, 1_000_000);
    pub days: f64 = 365.0; number("generated period (days)").positive().at_most(36_500.0);
    pub rate_min: f64 = 0.005; number("slowest change rate (per day)").positive().at_most(1000.0);
    pub rate_max: f64 = 2.0; number("fastest change rate (per day)").positive().at_most(1000.0);
    pub spacing_min: f64 = 1.0; number("shortest mean capture spacing (days)").positive().at_most(3650.0);
    pub spacing_max: f64 = 30.0; number("longest mean capture spacing (days)").positive().at_most(3650.0);
    pub captures: Captures = Captures::Poisson; select("pages captured");
    pub seed: u64 = 1; seed();
    pub format: Format = Format::Auto; select("the records' format").help("CDX, CDXJ, sitemap, Heritrix crawl.log, CSV or MediaWiki; detected from each file when auto");
    pub server_by: ServerBy = ServerBy::Host; select("a server is the URL's").help("pages of one server share its politeness in the other experiments");
    pub confidence: f64 = 0.95; number("confidence of the intervals").help("the likelihood-ratio interval of each page's rate").at_least(0.5).at_most(0.999);
    pub types: bool = false; bool("page list with mime types").help("each page's latest captured mime type as its metadata (Content-Type=…) in the exported page list (CSV, --out), which the crawlers experiment reads (Nutch's MimeAdaptiveFetchSchedule) and the others refuse; the button to your crawler always sends them");
    /// The files' text (the page, a JSON config).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<RecordFile> = Vec::new(); internal;
    /// The size in bytes of records the page holds but leaves out of its checks (the
    /// text goes with the run only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub records_bytes: Option<u64> = None; internal;
    /// Files the command line reads as streams (`freshlab history FILE…`, gzip or not).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub paths: Vec<String> = Vec::new(); internal;
    /// The wiki whose revisions a MediaWiki API answer lists (a dump names its own).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wiki_site: Option<String> = None; internal;
}
}

/// The records' size limit in the page (a 100 MB index is read in a few seconds).
pub const MAX_TEXT_BYTES: u64 = 1 << 30;
impl HistoryConfig {
    /// The records' total size in bytes: the texts', and the paths' files (a gzip file
    /// its size times the ratio its first megabyte inflates by).
    pub fn bytes(&self) -> f64 {
        self.text_bytes() + cost::paths_bytes(self)
    }

    /// The texts' size in bytes (the page's files, a WARC file as its capture index).
    pub(super) fn text_bytes(&self) -> f64 {
        (self.files.iter().map(|f| f.bytes.unwrap_or(f.text.len() as u64)).sum::<u64>() + self.records_bytes.unwrap_or(0)) as f64
    }

    /// The generator of records with known rates.
    pub fn generator(&self) -> Generator {
        Generator {
            pages: self.pages,
            servers: self.servers,
            days: self.days,
            rate_min: self.rate_min,
            rate_max: self.rate_max,
            spacing_min: self.spacing_min,
            spacing_max: self.spacing_max,
            captures: self.captures,
            seed: self.seed,
        }
    }

    /// Captures the generator makes, in the mean: each page's period times the mean of
    /// 1/spacing over its log-uniform law, (1/a − 1/b)/ln(b/a) (in bursts, five a visit
    /// at a fifth of the rate: the same). ln b − ln a, not ln(b/a): b/a overflows where a
    /// is tiny (a spacing of 1e-308 days had read as no captures at all).
    pub fn generated_marks(&self) -> f64 {
        let (a, b) = (self.spacing_min, self.spacing_max);
        let per_day = if b > a { (1.0 / a - 1.0 / b) / (b.ln() - a.ln()) } else { 1.0 / a };
        self.pages as f64 * (self.days * per_day + 1.0)
    }

    /// The site of a MediaWiki API answer's pages.
    pub fn wiki(&self) -> &str {
        self.wiki_site.as_deref().unwrap_or("en.wikipedia.org")
    }
}

impl Settings for HistoryConfig {
    fn rules(&self) -> Result<(), InputError> {
        if self.rate_min > self.rate_max {
            return Err(InputError::new("rate_min", format!("is above the fastest rate {}; make it at most that", self.rate_max)));
        }
        if self.spacing_min > self.spacing_max {
            return Err(InputError::new("spacing_min", format!("is above the longest spacing {}; make it at most that", self.spacing_max)));
        }
        if self.source == RecordSource::Generator {
            if let Some(field) =
                [("files", !self.files.is_empty()), ("paths", !self.paths.is_empty()), ("records_bytes", self.records_bytes.is_some())].iter().find(|f| f.1).map(|f| f.0)
            {
                return Err(InputError::new(field, "are given but the records come from the generator; set source to files to read them"));
            }
            return Ok(());
        }
        if !self.files.is_empty() && self.records_bytes.is_some() {
            return Err(InputError::new("records_bytes", "is given beside files; it stands for files left out of the page's checks, so remove it"));
        }
        if !self.files.is_empty() && self.files.iter().all(|f| f.unsampled) {
            return Err(InputError::new("files", "are all unsampled: a check prices the others as the sampled ones are; leave some file's head in"));
        }
        if self.files.is_empty() && self.paths.is_empty() && self.records_bytes.is_none() {
            return Err(InputError::new("files", "are not loaded: load the records (a CDX or CDXJ index, sitemaps, a crawl.log, a CSV crawl log or MediaWiki revisions)"));
        }
        if cfg!(target_arch = "wasm32") && !self.paths.is_empty() {
            return Err(InputError::new("paths", "are read by the command line only; in the page, load the files"));
        }
        // a path is read more than once: sampled to price it, its pages counted, then read
        #[cfg(not(target_arch = "wasm32"))]
        for path in &self.paths {
            match std::fs::metadata(path) {
                Err(e) => return Err(InputError::new("paths", format!("{path} cannot be read ({e}); give the path of a file of records"))),
                Ok(m) if m.is_dir() => {
                    let dir = path.trim_end_matches('/');
                    return Err(InputError::new("paths", format!("{path} is a directory; give the files of records in it ({dir}/*.cdx, {dir}/crawl*.log)")));
                }
                Ok(m) if !m.is_file() => {
                    return Err(InputError::new(
                        "paths",
                        format!(
                            "{path} is not a file (a pipe or a device), and the records are read more than once (priced, their pages counted, then read); pipe them into standard input instead (zcat index.cdx.gz | freshlab history -), which is kept in a temporary file, or save them to a file and give its path"
                        ),
                    ));
                }
                Ok(_) => {}
            }
        }
        for (k, file) in self.files.iter().enumerate() {
            if file.pages.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
                return Err(InputError::new(
                    format!("files[{k}].pages"),
                    "must be a count of pages, 0 or more (the page's worker counts them as it loads the file); leave it out to price the file by its text",
                ));
            }
            if file.unsampled {
                if file.bytes.is_none() {
                    return Err(InputError::new(format!("files[{k}]"), format!("{} is marked unsampled without its size; give bytes, or its text", file.name)));
                }
                continue;
            }
            if file.text.is_empty() {
                let why = if file.bytes.is_some() { "was left out of this copy of the configuration; load the file again" } else { "is empty" };
                return Err(InputError::new(format!("files[{k}]"), format!("{} {why}", file.name)));
            }
            if self.format == Format::Auto && history::detect(&file.text[..floor_char(&file.text, 4096)]).is_none() {
                return Err(InputError::new(
                    format!("files[{k}]"),
                    format!("{}: its format is not one Freshlab knows from its first line; choose the format (cdx, cdxj, sitemap, heritrix, csv, mediawiki)", file.name),
                ));
            }
        }
        Ok(())
    }

    fn cost(&self) -> Cost {
        if self.source == RecordSource::Generator {
            let marks = self.generated_marks();
            // captures more than hourly in the mean: the spacing is what to change
            let fix = if marks > 24.0 * self.days * self.pages as f64 {
                Fix::new("spacing_min", "make the shortest capture spacing longer (a capture a day is spacing 1)")
            } else {
                Fix::new("pages", "generate fewer pages")
            };
            return Cost {
                work: marks.max(1.0),
                unit: "captures".into(),
                // the marks' vectors grow by doubling: half as much again in the mean
                bytes: 1.5 * marks * history::BYTES_PER_MARK + self.pages as f64 * (history::BYTES_PER_PAGE + 400.0) + 1e6,
                // generated and estimated, about 270 ns a capture (npm run fuzz: 10.6 million
                // captures in 2.9 s)
                seconds: marks * 270e-9,
                memory_fix: fix.clone(),
                time_fix: fix,
            };
        }
        cost::records_cost(self)
    }
}

/// The largest char boundary of `text` at most `at`.
pub fn floor_char(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}
