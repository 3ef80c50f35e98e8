"""The MLIR context of a tool's Python bindings, shared by this folder's
scripts: jaxlib 0.10.2's (`jax`) or IREE 3.13's (`iree`), unregistered
dialects allowed. Returns the bindings' `ir` module and the context."""


def context(tool):
    if tool == "jax":
        from jax._src.interpreters import mlir as jm
        from jax._src.lib.mlir import ir

        ctx = jm.make_ir_context()
    else:
        from iree.compiler import ir

        ctx = ir.Context()
    ctx.allow_unregistered_dialects = True
    return ir, ctx
