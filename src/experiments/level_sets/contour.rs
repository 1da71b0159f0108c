//! Contour lines of a function sampled on a grid (marching squares), joined into
//! polylines. Works in grid-index space; the caller maps indices to coordinates.

use std::collections::HashMap;

/// Values z[j][i] on a grid of `nx` × `ny` nodes, stored row by row (j = row).
pub struct Grid<'a> {
    pub nx: usize,
    pub ny: usize,
    pub z: &'a [f64],
}

/// A point in fractional grid-index coordinates (i, j).
pub type IndexPoint = (f64, f64);

/// A crossing of the level on a grid edge; edges are numbered so that the two cells
/// sharing an edge name it alike, which is how segments are joined.
type EdgeId = usize;

impl Grid<'_> {
    fn at(&self, i: usize, j: usize) -> f64 {
        self.z[j * self.nx + i]
    }

    fn horizontal(&self, i: usize, j: usize) -> EdgeId {
        2 * (j * self.nx + i)
    }

    fn vertical(&self, i: usize, j: usize) -> EdgeId {
        2 * (j * self.nx + i) + 1
    }

    /// The point where the level crosses edge `id`, by linear interpolation.
    fn crossing(&self, id: EdgeId, level: f64) -> IndexPoint {
        let node = id / 2;
        let (i, j) = (node % self.nx, node / self.nx);
        let a = self.at(i, j);
        if id.is_multiple_of(2) {
            let b = self.at(i + 1, j);
            (i as f64 + fraction(a, b, level), j as f64)
        } else {
            let b = self.at(i, j + 1);
            (i as f64, j as f64 + fraction(a, b, level))
        }
    }

    /// The polylines along which the sampled function equals `level`.
    /// Closed loops repeat their first point at the end.
    pub fn contour(&self, level: f64) -> Vec<Vec<IndexPoint>> {
        let segments = self.segments(level);
        join(&segments).into_iter().map(|ids| ids.into_iter().map(|id| self.crossing(id, level)).collect()).collect()
    }

    /// Marching squares: for each cell, the pairs of edges the level crosses.
    fn segments(&self, level: f64) -> Vec<(EdgeId, EdgeId)> {
        let mut out = Vec::new();
        if self.nx < 2 || self.ny < 2 {
            return out;
        }
        for j in 0..self.ny - 1 {
            for i in 0..self.nx - 1 {
                let corners = [self.at(i, j), self.at(i + 1, j), self.at(i + 1, j + 1), self.at(i, j + 1)];
                if corners.iter().any(|v| !v.is_finite()) {
                    continue;
                }
                let above = corners.map(|v| v >= level);
                let case = above.iter().enumerate().fold(0, |acc, (k, &a)| acc | ((a as u8) << k));
                // edges: 0 bottom, 1 right, 2 top, 3 left
                let edge = [self.horizontal(i, j), self.vertical(i + 1, j), self.horizontal(i, j + 1), self.vertical(i, j)];
                let mut push = |a: usize, b: usize| out.push((edge[a], edge[b]));
                match case {
                    0 | 15 => {}
                    1 | 14 => push(3, 0),
                    2 | 13 => push(0, 1),
                    3 | 12 => push(3, 1),
                    4 | 11 => push(1, 2),
                    6 | 9 => push(0, 2),
                    7 | 8 => push(3, 2),
                    5 | 10 => {
                        // saddle: the cell centre decides which corners connect
                        let centre_above = corners.iter().sum::<f64>() / 4.0 >= level;
                        if (case == 5) == centre_above {
                            push(3, 2);
                            push(0, 1);
                        } else {
                            push(3, 0);
                            push(1, 2);
                        }
                    }
                    _ => unreachable!("four corners give 16 cases"),
                }
            }
        }
        out
    }
}

/// Where between a (at 0) and b (at 1) the linear interpolant equals `level`.
fn fraction(a: f64, b: f64, level: f64) -> f64 {
    if a == b { 0.5 } else { ((level - a) / (b - a)).clamp(0.0, 1.0) }
}

/// Chains segments that share an edge into polylines of edge ids.
fn join(segments: &[(EdgeId, EdgeId)]) -> Vec<Vec<EdgeId>> {
    let mut touching: HashMap<EdgeId, Vec<usize>> = HashMap::with_capacity(segments.len() * 2);
    for (k, &(a, b)) in segments.iter().enumerate() {
        touching.entry(a).or_default().push(k);
        touching.entry(b).or_default().push(k);
    }
    let mut used = vec![false; segments.len()];
    let mut lines = Vec::new();
    // Open lines start at an edge touched once (the grid's border); loops anywhere.
    let mut starts: Vec<usize> = (0..segments.len()).collect();
    starts.sort_by_key(|&k| {
        let (a, b) = segments[k];
        !(touching[&a].len() == 1 || touching[&b].len() == 1)
    });
    for start in starts {
        if used[start] {
            continue;
        }
        used[start] = true;
        let (a, b) = segments[start];
        let (first, mut last) = if touching[&b].len() == 1 { (b, a) } else { (a, b) };
        let mut line = vec![first, last];
        while let Some(&next) = touching[&last].iter().find(|&&k| !used[k]) {
            used[next] = true;
            let (p, q) = segments[next];
            last = if p == last { q } else { p };
            line.push(last);
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn sampled(nx: usize, ny: usize, f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
        (0..ny).flat_map(|j| (0..nx).map(move |i| (i, j))).map(|(i, j)| f(i as f64, j as f64)).collect()
    }

    #[test]
    fn a_circle_gives_one_closed_loop_on_the_circle() {
        let (n, c, radius) = (41, 20.0, 12.3);
        let z = sampled(n, n, |x, y| ((x - c).powi(2) + (y - c).powi(2)).sqrt());
        let lines = Grid { nx: n, ny: n, z: &z }.contour(radius);
        assert_eq!(lines.len(), 1);
        let line = &lines[0];
        assert_eq!(line.first(), line.last(), "closed");
        for &(x, y) in line {
            let d = ((x - c).powi(2) + (y - c).powi(2)).sqrt();
            assert!((d - radius).abs() < 0.05, "point at distance {d}");
        }
    }

    #[test]
    fn a_plane_gives_one_straight_open_line() {
        let z = sampled(10, 7, |x, y| x + 2.0 * y);
        let lines = Grid { nx: 10, ny: 7, z: &z }.contour(7.5);
        assert_eq!(lines.len(), 1);
        for &(x, y) in &lines[0] {
            assert!((x + 2.0 * y - 7.5).abs() < 1e-12);
        }
        assert!(lines[0].len() >= 4);
    }

    #[test]
    fn levels_outside_the_range_give_nothing_and_non_finite_cells_are_skipped() {
        let z = sampled(5, 5, |x, y| x * y);
        assert!(Grid { nx: 5, ny: 5, z: &z }.contour(100.0).is_empty());
        let mut z = sampled(5, 5, |x, _| x);
        z[12] = f64::NAN;
        let lines = Grid { nx: 5, ny: 5, z: &z }.contour(2.5);
        assert!(lines.iter().flatten().all(|p| p.0.is_finite() && p.1.is_finite()));
    }

    #[test]
    fn two_bumps_give_two_loops() {
        let z = sampled(40, 20, |x, y| {
            let b = |cx: f64| (-((x - cx).powi(2) + (y - 10.0).powi(2)) / 20.0).exp();
            b(10.0) + b(30.0)
        });
        assert_eq!(Grid { nx: 40, ny: 20, z: &z }.contour(0.5).len(), 2);
    }
}
