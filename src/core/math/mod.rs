//! Closed forms of the sources and the numerical tools they need.

pub mod axis;
pub mod bursts;
pub mod distinct;
pub mod elementary;
pub mod freshness;
pub mod interval;
pub mod optimize;
pub mod roots;
pub mod stats;
