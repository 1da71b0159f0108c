//! Renders a [`Figure`] with plotters on any backend (canvas in the page, SVG and PNG in
//! the CLI). The layout adapts to the frame: text is sized to the canvas and the font
//! scale and fitted (a title wraps or shrinks, an axis label drops its explanation before
//! it would leave the frame); the legend goes where the figure's own data leave room —
//! a corner or an edge of the plot with no point under it — or else outside the plot.

use super::clip::clip_polyline;
use super::figure::{Axis, Dash, Figure, Layer, Pen};
use super::format::trim_zeros;
use super::labels::{Placer, Request, around};
use super::legend::{Entry, Glyph, Legend, Placement};
use super::measure::{HelveticaWidths, Measured, TextBox, TextMeasure};
use super::theme::{DrawOptions, Theme};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

/// The plotting area in device pixels, and the axes, so that the page can map the
/// pointer back to data coordinates; and what was drawn where, so that a test can check
/// that no text leaves the frame and no legend covers data.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub left: i32,
    pub top: i32,
    pub right: i32,
    pub bottom: i32,
    pub x_min: f64,
    pub x_max: f64,
    pub x_log: bool,
    pub y_min: f64,
    pub y_max: f64,
    pub y_log: bool,
    /// The canvas, in device pixels.
    pub width: i32,
    pub height: i32,
    /// Every text drawn: [left, top, right, bottom].
    pub texts: Vec<TextBox>,
    /// The legend's box, and how many of the figure's points lie under it (0 by design).
    pub legend: Option<TextBox>,
    pub legend_covers: u32,
}

fn fail<E: std::fmt::Debug>(e: E) -> String {
    format!("drawing failed: {e:?}")
}

/// Why an axis cannot be drawn, if it cannot: plotters' tick search loops or allocates
/// without end on bounds that are not finite, subnormal, inverted or too close, and a
/// log axis needs positive normal bounds (subnormal ones hung it) over a sane number of
/// decades.
pub fn axis_problem(name: &str, axis: &super::figure::Axis) -> Option<String> {
    let (a, b) = (axis.min, axis.max);
    let why = if !a.is_finite() || !b.is_finite() {
        "a bound is not a finite number"
    } else if b <= a {
        "its end is not above its start"
    } else if (b - a) < 1e-12 * a.abs().max(b.abs()) || (!axis.log && (b - a) < 1e-200) {
        "its range is too narrow to mark"
    } else if axis.log && a < 1e-300 {
        "a log scale needs a start of at least 1e-300"
    } else if axis.log && !(b / a).is_finite() {
        "a log scale over more decades than a number can hold cannot be marked"
    } else if !axis.log && a.abs().max(b.abs()) > 1e200 {
        "its bounds are too large to mark"
    } else {
        return None;
    };
    Some(format!("the {name} axis runs from {a:e} to {b:e}: {why}"))
}

/// An axis's range as plotters is given it. On a log axis whose start is a decade, the
/// start a part in 10⁹ lower: plotters finds the decades it marks from ln(start)/ln(10),
/// which puts 0.1 a hair above 10⁻¹ (−0.9999999999999998), and the start's own decade
/// went unmarked (a rates chart over 0.1–1 had one label).
fn marked(axis: &super::figure::Axis) -> std::ops::Range<f64> {
    let decade = axis.log && (axis.min.log10().round() - axis.min.log10()).abs() < 1e-9;
    (if decade { axis.min * (1.0 - 1e-9) } else { axis.min })..axis.max
}

/// Text of nominal size `size` fitted into `width` device pixels: the text (or, if it
/// has one, its part before the first alternative in `shorter`) at the largest size
/// down to 60 % that fits, wrapped onto two lines if `wrap` and one does not.
/// Returns the lines and the size.
pub fn fit(measure: &dyn Fn(&str, f64) -> f64, text: &str, size: f64, width: f64, wrap: bool, shorter: &[&str]) -> (Vec<String>, f64) {
    let candidates: Vec<String> =
        std::iter::once(text.to_string()).chain(shorter.iter().filter_map(|cut| text.split_once(cut).map(|(head, _)| head.trim_end().to_string()))).collect();
    // a projector needs size more than words: down to 80 % first, then without the
    // explanation, then smaller
    let tries = candidates.iter().flat_map(|c| [1.0, 0.9, 0.8].map(|k| (c, k))).chain(candidates.iter().flat_map(|c| [0.7, 0.6].map(|k| (c, k))));
    for (candidate, k) in tries {
        if measure(candidate, size * k) <= width {
            return (vec![candidate.clone()], size * k);
        }
        if wrap
            && let Some(lines) = split_in_two(candidate)
            && lines.iter().all(|l| measure(l, size * k) <= width)
        {
            return (lines, size * k);
        }
    }
    // nothing fits at 60 %: shrink the last candidate until it does (in two lines where
    // it may wrap), however small that is: a text never leaves its frame
    let last = candidates.last().expect("the text itself");
    let k = (width / measure(last, size).max(1.0)).min(0.6);
    if wrap && let Some(lines) = split_in_two(last) {
        let k2 = lines.iter().map(|l| width / measure(l, size).max(1.0)).fold(0.6, f64::min);
        if k2 > k {
            return (lines, size * k2);
        }
    }
    (vec![last.clone()], size * k)
}

/// Two lines of about equal length, broken at a space — not one that holds a number to
/// its unit or its name ("90 %", "C = 90").
pub(super) fn split_in_two(text: &str) -> Option<Vec<String>> {
    let middle = text.len() / 2;
    let holds = |i: usize| text[i + 1..].starts_with(['%', '=']) || text[..i].ends_with('=');
    let spaces: Vec<usize> = text.char_indices().filter(|&(i, c)| c == ' ' && !holds(i)).map(|(i, _)| i).collect();
    let at = *spaces.iter().min_by_key(|&&i| i.abs_diff(middle))?;
    Some(vec![text[..at].to_string(), text[at + 1..].to_string()])
}

/// Draws `figure` on `backend`, filling it; returns where everything went. A figure
/// whose axes cannot be drawn says why in its frame instead.
pub fn draw_measured<B: DrawingBackend, M: TextMeasure>(backend: Measured<B, M>, figure: &Figure, options: &DrawOptions) -> Result<Frame, String> {
    let texts = backend.texts.clone();
    let root = backend.into_drawing_area();
    let mut frame = draw_figure(&root, figure, options)?;
    root.present().map_err(fail)?;
    frame.texts = texts.borrow().clone();
    Ok(frame)
}

