//! The run report of `bank report`: one page per run or period with the fill's pace,
//! timeouts and alarms over time, the tier mix against what was wanted, score and clue
//! histograms, time per attempt and the bank's totals. Charts are inline SVG.

use crate::bank::samples::AttemptTimes;
use crate::bank::stats::AlarmRow;
use crate::bank::RunRecord;
use crate::bank::SampleRow;
use crate::date::epoch_seconds;
use crate::grid::Geometry;
use crate::picture::chart::{BarChart, Line, LineChart, Marker};
use crate::picture::svg_escape as esc;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::Duration;

/// A stored puzzle as the report counts it.
pub struct PuzzleFacts {
    /// Size and variant.
    pub geometry: Geometry,
    pub tier: String,
    /// SE-scale score (`None`: unrated).
    pub score: Option<f64>,
    pub clues: usize,
}

/// One size, variant and tier: what the runs were asked for, what they stored, and the
/// stock.
pub struct MixRow {
    /// Size and variant.
    pub geometry: Geometry,
    pub tier: String,
    /// Asked of the selected runs (their plans).
    pub wanted: u64,
    /// Stored by the selected runs.
    pub stored: u64,
    /// Unserved in the bank now.
    pub unserved: u64,
    /// The config's quota (`None`: no quota for it).
    pub quota: Option<u64>,
}

/// Everything the report shows, gathered by the caller from the bank.
pub struct RunReport {
    pub title: String,
    pub subtitle: String,
    /// The selected runs, in id order.
    pub runs: Vec<RunRecord>,
    pub samples: Vec<SampleRow>,
    pub alarms: Vec<AlarmRow>,
    pub puzzles: Vec<PuzzleFacts>,
    pub mix: Vec<MixRow>,
    /// The bank as a whole: puzzles stored, still unserved.
    pub bank_puzzles: u64,
    pub bank_unserved: u64,
}

/// An alarm's grid as `9x9` or `diagonal 9x9`.
fn alarm_grid(a: &AlarmRow) -> String {
    Geometry::short_label_of(a.size as usize, a.variant)
}

/// The unit a time axis is drawn in, for a span in seconds.
fn time_unit(span: f64) -> (f64, &'static str) {
    if span > 7200.0 {
        (3600.0, "hours")
    } else if span > 180.0 {
        (60.0, "minutes")
    } else {
        (1.0, "seconds")
    }
}

impl RunReport {
    /// The whole HTML file.
    pub fn render(&self) -> String {
        let mut body = String::new();
        let _ = write!(
            body,
            "<h1>{}</h1><p class=\"muted\">{}</p>",
            esc(&self.title),
            esc(&self.subtitle)
        );
        body.push_str(&self.totals());
        body.push_str("<h2>Pace, timeouts and alarms</h2><div class=\"charts\">");
        let (pace, timeouts) = self.time_charts();
        body.push_str(&pace);
        body.push_str(&timeouts);
        body.push_str("</div>");
        body.push_str(&self.alarm_table());
        body.push_str("<h2>Tier mix against what was wanted</h2>");
        body.push_str(&self.mix_section());
        body.push_str("<h2>Scores and clues per tier</h2><div class=\"charts\">");
        body.push_str(&self.histograms());
        body.push_str("</div><h2>Time per attempt</h2>");
        body.push_str(&self.attempt_times());
        super::page(
            &self.title,
            include_str!("report.css"),
            &body,
            &serde_json::json!({ "charts": body.matches("<svg class=\"chart").count() }),
            include_str!("report.js"),
        )
    }

    fn totals(&self) -> String {
        let mut c = crate::bank::RunCounts::default();
        for r in &self.runs {
            c.add(&r.counts);
        }
        let wall: f64 = self
            .runs
            .iter()
            .filter_map(|r| {
                let end = epoch_seconds(r.finished_at.as_deref()?)?;
                Some(end - epoch_seconds(&r.started_at)?)
            })
            .sum();
        let statuses = self.runs.iter().fold(BTreeMap::new(), |mut m, r| {
            *m.entry(r.status.as_str()).or_insert(0) += 1;
            m
        });
        let statuses: Vec<String> = statuses.iter().map(|(s, n)| format!("{n} {s}")).collect();
        let rate = if wall > 0.0 {
            format!("{:.0}", c.accepted as f64 / wall)
        } else {
            "-".into()
        };
        let rows = [
            (
                "runs",
                format!("{} ({})", self.runs.len(), statuses.join(", ")),
            ),
            ("puzzles stored", c.accepted.to_string()),
            ("attempts", c.attempts.to_string()),
            ("duplicates", c.duplicates.to_string()),
            ("rejected (out of band or target)", c.rejected.to_string()),
            ("timeouts", c.timeouts.to_string()),
            ("retries", c.retries.to_string()),
            ("alarms", c.alarms.to_string()),
            ("time running", format!("{wall:.1} s")),
            ("stored per second", rate),
            ("bank: puzzles", self.bank_puzzles.to_string()),
            ("bank: unserved", self.bank_unserved.to_string()),
        ];
        let mut out = String::from("<table id=\"totals\" class=\"totals\">");
        for (name, value) in rows {
            let _ = write!(out, "<tr><th>{name}</th><td>{}</td></tr>", esc(&value));
        }
        out.push_str("</table>");
        out
    }

