#!/usr/bin/env bash
# Builds the seed corpora of the fuzz targets from ../shared/corpus (or
# $RMLIR_CORPUS) into fuzz/corpus/<target>/ (git-ignored):
#   text_parser, text_roundtrip   every case's generic.mlir
#   custom_form                   every case's input.mlir and pretty.mlir
#                                 (text in the custom form), and the custom-
#                                 form fixtures of tests/fixtures/custom-form
#                                 and tests/fixtures/stablehlo
#   bytecode_eager, bytecode_lazy,
#   verify                        every case's v6.mlirbc, the real-client
#                                 modules, upstream's own .mlirbc tests,
#                                 StableHLO's compatibility artifacts (VHLO)
#                                 and fuzz/seeds/bytecode (newer builtins)
#   declared_dialect              fuzz/seeds/declared, the toy dialect's
#                                 encodings file and every 4th bytecode seed
#   structured                    32 deterministic pseudo-random 4 KiB inputs
#                                 (its input drives a generator)
#   amplification                 every 8th text and bytecode seed, attribute,
#                                 type and location DAGs (text), zstd frames
#                                 (hand-made RLE frames of zeros and of a
#                                 corpus file)
# Files larger than $SEED_MAX_BYTES (default 65536) are left out: big seeds
# slow every execution. SEED_STRIDE=N keeps every Nth case only (the CI
# smoke run uses 20); CORPUS_OUT changes the output folder. Idempotent:
# existing corpora are added to.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${RMLIR_CORPUS:-$here/../../shared/corpus}"
max="${SEED_MAX_BYTES:-65536}"
[[ -d $corpus/cases ]] || { echo "seed.sh: no corpus at $corpus/cases" >&2; exit 1; }
out="${CORPUS_OUT:-$here/corpus}"
stride="${SEED_STRIDE:-1}"
mkdir -p "$out"/{text_parser,text_roundtrip,custom_form,bytecode_eager,bytecode_lazy,verify,structured,amplification,declared_dialect}

copy() { # copy SRC NAME DIR...
  local src=$1 name=$2; shift 2
  [[ -f $src ]] || return 0
  (( $(stat -c %s "$src") <= max )) || return 0
  for d in "$@"; do cp "$src" "$out/$d/$name"; done
}

