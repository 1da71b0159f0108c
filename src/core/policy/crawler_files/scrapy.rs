//! Scrapy's `settings.py`: plain `NAME = value` assignments, read without running
//! Python; a value may run over several lines inside brackets (a dict of pipelines).
//! Any other statement (an import, an `if`) is refused by name. Scrapy has no revisit
//! rule of its own: the experiment's recrawl interval is given beside it.

use super::{Entry, Known, Model, boolean, number, whole};
use crate::core::policy::adaptive::Intervals;
use crate::core::policy::pushback::Reaction;

/// Scrapy's default settings: no download delay (randomised 0.5–1.5× when set), eight
/// requests per domain at a time, AutoThrottle off.
pub const SHIPPED: Model = Model {
    intervals: Intervals::FIXED_30_DAYS,
    server_delay_s: 0.0,
    min_delay_s: 0.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 0.0,
    crawl_delay_forced: false,
    crawl_delay_floor: super::DelayFloor::None,
    reaction: Reaction::Scrapy { randomize: true, concurrency: 8.0, autothrottle: false, start_delay_s: 5.0, max_delay_s: 60.0, target_concurrency: 1.0 },
    // the recrawl interval, set beside the file
    retry_days: 30.0,
    // RetryMiddleware: RETRY_ENABLED, RETRY_TIMES 2, RETRY_HTTP_CODES with 429 and 503
    retry_times: 2,
    retries_429: true,
    retries_503: true,
    by_type: false,
    type_share: 1.0,
    type_lead: [1.0; super::TUNED_TYPES],
};

