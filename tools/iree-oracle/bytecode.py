"""IREE's MLIR (iree-base-compiler 3.13.0, producer MLIR24.0.0git) as an
oracle: writes each input at each bytecode version and prints what it
wrote, as IREE reads it back.

Usage: bytecode.py OUT_DIR VERSIONS FILE...
  VERSIONS: comma-separated bytecode versions (e.g. 1,5,6).
  For each FILE (text or bytecode) and version V:
    OUT_DIR/<name>.v<V>.mlirbc  IREE's bytecode of FILE at version V;
    OUT_DIR/<name>.v<V>.txt     IREE's generic print of that bytecode
                                (with debug info, no final newline);
    OUT_DIR/<name>.error        instead, when IREE cannot parse FILE.
Unregistered dialects are allowed.
"""

import io
import os
import sys

from iree.compiler import ir


def main():
    out, versions, files = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out, exist_ok=True)
    versions = [int(v) for v in versions.split(",")]
    for path in files:
        name = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        try:
            with ir.Context() as ctx:
                ctx.allow_unregistered_dialects = True
                module = ir.Module.parse(data)
                for v in versions:
                    buf = io.BytesIO()
                    module.operation.write_bytecode(buf, desired_version=v)
                    written = buf.getvalue()
                    with open(os.path.join(out, f"{name}.v{v}.mlirbc"), "wb") as f:
                        f.write(written)
                    back = ir.Module.parse(written)
                    text = back.operation.get_asm(
                        print_generic_op_form=True, enable_debug_info=True
                    )
                    with open(os.path.join(out, f"{name}.v{v}.txt"), "w") as f:
                        f.write(text)
        except Exception as e:  # the oracle's refusal is a result, not a crash
            with open(os.path.join(out, f"{name}.error"), "w") as f:
                f.write(str(e))


if __name__ == "__main__":
    main()
