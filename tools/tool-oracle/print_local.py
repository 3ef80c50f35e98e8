"""A tool's print of bytecode files without aliases (`--local-scope` in
rmlir-bc's terms): generic form, debug info, every attribute and type
written out where it is used. Two prints that differ only in which values
get aliases (newer MLIR aliases differently) compare equal this way.

Usage: print_local.py [--with-aliases] jax|iree OUT_DIR FILE...
  writes OUT_DIR/<name>.local.txt (no final newline) or <name>.error;
  with --with-aliases, also OUT_DIR/<name>.txt, the tool's ordinary print
  of the file (aliases as it chooses them).
"""

import os
import sys

from tool_context import context


def main():
    args = sys.argv[1:]
    aliases = args[:1] == ["--with-aliases"]
    if aliases:
        args = args[1:]
    tool, out, files = args[0], args[1], args[2:]
    os.makedirs(out, exist_ok=True)
    for p in files:
        name = os.path.basename(p)
        try:
            ir, ctx = context(tool)
            with ctx:
                m = ir.Module.parse(open(p, "rb").read())
                t = m.operation.get_asm(
                    print_generic_op_form=True, enable_debug_info=True, use_local_scope=True
                )
                full = m.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
            with open(os.path.join(out, name + ".local.txt"), "w") as f:
                f.write(t)
            if aliases:
                with open(os.path.join(out, name + ".txt"), "w") as f:
                    f.write(full)
        except Exception as e:  # the tool's refusal is a result
            with open(os.path.join(out, name + ".error"), "w") as f:
                f.write(str(e))


if __name__ == "__main__":
    main()
