#!/usr/bin/env bash
# Runs the sbatch scripts of this directory on a real Slurm of one node, started here and
# stopped at the end: munged, slurmctld and slurmd with a slurm.conf for this machine, all in a
# temporary directory. Checks that
#   - an array of 4 datagen shards, merged by a job that depends on them (afterok), gives the
#     file one local run gives, byte for byte, and a training job after the merge writes a net;
#   - a match of 4 shards, merged the same way, gives the report and results file of one local
#     run of the match.
#   - a whole generation from submit-generation.sh on a tiny budget (2 self-play shards, their
#     merge, training, 2 SPRT shards of one game pair, their merge, the decision) leaves every
#     file it must and decides as `pao-tools generation` does: not taken after 4 games;
#   - cancelling the self-play array of a generation ends the five jobs that wait on it;
#   - a tuning run of 2 array tasks on one state plays its 6 iterations between them.
# Needs root and Debian's slurm-wlm and munge (it installs nothing). The daemons it starts are
# stopped by their process ids however it ends.
#
#   tools/cluster/slurm/test-single-node.sh PAO_TOOLS PAO
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 PATH/TO/pao-tools PATH/TO/pao" >&2
    exit 2
fi
tools="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
pao="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
PATH="$PATH:/usr/sbin:/sbin"
for program in munged slurmctld slurmd sbatch scontrol scancel; do
    command -v "$program" >/dev/null || { echo "slurm test: $program not found" >&2; exit 2; }
done
[ "$(id -u)" = 0 ] || { echo "slurm test: must run as root (it starts slurmd)" >&2; exit 2; }

