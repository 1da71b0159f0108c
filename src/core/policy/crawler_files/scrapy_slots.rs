//! Scrapy's `DOWNLOAD_SLOTS`: a dict from a slot's name to its `concurrency`, `delay`,
//! `randomize_delay` and `throttle`, laid over the file's settings for that slot's requests (Downloader
//! `_get_slot`: a key the slot does not give keeps the file's `CONCURRENT_REQUESTS_PER_DOMAIN`,
//! `DOWNLOAD_DELAY` or `RANDOMIZE_DOWNLOAD_DELAY`). A request's slot is its URL's host
//! name (`get_slot_key`), so each slot is one host exactly, neither its subdomains nor
//! its parent. The dict is read as a Python literal (strings, numbers, True, False and
//! nested dicts), without running Python.

use super::heritrix_sheets::{SheetRule, Sheets, host_surt};
use super::scrapy::KNOWN as FILE;
use super::{Crawler, Entry, Known, Model};
use crate::core::policy::pushback::Reaction;

/// The setting's name in the file.
pub const NAME: &str = "DOWNLOAD_SLOTS";

/// The keys a slot gives that Freshlab reads (Scrapy's names), each setting what the
/// file's setting of the same role sets.
pub const KNOWN: &[Known] = &[
    Known {
        name: "delay",
        default: "DOWNLOAD_DELAY",
        meaning: "the gap between two of its requests (seconds; its mean when randomised); with AutoThrottle, the delay its slot starts from (at least DOWNLOAD_DELAY here), AutoThrottle's least staying DOWNLOAD_DELAY",
        apply: |m, v| {
            let seconds = super::number(v, "seconds")?;
            match &mut m.reaction {
                Reaction::Scrapy { autothrottle: true, start_delay_s, .. } => *start_delay_s = seconds,
                _ => (m.server_delay_s, m.min_delay_s) = (seconds, seconds),
            }
            Ok(())
        },
    },
    Known {
        name: "concurrency",
        default: "CONCURRENT_REQUESTS_PER_DOMAIN",
        meaning: "its requests at once, when there is no delay",
        apply: |m, v| file("CONCURRENT_REQUESTS_PER_DOMAIN", m, v),
    },
    Known {
        name: "randomize_delay", default: "RANDOMIZE_DOWNLOAD_DELAY", meaning: "each of its delays × a uniform 0.5–1.5", apply: |m, v| file("RANDOMIZE_DOWNLOAD_DELAY", m, v)
    },
    // AutoThrottle._response_downloaded returns at once for a slot whose throttle is
    // False (Scrapy 2.11.1, PR #6246): the slot keeps the delay it was made with, its
    // `delay` or the spider's start delay (max of DOWNLOAD_DELAY and
    // AUTOTHROTTLE_START_DELAY); read after the slot's other keys, wherever it stands
    Known {
        name: "throttle",
        default: "True",
        meaning: "False: AutoThrottle leaves its slot at the delay it starts from (Scrapy 2.11.1 and later); True, or without AutoThrottle, nothing",
        apply: |m, v| {
            if !super::boolean(v)?
                && let Reaction::Scrapy { autothrottle, start_delay_s, .. } = &mut m.reaction
                && *autothrottle
            {
                *autothrottle = false;
                m.server_delay_s = m.server_delay_s.max(*start_delay_s);
                m.min_delay_s = m.server_delay_s;
            }
            Ok(())
        },
    },
];

/// The file's setting `name` applied to `m`.
fn file(name: &str, m: &mut Model, v: &str) -> Result<(), String> {
    FILE.iter().find(|k| k.name == name).map_or(Ok(()), |k| (k.apply)(m, v))
}

