//! The rows of an imported CSV file (traces, page lists), read by the `csv` crate, each
//! with the line it starts on, so that every bad row can be named. Blank lines are
//! counted and skipped; a field that swallows a line break is a quote never closed.

use crate::core::input::InputError;

/// One row: its first line in the file and its fields, trimmed of the line's `\r`.
pub struct Row {
    pub line: usize,
    pub fields: Vec<String>,
}

/// A row, or the line it starts on and what is wrong with it.
pub type RowOrError = Result<Row, (usize, String)>;

/// How a file separates its fields: commas, or — as spreadsheets set to a European
/// locale save "CSV" — semicolons, whose numbers then have decimal commas, or tabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Separator {
    Comma,
    Semicolon,
    Tab,
}

impl Separator {
    /// The separator of `text`, from its first line that is not blank: commas unless that
    /// line has none outside quotes and has semicolons (or tabs).
    pub fn of(text: &str) -> Separator {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let (mut commas, mut semicolons, mut tabs, mut quoted) = (0, 0, 0, false);
        for c in first.chars() {
            match c {
                '"' => quoted = !quoted,
                ',' if !quoted => commas += 1,
                ';' if !quoted => semicolons += 1,
                '\t' if !quoted => tabs += 1,
                _ => {}
            }
        }
        match (commas, semicolons, tabs) {
            (0, s, t) if s > 0 && s >= t => Separator::Semicolon,
            (0, _, t) if t > 0 => Separator::Tab,
            _ => Separator::Comma,
        }
    }

    pub fn byte(self) -> u8 {
        match self {
            Separator::Comma => b',',
            Separator::Semicolon => b';',
            Separator::Tab => b'\t',
        }
    }

    /// Its name, as the page and the CLI say what they read.
    pub fn name(self) -> &'static str {
        match self {
            Separator::Comma => "comma-separated",
            Separator::Semicolon => "semicolon-separated",
            Separator::Tab => "tab-separated",
        }
    }

    /// Whether a comma inside a number is its decimal point: where commas do not
    /// separate fields.
    pub fn decimal_comma(self) -> bool {
        self != Separator::Comma
    }
}

/// The rows of `text`, in order, and the number of blank lines met. A row that spans
/// lines (an opening quote never closed) comes back as an error on its first line.
#[cfg(test)]
fn rows(text: &str) -> (Vec<RowOrError>, usize) {
    let mut out = Vec::new();
    let blank = each_row(text, Separator::of(text), |row| out.push(row));
    (out, blank)
}

/// [`rows`] one at a time, handed to `each` as it is read (a list of millions of pages
/// is never held as rows of strings all at once), fields split by `separator` (the
/// file's, [`Separator::of`]); returns the blank lines met.
pub fn each_row(text: &str, separator: Separator, mut each: impl FnMut(RowOrError)) -> usize {
    let mut reader = reader(text, separator);
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

/// A CSV reader of `text` split by `separator`, no header and rows of any length.
pub fn reader(text: &str, separator: Separator) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new().has_headers(false).flexible(true).delimiter(separator.byte()).from_reader(text.as_bytes())
}

/// UTF-8 text (a BOM is allowed); other encodings are refused with the fix: every file
/// Freshlab reads is decoded here. `field` names the input in messages; `smaller` says
/// how to make a file smaller.
pub fn decode<'a>(bytes: &'a [u8], field: &str, max_bytes: usize, smaller: &str) -> Result<&'a str, InputError> {
    decode_as(bytes, field, max_bytes, smaller, "UTF-8 CSV")
}

/// [`decode`], the fix naming what to save the file as (`"UTF-8 text"` for a file that is
/// not CSV).
pub fn decode_as<'a>(bytes: &'a [u8], field: &str, max_bytes: usize, smaller: &str, save_as: &str) -> Result<&'a str, InputError> {
    if bytes.len() > max_bytes {
        return Err(InputError::new(field, format!("is {} MB, over the {} MB limit; {smaller}", bytes.len() >> 20, max_bytes >> 20)));
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) || bytes.iter().take(4096).any(|&b| b == 0) {
        return Err(InputError::new(field, format!("looks like UTF-16 (or binary) text; save the file as {save_as}")));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let line = bytes[..at].iter().filter(|&&b| b == b'\n').count() + 1;
        InputError::new(field, format!("is not UTF-8 text (byte {} on line {line} is not valid UTF-8); save the file as {save_as}", at + 1))
    })
}

/// Bad rows, grouped by what is wrong with them: the message lists at most ten kinds of
/// fault, each with how many rows have it, one row's words and the rows' lines, and
/// counts the rest (500 bad rows made one paragraph of 5,194 characters).
#[derive(Default)]
pub struct Report {
    /// (the fault's kind, the first row's line and words, every line with it), in the
    /// order first met
    kinds: Vec<(String, usize, String, Vec<usize>)>,
    /// Each kind's place in `kinds` (a file of millions of bad rows is read in one pass).
    index: std::collections::HashMap<String, usize>,
}

