//! `pao-tools datagen`: self-play training data for the network.

pub mod record;
