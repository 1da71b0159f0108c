//! Apache Nutch's `nutch-site.xml`: `<configuration>` of `<property>` elements, each a
//! `<name>` and a `<value>` (Hadoop's Configuration format), over nutch-default.xml.

use super::{DelayFloor, Entry, Getter, Known, Model, SECOND, boolean, limit, number, rate};
use crate::core::labels::labelled;
use crate::core::policy::adaptive::{Intervals, Rule};
use crate::core::policy::pushback::Reaction;
use serde::{Deserialize, Serialize};

labelled! {
/// Which AdaptiveFetchSchedule: since NUTCH-1564's fix (January 2026) the next fetch is
/// never in the past; before it, sync delta could put it there for a page unchanged
/// longer than max_interval / sync_delta_rate, refetched then at every chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Nutch1564 {
    Fixed => "NUTCH-1564 fixed (2026)",
    Before => "before NUTCH-1564 was fixed",
}
}

/// nutch-default.xml: DefaultFetchSchedule every 30 days; the adaptive schedule's rates
/// and bounds; a 5 s server delay, one thread per queue, Crawl-delay honoured up to 30 s
/// and raised to the server delay where shorter;
/// no exception delay, a queue purged at 5 exceptions.
pub const SHIPPED: Model = Model {
    intervals: Intervals { rule: Rule::Fixed, ..Intervals::NUTCH },
    server_delay_s: 5.0,
    min_delay_s: 0.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 30.0,
    crawl_delay_forced: false,
    crawl_delay_floor: DelayFloor::ServerDelay,
    reaction: Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: 5, cycle_days: 0.0 },
    // AbstractFetchSchedule.setPageRetrySchedule: a day after the failed fetch
    retry_days: 1.0,
    retry_times: 0,
    retries_429: false,
    retries_503: false,
    by_type: false,
    type_share: 1.0,
    type_lead: [1.0; super::TUNED_TYPES],
};

/// The fetcher's settings, with its 5.0 s server delay.
pub const FETCHER: [Known; 5] = super::fetcher_settings("5.0");

