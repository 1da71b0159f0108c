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

/// The largest file accepted (about 9,000 hosts): the page reads it at each check of its
/// form, on its main thread, and a check with one of 0.9 MB took 83 ms there, over the 50
/// the page allows. (It was 16 MB: a file of 560,000 hosts held each check for seconds.)
pub const MAX_BYTES: usize = 256 << 10;

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
    if text.len() > MAX_BYTES {
        return Err(format!(
            "is {} KB, over the {} KB (about 9,000 hosts) Freshlab reads; list only the hosts whose bounds differ from the global ones",
            text.len() >> 10,
            MAX_BYTES >> 10
        ));
    }
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
    let days = |d: f64| format!("{} s", crate::chart::format::sig(d / SECOND, 6));
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
            return Err(format!(
                "line {line}: the minimum {} is below db.fetch.schedule.adaptive.min_interval ({}); Nutch ignores it: raise it or write default",
                days(m),
                days(global.min)
            ));
        }
        if let Some(m) = max.filter(|&m| m > global.max) {
            return Err(format!(
                "line {line}: the maximum {} is over db.fetch.schedule.adaptive.max_interval ({}); Nutch ignores it: lower it or write default",
                days(m),
                days(global.max)
            ));
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
}
