//! The training loop: epochs of shuffled mini-batches, the learning-rate schedule, AdamW with
//! clipping (one pass), validation after each epoch, a checkpoint after each epoch, and `--resume`.

use super::args::Options;
use super::checkpoint::Checkpoint;
use super::data::{epoch_order, mirror_flag, Batch, Split};
use super::network::{batch_loss, train_step, FloatNet, Workspace};
use super::optimiser::{learning_rate, AdamW};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::time::Instant;

/// What one epoch measured.
#[derive(Clone, Debug, PartialEq)]
pub struct EpochStats {
    /// Mean training loss over the epoch's batches (as trained: mirrored, moving weights).
    pub train_loss: f64,
    /// Mean validation loss after the epoch (None without a validation slice).
    pub val_loss: Option<f64>,
    /// Seconds the epoch's training took.
    pub seconds: f64,
}

/// A finished run.
pub struct Trained {
    /// The float net.
    pub net: FloatNet,
    /// Statistics of each epoch run in this invocation.
    pub epochs: Vec<EpochStats>,
}

/// Mean loss of `net` on `records` (no mirroring).
pub fn validation_loss(net: &FloatNet, split: &Split, o: &Options, k: f32) -> Option<f64> {
    if split.val.is_empty() {
        return None;
    }
    let mut ws = Workspace::new(net, o.threads);
    let mut batch = Batch::with_capacity(o.batch.min(split.val.len()));
    let mut sum = 0.0;
    let picks: Vec<u32> = (0..split.val.len() as u32).collect();
    for chunk in picks.chunks(o.batch) {
        batch.fill(&split.val, chunk, |_| false, net.inputs, o.wdl, k);
        sum += batch_loss(net, &batch, &mut ws, k);
    }
    Some(sum / split.val.len() as f64)
}

/// The share of the rate at batch `step` of a warm-up over `batches` (1 after it).
pub fn warmup(step: u64, batches: u64) -> f32 {
    if step >= batches {
        1.0
    } else {
        (step + 1) as f32 / batches as f32
    }
}

/// The state to start from: a fresh net (or the `--init` net), or the checkpoint of `--resume` after checking that
/// it belongs to this run.
fn start(
    o: &Options,
    split: &Split,
    k: f32,
    resume: Option<Checkpoint>,
) -> Result<Checkpoint, String> {
    let path = o.resume.as_deref().unwrap_or("checkpoint");
    let Some(c) = resume else {
        let (net, adam) = match &o.init {
            Some(name) => {
                let file = super::init::load(name)?;
                match o.init_state.as_deref().map(|p| continued(p, &file, o)) {
                    Some(Ok(state)) => state,
                    refused => {
                        if let Some(Err(e)) = refused {
                            println!("{e}; starting from the net's quantised weights");
                        }
                        let net = super::init::float_net(
                            &file,
                            o.inputs,
                            o.hidden,
                            o.activation,
                            o.seed,
                        )?;
                        let adam = AdamW::new(net.params.len());
                        (net, adam)
                    }
                }
            }
            None => {
                let net = FloatNet::with_inputs(o.inputs, o.hidden, o.activation, o.seed);
                let adam = AdamW::new(net.params.len());
                (net, adam)
            }
        };
        return Ok(Checkpoint {
            net,
            adam,
            epochs_done: 0,
            steps: 0,
            k,
            seed: o.seed,
            batch: o.batch,
            train_len: split.train.len(),
        });
    };
    let mismatch = |what: &str, was: String, now: String| {
        Err(format!(
            "{path}: the checkpoint was made with {what} {was}, this run has {now}"
        ))
    };
    if c.net.hidden != o.hidden || c.net.activation != o.activation || c.net.inputs != o.inputs {
        return mismatch(
            "--hidden/--activation/--features",
            format!("{}/{:?}/{:?}", c.net.hidden, c.net.activation, c.net.inputs),
            format!("{}/{:?}/{:?}", o.hidden, o.activation, o.inputs),
        );
    }
    if c.seed != o.seed {
        return mismatch("--seed", c.seed.to_string(), o.seed.to_string());
    }
    if c.batch != o.batch {
        return mismatch("--batch", c.batch.to_string(), o.batch.to_string());
    }
    if c.train_len != split.train.len() {
        return mismatch(
            "training positions:",
            c.train_len.to_string(),
            split.train.len().to_string(),
        );
    }
    if c.k != k {
        return mismatch("K", c.k.to_string(), k.to_string());
    }
    Ok(c)
}

