//! The `pao` command line (clap): no subcommand starts the daemon; `perft`, `bench`, `serve`.

use clap::{Args, Parser, Subcommand};
use pao::board::perft::{divide, perft};
use pao::board::{Position, START_FEN};
use std::time::Instant;

/// Pao, a xiangqi engine. With no command it is the engine daemon: it speaks UCCI, UCI or
/// CECP (xboard) on stdin/stdout, chosen by the first line (`ucci`, `uci` or `xboard`).
#[derive(Parser, Debug)]
#[command(name = "pao", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the leaves of the legal move tree (or check an EPD file of perft counts)
    Perft(PerftArgs),
    /// Search the bench positions to a fixed depth; the last line's node count is the
    /// search's signature
    Bench(BenchArgs),
    /// Serve an analysis page and its JSON + WebSocket API over HTTP (docs/serve.md)
    Serve(ServeArgs),
}

#[derive(Args, Debug)]
struct ServeArgs {
    /// Address and port to listen on
    #[arg(long, value_name = "ADDR:PORT", default_value = "127.0.0.1:8080")]
    listen: std::net::SocketAddr,
    /// The token every request must carry (16+ URL-safe characters); without it one is
    /// generated, and printed in the page's address
    #[arg(long, value_name = "TOKEN")]
    token: Option<String>,
    /// Serve without a token, to this machine's users only (loopback addresses): a proxy,
    /// tunnel or published port in front opens it to whoever reaches that
    #[arg(long = "no-token", conflicts_with = "token")]
    no_token: bool,
    /// Search threads at the start (default: one per core, at most --max-threads)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Transposition table at the start, MiB
    #[arg(long, value_name = "MB", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=(1 << 24)))]
    hash: u32,
    /// Most threads the page may ask for (default: one per core)
    #[arg(long = "max-threads", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1024))]
    max_threads: Option<u32>,
    /// Largest table the page may ask for, MiB
    #[arg(long = "max-hash", value_name = "MB", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=(1 << 24)))]
    max_hash: u32,
    /// Requests (and watcher messages, pings included) a second per client address; requests
    /// without the token count apart, so that they cannot spend it
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    rate: u32,
    /// Largest request body, bytes
    #[arg(long = "max-body", value_name = "BYTES", default_value_t = 16384, value_parser = clap::value_parser!(u32).range(64..=(1 << 24)))]
    max_body: u32,
    /// Largest WebSocket message a watcher may send, bytes
    #[arg(long = "max-message", value_name = "BYTES", default_value_t = 4096, value_parser = clap::value_parser!(u32).range(64..=(1 << 24)))]
    max_message: u32,
    /// Most watchers (WebSocket connections) at once
    #[arg(long = "max-watchers", value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_watchers: u32,
    /// Most watchers at once from one client address (for IPv6, its /64)
    #[arg(long = "max-watchers-per-address", value_name = "N", default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_watchers_per_address: u32,
    /// Seconds a connection may take to accept an answer or a watcher's message once its
    /// socket's buffer is full; then it is closed (a watcher is dropped)
    #[arg(long = "send-timeout", alias = "watcher-timeout", value_name = "SECS", default_value = "10", value_parser = seconds)]
    send_timeout: std::time::Duration,
    /// Seconds between the pings the server sends to each watcher
    #[arg(long = "ping-interval", value_name = "SECS", default_value = "15", value_parser = seconds)]
    ping_interval: std::time::Duration,
    /// Seconds a watcher may take to answer a ping before it is dropped
    #[arg(long = "ping-timeout", value_name = "SECS", default_value = "10", value_parser = seconds)]
    ping_timeout: std::time::Duration,
    /// Most HTTP connections at once (watchers not counted)
    #[arg(long = "max-connections", value_name = "N", default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_connections: u32,
    /// Most HTTP connections at once from one client address (for IPv6, its /64)
    #[arg(long = "max-connections-per-address", value_name = "N", default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_connections_per_address: u32,
    /// A connection's kernel send buffer, bytes
    #[arg(long = "send-buffer", value_name = "BYTES", default_value_t = 65536, value_parser = clap::value_parser!(u32).range(4096..=(1 << 24)))]
    send_buffer: u32,
    /// Seconds a client may take to send a request's headers (a half-open connection is
    /// closed then)
    #[arg(long = "header-timeout", value_name = "SECS", default_value = "10", value_parser = seconds)]
    header_timeout: std::time::Duration,
    /// Seconds a request may take to arrive and begin to act; later it is answered 408 and
    /// changes nothing
    #[arg(long = "request-timeout", value_name = "SECS", default_value = "10", value_parser = seconds)]
    request_timeout: std::time::Duration,
    /// Events a watcher may fall behind before it is dropped
    #[arg(long, value_name = "N", default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    queue: u32,
    /// Another origin whose pages may use the API (e.g. https://example.org); repeatable
    #[arg(long = "allow-origin", value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Evaluate with this net file (set here only: the web cannot name files)
    #[arg(long, value_name = "FILE")]
    evalfile: Option<String>,
    /// Opening book file for games against the engine
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// Directory of endgame tables
    #[arg(long = "egtb-path", value_name = "DIR")]
    egtb_path: Option<String>,
}

