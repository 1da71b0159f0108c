//! PNG charts for the CLI (the page rasterises with its canvas). Text is set in DejaVu
//! Sans, embedded in the binary, so the output does not depend on the machine's fonts.

use super::draw::draw_measured;
use super::figure::Figure;
use super::measure::{Measured, TextMeasure};
use super::theme::DrawOptions;
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};
use std::sync::Once;

static FONT: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
static REGISTER: Once = Once::new();

/// Advance widths of the embedded font, kerning included.
struct DejaVuWidths(FontRef<'static>);

impl TextMeasure for DejaVuWidths {
    fn measure(&self, text: &str, _family: &str, _style: &str, size: f64) -> Result<(f64, f64), String> {
        let font = self.0.as_scaled(PxScale::from(size as f32));
        let mut width = 0.0f32;
        let mut previous = None;
        for ch in text.chars() {
            let id = font.glyph_id(ch);
            if let Some(p) = previous {
                width += font.kern(p, id);
            }
            width += font.h_advance(id);
            previous = Some(id);
        }
        Ok((width as f64, (font.ascent() - font.descent()) as f64))
    }
}

/// The figure as a PNG of `width` × `height` CSS pixels at `options.pixel_ratio`.
pub fn figure_png(figure: &Figure, width: u32, height: u32, options: &DrawOptions) -> Result<Vec<u8>, String> {
    REGISTER.call_once(|| {
        for family in ["sans-serif", "serif", "monospace"] {
            // cannot fail for a valid font; a failure would show as missing text
            let _ = register_font(family, FontStyle::Normal, FONT);
        }
    });
    let (w, h) = ((width as f64 * options.pixel_ratio).round() as u32, (height as f64 * options.pixel_ratio).round() as u32);
    let mut pixels = vec![255u8; (w * h * 3) as usize];
    {
        let font = FontRef::try_from_slice(FONT).map_err(|e| format!("the embedded font is unreadable: {e}"))?;
        draw_measured(Measured::new(BitMapBackend::with_buffer(&mut pixels, (w, h)), DejaVuWidths(font)), figure, options)?;
    }
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, w, h);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(|e| e.to_string())?;
        writer.write_image_data(&pixels).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiments::{parse_config, run};

    #[test]
    fn a_chart_becomes_a_png_with_ink_and_text() {
        let out = run(parse_config(r#"{"experiment":"factor_curves","points":50}"#).unwrap(), |_, _| {}).unwrap();
        let options = DrawOptions { pixel_ratio: 2.0, ..Default::default() };
        let bytes = figure_png(&out.figures()[0], 400, 250, &options).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        let decoder = png::Decoder::new(std::io::Cursor::new(&bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (800, 500), "2× for slides");
        let ink = buf.chunks(3).filter(|p| p.iter().any(|&c| c < 200)).count();
        assert!(ink > 5000, "{ink} dark pixels");
    }

    /// The width ticks are spaced by is never narrower than the same label set in
    /// DejaVu Sans, the widest of the common sans-serif fonts a page may fall back to.
    #[test]
    fn tick_spacing_widths_cover_dejavu_sans() {
        let font = DejaVuWidths(FontRef::try_from_slice(FONT).unwrap());
        for v in [0.0, 0.25, 1.0, 7.5, 50.0, 150.0, 365.0, 1024.0, -0.75, 12_500.0, 3.2e6, 4.5e9, 2e-5] {
            let label = crate::chart::draw::tick(v);
            let (dejavu, _) = font.measure(&label, "", "", 26.0).unwrap();
            assert!(crate::chart::draw::tick_width(&label, 26.0) >= dejavu, "{label}: {dejavu} px in DejaVu Sans");
        }
    }
}
