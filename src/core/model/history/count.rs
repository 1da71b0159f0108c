//! The pages line formats' files name, counted in one pass in constant memory. A file's
//! head cannot tell an index of one capture a page from a log of many visits in time
//! order (both name each page once there), nor can one file tell the pages it shares with
//! the others (a crawler's log rotated daily), and a page costs some 30 times a record:
//! only the whole files can say.

use super::lines::LineReader;
use super::{Format, Records, hash};
use crate::core::math::distinct::Distinct;

/// Pages read into a batch of records before their URLs go to the sketch.
const BATCH: usize = 4096;

/// Line formats' pages, read a file at a time and a piece of text at a time as the run
/// reads them (the same reader: a page is a URL with a record kept; skipped and refused
/// lines name none), the files' pages counted together.
#[derive(Clone, Debug)]
pub struct PageCount {
    reader: LineReader,
    batch: Records,
    sketch: Distinct,
    /// The end of the last piece after its last line end: the start of a line.
    rest: String,
}

impl PageCount {
    /// A count whose first file is in `format`.
    pub fn new(format: Format) -> PageCount {
        PageCount { reader: LineReader::new(format), batch: Records::default(), sketch: Distinct::default(), rest: String::new() }
    }

    /// Ends the file read (as [`Self::pages`]) and begins another, in `format`.
    pub fn next_file(&mut self, format: Format) {
        self.end_file();
        self.reader = LineReader::new(format);
    }

    /// Reads `text`, the file's next piece (a line it cuts is read with the next piece).
    pub fn feed(&mut self, text: &str) {
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
        // a refused line names no page (the run refuses the file)
        let _ = self.reader.line(line, ended, &mut self.batch);
        if self.batch.pages() >= BATCH {
            self.flush();
        }
    }

    fn flush(&mut self) {
        for url in &self.batch.urls {
            self.sketch.insert(hash(url));
        }
        self.batch = Records::default();
    }

    /// The file read ends (its last line may have no line end).
    fn end_file(&mut self) {
        if !self.rest.is_empty() {
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
}
