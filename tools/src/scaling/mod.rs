//! `pao-tools scaling`: runs `pao bench --threads T --depth D` for T = 1, 2, 4, ... and reports
//! NPS and time-to-depth speed-ups as a table, a CSV file and an SVG chart.

mod measure;
mod plot;
mod report;

use crate::common::engine::default_engine;
use crate::common::Failure;
use measure::{points, run_bench, thread_counts};
use report::{table, write_outputs};

/// `pao-tools scaling`: measures thread scaling with `pao bench --threads T --depth D`.
#[derive(clap::Args, Debug)]
pub struct ScalingArgs {
    /// The pao binary (default: `pao` beside pao-tools, else on PATH)
    #[arg(long, value_name = "PATH")]
    engine: Option<String>,
    /// Bench depth
    #[arg(long, value_name = "D", default_value_t = 10)]
    depth: u32,
    /// Largest thread count (default: the number of logical cores); counts are 1, 2, 4, ... and N
    #[arg(long = "max-threads", value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    max_threads: Option<u16>,
    /// Runs per point; medians are reported
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = clap::value_parser!(u16).range(1..))]
    runs: u16,
    /// CSV output
    #[arg(long, value_name = "FILE", default_value = "scaling.csv")]
    csv: String,
    /// SVG chart
    #[arg(long, value_name = "FILE", default_value = "scaling.svg")]
    svg: String,
}

/// Runs `pao-tools scaling`.
pub fn run(args: ScalingArgs) -> Result<(), Failure> {
    let engine = args.engine.unwrap_or_else(default_engine);
    let cores = num_cpus::get();
    let max_threads = args.max_threads.map_or(cores, usize::from);
    let runs = args.runs;
    let mut measured = Vec::new();
    for t in thread_counts(max_threads) {
        let mut v = Vec::new();
        for r in 0..runs {
            eprintln!("scaling: {t} threads, run {}/{runs}", r + 1);
            v.push(run_bench(&engine, t, args.depth)?);
        }
        measured.push((t, v));
    }
    let pts = points(&measured);
    write_outputs(&pts, cores, args.depth, &args.csv, &args.svg)?;
    print!("{}", table(&pts, cores));
    println!("wrote {} and {}", args.csv, args.svg);
    Ok(())
}
