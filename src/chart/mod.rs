//! Charts: a backend-free [`figure::Figure`] per result, drawn by plotters on the page's
//! canvas (see the `wasm` module) or as SVG and PNG (the CLI). Each experiment builds
//! its own figures (`experiments/<name>/figures.rs`); this module only draws them.

pub mod clip;
pub mod draw;
pub mod figure;
pub mod format;
pub mod labels;
pub mod legend;
pub mod measure;
#[cfg(not(target_arch = "wasm32"))]
pub mod raster;
pub mod theme;
