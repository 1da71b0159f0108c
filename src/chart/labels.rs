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
}

impl Placer {
    /// `points`: the figure's data in pixels; `taken`: boxes nothing may cover.
    pub fn new(plot: (Range<i32>, Range<i32>), points: Vec<(i32, i32)>, taken: Vec<TextBox>, pad: i32) -> Self {
        Placer { plot, points, taken, pad }
    }

    /// The chosen top-left corner, now taken.
    pub fn place(&mut self, request: &Request) -> (i32, i32) {
        let (w, h) = request.size;
        let p = self.pad;
        // looked up for every covered point of every candidate: sorted, not scanned
        let mut own = request.own.clone();
        own.sort_unstable();
        let score = |&(x, y): &(i32, i32), order: i64| {
            let b = [x - p, y - p, x + w + p, y + h + p];
            let overlap: i64 = self.taken.iter().map(|t| area(intersection(&b, t))).sum();
            let covered = self.points.iter().filter(|q| within(&b, q) && own.binary_search(q).is_err()).count() as i64;
            let (xr, yr) = &self.plot;
            let outside = area([b[0], b[1], b[2], b[3]]) - area(intersection(&b, &[xr.start, yr.start, xr.end, yr.end]));
            // texts never on texts; then as few points as may be; inside the plot; the
            // earlier candidates (nearer the middle, nearer the marker) on a tie
            overlap * 1_000 + outside * 100 + covered * 20 + order
        };
        let near = request.corners.iter().enumerate().map(|(k, c)| (score(c, k as i64), *c)).min();
        let far = match (near, request.roams_from) {
            (Some((best, _)), Some(from)) if best >= request.corners.len() as i64 => {
                self.roaming(request.size, from).into_iter().map(|(order, c)| (score(&c, request.corners.len() as i64 + order), c)).min()
            }
            _ => None,
        };
        let best = near.into_iter().chain(far).min().map(|(_, c)| c).unwrap_or((self.plot.0.start, self.plot.1.start));
        self.taken.push([best.0 - p, best.1 - p, best.0 + w + p, best.1 + h + p]);
        best
    }

    /// Corners over the whole plot, a quarter of the text's width and one line apart,
    /// each with its order: 0 to 16 by distance from `from`, so that a clear place
    /// anywhere (at most 36 over the near corners' orders) beats one that crosses a line
    /// (a line sampled every 4 px crosses a text box in about five points: 100).
    fn roaming(&self, (w, h): (i32, i32), from: (i32, i32)) -> Vec<(i64, (i32, i32))> {
        let (xr, yr) = &self.plot;
        let (dx, dy) = ((w / 4).max(1) as usize, h.max(1) as usize);
        let diagonal = (((xr.end - xr.start).pow(2) + (yr.end - yr.start).pow(2)) as f64).sqrt().max(1.0);
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

    #[test]
    fn a_text_stays_inside_the_plot_when_it_can() {
        let mut placer = Placer::new((0..100, 0..100), vec![], vec![], 2);
        // a marker in the top-right corner: only the corners below-left stay inside
        let (x, y) = placer.place(&Request { size: (30, 10), corners: around((95, 5), (30, 10), 4, 4), own: vec![], roams_from: None });
        assert!(x >= 0 && x + 30 <= 100 && y >= 0 && y + 10 <= 100, "({x}, {y})");
    }
}
