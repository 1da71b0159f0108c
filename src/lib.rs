//! Freshlab: a laboratory for web-crawler revisit policies under politeness.
//!
//! The core is plain Rust: `math` (closed forms, intervals), `theory` (the theory
//! view's experiments), `experiment` (configs, jobs and results shared by the page and
//! the CLI), `chart` (plotters drawings for canvas and SVG). The `wasm` module is the
//! thin boundary the browser worker and page use.

pub mod alloc;
pub mod bench;
pub mod chart;
pub mod concepts;
pub mod distributed;
pub mod experiment;
pub mod input;
pub mod math;
pub mod model;
pub mod policy;
pub mod revisit;
pub mod rng;
pub mod sim;
pub mod table;
pub mod theory;
pub mod wikipedia;

#[cfg(target_arch = "wasm32")]
pub mod wasm;