/// The slots `DOWNLOAD_SLOTS` gives (its last assignment in `entries`, read from
/// `text`), as rules over their hosts with the keys Freshlab reads, and every key each
/// gives with its line (for the settings list: read or ignored); refused with the line
/// where the value is not a dict of dicts of plain values.
pub fn read(entries: &[Entry], text: &str) -> Result<Sheets, String> {
    let mut out = Sheets::default();
    let Some(entry) = entries.iter().rev().find(|e| e.name == NAME) else { return Ok(out) };
    let at = entry.line;
    let refused = |why: String| format!("{NAME} (line {at}): {why}");
    let mut lines = Lines { lines: text.lines().collect(), at: at as usize - 1 };
    let Literal::Dict(slots) = Parser::new(&entry.value).whole().map_err(refused)? else {
        return Err(refused("must be a dict of slots, e.g. {'example.com': {'delay': 2}}".into()));
    };
    for (host, slot) in slots {
        let Literal::Dict(keys) = slot else { return Err(refused(format!("slot '{host}' must be a dict of its settings, e.g. {{'delay': 2}}"))) };
        lines.find(&host);
        let host_line = lines.at;
        let host = host.trim().to_ascii_lowercase();
        if host.is_empty() || host.contains(['/', ' ']) {
            return Err(refused(format!("slot '{host}' is not a host name; Scrapy keys slots by the URL's host, e.g. 'www.example.com'")));
        }
        let mut settings = Vec::new();
        for (key, value) in keys {
            let at = lines.find(&key);
            let text = match value {
                Literal::Plain(t) => t,
                Literal::Text(t) => {
                    return Err(refused(format!("slot '{host}', {key}: is the string '{t}'; Scrapy compares it as a number or True/False: write it without quotes")));
                }
                Literal::Dict(_) => return Err(refused(format!("slot '{host}', {key}: is a dict; give a number or True/False"))),
            };
            if KNOWN.iter().any(|k| k.name == key) {
                settings.push((key.clone(), text.clone(), at));
            }
            out.entries.push((host.clone(), Entry { name: key, value: text, line: at, file: None, fixed: false, null: false }));
        }
        // `throttle` after the keys that set the delay it keeps
        settings.sort_by_key(|(key, ..)| key == "throttle");
        // exactly the host: its SURT form closed after the authority
        let prefix = host_surt(&host).trim_end_matches('/').to_string();
        out.rules.push(SheetRule { crawler: Crawler::Scrapy, prefix, sheet: host, line: host_line as u64 + 1, settings, decide: None, rank: None });
        lines.at = host_line;
    }
    out.rules.retain(|r| !r.settings.is_empty());
    Ok(out)
}

/// A host the tuning holds to a least gap: its name, the gap in whole milliseconds,
/// whether its delay is randomised (its slot then says `randomize_delay: False`, so that
/// no gap falls short of the delay, as a randomised one's half do), and whether
/// AutoThrottle moves it (its slot then says `throttle: False`, so that the delay holds).
pub type HostDelay = (String, u64, bool, bool);

/// The `DOWNLOAD_SLOTS` assignment that holds each of `hosts` to its delay, after the
/// comment `comment`: the file `text`'s own slots kept as written (each key's last value,
/// in the file's order), a listed host's `delay` (and `randomize_delay`) replaced, the
/// other listed hosts added. Appended to the file it replaces the file's own assignment
/// (Python's and Freshlab's reading take the last); refused where the file's own slots
/// cannot be read.
pub fn assignment(text: &str, hosts: &[HostDelay], comment: &str) -> Result<String, String> {
    let own = read(&super::scrapy::entries(text)?, text)?;
    let mut slots: Vec<(String, Vec<(String, String)>)> = Vec::new();
    let mut set = |host: &str, key: &str, value: String| {
        let at = slots.iter().position(|(h, _)| h == host).unwrap_or_else(|| {
            slots.push((host.to_string(), Vec::new()));
            slots.len() - 1
        });
        let keys = &mut slots[at].1;
        match keys.iter_mut().find(|(k, _)| k == key) {
            Some(kept) => kept.1 = value,
            None => keys.push((key.to_string(), value)),
        }
    };
    for (host, entry) in &own.entries {
        set(host, &entry.name, entry.value.clone());
    }
    for (host, ms, randomized, throttled) in hosts {
        set(host, "delay", seconds(*ms));
        if *randomized {
            set(host, "randomize_delay", "False".into());
        }
        if *throttled {
            set(host, "throttle", "False".into());
        }
    }
    let body: String = slots
        .iter()
        .map(|(host, keys)| {
            let keys: Vec<String> = keys.iter().map(|(k, v)| format!("'{k}': {v}")).collect();
            format!("    '{host}': {{{}}},\n", keys.join(", "))
        })
        .collect();
    Ok(format!("# {comment}\n{NAME} = {{\n{body}}}\n"))
}