/// Draws `figure` on `root`, filling it (texts are not recorded: see [`draw_measured`]).
pub fn draw_figure<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure, options: &DrawOptions) -> Result<Frame, String> {
    let (w, h) = root.dim_in_pixel();
    let theme = Theme::sized(options, w as f64, h as f64);
    root.fill(&theme.background).map_err(fail)?;
    let blank = Frame {
        left: 0,
        right: w as i32,
        top: 0,
        bottom: h as i32,
        x_min: 0.0,
        x_max: 1.0,
        x_log: false,
        y_min: 0.0,
        y_max: 1.0,
        y_log: false,
        width: w as i32,
        height: h as i32,
        texts: Vec::new(),
        legend: None,
        legend_covers: 0,
    };
    // a text's width at a device size (the theme's font scale does not enter)
    let measure = |text: &str, size: f64| {
        root.estimate_text_size(text, &TextStyle::from(FontDesc::new(FontFamily::SansSerif, size, FontStyle::Normal))).map(|(w, _)| w as f64).unwrap_or(0.0)
    };
    let margin = theme.px(12.0);
    if let Some(why) = axis_problem("x", &figure.x).or_else(|| axis_problem("y", &figure.y)) {
        let lines = [figure.title.clone(), "This chart cannot be drawn:".into(), why, "change the range and run again.".into()];
        let mut y = h as f64 * 0.2;
        for line in lines {
            let (fitted, size) = fit(&measure, &line, theme.font_px(14.0), w as f64 - 2.0 * margin, true, &[]);
            for l in fitted {
                root.draw(&Text::new(l, (margin as i32, y as i32), theme.sized_text(size))).map_err(fail)?;
                y += size * 1.4;
            }
        }
        return Ok(blank);
    }
    // the text as large as asked, smaller (down to font 1's) where the plot would be left
    // too short to read: a large font on a small frame under a long legend
    let floor = Theme::sized(&DrawOptions { font_scale: 1.0, ..options.clone() }, w as f64, h as f64).font.min(theme.font);
    let mut theme = theme;
    let (title, title_size, top, legend, placement) = loop {
        let arranged = arrange(root, figure, &theme, &measure, margin)?;
        let below = if let Placement::Below { height, .. } = arranged.4 { height } else { 0.0 };
        let plot = h as f64 - f64::from(arranged.2) - margins(&theme).0 as f64 - x_label_area(&theme) - below;
        if plot >= SHORTEST_PLOT * h as f64 || theme.font <= floor {
            break arranged;
        }
        theme.font = (theme.font * 0.85).max(floor);
    };
    let line = title_size * 1.25;
    let reserve = if matches!(placement, Placement::Right { .. } | Placement::Below { .. }) { Some(placement) } else { None };
    root.fill(&theme.background).map_err(fail)?;
    for (k, text) in title.iter().enumerate() {
        let at = ((w / 2) as i32, (margin * 0.6 + line * k as f64) as i32);
        root.draw(&Text::new(text.clone(), at, theme.sized_text(title_size).pos(Pos::new(HPos::Center, VPos::Top)))).map_err(fail)?;
    }
    let mut frame = plot_with(root, figure, &theme, top, reserve, &legend, placement)?;
    frame.width = w as i32;
    frame.height = h as i32;
    Ok(frame)
}

/// The least share of the frame's height the plot keeps where the text can shrink.
const SHORTEST_PLOT: f64 = 0.35;

/// The title fitted to the width (its lines and size), the plot's top, and the legend
/// with its place: inside the plot if there is room with no data under it; if not,
/// beside or below it; if not even there, without its notes on lines drawn on others.
fn arrange<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
    theme: &Theme,
    measure: &dyn Fn(&str, f64) -> f64,
    margin: f64,
) -> Result<(Vec<String>, f64, u32, Legend, Placement), String> {
    let (w, h) = root.dim_in_pixel();
    let (title, title_size) = fit(measure, &figure.title, theme.font_px(17.0), w as f64 - 2.0 * margin, true, &[]);
    let top = (margin * 0.6 + title_size * 1.25 * title.len() as f64 + margin * 0.4) as u32;
    let mut legend = Legend::new(entries(figure, true), theme, measure);
    let (room_w, room_h) = (w as f64 - 2.0 * margin, h as f64 - top as f64);
    // outside the plot at half the text size at least: labels on one line, or on two
    // where that lets the text be larger
    let fitting = |legend: Legend| {
        let one = legend.fitting_outside(room_w, room_h, w as f64, theme);
        let two = legend.in_two_lines(theme, measure).and_then(|two| two.fitting_outside(room_w, room_h, w as f64, theme).map(|p| (two, p)));
        match (one, two) {
            (one, Some((two, p))) if one.is_none_or(|one| p.scale() > one.scale()) => Some((two, p)),
            (one, _) => one.map(|p| (legend, p)),
        }
    };
    let placement = match layout(root, figure, theme, top, &legend)? {
        Some(p) => p,
        None => match fitting(legend) {
            Some((fitted, p)) => {
                legend = fitted;
                p
            }
            None => {
                legend = Legend::new(entries(figure, false), theme, measure);
                match layout(root, figure, theme, top, &legend)? {
                    Some(p) => p,
                    None => match fitting(legend) {
                        Some((fitted, p)) => {
                            legend = fitted;
                            p
                        }
                        None => {
                            legend = Legend::new(entries(figure, false), theme, measure);
                            legend.outside(room_w, room_h, w as f64, theme)
                        }
                    },
                }
            }
        },
    };
    Ok((title, title_size, top, legend, placement))
}

/// The labelled layers, in order, as legend entries; with `notes`, a line drawn on an
/// earlier one says so, since it cannot be told apart.
fn entries(figure: &Figure, notes: bool) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    for (k, layer) in figure.layers.iter().enumerate() {
        let (label, glyph) = match layer {
            Layer::Lines { label, pen, .. } | Layer::HLine { label, pen, .. } => (label, Glyph::Line(*pen)),
            Layer::Rects { label, paint, .. } => (label, Glyph::Swatch(*paint)),
            Layer::Marker { label, paint, .. } | Layer::Intervals { label, paint, .. } => (label, Glyph::Dot(*paint, 0)),
            Layer::Dots { label, paint, shape, .. } => (label, Glyph::Dot(*paint, *shape)),
        };
        if label.is_empty() {
            continue;
        }
        let hidden_by = figure.layers[..k].iter().find_map(|earlier| match earlier {
            Layer::Lines { label: other, .. } if notes && !other.is_empty() => apart(figure, earlier, layer).filter(|&d| d <= NEARLY).map(|d| (other, d)),
            _ => None,
        });
        let label = match hidden_by {
            Some((other, d)) => format!("{label} ({} {})", if d <= SAME { "the same as" } else { "within 2 % of" }, other.split(':').next().unwrap_or(other)),
            None => label.clone(),
        };
        out.push(Entry { label, glyph });
    }
    out
}

