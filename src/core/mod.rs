//! The core: the mathematics, random streams, event engine, pages and servers,
//! allocations and revisit policies that every experiment is built from. Nothing here
//! knows an experiment by name.

pub mod alloc;
pub mod field;
pub mod heap;
pub mod input;
pub mod labels;
pub mod limits;
pub mod math;
pub mod memo;
pub mod model;
pub mod parallel;
pub mod policy;
pub mod rng;
pub mod sim;
pub mod speed;
pub mod units;
pub mod unpack;
