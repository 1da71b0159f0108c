//! The simulation engine: one event queue, time bins, and freshness accounting.

pub mod account;
pub mod bins;
pub mod queue;
