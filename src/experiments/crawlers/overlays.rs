//! Heritrix's sheets on the pages' servers: which sheets each server's host falls under,
//! kept as the few distinct sets they form (a run then holds one set of rules a set,
//! not one a server), and what the sheets covered.

use super::output::SheetsUsed;
use crate::core::model::repository::Repository;
use crate::core::policy::crawler_files::Model;
use crate::core::policy::crawler_files::heritrix_sheets::{self, SheetRule};

/// Servers apart from the crawler's settings, by the sheets over their hosts.
#[derive(Default)]
pub(super) struct Overlays {
    /// Each distinct set of rules (indices into the file's, the winner first); the first
    /// is the empty set: the crawler's own settings.
    sets: Vec<Vec<usize>>,
    /// Each server's set (empty: every server on the first).
    of: Vec<u16>,
}

impl Overlays {
    /// The sets of `rules` over the servers `names` gives (a generated repository's
    /// have none), checked on `base`; and what the sheets covered (None without sheets).
    pub fn of(rules: &[SheetRule], names: &[String], repo: &Repository, base: &Model) -> Result<(Self, Option<SheetsUsed>), String> {
        if rules.is_empty() {
            return Ok((Overlays::default(), None));
        }
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        let mut of = Vec::with_capacity(repo.servers());
        for s in 0..repo.servers() {
            let set: Vec<usize> = names.get(s).map(|n| heritrix_sheets::rules_for(rules, n)).unwrap_or_default();
            let k = match sets.iter().position(|x| *x == set) {
                Some(k) => k,
                None => {
                    if sets.len() > usize::from(u16::MAX) {
                        return Err(format!("its sheets set {} hosts apart in as many ways; Freshlab runs at most {} sets of sheets", repo.servers(), u16::MAX));
                    }
                    sets.push(set);
                    sets.len() - 1
                }
            };
            of.push(k as u16);
        }
        let overlays = Overlays { sets, of };
        for set in &overlays.sets {
            heritrix_sheets::overlay(&overlays.rules(rules, set), base)?;
        }
        let covered: Vec<usize> = (0..repo.servers()).filter(|&s| overlays.set(s) > 0).collect();
        let pages = covered.iter().map(|&s| repo.server_pages(s).len() as u64).sum();
        let mut prefixes: Vec<&str> = rules.iter().map(|r| r.prefix.as_str()).collect();
        prefixes.sort_unstable();
        prefixes.dedup();
        let used: std::collections::BTreeSet<u16> = overlays.of.iter().copied().collect();
        let matched: std::collections::BTreeSet<&str> = used.iter().flat_map(|&k| overlays.sets[usize::from(k)].iter().map(|&r| rules[r].prefix.as_str())).collect();
        let unmatched = prefixes.iter().filter(|p| !matched.contains(**p)).map(|p| p.to_string()).collect();
        Ok((overlays, Some(SheetsUsed::of(prefixes.len() as u64, covered.len() as u64, pages, unmatched))))
    }

    /// Server `s`'s set (0: the crawler's own settings).
    pub fn set(&self, s: usize) -> usize {
        self.of.get(s).map_or(0, |&k| usize::from(k))
    }

    /// The model of each set over `base` (the first: `base` itself).
    pub fn models(&self, rules: &[SheetRule], base: &Model) -> Vec<Model> {
        if self.sets.is_empty() {
            return vec![*base];
        }
        // every set was laid over the loaded model when the job began (Self::of), and a
        // value that was taken once is taken again on any model
        self.sets.iter().map(|set| heritrix_sheets::overlay(&self.rules(rules, set), base).unwrap_or(*base)).collect()
    }

    fn rules<'a>(&self, rules: &'a [SheetRule], set: &[usize]) -> Vec<&'a SheetRule> {
        set.iter().map(|&r| &rules[r]).collect()
    }
}
