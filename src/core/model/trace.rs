//! Change traces (spec §2): a CSV of `page,timestamp` rows, one per change, replayed by
//! the simulator. Import is strict: every bad row is reported with its line and the
//! reason, nothing is dropped or reordered, and a trace over the stated limits is refused.

use crate::core::input::InputError;

/// Limits on an imported trace (a year of the thesis's 10,000 articles is about 7 M rows).
pub const MAX_BYTES: usize = 512 << 20;
pub const MAX_ROWS: usize = 20_000_000;
pub const MAX_PAGES: usize = 100_000;
const MAX_NAME: usize = 1000;
/// Timestamps from 1970-01-01 to 2100-01-01 (Unix seconds).
const LATEST: f64 = 4_102_444_800.0;
/// Bad rows described one by one in the message; later ones are listed by line.
const DESCRIBED: usize = 50;
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
        let mut out = String::from("page,timestamp\n");
        for (i, name) in self.names.iter().enumerate() {
            let quoted = if name.contains([',', '"']) { format!("\"{}\"", name.replace('"', "\"\"")) } else { name.clone() };
            for &t in self.changes(i) {
                out.push_str(&quoted);
                out.push(',');
                out.push_str(&iso(self.start + (t * 60.0).round()));
                out.push('\n');
            }
        }
        out
    }
}

/// Reads a trace from the bytes of a CSV file.
pub fn parse(bytes: &[u8]) -> Result<Trace, InputError> {
    let text = decode(bytes, "trace", "split the trace or keep fewer pages")?;
    let mut report = Report::default();
    let mut index: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let mut pages: Vec<Vec<(f64, usize)>> = Vec::new();
    let mut rows = 0usize;
    let mut blank_lines = 0usize;
    let mut first = true;
    // a final newline ends the last line; it does not start an empty one
    for (k, raw) in text.strip_suffix('\n').unwrap_or(text).split('\n').enumerate() {
        let line = k + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() {
            blank_lines += 1;
            continue;
        }
        let is_first = std::mem::replace(&mut first, false);
        let fields = match split_csv(raw) {
            Ok(f) => f,
            Err(reason) => {
                report.bad(line, reason);
                continue;
            }
        };
        if fields.len() != 2 {
            if is_first && fields.len() > 2 && looks_like_header(&fields) {
                return Err(InputError::new("trace", format!("line 1 has {} columns ({}); the trace needs exactly two: page,timestamp", fields.len(), fields.join(", "))));
            }
            report.bad(line, format!("expected 2 fields (page,timestamp), found {}; quote page names that contain commas", fields.len()));
            continue;
        }
        let (page, stamp) = (fields[0].trim(), fields[1].trim());
        let time = match parse_time(stamp) {
            Ok(t) => t,
            Err(_) if is_first && looks_like_header(&fields) => continue,
            Err(reason) => {
                report.bad(line, reason);
                continue;
            }
        };
        if page.is_empty() {
            report.bad(line, "the page name is empty".into());
            continue;
        }
        if page.chars().count() > MAX_NAME {
            report.bad(line, format!("the page name is longer than {MAX_NAME} characters"));
            continue;
        }
        rows += 1;
        if rows > MAX_ROWS {
            return Err(InputError::new("trace", format!("has more than {MAX_ROWS} rows (the limit; line {line}); split the trace or keep fewer pages")));
        }
        let id = match index.get(page) {
            Some(&id) => id,
            None => {
                if names.len() == MAX_PAGES {
                    return Err(InputError::new("trace", format!("has more than {MAX_PAGES} pages (the limit; line {line} adds one more); keep fewer pages")));
                }
                index.insert(page.to_string(), names.len());
                names.push(page.to_string());
                pages.push(Vec::new());
                names.len() - 1
            }
        };
        if let Some(&(previous, previous_line)) = pages[id].last() {
            if time == previous {
                report.bad(line, format!("repeats the time of line {previous_line} for page “{page}”; keep one row per change"));
                continue;
            }
            if time < previous {
                report.bad(line, format!("is earlier than line {previous_line} for page “{page}”; sort each page's rows by time"));
                continue;
            }
        }
        pages[id].push((time, line));
    }
    if let Some(message) = report.message() {
        return Err(InputError::new("trace", message));
    }
    if rows == 0 {
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

/// UTF-8 text (a BOM is allowed); other encodings are refused with the fix.
/// `field` names the input in messages; `smaller` says how to make a file smaller.
pub(crate) fn decode<'a>(bytes: &'a [u8], field: &str, smaller: &str) -> Result<&'a str, InputError> {
    if bytes.len() > MAX_BYTES {
        return Err(InputError::new(field, format!("is {} MB, over the {} MB limit; {smaller}", bytes.len() >> 20, MAX_BYTES >> 20)));
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || bytes.iter().take(4096).any(|&b| b == 0) {
        return Err(InputError::new(field, "looks like UTF-16 (or binary) text; save the file as UTF-8 CSV"));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError::new(field, format!("is not UTF-8 text (byte {} on line {line} is not valid UTF-8); save the file as UTF-8 CSV", at + 1))
    })
}

