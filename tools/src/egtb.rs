//! `pao-tools egtb`: make endgame tables, list what `--all` covers, probe a position, show a
//! table's figures, and check a table (consistency, and against the search).

use pao::board::{format_move, Position, RankBase};
use pao::egtb::{build, file, index::TableIndex, Material, Outcome, Table, Tablebases};
use std::path::PathBuf;

/// Endgame tablebases.
#[derive(clap::Args, Debug)]
pub struct EgtbArgs {
    #[command(subcommand)]
    command: EgtbCommand,
}

#[derive(clap::Subcommand, Debug)]
enum EgtbCommand {
    /// Generate tables (and the smaller tables they need) into a directory
    Generate(GenerateArgs),
    /// List the signatures `--all` covers, with index sizes and generation memory
    List(ListArgs),
    /// A position's value, distance, best move and line to mate
    Probe(ProbeArgs),
    /// A table file's header: wins, draws, losses per side to move, the longest mate
    Stats(StatsArgs),
    /// Check every position of tables against their moves, and sampled positions against
    /// Pao's search
    Verify(VerifyArgs),
    /// Endgame start positions for matches from self-play data (covered by a table, or one
    /// capture away)
    Positions(PositionsArgs),
    /// The classic endgames as the tables see them (a Markdown table)
    Theory(TheoryArgs),
}

#[derive(clap::Args, Debug)]
struct TheoryArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
}

#[derive(clap::Args, Debug)]
struct PositionsArgs {
    /// Datagen files
    #[arg(required = true)]
    data: Vec<String>,
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// How many positions
    #[arg(long, default_value_t = 300)]
    count: usize,
    /// Output file, one FEN a line (for `match --openings`)
    #[arg(long)]
    out: PathBuf,
}

#[derive(clap::Args, Debug)]
struct GenerateArgs {
    /// Material signatures, e.g. KRKAABB KNPKAA
    materials: Vec<String>,
    /// Every signature with at most one attacking piece a side, or two against none
    #[arg(long)]
    all: bool,
    /// With --all: only tables of at most this many indices (both sides to move)
    #[arg(long, default_value_t = 400_000_000)]
    max_positions: u64,
    /// Output directory (tables already there are kept and read)
    #[arg(long)]
    dir: PathBuf,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(clap::Args, Debug)]
struct ListArgs {
    /// Only tables of at most this many indices
    #[arg(long, default_value_t = u64::MAX)]
    max_positions: u64,
}

#[derive(clap::Args, Debug)]
struct ProbeArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// The position (FEN, may be given as several words)
    #[arg(required = true, num_args = 1..)]
    fen: Vec<String>,
}

#[derive(clap::Args, Debug)]
struct StatsArgs {
    /// A table file
    file: PathBuf,
}

#[derive(clap::Args, Debug)]
struct VerifyArgs {
    /// Directory of table files
    #[arg(long)]
    dir: PathBuf,
    /// Signatures to check (default: every table in the directory)
    materials: Vec<String>,
    /// Also compare this many random positions per table with Pao's search (tables off)
    #[arg(long, default_value_t = 0)]
    search: usize,
    /// Depth of those searches
    #[arg(long, default_value_t = 12)]
    depth: u32,
    /// Seed of the sample
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores)
    #[arg(long)]
    threads: Option<usize>,
}

/// Entry point.
pub fn run(args: EgtbArgs) -> Result<(), crate::common::Failure> {
    match args.command {
        EgtbCommand::Generate(a) => generate(a),
        EgtbCommand::List(a) => list(a),
        EgtbCommand::Probe(a) => probe(a),
        EgtbCommand::Stats(a) => stats(a),
        EgtbCommand::Theory(a) => crate::egtb_theory::run(&a.dir),
        EgtbCommand::Positions(a) => crate::egtb_positions::run(&a.data, &a.dir, a.count, &a.out),
        EgtbCommand::Verify(a) => {
            crate::egtb_verify::run(&a.dir, &a.materials, a.search, a.depth, a.seed, a.threads)
        }
    }
}

fn parse_materials(names: &[String]) -> Result<Vec<Material>, crate::common::Failure> {
    names
        .iter()
        .map(|n| Material::parse(n).map_err(|e| crate::common::Failure::Usage(e.to_string())))
        .collect()
}

/// Bytes per index while a table is generated (codes, counters, pending captures, and the
/// repetition marking's three flag arrays).
pub const GENERATION_BYTES_PER_INDEX: u64 = 8;

