//! The tools whose MLIR we read and write like (SPEC.md §7.4): mlir-opt 22,
//! jaxlib 0.10.2 (MLIR 23) and IREE 3.13 (MLIR 24). What differs between
//! them beyond op layouts is which dialects their context registers: a
//! registered dialect's attribute bodies are parsed, so nested attributes
//! inside them are written out in full in bytecode and can be aliased in
//! text, and its ops' inherent attributes live in properties. Each list is
//! asked of the tool itself (`tools/hosts/check.sh`).

use rmlir_format::op_registry::OpRegistry;
use rmlir_format::{Context, DialectBody};
use std::borrow::Cow;

/// A tool's MLIR context, as far as reading and writing its files needs.
#[derive(Debug)]
pub struct Host {
    /// The tool, for messages (`IREE 3.13`).
    pub tool: &'static str,
    /// The major MLIR release it carries (its producer string's).
    pub mlir_major: u32,
    /// The dialects its context registers, sorted.
    pub registered_dialects: &'static [&'static str],
    /// The alias name its dialects' `OpAsmDialectInterface::getAlias`
    /// gives an attribute of a registered dialect, if any.
    pub attr_alias: fn(&Context, &DialectBody) -> Option<Cow<'static, str>>,
}

impl Host {
    /// Whether the tool's context registers `dialect`.
    pub fn registers(&self, dialect: &str) -> bool {
        self.registered_dialects.binary_search(&dialect).is_ok()
    }

    /// Whether the tool reads and writes op `name` unregistered although
    /// its release's upstream layouts describe it: an op of an upstream
    /// dialect its context does not register (mlir-opt 22 has ODS for
    /// `vcix` but does not load it; jaxlib registers 21 dialects). Ops the
    /// upstream layouts do not hold (this crate's dialects, a user's) are
    /// not affected. SPEC.md §7.4.
    pub fn leaves_unregistered(&self, name: &[u8]) -> bool {
        let dialect = name.split(|&b| b == b'.').next().unwrap_or_default();
        let dialect = std::str::from_utf8(dialect).unwrap_or_default();
        !self.registers(dialect) && self.ops().get(name).is_some()
    }

    /// `registry` without the ops [`Host::leaves_unregistered`] names, for
    /// writing as the tool writes: built once per registry and host.
    pub fn without_unregistered(
        &'static self,
        registry: &'static OpRegistry,
    ) -> &'static OpRegistry {
        let key = (
            registry as *const OpRegistry as usize,
            self as *const Host as usize,
        );
        crate::derived_registry(key, || {
            let mut r = OpRegistry::new().with_release(registry.release().to_string());
            for op in registry.ops() {
                if !self.leaves_unregistered(op.name.as_bytes()) {
                    r.insert(op.clone());
                }
            }
            r
        })
    }

    /// The alias name the tool prints `body` with (SPEC.md §4.3): none for
    /// an attribute of a dialect it does not register.
    pub fn alias_of(&self, ctx: &Context, body: &DialectBody) -> Option<Cow<'static, str>> {
        if !self.registers(&body.dialect) {
            return None;
        }
        (self.attr_alias)(ctx, body)
    }

    /// The upstream op layouts of its MLIR release (SPEC.md §7.2).
    pub fn ops(&self) -> &'static OpRegistry {
        OpRegistry::for_major(self.mlir_major).expect("every host's release has embedded layouts")
    }

    /// The tool whose terms a file with this producer string is read in
    /// by default: that of the release whose layouts read it
    /// (`OpRegistry::for_producer`: `MLIR23…` → jaxlib, `MLIR24…` → IREE),
    /// mlir-opt 22 for any other (MLIR 19's files are carried over to
    /// MLIR 22).
    pub fn for_producer(producer: &[u8]) -> &'static Host {
        OpRegistry::for_producer(producer)
            .0
            .release_major()
            .and_then(Host::for_release)
            .unwrap_or(&MLIR_OPT_22)
    }

    /// The host whose MLIR release is `major`, among those we write for.
    pub fn for_release(major: u32) -> Option<&'static Host> {
        ALL.into_iter().find(|h| h.mlir_major == major)
    }
}

