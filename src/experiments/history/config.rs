//! The history experiment's configuration: the records (files' text from the page or a
//! JSON config, or paths the CLI streams), their format, what a server is, the
//! intervals' confidence; its checks and its cost.

use crate::core::input::InputError;
use crate::core::labels::labelled;
use crate::core::limits::{Cost, Fix};
use crate::core::math::distinct;
use crate::core::model::history::count::PageCount;
use crate::core::model::history::generate::{Captures, Generator};
use crate::core::model::history::head::PageShare;
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
    /// where its head cannot tell them ([`counted_format`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pages: Option<f64>,
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
/// What a mark costs per byte of records, at the smallest record (a CSV line of about
/// 40 bytes): the bound the cost gives where no file's head can be sampled.
const MARKS_PER_BYTE: f64 = 1.0 / 40.0;
/// A file's records a byte are counted in its first bytes, this many at most.
pub const SAMPLED_BYTES: usize = 1 << 20;
/// A file read past its sampled head may hold records this many times as dense: a
/// dump's first articles with long texts, later ones short (XML and JSON); lines of
/// one index or log, and a sitemap's entries, vary less.
const SAMPLED_MARGIN: f64 = 2.0;
const SAMPLED_MARGIN_LINES: f64 = 1.25;
/// Native reading speed of the line and XML formats (tests/cost_model.rs, `npm run
/// bench:history`).
pub const SECONDS_PER_BYTE: f64 = 1.0 / 150e6;
/// A sitemap's reading, and a page's estimate and row, on the reference machine: fitted
/// to `npm run estimates`' capture indexes of 500,000 pages once and 50,000 pages 30
/// times (0.99 s and 1.36 s here, 1.23 times slower than the reference: 1.1 µs a page)
/// and its sitemap of 500,000 URLs (71 MB in 1.61 s, 0.55 s of it its pages).
const SECONDS_PER_PAGE: f64 = 0.9e-6;
const SITEMAP_SECONDS_PER_BYTE: f64 = 1.0 / 80e6;
/// A WARC file's reading, natively on the reference machine: a record's fixed cost (its
/// headers, its index line, its capture estimated), its bytes passed over, and a payload
/// without a digest hashed (SHA-1). Fitted to generated WARC files (`npm run estimates`
/// has them) measured here, 1.2 times slower than the reference: 126 MB in 48,000
/// records carrying digests read in 0.15 s, 403 MB in 10,000 in 0.10 s, and the same
/// without digests in 0.28 s and 0.54 s.
const WARC_SECONDS_PER_RECORD: f64 = 2.2e-6;
const WARC_SECONDS_PER_BYTE: f64 = 1.0 / 6e9;
const HASH_SECONDS_PER_BYTE: f64 = 1.0 / 1.1e9;
/// Counting a file's pages before it is read ([`PageCount`]), natively on the reference
/// machine: the 1.5-million-line index in time order of `npm run estimates`, 227 MB, in
/// 0.80 s here, 1.19 times slower than the reference.
const COUNT_SECONDS_PER_BYTE: f64 = 1.0 / 330e6;
/// Inflating gzip, per compressed byte (the same 126 MB gzipped whole, 49 MB: 0.37 s
/// more; a record a member, 80 MB: 0.66 s more).
const INFLATE_SECONDS_PER_BYTE: f64 = 1.0 / 150e6;

impl HistoryConfig {
    /// The records' total size in bytes: the texts', and the paths' files (a gzip file
    /// its size times the ratio its first megabyte inflates by).
    pub fn bytes(&self) -> f64 {
        self.text_bytes() + self.paths.iter().map(|p| PathSample::of(p).bytes).sum::<f64>()
    }

