//! Freshlab: a laboratory for web-crawler revisit policies under politeness.
//!
//! - [`core`]: mathematics, random streams, the event engine, pages and servers,
//!   allocations and revisit policies — knowing no experiment by name;
//! - [`experiments`]: one folder per experiment, each implementing
//!   [`experiments::Experiment`], and the one list of them ([`experiments::registry`])
//!   from which the configs, results, CLI commands and the page's entry points follow;
//! - [`chart`]: the figure model and its drawing (canvas, SVG, PNG);
//! - [`table`]: results as tables (CSV);
//! - `wasm`: the thin boundary the browser worker and page use.
//!
//! See docs/ARCHITECTURE.md.

#[cfg(any(not(target_arch = "wasm32"), feature = "bench"))]
pub mod bench;
pub mod chart;
pub mod core;
pub mod experiments;
pub mod table;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
