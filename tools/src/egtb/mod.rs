//! `pao-tools egtb`: make endgame tables, list what `--all` covers, probe a position, show a
//! table's figures, and check a table (consistency, and against the search). This file holds
//! the command line; each subcommand has its file, and `tables.rs` what they share.

mod bitbase;
mod generate;
mod knowledge;
mod list;
mod positions;
mod probe;
mod sample;
mod scales;
mod stats;
mod tables;
mod theory;
mod verify;

use crate::common::Failure;

/// Endgame tablebases.
#[derive(clap::Args, Debug)]
pub struct EgtbArgs {
    #[command(subcommand)]
    command: EgtbCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EgtbCommand {
    /// Generate tables (and the smaller tables they need) into a directory
    Generate(generate::GenerateArgs),
    /// List the signatures `--all` covers, with index sizes and generation memory
    List(list::ListArgs),
    /// A position's value, distance, best move and line to mate
    Probe(probe::ProbeArgs),
    /// A table file's header: wins, draws, losses per side to move, the longest mate
    Stats(stats::StatsArgs),
    /// Check every position of tables against their moves, and sampled positions against
    /// Pao's search
    Verify(verify::VerifyArgs),
    /// Endgame start positions for matches from self-play data (covered by a table, or one
    /// capture away)
    Positions(positions::PositionsArgs),
    /// The classic endgames as the tables see them (a Markdown table)
    Theory(theory::TheoryArgs),
    /// A fixed sample of quiet positions of every table with their exact values
    Sample(sample::SampleArgs),
    /// Searches a sample without tables: how often the score agrees with the table
    Knowledge(knowledge::KnowledgeArgs),
    /// The evaluation's endgame scales from the tables (writes src/eval/endgame_scales.rs)
    Scales(scales::ScalesArgs),
    /// The engine's embedded win/draw/loss bitbases from the tables (writes src/eval/bitbase/)
    Bitbase(bitbase::BitbaseArgs),
}

impl EgtbArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        use EgtbCommand as E;
        // The others write tables, a positions file or the engine's sources.
        match self.command {
            E::List(_) | E::Probe(_) | E::Stats(_) | E::Verify(_) | E::Theory(_) => true,
            E::Sample(_) | E::Knowledge(_) => true,
            E::Generate(_) | E::Positions(_) | E::Scales(_) | E::Bitbase(_) => false,
        }
    }
}

/// Entry point.
pub fn run(args: EgtbArgs) -> Result<(), Failure> {
    match args.command {
        EgtbCommand::Generate(a) => generate::run(a),
        EgtbCommand::List(a) => list::run(a),
        EgtbCommand::Probe(a) => probe::run(a),
        EgtbCommand::Stats(a) => stats::run(a),
        EgtbCommand::Theory(a) => theory::run(a),
        EgtbCommand::Positions(a) => positions::run(a),
        EgtbCommand::Verify(a) => verify::run(a),
        EgtbCommand::Sample(a) => sample::run(a),
        EgtbCommand::Knowledge(a) => knowledge::run(a),
        EgtbCommand::Scales(a) => scales::run(a),
        EgtbCommand::Bitbase(a) => bitbase::run(a),
    }
}
