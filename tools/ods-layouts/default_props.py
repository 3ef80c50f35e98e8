#!/usr/bin/env python3
"""Add each op's default properties to a layout JSON made by gen_layouts.py.

When MLIR creates a registered op, its property storage starts from the
op's defaults (`populateDefaultProperties`, default-valued and
zero-initialised properties); the properties written in the input then
override entries one by one. So an op parsed without `<{...}>` prints with
its defaults, e.g. `arith.trunci` gains `overflowFlags = #arith.overflow<none>`.
The values are C++ expressions in the generated code, so instead of
evaluating C++ we ask the oracle: every op with properties is created
empty (`"name"() : () -> ()`, verifier off) and printed generically in
local scope; what it prints inside `<{...}>` is that op's default
dictionary, stored as `default_properties` (the text of a dictionary
attribute). Segment-size arrays are left out: they follow the operand
count, and an op without them is invalid input anyway.

Usage:
  python3 tools/ods-layouts/default_props.py format/data/ods-layouts-22.json \
      [--mlir-opt /usr/lib/llvm-22/bin/mlir-opt]

The file is rewritten in place (same deterministic layout); a rerun is
byte-identical. Fails loudly if mlir-opt fails or prints something the
script does not understand.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_layouts import dump  # noqa: E402
from mlir_text import split_top_level  # noqa: E402

SEGMENT_KEYS = {"operandSegmentSizes", "resultSegmentSizes"}


UNSAFE_FLAG = "--mlir-very-unsafe-disable-verifier-on-parsing"


def has_unsafe_flag(mlir_opt):
    """mlir-opt 20+ can parse without verifying; 19 cannot."""
    out = subprocess.run([mlir_opt, "--help-hidden"], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("default_props: %s --help-hidden failed:\n%s" % (mlir_opt, out.stderr))
    return UNSAFE_FLAG in out.stdout


def print_unverified(mlir_opt, names):
    """Every op created empty, verifier off, printed generically: {name: line}."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as fh:
        for n in names:
            fh.write('"%s"() : () -> ()\n' % n)
        src = fh.name
    try:
        out = subprocess.run(
            [mlir_opt, "--allow-unregistered-dialect", UNSAFE_FLAG,
             "--mlir-print-op-generic", "--mlir-print-local-scope", src],
            capture_output=True, text=True)
    finally:
        os.unlink(src)
    if out.returncode != 0:
        sys.exit("default_props: mlir-opt failed:\n" + out.stderr)
    body = out.stdout.splitlines()[1:-1]
    if len(body) != len(names):
        sys.exit("default_props: expected %d ops printed, got %d" % (len(names), len(body)))
    return dict(zip(names, body))


_NOTE = re.compile(r"^within split at .*?:(\d+) offset :(\d+):\d+: note: see current operation: (.*)$")


def print_via_diagnostics(mlir_opt, names, ops):
    """For an mlir-opt without UNSAFE_FLAG (MLIR 19): each op is its own
    `// -----` chunk. An empty op usually fails verification, and the
    verifier's diagnostic carries the op as created, printed generically
    (`note: see current operation: ...`, mlir-opt's default
    `--mlir-print-op-on-diagnostic`); an op that verifies is printed on
    standard output. Op i is on line 2i+1; a diagnostic names the line
    where its split starts and the line within the split."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as fh:
        fh.write("\n// -----\n".join('"%s"() : () -> ()' % n for n in names) + "\n")
        src = fh.name
    try:
        out = subprocess.run(
            [mlir_opt, "--allow-unregistered-dialect", "--split-input-file",
             "--mlir-print-op-generic", "--mlir-print-local-scope", src],
            capture_output=True, text=True)
    finally:
        os.unlink(src)
    printed = {}
    for line in out.stderr.splitlines():
        m = _NOTE.match(line)
        if not m:
            continue
        # the split's first line plus the line within it, both 1-based
        line_no = int(m.group(1)) + int(m.group(2)) - 1
        i = (line_no - 1) // 2
        if (line_no - 1) % 2 or i >= len(names):
            sys.exit("default_props: diagnostic for an unexpected line: " + line)
        if names[i] in printed:
            sys.exit("default_props: two diagnostics for %s" % names[i])
        printed[names[i]] = m.group(3)
    for line in out.stdout.splitlines():
        line = line.strip()
        if not line.startswith('"') or not line.endswith(": () -> ()"):
            continue  # the implicit module around each chunk, separators
        name = line[1:line.index('"', 1)]
        if name in printed:
            sys.exit("default_props: %s both verified and failed" % name)
        printed[name] = line
    # A custom verifier may fail without the note (acc.declare_exit in 19
    # emits its error at a location, not on the op). Only an op whose sole
    # properties are segment sizes (never stored as defaults) can do without.
    missing = [n for n in names if n not in printed
               and not all(f["kind"] in ("legacy_segments", "sparse_segments")
                           for f in ops[n]["v5"] + ops[n]["v6"])]
    if missing:
        sys.exit("default_props: no printed form for %d ops (%s); mlir-opt said:\n%s"
                 % (len(missing), ", ".join(missing), out.stderr[-2000:]))
    for n in names:
        printed.setdefault(n, '"%s"() : () -> ()' % n)
    return printed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("layouts", help="layout JSON from gen_layouts.py (rewritten in place)")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    args = ap.parse_args(argv)
    with open(args.layouts, encoding="utf-8") as fh:
        doc = json.load(fh)
    names = [op["name"] for op in doc["ops"] if op["write_properties"]]
    if has_unsafe_flag(args.mlir_opt):
        printed = print_unverified(args.mlir_opt, names)
    else:
        ops = {op["name"]: op for op in doc["ops"]}
        printed = print_via_diagnostics(args.mlir_opt, names, ops)
    defaults = {}
    for name in names:
        line = printed[name].strip()
        head = '"%s"()' % name
        if not line.startswith(head) or not line.endswith(": () -> ()"):
            sys.exit("default_props: unexpected line for %s: %s" % (name, line))
        rest = line[len(head):-len(": () -> ()")].strip()
        if not rest:
            continue
        if not (rest.startswith("<{") and rest.endswith("}>")):
            sys.exit("default_props: unexpected properties for %s: %s" % (name, rest))
        entries = [e for e in split_top_level(rest[2:-2])
                   if e.split("=", 1)[0].strip() not in SEGMENT_KEYS]
        if entries:
            defaults[name] = "{" + ", ".join(entries) + "}"
    for op in doc["ops"]:
        op.pop("default_properties", None)
        if op["name"] in defaults:
            op["default_properties"] = defaults[op["name"]]
    with open(args.layouts, "w", encoding="utf-8") as fh:
        fh.write(dump(doc))
    print("default_props: %d of %d ops with properties have defaults" % (len(defaults), len(names)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
