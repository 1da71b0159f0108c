//! The files read last, with what reading them gave. The page checks its form at every
//! edit, and prices the run too, on its main thread: each read the crawler's file anew, and
//! a file near the 1 MB limit takes 70–170 ms to read in the page (a Heritrix file of
//! 10,000 beans, a crawler-conf.yaml of 40,000 keys), twice a check.

use super::{Crawler, Loaded};
use crate::core::input::InputError;
use std::cell::RefCell;

/// How many reads are kept: the file as loaded and as `crawler_settings` write over it.
const KEPT: usize = 2;

/// What a read was given, whole (a hash alone could mistake one file for another).
#[derive(PartialEq)]
pub struct Key {
    crawler: Crawler,
    text: String,
    overrides: Option<(String, String)>,
    fields: [String; 2],
}

impl Key {
    pub fn of(crawler: Crawler, text: &str, overrides: Option<(&str, &str)>, fields: [&str; 2]) -> Key {
        Key { crawler, text: text.into(), overrides: overrides.map(|(n, t)| (n.into(), t.into())), fields: fields.map(str::to_string) }
    }
}

thread_local! {
    /// The last reads, the latest first.
    static KEPT_READS: RefCell<Vec<(Key, Result<Loaded, InputError>)>> = const { RefCell::new(Vec::new()) };
}

/// What reading `key` gives: kept from an earlier read of the same, else `read()`'s.
pub fn read(key: Key, read: impl FnOnce() -> Result<Loaded, InputError>) -> Result<Loaded, InputError> {
    if let Some(kept) = KEPT_READS.with_borrow_mut(|kept| {
        let at = kept.iter().position(|(k, _)| *k == key)?;
        let hit = kept.remove(at);
        let result = hit.1.clone();
        kept.insert(0, hit);
        Some(result)
    }) {
        return kept;
    }
    let result = read();
    KEPT_READS.with_borrow_mut(|kept| {
        kept.insert(0, (key, result.clone()));
        kept.truncate(KEPT);
    });
    result
}
