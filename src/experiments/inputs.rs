//! The files an experiment can read from the CLI: page lists and traces, checked line by
//! line before the run, their size checked before they are read.

use super::FileInput;
use crate::core::model::{page_list, trace};

/// `--repository FILE` (or `--page-list FILE`): a page list,
/// `page,server,change_rate[,weight][,frequency][,observed]`.
pub const PAGE_LIST: FileInput = FileInput {
    flags: &["repository", "page_list"],
    field: "page_list",
    sets: Some(("source", "page_list")),
    check: |bytes| page_list::parse(bytes, "page_list").map(|_| ()),
    max_bytes: page_list::MAX_BYTES,
    help: "your own pages: page,server,change_rate[,weight][,frequency][,observed] (rates per day)",
};

/// `--trace FILE`: a change trace, `page,timestamp` rows.
pub const TRACE: FileInput = FileInput {
    flags: &["trace"],
    field: "trace",
    sets: Some(("source", "trace")),
    check: |bytes| trace::parse(bytes).map(|_| ()),
    max_bytes: trace::MAX_BYTES as u64,
    help: "replays a trace of page,timestamp rows (ISO-8601 or Unix seconds)",
};
