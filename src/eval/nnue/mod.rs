//! The learned evaluation (NNUE): input features, the net file, accumulators and inference.

pub mod features;
pub mod file;

pub use file::{Activation, NetError, Network};
