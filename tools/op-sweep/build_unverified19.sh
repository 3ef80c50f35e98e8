#!/usr/bin/env bash
# Builds unverified19 (unverified19.cpp) into the directory given (default:
# the cargo target directory's op-sweep/) and prints the binary's path.
#
# MLIR 19's headers and libMLIR come from Debian's libmlir-19, libmlir-19-dev
# and llvm-19-dev packages, downloaded and unpacked into that directory
# rather than installed: libmlir-19-dev conflicts with libmlir-22-dev, and
# installing it removes mlir-opt 22. libLLVM 19 is mlir-opt 19's own
# (Debian's libllvm19, which mlir-19-tools brings). Needs g++ and apt-get.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${CARGO_TARGET_DIR:-$here/../../target}/op-sweep}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root="$out/mlir-19-root"
lib="$root/usr/lib/llvm-19/lib"
llvm_so=/usr/lib/x86_64-linux-gnu/libLLVM.so.19.1
[ -e "$llvm_so" ] || { echo "build_unverified19.sh: missing $llvm_so (apt-get install mlir-19-tools)" >&2; exit 1; }
if [ ! -e "$root/.unpacked" ]; then
  rm -rf "$out/debs" "$root"
  mkdir -p "$out/debs" "$root"
  pkgs=(libmlir-19 libmlir-19-dev llvm-19-dev)
  # apt-get download needs the package lists; on a fresh machine they may be
  # missing or stale, so it retries once after an update (as root).
  (cd "$out/debs" && apt-get download -qq "${pkgs[@]}" 2>/dev/null) \
    || { [ "$(id -u)" -eq 0 ] && apt-get update -qq && (cd "$out/debs" && apt-get download -qq "${pkgs[@]}" 2>/dev/null); } \
    || { echo "build_unverified19.sh: apt-get download ${pkgs[*]} failed" >&2; exit 1; }
  for deb in "$out"/debs/*.deb; do dpkg -x "$deb" "$root"; done
  find "$root" -name "*.a" -delete  # static libraries: only the headers and libMLIR are used
  rm -rf "$out/debs"
  touch "$root/.unpacked"
fi
bin="$out/unverified19"
if [ ! -x "$bin" ] || [ "$here/unverified19.cpp" -nt "$bin" ]; then
  g++ -std=c++17 -O1 -fno-exceptions -fno-rtti -w -I"$root/usr/lib/llvm-19/include" \
    "$here/unverified19.cpp" -o "$bin.tmp" \
    "$lib/libMLIR.so.19.1" "$llvm_so" -Wl,-rpath,"$lib"
  mv "$bin.tmp" "$bin"
fi
echo "$bin"
