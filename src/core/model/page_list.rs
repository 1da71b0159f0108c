//! A researcher's own repository: a CSV page list with a header naming its columns,
//! `page,server,change_rate` (the server optional where pages are URLs: a page without
//! one is counted against its URL's host) and optionally `weight` (importance, default 1),
//! `frequency` (revisits per day, which skips allocation) and `observed` (1 when every
//! change of the page is announced, by a sitemap or a feed; default 0), and the page's
//! server's limits (issue 46: `crawl_delay` in seconds, `capacity` in requests a second,
//! `response_ms`; given on one row of the server or alike on each), and the page's
//! `metadata` as a crawler's seed list gives it (`key=value` pairs: the crawlers
//! experiment reads the keys its crawler reads, [`super::page_metadata`]). Change rates and
//! frequencies are per day. Import is strict, as for traces: every bad row is named
//! with its line and reason, and nothing is dropped or reordered.

use super::csv_rows::{self, Report, Row, Separator, decode};
use super::host::Host;
use super::page_metadata::{self, Kinds, PageMetadata};
use super::rate_bins::RateBins;
use super::repository::Repository;
use crate::core::input::InputError;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::HashMap;

/// At most this many pages in one list (the WEBBASE scale is 14.5 M).
pub const MAX_ROWS: usize = 20_000_000;
/// At most this many bytes of CSV (as for traces).
pub const MAX_BYTES: u64 = super::trace::MAX_BYTES as u64;
const MAX_NAME: usize = 1000;
const COLUMNS: [&str; 12] = ["page", "server", "change_rate", "weight", "frequency", "observed", "crawl_delay", "capacity", "response_ms", "rate_low", "rate_high", "metadata"];

/// One page as given inline in a JSON config (the same fields as the CSV columns).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PageRow {
    pub page: String,
    /// Its server; empty or left out: its URL's host ([`server_of`]).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub server: String,
    pub change_rate: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frequency: Option<f64>,
    /// True when every change of the page is observed (complete observation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed: Option<bool>,
    /// Its server's robots.txt Crawl-delay (seconds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub crawl_delay: Option<f64>,
    /// Its server's capacity (requests a second).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capacity: Option<f64>,
    /// Its server's response time when idle (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub response_ms: Option<f64>,
    /// The change rate's confidence interval, when the rate is an estimate (a history's
    /// page list, issue 47).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_low: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate_high: Option<f64>,
    /// The page's metadata as its crawler's seed list gives it: `key=value` pairs
    /// separated by `|` or tabs (the crawlers experiment reads the keys its crawler does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<String>,
}

/// A server's limits as a list gives them (None: not given, the experiment's setting).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ServerLimits {
    pub crawl_delay_s: Option<f64>,
    pub capacity: Option<f64>,
    pub response_ms: Option<f64>,
}

impl ServerLimits {
    pub fn given(&self) -> bool {
        self.crawl_delay_s.is_some() || self.capacity.is_some() || self.response_ms.is_some()
    }

    /// The server's limits: those given, the settings' (`set`) for the others.
    pub fn over(&self, set: Host) -> Host {
        Host {
            crawl_delay_s: self.crawl_delay_s.unwrap_or(set.crawl_delay_s),
            capacity: self.capacity.unwrap_or(set.capacity),
            response_s: self.response_ms.map_or(set.response_s, |ms| ms / 1000.0),
        }
    }

    /// The first value given of each (a list giving two is refused by the run).
    pub fn add(&mut self, crawl_delay_s: Option<f64>, capacity: Option<f64>, response_ms: Option<f64>) {
        self.crawl_delay_s = self.crawl_delay_s.or(crawl_delay_s);
        self.capacity = self.capacity.or(capacity);
        self.response_ms = self.response_ms.or(response_ms);
    }
}

/// A server's limit as a page list gives it: its column, and whether a row and a
/// server's limits give it.
pub struct Limit {
    pub column: &'static str,
    pub in_row: fn(&PageRow) -> bool,
    pub of_server: fn(&ServerLimits) -> bool,
}

/// The robots.txt Crawl-delay (seconds).
pub const CRAWL_DELAY: Limit = Limit { column: "crawl_delay", in_row: |r| r.crawl_delay.is_some(), of_server: |l| l.crawl_delay_s.is_some() };
/// Requests a second the server answers before it refuses.
pub const CAPACITY: Limit = Limit { column: "capacity", in_row: |r| r.capacity.is_some(), of_server: |l| l.capacity.is_some() };
/// Its base response time (milliseconds).
pub const RESPONSE_MS: Limit = Limit { column: "response_ms", in_row: |r| r.response_ms.is_some(), of_server: |l| l.response_ms.is_some() };

/// The servers a list gives one set of limits, and their sizes, for an estimate.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LimitGroup {
    pub limits: ServerLimits,
    /// Pages per server, largest first.
    #[serde(with = "super::server_sizes")]
    pub sizes: Vec<f64>,
}

/// Servers (pages, limits) grouped by their limits, the most pages first.
pub fn limit_groups(servers: impl IntoIterator<Item = (u64, ServerLimits)>) -> Vec<LimitGroup> {
    let key = |l: &ServerLimits| [l.crawl_delay_s, l.capacity, l.response_ms].map(|v| v.map(f64::to_bits));
    let mut groups: HashMap<[Option<u64>; 3], LimitGroup> = HashMap::new();
    for (pages, limits) in servers {
        groups.entry(key(&limits)).or_insert_with(|| LimitGroup { limits, sizes: Vec::new() }).sizes.push(pages as f64);
    }
    let mut groups: Vec<LimitGroup> = groups.into_values().collect();
    for g in &mut groups {
        g.sizes.sort_by(|a, b| b.total_cmp(a));
    }
    let pages = |g: &LimitGroup| g.sizes.iter().sum::<f64>();
    groups.sort_by(|a, b| pages(b).total_cmp(&pages(a)).then_with(|| key(&a.limits).cmp(&key(&b.limits))));
    groups
}

/// An imported repository, with the way back to the file's order.
#[derive(Clone, Debug, PartialEq)]
pub struct PageList {
    /// Pages grouped by server (servers in order of first appearance, pages in file
    /// order within each server).
    pub repo: Repository,
    /// The page names, in the file's order.
    pub names: Vec<String>,
    pub server_names: Vec<String>,
    /// Row k of the file is page `position[k]` of `repo`.
    pub position: Vec<usize>,
    /// Given revisit frequencies per day, indexed like `repo` (when the list has them).
    pub frequency: Option<Vec<f64>>,
    /// Each server's limits, when the list gives any.
    pub servers: Option<Vec<ServerLimits>>,
    /// Each change rate's interval [low, high], indexed like `repo`, when the rates are
    /// estimates (a history's page list).
    pub rate_bounds: Option<Vec<[f64; 2]>>,
    /// The pages' metadata, indexed like `repo`, when some page has any.
    pub metadata: Option<PageMetadata>,
}

