//! The files read last, with what reading them gave. The page checks its form at every
//! edit, and prices the run too (on its main thread, or in its worker for a file over
//! 64 K characters): each read the crawler's file anew, and a file near the 1 MB limit
//! takes 70–170 ms to read in the page (a Heritrix file of 10,000 beans, a
//! crawler-conf.yaml of 40,000 keys), twice a check.

use super::{Crawler, Loaded};
use crate::core::input::InputError;
use std::cell::RefCell;

/// How many reads are kept: the file as loaded and as `crawler_settings` write over it.
const KEPT: usize = 2;

/// What a read was given, whole (a hash alone could mistake one file for another).
#[derive(Clone, Copy, PartialEq)]
pub struct Given<'a> {
    pub crawler: Crawler,
    pub text: &'a str,
    pub overrides: Option<(&'a str, &'a str)>,
    pub fields: [&'a str; 2],
}

/// [`Given`], kept.
struct Kept {
    crawler: Crawler,
    text: String,
    overrides: Option<(String, String)>,
    fields: [String; 2],
}

impl Kept {
    fn of(g: Given) -> Kept {
        Kept { crawler: g.crawler, text: g.text.into(), overrides: g.overrides.map(|(n, t)| (n.into(), t.into())), fields: g.fields.map(str::to_string) }
    }

    fn is(&self, g: Given) -> bool {
        self.crawler == g.crawler && self.text == g.text && self.overrides.as_ref().map(|(n, t)| (n.as_str(), t.as_str())) == g.overrides && self.fields == g.fields
    }
}

thread_local! {
    /// The last reads, the latest first.
    static KEPT_READS: RefCell<Vec<(Kept, Result<Loaded, InputError>)>> = const { RefCell::new(Vec::new()) };
}

/// What reading `given` gives: kept from an earlier read of the same (compared, not
/// copied), else `read()`'s, then kept.
pub fn read(given: Given, read: impl FnOnce() -> Result<Loaded, InputError>) -> Result<Loaded, InputError> {
    if let Some(kept) = KEPT_READS.with_borrow_mut(|kept| {
        let at = kept.iter().position(|(k, _)| k.is(given))?;
        let hit = kept.remove(at);
        let result = hit.1.clone();
        kept.insert(0, hit);
        Some(result)
    }) {
        return kept;
    }
    let result = read();
    KEPT_READS.with_borrow_mut(|kept| {
        kept.insert(0, (Kept::of(given), result.clone()));
        kept.truncate(KEPT);
    });
    result
}
