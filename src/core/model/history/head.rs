//! What a file's first bytes say of the pages in it, for the memory reading it takes: a
//! page costs far more than a record (its URL kept twice, its estimate and its row), so
//! a file of one capture a page takes some 30 times the memory of one of 30 captures a
//! page at the same size.

use super::lines::LineReader;
use super::{Format, Records, warc};
use std::collections::HashMap;

/// The pages of a file's records, as its head shows them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PageShare {
    /// Pages a record, at most 1.
    pub per_record: f64,
    /// Bytes of a page's URL, in the mean.
    pub url_bytes: f64,
    /// Each page's records one after another in the head, some page's more than one: a
    /// file in page order (a sorted index), whose head's share holds past it. A head
    /// naming each page once is in page order and in time order alike.
    pub by_page: bool,
}

/// A page's URL where the head names none (a dump's titles make URLs of about this).
const URL_BYTES: f64 = 80.0;
/// Records beside the most-recorded page's, fewer than this in the head of a line
/// format's file: no share told, every record taken for a page.
const MIN_RECORDS: usize = 100;

impl PageShare {
    /// Every record a page: the bound where the head tells nothing.
    pub const EVERY_RECORD: PageShare = PageShare { per_record: 1.0, url_bytes: URL_BYTES, by_page: false };

    /// From `head`, a file's first bytes (`whole`: all of it), in `format` (told, not
    /// auto): its pages (distinct URLs or titles) against its records. In a line format
    /// read past its head the most-recorded page is left out of both: an index sorted by
    /// URL opens on the site's root, often captured far more often than the rest.
    pub fn of(head: &str, format: Format, whole: bool) -> PageShare {
        let warc = warc::is_warc(head.as_bytes());
        let (counts, in_order) = if warc { (warc_pages(head), false) } else { pages(head, format) };
        if counts.is_empty() {
            return PageShare::EVERY_RECORD;
        }
        let url_bytes = counts.keys().map(|u| u.len()).sum::<usize>() as f64 / counts.len() as f64;
        let (mut pages, mut records) = (counts.len(), counts.values().sum::<usize>());
        if !whole && !warc && format.by_line() {
            (pages, records) = (pages - 1, records - counts.values().copied().max().unwrap_or(0));
            if records < MIN_RECORDS {
                return PageShare { url_bytes, ..PageShare::EVERY_RECORD };
            }
        }
        let by_page = in_order && records > pages;
        PageShare { per_record: (pages as f64 / records.max(1) as f64).min(1.0), url_bytes, by_page }
    }
}

/// Records by page in a head of `format`: the line formats read by their reader (its
/// complete lines), a sitemap's `<loc>`s, a dump's revisions by title; and whether each
/// page's records come one after another (told for the line formats only).
fn pages(head: &str, format: Format) -> (HashMap<String, usize>, bool) {
    let mut counts = HashMap::new();
    let mut in_order = false;
    match format {
        Format::Sitemap => {
            for loc in between(head, "<loc>", "</loc>") {
                *counts.entry(loc.trim().to_string()).or_insert(0) += 1;
            }
        }
        Format::Mediawiki => {
            // each title's revisions: those met before the next title
            let xml = head.trim_start().starts_with('<');
            let (title, revision) = if xml { ("<title>", "<revision") } else { ("\"title\"", "\"timestamp\"") };
            let mut rest = head;
            while let Some(at) = rest.find(title) {
                rest = &rest[at + title.len()..];
                let end = rest.find(title).unwrap_or(rest.len());
                let name = rest[..rest.find(if xml { "</title>" } else { "," }).unwrap_or(0).min(end)].trim_matches([':', '"', ' ']);
                // a title names a page of the wiki: its URL is about this much longer
                *counts.entry(format!("https://en.wikipedia.org/wiki/{name}")).or_insert(0) += rest[..end].matches(revision).count().max(1);
            }
        }
        _ if format.by_line() => {
            let complete = &head[..head.rfind('\n').map_or(0, |i| i + 1)];
            let (mut reader, mut records) = (LineReader::new(format), Records::default());
            // the page of the record before, and its records then
            let (mut last, mut order) = (None::<(usize, usize)>, true);
            for line in complete.lines() {
                let (pages, kept) = (records.pages(), records.kept);
                if reader.line(line, true, &mut records).is_err() {
                    break;
                }
                if records.kept == kept {
                    continue;
                }
                // a record of a new page, or of the page before: else an earlier page's again
                if records.pages() > pages {
                    last = Some((pages, 1));
                } else if let Some((page, seen)) = last.filter(|&(page, seen)| records.marks(page).len() > seen) {
                    last = Some((page, seen + 1));
                } else {
                    order = false;
                }
            }
            in_order = order;
            for (page, url) in records.urls.iter().enumerate() {
                counts.insert(url.to_string(), records.marks(page).len());
            }
        }
        _ => {}
    }
    (counts, in_order)
}

