//! Clipping of polylines to an axis box (plotters would clamp stray points onto the
//! frame instead, drawing false lines along it). Works in the axes' own scales.

use super::figure::Axis;
use crate::core::math::elementary::{log10, pow};

/// Position on the axis's scale (log₁₀ for log axes; non-positive values sink far below).
fn to_scale(axis: &Axis, v: f64) -> f64 {
    if !axis.log {
        v
    } else if v > 0.0 {
        log10(v)
    } else {
        log10(axis.min) - 300.0
    }
}

fn from_scale(axis: &Axis, t: f64) -> f64 {
    if axis.log { pow(10.0, t) } else { t }
}

/// Liang–Barsky: the part of segment p→q inside the box, as parameters (t0, t1).
fn clip_segment(p: (f64, f64), q: (f64, f64), lo: (f64, f64), hi: (f64, f64)) -> Option<(f64, f64)> {
    let (dx, dy) = (q.0 - p.0, q.1 - p.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (den, num) in [(-dx, p.0 - lo.0), (dx, hi.0 - p.0), (-dy, p.1 - lo.1), (dy, hi.1 - p.1)] {
        if den == 0.0 {
            if num < 0.0 {
                return None;
            }
        } else {
            let t = num / den;
            if den < 0.0 { t0 = t0.max(t) } else { t1 = t1.min(t) }
        }
    }
    (t0 <= t1).then_some((t0, t1))
}

/// The pieces of `line` inside the box x × y. Non-finite points break the line.
pub fn clip_polyline(line: &[[f64; 2]], x: &Axis, y: &Axis) -> Vec<Vec<(f64, f64)>> {
    let lo = (to_scale(x, x.min), to_scale(y, y.min));
    let hi = (to_scale(x, x.max), to_scale(y, y.max));
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let back = |t: (f64, f64)| (from_scale(x, t.0), from_scale(y, t.1));
    for pair in line.windows(2) {
        let p = (to_scale(x, pair[0][0]), to_scale(y, pair[0][1]));
        let q = (to_scale(x, pair[1][0]), to_scale(y, pair[1][1]));
        let inside = p.0.is_finite() && p.1.is_finite() && q.0.is_finite() && q.1.is_finite();
        match inside.then(|| clip_segment(p, q, lo, hi)).flatten() {
            Some((t0, t1)) => {
                let a = (p.0 + t0 * (q.0 - p.0), p.1 + t0 * (q.1 - p.1));
                let b = (p.0 + t1 * (q.0 - p.0), p.1 + t1 * (q.1 - p.1));
                if current.is_empty() || t0 > 0.0 {
                    if current.len() > 1 {
                        pieces.push(std::mem::take(&mut current));
                    }
                    current = vec![back(a)];
                }
                current.push(back(b));
                if t1 < 1.0 {
                    pieces.push(std::mem::take(&mut current));
                }
            }
            None => {
                if current.len() > 1 {
                    pieces.push(std::mem::take(&mut current));
                }
                current.clear();
            }
        }
    }
    if current.len() > 1 {
        pieces.push(current);
    }
    pieces
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn axis(min: f64, max: f64, log: bool) -> Axis {
        Axis { label: String::new(), min, max, log }
    }

    #[test]
    fn a_line_leaving_and_reentering_is_cut_in_two() {
        let line = [[0.0, 0.5], [0.5, 0.5], [0.5, 2.0], [0.8, 0.5], [0.9, 0.5]];
        let pieces = clip_polyline(&line, &axis(0.0, 1.0, false), &axis(0.0, 1.0, false));
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces[0], vec![(0.0, 0.5), (0.5, 0.5), (0.5, 1.0)]);
        assert!((pieces[1][0].1 - 1.0).abs() < 1e-12 && pieces[1].last() == Some(&(0.9, 0.5)));
    }

    #[test]
    fn log_axes_clip_in_log_space_and_drop_zeros() {
        let line = [[1.0, 1.0], [100.0, 1e-30], [1000.0, 0.0]];
        let pieces = clip_polyline(&line, &axis(1.0, 1000.0, true), &axis(1e-10, 1.0, true));
        assert_eq!(pieces.len(), 1);
        let end = pieces[0].last().unwrap();
        assert!((end.1 / 1e-10 - 1.0).abs() < 1e-9, "{end:?}");
        // on the log scale the crossing is at x = 10^(2·10/30)
        assert!((end.0 - 10f64.powf(2.0 / 3.0)).abs() < 1e-9, "{end:?}");
    }

    #[test]
    fn lines_outside_give_nothing() {
        let pieces = clip_polyline(&[[2.0, 2.0], [3.0, 3.0]], &axis(0.0, 1.0, false), &axis(0.0, 1.0, false));
        assert!(pieces.is_empty());
    }
}