/// The settings read, with Scrapy's defaults.
pub const KNOWN: &[Known] = &[
    Known {
        name: "DOWNLOAD_DELAY",
        default: "0",
        meaning: "the gap between two requests to a domain (seconds; its mean when randomised)",
        apply: |m, v| {
            m.server_delay_s = number(v, "seconds")?;
            m.min_delay_s = m.server_delay_s;
            Ok(())
        },
    },
    Known {
        name: "RANDOMIZE_DOWNLOAD_DELAY",
        default: "True",
        meaning: "each delay × a uniform 0.5–1.5",
        apply: |m, v| {
            if let Reaction::Scrapy { randomize, .. } = &mut m.reaction {
                *randomize = boolean(v)?;
            }
            Ok(())
        },
    },
    Known {
        name: "RETRY_TIMES",
        default: "2",
        meaning: "retries of a refused request, each queued behind the domain's waiting requests; then the page waits for its next recrawl",
        apply: |m, v| {
            m.retry_times = whole(v, "retries", 0, 100)? as u32;
            Ok(())
        },
    },
    Known {
        name: "RETRY_ENABLED",
        default: "True",
        meaning: "RetryMiddleware on or off (off: no retry, whatever RETRY_TIMES says)",
        apply: |m, v| {
            if !boolean(v)? {
                m.retry_times = 0;
            }
            Ok(())
        },
    },
    Known {
        name: "RETRY_HTTP_CODES",
        default: "[500, 502, 503, 504, 522, 524, 408, 429]",
        meaning: "the statuses retried: whether 429 and 503 are among them",
        apply: |m, v| {
            let codes = v.trim().strip_prefix('[').and_then(|v| v.strip_suffix(']')).ok_or_else(|| String::from("must be a list of status codes, e.g. [503, 429]"))?;
            let mut read = Vec::new();
            for code in codes.split(',').map(str::trim).filter(|c| !c.is_empty()) {
                read.push(code.parse::<u16>().map_err(|_| format!("holds “{code}”, not a status code; give numbers, e.g. [503, 429]"))?);
            }
            m.retries_429 = read.contains(&429);
            m.retries_503 = read.contains(&503);
            Ok(())
        },
    },
    Known {
        name: "CONCURRENT_REQUESTS_PER_DOMAIN",
        default: "8",
        meaning: "requests to a domain at once, when there is no delay",
        apply: |m, v| {
            let n = whole(v, "requests", 1, u64::MAX)?;
            if let Reaction::Scrapy { concurrency, .. } = &mut m.reaction {
                *concurrency = n as f64;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_ENABLED",
        default: "False",
        meaning: "the delay follows the measured latency",
        apply: |m, v| {
            if let Reaction::Scrapy { autothrottle, .. } = &mut m.reaction {
                *autothrottle = boolean(v)?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_START_DELAY",
        default: "5.0",
        meaning: "AutoThrottle's first delay (seconds)",
        apply: |m, v| {
            if let Reaction::Scrapy { start_delay_s, .. } = &mut m.reaction {
                *start_delay_s = number(v, "seconds")?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_MAX_DELAY",
        default: "60.0",
        meaning: "AutoThrottle's longest delay (seconds)",
        apply: |m, v| {
            if let Reaction::Scrapy { max_delay_s, .. } = &mut m.reaction {
                *max_delay_s = number(v, "seconds")?;
            }
            Ok(())
        },
    },
    Known {
        name: "AUTOTHROTTLE_TARGET_CONCURRENCY",
        default: "1.0",
        meaning: "AutoThrottle aims at latency / this between requests",
        apply: |m, v| {
            let n = number(v, "requests")?;
            if n <= 0.0 {
                return Err("must be a number of requests above 0".into());
            }
            if let Reaction::Scrapy { target_concurrency, .. } = &mut m.reaction {
                *target_concurrency = n;
            }
            Ok(())
        },
    },
    Known {
        name: "ROBOTSTXT_OBEY",
        default: "False",
        meaning: "robots.txt's Allow and Disallow (every page here is allowed); on or off, Scrapy's RobotsTxtMiddleware keeps no Crawl-delay (scrapy#892, open), so a server's crawl_delay is not kept",
        // read for its value only: Reaction::Scrapy keeps no Crawl-delay either way
        apply: |_, v| boolean(v).map(|_| ()),
    },
];

/// The file's assignments, in order, with their lines.
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((k, raw)) = lines.next() {
        let line = uncommented(raw).trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let at = k as u64 + 1;
        let Some((name, value)) = line.split_once('=').filter(|(n, v)| is_name(n.trim()) && !v.starts_with('=')) else {
            let statement = line.split_whitespace().next().unwrap_or("");
            return Err(format!(
                "line {at}: `{}` is not a plain NAME = value assignment ({statement}); Freshlab reads only those: remove the line or set what it computes as a value",
                line.trim()
            ));
        };
        let mut value = value.trim().to_string();
        // a bracketed value runs until its brackets close
        while depth(&value) > 0 {
            let Some((_, more)) = lines.next() else { return Err(format!("line {at}: {} opens a bracket that never closes", name.trim())) };
            value.push(' ');
            value.push_str(uncommented(more).trim());
        }
        entries.push(Entry { name: name.trim().to_string(), value: unquoted(&value), line: at, file: None });
    }
    Ok(entries)
}

fn is_name(text: &str) -> bool {
    !text.is_empty() && text.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') && !text.starts_with(|c: char| c.is_ascii_digit())
}

/// The line without a `#` comment (outside quotes).
fn uncommented(line: &str) -> &str {
    let mut quote = None;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '#') => return &line[..i],
            _ => {}
        }
    }
    line
}

/// Open brackets less closed ones.
fn depth(text: &str) -> i64 {
    text.chars()
        .map(|c| match c {
            '[' | '{' | '(' => 1,
            ']' | '}' | ')' => -1,
            _ => 0,
        })
        .sum()
}

/// A quoted string's text; any other value as written.
fn unquoted(value: &str) -> String {
    let v = value.trim();
    for q in ['"', '\''] {
        if v.len() >= 2 && v.starts_with(q) && v.ends_with(q) {
            return v[1..v.len() - 1].to_string();
        }
    }
    v.to_string()
}
