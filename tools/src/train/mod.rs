//! `pao-tools train`: trains Pao's network on the CPU and writes a quantised net file.
//!
//! data.rs loads and batches positions, kfit.rs fits the sigmoid scale, network.rs is the float
//! net with its forward and backward passes, optimiser.rs is AdamW and the schedule,
//! trainer.rs the epoch loop with validation and checkpoints, init.rs the warm start from a
//! net file, export.rs the quantisation,
//! provenance.rs the net's provenance line, args.rs the command line, synth.rs synthetic data
//! for tests and timing, simd.rs the portable and AVX2 builds of the hot loops.

pub mod args;
pub mod checkpoint;
pub mod data;
pub mod export;
pub mod init;
pub mod kfit;
pub mod network;
pub mod optimiser;
pub mod provenance;
pub mod simd;
pub mod synth;
pub mod trainer;

use args::Options;
use checkpoint::Checkpoint;
use data::{features, Split, MAX_ACTIVE};
use network::{FloatNet, SCALE};

/// Help text.
pub fn usage() -> String {
    args::usage()
}

/// Mean absolute difference in centipawns between the float net and its quantised export,
/// over up to 4096 positions of `split` (validation first).
fn quantisation_error(net: &FloatNet, quantised: &pao::eval::nnue::Network, split: &Split) -> f64 {
    let records = if split.val.is_empty() {
        &split.train
    } else {
        &split.val
    };
    let step = records.len().div_ceil(4096).max(1);
    let (mut us, mut them) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
    let mut sum = 0.0;
    let mut n = 0;
    for r in records.iter().step_by(step) {
        let count = features(r, false, net.inputs, &mut us, &mut them);
        let float = net.evaluate(&us[..count], &them[..count]) as f64 * SCALE as f64;
        let int = export::quantised_eval(quantised, &us[..count], &them[..count]) as f64;
        sum += (float - int).abs();
        n += 1;
    }
    sum / n.max(1) as f64
}

/// With `--init`, the run takes the net's hidden size, activation and feature set, each unless
/// its flag says otherwise; returns the provenance words naming the net started from.
fn resolve_init(o: &mut Options) -> Result<Option<String>, String> {
    let Some(name) = o.init.clone() else {
        return Ok(None);
    };
    let net = init::load(&name)?;
    if !o.shape_given.hidden {
        o.hidden = net.hidden;
    }
    if !o.shape_given.activation {
        o.activation = net.activation;
    }
    if !o.shape_given.features {
        o.inputs = data::Inputs::of(net.features, o.factorise);
    }
    // Refused here, before the data is read, if the shapes do not fit.
    init::float_net(&net, o.inputs, o.hidden, o.activation, o.seed)?;
    let bytes = net.to_bytes();
    let checksum = u64::from_le_bytes(bytes[40..48].try_into().map_err(|_| "short net")?);
    println!(
        "starting from {name} ({}, body checksum {checksum:016x})",
        init::shape(net.features, net.hidden, net.activation)
    );
    let cwd = std::env::current_dir().ok();
    let shown = provenance::relative_path(&name, cwd.as_deref());
    Ok(Some(format!(
        "init {shown} (body checksum {checksum:016x})"
    )))
}

fn train(o: &Options) -> Result<(), String> {
    let mut o = o.clone();
    let init_words = resolve_init(&mut o)?;
    let o = &o;
    let resume = o.resume.as_deref().map(Checkpoint::load).transpose()?;
    let split = if o.val_data.is_empty() {
        data::load(&o.data, o.val_fraction)?
    } else {
        data::load_with_validation(&o.data, &o.val_data)?
    };
    let total: usize = split.files.iter().map(|f| f.1).sum();
    println!(
        "data: {total} positions in {} file(s): {} training, {} validation",
        split.files.len(),
        split.train.len(),
        split.val.len()
    );
    if o.fit_k_only {
        let k = kfit::fit(&split.train);
        println!(
            "fitted K = {k:.1} centipawns (error {:.5}; at K/2 {:.5}, at 2K {:.5})",
            kfit::error(&split.train, k),
            kfit::error(&split.train, k / 2.0),
            kfit::error(&split.train, 2.0 * k)
        );
        return Ok(());
    }
    let k = match (o.k, &resume) {
        (Some(k), _) => k,
        (None, Some(c)) => {
            let k = c.k;
            println!("K = {k:.1} (from the checkpoint)");
            k
        }
        (None, None) => {
            let k = kfit::fit(&split.train) as f32;
            println!(
                "fitted K = {k:.1} centipawns (error of sigmoid(score/K) against results: {:.5})",
                kfit::error(&split.train, k as f64)
            );
            k
        }
    };
    let trained = trainer::train(o, &split, k, resume, &mut |line| println!("{line}"))?;
    let seconds: f64 = trained.epochs.iter().map(|e| e.seconds).sum();
    println!(
        "trained {} epoch(s) in {seconds:.1} s",
        trained.epochs.len()
    );
    let cwd = std::env::current_dir().ok();
    let shown = |f: &str| provenance::relative_path(f, cwd.as_deref());
    let files: Vec<String> = split
        .files
        .iter()
        .map(|(f, n)| format!("{} {n}", shown(f)))
        .collect();
    let val = trainer::validation_loss(&trained.net, &split, o, k)
        .map_or("-".to_string(), |v| format!("{v:.6}"));
    println!(
        "validation loss at the end: {val} on {} positions (K {k:.1})",
        split.val.len()
    );
    let provenance = format!(
        "pao-tools train; commit {}; command: {}; data: {total} positions ({}); seed {}; epochs {}; K {k:.1}; val loss {val}{}",
        provenance::commit(),
        provenance::this_command(),
        files.join(", "),
        o.seed,
        o.epochs,
        init_words.map_or(String::new(), |w| format!("; {w}"))
    );
    let provenance = if o.val_data.is_empty() {
        provenance
    } else {
        let on: Vec<String> = o.val_data.iter().map(|f| shown(f)).collect();
        format!("{provenance}; validated on {}", on.join(", "))
    };
    let mut net = export::quantise(&trained.net, provenance);
    let shift = export::correct_bias(&mut net, &trained.net, export::bias_sample(&split.train));
    crate::common::atomic::write(std::path::Path::new(&o.out), &net.to_bytes())?;
    println!(
        "wrote {} ({} features, hidden {}, {:?}); output bias corrected by {:+.2} cp; quantised minus float: {:.2} cp mean absolute difference",
        o.out,
        net.features.name(),
        net.hidden,
        net.activation,
        -shift,
        quantisation_error(&trained.net, &net, &split)
    );
    Ok(())
}

/// Runs `pao-tools train`.
pub fn run(args: &[String]) -> Result<(), String> {
    let o = args::parse(args)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(o.threads)
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", o.threads))?;
    pool.install(|| train(&o))
}

#[cfg(test)]
mod factoriser_tests;
#[cfg(test)]
mod tests;
