//! Warm start (`--init NET`): a quantised net file read back into the float net the trainer
//! optimises, so that a generation starts from what the one before it learned.
//!
//! Every quantised value is divided by the factor export multiplies it by (W and b by QA, w by
//! QB, c and P by QA * QB). Those divisions round-trip: exporting the float net again, before
//! any step, gives the same integers. A wider `--hidden` than the file's keeps every old
//! neuron and adds new ones whose output weights are zero, so the widened net is the same
//! function as the file's; their input weights start small and random, so that they learn.

use super::data::Inputs;
use super::export::{QA, QB};
use super::network::{FloatNet, Layout, SCALE};
use crate::common::rng::SplitMix64 as Rng;
use pao::eval::nnue::{Activation, FeatureSet, Network};

/// What `--init` names: a net file, or the net built into the engine.
pub const EMBEDDED: &str = "embedded";

/// Reads the net `--init` names (`embedded` for the engine's own).
pub fn load(name: &str) -> Result<Network, String> {
    if name == EMBEDDED {
        return pao::eval::nnue::embedded()
            .map(|net| (*net).clone())
            .ok_or_else(|| "--init embedded: this build embeds no net".to_string());
    }
    Network::load(name).map_err(|e| format!("--init {name}: {e}"))
}

/// One line naming a net's shape, as the refusals print it.
pub fn shape(set: FeatureSet, hidden: usize, activation: Activation) -> String {
    let activation = match activation {
        Activation::SquaredClippedRelu => "screlu",
        Activation::ClippedRelu => "crelu",
    };
    format!("{} features, hidden {hidden}, {activation}", set.name())
}

/// The float net that starts a run from `net`: `inputs` and `activation` must be the file's,
/// `hidden` at least the file's (more widens it). `seed` draws the new neurons' weights.
pub fn float_net(
    net: &Network,
    inputs: Inputs,
    hidden: usize,
    activation: Activation,
    seed: u64,
) -> Result<FloatNet, String> {
    let file = shape(net.features, net.hidden, net.activation);
    if net.features != inputs.set || net.activation != activation || hidden < net.hidden {
        return Err(format!(
            "the net to start from has {file}; this run asks for {} (only a wider hidden layer \
             can start from it)",
            shape(inputs.set, hidden, activation)
        ));
    }
    if (net.qa, net.qb, net.scale) != (QA, QB, SCALE as i32) {
        return Err(format!(
            "the net to start from is quantised with QA {}, QB {}, scale {}; the trainer exports \
             QA {QA}, QB {QB}, scale {}",
            net.qa, net.qb, net.scale, SCALE as i32
        ));
    }
    let (old, rows) = (net.hidden, net.inputs());
    let l = Layout::new(inputs.count(), hidden);
    let mut params = vec![0.0f32; l.len];
    let (qa, qb, qab) = (QA as f32, QB as f32, (QA * QB) as f32);
    for f in 0..rows {
        for j in 0..old {
            params[f * hidden + j] = net.ft_weights[f * old + j] as f32 / qa;
        }
    }
    for j in 0..old {
        params[l.ft_bias + j] = net.ft_bias[j] as f32 / qa;
        params[l.out_weights + j] = net.out_weights[j] as f32 / qb;
        params[l.out_weights + hidden + j] = net.out_weights[old + j] as f32 / qb;
    }
    params[l.out_bias] = net.out_bias as f32 / qab;
    for f in 0..rows {
        params[l.psqt + f] = net.psqt[f] as f32 / qab;
    }
    // New neurons: input weights as a fresh net draws them, scaled down; output weights zero.
    if hidden > old {
        let mut rng = Rng::new(seed, 0x5749_4445);
        let scale = 0.1 / (32f32).sqrt();
        for f in 0..rows {
            for j in old..hidden {
                params[f * hidden + j] = rng.symmetric() * scale;
            }
        }
    }
    Ok(FloatNet {
        inputs,
        hidden,
        activation,
        params,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::export::{quantise, quantised_eval};
    use crate::train::network::SCALE;

    fn embedded() -> Network {
        load(EMBEDDED).expect("the build embeds a net")
    }

    #[test]
    fn exporting_the_warm_start_gives_back_the_same_weights() {
        let net = embedded();
        let float = float_net(&net, Inputs::PLAIN, net.hidden, net.activation, 1).expect("fits");
        let again = quantise(&float, net.provenance.clone());
        assert_eq!(again, net);
        assert_eq!(again.to_bytes(), net.to_bytes());
    }

    #[test]
    fn widening_keeps_the_function_and_the_old_weights() {
        let net = embedded();
        let wide =
            float_net(&net, Inputs::PLAIN, net.hidden + 64, net.activation, 7).expect("fits");
        assert_eq!(wide.hidden, net.hidden + 64);
        let q = quantise(&wide, String::new());
        // Old neurons and every other part are the file's; the new output weights are zero.
        for f in 0..net.inputs() {
            assert_eq!(
                q.ft_weights[f * q.hidden..f * q.hidden + net.hidden],
                net.ft_weights[f * net.hidden..(f + 1) * net.hidden]
            );
        }
        assert!(q.out_weights[net.hidden..q.hidden].iter().all(|&w| w == 0));
        assert!(q.out_weights[q.hidden + net.hidden..]
            .iter()
            .all(|&w| w == 0));
        assert_eq!((q.out_bias, &q.psqt), (net.out_bias, &net.psqt));
        // The same evaluation, in floats and after quantisation, on a few positions' features.
        let us: Vec<u16> = vec![3, 77, 150, 301, 640, 900, 1100];
        let them: Vec<u16> = vec![12, 88, 160, 333, 700, 950, 1200];
        let narrow = float_net(&net, Inputs::PLAIN, net.hidden, net.activation, 7).expect("fits");
        assert_eq!(
            (narrow.evaluate(&us, &them) * SCALE).round(),
            (wide.evaluate(&us, &them) * SCALE).round()
        );
        assert_eq!(
            quantised_eval(&net, &us, &them),
            quantised_eval(&q, &us, &them)
        );
    }

    #[test]
    fn another_shape_is_refused_in_one_line() {
        let net = embedded();
        let buckets = Inputs::of(FeatureSet::from_name("king-buckets").expect("a set"), true);
        let err = float_net(&net, buckets, net.hidden, net.activation, 1).expect_err("refused");
        let h = net.hidden;
        assert_eq!(
            err,
            format!(
                "the net to start from has plain features, hidden {h}, screlu; this run asks \
                 for king-buckets features, hidden {h}, screlu (only a wider hidden layer can \
                 start from it)"
            )
        );
        assert!(!err.contains('\n'));
        let narrow = float_net(&net, Inputs::PLAIN, 64, net.activation, 1).expect_err("refused");
        assert!(narrow.contains("hidden 64"), "{narrow}");
        let crelu = float_net(&net, Inputs::PLAIN, h, Activation::ClippedRelu, 1);
        assert!(crelu.is_err());
    }
}
