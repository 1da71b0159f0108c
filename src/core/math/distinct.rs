//! Distinct values counted in constant memory: HyperLogLog (Flajolet, Fusy, Gandouet and
//! Meunier 2007), with linear counting where many registers are still empty (their
//! small-range correction). 2^14 registers of a byte: a standard error of 1.04/√2^14,
//! 0.81 %, whatever the count.

/// Registers' index bits.
const BITS: u32 = 14;
const REGISTERS: usize = 1 << BITS;
/// The relative standard error of [`Distinct::count`].
pub const STANDARD_ERROR: f64 = 1.04 / 128.0;

/// A HyperLogLog sketch of 64-bit hashes.
#[derive(Clone, Debug)]
pub struct Distinct {
    registers: Vec<u8>,
}

impl Default for Distinct {
    fn default() -> Self {
        Distinct { registers: vec![0; REGISTERS] }
    }
}

impl Distinct {
    /// Counts `hash` (any 64-bit hash: it is mixed again here, SplitMix64's finaliser,
    /// so FNV's weak high bits do not matter).
    pub fn insert(&mut self, hash: u64) {
        let mut x = hash;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^= x >> 31;
        let register = (x >> (64 - BITS)) as usize;
        // the rank of the first 1 in the remaining 50 bits (51 where all are 0)
        let rank = ((x << BITS) | (1 << (BITS - 1))).leading_zeros() as u8 + 1;
        let kept = &mut self.registers[register];
        *kept = (*kept).max(rank);
    }

    /// The distinct hashes inserted, estimated (the raw estimate, or linear counting
    /// while it is at most 2.5 × the registers and some are empty; a 64-bit hash needs no
    /// large-range correction).
    pub fn count(&self) -> f64 {
        let m = REGISTERS as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        // 2^-r for a register's small integer r, exactly, by its exponent bits: exp2 over
        // the 16,384 registers at each count took 0.2 ms, and a history's files are
        // counted after each (2,000 small logs: 0.2 s of a 0.47 s run)
        let sum: f64 = self.registers.iter().map(|&r| half_to_the(r)).sum();
        let raw = alpha * m * m / sum;
        let empty = self.registers.iter().filter(|&&r| r == 0).count();
        if raw <= 2.5 * m && empty > 0 { m * (m / empty as f64).ln() } else { raw }
    }
}

/// 2^-r, exactly (a register holds at most 65).
fn half_to_the(r: u8) -> f64 {
    f64::from_bits((1023 - u64::from(r)) << 52)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::model::history::hash;

    /// URLs counted exactly beside the sketch's estimate: each within 4 standard errors
    /// (linear counting is exact to far less while few registers are set), repeats
    /// counted once.
    #[test]
    fn a_registers_power_of_a_half_is_exact() {
        for r in 0..=u8::MAX {
            assert_eq!(half_to_the(r), (-f64::from(r)).exp2(), "{r}");
        }
    }

    #[test]
    fn counts_within_its_standard_error() {
        for n in [0usize, 1, 10, 1_000, 30_000, 200_000] {
            let mut sketch = Distinct::default();
            for k in 0..n {
                // each URL three times over
                for _ in 0..3 {
                    sketch.insert(hash(&format!("https://example.org/page/{k}")));
                }
            }
            let count = sketch.count();
            let error = (count - n as f64).abs() / (n as f64).max(1.0);
            assert!(error <= 4.0 * STANDARD_ERROR, "{n} URLs counted {count:.0} ({:.2} %)", 100.0 * error);
            if n <= 1_000 {
                assert!((count - n as f64).abs() <= 0.01 * n as f64 + 0.5, "{n}: {count}");
            }
        }
    }
}
