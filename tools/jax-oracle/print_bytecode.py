#!/usr/bin/env python3
"""print_bytecode.py - jaxlib's print of MLIR bytecode files, the oracle of
tests/tests/vhlo_jaxlib.rs.

    print_bytecode.py OUT_DIR FILE...

For each FILE, parses it in a context of jaxlib's (StableHLO and VHLO
registered, as jax.export reads artifacts; unregistered dialects allowed) and writes OUT_DIR/<name>.txt:
the module in generic form with debug info, exactly as jaxlib's bindings
print it (`get_asm(print_generic_op_form=True, enable_debug_info=True)`;
no final newline). A file jaxlib cannot read gets OUT_DIR/<name>.error
with the first line of its message instead. Needs jax and jaxlib (pinned
in .ci/run).
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    for path in argv[1:]:
        name = os.path.basename(path)
        data = open(path, "rb").read()
        try:
            with jmlir.make_ir_context() as ctx:
                ctx.allow_unregistered_dialects = True
                module = ir.Module.parse(data)
                text = module.operation.get_asm(
                    print_generic_op_form=True, enable_debug_info=True
                )
        except Exception as e:  # jaxlib reports parse failures this way
            first = (str(e).splitlines() or ["(no message)"])[0]
            with open(os.path.join(out, name + ".error"), "w") as f:
                f.write(first)
            continue
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main(sys.argv[1:])
