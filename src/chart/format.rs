//! Number formats shared by every figure's title, notes and summary.

/// `v` with `digits` significant digits, without trailing zeros.
pub fn sig(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() < 1e-4 || v.abs() >= 1e12 {
        let text = format!("{:.*e}", digits.saturating_sub(1), v);
        let (mantissa, exponent) = text.split_once('e').expect("exponent form");
        return format!("{}e{exponent}", trim_zeros(mantissa));
    }
    let decimals = decimals(v, digits);
    trim_zeros(&format!("{v:.decimals$}")).to_string()
}

/// A proved bound with `digits` significant digits (for 10⁻⁴ ≤ |v| < 10¹²), rounded the
/// safe way so that the digits shown stay proved: a lower bound down, an upper bound up
/// (a lower bound of 0.92723043627 reads 0.9272304362, where `sig` gives 0.9272304363).
pub fn sig_bound(v: f64, digits: usize, lower: bool) -> String {
    if v == 0.0 || !v.is_finite() || v.abs() < 1e-4 || v.abs() >= 1e12 {
        return sig(v, digits);
    }
    let decimals = decimals(v, digits);
    let scale = 10f64.powi(decimals as i32);
    let rounded = if lower { (v * scale).floor() } else { (v * scale).ceil() } / scale;
    trim_zeros(&format!("{rounded:.decimals$}")).to_string()
}

/// Decimals that give finite, non-zero `v` `digits` significant digits (none for a large v).
fn decimals(v: f64, digits: usize) -> usize {
    (digits as i32 - 1 - v.abs().log10().floor() as i32).max(0) as usize
}

/// A decimal number without its trailing zeros, nor a point left bare: 1.50 → 1.5, 2.0 → 2.
pub fn trim_zeros(s: &str) -> &str {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.') } else { s }
}

/// A rate or amount that may fall below one: three significant digits under 1,000
/// (0.04, 24, 240), whole with thousands separators above (5,000,000).
pub fn amount(v: f64) -> String {
    if v.abs() < 1000.0 { sig(v, 3) } else { thousands(v) }
}

/// A count with thousands separators: 5,000,000.
pub fn thousands(v: f64) -> String {
    let digits = format!("{:.0}", v.abs());
    let mut out = String::new();
    for (k, ch) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if v < 0.0 { format!("-{out}") } else { out }
}

/// A polyline from paired coordinates.
pub fn curve(x: &[f64], y: &[f64]) -> Vec<Vec<[f64; 2]>> {
    vec![x.iter().zip(y).map(|(&a, &b)| [a, b]).collect()]
}

/// What a result says where its change rates are estimates (a history's page list):
/// `what` (e.g. "the mean freshness") of each labelled item as the lowest to the highest
/// over the `redraws` redraws of the rates within their intervals; empty without items.
pub fn spread_note(what: &str, redraws: usize, items: &[(String, [f64; 3])]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let parts: Vec<String> = items.iter().map(|(label, [lo, _, hi])| format!("{label} {} to {}", sig(*lo, 3), sig(*hi, 3))).collect();
    format!(" The change rates are estimates: with each redrawn within its interval ({redraws} times), {what} is {}.", parts.join(", "))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn number_formats() {
        assert_eq!(sig(0.927230437, 7), "0.9272304");
        assert_eq!(sig(1.0, 4), "1");
        assert_eq!(sig(159.36404, 5), "159.36");
        assert_eq!(thousands(5_000_000.0), "5,000,000");
        assert_eq!(thousands(5462.0), "5,462");
        assert_eq!(thousands(12.0), "12");
        assert_eq!((amount(0.04), amount(57.6), amount(240.0), amount(5462.3)), ("0.04".into(), "57.6".into(), "240".into(), "5,462".into()));
        assert_eq!(sig(1e-9, 2), "1e-9");
        assert_eq!(sig(2.5e-7, 2), "2.5e-7");
        assert_eq!(sig(1e-9, 4), "1e-9");
        assert_eq!(sig(2.0e13, 3), "2e13");
        assert_eq!(sig(-0.5, 3), "-0.5");
        assert_eq!(sig(12345.6, 2), "12346", "no decimals, and no rounding to tens");
    }

    #[test]
    fn tick_labels_are_short() {
        use crate::chart::draw::tick;
        let labels: Vec<String> = [0.0, 0.25, 3.0, 1500.0, 15_000.0, 2.5e6, 3.0e9, 1e-6].into_iter().map(tick).collect();
        assert_eq!(labels, ["0", "0.25", "3", "1500", "15k", "2.5M", "3G", "1e-6"]);
        assert_eq!(trim_zeros("2.50"), "2.5");
        assert_eq!(trim_zeros("200"), "200", "an integer keeps its zeros");
    }

    #[test]
    fn bounds_round_away_from_what_they_bound() {
        // the certified bounds of Eq 5-9 (docs/researchers.md): rounding to nearest would claim more
        assert_eq!(sig(0.9272304362680087, 10), "0.9272304363");
        assert_eq!(sig_bound(0.9272304362680087, 10, true), "0.9272304362");
        assert_eq!(sig_bound(0.9272304372535692, 10, false), "0.9272304373");
        assert_eq!(sig_bound(0.9685049032122983, 4, true), "0.9685");
        assert_eq!(sig_bound(0.96851, 4, false), "0.9686");
        assert_eq!(sig_bound(159.36404, 5, true), "159.36");
        assert_eq!(sig_bound(0.5, 3, true), "0.5");
    }
}
