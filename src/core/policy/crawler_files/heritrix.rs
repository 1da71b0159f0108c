//! Heritrix's `crawler-beans.cxml`: Spring beans, each `<property name=… value=…>`;
//! a setting is named `beanId.property` (`disposition.minDelayMs`). The profile's
//! overrides (`simpleOverrides`, `longerOverrides`: Spring's PropertyOverrideConfigurer)
//! set `beanId.property=value` over the beans. Heritrix revisits a page only where its
//! ReschedulingProcessor (the profile's `rescheduler`, commented out as shipped) runs in
//! the disposition chain with a `rescheduleDelaySeconds` over 0 — over the whole crawl,
//! or a host's sheet; elsewhere the experiment's recrawl interval, given beside the file,
//! stands in for a crawl launched again.

use super::{Entry, Known, Model, Xml, java_properties, number};
use crate::core::policy::adaptive::Intervals;
use crate::core::policy::pushback::Reaction;
use roxmltree::Node;
use std::ops::Range;

/// The shipped profile's DispositionProcessor: delayFactor 5, 3 s to 30 s, Crawl-delay
/// honoured up to 300 s; one connection a host.
pub const SHIPPED: Model = Model {
    intervals: Intervals::FIXED_30_DAYS,
    server_delay_s: 3.0,
    min_delay_s: 3.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 300.0,
    crawl_delay_forced: false,
    crawl_delay_floor: super::DelayFloor::None,
    reaction: Reaction::Heritrix { delay_factor: 5.0, max_delay_s: 30.0 },
    // the recrawl interval, set beside the file
    retry_days: 30.0,
    retry_times: 0,
    retries_429: false,
    retries_503: false,
    by_type: false,
    type_share: 1.0,
    type_lead: [1.0; super::TUNED_TYPES],
};

/// The revisit of a page Heritrix does not reschedule (ReschedulingProcessor's
/// `rescheduleDelaySeconds` at most 0, its default −1): past any horizon.
pub const NO_REVISIT_DAYS: f64 = 1e9;
/// The rescheduler's delay, as the shipped profile names its bean.
pub const RESCHEDULE: &str = "rescheduler.rescheduleDelaySeconds";
/// Its bean's id and class.
const RESCHEDULER: &str = "rescheduler";
const RESCHEDULER_CLASS: &str = "org.archive.crawler.postprocessor.ReschedulingProcessor";
/// The rescheduler's bean as the shipped profile defines it (its delay the default, −1).
pub const RESCHEDULER_BEAN: &str = r#"<bean id="rescheduler" class="org.archive.crawler.postprocessor.ReschedulingProcessor"/>"#;
const DISPOSITION_CHAIN: &str = "org.archive.modules.DispositionChain";

