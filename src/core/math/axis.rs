//! Sampling of a parameter range on a linear or logarithmic axis.

use crate::core::math::elementary::{log10, pow};

/// `n` nodes from `min` to `max`, equally spaced on a linear or a log₁₀ scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridAxis {
    pub min: f64,
    pub max: f64,
    pub log: bool,
    pub n: usize,
}

impl GridAxis {
    /// The k-th node, k ∈ [0, n − 1]; fractional k interpolates on the axis's scale.
    pub fn at(&self, k: f64) -> f64 {
        let t = k / (self.n - 1) as f64;
        if self.log {
            let (a, b) = (log10(self.min), log10(self.max));
            pow(10.0, a + t * (b - a))
        } else {
            self.min + t * (self.max - self.min)
        }
    }

    /// The nodes, with the end points exactly `min` and `max`.
    pub fn nodes(&self) -> Vec<f64> {
        let mut v: Vec<f64> = (0..self.n).map(|k| self.at(k as f64)).collect();
        v[0] = self.min;
        v[self.n - 1] = self.max;
        v
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn linear_and_log_nodes() {
        let lin = GridAxis { min: 1.0, max: 3.0, log: false, n: 5 };
        assert_eq!(lin.nodes(), vec![1.0, 1.5, 2.0, 2.5, 3.0]);
        let log = GridAxis { min: 1.0, max: 1e4, log: true, n: 5 };
        let nodes = log.nodes();
        for (k, v) in nodes.iter().enumerate() {
            assert!((v / 10f64.powi(k as i32) - 1.0).abs() < 1e-14);
        }
        assert!((log.at(0.5) - 10f64.powf(0.5)).abs() < 1e-14);
    }
}
