//! Java's properties text, as `java.util.Properties.load(Reader)` documents it: the text
//! Heritrix's profile overrides hold (Spring reads them with it). Hand-written: with the
//! `java-properties` crate (and its regex) reading them the page's module was 4,893,532
//! bytes, 1,089,419 over the 3,804,113 before; with this reader, 3,817,913 (13,800 more).

/// One `key=value` of the text: its first line (1-based) and how many natural lines it
/// stands on (more than one where a line is continued), key and value, unescaped.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub line: u64,
    pub lines: u64,
    pub key: String,
    pub value: String,
}

/// Every pair of `text`, in order. Natural lines end at `\n`, `\r` or `\r\n`; a line
/// blank or whose first character past the white space (space, tab, form feed) is `#`
/// or `!` is skipped; a line ending in an odd number of backslashes goes on at the next,
/// whose leading white space is dropped. The key runs to the first unescaped `=`, `:`
/// or white space; white space, one `=` or `:`, and white space again then part it from
/// the value. `\t`, `\n`, `\r`, `\f` and `\uXXXX` are escapes; a backslash before any
/// other character stands for that character. Err: the line and why (a malformed
/// `\uXXXX`, as Java refuses it).
pub fn pairs(text: &str) -> Result<Vec<Pair>, (u64, String)> {
    let lines: Vec<&str> = natural_lines(text).collect();
    let mut pairs = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let first = k;
        let line = lines[k].trim_start_matches(WHITE);
        k += 1;
        if line.is_empty() || line.starts_with(['#', '!']) {
            continue;
        }
        let mut logical = String::from(line);
        while ends_continued(&logical) {
            logical.pop();
            match lines.get(k) {
                Some(next) => logical.push_str(next.trim_start_matches(WHITE)),
                None => break,
            }
            k += 1;
        }
        let at = first as u64 + 1;
        let (key, value) = split(&logical);
        let lines = (k - first) as u64;
        pairs.push(Pair { line: at, lines, key: unescape(key).map_err(|e| (at, e))?, value: unescape(value).map_err(|e| (at, e))? });
    }
    Ok(pairs)
}

const WHITE: [char; 3] = [' ', '\t', '\u{c}'];

fn natural_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        match text.find(['\n', '\r']) {
            Some(end) => {
                let skip = if text[end..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&text[end + skip..]);
                Some(&text[..end])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// Whether `line` ends in an odd number of backslashes.
fn ends_continued(line: &str) -> bool {
    !(line.len() - line.trim_end_matches('\\').len()).is_multiple_of(2)
}

/// The key (to the first unescaped `=`, `:` or white space) and the value of a logical
/// line, both still escaped.
fn split(line: &str) -> (&str, &str) {
    let mut escaped = false;
    let end = line
        .char_indices()
        .find(|&(_, c)| {
            let ends = !escaped && (c == '=' || c == ':' || WHITE.contains(&c));
            escaped = !escaped && c == '\\';
            ends
        })
        .map_or(line.len(), |(i, _)| i);
    let rest = line[end..].trim_start_matches(WHITE);
    let rest = rest.strip_prefix(['=', ':']).unwrap_or(rest).trim_start_matches(WHITE);
    (&line[..end], rest)
}

fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\u{c}'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let code = (hex.len() == 4).then(|| u32::from_str_radix(&hex, 16).ok()).flatten();
                // a surrogate half alone is no character here (Java would keep it in a UTF-16 string)
                out.push(code.and_then(char::from_u32).ok_or_else(|| format!("malformed \\uxxxx escape \\u{hex}: write four hexadecimal digits"))?);
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn kv(text: &str) -> Vec<(u64, String, String)> {
        pairs(text).unwrap().into_iter().map(|p| (p.line, p.key, p.value)).collect()
    }

    /// The examples of `Properties.load`'s documentation, each a key and its value.
    #[test]
    fn the_documentations_examples() {
        let text = "Truth = Beauty\n  Truth:Beauty\nTruth                    :Beauty\nfruits                           apple, banana, pear, \\\n                                  cantaloupe, watermelon, \\\n                                  kiwi, mango\ncheeses\n";
        assert_eq!(
            kv(text),
            vec![
                (1, "Truth".into(), "Beauty".into()),
                (2, "Truth".into(), "Beauty".into()),
                (3, "Truth".into(), "Beauty".into()),
                (4, "fruits".into(), "apple, banana, pear, cantaloupe, watermelon, kiwi, mango".into()),
                (7, "cheeses".into(), String::new()),
            ]
        );
        assert_eq!(pairs(text).unwrap().iter().map(|p| p.lines).collect::<Vec<_>>(), [1, 1, 1, 3, 1], "the natural lines of each pair");
        // "\:\=" is a key of two characters; an escaped space is part of the key
        assert_eq!(kv("\\:\\= x\nmy\\ key = v\n"), vec![(1, ":=".into(), "x".into()), (2, "my key".into(), "v".into())]);
    }

    /// Comments, blank lines, each line end, escapes, and a malformed `\u` refused.
    #[test]
    fn comments_line_ends_and_escapes() {
        let text = "# a comment \\\n! another\r\n\r\n\ta=1\rb = \\u0041\\tz\\q\u{c}\nc=2 \\\\\nd=3\\\n";
        assert_eq!(kv(text), vec![(4, "a".into(), "1".into()), (5, "b".into(), "A\tzq\u{c}".into()), (6, "c".into(), "2 \\".into()), (7, "d".into(), "3".into())]);
        assert_eq!(pairs("ok=1\nbad=\\uZZ\n").unwrap_err().0, 2);
        assert!(pairs("bad=\\u12").unwrap_err().1.contains("four hexadecimal digits"));
    }
}
