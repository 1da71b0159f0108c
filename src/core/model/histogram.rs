//! Inter-change interval laws (thesis §6.1.3): an article's intervals grouped in a
//! histogram of 10 bins whose widths grow exponentially, read as a mixture of uniform
//! laws (one per bin), and the exponential law of the Poisson chapters for comparison.
//!
//! Every quantity the policies need has a closed form per bin: the CDF, the stationary
//! probability G(s) that no change falls in the s after a random instant, the expected
//! fresh time H(T) = ∫₀ᵀ G of a copy refreshed at a random instant, and sampling.

use crate::core::math::elementary::{exp, expm1, pow};
use crate::core::rng::Stream;
use serde::{Deserialize, Serialize};

/// Bins of a histogram (thesis §6.1.3).
pub const BINS: usize = 10;

/// A renewal law of the time between two changes, with what the policies need of it.
pub trait IntervalLaw {
    /// E[X].
    fn mean(&self) -> f64;
    /// Pr[X ≤ x].
    fn cdf(&self, x: f64) -> f64;
    /// ∫ₛ^∞ Pr[X > x] dx = E[(X − s)⁺]; divided by E[X] it is G(s), the stationary
    /// probability of no change in the s after a random instant.
    fn excess(&self, s: f64) -> f64;
    /// ∫₀ᵀ excess(s) ds: divided by E[X] it is H(T), the expected fresh time in the T
    /// after a refresh at a random instant.
    fn excess_integral(&self, t: f64) -> f64;
    /// A time beyond which no interval lasts (∞ when unbounded).
    fn support_end(&self) -> f64;

    /// Freshness of a copy refreshed every T (Wolf et al. 2002: 1 − staleness):
    /// H(T)/T. For the exponential law, (1 − e^{−λT})/(λT).
    fn spaced_freshness(&self, t: f64) -> f64 {
        self.excess_integral(t) / (self.mean() * t)
    }

    /// The marginal gain of one more revisit per unit time at interval T:
    /// d/df [f·H(1/f)] = H(T) − T·G(T), increasing from 0 to E[X²]/(2E[X]).
    fn marginal(&self, t: f64) -> f64 {
        (self.excess_integral(t) - t * self.excess(t)) / self.mean()
    }

    /// E[X²]/(2E[X]): the stationary expected time to the next change.
    fn mean_residual(&self) -> f64 {
        self.excess_integral(f64::INFINITY) / self.mean()
    }
}

/// Poisson changes at rate λ (chapters 4–5), to check the general code against them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponential {
    pub rate: f64,
}

impl IntervalLaw for Exponential {
    fn mean(&self) -> f64 {
        1.0 / self.rate
    }
    fn cdf(&self, x: f64) -> f64 {
        -expm1(-self.rate * x.max(0.0))
    }
    fn excess(&self, s: f64) -> f64 {
        exp(-self.rate * s.max(0.0)) / self.rate
    }
    fn excess_integral(&self, t: f64) -> f64 {
        -expm1(-self.rate * t) / (self.rate * self.rate)
    }
    fn support_end(&self) -> f64 {
        f64::INFINITY
    }
}

/// A 10-bin histogram of intervals, uniform within each bin. Edges m, m·q, …, m·q¹⁰,
/// from the shortest interval m to the longest, so each bin is q times wider than the
/// one before [reading: the thesis says only that widths grow exponentially]. Zero-width
/// bins (all intervals equal) are point masses. Stored inline (no heap), with the
/// cumulative sums and tables that make every lookup and draw branch-free: GREEDY
/// evaluates thousands of these per request. Serialised as its edges and counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(into = "HistogramData", try_from = "HistogramData")]
#[repr(C)]
pub struct Histogram {
    // What drawing reads comes first: four contiguous cache lines.
    /// BINS + 1 increasing edges.
    pub edges: [f64; BINS + 1],
    /// Pr[X ≤ e_k]: the probabilities of the bins before edge k.
    cumulative: [f64; BINS + 1],
    /// (e_{k+1} − e_k)/p_k: the inversion's slope in bin k (0 when empty).
    slope: [f64; BINS],
    /// Pr[X > x] in 256 contiguous bytes.
    survival: Survival,
    /// Intervals counted in each bin; bin k is [e_k, e_{k+1}), the last one closed.
    pub counts: [u64; BINS],
    /// counts / total.
    probabilities: [f64; BINS],
    /// 1/(e_{k+1} − e_k), 0 for a point mass.
    inverse_width: [f64; BINS],
}

