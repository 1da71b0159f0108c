//! The line formats, read a line at a time: CDX, CDXJ, Heritrix's crawl.log and a CSV
//! crawl log. Each line is kept as a page's mark, left out for a stated reason
//! ([`Skip`]), or refused with the fix (the caller names the file and line).

use super::{Format, Mark, Records, Skip, What, hash};
use crate::core::model::trace::parse_time;
use serde::Deserialize;

/// A line format's state between lines (a CDX legend, a CSV header).
#[derive(Clone, Debug)]
pub struct LineReader {
    pub format: Format,
    /// CDX: the positions of the original URL, timestamp, mime type, status and digest.
    cdx: [usize; 5],
    /// CDX: the fields a line has, as the legend names them or (without one) as the
    /// first record has them: a line with fewer was cut short.
    cdx_width: Option<(usize, &'static str)>,
    /// CSV: the columns of url, time, changed, digest and weight, once the header is read.
    csv: Option<[Option<usize>; 6]>,
    /// CSV: the width of the rows' last field so far, and whether every row's had it: a
    /// last line without its line end whose last field is shorter was cut inside it.
    csv_last_width: Option<(usize, bool)>,
    /// The CDX server's JSON: whether its header row was read, and whether an empty row
    /// came last (the resume key follows it).
    cdx_json: Option<bool>,
    /// Whether the line before was blank (in CDX text, a one-field line after one is the
    /// resume key).
    blank_before: bool,
    /// crawl.log: the fewest fields a line has had: a last line without its line end
    /// that has fewer was cut short.
    log_fields: Option<usize>,
}

/// The CDX fields without a legend: urlkey timestamp original mimetype statuscode digest …
const CDX_DEFAULT: [usize; 5] = [2, 1, 3, 4, 5];

impl LineReader {
    pub fn new(format: Format) -> Self {
        debug_assert!(format.by_line());
        LineReader { format, cdx: CDX_DEFAULT, cdx_width: None, csv: None, csv_last_width: None, log_fields: None, cdx_json: None, blank_before: false }
    }

    /// Reads one line (without its end) into `records`; `ended`: whether a line end
    /// followed it (the file's last line may have none: where it was cut).
    pub fn line(&mut self, line: &str, ended: bool, records: &mut Records) -> Result<(), String> {
        let line = line.trim_end_matches('\r');
        let blank_before = std::mem::replace(&mut self.blank_before, line.trim().is_empty());
        if line.trim().is_empty() || line.starts_with('#') {
            records.skip(Skip::Comment);
            return Ok(());
        }
        if self.format == Format::Cdx && blank_before && line.split_whitespace().count() == 1 {
            records.skip(Skip::ResumeKey);
            return Ok(());
        }
        match self.format {
            Format::Cdx => self.cdx(line, records),
            Format::Cdxj => cdxj(line, records),
            Format::Heritrix => {
                let fields = line.split_whitespace().count();
                match self.log_fields {
                    Some(fewest) if !ended && fields < fewest => {
                        return Err(format!(
                            "ends the file without a line end, and has {fields} fields where every line before has at least {fewest}: the file was cut inside this line; fetch it again or remove the line"
                        ));
                    }
                    _ => self.log_fields = Some(self.log_fields.map_or(fields, |f| f.min(fields))),
                }
                heritrix(line, records)
            }
            Format::Csv => self.csv(line, ended, records),
            _ => unreachable!("documents are read whole"),
        }
    }

