"""Checks a tools/ods-py/probed-<release>.json against the tool it
describes (`jax`: jaxlib 0.10.2, MLIR 23; `iree`: IREE 3.13, MLIR 24):
each op's sample parses, and the tool prints every listed attribute back
among the op's properties (`<{...}>`), so it is an inherent attribute of
that op in the tool's MLIR even though no Python op class shows it.

Usage: probe.py jax|iree PROBED_JSON   (run with the tools' Python; exits 1
on a mismatch, naming the op and attribute).
"""

import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tool-oracle"))
sys.dont_write_bytecode = True
from tool_context import context  # noqa: E402


def main():
    tool, path = sys.argv[1], sys.argv[2]
    probed = json.load(open(path))
    bad = []
    for op, entry in sorted(probed["ops"].items()):
        src = '"builtin.module"() ({\n' + entry["sample"] + "\n}) : () -> ()\n"
        ir, ctx = context(tool)
        with ctx:
            try:
                text = ir.Module.parse(src).operation.get_asm(print_generic_op_form=True)
            except Exception as e:  # the refusal is the finding
                bad.append(f"{op}: {tool} does not parse the sample: {e}")
                continue
        line = next((l for l in text.splitlines() if f'"{op}"' in l), "")
        props = re.search(r"<\{(.*)\}>", line)
        for attr in entry["attrs"]:
            if not props or not re.search(rf"\b{attr} = ", props.group(1)):
                bad.append(f"{op}: {tool} does not keep '{attr}' among its properties: {line}")
    for b in bad:
        print(b, file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
