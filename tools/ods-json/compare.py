#!/usr/bin/env python3
"""compare.py - check gen_layouts_json.py against the shipped ods-layouts-22.json.

Runs gen_layouts_json.py over every .td file of the installed MLIR tree
(`--upstream-tree`, default /usr/lib/llvm-22/include), or reads a layout file made
beforehand (--generated), and compares it op by op and key by key with the
reference layout file (default format/data/ods-layouts-22.json, made by
tools/ods-layouts/gen_layouts.py from mlir-tblgen's generated C++).

`default_properties` is ignored (it comes from mlir-opt, not from the records).
Hand-written C++ ops (`"ods": false`) have no ODS record: they are counted
apart, not as differences.  Prints the differences and `identical x/y` over the
reference's ODS ops; the exit status is 0 only when every ODS op is identical
and no op exists on one side only.

Python 3 standard library only.

Usage:
  compare.py [--upstream-tree DIR] [--reference FILE] [--generated FILE] [--max-diffs N]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
IGNORED = ("default_properties",)


def load(path):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def strip(op):
    return {k: v for k, v in op.items() if k not in IGNORED}


def field_diffs(ref, gen):
    """Key-level differences of two op entries, as text lines."""
    out = []
    if list(ref) != list(gen):
        out.append("key order: reference %s, generated %s" % (list(ref), list(gen)))
    for k in ref:
        if k not in gen:
            out.append("%s: missing" % k)
        elif ref[k] != gen[k]:
            if k in ("v5", "v6") and isinstance(ref[k], list) and isinstance(gen[k], list):
                n = max(len(ref[k]), len(gen[k]))
                for i in range(n):
                    a = ref[k][i] if i < len(ref[k]) else None
                    b = gen[k][i] if i < len(gen[k]) else None
                    if a != b:
                        out.append("%s[%d]: reference %s, generated %s"
                                   % (k, i, json.dumps(a), json.dumps(b)))
            else:
                out.append("%s: reference %s, generated %s"
                           % (k, json.dumps(ref[k]), json.dumps(gen[k])))
    for k in gen:
        if k not in ref:
            out.append("%s: extra (%s)" % (k, json.dumps(gen[k])))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--upstream-tree", default="/usr/lib/llvm-22/include")
    ap.add_argument("--reference", default=os.path.join(ROOT, "format", "data",
                                                        "ods-layouts-22.json"))
    ap.add_argument("--generated", help="compare this layout file instead of running the generator")
    ap.add_argument("--max-diffs", type=int, default=50, help="ops whose differences are printed")
    args = ap.parse_args(argv)

    if args.generated:
        gen_doc = load(args.generated)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "layouts.json")
            cmd = [sys.executable, "-B", os.path.join(HERE, "gen_layouts_json.py"),
                   "--upstream-tree", args.upstream_tree, "--out", out]
            r = subprocess.run(cmd)
            if r.returncode != 0:
                print("compare: the generator failed", file=sys.stderr)
                return 1
            gen_doc = load(out)

    ref_ops = {o["name"]: o for o in load(args.reference)["ops"]}
    gen_ops = {o["name"]: o for o in gen_doc["ops"]}
    ref_ods = sorted(n for n, o in ref_ops.items() if o.get("ods", True))
    handwritten = sorted(n for n, o in ref_ops.items() if not o.get("ods", True))

    identical, differing = 0, []
    for n in ref_ods:
        if n not in gen_ops:
            differing.append((n, ["not generated"]))
            continue
        d = field_diffs(strip(ref_ops[n]), strip(gen_ops[n]))
        if d:
            differing.append((n, d))
        else:
            identical += 1
    only_gen = sorted(n for n in gen_ops if n not in ref_ops)
    hw_gen = [n for n in handwritten if n in gen_ops]

    for n, d in differing[:args.max_diffs]:
        print("%s:" % n)
        for line in d:
            print("  " + line)
    if len(differing) > args.max_diffs:
        print("... %d more ops differ" % (len(differing) - args.max_diffs))
    if only_gen:
        print("generated only (not in the reference): %s" % ", ".join(only_gen))
    print("reference: %s (%d ops: %d ODS, %d hand-written: %s)"
          % (os.path.relpath(args.reference), len(ref_ops), len(ref_ods), len(handwritten),
             ", ".join(handwritten) or "none"))
    if handwritten:
        print("hand-written ops %s: %s" % (
            "present in the generated file" if hw_gen else "not ODS records, not compared",
            ", ".join(hw_gen or handwritten)))
    print("identical %d/%d" % (identical, len(ref_ods)))
    ok = identical == len(ref_ods) and not only_gen
    if hw_gen:
        ok = ok and all(not field_diffs(strip(ref_ops[n]), strip(gen_ops[n])) for n in hw_gen)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
