//! The learned evaluation (NNUE): input features, the net file, accumulators kept on the
//! search stack, and the integer inference (portable and AVX2 builds, bit-identical).

pub mod accumulator;
pub mod features;
pub mod file;
pub mod simd;

pub use accumulator::{evaluate_scratch, AccumulatorStack};
pub use features::FeatureSet;
pub use file::{Activation, NetError, Network};

use std::sync::{Arc, OnceLock};

/// The net file compiled into the binary: generation 4, H = 256 (docs/strength-log.md,
/// "The network's generations").
const EMBEDDED_NET: Option<&[u8]> = Some(include_bytes!("default.nnue"));

/// Whether the network evaluates by default (`UseNNUE`): the embedded net beat the
/// hand-written evaluation in games (docs/strength-log.md, "The network's generations").
pub const USE_BY_DEFAULT: bool = true;

/// The embedded net file's bytes, as built in: its hash names it, as that of a copy would, and
/// `export_net` writes them as they are.
pub fn embedded_bytes() -> Option<&'static [u8]> {
    EMBEDDED_NET
}

/// The embedded net, parsed once; `None` when the build embeds none.
pub fn embedded() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| EMBEDDED_NET.and_then(|bytes| Network::from_bytes(bytes).ok().map(Arc::new)))
        .clone()
}
