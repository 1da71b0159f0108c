//! The rows of an imported CSV file (traces, page lists), read by the `csv` crate, each
//! with the line it starts on, so that every bad row can be named. Blank lines are
//! counted and skipped; a field that swallows a line break is a quote never closed.

use crate::core::input::InputError;

/// Bad rows described one by one in a message; later ones are listed by line.
const DESCRIBED: usize = 50;

/// One row: its first line in the file and its fields, trimmed of the line's `\r`.
pub struct Row {
    pub line: usize,
    pub fields: Vec<String>,
}

/// A row, or the line it starts on and what is wrong with it.
pub type RowOrError = Result<Row, (usize, String)>;

/// The rows of `text`, in order, and the number of blank lines met. A row that spans
/// lines (an opening quote never closed) comes back as an error on its first line.
pub fn rows(text: &str) -> (Vec<RowOrError>, usize) {
    let mut out = Vec::new();
    let blank = each_row(text, |row| out.push(row));
    (out, blank)
}

/// [`rows`] one at a time, handed to `each` as it is read (a list of millions of pages
/// is never held as rows of strings all at once); returns the blank lines met.
pub fn each_row(text: &str, mut each: impl FnMut(RowOrError)) -> usize {
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    let mut out = |row: RowOrError| each(row);
    let mut record = csv::StringRecord::new();
    // lines are counted from the records' byte offsets: (offset, line) of the last one
    let (mut at, mut line_at) = (0usize, 1usize);
    let bytes = text.as_bytes();
    let mut line_of = |mut byte: usize| {
        // a record's position is where its parsing began: before the blank lines skipped
        while byte < bytes.len() && matches!(bytes[byte], b'\r' | b'\n') {
            byte += 1;
        }
        line_at += bytes[at..byte].iter().filter(|&&b| b == b'\n').count();
        at = byte;
        line_at
    };
    let mut lines_with_rows = 0;
    loop {
        let start = reader.position().byte() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) if record.len() == 1 && record[0].trim().is_empty() => {} // a line of spaces is blank
            Ok(true) => {
                let line = line_of(record.position().map_or(start, |p| p.byte() as usize));
                let spanned = record.iter().map(|f| f.matches('\n').count()).sum::<usize>();
                lines_with_rows += 1 + spanned;
                if spanned > 0 {
                    out(Err((line, "has a quote that is never closed (or a line break inside quotes); close it, or quote names that contain commas".to_string())));
                } else {
                    out(Ok(Row { line, fields: record.iter().map(|f| f.strip_suffix('\r').unwrap_or(f).to_string()).collect() }));
                }
            }
            Err(e) => {
                let line = line_of(e.position().map_or(start, |p| p.byte() as usize));
                lines_with_rows += 1;
                out(Err((line, format!("cannot be read as CSV ({e})"))));
            }
        }
    }
    // a final newline ends the last line; it does not start an empty one
    let lines = if text.is_empty() { 0 } else { text.strip_suffix('\n').unwrap_or(text).split('\n').count() };
    lines.saturating_sub(lines_with_rows)
}

/// UTF-8 text (a BOM is allowed); other encodings are refused with the fix.
/// `field` names the input in messages; `smaller` says how to make a file smaller.
pub fn decode<'a>(bytes: &'a [u8], field: &str, max_bytes: usize, smaller: &str) -> Result<&'a str, InputError> {
    if bytes.len() > max_bytes {
        return Err(InputError::new(field, format!("is {} MB, over the {} MB limit; {smaller}", bytes.len() >> 20, max_bytes >> 20)));
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

/// Bad rows: the first few described, the rest listed by line.
#[derive(Default)]
pub struct Report {
    described: Vec<String>,
    more: Vec<usize>,
}

impl Report {
    pub fn bad(&mut self, line: usize, reason: String) {
        if self.described.len() < DESCRIBED {
            self.described.push(format!("line {line}: {reason}"));
        } else {
            self.more.push(line);
        }
    }

    pub fn message(&self) -> Option<String> {
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

    #[test]
    fn rows_know_their_lines_and_blank_lines_are_counted() {
        let (read, blank) = rows("a,1\r\n\n\"b, c\",2\n  \nd\n");
        let read: Vec<Row> = read.into_iter().map(|r| r.ok().unwrap()).collect();
        assert_eq!(read.iter().map(|r| r.line).collect::<Vec<_>>(), vec![1, 3, 5]);
        assert_eq!(read[0].fields, vec!["a", "1"]);
        assert_eq!(read[1].fields, vec!["b, c", "2"]);
        assert_eq!(read[2].fields, vec!["d"]);
        assert_eq!(blank, 2, "a line of spaces is blank too");
        let (read, _) = rows("a,1\nb,\"x\nc,3\n");
        assert_eq!(read.len(), 2);
        assert!(read[1].as_ref().err().unwrap().1.contains("never closed"));
        assert_eq!(ranges(&[3, 4, 5, 9]), "3–5, 9");
    }
}
