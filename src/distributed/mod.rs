//! Distributed crawling (Exposto 2008, ch. 5–6; spec §4): splitting the web's servers
//! among robots by hashing or by multi-objective graph partitioning, under fixed,
//! density-adjusted (Eq 5.4) and dynamic politeness.

pub mod algebraic;
pub mod download;
pub mod graph;
pub mod partition;
pub mod scheme;
pub mod web;
