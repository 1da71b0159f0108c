//! Nutch's per-host bounds of the adaptive interval (NUTCH-3029, AdaptiveFetchSchedule
//! `setHostSpecificIntervals`, as fixed by NUTCH-3103, PR #848):
//! `adaptive-host-specific-intervals.txt`, a line a host, `<hostname> <min> <max>` in
//! seconds, `default` (or 0) for the global bound; blank lines and lines starting with
//! `#` skipped. A host's page then has its interval clamped to the host's [min, max]
//! in place of `db.fetch.schedule.adaptive.min_interval` and `max_interval`.

use super::SECOND;
use crate::core::policy::adaptive::Intervals;
use serde::{Deserialize, Serialize};

/// The file's name in Nutch's configuration directory.
pub const FILE_NAME: &str = "adaptive-host-specific-intervals.txt";

/// The largest file accepted (about 1,900,000 hosts of 35 bytes a line). The page's form
/// checks send its shape ([`HostsShape`], read once in the worker), never the text: a
/// check reading a 0.9 MB file on the page's main thread took 83 ms, over the 50 it allows.
pub const MAX_BYTES: usize = 64 << 20;

/// The pairs of bounds the estimate reckons one by one, in file order; a host past them
/// is reckoned at the shortest bounds of those others (an upper bound). Each pair is a
/// short simulation: hundreds of them held the page's form check for 0.3 s.
pub const DISTINCT_BOUNDS: usize = 24;

/// A host's pair in [`HostsShape::pair_of`]: the first [`DISTINCT_BOUNDS`] as `A`, `B`,
/// …, and this for the others.
pub const OTHER_BOUNDS: u8 = b'.';

/// The hosts whose pairs a shape keeps in file order: as many as a page list's shape
/// keeps servers' sizes of (past them, the estimate counts every server at the mean
/// size, so only how many hosts have each pair matters).
pub const HOSTS_IN_ORDER: usize = crate::core::model::page_list::SHAPE_SIZES as usize;

/// What the form's checks need of a host file, read once by the page's worker and sent
/// in place of the text (`host_shape`): its size and hosts, the bounds checked against
/// the crawler's settings (which the form may change after the file is read), and what
/// the estimate prices: the first [`DISTINCT_BOUNDS`] pairs of bounds, the pair of each
/// of the first [`HOSTS_IN_ORDER`] hosts in file order and how many of the hosts after
/// them have each (the checks send the shape at every edit: a letter for each of 1,000,000
/// hosts, crossing into the core four times a check, held the page for 90 ms). Bounds
/// are in days, None for `default`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HostsShape {
    pub bytes: u64,
    pub hosts: u64,
    /// The lowest minimum given and its line; the highest maximum given and its line.
    pub lowest_min: Option<(f64, u64)>,
    pub highest_max: Option<(f64, u64)>,
    /// The hosts of the longest minimums, longest first: at most [`LONGEST_LISTED`].
    pub longest_mins: Vec<(String, f64, u64)>,
    pub pairs: Vec<(Option<f64>, Option<f64>)>,
    /// A letter a host: `A` for the first pair, …, [`OTHER_BOUNDS`] for the others.
    pub pair_of: String,
    /// The hosts past those of `pair_of` with each pair (the others' last).
    pub after: Vec<u64>,
    /// Of the other hosts: the shortest minimum and maximum given, and whether one of
    /// them leaves its minimum or its maximum to the global bound.
    pub others_min: Option<f64>,
    pub others_max: Option<f64>,
    pub others_default_min: bool,
    pub others_default_max: bool,
}

/// The hosts of the longest minimums a shape keeps (those past db.fetch.interval.max are
/// named from them).
pub const LONGEST_LISTED: usize = 10;