fn generate(a: GenerateArgs) -> Result<(), crate::common::Failure> {
    crate::common::threads::set_threads(a.threads);
    let mut targets = parse_materials(&a.materials)?;
    if a.all {
        for m in Material::all_targets() {
            if TableIndex::new(&m).len() <= a.max_positions && !targets.contains(&m) {
                targets.push(m);
            }
        }
    }
    if targets.is_empty() {
        return Err(crate::common::Failure::Usage(
            "name material signatures or give --all".into(),
        ));
    }
    let mut words: Vec<String> = vec!["pao-tools egtb generate".into()];
    words.extend(a.materials.iter().cloned());
    if a.all {
        words.push(format!("--all --max-positions {}", a.max_positions));
    }
    let provenance = format!(
        "{}; pao-tools {}; {}",
        words.join(" "),
        env!("CARGO_PKG_VERSION"),
        today()
    );
    println!(
        "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7} {:>8} {:>12}",
        "table",
        "indices",
        "positions",
        "rule dr.",
        "longest",
        "levels",
        "sec",
        "pos/s/c",
        "file bytes"
    );
    let cores = rayon::current_num_threads() as f64;
    build::build(&targets, &a.dir, &provenance, |b| {
        let total: u64 = b
            .header
            .counts
            .iter()
            .map(|c| c[0] + c[1] + c[2] + c[3])
            .sum();
        let rule: u64 = b.header.counts.iter().map(|c| c[2]).sum();
        match &b.stats {
            Some(s) => println!(
                "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7.1} {:>8.0} {:>12}",
                b.material.name(),
                s.indices,
                total,
                rule,
                b.header.longest,
                s.levels,
                b.seconds,
                total as f64 / b.seconds.max(1e-9) / cores,
                b.file_bytes
            ),
            None => println!(
                "{:<12} {:>13} {:>11} {:>9} {:>9} {:>9} {:>7} {:>8} {:>12}",
                b.material.name(),
                b.header.per_side * 2,
                total,
                rule,
                b.header.longest,
                "-",
                "kept",
                "-",
                b.file_bytes
            ),
        }
    })?;
    Ok(())
}

fn list(a: ListArgs) -> Result<(), crate::common::Failure> {
    println!("{:<12} {:>15} {:>14}", "table", "indices", "memory MiB");
    for m in build::with_dependencies(&Material::all_targets()) {
        let n = TableIndex::new(&m).len();
        if n > a.max_positions {
            continue;
        }
        let mib = n * GENERATION_BYTES_PER_INDEX / (1 << 20);
        println!("{:<12} {:>15} {:>14}", m.name(), n, mib);
    }
    Ok(())
}

fn open(dir: &std::path::Path) -> Result<Tablebases, crate::common::Failure> {
    let (set, errors) = Tablebases::open_dir(dir);
    for e in errors {
        eprintln!("pao-tools egtb: {e}");
    }
    Ok(set)
}

fn probe(a: ProbeArgs) -> Result<(), crate::common::Failure> {
    let fen = a.fen.join(" ");
    let mut pos = Position::from_fen(&fen)
        .map_err(|e| crate::common::Failure::Usage(format!("bad FEN: {e}")))?;
    let set = open(&a.dir)?;
    let Some((material, _)) = Material::of_position(&pos) else {
        return Err("no table holds this much material".to_string().into());
    };
    let Some(outcome) = set.probe(&pos) else {
        return Err(format!("no table covers this position ({})", material.name()).into());
    };
    println!("table: {}", material.name());
    println!("value: {outcome}");
    if let Some(ranked) = set.rank_moves(&mut pos) {
        if let Some(best) = ranked.first() {
            println!("best move: {}", format_move(best.mv, RankBase::Zero));
        }
        let moves: Vec<String> = ranked
            .iter()
            .map(|r| format!("{} {}", format_move(r.mv, RankBase::Zero), short(r.outcome)))
            .collect();
        println!("moves: {}", moves.join(", "));
    }
    let line: Vec<String> = set
        .line(&pos, 400)
        .iter()
        .map(|&m| format_move(m, RankBase::Zero))
        .collect();
    println!("line: {}", line.join(" "));
    for e in set.take_errors() {
        eprintln!("pao-tools egtb: {e}");
    }
    Ok(())
}

/// `W23`, `L12`, `D`, `D*` (a rule draw).
fn short(o: Outcome) -> String {
    match o {
        Outcome::Win(n) => format!("W{n}"),
        Outcome::Loss(n) => format!("L{n}"),
        Outcome::Draw => "D".into(),
        Outcome::RuleDraw => "D*".into(),
    }
}

fn stats(a: StatsArgs) -> Result<(), crate::common::Failure> {
    let table = Table::open(&a.file).map_err(|e| format!("{}: {e}", a.file.display()))?;
    table
        .verify()
        .map_err(|e| format!("{}: {e}", a.file.display()))?;
    let h = table.header();
    println!("table: {}", h.material.name());
    println!(
        "format: version {}, index scheme {}, {} byte(s) per position, {} positions per block",
        file::VERSION,
        pao::egtb::index::INDEX_SCHEME,
        h.width,
        h.block_len
    );
    println!("indices: {} per side to move", h.per_side);
    println!("provenance: {}", h.provenance);
    println!(
        "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}",
        "side to move", "wins", "draws", "rule draws", "losses", "invalid"
    );
    for (side, c) in ["red", "black"].iter().zip(&h.counts) {
        println!(
            "{:<14} {:>12} {:>12} {:>12} {:>12} {:>12}",
            side, c[0], c[1], c[2], c[3], c[4]
        );
    }
    let (longest, fen) = longest_mate(&table)?;
    println!("longest mate: {longest} plies: {fen}");
    Ok(())
}

/// The first position with the longest distance to mate, as a FEN.
fn longest_mate(table: &Table) -> Result<(u32, String), crate::common::Failure> {
    let want = table.header().longest;
    let index = table.index();
    for i in 0..index.len() {
        let code = table.code(i).map_err(|e| e.to_string())?;
        if pao::egtb::value::plies(code) == Some(want as u16) {
            if let Some((pl, side)) = index.decode(i) {
                if let Some(pos) = pao::egtb::index::position_of(&pl, side) {
                    return Ok((want, pos.to_fen()));
                }
            }
        }
    }
    Ok((want, "-".into()))
}

/// Today's date (UTC) as YYYY-MM-DD, for provenance lines.
fn today() -> String {
    crate::common::date::today().replace('.', "-")
}