/// The settings read, with the shipped profile's values.
pub const KNOWN: &[Known] = &[
    Known {
        name: "disposition.minDelayMs",
        default: "3000",
        meaning: "the least gap between two requests to a host (ms), after the fetch ends (maxDelayMs caps it too)",
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
        meaning: "the most gap (ms): caps the delay factor's, and the least gap where that is longer (DispositionProcessor.politenessDelayFor)",
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
    // ReschedulingProcessor.innerProcess: rescheduleTime = now + 1000·delay where the
    // delay is over 0, else none; WorkQueueFrontier.processFinish holds the page until
    // then, when it joins its host's queue again
    Known {
        name: RESCHEDULE,
        default: "-1",
        meaning: "ReschedulingProcessor, in the disposition chain: each page fetched again this long after its fetch (seconds), then waiting its turn in its host's queue; -1 (Heritrix's default) or 0: never (over the whole crawl, the recrawl interval given beside the file stands in)",
        apply: |m, v| {
            let seconds: i64 = v.parse().map_err(|_| String::from("must be a whole number of seconds (-1: no revisit)"))?;
            let days = if seconds > 0 { seconds as f64 / 86_400.0 } else { NO_REVISIT_DAYS };
            let i = &mut m.intervals;
            (i.initial, i.min, i.max) = (days, days, days);
            // a page refused (a 429 or 503 is a fetch to Heritrix) is rescheduled alike
            m.retry_days = days;
            Ok(())
        },
    },
];

/// Why Heritrix would not run the file's ReschedulingProcessor (None: it runs): its bean
/// (id `rescheduler`) must be named in a DispositionChain's processors (`<ref
/// bean="rescheduler"/>`, commented out in the shipped profile); a file with no
/// DispositionChain (a part of a job, its other beans left out) is taken to run it.
pub(super) fn rescheduler_idle(doc: &Xml) -> Option<String> {
    let beans = || doc.descendants().filter(|n| n.has_tag_name("bean"));
    let Some(bean) = beans().find(|b| b.attribute("id") == Some(RESCHEDULER) && b.attribute("class") == Some(RESCHEDULER_CLASS)) else {
        return Some(format!(
            "no {RESCHEDULER_CLASS} bean with the id {RESCHEDULER}, so not in this run: define it (the shipped profile has it, commented out) and name it in the disposition chain"
        ));
    };
    let mut chains = beans().filter(|b| b.attribute("class") == Some(DISPOSITION_CHAIN)).peekable();
    let runs = chains.peek().is_none()
        || chains.any(|chain| chain.descendants().any(|n| n.has_tag_name("ref") && [n.attribute("bean"), n.attribute("local")].contains(&Some(RESCHEDULER))));
    (!runs).then(|| {
        format!(
            "the ReschedulingProcessor of line {} is not in the disposition chain, so Heritrix never runs it: not in this run; add <ref bean=\"{RESCHEDULER}\"/> to dispositionProcessors' list, after disposition",
            doc.line(bean)
        )
    })
}

/// `text` with its ReschedulingProcessor running (unchanged where it runs): the bean
/// defined where it is not (before the disposition chain, else before `</beans>`; its
/// delay the default −1, so a page is revisited only where a sheet says when) and `<ref
/// bean="rescheduler"/>` added at the end of each DispositionChain's list that lacks it,
/// where the shipped profile has it commented out. Refused where a bean under its id is of
/// another class, or a ReschedulingProcessor has another id (two would run).
pub fn with_rescheduler(text: &str) -> Result<String, String> {
    let doc = super::xml(text, "Heritrix", "beans")?;
    if rescheduler_idle(&doc).is_none() {
        return Ok(text.to_string());
    }
    let beans = || doc.descendants().filter(|n| n.has_tag_name("bean"));
    let ours = |b: &Node| b.attribute("id") == Some(RESCHEDULER);
    if let Some(other) = beans().find(|b| ours(b) && b.attribute("class") != Some(RESCHEDULER_CLASS)) {
        return Err(format!(
            "its bean of line {} with the id {RESCHEDULER} is a {}, not a ReschedulingProcessor; give it another id to let the tuning add Heritrix's rescheduler",
            doc.line(other),
            other.attribute("class").unwrap_or("bean of no class")
        ));
    }
    // a second ReschedulingProcessor would run beside the file's own
    if let Some(own) = beans().find(|b| b.attribute("class") == Some(RESCHEDULER_CLASS) && !ours(b)) {
        return Err(format!(
            "its ReschedulingProcessor of line {} has the id {}; Freshlab reads and tunes it under the shipped profile's id, {RESCHEDULER}: rename it (and its refs) to let the tuning give each host its revisit",
            doc.line(own),
            own.attribute("id").unwrap_or("(none)")
        ));
    }
    // (position, text) insertions, applied from the last
    let mut inserts: Vec<(usize, String)> = Vec::new();
    let chains: Vec<Node> = beans().filter(|b| b.attribute("class") == Some(DISPOSITION_CHAIN)).collect();
    let indent = |at: usize| text[..at].rsplit('\n').next().filter(|s| s.trim().is_empty()).unwrap_or("").to_string();
    if !beans().any(|b| ours(&b)) {
        let at = chains.first().map_or_else(|| text.rfind("</beans>").ok_or("has no closing </beans> to define the rescheduler before"), |c| Ok(c.range().start))?;
        inserts.push((at, format!("{RESCHEDULER_BEAN}\n{}", indent(at))));
    }
    for chain in &chains {
        let refs = chain.descendants().any(|n| n.has_tag_name("ref") && [n.attribute("bean"), n.attribute("local")].contains(&Some(RESCHEDULER)));
        let Some(list) = chain.descendants().find(|n| n.has_tag_name("list")).filter(|_| !refs) else { continue };
        let end = list.range().start + text[list.range()].rfind("</").ok_or("has a disposition chain's list that does not close")?;
        // on a line of its own, indented as the list's last item, where `</list>` starts its line
        let (close, item) = (indent(end), list.children().rfind(Node::is_element).map(|last| indent(last.range().start)));
        let piece = match item {
            Some(item) if text[..end].ends_with(&format!("\n{close}")) => format!("{}<ref bean=\"{RESCHEDULER}\"/>\n{close}", item.strip_prefix(close.as_str()).unwrap_or("")),
            _ => format!("<ref bean=\"{RESCHEDULER}\"/>"),
        };
        inserts.push((end, piece));
    }
    inserts.sort_by_key(|&(at, _)| std::cmp::Reverse(at));
    let mut out = text.to_string();
    for (at, piece) in inserts {
        out.insert_str(at, &piece);
    }
    Ok(out)
}

/// Every bean property the file sets, in order, with its line; then the overrides',
/// which Spring applies once every bean is defined, wherever they stand in the file, bean
/// after bean. `located`: the text of the properties file the overrides' `location`
/// names (checked by [`located_pairs`]), applied after that bean's own `properties`
/// (Spring's PropertiesLoaderSupport.mergeProperties), or before them with
/// `localOverride` true; its entries name it.
pub(super) fn entries(doc: &Xml, located: Option<(&str, &str)>) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    // sheets, their associations and the associations' rules are read by heritrix_sheets
    let sheet_beans = super::heritrix_sheets::sheet_beans(doc);
    for bean in doc.descendants().filter(|n| n.has_tag_name("bean") && !sheet_beans.contains(&n.id())) {
        let id = bean.attribute("id").map(str::to_string).unwrap_or_else(|| bean.attribute("class").and_then(|c| c.rsplit('.').next()).unwrap_or("bean").to_string());
        for property in bean.children().filter(|n| n.has_tag_name("property")) {
            let line = doc.line(property);
            let Some(name) = property.attribute("name") else { return Err(format!("line {line}: a <property> without a name attribute")) };
            if overrides_of(bean, property).is_some() || (located.is_some() && location_of(bean).is_some()) {
                continue;
            }
            // a value attribute, or a <value> child; references and lists are not read
            let value = property
                .attribute("value")
                .map(str::to_string)
                .or_else(|| property.children().find(|n| n.has_tag_name("value")).and_then(|n| n.text()).map(|t| t.trim().to_string()));
            entries.push(Entry { name: format!("{id}.{name}"), value: value.unwrap_or_default(), line, file: None, fixed: false, null: false });
        }
    }
    for bean in doc.descendants().filter(|n| n.has_tag_name("bean")) {
        let local: Vec<Entry> = bean_overrides(doc, bean)?.into_iter().map(|o| o.entry).collect();
        let from_file: Vec<Entry> = match (located, location_of(bean)) {
            (Some((name, text)), Some(_)) => {
                located_pairs(text)?.into_iter().map(|p| Entry { name: p.key, value: p.value, line: p.line, file: Some(name.to_string()), fixed: false, null: false }).collect()
            }
            _ => Vec::new(),
        };
        let local_override = bean.children().any(|p| p.has_tag_name("property") && p.attribute("name") == Some("localOverride") && p.attribute("value") == Some("true"));
        if local_override {
            entries.extend(from_file.into_iter().chain(local));
        } else {
            entries.extend(local.into_iter().chain(from_file));
        }
    }
    Ok(entries)
}