/// Lines this close (a share of the y axis) are drawn on each other: the same values.
const SAME: f64 = 0.0025;
/// Lines this close cannot be told apart on a projected slide.
const NEARLY: f64 = 0.02;

/// How far apart two line layers with the same x values are at most, as a share of the
/// y axis (of its decades on a log axis); None when their x values differ.
pub fn apart(figure: &Figure, a: &Layer, b: &Layer) -> Option<f64> {
    let (Layer::Lines { lines: la, .. }, Layer::Lines { lines: lb, .. }) = (a, b) else { return None };
    let y = &figure.y;
    let scale = |v: f64| if y.log { v.max(f64::MIN_POSITIVE).log10() } else { v };
    let span = (scale(y.max) - scale(y.min)).abs().max(f64::MIN_POSITIVE);
    let points = la.iter().map(Vec::len).sum::<usize>();
    let same_x = la.len() == lb.len() && la.iter().zip(lb).all(|(p, q)| p.len() == q.len() && p.iter().zip(q).all(|(p, q)| p[0] == q[0]));
    if points < 2 || !same_x {
        return None;
    }
    Some(la.iter().flatten().zip(lb.iter().flatten()).map(|(p, q)| (scale(p[1]) - scale(q[1])).abs() / span).fold(0.0, f64::max))
}

/// The plot's geometry for a given reserve: the label areas and the chart's margins.
struct Areas {
    x_label: u32,
    y_label: u32,
    right: u32,
    bottom: u32,
}

fn areas(theme: &Theme, reserve: Option<Placement>) -> Areas {
    let (right, bottom) = match reserve {
        Some(Placement::Right { width, .. }) => (width as u32, 0),
        Some(Placement::Below { height, .. }) => (0, height as u32),
        _ => (0, 0),
    };
    Areas { x_label: x_label_area(theme) as u32, y_label: y_label_area(theme) as u32, right, bottom }
}

/// The width left of the plot for the y axis' tick labels and title.
fn y_label_area(theme: &Theme) -> f64 {
    theme.font_px(68.0).max(theme.px(36.0)).floor()
}

/// The least room between the y axis' tick labels and its title: plotters' tick (5 px)
/// and its gap to the labels (twice that), and a little air.
const Y_TICK_GAP: f64 = 16.0;

/// The y title: on one line as [`fit`] makes it, or on two where that keeps it larger
/// (or whole where one line must drop its explanation) and the room beside the tick
/// labels (`across`) holds two lines. A long title over a short plot at a large font had
/// been left a fraction of its size on one line.
fn y_title(measure: &dyn Fn(&str, f64) -> f64, height: &dyn Fn(f64) -> f64, text: &str, size: f64, length: f64, across: f64) -> (Vec<String>, f64) {
    let (one, one_size) = fit(measure, text, size, length, false, &["  (", " ("]);
    let whole = one[0] == text;
    if whole && one_size >= size {
        return (one, one_size);
    }
    let Some(two) = split_in_two(text) else { return (one, one_size) };
    let longest = two.iter().map(|l| measure(l, size)).fold(0.0, f64::max).max(1.0);
    let two_size = size.min(size * length / longest).min(size * across / (2.0 * height(size)).max(1.0));
    if two_size >= one_size * 1.1 || (!whole && two_size >= one_size) { (two, two_size) } else { (one, one_size) }
}

/// The height under the plot for the x axis' tick labels and title.
pub(super) fn x_label_area(theme: &Theme) -> f64 {
    theme.font_px(44.0).max(theme.px(28.0))
}

/// The frame's margin, and the right one, wide enough for half the last tick label.
fn margins(theme: &Theme) -> (u32, u32) {
    let margin = theme.px(14.0);
    (margin as u32, margin.max(theme.font_px(13.0) * 2.2) as u32)
}

/// Builds the coordinates (drawing nothing) and returns the legend's placement inside
/// the plot with no data under it, if there is one (`Placement::None` for no legend).
fn layout<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure, theme: &Theme, top: u32, legend: &Legend) -> Result<Option<Placement>, String> {
    if legend.is_empty() {
        return Ok(Some(Placement::None));
    }
    let a = areas(theme, None);
    let (margin, right) = margins(theme);
    let area = root.margin(top, margin, margin, right);
    let mut builder = ChartBuilder::on(&area);
    builder.x_label_area_size(a.x_label).y_label_area_size(a.y_label);
    let (x, y) = (&figure.x, &figure.y);
    let (xs, ys) = (marked(x), marked(y));
    let points: Vec<(i32, i32)>;
    let range: (std::ops::Range<i32>, std::ops::Range<i32>);
    macro_rules! sample {
        ($chart:expr) => {{
            let chart = $chart;
            range = chart.plotting_area().get_pixel_range();
            points = inside(&range, data_pixels(figure, &|p: (f64, f64)| chart.backend_coord(&p), theme));
        }};
    }
    match (x.log, y.log) {
        (false, false) => sample!(builder.build_cartesian_2d(xs, ys).map_err(fail)?),
        (true, false) => sample!(builder.build_cartesian_2d(xs.log_scale(), ys).map_err(fail)?),
        (false, true) => sample!(builder.build_cartesian_2d(xs, ys.log_scale()).map_err(fail)?),
        (true, true) => sample!(builder.build_cartesian_2d(xs.log_scale(), ys.log_scale()).map_err(fail)?),
    }
    Ok(legend.inside(&range, &points, figure.legend, theme))
}

/// The figure's data in device pixels: vertices of every line and, along its segments,
/// a point every few pixels (a segment crossing a box counts even without a vertex in
/// it), dots, markers and (for the legend, which is placed before them) roughly where
/// their notes will go, rectangles.
fn data_pixels(figure: &Figure, to_pixel: &dyn Fn((f64, f64)) -> (i32, i32), theme: &Theme) -> Vec<(i32, i32)> {
    let mut out = layers_pixels(figure, to_pixel, theme);
    out.extend(note_pixels(figure, to_pixel, theme));
    out
}