n_text=0 n_bc=0 i=0
for c in "$corpus"/cases/* "$corpus"/real-client/cases/*; do
  i=$((i+1)); (( (i - 1) % stride == 0 )) || continue
  id=$(basename "$c")
  amp=(); (( (i - 1) % (stride * 8) == 0 )) && amp=(amplification)
  if [[ -f $c/generic.mlir ]]; then copy "$c/generic.mlir" "$id.mlir" text_parser text_roundtrip "${amp[@]}"; n_text=$((n_text+1)); fi
  copy "$c/input.mlir" "$id.input.mlir" custom_form
  copy "$c/pretty.mlir" "$id.pretty.mlir" custom_form
  if [[ -f $c/v6.mlirbc ]]; then copy "$c/v6.mlirbc" "$id.mlirbc" bytecode_eager bytecode_lazy verify "${amp[@]}"; n_bc=$((n_bc+1)); fi
done
if [[ -d $corpus/upstream-bytecode ]]; then
  while IFS= read -r -d '' f; do
    copy "$f" "upstream-$(basename "$f")" bytecode_eager bytecode_lazy verify
    n_bc=$((n_bc+1))
  done < <(find "$corpus/upstream-bytecode" -name '*.mlirbc' -print0 | sort -z)
fi
# StableHLO's compatibility artifacts: VHLO bytecode of every release.
for f in "$corpus"/../third-party/stablehlo/compat-artifacts/*.mlir.bc; do
  [[ -f $f ]] || continue
  i=$((i+1)); (( (i - 1) % stride == 0 )) || continue
  copy "$f" "vhlo-$(basename "$f")" bytecode_eager bytecode_lazy verify
  n_bc=$((n_bc+1))
done
# The custom-form fixtures of the tests (upstream dialects and StableHLO's).
for f in "$here"/../tests/fixtures/custom-form/*.mlir "$here"/../tests/fixtures/stablehlo/*.mlir; do
  [[ -f $f ]] && copy "$f" "fixture-$(basename "$f")" custom_form
done
# Seeds kept with the project (fuzz/seeds/README.md).
for f in "$here"/seeds/bytecode/*.mlirbc; do
  [[ -f $f ]] || continue
  copy "$f" "seed-$(basename "$f")" bytecode_eager bytecode_lazy verify
  n_bc=$((n_bc+1))
done
# The toy dialect loaded from its declared encodings: its own file, its
# encodings file, and every 4th bytecode seed (toy not registered there).
for f in "$here"/seeds/declared/*.mlirbc "$here"/../tests/fixtures/byo/toy-encodings.json; do
  [[ -f $f ]] && copy "$f" "seed-$(basename "$f")" declared_dialect
done
k=0
for f in "$out"/bytecode_eager/*; do
  k=$((k+1)); (( k % 4 == 0 )) && cp "$f" "$out/declared_dialect/"
done
python3 - "$out/structured" <<'PY'
import random, sys
for i in range(32):
    r = random.Random(i)
    with open(f"{sys.argv[1]}/random-{i:02}", "wb") as f:
        f.write(bytes(r.getrandbits(8) for _ in range(4096)))
PY
python3 - "$out/amplification" "$(ls "$out"/bytecode_eager/*.mlirbc 2>/dev/null | head -n 1)" <<'PY'
import struct, sys
out, sample = sys.argv[1], sys.argv[2]
module = '"builtin.module"() ({\n  "test.op"() %s\n}) : () -> ()\n'
def dag(name, depth, define, leaf, use):
    lines = [leaf] + [define(i, i + 1) for i in reversed(range(depth))]
    with open(f"{out}/{name}-{depth}.mlir", "w") as f:
        f.write("\n".join(lines) + "\n" + module % use)
for depth in (4, 12, 24):
    dag("attr-dag", depth, lambda i, n: f"#a{i} = [#a{n}, #a{n}]", f'#a{depth} = "x"', "{a = #a0} : () -> ()")
    dag("type-dag", depth, lambda i, n: f"!t{i} = tuple<!t{n}, !t{n}>", f"!t{depth} = i32", ": () -> !t0")
    dag("loc-dag", depth, lambda i, n: f"#l{i} = loc(callsite(#l{n} at #l{n}))", f'#l{depth} = loc("f":1:2)', ": () -> () loc(#l0)")
def frame(prefix, zeros):
    # One zstd frame: a raw block holding `prefix`, then RLE blocks of zeros.
    f = bytearray(b"\x28\xb5\x2f\xfd\x00" + bytes([7 << 3]))
    def block(last, kind, size):
        f.extend(struct.pack("<I", size << 3 | kind << 1 | last)[:3])
    block(int(zeros == 0), 0, len(prefix)); f.extend(prefix)
    while zeros:
        n = min(zeros, 128 << 10); zeros -= n
        block(int(zeros == 0), 1, n); f.append(0)
    return bytes(f)
with open(f"{out}/zstd-magic-zeros", "wb") as f:
    f.write(frame(b"ML\xefR", 1 << 24))
with open(f"{out}/zstd-text-zeros", "wb") as f:
    f.write(frame(b"// ", 1 << 20))
if sample:
    with open(f"{out}/zstd-sample", "wb") as f:
        f.write(frame(open(sample, "rb").read(), 0))
PY
for d in "$out"/*/; do
  echo "seed.sh: $(ls "$d" | wc -l) seeds in $d"
done
echo "seed.sh: from $n_text text cases and $n_bc bytecode files (max $max bytes each)"
