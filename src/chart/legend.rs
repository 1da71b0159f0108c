//! The legend: placed from the figure's own data — in the corner or at the edge of the
//! plot where no point lies, the figure's preferred corner first — or, when every such
//! place would cover data, outside the plot: to its right, or below it in columns,
//! smaller if it must be, never over the data and never out of the frame.

use super::draw::{dashes, split_in_two, stroke, x_label_area};
use super::figure::{Corner, Dash, Paint, Pen};
use super::theme::Theme;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::ops::Range;

/// What an entry shows beside its label.
#[derive(Clone, Copy, Debug)]
pub enum Glyph {
    Line(Pen),
    Swatch(Paint),
    /// A dot of a shape (0 circle, 1 square, 2 triangle, 3 diamond).
    Dot(Paint, u8),
}

#[derive(Clone, Debug)]
pub struct Entry {
    pub label: String,
    pub glyph: Glyph,
}

/// Where the legend goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Placement {
    None,
    /// Inside the plot, its top-left corner here (device pixels).
    Inside {
        x: i32,
        y: i32,
    },
    /// In a strip right of the plot, `width` device pixels wide, text at `scale`.
    Right {
        width: f64,
        scale: f64,
    },
    /// Below the plot, `height` device pixels, in `columns`, text at `scale`.
    Below {
        height: f64,
        columns: usize,
        scale: f64,
    },
}

impl Placement {
    /// The text's scale (1 inside the plot; 0 for no legend).
    pub fn scale(self) -> f64 {
        match self {
            Placement::None => 0.0,
            Placement::Inside { .. } => 1.0,
            Placement::Right { scale, .. } | Placement::Below { scale, .. } => scale,
        }
    }
}

/// The largest share of the plot's area a legend inside it may take.
const ROOM_INSIDE: f64 = 0.3;

pub struct Legend {
    entries: Vec<Entry>,
    /// Each entry's label as it is drawn: one line, or two ([`Legend::in_two_lines`]).
    lines: Vec<Vec<String>>,
    /// The widest line at scale 1, in device pixels.
    label_width: f64,
}

/// The step from a label's first line to its second, at scale 1 (font 13's line height).
const SECOND_LINE: f64 = 15.5;

impl Legend {
    pub fn new(entries: Vec<Entry>, theme: &Theme, measure: &dyn Fn(&str, f64) -> f64) -> Self {
        let lines = entries.iter().map(|e| vec![e.label.clone()]).collect();
        Self::of(entries, lines, theme, measure)
    }

    fn of(entries: Vec<Entry>, lines: Vec<Vec<String>>, theme: &Theme, measure: &dyn Fn(&str, f64) -> f64) -> Self {
        let size = theme.font_px(13.0);
        let label_width = lines.iter().flatten().map(|l| measure(l, size)).fold(0.0, f64::max);
        Legend { entries, lines, label_width }
    }

    /// The same legend with its long labels on two lines (as long as the longest
    /// label's longer half; shorter labels stay on one): half as wide, so that long labels
    /// below a plot keep a size a room can read (learning's eight entries at font 3 on a
    /// 4:3 slide had been drawn at 13 px). None where no label can be broken.
    pub fn in_two_lines(&self, theme: &Theme, measure: &dyn Fn(&str, f64) -> f64) -> Option<Legend> {
        let size = theme.font_px(13.0);
        let halves: Vec<Option<Vec<String>>> = self.entries.iter().map(|e| split_in_two(&e.label)).collect();
        let widest = |lines: &[String]| lines.iter().map(|l| measure(l, size)).fold(0.0, f64::max);
        let width = halves.iter().zip(&self.entries).map(|(h, e)| h.as_deref().map_or_else(|| measure(&e.label, size), widest)).fold(0.0, f64::max);
        if width >= self.label_width {
            return None;
        }
        let lines = halves
            .into_iter()
            .zip(&self.entries)
            .map(|(h, e)| if measure(&e.label, size) <= width { vec![e.label.clone()] } else { h.unwrap_or_else(|| vec![e.label.clone()]) })
            .collect();
        Some(Self::of(self.entries.clone(), lines, theme, measure))
    }