/// Every layer's data in device pixels (see [`layer_pixels`]).
fn layers_pixels(figure: &Figure, to_pixel: &dyn Fn((f64, f64)) -> (i32, i32), theme: &Theme) -> Vec<(i32, i32)> {
    figure.layers.iter().flat_map(|l| layer_pixels(figure, l, to_pixel, theme)).collect()
}

/// Roughly where the markers' notes go beside them (for the legend, placed first).
fn note_pixels(figure: &Figure, to_pixel: &dyn Fn((f64, f64)) -> (i32, i32), theme: &Theme) -> Vec<(i32, i32)> {
    let mut out = Vec::new();
    for layer in &figure.layers {
        if let Layer::Marker { at, note, .. } = layer {
            let p = to_pixel((at[0], at[1]));
            let reach = theme.font_px(6.5) * note.chars().count() as f64;
            for k in 0..8 {
                out.push((p.0 + (reach * k as f64 / 8.0) as i32, p.1 - theme.px(14.0) as i32));
                out.push((p.0 - (reach * k as f64 / 8.0) as i32, p.1 - theme.px(14.0) as i32));
            }
        }
    }
    out
}

/// One layer's data in device pixels (see [`data_pixels`]).
fn layer_pixels(figure: &Figure, layer: &Layer, to_pixel: &dyn Fn((f64, f64)) -> (i32, i32), theme: &Theme) -> Vec<(i32, i32)> {
    let step = theme.px(4.0).max(1.0);
    let mut out = Vec::new();
    let segment = |a: (i32, i32), b: (i32, i32), out: &mut Vec<(i32, i32)>| {
        let n = (((b.0 - a.0).abs().max((b.1 - a.1).abs()) as f64) / step).ceil().max(1.0) as i32;
        for k in 0..=n {
            let t = k as f64 / n as f64;
            out.push(((a.0 as f64 + t * (b.0 - a.0) as f64) as i32, (a.1 as f64 + t * (b.1 - a.1) as f64) as i32));
        }
    };
    match layer {
        Layer::Lines { lines, .. } => {
            for piece in lines.iter().flat_map(|l| clip_polyline(l, &figure.x, &figure.y)) {
                for pair in piece.windows(2) {
                    segment(to_pixel(pair[0]), to_pixel(pair[1]), &mut out);
                }
            }
        }
        Layer::HLine { y, .. } => {
            if (figure.y.min..=figure.y.max).contains(y) {
                segment(to_pixel((figure.x.min, *y)), to_pixel((figure.x.max, *y)), &mut out);
            }
        }
        Layer::Rects { rects, .. } => {
            // every part of a bar is data: its visible part, sampled as a grid of `step`
            let (x, y) = (&figure.x, &figure.y);
            let visible = |a: f64, b: f64, axis: &Axis| {
                let (lo, hi) = (a.min(b).max(axis.min), a.max(b).min(axis.max));
                (lo <= hi).then_some((lo, hi))
            };
            for r in rects {
                let (Some((x0, x1)), Some((y0, y1))) = (visible(r[0], r[1], x), visible(r[2], r[3], y)) else { continue };
                let (a, b) = (to_pixel((x0, y0)), to_pixel((x1, y1)));
                let (left, right, top, bottom) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
                let along = |lo: i32, hi: i32| {
                    let n = ((hi - lo) as f64 / step).ceil().max(1.0) as i32;
                    (0..=n).map(move |k| lo + ((hi - lo) as f64 * k as f64 / n as f64) as i32)
                };
                for px in along(left, right) {
                    out.extend(along(top, bottom).map(|py| (px, py)));
                }
            }
        }
        Layer::Dots { points, .. } => out.extend(points.iter().map(|p| to_pixel((p[0], p[1])))),
        Layer::Intervals { points, .. } => {
            for p in points {
                segment(to_pixel((p[0], p[2])), to_pixel((p[0], p[3])), &mut out);
            }
        }
        Layer::Marker { at, .. } => out.push(to_pixel((at[0], at[1]))),
    }
    out
}

/// The points within the plotting area (a marker's note may reach past it).
fn inside((xr, yr): &(std::ops::Range<i32>, std::ops::Range<i32>), points: Vec<(i32, i32)>) -> Vec<(i32, i32)> {
    points.into_iter().filter(|p| xr.contains(&p.0) && yr.contains(&p.1)).collect()
}

/// Draws the axes, the layers and the legend at `placement`.
fn plot_with<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    figure: &Figure,
    theme: &Theme,
    top: u32,
    reserve: Option<Placement>,
    legend: &Legend,
    placement: Placement,
) -> Result<Frame, String> {
    let a = areas(theme, reserve);
    let (margin, right) = margins(theme);
    // (plotters' order: top, bottom, left, right)
    let area = root.margin(top, margin + a.bottom, margin, right + a.right);
    let mut builder = ChartBuilder::on(&area);
    builder.x_label_area_size(a.x_label).y_label_area_size(a.y_label);
    let (x, y) = (&figure.x, &figure.y);
    let (xs, ys) = (marked(x), marked(y));
    match (x.log, y.log) {
        (false, false) => plot(root, &mut builder.build_cartesian_2d(xs, ys).map_err(fail)?, figure, theme, legend, placement),
        (true, false) => plot(root, &mut builder.build_cartesian_2d(xs.log_scale(), ys).map_err(fail)?, figure, theme, legend, placement),
        (false, true) => plot(root, &mut builder.build_cartesian_2d(xs, ys.log_scale()).map_err(fail)?, figure, theme, legend, placement),
        (true, true) => plot(root, &mut builder.build_cartesian_2d(xs.log_scale(), ys.log_scale()).map_err(fail)?, figure, theme, legend, placement),
    }
}

/// Short tick labels: 0.25, 3, 1.5k, 1e-6.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if !(1e-3..1e12).contains(&a) {
        format!("{v:.0e}")
    } else if a >= 1e9 {
        format!("{}G", trim_zeros(&format!("{:.2}", v / 1e9)))
    } else if a >= 1e6 {
        format!("{}M", trim_zeros(&format!("{:.2}", v / 1e6)))
    } else if a >= 1e4 {
        format!("{}k", trim_zeros(&format!("{:.1}", v / 1e3)))
    } else {
        trim_zeros(&format!("{v:.4}")).to_string()
    }
}

