//! The pages line formats' files name, counted in one pass in constant memory. A file's
//! head cannot tell an index of one capture a page from a log of many visits in time
//! order (both name each page once there), nor can one file tell the pages it shares with
//! the others (a crawler's log rotated daily), and a page costs some 30 times a record:
//! only the whole files can say. A line format's pages are told by its own reader; a
//! sitemap's by its `<loc>`s, as its head's share tells them ([`super::head`]): several
//! snapshots of one sitemap name the same URLs, and its XML reader pulls its text where
//! the page's worker pushes pieces.

use super::lines::LineReader;
use super::{Format, Records, hash};
use crate::core::math::distinct::Distinct;

/// Pages read into a batch of records before their URLs go to the sketch.
const BATCH: usize = 4096;
/// A `<loc>`'s text, at most: an open `<loc>` without its end this far on names no page
/// (a URL is some hundred bytes; the text kept waiting for its end stays this small).
const MOST_LOC: usize = 64 * 1024;

/// How a file's pages are told.
#[derive(Clone, Debug)]
enum Reader {
    /// A line format's, by its reader: a page is a URL with a record kept.
    Lines(LineReader),
    /// A sitemap's: a page is a `<loc>`'s text.
    Locs,
}

impl Reader {
    fn new(format: Format) -> Reader {
        if format == Format::Sitemap { Reader::Locs } else { Reader::Lines(LineReader::new(format)) }
    }
}

/// The pages of line formats' files and sitemaps, read a file at a time and a piece of
/// text at a time (a line format's by the run's own reader: skipped and refused lines
/// name none), the files' pages counted together.
#[derive(Clone, Debug)]
pub struct PageCount {
    reader: Reader,
    batch: Records,
    sketch: Distinct,
    /// The end of the last piece after its last line end (the start of a line), or a
    /// sitemap's from its last `<loc>` not yet ended (else its last bytes, which may
    /// begin one).
    rest: String,
}

impl PageCount {
    /// A count whose first file is in `format`.
    pub fn new(format: Format) -> PageCount {
        PageCount { reader: Reader::new(format), batch: Records::default(), sketch: Distinct::default(), rest: String::new() }
    }

    /// The count of files read so far in `count`, with a file in `format` begun: the
    /// first (a new count), or the next ([`Self::next_file`]).
    pub fn begin(count: &mut Option<PageCount>, format: Format) -> &mut PageCount {
        match count {
            Some(count) => {
                count.next_file(format);
                count
            }
            None => count.insert(PageCount::new(format)),
        }
    }

    /// Ends the file read (as [`Self::pages`]) and begins another, in `format`.
    pub fn next_file(&mut self, format: Format) {
        self.end_file();
        self.reader = Reader::new(format);
    }

    /// Reads `text`, the file's next piece (a line it cuts is read with the next piece).
    pub fn feed(&mut self, text: &str) {
        if matches!(self.reader, Reader::Locs) {
            return self.locs(text);
        }
        let Some(last) = text.rfind('\n') else {
            self.rest.push_str(text);
            return;
        };
        let mut complete = &text[..last];
        if !self.rest.is_empty() {
            let first = complete.find('\n').unwrap_or(complete.len());
            let mut line = std::mem::take(&mut self.rest);
            line.push_str(&complete[..first]);
            self.line(&line, true);
            complete = complete.get(first + 1..).unwrap_or("");
            if first == last {
                self.rest.push_str(&text[last + 1..]);
                return;
            }
        }
        for line in complete.split('\n') {
            self.line(line, true);
        }
        self.rest.push_str(&text[last + 1..]);
    }

    /// Reads one line (without its end; `ended`: whether one followed it), for a reader
    /// of lines; not beside [`Self::feed`].
    pub fn line(&mut self, line: &str, ended: bool) {
        let Reader::Lines(reader) = &mut self.reader else {
            self.locs(line);
            if ended {
                self.locs("\n");
            }
            return;
        };
        // a refused line names no page (the run refuses the file)
        let _ = reader.line(line, ended, &mut self.batch);
        if self.batch.pages() >= BATCH {
            self.flush();
        }
    }

    /// Reads a sitemap's next piece: each `<loc>` ended in it a page.
    fn locs(&mut self, text: &str) {
        const OPEN: &str = "<loc>";
        const CLOSE: &str = "</loc>";
        self.rest.push_str(text);
        let mut at = 0;
        let kept = loop {
            let Some(open) = self.rest[at..].find(OPEN) else {
                // the last bytes may begin a `<loc>` the next piece ends
                let mut from = self.rest.len().saturating_sub(OPEN.len() - 1).max(at);
                while !self.rest.is_char_boundary(from) {
                    from += 1;
                }
                break from;
            };
            let start = at + open + OPEN.len();
            let Some(close) = self.rest[start..].find(CLOSE) else {
                break if self.rest.len() - start > MOST_LOC { self.rest.len() } else { at + open };
            };
            self.sketch.insert(hash(self.rest[start..start + close].trim()));
            at = start + close + CLOSE.len();
        };
        self.rest.drain(..kept);
    }

