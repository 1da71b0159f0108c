//! Change traces (spec §2): a CSV of `page,timestamp` rows, one per change, replayed by
//! the simulator. Import is strict: every bad row is reported with its line and the
//! reason, nothing is dropped or reordered, and a trace over the stated limits is refused.

use super::csv_rows::{self, Report, Row, Separator, decode};
use crate::core::input::InputError;

/// Limits on an imported trace (a year of the thesis's 10,000 articles is about 7 M rows).
pub const MAX_BYTES: usize = 512 << 20;
pub const MAX_ROWS: usize = 20_000_000;
pub const MAX_PAGES: usize = 100_000;
const MAX_NAME: usize = 1000;
/// Timestamps from 1970-01-01 to 2100-01-01 (Unix seconds).
const LATEST: f64 = 4_102_444_800.0;
const DAY: f64 = 86_400.0;

/// Every page's changes, in minutes from the start of the period.
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    pub names: Vec<String>,
    offsets: Vec<usize>,
    times: Vec<f64>,
    /// Start of the period (Unix seconds, a UTC midnight).
    pub start: f64,
    /// Length of the period in minutes.
    pub minutes: f64,
    /// Blank lines met (skipped; reported in the summary).
    pub blank_lines: usize,
}

impl Trace {
    /// A trace from each page's increasing change times (minutes in [0, minutes)).
    pub fn from_pages(names: Vec<String>, pages: Vec<Vec<f64>>, start: f64, minutes: f64) -> Trace {
        let mut offsets = Vec::with_capacity(pages.len() + 1);
        offsets.push(0);
        let mut times = Vec::with_capacity(pages.iter().map(Vec::len).sum());
        for p in pages {
            debug_assert!(p.windows(2).all(|w| w[0] < w[1]) && p.iter().all(|&t| (0.0..minutes).contains(&t)));
            times.extend(p);
            offsets.push(times.len());
        }
        Trace { names, offsets, times, start, minutes, blank_lines: 0 }
    }

    pub fn pages(&self) -> usize {
        self.names.len()
    }

    pub fn changes(&self, page: usize) -> &[f64] {
        &self.times[self.offsets[page]..self.offsets[page + 1]]
    }

    pub fn total_changes(&self) -> usize {
        self.times.len()
    }

    /// The trace as CSV with ISO-8601 times to the second (what `parse` reads back).
    pub fn to_csv(&self) -> String {
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        let mut write = |record: [&str; 2]| writer.write_record(record).expect("writing to memory cannot fail");
        write(["page", "timestamp"]);
        for (i, name) in self.names.iter().enumerate() {
            for &t in self.changes(i) {
                write([name, &iso(self.start + (t * 60.0).round())]);
            }
        }
        String::from_utf8(writer.into_inner().expect("writing to memory cannot fail")).expect("names are UTF-8")
    }
}

/// What the form's checks need of a trace, read once by the page's worker and sent in
/// place of its text (`trace_shape`): its size, articles, changes and period. The
/// estimate and the memory check price the articles and changes as they are (a size
/// alone says neither: Wikipedia's histories run from a few revisions an article to
/// thousands).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceShape {
    pub bytes: u64,
    pub pages: u64,
    pub changes: u64,
    pub minutes: f64,
}

impl TraceShape {
    /// The shape of a trace's text. Err: as [`parse`].
    pub fn of(text: &str) -> Result<TraceShape, InputError> {
        let trace = parse(text.as_bytes())?;
        Ok(TraceShape { bytes: text.len() as u64, pages: trace.pages() as u64, changes: trace.total_changes() as u64, minutes: trace.minutes })
    }

