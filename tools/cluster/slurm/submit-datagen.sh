#!/usr/bin/env bash
# Submits a self-play data run as a Slurm array job of SHARDS shards, the merge as a job that
# waits for all of them (--dependency=afterok), and, when TRAIN_ARGS is set, training on the
# merged data after the merge. The arguments are those of `pao-tools datagen` (--games is
# required: the whole run's game count). Prints the job ids, one per line.
#
#   OUT=/shared/gen3 SHARDS=32 PAO_TOOLS=/shared/pao/pao-tools \
#   TRAIN_ARGS="--epochs 8 --hidden 64 --seed 1" \
#       tools/cluster/slurm/submit-datagen.sh --games 100000 --nodes 5000 --seed 3
#
# Results: $OUT/data-I.bin (+ .shard logs), $OUT/data.bin, $OUT/net.nnue, logs in $OUT/logs.
# Other sbatch settings come from sbatch's own variables (SBATCH_PARTITION, SBATCH_TIMELIMIT,
# SBATCH_ACCOUNT, ...) or DATAGEN_SBATCH / MERGE_SBATCH / TRAIN_SBATCH (extra sbatch options).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"
data=$(submit_array "${DATAGEN_SBATCH:-}" datagen.sbatch "$@")
echo "$data"
merge=$(submit_after "$data" "${MERGE_SBATCH:-}" datagen-merge.sbatch)
echo "$merge"
if [ -n "${TRAIN_ARGS:-}" ]; then
    # shellcheck disable=SC2086 # TRAIN_ARGS holds several arguments
    submit_after "$merge" "${TRAIN_SBATCH:-}" train.sbatch $TRAIN_ARGS
fi
