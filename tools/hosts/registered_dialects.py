"""Which dialects a tool's MLIR context registers, asked of the tool.

Usage: registered_dialects.py (jaxlib|iree) CANDIDATES_FILE
  CANDIDATES_FILE: one dialect name per line (every name the layout files
  and mlir-opt's list hold, and IREE's own); prints, sorted, those the
  tool's context registers, one per line. `rmlir_dialects::hosts` holds
  the result; `check.sh` compares the two.
"""

import sys


def context(tool):
    if tool == "jaxlib":
        from jax._src.interpreters import mlir as jmlir

        return jmlir.make_ir_context()
    if tool == "iree":
        from iree.compiler import ir

        return ir.Context()
    raise SystemExit(f"unknown tool {tool!r}: jaxlib or iree")


def main():
    tool, candidates = sys.argv[1], sys.argv[2]
    names = sorted({l.strip() for l in open(candidates) if l.strip()})
    ctx = context(tool)
    found = []
    with ctx:
        for n in names:
            try:
                ctx.dialects[n]
            except Exception:  # not registered: the lookup raises
                continue
            found.append(n)
    print("\n".join(found))


if __name__ == "__main__":
    main()
