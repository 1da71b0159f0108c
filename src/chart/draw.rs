//! Renders a [`Figure`] with plotters on any backend (canvas in the page, SVG in the CLI
//! and the page's SVG export).

use super::clip::clip_polyline;
use super::figure::{Corner, Dash, Figure, Layer, Pen};
use super::measure::{HelveticaWidths, Measured};
use super::theme::{DrawOptions, Theme};
use plotters::coord::Shift;
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use serde::{Deserialize, Serialize};

/// The plotting area in device pixels, and the axes, so that the page can map the
/// pointer back to data coordinates.
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

/// Draws `figure` on `root`, filling it; a figure whose axes cannot be drawn says why
/// in its frame instead.
pub fn draw_figure<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure, options: &DrawOptions) -> Result<Frame, String> {
    let theme = Theme::new(options);
    root.fill(&theme.background).map_err(fail)?;
    if let Some(why) = axis_problem("x", &figure.x).or_else(|| axis_problem("y", &figure.y)) {
        let (w, h) = root.dim_in_pixel();
        let style = theme.text(14.0);
        let lines = [figure.title.clone(), "This chart cannot be drawn:".into(), why, "change the range and run again.".into()];
        for (k, line) in lines.iter().enumerate() {
            root.draw(&Text::new(line.clone(), (theme.px(16.0) as i32, (h as f64 * 0.3) as i32 + k as i32 * theme.px(24.0) as i32), style.clone())).map_err(fail)?;
        }
        return Ok(Frame { left: 0, right: w as i32, top: 0, bottom: h as i32, x_min: 0.0, x_max: 1.0, x_log: false, y_min: 0.0, y_max: 1.0, y_log: false });
    }
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(&figure.title, theme.text(17.0))
        .margin(theme.px(14.0) as u32)
        .x_label_area_size(theme.px(28.0).max(theme.font * 44.0) as u32)
        .y_label_area_size(theme.px(36.0).max(theme.font * 68.0) as u32);
    let (x, y) = (&figure.x, &figure.y);
    let (xs, ys) = (x.min..x.max, y.min..y.max);
    match (x.log, y.log) {
        (false, false) => plot(root, &mut builder.build_cartesian_2d(xs, ys).map_err(fail)?, figure, &theme),
        (true, false) => plot(root, &mut builder.build_cartesian_2d(xs.log_scale(), ys).map_err(fail)?, figure, &theme),
        (false, true) => plot(root, &mut builder.build_cartesian_2d(xs, ys.log_scale()).map_err(fail)?, figure, &theme),
        (true, true) => plot(root, &mut builder.build_cartesian_2d(xs.log_scale(), ys.log_scale()).map_err(fail)?, figure, &theme),
    }
}

/// Short tick labels: 0.25, 3, 1.5k, 1e-6.
pub fn tick(v: f64) -> String {
    let a = v.abs();
    if v == 0.0 {
        "0".into()
    } else if a < 1e-3 || a >= 1e12 {
        format!("{v:.0e}")
    } else if a >= 1e9 {
        trim(format!("{:.2}", v / 1e9)) + "G"
    } else if a >= 1e6 {
        trim(format!("{:.2}", v / 1e6)) + "M"
    } else if a >= 1e4 {
        trim(format!("{:.1}", v / 1e3)) + "k"
    } else {
        trim(format!("{v:.4}"))
    }
}

fn trim(s: String) -> String {
    if s.contains('.') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s }
}

fn plot<'a, DB, X, Y>(root: &'a DrawingArea<DB, Shift>, chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>, figure: &Figure, theme: &Theme) -> Result<Frame, String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let formatter = |v: &f64| tick(*v);
    chart
        .configure_mesh()
        .x_desc(figure.x.label.as_str())
        .y_desc(figure.y.label.as_str())
        .axis_desc_style(theme.text(15.0))
        .label_style(theme.text(13.0))
        .x_label_formatter(&formatter)
        .y_label_formatter(&formatter)
        .x_labels(9)
        .y_labels(8)
        .bold_line_style(theme.grid.mix(0.30))
        .light_line_style(theme.grid.mix(0.10))
        .axis_style(theme.foreground)
        .draw()
        .map_err(fail)?;

    let mut entries = Vec::new();
    for layer in &figure.layers {
        entries.extend(draw_layer(root, chart, figure, theme, layer)?);
    }
    draw_legend(root, chart.plotting_area().get_pixel_range(), figure.legend, &entries, theme)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
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
    })
}

fn stroke(theme: &Theme, pen: &Pen) -> ShapeStyle {
    theme.colour(pen.paint).stroke_width(theme.px(pen.width).round().max(1.0) as u32)
}

