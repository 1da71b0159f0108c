//! A crawler's seed list, as Nutch's Injector and StormCrawler's seed files read it: a
//! URL a line, then the page's `key=value` pairs, each after a tab; blank lines and lines
//! starting with `#` are skipped. Joined to a page list by page (the list's `page`
//! column), its pairs stand for the page's `metadata` cell.

use super::page_metadata::{self, Kinds, PageMetadata};
use std::collections::HashMap;

/// At most this many bytes (64 MB, some 800,000 pages at 80 bytes a line; a tuned list
/// of half a million pages is about 40 MB). The page's form checks its shape
/// ([`SeedShape`], read once in its worker), never its text: a 2 MB list read at every
/// edit held the main thread 0.47 s in headless Chromium.
pub const MAX_BYTES: u64 = 64 << 20;

/// What the form's checks need of a seed list, read once by the page's worker and sent
/// in place of the text (`seed_shape`): its size, its pages, and its distinct pairs with
/// the pages giving each (the estimate prices each kind of page).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeedShape {
    pub bytes: u64,
    pub seeds: u64,
    pub kinds: Vec<(String, u64)>,
}

impl SeedShape {
    /// The shape of a seed list's text. Err: as [`read`].
    pub fn of(text: &str) -> Result<SeedShape, String> {
        let seeds = read(text)?;
        let mut kinds: Vec<(String, u64)> = kinds(&seeds).into_iter().collect();
        kinds.sort_unstable();
        Ok(SeedShape { bytes: text.len() as u64, seeds: seeds.len() as u64, kinds })
    }
}

/// One page of a seed list: its URL, its pairs as a canonical text
/// ([`page_metadata::canonical`]) and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Seed {
    pub url: String,
    pub metadata: String,
    pub line: usize,
}

/// The seed list's pages, in order. Err: the first line it cannot read, with the fix.
pub fn read(text: &str) -> Result<Vec<Seed>, String> {
    if text.len() as u64 > MAX_BYTES {
        return Err(format!(
            "is {:.1} MB, over the 64 MB a seed list may have; give its pages' pairs in the page list's metadata column instead (| between pairs), which takes 512 MB",
            text.len() as f64 / f64::from(1 << 20)
        ));
    }
    let mut seeds = Vec::new();
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let mut fields = raw.split('\t');
        let url = fields.next().unwrap_or_default().trim();
        if url.is_empty() || url.contains(char::is_whitespace) {
            return Err(format!("line {line}: “{}” is not a URL followed by tab-separated key=value pairs; write the URL, then each pair after a tab", clip(trimmed)));
        }
        if let Some(was) = first.insert(url, line) {
            return Err(format!("line {line}: {url} is listed again (first on line {was}); list each page once"));
        }
        let mut pairs = Vec::new();
        for field in fields.map(str::trim).filter(|f| !f.is_empty()) {
            match field.split_once('=') {
                Some((key, value)) if !key.trim().is_empty() => pairs.push(format!("{}={}", key.trim(), value.trim())),
                _ => return Err(format!("line {line}: “{}” is not key=value; write pairs such as nutch.fetchInterval=86400, each after a tab", clip(field))),
            }
        }
        let metadata = pairs.join("\t");
        if metadata.chars().count() > page_metadata::MAX_CHARS {
            return Err(format!("line {line}: the pairs are longer than {} characters; keep the keys a crawler reads", page_metadata::MAX_CHARS));
        }
        seeds.push(Seed { url: url.to_string(), metadata, line });
    }
    Ok(seeds)
}

/// A text shown in a message, at most 60 characters.
fn clip(text: &str) -> String {
    if text.chars().count() > 60 { format!("{}…", text.chars().take(60).collect::<String>()) } else { text.to_string() }
}

/// What a seed list did to a page list's pages.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SeedsUsed {
    /// Pages the seed list gives.
    pub lines: u64,
    /// Of them, pages of the page list (their pairs stand for its metadata cell), and
    /// how many of those had a cell of their own, replaced.
    pub matched: u64,
    pub replaced: u64,
    /// The seed list's pages not in the page list (the first 20), and how many: not run.
    pub unmatched: Vec<String>,
    pub unmatched_count: u64,
    /// The page list's pages.
    pub pages: u64,
    /// The same in words (the experiment's).
    pub said: String,
}