work="$(mktemp -d "${TMPDIR:-/tmp}/pao-slurm.XXXXXX")"
pids=()
jobs_submitted=()
say() { echo "slurm test: $*"; }
stop() {
    local status=$?
    set +e
    if [ "${#jobs_submitted[@]}" -gt 0 ] && [ -n "${SLURM_CONF:-}" ]; then
        scancel "${jobs_submitted[@]}" 2>/dev/null
    fi
    # Daemons in the reverse order of their start, each by the process id it was given.
    for ((k = ${#pids[@]} - 1; k >= 0; k--)); do
        kill "${pids[k]}" 2>/dev/null
        wait "${pids[k]}" 2>/dev/null
    done
    if [ "$status" -ne 0 ]; then
        for f in "$work"/log/* "$work"/*/logs/*; do
            [ -f "$f" ] && { echo "--- $f"; tail -n 30 "$f"; }
        done
    fi
    rm -rf "$work"
    exit "$status"
}
trap stop EXIT
trap 'exit 130' INT TERM

# A free TCP port on this machine, from a random start (not Slurm's usual 6817-6818, in case a
# real Slurm runs here).
free_port() {
    local port=$((20000 + RANDOM % 20000))
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}

mkdir -p "$work"/{munge-key,munge-run,state,spool,log}
chmod 700 "$work/munge-key"
chmod 755 "$work" "$work/munge-run"
head -c 1024 /dev/urandom > "$work/munge-key/munge.key"
chmod 600 "$work/munge-key/munge.key"
socket="$work/munge-run/munge.socket"
munged --foreground --force --socket="$socket" --key-file="$work/munge-key/munge.key" \
    --log-file="$work/log/munged.log" --pid-file="$work/munge-run/munged.pid" \
    --seed-file="$work/munge-key/munged.seed" >>"$work/log/munged.log" 2>&1 &
pids+=($!)

# The node as slurmd sees it (name, CPUs, sockets, cores, threads); memory is left out (not
# tracked here, and a node that reports less than its line says would be drained).
node="$(slurmd -C 2>/dev/null | grep '^NodeName=' | sed 's/ RealMemory=[0-9]*//')" || true
[ -n "$node" ] || node="NodeName=$(hostname -s 2>/dev/null || uname -n) CPUs=$(nproc)"
host="$(echo "$node" | sed 's/^NodeName=\([^ ]*\).*/\1/')"
ctld_port="$(free_port)"
slurmd_port="$(free_port)"
[ "$slurmd_port" != "$ctld_port" ] || slurmd_port=$((ctld_port + 1))
export SLURM_CONF="$work/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=paotest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
$node NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=pao Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.1; done
slurmctld -D -f "$SLURM_CONF" >>"$work/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >>"$work/log/slurmd.out" 2>&1 &
pids+=($!)
ready=""
for _ in $(seq 60); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then ready=yes; break; fi
    sleep 0.5
done
[ -n "$ready" ] || { say "the node did not come up"; exit 1; }
say "Slurm up: node $host, controller port $ctld_port"

# Waits until job $1 has ended; fails unless it COMPLETED.
wait_job() {
    local state=""
    for _ in $(seq 240); do
        state="$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1)"
        case "$state" in
            COMPLETED) return 0 ;;
            FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
                say "job $1 ended $state"; return 1 ;;
        esac
        sleep 0.5
    done
    say "job $1 did not end in time: $(scontrol show job "$1" 2>/dev/null | grep -o 'JobState=.*Reason=[^ ]*' | head -n 1)"
    return 1
}

export PAO_TOOLS="$tools"

# Datagen: 4 shards and their merge, then a small training run on the merged data.
datagen_args=(--games 12 --nodes 300 --max-plies 40 --seed 7)
"$tools" datagen --out "$work/local.bin" --threads 2 "${datagen_args[@]}" 2>/dev/null
mapfile -t ids < <(OUT="$work/datagen" SHARDS=4 TRAIN_ARGS="--epochs 1 --hidden 16 --batch 64" \
    "$here/submit-datagen.sh" "${datagen_args[@]}")
jobs_submitted+=("${ids[@]}")
[ "${#ids[@]}" = 3 ] || { say "submit-datagen.sh printed ${#ids[@]} job ids, not 3"; exit 1; }
wait_job "${ids[1]}"
cmp "$work/local.bin" "$work/datagen/data.bin"
say "datagen: 4 shards (array job ${ids[0]}) merged by job ${ids[1]} = one local run, $(stat -c %s "$work/local.bin") bytes"
wait_job "${ids[2]}"
head -c 8 "$work/datagen/net.nnue" | grep -q . || { say "no net written"; exit 1; }
say "train: job ${ids[2]} wrote $(stat -c %s "$work/datagen/net.nnue") bytes after the merge"

# A match: 4 shards of 8 games (one pair each) and their merge with the SPRT state.
match_args=(--engine "name=nnue" "cmd=$pao" --engine "name=hce" "cmd=$pao" option.UseNNUE=false
    --each option.Threads=1 option.Hash=16 option.PinThreads=false option.OwnBook=false
    --games 8 --depth 2 --maxplies 120)
"$tools" match "${match_args[@]}" --resume "$work/local.tsv" --sprt elo0=0 elo1=5 \
    2>/dev/null | sed -n '/^engine  games/,$p' >"$work/local-report.txt"
mapfile -t ids < <(OUT="$work/match" SHARDS=4 MERGE_ARGS="--sprt elo0=0 elo1=5" \
    "$here/submit-match.sh" "${match_args[@]}")
jobs_submitted+=("${ids[@]}")
[ "${#ids[@]}" = 2 ] || { say "submit-match.sh printed ${#ids[@]} job ids, not 2"; exit 1; }
wait_job "${ids[1]}"
diff "$work/local-report.txt" "$work/match/report.txt"
cmp "$work/local.tsv" "$work/match/results.tsv"
say "match: 4 shards (array job ${ids[0]}) merged by job ${ids[1]} = one local run:"
sed 's/^/    /' "$work/match/report.txt"
# A generation: 2 self-play shards by the embedded net, training warm-started from it (1 epoch)
# on the merged data and the local run's file as the window, an SPRT of 2 shards of one game
# pair each at fixed nodes, its merge, and the decision. Four games cannot pass the default
# SPRT, elo0=0 elo1=10 (the LLR of 2 pairs stays between its bounds), so the new net is not taken.
mapfile -t ids < <(OUT="$work/gen" SHARDS=2 GAMES=2 NODES=200 SEED=5 EPOCHS=1 \
    MATCH_SHARDS=2 PAIRS=1 SPRT_NODES=300 WINDOW="$work/local.bin" PAO="$pao" \
    DATAGEN_ARGS="--max-plies 40" TRAIN_ARGS="--batch 64" MATCH_ARGS="--maxplies 80" \
    "$here/submit-generation.sh")
jobs_submitted+=("${ids[@]}")
[ "${#ids[@]}" = 6 ] || { say "submit-generation.sh printed ${#ids[@]} job ids, not 6"; exit 1; }
wait_job "${ids[5]}"
gen="$work/gen"
for file in data/data-1.bin data/data-2.bin data/data.bin candidate.nnue train/epoch-1.ckpt \
    sprt/results-1.tsv sprt/results-2.tsv sprt/results.tsv sprt/report.txt openings.txt \
    state.txt; do
    [ -s "$gen/$file" ] || { say "generation: no $file"; exit 1; }
done
# The shards played their pair each: four games in the merged results.
games="$(grep -vc '^#' "$gen/sprt/results.tsv")"
[ "$games" = 4 ] || { say "generation: $games games in the SPRT's results, not 4"; exit 1; }
grep -q "^window $gen/data/data.bin=[1-9][0-9]*,$work/local.bin=[1-9][0-9]*\$" "$gen/state.txt" \
    || { say "generation: the window is not the merged data and the local file"; exit 1; }
grep -qx "decision not taken: the SPRT did not accept it (.* running, 300 nodes per move)" \
    "$gen/state.txt" || { say "generation: not the decision expected"; exit 1; }
if [ -e "$gen/accepted.nnue" ] || [ -e "$gen/row.md" ]; then
    say "generation: a net that was not taken was written"
    exit 1
fi
say "generation: jobs ${ids[*]}: $(grep '^decision ' "$gen/state.txt")"

# A generation whose self-play array is cancelled: the jobs waiting on it end (the cluster's
# configuration here does not kill jobs whose dependencies fail: the scripts ask for it).
mapfile -t ids < <(OUT="$work/gen-cancelled" SHARDS=2 GAMES=2000 PAO="$pao" \
    "$here/submit-generation.sh")
jobs_submitted+=("${ids[@]}")
[ "${#ids[@]}" = 6 ] || { say "submit-generation.sh printed ${#ids[@]} job ids, not 6"; exit 1; }
scancel "${ids[0]}"
for id in "${ids[@]:1}"; do
    state=""
    for _ in $(seq 240); do
        state="$(scontrol show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1)"
        case "$state" in PENDING | RUNNING | CONFIGURING | "") sleep 0.5 ;; *) break ;; esac
    done
    [ "$state" = CANCELLED ] || { say "cancelled generation: job $id is $state, not CANCELLED"; exit 1; }
done
say "cancelled generation: array job ${ids[0]} cancelled, jobs ${ids[*]:1} ended CANCELLED"

# A tuning run: 2 array tasks on one state play its 6 iterations between them, taking turns to
# write it. The scripted engine offers the parameters' options as a `tune` build does.
mapfile -t ids < <(OUT="$work/tune" SHARDS=2 "$here/submit-tune.sh" \
    --engine "cmd=$tools" arg=fake-engine arg=--tune-options --iterations 6 --nodes 100 \
    --maxplies 40 --openings "$here/../../data/balanced-openings.txt")
jobs_submitted+=("${ids[@]}")
[ "${#ids[@]}" = 1 ] || { say "submit-tune.sh printed ${#ids[@]} job ids, not 1"; exit 1; }
wait_job "${ids[0]}_1"
wait_job "${ids[0]}_2"
for line in "started 6" "iteration 6" "games 12"; do
    grep -qx "$line" "$work/tune/state.txt" || { say "tune: no '$line' in the state"; exit 1; }
done
updates="$(cat "$work/tune/logs/pao-tune-${ids[0]}"_*.out | grep -c '^tune: iteration [1-6] of 6 ')"
[ "$updates" = 6 ] || { say "tune: $updates updates in the logs, not 6"; exit 1; }
say "tune: 2 tasks (array job ${ids[0]}) on one state: $(grep '^wdl ' "$work/tune/state.txt")"
say "passed"
