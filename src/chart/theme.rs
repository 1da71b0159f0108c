//! Colours, sizes and fonts: light or dark, scaled for the device and the room.

use super::figure::Paint;
use crate::core::input::{InputError, check};
use plotters::style::{FontDesc, FontFamily, FontStyle, RGBAColor, RGBColor, TextStyle};
use serde::{Deserialize, Serialize};

/// How to draw: theme, device pixel ratio (2 for a "2×" PNG) and a font scale for
/// slides read from the back of a room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DrawOptions {
    pub dark: bool,
    pub pixel_ratio: f64,
    pub font_scale: f64,
    /// The frame (CSS pixels) whose size sets the texts' size, when not the chart's own:
    /// a slide's chart beside its controls keeps the texts of the chart alone.
    pub text_frame: Option<[f64; 2]>,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions { dark: false, pixel_ratio: 1.0, font_scale: 1.0, text_frame: None }
    }
}

impl DrawOptions {
    pub fn validate(&self) -> Result<(), InputError> {
        check("pixel_ratio", self.pixel_ratio)?.at_least(0.25)?.at_most(8.0)?;
        check("font_scale", self.font_scale)?.at_least(0.5)?.at_most(4.0)?;
        if let Some([w, h]) = self.text_frame {
            check("text_frame[0]", w)?.at_least(1.0)?.at_most(100_000.0)?;
            check("text_frame[1]", h)?.at_least(1.0)?.at_most(100_000.0)?;
        }
        Ok(())
    }
}

/// A colour from its 0xRRGGBB code, as palettes are published.
const fn hex(code: u32) -> RGBColor {
    RGBColor((code >> 16) as u8, (code >> 8) as u8, code as u8)
}

/// Okabe & Ito's colour-blind-safe palette, ordered for contrast on white.
const LIGHT: [RGBColor; 8] = [hex(0x0072B2), hex(0xD55E00), hex(0x009E73), hex(0xCC79A7), hex(0xE69F00), hex(0x56B4E9), hex(0x333333), hex(0xB8A900)];
/// The same hues, lightened for a dark background.
const DARK: [RGBColor; 8] = [hex(0x5AA9E6), hex(0xF0803C), hex(0x2FBF8F), hex(0xE08DBF), hex(0xF2B134), hex(0x8FD0F5), hex(0xE5E7EB), hex(0xF0E442)];
/// Viridis at five stops.
const RAMP: [(f64, f64, f64); 5] = [(68.0, 1.0, 84.0), (59.0, 82.0, 139.0), (33.0, 145.0, 140.0), (94.0, 201.0, 98.0), (253.0, 231.0, 37.0)];

pub struct Theme {
    pub dark: bool,
    pub background: RGBColor,
    pub foreground: RGBColor,
    pub grid: RGBColor,
    /// Device pixels per CSS pixel.
    pub scale: f64,
    /// Font pixels per nominal font pixel (includes `scale`).
    pub font: f64,
}

impl Theme {
    pub fn new(options: &DrawOptions) -> Self {
        let (background, foreground, grid) = if options.dark { (hex(0x111827), hex(0xE5E7EB), hex(0x9CA3AF)) } else { (hex(0xFFFFFF), hex(0x1F2937), hex(0x6B7280)) };
        Theme { dark: options.dark, background, foreground, grid, scale: options.pixel_ratio, font: options.pixel_ratio * options.font_scale }
    }

    pub fn colour(&self, paint: Paint) -> RGBAColor {
        let solid = |c: RGBColor| RGBAColor(c.0, c.1, c.2, 1.0);
        match paint {
            Paint::Series(k) => solid(if self.dark { DARK[k % 8] } else { LIGHT[k % 8] }),
            Paint::Ramp(t) => {
                // avoid the ends that vanish into the background
                let t = if self.dark { 0.2 + 0.8 * t } else { 0.85 * t };
                solid(ramp(t.clamp(0.0, 1.0)))
            }
            Paint::Highlight => {
                let c = if self.dark { DARK[1] } else { LIGHT[1] };
                RGBAColor(c.0, c.1, c.2, 0.28)
            }
            Paint::Foreground => solid(self.foreground),
        }
    }

    /// The theme for a canvas of `width` × `height` device pixels: text follows the
    /// font scale, and shrinks (to 70 % at most) on a canvas smaller than 900 × 560 CSS
    /// pixels, so that a phone's chart keeps room for its data.
    pub fn sized(options: &DrawOptions, width: f64, height: f64) -> Self {
        let mut theme = Theme::new(options);
        let [css_w, css_h] = options.text_frame.unwrap_or([width / options.pixel_ratio, height / options.pixel_ratio]);
        theme.font *= (css_w / 900.0).min(css_h / 560.0).clamp(0.7, 1.0);
        theme
    }

    /// A sans-serif text style of nominal size `px`.
    pub fn text(&self, px: f64) -> TextStyle<'_> {
        self.sized_text(px * self.font)
    }

    /// The device size of nominal text size `px`.
    pub fn font_px(&self, px: f64) -> f64 {
        px * self.font
    }

    /// A sans-serif text style of `size` device pixels.
    pub fn sized_text(&self, size: f64) -> TextStyle<'_> {
        TextStyle::from(FontDesc::new(FontFamily::SansSerif, size, FontStyle::Normal)).color(&self.foreground)
    }

    /// `css_px` CSS pixels in device pixels.
    pub fn px(&self, css_px: f64) -> f64 {
        css_px * self.scale
    }
}

fn ramp(t: f64) -> RGBColor {
    let x = t * (RAMP.len() - 1) as f64;
    let k = (x.floor() as usize).min(RAMP.len() - 2);
    let f = x - k as f64;
    let (a, b) = (RAMP[k], RAMP[k + 1]);
    let mix = |p: f64, q: f64| (p + f * (q - p)).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn ramp_ends_and_options() {
        assert_eq!(ramp(0.0), RGBColor(68, 1, 84));
        assert_eq!(ramp(1.0), RGBColor(253, 231, 37));
        assert!(DrawOptions { pixel_ratio: 0.0, ..Default::default() }.validate().is_err());
        assert_eq!(DrawOptions { font_scale: 9.0, ..Default::default() }.validate().unwrap_err().field, "font_scale");
    }
}
