//! [`Canvas`] as one SVG document: pages stacked top to bottom with a gap between them,
//! each on a white sheet with a thin border.

use super::canvas::{Anchor, Canvas, Pen};
use std::fmt::Write;

/// Space between two pages, points.
const GAP: f32 = 24.0;

/// An SVG document being drawn.
pub struct SvgCanvas {
    title: String,
    body: String,
    width: f32,
    /// Top of the current page in document coordinates.
    top: f32,
    height: f32,
}

impl SvgCanvas {
    /// An empty document with this title.
    pub fn new(title: &str) -> SvgCanvas {
        SvgCanvas {
            title: title.to_string(),
            body: String::new(),
            width: 0.0,
            top: 0.0,
            height: 0.0,
        }
    }

    fn stroke(pen: Pen) -> String {
        let grey = (pen.grey.clamp(0.0, 1.0) * 255.0).round() as u8;
        let mut attrs = format!(
            r#"stroke="rgb({grey},{grey},{grey})" stroke-width="{}""#,
            pen.width
        );
        if pen.dash > 0.0 {
            let _ = write!(attrs, r#" stroke-dasharray="{0} {0}""#, pen.dash);
        }
        attrs
    }
}

/// Text with the five XML specials escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

impl Canvas for SvgCanvas {
    fn begin_page(&mut self, width: f32, height: f32) {
        if self.height > 0.0 {
            self.top = self.height + GAP;
        }
        self.width = self.width.max(width);
        self.height = self.top + height;
        let _ = writeln!(
            self.body,
            r#"<rect class="page" x="0" y="{}" width="{width}" height="{height}" fill="white" stroke="rgb(200,200,200)" stroke-width="0.5"/>"#,
            self.top
        );
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), pen: Pen) {
        let _ = writeln!(
            self.body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" {} stroke-linecap="square"/>"#,
            from.0,
            self.top + from.1,
            to.0,
            self.top + to.1,
            Self::stroke(pen)
        );
    }

    fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, pen: Pen) {
        let _ = writeln!(
            self.body,
            r#"<rect x="{x}" y="{}" width="{width}" height="{height}" fill="none" {}/>"#,
            self.top + y,
            Self::stroke(pen)
        );
    }

    fn shade(&mut self, x: f32, y: f32, width: f32, height: f32, grey: f32) {
        let grey = (grey.clamp(0.0, 1.0) * 255.0).round() as u8;
        let _ = writeln!(
            self.body,
            r#"<rect x="{x}" y="{}" width="{width}" height="{height}" fill="rgb({grey},{grey},{grey})"/>"#,
            self.top + y
        );
    }

    fn text(&mut self, at: (f32, f32), size: f32, text: &str, anchor: Anchor) {
        let anchor = match anchor {
            Anchor::Start => "start",
            Anchor::Middle => "middle",
            Anchor::End => "end",
        };
        let _ = writeln!(
            self.body,
            r#"<text x="{}" y="{}" font-size="{size}" text-anchor="{anchor}">{}</text>"#,
            at.0,
            self.top + at.1,
            escape(text)
        );
    }

    fn finish(self: Box<Self>) -> Vec<u8> {
        format!(
            concat!(
                r#"<?xml version="1.0" encoding="UTF-8"?>"#,
                "\n",
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" font-family="Helvetica, Arial, sans-serif">"#,
                "\n<title>{title}</title>\n{body}</svg>\n"
            ),
            w = self.width,
            h = self.height,
            title = escape(&self.title),
            body = self.body
        )
        .into_bytes()
    }
}
