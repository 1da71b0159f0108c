//! Nutch's rates by type (MimeAdaptiveFetchSchedule.readMimeFile):
//! `adaptive-mimetypes.txt`, a line a type, `<mime-type> TAB <inc_rate> TAB <dec_rate>`;
//! blank lines and lines starting with `#` skipped. A page whose Content-Type (its
//! metadata's, cleaned as MimeUtil.cleanMimeType does: the part before `;`) the file
//! lists adapts at the type's rates in place of `db.fetch.schedule.adaptive.inc_rate`
//! and `dec_rate`.

use super::tuning::{inc_for_share, settled_share};
use serde::{Deserialize, Serialize};

/// The file's name in Nutch's configuration directory (`db.fetch.schedule.mime.file`'s
/// default).
pub const FILE_NAME: &str = "adaptive-mimetypes.txt";

/// The largest file accepted.
pub const MAX_BYTES: usize = 1 << 20;

/// A type's rates, and its line in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MimeRates {
    /// Lower-cased, as Nutch keys its map.
    pub mime: String,
    pub inc_rate: f64,
    pub dec_rate: f64,
    pub line: u64,
}

/// Reads the file. What Nutch would log and ignore (a line without three tab-separated
/// items) or read into a rule that cannot run (a decrement rate of 1 or more: the
/// interval falls to 0) is refused with its line and the fix, as is a type given twice.
pub fn read(text: &str) -> Result<Vec<MimeRates>, String> {
    if text.len() > MAX_BYTES {
        return Err(format!("is {} KB, over the {} KB a list of types may have", text.len() >> 10, MAX_BYTES >> 10));
    }
    let mut types: Vec<MimeRates> = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k as u64 + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = raw.split('\t').collect();
        let [mime, inc, dec] = parts[..] else {
            return Err(format!("line {line}: “{}” is not <mime-type> TAB <inc_rate> TAB <dec_rate> (tabs between, as Nutch splits it)", raw.trim()));
        };
        let rate = |text: &str, name: &str| match text.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(format!("line {line}: the {name} “{}” is not a number at least 0", text.trim())),
        };
        let (inc_rate, dec_rate) = (rate(inc, "inc_rate")?, rate(dec, "dec_rate")?);
        if dec_rate >= 1.0 {
            return Err(format!("line {line}: the dec_rate {dec_rate} would bring the interval to 0 or below; give one under 1"));
        }
        let mime = mime.trim().to_ascii_lowercase();
        if let Some(before) = types.iter().find(|t| t.mime == mime) {
            return Err(format!("line {line}: {mime} is given twice (line {} too); keep one", before.line));
        }
        types.push(MimeRates { mime, inc_rate, dec_rate, line });
    }
    Ok(types)
}

impl MimeRates {
    /// The type's increment and decrement rates with the share of its fetches that find
    /// a change, once its interval settles, `share` times the file's (the tuning's fit,
    /// as it moves `inc_rate`): the increment rate moved, to three decimals, the
    /// decrement rate kept. A type whose interval only grows or only shrinks (a rate of
    /// 0) keeps its rates.
    pub fn scaled(&self, share: f64) -> [f64; 2] {
        if share == 1.0 || self.inc_rate == 0.0 || self.dec_rate == 0.0 {
            return [self.inc_rate, self.dec_rate];
        }
        [inc_for_share(settled_share(self.inc_rate, self.dec_rate) * share, self.dec_rate), self.dec_rate]
    }
}

/// The file `text` (read as [`read`] reads it) with each type's increment rate
/// [`MimeRates::scaled`] by `share` of its place in the file: its other lines, the types
/// as written and their decrement rates kept, and a comment on top saying what changed.
pub fn write(text: &str, share: impl Fn(usize) -> f64) -> Result<String, String> {
    let types = read(text)?;
    let mut out = format!("# {FILE_NAME} tuned by Freshlab: inc_rate moved, each type's share of fetches finding a change as its tuning found best\n");
    for (k, raw) in text.lines().enumerate() {
        match types.iter().enumerate().find(|(_, t)| t.line == k as u64 + 1) {
            Some((at, t)) if t.scaled(share(at))[0] != t.inc_rate => {
                let parts: Vec<&str> = raw.split('\t').collect();
                out.push_str(&format!("{}\t{}\t{}\n", parts[0], t.scaled(share(at))[0], parts[2]));
            }
            _ => {
                out.push_str(raw);
                out.push('\n');
            }
        }
    }
    Ok(out)
}