impl HostsShape {
    /// The shape of a host file's text. Err: what [`read`] refuses whatever the crawler's
    /// settings (the size, a line it cannot read, a minimum over its maximum, a host given
    /// twice).
    pub fn of(text: &str) -> Result<HostsShape, String> {
        // read as [`read`] keeps it: the checks and the estimate each ask for the shape of
        // the same text (a 30 MB file took 1.4 s a reading)
        let any = Intervals { min: 0.0, max: f64::INFINITY, ..crate::core::policy::adaptive::Rule::Nutch.shipped() };
        let hosts = read(text, &any)?;
        let mut shape = HostsShape { bytes: text.len() as u64, hosts: hosts.len() as u64, after: vec![0; DISTINCT_BOUNDS + 1], ..HostsShape::default() };
        for h in &hosts {
            if let Some(min) = h.min.filter(|&m| shape.lowest_min.is_none_or(|(low, _)| m < low)) {
                shape.lowest_min = Some((min, h.line));
            }
            if let Some(max) = h.max.filter(|&m| shape.highest_max.is_none_or(|(high, _)| m > high)) {
                shape.highest_max = Some((max, h.line));
            }
            let pair = (h.min, h.max);
            let known = shape.pairs.iter().position(|&p| p == pair);
            let letter = match known {
                Some(k) => b'A' + k as u8,
                None if shape.pairs.len() < DISTINCT_BOUNDS => {
                    shape.pairs.push(pair);
                    b'A' + (shape.pairs.len() - 1) as u8
                }
                None => {
                    let shortest = |was: Option<f64>, b: Option<f64>| match (was, b) {
                        (Some(w), Some(b)) => Some(w.min(b)),
                        (w, b) => w.or(b),
                    };
                    shape.others_min = shortest(shape.others_min, h.min);
                    shape.others_max = shortest(shape.others_max, h.max);
                    shape.others_default_min |= h.min.is_none();
                    shape.others_default_max |= h.max.is_none();
                    OTHER_BOUNDS
                }
            };
            if shape.pair_of.len() < HOSTS_IN_ORDER {
                shape.pair_of.push(char::from(letter));
            } else {
                shape.after[if letter == OTHER_BOUNDS { DISTINCT_BOUNDS } else { usize::from(letter - b'A') }] += 1;
            }
        }
        shape.after.truncate(shape.pairs.len());
        shape.after.push(shape.hosts - shape.pair_of.len() as u64 - shape.after.iter().sum::<u64>());
        let mut longest: Vec<&HostIntervals> = hosts.iter().filter(|h| h.min.is_some()).collect();
        longest.sort_by(|a, b| b.min.partial_cmp(&a.min).unwrap_or(std::cmp::Ordering::Equal).then(a.line.cmp(&b.line)));
        shape.longest_mins = longest.iter().take(LONGEST_LISTED).map(|h| (h.host.clone(), h.min.unwrap_or_default(), h.line)).collect();
        Ok(shape)
    }

    /// Whether the shape is one [`HostsShape::of`] could give (it comes from the page's
    /// worker, or from a configuration file): a letter for each of the first hosts, each
    /// of its pairs or the others', and a count of each for the rest.
    pub fn consistent(&self) -> Result<(), String> {
        let letters = self.pair_of.as_bytes();
        let known = |&l: &u8| l == OTHER_BOUNDS || (l >= b'A' && usize::from(l - b'A') < self.pairs.len());
        let counted = self.after.len() == self.pairs.len() + 1 && letters.len() as u64 + self.after.iter().sum::<u64>() == self.hosts;
        if letters.len() as u64 != self.hosts.min(HOSTS_IN_ORDER as u64)
            || !counted
            || !letters.iter().all(known)
            || self.pairs.len() > DISTINCT_BOUNDS
            || self.longest_mins.len() > LONGEST_LISTED
        {
            return Err("is not a host file's shape as the page's worker reads it: give the host file itself (host_intervals)".into());
        }
        Ok(())
    }

    /// What [`read`] refuses against `global` beyond what [`HostsShape::of`] did: a
    /// minimum below the global one, a maximum over it (the line of the lowest, the
    /// highest).
    pub fn check(&self, global: &Intervals) -> Result<(), String> {
        if let Some((m, line)) = self.lowest_min.filter(|&(m, _)| m < global.min) {
            return Err(below_min(line, m, global));
        }
        if let Some((m, line)) = self.highest_max.filter(|&(m, _)| m > global.max) {
            return Err(over_max(line, m, global));
        }
        Ok(())
    }