/// Pr[X > x] of a histogram in four cache lines: its edges, the tail sums Pr[X ≥ e_k]
/// (exact far in the tail) and each bin's density p_k/(e_{k+1} − e_k).
#[derive(Clone, Debug, PartialEq)]
#[repr(C, align(64))]
pub struct Survival {
    edges: [f64; BINS + 1],
    tail: [f64; BINS + 1],
    density: [f64; BINS],
}

impl Survival {
    /// Pr[X > x]: the bin found by counting the edges ≤ x (no branch to mispredict).
    #[inline]
    pub fn at(&self, x: f64) -> f64 {
        let below = self.edges.iter().map(|&e| (e <= x) as usize).sum::<usize>();
        match below {
            0 => 1.0,
            k if k > BINS => 0.0,
            k => self.tail[k] + self.density[k - 1] * (self.edges[k] - x),
        }
    }
}

/// A histogram's serialised form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistogramData {
    pub edges: Vec<f64>,
    pub counts: Vec<u64>,
}

impl From<Histogram> for HistogramData {
    fn from(h: Histogram) -> Self {
        HistogramData { edges: h.edges.to_vec(), counts: h.counts.to_vec() }
    }
}

impl TryFrom<HistogramData> for Histogram {
    type Error = String;
    fn try_from(d: HistogramData) -> Result<Self, String> {
        let ok = d.edges.len() == BINS + 1 && d.counts.len() == BINS && d.edges.windows(2).all(|w| w[0] <= w[1]) && d.counts.iter().any(|&c| c > 0);
        if ok { Ok(Histogram::from_counts(d.edges, d.counts)) } else { Err(format!("a histogram needs {} increasing edges and {BINS} counts, not all 0", BINS + 1)) }
    }
}

impl Histogram {
    /// Each page's histogram from its changes in `trace` before `until`, and how many
    /// pages had no interval (given one as long as `until` [reading]).
    pub fn laws_from(trace: &super::trace::Trace, until: f64) -> (Vec<Histogram>, u64) {
        let mut missing = 0;
        let laws = (0..trace.pages())
            .map(|i| {
                let changes: Vec<f64> = trace.changes(i).iter().copied().take_while(|&t| t < until).collect();
                let intervals: Vec<f64> = changes.windows(2).map(|w| w[1] - w[0]).collect();
                Histogram::from_intervals(&intervals).unwrap_or_else(|| {
                    missing += 1;
                    // no interval seen: it changes at most once in the window [reading]
                    Histogram::from_intervals(&[until]).expect("positive")
                })
            })
            .collect();
        (laws, missing)
    }
    /// The histogram of `intervals` (any order, all ≥ 0); `None` without a positive
    /// interval.
    pub fn from_intervals(intervals: &[f64]) -> Option<Histogram> {
        debug_assert!(intervals.iter().all(|&x| x >= 0.0 && x.is_finite()));
        let longest = intervals.iter().copied().fold(0.0, f64::max);
        if longest == 0.0 {
            return None;
        }
        let shortest = intervals.iter().copied().filter(|&x| x > 0.0).fold(f64::INFINITY, f64::min);
        let q = pow(longest / shortest, 1.0 / BINS as f64);
        // rounding in q^k can carry an inner edge past the longest interval when the
        // intervals are (nearly) equal, as periodic changes make them: keep them in order
        let mut edges: Vec<f64> = (0..=BINS).map(|k| (shortest * pow(q, k as f64)).clamp(shortest, longest)).collect();
        edges[0] = shortest;
        edges[BINS] = longest;
        let mut counts = vec![0u64; BINS];
        for &x in intervals {
            counts[Self::bin_of(&edges, x)] += 1;
        }
        Some(Self::from_counts(edges, counts))
    }

