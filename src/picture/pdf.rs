//! [`Canvas`] as PDF, with the `pdf-writer` crate and the base-14 Helvetica (no font to
//! embed). Content streams stay uncompressed: a 100-puzzle book is a few hundred KB.

use super::canvas::{start_x, text_width, Anchor, Canvas, Pen};
use pdf_writer::{Content, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

const FONT: Name<'static> = Name(b"F1");

/// A PDF document being drawn, one content stream a page.
pub struct PdfCanvas {
    title: String,
    pages: Vec<(f32, f32, Content)>,
    /// The pen and font size the current page last set: repeating them is skipped.
    pen: Option<Pen>,
    font_size: Option<f32>,
}

impl PdfCanvas {
    /// An empty document with this title in its metadata.
    pub fn new(title: &str) -> PdfCanvas {
        PdfCanvas {
            title: title.to_string(),
            pages: Vec::new(),
            pen: None,
            font_size: None,
        }
    }

    fn page(&mut self) -> (f32, &mut Content) {
        let (_, height, content) = self
            .pages
            .last_mut()
            .expect("begin_page comes before drawing");
        (*height, content)
    }

    /// The current page with `pen` set.
    fn stroking(&mut self, pen: Pen) -> (f32, &mut Content) {
        let changed = self.pen != Some(pen);
        self.pen = Some(pen);
        let (h, content) = self.page();
        if changed {
            Self::set_pen(content, pen);
        }
        (h, content)
    }

    fn set_pen(content: &mut Content, pen: Pen) {
        content.set_line_width(pen.width);
        content.set_stroke_gray(pen.grey);
        if pen.dash > 0.0 {
            content.set_dash_pattern([pen.dash, pen.dash], 0.0);
        } else {
            content.set_dash_pattern([], 0.0);
        }
    }
}

/// The text as single bytes: printable ASCII, anything else as `?`.
fn ascii(text: &str) -> Vec<u8> {
    text.chars()
        .map(|c| {
            if (' '..='~').contains(&c) {
                c as u8
            } else {
                b'?'
            }
        })
        .collect()
}

impl Canvas for PdfCanvas {
    fn begin_page(&mut self, width: f32, height: f32) {
        self.pages.push((width, height, Content::new()));
        self.pen = None;
        self.font_size = None;
    }

    fn line(&mut self, from: (f32, f32), to: (f32, f32), pen: Pen) {
        let (h, content) = self.stroking(pen);
        content.move_to(from.0, h - from.1);
        content.line_to(to.0, h - to.1);
        content.stroke();
    }

    fn rect(&mut self, x: f32, y: f32, width: f32, height: f32, pen: Pen) {
        let (h, content) = self.stroking(pen);
        content.rect(x, h - y - height, width, height);
        content.stroke();
    }

    fn shade(&mut self, x: f32, y: f32, width: f32, height: f32, grey: f32) {
        let (h, content) = self.page();
        content.set_fill_gray(grey);
        content.rect(x, h - y - height, width, height);
        content.fill_nonzero();
        // Text fills in black.
        content.set_fill_gray(0.0);
    }

    fn text(&mut self, at: (f32, f32), size: f32, text: &str, anchor: Anchor) {
        let new_size = self.font_size != Some(size);
        self.font_size = Some(size);
        let (h, content) = self.page();
        let x = start_x(at.0, text_width(text, size), anchor);
        content.begin_text();
        if new_size {
            content.set_font(FONT, size);
        }
        content.next_line(x, h - at.1);
        content.show(Str(&ascii(text)));
        content.end_text();
    }

    fn finish(self: Box<Self>) -> Vec<u8> {
        let mut pdf = Pdf::new();
        let catalog = Ref::new(1);
        let tree = Ref::new(2);
        let font = Ref::new(3);
        let info = Ref::new(4);
        let first = 5;
        let page_ref = |i: usize| Ref::new(first + 2 * i as i32);
        let content_ref = |i: usize| Ref::new(first + 2 * i as i32 + 1);
        pdf.catalog(catalog).pages(tree);
        pdf.pages(tree)
            .kids((0..self.pages.len()).map(page_ref))
            .count(self.pages.len() as i32);
        pdf.type1_font(font)
            .base_font(Name(b"Helvetica"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.document_info(info)
            .title(TextStr(&self.title))
            .creator(TextStr(concat!("sudoku-bank ", env!("CARGO_PKG_VERSION"))));
        for (i, (width, height, content)) in self.pages.into_iter().enumerate() {
            let mut page = pdf.page(page_ref(i));
            page.media_box(Rect::new(0.0, 0.0, width, height));
            page.parent(tree);
            page.contents(content_ref(i));
            page.resources().fonts().pair(FONT, font);
            page.finish();
            pdf.stream(content_ref(i), &content.finish());
        }
        pdf.finish()
    }
}
