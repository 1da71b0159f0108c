//! Confidence intervals for simulated means.

/// The 97.5 % quantile of Student's t with `dof` degrees of freedom (two-sided 95 %).
/// Exact table to 30, then the Cornish–Fisher expansion around the normal quantile.
pub fn t_975(dof: u64) -> f64 {
    const TABLE: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    match dof {
        0 => f64::INFINITY,
        1..=30 => TABLE[dof as usize - 1],
        _ => {
            let z = 1.959_963_984_540_054;
            let n = dof as f64;
            z + (z * z * z + z) / (4.0 * n) + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * n * n)
        }
    }
}

/// The standard normal quantile: z with P(Z ≤ z) = p, for p in (0, 1), by bisection on
/// libm's erfc (Φ(z) = erfc(−z/√2)/2) to the last bit.
pub fn normal_quantile(p: f64) -> f64 {
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid == lo || mid == hi {
            break;
        }
        if 0.5 * libm::erfc(-mid / std::f64::consts::SQRT_2) < p { lo = mid } else { hi = mid }
    }
    0.5 * (lo + hi)
}

/// Mean and 95 % confidence half-width of independent replications.
pub fn mean_and_half_width(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = samples.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, t_975(samples.len() as u64 - 1) * (var / n).sqrt())
}

/// The ratio estimator of a quantity from independent groups' estimates `num` of it and
/// `den` of an auxiliary quantity whose true value `known` is known: known · Σ num / Σ den,
/// with the 95 % half-width of its linearisation — Student's t over the groups' residuals
/// num − R·den, over the mean of `den` (Cochran, *Sampling Techniques*, §6.4). Far
/// narrower than the plain mean's when num and den move together; without any auxiliary
/// (Σ den = 0), the plain mean of `num`.
pub fn ratio_estimate(num: &[f64], den: &[f64], known: f64) -> (f64, f64) {
    let (sum_num, sum_den) = (num.iter().sum::<f64>(), den.iter().sum::<f64>());
    if sum_den <= 0.0 {
        return mean_and_half_width(num);
    }
    let r = sum_num / sum_den;
    let residuals: Vec<f64> = num.iter().zip(den).map(|(n, d)| n - r * d).collect();
    (known * r, known * mean_and_half_width(&residuals).1 / (sum_den / den.len() as f64))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::{Purpose, Stream};

    #[test]
    fn quantiles_join_the_table_and_the_limit() {
        assert!((t_975(31) - 2.0395).abs() < 1e-3, "{}", t_975(31)); // tables: 2.040
        assert!((t_975(120) - 1.980).abs() < 1e-3);
        assert!((t_975(100_000) - 1.96).abs() < 1e-3);
    }

    /// By hand: R = 14/8 = 1.75; residuals 0.25, 0.5, −0.5, −0.25 (variance 0.625/3); the
    /// half-width t₃ · √(0.625/12) over the mean of den, 2: 3.182 × 0.228218 / 2.
    #[test]
    fn the_ratio_estimate_of_a_hand_computed_case() {
        let (r, half) = ratio_estimate(&[2.0, 4.0, 3.0, 5.0], &[1.0, 2.0, 2.0, 3.0], 2.0);
        assert!((r - 3.5).abs() < 1e-15);
        assert!((half - 2.0 * 0.363_094_412).abs() < 1e-8, "{half}");
        // groups proportional to the auxiliary: the estimate is exact, the interval nil
        let (r, half) = ratio_estimate(&[0.25, 0.5, 0.75], &[1.0, 2.0, 3.0], 0.5);
        assert!((r - 0.125).abs() < 1e-15 && half.abs() < 1e-15, "{r} {half}");
        // no auxiliary: the plain mean
        assert_eq!(ratio_estimate(&[1.0, 3.0], &[0.0, 0.0], 7.0), mean_and_half_width(&[1.0, 3.0]));
    }

    #[test]
    fn intervals_cover_the_mean_about_95_percent_of_the_time() {
        let mut s = Stream::of(31, Purpose::Test, 0);
        let trials = 2000;
        let covered = (0..trials)
            .filter(|_| {
                let x: Vec<f64> = (0..10).map(|_| s.exponential(1.0)).collect();
                let (m, h) = mean_and_half_width(&x);
                (m - 1.0).abs() <= h
            })
            .count();
        // exponential samples are skewed: coverage a little under 95 %; a clear band
        let share = covered as f64 / trials as f64;
        assert!((0.88..0.97).contains(&share), "{share}");
    }
}
