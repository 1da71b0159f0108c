//! Pages, servers and their change processes.

pub mod repository;
pub mod webbase;
