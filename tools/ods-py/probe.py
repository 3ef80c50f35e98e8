"""Checks tools/ods-py/probed-24.json against IREE 3.13: each op's sample
parses, and IREE prints every listed attribute back among the op's
properties (`<{...}>`), so it is an inherent attribute of that op in
MLIR 24 even though no Python op class shows it.

Usage: probe.py PROBED_JSON   (run with IREE's Python; exits 1 on a
mismatch, naming the op and attribute).
"""

import json
import re
import sys

from iree.compiler import ir


def main():
    probed = json.load(open(sys.argv[1]))
    bad = []
    for op, entry in sorted(probed["ops"].items()):
        src = '"builtin.module"() ({\n' + entry["sample"] + "\n}) : () -> ()\n"
        with ir.Context() as ctx:
            try:
                text = ir.Module.parse(src).operation.get_asm(print_generic_op_form=True)
            except Exception as e:  # the refusal is the finding
                bad.append(f"{op}: IREE does not parse the sample: {e}")
                continue
        line = next((l for l in text.splitlines() if f'"{op}"' in l), "")
        props = re.search(r"<\{(.*)\}>", line)
        for attr in entry["attrs"]:
            if not props or not re.search(rf"\b{attr} = ", props.group(1)):
                bad.append(f"{op}: IREE does not keep '{attr}' among its properties: {line}")
    for b in bad:
        print(b, file=sys.stderr)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