impl PageList {
    /// Values indexed like `repo`, put back in the file's order.
    pub fn in_file_order(&self, values: &[f64]) -> Vec<f64> {
        self.position.iter().map(|&i| values[i]).collect()
    }
}

/// At most this many servers' sizes are kept in a [`ListShape`] (the page sends the shape
/// with every check of its form); beyond, the mean size stands for each.
pub const SHAPE_SIZES: u64 = 20_000;

/// What a page list's cost depends on, read in one pass over its text without checking
/// it (the run checks every row): its pages, its servers and their sizes, its change
/// rates. The page computes it in its worker when a list is loaded and sends it with
/// every check of its form in place of the text (`page_list_shape`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListShape {
    /// The text's size in bytes.
    pub bytes: u64,
    pub pages: u64,
    pub servers: u64,
    /// Pages per server, largest first (empty beyond [`SHAPE_SIZES`] servers).
    #[serde(default, with = "super::server_sizes")]
    pub sizes: Vec<f64>,
    /// Its pages by change rate, with the rates' Σ (changes per day), and the largest.
    pub rates: RateBins,
    pub rate_max: f64,
    /// How its fields are separated ("comma-separated", "semicolon-separated", …).
    #[serde(default)]
    pub separator: String,
    /// Its rates are estimates with intervals (`rate_low`, `rate_high`: a history's).
    #[serde(default)]
    pub estimated_rates: bool,
    /// Some row gives its server a limit (`crawl_delay`, `capacity`, `response_ms`).
    #[serde(default)]
    pub gives_limits: bool,
    /// Where it does, its servers grouped by their limits (empty beyond [`SHAPE_SIZES`]
    /// servers).
    #[serde(default)]
    pub limits: Vec<LimitGroup>,
    /// Its pages' metadata: each kind (canonical text, [`page_metadata::canonical`]) with
    /// its pages, the most first, up to [`SHAPE_KINDS`] kinds; empty without metadata.
    #[serde(default)]
    pub metadata: Vec<(String, u64)>,
    /// Pages of the kinds beyond those, or whose metadata cannot be read.
    #[serde(default)]
    pub metadata_other: u64,
    /// Why the run will refuse its header (an unknown or missing column), said when the
    /// list is loaded rather than when the run starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub header_problem: Option<String>,
    /// Some of its pages, each a server and a page as written, spread evenly over the
    /// list ([`Sample`]): what the crawlers' rules over paths give pages, where the text
    /// is not at hand (the page's form).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sample: Vec<(String, String)>,
}

/// Pages a [`ListShape`] keeps as its sample, at most.
pub const SHAPE_SAMPLE: usize = 256;

/// A sample of rows spread evenly over a list read once, its length unknown: every
/// stride-th row, the stride doubling (every other row kept dropped) whenever the
/// sample passes [`SHAPE_SAMPLE`] — the same rows on every reading.
#[derive(Default)]
struct Sample {
    rows: Vec<(String, String)>,
    stride: u64,
    seen: u64,
}

impl Sample {
    /// Offers the next row, given as what it would keep.
    fn offer(&mut self, row: impl FnOnce() -> (String, String)) {
        self.stride = self.stride.max(1);
        if self.seen.is_multiple_of(self.stride) {
            self.rows.push(row());
            if self.rows.len() > SHAPE_SAMPLE {
                let mut k = 0usize;
                self.rows.retain(|_| {
                    k += 1;
                    k % 2 == 1
                });
                self.stride *= 2;
            }
        }
        self.seen += 1;
    }
}

/// At most this many kinds of metadata are kept in a [`ListShape`].
pub const SHAPE_KINDS: usize = 1000;

/// Kinds of metadata with their pages, the most first, at most [`SHAPE_KINDS`] (the
/// others' pages counted apart), without the kind "none" unless others are given.
pub fn metadata_shape(tally: HashMap<String, u64>, unread: u64) -> (Vec<(String, u64)>, u64) {
    if tally.keys().all(String::is_empty) && unread == 0 {
        return (Vec::new(), 0);
    }
    let mut kinds: Vec<(String, u64)> = tally.into_iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let other: u64 = kinds.iter().skip(SHAPE_KINDS).map(|k| k.1).sum();
    kinds.truncate(SHAPE_KINDS);
    (kinds, other + unread)
}

/// Each row's server ([`server_of`]) and page (trimmed; the page empty without the
/// column) in a list's CSV text, in the file's order; rows without a server are not given.
pub fn each_server_page(text: &str, mut each: impl FnMut(&str, &str)) {
    let mut reader = csv_rows::reader(text, Separator::of(text));
    let mut record = csv::ByteRecord::new();
    let mut columns: Option<[Option<usize>; 2]> = None;
    fn field(record: &csv::ByteRecord, k: Option<usize>) -> Option<&str> {
        k.and_then(|k| record.get(k)).and_then(|f| std::str::from_utf8(f).ok()).map(str::trim)
    }
    while reader.read_byte_record(&mut record).unwrap_or(false) {
        let Some([server, page]) = columns else {
            let named = |name: &str| record.iter().position(|f| std::str::from_utf8(f).is_ok_and(|f| f.trim().eq_ignore_ascii_case(name)));
            columns = Some([named("server"), named("page")]);
            continue;
        };
        let page = field(&record, page).unwrap_or("");
        if let Some(name) = server_of(field(&record, server).unwrap_or(""), page) {
            each(&name, page);
        }
    }
}