    /// Lines a row of the legend holds (1 or 2).
    fn row_lines(&self) -> usize {
        self.lines.iter().map(Vec::len).max().unwrap_or(1)
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Width and height of the box at text scale `scale`, in `columns`.
    fn size(&self, theme: &Theme, scale: f64, columns: usize) -> (f64, f64) {
        let (pad, glyph, row) = (theme.px(8.0), theme.px(24.0), self.row_height(theme, scale));
        let column = pad * 2.0 + glyph + self.label_width * scale;
        let rows = self.entries.len().div_ceil(columns.max(1));
        (column * columns as f64 + pad, pad * 2.0 + row * rows as f64)
    }

    /// A row's height at text scale `scale`: a line, and a second line's step where
    /// labels take two.
    fn row_height(&self, theme: &Theme, scale: f64) -> f64 {
        (theme.font_px(20.0) + theme.font_px(SECOND_LINE) * (self.row_lines() - 1) as f64) * scale
    }

    /// The first place inside the plot with no point under the box (the preferred corner
    /// first, then the other corners and the middles of the edges).
    pub fn inside(&self, range: &(Range<i32>, Range<i32>), points: &[(i32, i32)], preferred: Corner, theme: &Theme) -> Option<Placement> {
        let (w, h) = self.size(theme, 1.0, 1);
        let (xr, yr) = range;
        let inset = theme.px(10.0);
        let (width, height) = ((xr.end - xr.start) as f64, (yr.end - yr.start) as f64);
        // a legend that would fill the plot (a large font on a small frame) leaves no room
        // for the plot's own notes: it goes outside
        if w + 2.0 * inset > width || h + 2.0 * inset > height || w * h > ROOM_INSIDE * width * height {
            return None;
        }
        let (left, right) = (xr.start as f64 + inset, xr.end as f64 - inset - w);
        let (top, bottom) = (yr.start as f64 + inset, yr.end as f64 - inset - h);
        let (middle_x, middle_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
        let corner = |c: Corner| match c {
            Corner::UpperLeft => (left, top),
            Corner::UpperRight => (right, top),
            Corner::LowerLeft => (left, bottom),
            Corner::LowerRight => (right, bottom),
        };
        let order = [corner(preferred), (right, top), (left, top), (right, bottom), (left, bottom), (middle_x, top), (middle_x, bottom), (left, middle_y), (right, middle_y)];
        // checked where it will be drawn: at whole pixels
        order
            .into_iter()
            .map(|(x, y)| (x.floor(), y.floor()))
            .find(|&(x, y)| covered(points, (x, y, x + w, y + h), theme) == 0)
            .map(|(x, y)| Placement::Inside { x: x as i32, y: y as i32 })
    }

    /// Where the legend goes for a plot over `range` in a frame `frame_width` wide: its
    /// top-left corner, text scale and columns (None: no legend). The plot's texts keep
    /// off its box.
    fn origin(&self, placement: Placement, range: &(Range<i32>, Range<i32>), frame_width: f64, theme: &Theme) -> Option<(f64, f64, f64, usize)> {
        let (xr, yr) = range;
        match placement {
            Placement::None => None,
            Placement::Inside { x, y } => Some((x as f64, y as f64, 1.0, 1)),
            Placement::Right { scale, .. } => Some((xr.end as f64 + theme.px(10.0), yr.start as f64, scale, 1)),
            Placement::Below { columns, scale, .. } => {
                let (w, _) = self.size(theme, scale, columns);
                // under the plot's middle, kept inside the frame
                let x = ((xr.start + xr.end) as f64 / 2.0 - w / 2.0).min(frame_width - w - theme.px(4.0)).max(theme.px(4.0));
                // below the x axis' labels
                Some((x, yr.end as f64 + x_label_area(theme), scale, columns))
            }
        }
    }

    /// The box the legend takes, in device pixels.
    pub fn bounds(&self, placement: Placement, range: &(Range<i32>, Range<i32>), frame_width: f64, theme: &Theme) -> Option<[i32; 4]> {
        let (x0, y0, scale, columns) = self.origin(placement, range, frame_width, theme)?;
        let (w, h) = self.size(theme, scale, columns);
        Some([x0 as i32, y0 as i32, (x0 + w) as i32, (y0 + h) as i32])
    }

    /// Outside the plot: a strip to the right or rows below in columns, whichever leaves
    /// the plot the larger area (the right when both leave as much); the text shrinks (to
    /// half at most) until one fits.
    pub fn outside(&self, available_width: f64, available_height: f64, frame_width: f64, theme: &Theme) -> Placement {
        self.fitting_outside(available_width, available_height, frame_width, theme).unwrap_or_else(|| {
            // below in one column, as large as the width and half the height allow (a
            // legend of long labels at a large font on a phone: small, never out of frame)
            let (w1, h1) = self.size(theme, 1.0, 1);
            let (w0, h0) = self.size(theme, 0.0, 1);
            let by_width = (available_width - w0) / (w1 - w0).max(1.0);
            let by_height = (0.5 * available_height - theme.px(8.0) - h0) / (h1 - h0).max(1.0);
            let scale = by_width.min(by_height).clamp(0.05, 0.5);
            let columns = ((available_width / self.size(theme, scale, 1).0).floor() as usize).clamp(1, self.entries.len().max(1));
            Placement::Below { height: self.size(theme, scale, columns).1 + theme.px(8.0), columns, scale }
        })
    }

    /// [`Legend::outside`]'s placement when one fits, at half the text size at least.
    pub fn fitting_outside(&self, available_width: f64, available_height: f64, frame_width: f64, theme: &Theme) -> Option<Placement> {
        for scale in [1.0, 0.85, 0.7, 0.6, 0.5] {
            let (w, h) = self.size(theme, scale, 1);
            // the plot keeps at least 55 % of the width
            // beside the plot, no lower than its x axis (its last tick label reaches right)
            let right = (w <= 0.45 * frame_width && h <= 0.95 * (available_height - x_label_area(theme)))
                .then(|| (Placement::Right { width: w + theme.px(8.0), scale }, (available_width - w) * available_height));
            let columns = ((available_width / w).floor() as usize).clamp(1, self.entries.len().max(1));
            let (w, h) = self.size(theme, scale, columns);
            let below = (w <= available_width && h <= 0.4 * available_height)
                .then(|| (Placement::Below { height: h + theme.px(8.0), columns, scale }, available_width * (available_height - h)));
            match (right, below) {
                (Some((r, area_r)), Some((b, area_b))) => return Some(if area_b > area_r { b } else { r }),
                (Some((r, _)), None) => return Some(r),
                (None, Some((b, _))) => return Some(b),
                (None, None) => {}
            }
        }
        None
    }

    /// Draws the legend; returns its box and how many points it covers.
    pub fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        placement: Placement,
        range: &(Range<i32>, Range<i32>),
        points: &[(i32, i32)],
        theme: &Theme,
    ) -> Result<(Option<[i32; 4]>, u32), String> {
        let Some((x0, y0, scale, columns)) = self.origin(placement, range, root.dim_in_pixel().0 as f64, theme) else { return Ok((None, 0)) };
        let (w, h) = self.size(theme, scale, columns);
        let bounds = (x0, y0, x0 + w, y0 + h);
        let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing failed: {e:?}");
        let (bx0, by0, bx1, by1) = (x0 as i32, y0 as i32, (x0 + w) as i32, (y0 + h) as i32);
        root.draw(&Rectangle::new([(bx0, by0), (bx1, by1)], theme.background.mix(0.9).filled())).map_err(fail)?;
        root.draw(&Rectangle::new([(bx0, by0), (bx1, by1)], theme.grid.mix(0.6).stroke_width(1))).map_err(fail)?;
        let style = theme.sized_text(theme.font_px(13.0) * scale).pos(Pos::new(HPos::Left, VPos::Center));
        let (pad, glyph, line, step) = (theme.px(8.0), theme.px(24.0), self.row_height(theme, scale), theme.font_px(SECOND_LINE) * scale);
        let column_width = pad * 2.0 + glyph + self.label_width * scale;
        let rows = self.entries.len().div_ceil(columns.max(1));
        for (k, (e, lines)) in self.entries.iter().zip(&self.lines).enumerate() {
            let (col, row) = (k / rows, k % rows);
            let middle = y0 + pad + line * row as f64 + line / 2.0;
            let y = middle as i32;
            let gx0 = (x0 + pad + column_width * col as f64) as i32;
            let gx1 = gx0 + glyph as i32;
            match e.glyph {
                Glyph::Line(pen) => {
                    let points = [(gx0, y), (gx1, y)];
                    let style = stroke(theme, &pen);
                    let (on, off) = dashes(theme, pen.dash).map_or((glyph as i32, 0), |(a, b)| (a as i32, b as i32));
                    let (on, off) = if pen.dash == Dash::Solid { (glyph as i32, 0) } else { (on, off) };
                    root.draw(&DashedPathElement::new(points, on, off, style)).map_err(fail)?;
                }
                Glyph::Swatch(paint) => {
                    let half = (line / 3.0) as i32;
                    root.draw(&Rectangle::new([(gx0, y - half), (gx1, y + half)], theme.colour(paint).filled())).map_err(fail)?;
                }
                Glyph::Dot(paint, shape) => {
                    draw_shape(root, ((gx0 + gx1) / 2, y), theme.px(5.0) as i32, shape, theme.colour(paint).filled())?;
                }
            }
            // a label's lines centred on its glyph
            for (j, text) in lines.iter().enumerate() {
                let at = middle + (j as f64 - (lines.len() - 1) as f64 / 2.0) * step;
                root.draw(&Text::new(text.clone(), (gx1 + pad as i32, at as i32), style.clone())).map_err(fail)?;
            }
        }
        let covers = covered(points, bounds, theme);
        Ok((Some([bx0, by0, bx1, by1]), covers))
    }
}

/// Points under the box, whose edge is taken a little wider (a line grazing it counts).
fn covered(points: &[(i32, i32)], (x0, y0, x1, y1): (f64, f64, f64, f64), theme: &Theme) -> u32 {
    let g = theme.px(2.0);
    points.iter().filter(|&&(x, y)| (x as f64) >= x0 - g && (x as f64) <= x1 + g && (y as f64) >= y0 - g && (y as f64) <= y1 + g).count() as u32
}

/// A filled dot of `shape` (0 circle, 1 square, 2 triangle, 3 diamond): colour and shape
/// together tell 32 series apart.
pub fn draw_shape<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, (x, y): (i32, i32), r: i32, shape: u8, style: ShapeStyle) -> Result<(), String> {
    let fail = |e: DrawingAreaErrorKind<DB::ErrorType>| format!("drawing failed: {e:?}");
    match shape % 5 {
        0 => root.draw(&Circle::new((x, y), r, style)).map_err(fail),
        // a ring: a published value beside a measured one
        4 => root.draw(&Circle::new((x, y), r, ShapeStyle { filled: false, stroke_width: (r / 3).max(2) as u32, ..style })).map_err(fail),
        1 => root.draw(&Rectangle::new([(x - r, y - r), (x + r, y + r)], style)).map_err(fail),
        2 => root.draw(&Polygon::new(vec![(x, y - r - 1), (x + r + 1, y + r), (x - r - 1, y + r)], style)).map_err(fail),
        _ => root.draw(&Polygon::new(vec![(x, y - r - 1), (x + r + 1, y), (x, y + r + 1), (x - r - 1, y)], style)).map_err(fail),
    }
}
