#!/usr/bin/env python3
"""print_custom.py - jaxlib's custom (pretty) print of MLIR files, and its
generic print of that print read back: the oracle of the StableHLO
custom-form tests in tests/tests/vhlo_jaxlib.rs.

    print_custom.py OUT_DIR FILE...

For each FILE, parses it in a context of jaxlib's (StableHLO, CHLO and
VHLO registered; unregistered dialects allowed) and writes
OUT_DIR/<name>.pretty.mlir: the module in custom form with debug info
(`get_asm(enable_debug_info=True)`), as `jax.export`'s `mlir_module()`
prints. That text is then parsed again from a string (which names its
locations "-") and written as OUT_DIR/<name>.pretty.generic.txt in
generic form with debug info (no final newline). A file jaxlib cannot
read whole (StableHLO's test files hold functions its verifier refuses)
is read a top-level `func.func` at a time, and the functions it reads are
kept, in order; a file none of whose functions it reads gets
OUT_DIR/<name>.error with the first line of its message.
Needs jax and jaxlib (pinned in .ci/run).
"""
import os
import sys

from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir


def parse(data):
    with jmlir.make_ir_context() as ctx:
        ctx.allow_unregistered_dialects = True
        return ir.Module.parse(data).operation.get_asm(enable_debug_info=True)


def functions(text):
    """The top-level `func.func` ops of `text`, each with the lines up to
    the next one (comments and blank lines included)."""
    chunks, cur = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith("func.func"):
            if cur is not None:
                chunks.append("".join(cur))
            cur = []
        if cur is not None:
            cur.append(line)
    if cur is not None:
        chunks.append("".join(cur))
    return chunks


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    out = argv[0]
    os.makedirs(out, exist_ok=True)
    for path in argv[1:]:
        name = os.path.basename(path)
        data = open(path, "rb").read()
        try:
            try:
                pretty = parse(data)
            except Exception as whole:
                kept = []
                for chunk in functions(data.decode("utf-8")):
                    try:
                        parse(chunk)
                        kept.append(chunk)
                    except Exception:
                        pass
                if not kept:
                    raise whole
                pretty = parse("".join(kept))
            with jmlir.make_ir_context() as ctx:
                ctx.allow_unregistered_dialects = True
                generic = ir.Module.parse(pretty).operation.get_asm(
                    print_generic_op_form=True, enable_debug_info=True
                )
        except Exception as e:  # jaxlib reports parse failures this way
            first = (str(e).splitlines() or ["(no message)"])[0]
            with open(os.path.join(out, name + ".error"), "w") as f:
                f.write(first)
            continue
        with open(os.path.join(out, name + ".pretty.mlir"), "w") as f:
            f.write(pretty)
        with open(os.path.join(out, name + ".pretty.generic.txt"), "w") as f:
            f.write(generic)


if __name__ == "__main__":
    main(sys.argv[1:])