impl ListShape {
    /// The shape of a list's CSV text. Rows it cannot read count as pages on servers of
    /// their own (an upper bound; the run refuses them, naming each).
    pub fn of(text: &str) -> ListShape {
        let separator = Separator::of(text);
        let mut reader = csv_rows::reader(text, separator);
        let mut record = csv::ByteRecord::new();
        // where the header puts the server, the rate, the limits and the metadata
        type Columns = (Option<usize>, Option<usize>, [Option<usize>; 3], Option<usize>);
        let mut columns: Option<Columns> = None;
        let (mut kinds, mut unread_metadata): (HashMap<String, u64>, u64) = (HashMap::new(), 0);
        let mut estimated_rates = false;
        let mut header_problem = None;
        let mut servers_seen: HashMap<Vec<u8>, (u64, ServerLimits)> = HashMap::new();
        let (mut page, mut sample) = (None, Sample::default());
        let text_of = |f: &[u8]| String::from_utf8_lossy(f).trim().to_string();
        let (mut pages, mut unread, mut rates, mut rate_max) = (0u64, 0u64, RateBins::default(), 0.0f64);
        let number = |record: &csv::ByteRecord, k: Option<usize>| {
            k.and_then(|k| record.get(k)).and_then(|f| std::str::from_utf8(f).ok()).map(str::trim).filter(|f| !f.is_empty()).and_then(|f| parse_number(f, separator).ok())
        };
        while reader.read_byte_record(&mut record).unwrap_or(false) {
            let Some((server, rate, limit_columns, metadata)) = columns else {
                // a column by its name, or by another common name the run refuses it for
                // (said in `header_problem`): a crawl's export `url,host,rate` is sized
                // by its hosts meanwhile, not a server a row
                let named = |f: &str, name: &str| {
                    let f = f.trim().to_ascii_lowercase();
                    f == name || synonym(&f) == Some(name)
                };
                let index = |name: &str| record.iter().position(|f| std::str::from_utf8(f).is_ok_and(|f| named(f, name)));
                columns = Some((index("server"), index("change_rate"), [index("crawl_delay"), index("capacity"), index("response_ms")], index("metadata")));
                page = index("page");
                estimated_rates = index("rate_low").is_some();
                let names: Vec<String> = record.iter().map(|f| String::from_utf8_lossy(f).into_owned()).collect();
                let line = record.position().map_or(1, |p| p.line() as usize);
                header_problem = read_header(&names, line, "page_list").err().map(|e| e.message);
                continue;
            };
            if record.iter().all(|f| f.iter().all(u8::is_ascii_whitespace)) {
                continue;
            }
            pages += 1;
            let given = server.and_then(|k| record.get(k)).filter(|name| !name.trim_ascii().is_empty());
            let page_text = || page.and_then(|k| record.get(k)).map_or_else(String::new, text_of);
            let from_host = || super::history::server::host(&page_text()).map(String::into_bytes);
            match given.map(Cow::Borrowed).or_else(|| from_host().map(Cow::Owned)) {
                Some(name) => {
                    // (compared without case, as the run does)
                    let name = without_case(&name);
                    let seen = match servers_seen.get_mut(name.as_ref()) {
                        Some(seen) => seen,
                        None => servers_seen.entry(name.to_vec()).or_default(),
                    };
                    seen.0 += 1;
                    sample.offer(|| (text_of(&name), page_text()));
                    if limit_columns.iter().any(Option::is_some) {
                        let [d, c, r] = limit_columns.map(|k| number(&record, k));
                        seen.1.add(d, c, r);
                    }
                }
                None => unread += 1,
            }
            if let Some(r) = number(&record, rate).filter(|r| r.is_finite() && *r > 0.0) {
                rates.add(r);
                rate_max = rate_max.max(r);
            }
            if let Some(k) = metadata {
                match record.get(k).and_then(|f| std::str::from_utf8(f).ok()).map(page_metadata::canonical) {
                    Some(Ok(kind)) => *kinds.entry(kind).or_default() += 1,
                    _ => unread_metadata += 1,
                }
            }
        }
        let (metadata, metadata_other) = metadata_shape(kinds, unread_metadata);
        // a row without a server counts as a server of its own (an upper bound)
        let tallies: Vec<(u64, ServerLimits)> = servers_seen.into_values().chain(std::iter::repeat_n((1, ServerLimits::default()), unread as usize)).collect();
        let (servers, sizes, gives_limits, limits) = servers_shape(tallies);
        ListShape {
            bytes: text.len() as u64,
            pages,
            servers,
            sizes,
            rates,
            rate_max,
            separator: separator.name().into(),
            estimated_rates,
            gives_limits,
            limits,
            metadata,
            metadata_other,
            header_problem,
            sample: sample.rows,
        }
    }
}

/// A list's servers from their tallies (pages, limits given): how many, their sizes
/// largest first, whether any is given a limit, and the servers grouped by their limits
/// (sizes and groups kept up to [`SHAPE_SIZES`] servers).
pub fn servers_shape(tallies: Vec<(u64, ServerLimits)>) -> (u64, Vec<f64>, bool, Vec<LimitGroup>) {
    let servers = tallies.len() as u64;
    let gives_limits = tallies.iter().any(|(_, l)| l.given());
    if servers > SHAPE_SIZES {
        return (servers, Vec::new(), gives_limits, Vec::new());
    }
    let mut sizes: Vec<f64> = tallies.iter().map(|&(n, _)| n as f64).collect();
    sizes.sort_by(|a, b| b.total_cmp(a));
    let limits = if gives_limits { limit_groups(tallies) } else { Vec::new() };
    (servers, sizes, gives_limits, limits)
}

/// For tests of the reruns on redrawn rates: `list` (with rate intervals) as a page
/// list of each redraw's rates under `seed`, in the order the list is read.
#[cfg(test)]
pub fn redrawn_lists(list: &str, seed: u64) -> Vec<String> {
    use crate::core::sim::redrawn::{REDRAWS, redraw};
    let read = parse(list.as_bytes(), "page_list").expect("a valid list");
    let bounds = read.rate_bounds.as_ref().expect("a list with rate intervals");
    let redraws: Vec<[f64; REDRAWS]> = bounds.iter().enumerate().map(|(i, &b)| redraw(seed, i, b)).collect();
    (0..REDRAWS)
        .map(|k| {
            let mut text = String::from("page,server,change_rate\n");
            for s in 0..read.repo.servers() {
                for i in read.repo.server_pages(s) {
                    text += &format!("{},{},{}\n", read.names[i], read.server_names[s], redraws[i][k]);
                }
            }
            text
        })
        .collect()
}

/// A history-like page list for tests: `pages` pages dealt round-robin to `servers`
/// servers, page k's rate `rate(k)`, its interval [rate / width, rate × width].
#[cfg(test)]
pub fn estimated_list(pages: usize, servers: usize, rate: impl Fn(usize) -> f64, width: f64) -> String {
    let mut text = String::from("page,server,change_rate,rate_low,rate_high\n");
    for k in 0..pages {
        let r = rate(k);
        text.push_str(&format!("p{k},s{},{r},{},{}\n", k % servers, r / width, r * width));
    }
    text
}

/// Bytes an import holds at most while it runs, from the text's size and its rows: the
/// configuration's copy of the text, then a row of strings per page beside the list it
/// becomes (names, servers, the index), measured at 350–420 bytes a page on lists of
/// 5,000 to 535,000 pages on one host and up to 440 on another (tests/cost_model.rs,
/// npm run estimates: 318.7 MB for 535,000 pages on an AMD EPYC, 0.97 of the estimate
/// at 420; on the same machine another day 331.5 MB, 0.98 of it at 450: the peak varies
/// by some 4 %, so 480); saturating, as the cost is asked of configurations not yet
/// validated.
pub fn import_bytes(text_bytes: u64, rows: u64) -> u64 {
    text_bytes.saturating_mul(2).saturating_add(rows.saturating_mul(480))
}

