//! `pao-tools`: matches, training data and nets, endgame tables and measurements for Pao and
//! other xiangqi engines. This file parses the command line and hands it to the command's
//! module, one folder per family; what several commands share lives in `common/`, below all.
//! A command that only prints ends silently when its reader goes away (`Command::only_prints`).

mod common;
mod datagen;
mod egtb;
mod generation;
mod levels;
mod r#match;
mod mates;
mod measure;
mod openings;
mod scaling;
mod train;
mod tune;

use clap::{CommandFactory, Parser, Subcommand};
use common::Failure;

/// Tools for testing Pao and other xiangqi engines.
#[derive(Parser, Debug)]
#[command(name = "pao-tools", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Every subcommand; each one's arguments and entry point live in its own module.
#[derive(Subcommand, Debug)]
enum Command {
    /// Engine-versus-engine tournaments (UCCI/UCI), refereed with Pao's rules
    Match(r#match::MatchArgs),
    /// Thread-scaling report from `pao bench` (CSV, SVG, table)
    Scaling(scaling::ScalingArgs),
    /// Build Pao's opening book from games, or show a book's moves
    Book(openings::book::BookArgs),
    /// Generate balanced openings with Pao's search
    Openings(openings::balanced::GenConfig),
    /// Measure the ratings of Pao's levels (Skill Level) in games, anchored at another engine
    Levels(levels::LevelsArgs),
    /// Self-play training data for the network (and `datagen stats FILE`)
    Datagen(datagen::DatagenArgs),
    /// Endgame tablebases: generate, list, probe, stats, verify, theory, positions; sample,
    /// knowledge, scales, bitbase: the evaluation's endgame knowledge from them
    Egtb(egtb::EgtbArgs),
    /// Rule on a game: ongoing, or who won and why
    Judge(r#match::judge::JudgeArgs),
    /// Stop-to-bestmove times at several thread counts
    Latency(measure::latency::LatencyArgs),
    /// One generation of the network end to end: self-play, training, screen, SPRT
    Generation(generation::GenerationCli),
    /// Train the network on datagen data (CPU), write a net file
    #[command(override_help = train::usage())]
    Train(Raw),
    /// Synthetic training data (tests, timing)
    #[command(name = "synth-data")]
    SynthData(train::synth::SynthArgs),
    /// Fit UCI_ShowWDL's win/draw/loss model to match PGNs
    Wdlfit(r#match::wdlfit::WdlfitArgs),
    /// Positions with proven shortest mates: find, prove, run an engine over them
    Mates(mates::MatesArgs),
    /// Long go-infinite run: memory, counters, depth > 100, a PASS/FAIL line
    Soak(measure::soak::SoakArgs),
    /// Tune the search's parameters by SPSA over game pairs (`tune show STATE` prints them)
    Tune(tune::TuneArgs),
    /// Time Clear Hash + isready on a big used table
    Hashclear(measure::hashclear::HashclearArgs),
    /// A scripted engine for tests
    #[command(name = "fake-engine")]
    FakeEngine(r#match::fake_engine::FakeArgs),
}

/// The arguments of a command that still parses its own (`train`): `--help` and `-h` print
/// its usage, a rejected argument exits with status 2 like clap's own errors.
#[derive(clap::Args, Debug)]
#[command(disable_help_flag = true)]
struct Raw {
    #[arg(num_args = 0.., allow_hyphen_values = true, trailing_var_arg = true)]
    args: Vec<String>,
}

impl Raw {
    /// Prints `usage` for `--help`/`-h`; else checks the arguments with `parse` (a usage error)
    /// and runs the command (a run error).
    fn run<T>(
        &self,
        usage: fn() -> String,
        parse: fn(&[String]) -> Result<T, String>,
        run: fn(&[String]) -> Result<(), String>,
    ) -> Result<(), Failure> {
        if self.args.iter().any(|a| a == "--help" || a == "-h") {
            print!("{}", usage());
            return Ok(());
        }
        parse(&self.args).map_err(Failure::Usage)?;
        Ok(run(&self.args)?)
    }
}

impl Command {
    fn name(&self) -> &'static str {
        match self {
            Command::Match(_) => "match",
            Command::Scaling(_) => "scaling",
            Command::Book(_) => "book",
            Command::Openings(_) => "openings",
            Command::Generation(_) => "generation",
            Command::Train(_) => "train",
            Command::SynthData(_) => "synth-data",
            Command::Levels(_) => "levels",
            Command::Datagen(_) => "datagen",
            Command::Egtb(_) => "egtb",
            Command::Judge(_) => "judge",
            Command::Latency(_) => "latency",
            Command::Wdlfit(_) => "wdlfit",
            Command::Mates(_) => "mates",
            Command::Soak(_) => "soak",
            Command::Tune(_) => "tune",
            Command::Hashclear(_) => "hashclear",
            Command::FakeEngine(_) => "fake-engine",
        }
    }
    /// Whether the command only prints a report or a listing, with no other process or pipe
    /// to talk to: such a command ends silently when its reader goes away (`pao-tools egtb
    /// list | head -1`). The others keep Rust's default, where a write to a closed pipe is an
    /// error: a command that drives engines through pipes must outlive an engine that dies,
    /// and for one that writes files (tables, data, nets) what it prints is only progress or
    /// a summary.
    fn only_prints(&self) -> bool {
        match self {
            Command::Openings(_) | Command::Judge(_) | Command::Wdlfit(_) => true,
            Command::Match(a) => a.only_prints(),
            Command::Book(a) => a.only_prints(),
            Command::Levels(a) => a.only_prints(),
            Command::Datagen(a) => a.only_prints(),
            Command::Egtb(a) => a.only_prints(),
            Command::Generation(a) => a.only_prints(),
            Command::Mates(a) => a.only_prints(),
            Command::Tune(a) => a.only_prints(),
            Command::Scaling(_)
            | Command::Train(_)
            | Command::SynthData(_)
            | Command::Latency(_)
            | Command::Soak(_)
            | Command::Hashclear(_)
            | Command::FakeEngine(_) => false,
        }
    }
}

fn main() {
    let cli = Cli::parse();
    let name = cli.command.name();
    if cli.command.only_prints() {
        pao::sigpipe::quiet_on_closed_pipe();
    }
    let result = match cli.command {
        Command::Match(a) => r#match::run(a),
        Command::Scaling(a) => scaling::run(a),
        Command::Book(a) => openings::book::run(a),
        Command::Openings(a) => openings::balanced::run(a),
        Command::Generation(a) => generation::run(a),
        Command::Train(a) => a.run(train::usage, train::args::parse, train::run),
        Command::SynthData(a) => train::synth::run(a),
        Command::Levels(a) => levels::run(a),
        Command::Datagen(a) => datagen::run(a),
        Command::Egtb(a) => egtb::run(a),
        Command::Judge(a) => r#match::judge::run(a),
        Command::Latency(a) => measure::latency::run(a),
        Command::Wdlfit(a) => r#match::wdlfit::run(a),
        Command::Mates(a) => mates::run(a),
        Command::Soak(a) => measure::soak::run(a),
        Command::Tune(a) => tune::run(a),
        Command::Hashclear(a) => measure::hashclear::run(a),
        Command::FakeEngine(a) => r#match::fake_engine::run(a),
    };
    match result {
        Ok(()) => {}
        Err(Failure::Usage(message)) => {
            let mut cmd = Cli::command();
            let sub = cmd.find_subcommand_mut(name).map(|s| s.clone());
            let mut cmd = sub.unwrap_or(cmd).bin_name(format!("pao-tools {name}"));
            cmd.error(clap::error::ErrorKind::ValueValidation, message)
                .exit()
        }
        Err(Failure::Run(message)) => {
            eprintln!("pao-tools {name}: {message}");
            std::process::exit(1);
        }
        Err(Failure::Interrupted(signal)) => std::process::exit(128 + signal),
    }
}
