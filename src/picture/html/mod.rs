//! Self-contained HTML pages: inline CSS, inline script, the page's data as one JSON
//! object. Nothing is loaded from the network, so a page opens from disk anywhere.

pub mod report;
pub mod solving;

use serde::Serialize;

/// Style every page shares.
const BASE_CSS: &str = include_str!("base.css");

/// A whole page: `<head>` with the title and styles, the body, then the data bound to
/// `const DATA` and the page's script.
fn page(title: &str, css: &str, body: &str, data: &impl Serialize, script: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"sudoku-bank {version}\">\n\
         <title>{title}</title>\n<style>\n{BASE_CSS}{css}</style>\n</head>\n<body>\n{body}\n\
         <script>\nconst DATA = {data};\n{script}</script>\n</body>\n</html>\n",
        version = env!("CARGO_PKG_VERSION"),
        title = super::svg_escape(title),
        data = script_json(data),
    )
}

/// JSON that is safe inside a `<script>` element: `</` and the two line separators
/// that end a JavaScript string are written as escapes.
fn script_json(data: &impl Serialize) -> String {
    serde_json::to_string(data)
        .expect("page data serialises")
        .replace("</", "<\\/")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_cannot_close_the_script() {
        let json = script_json(&"</script><b>");
        assert!(!json.contains("</script"), "{json}");
        let html = page("a<b", "", "", &"x", "");
        assert!(html.contains("<title>a&lt;b</title>"));
    }
}