/// Reads a page list from the bytes of a CSV file. `field` names it in messages.
pub fn parse(bytes: &[u8], field: &str) -> Result<PageList, InputError> {
    let text = decode(bytes, field, MAX_BYTES as usize, "keep fewer pages")?;
    let mut report = Report::default();
    let mut header: Option<Vec<usize>> = None;
    let mut rows: Vec<PageRow> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    let mut stop: Option<InputError> = None;
    let separator = Separator::of(text);
    // row by row, as the file is read: the rows of strings are never all held at once
    csv_rows::each_row(text, separator, |row| {
        if stop.is_some() {
            return;
        }
        let Row { line, fields } = match row {
            Ok(row) => row,
            Err((line, reason)) => {
                report.bad(line, reason);
                return;
            }
        };
        let Some(columns) = &header else {
            match read_header(&fields, line, field) {
                Ok(columns) => header = Some(columns),
                Err(e) => stop = Some(e),
            }
            return;
        };
        if fields.len() != columns.len() {
            report.bad(line, format!("expected {} fields ({}), found {}; quote names that contain commas", columns.len(), names_of(columns), fields.len()));
            return;
        }
        if rows.len() == MAX_ROWS {
            stop = Some(InputError::new(field, format!("has more than {MAX_ROWS} pages (the limit; line {line} adds one more); keep fewer pages")));
            return;
        }
        match read_row(columns, &fields, separator) {
            Ok(row) => {
                rows.push(row);
                lines.push(line);
            }
            Err(reason) => report.bad(line, reason),
        }
    });
    if let Some(error) = stop {
        return Err(error);
    }
    if header.is_none() {
        return Err(InputError::new(field, "is empty: it needs a header line page,server,change_rate (and optionally weight, frequency, observed) and one row per page"));
    }
    if let Some(message) = report.message() {
        return Err(InputError::new(field, message));
    }
    let has_frequency = header.as_ref().is_some_and(|c| c.contains(&4));
    from_rows(&rows, &lines, has_frequency, field)
}

/// The same pages given inline (`page_rows` in a JSON config); row k is "row k+1".
pub fn from_page_rows(rows: &[PageRow], field: &str) -> Result<PageList, InputError> {
    if rows.len() > MAX_ROWS {
        return Err(InputError::new(field, format!("has {} pages, more than the {MAX_ROWS} allowed; keep fewer pages", rows.len())));
    }
    let has_frequency = rows.first().is_some_and(|r| r.frequency.is_some());
    let rows: Cow<[PageRow]> = if rows.iter().any(|r| r.server.trim().is_empty()) {
        let with_hosts = |r: &PageRow| PageRow { server: server_of(&r.server, &r.page).map_or_else(String::new, Cow::into_owned), ..r.clone() };
        Cow::Owned(rows.iter().map(with_hosts).collect())
    } else {
        Cow::Borrowed(rows)
    };
    let mut report = Report::default();
    for (k, row) in rows.iter().enumerate() {
        if let Err(reason) = check_row(row) {
            report.bad(k + 1, reason);
        } else if row.frequency.is_some() != has_frequency {
            report.bad(k + 1, "gives a frequency where the first row does not, or the reverse; give every page a frequency or none".into());
        }
    }
    if let Some(message) = report.message() {
        return Err(InputError::new(field, message.replace("line ", "row ")));
    }
    let lines: Vec<usize> = (1..=rows.len()).collect();
    from_rows(&rows, &lines, has_frequency, field).map_err(|e| InputError::new(e.field, e.message.replace("line ", "row ")))
}

/// Column k of the row holds COLUMNS[header[k]]. A header with several problems is
/// refused with all of them (a crawl's own export, `url,rate,capacity`, had taken three
/// tries: url, then rate, then the server).
fn read_header(fields: &[String], line: usize, field: &str) -> Result<Vec<usize>, InputError> {
    if fields.iter().any(|f| f.trim().parse::<f64>().is_ok()) {
        return Err(InputError::new(field, format!("line {line} is not a header: the first line must name the columns, e.g. page,server,change_rate,weight")));
    }
    let mut columns = Vec::new();
    let mut renames: Vec<(String, &str)> = Vec::new();
    for name in fields {
        let name = name.trim().to_ascii_lowercase();
        match COLUMNS.iter().position(|&c| c == name) {
            Some(c) if columns.contains(&c) => return Err(InputError::new(field, format!("line {line} names the column {name} twice; keep one"))),
            Some(c) => columns.push(c),
            None if let Some(ours) = synonym(&name) => renames.push((name, ours)),
            None => {
                return Err(InputError::new(
                    field,
                    format!(
                        "line {line} has an unknown column “{name}”; the columns are page, server, change_rate, weight (optional), frequency (optional), observed (optional) and the server's crawl_delay, capacity and response_ms (optional), and an estimated rate's interval rate_low, rate_high (optional), and the page's metadata (optional: key=value pairs a crawler's seed list gives)"
                    ),
                ));
            }
        }
    }
    let missing: Vec<&str> = [0, 2].into_iter().filter(|&c| !columns.contains(&c) && !renames.iter().any(|(_, ours)| *ours == COLUMNS[c])).map(|c| COLUMNS[c]).collect();
    let mut problems = Vec::new();
    match renames.as_slice() {
        [] => {}
        [(name, ours)] => problems.push(format!("names a column “{name}”, which a page list calls {ours}: rename it {ours}")),
        many => problems
            .push(format!("names columns a page list calls otherwise: rename {}", and_list(&many.iter().map(|(name, ours)| format!("“{name}” to {ours}")).collect::<Vec<_>>()))),
    }
    if !missing.is_empty() {
        problems.push(format!(
            "has no column{} {}; the header must name page and change_rate, and server unless every page is a URL (its host is then its server); the other columns are optional",
            if missing.len() > 1 { "s" } else { "" },
            and_list(&missing.iter().map(ToString::to_string).collect::<Vec<_>>())
        ));
    }
    if problems.is_empty() { Ok(columns) } else { Err(InputError::new(field, format!("line {line} {}", problems.join("; it also ")))) }
}

/// A row's server: the one given, else the host of its page's URL (a crawl's own export
/// names pages by URL and no server), else None.
pub fn server_of<'a>(server: &'a str, page: &str) -> Option<Cow<'a, str>> {
    let server = server.trim();
    if server.is_empty() { super::history::server::host(page.trim()).map(Cow::Owned) } else { Some(Cow::Borrowed(server)) }
}

/// A server's name as it is compared: without ASCII case (host names are compared so,
/// RFC 4343).
fn without_case(name: &[u8]) -> Cow<'_, [u8]> {
    if name.iter().any(u8::is_ascii_uppercase) { Cow::Owned(name.to_ascii_lowercase()) } else { Cow::Borrowed(name) }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The column a page list's header means by another common name (a crawl's own export
/// says url, host or rate), to name in its refusal.
fn synonym(name: &str) -> Option<&'static str> {
    match name {
        "url" | "uri" | "address" => Some("page"),
        "host" | "domain" | "site" => Some("server"),
        "rate" | "lambda" | "change_rate_per_day" | "changes_per_day" => Some("change_rate"),
        _ => None,
    }
}

fn names_of(columns: &[usize]) -> String {
    columns.iter().map(|&c| COLUMNS[c]).collect::<Vec<_>>().join(",")
}

/// A number, with a decimal comma where the file's separator is not a comma.
fn parse_number(t: &str, separator: Separator) -> Result<f64, std::num::ParseFloatError> {
    if separator.decimal_comma() && t.matches(',').count() == 1 && !t.contains('.') { t.replace(',', ".").parse() } else { t.parse() }
}

