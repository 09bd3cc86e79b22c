//! The scaling chart: NPS and time-to-depth speed-ups against the ideal line, as SVG.

use super::measure::Point;
use plotters::prelude::*;

/// A plotted series: legend label, colour, and the value it takes from a point.
type Series = (&'static str, RGBColor, fn(&Point) -> f64);

/// Draws the chart to `path`.
pub fn speedup_svg(points: &[Point], title: &str, path: &str) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw '{path}': {e}");
    let max_t = points.iter().map(|p| p.threads).max().unwrap_or(1).max(2) as f64;
    let max_y = points
        .iter()
        .flat_map(|p| [p.nps_speedup, p.ttd_speedup])
        .fold(max_t, f64::max);
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(1f64..max_t, 0f64..max_y * 1.05)
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .x_desc("threads")
        .y_desc("speed-up")
        .draw()
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new(
            [(1.0, 1.0), (max_t, max_t)],
            BLACK.stroke_width(1),
        ))
        .map_err(|e| err(&e))?
        .label("ideal")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLACK));
    let series: [Series; 2] = [
        ("NPS", BLUE, |p| p.nps_speedup),
        ("time to depth", RED, |p| p.ttd_speedup),
    ];
    for (label, color, value) in series {
        let data: Vec<(f64, f64)> = points
            .iter()
            .map(|p| (p.threads as f64, value(p)))
            .collect();
        chart
            .draw_series(LineSeries::new(data.clone(), color.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(label)
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 20, y)], color));
        chart
            .draw_series(
                data.into_iter()
                    .map(|xy| Circle::new(xy, 4, color.filled())),
            )
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE)
        .border_style(BLACK)
        .position(SeriesLabelPosition::UpperLeft)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}