/// What a legend entry shows beside its label.
#[derive(Clone, Copy)]
enum Glyph {
    Line(Pen),
    Swatch(super::figure::Paint),
    Dot(super::figure::Paint),
}

struct Entry {
    label: String,
    glyph: Glyph,
}

fn entry(label: &str, glyph: Glyph) -> Option<Entry> {
    (!label.is_empty()).then(|| Entry { label: label.to_string(), glyph })
}

/// Draws one layer; returns its legend entry, if it has a label.
fn draw_layer<'a, DB, X, Y>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    figure: &Figure,
    theme: &Theme,
    layer: &Layer,
) -> Result<Option<Entry>, String>
where
    DB: DrawingBackend + 'a,
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let dash = theme.px(7.0) as u32;
    let dot = theme.px(2.5).max(1.0) as u32;
    match layer {
        Layer::Lines { label, lines, pen, tag } => {
            let style = stroke(theme, pen);
            let pieces: Vec<Vec<(f64, f64)>> = lines.iter().flat_map(|l| clip_polyline(l, &figure.x, &figure.y)).collect();
            for piece in &pieces {
                match pen.dash {
                    Dash::Solid => chart.draw_series(LineSeries::new(piece.iter().copied(), style)).map_err(fail)?,
                    Dash::Dashed => chart.draw_series(DashedLineSeries::new(piece.iter().copied(), dash, dash * 2 / 3, style)).map_err(fail)?,
                    Dash::Dotted => chart.draw_series(DashedLineSeries::new(piece.iter().copied(), dot, dot * 2, style)).map_err(fail)?,
                };
            }
            if let Some(tag) = tag {
                if let Some(longest) = pieces.iter().max_by_key(|p| p.len()) {
                    let at = chart.backend_coord(&longest[longest.len() / 2]);
                    boxed_text(root, theme, tag, at, Pos::new(HPos::Center, VPos::Center), theme.colour(pen.paint))?;
                }
            }
            Ok(entry(label, Glyph::Line(*pen)))
        }
        Layer::Rects { label, rects, paint } => {
            let fill = theme.colour(*paint).filled();
            chart.draw_series(rects.iter().map(|r| Rectangle::new([(r[0], r[2]), (r[1], r[3])], fill))).map_err(fail)?;
            Ok(entry(label, Glyph::Swatch(*paint)))
        }
        Layer::Marker { label, at, paint, note } => {
            let colour = theme.colour(*paint);
            let radius = theme.px(5.5) as i32;
            let point = (at[0], at[1]);
            let edge = theme.background.stroke_width(theme.px(2.0) as u32);
            chart.draw_series([Circle::new(point, radius + theme.px(1.5) as i32, edge), Circle::new(point, radius, colour.filled())]).map_err(fail)?;
            if !note.is_empty() {
                let (px, py) = chart.backend_coord(&point);
                let (plot_x, _) = chart.plotting_area().get_pixel_range();
                let right_half = px > (plot_x.start + plot_x.end) / 2;
                let offset = theme.px(10.0) as i32;
                let (anchor, x) = if right_half { (HPos::Right, px - offset) } else { (HPos::Left, px + offset) };
                boxed_text(root, theme, note, (x, py - offset), Pos::new(anchor, VPos::Bottom), theme.colour(super::figure::Paint::Foreground))?;
            }
            Ok(entry(label, Glyph::Dot(*paint)))
        }
        Layer::HLine { label, y, pen } => {
            let line = vec![vec![[figure.x.min, *y], [figure.x.max, *y]]];
            draw_layer(root, chart, figure, theme, &Layer::Lines { label: label.clone(), lines: line, pen: *pen, tag: None })
        }
        Layer::Dots { label, points, paint, radius } => {
            let fill = theme.colour(*paint).filled();
            let r = theme.px(*radius).max(1.0) as i32;
            let inside = |p: &&[f64; 2]| (figure.x.min..=figure.x.max).contains(&p[0]) && (figure.y.min..=figure.y.max).contains(&p[1]);
            chart.draw_series(points.iter().filter(inside).map(|p| Circle::new((p[0], p[1]), r, fill))).map_err(fail)?;
            Ok(entry(label, Glyph::Dot(*paint)))
        }
        Layer::Intervals { label, points, paint } => {
            let style = theme.colour(*paint).stroke_width(theme.px(1.5).max(1.0) as u32);
            let radius = theme.px(3.5) as i32;
            let cap = theme.px(4.0) as u32;
            chart.draw_series(points.iter().map(|p| ErrorBar::new_vertical(p[0], p[2], p[1], p[3], style, cap))).map_err(fail)?;
            chart.draw_series(points.iter().map(|p| Circle::new((p[0], p[1]), radius, style.color.filled()))).map_err(fail)?;
            Ok(entry(label, Glyph::Dot(*paint)))
        }
    }
}