fn number(name: &str, text: &str, unit: &str, separator: Separator) -> Result<f64, String> {
    let t = text.trim();
    let value: f64 = parse_number(t, separator).map_err(|_| {
        if t.contains(',') && t.replace(',', ".").parse::<f64>().is_ok() {
            format!("{name} “{t}” uses a decimal comma; write {}", t.replace(',', "."))
        } else {
            format!("{name} “{t}” is not a number; write {unit}")
        }
    })?;
    Ok(value)
}

fn read_row(columns: &[usize], fields: &[String], separator: Separator) -> Result<PageRow, String> {
    let mut row = PageRow {
        page: String::new(),
        server: String::new(),
        change_rate: f64::NAN,
        weight: None,
        frequency: None,
        observed: None,
        crawl_delay: None,
        capacity: None,
        response_ms: None,
        rate_low: None,
        rate_high: None,
        metadata: None,
    };
    for (&c, text) in columns.iter().zip(fields) {
        match c {
            0 => row.page = text.trim().to_string(),
            1 => row.server = text.trim().to_string(),
            2 => row.change_rate = number("change_rate", text, "changes per day, e.g. 0.1", separator)?,
            3 if text.trim().is_empty() => {}
            3 => row.weight = Some(number("weight", text, "a number ≥ 0, e.g. 1", separator)?),
            4 => row.frequency = Some(number("frequency", text, "revisits per day, e.g. 0.5", separator)?),
            5 => row.observed = yes_or_no(text)?,
            _ if text.trim().is_empty() => {}
            6 => row.crawl_delay = Some(number("crawl_delay", text, "seconds, e.g. 10", separator)?),
            7 => row.capacity = Some(number("capacity", text, "requests a second, e.g. 2", separator)?),
            8 => row.response_ms = Some(number("response_ms", text, "milliseconds, e.g. 300", separator)?),
            9 => row.rate_low = Some(number("rate_low", text, "changes per day, e.g. 0.05", separator)?),
            10 => row.rate_high = Some(number("rate_high", text, "changes per day, e.g. 0.2", separator)?),
            _ => row.metadata = Some(text.trim().to_string()),
        }
    }
    if let Some(Cow::Owned(host)) = server_of(&row.server, &row.page) {
        row.server = host;
    }
    check_row(&row)?;
    Ok(row)
}

/// The `observed` column: 1, true or yes; 0, false, no or empty.
fn yes_or_no(text: &str) -> Result<Option<bool>, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" => Ok(Some(true)),
        "" | "0" | "false" | "no" => Ok(Some(false)),
        other => Err(format!("observed “{other}” is neither 1 nor 0; write 1 when every change of the page is announced (a sitemap, a feed), else 0")),
    }
}

fn check_row(row: &PageRow) -> Result<(), String> {
    if row.page.is_empty() {
        return Err("the page name is empty".into());
    }
    if row.server.is_empty() {
        return Err(format!(
            "page “{}” has no server and is not a URL with a host (https://www.example.com/a.html, whose server is www.example.com); give its server, or write the page as its URL",
            row.page
        ));
    }
    if row.page.chars().count() > MAX_NAME || row.server.chars().count() > MAX_NAME {
        return Err(format!("a name is longer than {MAX_NAME} characters"));
    }
    let check = |name: &str, v: f64, what: &str| {
        if !v.is_finite() || v < 0.0 { Err(format!("{name} must be a finite number ≥ 0 ({what}; got {v})")) } else { Ok(()) }
    };
    check("change_rate", row.change_rate, "changes per day")?;
    if row.change_rate > 0.0 && row.change_rate < super::repository::MIN_CHANGE_RATE {
        return Err(format!(
            "change_rate {} is below {} a day (once in 2.7 billion years): write 0 for a page that never changes",
            row.change_rate,
            super::repository::MIN_CHANGE_RATE
        ));
    }
    if let Some(w) = row.weight {
        check("weight", w, "the page's importance")?;
        if w > f32::MAX as f64 {
            return Err(format!("weight {w} is too large; scale the weights down"));
        }
    }
    if let Some(f) = row.frequency {
        check("frequency", f, "revisits per day")?;
    }
    if let Some(d) = row.crawl_delay {
        check("crawl_delay", d, "seconds")?;
    }
    if let Some(c) = row.capacity {
        check("capacity", c, "requests a second")?;
        if c < crate::core::model::host::MIN_CAPACITY {
            return Err(format!(
                "capacity {c} would refuse nearly every request (the least is {} requests a second, about one a day); give the requests a second the server serves, or leave the cell empty for no limit",
                crate::core::model::host::MIN_CAPACITY
            ));
        }
    }
    if let Some(r) = row.response_ms {
        check("response_ms", r, "milliseconds")?;
    }
    match (row.rate_low, row.rate_high) {
        (None, None) => {}
        (Some(low), Some(high)) => {
            check("rate_low", low, "changes per day")?;
            check("rate_high", high, "changes per day")?;
            if !(low <= row.change_rate && row.change_rate <= high) {
                return Err(format!("change_rate {} is outside its interval [{low}, {high}] (rate_low, rate_high); the interval must hold the rate", row.change_rate));
            }
        }
        _ => return Err("gives one of rate_low and rate_high; give both (the rate's interval) or neither".into()),
    }
    if let Some(m) = &row.metadata {
        page_metadata::pairs(m)?;
    }
    Ok(())
}

