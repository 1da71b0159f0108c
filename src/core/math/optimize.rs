//! Small derivative-free minimisers used to locate the minima the charts mark.
//! (Certified bounds come from `theory::certify`, not from these.)

/// Golden-section search for the minimum of a unimodal `f` on [a, b].
/// Returns (argmin, min).
pub fn golden_section_min(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64, tol: f64) -> (f64, f64) {
    let inv_phi = (5f64.sqrt() - 1.0) / 2.0;
    let mut x1 = b - inv_phi * (b - a);
    let mut x2 = a + inv_phi * (b - a);
    let (mut f1, mut f2) = (f(x1), f(x2));
    while b - a > tol * (1.0 + a.abs() + b.abs()) {
        if f1 < f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - inv_phi * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + inv_phi * (b - a);
            f2 = f(x2);
        }
    }
    let x = 0.5 * (a + b);
    (x, f(x))
}

/// A point of a two-dimensional box and the value there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Minimum2 {
    pub x: f64,
    pub y: f64,
    pub value: f64,
}

/// Compass (pattern) search from `start` inside the box [x0, x1] × [y0, y1]: polls the
/// eight neighbours at the current step, moves to the best improvement, halves the step
/// when none improves. Converges to a local minimum, possibly on the box's boundary.
pub fn pattern_search_in_box(f: impl Fn(f64, f64) -> f64, start: Minimum2, (x0, x1): (f64, f64), (y0, y1): (f64, f64), relative_tol: f64) -> Minimum2 {
    let mut best = start;
    let (mut hx, mut hy) = ((x1 - x0) / 16.0, (y1 - y0) / 16.0);
    let (stop_x, stop_y) = (relative_tol * (x1 - x0), relative_tol * (y1 - y0));
    while hx > stop_x || hy > stop_y {
        let mut improved = false;
        for (dx, dy) in [(-1.0, -1.0), (-1.0, 0.0), (-1.0, 1.0), (0.0, -1.0), (0.0, 1.0), (1.0, -1.0), (1.0, 0.0), (1.0, 1.0)] {
            let x = (best.x + dx * hx).clamp(x0, x1);
            let y = (best.y + dy * hy).clamp(y0, y1);
            let value = f(x, y);
            if value < best.value {
                best = Minimum2 { x, y, value };
                improved = true;
            }
        }
        if !improved {
            hx *= 0.5;
            hy *= 0.5;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn golden_section_finds_a_parabola_vertex() {
        let (x, v) = golden_section_min(|x| (x - 1.25) * (x - 1.25) + 3.0, -10.0, 10.0, 1e-12);
        assert!((x - 1.25).abs() < 1e-6 && (v - 3.0).abs() < 1e-12);
    }

    #[test]
    fn pattern_search_finds_interior_and_boundary_minima() {
        let f = |x: f64, y: f64| (x - 0.3).powi(2) + 2.0 * (y - 0.7).powi(2) + 0.5 * x * y;
        let start = Minimum2 { x: 0.9, y: 0.1, value: f(0.9, 0.1) };
        let m = pattern_search_in_box(f, start, (0.0, 1.0), (0.0, 1.0), 1e-10);
        // interior minimum: ∇f = 0 ⇔ 2x + y/2 = 0.6 and x/2 + 4y = 2.8
        let det = 2.0 * 4.0 - 0.25;
        let x = (0.6 * 4.0 - 0.5 * 2.8) / det;
        let y = (2.0 * 2.8 - 0.5 * 0.6) / det;
        assert!((m.x - x).abs() < 1e-6 && (m.y - y).abs() < 1e-6, "{m:?} vs {x},{y}");
        let g = |x: f64, y: f64| x + y;
        let m = pattern_search_in_box(g, Minimum2 { x: 0.5, y: 0.5, value: 1.0 }, (0.2, 1.0), (0.1, 1.0), 1e-10);
        assert!((m.x - 0.2).abs() < 1e-9 && (m.y - 0.1).abs() < 1e-9);
    }
}