/// Every host, oldest release first.
pub static ALL: [&Host; 3] = [&MLIR_OPT_22, &JAXLIB_0_10, &IREE_3_13];

/// mlir-opt 22 (`mlir-opt --show-dialects`).
pub static MLIR_OPT_22: Host = Host {
    tool: "mlir-opt 22",
    mlir_major: 22,
    registered_dialects: crate::mlir_opt::REGISTERED_DIALECTS,
    attr_alias: upstream_alias,
};

/// jaxlib 0.10.2's `make_ir_context()`.
pub static JAXLIB_0_10: Host = Host {
    tool: "jaxlib 0.10.2",
    mlir_major: 23,
    registered_dialects: JAXLIB_DIALECTS,
    attr_alias: upstream_alias,
};

/// iree-base-compiler 3.13.0's `ir.Context()`.
pub static IREE_3_13: Host = Host {
    tool: "IREE 3.13",
    mlir_major: 24,
    registered_dialects: IREE_DIALECTS,
    attr_alias: iree_alias,
};

/// Upstream MLIR's dialect aliases (`#di_file`, `#sparse`, …), the same in
/// MLIR 22, 23 and 24 for the dialects each tool registers.
fn upstream_alias(_: &Context, body: &DialectBody) -> Option<Cow<'static, str>> {
    crate::mlir_opt::attr_alias(&body.dialect, body.mnemonic()).map(Cow::Borrowed)
}

/// IREE 3.13's aliases (b48a5955's `getAlias` hooks, SPEC.md §10.6): its
/// own dialects', then upstream's.
fn iree_alias(ctx: &Context, body: &DialectBody) -> Option<Cow<'static, str>> {
    crate::iree::attr_alias(ctx, body).or_else(|| upstream_alias(ctx, body))
}

const JAXLIB_DIALECTS: &[&str] = &[
    "affine",
    "arith",
    "builtin",
    "cf",
    "chlo",
    "complex",
    "func",
    "gpu",
    "llvm",
    "math",
    "memref",
    "nvgpu",
    "nvvm",
    "scf",
    "sdy",
    "shape",
    "stablehlo",
    "tensor",
    "ub",
    "vector",
    "vhlo",
];

const IREE_DIALECTS: &[&str] = &[
    "affine",
    "amdgpu",
    "arith",
    "arm_neon",
    "arm_sme",
    "arm_sve",
    "bufferization",
    "builtin",
    "cf",
    "check",
    "chlo",
    "complex",
    "emitc",
    "flow",
    "func",
    "gpu",
    "hal",
    "hal_inline",
    "hal_loader",
    "index",
    "io_parameters",
    "iree_codegen",
    "iree_cpu",
    "iree_encoding",
    "iree_gpu",
    "iree_linalg_ext",
    "iree_map",
    "iree_tensor_ext",
    "iree_vector_ext",
    "linalg",
    "llvm",
    "math",
    "memref",
    "ml_program",
    "nvgpu",
    "nvvm",
    "pcf",
    "pdl",
    "pdl_interp",
    "quant",
    "rocdl",
    "rocm",
    "scf",
    "shape",
    "smt",
    "spirv",
    "stablehlo",
    "stream",
    "tensor",
    "tosa",
    "transform",
    "ub",
    "util",
    "vector",
    "vhlo",
    "vm",
    "vmvx",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_for_binary_search() {
        for h in ALL {
            assert!(
                h.registered_dialects.windows(2).all(|w| w[0] < w[1]),
                "{}",
                h.tool
            );
        }
        assert!(IREE_3_13.registers("hal") && !MLIR_OPT_22.registers("hal"));
        assert!(Host::for_release(24).is_some_and(|h| h.tool == "IREE 3.13"));
        for h in ALL {
            assert!(h.ops().release().starts_with(&h.mlir_major.to_string()));
        }
    }
}
