//! The drawing operations a page needs, in points from the page's top-left corner.

/// How a line is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pen {
    /// Width in points.
    pub width: f32,
    /// Grey level, 0 black to 1 white.
    pub grey: f32,
    /// Dash length in points (0: solid).
    pub dash: f32,
}

impl Pen {
    /// A solid black line of this width.
    pub const fn solid(width: f32) -> Pen {
        Pen {
            width,
            grey: 0.0,
            dash: 0.0,
        }
    }
}

/// Where a text's anchor point is on its baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The text starts at the point.
    Start,
    /// The text is centred on the point.
    Middle,
    /// The text ends at the point.
    End,
}

/// A target of page drawings: PDF or SVG. Coordinates are points, y downwards.
pub trait Canvas {
    /// Starts a new page of this size.
    fn begin_page(&mut self, width: f32, height: f32);
    /// A straight line.
    fn line(&mut self, from: (f32, f32), to: (f32, f32), pen: Pen);
    /// A rectangle's outline.
    fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, pen: Pen);
    /// A filled rectangle without outline, grey 0 black to 1 white (a shaded region).
    fn shade(&mut self, x: f32, y: f32, width: f32, height: f32, grey: f32);
    /// One line of text in Helvetica at `size` points, its baseline at `at.1`.
    fn text(&mut self, at: (f32, f32), size: f32, text: &str, anchor: Anchor);
    /// The finished document.
    fn finish(self: Box<Self>) -> Vec<u8>;
}

/// Helvetica advance widths (thousandths of the font size) of the printable ASCII
/// characters, from Adobe's AFM: PDF's base-14 fonts are not embedded, so centring a text
/// needs their metrics here.
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, // ' '../
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, // 0-9
    278, 278, 584, 584, 584, 556, 1015, // :..@
    667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667,
    611, 722, 667, 944, 667, 667, 611, // A-Z
    278, 278, 278, 469, 556, 333, // [..`
    556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500,
    278, 556, 500, 722, 500, 500, 500, // a-z
    334, 260, 334, 584, // {..~
];

/// Width of `text` in Helvetica at `size` points (non-ASCII counts as a wide letter).
pub fn text_width(text: &str, size: f32) -> f32 {
    let units: u32 = text
        .chars()
        .map(|c| match c as u32 {
            code @ 32..=126 => u32::from(HELVETICA[(code - 32) as usize]),
            _ => 1000,
        })
        .sum();
    units as f32 * size / 1000.0
}

/// The x where a text of this width starts for the anchor.
pub fn start_x(x: f32, width: f32, anchor: Anchor) -> f32 {
    match anchor {
        Anchor::Start => x,
        Anchor::Middle => x - width / 2.0,
        Anchor::End => x - width,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helvetica_widths_match_the_afm() {
        assert_eq!(text_width("0", 1000.0), 556.0);
        assert_eq!(text_width("A", 1000.0), 667.0);
        assert_eq!(text_width("G", 1000.0), 778.0);
        assert_eq!(text_width("W", 1000.0), 944.0);
        assert_eq!(text_width("i", 1000.0), 222.0);
        assert_eq!(text_width("~", 1000.0), 584.0);
        assert_eq!(start_x(100.0, 10.0, Anchor::Middle), 95.0);
    }
}
