//! The learned evaluation (NNUE): input features, the net file, accumulators kept on the
//! search stack, and the integer inference (portable and AVX2 builds, bit-identical).

pub mod accumulator;
pub mod features;
pub mod file;
pub mod simd;

pub use accumulator::{evaluate_scratch, AccumulatorStack};
pub use file::{Activation, NetError, Network};

use std::sync::{Arc, OnceLock};

/// The net file compiled into the binary (`None` until a net has passed its match against
/// the hand-written evaluation and been committed).
const EMBEDDED_NET: Option<&[u8]> = None;

/// Whether the network evaluates by default (`UseNNUE`): only once the embedded net has
/// beaten the hand-written evaluation in games.
pub const USE_BY_DEFAULT: bool = false;

/// The embedded net, parsed once; `None` when the build embeds none.
pub fn embedded() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| EMBEDDED_NET.and_then(|bytes| Network::from_bytes(bytes).ok().map(Arc::new)))
        .clone()
}
