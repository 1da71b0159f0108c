//! The "MERGE vs RANDOM ratios" view's experiments (spec §1.2–1.5).

pub mod allocate;
pub mod channel;
pub mod microscope;
pub mod per_page;
pub mod repository;