    /// The bounds of pair `index` (as in `after`) as the estimate reckons them under
    /// `global`: the pair, or for the others the shortest bounds among them.
    pub fn estimated(&self, index: usize, global: &Intervals) -> (Option<f64>, Option<f64>) {
        match self.pairs.get(index) {
            Some(&pair) => pair,
            None => {
                let shortest = |given: Option<f64>, default: bool, global: f64| if default { Some(given.map_or(global, |g| g.min(global))) } else { given };
                (shortest(self.others_min, self.others_default_min, global.min), shortest(self.others_max, self.others_default_max, global.max))
            }
        }
    }

    /// Host `k`'s pair (as in `after`), for the first [`HOSTS_IN_ORDER`] hosts.
    pub fn pair_index(&self, k: usize) -> Option<usize> {
        self.pair_of.as_bytes().get(k).map(|&l| if l == OTHER_BOUNDS { self.pairs.len() } else { usize::from(l - b'A') })
    }
}

fn refuse_size(text: &str) -> Result<(), String> {
    if text.len() > MAX_BYTES {
        return Err(format!(
            "is {:.1} MB, over the {} MB (about 1,900,000 hosts) Freshlab reads; list only the hosts whose bounds differ from the global ones",
            text.len() as f64 / f64::from(1 << 20),
            MAX_BYTES >> 20
        ));
    }
    Ok(())
}

fn days(d: f64) -> String {
    format!("{} s", crate::chart::format::sig(d / SECOND, 6))
}

fn below_min(line: u64, m: f64, global: &Intervals) -> String {
    format!("line {line}: the minimum {} is below db.fetch.schedule.adaptive.min_interval ({}); Nutch ignores it: raise it or write default", days(m), days(global.min))
}

fn over_max(line: u64, m: f64, global: &Intervals) -> String {
    format!("line {line}: the maximum {} is over db.fetch.schedule.adaptive.max_interval ({}); Nutch ignores it: lower it or write default", days(m), days(global.max))
}

/// A host's own bounds, in days (None: the global one), and its line in the file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostIntervals {
    pub host: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub line: u64,
}

impl HostIntervals {
    /// `global` with this host's bounds in place of the global ones.
    pub fn bound(&self, global: Intervals) -> Intervals {
        Intervals { min: self.min.unwrap_or(global.min), max: self.max.unwrap_or(global.max), ..global }
    }
}

/// A bound's text: seconds, or `default` / 0 for none.
fn seconds(text: &str) -> Result<Option<f64>, String> {
    if text.eq_ignore_ascii_case("default") {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 => Ok((v > 0.0).then_some(v * SECOND)),
        _ => Err(format!("“{text}” is not a number of seconds (at least 0) or default")),
    }
}

/// Reads the file against the global bounds of `global`. What Nutch would log and
/// ignore (a malformed line, a bound outside the global ones, a minimum over the
/// maximum) is refused here with its line and the fix, as is a host given twice.
pub fn read(text: &str, global: &Intervals) -> Result<Vec<HostIntervals>, String> {
    refuse_size(text)?;
    // a form's check asks for it several times (its checks and its cost): the last file
    // read is kept, by its text and the global bounds
    let key = {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (text, global.min.to_bits(), global.max.to_bits()).hash(&mut h);
        h.finish()
    };
    if let Some(hosts) = LAST.with(|last| last.borrow().as_ref().filter(|(k, _)| *k == key).map(|(_, hosts)| hosts.clone())) {
        return hosts;
    }
    let read = read_lines(text, global);
    LAST.with(|last| *last.borrow_mut() = Some((key, read.clone())));
    read
}

/// A file read: its key (text and global bounds) and what it gave.
type Read = (u64, Result<Vec<HostIntervals>, String>);

thread_local! {
    /// The last file [`read`].
    static LAST: std::cell::RefCell<Option<Read>> = const { std::cell::RefCell::new(None) };
}

