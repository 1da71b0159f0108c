//! Pages, servers and their change processes.

pub mod bursty;
pub mod change_rate;
pub mod changes;
pub mod csv_rows;
pub mod histogram;
pub mod history;
pub mod host;
pub mod page_list;
pub mod page_metadata;
pub mod rate_bins;
pub mod renewal;
pub mod repository;
pub mod seed_list;
pub mod server_sizes;
pub mod source;
pub mod trace;
pub mod webbase;
