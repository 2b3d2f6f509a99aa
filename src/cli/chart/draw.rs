//! Drawing the charts as SVG text with `plotters` (its SVG backend only: text is left to
//! the viewer's fonts, so nothing here reads a font file and the output is the same on
//! every machine, byte for byte, for the same data).
//!
//! Each function takes the shaped data of [`super::series`] and returns the whole SVG
//! document. Axes that span orders of magnitude (milliseconds, state sizes) are
//! logarithmic.

use std::ops::Range;

use plotters::coord::ranged1d::{Ranged, ValueFormatter};
use plotters::coord::{CoordTranslate, Shift};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::ChartError;
use super::series::{Headline, Series, StrengthPoint};

/// The colours, in order of use: distinct in print and for the common colour blindnesses
/// (the Okabe-Ito set).
const COLOURS: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(80, 80, 80),
];

/// The `i`th colour, round again after the last.
fn colour(i: usize) -> RGBColor {
    COLOURS[i % COLOURS.len()]
}

/// A plotting error as the chart's error.
fn drawing<E: std::fmt::Display>(e: E) -> ChartError {
    ChartError::Drawing(e.to_string())
}

/// Draws `paint` on a blank `width` x `height` SVG and returns the document.
fn svg(
    (width, height): (u32, u32),
    paint: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), ChartError>,
) -> Result<String, ChartError> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        paint(&root)?;
        root.present().map_err(drawing)?;
    }
    Ok(text)
}

/// The frame every chart shares: its caption, margins and the room for the axes'
/// labels (`y_room` pixels on the left).
fn frame<'a, 'b>(
    root: &'a DrawingArea<SVGBackend<'b>, Shift>,
    caption: &str,
    y_room: u32,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = ChartBuilder::on(root);
    builder
        .caption(caption, ("sans-serif", 22))
        .margin(16)
        .x_label_area_size(48)
        .y_label_area_size(y_room);
    builder
}

/// Draws the series' legend at `at`, on a pale box.
fn legend<'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, CT>,
    at: SeriesLabelPosition,
) -> Result<(), ChartError> {
    chart
        .configure_series_labels()
        .position(at)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.4))
        .label_font(("sans-serif", 14))
        .draw()
        .map_err(drawing)
}

/// Draws the grid and both axes' words and numbers (no light lines: a logarithmic axis
/// would draw dozens).
fn mesh<'a, X, Y>(
    chart: &mut ChartContext<'a, SVGBackend<'a>, Cartesian2d<X, Y>>,
    x_words: &str,
    y_words: &str,
) -> Result<(), ChartError>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .x_desc(x_words)
        .y_desc(y_words)
        .x_label_formatter(&|v| number_words(*v))
        .y_label_formatter(&|v| number_words(*v))
        .draw()
        .map_err(drawing)
}

/// A logarithmic axis's range around `values`, with room on both sides; it starts at a
/// round value (1, 2 or 5 times a power of ten) because `plotters` labels a logarithmic
/// axis from its first power of ten up.
fn log_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values
        .filter(|v| *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if hi == 0.0 {
        return 1.0..10.0;
    }
    let room = lo / 1.3;
    let power = 10f64.powf(room.log10().floor());
    let start = [5.0, 2.0, 1.0]
        .into_iter()
        .map(|m| m * power)
        .find(|v| *v <= room)
        .unwrap_or(power);
    start..hi * 1.6
}

/// A number for an axis's label: no more digits than its size needs (`1500`, `35`,
/// `2.5`, `0.25`).
fn number_words(v: f64) -> String {
    let text = if v.abs() >= 10.0 {
        format!("{v:.0}")
    } else if v.abs() >= 1.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    };
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// Milliseconds for a label: `35 ms`, `1.7 s`.
fn ms_words(ms: f64) -> String {
    if ms >= 1000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms >= 10.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{ms:.1} ms")
    }
}