    /// Err: a shape no trace [`parse`] reads could have (one sent by hand), with why.
    pub fn consistent(&self) -> Result<(), String> {
        let days = self.minutes / 1440.0;
        if self.pages == 0 || self.pages > MAX_PAGES as u64 {
            return Err(format!("has {} articles; a trace has 1 to {MAX_PAGES}", self.pages));
        }
        if self.changes < self.pages || self.changes > MAX_ROWS as u64 {
            return Err(format!("has {} changes on {} articles; a trace has a change an article at least, and at most {MAX_ROWS}", self.changes, self.pages));
        }
        // whole UTC days, from 1970 to 2100
        if !((1.0..=LATEST / DAY).contains(&days) && days.fract() == 0.0) {
            return Err(format!("spans {days} days; a trace spans whole days, 1 at least"));
        }
        if self.bytes > MAX_BYTES as u64 {
            return Err(format!("is {} MB, over the {} MB limit", self.bytes >> 20, MAX_BYTES >> 20));
        }
        Ok(())
    }
}

/// Reads a trace from the bytes of a CSV file. A first row `page,timestamp` is a header.
pub fn parse(bytes: &[u8]) -> Result<Trace, InputError> {
    let text = decode(bytes, "trace", MAX_BYTES, "split the trace or keep fewer pages")?;
    let mut r = Reading::default();
    let mut stop: Option<InputError> = None;
    let mut k = 0;
    // row by row, as the file is read: the rows of strings are never all held at once (a
    // trace of 121,146 changes, 2.8 MB, peaked 11.6 MB higher when they were: above its
    // estimate)
    let blank_lines = csv_rows::each_row(text, Separator::of(text), |row| {
        if stop.is_none() {
            stop = read_row(&mut r, k, row).err();
        }
        k += 1;
    });
    if let Some(error) = stop {
        return Err(error);
    }
    let Reading { report, names, pages, count, .. } = r;
    if let Some(message) = report.message() {
        return Err(InputError::new("trace", message));
    }
    if count == 0 {
        return Err(InputError::new("trace", "has no rows; a trace is a CSV of page,timestamp rows, one per change"));
    }
    let earliest = pages.iter().filter_map(|p| p.first()).map(|p| p.0).fold(f64::INFINITY, f64::min);
    let latest = pages.iter().filter_map(|p| p.last()).map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
    // the period runs from the first change's UTC midnight to the midnight after the last
    let start = (earliest / DAY).floor() * DAY;
    let end = ((latest / DAY).floor() + 1.0) * DAY;
    let pages: Vec<Vec<f64>> = pages.into_iter().map(|p| p.into_iter().map(|(t, _)| (t - start) / 60.0).collect()).collect();
    let mut trace = Trace::from_pages(names, pages, start, (end - start) / 60.0);
    trace.blank_lines = blank_lines;
    Ok(trace)
}

/// A trace as read so far: what [`parse`] keeps of each row.
#[derive(Default)]
struct Reading {
    report: Report,
    index: std::collections::HashMap<String, usize>,
    names: Vec<String>,
    /// Each page's changes, with their lines.
    pages: Vec<Vec<(f64, usize)>>,
    count: usize,
}

