#!/usr/bin/env python3
"""export_models.py - jax.export of models shaped like what people ship,
for tests/tests/vhlo_jaxlib.rs (beside ../shared's make_jax.py).

    export_models.py OUT_DIR

For each model NAME (attention in bf16 with a mask; sorts, top_k and the
linalg custom calls QR, Cholesky and eigh, whose sharding rules are sdy
attributes; FFTs and random numbers over mixed element types; a
shape-polymorphic export; a function sharded over a one-device mesh,
with an sdy.mesh and sdy shardings), writes:

  NAME.vhlo.mlirbc               the portable artifact (VHLO bytecode)
  NAME.vhlo.generic.mlir         jaxlib's generic print of it (debug info)
  NAME.stablehlo.generic.mlir    jaxlib's generic print of exp.mlir_module()
  NAME.stablehlo.mlirbc          jaxlib's write_bytecode of that module
  NAME.stablehlo.v1.mlirbc       the same at bytecode version 1

Needs jax and jaxlib (pinned in .ci/run).
"""
import io
import os
import sys

import jax
import jax.numpy as jnp
from jax import lax
from jax._src.interpreters import mlir as jmlir
from jax._src.lib.mlir import ir


def normal(*shape, k=0):
    return jax.random.normal(jax.random.PRNGKey(k), shape, jnp.float32)


def attention(q, k, v, mask):
    s = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(q.shape[-1]).astype(q.dtype)
    s = jnp.where(mask, s, -1e9)
    p = jax.nn.softmax(s, axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", p, v).astype(jnp.bfloat16)


def sorts(x, y):
    a = jnp.sort(x, axis=-1)
    i = jnp.argsort(y)
    t, ti = lax.top_k(x, 3)
    q, r = jnp.linalg.qr(x[:, :4] @ x[:, :4].T + jnp.eye(x.shape[0]))
    c = jnp.linalg.cholesky(x @ x.T + 10 * jnp.eye(x.shape[0]))
    e = jnp.linalg.eigh(x @ x.T)[0]
    return a, i, t, ti, q, r, c, e


def fft_rng(x, c, key):
    f = jnp.fft.fft(c)
    back = jnp.fft.irfft(jnp.fft.rfft(x), n=x.shape[-1])
    u = jax.random.uniform(key, x.shape, jnp.float16)
    n = jax.random.normal(jax.random.fold_in(key, 1), (4,))
    b = jax.random.bernoulli(key, 0.3, (5,))
    i8 = (x * 10).astype(jnp.int8)
    u32 = (x * 10).astype(jnp.uint32)
    mask = jnp.array([True, False, True]) & b[:3]
    return f, back, u, n, b, i8, u32, mask, x.astype(jnp.bfloat16) * 2


def sharded(a, b):
    return jnp.tanh(a @ b)


def poly(x, y):
    return jnp.concatenate([x, y], axis=0).sum(axis=1) * x.shape[0], jnp.reshape(x, (-1,))


def exports():
    yield "attention", jax.export.export(jax.jit(attention))(
        normal(2, 8, 4, 16), normal(2, 8, 4, 16, k=1), normal(2, 8, 4, 16, k=2),
        jnp.tril(jnp.ones((8, 8), bool)))
    yield "sorts", jax.export.export(jax.jit(sorts))(normal(6, 8), normal(10, k=1))
    yield "fftrng", jax.export.export(jax.jit(fft_rng))(
        normal(3, 16), (normal(8) + 1j * normal(8, k=1)).astype(jnp.complex64),
        jax.random.PRNGKey(3))
    from jax.sharding import NamedSharding, PartitionSpec
    mesh = jax.make_mesh((1,), ("x",))
    rows = NamedSharding(mesh, PartitionSpec("x", None))
    yield "sharded", jax.export.export(jax.jit(
        sharded, in_shardings=(rows, NamedSharding(mesh, PartitionSpec())), out_shardings=rows))(
        jax.ShapeDtypeStruct((8, 4), jnp.float32, sharding=rows),
        jax.ShapeDtypeStruct((4, 4), jnp.float32))
    b, c = jax.export.symbolic_shape("b, c")
    yield "poly", jax.export.export(jax.jit(poly))(
        jax.ShapeDtypeStruct((b, 4), jnp.float32), jax.ShapeDtypeStruct((c, 4), jnp.float32))


def generic(op):
    return op.get_asm(print_generic_op_form=True, enable_debug_info=True)


def main(out):
    os.makedirs(out, exist_ok=True)
    for name, exp in exports():
        art = exp.mlir_module_serialized
        with open(os.path.join(out, f"{name}.vhlo.mlirbc"), "wb") as f:
            f.write(art)
        with jmlir.make_ir_context(), ir.Location.unknown():
            m = ir.Module.parse(exp.mlir_module())
            with open(os.path.join(out, f"{name}.stablehlo.generic.mlir"), "w") as f:
                f.write(generic(m.operation))
            for suffix, version in (("", None), (".v1", 1)):
                buf = io.BytesIO()
                if version is None:
                    m.operation.write_bytecode(buf)
                else:
                    m.operation.write_bytecode(buf, desired_version=version)
                with open(os.path.join(out, f"{name}.stablehlo{suffix}.mlirbc"), "wb") as f:
                    f.write(buf.getvalue())
            with open(os.path.join(out, f"{name}.vhlo.generic.mlir"), "w") as f:
                f.write(generic(ir.Module.parse(art).operation))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