    /// The 11-field CDX (urlkey timestamp original mimetype statuscode digest redirect
    /// robotflags length offset filename), the Wayback CDX server's 7 fields, or any
    /// field order a ` CDX` legend line names (a original URL, b date, m mime type,
    /// s status, k or c digest: the CDX file format's letters).
    fn cdx(&mut self, line: &str, records: &mut Records) -> Result<(), String> {
        // (not a SURT key of an IPv6 host: `[2001:db8::1])/`)
        let json = ["[[", "[\"", "[]"].iter().any(|p| line.trim_start().starts_with(p)) || line.trim() == "]";
        if json {
            return self.cdx_json(line.trim(), records);
        }
        if let Some(legend) = line.trim_start().strip_prefix("CDX ") {
            let letters: Vec<&str> = legend.split_whitespace().collect();
            let at = |names: &[&str]| letters.iter().position(|l| names.contains(l));
            match (at(&["a"]), at(&["b"]), at(&["m"]), at(&["s"]), at(&["k", "c"])) {
                (Some(a), Some(b), Some(m), Some(s), Some(k)) => (self.cdx, self.cdx_width) = ([a, b, m, s, k], Some((letters.len(), "the legend names"))),
                _ => return Err("the CDX legend must name the fields a (original URL), b (date), m (mime type), s (status) and k (digest)".into()),
            }
            return Ok(()); // the legend is the header, not a record
        }
        let fields: Vec<&str> = line.split(' ').filter(|f| !f.is_empty()).collect();
        let need = self.cdx.iter().max().copied().unwrap_or(0) + 1;
        if fields.len() < need {
            return Err(format!("has {} fields, a CDX line needs at least {need} (urlkey timestamp original mimetype statuscode digest …); is it CDXJ or a log?", fields.len()));
        }
        match self.cdx_width {
            Some((width, whose)) if fields.len() < width => {
                return Err(format!("has {} fields where {whose} {width}: a line cut short (was the file truncated?); fetch the file again or remove the line", fields.len()));
            }
            None => self.cdx_width = Some((fields.len(), "the file's first capture has")),
            _ => {}
        }
        let [a, b, m, s, k] = self.cdx;
        capture(records, fields[a], fields[b], fields[m], fields[s], fields[k])
    }

    /// The CDX server's `output=json`: one JSON array whose first row names the fields
    /// (in any `fl=` order: original, timestamp, mimetype, statuscode and digest read),
    /// each other row a capture, a row a line as the server writes them (or the whole
    /// array on one line); an empty row and then a row of one field is the resume key
    /// (`showResumeKey`).
    fn cdx_json(&mut self, line: &str, records: &mut Records) -> Result<(), String> {
        let rows: Vec<Vec<String>> = match serde_json::from_str(line) {
            Ok(rows) if line.starts_with("[[") || line == "[]" => rows,
            _ => {
                let row = line.strip_prefix("[[").map_or(line, |_| &line[1..]);
                let row = row.strip_suffix(',').or_else(|| row.strip_suffix("]]").map(|_| &row[..row.len() - 1])).unwrap_or(row);
                if row == "]" || row.is_empty() {
                    return Ok(()); // the array's end on a line of its own
                }
                vec![serde_json::from_str(row).map_err(|e| format!("is not a row of the CDX server's JSON ({e}); is the file cut short?"))?]
            }
        };
        for row in rows {
            match self.cdx_json {
                None => {
                    let at = |name: &str| row.iter().position(|f| f == name);
                    match (at("original"), at("timestamp"), at("mimetype"), at("statuscode"), at("digest")) {
                        (Some(a), Some(b), Some(m), Some(s), Some(k)) => (self.cdx, self.cdx_width) = ([a, b, m, s, k], Some((row.len(), "the JSON's header row names"))),
                        _ => {
                            return Err(format!(
                                "is the CDX server's JSON header row {row:?}, which must name original, timestamp, mimetype, statuscode and digest: query with those in fl= (or without fl=)"
                            ));
                        }
                    }
                    self.cdx_json = Some(false);
                }
                Some(_) if row.is_empty() => self.cdx_json = Some(true),
                Some(true) if row.len() == 1 => {
                    records.skip(Skip::ResumeKey);
                    self.cdx_json = Some(false);
                }
                Some(_) => {
                    let width = self.cdx_width.map_or(0, |(w, _)| w);
                    if row.len() != width {
                        return Err(format!("has {} fields where the JSON's header row names {width}; fetch the file again or remove the row", row.len()));
                    }
                    let [a, b, m, s, k] = self.cdx;
                    capture(records, &row[a], &row[b], &row[m], &row[s], &row[k])?;
                }
            }
        }
        Ok(())
    }

