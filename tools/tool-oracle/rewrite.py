"""A tool's read and write of bytecode files: what the tool's MLIR makes
of a file it reads, written again at a bytecode version.

Usage: rewrite.py jax|iree VERSION FILE...
  writes FILE.<tool>.mlirbc beside each FILE (or FILE.<tool>.error).
Unregistered dialects are allowed.
"""

import io
import sys

from tool_context import context


def main():
    tool, version, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    for p in files:
        try:
            ir, ctx = context(tool)
            with ctx:
                m = ir.Module.parse(open(p, "rb").read())
                buf = io.BytesIO()
                m.operation.write_bytecode(buf, desired_version=version)
            with open(f"{p}.{tool}.mlirbc", "wb") as f:
                f.write(buf.getvalue())
        except Exception as e:  # the tool's refusal is a result, not a crash
            with open(f"{p}.{tool}.error", "w") as f:
                f.write(str(e))


if __name__ == "__main__":
    main()
