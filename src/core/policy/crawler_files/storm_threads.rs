//! StormCrawler's `fetcher.maxThreads.<pattern>`: the threads a fetch queue may have in
//! flight where its id (the host, lowercased) matches the pattern as a whole, in place of
//! `fetcher.threads.per.queue` (FetcherBolt.FetchItemQueues: each key with the prefix
//! compiled by Pattern.compile, its value cast to Number and its intValue kept; a new
//! queue takes the first pattern whose matcher matches its id, in a HashMap's order,
//! which has none). Laid over the servers' hosts as Heritrix's sheets and Scrapy's slots
//! are ([`SheetRule`]); a host two patterns match takes the first in the file.

use super::heritrix_rules;
use super::heritrix_sheets::{SheetRule, Sheets};
use super::{Crawler, Entry, Known, stormcrawler};

/// What the settings' names begin with.
pub const PREFIX: &str = "fetcher.maxThreads.";

/// What a pattern sets: the queue's threads.
pub const KNOWN: &[Known] = &[Known {
    name: "threads",
    default: "fetcher.threads.per.queue",
    meaning: "requests its queue may have in flight; with more than one, spaced by fetcher.server.min.delay and its robots.txt Crawl-delay not kept (FetchItemQueue.finish)",
    apply: super::threads_per_queue,
}];

/// The value FetchItemQueues makes of the file's `value` for `name`: its whole part
/// (intValue), as written where it is a whole number.
pub fn threads(name: &str, value: &str) -> String {
    stormcrawler::cast(name, value).unwrap_or_else(|| value.trim().to_string())
}

/// The patterns `entries` give (each name's last, as SnakeYAML keeps it), as rules over
/// the hosts they match, in the file's order; refused with the line where StormCrawler
/// would stop at start-up (a null value: a NullPointerException in the cast) or where
/// Freshlab's regex engine cannot read the pattern.
pub fn read(entries: &[Entry]) -> Result<Sheets, String> {
    let mut out = Sheets::default();
    // each name's last line, found once (a file may give thousands of patterns)
    let mut last = std::collections::HashMap::new();
    for (at, e) in entries.iter().enumerate() {
        last.insert(e.name.as_str(), at);
    }
    for (at, e) in entries.iter().enumerate() {
        let Some(pattern) = e.name.strip_prefix(PREFIX) else { continue };
        if last[e.name.as_str()] != at {
            continue;
        }
        let refused = |why: String| format!("line {}: {} {why}", e.line, e.name);
        if e.null {
            return Err(refused(
                "is null, which stops StormCrawler at start-up: FetchItemQueues casts every fetcher.maxThreads. value to a number (a NullPointerException); give a number of threads or remove the line"
                    .into(),
            ));
        }
        heritrix_rules::whole(pattern).map_err(|why| refused(format!("names its hosts by a pattern (Java's Pattern, matched against each queue's host), and {why}")))?;
        let threads = threads(&e.name, &e.value);
        out.rules.push(SheetRule {
            crawler: Crawler::Stormcrawler,
            prefix: pattern.to_string(),
            sheet: pattern.to_string(),
            line: e.line,
            settings: vec![(KNOWN[0].name.to_string(), threads, e.line)],
            decide: None,
            rank: None,
        });
        out.entries.push((pattern.to_string(), Entry { name: KNOWN[0].name.to_string(), value: e.value.clone(), line: e.line, file: None, fixed: false, null: false }));
    }
    Ok(out)
}