    /// `url,fetch_time,changed` or `url,fetch_time,digest` (with a header naming them; `page`
    /// for url and `time` for fetch_time also read), and an optional `weight` and
    /// `content_type` (or `mime`: the fetch's Content-Type, the page's type).
    fn csv(&mut self, line: &str, ended: bool, records: &mut Records) -> Result<(), String> {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_reader(line.as_bytes());
        let record = match reader.records().next() {
            Some(Ok(r)) => r,
            Some(Err(e)) => return Err(format!("is not a CSV row ({e})")),
            None => return Ok(()),
        };
        let fields: Vec<&str> = record.iter().map(str::trim).collect();
        let Some(columns) = self.csv else {
            let at = |names: &[&str]| fields.iter().position(|f| names.iter().any(|n| f.eq_ignore_ascii_case(n)));
            let columns = [at(&["url", "page"]), at(&["fetch_time", "time", "timestamp"]), at(&["changed"]), at(&["digest"]), at(&["weight"]), at(&["content_type", "mime"])];
            if columns[0].is_none() || columns[1].is_none() || columns[2].is_some() == columns[3].is_some() {
                return Err("is not the header: name the columns url,fetch_time and either changed (1 or 0) or digest, e.g. url,fetch_time,changed".into());
            }
            if let Some(other) = fields
                .iter()
                .find(|f| !["url", "page", "fetch_time", "time", "timestamp", "changed", "digest", "weight", "content_type", "mime"].iter().any(|n| f.eq_ignore_ascii_case(n)))
            {
                return Err(format!("names an unknown column “{other}”; the columns are url, fetch_time, changed or digest, and weight and content_type (optional)"));
            }
            self.csv = Some(columns);
            return Ok(());
        };
        let width = columns.iter().flatten().max().copied().unwrap_or(0) + 1;
        if fields.len() != width {
            return Err(format!("has {} fields where the header names {width}; quote URLs that contain commas", fields.len()));
        }
        let last = fields[width - 1].chars().count();
        match self.csv_last_width {
            Some((usual, true)) if !ended && last < usual => {
                return Err(format!(
                    "ends the file without a line end, and its last field has {last} characters where every line before has {usual}: the file was cut inside this line; fetch it again or remove the line"
                ));
            }
            Some((usual, same)) => self.csv_last_width = Some((usual, same && usual == last)),
            None => self.csv_last_width = Some((last, true)),
        }
        let url = fields[columns[0].expect("checked")];
        let time = parse_time(fields[columns[1].expect("checked")])?;
        let what = match (columns[2], columns[3]) {
            (Some(c), _) => match fields[c] {
                "1" | "true" | "yes" => What::Changed(true),
                "0" | "false" | "no" => What::Changed(false),
                other => return Err(format!("changed is “{other}”; write 1 (changed since the previous fetch) or 0")),
            },
            (_, Some(d)) if fields[d].is_empty() || fields[d] == "-" => {
                records.skip(Skip::NoDigest);
                return Ok(());
            }
            (_, Some(d)) => What::Digest(hash(fields[d])),
            _ => unreachable!("the header has one of them"),
        };
        if url.is_empty() {
            return Err("the url is empty".into());
        }
        let page = records.add(url, Mark { time, what })?;
        if let Some(w) = columns[4] {
            let weight: f64 = fields[w].parse().ok().filter(|w: &f64| w.is_finite() && *w >= 0.0).ok_or_else(|| format!("weight “{}” is not a number ≥ 0", fields[w]))?;
            records.weights.insert(page, weight);
        }
        if let Some(m) = columns[5] {
            records.saw_type(page, fields[m]);
        }
        Ok(())
    }
}

/// A capture (CDX, CDXJ): kept with its digest, or left out by its status.
/// A revisit record (mime `warc/revisit`, status `-`) is a capture of content identical
/// to an earlier one and carries that content's digest: it is kept as such.
fn capture(records: &mut Records, url: &str, timestamp: &str, mime: &str, status: &str, digest: &str) -> Result<(), String> {
    let time = cdx_time(timestamp)?;
    if !(url.starts_with("http://") || url.starts_with("https://")) {
        records.skip(Skip::NotPage);
        return Ok(());
    }
    // a request or metadata record (pywb's --allrecords, a WARC read here)
    if mime.strip_prefix("warc/").is_some_and(|kind| kind != "revisit") {
        records.skip(Skip::NotCapture);
        return Ok(());
    }
    let revisit = mime == "warc/revisit";
    match status.parse::<u16>() {
        Ok(200..=299) => {}
        Ok(300..=399) if status != "304" => {
            records.skip(Skip::Redirect);
            return Ok(());
        }
        Ok(304) => {}
        Ok(400..=599) => {
            records.skip(Skip::Error);
            return Ok(());
        }
        Ok(other) => return Err(format!("status “{other}” is not an HTTP status")),
        Err(_) if status == "-" && revisit => {}
        Err(_) if status == "-" => {
            records.skip(Skip::NoStatus);
            return Ok(());
        }
        Err(_) => return Err(format!("status “{status}” is not a number (or - for a revisit record)")),
    }
    if digest.is_empty() || digest == "-" {
        if status == "304" {
            records.add(url, Mark { time, what: What::Same })?;
            return Ok(());
        }
        records.skip(Skip::NoDigest);
        return Ok(());
    }
    let page = records.add(url, Mark { time, what: What::Digest(hash(digest)) })?;
    records.saw_type(page, mime);
    Ok(())
}

/// A CDX timestamp: 4 to 14 digits of YYYYMMDDhhmmss (a shorter one is the start of its
/// period, as the Wayback Machine reads it), in Unix seconds.
pub fn cdx_time(text: &str) -> Result<f64, String> {
    if !matches!(text.len(), 4 | 6 | 8 | 10 | 12 | 14) || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("timestamp “{text}” is not YYYYMMDDhhmmss (or its first 4, 6, 8, 10 or 12 digits)"));
    }
    // a missing month or day is the first
    let padded;
    let digits = match text.len() {
        14 => text,
        4 => {
            padded = format!("{text}0101000000");
            &padded
        }
        6 => {
            padded = format!("{text}01000000");
            &padded
        }
        _ => {
            padded = format!("{text:0<14}");
            &padded
        }
    };
    let n = |a: usize, b: usize| digits[a..b].parse::<i16>().expect("digits");
    let date = jiff::civil::DateTime::new(n(0, 4), n(4, 6) as i8, n(6, 8) as i8, n(8, 10) as i8, n(10, 12) as i8, n(12, 14) as i8, 0)
        .map_err(|e| format!("timestamp “{text}” is not a date ({e})"))?;
    let t = jiff::tz::Offset::UTC.to_timestamp(date).map_err(|e| e.to_string())?;
    Ok(t.as_second() as f64)
}

