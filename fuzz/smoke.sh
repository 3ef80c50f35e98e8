#!/usr/bin/env bash
# CI smoke run of every fuzz target: builds them once, seeds a small corpus
# (every 20th corpus file, SEED_STRIDE) and runs each for $FUZZ_SECONDS
# (default 20) seconds with libFuzzer seed $FUZZ_SEED (default 1). libFuzzer exits non-zero on any crash, timeout or
# out-of-memory, and so does this script. Stable Rust: RUSTC_BOOTSTRAP=1.
set -euo pipefail
cd "$(dirname "$0")"
secs="${FUZZ_SECONDS:-20}"
# A fixed libFuzzer seed keeps CI reproducible (the smoke run checks that
# the targets build and run; finding bugs is the long runs' job).
seed="${FUZZ_SEED:-1}"
export RUSTC_BOOTSTRAP=1
targets=(text_parser custom_form bytecode_eager bytecode_lazy verify text_roundtrip structured amplification declared_dialect)
opts=(--sanitizer none --release --debug-assertions)
cargo fuzz build "${opts[@]}"
SEED_STRIDE="${SEED_STRIDE:-20}" CORPUS_OUT="$PWD/target/smoke-corpus" bash seed.sh >/dev/null
for t in "${targets[@]}"; do
  echo "== fuzz smoke: $t (${secs}s)"
  mkdir -p "target/smoke-artifacts/$t"
  log="target/smoke-artifacts/$t.log"
  status=0
  # FUZZ_SECONDS=0 (CI's default) replays the seed corpus only, which is
  # deterministic; more seconds fuzz with mutations (finds new bugs, so it
  # may fail on any run).
  if [[ $secs -eq 0 ]]; then mode=(-runs=0); else mode=(-max_total_time="$secs"); fi
  cargo fuzz run "${opts[@]}" "$t" "target/smoke-corpus/$t" -- -max_len=16384 -seed="$seed" \
    "${mode[@]}" -rss_limit_mb=2048 -timeout=20 \
    -artifact_prefix="target/smoke-artifacts/$t/" -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E '(INITED|DONE) |stat::(number_of_executed_units|average_exec_per_sec)|ERROR|panicked|Test unit written' "$log" || true
  if [[ $status -ne 0 ]]; then
    tail -n 60 "$log" >&2
    echo "fuzz smoke: $t FAILED (exit $status; log $log)" >&2
    exit 1
  fi
done
echo "fuzz smoke: all targets ran (${secs}s of mutation each; 0 = seed replay) without a crash"
