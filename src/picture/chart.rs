//! Small SVG charts for the run report: lines over a numeric axis (with marked moments),
//! and bars over named categories. Each is one `<svg class="chart">` element with its
//! title, axes, ticks and a legend, in the page's own fonts.

use super::svg_escape as esc;
use std::fmt::Write;

const W: f64 = 640.0;
const H: f64 = 260.0;
const LEFT: f64 = 58.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 34.0;
const BOTTOM: f64 = 44.0;

/// Colours of the series, in order.
const PALETTE: [&str; 6] = [
    "#2563eb", "#dc2626", "#059669", "#d97706", "#7c3aed", "#0891b2",
];

/// One line: `(x, y)` points in x order; a NaN y breaks the line.
pub struct Line {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A moment marked across the plot (an alarm): a dashed vertical line and a label.
pub struct Marker {
    pub x: f64,
    pub label: String,
}

/// A line chart.
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub lines: Vec<Line>,
    pub markers: Vec<Marker>,
}

/// Round tick values covering `lo..=hi`: steps of 1, 2 or 5 times a power of ten.
fn ticks(lo: f64, hi: f64, about: usize) -> Vec<f64> {
    if hi <= lo || !hi.is_finite() || !lo.is_finite() {
        return vec![lo];
    }
    let raw = (hi - lo) / about as f64;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| (hi - lo) / s <= about as f64 + 1.0)
        .unwrap_or(10.0 * power);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The top of a y axis showing values up to `hi`: the first round tick at or above it.
fn nice_top(hi: f64) -> f64 {
    let hi = if hi > 0.0 { hi * 1.05 } else { 1.0 };
    let t = ticks(0.0, hi, 5);
    let step = if t.len() > 1 { t[1] - t[0] } else { hi };
    (hi / step).ceil() * step
}

/// A tick label: integers plainly, others with as few decimals as needed.
fn number(v: f64) -> String {
    if v.abs() >= 1e6 {
        format!("{:.1}M", v / 1e6)
    } else if v.abs() >= 1e4 {
        format!("{:.0}k", v / 1e3)
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn open(out: &mut String, title: &str, kind: &str) {
    let _ = write!(
        out,
        r#"<svg class="chart {kind}" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="{t}"><title>{t}</title><text x="{LEFT}" y="18" class="chart-title">{t}</text>"#,
        t = esc(title)
    );
}

fn legend(out: &mut String, names: &[&str]) {
    if names.len() < 2 {
        return;
    }
    let mut x = W - RIGHT;
    for (i, name) in names.iter().enumerate().rev() {
        x -= 24.0 + 6.5 * name.len() as f64;
        let _ = write!(
            out,
            r#"<rect x="{x}" y="9" width="10" height="10" fill="{}"/><text x="{}" y="18" class="legend">{}</text>"#,
            PALETTE[i % PALETTE.len()],
            x + 13.0,
            esc(name)
        );
    }
}

/// The y axis: grid lines, tick labels and the axis title, for values `0..=top`.
fn y_axis(out: &mut String, top: f64, label: &str) -> impl Fn(f64) -> f64 {
    let plot_h = H - TOP - BOTTOM;
    let y = move |v: f64| TOP + plot_h * (1.0 - v / top);
    for t in ticks(0.0, top, 5) {
        let yy = y(t);
        let _ = write!(
            out,
            r#"<line x1="{LEFT}" x2="{}" y1="{yy}" y2="{yy}" class="grid"/><text x="{}" y="{}" class="tick" text-anchor="end">{}</text>"#,
            W - RIGHT,
            LEFT - 6.0,
            yy + 4.0,
            number(t),
        );
    }
    let _ = write!(
        out,
        r#"<text transform="translate(14 {}) rotate(-90)" class="axis" text-anchor="middle">{}</text>"#,
        TOP + plot_h / 2.0,
        esc(label)
    );
    y
}

impl LineChart {
    /// The chart as an SVG element.
    pub fn svg(&self) -> String {
        let mut out = String::new();
        open(&mut out, &self.title, "lines");
        let xs = self.lines.iter().flat_map(|l| l.points.iter().map(|p| p.0));
        let xs: Vec<f64> = xs.chain(self.markers.iter().map(|m| m.x)).collect();
        let (x_lo, mut x_hi) = xs
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                (a.min(x), b.max(x))
            });
        if !x_lo.is_finite() {
            out.push_str(
                r#"<text x="320" y="140" text-anchor="middle" class="empty">no data</text></svg>"#,
            );
            return out;
        }
        if x_hi <= x_lo {
            x_hi = x_lo + 1.0;
        }
        let y_hi = self
            .lines
            .iter()
            .flat_map(|l| l.points.iter().map(|p| p.1))
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max);
        let top = nice_top(y_hi);
        let y = y_axis(&mut out, top, &self.y_label);
        let plot_w = W - LEFT - RIGHT;
        let x = |v: f64| LEFT + plot_w * (v - x_lo) / (x_hi - x_lo);
        for t in ticks(x_lo, x_hi, 6) {
            let _ = write!(
                out,
                r#"<text x="{}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
                x(t),
                H - BOTTOM + 16.0,
                number(t)
            );
        }
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" class="axis" text-anchor="middle">{}</text><line x1="{LEFT}" x2="{}" y1="{b}" y2="{b}" class="axis-line"/>"#,
            LEFT + plot_w / 2.0,
            H - 8.0,
            esc(&self.x_label),
            W - RIGHT,
            b = H - BOTTOM
        );
        for (i, m) in self.markers.iter().enumerate() {
            let mx = x(m.x);
            // Labels of nearby alarms go on rows of their own.
            let label_y = TOP + 10.0 + 12.0 * (i % 6) as f64;
            let _ = write!(
                out,
                r#"<g class="marker"><line x1="{mx}" x2="{mx}" y1="{TOP}" y2="{}" stroke="{c}" stroke-dasharray="4 3"/><text x="{}" y="{}" class="marker-label" fill="{c}">{}</text></g>"#,
                H - BOTTOM,
                mx + 3.0,
                label_y,
                esc(&m.label),
                c = PALETTE[3]
            );
        }
        for (i, line) in self.lines.iter().enumerate() {
            let mut d = String::new();
            let mut pen_down = false;
            for &(px, py) in &line.points {
                if !py.is_finite() {
                    pen_down = false;
                    continue;
                }
                let _ = write!(
                    d,
                    "{}{:.1},{:.1} ",
                    if pen_down { "L" } else { "M" },
                    x(px),
                    y(py)
                );
                pen_down = true;
            }
            let _ = write!(
                out,
                r#"<path class="series" d="{}" fill="none" stroke="{}" stroke-width="2"><title>{}</title></path>"#,
                d.trim_end(),
                PALETTE[i % PALETTE.len()],
                esc(&line.name)
            );
        }
        let names: Vec<&str> = self.lines.iter().map(|l| l.name.as_str()).collect();
        legend(&mut out, &names);
        out.push_str("</svg>");
        out
    }
}

