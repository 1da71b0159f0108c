//! The simulation engine: one event queue and engine, time bins, and freshness
//! accounting — of Poisson changes ([`freshness`]) or of changes replayed from a trace
//! ([`replay`]) — behind one interface, [`freshness::Freshness`]; and the same visits'
//! freshness under rates redrawn within their intervals ([`redrawn`]).

pub mod bins;
pub mod freshness;
pub mod queue;
pub mod redrawn;
pub mod replay;
pub mod request_cost;
