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
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_layouts import dump  # noqa: E402

SEGMENT_KEYS = {"operandSegmentSizes", "resultSegmentSizes"}


def split_top_level(s):
    """Split `a = x, b = <y, z>` at commas outside brackets and strings."""
    parts, depth, cur, i = [], 0, [], 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            cur.append(s[i:j + 1])
            i = j + 1
            continue
        if c in "([{<":
            depth += 1
        elif c in ")]}>" and not (c == ">" and i > 0 and s[i - 1] == "-"):
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("layouts", help="layout JSON from gen_layouts.py (rewritten in place)")
    ap.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
    args = ap.parse_args(argv)
    with open(args.layouts, encoding="utf-8") as fh:
        doc = json.load(fh)
    names = [op["name"] for op in doc["ops"] if op["write_properties"]]
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as fh:
        for n in names:
            fh.write('"%s"() : () -> ()\n' % n)
        src = fh.name
    try:
        out = subprocess.run(
            [args.mlir_opt, "--allow-unregistered-dialect",
             "--mlir-very-unsafe-disable-verifier-on-parsing",
             "--mlir-print-op-generic", "--mlir-print-local-scope", src],
            capture_output=True, text=True)
    finally:
        os.unlink(src)
    if out.returncode != 0:
        sys.exit("default_props: mlir-opt failed:\n" + out.stderr)
    lines = out.stdout.splitlines()
    body = lines[1:-1]
    if len(body) != len(names):
        sys.exit("default_props: expected %d ops printed, got %d" % (len(names), len(body)))
    defaults = {}
    for name, line in zip(names, body):
        line = line.strip()
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
