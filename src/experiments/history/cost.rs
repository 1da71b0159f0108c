//! The history's cost from files: records a byte and pages a record from each file's
//! first bytes, pages counted over the whole files where those cannot tell them, and the
//! reading's time by format.

use super::config::{HistoryConfig, RecordFile, floor_char};
use crate::core::limits::{Cost, Fix};
use crate::core::math::distinct;
use crate::core::model::history::count::PageCount;
use crate::core::model::history::head::PageShare;
use crate::core::model::history::{self, Format};

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
/// A page's estimate and row, on the reference machine: fitted to `npm run estimates`'
/// capture indexes of 500,000 pages once and 50,000 pages 30 times (0.99 s and 1.36 s
/// here, 1.23 times slower than the reference: 1.1 µs a page).
const SECONDS_PER_PAGE: f64 = 0.9e-6;
/// A sitemap's page beside it (its `<url>` parsed as XML events, its changefreq kept),
/// its bytes read at the line formats' speed: fitted to the sitemap of 500,000 URLs of
/// `npm run estimates` (71 MB, 1.26–1.35 s here at a probe of 1.19) against 30 snapshots
/// of 30,000 URLs (127 MB, read in 0.88 s beside its pages' count at 1.16): 1.3 µs a
/// page. (It had been 80 MB/s a byte, fitted to the one sitemap while every run re-read
/// each file's first megabyte to say how far it was: the snapshots ran 2.2 times under.)
const SITEMAP_SECONDS_PER_PAGE: f64 = 0.4e-6;
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
/// A path's stream while it is read (its pages' count's too, before): its 1 MB buffer
/// and a WARC file's index's 64 KB (`job::Stream`). Beside the megabyte every run is
/// allowed, it had left a WARC file of 20,000 records on 500 pages priced at 0.96 times
/// its peak resident size once its pages were counted.
const STREAM_BYTES: f64 = 1.1e6;
/// A path's own time beside its bytes, natively on the reference machine: its sampling,
/// its pages' count and its reading each open it and ask its size (some 8 calls to the
/// system), and its pages' count is read after it. Fitted to 2,000 and 10,000 crawl
/// logs of 12 lines (`npm run estimates` has them): 0.14 s and 0.65 s here, at a probe
/// of 1.38, where the rest of their estimate was 0.05 s and 0.25 s and one such log
/// runs in 0.03 s (they had been estimated at a fifth of their time).
const SECONDS_PER_PATH: f64 = 25e-6;
/// A path's own memory beside its pages': its name in the configuration, in what its
/// sampling and its pages' count keep for the process, and in its stream. Fitted to the
/// same 10,000 and 2,000 logs, whose peak resident sizes differ by 13.3 to 16.4 MB
/// (`npm run estimates`), up to 2.05 KB a path, where their pages and marks were priced
/// at 1.16 KB (the 10,000 had been priced at 0.61 of their memory; at 500 bytes a path,
/// 0.88): a memory estimate is a bound.
const PATH_BYTES: f64 = 1000.0;
/// Inflating gzip, per compressed byte (the same 126 MB gzipped whole, 49 MB: 0.37 s
/// more; a record a member, 80 MB: 0.66 s more).
const INFLATE_SECONDS_PER_BYTE: f64 = 1.0 / 150e6;

