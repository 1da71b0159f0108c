//! The files an experiment can read from the CLI: page lists and traces, checked line by
//! line before the run, their size checked before they are read.

use super::FileInput;
use crate::core::input::InputError;
use crate::core::model::{csv_rows, page_list, trace};

/// A configuration file's text, by the core's one decoder (its size was checked before
/// it was read).
fn text_of<'a>(bytes: &'a [u8], field: &str) -> Result<&'a str, InputError> {
    csv_rows::decode_as(bytes, field, usize::MAX, "", "UTF-8 text")
}

/// `--repository FILE` (or `--page-list FILE`): a page list,
/// `page,server,change_rate[,weight][,frequency][,observed]` and the crawlers' columns.
pub const PAGE_LIST: FileInput = FileInput {
    flags: &["repository", "page_list"],
    field: "page_list",
    sets: |_| Some(("source", "page_list")),
    check: |bytes| page_list::parse(bytes, "page_list").map(|_| ()),
    max_bytes: page_list::MAX_BYTES,
    table: true,
    help: "your own pages: page,server,change_rate[,weight][,frequency][,observed][,crawl_delay,capacity,response_ms][,metadata] (rates per day; a page without a server is counted against its URL's host; the servers' limits and the pages' seed-list metadata, key=value pairs separated by |, are read by crawlers)",
};

/// `--trace FILE`: a change trace, `page,timestamp` rows.
pub const TRACE: FileInput = FileInput {
    flags: &["trace"],
    field: "trace",
    sets: |_| Some(("source", "trace")),
    check: |bytes| trace::parse(bytes).map(|_| ()),
    max_bytes: trace::MAX_BYTES as u64,
    table: true,
    help: "replays a trace of page,timestamp rows (ISO-8601 or Unix seconds)",
};

/// `--crawler-config FILE`: a crawler's own configuration (nutch-site.xml,
/// crawler-conf.yaml, crawler-beans.cxml, settings.py).
pub const CRAWLER_CONFIG: FileInput = FileInput {
    flags: &["crawler_config"],
    field: "crawler_config",
    sets: |text| crate::core::policy::crawler_files::detect(text).map(|c| ("crawler", c.name())),
    check: |bytes| {
        let text = text_of(bytes, "crawler_config")?;
        match crate::core::policy::crawler_files::detect(text) {
            Some(_) => Ok(()),
            None if text.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) => Err(InputError::new(
                "crawler_config",
                "holds no settings (it is empty, or comments only): give your crawler's nutch-site.xml, crawler-conf.yaml, crawler-beans.cxml or settings.py, or pick a crawler's shipped defaults",
            )),
            None => Err(InputError::new(
                "crawler_config",
                "is not a crawler configuration Freshlab knows: its first setting is none of an XML <configuration> (nutch-site.xml) or <beans> (crawler-beans.cxml), a `name: value` YAML line (crawler-conf.yaml) or a `NAME = value` line (settings.py)",
            )),
        }
    },
    max_bytes: crate::core::policy::crawler_files::MAX_BYTES as u64,
    table: false,
    help: "your crawler's own configuration: nutch-site.xml, crawler-conf.yaml, crawler-beans.cxml or settings.py",
};

/// Nutch's rates by type (MimeAdaptiveFetchSchedule's `adaptive-mimetypes.txt`), checked
/// against the crawler's settings when the run starts.
pub const MIME_RATES: FileInput = FileInput {
    flags: &["mime_rates"],
    field: "mime_rates",
    sets: |_| None,
    check: |bytes| {
        text_of(bytes, "mime_rates").and_then(|text| crate::core::policy::crawler_files::nutch_mimes::read(text).map(|_| ()).map_err(|e| InputError::new("mime_rates", e)))
    },
    max_bytes: crate::core::policy::crawler_files::nutch_mimes::MAX_BYTES as u64,
    table: false,
    help: "Nutch's adaptive-mimetypes.txt (MimeAdaptiveFetchSchedule): <mime-type> TAB <inc_rate> TAB <dec_rate> a line, for pages whose metadata gives their Content-Type",
};

/// Nutch's per-host bounds of the adaptive interval (NUTCH-3029), checked against the
/// crawler's settings when the run starts.
pub const HOST_INTERVALS: FileInput = FileInput {
    flags: &["host_intervals"],
    field: "host_intervals",
    sets: |_| None,
    check: |bytes| text_of(bytes, "host_intervals").map(|_| ()),
    max_bytes: crate::core::policy::crawler_files::nutch_hosts::MAX_BYTES as u64,
    table: false,
    help: "Nutch's adaptive-host-specific-intervals.txt (NUTCH-3029): <hostname> <min> <max> a line, in seconds",
};

/// A crawler's seed list (Nutch's Injector or StormCrawler's format), joined to the page
/// list by page.
pub const SEED_LIST: FileInput = FileInput {
    flags: &["seed_list"],
    field: "seed_list",
    sets: |_| None,
    check: |bytes| text_of(bytes, "seed_list").and_then(|text| crate::core::model::seed_list::read(text).map(|_| ()).map_err(|e| InputError::new("seed_list", e))),
    max_bytes: crate::core::model::seed_list::MAX_BYTES,
    table: false,
    help: "your crawler's seed list (Nutch's Injector, StormCrawler): a URL a line, then its key=value pairs, each after a tab; joined to the page list by page, in place of its metadata column",
};

/// Heritrix's overrides file (the `location` of its configuration's
/// PropertyOverrideConfigurer), checked against the configuration when the run starts.
pub const HERITRIX_OVERRIDES: FileInput = FileInput {
    flags: &["heritrix_overrides"],
    field: "heritrix_overrides",
    sets: |_| None,
    check: |bytes| {
        text_of(bytes, "heritrix_overrides")
            .and_then(|text| crate::core::policy::crawler_files::heritrix::located_pairs(text).map(|_| ()).map_err(|e| InputError::new("heritrix_overrides", e)))
    },
    max_bytes: crate::core::policy::crawler_files::MAX_BYTES as u64,
    table: false,
    help: "Heritrix's overrides file, the one crawler-beans.cxml names as a PropertyOverrideConfigurer's location: bean.property=value lines (Java properties)",
};
