//! Where the texts inside the plot go: a marker's note and a line's tag each have a few
//! candidate boxes, and the one chosen covers the fewest of the figure's points and
//! nothing already placed (markers, earlier texts), inside the plot if it can be.
//! Greedy, in the order asked: notes first (they belong to one point), then tags.

use super::measure::TextBox;
use std::ops::Range;

/// A text to place: its size and the top-left corners it may take, best first.
pub struct Request {
    pub size: (i32, i32),
    pub corners: Vec<(i32, i32)>,
    /// Points it may cover without cost (a tag sits on its own line).
    pub own: Vec<(i32, i32)>,
    /// A note's marker: when every corner near it covers data, the note may go anywhere
    /// in the plot (nearest first), tied to the marker by a leader (Eq 5-9's level sets
    /// at 1280 × 720: the minimum's note lay over four contours within its reach).
    pub roams_from: Option<(i32, i32)>,
}

pub struct Placer {
    plot: (Range<i32>, Range<i32>),
    points: Vec<(i32, i32)>,
    taken: Vec<TextBox>,
    pad: i32,
    /// The points counted by cells, built when a note first roams.
    density: Option<Density>,
}

impl Placer {
    /// `points`: the figure's data in pixels; `taken`: boxes nothing may cover.
    pub fn new(plot: (Range<i32>, Range<i32>), points: Vec<(i32, i32)>, taken: Vec<TextBox>, pad: i32) -> Self {
        Placer { plot, points, taken, pad, density: None }
    }

    /// The chosen top-left corner, now taken.
    pub fn place(&mut self, request: &Request) -> (i32, i32) {
        let (corner, _) = self.best(request);
        self.take(corner, request.size);
        corner
    }

    /// Takes the box of `size` at `corner`: nothing placed later covers it.
    pub fn take(&mut self, (x, y): (i32, i32), (w, h): (i32, i32)) {
        let p = self.pad;
        self.taken.push([x - p, y - p, x + w + p, y + h + p]);
    }

    /// The best top-left corner for `request`, not yet taken, and how many of the
    /// figure's points (not its own) its box covers there.
    pub fn best(&mut self, request: &Request) -> ((i32, i32), usize) {
        let (w, h) = request.size;
        let p = self.pad;
        // looked up for every covered point of every candidate: sorted, not scanned
        let mut own = request.own.clone();
        own.sort_unstable();
        let at = |(x, y): (i32, i32)| [x - p, y - p, x + w + p, y + h + p];
        let score = |c: &(i32, i32), order: i64| {
            let b = at(*c);
            let covered = self.points.iter().filter(|q| within(&b, q) && own.binary_search(q).is_err()).count() as i64;
            placing_cost(&self.taken, &self.plot, &b, covered, order)
        };
        let near = request.corners.iter().enumerate().map(|(k, c)| (score(c, k as i64), *c)).min();
        let roams = match (near, request.roams_from) {
            (Some((best, _)), Some(from)) if best >= request.corners.len() as i64 => Some(from),
            _ => None,
        };
        let far = roams.and_then(|from| {
            let density = self.density.get_or_insert_with(|| Density::new(&self.plot, &self.points));
            // points counted by cells (a cell grazed counts whole)
            let score = |c: (i32, i32), order: i64| placing_cost(&self.taken, &self.plot, &at(c), density.count(&at(c)), order);
            roaming(&self.plot, request.size, from).into_iter().map(|(order, c)| (score(c, request.corners.len() as i64 + order), c)).min()
        });
        let best = near.into_iter().chain(far).min().map(|(_, c)| c).unwrap_or((self.plot.0.start, self.plot.1.start));
        let b = at(best);
        (best, self.points.iter().filter(|q| within(&b, q) && own.binary_search(q).is_err()).count())
    }
}

/// What placing a text's box `b` costs: texts never on texts; then as few points as may
/// be; inside the plot; the earlier candidates (nearer the middle, nearer the marker) on
/// a tie.
fn placing_cost(taken: &[TextBox], (xr, yr): &(Range<i32>, Range<i32>), b: &TextBox, covered: i64, order: i64) -> i64 {
    let overlap: i64 = taken.iter().map(|t| area(intersection(b, t))).sum();
    let outside = area(*b) - area(intersection(b, &[xr.start, yr.start, xr.end, yr.end]));
    overlap * 1_000 + outside * 100 + covered * 20 + order
}