/// Bars over named categories; with several groups, side by side in each category.
pub struct BarChart {
    pub title: String,
    pub y_label: String,
    /// Category names, left to right (every `label_every`-th is written under the axis).
    pub categories: Vec<String>,
    pub label_every: usize,
    /// `(group name, one value per category)`.
    pub groups: Vec<(String, Vec<f64>)>,
}

impl BarChart {
    /// The chart as an SVG element.
    pub fn svg(&self) -> String {
        let mut out = String::new();
        open(&mut out, &self.title, "bars");
        let y_hi = self
            .groups
            .iter()
            .flat_map(|g| g.1.iter().copied())
            .fold(0.0, f64::max);
        if self.categories.is_empty() || y_hi <= 0.0 {
            out.push_str(
                r#"<text x="320" y="140" text-anchor="middle" class="empty">no data</text></svg>"#,
            );
            return out;
        }
        let top = nice_top(y_hi);
        let y = y_axis(&mut out, top, &self.y_label);
        let plot_w = W - LEFT - RIGHT;
        let slot = plot_w / self.categories.len() as f64;
        let bar = (slot * 0.8 / self.groups.len().max(1) as f64).max(0.5);
        for (c, name) in self.categories.iter().enumerate() {
            let x0 = LEFT + c as f64 * slot + slot * 0.1;
            for (g, (group, values)) in self.groups.iter().enumerate() {
                let v = values.get(c).copied().unwrap_or(0.0);
                if v <= 0.0 {
                    continue;
                }
                let _ = write!(
                    out,
                    r#"<rect class="bar" x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" fill="{}"><title>{}: {} {}</title></rect>"#,
                    x0 + g as f64 * bar,
                    y(v),
                    bar,
                    y(0.0) - y(v),
                    PALETTE[g % PALETTE.len()],
                    esc(name),
                    number(v),
                    esc(group)
                );
            }
            if c % self.label_every.max(1) == 0 {
                let _ = write!(
                    out,
                    r#"<text x="{:.1}" y="{}" class="tick" text-anchor="middle">{}</text>"#,
                    LEFT + (c as f64 + 0.5) * slot,
                    H - BOTTOM + 16.0,
                    esc(name)
                );
            }
        }
        let _ = write!(
            out,
            r#"<line x1="{LEFT}" x2="{}" y1="{b}" y2="{b}" class="axis-line"/>"#,
            W - RIGHT,
            b = H - BOTTOM
        );
        let names: Vec<&str> = self.groups.iter().map(|g| g.0.as_str()).collect();
        legend(&mut out, &names);
        out.push_str("</svg>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0, 5), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        assert_eq!(
            ticks(0.0, 2600.0, 5),
            vec![0.0, 500.0, 1000.0, 1500.0, 2000.0, 2500.0]
        );
        assert_eq!(nice_top(2600.0), 3000.0);
        assert_eq!(nice_top(0.0), 1.0);
        assert_eq!(number(2500.0), "2500");
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(25000.0), "25k");
    }

    #[test]
    fn charts_draw_their_data_and_say_when_there_is_none() {
        let chart = LineChart {
            title: "rate".into(),
            x_label: "s".into(),
            y_label: "puzzles/s".into(),
            lines: vec![Line {
                name: "9x9".into(),
                points: vec![(0.0, 1.0), (1.0, f64::NAN), (2.0, 3.0)],
            }],
            markers: vec![Marker {
                x: 1.0,
                label: "alarm <".into(),
            }],
        };
        let svg = chart.svg();
        assert_eq!(svg.matches("class=\"series\"").count(), 1);
        assert_eq!(
            svg.matches('M').count() - svg.matches("M\"").count(),
            2,
            "a break in the line"
        );
        assert!(svg.contains("alarm &lt;"));
        let empty = BarChart {
            title: "t".into(),
            y_label: "n".into(),
            categories: vec![],
            label_every: 1,
            groups: vec![],
        };
        assert!(empty.svg().contains("no data"));
    }
}