fn read_lines(text: &str, global: &Intervals) -> Result<Vec<HostIntervals>, String> {
    let mut hosts: Vec<HostIntervals> = Vec::new();
    // each host's line (a host given twice is refused: a lookup, not a scan of those
    // before, which took half an hour on 560,000 hosts)
    let mut seen: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k as u64 + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || raw.starts_with('#') {
            continue;
        }
        let mut parts = trimmed.split_whitespace();
        let (Some(host), Some(min), Some(max), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
            return Err(format!("line {line}: “{trimmed}” is not <hostname> <min_interval> <max_interval> (seconds, or default)"));
        };
        let (min, max) = (seconds(min).map_err(|e| format!("line {line}: the minimum {e}"))?, seconds(max).map_err(|e| format!("line {line}: the maximum {e}"))?);
        if let Some(m) = min.filter(|&m| m < global.min) {
            return Err(below_min(line, m, global));
        }
        if let Some(m) = max.filter(|&m| m > global.max) {
            return Err(over_max(line, m, global));
        }
        if let (Some(a), Some(b)) = (min, max)
            && a > b
        {
            return Err(format!("line {line}: the minimum {} is over the maximum {}; swap them", days(a), days(b)));
        }
        let host = host.to_ascii_lowercase();
        if let Some(before) = seen.insert(host.clone(), line) {
            return Err(format!("line {line}: {host} is given twice (line {before} too); keep one"));
        }
        hosts.push(HostIntervals { host, min, max, line });
    }
    Ok(hosts)
}

