#!/usr/bin/env bash
# Measures the zstd wrapper (rmlir-bc --compress zstd, SPEC.md §8.2) on a
# large generated module: text -> bytecode -> bytecode in a zstd frame,
# sizes and ratios printed. The corpus figure is the test
# cli/tests/zstd_ratio.rs (cargo test -p rmlir-bc --test zstd_ratio -- --nocapture).
#
# usage: tools/zstd-ratio.sh [MIB] [extra gen_large.py args...]
set -euo pipefail
cd "$(dirname "$0")/.."
mib=${1:-50}; shift || true
shared=../shared
cargo build -q --release -p rmlir-bc
bin=target/release/rmlir-bc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$shared/tools/gen_large.py" --target-mib "$mib" --seed 1 "$@" -o "$tmp/m.mlir"
"$bin" encode "$tmp/m.mlir" -o "$tmp/m.mlirbc"
"$bin" encode "$tmp/m.mlirbc" --compress zstd -o "$tmp/m.mlirbc.zst"
"$bin" verify -q "$tmp/m.mlirbc.zst"
t=$(stat -c %s "$tmp/m.mlir"); b=$(stat -c %s "$tmp/m.mlirbc"); z=$(stat -c %s "$tmp/m.mlirbc.zst")
python3 - "$t" "$b" "$z" "$mib" "$*" <<'PY'
import sys
t, b, z = map(int, sys.argv[1:4])
print(f"gen_large.py --target-mib {sys.argv[4]} --seed 1 {sys.argv[5]}".rstrip())
print(f"  text     {t:>12,} bytes")
print(f"  bytecode {b:>12,} bytes ({b / t:.1%} of text)")
print(f"  zstd     {z:>12,} bytes ({z / b:.1%} of bytecode, ratio {b / z:.2f}; {z / t:.1%} of text)")
PY