    /// Puzzles per second and timeouts per second over time, alarms marked on both.
    fn time_charts(&self) -> (String, String) {
        let starts: BTreeMap<i64, f64> = self
            .runs
            .iter()
            .filter_map(|r| Some((r.id, epoch_seconds(&r.started_at)?)))
            .collect();
        let origin = starts.values().copied().fold(f64::INFINITY, f64::min);
        let end = self
            .samples
            .iter()
            .filter_map(|s| Some(starts.get(&s.run_id)? + s.sample.elapsed_ms as f64 / 1e3))
            .fold(origin, f64::max);
        let (unit, unit_name) = time_unit(end - origin);
        let mut pace = Vec::new();
        let mut timeouts = Vec::new();
        let mut previous: Option<&SampleRow> = None;
        for s in &self.samples {
            let Some(start) = starts.get(&s.run_id) else {
                continue;
            };
            let (t0, acc0, out0) = match previous.filter(|p| p.run_id == s.run_id) {
                Some(p) => (
                    p.sample.elapsed_ms,
                    p.sample.counts.accepted,
                    p.sample.counts.timeouts,
                ),
                None => {
                    // A new run: break the line, then start from its beginning.
                    let x = (start - origin) / unit;
                    pace.extend([(x, f64::NAN), (x, 0.0)]);
                    timeouts.extend([(x, f64::NAN), (x, 0.0)]);
                    (0, 0, 0)
                }
            };
            let dt = (s.sample.elapsed_ms.saturating_sub(t0)) as f64 / 1e3;
            let x = (start + s.sample.elapsed_ms as f64 / 1e3 - origin) / unit;
            if dt > 0.0 {
                let c = &s.sample.counts;
                pace.push((x, c.accepted.saturating_sub(acc0) as f64 / dt));
                timeouts.push((x, c.timeouts.saturating_sub(out0) as f64 / dt));
            }
            previous = Some(s);
        }
        let markers = || -> Vec<Marker> {
            self.alarms
                .iter()
                .filter_map(|a| {
                    let x = (epoch_seconds(&a.at)? - origin) / unit;
                    let moved = match a.new_target {
                        Some(t) => format!("{} -> {t} clues", a.old_target),
                        None => format!("stuck at {} clues", a.old_target),
                    };
                    Some(Marker {
                        x,
                        label: format!("{} {}: {moved}", alarm_grid(a), a.tier),
                    })
                })
                .collect()
        };
        let x_label = format!("{unit_name} since the first run started");
        let pace = LineChart {
            title: "Puzzles accepted per second".into(),
            x_label: x_label.clone(),
            y_label: "puzzles / s".into(),
            lines: vec![Line {
                name: "accepted".into(),
                points: pace,
            }],
            markers: markers(),
        };
        let timeouts = LineChart {
            title: "Timeouts per second, alarms marked".into(),
            x_label,
            y_label: "timeouts / s".into(),
            lines: vec![Line {
                name: "timeouts".into(),
                points: timeouts,
            }],
            markers: markers(),
        };
        (pace.svg(), timeouts.svg())
    }

