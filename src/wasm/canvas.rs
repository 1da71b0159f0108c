//! Text measured by the page's canvas (`measureText`), for plotters-canvas.

use crate::chart::measure::{Measured, TextMeasure};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

pub struct CanvasMetrics(CanvasRenderingContext2d);

impl TextMeasure for CanvasMetrics {
    fn measure(&self, text: &str, family: &str, style: &str, size: f64) -> Result<(f64, f64), String> {
        // the same font string CanvasBackend::draw_text sets
        self.0.set_font(&format!("{style} {size}px {family}"));
        let metrics = self.0.measure_text(text).map_err(|e| format!("{e:?}"))?;
        let height = metrics.font_bounding_box_ascent() + metrics.font_bounding_box_descent();
        Ok((metrics.width(), if height > 0.0 { height } else { size * 1.2 }))
    }
}

/// plotters-canvas on `canvas`, measuring text with the canvas's own metrics.
pub fn measured_canvas(canvas: HtmlCanvasElement) -> Option<Measured<CanvasBackend, CanvasMetrics>> {
    let context = canvas.get_context("2d").ok()??.dyn_into::<CanvasRenderingContext2d>().ok()?;
    let inner = CanvasBackend::with_canvas_object(canvas)?;
    Some(Measured::new(inner, CanvasMetrics(context)))
}
