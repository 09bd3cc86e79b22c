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
: "${OUT:?set OUT to a directory that every node sees}"
: "${SHARDS:?set SHARDS to the number of shards}"
mkdir -p "$OUT/logs"
OUT="$(cd "$OUT" && pwd)"
export OUT SHARDS
env="--export=ALL"
# shellcheck disable=SC2086 # the *_SBATCH variables hold several options
games=$(sbatch --parsable $env ${MATCH_SBATCH:-} --array="1-$SHARDS" \
    --output="$OUT/logs/%x-%A_%a.out" "$here/match.sbatch" "$@")
games=${games%%;*}
echo "$games"
# shellcheck disable=SC2086
merge=$(sbatch --parsable $env ${MERGE_SBATCH:-} --dependency="afterok:$games" \
    --output="$OUT/logs/%x-%j.out" "$here/match-merge.sbatch" ${MERGE_ARGS:-})
echo "${merge%%;*}"
