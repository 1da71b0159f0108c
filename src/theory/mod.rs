//! The theory view's experiments (spec §1.1): level sets of Eq 5-9, the RANDOM and
//! MERGE factors, channel bursts, and the certified bound for Conjecture 5.9.

pub mod axis;
pub mod certify;
pub mod channel_bursts;
pub mod contour;
pub mod factor_curves;
pub mod level_sets;
pub mod tails;