/// A tick label's width at `size` px without asking the backend (a canvas measure per
/// candidate label kept the page's main thread busy): Helvetica's widths × 1.15, which
/// covers the widest common sans-serif digits (DejaVu Sans, 636/1000 em against 556).
pub(super) fn tick_width(label: &str, size: f64) -> f64 {
    HelveticaWidths.measure(label, "", "", size).map_or(0.0, |(w, _)| w * 1.15)
}

/// How many ticks, up to `most`, an axis spanning `pixels` can mark without two labels
/// touching: the most whose neighbouring labels, `extent` each along the axis (a label's
/// width on x, its height on y), keep `gap` pixels apart.
fn spaced_ticks<R: Ranged<ValueType = f64>>(axis: &R, pixels: (i32, i32), most: usize, extent: impl Fn(f64) -> f64, gap: f64) -> usize {
    let fits = |n: usize| {
        let points = axis.key_points(n);
        points.windows(2).all(|w| f64::from((axis.map(&w[1], pixels) - axis.map(&w[0], pixels)).abs()) >= (extent(w[0]) + extent(w[1])) / 2.0 + gap)
    };
    (2..=most).rev().find(|&n| fits(n)).unwrap_or(1)
}

fn plot<'a, DB, X, Y>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    figure: &Figure,
    theme: &Theme,
    legend: &Legend,
    placement: Placement,
) -> Result<Frame, String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let measure = |text: &str, size: f64| root.estimate_text_size(text, &theme.sized_text(size)).map(|(w, _)| w as f64).unwrap_or(0.0);
    // axis labels: their explanation in parentheses goes first when they would not fit
    let (x_label, x_size) = fit(&measure, &figure.x.label, theme.font_px(15.0), (xr.end - xr.start) as f64, false, &["  (", " ("]);
    let formatter = |v: &f64| tick(*v);
    let label_px = theme.font_px(13.0);
    let spec = chart.as_coord_spec();
    let x_labels = spaced_ticks(spec.x_spec(), (xr.start, xr.end), 9, |v| tick_width(&tick(v), label_px), label_px);
    let y_labels = spaced_ticks(spec.y_spec(), (yr.start, yr.end), 8, |_| label_px, label_px / 2.0);
    // beside the y axis' widest tick label, the room its title has across
    let widest = spec.y_spec().key_points(y_labels).iter().map(|v| measure(&tick(*v), label_px)).fold(0.0, f64::max);
    let across = y_label_area(theme) - widest - Y_TICK_GAP;
    let height = |size: f64| root.estimate_text_size("Ag", &theme.sized_text(size)).map(|(_, h)| h as f64).unwrap_or(size);
    let (y_label, y_size) = y_title(&measure, &height, &figure.y.label, theme.font_px(15.0), (yr.end - yr.start) as f64, across);
    chart
        .configure_mesh()
        .x_desc(x_label.join(" "))
        .axis_desc_style(theme.sized_text(x_size))
        .label_style(theme.text(13.0))
        .x_label_formatter(&formatter)
        .y_label_formatter(&formatter)
        .x_labels(x_labels)
        .y_labels(y_labels)
        .bold_line_style(theme.grid.mix(0.30))
        .light_line_style(theme.grid.mix(0.10))
        .axis_style(theme.foreground)
        .draw()
        .map_err(fail)?;
    // the y title at its own size (plotters' mesh has one style for both titles, so a
    // long one that must shrink would shrink the other): its lines side by side, the first
    // leftmost, where plotters' mesh puts its one (the label area's left edge, centred)
    let rotated = theme.sized_text(y_size).transform(FontTransform::Rotate270).pos(Pos::new(HPos::Center, VPos::Top));
    let (left, middle) = (xr.start - y_label_area(theme) as i32, (yr.start + yr.end) / 2);
    for (k, line) in y_label.iter().enumerate() {
        root.draw_text(line, &rotated, (left + (k as f64 * height(y_size)).round() as i32, middle)).map_err(fail)?;
    }
    let mut texts = Vec::new();
    for layer in &figure.layers {
        draw_layer(root, chart, figure, theme, layer, &mut texts)?;
    }
    // the data's pixels, found once: for the texts' places, then the legend's check
    let range = (xr.clone(), yr.clone());
    let to_pixel = |p: (f64, f64)| chart.backend_coord(&p);
    let mut points = inside(&range, layers_pixels(figure, &to_pixel, theme));
    place_texts(root, chart, figure, theme, texts, &points, legend.bounds(placement, &range, root.dim_in_pixel().0 as f64, theme))?;
    points.extend(inside(&range, note_pixels(figure, &to_pixel, theme)));
    let (legend_box, covers) = legend.draw(root, placement, &range, &points, theme)?;
    Ok(Frame {
        left: xr.start,
        right: xr.end,
        top: yr.start,
        bottom: yr.end,
        x_min: figure.x.min,
        x_max: figure.x.max,
        x_log: figure.x.log,
        y_min: figure.y.min,
        y_max: figure.y.max,
        y_log: figure.y.log,
        width: 0,
        height: 0,
        texts: Vec::new(),
        legend: legend_box,
        legend_covers: covers,
    })
}

/// A pen's stroke: at least 2 CSS pixels, so that a line survives a projector.
pub fn stroke(theme: &Theme, pen: &Pen) -> ShapeStyle {
    theme.colour(pen.paint).stroke_width(theme.px(pen.width.max(2.0)).round().max(1.0) as u32)
}

/// Dash and gap lengths of a pattern, in device pixels.
pub fn dashes(theme: &Theme, dash: Dash) -> Option<(u32, u32)> {
    match dash {
        Dash::Solid => None,
        Dash::Dashed => Some((theme.px(8.0) as u32, theme.px(5.0) as u32)),
        Dash::Dotted => Some((theme.px(3.0).max(2.0) as u32, theme.px(4.0).max(2.0) as u32)),
    }
}

/// A text inside the plot, written once every layer is drawn (see [`place_texts`]).
enum Pending<'f> {
    /// A line's tag, on one of these points (best first) of its line.
    Tag { text: &'f str, paint: super::figure::Paint, on: Vec<(i32, i32)>, layer: &'f Layer },
    /// A marker's note, beside it.
    Note { text: &'f str, at: (i32, i32) },
}