/// Reads row `k` of a trace into `r`: a bad row is reported there; Err stops the reading
/// (a limit passed, or a page list in place of a trace).
fn read_row(r: &mut Reading, k: usize, row: csv_rows::RowOrError) -> Result<(), InputError> {
    let Row { line, fields } = match row {
        Ok(row) => row,
        Err((line, reason)) => {
            r.report.bad(line, reason);
            return Ok(());
        }
    };
    if k == 0 && is_header(&fields) {
        return Ok(());
    }
    if fields.len() != 2 {
        if k == 0 && fields.len() > 2 && fields.iter().all(|f| f.trim().parse::<f64>().is_err() && parse_time(f.trim()).is_err()) {
            // a history's page list in place of its trace: say where the trace is
            let hint = if fields.iter().any(|f| f.trim().eq_ignore_ascii_case("change_rate")) {
                " (this is a page list of rates; a history of Wikipedia revisions writes its trace with freshlab history FILE --trace-out trace.csv, and the page's history view sends it here)"
            } else {
                ""
            };
            return Err(InputError::new("trace", format!("line 1 has {} columns ({}); the trace needs exactly two: page,timestamp{hint}", fields.len(), fields.join(", "))));
        }
        r.report.bad(line, format!("expected 2 fields (page,timestamp), found {}; quote page names that contain commas", fields.len()));
        return Ok(());
    }
    let (page, stamp) = (fields[0].trim(), fields[1].trim());
    let time = match parse_time(stamp) {
        Ok(t) => t,
        Err(reason) if k == 0 => {
            r.report.bad(line, format!("{reason} (a header, if this is one, must be page,timestamp)"));
            return Ok(());
        }
        Err(reason) => {
            r.report.bad(line, reason);
            return Ok(());
        }
    };
    if page.is_empty() {
        r.report.bad(line, "the page name is empty".into());
        return Ok(());
    }
    if page.chars().count() > MAX_NAME {
        r.report.bad(line, format!("the page name is longer than {MAX_NAME} characters"));
        return Ok(());
    }
    r.count += 1;
    if r.count > MAX_ROWS {
        return Err(InputError::new("trace", format!("has more than {MAX_ROWS} rows (the limit; line {line}); split the trace or keep fewer pages")));
    }
    let id = match r.index.get(page) {
        Some(&id) => id,
        None => {
            if r.names.len() == MAX_PAGES {
                return Err(InputError::new("trace", format!("has more than {MAX_PAGES} pages (the limit; line {line} adds one more); keep fewer pages")));
            }
            r.index.insert(page.to_string(), r.names.len());
            r.names.push(page.to_string());
            r.pages.push(Vec::new());
            r.names.len() - 1
        }
    };
    if let Some(&(previous, previous_line)) = r.pages[id].last() {
        if time == previous {
            r.report.bad(line, format!("repeats the time of line {previous_line} for page “{page}”; keep one row per change"));
            return Ok(());
        }
        if time < previous {
            r.report.bad(line, format!("is earlier than line {previous_line} for page “{page}”; sort each page's rows by time"));
            return Ok(());
        }
    }
    r.pages[id].push((time, line));
    Ok(())
}

/// The header row: exactly `page,timestamp` (any case). Any other first row is data, so
/// that a first change is never taken for a header.
fn is_header(fields: &[String]) -> bool {
    fields.len() == 2 && fields[0].trim().eq_ignore_ascii_case("page") && fields[1].trim().eq_ignore_ascii_case("timestamp")
}

/// Unix seconds (`1167609600`, `1167609600.5`) or ISO-8601 read by `jiff`
/// (`2007-01-01T00:00Z`, `2007-01-01 00:00:00`, `2007-01-01T02:00+02:00`, `2007-01-01`;
/// no zone means UTC).
pub fn parse_time(text: &str) -> Result<f64, String> {
    if text.is_empty() {
        return Err("the timestamp is empty".into());
    }
    let seconds = if text.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b'-' || b == b'+') && !text[1..].contains('-') {
        let digits = text.trim_start_matches(['-', '+']).split('.').next().unwrap_or("");
        if digits.len() > 12 {
            return Err(format!("“{text}” is far outside 1970–2100 as Unix seconds"));
        }
        text.parse::<f64>().map_err(|_| format!("“{text}” is not a number of Unix seconds nor an ISO-8601 time"))?
    } else {
        iso_seconds(text).map_err(|why| format!("“{}” is not an ISO-8601 time ({why}) nor Unix seconds", shorten(text)))?
    };
    if !(0.0..LATEST).contains(&seconds) {
        return Err(format!("“{}” is outside 1970–2100", shorten(text)));
    }
    Ok(seconds)
}

/// An ISO-8601 instant (with a zone) or civil date-time (without: UTC), in Unix seconds.
fn iso_seconds(text: &str) -> Result<f64, String> {
    let instant = match text.parse::<jiff::Timestamp>() {
        Ok(t) => t,
        Err(with_zone) => match text.parse::<jiff::civil::DateTime>() {
            Ok(civil) => jiff::tz::Offset::UTC.to_timestamp(civil).map_err(|e| e.to_string())?,
            // report the reason that speaks of the text itself
            Err(civil) => return Err(if text.len() > 10 && with_zone.to_string().contains("offset") { civil.to_string() } else { with_zone.to_string() }),
        },
    };
    Ok(instant.as_second() as f64 + instant.subsec_nanosecond() as f64 / 1e9)
}