/// Records by target URI in a WARC file's head (requests, responses, revisions and
/// metadata alike: each a record its reading passes).
fn warc_pages(head: &str) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for line in head.lines() {
        if let Some(uri) = line.strip_prefix("WARC-Target-URI:") {
            *counts.entry(uri.trim().trim_matches(['<', '>']).to_string()).or_insert(0) += 1;
        }
    }
    counts
}

/// The texts between each `open` and the next `close`.
fn between<'a>(text: &'a str, open: &'a str, close: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    text.split(open).skip(1).filter_map(move |s| s.find(close).map(|end| &s[..end]))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn cdx(pages: usize, captures: usize, root: usize) -> String {
        let mut s = String::from(" CDX N b a m s k r M S V g\n");
        for c in 0..root {
            s.push_str(&format!("org,example)/ 202601{:02}000000 http://example.org/ text/html 200 D{c} - - 900 0 a.warc.gz\n", 1 + c % 28));
        }
        for p in 0..pages {
            for c in 0..captures {
                s.push_str(&format!("org,example)/p{p} 202601{:02}000000 http://example.org/p{p} text/html 200 D{p}V{c} - - 900 0 a.warc.gz\n", 1 + c));
            }
        }
        s
    }

    #[test]
    fn a_whole_file_counts_its_pages_exactly() {
        let share = PageShare::of(&cdx(30, 4, 0), Format::Cdx, true);
        assert_eq!(share.per_record, 0.25);
        // "http://example.org/p0" … "p29": 21 or 22 bytes
        assert!((share.url_bytes - (21.0 * 10.0 + 22.0 * 20.0) / 30.0).abs() < 1e-9, "{share:?}");
    }

    /// A sorted index opening on its root's thousand captures: the root left out, the
    /// share is the other pages'; a head of only the root tells nothing.
    #[test]
    fn past_the_head_the_most_recorded_page_is_left_out() {
        let share = PageShare::of(&cdx(200, 2, 1000), Format::Cdx, false);
        assert_eq!(share.per_record, 0.5);
        assert_eq!(PageShare::of(&cdx(0, 0, 1000), Format::Cdx, false).per_record, 1.0);
        assert_eq!(PageShare::of(&cdx(40, 2, 0), Format::Cdx, false).per_record, 1.0, "79 records besides the most-recorded page's: too few");
    }

    /// Page order is told where a page's records run together; a log in time order, or
    /// a head naming each page once, is not told in page order.
    #[test]
    fn a_head_in_page_order_is_told_from_one_in_time_order() {
        assert!(PageShare::of(&cdx(200, 3, 0), Format::Cdx, false).by_page);
        let mut log = String::from("url,fetch_time,digest\n");
        for day in 1..=3 {
            for p in 0..200 {
                log.push_str(&format!("https://a.org/p{p},2026-01-0{day}T00:00:00Z,D{p}\n"));
            }
        }
        let share = PageShare::of(&log, Format::Csv, false);
        assert!(!share.by_page && (share.per_record - 1.0 / 3.0).abs() < 1e-9, "{share:?}");
        assert!(!PageShare::of(&cdx(300, 1, 0), Format::Cdx, false).by_page, "one capture a page: either order");
    }

    #[test]
    fn sitemaps_dumps_and_warc_files_name_their_pages() {
        let sitemap = "<urlset><url><loc>https://a.org/x</loc></url><url><loc> https://a.org/y </loc></url></urlset>";
        assert_eq!(PageShare::of(sitemap, Format::Sitemap, true), PageShare { per_record: 1.0, url_bytes: 15.0, by_page: false });
        let dump = "<mediawiki><page><title>A</title><revision>1</revision><revision>2</revision></page><page><title>B</title><revision>3</revision>";
        let share = PageShare::of(dump, Format::Mediawiki, true);
        assert_eq!(share.per_record, 2.0 / 3.0);
        let api = r#"{"query":{"pages":[{"title":"A","revisions":[{"timestamp":"1"},{"timestamp":"2"},{"timestamp":"3"}]}]}}"#;
        assert_eq!(PageShare::of(api, Format::Mediawiki, true).per_record, 1.0 / 3.0);
        let warc = "WARC/1.0\r\nWARC-Type: request\r\nWARC-Target-URI: http://a.org/\r\n\r\nWARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: <http://a.org/>\r\n\r\n";
        assert_eq!(PageShare::of(warc, Format::Auto, true), PageShare { per_record: 0.5, url_bytes: 13.0, by_page: false });
        assert_eq!(PageShare::of("nothing here", Format::Cdx, true), PageShare::EVERY_RECORD);
    }
}