/// The `location` an overrides bean reads its properties from (a file beside the job).
fn location_of<'a>(bean: Node<'a, '_>) -> Option<&'a str> {
    if !bean.attribute("class").is_some_and(|c| c.ends_with("PropertyOverrideConfigurer")) {
        return None;
    }
    bean.children().find(|p| p.has_tag_name("property") && p.attribute("name") == Some("location")).and_then(|p| p.attribute("value"))
}

/// The overrides file the configuration names (a PropertyOverrideConfigurer's
/// `location`): None without one; refused where it names several (Freshlab reads one).
pub fn location(text: &str) -> Result<Option<String>, String> {
    let doc = super::xml(text, "Heritrix", "beans")?;
    let named: Vec<(String, u64)> = doc.descendants().filter(|n| n.has_tag_name("bean")).filter_map(|b| location_of(b).map(|l| (l.to_string(), doc.line(b)))).collect();
    match &named[..] {
        [] => Ok(None),
        [(one, _)] => Ok(Some(one.clone())),
        many => Err(format!(
            "names {} overrides files ({}); Freshlab reads one beside it: paste the others' lines into an overrides' <value>",
            many.len(),
            many.iter().map(|(l, line)| format!("{l}, line {line}")).collect::<Vec<_>>().join("; ")
        )),
    }
}

/// An overrides file's pairs (Java's properties format), refused with the line that
/// cannot be read.
pub fn located_pairs(text: &str) -> Result<Vec<java_properties::Pair>, String> {
    if text.len() > super::MAX_BYTES {
        return Err(format!("is {} KB, over the {} KB a crawler's configuration may have", text.len() >> 10, super::MAX_BYTES >> 10));
    }
    java_properties::pairs(text).map_err(|(k, why)| format!("line {k}: {why}"))
}

