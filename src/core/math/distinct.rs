//! Distinct values counted in constant memory: HyperLogLog (Flajolet, Fusy, Gandouet and
//! Meunier 2007), with linear counting where many registers are still empty (their
//! small-range correction). 2^14 registers of a byte: a standard error of 1.04/√2^14,
//! 0.81 %, whatever the count.

/// Registers' index bits.
const BITS: u32 = 14;
const REGISTERS: usize = 1 << BITS;
/// The relative standard error of [`Distinct::count`].
pub const STANDARD_ERROR: f64 = 1.04 / 128.0;

/// A register's largest rank: the first 1 in the 50 bits a hash has beyond its index,
/// 51 where all are 0.
const MOST_RANK: u32 = 64 - BITS + 1;

/// A HyperLogLog sketch of 64-bit hashes.
#[derive(Clone, Debug)]
pub struct Distinct {
    registers: Vec<u8>,
    /// Σ 2^-r over the registers, in units of 2^-[`MOST_RANK`]: exact, kept as they
    /// change (a history's files are counted after each: 2,000 small logs summed the
    /// 16,384 registers 2,000 times, a quarter of the run).
    sum: u128,
    /// The registers still 0.
    empty: usize,
}

impl Default for Distinct {
    fn default() -> Self {
        Distinct { registers: vec![0; REGISTERS], sum: REGISTERS as u128 * unit_power(0), empty: REGISTERS }
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
        if rank > *kept {
            self.sum = self.sum - unit_power(*kept) + unit_power(rank);
            self.empty -= usize::from(*kept == 0);
            *kept = rank;
        }
    }

    /// The distinct hashes inserted, estimated (the raw estimate, or linear counting
    /// while it is at most 2.5 × the registers and some are empty; a 64-bit hash needs no
    /// large-range correction).
    pub fn count(&self) -> f64 {
        let m = REGISTERS as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let sum = self.sum as f64 / unit_power(0) as f64;
        let raw = alpha * m * m / sum;
        if raw <= 2.5 * m && self.empty > 0 { m * (m / self.empty as f64).ln() } else { raw }
    }
}

/// 2^-r in units of 2^-[`MOST_RANK`], exactly.
fn unit_power(r: u8) -> u128 {
    1 << (MOST_RANK - u32::from(r))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::model::history::hash;

    /// The sum kept as registers change is the registers' sum of 2^-r, and the empty
    /// registers are those at 0, however many hashes came.
    #[test]
    fn the_kept_sum_is_the_registers_sum() {
        let mut sketch = Distinct::default();
        for n in [0u64, 1, 100, 20_000, 300_000] {
            for k in 0..n {
                sketch.insert(hash(&format!("https://example.org/{n}/{k}")));
            }
            let sum: f64 = sketch.registers.iter().map(|&r| (-f64::from(r)).exp2()).sum();
            assert!((sketch.sum as f64 / unit_power(0) as f64 - sum).abs() <= 1e-12 * sum, "{n}: {} against {sum}", sketch.sum);
            assert_eq!(sketch.empty, sketch.registers.iter().filter(|&&r| r == 0).count(), "{n}");
        }
        assert!(sketch.registers.iter().all(|&r| u32::from(r) <= MOST_RANK));
    }

    /// URLs counted exactly beside the sketch's estimate: each within 4 standard errors
    /// (linear counting is exact to far less while few registers are set), repeats
    /// counted once.
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