#[derive(Args, Debug)]
struct PerftArgs {
    /// Depth in plies
    #[arg(value_name = "DEPTH", required_unless_present = "epd")]
    depth: Option<u32>,
    /// The position (default: the start position)
    #[arg(long, value_name = "FEN", default_value = START_FEN, hide_default_value = true)]
    fen: String,
    /// One line per root move with its count
    #[arg(long)]
    divide: bool,
    /// Check the lines `<fen> ;D1 <n> ;D2 <n> ...` of FILE instead
    #[arg(long, value_name = "FILE", conflicts_with_all = ["depth", "divide"])]
    epd: Option<String>,
    /// With --epd: skip depths beyond D
    #[arg(long = "max-depth", value_name = "D", requires = "epd", default_value_t = u32::MAX, hide_default_value = true)]
    max_depth: u32,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Search depth (default 9; with --ablation 5)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Search threads
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: Option<u32>,
    /// Transposition table in MiB
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u32).range(1..=(1 << 20)))]
    hash: Option<u32>,
    /// Positions file (one FEN a line, '#' comments) instead of the built-in list
    #[arg(long, value_name = "FILE")]
    fens: Option<String>,
    /// Helpers run the Lazy SMP depth stagger (the engine's SMPStagger; off by default)
    #[arg(long)]
    stagger: bool,
    /// Do not pin threads to cores
    #[arg(long = "no-pin")]
    no_pin: bool,
    /// Do not ask for large pages for the table
    #[arg(long = "no-large-pages")]
    no_large_pages: bool,
    /// Search with the enhancements added one at a time (plain alpha-beta to the full search)
    #[arg(long)]
    ablation: bool,
    /// Only the first N positions
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000))]
    positions: Option<u32>,
    /// Evaluate with this net file (default: the default evaluation)
    #[arg(long, value_name = "FILE", conflicts_with = "hce")]
    evalfile: Option<String>,
    /// Evaluate with the hand-written evaluation
    #[arg(long)]
    hce: bool,
    /// Search switches flipped, as the SearchSwitches option takes them (e.g. "see,-iir")
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    switches: Option<String>,
}

/// Runs the command line; returns the process exit status.
pub fn run() -> i32 {
    let cli = Cli::parse();
    // The one-shot commands end silently when their reader goes away; the daemon and the
    // server keep Rust's default and handle a failed write by their own rules.
    if matches!(cli.command, Some(Command::Perft(_) | Command::Bench(_))) {
        pao::sigpipe::quiet_on_closed_pipe();
    }
    let result = match cli.command {
        None => return pao::coordinator::run_stdio(),
        Some(Command::Perft(a)) => perft_command(a),
        Some(Command::Bench(a)) => bench_command(a),
        Some(Command::Serve(a)) => return serve_command(a),
    };
    match result {
        Ok(()) => 0,
        Err(CliError::Failed) => 1,
        Err(CliError::Usage(msg)) => {
            eprintln!("error: {msg}");
            2
        }
    }
}

