//! The command line of `pao-tools train`, parsed in one function so that it moves easily to
//! clap later.

/// How the learning rate falls over the run.
#[derive(Copy, Clone, PartialEq, Debug)]
pub enum Schedule {
    /// The same rate throughout.
    Constant,
    /// Cosine decay from `--lr` to `--lr` / 100 over all batches of all epochs.
    Cosine,
    /// Multiply by `gamma` after every `every` epochs.
    Step { every: usize, gamma: f32 },
}

/// Which parts of the net's shape the command line gave.
#[derive(Copy, Clone, PartialEq, Debug, Default)]
pub struct ShapeGiven {
    /// `--hidden`.
    pub hidden: bool,
    /// `--activation`.
    pub activation: bool,
    /// `--features`.
    pub features: bool,
}

/// Everything `pao-tools train` was asked to do.
#[derive(Clone, PartialEq, Debug)]
pub struct Options {
    /// Data files (`pao-tools datagen` output).
    pub data: Vec<String>,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per mini-batch.
    pub batch: usize,
    /// Peak learning rate of AdamW.
    pub lr: f32,
    /// Decoupled weight decay of AdamW (weights only, not biases).
    pub weight_decay: f32,
    /// Learning-rate schedule.
    pub schedule: Schedule,
    /// Batches over which the rate climbs linearly to its schedule's value (0: none).
    pub warmup: u64,
    /// λ: the weight of the game result in the target (1 - λ goes to the search score).
    pub wdl: f32,
    /// Hidden neurons per perspective.
    pub hidden: usize,
    /// Squared clipped ReLU (default) or clipped ReLU.
    pub activation: pao::eval::nnue::Activation,
    /// The input features (and whether king buckets share factorised rows in training).
    pub inputs: super::data::Inputs,
    /// Worker threads.
    pub threads: usize,
    /// Seed of initialisation, shuffling and mirroring.
    pub seed: u64,
    /// The quantised net file to write.
    pub out: String,
    /// Share of each file (its last games) held out for validation.
    pub val_fraction: f64,
    /// Files validated on instead (whole), so that nets trained on different data are
    /// compared on one set; the training files are then used whole.
    pub val_data: Vec<String>,
    /// Where a checkpoint is written after each epoch.
    pub checkpoint_dir: String,
    /// A checkpoint to continue from.
    pub resume: Option<String>,
    /// A net file to start from (`embedded` for the engine's own) instead of random weights.
    pub init: Option<String>,
    /// A checkpoint of the `--init` net's training (its float weights and AdamW's moments) to
    /// start from instead of the net's quantised weights, when it is that net's.
    pub init_state: Option<String>,
    /// Which of `--hidden`, `--activation`, `--features` were given (with `--init`, the others
    /// come from the net).
    pub shape_given: ShapeGiven,
    /// Whether king buckets train with the shared plain rows (not `--no-factoriser`).
    pub factorise: bool,
    /// The sigmoid's scale in centipawns; fitted on the data when absent.
    pub k: Option<f32>,
    /// Train on left-right mirrored positions half of the time.
    pub mirror: bool,
    /// Train the linear piece-square (PSQT) path; off, it stays zero (for comparison).
    pub psqt: bool,
    /// Only fit K on the data, print it and stop.
    pub fit_k_only: bool,
}

/// Help text.
pub fn usage() -> String {
    "usage: pao-tools train --data FILE... [options]\n\
     Trains Pao's network on `pao-tools datagen` data (CPU, all cores) and writes a quantised\n\
     net file with its provenance.\n\
     options:\n\
     \x20 --data FILE...        data files (required)\n\
     \x20 --out FILE            net file to write (default net.bin)\n\
     \x20 --epochs N            passes over the data (default 8)\n\
     \x20 --batch N             positions per mini-batch (default 1024)\n\
     \x20 --lr X                AdamW learning rate (default 0.001)\n\
     \x20 --weight-decay X      AdamW decoupled weight decay (default 0.3)\n\
     \x20 --schedule S          cosine (default), constant, or step:E:G (x G every E epochs)\n\
     \x20 --warmup N            batches over which the rate climbs linearly from 0 (default 0)\n\
     \x20 --wdl L               weight of the game result in the target, 0-1 (default 0.3)\n\
     \x20 --hidden H            hidden neurons per perspective, a multiple of 16 (default 64)\n\
     \x20 --activation A        screlu (default) or crelu\n\
     \x20 --features F          plain (default) or king-buckets (the own general's square)\n\
     \x20 --no-factoriser       king buckets without the shared plain rows in training\n\
     \x20 --k K                 sigmoid scale in centipawns (default: fitted on the data)\n\
     \x20 --threads N           worker threads (default: all cores)\n\
     \x20 --seed N              seed for initialisation, shuffling, mirroring (default 1)\n\
     \x20 --val-fraction F      last share of each file held out for validation (default 0.05)\n\
     \x20 --val-data FILE...    validate on these files instead (nets trained on different data\n\
     \x20                       compared on one set; --epochs 0 --init NET only measures NET)\n\
     \x20 --checkpoint-dir DIR  checkpoint after each epoch (default OUT.checkpoints)\n\
     \x20 --init NET            start from a net file's weights (`embedded`: the engine's own);\n\
     \x20                       a larger --hidden widens it (new neurons start silent); the shape\n\
     \x20                       --hidden, --activation, --features do not give is the net's\n\
     \x20 --init-state FILE     with --init: start from this checkpoint of the net's training\n\
     \x20                       (float weights, AdamW's moments) when it is that net's, else\n\
     \x20                       from the net's quantised weights (a line says which)\n\
     \x20 --resume FILE         continue from a checkpoint (same data, seed, batch, hidden)\n\
     \x20 --no-mirror           no left-right mirroring augmentation\n\
     \x20 --no-psqt             keep the linear piece-square path at zero (the version 1 net)\n\
     \x20 --fit-k               only fit K on the data (after the validation cut), print it\n"
        .to_string()
}

