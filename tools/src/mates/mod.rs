//! `pao-tools mates`: a set of positions with proven shortest mates: find them in Pao's own
//! games, prove them (an exhaustive solver and Pao's pruning-free search), and run an engine
//! over them under a clock to count the shortest mates it reports.

use crate::common::Failure;

mod find;
mod prove;
mod run;
pub mod set;
pub mod solver;

/// `pao-tools mates`.
#[derive(clap::Args, Debug)]
pub struct MatesArgs {
    #[command(subcommand)]
    command: MatesCommand,
}

#[derive(clap::Subcommand, Debug)]
enum MatesCommand {
    /// Forced mates from Pao's self-play, proven by the solver, as rows of a mate set
    Find(find::FindArgs),
    /// The row of each FEN given (shortest mate of at most 5 moves and its first moves)
    Solve(find::SolveArgs),
    /// Prove every row: the solver, then Pao's search without forward pruning
    Prove(prove::ProveArgs),
    /// An engine searches every row under one `go`; count the shortest mates it reports
    Run(run::RunArgs),
}

impl MatesArgs {
    /// Whether it only prints a report or a listing (`main.rs` says what that changes).
    pub fn only_prints(&self) -> bool {
        match self.command {
            MatesCommand::Find(_) | MatesCommand::Solve(_) | MatesCommand::Prove(_) => true,
            MatesCommand::Run(_) => false,
        }
    }
}

/// Runs `pao-tools mates`.
pub fn run(args: MatesArgs) -> Result<(), Failure> {
    let result = match &args.command {
        MatesCommand::Find(a) => find::run(a),
        MatesCommand::Solve(a) => find::solve(a),
        MatesCommand::Prove(a) => prove::run(a),
        MatesCommand::Run(a) => run::run(a),
    };
    result.map_err(Failure::Run)
}