/// A Content-Type as MimeUtil.cleanMimeType leaves it: the part before any `;`, trimmed.
pub fn clean(content_type: &str) -> &str {
    content_type.split(';').next().unwrap_or("").trim()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_file_reads_as_nutch_reads_it() {
        let text = "# rates by type\n\ntext/html\t0.2\t0.2\nApplication/RSS+XML\t0.5\t0.5\napplication/pdf\t0.4\t0\n";
        let types = read(text).unwrap();
        assert_eq!(
            types.iter().map(|t| (t.mime.as_str(), t.inc_rate, t.dec_rate, t.line)).collect::<Vec<_>>(),
            vec![("text/html", 0.2, 0.2, 3), ("application/rss+xml", 0.5, 0.5, 4), ("application/pdf", 0.4, 0.0, 5)]
        );
        assert!(read("text/html 0.2 0.2").unwrap_err().contains("line 1: “text/html 0.2 0.2” is not <mime-type> TAB"));
        assert!(read("text/html\tfast\t0.2").unwrap_err().contains("the inc_rate “fast” is not a number"));
        assert!(read("text/html\t0.2\t1").unwrap_err().contains("give one under 1"));
        assert!(read("text/html\t0.2\t0.2\nTEXT/HTML\t0.1\t0.1\n").unwrap_err().contains("line 2: text/html is given twice (line 1 too)"));
        assert_eq!(clean("text/html; charset=utf-8"), "text/html");
        assert_eq!(clean(" text/html "), "text/html");
    }

    /// A type's settled share of changed fetches, p ln(1 − dec) + (1 − p) ln(1 + inc) = 0,
    /// solved by hand: inc 0.2, dec 0.2 settle at p = ln 1.2 / (ln 1.2 − ln 0.8) = 0.44966;
    /// twice that share, 0.89932, asks inc = exp(0.89932/0.10068 × 0.22314) − 1 = 6.34, over
    /// 1: 1; half of it, 0.22483, asks exp(0.29004 × 0.22314) − 1 = 0.06686 → 0.067.
    #[test]
    fn a_types_rates_scaled_by_its_share_and_written_back() {
        let html = MimeRates { mime: "text/html".into(), inc_rate: 0.2, dec_rate: 0.2, line: 1 };
        assert_eq!(html.scaled(1.0), [0.2, 0.2]);
        assert_eq!(html.scaled(0.5), [0.067, 0.2]);
        assert_eq!(html.scaled(2.0), [1.0, 0.2]);
        // a rate of 0: the interval only grows or only shrinks, whatever the share
        let pdf = MimeRates { mime: "application/pdf".into(), inc_rate: 0.4, dec_rate: 0.0, line: 2 };
        assert_eq!(pdf.scaled(0.5), [0.4, 0.0]);
        // written and read back: the same rates, comments and the types as written kept
        let text = "# mine\nText/HTML\t0.2\t0.2\napplication/pdf\t0.4\t0\n";
        for share in [0.3, 0.5, 0.77, 1.0, 1.4] {
            let written = write(text, |_| share).unwrap();
            let back = read(&written).unwrap();
            assert_eq!(back[0].scaled(1.0), html.scaled(share), "{written}");
            assert_eq!((back[1].inc_rate, back[1].dec_rate), (0.4, 0.0));
            assert!(written.contains("# mine\n") && written.contains("application/pdf\t0.4\t0\n"), "{written}");
        }
        assert!(write(text, |_| 0.5).unwrap().contains("Text/HTML\t0.067\t0.2\n"));
        // each type its own share, by its place in the file
        let two = "a/b\t0.2\t0.2\nc/d\t0.2\t0.2\n";
        let back = read(&write(two, |k| [0.5, 2.0][k]).unwrap()).unwrap();
        assert_eq!((back[0].inc_rate, back[1].inc_rate), (0.067, 1.0));
    }
}