/// The legend: a box in a corner of the plotting area listing the labelled layers.
/// (Drawn here rather than by plotters so that text is measured by the backend.)
fn draw_legend<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    (xr, yr): (std::ops::Range<i32>, std::ops::Range<i32>),
    corner: Corner,
    entries: &[Entry],
    theme: &Theme,
) -> Result<(), String> {
    if entries.is_empty() {
        return Ok(());
    }
    let style = theme.text(13.0).pos(Pos::new(HPos::Left, VPos::Center));
    let mut width = 0;
    for e in entries {
        width = width.max(root.estimate_text_size(&e.label, &style).map_err(fail)?.0 as i32);
    }
    let line = (theme.font * 20.0).round() as i32;
    let (pad, glyph) = (theme.px(8.0) as i32, theme.px(24.0) as i32);
    let (w, h) = (pad * 3 + glyph + width, pad * 2 + line * entries.len() as i32);
    let inset = theme.px(10.0) as i32;
    let x0 = match corner {
        Corner::UpperLeft | Corner::LowerLeft => xr.start + inset,
        Corner::UpperRight | Corner::LowerRight => xr.end - inset - w,
    };
    let y0 = match corner {
        Corner::UpperLeft | Corner::UpperRight => yr.start + inset,
        Corner::LowerLeft | Corner::LowerRight => yr.end - inset - h,
    };
    root.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], theme.background.mix(0.9).filled())).map_err(fail)?;
    root.draw(&Rectangle::new([(x0, y0), (x0 + w, y0 + h)], theme.grid.mix(0.6).stroke_width(1))).map_err(fail)?;
    for (k, e) in entries.iter().enumerate() {
        let y = y0 + pad + line * k as i32 + line / 2;
        let (gx0, gx1) = (x0 + pad, x0 + pad + glyph);
        match e.glyph {
            Glyph::Line(pen) => {
                let points = [(gx0, y), (gx1, y)];
                let style = stroke(theme, &pen);
                let (dash, dot) = (theme.px(7.0) as i32, theme.px(2.5).max(1.0) as i32);
                let (on, off) = match pen.dash {
                    Dash::Solid => (glyph, 0),
                    Dash::Dashed => (dash, dash * 2 / 3),
                    Dash::Dotted => (dot, dot * 2),
                };
                root.draw(&DashedPathElement::new(points, on, off, style)).map_err(fail)?;
            }
            Glyph::Swatch(paint) => {
                let half = line / 3;
                root.draw(&Rectangle::new([(gx0, y - half), (gx1, y + half)], theme.colour(paint).filled())).map_err(fail)?;
            }
            Glyph::Dot(paint) => {
                root.draw(&Circle::new(((gx0 + gx1) / 2, y), theme.px(5.0) as i32, theme.colour(paint).filled())).map_err(fail)?;
            }
        }
        root.draw(&Text::new(e.label.clone(), (gx1 + pad, y), style.clone())).map_err(fail)?;
    }
    Ok(())
}

/// Text on a translucent box of the background colour, so it reads over lines.
fn boxed_text<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, theme: &Theme, text: &str, at: (i32, i32), pos: Pos, colour: RGBAColor) -> Result<(), String> {
    let style = theme.text(12.5).pos(pos).color(&colour);
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
    root.draw(&Rectangle::new([(x0 - pad, y0 - pad), (x0 + w + pad, y0 + h + pad)], theme.background.mix(0.85).filled())).map_err(fail)?;
    root.draw(&Text::new(text.to_string(), at, style)).map_err(fail)?;
    Ok(())
}

/// The figure as an SVG document of `width` × `height` CSS pixels.
pub fn figure_svg(figure: &Figure, width: u32, height: u32, options: &DrawOptions) -> Result<String, String> {
    let mut svg = String::new();
    {
        let backend = Measured { inner: SVGBackend::with_string(&mut svg, (width, height)), measure: HelveticaWidths };
        let root = backend.into_drawing_area();
        draw_figure(&root, figure, options)?;
        root.present().map_err(fail)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod axis_tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::chart::figure::{Axis, Corner};

    fn figure(x: Axis) -> Figure {
        Figure { title: "t".into(), x, y: Axis { label: "y".into(), min: 0.0, max: 1.0, log: false }, layers: vec![], legend: Corner::UpperRight, summary: String::new() }
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
}