fn number<T: std::str::FromStr>(flag: &str, value: &str) -> Result<T, String> {
    value
        .parse()
        .map_err(|_| format!("bad value '{value}' for {flag}"))
}

fn schedule(value: &str) -> Result<Schedule, String> {
    let bad = || format!("bad schedule '{value}' (cosine, constant or step:EPOCHS:FACTOR)");
    match value {
        "cosine" => Ok(Schedule::Cosine),
        "constant" => Ok(Schedule::Constant),
        _ => {
            let mut parts = value.split(':');
            if parts.next() != Some("step") {
                return Err(bad());
            }
            let every = parts.next().and_then(|e| e.parse().ok()).filter(|&e| e > 0);
            let gamma = parts.next().and_then(|g| g.parse::<f32>().ok());
            match (every, gamma, parts.next()) {
                (Some(every), Some(gamma), None) if gamma > 0.0 && gamma <= 1.0 => {
                    Ok(Schedule::Step { every, gamma })
                }
                _ => Err(bad()),
            }
        }
    }
}

/// Parses the arguments after `train`.
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        data: Vec::new(),
        epochs: 8,
        batch: 1024,
        lr: 0.001,
        weight_decay: 0.3,
        schedule: Schedule::Cosine,
        warmup: 0,
        wdl: 0.3,
        hidden: 64,
        activation: pao::eval::nnue::Activation::SquaredClippedRelu,
        inputs: super::data::Inputs::PLAIN,
        threads: num_cpus::get().max(1),
        seed: 1,
        out: "net.bin".into(),
        val_fraction: 0.05,
        val_data: Vec::new(),
        checkpoint_dir: String::new(),
        resume: None,
        init: None,
        init_state: None,
        shape_given: ShapeGiven::default(),
        factorise: true,
        k: None,
        mirror: true,
        psqt: true,
        fit_k_only: false,
    };
    let (mut set, mut factorise) = (pao::eval::nnue::FeatureSet::Plain, true);
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        if matches!(
            flag,
            "--no-mirror" | "--no-psqt" | "--fit-k" | "--no-factoriser"
        ) {
            o.mirror &= flag != "--no-mirror";
            o.psqt &= flag != "--no-psqt";
            o.fit_k_only |= flag == "--fit-k";
            factorise &= flag != "--no-factoriser";
            continue;
        }
        if flag == "--data" || flag == "--val-data" {
            let files = if flag == "--data" {
                &mut o.data
            } else {
                &mut o.val_data
            };
            while i < args.len() && !args[i].starts_with("--") {
                files.push(args[i].clone());
                i += 1;
            }
            if files.is_empty() {
                return Err(format!("{flag} needs at least one file"));
            }
            continue;
        }
        // Taken only by a known flag, so that an unknown one is named as such.
        let mut value = || {
            let v = args.get(i).map(String::as_str);
            i += 1;
            v.ok_or_else(|| format!("{flag} needs a value"))
        };
        o.shape_given.hidden |= flag == "--hidden";
        o.shape_given.activation |= flag == "--activation";
        o.shape_given.features |= flag == "--features";
        match flag {
            "--epochs" => o.epochs = number(flag, value()?)?,
            "--batch" => o.batch = number(flag, value()?)?,
            "--lr" => o.lr = number(flag, value()?)?,
            "--weight-decay" => o.weight_decay = number(flag, value()?)?,
            "--schedule" => o.schedule = schedule(value()?)?,
            "--warmup" => o.warmup = number(flag, value()?)?,
            "--wdl" => o.wdl = number(flag, value()?)?,
            "--hidden" => o.hidden = number(flag, value()?)?,
            "--activation" => {
                o.activation = match value()? {
                    "screlu" => pao::eval::nnue::Activation::SquaredClippedRelu,
                    "crelu" => pao::eval::nnue::Activation::ClippedRelu,
                    v => return Err(format!("bad activation '{v}' (screlu or crelu)")),
                }
            }
            "--features" => {
                let v = value()?;
                set = pao::eval::nnue::FeatureSet::from_name(v)
                    .ok_or_else(|| format!("bad feature set '{v}' (plain or king-buckets)"))?;
            }
            "--k" => o.k = Some(number(flag, value()?)?),
            "--threads" => o.threads = number(flag, value()?)?,
            "--seed" => o.seed = number(flag, value()?)?,
            "--out" => o.out = value()?.to_string(),
            "--val-fraction" => o.val_fraction = number(flag, value()?)?,
            "--checkpoint-dir" => o.checkpoint_dir = value()?.to_string(),
            "--resume" => o.resume = Some(value()?.to_string()),
            "--init" => o.init = Some(value()?.to_string()),
            "--init-state" => o.init_state = Some(value()?.to_string()),
            _ => return Err(format!("unexpected argument '{flag}'")),
        }
    }
    o.inputs = super::data::Inputs::of(set, factorise);
    o.factorise = factorise;
    check(&mut o)?;
    Ok(o)
}