    fn alarm_table(&self) -> String {
        if self.alarms.is_empty() {
            return "<p class=\"muted\" id=\"alarms\">No alarms: no tier had more than its \
                    threshold of timeouts in a window.</p>"
                .into();
        }
        let mut out = String::from(
            "<table id=\"alarms\"><tr><th>at</th><th>run</th><th>grid</th><th>tier</th>\
             <th>timeouts in window</th><th>clue target</th></tr>",
        );
        for a in &self.alarms {
            let moved = match a.new_target {
                Some(t) => format!("{} &rarr; {t}", a.old_target),
                None => format!("{} (top of the range)", a.old_target),
            };
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} of {}</td><td>{moved}</td></tr>",
                esc(&a.at),
                a.run_id,
                alarm_grid(a),
                esc(&a.tier),
                a.timeouts_in_window,
                a.window_size
            );
        }
        out.push_str("</table>");
        out
    }

    fn mix_section(&self) -> String {
        let names: Vec<String> = self
            .mix
            .iter()
            .map(|m| format!("{} {}", m.geometry.short_label(), m.tier))
            .collect();
        let chart = BarChart {
            title: "Puzzles per tier: wanted and stored by these runs".into(),
            y_label: "puzzles".into(),
            categories: names.clone(),
            label_every: 1,
            groups: vec![
                (
                    "wanted".into(),
                    self.mix.iter().map(|m| m.wanted as f64).collect(),
                ),
                (
                    "stored".into(),
                    self.mix.iter().map(|m| m.stored as f64).collect(),
                ),
            ],
        };
        let mut out = format!("<div class=\"charts\">{}</div>", chart.svg());
        out.push_str(
            "<table id=\"mix\"><tr><th>grid and tier</th><th>wanted</th><th>stored</th>\
             <th>share of stored</th><th>unserved in bank</th><th>quota</th></tr>",
        );
        let total: u64 = self.mix.iter().map(|m| m.stored).sum();
        for (m, name) in self.mix.iter().zip(&names) {
            let share = if total > 0 {
                100.0 * m.stored as f64 / total as f64
            } else {
                0.0
            };
            let quota = m.quota.map_or("-".to_string(), |q| q.to_string());
            let _ = write!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{share:.1} %</td><td>{}</td><td>{quota}</td></tr>",
                esc(name),
                m.wanted,
                m.stored,
                m.unserved
            );
        }
        out.push_str("</table>");
        out
    }

    /// Per size and variant: a score histogram (0.5-wide bins) and a clue histogram, a
    /// bar per tier.
    fn histograms(&self) -> String {
        let mut geometries: Vec<Geometry> = Vec::new();
        for p in &self.puzzles {
            if !geometries.contains(&p.geometry) {
                geometries.push(p.geometry);
            }
        }
        geometries.sort_by_key(|g| (g.n(), g.variant()));
        let mut out = String::new();
        for geometry in geometries {
            let name = geometry.short_label();
            let of_grid: Vec<&PuzzleFacts> = self
                .puzzles
                .iter()
                .filter(|p| p.geometry == geometry)
                .collect();
            let mut tiers: Vec<&str> = Vec::new();
            for p in &of_grid {
                if !tiers.contains(&p.tier.as_str()) {
                    tiers.push(&p.tier);
                }
            }
            let histogram = |key: &dyn Fn(&PuzzleFacts) -> Option<usize>, lo: usize, hi: usize| {
                tiers
                    .iter()
                    .map(|t| {
                        let mut counts = vec![0.0; hi - lo + 1];
                        for p in of_grid.iter().filter(|p| p.tier == *t) {
                            if let Some(k) = key(p) {
                                counts[k - lo] += 1.0;
                            }
                        }
                        (t.to_string(), counts)
                    })
                    .collect::<Vec<_>>()
            };
            let bin = |p: &PuzzleFacts| p.score.map(|s| (s * 2.0).floor().max(0.0) as usize);
            let bins: Vec<usize> = of_grid.iter().filter_map(|p| bin(p)).collect();
            if let (Some(&lo), Some(&hi)) = (bins.iter().min(), bins.iter().max()) {
                out.push_str(
                    &BarChart {
                        title: format!("{name}: puzzles by score"),
                        y_label: "puzzles".into(),
                        categories: (lo..=hi)
                            .map(|b| format!("{:.1}", b as f64 / 2.0))
                            .collect(),
                        label_every: 1 + (hi - lo) / 16,
                        groups: histogram(&bin, lo, hi),
                    }
                    .svg(),
                );
            }
            let lo = of_grid.iter().map(|p| p.clues).min().unwrap_or(0);
            let hi = of_grid.iter().map(|p| p.clues).max().unwrap_or(0);
            out.push_str(
                &BarChart {
                    title: format!("{name}: puzzles by clue count"),
                    y_label: "puzzles".into(),
                    categories: (lo..=hi).map(|c| c.to_string()).collect(),
                    label_every: 1 + (hi - lo) / 16,
                    groups: histogram(&|p| Some(p.clues), lo, hi),
                }
                .svg(),
            );
        }
        if out.is_empty() {
            out.push_str("<p class=\"muted\">These runs stored no puzzles.</p>");
        }
        out
    }

    fn attempt_times(&self) -> String {
        let mut all = AttemptTimes::default();
        for s in &self.samples {
            all.add(&s.sample.attempt_times);
        }
        let show = |q: f64| {
            all.quantile(q).map_or("-".to_string(), |d: Duration| {
                let us = d.as_secs_f64() * 1e6;
                if us >= 1e4 {
                    format!("{:.1} ms", us / 1e3)
                } else {
                    format!("{us:.0} µs")
                }
            })
        };
        let mut out = format!(
            "<table id=\"attempt-times\"><tr><th>attempts timed</th><td>{}</td></tr>\
             <tr><th>median</th><td>{}</td></tr><tr><th>p90</th><td>{}</td></tr>\
             <tr><th>p99</th><td>{}</td></tr></table>\
             <p class=\"muted\">Wall time of each attempt on its worker thread, read from \
             histograms with buckets a quarter doubling wide (within ±9 %).</p>",
            all.total(),
            show(0.5),
            show(0.9),
            show(0.99)
        );
        let buckets = all.buckets();
        let label = |us: f64| {
            if us >= 1e3 {
                format!("{:.0}ms", us / 1e3)
            } else {
                format!("{us:.0}µs")
            }
        };
        out.push_str("<div class=\"charts\">");
        out.push_str(
            &BarChart {
                title: "Attempts by duration (log scale)".into(),
                y_label: "attempts".into(),
                categories: buckets.iter().map(|b| label(b.0)).collect(),
                label_every: 4,
                groups: vec![(
                    "attempts".into(),
                    buckets.iter().map(|b| b.2 as f64).collect(),
                )],
            }
            .svg(),
        );
        out.push_str("</div>");
        out
    }
}
