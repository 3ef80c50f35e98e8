#!/usr/bin/env bash
# Checks rmlir_dialects::hosts against the tools: the dialects jaxlib's and
# IREE's MLIR contexts register. Needs RMLIR_JAXLIB_PYTHON and
# RMLIR_IREE_PYTHON (.ci/run sets both).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$here/../.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# Candidates: every dialect prefix of our layout files, mlir-opt's list,
# and the names IREE's ODS declares.
python3 - "$repo" > "$tmp/candidates" <<'PY'
import glob, json, re, sys
repo = sys.argv[1]
names = set()
for f in glob.glob(f"{repo}/format/data/ods-layouts-*.json") + glob.glob(f"{repo}/dialects/data/ods-layouts-*.json"):
    d = json.load(open(f))
    for op in d["ops"] if isinstance(d, dict) else d:
        names.add(op["name"].split(".")[0])
src = open(f"{repo}/dialects/src/hosts.rs").read()
names.update(re.findall(r'"([a-z_][a-z_0-9]*)"', src))
for f in glob.glob(f"{repo}/../shared/third-party/iree/**/*.td", recursive=True):
    names.update(re.findall(r'let name = "([a-z_][a-z_0-9]*)"', open(f, errors="replace").read()))
print("\n".join(sorted(names)))
PY
extract() { # the list named $1 in hosts.rs
    python3 - "$repo/dialects/src/hosts.rs" "$1" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
i = src.index(f"const {sys.argv[2]}: &[&str] = &[")
body = src[i:src.index("];", i)]
print("\n".join(re.findall(r'"([^"]+)"', body.split("=", 1)[1])))
PY
}
status=0
for pair in "jaxlib:JAXLIB_DIALECTS:${RMLIR_JAXLIB_PYTHON:?RMLIR_JAXLIB_PYTHON is not set}" \
            "iree:IREE_DIALECTS:${RMLIR_IREE_PYTHON:?RMLIR_IREE_PYTHON is not set}"; do
    IFS=: read -r tool list py <<<"$pair"
    "$py" "$here/registered_dialects.py" "$tool" "$tmp/candidates" > "$tmp/$tool.tool"
    extract "$list" > "$tmp/$tool.ours"
    if ! diff -u "$tmp/$tool.ours" "$tmp/$tool.tool"; then
        echo "tools/hosts/check.sh: $list in dialects/src/hosts.rs differs from what $tool registers" >&2
        status=1
    fi
done
exit $status
