//! Pages, servers and their change processes.

pub mod repository;
pub mod webbase;
pub mod bursty;
pub mod histogram;
pub mod trace;