/// A fault's kind: its words with what differs from row to row (quoted values, numbers)
/// taken out.
fn kind_of(reason: &str) -> String {
    let mut kind = String::with_capacity(reason.len());
    let mut quoted: Option<char> = None;
    for c in reason.chars() {
        match (quoted, c) {
            (Some(q), c) if c == q => quoted = None,
            (Some(_), _) => {}
            (None, '"' | '“') => quoted = Some(if c == '“' { '”' } else { '"' }),
            (None, c) if c.is_ascii_digit() => {
                if !kind.ends_with('#') {
                    kind.push('#');
                }
            }
            (None, c) => kind.push(c),
        }
    }
    kind
}

impl Report {
    pub fn bad(&mut self, line: usize, reason: String) {
        let kind = kind_of(&reason);
        match self.index.get(&kind) {
            Some(&k) => self.kinds[k].3.push(line),
            None => {
                self.index.insert(kind.clone(), self.kinds.len());
                self.kinds.push((kind, line, reason, vec![line]));
            }
        }
    }

    pub fn message(&self) -> Option<String> {
        if self.kinds.is_empty() {
            return None;
        }
        let rows = |n: usize| if n == 1 { "1 row".to_string() } else { format!("{n} rows") };
        let total: usize = self.kinds.iter().map(|(.., lines)| lines.len()).sum();
        let mut text = format!("has {total} bad row{}; nothing was imported", if total == 1 { "" } else { "s" });
        for (_, line, reason, lines) in self.kinds.iter().take(LISTED_KINDS) {
            let at = if lines.len() == 1 { format!("line {line}") } else { format!("{} (lines {}), such as line {line}", rows(lines.len()), ranges(lines, 6)) };
            text.push_str(&format!(". {at}: {reason}"));
        }
        if self.kinds.len() > LISTED_KINDS {
            let rest: usize = self.kinds[LISTED_KINDS..].iter().map(|(.., lines)| lines.len()).sum();
            text.push_str(&format!(". And {} more kinds of fault on {}; fix these and import again to see them", self.kinds.len() - LISTED_KINDS, rows(rest)));
        }
        text.push('.');
        Some(text)
    }
}

/// The kinds of fault a message lists.
const LISTED_KINDS: usize = 10;

/// 3, 4, 5, 9 → "3–5, 9" (at most `most` ranges, then a count).
fn ranges(lines: &[usize], most: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let mut j = k;
        while j + 1 < lines.len() && lines[j + 1] == lines[j] + 1 {
            j += 1;
        }
        if parts.len() == most {
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
        assert_eq!(ranges(&[3, 4, 5, 9], 6), "3–5, 9");
        assert_eq!(ranges(&[1, 3, 5], 2), "1, 3, and 1 more lines");
    }

    #[test]
    fn semicolon_and_tab_separated_files_are_read_as_such() {
        assert_eq!(Separator::of("page;server;change_rate\na;s;0,5\n"), Separator::Semicolon);
        assert_eq!(Separator::of("\npage\tserver\tchange_rate\n"), Separator::Tab);
        assert_eq!(Separator::of("page,server,change_rate\na;b,s,1\n"), Separator::Comma);
        assert_eq!(Separator::of("\"a;b\",x\n"), Separator::Comma, "a semicolon inside quotes separates nothing");
        assert_eq!(Separator::of("page\n"), Separator::Comma);
        let (read, _) = rows("page;server;change_rate\n\"a;1\";s;0,5\n");
        let read: Vec<Row> = read.into_iter().map(|r| r.ok().unwrap()).collect();
        assert_eq!(read[1].fields, vec!["a;1", "s", "0,5"]);
    }

    #[test]
    fn bad_rows_are_grouped_by_their_fault() {
        let mut report = Report::default();
        for line in 2..502 {
            report.bad(line, format!("change_rate “x{line}” is not a number"));
        }
        report.bad(600, "expected 3 fields, found 2".into());
        let m = report.message().unwrap();
        assert!(
            m.starts_with("has 501 bad rows; nothing was imported. 500 rows (lines 2–501), such as line 2: change_rate “x2” is not a number. line 600: expected 3 fields"),
            "{m}"
        );
        let mut many = Report::default();
        for k in 0..14 {
            many.bad(k + 2, format!("fault {}", "abcdefghijklmn".chars().nth(k).unwrap()));
        }
        let m = many.message().unwrap();
        assert!(m.contains("line 11: fault j. And 4 more kinds of fault on 4 rows; fix these"), "{m}");
        assert!(!m.contains("fault k"), "{m}");
        assert!(m.len() < 600, "{}", m.len());
    }
}
