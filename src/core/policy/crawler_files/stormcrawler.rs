//! Apache StormCrawler's `crawler-conf.yaml`: a YAML map under `config:` (or at the
//! root) of dotted names, over crawler-default.yaml.

use super::yaml_map::{self, Kind, Node, Pair};
use super::{DelayFloor, Entry, Getter, Known, Loaded, MINUTE, Model, boolean, number, rate, whole};
use crate::core::policy::adaptive::{Intervals, Rule};
use crate::core::policy::pushback::{Reaction, StormBackoff};

/// crawler-default.yaml and AdaptiveScheduler's defaults: DefaultScheduler every day;
/// 60 minutes to two weeks, rates 0.5; a 1 s server delay, one thread per queue,
/// Crawl-delay honoured up to 30 s; Retry-After honoured up to a day, 10 % jitter on
/// the back-off.
pub const SHIPPED: Model = Model {
    intervals: Intervals { rule: Rule::Fixed, ..Intervals::STORMCRAWLER },
    server_delay_s: 1.0,
    min_delay_s: 0.0,
    threads_per_queue: 1.0,
    crawl_delay_cap_s: 30.0,
    crawl_delay_forced: false,
    crawl_delay_floor: DelayFloor::None,
    reaction: Reaction::Stormcrawler { max_retry_after_s: 86_400.0, jitter: 0.1, backoff: StormBackoff::SHIPPED },
    // fetchInterval.fetch.error: 120 minutes
    retry_days: 120.0 * MINUTE,
    retry_times: 0,
    retries_429: false,
    retries_503: false,
    by_type: false,
    type_share: 1.0,
    type_lead: [1.0; super::TUNED_TYPES],
};

/// The fetcher's settings, with its 1.0 s server delay.
pub const FETCHER: [Known; 5] = super::fetcher_settings("1.0");