/// The page list's metadata with `seeds` joined by page (`names`: the list's pages in
/// repository order; `metadata`: its own column's, if any): a seed's pairs stand for its
/// page's cell, the other pages keep theirs.
pub fn join(seeds: &[Seed], names: &[String], metadata: Option<&PageMetadata>) -> (PageMetadata, SeedsUsed) {
    let at: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut kinds = Kinds::new();
    // the list's own kinds keep their indices (both start with kind 0, none)
    let own: Vec<u32> = metadata.map_or_else(Vec::new, |m| m.kinds.iter().map(|k| kinds.kind_of(k.clone())).collect());
    let mut of: Vec<u32> = (0..names.len()).map(|i| metadata.map_or(0, |m| own[m.of[i] as usize])).collect();
    let mut used = SeedsUsed { lines: seeds.len() as u64, ..SeedsUsed::default() };
    let mut unmatched = 0u64;
    for seed in seeds {
        match at.get(seed.url.as_str()) {
            Some(&i) => {
                used.matched += 1;
                if of[i] != 0 {
                    used.replaced += 1;
                }
                of[i] = kinds.kind_of(seed.metadata.clone());
            }
            None => {
                unmatched += 1;
                if used.unmatched.len() < 20 {
                    used.unmatched.push(seed.url.clone());
                }
            }
        }
    }
    used.unmatched_count = unmatched;
    used.pages = names.len() as u64;
    (PageMetadata { kinds: kinds.into_kinds(), of }, used)
}

/// Each kind of the seeds' pairs with its pages (for an estimate made before the join).
pub fn kinds(seeds: &[Seed]) -> HashMap<String, u64> {
    let mut tally: HashMap<String, u64> = HashMap::new();
    for seed in seeds {
        *tally.entry(seed.metadata.clone()).or_default() += 1;
    }
    tally
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Nutch's Injector format: the URL, then tab-separated pairs; comments and blank
    /// lines skipped; a URL alone has no pairs.
    #[test]
    fn a_seed_list_gives_each_url_its_pairs() {
        let seeds = read("# seeds\n\nhttps://a.example/\tnutch.score=2\tnutch.fetchInterval=86400\nhttps://b.example/  \n  https://c.example/x\t isFeed = true \n").unwrap();
        let got: Vec<(&str, &str, usize)> = seeds.iter().map(|s| (s.url.as_str(), s.metadata.as_str(), s.line)).collect();
        assert_eq!(got, vec![("https://a.example/", "nutch.score=2\tnutch.fetchInterval=86400", 3), ("https://b.example/", "", 4), ("https://c.example/x", "isFeed=true", 5)]);
    }

    /// Each line Freshlab cannot read is refused with its line and what to write.
    #[test]
    fn a_seed_list_refuses_what_it_cannot_read() {
        let refused = |text: &str| read(text).unwrap_err();
        assert!(refused("https://a.example/ nutch.score=2\n").starts_with("line 1: “https://a.example/ nutch.score=2” is not a URL followed by tab-separated"));
        assert!(refused("https://a.example/\tscore\n").starts_with("line 1: “score” is not key=value"));
        assert_eq!(refused("a\n# c\nb\na\tk=v\n"), "line 4: a is listed again (first on line 1); list each page once");
        assert!(refused(&format!("a\tk={}\n", "v".repeat(1000))).contains("longer than 1000 characters"));
        assert!(refused(&"a\n".repeat((32 << 20) + 1)).starts_with("is 64.0 MB, over the 64 MB a seed list may have"));
    }

    /// A seed list's shape: its size, its pages, its distinct pairs (canonical, in order)
    /// with the pages giving each; what it cannot read, refused as the text is.
    #[test]
    fn a_seed_lists_shape_counts_its_kinds_of_pages() {
        let text = "# seeds\nhttps://a.example/\tnutch.score=2\nhttps://b.example/\nhttps://c.example/ \tnutch.score=2\t\nhttps://d.example/\tk=v\n";
        let shape = SeedShape::of(text).unwrap();
        assert_eq!((shape.bytes, shape.seeds), (text.len() as u64, 4));
        assert_eq!(shape.kinds, vec![(String::new(), 1), ("k=v".into(), 1), ("nutch.score=2".into(), 2)]);
        assert_eq!(SeedShape::of("a\na\n").unwrap_err(), "line 2: a is listed again (first on line 1); list each page once");
    }

    /// Joined by page: a seed's pairs stand for its page's cell (replaced where it had
    /// one), the others keep theirs, a seed of no page is said, not run.
    #[test]
    fn a_seed_list_joins_the_page_list_by_page() {
        let names: Vec<String> = ["p0", "p1", "p2"].map(String::from).to_vec();
        let own = PageMetadata { kinds: vec![String::new(), "nutch.score=5".into()], of: vec![1, 1, 0] };
        let seeds = read("p1\tnutch.fetchInterval.fixed=600\np2\tnutch.score=3\nelsewhere\tk=v\n").unwrap();
        let (joined, used) = join(&seeds, &names, Some(&own));
        let each: Vec<&str> = joined.of.iter().map(|&k| joined.kinds[k as usize].as_str()).collect();
        assert_eq!(each, vec!["nutch.score=5", "nutch.fetchInterval.fixed=600", "nutch.score=3"]);
        assert_eq!((used.lines, used.matched, used.replaced, used.unmatched.clone(), used.unmatched_count, used.pages), (3, 2, 1, vec!["elsewhere".to_string()], 1, 3));
        assert_eq!(kinds(&seeds).get("nutch.score=3"), Some(&1));
    }
}