/// The settings read, with nutch-default.xml's values.
pub const KNOWN: &[Known] = &[
    Known {
        name: "db.fetch.schedule.class",
        default: "org.apache.nutch.crawl.DefaultFetchSchedule",
        meaning: "the revisit rule: DefaultFetchSchedule (a fixed interval), AdaptiveFetchSchedule, or MimeAdaptiveFetchSchedule (the adaptive one with rates by a page's Content-Type, from adaptive-mimetypes.txt given beside the file and the page list's metadata; other pages keep inc_rate and dec_rate)",
        apply: |m, v| {
            m.by_type = v.rsplit('.').next() == Some("MimeAdaptiveFetchSchedule");
            m.intervals.rule = match v.rsplit('.').next() {
                Some("DefaultFetchSchedule") => Rule::Fixed,
                // MimeAdaptiveFetchSchedule.setFetchSchedule: a datum without a
                // Content-Type keeps the configured inc_rate and dec_rate
                Some("AdaptiveFetchSchedule" | "MimeAdaptiveFetchSchedule") => Rule::Nutch,
                _ => return Err("must be org.apache.nutch.crawl.DefaultFetchSchedule, AdaptiveFetchSchedule or MimeAdaptiveFetchSchedule (the schedules Nutch ships)".into()),
            };
            Ok(())
        },
    },
    Known {
        name: "db.fetch.interval.default",
        default: "2592000",
        meaning: "every page's first interval (seconds); the fixed schedule's only one",
        apply: |m, v| {
            m.intervals.initial = hadoop_int(v, "seconds")? as f64 * SECOND;
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.inc_rate",
        default: "0.4",
        meaning: "unchanged: the interval × (1 + inc_rate)",
        apply: |m, v| {
            m.intervals.inc_rate = rate(v)?;
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.dec_rate",
        default: "0.2",
        meaning: "changed: the interval × (1 − dec_rate)",
        apply: |m, v| {
            m.intervals.dec_rate = rate(v)?;
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.min_interval",
        default: "60.0",
        meaning: "the shortest adaptive interval (seconds)",
        apply: |m, v| {
            m.intervals.min = number(v, "seconds")? * SECOND;
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.max_interval",
        default: "31536000.0",
        meaning: "the longest adaptive interval (seconds)",
        apply: |m, v| {
            m.intervals.max = number(v, "seconds")? * SECOND;
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.sync_delta",
        default: "true",
        meaning: "move the next fetch earlier by a share of the time since the last change",
        apply: |m, v| {
            // Hadoop's Configuration.getBoolean: true or false in any case; anything else
            // is its default, with a warning in the log (refused here, to be seen)
            let on =
                boolean(&v.to_ascii_lowercase()).map_err(|_| String::from("must be true or false (any case); Nutch would take its default, true, with a warning in its log"))?;
            m.intervals.sync_delta_rate = if on { Some(m.intervals.sync_delta_rate.unwrap_or(0.3)) } else { None };
            Ok(())
        },
    },
    Known {
        name: "db.fetch.schedule.adaptive.sync_delta_rate",
        default: "0.3",
        meaning: "that share",
        apply: |m, v| {
            let share = rate(v)?;
            if m.intervals.sync_delta_rate.is_some() {
                m.intervals.sync_delta_rate = Some(share);
            }
            Ok(())
        },
    },
    Known {
        name: "db.fetch.interval.max",
        default: "7776000",
        meaning: "a page whose interval grows past this (seconds) gets 0.9 × this, its signature cleared so that its next fetch neither lengthens nor shortens it (CrawlDbReducer's forceRefetch), and is refetched at the next generate if due more than this after it (the Generator's shouldFetch)",
        apply: |m, v| {
            let seconds = hadoop_int(v, "seconds")? as f64;
            if seconds <= 0.0 {
                return Err("must be a number of seconds above 0 (every interval would force a refetch at once)".into());
            }
            m.intervals.refetch_max = Some(seconds * SECOND);
            Ok(())
        },
    },
    Known {
        name: "fetcher.exceptions.per.queue.delay",
        default: "0",
        meaning: "after the k-th 429, 503 or other exception in a row, the host waits this × 2^(k−1) more (seconds; 0: off, the fetcher's fallback)",
        apply: |m, v| {
            if let Reaction::Nutch { exception_delay_s, .. } = &mut m.reaction {
                *exception_delay_s = number(v, "seconds")?;
            }
            Ok(())
        },
    },
    Known {
        name: "fetcher.max.exceptions.per.queue",
        default: "5",
        meaning: "at this many exceptions in a row the host's queue is purged until the next cycle (−1: never; 0 or another value below 0: at the first, as checkExceptionThreshold purges once the count reaches it; 5 since NUTCH-3114)",
        // FetchItemQueues.checkExceptionThreshold: maxExceptions != -1 && excCount >= maxExceptions
        apply: |m, v| {
            let n = hadoop_signed(v, "exceptions")?;
            if let Reaction::Nutch { max_exceptions, .. } = &mut m.reaction {
                *max_exceptions = if n == -1 { -1 } else { i64::from(n.max(1)) };
            }
            Ok(())
        },
    },
    Known {
        name: "fetcher.min.crawl.delay",
        default: "${fetcher.server.delay}",
        meaning: "a robots.txt Crawl-delay shorter than this is raised to it (seconds; by default the server delay, so that no robots.txt makes the crawler faster than its own delay: NUTCH-2775, Nutch 1.17)",
        // FetcherThread: minCrawlDelay = fetcher.min.crawl.delay, default fetcher.server.delay
        apply: |m, v| {
            m.crawl_delay_floor = match v {
                "${fetcher.server.delay}" => DelayFloor::ServerDelay,
                _ => DelayFloor::Seconds(number(v, "seconds, or ${fetcher.server.delay}")?),
            };
            Ok(())
        },
    },
    Known {
        name: "generate.topN",
        default: "-1",
        meaning: "at most this many pages over all hosts in one crawl cycle, the highest-scored first (the page's weight; -1: no limit); applies with a crawl cycle (nutch_cycle_hours). Nutch's Generator sets it from its own -topN argument (none: no limit), over the file's value and a -D: give the -topN your crawl passes (bin/crawl passes its fetch-list size), and pass a tuned one as -topN",
        apply: |m, v| {
            m.intervals.top_n = limit(v, "pages")?.unwrap_or(0);
            Ok(())
        },
    },
    Known {
        name: "generate.max.count",
        default: "-1",
        meaning: "at most this many of a host's pages in one crawl cycle (−1, 0 or below: no limit, as the Generator caps only where it is above 0); applies with a crawl cycle (nutch_cycle_hours)",
        // Generator.SelectorReducer: maxCount > 0 && hostCount >= maxCount
        apply: |m, v| {
            m.intervals.per_cycle = u64::try_from(hadoop_signed(v, "pages per host")?).unwrap_or(0);
            Ok(())
        },
    },
];

/// The file's properties, in order, with their lines, as Hadoop's Configuration.Parser
/// reads them: a `<property>` wherever it stands, its name and value as child elements
/// or as attributes (`<property name="…" value="…"/>`; a child element wins). An
/// XInclude (`<xi:include href="…"/>`), whose file Hadoop reads in its place, is refused:
/// Freshlab reads the one file.
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    let doc = super::xml(text, "Nutch", "configuration")?;
    let root = doc.root_element();
    if root.tag_name().name() != "configuration" {
        let line = doc.line(root);
        return Err(format!("line {line}: the root element is <{}>, not <configuration> as in nutch-site.xml", root.tag_name().name()));
    }
    let mut entries = Vec::new();
    for node in root.descendants().filter(roxmltree::Node::is_element) {
        let line = doc.line(node);
        match node.tag_name().name() {
            "include" => {
                let href = node.attribute("href").unwrap_or("");
                return Err(format!(
                    "line {line}: <include href=\"{href}\"> (XInclude): Nutch reads that file's properties here, and Freshlab reads one file: copy its <property> elements in place of the include"
                ));
            }
            "property" => {
                let read = |tag: &str| {
                    let child = node.children().find(|n| n.has_tag_name(tag)).map(|n| n.text().unwrap_or("").trim().to_string()).filter(|t| !t.is_empty());
                    child.or_else(|| node.attribute(tag).map(|a| a.trim().to_string()))
                };
                let Some(name) = read("name") else {
                    return Err(format!("line {line}: a <property> without a <name>; give each property a <name> and a <value> (or name=\"…\" value=\"…\" attributes)"));
                };
                // Hadoop's Parser: <final> is "true" exactly (its text untrimmed), the
                // element read after the attribute
                let fixed = match node.children().find(|n| n.has_tag_name("final")) {
                    Some(child) => child.text() == Some("true"),
                    None => node.attribute("final") == Some("true"),
                };
                entries.push(Entry { name, value: read("value").unwrap_or_default(), line, file: None, fixed, null: false });
            }
            _ => {}
        }
    }
    Ok(entries)
}

/// What an entry no known setting names does, where Nutch reads it and it changes
/// nothing on Freshlab's pages (None: not read here).
pub fn aside(e: &Entry, model: &Model) -> Option<String> {
    match e.name.as_str() {
        // MimeAdaptiveFetchSchedule.setConf
        "db.fetch.schedule.mime.file" if model.intervals.rule == Rule::Nutch => {
            Some("where MimeAdaptiveFetchSchedule finds its rates by a page's Content-Type: give that file beside this one (adaptive-mimetypes.txt) and the pages' Content-Type in the page list's metadata column".into())
        }
        // AbstractFetchSchedule.setConf: the old names, in days, read only where the new
        // one is 0, which Freshlab refuses (nutch-default.xml sets both)
        "db.default.fetch.interval" | "db.max.fetch.interval" => {
            let new = if e.name == "db.default.fetch.interval" { "db.fetch.interval.default" } else { "db.fetch.interval.max" };
            Some(format!(
                "the old name of {new} (in days), which Nutch reads only where {new} is 0 (nutch-default.xml sets it): passed over, as Nutch does; give {new} in seconds instead"
            ))
        }
        _ => None,
    }
}

/// Hadoop's Configuration.MAX_SUBST: substitutions in one value before it gives up.
const MAX_SUBST: usize = 20;

/// Hadoop Configuration.substituteVars, as Nutch reads every value: the leftmost
/// `${name}` (a name without `}`, `$` or a space) is replaced by property `name`'s value
/// (`raw`), again, up to [`MAX_SUBST`] times; at the first name no property has, the value
/// is kept as it then reads. (A Java system property of that name would come first: the
/// file alone sets none.)
pub fn substitute(value: &str, raw: impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut eval = value.to_string();
    for _ in 0..MAX_SUBST {
        let Some((start, name)) = first_variable(&eval) else { return Ok(eval) };
        let Some(val) = raw(name) else { return Ok(eval) };
        let end = start + name.len() + 3;
        eval = format!("{}{val}{}", &eval[..start], &eval[end..]);
    }
    Err(format!("its ${{…}} are substituted more than {MAX_SUBST} times (Hadoop's limit: does a property name itself?)"))
}

/// The leftmost `${name}` of `text` (Hadoop's pattern `\$\{[^\}\$ ]+\}`): where it starts
/// and the name.
fn first_variable(text: &str) -> Option<(usize, &str)> {
    let mut from = 0;
    while let Some(at) = text[from..].find("${").map(|k| from + k) {
        let rest = &text[at + 2..];
        let len = rest.find(['}', '$', ' ']).unwrap_or(rest.len());
        if len > 0 && rest[len..].starts_with('}') {
            return Some((at, &rest[..len]));
        }
        from = at + 1;
    }
    None
}

/// The Hadoop Configuration getter Nutch reads numeric setting `name` with (checked in
/// Nutch's sources: AbstractFetchSchedule, AdaptiveFetchSchedule, FetchItemQueues,
/// FetcherThread, Generator; None: not a number, or not read by Freshlab).
pub fn getter(name: &str) -> Option<Getter> {
    Some(match name {
        "db.fetch.interval.default"
        | "db.fetch.interval.max"
        | "fetcher.max.exceptions.per.queue"
        | "generate.max.count"
        | "fetcher.threads.per.queue"
        | "fetcher.max.crawl.delay" => Getter::Int,
        "generate.topN" => Getter::Long,
        "db.fetch.schedule.adaptive.inc_rate"
        | "db.fetch.schedule.adaptive.dec_rate"
        | "db.fetch.schedule.adaptive.min_interval"
        | "db.fetch.schedule.adaptive.max_interval"
        | "db.fetch.schedule.adaptive.sync_delta_rate"
        | "fetcher.exceptions.per.queue.delay"
        | "fetcher.min.crawl.delay"
        | "fetcher.server.delay"
        | "fetcher.server.min.delay" => Getter::Float,
        _ => return None,
    })
}

/// A value in a form Hadoop's getter reads and Freshlab's decimal does not, as the
/// number it reads (None: any other form, read or refused by the setting itself):
/// getInt and getLong take hexadecimal after `0x` (getHexDigits, `-0x…` too), within
/// Java's int or long; getFloat (Float.parseFloat) takes Java's float literals, a
/// trailing `f`, `F`, `d` or `D` and hexadecimal with a binary exponent (`0x1.8p3`).
pub fn hadoop_form(name: &str, text: &str) -> Option<Result<String, String>> {
    let (negative, body) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let sign = if negative { "-" } else { "" };
    let hex = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X"));
    let getter = getter(name)?;
    match getter {
        Getter::Int | Getter::Long if text.starts_with('+') => None,
        Getter::Int | Getter::Long => {
            let digits = hex.filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()))?;
            let n = i128::from_str_radix(digits, 16).ok().map(|n| if negative { -n } else { n });
            let (fits, java) = match getter {
                Getter::Int => (n.is_some_and(|n| i32::try_from(n).is_ok()), "int"),
                _ => (n.is_some_and(|n| i64::try_from(n).is_ok()), "long"),
            };
            Some(match n {
                Some(n) if fits => Ok(n.to_string()),
                _ => Err(format!("is past Java's {java}, which Hadoop's getter refuses (NumberFormatException, which stops Nutch)")),
            })
        }
        Getter::Float => {
            let suffixed = body.strip_suffix(['f', 'F', 'd', 'D']);
            let v = match hex {
                // (a suffix after the exponent's decimal digits)
                Some(h) => hex_float(h.strip_suffix(['f', 'F', 'd', 'D']).unwrap_or(h))?,
                None => suffixed.filter(|d| d.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-')))?.parse::<f64>().ok()?,
            };
            Some(Ok(format!("{sign}{v}")))
        }
        _ => None,
    }
}

/// A Java hexadecimal float's digits after `0x`, suffix dropped: `h.hp±e` (its binary
/// exponent required), as f64.
fn hex_float(text: &str) -> Option<f64> {
    let (mantissa, exponent) = text.split_once(['p', 'P'])?;
    let exponent: i32 = exponent.parse().ok()?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() || !(whole.chars().chain(fraction.chars()).all(|c| c.is_ascii_hexdigit())) {
        return None;
    }
    let digits = |s: &str| s.chars().fold(0.0_f64, |v, c| v * 16.0 + f64::from(c.to_digit(16).unwrap_or(0)));
    let value = digits(whole) + digits(fraction) / 16f64.powi(fraction.len() as i32);
    Some(value * 2f64.powi(exponent))
}

/// Hadoop's Configuration.getInt, which Nutch reads its whole-number settings with: a
/// decimal int, signed, within Java's int (its hexadecimal form read before, by
/// [`hadoop_form`]); anything else, a fraction included, throws NumberFormatException
/// and stops the job.
fn hadoop_signed(text: &str, unit: &str) -> Result<i32, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let parsed = (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then(|| text.parse::<i32>().ok()).flatten();
    parsed.ok_or_else(|| {
        format!("must be a whole number of {unit} (Hadoop reads it with getInt: decimal, or hexadecimal after 0x; a fraction stops Nutch with a NumberFormatException)")
    })
}

/// [`hadoop_signed`] for the intervals (AbstractFetchSchedule.setConf:
/// `db.fetch.interval.default`, `db.fetch.interval.max`), of which Freshlab runs none
/// below 0.
pub fn hadoop_int(text: &str, unit: &str) -> Result<u32, String> {
    let n = hadoop_signed(text, unit)?;
    u32::try_from(n).map_err(|_| format!("must be a whole number of {unit}, at least 0 (Nutch reads {n}, which Freshlab cannot run)"))
}

/// Where a written setting takes effect only on the command line, for its comment in the
/// file ("" for another setting): Nutch's Generator writes its `-topN` argument over
/// `generate.topN` (none: no limit), in `Generator.run`.
pub fn command_line_note(name: &str, value: &str) -> String {
    match name {
        "generate.topN" if value == "-1" => "; the Generator sets this from its -topN argument: run generate without one (bin/crawl always passes its fetch-list size)".to_string(),
        "generate.topN" => format!("; the Generator sets this from its -topN argument: run generate with -topN {value} (bin/crawl passes its fetch-list size: make it {value})"),
        _ => String::new(),
    }
}