/// The file Nutch reads for `hosts` (seconds, `default` for a global bound), with a
/// comment line first.
pub fn write(hosts: &[HostIntervals], comment: &str) -> String {
    let bound = |b: Option<f64>| b.map_or_else(|| "default".to_string(), |d| format!("{}", (d / SECOND).round()));
    let mut text = format!("# {FILE_NAME}: {comment}\n# <hostname> <min_interval> <max_interval> (seconds, or default)\n");
    for h in hosts {
        text.push_str(&format!("{} {} {}\n", h.host, bound(h.min), bound(h.max)));
    }
    text
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::policy::adaptive::Rule;

    /// Every rule of the file, on a file written by its template's description.
    #[test]
    fn the_file_reads_as_nutch_reads_it() {
        let global = Rule::Nutch.shipped();
        let text = "# custom intervals\n\nnews.example.com 3600 86400\nSlow.Example.org default 2592000\nfast.example.net 0 default\n";
        let hosts = read(text, &global).unwrap();
        assert_eq!(hosts.len(), 3);
        assert_eq!((hosts[0].host.as_str(), hosts[0].min, hosts[0].max, hosts[0].line), ("news.example.com", Some(3600.0 * SECOND), Some(1.0), 3));
        assert_eq!((hosts[1].host.as_str(), hosts[1].min, hosts[1].max), ("slow.example.org", None, Some(30.0)));
        assert_eq!((hosts[2].min, hosts[2].max), (None, None));
        let bounded = hosts[0].bound(global);
        assert_eq!((bounded.min, bounded.max, bounded.inc_rate), (3600.0 * SECOND, 1.0, global.inc_rate));
        assert_eq!(read(&write(&hosts, "a test"), &global).unwrap().iter().map(|h| (h.min, h.max)).collect::<Vec<_>>(), hosts.iter().map(|h| (h.min, h.max)).collect::<Vec<_>>());
        let refused = |t: &str| read(t, &global).unwrap_err();
        assert!(refused("a.com 3600").contains("line 1: “a.com 3600” is not <hostname>"));
        assert!(refused("a.com soon 10").contains("the minimum “soon” is not a number"));
        assert!(refused("a.com 30 default").contains("below db.fetch.schedule.adaptive.min_interval (60 s)"));
        assert!(refused("a.com default 99999999999").contains("over db.fetch.schedule.adaptive.max_interval"));
        assert!(refused("a.com 7200 3600").contains("swap them"));
        assert!(refused("a.com 7200 default\nA.com 3600 default").contains("line 2: a.com is given twice (line 1 too)"));
    }

    /// A file's shape: its hosts, the bounds checked against the global ones (the line of
    /// the lowest minimum and the highest maximum), the longest minimums, and the first
    /// pairs of bounds with each host's, the others at their shortest; what the shape
    /// refuses whatever the settings, it refuses as [`read`] does.
    #[test]
    fn a_host_files_shape_holds_what_the_checks_need() {
        let mut text = String::from("# hosts\nnews.example 3600 86400\nslow.example default 2592000\n");
        // 30 more pairs: 22 fill the first 24, 8 are others
        for k in 0..30 {
            text.push_str(&format!("h{k}.example {} default\n", 7200 + 60 * k));
        }
        let shape = HostsShape::of(&text).unwrap();
        assert_eq!((shape.bytes, shape.hosts), (text.len() as u64, 32));
        assert_eq!(shape.lowest_min, Some((3600.0 * SECOND, 2)));
        assert_eq!(shape.highest_max, Some((30.0, 3)));
        assert_eq!(shape.longest_mins.len(), LONGEST_LISTED);
        assert_eq!(shape.longest_mins[0], ("h29.example".to_string(), (7200.0 + 60.0 * 29.0) * SECOND, 33));
        assert_eq!(shape.pairs.len(), DISTINCT_BOUNDS);
        assert_eq!(shape.pair_of, format!("{}{}", "ABCDEFGHIJKLMNOPQRSTUVWX", ".".repeat(8)));
        assert_eq!((shape.pair_index(2), shape.pair_index(31), shape.pair_index(32)), (Some(2), Some(DISTINCT_BOUNDS), None));
        assert_eq!(shape.after, vec![0; DISTINCT_BOUNDS + 1], "every host in order");
        let global = Rule::Nutch.shipped();
        // an other host at the shortest minimum among the others (h22's), the global maximum
        assert_eq!(shape.estimated(DISTINCT_BOUNDS, &global), (Some((7200.0 + 60.0 * 22.0) * SECOND), Some(global.max)));
        assert_eq!(shape.estimated(1, &global), (None, Some(30.0)));
        assert!(shape.check(&global).is_ok());
        // against tighter global bounds, the lowest minimum's line and the highest maximum's,
        // as read says them
        let tight = Intervals { min: 2.0 * 3600.0 * SECOND, ..global };
        assert_eq!(shape.check(&tight).unwrap_err(), read(&text, &tight).unwrap_err());
        let short = Intervals { max: 20.0, ..global };
        assert_eq!(shape.check(&short).unwrap_err(), read(&text, &short).unwrap_err());
        for bad in ["a.com 3600", "a.com 7200 3600", "a.com 7200 default\nA.com 3600 default"] {
            assert_eq!(HostsShape::of(bad).unwrap_err(), read(bad, &global).unwrap_err());
        }
        assert!(shape.consistent().is_ok());
        let torn = HostsShape { pair_of: format!("{}Z", &shape.pair_of[1..]), ..shape.clone() };
        assert!(torn.consistent().unwrap_err().contains("give the host file itself"));
        // past the first hosts, each pair's count: two pairs alternating, then three others
        let mut many = String::new();
        for k in 0..HOSTS_IN_ORDER + 10 {
            many.push_str(&format!("h{k}.example {} default\n", 3600 + 60 * (k % 2)));
        }
        for k in 0..3 {
            many.push_str(&format!("o{k}.example default {}\n", 86_400 * (k + 2)));
        }
        let many = HostsShape::of(&many).unwrap();
        assert_eq!((many.pairs.len(), many.pair_of.len()), (5, HOSTS_IN_ORDER));
        assert_eq!(many.after, vec![5, 5, 1, 1, 1, 0]);
        assert!(many.consistent().is_ok());
        let big = "x".repeat(MAX_BYTES + 1);
        assert!(HostsShape::of(&big).unwrap_err().contains("over the 64 MB (about 1,900,000 hosts)"));
    }
}
