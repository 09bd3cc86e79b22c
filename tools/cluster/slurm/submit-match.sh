#!/usr/bin/env bash
# Submits a match as a Slurm array job of SHARDS shards (each plays every SHARDS-th game pair)
# and the merge as a job that waits for all of them (--dependency=afterok). The arguments are
# those of `pao-tools match`; MERGE_ARGS goes to `match merge` (e.g. the SPRT). Prints the job
# ids, one per line.
#
#   OUT=/shared/m42 SHARDS=16 PAO_TOOLS=/shared/pao/pao-tools MERGE_ARGS="--sprt elo0=0 elo1=5" \
#       tools/cluster/slurm/submit-match.sh --engine name=new cmd=/shared/new/pao \
#       --engine name=old cmd=/shared/old/pao --each option.Threads=1 option.OwnBook=false \
#       --games 20000 --tc 3+0.03 --openings /shared/pao/tools/data/balanced-openings.txt
#
# Results: $OUT/results-I.tsv per shard, $OUT/report.txt and $OUT/results.tsv after the merge,
# logs in $OUT/logs. Extra sbatch options: MATCH_SBATCH, MERGE_SBATCH (and SBATCH_* variables).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=common.sh
. "$here/common.sh"
games=$(submit_array "${MATCH_SBATCH:-}" match.sbatch "$@")
echo "$games"
# shellcheck disable=SC2086 # MERGE_ARGS holds several arguments
submit_after "$games" "${MERGE_SBATCH:-}" match-merge.sbatch ${MERGE_ARGS:-}