/// The settings read, with the shipped values.
pub const KNOWN: &[Known] = &[
    Known {
        name: "scheduler.class",
        default: "org.apache.stormcrawler.persistence.DefaultScheduler",
        meaning: "the revisit rule: DefaultScheduler (a fixed interval) or AdaptiveScheduler",
        apply: |m, v| {
            m.intervals.rule = match v.rsplit('.').next() {
                Some("DefaultScheduler") => Rule::Fixed,
                Some("AdaptiveScheduler") => Rule::Stormcrawler,
                _ => return Err("must be a DefaultScheduler or an AdaptiveScheduler class (the schedulers Freshlab models)".into()),
            };
            Ok(())
        },
    },
    Known {
        name: "fetchInterval.default",
        default: "1440",
        meaning: "every page's first interval (minutes; -1: fetched once, never again); the default scheduler's only one",
        // DefaultScheduler.schedule: -1 gives no next fetch date
        apply: |m, v| {
            if v == "-1" {
                if m.intervals.rule != Rule::Fixed {
                    return Err("-1 (never refetch) is read with the DefaultScheduler only: give the AdaptiveScheduler a first interval in minutes".into());
                }
                m.intervals.initial = f64::INFINITY;
                return Ok(());
            }
            m.intervals.initial = number(v, "minutes, or -1 never to refetch")? * MINUTE;
            Ok(())
        },
    },
    Known {
        name: "scheduler.adaptive.fetchInterval.min",
        default: "60",
        meaning: "the shortest adaptive interval (minutes)",
        apply: |m, v| {
            m.intervals.min = number(v, "minutes")? * MINUTE;
            Ok(())
        },
    },
    Known {
        name: "scheduler.adaptive.fetchInterval.max",
        default: "20160",
        meaning: "the longest adaptive interval (minutes)",
        apply: |m, v| {
            m.intervals.max = number(v, "minutes")? * MINUTE;
            Ok(())
        },
    },
    Known {
        name: "scheduler.adaptive.fetchInterval.rate.incr",
        default: "0.5",
        meaning: "unchanged: the interval × (1 + incr)",
        apply: |m, v| {
            m.intervals.inc_rate = rate(v)?;
            Ok(())
        },
    },
    Known {
        name: "scheduler.adaptive.fetchInterval.rate.decr",
        default: "0.5",
        meaning: "changed: (1 − decr) × the interval + decr × the minimum",
        apply: |m, v| {
            m.intervals.dec_rate = rate(v)?;
            Ok(())
        },
    },
    Known {
        name: "fetchInterval.fetch.error",
        default: "120",
        meaning: "a page whose fetch failed (a 429 or 503) is tried again this much later (minutes; -1: never)",
        apply: |m, v| {
            if v == "-1" {
                m.retry_days = f64::INFINITY;
                return Ok(());
            }
            let minutes = number(v, "minutes")?;
            if minutes <= 0.0 {
                return Err("must be a number of minutes above 0, or -1 never to try the page again".into());
            }
            m.retry_days = minutes * MINUTE;
            Ok(())
        },
    },
    Known {
        name: "fetchInterval.error",
        default: "-1",
        meaning: "a page answering an error (404 and the like) is refetched this much later (minutes; -1: never): Freshlab's servers answer none, so it sets nothing here",
        apply: |_, _| Ok(()),
    },
    Known {
        name: "urlfrontier.max.retry.after",
        default: "86400",
        meaning: "a 429 or 503's Retry-After is honoured up to this (seconds; −1: no cap)",
        apply: |m, v| {
            let s: f64 = v.parse().map_err(|_| String::from("must be a number of seconds, or -1 for no cap"))?;
            if !(s == -1.0 || (s.is_finite() && s >= 0.0)) {
                return Err("must be a number of seconds, or -1 for no cap".into());
            }
            if let Reaction::Stormcrawler { max_retry_after_s, .. } = &mut m.reaction {
                *max_retry_after_s = s;
            }
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.jitter",
        default: "0.1",
        meaning: "each block, Retry-After's too, is lengthened by a random share up to this",
        apply: |m, v| {
            let share = number(v, "a share (0.1: up to 10 % longer)").map_err(|e| format!("{e}; HostBackoff raises a negative one to 0"))?;
            if let Reaction::Stormcrawler { jitter, .. } = &mut m.reaction {
                *jitter = share;
            }
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.base.secs",
        default: "60",
        meaning: "a 429 or 503 without Retry-After blocks the host this long (seconds; 0: no block without Retry-After)",
        apply: |m, v| {
            let base = whole(v, "seconds", 0, u64::MAX)? as f64;
            backoff(m).base_s = base;
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.factor",
        default: "2.0",
        meaning: "each new incident multiplies the block by this (its whole seconds kept)",
        apply: |m, v| {
            let factor = number(v, "times the last block")?;
            if factor < 1.0 {
                return Err("must be at least 1: HostBackoff raises a factor below 1 to 1 (no escalation); write 1 for that".into());
            }
            backoff(m).factor = factor;
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.max.secs",
        default: "86400",
        meaning: "the longest block (seconds)",
        apply: |m, v| {
            let most = whole(v, "seconds", 0, u64::MAX)? as f64;
            let b = backoff(m);
            if most < b.base_s {
                return Err(format!("is below urlfrontier.backoff.base.secs ({}): HostBackoff raises it to the base; write {} or more", b.base_s, b.base_s));
            }
            b.max_s = most;
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.decay.secs",
        default: "1800",
        meaning: "a host quiet this long after its block ends is forgiven, its next incident blocked from the base again (seconds)",
        apply: |m, v| {
            backoff(m).decay_s = whole(v, "seconds", 0, u64::MAX)? as f64;
            Ok(())
        },
    },
    Known {
        name: STATUS_CODES,
        default: "429, 503",
        meaning: "the status codes the back-off acts on (Freshlab's servers refuse with 429 or 503, as the run's refusal setting says)",
        apply: |m, v| {
            let codes: Vec<&str> = v.split(',').map(str::trim).filter(|c| !c.is_empty()).collect();
            let b = backoff(m);
            b.on_429 = codes.contains(&"429");
            b.on_503 = codes.contains(&"503");
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.backoff.on.exceptions",
        default: "false",
        meaning: "fetch exceptions (timeouts, lost connections) count as incidents too: Freshlab's servers raise none, so it changes nothing here",
        apply: |_, v| boolean(v).map(|_| ()),
    },
    Known {
        name: "urlfrontier.robots.crawl.delay.enabled",
        default: "false",
        meaning: "with fetcher.max.crawl.delay.force, a host whose Crawl-delay is over fetcher.max.crawl.delay has its frontier queue paced at that Crawl-delay (whole seconds rounded up) instead of fetched at the cap (PR #2000; the first hand-outs before the pace is set are not modelled)",
        apply: |m, v| {
            let on = boolean(v)?;
            backoff(m).paces_up_to_s = if on { PACING_MOST_S } else { 0.0 };
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.robots.delay.max.secs",
        default: "86400",
        meaning: "the longest pace robots pacing sets (seconds)",
        apply: |m, v| {
            let most = whole(v, "seconds", 1, u64::MAX).map_err(|e| format!("{e}; CrawlDelayPolicy raises 0 to 1"))? as f64;
            let b = backoff(m);
            if b.paces_up_to_s > 0.0 {
                b.paces_up_to_s = most;
            }
            Ok(())
        },
    },
    Known {
        name: "urlfrontier.robots.delay.decay.secs",
        default: "1800",
        meaning: "an unchanged pace is sent to the frontier again after this (seconds): a host's Crawl-delay does not change in a run, so it changes nothing here",
        apply: |_, v| whole(v, "seconds", 0, u64::MAX).map(|_| ()),
    },
    Known {
        name: "urlfrontier.max.urls.per.bucket",
        default: "10",
        meaning: "URLs the spout takes from one frontier queue at a time: Freshlab's queue hands out one at a time, which is what robots pacing requires (1)",
        apply: |_, v| whole(v, "URLs", 1, u64::MAX).map(|_| ()),
    },
    Known {
        name: "partition.url.mode",
        default: "byHost",
        meaning: "what one frontier queue holds: a host, a domain or an IP address. Freshlab's queue is a page's server as your page list names it (its URL's host where the row names none); robots pacing requires byHost",
        apply: |_, v| match v {
            "byHost" | "byDomain" | "byIP" => Ok(()),
            _ => Err("must be byHost, byDomain or byIP".into()),
        },
    },
    Known { name: "metadata.persist", default: SHIPPED_PERSIST, meaning: "metadata kept in the status index", apply: |_, _| Ok(()) },
    Known {
        name: "metadata.transfer",
        default: "",
        meaning: "metadata passed on to the outlinks and kept: with metadata.persist, what AdaptiveScheduler and the back-off find (metadata.persist's row says what)",
        apply: |_, _| Ok(()),
    },
    Known {
        name: "protocol.md.prefix",
        default: "protocol.",
        meaning: "the prefix of a response header's key in a page's metadata: the back-off reads Retry-After as this + retry-after",
        apply: |_, _| Ok(()),
    },
    Known {
        name: "fetcher.max.crawl.delay.force",
        default: "false",
        meaning: "a robots.txt Crawl-delay over fetcher.max.crawl.delay: the host fetched at that cap (true), or skipped, its pages marked ERROR (false)",
        // FetcherBolt: fiq.crawlDelay = maxCrawlDelay where maxCrawlDelayForce
        apply: |m, v| {
            m.crawl_delay_forced = boolean(v)?;
            Ok(())
        },
    },
    Known {
        name: "fetcher.server.delay.force",
        default: "false",
        meaning: "a robots.txt Crawl-delay shorter than fetcher.server.delay: raised to it (true), or kept (false)",
        // FetcherBolt: fiq.crawlDelay = fetchQueues.crawlDelay where crawlDelayForce (PR #549)
        apply: |m, v| {
            m.crawl_delay_floor = if boolean(v)? { DelayFloor::ServerDelay } else { DelayFloor::None };
            Ok(())
        },
    },
];

/// The file's settings, in order, with their lines; a key given twice is kept twice
/// (the last counts, as SnakeYAML, StormCrawler's reader, keeps it).
pub fn entries(text: &str) -> Result<Vec<Entry>, String> {
    let root = yaml_map::read(text).map_err(|e| format!("line {}: is not YAML that StormCrawler can read: {e}", e.marker().line()))?;
    let pairs = match root {
        None => return Ok(Vec::new()),
        Some(Node::Map(pairs)) => pairs,
        Some(_) => return Err(NOT_A_MAP.into()),
    };
    includes(&pairs)?;
    // SnakeYAML keeps the last `config:` too
    let pairs = match pairs.iter().rev().find(|p| p.key.as_deref() == Some("config")) {
        None => pairs,
        Some(Pair { value: Node::Map(settings), .. }) => settings.clone(),
        Some(_) => return Err("`config:` is not a map of settings".into()),
    };
    let scalar = |v: &Node| match v {
        Node::Scalar(s, _) => Some(s.clone()),
        _ => None,
    };
    let mut entries = Vec::new();
    for Pair { key, line, value } in pairs {
        let Some(name) = key else { continue };
        let getter = getter(&name);
        let null = matches!(value, Node::Scalar(_, Kind::Null)) && getter != Some(Getter::List);
        if let (Some(getter), Node::Scalar(text, kind)) = (getter, &value) {
            typed(getter, text, *kind).map_err(|why| {
                // (FetchItemQueues casts a pattern's value itself)
                let why = if name.starts_with(super::storm_threads::PREFIX) { why.replace(confutils(getter), "FetchItemQueues' cast to Number") } else { why };
                format!("line {line}: {name} {why}")
            })?;
        }
        let value = match &value {
            // a list of names (metadata.persist): its items (a list where a number is
            // asked for is then refused showing them)
            Node::List(items) => items.iter().filter_map(scalar).collect::<Vec<_>>().join(", "),
            // maps (metrics consumers) are settings Freshlab does not read
            v => scalar(v).unwrap_or_default(),
        };
        entries.push(Entry { name, value, line, file: None, fixed: false, null });
    }
    Ok(entries)
}

/// Its name in StormCrawler's code: ConfUtils' getters, or a list
/// (ConfUtils.loadListFromConf; HostBackoff's status codes alike).
pub fn confutils(getter: Getter) -> &'static str {
    match getter {
        Getter::Int => "ConfUtils.getInt",
        Getter::Long => "ConfUtils.getLong",
        Getter::Float => "ConfUtils.getFloat",
        Getter::Boolean => "ConfUtils.getBoolean",
        Getter::Text => "ConfUtils.getString",
        Getter::List => "ConfUtils.loadListFromConf",
    }
}

/// The getter StormCrawler reads setting `name` with from its configuration map (each
/// checked in its sources; None: a setting Freshlab does not read); a custom interval
/// (`fetchInterval.key=value`) through DefaultScheduler's getInt.
pub fn getter(name: &str) -> Option<Getter> {
    Some(match name {
        // DefaultScheduler.init, AdaptiveScheduler.init
        "fetchInterval.default" | "fetchInterval.fetch.error" | "fetchInterval.error" | "scheduler.adaptive.fetchInterval.min" | "scheduler.adaptive.fetchInterval.max" => {
            Getter::Int
        }
        "scheduler.adaptive.fetchInterval.rate.incr" | "scheduler.adaptive.fetchInterval.rate.decr" => Getter::Float,
        // FetcherBolt.FetchItemQueues and its fetch threads
        "fetcher.server.delay" | "fetcher.server.min.delay" => Getter::Float,
        "fetcher.threads.per.queue" | "fetcher.max.crawl.delay" => Getter::Int,
        "fetcher.max.crawl.delay.force" | "fetcher.server.delay.force" => Getter::Boolean,
        "fetcher.queue.mode" | "partition.url.mode" | "scheduler.class" | "protocol.md.prefix" => Getter::Text,
        // HostBackoff, CrawlDelayPolicy, QueueRegulatorBolt (urlfrontier module)
        "urlfrontier.max.retry.after"
        | "urlfrontier.backoff.base.secs"
        | "urlfrontier.backoff.max.secs"
        | "urlfrontier.backoff.decay.secs"
        | "urlfrontier.robots.delay.max.secs"
        | "urlfrontier.robots.delay.decay.secs" => Getter::Long,
        "urlfrontier.backoff.factor" | "urlfrontier.backoff.jitter" => Getter::Float,
        "urlfrontier.backoff.on.exceptions" | "urlfrontier.robots.crawl.delay.enabled" => Getter::Boolean,
        "urlfrontier.max.urls.per.bucket" => Getter::Int,
        // MetadataTransfer; HostBackoff.statusCodesFromConf
        "metadata.persist" | "metadata.transfer" | STATUS_CODES => Getter::List,
        n if custom(n, "-1").is_ok_and(|c| c.is_some()) => Getter::Int,
        // FetchItemQueues: ((Number) value).intValue(), as getInt casts
        n if n.starts_with(super::storm_threads::PREFIX) => Getter::Int,
        _ => return None,
    })
}

/// Whether StormCrawler's getter takes a scalar of this type, or why not: the numeric
/// getters cast to Number and getBoolean to Boolean, getString to String (a
/// ClassCastException stops the topology at start-up on any other type); Java's int
/// wraps round past 2³¹ − 1, its long past 2⁶³ − 1; a list given as one string is one
/// item, not split at its commas.
fn typed(getter: Getter, text: &str, kind: Kind) -> Result<(), String> {
    let stops = |what: &str, fix: &str| {
        Err(format!("is {what} (\"{text}\"), which StormCrawler's {} cannot read: the topology stops at start-up with a ClassCastException; {fix}", confutils(getter)))
    };
    let number = matches!(getter, Getter::Int | Getter::Long | Getter::Float);
    match (getter, kind) {
        (_, Kind::Null) => Ok(()),
        // a placeholder Flux fills in: refused where the value is read, saying so
        (_, Kind::Text) if text.contains("${") => Ok(()),
        (Getter::Int | Getter::Long | Getter::Float, Kind::Text) if text.trim().parse::<f64>().is_ok() => stops("quoted, so text", "write the number unquoted"),
        (Getter::Int | Getter::Long | Getter::Float, Kind::Text) => stops("text", "write a number"),
        (_, Kind::Bool) if number => stops("a YAML boolean", "write a number"),
        (Getter::Int, Kind::Int) if text.parse::<i32>().is_err() => {
            Err(format!("is {text}, past Java's int (-2147483648 to 2147483647), which {} wraps round: write a smaller number", confutils(getter)))
        }
        (Getter::Long, Kind::Int) if text.parse::<i64>().is_err() => Err(format!("is {text}, past Java's long, which {} wraps round: write a smaller number", confutils(getter))),
        (Getter::Boolean, Kind::Text) if matches!(text.trim(), "true" | "false") => stops("quoted, so text", "write true or false unquoted"),
        (Getter::Boolean, Kind::Text | Kind::Int | Kind::Float) => stops("not a boolean", "write true or false"),
        (Getter::Text, Kind::Int | Kind::Float | Kind::Bool) => stops("a YAML number or boolean, not text", "quote it"),
        (Getter::List, Kind::Text) if text.contains(',') => Err(format!(
            "is one string (\"{text}\"), which {} reads as one item, not split at its commas (so it names nothing): write a YAML list, [{}]",
            confutils(getter),
            text.split(',').map(str::trim).collect::<Vec<_>>().join(", ")
        )),
        _ => Ok(()),
    }
}

/// The value a numeric getter makes of a plain number (None: the number as written):
/// getInt's and getLong's intValue and longValue keep a float's whole part, toward 0
/// (`-1.0` is -1; past the type's range, its end: Rust's `as` saturates as Java's d2i
/// and d2l do).
pub fn cast(name: &str, value: &str) -> Option<String> {
    let value = value.trim();
    let v: f64 = value.parse().ok().filter(|v: &f64| v.is_finite() && value.parse::<i64>().is_err())?;
    match getter(name)? {
        Getter::Int => Some((v as i32).to_string()),
        Getter::Long => Some((v as i64).to_string()),
        _ => None,
    }
}

/// A Flux topology's `includes:` (FluxParser.processIncludes: each included file's
/// `config:` read over this file's where `override: true`, under it otherwise): the
/// shipped crawler-default.yaml read under this file is what Freshlab's defaults are;
/// any other include is refused with its line, its settings being in a file not loaded.
fn includes(root: &[Pair]) -> Result<(), String> {
    let Some(Pair { value, line, .. }) = root.iter().rev().find(|p| p.key.as_deref() == Some("includes")) else { return Ok(()) };
    let items = match value {
        Node::List(items) => items.as_slice(),
        Node::Scalar(s, _) if s.is_empty() => &[],
        _ => return Err(format!("line {line}: `includes:` is not a list of included files (Flux's resource, file and override)")),
    };
    for item in items {
        let Node::Map(fields) = item else { return Err(format!("line {line}: an item of `includes:` is not a map of resource, file and override")) };
        let at = fields.first().map_or(*line, |f| f.line);
        let field = |name: &str| match fields.iter().rev().find(|f| f.key.as_deref() == Some(name)).map(|f| &f.value) {
            Some(Node::Scalar(s, _)) => Ok(Some(s.as_str())),
            None => Ok(None),
            Some(_) => Err(format!("line {at}: the include's {name} is not a single value")),
        };
        let flag = |name: &str| match field(name)? {
            None => Ok(false),
            Some(v) => boolean(v).map_err(|why| format!("line {at}: the include's {name} {why}")),
        };
        let Some(file) = field("file")? else { return Err(format!("line {at}: an include names no file")) };
        let (resource, over) = (flag("resource")?, flag("override")?);
        if resource && !over && file.trim_start_matches('/') == "crawler-default.yaml" {
            continue;
        }
        let what = if resource { "the resource" } else { "the file" };
        if !root.iter().any(|p| p.key.as_deref() == Some("config")) {
            return Err(format!("line {at}: includes {what} {file}, and this file has no config: of its own: load {file} itself"));
        }
        let order = if over { "over this file's (override: true)" } else { "under this file's (override: false: this file's own win)" };
        return Err(format!(
            "line {at}: includes {what} {file}, whose config: Flux reads {order}; Freshlab reads one file, so its settings would be lost: load one file holding both files' settings (the included file's winning where override is true), with this include removed"
        ));
    }
    Ok(())
}

/// The setting of the status codes StormCrawler's back-off acts on; its row says what
/// the back-off sees ([`queue_stream`]).
pub const STATUS_CODES: &str = "urlfrontier.backoff.status.codes";

/// Robots pacing's most when its own setting is silent (`urlfrontier.robots.delay.max.secs`).
const PACING_MOST_S: f64 = 86_400.0;

/// crawler-default.yaml's `metadata.persist`, its items as Freshlab shows a list's.
const SHIPPED_PERSIST: &str = "_redirTo, error.cause, error.source, isSitemap, isFeed";

/// The model's StormCrawler back-off (its reaction is StormCrawler's).
fn backoff(m: &mut Model) -> &mut StormBackoff {
    match &mut m.reaction {
        Reaction::Stormcrawler { backoff, .. } => backoff,
        _ => unreachable!("StormCrawler's settings read into StormCrawler's model"),
    }
}

/// What the QueueRegulatorBolt sees of a refusal, set in `model`: the status updater
/// emits a page's metadata after MetadataTransfer.filter (the keys of `metadata.transfer`
/// and `metadata.persist`, a key ending in `*` keeping those it begins), and the bolt
/// blocks on `fetch.statusCode` and reads the header at `protocol.md.prefix` +
/// `retry-after` (its javadoc: "with the default configuration neither … survive the
/// filter and this bolt never blocks anything"). Returns what it sees, for the status
/// codes' row.
pub fn queue_stream(entries: &[Entry], model: &mut Model) -> Result<String, String> {
    let last = |name: &str| entries.iter().rev().find(|e| e.name == name).map(|e| e.value.as_str());
    let (kept, transfer) = metadata_lists(entries);
    let keeps = |key: &str| lists(&kept, key);
    pacing(entries, model, keeps(ROBOTS_DELAY), lists(&transfer, ROBOTS_DELAY))?;
    let prefix = last("protocol.md.prefix").unwrap_or("protocol.");
    let header = format!("{prefix}retry-after");
    let b = backoff(model);
    b.sees_refusals = keeps("fetch.statusCode");
    b.sees_retry_after = keeps(&header);
    let class = match last("metadata.transfer.class") {
        Some(class) if !class.trim().is_empty() => format!(" (as the shipped MetadataTransfer filters; your {class} decides it in the crawler)"),
        _ => String::new(),
    };
    let (lists, keep) = match last("metadata.persist") {
        Some(_) => ("your metadata.persist and metadata.transfer", "keep"),
        None => ("crawler-default.yaml's metadata.persist", "keeps"),
    };
    Ok(match (b.sees_refusals, b.sees_retry_after) {
        (true, true) => format!("; the QueueRegulatorBolt sees them: {lists} {keep} fetch.statusCode and {header}{class} (the bolt must be in your topology)"),
        (true, false) => format!(
            "; {lists} {keep} fetch.statusCode but not {header}{class}: the QueueRegulatorBolt sees the refusals, not their Retry-After, and the run blocks every one by the back-off (add {header} to metadata.persist to honour it)"
        ),
        (false, _) => format!(
            "; {lists} {keep} no fetch.statusCode{class}: the QueueRegulatorBolt sees no refusal and never blocks a queue, as its javadoc warns, and the run backs off from none (add fetch.statusCode and {header} to metadata.persist)"
        ),
    })
}

/// The `metadata.persist` a tuned file writes for `tuned` (None: the loaded file's keeps
/// what it needs): the list as `loaded` keeps it, with what AdaptiveScheduler needs
/// (`signature`, `fetchInterval`) where `tuned` adapts, and what the QueueRegulatorBolt
/// needs (`fetch.statusCode`, the Retry-After header's key) where `tuned` sees the
/// refusals. The parse filters' MD5SignatureParseFilter, which computes the signature,
/// is in another file: the tuned file's comment asks for it.
pub fn kept_for(loaded: &Loaded, tuned: &Model) -> Option<(&'static str, String)> {
    let value = |name: &str| loaded.settings.iter().find(|s| s.name == name).map_or("", |s| s.value.as_str());
    let persist: Vec<&str> = keys(value("metadata.persist")).collect();
    let kept: Vec<&str> = persist.iter().copied().chain(keys(value("metadata.transfer"))).collect();
    let header = format!("{}retry-after", value("protocol.md.prefix"));
    let mut needs: Vec<&str> = Vec::new();
    if tuned.intervals.rule == Rule::Stormcrawler {
        needs.extend(["signature", "fetchInterval"]);
    }
    if let Reaction::Stormcrawler { backoff, .. } = tuned.reaction {
        if backoff.sees_refusals {
            needs.push("fetch.statusCode");
        }
        if backoff.sees_retry_after {
            needs.push(&header);
        }
    }
    let added: Vec<&str> = needs.into_iter().filter(|k| !lists(&kept, k)).collect();
    (!added.is_empty()).then(|| ("metadata.persist", persist.into_iter().chain(added).collect::<Vec<_>>().join(", ")))
}

/// What a tuned `metadata.persist` keeps for whom, for its comment in the file ("" for
/// another setting).
pub fn kept_note(name: &str, value: &str) -> String {
    if name != "metadata.persist" {
        return String::new();
    }
    let has = |key: &str| value.split(',').any(|k| k.trim().trim_matches(['[', ']', '"']) == key);
    let mut whom = Vec::new();
    if has("signature") {
        whom.push("signature and fetchInterval for AdaptiveScheduler (MD5SignatureParseFilter computes the signature: keep it in your parse filters)");
    }
    if has("fetch.statusCode") {
        whom.push("fetch.statusCode and the Retry-After header's key for the QueueRegulatorBolt's back-off (the bolt in your topology)");
    }
    whom.iter().map(|w| format!("; {w}")).collect()
}

/// The settings that are lists of metadata keys.
pub const LISTS: [&str; 2] = ["metadata.persist", "metadata.transfer"];

/// `items` as a YAML flow list, each item quoted where YAML would read it otherwise.
pub fn flow_list<'a>(items: impl IntoIterator<Item = &'a str>) -> String {
    let plain = |k: &str| {
        !k.is_empty() && !k.starts_with(['*', '&', '!', '-', '?', '@', '`', '\'', '"', '%', '|', '>', '#']) && k.chars().all(|c| c.is_alphanumeric() || "_.-*/".contains(c))
    };
    let item = |k: &str| if plain(k) { k.to_string() } else { format!("\"{}\"", k.replace('\\', "\\\\").replace('"', "\\\"")) };
    format!("[{}]", items.into_iter().map(item).collect::<Vec<_>>().join(", "))
}

/// The keys MetadataTransfer.filter keeps (`metadata.persist`, crawler-default.yaml's
/// where the file gives none, and `metadata.transfer`), and those it passes on to
/// outlinks (`metadata.transfer`): each list's last value (a list given twice: the last
/// counts).
fn metadata_lists(entries: &[Entry]) -> (Vec<&str>, Vec<&str>) {
    let last = |name: &str| entries.iter().rev().find(|e| e.name == name).map(|e| e.value.as_str());
    let transfer: Vec<&str> = keys(last("metadata.transfer").unwrap_or("")).collect();
    let kept = keys(last("metadata.persist").unwrap_or(SHIPPED_PERSIST)).chain(transfer.iter().copied()).collect();
    (kept, transfer)
}

/// A list setting's keys, from its value as Freshlab holds a list (`a, b`).
fn keys(value: &str) -> impl Iterator<Item = &str> {
    value.split(", ").filter(|k| !k.is_empty())
}

/// Whether `list` holds `key`: by name, or by a key ending in `*` that begins it
/// (MetadataTransfer._filter).
fn lists(list: &[&str], key: &str) -> bool {
    list.iter().any(|&k| k == key || k.strip_suffix('*').is_some_and(|prefix| key.starts_with(prefix)))
}

/// The metadata key the fetcher reports a Crawl-delay over its cap under.
const ROBOTS_DELAY: &str = "robots.crawl.delay";

/// QueueRegulatorBolt.validateRobotsPacingConfiguration: robots pacing, where enabled,
/// stops the topology at start-up unless StormCrawler fetches past the cap
/// (`fetcher.max.crawl.delay.force`, without which it does not pace at all), with a cap
/// of at least 0, one queue a host, one URL a hand-out, and `robots.crawl.delay` kept by
/// `metadata.persist` (`kept`) but not passed on to outlinks (`transferred`): refused
/// here with its message, on the line that enables it.
fn pacing(entries: &[Entry], model: &Model, kept: bool, transferred: bool) -> Result<(), String> {
    let last = |name: &str| entries.iter().rev().find(|e| e.name == name);
    let Some(enabled) = last("urlfrontier.robots.crawl.delay.enabled").filter(|e| e.value == "true") else { return Ok(()) };
    let value = |name: &str, default: &'static str| last(name).map_or(default, |e| e.value.as_str());
    let why = if !model.crawl_delay_forced {
        String::from("requires fetcher.max.crawl.delay.force=true")
    } else if model.crawl_delay_cap_s < 0.0 {
        String::from("requires fetcher.max.crawl.delay >= 0")
    } else if value("partition.url.mode", "byHost") != "byHost" {
        format!("requires partition.url.mode=byHost; found {}", value("partition.url.mode", "byHost"))
    } else if value("urlfrontier.max.urls.per.bucket", "10") != "1" {
        format!("requires urlfrontier.max.urls.per.bucket=1; found {}", value("urlfrontier.max.urls.per.bucket", "10"))
    } else if !kept {
        format!("requires {ROBOTS_DELAY} in metadata.persist")
    } else if transferred {
        format!("requires {ROBOTS_DELAY} kept out of metadata.transfer, wildcards included (it is a per-host signal)")
    } else {
        return Ok(());
    };
    Err(format!(
        "urlfrontier.robots.crawl.delay.enabled (line {}): robots crawl-delay pacing {why}: the QueueRegulatorBolt stops the topology at start-up on it; set that, or turn the pacing off",
        enabled.line
    ))
}

const NOT_A_MAP: &str = "is not a map of settings (crawler-conf.yaml holds `config:` and its settings beneath)";

/// What an entry no known setting names does, where StormCrawler reads it (a custom
/// interval by metadata; None: not read here).
pub fn aside(e: &Entry) -> Result<Option<String>, String> {
    if e.null {
        // DefaultScheduler.init: getInt gives Integer.MIN_VALUE, its mark of no interval
        return Ok(custom(&e.name, "-1")?.map(|_| String::from("a custom interval given null, which DefaultScheduler passes over (no custom interval)")));
    }
    custom_interval(&e.name, &e.value)
}

/// One of DefaultScheduler.init's custom intervals, `fetchInterval(.STATUS)?.key=value`:
/// a page whose metadata holds key=value is rescheduled after `minutes` (None: -1,
/// never), for that status only where one is named.
pub struct Custom<'a> {
    pub status: Option<&'a str>,
    pub key: &'a str,
    pub value: &'a str,
    pub minutes: Option<u32>,
}

/// The custom interval an entry's name and value declare (None: the name is not one);
/// the error says what to fix.
pub fn custom<'a>(name: &'a str, minutes: &str) -> Result<Option<Custom<'a>>, String> {
    // DefaultScheduler.init's pattern, ^fetchInterval(\..+?)?\.(.+)=(.+)
    let Some((left, value)) = name.strip_prefix("fetchInterval.").and_then(|rest| rest.rsplit_once('=')).filter(|(l, v)| !l.is_empty() && !v.is_empty()) else {
        return Ok(None);
    };
    // the status is the part before the first dot, where a key follows it
    let (status, key) = match left.split_once('.') {
        Some((status, key)) if !key.is_empty() => (Some(status), key),
        _ => (None, left),
    };
    if let Some(status) = status.filter(|s| !STATUSES.contains(s)) {
        return Err(format!("{status} is not a status (Status.valueOf stops StormCrawler at start-up on it); name one of {} or none", STATUSES.join(", ")));
    }
    // (DefaultScheduler reads it with getInt: a fraction's whole part)
    let fix = || String::from("must be a whole number of minutes above 0 (0 would refetch a page at once, over and over), or -1 never to refetch");
    let minutes = match minutes.parse::<f64>().ok().filter(|m| m.is_finite()).map(|m| m as i64) {
        Some(-1) => None,
        Some(m) => Some(u32::try_from(m).ok().filter(|&m| m > 0).ok_or_else(fix)?),
        None => return Err(fix()),
    };
    Ok(Some(Custom { status, key, value, minutes }))
}

/// What a custom interval does, for its row of the settings.
fn custom_interval(name: &str, minutes: &str) -> Result<Option<String>, String> {
    let Some(c) = custom(name, minutes)? else { return Ok(None) };
    let when = c.status.map_or_else(|| String::from(" (any status)"), |s| format!(" when its status is {s}"));
    let applies = match c.status {
        None | Some("FETCHED" | "FETCH_ERROR") => "applies to the pages of a page list whose metadata column holds it",
        Some(_) => "Freshlab's servers give no such status, so it applies to no page",
    };
    let whole = match c.minutes {
        Some(m) if minutes.parse::<u32>().is_err() => format!(" (read as {m}: ConfUtils.getInt keeps a fraction's whole part)"),
        _ => String::new(),
    };
    Ok(Some(format!(
        "a custom interval (minutes){whole} for pages whose metadata holds {}={}{when}: DefaultScheduler's interval, AdaptiveScheduler's first; it {applies}",
        c.key, c.value
    )))
}

/// StormCrawler's statuses (persistence.Status).
const STATUSES: [&str; 5] = ["DISCOVERED", "FETCHED", "FETCH_ERROR", "REDIRECTION", "ERROR"];

/// What `metadata.persist` (crawler-default.yaml's where the file gives none) keeps for
/// AdaptiveScheduler, for its row, and whether it overrules `scheduler.class`.
/// AdaptiveScheduler compares the page's signature with the copy kept from its last
/// fetch and lengthens the interval kept in `fetchInterval` (its javadoc lists both as
/// required in `metadata.persist`): without `signature` kept every fetch falls back to
/// DefaultScheduler's interval, and the run here does so (`model`'s rule set fixed);
/// without `fetchInterval` each fetch starts again from the default (said, not run).
pub fn kept_metadata(entries: &[Entry], model: &mut Model) -> (String, bool) {
    let role = "metadata kept in the status index";
    if model.intervals.rule != Rule::Stormcrawler {
        return (
            format!(
                "{role} (with metadata.transfer's, what AdaptiveScheduler finds, which needs signature and fetchInterval kept, and what the back-off's bolt sees, which needs fetch.statusCode: see urlfrontier.backoff.status.codes)"
            ),
            false,
        );
    }
    let (kept, _) = metadata_lists(entries);
    let missing: Vec<&str> = ["signature", "fetchInterval"].into_iter().filter(|k| !lists(&kept, k)).collect();
    let whose = if entries.iter().any(|e| e.name == "metadata.persist") { "it" } else { "crawler-default.yaml's list (your file gives none)" };
    if missing.is_empty() {
        return (format!("{role}; with metadata.transfer it keeps AdaptiveScheduler's signature and fetchInterval"), false);
    }
    if missing.contains(&"signature") {
        model.intervals.rule = Rule::Fixed;
        return (
            format!(
                "{role}: {whose} lacks {} — AdaptiveScheduler finds no old signature, so every fetch falls back to DefaultScheduler's fetchInterval.default: the run here does so; add signature and fetchInterval to it (and MD5SignatureParseFilter to the parse filters) for the adaptive schedule",
                missing.join(" and ")
            ),
            true,
        );
    }
    (
        format!(
            "{role}: {whose} lacks fetchInterval — deployed so, AdaptiveScheduler would start each fetch again from fetchInterval.default; the run here keeps it (add fetchInterval to the list)"
        ),
        false,
    )
}