    /// A histogram with given edges and counts (at least one count).
    pub fn from_counts(edges: Vec<f64>, counts: Vec<u64>) -> Histogram {
        assert!(edges.len() == BINS + 1 && counts.len() == BINS && edges.windows(2).all(|w| w[0] <= w[1]));
        let total: u64 = counts.iter().sum();
        assert!(total > 0, "a histogram needs at least one interval");
        let mut h = Histogram {
            edges: edges.try_into().expect("BINS + 1 edges"),
            counts: counts.try_into().expect("BINS counts"),
            probabilities: [0.0; BINS],
            cumulative: [0.0; BINS + 1],
            survival: Survival { edges: [0.0; BINS + 1], tail: [0.0; BINS + 1], density: [0.0; BINS] },
            inverse_width: [0.0; BINS],
            slope: [0.0; BINS],
        };
        for k in 0..BINS {
            h.probabilities[k] = h.counts[k] as f64 / total as f64;
            h.cumulative[k + 1] = h.cumulative[k] + h.probabilities[k];
            let w = h.edges[k + 1] - h.edges[k];
            h.inverse_width[k] = if w > 0.0 { 1.0 / w } else { 0.0 };
            h.slope[k] = if h.probabilities[k] > 0.0 { w / h.probabilities[k] } else { 0.0 };
        }
        h.cumulative[BINS] = 1.0;
        h.survival.edges = h.edges;
        for k in (0..BINS).rev() {
            h.survival.tail[k] = h.survival.tail[k + 1] + h.probabilities[k];
            h.survival.density[k] = h.probabilities[k] * h.inverse_width[k];
        }
        h
    }

    /// The bin of an interval: the last k with e_k ≤ x; the longest goes in the last bin
    /// (and a zero interval in the first).
    fn bin_of(edges: &[f64], x: f64) -> usize {
        if x >= edges[BINS] {
            return BINS - 1;
        }
        (0..BINS).rev().find(|&k| edges[k] <= x).unwrap_or(0)
    }

    /// The last edge ≤ x (0 below the first edge, BINS at or beyond the last).
    #[inline]
    fn edge_at(&self, x: f64) -> usize {
        self.edges.partition_point(|&e| e <= x).saturating_sub(1)
    }

    pub fn probabilities(&self) -> &[f64] {
        &self.probabilities
    }

    /// Pr[X ≤ e_k] for each edge.
    pub fn cumulative(&self) -> &[f64] {
        &self.cumulative
    }

    /// The k-th bin: (start, end, probability).
    pub fn bin(&self, k: usize) -> (f64, f64, f64) {
        (self.edges[k], self.edges[k + 1], self.probabilities[k])
    }

    /// Pr[X > x], from the tail sums (no cancellation far in the tail).
    #[inline]
    pub fn survival(&self, x: f64) -> f64 {
        self.survival.at(x)
    }

    /// The survival function alone, compact (what GREEDY reads for every article).
    pub fn survival_table(&self) -> &Survival {
        &self.survival
    }

    /// E[X²].
    pub fn second_moment(&self) -> f64 {
        (0..BINS)
            .map(|k| {
                let (a, b, p) = self.bin(k);
                p * (a * a + a * b + b * b) / 3.0
            })
            .sum()
    }

    /// The x with Pr[X ≤ x] = u (u in [0, 1]): inversion. The bin is the count of
    /// inner cumulative edges ≤ u (which skips empty bins), found without a branch.
    #[inline]
    pub fn quantile(&self, u: f64) -> f64 {
        let c = &self.cumulative;
        let k = c[1..BINS].iter().map(|&ck| (ck <= u) as usize).sum::<usize>();
        let (a, b) = (self.edges[k], self.edges[k + 1]);
        (a + (u - c[k]) * self.slope[k]).clamp(a, b)
    }

    /// One interval, by inversion of one uniform (branch-free).
    #[inline]
    pub fn sample(&self, rng: &mut Stream) -> f64 {
        self.quantile(rng.uniform())
    }

    /// One interval conditioned on Pr[X ≤ x] ∈ (lo, hi] (lo = F(d₀), hi = F(d₁)):
    /// X given d₀ < X ≤ d₁, by inversion.
    #[inline]
    pub fn sample_between(&self, lo: f64, hi: f64, rng: &mut Stream) -> f64 {
        self.quantile(lo + (hi - lo) * (1.0 - rng.uniform()))
    }
}

impl IntervalLaw for Histogram {
    fn mean(&self) -> f64 {
        (0..BINS)
            .map(|k| {
                let (a, b, p) = self.bin(k);
                p * 0.5 * (a + b)
            })
            .sum()
    }

    #[inline]
    fn cdf(&self, x: f64) -> f64 {
        if x < self.edges[0] {
            return 0.0;
        }
        let k = self.edge_at(x);
        if k >= BINS {
            return 1.0;
        }
        (self.cumulative[k] + self.probabilities[k] * (x - self.edges[k]) * self.inverse_width[k]).min(1.0)
    }

