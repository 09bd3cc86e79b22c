//! The learned evaluation (NNUE): input features, the net file, accumulators kept on the
//! search stack, and the integer inference (portable and AVX2 builds, bit-identical).

pub mod accumulator;
pub mod features;
pub mod file;
pub mod simd;

pub use accumulator::{evaluate_scratch, AccumulatorStack};
pub use file::{Activation, NetError, Network};