/// A command-line failure: bad input named on the command line (status 2) or a failed check
/// (status 1, already reported).
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or bad input data.
    Usage(String),
    /// The command ran and found a failure (already reported).
    Failed,
}

fn serve_command(args: ServeArgs) -> i32 {
    let cores = num_cpus::get().clamp(1, 1024);
    let max_threads = args.max_threads.map_or(cores, |t| t as usize);
    let threads = args.threads.map_or(cores.min(max_threads), |t| t as usize);
    if threads > max_threads || args.hash > args.max_hash {
        eprintln!("error: --threads and --hash must not exceed --max-threads and --max-hash");
        return 2;
    }
    if let Some(Err(e)) = args.token.as_deref().map(pao::serve::check_token) {
        eprintln!("error: {e}");
        return 2;
    }
    if let Some(why) = args
        .no_token
        .then(|| pao::serve::no_token_refusal(&args.listen))
        .flatten()
    {
        eprintln!("error: {why}");
        return 2;
    }
    let mut engine_options = Vec::new();
    for (name, value) in [
        ("EvalFile", &args.evalfile),
        ("BookFile", &args.book),
        ("EGTBPath", &args.egtb_path),
    ] {
        if let Some(v) = value {
            engine_options.push((name.to_string(), v.clone()));
        }
    }
    pao::serve::run(pao::serve::ServeConfig {
        listen: args.listen,
        token: args.token,
        no_token: args.no_token,
        threads,
        hash: args.hash as usize,
        max_threads,
        max_hash: args.max_hash as usize,
        rate: args.rate,
        limits: pao::serve::Limits {
            max_body: args.max_body as usize,
            max_message: args.max_message as usize,
            max_watchers: args.max_watchers as usize,
            max_watchers_per_client: args.max_watchers_per_address as usize,
            send_timeout: args.send_timeout,
            ping_interval: args.ping_interval,
            ping_timeout: args.ping_timeout,
            request_timeout: args.request_timeout,
        },
        max_connections: args.max_connections as usize,
        max_connections_per_client: args.max_connections_per_address as usize,
        send_buffer: args.send_buffer as usize,
        header_timeout: args.header_timeout,
        queue: args.queue as usize,
        allow_origins: args.allow_origin,
        engine_options,
    })
}

