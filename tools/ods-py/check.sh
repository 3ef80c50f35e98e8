#!/usr/bin/env bash
# Checks that format/data/ods-layouts-{23,24}.json regenerate from the Python
# op classes of jaxlib 0.10.2 (MLIR23.0.0git) and iree-base-compiler 3.13.0
# (MLIR24.0.0git) in .venv-clients (tools/ods-py/gen.py), and that
# dialects/data/ods-layouts-iree-b48a5955.json regenerates from IREE
# b48a5955's ODS (../shared/third-party/iree, tools/ods-json) reconciled
# with IREE 3.13's classes. MLIR 23's and 24's layouts also take the
# attributes tools/ods-py/probed-{23,24}.json list, checked against jaxlib
# and IREE first (tools/ods-py/probe.py). Needs llvm-tblgen-22 and
# libmlir-22-dev too.
set -euo pipefail
cd "$(dirname "$0")/../.."
site=$(.venv-clients/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
.venv-clients/bin/python tools/ods-py/probe.py jax tools/ods-py/probed-23.json
python3 tools/ods-py/gen.py --probed tools/ods-py/probed-23.json 23.0.0git \
  "$site/jaxlib/mlir/dialects" "$tmp/23.json" > /dev/null
.venv-clients/bin/python tools/ods-py/probe.py iree tools/ods-py/probed-24.json
python3 tools/ods-py/gen.py --probed tools/ods-py/probed-24.json 24.0.0git \
  "$site/iree/compiler/dialects" "$tmp/24.json" > /dev/null
cmp "$tmp/23.json" format/data/ods-layouts-23.json
cmp "$tmp/24.json" format/data/ods-layouts-24.json
echo "ods-py: format/data/ods-layouts-23.json and -24.json regenerate identically"

# IREE's dialects (LinalgExt's .td does not dump on its own: its implicit
# terminator class is defined elsewhere).
T="${RMLIR_THIRD_PARTY:-../shared/third-party}"
I="$T/iree/b48a5955/compiler/src"
tds=()
for td in Dialect/Util/IR/UtilOps.td Dialect/Flow/IR/FlowOps.td Dialect/Stream/IR/StreamOps.td \
    Dialect/HAL/IR/HALOps.td Dialect/VM/IR/VMOps.td Dialect/TensorExt/IR/TensorExtOps.td \
    Dialect/Encoding/IR/EncodingOps.td Codegen/Dialect/Codegen/IR/IREECodegenOps.td \
    Codegen/Dialect/Codegen/IR/UKernelOps.td Codegen/Dialect/GPU/IR/IREEGPUOps.td \
    Dialect/VMVX/IR/VMVXOps.td Modules/HAL/Inline/IR/HALInlineOps.td \
    Modules/HAL/Loader/IR/HALLoaderOps.td Modules/IO/Parameters/IR/IOParametersOps.td \
    Codegen/Dialect/VectorExt/IR/VectorExtOps.td Codegen/Dialect/PCF/IR/PCFOps.td \
    Modules/Check/IR/CheckOps.td; do
  tds+=("$I/iree/compiler/$td")
done
python3 tools/ods-json/gen_layouts_json.py --quiet -I "$I" "${tds[@]}" \
  --mlir-release "iree-b48a5955 / mlir-22.1.8" --out "$tmp/iree-ods.json"
python3 tools/ods-py/gen.py --base "$tmp/iree-ods.json" "iree-b48a5955 / iree-base-compiler-3.13.0" \
  "$site/iree/compiler/dialects" "$tmp/iree.json" > /dev/null
cmp "$tmp/iree.json" dialects/data/ods-layouts-iree-b48a5955.json
echo "ods-py: dialects/data/ods-layouts-iree-b48a5955.json regenerates identically"