/// CDXJ: `<SURT key> <timestamp> <JSON>`, the JSON with url, status, digest and mime
/// (Common Crawl and pywb; `mime-detected` is not the record's mime type); or the JSON
/// alone with its `timestamp` (and `urlkey`), as their index server's `output=json`
/// writes a capture a line.
fn cdxj(line: &str, records: &mut Records) -> Result<(), String> {
    #[derive(Deserialize)]
    struct Fields {
        url: Option<String>,
        timestamp: Option<String>,
        status: Option<String>,
        digest: Option<String>,
        mime: Option<String>,
    }
    let read = |json: &str| serde_json::from_str::<Fields>(json.trim()).map_err(|e| format!("its JSON cannot be read ({e})"));
    let (fields, timestamp) = if line.trim_start().starts_with('{') {
        let fields = read(line)?;
        let timestamp = fields.timestamp.clone().ok_or("its JSON has no timestamp")?;
        (fields, timestamp)
    } else {
        let mut parts = line.splitn(3, ' ');
        let (Some(_key), Some(timestamp), Some(json)) = (parts.next(), parts.next(), parts.next()) else {
            return Err("is not a CDXJ line: <SURT key> <timestamp> {JSON}".into());
        };
        (read(json)?, timestamp.to_string())
    };
    let url = fields.url.ok_or("its JSON has no url")?;
    capture(records, &url, &timestamp, fields.mime.as_deref().unwrap_or(""), fields.status.as_deref().unwrap_or("-"), fields.digest.as_deref().unwrap_or("-"))
}

/// Heritrix's crawl.log: log time (ISO-8601), status (negative: Heritrix's own failure
/// codes), size, URI, discovery path, referrer, mime type, thread, fetch start+duration,
/// digest (`sha1:…`), source tag, annotations, [JSON]. A 304 is content unchanged.
fn heritrix(line: &str, records: &mut Records) -> Result<(), String> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.len() < 10 {
        return Err(format!("has {} fields; a crawl.log line has at least 10 (time status size URI path referrer mime thread fetch-time digest …)", f.len()));
    }
    let time = parse_time(f[0])?;
    let status: i64 = f[1].parse().map_err(|_| format!("status “{}” is not a number", f[1]))?;
    let uri = f[3];
    if !(uri.starts_with("http://") || uri.starts_with("https://")) {
        {
            records.skip(Skip::NotPage);
            return Ok(());
        };
    }
    match status {
        ..=0 => records.skip(Skip::Failed),
        304 => {
            records.add(uri, Mark { time, what: What::Same })?;
        }
        300..=399 => records.skip(Skip::Redirect),
        400..=599 => records.skip(Skip::Error),
        200..=299 if f[9] == "-" => records.skip(Skip::NoDigest),
        200..=299 => {
            let page = records.add(uri, Mark { time, what: What::Digest(hash(f[9])) })?;
            records.saw_type(page, f[6]);
        }
        other => return Err(format!("status {other} is neither an HTTP status nor a Heritrix failure code (negative)")),
    }
    Ok(())
}
