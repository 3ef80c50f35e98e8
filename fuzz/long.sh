#!/usr/bin/env bash
# A long fuzzing run of one target, measured in CPU time rather than wall
# time (the machine is shared: a wall-clock budget under load gives less
# fuzzing than it says). Runs the target in chunks of $CHUNK_SECONDS
# (default 300) wall seconds on fuzz/corpus/<target> (fill it first with
# seed.sh) until the chunks' user + system CPU reaches $CPU_SECONDS
# (default 1800, i.e. 30 CPU-minutes). Prints one line per chunk and a
# total; stops at the first crash, timeout or out-of-memory (exit 1, the
# input is in fuzz/artifacts/<target>/).
#
#   bash fuzz/long.sh bytecode_eager            # 30 CPU-minutes
#   CPU_SECONDS=3600 bash fuzz/long.sh structured
set -euo pipefail
cd "$(dirname "$0")"
# With the kernel's autogroup scheduling (sched_autogroup_enabled), `nice`
# only ranks processes within one session: a run started with `setsid`
# took a full core from a benchmark in another session however niced it
# was. Lower this session's group too, where the kernel lets us.
if [[ -w /proc/self/autogroup ]]; then echo 19 >/proc/self/autogroup 2>/dev/null || true; fi
t="${1:?usage: long.sh <target>}"
want="${CPU_SECONDS:-1800}"
chunk="${CHUNK_SECONDS:-300}"
export RUSTC_BOOTSTRAP=1
opts=(--sanitizer none --release --debug-assertions)
[[ -d corpus/$t ]] || { echo "long.sh: no corpus/$t (run seed.sh first)" >&2; exit 1; }
cargo fuzz build "${opts[@]}" "$t"
mkdir -p "artifacts/$t" logs
cpu=0 execs=0 n=0
while awk -v c="$cpu" -v w="$want" 'BEGIN { exit !(c < w) }'; do
  n=$((n + 1))
  log="logs/$t.$n.log"
  timef="logs/$t.$n.time"
  status=0
  /usr/bin/time -f '%U %S' -o "$timef" \
    cargo fuzz run "${opts[@]}" "$t" "corpus/$t" -- -max_total_time="$chunk" \
      -rss_limit_mb=2048 -timeout=20 -seed="$n" \
      -artifact_prefix="artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  used=$(awk '{ print $1 + $2 }' "$timef" | tail -n 1)
  cpu=$(awk -v a="$cpu" -v b="$used" 'BEGIN { print a + b }')
  units=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
  execs=$((execs + units))
  done_line=$(grep -E '#[0-9]+[[:space:]]+DONE' "$log" | tail -n 1 | sed -E 's/^#[0-9]+[[:space:]]+DONE +//' || true)
  rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "$log" | grep -Eo '[0-9]+$' || echo 0)
  printf '%s chunk %d: %.0f CPU-s (total %.0f), %s execs, %s exec/s, %s\n' \
    "$t" "$n" "$used" "$cpu" "$units" "$rate" "${done_line:-no DONE line}"
  if [[ $status -ne 0 ]]; then
    grep -E 'ERROR|panicked|Test unit written' "$log" >&2 || true
    echo "long.sh: $t FAILED in chunk $n (exit $status; log fuzz/$log)" >&2
    exit 1
  fi
done
printf '%s total: %.0f CPU-s, %d execs, %.0f exec/CPU-s, corpus %d files\n' \
  "$t" "$cpu" "$execs" "$(awk -v e="$execs" -v c="$cpu" 'BEGIN { print e / c }')" \
  "$(find "corpus/$t" -type f | wc -l)"