/// Corners over the whole plot, a sixteenth of the text's width and half a line apart
/// (at most 96 × 64 of them: a quarter's width and a line had missed the one clear
/// slot beside a curve, Eq 5-9's level sets at 960 × 540 at text size 2), each with its order: 0 to 16 by distance from `from`, so that
/// a clear place anywhere (at most 40 over the near corners' orders) beats one that
/// crosses a line (a line sampled every 4 px crosses a text box in about five points: 100).
fn roaming((xr, yr): &(Range<i32>, Range<i32>), (w, h): (i32, i32), from: (i32, i32)) -> Vec<(i64, (i32, i32))> {
    let (width, height) = (xr.end - xr.start, yr.end - yr.start);
    let (dx, dy) = ((w / 16).max(width / 96).max(1) as usize, (h / 2).max(height / 64).max(1) as usize);
    let diagonal = ((width.pow(2) + height.pow(2)) as f64).sqrt().max(1.0);
    let mut out = Vec::new();
    for y in (yr.start..(yr.end - h).max(yr.start + 1)).step_by(dy) {
        for x in (xr.start..(xr.end - w).max(xr.start + 1)).step_by(dx) {
            let centre = (x + w / 2 - from.0, y + h / 2 - from.1);
            let distance = ((centre.0 as f64).powi(2) + (centre.1 as f64).powi(2)).sqrt();
            out.push(((16.0 * distance / diagonal) as i64, (x, y)));
        }
    }
    out
}

/// The plot's points counted in cells of [`Density::CELL`] pixels, summed so that any
/// box's count is four lookups (a roaming note tries a thousand boxes; the points of a
/// long series run to hundreds of thousands).
struct Density {
    origin: (i32, i32),
    columns: usize,
    rows: usize,
    /// sums[(r) * (columns + 1) + c]: the points in cells above row r and left of column c.
    sums: Vec<u32>,
}

impl Density {
    const CELL: i32 = 4;

    fn new((xr, yr): &(Range<i32>, Range<i32>), points: &[(i32, i32)]) -> Self {
        let columns = ((xr.end - xr.start).max(0) / Self::CELL + 1) as usize;
        let rows = ((yr.end - yr.start).max(0) / Self::CELL + 1) as usize;
        let mut sums = vec![0u32; (rows + 1) * (columns + 1)];
        for &(x, y) in points {
            let (c, r) = ((x - xr.start) / Self::CELL, (y - yr.start) / Self::CELL);
            if (0..columns as i32).contains(&c) && (0..rows as i32).contains(&r) {
                sums[(r as usize + 1) * (columns + 1) + c as usize + 1] += 1;
            }
        }
        for r in 1..=rows {
            for c in 1..=columns {
                let k = r * (columns + 1) + c;
                sums[k] += sums[k - 1] + sums[k - columns - 1] - sums[k - columns - 2];
            }
        }
        Density { origin: (xr.start, yr.start), columns, rows, sums }
    }

    /// Points in the cells the box `b` touches.
    fn count(&self, b: &TextBox) -> i64 {
        let cell = |v: i32, o: i32, n: usize, up: bool| (((v - o) as f64 / Self::CELL as f64).floor() as i64 + i64::from(up)).clamp(0, n as i64) as usize;
        let (c0, c1) = (cell(b[0], self.origin.0, self.columns, false), cell(b[2] - 1, self.origin.0, self.columns, true));
        let (r0, r1) = (cell(b[1], self.origin.1, self.rows, false), cell(b[3] - 1, self.origin.1, self.rows, true));
        if c1 <= c0 || r1 <= r0 {
            return 0;
        }
        let at = |r: usize, c: usize| i64::from(self.sums[r * (self.columns + 1) + c]);
        at(r1, c1) - at(r0, c1) - at(r1, c0) + at(r0, c0)
    }
}

fn within(b: &TextBox, q: &(i32, i32)) -> bool {
    (b[0]..b[2]).contains(&q.0) && (b[1]..b[3]).contains(&q.1)
}

fn intersection(a: &TextBox, b: &TextBox) -> TextBox {
    [a[0].max(b[0]), a[1].max(b[1]), a[2].min(b[2]), a[3].min(b[3])]
}

fn area(b: TextBox) -> i64 {
    ((b[2] - b[0]).max(0) as i64) * ((b[3] - b[1]).max(0) as i64)
}

