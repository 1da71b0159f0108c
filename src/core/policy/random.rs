//! RANDOM (§5.2, Def 5.3): the server is requested every 1/f_s and each request draws a
//! page with probability f_i/f_s, in O(1) with Walker's alias method (Vose's build).

use super::{Clock, Schedule, offset};
use crate::core::rng::Stream;
use std::ops::Range;

/// Vose's construction of Walker's alias table for `weights`: slot k keeps k with
/// probability accept[k], else gives alias[k]. Shared by RANDOM and the histograms.
pub fn vose(weights: &[f64]) -> (Vec<f64>, Vec<u32>) {
    let n = weights.len();
    let total: f64 = weights.iter().sum();
    let mut scaled: Vec<f64> = weights.iter().map(|w| w * n as f64 / total).collect();
    let mut accept = vec![1.0; n];
    let mut alias: Vec<u32> = (0..n as u32).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..n).partition(|&k| scaled[k] < 1.0);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        accept[s] = scaled[s];
        alias[s] = l as u32;
        scaled[l] -= 1.0 - scaled[s];
        if scaled[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // leftovers are 1 up to rounding
    for k in small.into_iter().chain(large) {
        accept[k] = 1.0;
    }
    (accept, alias)
}

/// Walker's alias table over `pages`, proportional to `weights`.
pub struct AliasTable {
    pages: Vec<u32>,
    accept: Vec<f64>,
    alias: Vec<u32>,
}

impl AliasTable {
    pub fn new(pages: Vec<u32>, weights: &[f64]) -> Self {
        let (accept, alias) = vose(weights);
        AliasTable { pages, accept, alias }
    }

    /// One draw from a single uniform number.
    #[inline]
    pub fn draw(&self, rng: &mut Stream) -> usize {
        let u = rng.uniform() * self.pages.len() as f64;
        let k = (u as usize).min(self.pages.len() - 1);
        let slot = if u - (k as f64) < self.accept[k] { k } else { self.alias[k] as usize };
        self.pages[slot] as usize
    }

    /// The probability of each page (for tests).
    pub fn probabilities(&self) -> Vec<(usize, f64)> {
        let n = self.pages.len() as f64;
        let mut p = vec![0.0; self.pages.len()];
        for k in 0..self.pages.len() {
            p[k] += self.accept[k] / n;
            p[self.alias[k] as usize] += (1.0 - self.accept[k]) / n;
        }
        self.pages.iter().map(|&i| i as usize).zip(p).collect()
    }
}

pub struct Random {
    table: Option<AliasTable>,
    clock: Clock,
}

impl Random {
    pub fn new(f: &[f64], pages: Range<usize>, rng: &mut Stream) -> Self {
        let chosen: Vec<usize> = pages.filter(|&i| f[i] > 0.0).collect();
        let fs: f64 = chosen.iter().map(|&i| f[i]).sum();
        if chosen.is_empty() {
            return Random { table: None, clock: Clock::never() };
        }
        let weights: Vec<f64> = chosen.iter().map(|&i| f[i]).collect();
        let period = 1.0 / fs;
        let table = AliasTable::new(chosen.iter().map(|&i| i as u32).collect(), &weights);
        Random { table: Some(table), clock: Clock::new(offset(rng, period), period) }
    }
}

impl Schedule for Random {
    #[inline]
    fn next_time(&self) -> f64 {
        self.clock.next_time()
    }

    #[inline]
    fn take(&mut self, _f: &[f64], rng: &mut Stream) -> (f64, usize) {
        (self.clock.tick(), self.table.as_ref().expect("a requested server has pages").draw(rng))
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    #[test]
    fn alias_probabilities_are_exact_and_draws_match_them() {
        let weights = [0.5, 3.0, 0.01, 1.49, 2.0, 3.0];
        let table = AliasTable::new((10..16).collect(), &weights);
        let total: f64 = weights.iter().sum();
        for ((page, p), w) in table.probabilities().into_iter().zip(weights) {
            assert!((p - w / total).abs() < 1e-12, "page {page}");
        }
        let mut rng = Stream::of(4, Purpose::Test, 0);
        let n = 300_000;
        let mut counts = [0u32; 6];
        for _ in 0..n {
            counts[table.draw(&mut rng) - 10] += 1;
        }
        for (c, w) in counts.iter().zip(weights) {
            let p = w / total;
            let sd = (p * (1.0 - p) / n as f64).sqrt();
            assert!((*c as f64 / n as f64 - p).abs() < 4.5 * sd, "{c} vs {p}");
        }
    }

    #[test]
    fn a_single_page_is_always_drawn() {
        let table = AliasTable::new(vec![7], &[2.0]);
        let mut rng = Stream::of(5, Purpose::Test, 0);
        assert!((0..100).all(|_| table.draw(&mut rng) == 7));
    }
}