/// The fields of a CSV line; double-quoted fields may hold commas and "" for a quote.
pub(crate) fn split_csv(line: &str) -> Result<Vec<String>, String> {
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut was_quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') if field.trim().is_empty() && !was_quoted => {
                field.clear();
                quoted = true;
                was_quoted = true;
            }
            (false, '"') => return Err("has a quote inside an unquoted field; quote the whole field and double inner quotes".into()),
            (false, ',') => {
                fields.push(std::mem::take(&mut field));
                was_quoted = false;
            }
            (false, c) if was_quoted && !c.is_whitespace() => return Err("has text after a closing quote".into()),
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err("has a quote that is never closed".into());
    }
    fields.push(field);
    Ok(fields)
}

/// A header line: its second field is one word of letters (e.g. `page,timestamp`).
fn looks_like_header(fields: &[String]) -> bool {
    fields.get(1).is_some_and(|f| {
        let f = f.trim();
        !f.is_empty() && f.chars().all(|c| c.is_alphabetic() || c == '_' || c == '-')
    })
}

/// Unix seconds (`1167609600`, `1167609600.5`) or ISO-8601 (`2007-01-01T00:00Z`,
/// `2007-01-01 00:00:00`, `2007-01-01T02:00+02:00`; no zone means UTC).
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
        parse_iso(text).map_err(|why| format!("“{}” is not an ISO-8601 time ({why}) nor Unix seconds", shorten(text)))?
    };
    if !(0.0..LATEST).contains(&seconds) {
        return Err(format!("“{}” is outside 1970–2100", shorten(text)));
    }
    Ok(seconds)
}

fn shorten(text: &str) -> String {
    if text.chars().count() > 40 { format!("{}…", text.chars().take(40).collect::<String>()) } else { text.to_string() }
}

fn parse_iso(text: &str) -> Result<f64, &'static str> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Result<i64, &'static str> {
        let s = b.get(from..from + len).ok_or("too short")?;
        if !s.iter().all(u8::is_ascii_digit) {
            return Err("expected digits such as 2007-01-31T13:45");
        }
        Ok(std::str::from_utf8(s).expect("ascii").parse().expect("digits"))
    };
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if b.get(4) != Some(&b'-') || b.get(7) != Some(&b'-') {
        return Err("expected YYYY-MM-DD");
    }
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return Err("no such date");
    }
    let mut seconds = days_from_civil(year, month, day) as f64 * DAY;
    let mut at = 10;
    if at == b.len() {
        return Ok(seconds);
    }
    if !matches!(b[at], b'T' | b't' | b' ') {
        return Err("expected T between the date and the time");
    }
    let (hour, minute) = (num(at + 1, 2)?, num(at + 4, 2)?);
    if b.get(at + 3) != Some(&b':') || hour > 23 || minute > 59 {
        return Err("expected a time HH:MM from 00:00 to 23:59");
    }
    seconds += (hour * 3600 + minute * 60) as f64;
    at += 6;
    if b.get(at) == Some(&b':') {
        let second = num(at + 1, 2)?;
        if second > 60 {
            return Err("seconds above 60");
        }
        seconds += second as f64;
        at += 3;
        if matches!(b.get(at), Some(b'.' | b',')) {
            let start = at + 1;
            at = start;
            while b.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            if at == start || at - start > 9 {
                return Err("a fraction of a second needs 1 to 9 digits");
            }
            seconds += format!("0.{}", &text[start..at]).parse::<f64>().expect("digits");
        }
    }
    match b.get(at) {
        None => Ok(seconds),
        Some(b'Z' | b'z') if at + 1 == b.len() => Ok(seconds),
        Some(&sign @ (b'+' | b'-')) => {
            let hours = num(at + 1, 2)?;
            let minutes = match b.get(at + 3) {
                None => 0,
                Some(b':') => num(at + 4, 2)?,
                Some(_) => num(at + 3, 2)?,
            };
            let len = match b.get(at + 3) {
                None => 3,
                Some(b':') => 6,
                Some(_) => 5,
            };
            if at + len != b.len() || hours > 14 || minutes > 59 {
                return Err("expected a zone such as Z, +02:00 or -0500");
            }
            let offset = (hours * 3600 + minutes * 60) as f64;
            Ok(if sign == b'+' { seconds - offset } else { seconds + offset })
        }
        _ => Err("unexpected text after the time"),
    }
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// ISO-8601 (UTC, to the second) of Unix seconds.
pub fn iso(seconds: f64) -> String {
    let s = seconds.floor() as i64;
    let (days, rest) = (s.div_euclid(86_400), s.rem_euclid(86_400));
    // inverse of days_from_civil
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest / 60 % 60, rest % 60)
}