/// Draws one layer; its texts are left in `texts`.
fn draw_layer<'a, 'f, DB, X, Y>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    figure: &Figure,
    theme: &Theme,
    layer: &'f Layer,
    texts: &mut Vec<Pending<'f>>,
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    match layer {
        Layer::Lines { lines, pen, tag, .. } => {
            let style = stroke(theme, pen);
            let pieces: Vec<Vec<(f64, f64)>> = lines.iter().flat_map(|l| clip_polyline(l, &figure.x, &figure.y)).collect();
            for piece in &pieces {
                match dashes(theme, pen.dash) {
                    None => chart.draw_series(LineSeries::new(piece.iter().copied(), style)).map_err(fail)?,
                    Some((on, off)) => chart.draw_series(DashedLineSeries::new(piece.iter().copied(), on, off, style)).map_err(fail)?,
                };
            }
            if let Some(tag) = tag
                && let Some(longest) = pieces.iter().max_by_key(|p| p.len())
            {
                // along the longest piece, from its middle outwards
                let n = longest.len() - 1;
                let fractions = [0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.12, 0.88];
                let on = fractions.iter().map(|f| chart.backend_coord(&longest[(f * n as f64).round() as usize])).collect();
                texts.push(Pending::Tag { text: tag, paint: pen.paint, on, layer });
            }
        }
        Layer::Rects { rects, paint, .. } => {
            let fill = theme.colour(*paint).filled();
            chart.draw_series(rects.iter().map(|r| Rectangle::new([(r[0], r[2]), (r[1], r[3])], fill))).map_err(fail)?;
        }
        Layer::Marker { at, paint, note, .. } => {
            let colour = theme.colour(*paint);
            let radius = theme.px(5.5) as i32;
            let point = (at[0], at[1]);
            let edge = theme.background.stroke_width(theme.px(2.0) as u32);
            chart.draw_series([Circle::new(point, radius + theme.px(1.5) as i32, edge), Circle::new(point, radius, colour.filled())]).map_err(fail)?;
            if !note.is_empty() {
                texts.push(Pending::Note { text: note, at: chart.backend_coord(&point) });
            }
        }
        Layer::HLine { y, pen, .. } => {
            if (figure.y.min..=figure.y.max).contains(y) {
                let (style, ends) = (stroke(theme, pen), [(figure.x.min, *y), (figure.x.max, *y)]);
                match dashes(theme, pen.dash) {
                    None => chart.draw_series(LineSeries::new(ends, style)).map_err(fail)?,
                    Some((on, off)) => chart.draw_series(DashedLineSeries::new(ends, on, off, style)).map_err(fail)?,
                };
            }
        }
        Layer::Dots { points, paint, radius, shape, .. } => {
            let fill = theme.colour(*paint).filled();
            let r = theme.px(*radius).max(1.0) as i32;
            let inside = |p: &&[f64; 2]| (figure.x.min..=figure.x.max).contains(&p[0]) && (figure.y.min..=figure.y.max).contains(&p[1]);
            for p in points.iter().filter(inside) {
                let c = chart.backend_coord(&(p[0], p[1]));
                super::legend::draw_shape(root, c, r, *shape, fill)?;
            }
        }
        Layer::Intervals { points, paint, .. } => {
            let style = theme.colour(*paint).stroke_width(theme.px(2.0).max(1.0) as u32);
            let radius = theme.px(3.5) as i32;
            let cap = theme.px(4.0) as u32;
            chart.draw_series(points.iter().map(|p| ErrorBar::new_vertical(p[0], p[2], p[1], p[3], style, cap))).map_err(fail)?;
            chart.draw_series(points.iter().map(|p| Circle::new((p[0], p[1]), radius, style.color.filled()))).map_err(fail)?;
        }
    }
    Ok(())
}

/// Writes the plot's texts where they cover the least of the data's `points` (in the
/// plot): each marker's note beside its marker, then each line's tag on its line, none
/// over another, a marker or the legend.
fn place_texts<'a, DB, X, Y>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &ChartContext<'a, DB, Cartesian2d<X, Y>>,
    figure: &Figure,
    theme: &Theme,
    mut texts: Vec<Pending>,
    points: &[(i32, i32)],
    legend: Option<[i32; 4]>,
) -> Result<(), String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    if texts.is_empty() {
        return Ok(());
    }
    let to_pixel = |p: (f64, f64)| chart.backend_coord(&p);
    let plot = chart.plotting_area().get_pixel_range();
    let radius = theme.px(8.0) as i32;
    let markers = figure.layers.iter().filter_map(|l| if let Layer::Marker { at, .. } = l { Some(to_pixel((at[0], at[1]))) } else { None });
    let taken = markers.map(|(x, y)| [x - radius, y - radius, x + radius, y + radius]).chain(legend).collect();
    let pad = theme.px(3.0) as i32;
    // a legend right of the plot leaves the texts the frame's width left of it
    let beside_legend = legend.filter(|l| l[0] >= plot.0.end).map(|l| l[0]);
    let mut placer = Placer::new(plot, points.to_vec(), taken, pad);
    texts.sort_by_key(|t| matches!(t, Pending::Tag { .. }));
    for text in &texts {
        let (words, paint) = match text {
            Pending::Tag { text, paint, .. } => (*text, *paint),
            Pending::Note { text, .. } => (*text, super::figure::Paint::Foreground),
        };
        // as large as the frame allows: a note longer than the frame is a phone's at a
        // large font
        let nominal = theme.font_px(12.5);
        let (w, _) = root.estimate_text_size(words, &theme.sized_text(nominal)).map_err(fail)?;
        let room = f64::from(beside_legend.unwrap_or(root.dim_in_pixel().0 as i32) - 4 * pad);
        let text_px = if f64::from(w) > room { nominal * room / f64::from(w) } else { nominal };
        let (w, h) = root.estimate_text_size(words, &theme.sized_text(text_px)).map_err(fail)?;
        let size = (w as i32, h as i32);
        let note = |size: (i32, i32), at: (i32, i32)| Request { size, corners: around(at, size, theme.px(5.5) as i32, theme.px(6.0) as i32), own: vec![], roams_from: Some(at) };
        let request = match text {
            Pending::Tag { on, layer, .. } => {
                Request { size, corners: on.iter().map(|&(x, y)| (x - size.0 / 2, y - size.1 / 2)).collect(), own: layer_pixels(figure, layer, &to_pixel, theme), roams_from: None }
            }
            Pending::Note { at, .. } => note(size, *at),
        };
        let (mut corner, covered) = placer.best(&request);
        // a note with no clear place on one line tries two, narrower (Eq 5-9's level
        // sets at 960 × 540 and text size 2: no gap between the contours was as wide as
        // its one line)
        let mut lines = vec![words];
        let mut size = size;
        if let (Pending::Note { at, .. }, true) = (text, covered > 0)
            && let Some((first, second)) = halves(words)
        {
            let (w1, h1) = root.estimate_text_size(first, &theme.sized_text(text_px)).map_err(fail)?;
            let (w2, h2) = root.estimate_text_size(second, &theme.sized_text(text_px)).map_err(fail)?;
            let two = (w1.max(w2) as i32, (h1 + h2) as i32 + 2 * pad);
            let (at_two, covered_two) = placer.best(&note(two, *at));
            if covered_two < covered {
                (corner, size, lines) = (at_two, two, vec![first, second]);
            }
        }
        placer.take(corner, size);
        if let Pending::Note { at, .. } = text {
            // a note set apart from its marker is tied to it by a thin leader
            let nearest = (at.0.clamp(corner.0, corner.0 + size.0), at.1.clamp(corner.1, corner.1 + size.1));
            let far = ((nearest.0 - at.0).pow(2) + (nearest.1 - at.1).pow(2)) as f64 > (3.0 * theme.px(12.0)).powi(2);
            if far {
                root.draw(&PathElement::new([*at, nearest], theme.foreground.mix(0.6).stroke_width(theme.px(1.0).max(1.0) as u32))).map_err(fail)?;
            }
        }
        let line_height = (size.1 - 2 * pad * (lines.len() as i32 - 1)) / lines.len() as i32;
        for (k, line) in lines.iter().enumerate() {
            let top = corner.1 + k as i32 * (line_height + 2 * pad);
            boxed_text(root, theme, line, text_px, (corner.0, top), Pos::new(HPos::Left, VPos::Top), theme.colour(paint))?;
        }
    }
    Ok(())
}