fn from_rows(rows: &[PageRow], lines: &[usize], has_frequency: bool, field: &str) -> Result<PageList, InputError> {
    if rows.is_empty() {
        return Err(InputError::new(field, "has a header but no pages; add one row per page"));
    }
    let mut report = Report::default();
    let mut seen: HashMap<&str, usize> = HashMap::with_capacity(rows.len());
    // a server's name without ASCII case, as host names are compared (RFC 4343): named
    // as first spelt (`A.example` and `a.example` had been two servers, each with its
    // own politeness)
    let mut server_index: HashMap<Cow<[u8]>, usize> = HashMap::new();
    let mut server_names: Vec<String> = Vec::new();
    let mut server_of = Vec::with_capacity(rows.len());
    for (row, &line) in rows.iter().zip(lines) {
        if let Some(first) = seen.insert(&row.page, line) {
            report.bad(line, format!("repeats page “{}” of line {first}; keep one row per page", row.page));
            seen.insert(&row.page, first);
        }
        let next = server_names.len();
        let s = *server_index.entry(without_case(row.server.as_bytes())).or_insert_with(|| {
            server_names.push(row.server.clone());
            next
        });
        server_of.push(s);
    }
    if let Some(message) = report.message() {
        return Err(InputError::new(field, message));
    }
    if rows.iter().all(|r| r.weight == Some(0.0)) {
        return Err(InputError::new(field, "gives every page weight 0: nothing would be worth keeping fresh; give at least one page a positive weight"));
    }
    // pages grouped by server, stable within a server
    let mut counts = vec![0usize; server_names.len() + 1];
    for &s in &server_of {
        counts[s + 1] += 1;
    }
    for s in 0..server_names.len() {
        counts[s + 1] += counts[s];
    }
    let server_start = counts.clone();
    let mut next = counts;
    let mut position = vec![0usize; rows.len()];
    for (k, &s) in server_of.iter().enumerate() {
        position[k] = next[s];
        next[s] += 1;
    }
    let n = rows.len();
    let (mut lambda, mut frequency) = (vec![0.0; n], vec![0.0; n]);
    let mut weight = vec![1.0f32; n];
    for (k, row) in rows.iter().enumerate() {
        let i = position[k];
        lambda[i] = row.change_rate;
        weight[i] = row.weight.unwrap_or(1.0) as f32;
        frequency[i] = row.frequency.unwrap_or(0.0);
    }
    let weighted = rows.iter().any(|r| r.weight.is_some_and(|w| w != 1.0));
    let servers = server_limits(rows, lines, &server_of, server_names.len()).map_err(|message| InputError::new(field, message))?;
    let rate_bounds = rows.iter().any(|r| r.rate_low.is_some()).then(|| {
        let mut bounds = vec![[0.0, 0.0]; n];
        for (k, row) in rows.iter().enumerate() {
            bounds[position[k]] = [row.rate_low.unwrap_or(row.change_rate), row.rate_high.unwrap_or(row.change_rate)];
        }
        bounds
    });
    let observed = rows.iter().any(|r| r.observed == Some(true)).then(|| {
        let mut observed = vec![false; n];
        for (k, row) in rows.iter().enumerate() {
            observed[position[k]] = row.observed == Some(true);
        }
        observed
    });
    let metadata = metadata_of(rows, &position);
    Ok(PageList {
        repo: Repository { lambda, weight: weighted.then_some(weight), server_start, observed },
        names: rows.iter().map(|r| r.page.clone()).collect(),
        server_names,
        position,
        frequency: has_frequency.then_some(frequency),
        servers,
        rate_bounds,
        metadata,
    })
}

/// The pages' metadata, indexed like the repository (`position`), when some row gives any
/// (each row's was checked by [`check_row`]).
fn metadata_of(rows: &[PageRow], position: &[usize]) -> Option<PageMetadata> {
    if !rows.iter().any(|r| r.metadata.as_deref().is_some_and(|m| !m.trim().is_empty())) {
        return None;
    }
    let mut kinds = Kinds::new();
    let mut of = vec![0u32; rows.len()];
    for (k, row) in rows.iter().enumerate() {
        let text = row.metadata.as_deref().unwrap_or("");
        of[position[k]] = kinds.kind_of(page_metadata::canonical(text).unwrap_or_default());
    }
    Some(PageMetadata { kinds: kinds.into_kinds(), of })
}

