#!/usr/bin/env python3
"""to_bytecode.py - jaxlib's bytecode of MLIR files (text or bytecode), an
oracle of tests/tests/vhlo_jaxlib.rs.

    to_bytecode.py OUT_DIR VERSIONS FILE...

VERSIONS is a comma-separated list of bytecode versions (`1,6`). Each FILE
is parsed in a context of jaxlib's (StableHLO, CHLO and VHLO registered;
unregistered dialects allowed) and written as
OUT_DIR/<name>.v<VERSION>.mlirbc for each version, as jaxlib's
`write_bytecode(desired_version=VERSION)` writes it (producer
`MLIR23.0.0git` for jaxlib 0.10.2), where <name> is FILE's base name. A
file jaxlib cannot parse or write gets OUT_DIR/<name>.error with the first
line of the message instead. Needs jax and jaxlib (pinned in .ci/run).
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out = argv[0]
    versions = [int(v) for v in argv[1].split(",")]
    os.makedirs(out, exist_ok=True)
    for path in argv[2:]:
        name = os.path.basename(path)
        data = open(path, "rb").read()
        try:
            with jmlir.make_ir_context() as ctx:
                ctx.allow_unregistered_dialects = True
                module = ir.Module.parse(data)
                written = {}
                for v in versions:
                    with open(os.path.join(out, f"{name}.v{v}.mlirbc.tmp"), "wb") as f:
                        module.operation.write_bytecode(f, desired_version=v)
                    written[v] = True
        except Exception as e:  # jaxlib reports failures this way
            first = (str(e).splitlines() or ["(no message)"])[0]
            with open(os.path.join(out, name + ".error"), "w") as f:
                f.write(first)
            continue
        for v in written:
            tmp = os.path.join(out, f"{name}.v{v}.mlirbc")
            os.replace(tmp + ".tmp", tmp)


if __name__ == "__main__":
    main(sys.argv[1:])
