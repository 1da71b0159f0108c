//! Charts: a backend-free [`figure::Figure`] per result, drawn by plotters on the page's
//! canvas (see the `wasm` module) or as SVG.

pub mod clip;
pub mod draw;
pub mod figure;
pub mod figures;
pub mod measure;
pub mod partition_figures;
pub mod policy_figures;
#[cfg(not(target_arch = "wasm32"))]
pub mod raster;
pub mod sensor_figures;
pub mod theme;
pub mod wikipedia_figures;
