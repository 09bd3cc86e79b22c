# Sourced by the submit scripts (after `here` is set to this directory): checks OUT and SHARDS,
# makes $OUT/logs, makes OUT absolute and exports both to the jobs, and defines how the jobs are
# submitted. Each submit function prints the job id. Every job's log goes to $OUT/logs as OUT
# is when this file is sourced, also for jobs submitted with another OUT (a subdirectory).
: "${OUT:?set OUT to a directory that every node sees}"
: "${SHARDS:?set SHARDS to the number of shards}"
mkdir -p "$OUT/logs"
OUT="$(cd "$OUT" && pwd)"
logs="$OUT/logs"
export OUT SHARDS

# submit EXTRA ARG...: `sbatch --parsable --export=ALL`, the extra sbatch options EXTRA (one
# string, split at spaces: the *_SBATCH variables), then ARG... A job whose dependency can
# no longer be met (a job it waits for was cancelled or failed) is ended by Slurm instead of
# waiting forever (--kill-on-invalid-dep), whatever the cluster's default.
submit() {
    local extra="$1" id
    shift
    # shellcheck disable=SC2086 # EXTRA holds several options
    id=$(sbatch --parsable --export=ALL --kill-on-invalid-dep=yes $extra "$@") || return
    echo "${id%%;*}"
}

# submit_array EXTRA SCRIPT ARG...: SCRIPT of this directory as an array of SHARDS tasks, a log
# per task.
submit_array() {
    local extra="$1" script="$2"
    shift 2
    submit "$extra" --array="1-$SHARDS" --output="$logs/%x-%A_%a.out" "$here/$script" "$@"
}

# submit_after JOB EXTRA SCRIPT ARG...: SCRIPT of this directory, started once job JOB (every
# task of it) has completed.
submit_after() {
    local job="$1" extra="$2" script="$3"
    shift 3
    submit "$extra" --dependency="afterok:$job" --output="$logs/%x-%j.out" "$here/$script" "$@"
}