/// Bad rows: the first few described, the rest listed by line.
#[derive(Default)]
pub(crate) struct Report {
    described: Vec<String>,
    more: Vec<usize>,
}

impl Report {
    pub(crate) fn bad(&mut self, line: usize, reason: String) {
        if self.described.len() < DESCRIBED {
            self.described.push(format!("line {line}: {reason}"));
        } else {
            self.more.push(line);
        }
    }

    pub(crate) fn message(&self) -> Option<String> {
        if self.described.is_empty() {
            return None;
        }
        let total = self.described.len() + self.more.len();
        let mut text = format!("has {total} bad row{}; nothing was imported. {}.", if total == 1 { "" } else { "s" }, self.described.join(". "));
        if !self.more.is_empty() {
            text.push_str(&format!(" Also bad (same kinds of fault; fix the rows above and import again to see their reasons): lines {}.", ranges(&self.more)));
        }
        Some(text)
    }
}

/// 3, 4, 5, 9 → "3–5, 9" (at most 200 ranges, then a count).
fn ranges(lines: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let mut j = k;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        if parts.len() == 200 {
            let left = lines.len() - k;
            parts.push(format!("and {left} more lines"));
            break;
        }
        parts.push(if j > k { format!("{}–{}", lines[k], lines[j]) } else { lines[k].to_string() });
        k = j + 1;
    }
    parts.join(", ")
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
    fn civil_dates_round_trip() {
        for (text, seconds) in [("1970-01-01T00:00Z", 0.0), ("2000-02-29T12:00Z", 951_825_600.0), ("2007-12-31T23:59:59Z", 1_199_145_599.0)] {
            assert_eq!(parse_time(text).unwrap(), seconds, "{text}");
            assert_eq!(iso(seconds), text.replace("T12:00Z", "T12:00:00Z").replace("T00:00Z", "T00:00:00Z"));
        }
    }

    #[test]
    fn bad_rows_are_all_reported_with_their_lines() {
        let csv = "page,timestamp\nA,2007-01-01T00:10Z\nA,2007-01-01T00:10Z\nA,2007-01-01T00:05Z\nB,yesterday\nC,2007-02-30T00:00Z\nD\n,1167609600\nE,\"x\nF,99999999999999999999\nG,2007-01-01T25:00Z\nH,1e12\n";
        let m = err(csv.as_bytes());
        assert!(m.starts_with("has 10 bad rows; nothing was imported"), "{m}");
        for needle in [
            "line 3: repeats the time of line 2",
            "line 4: is earlier than line 2",
            "line 5: “yesterday” is not an ISO-8601 time",
            "line 6: “2007-02-30T00:00Z” is not an ISO-8601 time (no such date)",
            "line 7: expected 2 fields",
            "line 8: the page name is empty",
            "line 9: has a quote that is never closed",
            "line 10: “99999999999999999999” is far outside 1970–2100",
            "line 11: “2007-01-01T25:00Z” is not an ISO-8601 time (expected a time HH:MM",
            "line 12: “1e12” is not an ISO-8601 time",
        ] {
            assert!(m.contains(needle), "missing «{needle}» in {m}");
        }
    }

    #[test]
    fn many_bad_rows_are_listed_by_line() {
        let mut csv = String::new();
        for k in 0..300 {
            csv.push_str(&format!("p{k},not a time\n"));
        }
        csv.push_str("ok,0\n");
        let m = err(csv.as_bytes());
        assert!(m.starts_with("has 300 bad rows"), "{m}");
        assert!(m.contains("line 50: “not a time”"), "{m}");
        assert!(m.contains("lines 51–300."), "{m}");
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
}