/// A note cut in two lines at the space nearest its middle that keeps `r = 1.6` and
/// `at r` whole (no cut beside `=` or after a word of one or two letters; else any
/// space); None for a single word.
fn halves(text: &str) -> Option<(&str, &str)> {
    let middle = text.len() / 2;
    let spaces = || text.match_indices(' ').map(|(k, _)| k);
    let clean = |&k: &usize| {
        let (before, after) = (&text[..k], &text[k + 1..]);
        let word = before.rsplit(' ').next().unwrap_or("");
        !before.ends_with('=') && !after.starts_with('=') && (word.len() > 2 || word.ends_with(','))
    };
    let cut = spaces().filter(clean).min_by_key(|&k| k.abs_diff(middle)).or_else(|| spaces().min_by_key(|&k| k.abs_diff(middle)))?;
    Some((&text[..cut], &text[cut + 1..]))
}

/// Text on a translucent box of the background colour, so it reads over lines; kept
/// inside the frame.
pub fn boxed_text<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, theme: &Theme, text: &str, size: f64, at: (i32, i32), pos: Pos, colour: RGBAColor) -> Result<(), String> {
    let style = theme.sized_text(size).pos(pos).color(&colour);
    let (w, h) = root.estimate_text_size(text, &style).map_err(fail)?;
    let (w, h) = (w as i32, h as i32);
    let pad = theme.px(3.0) as i32;
    let x0 = match pos.h_pos {
        HPos::Left => at.0,
        HPos::Center => at.0 - w / 2,
        HPos::Right => at.0 - w,
    };
    let y0 = match pos.v_pos {
        VPos::Top => at.1,
        VPos::Center => at.1 - h / 2,
        VPos::Bottom => at.1 - h,
    };
    // moved back inside the frame if it would leave it
    let (fw, fh) = root.dim_in_pixel();
    let dx = (pad - x0).max(0) - (x0 + w + pad - fw as i32).max(0);
    let dy = (pad - y0).max(0) - (y0 + h + pad - fh as i32).max(0);
    let (x0, y0, at) = (x0 + dx, y0 + dy, (at.0 + dx, at.1 + dy));
    root.draw(&Rectangle::new([(x0 - pad, y0 - pad), (x0 + w + pad, y0 + h + pad)], theme.background.mix(0.85).filled())).map_err(fail)?;
    root.draw(&Text::new(text.to_string(), at, style)).map_err(fail)?;
    Ok(())
}

/// The figure as an SVG document of `width` × `height` CSS pixels.
pub fn figure_svg(figure: &Figure, width: u32, height: u32, options: &DrawOptions) -> Result<String, String> {
    Ok(figure_svg_frame(figure, width, height, options)?.0)
}

/// The SVG document and where everything went (for tests of the layout).
pub fn figure_svg_frame(figure: &Figure, width: u32, height: u32, options: &DrawOptions) -> Result<(String, Frame), String> {
    let mut svg = String::new();
    let frame = draw_measured(Measured::new(SVGBackend::with_string(&mut svg, (width, height)), HelveticaWidths), figure, options)?;
    Ok((svg, frame))
}

