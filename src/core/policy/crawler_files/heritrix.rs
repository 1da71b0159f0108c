//! Heritrix's `crawler-beans.cxml`: Spring beans, each `<property name=… value=…>`;
//! a setting is named `beanId.property` (`disposition.minDelayMs`). Heritrix has no
//! revisit rule of its own: the experiment's recrawl interval is given beside it.

use super::{Entry, Known, Model, number};
use crate::core::policy::adaptive::Intervals;
use crate::core::policy::pushback::Reaction;

/// The shipped profile's DispositionProcessor: delayFactor 5, 3 s to 30 s, Crawl-delay
/// honoured up to 300 s; one connection a host.
pub const SHIPPED: Model = Model {
    intervals: Intervals::FIXED_30_DAYS,
    server_delay_s: 3.0,
    min_delay_s: 3.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 300.0,
    reaction: Reaction::Heritrix { delay_factor: 5.0, max_delay_s: 30.0 },
    // the recrawl interval, set beside the file
    retry_days: 30.0,
    retry_times: 0,
    retries_429: false,
    retries_503: false,
};

/// The settings read, with the shipped profile's values.
pub const KNOWN: &[Known] = &[
    Known {
        name: "disposition.minDelayMs",
        default: "3000",
        meaning: "the least gap between two requests to a host (ms), after the fetch ends",
        apply: |m, v| {
            m.server_delay_s = number(v, "milliseconds")? / 1000.0;
            m.min_delay_s = m.server_delay_s;
            Ok(())
        },
    },
    Known {
        name: "disposition.delayFactor",
        default: "5.0",
        meaning: "the gap is this × the fetch's duration, within the least and the most",
        apply: |m, v| {
            if let Reaction::Heritrix { delay_factor, .. } = &mut m.reaction {
                *delay_factor = number(v, "times the fetch time")?;
            }
            Ok(())
        },
    },
    Known {
        name: "disposition.maxDelayMs",
        default: "30000",
        meaning: "the most gap the delay factor gives (ms)",
        apply: |m, v| {
            if let Reaction::Heritrix { max_delay_s, .. } = &mut m.reaction {
                *max_delay_s = number(v, "milliseconds")? / 1000.0;
            }
            Ok(())
        },
    },
    Known {
        name: "disposition.respectCrawlDelayUpToSeconds",
        default: "300",
        meaning: "robots.txt Crawl-delay kept up to this (seconds); a longer one is cut to it",
        apply: |m, v| {
            m.crawl_delay_cap_s = number(v, "seconds")?;
            Ok(())
        },
    },
];

/// Every bean property the file sets, in order, with its line.
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("is not XML that Heritrix can read: {e}"))?;
    let mut entries = Vec::new();
    for bean in doc.descendants().filter(|n| n.has_tag_name("bean")) {
        let id = bean.attribute("id").map(str::to_string).unwrap_or_else(|| bean.attribute("class").and_then(|c| c.rsplit('.').next()).unwrap_or("bean").to_string());
        for property in bean.children().filter(|n| n.has_tag_name("property")) {
            let line = u64::from(doc.text_pos_at(property.range().start).row);
            let Some(name) = property.attribute("name") else { return Err(format!("line {line}: a <property> without a name attribute")) };
            // a value attribute, or a <value> child; references and lists are not read
            let value = property
                .attribute("value")
                .map(str::to_string)
                .or_else(|| property.children().find(|n| n.has_tag_name("value")).and_then(|n| n.text()).map(|t| t.trim().to_string()));
            entries.push(Entry { name: format!("{id}.{name}"), value: value.unwrap_or_default(), line });
        }
    }
    Ok(entries)
}