/// Whole milliseconds as Python writes seconds (1500 → 1.5, 20000 → 20).
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) { (ms / 1000).to_string() } else { format!("{}", ms as f64 / 1000.0) }
}

/// Where the dict's keys are in the file: each found on the first line from the last
/// one found that quotes it (the dict as written over several lines).
struct Lines<'a> {
    lines: Vec<&'a str>,
    /// The line of the last key found (from 0).
    at: usize,
}

impl Lines<'_> {
    /// The line (from 1) of the next that quotes `key`, that of the last key found when
    /// none does.
    fn find(&mut self, key: &str) -> u64 {
        let quoted = [format!("'{key}'"), format!("\"{key}\"")];
        if let Some(k) = (self.at..self.lines.len()).find(|&k| quoted.iter().any(|q| self.lines[k].contains(q.as_str()))) {
            self.at = k;
        }
        self.at as u64 + 1
    }
}

/// A Python literal as `DOWNLOAD_SLOTS` writes one.
enum Literal {
    /// A number, True, False or None, as written.
    Plain(String),
    Text(String),
    Dict(Vec<(String, Literal)>),
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        Parser { text, at: 0 }
    }

    /// The one literal the text is.
    fn whole(mut self) -> Result<Literal, String> {
        let value = self.value()?;
        self.blank();
        match self.rest().chars().next() {
            None => Ok(value),
            Some(c) => Err(format!("“{c}” after the value's end; give one dict")),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn blank(&mut self) {
        self.at = self.text.len() - self.rest().trim_start().len();
    }

    fn value(&mut self) -> Result<Literal, String> {
        self.blank();
        match self.rest().chars().next() {
            Some('{') => self.dict(),
            Some(q @ ('\'' | '"')) => self.string(q).map(Literal::Text),
            Some('[' | '(') => Err("a list or tuple where a dict or a value is expected".into()),
            Some(_) => {
                let word: &str = self.rest().split(|c: char| c == ',' || c == '}' || c == ':' || c.is_whitespace()).next().unwrap_or_default();
                // a number as Python writes one (not inf or nan, which are names there)
                let number = word.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c)) && word.parse::<f64>().is_ok();
                let plain = ["True", "False", "None"].contains(&word) || number;
                if !plain {
                    return Err(format!("“{word}” is not a plain value; Freshlab reads strings, numbers, True, False and dicts here, not Python expressions"));
                }
                self.at += word.len();
                Ok(Literal::Plain(word.to_string()))
            }
            None => Err("ends where a value is expected; is a bracket missing?".into()),
        }
    }

    fn string(&mut self, quote: char) -> Result<String, String> {
        let body = &self.rest()[1..];
        let Some(end) = body.find(quote) else { return Err(format!("a string opened with {quote} never closes")) };
        if body[..end].contains('\\') {
            return Err("a string with a backslash escape; write the host name plainly".into());
        }
        self.at += end + 2;
        Ok(body[..end].to_string())
    }

    fn dict(&mut self) -> Result<Literal, String> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.blank();
            if self.rest().starts_with('}') {
                self.at += 1;
                return Ok(Literal::Dict(items));
            }
            let key = match self.value()? {
                Literal::Text(k) => k,
                _ => return Err("a dict key that is not a quoted string; write it as 'name'".into()),
            };
            self.blank();
            if !self.rest().starts_with(':') {
                return Err(format!("no “:” after the key '{key}'"));
            }
            self.at += 1;
            let value = self.value()?;
            items.push((key, value));
            self.blank();
            match self.rest().chars().next() {
                Some(',') => self.at += 1,
                Some('}') => {}
                Some(c) => return Err(format!("“{c}” after '{}'; separate a dict's items with commas", items.last().map_or("", |(k, _)| k.as_str()))),
                None => return Err("a dict that never closes; is a } missing?".into()),
            }
        }
    }
}