fn shorten(text: &str) -> String {
    if text.chars().count() > 40 { format!("{}…", text.chars().take(40).collect::<String>()) } else { text.to_string() }
}

/// ISO-8601 (UTC, to the second) of Unix seconds.
pub fn iso(seconds: f64) -> String {
    match jiff::Timestamp::from_second(seconds.floor() as i64) {
        Ok(t) => {
            let d = jiff::tz::Offset::UTC.to_datetime(t);
            format!("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", d.year(), d.month(), d.day(), d.hour(), d.minute(), d.second())
        }
        Err(_) => format!("{seconds} (Unix seconds)"),
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn err(text: &[u8]) -> String {
        let e = parse(text).unwrap_err();
        assert_eq!(e.field, "trace");
        e.message
    }

    #[test]
    fn reads_iso_and_unix_times_with_or_without_a_header() {
        let csv = "page,timestamp\nA,2007-01-01T00:10Z\n\"Washington, D.C.\",1167609660\nA,2007-01-01 01:00:30\nB,2007-01-02T00:00+01:00\n";
        let t = parse(csv.as_bytes()).unwrap();
        assert_eq!(t.names, vec!["A", "Washington, D.C.", "B"]);
        assert_eq!(t.start, 1_167_609_600.0, "2007-01-01 UTC");
        assert_eq!(t.changes(0), &[10.0, 60.5]);
        assert_eq!(t.changes(1), &[1.0]);
        assert_eq!(t.changes(2), &[23.0 * 60.0], "+01:00 is an hour earlier in UTC");
        assert_eq!(t.minutes, 1440.0, "the period runs to the midnight after the last change (23:00 UTC)");
        let without = parse(b"A,1167609600\nA,1167609660.5\r\n\n").unwrap();
        assert_eq!(without.changes(0), &[0.0, 1.0 + 0.5 / 60.0]);
        assert_eq!(without.blank_lines, 1, "the final newline leaves one empty line; the other is counted");
        // CSV round trip
        let again = parse(t.to_csv().as_bytes()).unwrap();
        assert_eq!(again.names, t.names);
        assert_eq!(again.changes(0), &[10.0, 60.5], "{}", t.to_csv());
    }

    #[test]
    fn a_traces_shape_is_its_articles_changes_and_days_and_a_made_up_one_is_refused() {
        let csv = "page,timestamp\nA,2007-01-01T00:10Z\nB,2007-01-01T05:00Z\nA,2007-01-03T01:00Z\nC,1167609660\n";
        let shape = TraceShape::of(csv).unwrap();
        assert_eq!(shape, TraceShape { bytes: csv.len() as u64, pages: 3, changes: 4, minutes: 3.0 * 1440.0 });
        assert_eq!(shape.consistent(), Ok(()));
        // what parse refuses, the shape does too, with the same message
        assert_eq!(TraceShape::of("A,soon\n").unwrap_err(), parse(b"A,soon\n").unwrap_err());
        let made_up = [
            (TraceShape { pages: 0, ..shape.clone() }, "0 articles"),
            (TraceShape { changes: 2, ..shape.clone() }, "2 changes on 3 articles"),
            (TraceShape { minutes: 1.5 * 1440.0, ..shape.clone() }, "spans 1.5 days"),
            (TraceShape { minutes: f64::NAN, ..shape.clone() }, "spans NaN days"),
            (TraceShape { bytes: 600 << 20, ..shape.clone() }, "is 600 MB, over the 512 MB limit"),
        ];
        for (bad, why) in made_up {
            let message = bad.consistent().unwrap_err();
            assert!(message.contains(why), "{bad:?}: {message}");
        }
    }

    #[test]
    fn civil_dates_round_trip() {
        for (text, seconds) in [("1970-01-01T00:00Z", 0.0), ("2000-02-29T12:00Z", 951_825_600.0), ("2007-12-31T23:59:59Z", 1_199_145_599.0)] {
            assert_eq!(parse_time(text).unwrap(), seconds, "{text}");
            assert_eq!(iso(seconds), text.replace("T12:00Z", "T12:00:00Z").replace("T00:00Z", "T00:00:00Z"));
        }
    }

    #[test]
    fn bad_rows_are_all_reported_with_their_lines() {
        let csv = "page,timestamp\nA,2007-01-01T00:10Z\nA,2007-01-01T00:10Z\nA,2007-01-01T00:05Z\nB,yesterday\nC,2007-02-30T00:00Z\nD\n,1167609600\nF,99999999999999999999\nG,2007-01-01T25:00Z\nH,1e12\nE,\"x\nI,0\n";
        let m = err(csv.as_bytes());
        assert!(m.starts_with("has 10 bad rows; nothing was imported"), "{m}");
        for needle in [
            "line 3: repeats the time of line 2",
            "line 4: is earlier than line 2",
            "line 5: “yesterday” is not an ISO-8601 time",
            "line 6: “2007-02-30T00:00Z” is not an ISO-8601 time (parsed date is not valid",
            "line 7: expected 2 fields",
            "line 8: the page name is empty",
            "line 9: “99999999999999999999” is far outside 1970–2100",
            "line 10: “2007-01-01T25:00Z” is not an ISO-8601 time",
            "line 11: “1e12” is not an ISO-8601 time",
            "line 12: has a quote that is never closed",
        ] {
            assert!(m.contains(needle), "missing «{needle}» in {m}");
        }
    }

    #[test]
    fn many_bad_rows_are_grouped_by_fault() {
        let mut csv = String::new();
        for k in 0..300 {
            csv.push_str(&format!("p{k},not a time\n"));
        }
        csv.push_str("ok,0\n");
        let m = err(csv.as_bytes());
        assert!(m.starts_with("has 300 bad rows"), "{m}");
        assert!(m.contains("299 rows (lines 2–300), such as line 2: “not a time” is not an ISO-8601 time"), "{m}");
        assert!(m.len() < 600, "grouped by fault, not one paragraph per row: {m}");
    }

    #[test]
    fn empty_files_encodings_and_limits_are_refused_with_the_fix() {
        assert!(err(b"").contains("has no rows"));
        assert!(err(b"page,timestamp\n\n").contains("has no rows"));
        assert!(err(&[0xFF, 0xFE, b'A', 0, b',', 0]).contains("UTF-16"));
        let latin1 = b"Caf\xe9,1167609600\n";
        let m = err(latin1);
        assert!(m.contains("not UTF-8") && m.contains("line 1"), "{m}");
        let m = err(b"A,0\nB,1\nCaf\xe9,2\n");
        assert!(m.contains("line 3"), "{m}");
        assert!(parse(b"\xEF\xBB\xBFA,0\n").is_ok(), "a UTF-8 BOM is fine");
        assert!(err(b"page,timestamp,user\nA,0,x\n").contains("exactly two"));
        assert!(err(b"A,-5\n").contains("outside 1970"));
        assert!(err(b"A,2100-01-01T00:00Z\n").contains("outside 1970"));
        let name = "x".repeat(MAX_NAME + 1);
        assert!(err(format!("{name},0\n").as_bytes()).contains("longer than"));
    }

    #[test]
    fn zones_and_fractions() {
        assert_eq!(parse_time("2007-01-01T00:00:00.25Z").unwrap(), 1_167_609_600.25);
        assert_eq!(parse_time("2007-01-01T00:00-0130").unwrap(), 1_167_609_600.0 + 5400.0);
        assert_eq!(parse_time("2007-01-01").unwrap(), 1_167_609_600.0);
        assert!(parse_time("2007-01-01T00:00Q").is_err());
        assert!(parse_time("2007-1-01").is_err());
    }

    /// Issue 13: a first row of data is data, not a header to skip.
    #[test]
    fn a_first_row_is_a_header_only_when_it_says_page_timestamp() {
        let m = err(b"A,yesterday\nA,1167609600\n");
        assert!(m.contains("line 1: “yesterday” is not an ISO-8601 time") && m.contains("must be page,timestamp"), "{m}");
        assert_eq!(parse(b"Page,Timestamp\nA,0\n").unwrap().pages(), 1);
        assert!(err(b"title,when\nA,0\n").contains("line 1"));
    }
}