#[cfg(test)]
mod axis_tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::chart::figure::{Axis, Corner};

    fn figure(x: Axis) -> Figure {
        Figure { title: "t".into(), x, y: Axis::linear("y", 0.0, 1.0), layers: vec![], legend: Corner::UpperRight, summary: String::new() }
    }

    /// Issue 13: bounds that hung plotters' tick search (subnormal, infinite, inverted)
    /// are refused before it runs, and the frame says why.
    #[test]
    fn axes_that_cannot_be_marked_are_explained_in_the_frame() {
        let axis = |min: f64, max: f64, log: bool| Axis { label: "x".into(), min, max, log };
        for bad in [axis(1e-308, 10.0, true), axis(0.0, f64::INFINITY, false), axis(2.0, 1.0, false), axis(0.0, 5e-324, false), axis(f64::NAN, 1.0, false), axis(-1.0, 1.0, true)] {
            assert!(axis_problem("x", &bad).is_some(), "{bad:?}");
            let svg = figure_svg(&figure(bad.clone()), 400, 300, &DrawOptions::default()).unwrap();
            assert!(svg.contains("cannot be drawn"), "{bad:?}");
        }
        for good in [axis(1e-300, 1.0, true), axis(0.0, 6.0, false), axis(1.0, 1e4, true), axis(-3.0, -1.0, false)] {
            assert_eq!(axis_problem("x", &good), None, "{good:?}");
        }
    }

    #[test]
    fn text_is_fitted_by_shrinking_wrapping_or_dropping_its_explanation() {
        let measure = |t: &str, size: f64| t.chars().count() as f64 * size * 0.5;
        assert_eq!(fit(&measure, "short", 10.0, 100.0, false, &[]), (vec!["short".to_string()], 10.0));
        let (lines, size) = fit(&measure, "a rather long title of many words", 10.0, 100.0, true, &[]);
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines.iter().all(|l| measure(l, size) <= 100.0));
        let (lines, _) = fit(&measure, "r = λ/f  (change rate ÷ revisit frequency)", 10.0, 60.0, false, &["  ("]);
        assert_eq!(lines, vec!["r = λ/f".to_string()]);
        // however narrow the room, the text stays in it (a floor of 20 % had let a y title
        // at font 4 run off a phone's frame)
        for (text, wrap) in [("hours until every page is downloaded", false), ("a rather long title of many words", true)] {
            let (lines, size) = fit(&measure, text, 10.0, 12.0, wrap, &[]);
            assert!(lines.iter().all(|l| measure(l, size) <= 12.0), "{lines:?} at {size}");
        }
        // never between a number and its unit or its name
        assert_eq!(split_in_two("freshness, C = 90 % of the maximum").unwrap(), ["freshness, C = 90 %", "of the maximum"]);
    }

    /// A bar is data from its base to its top: the legend keeps off a tall bar's upper
    /// part, not only off its middle (the history's rates histogram put it there).
    #[test]
    fn the_legend_keeps_off_every_part_of_a_bar() {
        use crate::chart::figure::{Layer, Paint};
        let mut f = figure(Axis::linear("x", 0.0, 1.0));
        // a tall bar over the right half: its middle lies low, its top under the preferred corner
        f.layers = vec![Layer::Rects { label: "a tall bar".into(), rects: vec![[0.5, 1.0, 0.0, 1.0]], paint: Paint::Series(0) }];
        let (_, frame) = figure_svg_frame(&f, 600, 400, &DrawOptions::default()).unwrap();
        let [left, _, right, _] = frame.legend.expect("a legend");
        assert!(right < frame.width / 2 || left > frame.width - 20, "the legend {:?} lies over the bar's right half of a {} px frame", frame.legend, frame.width);
    }

    /// A narrow chart marks fewer ticks rather than run their labels together (a
    /// year in days on a phone at twice the text size read "0 50 100150200250…"); a
    /// wide one keeps nine.
    #[test]
    fn tick_labels_keep_apart_on_a_narrow_axis() {
        use plotters::coord::types::RangedCoordf64;
        let days: RangedCoordf64 = (0.0..365.0).into();
        let width = |v: f64| tick(v).chars().count() as f64 * 15.0;
        let narrow = spaced_ticks(&days, (0, 200), 9, width, 26.0);
        let points = days.key_points(narrow);
        assert!(points.len() >= 2, "{points:?}");
        for w in points.windows(2) {
            let apart = f64::from(days.map(&w[1], (0, 200)) - days.map(&w[0], (0, 200)));
            assert!(apart >= (width(w[0]) + width(w[1])) / 2.0 + 26.0, "{points:?} at {narrow}");
        }
        assert!(days.key_points(9).len() > points.len(), "the narrow axis dropped ticks");
        assert_eq!(spaced_ticks(&days, (0, 1200), 9, width, 26.0), 9);
        // an axis too short for two labels marks one
        assert_eq!(spaced_ticks(&days, (0, 10), 9, width, 26.0), 1);
    }

    /// A log axis starting at a decade marks it: plotters finds its decades by
    /// ln(start)/ln(10), which put 0.1 a hair above 10⁻¹ and left the history's rates chart
    /// of rates from 0.17 to 0.64 a day (an axis over 0.1–1) one label, "1".
    #[test]
    fn a_log_axis_starting_at_a_decade_marks_it() {
        for (lo, hi, labels) in [(0.1, 1.0, ["0.1", "1"]), (1e-3, 1e-2, ["0.001", "0.01"]), (10.0, 100.0, ["10", "100"]), (1e-3, 10.0, ["0.001", "10"])] {
            let svg = figure_svg(&figure(Axis::log("x", lo, hi)), 640, 360, &DrawOptions::default()).unwrap();
            let texts: Vec<&str> = svg.split("<text").skip(1).filter_map(|t| t.split('>').nth(1)?.split('<').next()).map(str::trim).collect();
            for label in labels {
                assert!(texts.contains(&label), "{lo}–{hi}: no {label} in {texts:?}");
            }
        }
    }

    /// Issue 44: a line drawn on another says so in the legend; lines apart do not.
    #[test]
    fn a_line_under_another_says_so_in_the_legend() {
        use crate::chart::figure::{Layer, series_pen};
        let line = |label: &str, ys: &[f64]| Layer::lines(label, vec![ys.iter().enumerate().map(|(k, &y)| [k as f64, y]).collect()], series_pen(0));
        let mut f = figure(Axis::linear("x", 0.0, 3.0));
        f.layers = vec![line("graph: 3 h", &[0.5, 0.6, 0.7]), line("hash", &[0.5, 0.601, 0.7]), line("apart", &[0.5, 0.615, 0.7])];
        let labels: Vec<String> = entries(&f, true).into_iter().map(|e| e.label).collect();
        assert_eq!(labels, ["graph: 3 h", "hash (the same as graph)", "apart (within 2 % of graph)"]);
        f.layers.push(line("far", &[0.5, 0.7, 0.7]));
        assert_eq!(entries(&f, true).last().unwrap().label, "far");
        assert_eq!(entries(&f, false)[1].label, "hash", "without notes where even half-size text would not fit");
        // on a log axis, by decades
        f.y = Axis::log("y", 1e-3, 1e3);
        f.layers = vec![line("a", &[1.0, 10.0]), line("b", &[1.01, 10.1]), line("c", &[1.1, 11.0]), line("d", &[2.0, 20.0])];
        let labels: Vec<String> = entries(&f, true).into_iter().map(|e| e.label).collect();
        assert_eq!(labels, ["a", "b (the same as a)", "c (within 2 % of a)", "d"]);
    }
}
