//! Backends whose text is measured by a chosen [`TextMeasure`] instead of plotters'
//! font code (which, in a browser, inserts a styled element into the page per label).

use plotters::prelude::*;
use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind};

/// Width and height in pixels of `text` set in `family`/`style` at `size` pixels.
pub trait TextMeasure {
    fn measure(&self, text: &str, family: &str, style: &str, size: f64) -> Result<(f64, f64), String>;
}

/// Helvetica's advance widths (Adobe's core font metrics, per 1000 em) for printable
/// ASCII; other characters count as a digit. Deterministic on every target, so SVG
/// files come out identical natively and in the browser.
pub struct HelveticaWidths;

const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // space … /
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, // 0 … ?
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, // @ … O
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, // P … _
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, // ` … o
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, // p … ~
];

impl TextMeasure for HelveticaWidths {
    fn measure(&self, text: &str, _family: &str, _style: &str, size: f64) -> Result<(f64, f64), String> {
        let units: u32 = text.chars().map(|ch| (ch as u32).checked_sub(32).and_then(|k| HELVETICA.get(k as usize)).copied().unwrap_or(556) as u32).sum();
        Ok((units as f64 * size / 1000.0, size * 1.15))
    }
}

/// A text's box on the canvas: [left, top, right, bottom] in device pixels.
pub type TextBox = [i32; 4];

/// `inner`, with text sizes from `measure`; every text drawn is recorded in `texts` (so
/// that a test, or the page, can check that none leaves the frame).
pub struct Measured<B, M> {
    pub inner: B,
    pub measure: M,
    pub texts: std::rc::Rc<std::cell::RefCell<Vec<TextBox>>>,
}

impl<B, M> Measured<B, M> {
    pub fn new(inner: B, measure: M) -> Self {
        Measured { inner, measure, texts: Default::default() }
    }
}

#[derive(Debug)]
struct MeasureError(String);

impl std::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot measure text: {}", self.0)
    }
}

impl std::error::Error for MeasureError {}

impl<B: DrawingBackend, M: TextMeasure> DrawingBackend for Measured<B, M> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(&mut self, upper_left: BackendCoord, bottom_right: BackendCoord, style: &S, fill: bool) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, vertices: I, style: &S) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.fill_polygon(vertices, style)
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result<(), DrawingErrorKind<B::ErrorType>> {
        if let Ok((w, h)) = self.measure.measure(text, style.family().as_str(), style.style().as_str(), style.size()) {
            self.texts.borrow_mut().push(text_box(pos, w, h, style.anchor(), style.transform()));
        }
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32), DrawingErrorKind<B::ErrorType>> {
        let (w, h) =
            self.measure.measure(text, style.family().as_str(), style.style().as_str(), style.size()).map_err(|e| DrawingErrorKind::FontError(Box::new(MeasureError(e))))?;
        Ok((w.ceil() as u32, h.ceil() as u32))
    }
}

/// The box of a text of `w` × `h` drawn at `pos` with `anchor`, turned by `turn`.
fn text_box(pos: BackendCoord, w: f64, h: f64, anchor: plotters_backend::text_anchor::Pos, turn: plotters_backend::FontTransform) -> TextBox {
    use plotters_backend::FontTransform;
    use plotters_backend::text_anchor::{HPos, VPos};
    let dx = match anchor.h_pos {
        HPos::Left => 0.0,
        HPos::Center => -w / 2.0,
        HPos::Right => -w,
    };
    let dy = match anchor.v_pos {
        VPos::Top => 0.0,
        VPos::Center => -h / 2.0,
        VPos::Bottom => -h,
    };
    let (x0, y0, x1, y1) = (pos.0 as f64 + dx, pos.1 as f64 + dy, pos.0 as f64 + dx + w, pos.1 as f64 + dy + h);
    // a quarter turn about the anchor point (screen coordinates, y down): 90° takes
    // (dx, dy) to (−dy, dx), 270° to (dy, −dx)
    let (cx, cy) = (pos.0 as f64, pos.1 as f64);
    let turned = |r: &dyn Fn(f64, f64) -> (f64, f64)| {
        let (a, b) = (r(x0 - cx, y0 - cy), r(x1 - cx, y1 - cy));
        [(cx + a.0.min(b.0)).floor() as i32, (cy + a.1.min(b.1)).floor() as i32, (cx + a.0.max(b.0)).ceil() as i32, (cy + a.1.max(b.1)).ceil() as i32]
    };
    match turn {
        FontTransform::Rotate90 => turned(&|dx, dy| (-dy, dx)),
        FontTransform::Rotate270 => turned(&|dx, dy| (dy, -dx)),
        _ => [x0.floor() as i32, y0.floor() as i32, x1.ceil() as i32, y1.ceil() as i32],
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn helvetica_widths() {
        let (w, h) = HelveticaWidths.measure("0.93", "sans-serif", "normal", 10.0).unwrap();
        assert!((w - (556.0 * 3.0 + 278.0) / 100.0).abs() < 1e-12);
        assert!((h - 11.5).abs() < 1e-12);
        assert_eq!(HelveticaWidths.measure("λ", "", "", 10.0).unwrap().0, 5.56);
    }
}
