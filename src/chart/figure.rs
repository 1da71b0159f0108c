//! A chart described independently of how it is drawn: axes and layers of data.
//! [`super::draw`] renders it with plotters on a canvas or into SVG. It crosses from the
//! worker, where results are, to the page, which draws (serde), so that the page never
//! reads a whole result.

use serde::{Deserialize, Serialize};

/// One axis: its label, range and scale.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    pub label: String,
    pub min: f64,
    pub max: f64,
    pub log: bool,
}

impl Axis {
    /// A linear axis from `min` to `max`.
    pub fn linear(label: impl Into<String>, min: f64, max: f64) -> Axis {
        Axis { label: label.into(), min, max, log: false }
    }

    /// A logarithmic axis from `min` to `max` (both > 0).
    pub fn log(label: impl Into<String>, min: f64, max: f64) -> Axis {
        Axis { label: label.into(), min, max, log: true }
    }
}

/// Where a colour comes from; the theme turns it into pixels (light or dark).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Paint {
    /// The k-th colour of the colour-blind-safe palette.
    Series(usize),
    /// A position in [0, 1] on a sequential (viridis-like) ramp, for ordered levels.
    Ramp(f64),
    /// The translucent fill that marks a region of interest.
    Highlight,
    /// The text colour.
    Foreground,
}

/// Line pattern: series are told apart by pattern as well as colour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Dash {
    Solid,
    Dashed,
    Dotted,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pen {
    pub paint: Paint,
    pub dash: Dash,
    /// Width in CSS pixels.
    pub width: f64,
}

impl Pen {
    pub fn new(paint: Paint, dash: Dash) -> Self {
        Pen { paint, dash, width: 2.0 }
    }
}

/// The k-th series' pen: palette colour k with pattern k mod 3, shifted by one for the
/// last colour (an olive close to colour 4's amber, which has the same k mod 3).
pub fn series_pen(k: usize) -> Pen {
    let shift = usize::from(k % 8 == 7);
    Pen::new(Paint::Series(k), [Dash::Solid, Dash::Dashed, Dash::Dotted][(k + shift) % 3])
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Layer {
    /// Polylines sharing a legend entry; `tag` is written on the longest one.
    Lines { label: String, lines: Vec<Vec<[f64; 2]>>, pen: Pen, tag: Option<String> },
    /// Filled rectangles [x0, x1, y0, y1].
    Rects { label: String, rects: Vec<[f64; 4]>, paint: Paint },
    /// A marked point with a note written beside it.
    Marker { label: String, at: [f64; 2], paint: Paint, note: String },
    /// A horizontal reference line.
    HLine { label: String, y: f64, pen: Pen },
    /// Filled dots of `radius` CSS pixels (a scatter, such as hosts on a map), of a
    /// shape (0 circle, 1 square, 2 triangle, 3 diamond, 4 ring: a published value) so that colour and shape
    /// together tell many groups apart.
    Dots { label: String, points: Vec<[f64; 2]>, paint: Paint, radius: f64, shape: u8 },
    /// Points with vertical error bars [x, y, low, high].
    Intervals { label: String, points: Vec<[f64; 4]>, paint: Paint },
}

impl Layer {
    /// Polylines drawn with `pen`, untagged.
    pub fn lines(label: impl Into<String>, lines: Vec<Vec<[f64; 2]>>, pen: Pen) -> Layer {
        Layer::Lines { label: label.into(), lines, pen, tag: None }
    }
}

/// Which corner the legend sits in.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Corner {
    UpperLeft,
    UpperRight,
    LowerLeft,
    LowerRight,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub title: String,
    pub x: Axis,
    pub y: Axis,
    pub layers: Vec<Layer>,
    /// Where the legend would best go; it goes elsewhere if data lie there.
    pub legend: Corner,
    /// A plain-text account of the key numbers, for screen readers and captions.
    pub summary: String,
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_first_24_series_pens_differ_and_the_two_amber_ones_by_pattern() {
        let key = |k: usize| (k % 8, format!("{:?}", series_pen(k).dash));
        let keys: Vec<_> = (0..24).map(key).collect();
        for i in 0..24 {
            for j in i + 1..24 {
                assert_ne!(keys[i], keys[j], "series {i} and {j}");
            }
        }
        assert_ne!(series_pen(4).dash, series_pen(7).dash);
    }
}
