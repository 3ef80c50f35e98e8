#!/usr/bin/env bash
# Checks that the op layout data is what its generator makes from its
# sources: MLIR 22's upstream layouts (compare.py, field by field against
# format/data/ods-layouts-22.json) and the out-of-tree files regenerated
# from ../shared/third-party, byte for byte. Needs llvm-tblgen-22 (llvm-22)
# and libmlir-22-dev. Run from anywhere; exits non-zero on any difference.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
T="${RMLIR_THIRD_PARTY:-../shared/third-party}"
[[ -d $T/stablehlo ]] || { echo "check.sh: no third-party sources at $T" >&2; exit 1; }
python3 tools/ods-json/compare.py
# The ops' custom assembly formats (SPEC.md §11) regenerate identically.
fmt_tmp="$(mktemp)"
python3 tools/ods-json/gen_formats_json.py --upstream-tree /usr/lib/llvm-22/include \
  --out "$fmt_tmp" 2>/dev/null
cmp "$fmt_tmp" format/data/op-formats-22.json \
  || { echo "check.sh: format/data/op-formats-22.json differs from its regeneration" >&2; rm -f "$fmt_tmp"; exit 1; }
rm -f "$fmt_tmp"
echo "check.sh: format/data/op-formats-22.json regenerates identically"
# MLIR 19's operand groups (SPEC.md §7.2) regenerate identically from
# libmlir-19-dev's .td files: unpacked, not installed, as it conflicts with
# libmlir-22-dev (RMLIR_MLIR19_INCLUDE names a tree unpacked beforehand).
m19="${RMLIR_MLIR19_INCLUDE:-}"
if [[ -z $m19 ]]; then
  m19dir="${TMPDIR:-/tmp}/rmlir-libmlir-19-dev"
  if [[ ! -d $m19dir/usr/lib/llvm-19/include/mlir ]]; then
    rm -rf "$m19dir" && mkdir -p "$m19dir"
    (cd "$m19dir" && { apt-get download -qq libmlir-19-dev 2>/dev/null \
        || { apt-get update -qq && apt-get download -qq libmlir-19-dev; }; } \
      && dpkg -x libmlir-19-dev_*.deb .) \
      || { echo "check.sh: could not fetch and unpack libmlir-19-dev (apt-get download)" >&2; exit 1; }
  fi
  m19="$m19dir/usr/lib/llvm-19/include"
fi
og_tmp="$(mktemp)"
python3 tools/ods-json/gen_formats_json.py --upstream-tree "$m19" --mlir-release 19.1.7 \
  --operand-groups --out "$og_tmp" 2>/dev/null
cmp "$og_tmp" format/data/operand-groups-19.json \
  || { echo "check.sh: format/data/operand-groups-19.json differs from its regeneration" >&2; rm -f "$og_tmp"; exit 1; }
rm -f "$og_tmp"
echo "check.sh: format/data/operand-groups-19.json regenerates identically"
# linalg's OpDSL ops (bodies and memoized maps) regenerate identically.
dsl_tmp="$(mktemp)"
python3 tools/ods-json/gen_linalg_opdsl.py --upstream-tree /usr/lib/llvm-22/include \
  --out "$dsl_tmp" 2>/dev/null
cmp "$dsl_tmp" format/data/linalg-opdsl-22.json \
  || { echo "check.sh: format/data/linalg-opdsl-22.json differs from its regeneration" >&2; rm -f "$dsl_tmp"; exit 1; }
rm -f "$dsl_tmp"
echo "check.sh: format/data/linalg-opdsl-22.json regenerates identically"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
G=tools/ods-json/gen_layouts_json.py
for v in 1.16.4 1.20.0; do
  S=$T/stablehlo/v$v
  python3 $G --quiet -I "$S" -I "$S/stablehlo/dialect" "$S/stablehlo/dialect/VhloOps.td" \
    "$S/stablehlo/dialect/StablehloOps.td" "$S/stablehlo/dialect/ChloOps.td" \
    --mlir-release "stablehlo-$v / mlir-22.1.8" --out "$tmp/ods-layouts-stablehlo-$v.json"
done
python3 $G --quiet -I "$T/shardy/a0277a83" "$T/shardy/a0277a83/shardy/dialect/sdy/ir/ops.td" \
  --mlir-release "shardy-a0277a83 / mlir-22.1.8" --out "$tmp/ods-layouts-sdy.json"
S=$T/stablehlo/v1.20.0
python3 tools/ods-json/gen_formats_json.py -I "$S" -I "$S/stablehlo/dialect" \
  "$S/stablehlo/dialect/StablehloOps.td" "$S/stablehlo/dialect/ChloOps.td" \
  --mlir-release "stablehlo-1.20.0 / mlir-22.1.8" --out "$tmp/op-formats-stablehlo-1.20.0.json" 2>/dev/null
for f in ods-layouts-stablehlo-1.16.4.json ods-layouts-stablehlo-1.20.0.json ods-layouts-sdy.json \
    op-formats-stablehlo-1.20.0.json; do
  cmp "$tmp/$f" "dialects/data/$f" || { echo "check.sh: dialects/data/$f differs from its regeneration" >&2; exit 1; }
  echo "check.sh: dialects/data/$f regenerates identically"
done