/// What a file costs, as its first bytes and its pages' count tell it.
struct FileCost {
    /// The marks it may give (a file read past its head at its format's margin).
    marks: f64,
    /// The marks at its head's density (no margin).
    seen: f64,
    /// Its pages: counted (those it adds to the files counted before it), else its head's
    /// share of its marks.
    pages: f64,
    /// A page's memory beside its marks' room ([`page_bytes`]).
    page_bytes: f64,
    /// Marks a page as its head shows them; None where its pages were counted (their
    /// marks a page are then the counted files' together: a page's marks from every file
    /// share its vector).
    each: Option<f64>,
    /// The time its pages take beside its bytes (a sitemap's XML is read slower).
    seconds: f64,
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

/// What a file's first bytes tell its cost, kept without them (a run of a thousand
/// files must not hold a megabyte of each to price itself).
#[derive(Clone)]
struct Sample {
    /// Its records' bytes.
    bytes: f64,
    /// Its format, told by its head where not given (Auto where it cannot be told).
    told: Format,
    /// A WARC file (as the command line reads it; the page's worker sends its index).
    warc: bool,
    /// Its marks at its head's density, and the margin for the file read past its head
    /// (the smallest record's bound where the head shows no record: [`MARKS_PER_BYTE`]).
    seen: f64,
    margin: f64,
    /// Its pages' share of its records, as its head shows them.
    share: PageShare,
    /// The format its pages are counted in over the whole file, if they are (a WARC
    /// file's: CDX, the index it implies; only from a path).
    counted: Option<Format>,
}

impl Sample {
    /// From `head`, the first bytes of a file of `bytes` bytes in `format`, loaded with
    /// others where `several`.
    fn of(head: &str, bytes: f64, format: Format, several: bool) -> Sample {
        let head = &head[..floor_char(head, SAMPLED_BYTES)];
        let whole = head.len() as f64 >= bytes;
        let warc = history::warc::is_warc(head.as_bytes());
        let told = if format == Format::Auto { history::detect(head).unwrap_or(Format::Auto) } else { format };
        let (seen, margin) = match marks_per_byte(head, told) {
            Some((density, margin)) => (bytes * density, if whole { 1.0 } else { margin }),
            None => (bytes * MARKS_PER_BYTE, 1.0),
        };
        let share = if told == Format::Auto && !warc { PageShare::EVERY_RECORD } else { PageShare::of(&head[..floor_char(head, SHARE_BYTES)], told, whole) };
        // a head's share tells its pages where it is the whole file's or a file's read past
        // it; a WARC file's are counted in the capture index it implies (its head cannot
        // tell a crawl of many rounds from one)
        let counted = match told {
            _ if warc => counted_in(Format::Cdx, bytes, several, || false),
            Format::Auto => None,
            _ => counted_in(told, bytes, several, || share.by_page),
        };
        Sample { bytes, told, warc, seen, margin, share, counted }
    }

    /// The files sampled, together, as a file of one byte: their records a byte and pages
    /// a record, each file's weighed by its records; the most bytes' format, and its
    /// margin for a file read past its head (an unsampled file's records a byte may be
    /// denser than the sampled files'). What an unsampled file stands as
    /// ([`RecordFile::unsampled`], [`Self::of_size`]); its pages are counted, as those
    /// of files loaded together are.
    fn pooled<'a>(samples: impl Iterator<Item = &'a Sample>) -> Sample {
        let (mut bytes, mut seen, mut pages, mut url_bytes) = (0.0, 0.0, 0.0, 0.0);
        let (mut told, mut largest) = (Format::Auto, -1.0);
        for s in samples {
            bytes += s.bytes;
            seen += s.seen;
            pages += s.seen * s.share.per_record;
            url_bytes += s.seen * s.share.url_bytes;
            if s.bytes > largest {
                (told, largest) = (s.told, s.bytes);
            }
        }
        let share = if seen > 0.0 { PageShare { per_record: pages / seen, url_bytes: url_bytes / seen, by_page: false } } else { PageShare::EVERY_RECORD };
        let seen = if bytes > 0.0 { seen / bytes } else { MARKS_PER_BYTE };
        let margin = if told.by_line() || told == Format::Sitemap { SAMPLED_MARGIN_LINES } else { SAMPLED_MARGIN };
        Sample { bytes: 1.0, told, warc: false, seen, margin, share, counted: None }
    }

    /// This pooled sample for a file of `bytes` bytes (`warc`: a WARC file's index).
    fn of_size(&self, bytes: f64, warc: bool) -> Sample {
        Sample { bytes, warc, seen: self.seen * bytes, ..self.clone() }
    }
}

