# Installs what the test suite needs, or says exactly what is missing.
# Sourced by tools/test.sh (README: the whole test suite) and .ci/run; needs
# nothing outside the checkout.
#
# Debian 12 (bookworm) has every package: mlir-22-tools, libmlir-22-dev and
# llvm-22 in bookworm-security, mlir-19-tools in bookworm main (no LLVM apt
# repository needed). Elsewhere, install the same releases by other means and
# point RMLIR_MLIR_OPT / RMLIR_MLIR_OPT_19 at them.
#
#   test_deps_mlir_opt N [--dev]   mlir-opt N in /usr/lib/llvm-N/bin (mlir-N-tools),
#                                  with --dev also its ODS files (libmlir-N-dev)
#   test_deps_apt PKG...           Debian packages, as root or through sudo
#   test_deps_venv DIR             a venv at DIR with jax==0.10.2, jaxlib==0.10.2
#                                  and iree-base-compiler==3.13.0
#   test_deps_export DIR           exports RMLIR_MLIR_OPT, RMLIR_MLIR_OPT_19,
#                                  RMLIR_JAXLIB_PYTHON and RMLIR_IREE_PYTHON (DIR: the venv)
# Any failure exits through test_deps_fail, naming what is missing.

TEST_DEPS_WHO="${TEST_DEPS_WHO:-test-deps}"

test_deps_fail() {
    echo "$TEST_DEPS_WHO FATAL: $*" >&2
    exit 1
}

test_deps_apt() {
    local sudo=""
    command -v apt-get >/dev/null \
        || test_deps_fail "apt-get is not available: install $* (Debian 12 package names) by other means"
    if [[ $(id -u) -ne 0 ]]; then
        command -v sudo >/dev/null || test_deps_fail "installing $* needs root or sudo"
        sudo=sudo
    fi
    $sudo apt-get update -qq || test_deps_fail "apt-get update failed (needed for $*)"
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null \
        || test_deps_fail "could not install $* with apt-get"
}

test_deps_mlir_opt() {
    local r=$1 dev=${2:-} need=()
    local bin=/usr/lib/llvm-$r/bin/mlir-opt
    "$bin" --version >/dev/null 2>&1 || need+=("mlir-$r-tools")
    if [[ $dev == --dev && ! -d /usr/lib/llvm-$r/include/mlir/Dialect ]]; then
        need+=("libmlir-$r-dev")
    fi
    if ((${#need[@]})); then
        test_deps_apt "${need[@]}"
    fi
    [[ -x $bin ]] || test_deps_fail "$bin is missing after installing mlir-$r-tools"
    "$bin" --version | grep -q "LLVM version $r\." || test_deps_fail "$bin is not mlir-opt $r"
    if [[ $dev == --dev ]]; then
        [[ -d /usr/lib/llvm-$r/include/mlir/Dialect ]] || test_deps_fail "libmlir-$r-dev's ODS files are missing"
    fi
    echo "mlir-opt $r: $bin"
}

# unverified19 (tools/op-sweep/unverified19.cpp), MLIR 19's parser and
# writer without its verifier, for the MLIR 19 op sweep: built once into
# the cargo target directory's op-sweep/ from Debian's MLIR 19 packages.
test_deps_unverified19() {
    command -v g++ >/dev/null || test_deps_apt g++
    command -v g++ >/dev/null || test_deps_fail "g++ is missing after installing it"
    RMLIR_UNVERIFIED19=$(bash tools/op-sweep/build_unverified19.sh "${CARGO_TARGET_DIR:-$PWD/target}/op-sweep") \
        || test_deps_fail "could not build tools/op-sweep/unverified19 (tools/op-sweep/build_unverified19.sh)"
    export RMLIR_UNVERIFIED19
    echo "unverified19: $RMLIR_UNVERIFIED19"
}

test_deps_venv() {
    local dir=$1
    command -v python3 >/dev/null || test_deps_fail "python3 is missing (needed for the jaxlib and IREE oracles)"
    if [[ ! -x $dir/bin/python ]]; then
        python3 -m venv "$dir" || test_deps_fail "could not create $dir (python3 -m venv; Debian: python3-venv)"
    fi
    # jaxlib is the oracle of tests/tests/vhlo_jaxlib.rs (StableHLO portable artifacts).
    "$dir/bin/python" -c 'import jax, jaxlib; assert jax.__version__ == "0.10.2" and jaxlib.__version__ == "0.10.2"' 2>/dev/null \
        || "$dir/bin/pip" install -q --disable-pip-version-check jax==0.10.2 jaxlib==0.10.2 \
        || test_deps_fail "could not install jax==0.10.2 jaxlib==0.10.2 into $dir"
    "$dir/bin/python" -c 'import jax, jaxlib; assert jax.__version__ == "0.10.2" and jaxlib.__version__ == "0.10.2"' \
        || test_deps_fail "jax/jaxlib 0.10.2 are not importable from $dir"
    # IREE's MLIR (producer MLIR24.0.0git) is the oracle of
    # tests/tests/newer_builtins.rs (builtin encodings added after MLIR 22).
    "$dir/bin/python" -c 'import importlib.metadata as m; assert m.version("iree-base-compiler") == "3.13.0"' 2>/dev/null \
        || "$dir/bin/pip" install -q --disable-pip-version-check iree-base-compiler==3.13.0 \
        || test_deps_fail "could not install iree-base-compiler==3.13.0 into $dir"
    "$dir/bin/python" -c 'from iree.compiler import ir' \
        || test_deps_fail "iree-base-compiler 3.13.0 is not importable from $dir"
    echo "jax, jaxlib 0.10.2 and iree-base-compiler 3.13.0: $dir"
}

test_deps_export() {
    local dir
    dir=$(cd "$1" && pwd)
    export RMLIR_MLIR_OPT=/usr/lib/llvm-22/bin/mlir-opt
    export RMLIR_MLIR_OPT_19=/usr/lib/llvm-19/bin/mlir-opt
    export RMLIR_JAXLIB_PYTHON="$dir/bin/python"
    export RMLIR_IREE_PYTHON="$dir/bin/python"
}