/// A note's corners around a marker at `at` (radius `r`, gap `gap`): beside it, above
/// and below, then farther out.
pub fn around(at: (i32, i32), size: (i32, i32), r: i32, gap: i32) -> Vec<(i32, i32)> {
    let (w, h) = size;
    let mut out = Vec::new();
    for reach in [r + gap, 2 * (r + gap) + h, 4 * (r + gap) + 2 * h] {
        let (x, y) = at;
        out.extend([
            (x + reach, y - reach - h / 2),
            (x - reach - w, y - reach - h / 2),
            (x + reach, y + reach - h / 2),
            (x - reach - w, y + reach - h / 2),
            (x + reach, y - h / 2),
            (x - reach - w, y - h / 2),
            (x - w / 2, y - reach - h),
            (x - w / 2, y + reach),
        ]);
    }
    out
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn a_text_goes_where_it_covers_nothing() {
        // points fill the left half of a 100×100 plot; a marker's note must go right
        let points: Vec<(i32, i32)> = (0..50).flat_map(|x| (0..100).step_by(5).map(move |y| (x, y))).collect();
        let mut placer = Placer::new((0..100, 0..100), points, vec![], 2);
        let request = Request { size: (30, 10), corners: around((50, 50), (30, 10), 4, 4), own: vec![], roams_from: None };
        let (x, _) = placer.place(&request);
        assert!(x >= 50, "placed at x = {x}");
    }

    #[test]
    fn a_second_text_never_covers_the_first() {
        let mut placer = Placer::new((0..200, 0..200), vec![], vec![], 2);
        let request = Request { size: (40, 12), corners: around((100, 100), (40, 12), 4, 4), own: vec![], roams_from: None };
        let a = placer.place(&request);
        let b = placer.place(&request);
        let boxes = [[a.0, a.1, a.0 + 40, a.1 + 12], [b.0, b.1, b.0 + 40, b.1 + 12]];
        assert_eq!(area(intersection(&boxes[0], &boxes[1])), 0);
    }

    /// A note whose every near corner crosses a line goes where it crosses none, the
    /// nearest such place; without a marker to roam from it stays near.
    #[test]
    fn a_note_hemmed_in_by_lines_roams_to_a_clear_place() {
        // a marker at (100, 100) ringed by squares 10 px apart out to 90 px, in a
        // 400 × 200 plot: the clear places lie right of x = 190
        let mut points = Vec::new();
        for r in (10..=90).step_by(10) {
            for t in (-r..=r).step_by(4) {
                points.extend([(100 + t, 100 - r), (100 + t, 100 + r), (100 - r, 100 + t), (100 + r, 100 + t)]);
            }
        }
        let request = |roams_from| Request { size: (60, 12), corners: around((100, 100), (60, 12), 4, 4), own: vec![], roams_from };
        let covered = |(x, y): (i32, i32)| points.iter().filter(|q| (x - 2..x + 62).contains(&q.0) && (y - 2..y + 14).contains(&q.1)).count();
        let near = Placer::new((0..400, 0..200), points.clone(), vec![], 2).place(&request(None));
        assert!(covered(near) > 0, "the test's rings leave a near corner clear: {near:?}");
        let far = Placer::new((0..400, 0..200), points.clone(), vec![], 2).place(&request(Some((100, 100))));
        assert_eq!(covered(far), 0, "placed at {far:?}");
        assert!(far.0 >= 190 && far.0 < 240, "not the nearest clear place: {far:?}");
    }

    /// The summed counts: exact on boxes on cell edges, never fewer than the points
    /// inside any other box.
    #[test]
    fn the_density_counts_the_points_in_a_box() {
        let plot = (10..210, 20..120);
        let points: Vec<(i32, i32)> = (0..500).map(|k: i32| (10 + (k * 37) % 200, 20 + (k * 53) % 100)).collect();
        let density = Density::new(&plot, &points);
        let exact = |b: &TextBox| points.iter().filter(|q| within(b, q)).count() as i64;
        for b in [[10, 20, 210, 120], [14, 24, 50, 60], [10, 20, 14, 24], [200, 100, 210, 120]] {
            assert_eq!(density.count(&b), exact(&b), "{b:?}");
        }
        for b in [[11, 23, 57, 41], [100, 50, 103, 51], [0, 0, 300, 300], [-5, -5, 12, 25]] {
            assert!(density.count(&b) >= exact(&b), "{b:?}");
        }
        assert_eq!(density.count(&[0, 0, 300, 300]), 500);
    }

    #[test]
    fn a_text_stays_inside_the_plot_when_it_can() {
        let mut placer = Placer::new((0..100, 0..100), vec![], vec![], 2);
        // a marker in the top-right corner: only the corners below-left stay inside
        let (x, y) = placer.place(&Request { size: (30, 10), corners: around((95, 5), (30, 10), 4, 4), own: vec![], roams_from: None });
        assert!(x >= 0 && x + 30 <= 100 && y >= 0 && y + 10 <= 100, "({x}, {y})");
    }
}