    /// The texts' size in bytes (the page's files, a WARC file as its capture index).
    fn text_bytes(&self) -> f64 {
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

/// Records a byte in `head`, a file's first bytes, in `format` (told by the head when
/// auto), and the margin for a file read past it: a line each in the line formats, a
/// `<url>` each in a sitemap, a `<revision>` in a MediaWiki dump and a `"timestamp"` in
/// the API's JSON, a record in a WARC file — each at most one mark. None where the head shows no record (a dump
/// whose first text is longer than it).
pub fn marks_per_byte(head: &str, format: Format) -> Option<(f64, f64)> {
    // a WARC file: a mark a record at most (its records' sizes vary as its pages' do)
    if history::warc::is_warc(head.as_bytes()) {
        let records = 1 + head.matches("\nWARC/1.").count();
        return Some((records as f64 / head.len() as f64, SAMPLED_MARGIN));
    }
    let format = if format == Format::Auto { history::detect(head)? } else { format };
    // a sitemap's entries, a URL and its dates each, vary as an index's lines do
    let margin = if format.by_line() || format == Format::Sitemap { SAMPLED_MARGIN_LINES } else { SAMPLED_MARGIN };
    let records = match format {
        Format::Sitemap => head.matches("<url>").count() + head.matches("<url ").count(),
        Format::Mediawiki if head.trim_start().starts_with('<') => head.matches("<revision>").count() + head.matches("<revision ").count(),
        Format::Mediawiki => head.matches("\"timestamp\"").count(),
        _ => head.bytes().filter(|&b| b == b'\n').count() + usize::from(!head.ends_with('\n')),
    };
    (records > 0 && !head.is_empty()).then(|| (records as f64 / head.len() as f64, margin))
}

/// The marks a file of `bytes` bytes may give from its first bytes `head` (counted where
/// the head is the whole file, else its density × its format's margin; the smallest
/// record's bound where the head shows none), the memory of their pages (`counted` over
/// the whole file, else their share of the records as the head shows it, [`PageShare`]),
/// and the time the pages take beside the file's bytes (a sitemap's XML is read slower
/// than the line formats).
fn file_records(head: &str, bytes: f64, format: Format, counted: Option<f64>) -> (f64, f64, f64) {
    let head = &head[..floor_char(head, SAMPLED_BYTES)];
    let whole = head.len() as f64 >= bytes;
    let warc = history::warc::is_warc(head.as_bytes());
    // the format told once, from the head where not given
    let told = if format == Format::Auto { history::detect(head).unwrap_or(Format::Auto) } else { format };
    // the marks at the head's density, and the margin for a file read past it
    let (seen, margin) = match marks_per_byte(head, told) {
        Some((density, margin)) => (bytes * density, if whole { 1.0 } else { margin }),
        None => (bytes * MARKS_PER_BYTE, 1.0),
    };
    let marks = seen * margin;
    let share = if told == Format::Auto && !warc { PageShare::EVERY_RECORD } else { PageShare::of(&head[..floor_char(head, SHARE_BYTES)], told, whole) };
    // a page counted over the whole file, at the count's 4 standard errors
    let pages = match counted {
        Some(pages) if !warc => (pages * (1.0 + 4.0 * distinct::STANDARD_ERROR)).min(marks),
        _ => marks * share.per_record,
    }
    .min(history::MAX_PAGES as f64);
    // a WARC file's record cost was fitted with its pages' (PathSample::seconds)
    let pages_seconds = if warc { 0.0 } else { pages * SECONDS_PER_PAGE };
    let sitemap = if told == Format::Sitemap { bytes * (SITEMAP_SECONDS_PER_BYTE - SECONDS_PER_BYTE) } else { 0.0 };
    // a page's marks: over its counted pages, else as its head shows them
    let each = if counted.is_some() && !warc { seen / pages.max(1.0) } else { 1.0 / share.per_record };
    (marks, pages * (page_bytes(&share) + marks_slack(each)), pages_seconds + sitemap)
}

/// A page's marks' room beyond its `each` marks, in bytes: its vector's capacity doubles
/// as it grows (from 4, which the fitted [`page_bytes`] holds), so 20 marks take the room
/// of 32 (a crawl.log of 20 rounds, its pages counted, had been priced at its peak). The
/// marks at the head's density, not the margin's: 30 captures a page read as 37 would
/// take the room of 64.
fn marks_slack(each: f64) -> f64 {
    if each <= 4.0 { 0.0 } else { (each.ceil().log2().ceil().exp2() - each) * history::BYTES_PER_MARK }
}

/// A page's memory through a run read from files: its records' entry, its estimate, its
/// row in the result and the page list, and its URL, kept about three times. Fitted to
/// the CLI's peak resident size on capture indexes of 500,000 pages of one capture each,
/// with URLs of 60 and 210 bytes: 751 and 1,182 bytes a page beside the records'.
fn page_bytes(share: &PageShare) -> f64 {
    580.0 + 2.9 * share.url_bytes
}

/// The format in which a file of `bytes` bytes, `head` its first, has its pages counted
/// over the whole of it ([`PageCount`]): a line format's file past its sampled head, unless
/// the head is in page order with pages of several records (a sorted index, whose head's
/// share holds). A head naming each page once, or a page again after others, may open a
/// log of many visits in time order, whose pages its head cannot tell (a page taken for
/// each record had priced a 30-visit log at 20 times its memory).
pub fn counted_format(head: &str, bytes: f64, format: Format) -> Option<Format> {
    let head = &head[..floor_char(head, SHARE_BYTES)];
    if bytes <= SAMPLED_BYTES as f64 || history::warc::is_warc(head.as_bytes()) {
        return None;
    }
    let told = if format == Format::Auto { history::detect(head)? } else { format };
    (told.by_line() && !PageShare::of(head, told, false).by_page).then_some(told)
}

/// The pages of `text`, a whole file, where its head cannot tell them.
fn counted_text(text: &str, format: Format) -> Option<f64> {
    let format = counted_format(text, text.len() as f64, format)?;
    let mut count = PageCount::new(format);
    count.feed(text);
    Some(count.pages())
}

/// The head's bytes read for the pages' share, some 300 index lines: the page's checks
/// read each file's at every edit (256 KB took 3 ms a file there).
const SHARE_BYTES: usize = 64 * 1024;

/// A file the command line reads, as its cost sees it before reading it: its first
/// megabyte, decompressed where it is gzip.
struct PathSample {
    /// Its first bytes, decompressed (for its records a byte).
    head: String,
    /// Its records' bytes: its size, times the ratio its first megabyte inflates by
    /// where it is gzip (gzip told by its first two bytes, as the reader tells it).
    bytes: f64,
    /// Its size on the disk where it is gzip, else 0.
    gzipped: f64,
    /// Its pages, counted over the whole file where its head cannot tell them
    /// ([`counted_format`]).
    pages: Option<f64>,
}

impl PathSample {
    #[cfg(not(target_arch = "wasm32"))]
    fn of(path: &str) -> PathSample {
        use std::io::Read;
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) as f64;
        let mut raw = Vec::new();
        if let Ok(file) = std::fs::File::open(path) {
            let _ = file.take(SAMPLED_BYTES as u64).read_to_end(&mut raw);
        }
        if !raw.starts_with(&[0x1f, 0x8b]) {
            let head = String::from_utf8_lossy(&raw).into_owned();
            return PathSample { pages: counted_path(path, &head, size), head, bytes: size, gzipped: 0.0 };
        }
        // the sample's last member is cut short: what it gave up to there counts; at most
        // 64 sampled sizes inflated (gzip inflates up to 1,032 times: a megabyte of
        // zeros had taken a gigabyte to price), the ratio over the bytes that made them
        let mut rest = raw.as_slice();
        let mut text = Vec::new();
        let _ = flate2::bufread::MultiGzDecoder::new(&mut rest).take(64 * SAMPLED_BYTES as u64).read_to_end(&mut text);
        let ratio = text.len() as f64 / (raw.len() - rest.len()).max(1) as f64;
        text.truncate(SAMPLED_BYTES);
        let (head, bytes) = (String::from_utf8_lossy(&text).into_owned(), size * ratio.max(1.0));
        PathSample { pages: counted_path(path, &head, bytes), head, bytes, gzipped: size }
    }

    #[cfg(target_arch = "wasm32")]
    fn of(_: &str) -> PathSample {
        PathSample { head: String::new(), bytes: 0.0, gzipped: 0.0, pages: None }
    }

    /// Its reading time on the reference machine: a WARC file by its records (each
    /// payload without a digest hashed), any other at the line and XML readers' speed
    /// (its pages' count first where they were counted); gzip inflated.
    fn seconds(&self) -> f64 {
        let inflate = self.gzipped * INFLATE_SECONDS_PER_BYTE;
        if !history::warc::is_warc(self.head.as_bytes()) {
            let count = if self.pages.is_some() { self.bytes * COUNT_SECONDS_PER_BYTE + inflate } else { 0.0 };
            return self.bytes * SECONDS_PER_BYTE + inflate + count;
        }
        let head = self.head.to_ascii_lowercase();
        let records = (1 + head.matches("\nwarc/1.").count()) as f64 * self.bytes / head.len().max(1) as f64;
        let captures = head.matches("warc-type: response").count() + head.matches("warc-type: resource").count();
        let digested = head.matches("warc-payload-digest:").count();
        let hashed = if captures == 0 { 1.0 } else { captures.saturating_sub(digested) as f64 / captures as f64 };
        records * WARC_SECONDS_PER_RECORD + self.bytes * (WARC_SECONDS_PER_BYTE + hashed * HASH_SECONDS_PER_BYTE) + inflate
    }
}

/// The pages of the file at `path` (`head` its first bytes, `bytes` its text's size),
/// counted in one pass of the reader where its head cannot tell them; a file's count is
/// kept for the process (the checks price a configuration more than once).
#[cfg(not(target_arch = "wasm32"))]
fn counted_path(path: &str, head: &str, bytes: f64) -> Option<f64> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    static COUNTED: Mutex<Option<HashMap<(String, u64), f64>>> = Mutex::new(None);
    let format = counted_format(head, bytes, history::detect(head)?)?;
    let size = std::fs::metadata(path).ok()?.len();
    let key = (path.to_string(), size);
    if let Some(&pages) = COUNTED.lock().ok()?.get_or_insert_with(HashMap::new).get(&key) {
        return Some(pages);
    }
    let mut stream = super::job::Stream::open(path).ok()?;
    let mut count = PageCount::new(format);
    while let Ok(Some(_)) = stream.line() {
        count.line(stream.text(), stream.ended());
    }
    let pages = count.pages();
    COUNTED.lock().ok()?.get_or_insert_with(HashMap::new).insert(key, pages);
    Some(pages)
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
        if self.files.is_empty() && self.paths.is_empty() && self.records_bytes.is_none() {
            return Err(InputError::new("files", "are not loaded: load the records (a CDX or CDXJ index, sitemaps, a crawl.log, a CSV crawl log or MediaWiki revisions)"));
        }
        if cfg!(target_arch = "wasm32") && !self.paths.is_empty() {
            return Err(InputError::new("paths", "are read by the command line only; in the page, load the files"));
        }
        for (k, file) in self.files.iter().enumerate() {
            if file.pages.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
                return Err(InputError::new(
                    format!("files[{k}].pages"),
                    "must be a count of pages, 0 or more (the page's worker counts them as it loads the file); leave it out to price the file by its text",
                ));
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
        let paths: Vec<PathSample> = self.paths.iter().map(|p| PathSample::of(p)).collect();
        let texts = self.text_bytes();
        let bytes = texts + paths.iter().map(|p| p.bytes).sum::<f64>();
        // the page holds every file's whole text while it runs
        let held: f64 = self.files.iter().map(|f| f.bytes.unwrap_or(f.text.len() as u64).max(f.text.len() as u64) as f64).sum::<f64>() + self.records_bytes.unwrap_or(0) as f64;
        // records a byte and pages a record, sampled from each file's first bytes (a CDX
        // line is some 250 bytes, a dump's revision with its text over a thousand)
        let unsampled = self.records_bytes.unwrap_or(0) as f64 * MARKS_PER_BYTE;
        let (marks, page_memory, more_seconds) = self
            .files
            .iter()
            .map(|f| {
                // the page's worker counted them as it loaded the file; a whole text here
                let counted = f.pages.or_else(|| if f.bytes.is_none() && !f.warc { counted_text(&f.text, self.format) } else { None });
                file_records(&f.text, f.bytes.unwrap_or(0).max(f.text.len() as u64) as f64, self.format, counted)
            })
            .chain(paths.iter().map(|p| file_records(&p.head, p.bytes, self.format, p.pages)))
            .chain([(unsampled, unsampled * page_bytes(&PageShare::EVERY_RECORD), unsampled * SECONDS_PER_PAGE)])
            .fold((0.0, 0.0, 0.0), |(m, p, t), (fm, fp, ft)| (m + fm, p + fp, t + ft));
        // the page's files are text (a WARC file it read as its capture index)
        let seconds = texts * SECONDS_PER_BYTE + paths.iter().map(PathSample::seconds).sum::<f64>() + more_seconds;
        let fix = Fix::new("files", "read fewer or smaller files (one site, a shorter period)");
        Cost {
            work: bytes.max(1.0),
            unit: "bytes of records".into(),
            bytes: held + marks * history::BYTES_PER_MARK + page_memory + 1e6,
            seconds,
            memory_fix: fix.clone(),
            time_fix: fix,
        }
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
