#!/usr/bin/env python3
"""to_bytecode.py - jaxlib's bytecode of an MLIR text file, for
tests/tests/vhlo_jaxlib.rs.

    to_bytecode.py IN.mlir OUT_DIR VERSION...

Parses IN.mlir in a context of jaxlib's (StableHLO, CHLO and VHLO
registered; unregistered dialects allowed) and writes
OUT_DIR/<stem>.v<VERSION>.mlirbc for each bytecode VERSION, as jaxlib's
`write_bytecode(desired_version=VERSION)` writes it. Needs jax and jaxlib
(pinned in .ci/run).
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    src, out, versions = argv[0], argv[1], [int(v) for v in argv[2:]]
    os.makedirs(out, exist_ok=True)
    stem = os.path.splitext(os.path.basename(src))[0]
    with jmlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True
        module = ir.Module.parse(open(src).read())
        for v in versions:
            with open(os.path.join(out, f"{stem}.v{v}.mlirbc"), "wb") as f:
                module.operation.write_bytecode(f, desired_version=v)


if __name__ == "__main__":
    main(sys.argv[1:])
