#!/usr/bin/env bash
# The whole test suite from a fresh checkout (README: Quick start): installs
# what the tests need (tools/test-deps.sh: mlir-opt 22 and 19 from Debian's
# packages, jax/jaxlib 0.10.2 and iree-base-compiler 3.13.0 in .venv-clients),
# or says exactly what is missing, then runs `cargo test --workspace` with
# the oracles' environment. Extra arguments go to cargo test.
#
# The tests read `$RMLIR_CORPUS` if set, else `../shared/corpus` beside the
# checkout if it exists, else the sample bundled in tests/corpus-sample.
# Already set RMLIR_MLIR_OPT / RMLIR_MLIR_OPT_19 / RMLIR_JAXLIB_PYTHON /
# RMLIR_IREE_PYTHON are used as they are, and nothing is installed for them.
set -euo pipefail
cd "$(dirname "$0")/.."
TEST_DEPS_WHO=tools/test.sh
source tools/test-deps.sh

command -v cargo >/dev/null || test_deps_fail "cargo is missing (install a Rust toolchain, 1.85 or newer)"
command -v python3 >/dev/null || test_deps_fail "python3 is missing (the tests run Python generators and oracles)"

[[ -n ${RMLIR_MLIR_OPT:-} ]] || { test_deps_mlir_opt 22; export RMLIR_MLIR_OPT=/usr/lib/llvm-22/bin/mlir-opt; }
[[ -n ${RMLIR_MLIR_OPT_19:-} ]] || { test_deps_mlir_opt 19; export RMLIR_MLIR_OPT_19=/usr/lib/llvm-19/bin/mlir-opt; }
# The MLIR 19 op sweep needs the full corpus (on the sample it says so and
# returns), and then MLIR 19's unverified writer.
if [[ -z ${RMLIR_UNVERIFIED19:-} && ( -n ${RMLIR_CORPUS:-} || -d ../shared/corpus ) ]]; then
    test_deps_unverified19
fi
if [[ -z ${RMLIR_JAXLIB_PYTHON:-} || -z ${RMLIR_IREE_PYTHON:-} ]]; then
    test_deps_venv .venv-clients
    py="$PWD/.venv-clients/bin/python"
    export RMLIR_JAXLIB_PYTHON="${RMLIR_JAXLIB_PYTHON:-$py}" RMLIR_IREE_PYTHON="${RMLIR_IREE_PYTHON:-$py}"
fi

if [[ -n ${RMLIR_CORPUS:-} ]]; then
    echo "corpus: $RMLIR_CORPUS"
elif [[ -d ../shared/corpus ]]; then
    echo "corpus: ../shared/corpus (full)"
else
    echo "corpus: tests/corpus-sample/corpus (the bundled sample; set RMLIR_CORPUS for the full corpus)"
fi
echo "== cargo test --workspace $*"
exec cargo test --workspace "$@"