/// Each server's limits from its rows: a value given on one row holds for the server; rows
/// that give another are refused by line. None when no row gives any.
fn server_limits(rows: &[PageRow], lines: &[usize], server_of: &[usize], servers: usize) -> Result<Option<Vec<ServerLimits>>, String> {
    if !rows.iter().any(|r| r.crawl_delay.is_some() || r.capacity.is_some() || r.response_ms.is_some()) {
        return Ok(None);
    }
    let mut limits = vec![ServerLimits::default(); servers];
    // the line each server's value came from, to name both when two rows disagree
    let mut from = vec![[0usize; 3]; servers];
    let mut report = Report::default();
    for ((row, &line), &s) in rows.iter().zip(lines).zip(server_of) {
        let l = &mut limits[s];
        for (k, (given, kept, name)) in
            [(row.crawl_delay, &mut l.crawl_delay_s, "crawl_delay"), (row.capacity, &mut l.capacity, "capacity"), (row.response_ms, &mut l.response_ms, "response_ms")]
                .into_iter()
                .enumerate()
        {
            let Some(v) = given else { continue };
            match *kept {
                None => {
                    *kept = Some(v);
                    from[s][k] = line;
                }
                Some(w) if w != v => report.bad(
                    line,
                    format!("gives server “{}” {name} {v} where line {} gave {w}; give a server's {name} once, or the same on each of its rows", row.server, from[s][k]),
                ),
                Some(_) => {}
            }
        }
    }
    report.message().map_or(Ok(Some(limits)), Err)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Issue 45: a list's shape — pages, servers and their sizes, rates — in one pass.
    #[test]
    fn a_lists_shape_counts_its_pages_servers_and_rates() {
        let text = "page,server,change_rate,weight\na,s1,1.5,1\nb,s2,0.5,1\nc,s1,2,1\n\n\"d,x\",s3,0,1\ne,s1,bad,1\n";
        let shape = ListShape::of(text);
        assert_eq!((shape.pages, shape.servers, shape.bytes), (5, 3, text.len() as u64));
        assert_eq!(shape.sizes, vec![3.0, 1.0, 1.0]);
        assert_eq!((shape.rates.sum, shape.rate_max), (4.0, 2.0));
        // the columns in another order, a list without its server column
        let shape = ListShape::of("server,change_rate,page\ns,1,a\ns,1,b\n");
        assert_eq!((shape.pages, shape.servers, shape.sizes.clone()), (2, 1, vec![2.0]));
        let shape = ListShape::of("page,change_rate\na,1\nb,1\n");
        assert_eq!((shape.pages, shape.servers), (2, 2), "unread servers count one a page");
        // without a server, a URL's host is its page's server
        let shape = ListShape::of("page,change_rate\nhttps://a.example/x,1\nhttp://A.example:8080/y,1\nhttps://b.example/,1\n");
        assert_eq!((shape.pages, shape.servers, shape.sizes.clone()), (3, 2, vec![2.0, 1.0]));
        assert_eq!(shape.sample[1], ("a.example".to_string(), "http://A.example:8080/y".to_string()));
    }

    /// Issue 46: a crawl's own export names its pages by URL and no server: each page is
    /// counted against its URL's host (lowercased, without user and port), where the
    /// server column is left out or its cell is empty, in a file and inline alike; a
    /// page that is no URL is refused by line, saying both fixes.
    #[test]
    fn a_page_without_a_server_is_counted_against_its_urls_host() {
        let text = "page,change_rate\nhttps://a.example/x,1\nhttp://User@A.example:8080/y,0.5\nhttps://news.b.example/,2\n";
        let list = parse(text.as_bytes(), "page_list").unwrap();
        assert_eq!(list.server_names, vec!["a.example", "news.b.example"]);
        assert_eq!(list.repo.server_start, vec![0, 2, 3]);
        let given =
            parse(b"page,server,change_rate\nhttps://a.example/x,a.example,1\nhttp://User@A.example:8080/y,,0.5\nhttps://news.b.example/,news.b.example,2\n", "page_list").unwrap();
        assert_eq!(given, list, "an empty server cell reads as the URL's host");
        let mut seen = Vec::new();
        each_server_page(text, |server, page| seen.push((server.to_string(), page.to_string())));
        assert_eq!(seen[1], ("a.example".to_string(), "http://User@A.example:8080/y".to_string()));
        let rows: Vec<PageRow> = serde_json::from_str(r#"[{"page": "https://a.example/x", "change_rate": 1}, {"page": "http://User@A.example:8080/y", "change_rate": 0.5}, {"page": "https://news.b.example/", "server": "", "change_rate": 2}]"#).unwrap();
        assert_eq!(from_page_rows(&rows, "page_rows").unwrap(), list);
        let m = bad("page,change_rate\nhttps://a.example/,1\nlocal,1\n");
        assert!(m.contains("line 3: page “local” has no server and is not a URL with a host"), "{m}");
        let m = from_page_rows(&[PageRow { server: String::new(), ..rows[0].clone() }, PageRow { page: "local".into(), server: String::new(), ..rows[0].clone() }], "page_rows")
            .unwrap_err()
            .message;
        assert!(m.contains("row 2: page “local” has no server"), "{m}");
    }

    /// A server spelt in two cases is one server (host names are compared without case),
    /// named as first spelt, for the run and for the form's shape of the list alike; a
    /// page without a server joins it by its URL's host.
    #[test]
    fn a_server_spelt_in_two_cases_is_one_server() {
        let text = "page,server,change_rate\nhttps://a.example/x,A.Example,1\nhttps://a.example/y,a.example,1\nhttps://A.EXAMPLE/z,,1\nhttps://b.example/,b.example,1\n";
        let list = parse(text.as_bytes(), "page_list").unwrap();
        assert_eq!(list.server_names, vec!["A.Example", "b.example"]);
        assert_eq!(list.repo.server_start, vec![0, 3, 4]);
        let shape = ListShape::of(text);
        assert_eq!((shape.pages, shape.servers), (4, 2));
    }

    /// A list's sample: every page of a short list, as written, trimmed, rows without a
    /// server not offered; of 1,000 pages, every 4th from the first (250: the 257th row
    /// kept halves it to every 2nd, the 257th again, at row 512, to every 4th).
    #[test]
    fn a_lists_sample_spreads_evenly_over_it() {
        let short = ListShape::of(
            "page,server,change_rate
 https://a.example/x ,a.example,1
b,,1
",
        );
        assert_eq!(short.sample, vec![("a.example".to_string(), "https://a.example/x".to_string())]);
        let long: String = std::iter::once("server,change_rate,page\n".to_string()).chain((0..1000).map(|k| format!("s{},1,p{k}\n", k % 7))).collect();
        let sample = ListShape::of(&long).sample;
        assert_eq!(sample.len(), 250);
        assert!(sample.iter().enumerate().all(|(j, (server, page))| *page == format!("p{}", 4 * j) && *server == format!("s{}", (4 * j) % 7)), "{:?}", &sample[..4]);
    }

    fn bad(text: &str) -> String {
        parse(text.as_bytes(), "page_list").unwrap_err().message
    }

    /// A history's intervals: read beside the rate, indexed like the repository; an
    /// interval that does not hold its rate, or half of one, is refused by line.
    #[test]
    fn estimated_rates_keep_their_intervals() {
        let list = parse(b"page,server,change_rate,rate_low,rate_high\na,s1,1,0.5,2\nb,s2,0,0,0.1\nc,s1,0.2,0.1,0.3\n", "page_list").unwrap();
        let bounds = list.rate_bounds.as_ref().unwrap();
        assert_eq!((bounds[list.position[0]], bounds[list.position[1]], bounds[list.position[2]]), ([0.5, 2.0], [0.0, 0.1], [0.1, 0.3]));
        assert!(bad("page,server,change_rate,rate_low,rate_high\na,s,1,2,3\n").contains("line 2: change_rate 1 is outside its interval [2, 3]"));
        assert!(bad("page,server,change_rate,rate_low\na,s,1,0.5\n").contains("give both"));
        assert!(parse(b"page,server,change_rate\na,s,1\n", "page_list").unwrap().rate_bounds.is_none());
    }

    #[test]
    fn pages_are_grouped_by_server_and_keep_the_files_order() {
        let list = parse(b"page,server,change_rate,weight\na,s1,1,2\nb,s2,0.5,\nc,s1,0,1\n", "page_list").unwrap();
        assert_eq!(list.server_names, vec!["s1", "s2"]);
        assert_eq!(list.repo.server_start, vec![0, 2, 3]);
        assert_eq!(list.repo.lambda, vec![1.0, 0.0, 0.5]);
        assert_eq!(list.repo.weight, Some(vec![2.0, 1.0, 1.0]));
        assert_eq!(list.in_file_order(&list.repo.lambda), vec![1.0, 0.5, 0.0]);
        assert!(list.frequency.is_none());
        // columns in any order, weight optional, CRLF line ends
        let other = parse(b"server,change_rate,page\r\ns1,1,a\r\ns2,0.5,b\r\ns1,0,c\r\n", "page_list").unwrap();
        assert_eq!(other.repo.lambda, vec![1.0, 0.0, 0.5]);
        assert!(other.repo.weight.is_none());
    }

    #[test]
    fn the_same_pages_inline_give_the_same_list() {
        let csv = parse(b"page,server,change_rate,weight,frequency\na,s1,1,2,0.5\nb,s2,0.5,1,1\n", "page_list").unwrap();
        let rows = vec![
            PageRow {
                page: "a".into(),
                server: "s1".into(),
                change_rate: 1.0,
                weight: Some(2.0),
                frequency: Some(0.5),
                observed: None,
                crawl_delay: None,
                capacity: None,
                response_ms: None,
                rate_low: None,
                rate_high: None,
                metadata: None,
            },
            PageRow {
                page: "b".into(),
                server: "s2".into(),
                change_rate: 0.5,
                weight: Some(1.0),
                frequency: Some(1.0),
                observed: None,
                crawl_delay: None,
                capacity: None,
                response_ms: None,
                rate_low: None,
                rate_high: None,
                metadata: None,
            },
        ];
        assert_eq!(from_page_rows(&rows, "page_rows").unwrap(), csv);
    }

    /// The observed column: 1/true/yes and 0/false/no/empty, kept with its page when the
    /// pages are grouped by server; a list with no page observed has no flags.
    #[test]
    fn the_observed_column() {
        let list = parse(b"page,server,change_rate,observed\na,s1,1,1\nb,s2,1,no\nc,s1,1,\nd,s2,1,TRUE\n", "page_list").unwrap();
        assert_eq!(list.repo.observed, Some(vec![true, false, false, true]));
        assert_eq!(list.in_file_order(&[1.0, 2.0, 3.0, 4.0]), vec![1.0, 3.0, 2.0, 4.0]);
        assert!(list.repo.observed(0) && !list.repo.observed(1) && list.repo.observed(3));
        let none = parse(b"page,server,change_rate,observed\na,s1,1,0\n", "page_list").unwrap();
        assert_eq!(none.repo.observed, None);
        let m = bad("page,server,change_rate,observed\na,s1,1,maybe\n");
        assert!(m.contains("line 2: observed “maybe” is neither 1 nor 0"), "{m}");
        let rows = vec![PageRow {
            page: "a".into(),
            server: "s".into(),
            change_rate: 1.0,
            weight: None,
            frequency: None,
            observed: Some(true),
            crawl_delay: None,
            capacity: None,
            response_ms: None,
            rate_low: None,
            rate_high: None,
            metadata: None,
        }];
        assert_eq!(from_page_rows(&rows, "page_rows").unwrap().repo.observed, Some(vec![true]));
    }

    /// Issue 45: a file as a spreadsheet in a European locale saves it ("page;server;…"
    /// had been refused as one unknown column).
    #[test]
    fn semicolon_and_tab_separated_lists_read_as_the_comma_separated_one() {
        let comma = parse(b"page,server,change_rate,weight\na,s1,0.5,1\nb,s2,2,0.25\n", "page_list").ok().unwrap();
        for text in ["page;server;change_rate;weight\na;s1;0,5;1\nb;s2;2;0,25\n", "page\tserver\tchange_rate\tweight\na\ts1\t0.5\t1\nb\ts2\t2\t0,25\n"] {
            let list = parse(text.as_bytes(), "page_list").ok().unwrap();
            assert_eq!((list.names.clone(), list.server_names.clone()), (comma.names.clone(), comma.server_names.clone()));
            assert_eq!((&list.repo.lambda, &list.repo.weight), (&comma.repo.lambda, &comma.repo.weight));
        }
        let shape = ListShape::of("page;server;change_rate\na;s1;0,5\nb;s1;1,5\n");
        assert_eq!((shape.pages, shape.servers, shape.rates.sum, shape.separator.as_str()), (2, 1, 2.0, "semicolon-separated"));
        assert!(bad("page;server;change_rate\na;s1;1.000,5\n").contains("change_rate “1.000,5” is not a number"), "a thousands separator is not guessed");
    }

    #[test]
    fn bad_lists_are_refused_naming_line_and_field() {
        assert!(bad("").contains("is empty"));
        assert!(bad("page,server,change_rate\n").contains("no pages"));
        assert!(bad("a,s1,1\nb,s1,2\n").contains("line 1 is not a header"), "{}", bad("a,s1,1\n"));
        assert!(bad("page,server\na,s1\n").contains("no column change_rate"));
        assert!(bad("page,server,change_rate,colour\na,s,1,red\n").contains("unknown column “colour”"));
        // a crawl's own names for the columns: named with the page list's
        assert!(bad("url,server,change_rate\na,s,1\n").contains("names a column “url”, which a page list calls page: rename it page"));
        // every problem of a header at once
        assert_eq!(bad("url,host,rate\na,s,1\n"), "line 1 names columns a page list calls otherwise: rename “url” to page, “host” to server and “rate” to change_rate");
        let m = bad("url,rate,capacity\na,1,2\nb,1,2\n");
        assert!(m.contains("rename “url” to page and “rate” to change_rate"), "{m}");
        assert!(bad("weight\n1\n").contains("line 1 has no columns page and change_rate; the header must name page and change_rate, and server unless every page is a URL"));
        assert!(bad("page\na\n").contains("line 1 has no column change_rate;"));
        assert!(bad("page,domain,change_rate\na,s,1\n").contains("“domain”, which a page list calls server"));
        assert!(bad("page,server,Rate\na,s,1\n").contains("“rate”, which a page list calls change_rate"));
        // and said when the list is loaded: its shape carries the header's refusal
        let shape = ListShape::of("url,server,change_rate\na,s,1\n");
        assert!(shape.header_problem.as_deref().is_some_and(|m| m.contains("line 1 names a column “url”")), "{:?}", shape.header_problem);
        // sized by the columns it means meanwhile: its hosts, or its URLs' hosts
        let shape = ListShape::of("url,host,rate\na,s,1\nb,s,2\n");
        assert_eq!((shape.pages, shape.servers, shape.rates.sum), (2, 1, 3.0));
        let shape = ListShape::of("url,rate\nhttps://a.example/x,1\nhttps://a.example/y,1\n");
        assert_eq!((shape.pages, shape.servers), (2, 1));
        assert_eq!(ListShape::of("page,server,change_rate\na,s,1\n").header_problem, None);
        // (a spreadsheet's byte-order mark and semicolons read as the run reads them)
        assert_eq!(ListShape::of("\u{feff}page;server;change_rate\na;s;0,5\n").header_problem, None);
        let m = bad("page,server,change_rate\na,s1,-1\nb,s1,NaN\nc,s1,abc\nd,s1,\"0,5\"\n");
        assert!(m.contains("has 4 bad rows") && m.contains("line 2: change_rate must be a finite number ≥ 0"), "{m}");
        assert!(m.contains("line 3: change_rate") && m.contains("line 4: change_rate “abc” is not a number"), "{m}");
        assert!(m.contains("line 5: change_rate “0,5” uses a decimal comma; write 0.5"), "{m}");
        assert!(bad("page,server,change_rate\na,s1,1\na,s2,1\n").contains("line 3: repeats page “a” of line 2"));
        assert!(bad("page,server,change_rate,weight\na,s1,1,0\nb,s1,1,0\n").contains("every page weight 0"));
        assert!(bad("page,server,change_rate\na,s1\n").contains("line 2: expected 3 fields"));
        assert!(bad("page,server,change_rate,frequency\na,s1,1,inf\n").contains("frequency must be a finite number"));
        assert!(bad("page,server,change_rate\n,s1,1\n").contains("page name is empty"));
        assert!(bad("page,server,change_rate\n\"a,s1,1\n").contains("never closed"));
        let big = vec![b'x'; super::super::trace::MAX_BYTES + 1];
        assert!(parse(&big, "page_list").unwrap_err().message.contains("over the 512 MB limit"));
    }

    /// Issue 46: a server's limits, given on one of its rows or alike on each; two rows
    /// that disagree are refused with both lines; a capacity of 0 is refused.
    #[test]
    fn servers_limits_are_read_once_per_server() {
        let list = parse(b"page,server,change_rate,crawl_delay,capacity,response_ms\na,s1,1,10,,\nb,s1,1,10,2,250\nc,s2,1,,,\n", "page_list").unwrap();
        let servers = list.servers.unwrap();
        assert_eq!(servers[0], ServerLimits { crawl_delay_s: Some(10.0), capacity: Some(2.0), response_ms: Some(250.0) });
        assert_eq!(servers[1], ServerLimits::default());
        assert!(parse(b"page,server,change_rate\na,s1,1\n", "page_list").unwrap().servers.is_none());
        let message = bad("page,server,change_rate,capacity\na,s1,1,2\nb,s1,1,3\n");
        assert!(message.contains("line 3") && message.contains("capacity 3 where line 2 gave 2"), "{message}");
        assert!(bad("page,server,change_rate,capacity\na,s1,1,0\n").contains("capacity 0 would refuse nearly every request"));
        assert!(bad("page,server,change_rate,capacity\na,s1,1,1e-308\n").contains("the least is 0.00001 requests a second"));
        assert!(bad("page,server,change_rate,crawl_delay\na,s1,1,-5\n").contains("crawl_delay must be a finite number ≥ 0"));
    }
}
