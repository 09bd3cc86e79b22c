//! Work spread over machines (docs/cluster.md): sharded runs merged exactly (`shard`), and the
//! sbatch scripts on a real single-node Slurm (`slurm`). One test binary for both, to link once.

mod shard;
mod slurm;
#[path = "../support/mod.rs"]
mod support;
