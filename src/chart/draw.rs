//! Renders a [`Figure`] with plotters on any backend (canvas in the page, SVG in the CLI
//! and the page's SVG export).

use super::clip::clip_polyline;
use super::figure::{Corner, Dash, Figure, Layer, Pen};
use super::theme::{DrawOptions, Theme};
use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::Shift;
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

/// Draws `figure` on `root`, filling it.
pub fn draw_figure<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, figure: &Figure, options: &DrawOptions) -> Result<Frame, String> {
    let theme = Theme::new(options);
    root.fill(&theme.background).map_err(fail)?;
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
    } else if !(1e-3..1e6).contains(&a) {
        format!("{v:.0e}")
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

    let mut labelled = false;
    for layer in &figure.layers {
        labelled |= draw_layer(root, chart, figure, theme, layer)?;
    }
    if labelled {
        let position = match figure.legend {
            Corner::UpperLeft => SeriesLabelPosition::UpperLeft,
            Corner::UpperRight => SeriesLabelPosition::UpperRight,
            Corner::LowerLeft => SeriesLabelPosition::LowerLeft,
            Corner::LowerRight => SeriesLabelPosition::LowerRight,
        };
        chart
            .configure_series_labels()
            .position(position)
            .label_font(theme.text(13.0))
            .background_style(theme.background.mix(0.88))
            .border_style(theme.grid.mix(0.5))
            .margin(theme.px(10.0) as u32)
            .legend_area_size(theme.px(30.0) as u32)
            .draw()
            .map_err(fail)?;
    }
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

/// Draws one layer; returns whether it added a legend entry.
fn draw_layer<'a, DB, X, Y>(
    root: &'a DrawingArea<DB, Shift>,
    chart: &mut ChartContext<'a, DB, Cartesian2d<X, Y>>,
    figure: &Figure,
    theme: &Theme,
    layer: &Layer,
) -> Result<bool, String>
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
            if label.is_empty() {
                return Ok(false);
            }
            // an empty series carries the legend entry, whatever was drawn
            let legend_pen = *pen;
            let (dash, dot, width) = (dash as i32, dot as i32, theme.px(22.0) as i32);
            let entry_style = style;
            chart
                .draw_series(std::iter::empty::<PathElement<(f64, f64)>>())
                .map_err(fail)?
                .label(label.as_str())
                .legend(move |(x, y)| {
                    let points = vec![(x, y), (x + width, y)];
                    match legend_pen.dash {
                        Dash::Solid => DashedPathElement::new(points, width, 0, entry_style),
                        Dash::Dashed => DashedPathElement::new(points, dash, dash * 2 / 3, entry_style),
                        Dash::Dotted => DashedPathElement::new(points, dot, dot * 2, entry_style),
                    }
                });
            Ok(true)
        }
        Layer::Rects { label, rects, paint } => {
            let fill = theme.colour(*paint).filled();
            chart.draw_series(rects.iter().map(|r| Rectangle::new([(r[0], r[2]), (r[1], r[3])], fill))).map_err(fail)?;
            if label.is_empty() {
                return Ok(false);
            }
            let size = theme.px(8.0) as i32;
            chart
                .draw_series(std::iter::empty::<Rectangle<(f64, f64)>>())
                .map_err(fail)?
                .label(label.as_str())
                .legend(move |(x, y)| Rectangle::new([(x, y - size), (x + 2 * size, y + size)], fill));
            Ok(true)
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
            if label.is_empty() {
                return Ok(false);
            }
            let fill = colour.filled();
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(fail)?
                .label(label.as_str())
                .legend(move |(x, y)| Circle::new((x + radius * 2, y), radius, fill));
            Ok(true)
        }
        Layer::HLine { label, y, pen } => {
            let line = vec![vec![[figure.x.min, *y], [figure.x.max, *y]]];
            draw_layer(root, chart, figure, theme, &Layer::Lines { label: label.clone(), lines: line, pen: *pen, tag: None })
        }
        Layer::Intervals { label, points, paint } => {
            let style = theme.colour(*paint).stroke_width(theme.px(1.5).max(1.0) as u32);
            let radius = theme.px(3.5) as i32;
            let cap = theme.px(4.0) as u32;
            chart
                .draw_series(points.iter().map(|p| ErrorBar::new_vertical(p[0], p[2], p[1], p[3], style, cap)))
                .map_err(fail)?;
            chart.draw_series(points.iter().map(|p| Circle::new((p[0], p[1]), radius, style.color.filled()))).map_err(fail)?;
            if label.is_empty() {
                return Ok(false);
            }
            let fill = style.color.filled();
            chart
                .draw_series(std::iter::empty::<Circle<(f64, f64), i32>>())
                .map_err(fail)?
                .label(label.as_str())
                .legend(move |(x, y)| Circle::new((x + radius * 3, y), radius, fill));
            Ok(true)
        }
    }
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
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw_figure(&root, figure, options)?;
        root.present().map_err(fail)?;
    }
    Ok(svg)
}