fn check(o: &mut Options) -> Result<(), String> {
    use pao::eval::nnue::file::{HIDDEN_STEP, MAX_HIDDEN};
    if o.data.is_empty() {
        return Err("no data: give --data FILE...".into());
    }
    if o.batch == 0 || o.threads == 0 {
        return Err("--batch and --threads must be at least 1".into());
    }
    // Zero epochs from a net exports it again (a check of the warm start); from random
    // weights it would write noise.
    if o.epochs == 0 && o.init.is_none() {
        return Err("--epochs must be at least 1 (0 only with --init)".into());
    }
    if o.init_state.is_some() && o.init.is_none() {
        return Err("--init-state needs --init NET (the net the checkpoint belongs to)".into());
    }
    if o.hidden == 0 || o.hidden > MAX_HIDDEN || !o.hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "--hidden {} is not a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN}",
            o.hidden
        ));
    }
    if !(o.lr > 0.0 && o.lr.is_finite() && (0.0..1.0).contains(&o.weight_decay)) {
        return Err("--lr must be positive and --weight-decay in [0, 1)".into());
    }
    if !(0.0..=1.0).contains(&o.wdl) {
        return Err(format!("--wdl {} is not between 0 and 1", o.wdl));
    }
    if !(0.0..0.5).contains(&o.val_fraction) {
        return Err(format!(
            "--val-fraction {} is not in [0, 0.5)",
            o.val_fraction
        ));
    }
    if let Some(k) = o.k {
        if !(k > 0.0 && k.is_finite()) {
            return Err(format!("--k {k} must be positive"));
        }
    }
    if o.checkpoint_dir.is_empty() {
        o.checkpoint_dir = format!("{}.checkpoints", o.out);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_and_errors() {
        let o = parse(&args(
            "--data a.bin b.bin --epochs 3 --hidden 32 --schedule step:2:0.3 --no-mirror --no-psqt",
        ))
        .expect("valid");
        assert_eq!(o.data, vec!["a.bin", "b.bin"]);
        assert_eq!(
            (o.epochs, o.hidden, o.mirror, o.psqt),
            (3, 32, false, false)
        );
        let d = parse(&args("--data a.bin")).expect("valid");
        assert!(d.psqt);
        // The defaults are the settings of generation 0's embedded net (docs/network.md,
        // "What the generations taught").
        assert_eq!(
            (d.epochs, d.batch, d.wdl, d.hidden, d.weight_decay),
            (8, 1024, 0.3, 64, 0.3)
        );
        assert_eq!(
            o.schedule,
            Schedule::Step {
                every: 2,
                gamma: 0.3
            }
        );
        assert_eq!(o.checkpoint_dir, "net.bin.checkpoints");
        let err = |s: &str| parse(&args(s)).err();
        assert_eq!(
            err("--epochs 3").as_deref(),
            Some("no data: give --data FILE...")
        );
        assert_eq!(
            err("--data").as_deref(),
            Some("--data needs at least one file")
        );
        assert_eq!(err("--data a --lr").as_deref(), Some("--lr needs a value"));
        assert_eq!(
            err("--data a --lr fast").as_deref(),
            Some("bad value 'fast' for --lr")
        );
        assert_eq!(
            err("--data a --hidden 100").as_deref(),
            Some("--hidden 100 is not a multiple of 16 up to 2048")
        );
        assert_eq!(
            err("--data a --wdl 2").as_deref(),
            Some("--wdl 2 is not between 0 and 1")
        );
        assert_eq!(
            err("--data a --bogus 1").as_deref(),
            Some("unexpected argument '--bogus'")
        );
        assert_eq!(
            err("--data a --bogus").as_deref(),
            Some("unexpected argument '--bogus'")
        );
        assert!(err("--data a --schedule step:0:0.5").is_some());
    }
}
