#!/usr/bin/env bash
# Submits a tuning run as a Slurm array job of SHARDS tasks on one state file,
# ${STATE:-$OUT/state.txt}. The arguments are those of `pao-tools tune`. Prints the job id.
#
#   OUT=/shared/tune1 SHARDS=16 PAO_TOOLS=/shared/pao/pao-tools \
#       tools/cluster/slurm/submit-tune.sh --engine cmd=/shared/pao/pao-tune option.Hash=16 \
#       option.Threads=1 option.PinThreads=false option.OwnBook=false --nodes 20000 \
#       --iterations 5000 --openings /shared/pao/tools/data/balanced-openings.txt
#
# The values: `pao-tools tune show $OUT/state.txt`; logs in $OUT/logs. Extra sbatch options:
# TUNE_SBATCH (and SBATCH_* variables).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"
submit_array "${TUNE_SBATCH:-}" tune.sbatch "$@"