/// A duration in seconds, fractions allowed: from a millisecond to an hour.
fn seconds(text: &str) -> Result<std::time::Duration, String> {
    let secs: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !(0.001..=3600.0).contains(&secs) {
        return Err(format!("{text} seconds is outside 0.001..3600"));
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

fn perft_command(args: PerftArgs) -> Result<(), CliError> {
    let (fen, show_divide, max_depth) = (args.fen, args.divide, args.max_depth);
    if let Some(path) = args.epd {
        return perft_epd(&path, max_depth);
    }
    let depth = args
        .depth
        .ok_or_else(|| CliError::Usage("perft needs a depth".to_string()))?;
    let mut pos =
        Position::from_fen(&fen).map_err(|e| CliError::Usage(format!("--fen '{fen}': {e}")))?;
    let start = Instant::now();
    let nodes = if show_divide {
        let rows = divide(&mut pos, depth.max(1));
        for (m, n) in &rows {
            println!("{m} {n}");
        }
        if depth == 0 {
            1
        } else {
            rows.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&mut pos, depth)
    };
    let ms = start.elapsed().as_millis();
    let nps = (nodes as u128 * 1000) / ms.max(1);
    println!("nodes {nodes} time_ms {ms} nps {nps}");
    Ok(())
}

/// One EPD line: `<fen> ;D1 <n> ;D2 <n> ...`.
fn parse_epd_line(line: &str) -> Result<(String, Vec<(u32, u64)>), String> {
    let mut parts = line.split(';');
    let fen = parts.next().unwrap_or("").trim().to_string();
    let mut checks = Vec::new();
    for p in parts {
        let p = p.trim();
        if p.is_empty() {
            continue;
        }
        let mut words = p.split_whitespace();
        let tag = words.next().unwrap_or("");
        let d = tag
            .strip_prefix('D')
            .and_then(|d| d.parse::<u32>().ok())
            .ok_or_else(|| format!("bad depth tag '{tag}'"))?;
        let n = words
            .next()
            .and_then(|n| n.parse::<u64>().ok())
            .ok_or_else(|| format!("bad count after '{tag}'"))?;
        checks.push((d, n));
    }
    Ok((fen, checks))
}

fn perft_epd(path: &str, max_depth: u32) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Usage(format!("cannot read '{path}': {e}")))?;
    let (mut passed, mut failed) = (0u32, 0u32);
    for (lineno, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (fen, checks) = parse_epd_line(line)
            .map_err(|e| CliError::Usage(format!("{path}:{}: {e}", lineno + 1)))?;
        let mut pos = Position::from_fen(&fen)
            .map_err(|e| CliError::Usage(format!("{path}:{}: bad FEN: {e}", lineno + 1)))?;
        let mut ok = true;
        for (d, expected) in checks {
            if d > max_depth {
                continue;
            }
            let got = perft(&mut pos, d);
            if got != expected {
                println!("FAIL {fen} depth {d}: expected {expected}, got {got}");
                ok = false;
            }
        }
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    println!("perft-epd: {passed} passed, {failed} failed");
    if failed > 0 {
        Err(CliError::Failed)
    } else {
        Ok(())
    }
}

fn bench_command(args: BenchArgs) -> Result<(), CliError> {
    use pao::bench;
    let mut options = bench::BenchOptions::default();
    if let Some(d) = args.depth {
        options.depth = d;
    }
    if let Some(t) = args.threads {
        options.threads = t as usize;
    }
    if let Some(h) = args.hash {
        options.hash_mib = h as usize;
    }
    options.stagger = args.stagger;
    options.pin = !args.no_pin;
    options.large_pages = !args.no_large_pages;
    if let Some(path) = &args.evalfile {
        let net = pao::eval::nnue::Network::load(path).map_err(|e| CliError::Usage(e.0))?;
        options.network = Some(std::sync::Arc::new(net));
    }
    if args.hce {
        options.network = None;
    }
    if let Some(list) = &args.switches {
        options.config = options
            .config
            .with_switches(list)
            .map_err(CliError::Usage)?;
    }
    let fens_text = match &args.fens {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| CliError::Usage(format!("cannot read '{path}': {e}")))?,
        None => bench::BENCH_FENS.to_string(),
    };
    let (ablation, positions, depth_given) = (
        args.ablation,
        args.positions.map(|n| n as usize),
        args.depth.is_some(),
    );
    let mut fens = bench::parse_fens(&fens_text);
    if let Some(n) = positions {
        fens.truncate(n);
    }
    if fens.is_empty() {
        return Err(CliError::Usage("no positions to bench".to_string()));
    }
    if ablation {
        let depth = if depth_given {
            options.depth
        } else {
            bench::ABLATION_DEPTH
        };
        println!(
            "ablation: {} positions, depth {depth}, 1 thread",
            fens.len()
        );
        println!(
            "{:<38} {:>14} {:>10} {:>12}",
            "search", "nodes", "time_ms", "vs alpha-beta"
        );
        let mut base: Option<u64> = None;
        bench::run_ablation(&fens, depth, options.hash_mib, &mut |r| {
            let b = *base.get_or_insert(r.nodes);
            println!(
                "{:<38} {:>14} {:>10} {:>11.1}x {}",
                r.name,
                r.nodes,
                r.time_ms,
                b as f64 / r.nodes.max(1) as f64,
                r.note
            );
        })
        .map_err(CliError::Usage)?;
        return Ok(());
    }
    let mut index = 0;
    let (nodes, ms) = bench::run(&fens, &options, &mut |l| {
        index += 1;
        println!("{}", bench::format_line(index, l));
    })
    .map_err(CliError::Usage)?;
    println!("{}", bench::format_total(nodes, ms));
    Ok(())
}