    fn flush(&mut self) {
        for url in &self.batch.urls {
            self.sketch.insert(hash(url));
        }
        self.batch = Records::default();
    }

    /// The file read ends (its last line may have no line end).
    fn end_file(&mut self) {
        if matches!(self.reader, Reader::Locs) {
            // a `<loc>` the file does not end names no page
            self.rest.clear();
        } else if !self.rest.is_empty() {
            let rest = std::mem::take(&mut self.rest);
            self.line(&rest, false);
        }
        self.flush();
    }

    /// The pages the files read so far name, the file read ended; estimated within the
    /// sketch's standard error ([`crate::core::math::distinct::STANDARD_ERROR`]).
    pub fn pages(&mut self) -> f64 {
        self.end_file();
        self.sketch.count()
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A crawl log in time order, `visits` rounds over `pages` pages, plus a line that is
    /// refused and one that is skipped (neither a page).
    fn log(pages: usize, visits: usize) -> String {
        let mut s = String::from("url,fetch_time,digest\n");
        for v in 0..visits {
            for p in 0..pages {
                s.push_str(&format!("https://example.org/p{p},2026-01-{:02}T00:00:00Z,D{p}V{}\n", 1 + v, v / 3));
            }
        }
        s + "not a line of this log\n,2026-01-01T00:00:00Z,D\nhttps://example.org/last,2026-02-01T00:00:00Z,X"
    }

    #[test]
    fn a_log_of_many_visits_names_each_page_once() {
        let text = log(3_000, 5);
        let mut whole = PageCount::new(Format::Csv);
        whole.feed(&text);
        let pages = whole.pages();
        assert!((pages - 3_001.0).abs() <= 0.01 * 3_001.0, "{pages}");
        // the same in pieces cut anywhere, inside lines or at their ends
        for piece in [1, 7, 100, 4096] {
            let mut cut = PageCount::new(Format::Csv);
            let mut at = 0;
            while at < text.len() {
                let end = (at + piece).min(text.len());
                cut.feed(&text[at..end]);
                at = end;
            }
            assert_eq!(cut.pages(), pages, "pieces of {piece} bytes");
        }
    }

    /// Two files' pages counted together: a page both name is one page.
    #[test]
    fn files_naming_the_same_pages_count_them_once() {
        let mut count = PageCount::new(Format::Csv);
        count.feed(&log(2_000, 2));
        let first = count.pages();
        count.next_file(Format::Csv);
        count.feed(&log(3_000, 1));
        let both = count.pages();
        // within the sketch's 4 standard errors
        let within = 4.0 * crate::core::math::distinct::STANDARD_ERROR;
        assert!((first - 2_001.0).abs() <= within * 2_001.0, "{first}");
        assert!((both - 3_001.0).abs() <= within * 3_001.0, "{both}");
    }

    /// A sitemap's snapshots name the same URLs: each `<loc>` a page, counted once
    /// however the text is cut (inside a `<loc>`, its tag, a multi-byte character); an
    /// image's `<image:loc>` is no page; a `<loc>` never ended names none.
    #[test]
    fn a_sitemaps_snapshots_name_their_pages_once() {
        let snapshot = |day: usize| {
            let mut s = String::from("<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
            for p in 0..2_000 {
                s.push_str(&format!("<url><loc> https://example.org/é{p} </loc><lastmod>2026-01-{day:02}</lastmod><image:image><image:loc>https://example.org/i{p}.png</image:loc></image:image></url>\n"));
            }
            s + "</urlset>\n"
        };
        let within = 4.0 * crate::core::math::distinct::STANDARD_ERROR * 2_000.0;
        for piece in [1, 5, 333, 1 << 20] {
            let mut count = PageCount::new(Format::Sitemap);
            for day in 1..=3 {
                let text = snapshot(day);
                let mut at = 0;
                while at < text.len() {
                    let mut end = (at + piece).min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    count.feed(&text[at..end]);
                    at = end;
                }
                let pages = count.pages();
                assert!((pages - 2_000.0).abs() <= within, "pieces of {piece} bytes, {day} snapshots: {pages}");
                count.next_file(Format::Sitemap);
            }
        }
        // read a line at a time, as the command line reads its paths
        let mut count = PageCount::new(Format::Sitemap);
        for line in snapshot(1).lines() {
            count.line(line, true);
        }
        assert!((count.pages() - 2_000.0).abs() <= within);
        // a `<loc>` never ended, past a URL's length, is let go
        let mut count = PageCount::new(Format::Sitemap);
        count.feed("<urlset><url><loc>https://example.org/");
        count.feed(&"x".repeat(MOST_LOC + 1));
        assert!(count.rest.is_empty(), "{} bytes kept", count.rest.len());
        count.feed("</loc></url><url><loc>https://example.org/b</loc></url>");
        assert_eq!(count.pages().round(), 1.0);
    }
}