/// What a file costs from its [`Sample`]: its marks (counted where the head is the whole
/// file, else its density × its format's margin), and its pages (`counted` over the
/// whole files, else their share of the records as the head shows it, [`PageShare`]).
fn file_cost(sample: &Sample, counted: Option<f64>) -> FileCost {
    let marks = sample.seen * sample.margin;
    // a page counted over the whole files, at the count's 4 standard errors
    let pages = match counted {
        Some(pages) => (pages * (1.0 + 4.0 * distinct::STANDARD_ERROR)).min(marks),
        None => marks * sample.share.per_record,
    }
    .min(history::MAX_PAGES as f64);
    // a WARC file's record cost was fitted with its pages' (PathSample::seconds)
    let pages_seconds = if sample.warc { 0.0 } else { pages * SECONDS_PER_PAGE };
    let sitemap = if sample.told == Format::Sitemap { pages * SITEMAP_SECONDS_PER_PAGE } else { 0.0 };
    let each = counted.is_none().then(|| 1.0 / sample.share.per_record);
    FileCost { marks, seen: sample.seen, pages, page_bytes: page_bytes(&sample.share), each, seconds: pages_seconds + sitemap }
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
/// over the whole of it ([`PageCount`]): a line format's file, unless it is the only file
/// and its head tells its pages (the whole file, or a head in page order with pages of
/// several records: a sorted index, whose head's share holds). A head naming each page
/// once, or a page again after others, may open a log of many visits in time order,
/// whose pages its head cannot tell (a page taken for each record had priced a 30-visit
/// log at 20 times its memory). `several` files may name the same pages, whatever their
/// size: a log rotated daily, and a sitemap's snapshots (30 snapshots of one sitemap had
/// been priced at 17 times their memory).
pub fn counted_format(head: &str, bytes: f64, format: Format, several: bool) -> Option<Format> {
    let head = &head[..floor_char(head, SHARE_BYTES)];
    if history::warc::is_warc(head.as_bytes()) {
        return None;
    }
    let told = if format == Format::Auto { history::detect(head)? } else { format };
    counted_in(told, bytes, several, || PageShare::of(head, told, false).by_page)
}

/// [`counted_format`] for a file in `told`, `by_page` its head's share's
/// ([`PageShare::by_page`] of a head read past, asked only where it decides).
fn counted_in(told: Format, bytes: f64, several: bool, by_page: impl FnOnce() -> bool) -> Option<Format> {
    let counted = match told {
        _ if bytes <= SAMPLED_BYTES as f64 && !several => false,
        Format::Sitemap => several,
        _ if told.by_line() => several || !by_page(),
        _ => false,
    };
    counted.then_some(told)
}

/// The pages of files counted together, each the pages it adds to those before it (None
/// where it is not counted): `files` each its format to count in, if any, and what reads
/// its lines into the count.
pub fn counted_together<F: FnMut(usize, &mut PageCount)>(formats: &[Option<Format>], mut read: F) -> Vec<Option<f64>> {
    let (mut count, mut before) = (None::<PageCount>, 0.0);
    let mut added = Vec::with_capacity(formats.len());
    for (k, format) in formats.iter().enumerate() {
        let Some(format) = *format else {
            added.push(None);
            continue;
        };
        let count = PageCount::begin(&mut count, format);
        read(k, count);
        let now = count.pages();
        added.push(Some(now - before));
        before = now;
    }
    added
}

/// The head's bytes read for the pages' share, some 300 index lines: the page's checks
/// read each file's at every edit (256 KB took 3 ms a file there).
const SHARE_BYTES: usize = 64 * 1024;

/// A file the command line reads, as its cost sees it before reading it: its first
/// megabyte (decompressed where it is gzip) sampled, then let go.
#[derive(Clone)]
struct PathSample {
    /// The file as it was sampled, its path first (natively: the page's files are
    /// texts), to count its pages and keep their count for it.
    #[cfg(not(target_arch = "wasm32"))]
    key: FileKey,
    sample: Sample,
    /// Its size on the disk where it is gzip, else 0.
    gzipped: f64,
    /// A WARC file's records a byte, and its captures' share whose payload is hashed
    /// (none gives its digest), from its head.
    warc: Option<(f64, f64)>,
}

impl PathSample {
    /// The file at `path` in `format`, read with others where `several`. Its records'
    /// bytes are its size, times the ratio its first megabyte inflates by where it is
    /// gzip (gzip told by its first two bytes, as the reader tells it).
    /// Sampled once a process for the file as it is (the command line's notice prices
    /// its paths before the run's checks do).
    #[cfg(not(target_arch = "wasm32"))]
    fn of(path: &str, format: Format, several: bool) -> PathSample {
        use std::collections::HashMap;
        use std::sync::Mutex;
        type Key = (FileKey, Format, bool);
        static SAMPLED: Mutex<Option<HashMap<Key, PathSample>>> = Mutex::new(None);
        let key: Key = (file_key(path), format, several);
        if let Some(kept) = SAMPLED.lock().ok().and_then(|mut s| s.get_or_insert_with(HashMap::new).get(&key).cloned()) {
            return kept;
        }
        let sampled = Self::sampled(key.0.clone(), format, several);
        if let Ok(mut kept) = SAMPLED.lock() {
            kept.get_or_insert_with(HashMap::new).insert(key, sampled.clone());
        }
        sampled
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn sampled(key: FileKey, format: Format, several: bool) -> PathSample {
        let path = &key.0;
        let (head, bytes, gzipped) = Self::head(path);
        let warc = history::warc::is_warc(head.as_bytes()).then(|| {
            // its records' first lines and headers, names without case (not a lower-case
            // copy of the head: pricing a file held a third megabyte for it)
            let starting = |name: &str| head.lines().filter(|l| l.get(..name.len()).is_some_and(|s| s.eq_ignore_ascii_case(name))).count();
            let records = starting("WARC/1.") as f64 / head.len().max(1) as f64;
            let captures = starting("WARC-Type: response") + starting("WARC-Type: resource");
            let digested = starting("WARC-Payload-Digest:");
            (records, if captures == 0 { 1.0 } else { captures.saturating_sub(digested) as f64 / captures as f64 })
        });
        PathSample { sample: Sample::of(&head, bytes, format, several), gzipped, warc, key }
    }

    #[cfg(target_arch = "wasm32")]
    fn of(_path: &str, format: Format, several: bool) -> PathSample {
        PathSample { sample: Sample::of("", 0.0, format, several), gzipped: 0.0, warc: None }
    }

    /// The file's first megabyte as text (decompressed), its records' bytes, and its
    /// size where it is gzip (else 0).
    #[cfg(not(target_arch = "wasm32"))]
    fn head(path: &str) -> (String, f64, f64) {
        use std::io::Read;
        // its bytes as text, copied only where they are not UTF-8 (a megabyte more)
        let text_of = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0) as f64;
        let mut raw = Vec::new();
        if let Ok(file) = std::fs::File::open(path) {
            let _ = file.take(SAMPLED_BYTES as u64).read_to_end(&mut raw);
        }
        if !raw.starts_with(&[0x1f, 0x8b]) {
            return (text_of(raw), size, 0.0);
        }
        // the sample's last member is cut short: what it gave up to there counts; at most
        // 64 sampled sizes inflated (gzip inflates up to 1,032 times: a megabyte of
        // zeros had taken a gigabyte to price), the first kept and the rest counted as
        // they pass (held, a CDX file's 9 had been), the ratio over the bytes that made them
        let mut rest = raw.as_slice();
        let mut inflated = flate2::bufread::MultiGzDecoder::new(&mut rest).take(64 * SAMPLED_BYTES as u64);
        let mut text = Vec::new();
        let _ = (&mut inflated).take(SAMPLED_BYTES as u64).read_to_end(&mut text);
        let mut passed = Passed(0);
        let _ = std::io::copy(&mut inflated, &mut passed);
        drop(inflated);
        let ratio = (text.len() as u64 + passed.0) as f64 / (raw.len() - rest.len()).max(1) as f64;
        drop(raw);
        (text_of(text), size * ratio.max(1.0), size)
    }

    /// Its reading time on the reference machine: a WARC file by its records (each
    /// payload without a digest hashed), any other at the line and XML readers' speed;
    /// its pages' count first where they were `counted`; gzip inflated.
    fn seconds(&self, counted: bool) -> f64 {
        let (bytes, inflate) = (self.sample.bytes, self.gzipped * INFLATE_SECONDS_PER_BYTE);
        let Some((records_per_byte, hashed)) = self.warc else {
            let count = if counted { bytes * COUNT_SECONDS_PER_BYTE + inflate } else { 0.0 };
            return bytes * SECONDS_PER_BYTE + inflate + count;
        };
        // a pass over its records; its pages' count passes them once more, unhashed
        let pass = bytes * records_per_byte * WARC_SECONDS_PER_RECORD + bytes * WARC_SECONDS_PER_BYTE + inflate;
        pass * (1.0 + f64::from(u8::from(counted))) + bytes * hashed * HASH_SECONDS_PER_BYTE
    }
}

/// A file as it is now, to keep what was read of it for the process: its path, size
/// and time of change.
#[cfg(not(target_arch = "wasm32"))]
type FileKey = (String, u64, Option<std::time::SystemTime>);

#[cfg(not(target_arch = "wasm32"))]
fn file_key(path: &str) -> FileKey {
    let metadata = std::fs::metadata(path).ok();
    (path.to_string(), metadata.as_ref().map_or(0, |m| m.len()), metadata.and_then(|m| m.modified().ok()))
}

/// Bytes written and let go (counted where an error ends the copy: `io::copy` then
/// says none).
#[cfg(not(target_arch = "wasm32"))]
struct Passed(u64);

#[cfg(not(target_arch = "wasm32"))]
impl std::io::Write for Passed {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len() as u64;
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The pages of the files at `samples`' paths, counted together in one pass of the
/// reader over each whose head cannot tell them (or of several files); the counts are
/// kept for the process (the checks price a configuration more than once).
#[cfg(not(target_arch = "wasm32"))]
fn counted_paths(samples: &[PathSample]) -> Vec<Option<f64>> {
    use std::collections::HashMap;
    use std::sync::Mutex;
    type Key = (Vec<FileKey>, Vec<Option<Format>>);
    static COUNTED: Mutex<Option<HashMap<Key, Vec<Option<f64>>>>> = Mutex::new(None);
    let formats: Vec<Option<Format>> = samples.iter().map(|s| s.sample.counted).collect();
    if formats.iter().all(Option::is_none) {
        return formats.iter().map(|_| None).collect();
    }
    let key: Key = (samples.iter().map(|s| s.key.clone()).collect(), formats.clone());
    if let Some(kept) = COUNTED.lock().ok().and_then(|mut c| c.get_or_insert_with(HashMap::new).get(&key).cloned()) {
        return kept;
    }
    let added = counted_together(&formats, |k, count| {
        if let Ok(mut stream) = super::job::Stream::naming_pages(&samples[k].key.0) {
            while let Ok(Some(_)) = stream.line() {
                count.line(stream.text(), stream.ended());
            }
        }
    });
    if let Ok(mut counted) = COUNTED.lock() {
        counted.get_or_insert_with(HashMap::new).insert(key, added.clone());
    }
    added
}

#[cfg(target_arch = "wasm32")]
fn counted_paths(samples: &[PathSample]) -> Vec<Option<f64>> {
    samples.iter().map(|_| None).collect()
}

/// The records' size of `config`'s paths (a gzip file its size times the ratio its first
/// megabyte inflates by), as their pricing sampled them.
pub(super) fn paths_bytes(config: &HistoryConfig) -> f64 {
    path_samples(config).iter().map(|p| p.sample.bytes).sum()
}

/// `config`'s paths sampled, each read with the others where there are several files.
fn path_samples(config: &HistoryConfig) -> Vec<PathSample> {
    let several = config.files.len() + config.paths.len() > 1;
    config.paths.iter().map(|p| PathSample::of(p, config.format, several)).collect()
}

/// The bytes of `config`'s paths whose pages are counted over the whole file before it
/// is priced (the command line says so past 100 MB: a pass of some 330 MB/s).
pub fn counted_bytes(config: &HistoryConfig) -> f64 {
    path_samples(config).iter().filter(|p| p.sample.counted.is_some()).map(|p| p.sample.bytes).sum()
}

/// The cost of reading `config`'s files (its source is files).
pub(super) fn records_cost(config: &HistoryConfig) -> Cost {
    let several = config.files.len() + config.paths.len() > 1;
    let paths = path_samples(config);
    let texts = config.text_bytes();
    let bytes = texts + paths.iter().map(|p| p.sample.bytes).sum::<f64>();
    // the page holds every file's whole text while it runs
    let held: f64 = config.files.iter().map(|f| f.bytes.unwrap_or(f.text.len() as u64).max(f.text.len() as u64) as f64).sum::<f64>() + config.records_bytes.unwrap_or(0) as f64;
    let sampled = |f: &RecordFile| Sample::of(&f.text, f.bytes.unwrap_or(0).max(f.text.len() as u64) as f64, config.format, several);
    let samples: Vec<Option<Sample>> = config.files.iter().map(|f| (!f.unsampled).then(|| sampled(f))).collect();
    let pooled = Sample::pooled(samples.iter().flatten());
    let samples: Vec<Sample> = samples.into_iter().zip(&config.files).map(|(s, f)| s.unwrap_or_else(|| pooled.of_size(f.bytes.unwrap_or(0) as f64, f.warc))).collect();
    // pages counted over whole files: by the page's worker as it loaded them (given; a
    // WARC file's as its capture index), a whole text here (a WARC file's text is priced
    // by its head's target URIs), the command line's paths before they are read
    let whole: Vec<Option<Format>> = config.files.iter().zip(&samples).map(|(f, s)| s.counted.filter(|_| f.pages.is_none() && f.bytes.is_none() && !s.warc)).collect();
    let in_texts = counted_together(&whole, |k, count| count.feed(&config.files[k].text));
    let in_paths = counted_paths(&paths);
    // records a byte and pages a record, sampled from each file's first bytes (a CDX
    // line is some 250 bytes, a dump's revision with its text over a thousand)
    let files: Vec<FileCost> = samples
        .iter()
        .zip(&config.files)
        .zip(&in_texts)
        .map(|((s, f), counted)| file_cost(s, f.pages.or(*counted)))
        .chain(paths.iter().zip(&in_paths).map(|(p, counted)| file_cost(&p.sample, *counted)))
        .collect();
    // a counted page's marks: the counted files' together
    let (seen, pages) = files.iter().filter(|f| f.each.is_none()).fold((0.0, 0.0), |(s, p), f| (s + f.seen, p + f.pages));
    let counted_each = seen / f64::max(pages, 1.0);
    let page_memory: f64 = files.iter().map(|f| f.pages * (f.page_bytes + marks_slack(f.each.unwrap_or(counted_each)))).sum();
    // files left out of the page's checks: a mark at the smallest record, a page each
    let unsampled = config.records_bytes.unwrap_or(0) as f64 * MARKS_PER_BYTE;
    let marks = files.iter().map(|f| f.marks).sum::<f64>() + unsampled;
    let page_memory = page_memory + unsampled * page_bytes(&PageShare::EVERY_RECORD);
    // the page's files are text (a WARC file it read as its capture index)
    let read_paths: f64 = paths.iter().zip(&in_paths).map(|(p, counted)| p.seconds(counted.is_some()) + SECONDS_PER_PATH).sum();
    let seconds = texts * SECONDS_PER_BYTE + read_paths + files.iter().map(|f| f.seconds).sum::<f64>() + unsampled * SECONDS_PER_PAGE;
    // the command line's paths are read one at a time through a stream's buffers, each
    // kept by its name
    let streams = if paths.is_empty() { 0.0 } else { STREAM_BYTES + paths.len() as f64 * PATH_BYTES };
    let fix = Fix::new("files", "read fewer or smaller files (one site, a shorter period)");
    Cost {
        work: bytes.max(1.0),
        unit: "bytes of records".into(),
        bytes: held + marks * history::BYTES_PER_MARK + page_memory + streams + 1e6,
        seconds,
        memory_fix: fix.clone(),
        time_fix: fix,
    }
}
