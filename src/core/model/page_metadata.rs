//! A page's metadata, as a crawler's seed list gives it: Nutch's Injector and
//! StormCrawler's seed files put `key=value` pairs after the URL, separated by tabs
//! (`http://example.org/ \t nutch.fetchInterval=86400 \t isFeed=true`). A page list's
//! optional `metadata` column holds them, the pairs separated by tabs or by `|`; the
//! crawlers experiment reads the keys each crawler reads (its own custom intervals).

use std::collections::HashMap;

/// At most this many characters in one page's metadata.
pub const MAX_CHARS: usize = 1000;

/// The `key=value` pairs of one page's metadata cell, in order (a key may repeat: a
/// StormCrawler key holds several values). The error says what to write.
pub fn pairs(text: &str) -> Result<Vec<(&str, &str)>, String> {
    if text.chars().count() > MAX_CHARS {
        return Err(format!("metadata is longer than {MAX_CHARS} characters; keep the keys a crawler reads"));
    }
    text.split(['\t', '|'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((key, value)) if !key.trim().is_empty() => Ok((key.trim(), value.trim())),
            _ => Err(format!("metadata “{p}” is not key=value; write pairs such as isFeed=true|nutch.fetchInterval=86400 (separated by | or tabs)")),
        })
        .collect()
}

/// One page's metadata as a canonical text: its pairs, trimmed, joined by tabs (so that
/// two cells written alike are one kind).
pub fn canonical(text: &str) -> Result<String, String> {
    Ok(pairs(text)?.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join("\t"))
}

/// The values `key` holds in a canonical text, in order.
pub fn values<'a>(canonical: &'a str, key: &str) -> impl Iterator<Item = &'a str> + 'a {
    let key = key.to_string();
    canonical.split('\t').filter_map(move |p| p.split_once('=').filter(|(k, _)| *k == key).map(|(_, v)| v))
}

/// The distinct metadata of a list's pages: page i's is `kinds[of[i]]` (indexed like the
/// repository; kind 0 is the empty one, a page without metadata).
#[derive(Clone, Debug, PartialEq)]
pub struct PageMetadata {
    pub kinds: Vec<String>,
    pub of: Vec<u32>,
}

impl PageMetadata {
    /// Pages of each kind.
    pub fn pages_of_kind(&self) -> Vec<u64> {
        let mut pages = vec![0u64; self.kinds.len()];
        for &k in &self.of {
            pages[k as usize] += 1;
        }
        pages
    }
}

/// Interns canonical metadata texts into kinds (kind 0: none).
#[derive(Default)]
pub struct Kinds {
    index: HashMap<String, u32>,
    kinds: Vec<String>,
}

impl Kinds {
    pub fn new() -> Self {
        let mut kinds = Kinds::default();
        kinds.kind_of(String::new());
        kinds
    }

    pub fn kind_of(&mut self, canonical: String) -> u32 {
        if let Some(&k) = self.index.get(&canonical) {
            return k;
        }
        let k = self.kinds.len() as u32;
        self.kinds.push(canonical.clone());
        self.index.insert(canonical, k);
        k
    }

    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }

    pub fn into_kinds(self) -> Vec<String> {
        self.kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_by_tabs_or_bars_trimmed_and_in_order() {
        assert_eq!(pairs("isFeed=true\tnutch.fetchInterval=86400").unwrap(), vec![("isFeed", "true"), ("nutch.fetchInterval", "86400")]);
        assert_eq!(pairs(" a = 1 | a=2 |").unwrap(), vec![("a", "1"), ("a", "2")]);
        assert!(pairs("").unwrap().is_empty());
        // a value may hold '=' (a URL's query) and ';' (a Content-Type's charset)
        assert_eq!(pairs("Content-Type=text/html; charset=utf-8").unwrap(), vec![("Content-Type", "text/html; charset=utf-8")]);
        assert!(pairs("isFeed").unwrap_err().contains("not key=value"));
        assert!(pairs("=true").unwrap_err().contains("not key=value"));
        assert!(pairs(&"k=v|".repeat(300)).unwrap_err().contains("longer than 1000"));
    }

    #[test]
    fn cells_written_alike_are_one_kind_and_values_are_found_by_key() {
        let mut kinds = Kinds::new();
        let a = kinds.kind_of(canonical(" isFeed=true | lang=en").unwrap());
        let b = kinds.kind_of(canonical("isFeed=true\tlang=en").unwrap());
        assert_eq!((a, b, kinds.len()), (1, 1, 2));
        assert_eq!(kinds.kind_of(String::new()), 0);
        let text = canonical("tag=a|tag=b|x=1").unwrap();
        assert_eq!(values(&text, "tag").collect::<Vec<_>>(), vec!["a", "b"]);
        assert_eq!(values(&text, "ta").count(), 0);
    }
}