/// Elo against milliseconds per move: one point per search variant, its 95% interval as
/// a bar, one colour per opponent.
pub fn strength(points: &[StrengthPoint]) -> Result<String, ChartError> {
    let mut opponents: Vec<&str> = Vec::new();
    for p in points {
        if !opponents.contains(&p.opponent.as_str()) {
            opponents.push(&p.opponent);
        }
    }
    let ends = |p: &StrengthPoint| {
        (
            p.low.unwrap_or(p.elo - 400.0),
            p.high.unwrap_or(p.elo + 400.0),
        )
    };
    let lowest = points.iter().map(|p| ends(p).0).fold(0.0f64, f64::min);
    let highest = points.iter().map(|p| ends(p).1).fold(0.0f64, f64::max);
    let y = (lowest / 50.0).floor() * 50.0 - 25.0..(highest / 50.0).ceil() * 50.0 + 25.0;
    let x = log_range(points.iter().map(|p| p.ms));
    svg((820, 520), |root| {
        let mut chart = frame(root, "Strength against time per move", 64)
            .build_cartesian_2d(x.clone().log_scale(), y.clone())
            .map_err(drawing)?;
        mesh(
            &mut chart,
            "ms per move, one core (geometric mean of the bench positions)",
            "Elo against the opponent (95% interval)",
        )?;
        chart
            .draw_series(LineSeries::new(
                [(x.start, 0.0), (x.end, 0.0)],
                BLACK.mix(0.4),
            ))
            .map_err(drawing)?;
        for (i, opponent) in opponents.iter().enumerate() {
            let c = colour(i);
            let mine: Vec<&StrengthPoint> =
                points.iter().filter(|p| p.opponent == *opponent).collect();
            chart
                .draw_series(mine.iter().map(|p| {
                    let (low, high) = ends(p);
                    ErrorBar::new_vertical(
                        p.ms,
                        low.max(y.start),
                        p.elo,
                        high.min(y.end),
                        c.stroke_width(2),
                        10,
                    )
                }))
                .map_err(drawing)?
                .label(format!("against {opponent}"))
                .legend(move |(px, py)| Circle::new((px + 8, py), 5, c.filled()));
            chart
                .draw_series(
                    mine.iter()
                        .map(|p| Circle::new((p.ms, p.elo), 5, c.filled())),
                )
                .map_err(drawing)?;
            // Names above the bar's top, or below its foot for every other point by
            // time, so that neighbours do not write over each other.
            let mut by_time = mine.clone();
            by_time.sort_by(|a, b| a.ms.total_cmp(&b.ms));
            chart
                .draw_series(by_time.iter().enumerate().map(|(k, p)| {
                    let (low, high) = ends(p);
                    let words = format!("{} ({} games)", p.search, p.games);
                    let style = ("sans-serif", 14).into_font().color(&BLACK);
                    let (at, v) = if k % 2 == 0 {
                        (high.min(y.end), VPos::Bottom)
                    } else {
                        (low.max(y.start), VPos::Top)
                    };
                    Text::new(words, (p.ms, at), style.pos(Pos::new(HPos::Center, v)))
                }))
                .map_err(drawing)?;
        }
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

/// Milliseconds per move against the widest state: one line per search variant and core
/// count, a solid line for one core, dashed for more, one colour per variant.
pub fn state(series: &[Series]) -> Result<String, ChartError> {
    let x = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
    let y = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
    let mut searches: Vec<&str> = Vec::new();
    for s in series {
        if !searches.contains(&s.search.as_str()) {
            searches.push(&s.search);
        }
    }
    svg((820, 540), |root| {
        let mut chart = frame(root, "Time per move against the state's size", 64)
            .build_cartesian_2d(x.log_scale(), y.log_scale())
            .map_err(drawing)?;
        mesh(
            &mut chart,
            "the widest state of the move, KB",
            "ms per move (fast executor, median)",
        )?;
        for s in series {
            let c = colour(searches.iter().position(|n| *n == s.search).unwrap_or(0));
            let style = c.stroke_width(2);
            let drawn = if s.cores == 1 {
                chart.draw_series(LineSeries::new(s.points.iter().copied(), style))
            } else {
                chart.draw_series(DashedLineSeries::new(s.points.iter().copied(), 8, 5, style))
            };
            let cores = s.cores;
            drawn
                .map_err(drawing)?
                .label(s.name.clone())
                .legend(move |(px, py)| {
                    let end = if cores == 1 { 20 } else { 9 };
                    PathElement::new(vec![(px, py), (px + end, py)], c.stroke_width(2))
                });
            chart
                .draw_series(s.points.iter().map(|p| Circle::new(*p, 4, c.filled())))
                .map_err(drawing)?;
        }
        legend(&mut chart, SeriesLabelPosition::UpperLeft)
    })
}

/// The headline: per position, one horizontal bar per engine (milliseconds per move, a
/// logarithmic axis), its value written at its end, the position above its bars.
pub fn headline(data: &Headline) -> Result<String, ChartError> {
    let bars = data.engines.len();
    let groups = data.groups.len();
    let x = log_range(
        data.groups
            .iter()
            .flat_map(|(_, v)| v.iter().flatten().copied()),
    );
    let x = x.start..x.end * 4.0; // room for the values' words
    // Each group takes one unit of height: its label on top, its bars below; one more
    // unit at the foot holds the legend.
    let height = 120 + (groups as u32 + 1) * (26 + 15 * bars as u32);
    svg((900, height), |root| {
        let caption =
            "One move of the play program: the Python original and our rules on four engines";
        let mut chart = frame(root, caption, 8)
            .build_cartesian_2d(x.clone().log_scale(), -1.0..groups as f64)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .disable_y_mesh()
            .y_labels(0)
            .x_desc("ms per move, one core (a logarithmic axis)")
            .x_label_formatter(&|v| number_words(*v))
            .draw()
            .map_err(drawing)?;
        let band = 0.7 / bars as f64;
        for (b, (_, words)) in data.engines.iter().enumerate() {
            let c = colour(b);
            let rects = data
                .groups
                .iter()
                .enumerate()
                .filter_map(|(g, (_, values))| {
                    let v = values[b]?;
                    let top = groups as f64 - g as f64 - 0.25 - band * b as f64;
                    Some(Rectangle::new(
                        [(x.start, top), (v, top - band * 0.85)],
                        c.filled(),
                    ))
                });
            chart
                .draw_series(rects)
                .map_err(drawing)?
                .label(*words)
                .legend(move |(px, py)| {
                    Rectangle::new([(px, py - 5), (px + 16, py + 5)], c.filled())
                });
            let values = data
                .groups
                .iter()
                .enumerate()
                .filter_map(|(g, (_, values))| {
                    let v = values[b]?;
                    let middle = groups as f64 - g as f64 - 0.25 - band * (b as f64 + 0.42);
                    let style = ("sans-serif", 12).into_font().color(&BLACK);
                    Some(Text::new(
                        format!(" {}", ms_words(v)),
                        (v, middle),
                        style.pos(Pos::new(HPos::Left, VPos::Center)),
                    ))
                });
            chart.draw_series(values).map_err(drawing)?;
        }
        let titles = data.groups.iter().enumerate().map(|(g, (label, _))| {
            let style = ("sans-serif", 15).into_font().color(&BLACK);
            let top = groups as f64 - g as f64 - 0.06;
            Text::new(
                label.clone(),
                (x.start, top),
                style.pos(Pos::new(HPos::Left, VPos::Top)),
            )
        });
        chart.draw_series(titles).map_err(drawing)?;
        legend(&mut chart, SeriesLabelPosition::LowerRight)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn milliseconds_read_as_a_person_would_write_them() {
        assert_eq!(ms_words(4.25), "4.2 ms");
        assert_eq!(ms_words(35.4), "35 ms");
        assert_eq!(ms_words(12_250.0), "12.2 s");
        assert_eq!(number_words(1500.0), "1500");
        assert_eq!(number_words(2.0), "2");
        assert_eq!(number_words(2.5), "2.5");
        assert_eq!(number_words(0.25), "0.25");
    }

    #[test]
    fn a_log_range_leaves_room_and_skips_what_a_log_axis_cannot_show() {
        let r = log_range([0.0, 10.0, 160.0].into_iter());
        assert!(
            (r.start - 5.0).abs() < 1e-9 && (r.end - 256.0).abs() < 1e-9,
            "{r:?}"
        );
        let r = log_range([1.67, 30.0].into_iter());
        assert!((r.start - 1.0).abs() < 1e-9, "{r:?}");
        assert_eq!(log_range(std::iter::empty()), 1.0..10.0);
    }
}
