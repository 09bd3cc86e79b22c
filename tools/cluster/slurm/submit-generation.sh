#!/usr/bin/env bash
# Submits one generation of the network as Slurm jobs, each waiting for the one before it
# (--dependency=afterok): self-play by the current net in SHARDS shards (an array job) and
# their merge; training warm-started from the current net on the merged data and WINDOW; the
# SPRT of the new net against the current one in MATCH_SHARDS shards of PAIRS game pairs each
# (an array job) and their merge with the SPRT; and the decision, `pao-tools generation
# decide`, which takes the rule and writes the files of `pao-tools generation`. Prints the six
# job ids, one per line, in that order.
#
#   OUT=/shared/gen4 SHARDS=32 GAMES=40000 NET=/shared/gen3/accepted.nnue \
#   MATCH_SHARDS=50 PAIRS=30 PAO_TOOLS=/shared/pao/pao-tools \
#       tools/cluster/slurm/submit-generation.sh
#
# Settings, from the environment (the defaults are those of `pao-tools generation`):
#   OUT            the generation's directory, seen by every node (required)
#   SHARDS         self-play shards (required); GAMES: self-play games in all (required)
#   NET            the current net: a net file, or `embedded` (the default)
#   NODES          self-play nodes per move (2500); SEED: the self-play seed (from NET's
#                  checksum, as `pao-tools generation seed --net NET` prints it)
#   WINDOW         earlier data files to train on too, separated by spaces
#   EPOCHS         training epochs (8); HIDDEN: hidden neurons of the new net (NET's)
#   LR             training's learning rate (0.0003, the warm start's rate)
#   WEIGHT_DECAY   training's weight decay (0.03, the warm start's, as `pao-tools generation`)
#   MATCH_SHARDS   SPRT shards (SHARDS); PAIRS: game pairs per SPRT shard (1500 / MATCH_SHARDS
#                  rounded up: at least 3000 games in all)
#   SPRT_TC        the SPRT's clock (3+0.03); SPRT_NODES: nodes per move instead of a clock
#   SPRT           the SPRT's hypotheses ("elo0=0 elo1=10", normalised Elo); HASH: MiB per engine (16)
#   OPENINGS       the SPRT's openings (the repository's tools/data/balanced-openings-8ply.txt)
#   PAO_TOOLS      pao-tools (default: on the PATH); PAO: the engine (the pao beside PAO_TOOLS)
#   DATAGEN_ARGS, TRAIN_ARGS, MATCH_ARGS: more arguments for datagen, train and match
#   DATAGEN_SBATCH, MERGE_SBATCH, TRAIN_SBATCH, MATCH_SBATCH, DECIDE_SBATCH: extra sbatch
#                  options for each kind of job, besides sbatch's SBATCH_* variables
#
# Results in $OUT: current.nnue (the current net's bytes, which every job loads), data/
# (data-I.bin per shard, data.bin merged), candidate.nnue and train/ (a checkpoint per epoch),
# sprt/ (results-I.tsv per shard, results.tsv and report.txt merged), state.txt and the
# decision; accepted.nnue and row.md when the SPRT accepts; logs/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fail() {
    echo "submit-generation.sh: $*" >&2
    exit 2
}
# whole NAME: the variable NAME holds a whole number of at least 1; leading zeros dropped.
whole() {
    local value="${!1:-}"
    if ! [[ "$value" =~ ^[0-9]+$ ]] || ((10#$value < 1)); then
        fail "$1 must be a whole number of at least 1 (it is '$value')"
    fi
    printf -v "$1" '%d' "$((10#$value))"
}
# absolute FILE: FILE's absolute path (the jobs may start elsewhere); fails unless it is a file.
absolute() {
    [ -f "$1" ] || fail "$2: no file $1"
    echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
}

[ -n "${OUT:-}" ] || fail "set OUT to the generation's directory (every node must see it)"
whole SHARDS
whole GAMES
((GAMES >= SHARDS)) || fail "GAMES ($GAMES) must be at least SHARDS ($SHARDS)"
NODES="${NODES:-2500}"
whole NODES
EPOCHS="${EPOCHS:-8}"
whole EPOCHS
MATCH_SHARDS="${MATCH_SHARDS:-$SHARDS}"
whole MATCH_SHARDS
PAIRS="${PAIRS:-$(((1500 + MATCH_SHARDS - 1) / MATCH_SHARDS))}"
whole PAIRS
HASH="${HASH:-16}"
whole HASH
if [ -n "${HIDDEN:-}" ]; then whole HIDDEN; fi
if [ -n "${SPRT_NODES:-}" ]; then whole SPRT_NODES; fi
SPRT_TC="${SPRT_TC:-3+0.03}"
number='[0-9]*\.?[0-9]+'
LR="${LR:-0.0003}"
[[ "$LR" =~ ^$number$ ]] && awk -v r="$LR" 'BEGIN { exit !(r > 0) }' \
    || fail "LR must be a number above 0 such as 0.0003 (it is '$LR')"
WEIGHT_DECAY="${WEIGHT_DECAY:-0.03}"
[[ "$WEIGHT_DECAY" =~ ^$number$ ]] && awk -v r="$WEIGHT_DECAY" 'BEGIN { exit !(r < 1) }' \
    || fail "WEIGHT_DECAY must be a number from 0 to below 1 such as 0.03 (it is '$WEIGHT_DECAY')"
[[ "$SPRT_TC" =~ ^([0-9]+/)?$number(\+$number)?$ ]] \
    || fail "SPRT_TC must be a clock such as 3+0.03 or 40/60+0.5 (it is '$SPRT_TC')"
SPRT="${SPRT:-elo0=0 elo1=10}"
for word in $SPRT; do
    [[ "$word" =~ ^(elo0|elo1|alpha|beta)=-?$number$ ]] \
        || fail "SPRT takes elo0=, elo1=, alpha=, beta= with numbers (not '$word')"
done

tools="${PAO_TOOLS:-pao-tools}"
if [[ "$tools" == */* ]]; then tools="$(absolute "$tools" PAO_TOOLS)"; fi
tools_path="$(command -v "$tools")" || fail "PAO_TOOLS: no program $tools"
export PAO_TOOLS="$tools"
if [ -z "${PAO:-}" ]; then
    PAO="$(dirname "$tools_path")/pao"
    [ -f "$PAO" ] || PAO="$(command -v pao)" || fail "PAO: no engine; set PAO to the pao program"
fi
PAO="$(absolute "$PAO" PAO)"
[ -x "$PAO" ] || fail "PAO: $PAO cannot be run"
NET="${NET:-embedded}"
[ "$NET" = embedded ] || NET="$(absolute "$NET" NET)"
# Loads the net, as every job will, and gives the generation's default seed.
default_seed="$("$tools" generation seed --net "$NET" 2>&1)" || fail "NET: $default_seed"
SEED="${SEED:-$default_seed}"
[[ "$SEED" =~ ^[0-9]+$ ]] || fail "SEED must be a whole number (it is '$SEED')"
window=()
for file in ${WINDOW:-}; do window+=("$(absolute "$file" WINDOW)"); done
OPENINGS="${OPENINGS:-$here/../../data/balanced-openings-8ply.txt}"
OPENINGS="$(absolute "$OPENINGS" OPENINGS)"

# shellcheck source=common.sh
. "$here/common.sh"
mkdir -p "$OUT/data" "$OUT/sprt"
cp "$OPENINGS" "$OUT/openings.txt"
GEN_SUBMITTED="$(date +%s)"
export GEN_SUBMITTED

# The current net's bytes, which self-play, training and both sides of the SPRT load (never
# the net an engine embeds, which may be another).
current="$OUT/current.nnue"
"$tools" generation write-net --net "$NET" --out "$current" >/dev/null
evalfile=(--evalfile "$current")
hidden=()
if [ -n "${HIDDEN:-}" ]; then hidden=(--hidden "$HIDDEN"); fi
if [ -n "${SPRT_NODES:-}" ]; then
    limit=(--nodes "$SPRT_NODES")
    decide_limit=(--sprt-nodes "$SPRT_NODES")
else
    limit=(--tc "$SPRT_TC")
    decide_limit=(--sprt-tc "$SPRT_TC")
fi
decide_window=()
if [ "${#window[@]}" -gt 0 ]; then decide_window=(--window "${window[@]}"); fi

# The SPRT as `pao-tools generation` plays it, its pairing printed by the same code: the new
# net first, each engine with one thread, no book and HASH MiB, the balanced openings,
# resignation and draw adjudication; MATCH_SHARDS shards of PAIRS game pairs.
pairing="$("$tools" generation match-args --engine "$PAO" --candidate "$OUT/candidate.nnue" \
    --net "$current" --hash "$HASH" --openings "$OUT/openings.txt" 2>&1)" || fail "$pairing"
mapfile -t match <<<"$pairing"
match+=(--games "$((2 * PAIRS * MATCH_SHARDS))" "${limit[@]}")

# shellcheck disable=SC2086 # the *_ARGS variables hold several arguments
data=$(export OUT="$OUT/data"; submit_array "${DATAGEN_SBATCH:-}" datagen.sbatch \
    --games "$GAMES" --nodes "$NODES" --seed "$SEED" "${evalfile[@]}" ${DATAGEN_ARGS:-})
echo "$data"
merge=$(export OUT="$OUT/data"; submit_after "$data" "${MERGE_SBATCH:-}" datagen-merge.sbatch)
echo "$merge"
# shellcheck disable=SC2086
train=$(submit_after "$merge" "${TRAIN_SBATCH:-}" generation-train.sbatch \
    --data "$OUT/data/data.bin" "${window[@]}" --init "$current" --epochs "$EPOCHS" --seed 1 \
    --lr "$LR" --weight-decay "$WEIGHT_DECAY" "${hidden[@]}" ${TRAIN_ARGS:-})
echo "$train"
# shellcheck disable=SC2086
games=$(export OUT="$OUT/sprt" SHARDS="$MATCH_SHARDS"
    submit_array "--dependency=afterok:$train ${MATCH_SBATCH:-}" match.sbatch \
        "${match[@]}" ${MATCH_ARGS:-})
echo "$games"
# shellcheck disable=SC2086
sprt=$(export OUT="$OUT/sprt" SHARDS="$MATCH_SHARDS"
    submit_after "$games" "${MERGE_SBATCH:-}" match-merge.sbatch --sprt $SPRT)
echo "$sprt"
submit_after "$sprt" "${DECIDE_SBATCH:-}" generation-decide.sbatch --net "$NET" \
    --seed "$SEED" --nodes "$NODES" --epochs "$EPOCHS" "${decide_limit[@]}" \
    "${decide_window[@]}"