/// One override: `beanId.property` and its value, and where the file gives it.
pub struct Override {
    pub entry: Entry,
    pub at: OverrideAt,
}

/// Where an override stands in the file: the lines of a `<value>`'s properties text that
/// give it (the first's row, how many, and the text's bytes), or a `<prop key=…>` element
/// (its bytes).
pub enum OverrideAt {
    Lines { row: u64, count: u64, within: Range<usize> },
    Prop(Range<usize>),
}

/// Spring's PropertyOverrideConfigurer beans' `properties`, in the file's order: a
/// `<value>` in Java's properties format (java.util.Properties.load: `key=value`,
/// `key: value` or `key value`, `#` and `!` comments, `\` continuing a line), or
/// `<props>` of `<prop key=…>value</prop>`. A `location` (a file beside the job) is read
/// by [`entries`] when given.
pub(super) fn overrides(doc: &Xml) -> Result<Vec<Override>, String> {
    let mut found = Vec::new();
    for bean in doc.descendants().filter(|n| n.has_tag_name("bean")) {
        found.extend(bean_overrides(doc, bean)?);
    }
    Ok(found)
}

/// One bean's overrides, as [`overrides`] reads them (none: not an overrides bean).
fn bean_overrides(doc: &Xml, bean: Node) -> Result<Vec<Override>, String> {
    let mut found = Vec::new();
    for property in bean.children().filter(|n| n.has_tag_name("property")) {
        match overrides_of(bean, property) {
            Some(Given::Text(value)) => {
                let Some(text) = value.first_child().filter(Node::is_text) else { continue };
                let first = doc.line(text);
                let pairs = java_properties::pairs(text.text().unwrap_or_default()).map_err(|(k, why)| format!("line {}: the overrides' properties: {why}", first + k - 1))?;
                for p in pairs {
                    let at = first + p.line - 1;
                    found.push(Override {
                        entry: Entry { name: p.key, value: p.value, line: at, file: None, fixed: false, null: false },
                        at: OverrideAt::Lines { row: at, count: p.lines, within: text.range() },
                    });
                }
            }
            Some(Given::Props(props)) => {
                for prop in props.children().filter(|n| n.has_tag_name("prop")) {
                    let line = doc.line(prop);
                    let Some(name) = prop.attribute("key") else { return Err(format!("line {line}: a <prop> without a key attribute; give it key=\"bean.property\"")) };
                    let value = prop.text().unwrap_or_default().trim().to_string();
                    found.push(Override { entry: Entry { name: name.into(), value, line, file: None, fixed: false, null: false }, at: OverrideAt::Prop(prop.range()) });
                }
            }
            None => {}
        }
    }
    Ok(found)
}

/// What an override bean's `properties` holds.
enum Given<'a, 'input> {
    /// The `<value>` element, its text in Java's properties format.
    Text(Node<'a, 'input>),
    /// The `<props>` element.
    Props(Node<'a, 'input>),
}

/// `property` of `bean` as overrides (None: not a PropertyOverrideConfigurer's
/// `properties` given in the file).
fn overrides_of<'a, 'input>(bean: Node<'a, 'input>, property: Node<'a, 'input>) -> Option<Given<'a, 'input>> {
    if !bean.attribute("class").is_some_and(|c| c.ends_with("PropertyOverrideConfigurer")) || property.attribute("name") != Some("properties") {
        return None;
    }
    let child = |tag: &str| property.children().find(|n| n.has_tag_name(tag));
    child("value").map(Given::Text).or_else(|| child("props").map(Given::Props))
}

/// What an entry no known setting names does, where Heritrix reads it and Freshlab
/// cannot (None: not read here).
pub fn aside(e: &Entry) -> Option<String> {
    if e.name.ends_with(".location") {
        return Some("a properties file beside the job whose lines Spring sets over the beans: not given here, so its settings are not in this run; give it beside the configuration (--heritrix-overrides FILE, the view's overrides box) or paste its lines into the overrides' <value>".into());
    }
    // a setting Freshlab reads, on a bean the file names otherwise than the shipped profile
    let (bean, property) = e.name.split_once('.')?;
    let known = KNOWN.iter().find(|k| k.name.split_once('.').is_some_and(|(_, p)| p == property))?;
    let (shipped, _) = known.name.split_once('.')?;
    Some(format!(
        "{property} of the bean {bean}: Freshlab reads it (and its tuning writes it) on the shipped profile's bean id, {shipped}, so it is not in this run; give the bean that id (and its refs) to run it"
    ))
}
