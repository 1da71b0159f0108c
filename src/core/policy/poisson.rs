//! Poisson crawls (Azar et al., PNAS 2018; Kolobov et al., NeurIPS 2019): page i is
//! crawled as a Poisson process of rate f_i. Built as one Poisson process of rate
//! f_s = Σ_{i∈s} f_i per server whose requests each draw a page with probability
//! f_i/f_s (RANDOM's alias table): by thinning, the pages' crawls are then independent
//! Poisson processes of rates f_i. Politeness holds on average only: Σ f_i ≤ 1/P
//! bounds the server's rate, not each gap between two requests.

use super::Schedule;
use super::random::AliasTable;
use crate::core::rng::Stream;

pub struct PoissonCrawls {
    table: Option<AliasTable>,
    rate: f64,
    next: f64,
}

impl PoissonCrawls {
    /// The server's crawls from time `start` on (by memorylessness, starting afresh at
    /// any time is the same process).
    pub fn new(f: &[f64], pages: impl Iterator<Item = usize>, start: f64, rng: &mut Stream) -> Self {
        let chosen: Vec<usize> = pages.filter(|&i| f[i] > 0.0).collect();
        if chosen.is_empty() {
            return PoissonCrawls { table: None, rate: 0.0, next: f64::INFINITY };
        }
        let weights: Vec<f64> = chosen.iter().map(|&i| f[i]).collect();
        let rate: f64 = weights.iter().sum();
        let table = AliasTable::new(chosen.iter().map(|&i| i as u32).collect(), &weights);
        PoissonCrawls { table: Some(table), rate, next: start + rng.exponential(rate) }
    }
}

impl Schedule for PoissonCrawls {
    #[inline]
    fn next_time(&self) -> f64 {
        self.next
    }

    #[inline]
    fn take(&mut self, _f: &[f64], rng: &mut Stream) -> (f64, usize) {
        let t = self.next;
        self.next += rng.exponential(self.rate);
        (t, self.table.as_ref().expect("a requested server has pages").draw(rng))
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    /// Each page's gaps are exponential with mean 1/f_i: mean and coefficient of
    /// variation (1 for an exponential law) within their confidence intervals.
    #[test]
    fn each_page_is_crawled_as_a_poisson_process() {
        let f = [0.5, 2.0, 0.0, 1.5];
        let mut rng = Stream::of(3, Purpose::Test, 0);
        let mut s = PoissonCrawls::new(&f, 0..4, 0.0, &mut rng);
        let mut last = [f64::NAN; 4];
        let mut gaps: [Vec<f64>; 4] = Default::default();
        while s.next_time() < 100_000.0 {
            let (t, i) = s.take(&f, &mut rng);
            if last[i].is_finite() {
                gaps[i].push(t - last[i]);
            }
            last[i] = t;
        }
        assert!(gaps[2].is_empty(), "a page of rate 0 is never crawled");
        for i in [0, 1, 3] {
            let n = gaps[i].len() as f64;
            let mean = gaps[i].iter().sum::<f64>() / n;
            let sd = (gaps[i].iter().map(|g| (g - mean) * (g - mean)).sum::<f64>() / (n - 1.0)).sqrt();
            // the mean of n exponential gaps has standard error mean/√n
            assert!((mean * f[i] - 1.0).abs() < 4.0 / n.sqrt(), "page {i}: mean gap {mean}");
            assert!((sd / mean - 1.0).abs() < 0.03, "page {i}: coefficient of variation {}", sd / mean);
        }
        let nothing = PoissonCrawls::new(&[0.0], 0..1, 0.0, &mut rng);
        assert_eq!(nothing.next_time(), f64::INFINITY);
    }
}