/// The float net and AdamW's state of the checkpoint `path` when it is the training state of
/// `net` (its export has the same body, the output bias aside) and of this run's shape: a warm
/// start that continues the training that made the net instead of restarting it from rounded
/// weights.
fn continued(
    path: &str,
    net: &pao::eval::nnue::Network,
    o: &Options,
) -> Result<(FloatNet, AdamW), String> {
    let c = Checkpoint::load(path)?;
    if c.net.hidden != o.hidden || c.net.activation != o.activation || c.net.inputs != o.inputs {
        return Err(format!("{path}: another shape than this run's"));
    }
    let body = |n: &pao::eval::nnue::Network| n.to_bytes()[40..48].to_vec();
    // The export corrects the output bias after rounding: every other number must match.
    let mut exported = super::export::quantise(&c.net, String::new());
    exported.out_bias = net.out_bias;
    if body(&exported) != body(net) {
        return Err(format!("{path}: not the training state of the --init net"));
    }
    println!(
        "continuing the training of the --init net from {path} (float weights, AdamW after {} steps)",
        c.adam.t
    );
    Ok((c.net, c.adam))
}

fn progress_bar(len: u64, epoch: usize, epochs: usize) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!(
        "epoch {}/{epochs} [{{bar:30}}] {{pos}}/{{len}} {{per_sec}} {{msg}} ETA {{eta}}",
        epoch + 1
    );
    let style = ProgressStyle::with_template(&template)
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar
}

/// Trains from scratch or from `resume` (the checkpoint `o.resume` names) up to `o.epochs`,
/// printing one line per epoch through `log` and writing a checkpoint per epoch into
/// `o.checkpoint_dir`. Runs inside the caller's thread pool.
pub fn train(
    o: &Options,
    split: &Split,
    k: f32,
    resume: Option<Checkpoint>,
    log: &mut dyn FnMut(&str),
) -> Result<Trained, String> {
    let mut state = start(o, split, k, resume)?;
    std::fs::create_dir_all(&o.checkpoint_dir).map_err(|e| format!("{}: {e}", o.checkpoint_dir))?;
    let layout = state.net.layout();
    let steps_per_epoch = split.train.len().div_ceil(o.batch) as u64;
    let total_steps = steps_per_epoch * o.epochs as u64;
    let mut ws = Workspace::new(&state.net, o.threads);
    let mut batch = Batch::with_capacity(o.batch.min(split.train.len()));
    let mut stats = Vec::new();
    for epoch in state.epochs_done..o.epochs {
        let started = Instant::now();
        let bar = progress_bar(split.train.len() as u64, epoch, o.epochs);
        let order = epoch_order(split.train.len(), o.seed, epoch);
        let mut loss_sum = 0.0;
        let mut lr = o.lr;
        for (b, picks) in order.chunks(o.batch).enumerate() {
            lr = learning_rate(o.schedule, o.lr, state.steps, total_steps, epoch)
                * warmup(state.steps, o.warmup);
            let first = b * o.batch;
            batch.fill(
                &split.train,
                picks,
                |i| mirror_flag(o.mirror, o.seed, epoch, first + i),
                state.net.inputs,
                o.wdl,
                k,
            );
            let loss = train_step(&state.net, &batch, &mut ws, k);
            if !o.psqt {
                ws.grad[layout.psqt..].iter_mut().for_each(|g| *g = 0.0);
            }
            state
                .adam
                .step(&mut state.net, &ws.grad, lr, o.weight_decay);
            state.steps += 1;
            loss_sum += loss * picks.len() as f64;
            bar.inc(picks.len() as u64);
            bar.set_message(format!("loss {loss:.5}"));
        }
        bar.finish_and_clear();
        let seconds = started.elapsed().as_secs_f64();
        let train_loss = loss_sum / split.train.len() as f64;
        let val_loss = validation_loss(&state.net, split, o, k);
        state.epochs_done = epoch + 1;
        let path = format!("{}/epoch-{}.ckpt", o.checkpoint_dir, epoch + 1);
        state.save(&path)?;
        let val = val_loss.map_or("-".to_string(), |v| format!("{v:.6}"));
        log(&format!(
            "epoch {}/{}: train loss {train_loss:.6}, val loss {val}, lr {lr:.6}, {} positions in {seconds:.1} s ({:.0}/s), checkpoint {path}",
            epoch + 1,
            o.epochs,
            split.train.len(),
            split.train.len() as f64 / seconds.max(1e-9),
        ));
        stats.push(EpochStats {
            train_loss,
            val_loss,
            seconds,
        });
    }
    Ok(Trained {
        net: state.net,
        epochs: stats,
    })
}