    /// Σ_k p_k E[(U_k − s)⁺] with U_k uniform on bin k.
    fn excess(&self, s: f64) -> f64 {
        let mut sum = 0.0;
        for k in 0..BINS {
            let (a, b, p) = self.bin(k);
            if p == 0.0 || s >= b {
                continue;
            }
            sum += p * if s <= a { 0.5 * (a + b) - s } else { (b - s) * (b - s) / (2.0 * (b - a)) };
        }
        sum
    }

    /// Σ_k p_k E[U_k² − ((U_k − T)⁺)²]/2, written without cancellation for small T.
    fn excess_integral(&self, t: f64) -> f64 {
        let mut sum = 0.0;
        for k in 0..BINS {
            let (a, b, p) = self.bin(k);
            if p == 0.0 {
                continue;
            }
            sum += p * if t <= a {
                // E[X² − (X − T)²] = T(2E[X] − T)
                t * ((a + b) - t)
            } else if t >= b {
                (a * a + a * b + b * b) / 3.0
            } else {
                (a * a + a * b + b * b) / 3.0 - (b - t) * (b - t) * (b - t) / (3.0 * (b - a))
            };
        }
        0.5 * sum
    }

    fn support_end(&self) -> f64 {
        self.edges[BINS]
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::Purpose;

    /// Simpson's rule, for an independent check of the closed forms.
    fn simpson(f: impl Fn(f64) -> f64, a: f64, b: f64, n: usize) -> f64 {
        let h = (b - a) / n as f64;
        let mut s = f(a) + f(b);
        for i in 1..n {
            s += f(a + i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        s * h / 3.0
    }

    #[test]
    fn edges_grow_exponentially_and_counts_are_hand_checked() {
        // shortest 0.5, longest 512: q = 1024^(1/10) = 2, edges 0.5, 1, 2, 4, …, 512
        let intervals = [0.5, 1.0, 1.5, 3.0, 3.9, 4.0, 100.0, 300.0, 512.0];
        let h = Histogram::from_intervals(&intervals).unwrap();
        let expected: Vec<f64> = (0..=10).map(|k| 0.5 * (1u32 << k) as f64).collect();
        for (e, x) in h.edges.iter().zip(&expected) {
            assert!((e - x).abs() < 1e-12 * x.max(1.0), "{:?}", h.edges);
        }
        // [0.5,1): 0.5 · [1,2): 1, 1.5 · [2,4): 3, 3.9 · [4,8): 4 · [64,128): 100 · [256,512]: 300, 512
        assert_eq!(h.counts.to_vec(), vec![1, 2, 2, 1, 0, 0, 0, 1, 0, 2]);
        let widths: Vec<f64> = h.edges.windows(2).map(|w| w[1] - w[0]).collect();
        for k in 1..BINS {
            assert!((widths[k] / widths[k - 1] - 2.0).abs() < 1e-9);
        }
        assert!(Histogram::from_intervals(&[]).is_none());
        assert!(Histogram::from_intervals(&[0.0, 0.0]).is_none());
        // issue 13: nearly equal intervals (periodic changes) keep their edges in order
        let periodic = [1440.0000000000002, 1440.0, 1439.9999999999998, 1440.0];
        let h = Histogram::from_intervals(&periodic).unwrap();
        assert_eq!(h.counts.iter().sum::<u64>(), 4);
    }

    #[test]
    fn closed_forms_agree_with_quadrature() {
        let h = Histogram::from_intervals(&[1.0, 2.0, 3.0, 3.0, 7.0, 20.0, 55.0, 90.0, 91.0, 400.0]).unwrap();
        let end = h.support_end();
        let survival = |x: f64| 1.0 - h.cdf(x);
        // the mean is ∫ survival; the excess is ∫ₛ survival; its integral ∫₀ᵀ excess
        let mut knots = h.edges.to_vec();
        knots.dedup();
        knots.insert(0, 0.0);
        let piecewise = |f: &dyn Fn(f64) -> f64, from: f64, to: f64| -> f64 {
            let mut cuts: Vec<f64> = knots.iter().copied().filter(|&e| e > from && e < to).collect();
            cuts.insert(0, from);
            cuts.push(to);
            cuts.windows(2).map(|w| simpson(f, w[0], w[1], 400)).sum()
        };
        assert!((piecewise(&survival, 0.0, end) - h.mean()).abs() < 1e-9 * h.mean());
        for s in [0.0, 1.0, 2.5, 10.0, 60.0, 399.0, 500.0] {
            let direct = if s >= end { 0.0 } else { piecewise(&survival, s, end) };
            assert!((direct - h.excess(s)).abs() < 1e-9 * h.mean(), "excess({s})");
        }
        for t in [0.5, 3.0, 33.0, 200.0, 400.0, 900.0] {
            let direct = piecewise(&|s| h.excess(s), 0.0, t);
            assert!((direct - h.excess_integral(t)).abs() < 1e-8 * h.excess_integral(t), "∫ excess to {t}");
        }
        // E[X²]/(2E[X]) is the limit of H
        assert!((h.mean_residual() - h.second_moment() / (2.0 * h.mean())).abs() < 1e-12 * h.mean_residual());
    }

    #[test]
    fn the_exponential_law_gives_the_poisson_freshness() {
        let law = Exponential { rate: 0.3 };
        for t in [0.01, 1.0, 10.0] {
            let x = 0.3 * t;
            assert!((law.spaced_freshness(t) - (-expm1(-x)) / x).abs() < 1e-14);
            // marginal = g(x)/λ with g(x) = 1 − e^{−x}(1 + x)
            let g = crate::core::math::freshness::marginal_gain(x);
            assert!((law.marginal(t) - g / 0.3).abs() < 1e-12 * (g / 0.3).max(1e-300) + 1e-15);
        }
        assert!((law.mean_residual() - 1.0 / 0.3).abs() < 1e-12);
    }

    #[test]
    fn small_intervals_keep_their_precision() {
        // H(T) ≈ T for T far below the shortest bin: no cancellation
        let h = Histogram::from_intervals(&[1e6, 2e6, 4e6]).unwrap();
        let t = 1e-6;
        let exact = t - t * t / (2.0 * h.mean());
        assert!((h.excess_integral(t) / h.mean() - exact).abs() <= 1e-15 * exact);
    }

    #[test]
    fn sampling_reproduces_the_histogram_and_its_moments() {
        let h = Histogram::from_intervals(&[0.5, 1.0, 1.0, 2.0, 5.0, 9.0, 30.0, 31.0, 200.0, 1000.0]).unwrap();
        let mut rng = Stream::of(4, Purpose::Test, 0);
        let n = 400_000;
        let samples: Vec<f64> = (0..n).map(|_| h.sample(&mut rng)).collect();
        let mean = samples.iter().sum::<f64>() / n as f64;
        let second = samples.iter().map(|x| x * x).sum::<f64>() / n as f64;
        let sd = (h.second_moment() - h.mean() * h.mean()).sqrt();
        assert!((mean - h.mean()).abs() < 4.0 * sd / (n as f64).sqrt(), "mean {mean} vs {}", h.mean());
        assert!((second - h.second_moment()).abs() / h.second_moment() < 0.02);
        let mut counts = [0usize; BINS];
        for &x in &samples {
            counts[Histogram::bin_of(&h.edges, x)] += 1;
        }
        for (k, (&count, &p)) in counts.iter().zip(h.probabilities()).enumerate() {
            let se = (p * (1.0 - p) / n as f64).sqrt();
            assert!((count as f64 / n as f64 - p).abs() <= 4.0 * se + 1e-12, "bin {k}");
        }
        // conditioned draws stay in their range
        let (lo, hi) = (h.cdf(3.0), h.cdf(40.0));
        for _ in 0..10_000 {
            let x = h.sample_between(lo, hi, &mut rng);
            assert!(x > 3.0 - 1e-12 && x <= 40.0 + 1e-12, "{x}");
        }
    }

    #[test]
    fn equal_intervals_make_a_point_mass() {
        let h = Histogram::from_intervals(&[5.0, 5.0, 5.0]).unwrap();
        assert_eq!(h.mean(), 5.0);
        assert_eq!(h.cdf(4.999), 0.0);
        assert_eq!(h.cdf(5.0), 1.0);
        let mut rng = Stream::of(1, Purpose::Test, 1);
        assert_eq!(h.sample(&mut rng), 5.0);
        // a copy refreshed every 5 is fresh, on average, half the time after a random start... of each interval
        assert!((h.spaced_freshness(5.0) - 0.5).abs() < 1e-12);
    }
}
