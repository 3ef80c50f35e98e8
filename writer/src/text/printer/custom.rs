//! The custom form (SPEC.md §11.4): an op of a dialect the host registers
//! prints as its ODS format says (`format/data/op-formats-22.json`,
//! interpreted here as mlir-tblgen's `OpFormatGen` generates its printer)
//! or as its hand-written printer does (those ported, e.g. `func.func`);
//! any other op prints in the generic form, which reads back as the same
//! IR.

use super::*;
use rmlir_format::fasthash::FastBuildHasher;
use rmlir_format::op_format::catalog::{
    Arity, AttrKind, Catalog, GroupSpec, OpSyntax, Trait, ValueSpec,
};
use rmlir_format::op_format::{printed_default_dialect, Element, Var};

mod affine;
mod async_dialect;
mod directives;
mod gpu;
mod linalg;
mod llvm;
mod pdl;
mod scf;
mod shape;
mod spirv;
mod stablehlo;
mod tosa;
mod vector;

/// How an op is printed in the custom form.
#[derive(Clone, Copy)]
pub(super) enum How {
    /// By its declarative format.
    Declarative(&'static OpSyntax, &'static [Element]),
    /// By the function-op printer MLIR's `FunctionOpInterface` ops share
    /// (`function_interface_impl::printFunctionOp`).
    Function(&'static OpSyntax),
    /// By a port of its hand-written C++ printer.
    Hand(HandPrinter),
    /// A named op of linalg (`linalg.matmul`, `linalg.fill`): its
    /// inputs and outputs, its body left out (`printNamedStructuredOp`).
    LinalgNamed(&'static rmlir_format::op_format::opdsl::OpDslOp),
}

/// A port of an op's hand-written printer: prints what follows the op's
/// name.
type HandPrinter = fn(&mut Printer<'_, '_>, OpId);

/// The last MLIR release whose `printStrippedAttrOrType` of a dialect
/// attribute keeps the space its parameters start with after the
/// mnemonic (`#gpu<dim x>` stripped is ` x`; from MLIR 23 on, `x`).
const LAST_SPACED_STRIPPED_ATTR: u32 = 22;

/// The hand-written printers ported, by op name.
const HAND_WRITTEN: &[(&str, HandPrinter)] = &[
    ("affine.apply", |p, op| p.affine_apply(op)),
    ("affine.for", |p, op| p.affine_for(op)),
    ("affine.load", |p, op| p.affine_load_store(op, true, false)),
    ("affine.store", |p, op| {
        p.affine_load_store(op, false, false)
    }),
    ("affine.vector_load", |p, op| {
        p.affine_load_store(op, true, true)
    }),
    ("affine.vector_store", |p, op| {
        p.affine_load_store(op, false, true)
    }),
    ("affine.parallel", |p, op| p.affine_parallel(op)),
    ("affine.dma_start", |p, op| p.affine_dma_start(op)),
    ("affine.dma_wait", |p, op| p.affine_dma_wait(op)),
    ("affine.prefetch", |p, op| p.affine_prefetch(op)),
    ("affine.max", |p, op| p.affine_apply(op)),
    ("affine.min", |p, op| p.affine_apply(op)),
    ("scf.parallel", |p, op| p.scf_parallel(op)),
    ("shape.const_shape", |p, op| p.const_shape(op)),
    ("vector.contract", |p, op| p.vector_contract(op)),
    ("arith.select", |p, op| p.arith_select(op)),
    ("bufferization.alloc_tensor", |p, op| p.alloc_tensor(op)),
    ("vector.transfer_read", |p, op| p.transfer(op, true)),
    ("vector.transfer_write", |p, op| p.transfer(op, false)),
    ("linalg.generic", |p, op| p.linalg_generic(op)),
    ("linalg.yield", |p, op| p.linalg_yield(op)),
    ("scf.for", |p, op| p.scf_for(op)),
    ("scf.if", |p, op| p.scf_if(op)),
    ("scf.while", |p, op| p.scf_while(op)),
    ("affine.if", |p, op| p.affine_if(op)),
    ("async.execute", |p, op| p.async_execute(op)),
    ("gpu.func", |p, op| p.gpu_func(op)),
    ("linalg.broadcast", |p, op| {
        p.linalg_with_array(op, "dimensions")
    }),
    ("linalg.map", |p, op| p.linalg_map_or_reduce(op, false)),
    ("linalg.reduce", |p, op| p.linalg_map_or_reduce(op, true)),
    ("linalg.transpose", |p, op| {
        p.linalg_with_array(op, "permutation")
    }),
    ("shape.assuming", |p, op| p.shape_assuming(op)),
    ("tosa.apply_scale", |p, op| p.tosa_op(op, false)),
    ("tosa.argmax", |p, op| p.tosa_op(op, true)),
    ("tosa.clamp", |p, op| p.tosa_op(op, true)),
    ("tosa.max_pool2d", |p, op| p.tosa_op(op, true)),
    ("tosa.maximum", |p, op| p.tosa_op(op, true)),
    ("tosa.minimum", |p, op| p.tosa_op(op, true)),
    ("tosa.reduce_max", |p, op| p.tosa_op(op, true)),
    ("tosa.reduce_min", |p, op| p.tosa_op(op, true)),
    ("tosa.rescale", |p, op| p.tosa_op(op, false)),
    ("tosa.resize", |p, op| p.tosa_op(op, false)),
    ("shape.reduce", |p, op| p.shape_reduce(op)),
    ("gpu.launch", |p, op| p.gpu_launch(op)),
    ("pdl_interp.foreach", |p, op| p.pdl_interp_foreach(op)),
    ("scf.forall", |p, op| p.scf_forall(op)),
    ("scf.forall.in_parallel", |p, op| p.scf_in_parallel(op)),
    ("scf.execute_region", |p, op| p.scf_execute_region(op)),
    ("vector.mask", |p, op| p.vector_mask(op)),
    ("vector.outerproduct", |p, op| p.vector_outerproduct(op)),
    ("llvm.func", |p, op| p.llvm_func(op)),
    ("llvm.alloca", |p, op| p.llvm_alloca(op)),
    ("llvm.call", |p, op| p.llvm_call(op)),
    ("llvm.getelementptr", |p, op| p.llvm_gep(op)),
    ("llvm.icmp", |p, op| p.llvm_cmp(op)),
    ("llvm.fcmp", |p, op| p.llvm_cmp(op)),
    ("llvm.mlir.global", |p, op| p.llvm_global(op)),
    ("llvm.invoke", |p, op| p.llvm_invoke(op)),
    ("llvm.landingpad", |p, op| p.llvm_landingpad(op)),
    ("llvm.switch", |p, op| p.llvm_switch(op)),
    ("llvm.call_intrinsic", |p, op| p.llvm_call_intrinsic(op)),
    ("llvm.intr.assume", |p, op| p.llvm_assume(op)),
    ("llvm.mlir.alias", |p, op| p.llvm_alias(op)),
    ("llvm.mlir.ifunc", |p, op| p.llvm_ifunc(op)),
    ("llvm.indirectbr", |p, op| p.llvm_indirectbr(op)),
    ("spirv.module", |p, op| p.spirv_module(op)),
    ("spirv.func", |p, op| p.spirv_func(op)),
    ("spirv.Constant", |p, op| p.spirv_constant(op)),
    ("spirv.GlobalVariable", |p, op| p.spirv_global_variable(op)),
    ("spirv.Variable", |p, op| p.spirv_variable(op)),
    ("spirv.EntryPoint", |p, op| p.spirv_entry_point(op)),
    ("spirv.ExecutionMode", |p, op| p.spirv_execution_mode(op)),
    ("spirv.Load", |p, op| p.spirv_load(op)),
    ("spirv.Store", |p, op| p.spirv_store(op)),
    ("spirv.BranchConditional", |p, op| {
        p.spirv_branch_conditional(op)
    }),
    ("spirv.mlir.loop", |p, op| {
        p.spirv_structured(op, "loop_control")
    }),
    ("spirv.mlir.selection", |p, op| {
        p.spirv_structured(op, "selection_control")
    }),
    ("spirv.SpecConstant", |p, op| p.spirv_spec_constant(op)),
    ("spirv.CompositeInsert", |p, op| {
        p.spirv_composite_insert(op)
    }),
    ("spirv.CompositeExtract", |p, op| {
        p.spirv_composite_extract(op)
    }),
    ("spirv.CopyMemory", |p, op| p.spirv_copy_memory(op)),
    ("spirv.GL.FClamp", |p, op| p.spirv_one_result(op)),
    ("spirv.GL.SClamp", |p, op| p.spirv_one_result(op)),
    ("spirv.GL.UClamp", |p, op| p.spirv_one_result(op)),
    ("spirv.GL.Fma", |p, op| p.spirv_one_result(op)),
    ("spirv.IAddCarry", |p, op| p.spirv_extended_binary(op)),
    ("spirv.ISubBorrow", |p, op| p.spirv_extended_binary(op)),
    ("spirv.SMulExtended", |p, op| p.spirv_extended_binary(op)),
    ("spirv.UMulExtended", |p, op| p.spirv_extended_binary(op)),
    ("stablehlo.constant", |p, op| p.stablehlo_constant(op)),
    ("stablehlo.reduce", |p, op| p.stablehlo_reduce(op)),
    ("stablehlo.while", |p, op| p.stablehlo_while(op)),
];

/// Whether an op holds the form its printer prints.
type FitsCheck = fn(&Module, OpId) -> bool;

/// Hand-written printers that hold only some forms of their op: the op
/// prints generic where its check says no (llvm's and spirv's printers
/// have checks of their own, `llvm_fits` and `spirv::printable`).
const HAND_FITS: &[(&str, FitsCheck)] = &[("stablehlo.constant", Printer::stablehlo_constant_fits)];

/// The ops printed by `function_interface_impl::printFunctionOp` with
/// their builtin `function_type` and argument and result attributes.
const FUNCTION_OPS: &[&str] = &[
    "func.func",
    "async.func",
    "emitc.func",
    "pdl_interp.func",
    "transform.named_sequence",
];

/// Ops that give their first result a fixed name in the custom form
/// (their `getAsmResultNames`).
const FIXED_RESULT_NAMES: &[(&str, &str)] = &[
    ("complex.constant", "cst"),
    ("func.constant", "f"),
    ("linalg.broadcast", "broadcasted"),
    ("linalg.map", "mapped"),
    ("linalg.reduce", "reduced"),
    ("linalg.transpose", "transposed"),
    ("memref.alloc", "alloc"),
    ("memref.alloca", "alloca"),
    ("memref.assume_alignment", "assume_align"),
    ("memref.cast", "cast"),
    ("memref.collapse_shape", "collapse_shape"),
    ("memref.dim", "dim"),
    ("memref.expand_shape", "expand_shape"),
    ("memref.extract_aligned_pointer_as_index", "intptr"),
    ("memref.memory_space_cast", "memspacecast"),
    ("memref.reinterpret_cast", "reinterpret_cast"),
    ("memref.reshape", "reshape"),
    ("memref.subview", "subview"),
    ("memref.transpose", "transpose"),
    ("memref.view", "view"),
    ("tensor.cast", "cast"),
    ("tensor.collapse_shape", "collapsed"),
    ("tensor.concat", "concat"),
    ("tensor.dim", "dim"),
    ("tensor.expand_shape", "expanded"),
    ("tensor.extract", "extracted"),
    ("tensor.extract_slice", "extracted_slice"),
    ("tensor.from_elements", "from_elements"),
    ("tensor.generate", "generated"),
    ("tensor.insert", "inserted"),
    ("tensor.insert_slice", "inserted_slice"),
    ("tensor.pad", "padded"),
    ("tensor.rank", "rank"),
    ("tensor.reshape", "reshape"),
    ("tensor.splat", "splat"),
    ("transform.foreach_match", "updated_root"),
    ("vector.vscale", "vscale"),
];

/// Ops implementing `getAsmResultNames` by naming each result group
/// after its ODS name, as mlir-tblgen does for ops without the
/// interface (`gpu.alloc`: `%memref, %asyncToken`).
const ODS_NAMED_RESULTS: &[&[u8]] = &[b"gpu.alloc", b"memref.extract_strided_metadata"];

/// GPU ops naming their result after themselves and their dimension
/// (`%block_id_x`).
const DIMENSION_NAMED: &[&str] = &[
    "gpu.block_dim",
    "gpu.block_id",
    "gpu.cluster_block_id",
    "gpu.cluster_dim",
    "gpu.cluster_dim_blocks",
    "gpu.cluster_id",
    "gpu.global_id",
    "gpu.grid_dim",
    "gpu.thread_id",
];

/// The spacing state of a declarative format's printer: whether the next
/// element is preceded by a space, and whether the last thing printed was
/// punctuation (mlir-tblgen's `shouldEmitSpace` and `lastWasPunctuation`).
struct Spacing {
    space: bool,
    punct: bool,
}

/// How the ops of one name name their results in the custom form (their
/// `OpAsmOpInterface::getAsmResultNames`), decided once per name: the ops
/// ported, and the ops with several ODS results, some named, that do not
/// implement the interface themselves (mlir-tblgen generates it: each
/// group's first value takes the ODS name).
#[derive(Clone, Copy, Default)]
pub(super) struct Naming {
    /// The first result's name, fixed or from the op.
    first: Option<FirstName>,
    /// The ODS result groups named, where the first result is not.
    groups: Option<&'static OpSyntax>,
}

/// How an op names its first result.
#[derive(Clone, Copy)]
enum FirstName {
    Fixed(&'static str),
    /// From the op itself (a constant's value, a global's name); `None`
    /// leaves the result to the ODS groups or unnamed.
    Computed(NameOf),
}

/// A result's name from the op that defines it.
type NameOf = fn(&Module, OpId) -> Option<String>;

/// Ops naming their first result after something the op holds.
const COMPUTED_RESULT_NAMES: &[(&str, NameOf)] = &[
    ("arith.constant", constant_name),
    ("index.constant", |m, op| {
        match m.ctx.attr(inherent(m, op, b"value")?) {
            AttrData::Integer { value, .. } => Some(format!("idx{value}")),
            _ => None,
        }
    }),
    ("index.bool.constant", |m, op| {
        match m.ctx.attr(inherent(m, op, b"value")?) {
            AttrData::Integer { value, .. } => Some(
                if value.sign() == Sign::NoSign {
                    "false"
                } else {
                    "true"
                }
                .into(),
            ),
            _ => None,
        }
    }),
    ("arith.muli", vscale_multiple_name),
    ("spirv.Constant", spirv::constant_name),
    ("stablehlo.constant", stablehlo::constant_name),
    ("spirv.mlir.addressof", spirv::address_of_name),
    // Named after the global they load (`GlobalLoadOp::getAsmResultNames`).
    ("ml_program.global_load", global_load_name),
    ("ml_program.global_load_const", global_load_name),
    ("shape.const_size", |m, op| {
        match m.ctx.attr(inherent(m, op, b"value")?) {
            AttrData::Integer { value, .. } => Some(format!("c{value}")),
            _ => None,
        }
    }),
];

impl Naming {
    /// How ops named `name` name their results under `host`.
    fn of(host: &rmlir_dialects::hosts::Host, name: &[u8]) -> Naming {
        if !names_apply_to(host, name) {
            return Naming::default();
        }
        let Ok(name) = std::str::from_utf8(name) else {
            return Naming::default();
        };
        let first = if let Some((_, fixed)) = FIXED_RESULT_NAMES.iter().find(|(o, _)| *o == name) {
            Some(FirstName::Fixed(fixed))
        } else if DIMENSION_NAMED.contains(&name) {
            Some(FirstName::Computed(dimension_name))
        } else {
            COMPUTED_RESULT_NAMES
                .iter()
                .find(|(o, _)| *o == name)
                .map(|(_, f)| FirstName::Computed(*f))
        };
        let groups = op_syntax(host, name.as_bytes()).filter(|syn| {
            !(syn.results.len() <= 1
                || syn.results.iter().all(|r| r.name.is_empty())
                || (!ODS_NAMED_RESULTS.contains(&name.as_bytes())
                    && syn.traits.iter().any(
                        |t| matches!(t, Trait::Native(n) if n.ends_with("OpAsmOpInterface::Trait")),
                    )))
        });
        Naming { first, groups }
    }

    /// Whether ops of this name name any result.
    fn names_any(&self) -> bool {
        self.first.is_some() || self.groups.is_some()
    }

    /// Appends to `out` the names `op` gives its results, by first result
    /// of each group named.
    pub(super) fn result_names(&self, m: &Module, op: OpId, out: &mut Vec<(u32, String)>) {
        let first = match self.first {
            Some(FirstName::Fixed(n)) => Some(n.to_string()),
            Some(FirstName::Computed(f)) => f(m, op),
            None => None,
        };
        if let Some(name) = first {
            out.push((0, name));
            return;
        }
        let Some(syn) = self.groups else {
            return;
        };
        let total = m.op(op).num_results as usize;
        for (i, r) in syn.results.iter().enumerate() {
            let (start, len) = group_range(m, op, &syn.results, total, i, b"resultSegmentSizes");
            if len > 0 {
                out.push((start as u32, r.name.clone()));
            }
        }
    }
}

/// The name of a gpu op's result after the op and its dimension
/// (`%block_id_x`).
fn dimension_name(m: &Module, op: OpId) -> Option<String> {
    let name = std::str::from_utf8(m.op_names.get(m.op(op).name)).ok()?;
    let dim = match m.ctx.attr(inherent(m, op, b"dimension")?) {
        AttrData::Dialect { body, .. } => match body.pieces.as_slice() {
            // `#gpu<dim x>`: its text ends in the dimension's keyword.
            [BodyPiece::Text(t)] => t
                .trim_end_matches('>')
                .rsplit([' ', '<'])
                .next()?
                .to_string(),
            _ => return None,
        },
        _ => return None,
    };
    let short = name.strip_prefix("gpu.")?;
    Some(format!("{short}_{dim}"))
}

/// `ml_program.global_load`'s result name: the global's.
fn global_load_name(m: &Module, op: OpId) -> Option<String> {
    match m.ctx.attr(inherent(m, op, b"global")?) {
        AttrData::SymbolRef { root, nested } => {
            Some(String::from_utf8_lossy(nested.last().unwrap_or(root)).into_owned())
        }
        _ => None,
    }
}

/// Whether `op` names its results and region arguments under `host`: an
/// op of upstream's ODS data, or of a dialect the host registers (a
/// stablehlo op is unregistered in mlir-opt 22, and names nothing).
fn names_apply(host: &rmlir_dialects::hosts::Host, m: &Module, op: OpId) -> bool {
    names_apply_to(host, m.op_name(op))
}

/// [`names_apply`] by op name.
fn names_apply_to(host: &rmlir_dialects::hosts::Host, name: &[u8]) -> bool {
    Catalog::upstream().get(name).is_some()
        || name
            .split(|&c| c == b'.')
            .next()
            .and_then(|d| std::str::from_utf8(d).ok())
            .is_some_and(|d| host.registers(d))
}

/// The names an op gives the arguments of its region `r` in the custom
/// form (its `getAsmBlockArgumentNames`), for the ops ported:
/// `linalg.generic`'s `%in` and `%out`, `stablehlo.while`'s `%iterArg`.
pub(crate) fn block_arg_names(
    host: &rmlir_dialects::hosts::Host,
    m: &Module,
    op: OpId,
    r: RegionId,
) -> Vec<(ValueId, &'static str)> {
    if !names_apply(host, m, op) {
        return Vec::new();
    }
    let (input, output) = match m.op_names.get(m.op(op).name) {
        // `WhileOp::getAsmBlockArgumentNames`: both regions' arguments.
        b"stablehlo.while" => ("iterArg", "iterArg"),
        b"linalg.generic" => ("in", "out"),
        // `MapOp` and `ReduceOp::getAsmBlockArgumentNames`.
        b"linalg.map" | b"linalg.reduce" => ("in", "init"),
        _ => return Vec::new(),
    };
    let Some(&entry) = m.region(r).blocks.first() else {
        return Vec::new();
    };
    // A map's one init follows its inputs.
    let inputs = operand_segments(m, op)
        .and_then(|s| s.first().copied())
        .unwrap_or(m.operands(op).len().saturating_sub(1));
    m.block(entry)
        .args
        .iter()
        .enumerate()
        .map(|(i, &a)| (a, if i < inputs { input } else { output }))
        .collect()
}

/// `arith.muli`'s name for a constant times `vector.vscale` (either way
/// round): `%c<constant>_vscale` (`MulIOp::getAsmResultNames`).
fn vscale_multiple_name(m: &Module, op: OpId) -> Option<String> {
    let def = |v: ValueId| match m.value(v).def {
        ValueDef::Result { op, .. } => Some(op),
        _ => None,
    };
    let constant = |v: ValueId| -> Option<BigInt> {
        let c = def(v)?;
        if m.op_name(c) != b"arith.constant" {
            return None;
        }
        match m.ctx.attr(inherent(m, c, b"value")?) {
            AttrData::Integer { ty, value } => match m.ctx.ty(*ty) {
                TypeData::Integer {
                    width,
                    signedness: Signedness::Signless,
                } if *width <= 64 => Some(signed(value, *width)),
                TypeData::Index => Some(signed(value, 64)),
                _ => None,
            },
            _ => None,
        }
    };
    let is_vscale = |v: ValueId| def(v).is_some_and(|d| m.op_name(d) == b"vector.vscale");
    let &[lhs, rhs] = m.operands(op) else {
        return None;
    };
    let base = match (constant(lhs), constant(rhs)) {
        (Some(c), _) if is_vscale(rhs) => c,
        (_, Some(c)) if is_vscale(lhs) => c,
        _ => return None,
    };
    Some(format!("c{base}_vscale"))
}

/// Whether a `linalg.map` or `linalg.reduce` prints its body as the name
/// of its one op.
fn map_or_reduce_short(m: &Module, op: OpId) -> bool {
    let reduce = m.op_name(op) == b"linalg.reduce";
    let Some(&entry) = m
        .op(op)
        .regions()
        .first()
        .and_then(|&r| m.region(r).blocks.first())
    else {
        return false;
    };
    let n = m.operands(op).len();
    let inputs = operand_segments(m, op)
        .and_then(|s| s.first().copied())
        .unwrap_or(n.saturating_sub(1))
        .min(n);
    linalg::payload_op(m, entry, if reduce { None } else { Some(inputs) }, reduce).is_some()
}

/// How many inputs a function op's `function_type` has.
fn function_inputs(m: &Module, op: OpId) -> usize {
    match inherent(m, op, b"function_type").map(|a| m.ctx.attr(a)) {
        Some(AttrData::Type(t)) => match m.ctx.ty(*t) {
            TypeData::Function { inputs, .. } => inputs.len(),
            _ => 0,
        },
        _ => 0,
    }
}

/// The attributes of `op` as its `getAttrs()` gives them: the inherent
/// ones (in its properties) and the discardable ones, sorted by name.
pub(super) fn op_attrs(m: &Module, op: OpId) -> Vec<(Bytes, AttrId)> {
    let o = m.op(op);
    let mut out: Vec<(Bytes, AttrId)> = Vec::new();
    for d in [o.properties, Some(o.attributes)].into_iter().flatten() {
        if let AttrData::Dictionary(d) = m.ctx.attr(d) {
            out.extend(d.iter().cloned());
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The integers of a `DenseI64ArrayAttr`.
fn dense_i64s(m: &Module, a: AttrId) -> Option<Vec<i64>> {
    match m.ctx.attr(a) {
        AttrData::DenseArray { data, .. } if data.len() % 8 == 0 => Some(
            data.chunks_exact(8)
                .map(|c| i64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
                .collect(),
        ),
        _ => None,
    }
}

/// The elements of a `dense<…>` of integers, read signed.
fn dense_ints(m: &Module, a: AttrId) -> Option<Vec<i64>> {
    let AttrData::DenseIntOrFp { ty, splat, data } = m.ctx.attr(a) else {
        return None;
    };
    let elem = m.ctx.ty(*ty).element_type()?;
    let width = match m.ctx.ty(elem) {
        TypeData::Integer { width, .. } if *width <= 64 => *width,
        TypeData::Index => 64,
        _ => return None,
    };
    let size = rmlir_format::dense::element_layout(&m.ctx, elem)?.bytes;
    if size == 0 || size > 8 || data.len() % size != 0 {
        return None;
    }
    let values: Vec<i64> = data
        .chunks_exact(size)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..size].copy_from_slice(c);
            let v = BigInt::from(u64::from_le_bytes(b));
            i64::try_from(signed(&v, width)).unwrap_or(0)
        })
        .collect();
    if *splat {
        let n: i64 = m.ctx.ty(*ty).shape()?.iter().product();
        let n = usize::try_from(n).ok()?;
        // A splat standing for a huge list is not spelled out.
        if n > 1 << 20 {
            return None;
        }
        return Some(vec![*values.first()?; n]);
    }
    Some(values)
}

/// The integer an `arith.constant` defining `v` holds, read signed.
fn constant_int(m: &Module, v: ValueId) -> Option<BigInt> {
    let ValueDef::Result { op, .. } = m.value(v).def else {
        return None;
    };
    if m.op_name(op) != b"arith.constant" {
        return None;
    }
    match m.ctx.attr(inherent(m, op, b"value")?) {
        AttrData::Integer { ty, value } => match m.ctx.ty(*ty) {
            TypeData::Integer { width, .. } => Some(signed(value, *width)),
            TypeData::Index => Some(signed(value, 64)),
            _ => None,
        },
        _ => None,
    }
}

/// `value` read as a signed integer of `width` bits (LLVM's `APInt`
/// printed signed).
fn signed(value: &BigInt, width: u32) -> BigInt {
    if let Some(v) = signed_small(value, width) {
        return BigInt::from(v);
    }
    if width == 0 {
        return value.clone();
    }
    let modulus = BigInt::from(1) << width;
    let mut v = value % &modulus;
    if v.sign() == Sign::Minus {
        v += &modulus;
    }
    if v >= (BigInt::from(1) << (width - 1)) {
        v -= modulus;
    }
    v
}

/// [`signed`] of a value of at most 64 bits, without big-integer
/// arithmetic (every `arith.constant` is named by it).
fn signed_small(value: &BigInt, width: u32) -> Option<i64> {
    if width == 0 || width > 64 {
        return None;
    }
    let modulus = 1i128 << width;
    let mut v = num_traits::ToPrimitive::to_i128(value)?.rem_euclid(modulus);
    if v >= modulus >> 1 {
        v -= modulus;
    }
    i64::try_from(v).ok()
}

/// [`signed`] in decimal, through `i64` where it fits (every
/// `arith.constant` is named by it).
fn signed_decimal(value: &BigInt, width: u32) -> String {
    match signed_small(value, width) {
        Some(v) => v.to_string(),
        None => signed(value, width).to_string(),
    }
}

/// `arith.constant`'s names: `%true`/`%false` for `i1`, `%c<value>` for
/// other integers with `_<type>` after it unless the type is `index`,
/// `%cst` for anything else.
fn constant_name(m: &Module, op: OpId) -> Option<String> {
    let value = inherent(m, op, b"value")?;
    match m.ctx.attr(value) {
        AttrData::Integer { ty, value } => match m.ctx.ty(*ty) {
            TypeData::Integer { width: 1, .. } => Some(
                if value.sign() == Sign::NoSign {
                    "false"
                } else {
                    "true"
                }
                .into(),
            ),
            TypeData::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                Some(format!(
                    "c{}_{prefix}{width}",
                    signed_decimal(value, *width)
                ))
            }
            _ => Some(format!("c{}", signed_decimal(value, 64))),
        },
        _ => Some("cst".into()),
    }
}

/// The inherent attribute `name` of `op`: in its properties, else in its
/// attribute dictionary.
fn inherent(m: &Module, op: OpId, name: &[u8]) -> Option<AttrId> {
    let o = m.op(op);
    [o.properties, Some(o.attributes)]
        .into_iter()
        .flatten()
        .find_map(|d| match m.ctx.attr(d) {
            AttrData::Dictionary(d) => d.iter().find(|(k, _)| &k[..] == name).map(|(_, v)| *v),
            _ => None,
        })
}

/// The custom syntax of the op named `name`: upstream MLIR's ODS data,
/// else that of the hook of its dialect, if the hook brings one
/// (stablehlo and chlo, SPEC.md §11.3), as the parser looks it up, where
/// the host registers that dialect (else its ops are unregistered).
pub(super) fn op_syntax(
    host: &rmlir_dialects::hosts::Host,
    name: &[u8],
) -> Option<&'static OpSyntax> {
    if let Some(s) = Catalog::upstream().get(name) {
        return Some(s);
    }
    let dialect = &name[..name.iter().position(|&c| c == b'.')?];
    if !host.registers(std::str::from_utf8(dialect).ok()?) {
        return None;
    }
    rmlir_dialects::all().get(dialect)?.op_syntax()?.get(name)
}

/// What the host's op registry knows of `name`, else the out-of-tree
/// layouts (stablehlo's and chlo's ops, SPEC.md §7.3).
fn op_info(
    host: &rmlir_dialects::hosts::Host,
    name: &[u8],
) -> Option<&'static rmlir_format::op_registry::OpInfo> {
    host.ops()
        .get(name)
        .or_else(|| rmlir_dialects::out_of_tree_layouts().get(name))
}

impl Printer<'_, '_> {
    /// How `op` prints in the custom form, or `None`: the generic form.
    pub(super) fn custom_how(&self, op: OpId) -> Option<How> {
        let m = self.shared.m;
        let id = m.op(op).name;
        let by_name = match self.shared.hows.by_name.get(id.index()) {
            Some(h) => *h,
            None => name_how(self.shared.host, m.op_names.get(id)),
        };
        match self.shared.hows.fits.get(op.index()) {
            Some(true) => by_name,
            Some(false) => None,
            None => by_name.filter(|&how| self.op_fits(op, how)),
        }
    }

    /// Whether `op` itself prints as its name's printer says: llvm's and
    /// spirv's printers and declarative formats hold only some forms of
    /// their ops.
    fn op_fits(&self, op: OpId, how: How) -> bool {
        let m = self.shared.m;
        match how {
            How::Hand(_) => {
                let name = m.op_name(op);
                if name.starts_with(b"llvm.") {
                    self.llvm_fits(op)
                } else if name.starts_with(b"spirv.") {
                    spirv::printable(m, op)
                } else {
                    HAND_FITS
                        .iter()
                        .find(|(n, _)| n.as_bytes() == name)
                        .is_none_or(|(_, fits)| fits(m, op))
                }
            }
            How::Declarative(syn, elements) => self.declarative_fits(op, syn, elements),
            How::Function(_) | How::LinalgNamed(_) => true,
        }
    }

    /// Prints `op` after its results in the custom form; `false` (nothing
    /// printed) where it prints in the generic form.
    pub(super) fn custom_op(&mut self, op: OpId) -> bool {
        let Some(how) = self.custom_how(op) else {
            return false;
        };
        let m = self.shared.m;
        let name = m.op_names.get(m.op(op).name);
        let name = std::str::from_utf8(name).unwrap_or_default();
        let default = self.default_dialects.last().copied().unwrap_or("");
        match name.strip_prefix(default).and_then(|r| r.strip_prefix('.')) {
            Some(short) if !default.is_empty() && !short.contains('.') => self.out.push_str(short),
            _ => self.out.push_str(name),
        }
        match how {
            How::Declarative(syn, elements) => {
                let mut sp = Spacing {
                    space: true,
                    punct: false,
                };
                self.elements(op, syn, elements, &mut sp);
            }
            How::Function(syn) => self.function_op(op, syn),
            How::Hand(print) => print(self, op),
            How::LinalgNamed(dsl) => self.linalg_named(op, dsl),
        }
        true
    }

    // ----- declarative formats -----

    /// Whether every element of `elements` is one this printer knows,
    /// for `op` as it is (an enum value with a case, no native property
    /// outside the format).
    fn declarative_fits(&self, op: OpId, syn: &OpSyntax, elements: &[Element]) -> bool {
        let m = self.shared.m;
        let dialect = m
            .op_name(op)
            .split(|&c| c == b'.')
            .next()
            .unwrap_or_default();
        if !self.directives_fit(
            op,
            syn,
            elements,
            std::str::from_utf8(dialect).unwrap_or(""),
        ) {
            return false;
        }
        // Native properties have no place in the attribute dictionary.
        if let Some(AttrData::Dictionary(d)) = m.op(op).properties.map(|p| m.ctx.attr(p)) {
            // A named enum property the format prints may hold any of its
            // cases.
            if d.iter().any(|(k, v)| {
                syn.props.iter().enumerate().any(|(i, p)| {
                    p.name.as_bytes() == &k[..]
                        && !(mentions_prop(elements, i) && named_enum_text(m, p, *v).is_some())
                })
            }) {
                return false;
            }
        }
        true
    }
}

impl Printer<'_, '_> {
    /// Whether each custom directive `op` prints is ported and fits it:
    /// one we lack only in optional groups and `oilist` clauses the op
    /// leaves out, and one with a shape check only where it holds.
    fn directives_fit(&self, op: OpId, syn: &OpSyntax, els: &[Element], dialect: &str) -> bool {
        els.iter().all(|e| match e {
            Element::Custom { name, args } => {
                directives::directive(dialect, name).is_some()
                    && directives::fits(dialect, name).is_none_or(|fits| fits(self, op, syn, args))
            }
            Element::Optional {
                then,
                anchor,
                otherwise,
            } => {
                if self.anchor_present(op, syn, &then[*anchor]) {
                    self.directives_fit(op, syn, then, dialect)
                } else {
                    self.directives_fit(op, syn, otherwise, dialect)
                }
            }
            Element::OIList(clauses) => clauses.iter().all(|clause| {
                let present = clause.iter().any(|el| {
                    !matches!(el, Element::Literal(_) | Element::Space(_))
                        && self.anchor_present(op, syn, el)
                });
                !present || self.directives_fit(op, syn, clause, dialect)
            }),
            _ => true,
        })
    }
}

/// Whether every element of a declarative format is one the printer
/// knows, for ops of dialect `dialect`.
fn declarative_supported(syn: &OpSyntax, elements: &[Element], dialect: &str) -> bool {
    {
        fn walk(syn: &OpSyntax, els: &[Element], dialect: &str, deferred: bool) -> bool {
            els.iter().all(|e| match e {
                Element::Literal(_) | Element::Space(_) | Element::AttrDict { .. } => true,
                Element::Operands | Element::Regions | Element::Successors => true,
                Element::Var(Var::Operand(i)) => {
                    syn.operands[*i].arity != Arity::VariadicOfVariadic
                }
                Element::Var(Var::Attr(i)) => {
                    let a = &syn.attrs[*i];
                    match a.kind {
                        AttrKind::Enum => !a.bit && !a.cases.is_empty(),
                        AttrKind::Symbol
                        | AttrKind::Unit
                        | AttrKind::Def
                        | AttrKind::Array
                        | AttrKind::Type
                        | AttrKind::Attr => true,
                    }
                }
                Element::Var(Var::Result(_) | Var::Region(_) | Var::Successor(_)) => true,
                Element::Var(Var::Prop(i)) => named_enum_case(&syn.props[*i], 0).is_some(),
                Element::Type(inner) | Element::Qualified(inner) => {
                    walk(syn, std::slice::from_ref(inner), dialect, deferred)
                }
                Element::FunctionalType(a, b) => {
                    walk(syn, std::slice::from_ref(a), dialect, deferred)
                        && walk(syn, std::slice::from_ref(b), dialect, deferred)
                }
                Element::Results => true,
                Element::Optional {
                    then, otherwise, ..
                } => walk(syn, then, dialect, true) && walk(syn, otherwise, dialect, deferred),
                // A directive we lack may sit where the op leaves it out (an
                // optional group or `oilist` clause): the op decides.
                Element::Custom { name, .. } => {
                    deferred || directives::directive(dialect, name).is_some()
                }
                Element::OIList(clauses) => clauses.iter().all(|c| walk(syn, c, dialect, true)),
                Element::PropDict | Element::Ref(_) | Element::StringArg(_) => false,
            })
        }
        walk(syn, elements, dialect, false)
    }
}

impl Printer<'_, '_> {
    fn elements(&mut self, op: OpId, syn: &OpSyntax, elements: &[Element], sp: &mut Spacing) {
        for e in elements {
            self.element(op, syn, e, sp, false);
        }
    }

    fn element(
        &mut self,
        op: OpId,
        syn: &OpSyntax,
        e: &Element,
        sp: &mut Spacing,
        qualified: bool,
    ) {
        match e {
            Element::Literal(l) => {
                if sp.space && space_before(l, sp.punct) {
                    self.out.push(' ');
                }
                self.out.push_str(l);
                sp.space = !(l.len() == 1 && "<({[".contains(l.as_str()));
                sp.punct = !l.starts_with(|c: char| c == '_' || c.is_ascii_alphabetic());
            }
            // `printNewline`: the spacing state is left as it was.
            Element::Space(s) if s == "\n" => {
                self.out.push('\n');
                self.pad();
            }
            Element::Space(s) => {
                if s == " " {
                    self.out.push(' ');
                    sp.punct = false;
                } else {
                    sp.punct = true;
                }
                sp.space = false;
            }
            Element::AttrDict { with_keyword } => {
                self.format_attr_dict(op, syn, *with_keyword);
                sp.punct = false;
            }
            Element::Optional {
                then,
                anchor,
                otherwise,
            } => {
                if self.anchor_present(op, syn, &then[*anchor]) {
                    // The anchor's own element and the others print; a unit
                    // attribute prints nothing of its own.
                    for el in then {
                        self.element(op, syn, el, sp, false);
                    }
                } else {
                    for el in otherwise {
                        self.element(op, syn, el, sp, false);
                    }
                }
            }
            // `oilist`: each clause with any of its variables there, in
            // the list's order.
            Element::OIList(clauses) => {
                for clause in clauses {
                    let present = clause.iter().any(|el| {
                        !matches!(el, Element::Literal(_) | Element::Space(_))
                            && self.anchor_present(op, syn, el)
                    });
                    if present {
                        for el in clause {
                            self.element(op, syn, el, sp, false);
                        }
                    }
                }
            }
            Element::Var(Var::Attr(i)) if syn.attrs[*i].kind == AttrKind::Unit => {}
            other => {
                if sp.space {
                    self.out.push(' ');
                }
                sp.space = true;
                sp.punct = false;
                self.value_element(op, syn, other, qualified);
            }
        }
    }

    /// An element that prints a value of the op: operands, attributes,
    /// types, regions, successors.
    fn value_element(&mut self, op: OpId, syn: &OpSyntax, e: &Element, qualified: bool) {
        let m = self.shared.m;
        match e {
            Element::Var(Var::Operand(i)) => {
                let vals = operand_group(m, op, syn, *i);
                self.value_list(&vals);
            }
            Element::Operands => {
                let vals = m.operands(op).to_vec();
                self.value_list(&vals);
            }
            Element::Var(Var::Attr(i)) => {
                let spec = &syn.attrs[*i];
                if let Some(a) = inherent(m, op, spec.name.as_bytes()) {
                    self.attr_var(spec, a, qualified);
                }
            }
            Element::Var(Var::Region(i)) => {
                let regions = region_group(m, op, syn, *i);
                for (k, r) in regions.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.format_region(op, syn, *r);
                }
            }
            Element::Regions => {
                for (k, &r) in m.op(op).regions().iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.format_region(op, syn, r);
                }
            }
            Element::Var(Var::Successor(i)) => {
                let succ = successor_group(m, op, syn, *i);
                for (k, b) in succ.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.block_name(*b);
                }
            }
            Element::Successors => {
                let succ = m.op(op).successors().to_vec();
                for (k, b) in succ.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.block_name(*b);
                }
            }
            Element::Var(Var::Prop(i)) => {
                let spec = &syn.props[*i];
                let text = inherent(m, op, spec.name.as_bytes())
                    .and_then(|a| named_enum_text(m, spec, a))
                    .or_else(|| named_enum_case(spec, 0).map(str::to_string));
                if let (Some(mnemonic), Some(text)) = (&spec.mnemonic, text) {
                    let _ = write!(self.out, "{mnemonic}<{text}>");
                }
            }
            Element::Type(inner) => self.type_of(op, syn, inner, qualified),
            Element::Custom { name, args } => {
                let op_name = self.shared.m.op_name(op);
                let dialect = op_name.split(|&c| c == b'.').next().unwrap_or_default();
                let dialect = std::str::from_utf8(dialect).unwrap_or_default();
                if let Some(print) = directives::directive(dialect, name) {
                    print(self, op, syn, args)
                }
            }
            Element::Qualified(inner) => self.value_element(op, syn, inner, true),
            Element::FunctionalType(a, b) => {
                let ins = self.types_of(op, syn, a);
                let outs = self.types_of(op, syn, b);
                self.out.push('(');
                for (k, t) in ins.iter().enumerate() {
                    if k > 0 {
                        self.out.push_str(", ");
                    }
                    self.ty(*t);
                }
                self.out.push_str(") -> ");
                self.result_types(&outs);
            }
            _ => {}
        }
    }

    /// `custom<DynamicIndexList>($values, $integers[, $scalable])`:
    /// `[…]` of the integers, a dynamic one (`i64::MIN`) replaced by the
    /// next value, each scalable one in `[…]` (`printDynamicIndexList`).
    fn dynamic_index_list(&mut self, op: OpId, syn: &OpSyntax, args: &[Element]) {
        let m = self.shared.m;
        let (Some(Element::Var(Var::Operand(v))), Some(Element::Var(Var::Attr(ints)))) =
            (args.first(), args.get(1))
        else {
            return;
        };
        let values = operand_group(m, op, syn, *v);
        let array = |i: usize| -> Vec<u8> {
            match inherent(m, op, syn.attrs[i].name.as_bytes()).map(|a| m.ctx.attr(a)) {
                Some(AttrData::DenseArray { data, .. }) => data.to_vec(),
                _ => Vec::new(),
            }
        };
        let integers: Vec<i64> = array(*ints)
            .chunks_exact(8)
            .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
            .collect();
        let scalable: Vec<bool> = match args.get(2) {
            Some(Element::Var(Var::Attr(i))) => array(*i).iter().map(|&b| b != 0).collect(),
            _ => Vec::new(),
        };
        // The delimiters, `[…]` unless a string argument names others.
        let (open, close) = args
            .iter()
            .find_map(|a| match a {
                Element::StringArg(s) => match s.trim_matches('"').rsplit("::").next() {
                    Some("Paren") => Some(('(', ')')),
                    Some("LessGreater") => Some(('<', '>')),
                    Some("Braces") => Some(('{', '}')),
                    Some("Square") => Some(('[', ']')),
                    _ => None,
                },
                _ => None,
            })
            .unwrap_or(('[', ']'));
        self.index_list(&values, &integers, &scalable, (open, close));
    }

    /// `printDynamicIndexList`: `integers` between `delims`, each dynamic
    /// one (`i64::MIN`) replaced by the next of `values`, each scalable
    /// one in `[…]`.
    pub(super) fn index_list(
        &mut self,
        values: &[ValueId],
        integers: &[i64],
        scalable: &[bool],
        (open, close): (char, char),
    ) {
        self.out.push(open);
        let mut next = 0;
        for (k, &n) in integers.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            let sc = scalable.get(k).copied().unwrap_or(false);
            if sc {
                self.out.push('[');
            }
            if n == i64::MIN {
                if let Some(&val) = values.get(next) {
                    self.value(val);
                }
                next += 1;
            } else {
                let _ = write!(self.out, "{n}");
            }
            if sc {
                self.out.push(']');
            }
        }
        self.out.push(close);
    }

    /// ` ins(%a : t) outs(%b : u)` of a linalg op: its operands split by
    /// its first segment size (`printCommonStructuredOpParts`).
    fn ins_outs(&mut self, op: OpId, ops: &[ValueId]) {
        let m = self.shared.m;
        let inputs = operand_segments(m, op)
            .and_then(|s| s.first().copied())
            .unwrap_or(0)
            .min(ops.len());
        let (ins, outs) = ops.split_at(inputs);
        self.ins_outs_split(ins, outs);
    }

    /// ` ins(%a : t) outs(%b : u)`, each where it has values
    /// (`printCommonStructuredOpParts`).
    pub(super) fn ins_outs_split(&mut self, ins: &[ValueId], outs: &[ValueId]) {
        for (word, vals) in [(" ins(", ins), (" outs(", outs)] {
            if !vals.is_empty() {
                self.out.push_str(word);
                self.value_list(vals);
                self.out.push_str(" : ");
                self.type_list(vals);
                self.out.push(')');
            }
        }
    }

    /// ` -> t` or ` -> (t, u)` for the op's results, nothing without any
    /// (`printOptionalArrowTypeList`).
    fn arrow_result_types(&mut self, op: OpId) {
        let m = self.shared.m;
        let results: Vec<ValueId> = m.op(op).results().collect();
        let Some(&first) = results.first() else {
            return;
        };
        self.out.push_str(" -> ");
        let parens =
            results.len() > 1 || matches!(m.ctx.ty(m.value(first).ty), TypeData::Function { .. });
        if parens {
            self.out.push('(');
        }
        self.type_list(&results);
        if parens {
            self.out.push(')');
        }
    }

    /// ` iter_args(%a = %x, …)`: loop-carried arguments and their initial
    /// values (`printInitializationList`).
    fn iter_args(&mut self, args: &[ValueId], inits: &[ValueId]) {
        self.out.push_str(" iter_args(");
        for (k, init) in inits.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            if let Some(&a) = args.get(k) {
                self.value(a);
            }
            self.out.push_str(" = ");
            self.value(*init);
        }
    }

    fn value_list(&mut self, vals: &[ValueId]) {
        for (k, &v) in vals.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
        }
    }

    /// The types `type(…)` of a variable or directive refers to.
    fn types_of(&self, op: OpId, syn: &OpSyntax, e: &Element) -> Vec<TypeId> {
        let m = self.shared.m;
        let tys = |vals: Vec<ValueId>| vals.iter().map(|&v| m.value(v).ty).collect();
        match e {
            Element::Var(Var::Operand(i)) => tys(operand_group(m, op, syn, *i)),
            Element::Operands => tys(m.operands(op).to_vec()),
            Element::Var(Var::Result(i)) => tys(result_group(m, op, syn, *i)),
            Element::Results => tys(m.op(op).results().collect()),
            Element::Type(inner) | Element::Qualified(inner) => self.types_of(op, syn, inner),
            _ => Vec::new(),
        }
    }

    /// `type($x)`: a single value's type stripped of its dialect prefix
    /// where its constraint names a dialect type (`printStrippedAttrOrType`),
    /// else the types in full, separated by commas.
    fn type_of(&mut self, op: OpId, syn: &OpSyntax, inner: &Element, qualified: bool) {
        let (inner, qualified) = match inner {
            Element::Qualified(i) => (&**i, true),
            i => (i, qualified),
        };
        let spec: Option<&ValueSpec> = match inner {
            Element::Var(Var::Operand(i)) => Some(&syn.operands[*i]),
            Element::Var(Var::Result(i)) => Some(&syn.results[*i]),
            _ => None,
        };
        let types = self.types_of(op, syn, inner);
        if let (Some(spec), false, [t]) = (spec, qualified, types.as_slice()) {
            if spec.arity == Arity::Single {
                if let Some(def) = &spec.def {
                    if self.stripped_type(*t, def) {
                        return;
                    }
                }
            }
        }
        for (k, t) in types.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(*t);
        }
    }

    /// A dialect type `dialect.mnemonic` printed without that prefix: its
    /// alias if it has one, else its parameters, else (none) in full.
    /// `false` where `t` is not of that dialect type.
    fn stripped_type(&mut self, t: TypeId, def: &str) -> bool {
        let m = self.shared.m;
        let TypeData::Dialect(body) = m.ctx.ty(t) else {
            return false;
        };
        let text = self.body_string(body);
        let Some((dialect, mnemonic)) = def.split_once('.') else {
            return false;
        };
        if &*body.dialect != dialect || !text.starts_with(mnemonic) {
            return false;
        }
        let params = &text[mnemonic.len()..];
        if params.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.') {
            return false;
        }
        if self.try_alias(Sym::Type(t)) {
            return true;
        }
        if params.is_empty() {
            self.ty(t);
        } else {
            self.out.push_str(params);
        }
        true
    }

    /// An attribute variable, as mlir-tblgen's printer prints it by kind.
    fn attr_var(
        &mut self,
        spec: &rmlir_format::op_format::catalog::AttrSpec,
        a: AttrId,
        qualified: bool,
    ) {
        let m = self.shared.m;
        match spec.kind {
            AttrKind::Enum => {
                let v = match m.ctx.attr(a) {
                    AttrData::Integer { value, .. } => i64::try_from(value).ok(),
                    _ => None,
                };
                match spec.cases.iter().find(|(_, c)| Some(*c) == v) {
                    Some((case, _)) => keyword_or_string(case.as_bytes(), &mut self.out),
                    None => self.attr(a, Elide::Never),
                }
            }
            AttrKind::Symbol => match m.ctx.attr(a) {
                AttrData::String { value, .. } => symbol_ref(value, &mut self.out),
                _ => self.attr(a, Elide::Never),
            },
            AttrKind::Unit => {}
            AttrKind::Def if !qualified => self.stripped_attr_var(a),
            AttrKind::Array if !qualified => match m.ctx.attr(a) {
                AttrData::DenseArray { elem, data } => {
                    if self.try_alias(Sym::Attr(a)) {
                        return;
                    }
                    self.out.push('[');
                    self.dense_array_elems(*elem, data);
                    self.out.push(']');
                }
                _ => self.attr(a, Elide::Never),
            },
            AttrKind::Type if !qualified => match m.ctx.attr(a) {
                AttrData::Type(t) => self.ty(*t),
                _ => self.attr(a, Elide::Never),
            },
            AttrKind::Attr if spec.build.is_some() => self.attr(a, Elide::All),
            _ => self.attr(a, Elide::Never),
        }
    }

    /// A dialect attribute without its `#dialect.mnemonic`: its alias if
    /// it has one, else its parameters, else (none) in full.
    fn stripped_attr_var(&mut self, a: AttrId) {
        let m = self.shared.m;
        if let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) {
            if self.try_alias(Sym::Attr(a)) {
                return;
            }
            let text = self.body_string(body);
            let params = text
                .trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if !params.is_empty() && params.len() < text.len() {
                // From MLIR 23 on, the parameters print without the space
                // that follows the mnemonic (jaxlib's `stablehlo.compare
                // EQ`, mlir-opt 22's `gpu.thread_id  x`).
                let params = if self.shared.host.mlir_major > LAST_SPACED_STRIPPED_ATTR {
                    params.strip_prefix(' ').unwrap_or(params)
                } else {
                    params
                };
                self.out.push_str(params);
                return;
            }
        }
        self.attr(a, Elide::Never);
    }

    /// Whether attribute variable `i` is printed by `elements`: `None`
    /// where they do not hold it, `Some(false)` where it is in an
    /// optional group that is not printed.
    fn var_printed(
        &self,
        op: OpId,
        syn: &OpSyntax,
        elements: &[Element],
        i: usize,
    ) -> Option<bool> {
        for e in elements {
            match e {
                Element::Var(Var::Attr(k)) if *k == i => return Some(true),
                Element::Optional {
                    then,
                    anchor,
                    otherwise,
                } => {
                    let present = self.anchor_present(op, syn, &then[*anchor]);
                    if let Some(p) = self.var_printed(op, syn, then, i) {
                        return Some(p && present);
                    }
                    if let Some(p) = self.var_printed(op, syn, otherwise, i) {
                        return Some(p && !present);
                    }
                }
                Element::Custom { args, .. } => {
                    if let Some(p) = self.var_printed(op, syn, args, i) {
                        return Some(p);
                    }
                }
                Element::OIList(clauses) => {
                    for c in clauses {
                        if let Some(p) = self.var_printed(op, syn, c, i) {
                            return Some(p);
                        }
                    }
                }
                Element::Type(x) | Element::Qualified(x) => {
                    if let Some(p) = self.var_printed(op, syn, std::slice::from_ref(x), i) {
                        return Some(p);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether an optional group's anchor is present.
    fn anchor_present(&self, op: OpId, syn: &OpSyntax, e: &Element) -> bool {
        let m = self.shared.m;
        match e {
            Element::Var(Var::Operand(i)) => !operand_group(m, op, syn, *i).is_empty(),
            Element::Operands => !m.operands(op).is_empty(),
            Element::Var(Var::Result(i)) => !result_group(m, op, syn, *i).is_empty(),
            Element::Results => m.op(op).num_results > 0,
            Element::Var(Var::Region(i)) => region_group(m, op, syn, *i)
                .iter()
                .any(|&r| !m.region(r).blocks.is_empty()),
            Element::Var(Var::Successor(i)) => !successor_group(m, op, syn, *i).is_empty(),
            Element::Successors => !m.op(op).successors().is_empty(),
            // A named enum property other than its empty case.
            Element::Var(Var::Prop(i)) => {
                match inherent(m, op, syn.props[*i].name.as_bytes()).map(|a| m.ctx.attr(a)) {
                    None => false,
                    Some(AttrData::Integer { value, .. }) => value.sign() != Sign::NoSign,
                    Some(_) => true,
                }
            }
            Element::Var(Var::Attr(i)) => {
                let spec = &syn.attrs[*i];
                // Present, and for a default-valued attribute not holding
                // its default (an optional one has none to hold).
                inherent(m, op, spec.name.as_bytes())
                    .is_some_and(|a| !self.is_default(op, spec.name.as_bytes(), a))
            }
            Element::Type(inner) | Element::Qualified(inner) => self.anchor_present(op, syn, inner),
            Element::FunctionalType(a, _) => self.anchor_present(op, syn, a),
            // A custom directive is there when any of its arguments is.
            Element::Custom { args, .. } => args.iter().any(|a| self.anchor_present(op, syn, a)),
            // An optional group (within an `oilist` clause) when any of its
            // variables is.
            Element::Optional { then, .. } => then.iter().any(|e| {
                !matches!(e, Element::Literal(_) | Element::Space(_))
                    && self.anchor_present(op, syn, e)
            }),
            _ => true,
        }
    }

    /// Whether attribute `name` of `op` holds its default value (the
    /// op's default properties, SPEC.md §7.1), compared as printed.
    fn is_default(&self, op: OpId, name: &[u8], a: AttrId) -> bool {
        let m = self.shared.m;
        let query = DefaultQuery {
            op: m.op(op).name.0,
            attr: a.0,
            name,
        };
        if let Some(known) = self.shared.hows.defaults.known(&query) {
            return known;
        }
        let is = self.is_default_uncached(op, name, a);
        self.shared.hows.defaults.remember(query, is);
        is
    }

    fn is_default_uncached(&self, op: OpId, name: &[u8], a: AttrId) -> bool {
        let m = self.shared.m;
        let Some(info) = op_info(self.shared.host, m.op_names.get(m.op(op).name)) else {
            return false;
        };
        let Some(defaults) = &info.default_properties else {
            return false;
        };
        let Some(want) = default_entry(defaults, name) else {
            return false;
        };
        let none = Aliases::none();
        let shared = Shared {
            aliases: &none,
            ..self.shared
        };
        let mut p = Printer::new_nested(shared, 0);
        p.attr(a, Elide::Never);
        p.out == want
    }

    /// `attr-dict`: the op's attributes (inherent and discardable, sorted
    /// by name) but those the format prints, segment sizes and attributes
    /// holding their default value.
    fn format_attr_dict(&mut self, op: OpId, syn: &OpSyntax, with_keyword: bool) {
        let mut used: Vec<&str> = vec!["operandSegmentSizes", "resultSegmentSizes"];
        used.extend(syn.operands.iter().filter_map(|o| o.segments.as_deref()));
        if let Some(Ok(els)) = syn.elements() {
            collect_attr_vars(syn, els, &mut used);
        }
        let entries = self.printed_attrs(op, syn, &used);
        if entries.is_empty() {
            return;
        }
        if with_keyword {
            self.out.push_str(" attributes");
        }
        self.out.push_str(" {");
        self.dict_entries(&entries);
        self.out.push('}');
    }

    /// The attributes `attr-dict` prints: inherent ones (in the properties,
    /// those ODS declares as attributes) and discardable ones, sorted by
    /// name, less `elided` and those holding their default.
    fn printed_attrs(&self, op: OpId, syn: &OpSyntax, elided: &[&str]) -> Vec<(Bytes, AttrId)> {
        let m = self.shared.m;
        let o = m.op(op);
        let mut out: Vec<(Bytes, AttrId)> = Vec::new();
        if let Some(AttrData::Dictionary(d)) = o.properties.map(|p| m.ctx.attr(p)) {
            for (k, v) in d {
                let is_attr = syn.attrs.iter().any(|a| a.name.as_bytes() == &k[..]);
                let name = std::str::from_utf8(k).unwrap_or_default();
                if !is_attr || elided.contains(&name) || self.is_default(op, k, *v) {
                    continue;
                }
                out.push((k.clone(), *v));
            }
        }
        if let AttrData::Dictionary(d) = m.ctx.attr(o.attributes) {
            for (k, v) in d {
                let name = std::str::from_utf8(k).unwrap_or_default();
                if elided.contains(&name) {
                    continue;
                }
                out.push((k.clone(), *v));
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// A region of a declaratively printed op: entry block arguments
    /// shown, the terminator left out where the op has an implicit one
    /// that holds nothing (no operands, results or attributes).
    fn format_region(&mut self, op: OpId, syn: &OpSyntax, r: RegionId) {
        let terminators = !declarative_hides_terminator(self.shared.m, syn, r);
        self.custom_region(op, r, true, terminators);
    }

    /// `printRegion`: `{`, the blocks (the entry block's header where
    /// `entry_args` and it has arguments), `}`; the last op of each block
    /// left out where `terminators` is false and it is a terminator.
    pub(super) fn custom_region(
        &mut self,
        op: OpId,
        r: RegionId,
        entry_args: bool,
        terminators: bool,
    ) {
        let m = self.shared.m;
        let name = std::str::from_utf8(m.op_names.get(m.op(op).name)).unwrap_or_default();
        self.default_dialects
            .push(printed_default_dialect(name).unwrap_or(""));
        self.out.push_str("{\n");
        let blocks = &m.region(r).blocks;
        if let Some(&entry) = blocks.first() {
            let header = entry_args && !m.block(entry).args.is_empty();
            self.block_with(entry, header, !terminators);
            for &b in &blocks[1..] {
                self.block_with(b, true, false);
            }
        }
        self.pad();
        self.out.push('}');
        self.default_dialects.pop();
    }

    // ----- hand-written printers -----

    /// `function_interface_impl::printFunctionOp`: visibility, `@name`,
    /// the arguments (named, typed, with their attributes and locations),
    /// `->` and the results, `attributes {…}`, the body.
    fn function_op(&mut self, op: OpId, syn: &OpSyntax) {
        let m = self.shared.m;
        self.out.push(' ');
        if let Some(v) = inherent(m, op, b"sym_visibility") {
            if let AttrData::String { value, .. } = m.ctx.attr(v) {
                self.out.push_str(&String::from_utf8_lossy(value));
                self.out.push(' ');
            }
        }
        self.name_and_signature(op);
        let elided = [
            "sym_name",
            "sym_visibility",
            "function_type",
            "arg_attrs",
            "res_attrs",
        ];
        let entries = self.printed_attrs(op, syn, &elided);
        if !entries.is_empty() {
            self.out.push_str(" attributes {");
            self.dict_entries(&entries);
            self.out.push('}');
        }
        let body = m.op(op).regions().first().copied();
        if let Some(r) = body.filter(|&r| !m.region(r).blocks.is_empty()) {
            self.out.push(' ');
            self.custom_region(op, r, false, true);
        }
    }

    /// `@name` and the function signature of a function op, from its
    /// `sym_name` and `function_type`; its inputs' types.
    pub(super) fn name_and_signature(&mut self, op: OpId) -> Vec<TypeId> {
        let m = self.shared.m;
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        let (ins, outs) = match inherent(m, op, b"function_type").map(|a| m.ctx.attr(a)) {
            Some(AttrData::Type(t)) => match m.ctx.ty(*t) {
                TypeData::Function { inputs, results } => (inputs.clone(), results.clone()),
                _ => (Vec::new(), Vec::new()),
            },
            _ => (Vec::new(), Vec::new()),
        };
        self.function_signature(op, &ins, &outs);
        ins
    }

    /// `function_interface_impl::printFunctionSignature`: `(%a: t {…}
    /// loc(…), …)`, or the types alone without a body, then ` -> u` or
    /// ` -> (u {…}, …)`, the attributes from `arg_attrs` and `res_attrs`.
    pub(super) fn function_signature(&mut self, op: OpId, ins: &[TypeId], outs: &[TypeId]) {
        let m = self.shared.m;
        let o = m.op(op);
        let dicts = |name: &[u8]| -> Vec<AttrId> {
            match inherent(m, op, name).map(|a| m.ctx.attr(a)) {
                Some(AttrData::Array(v)) => v.clone(),
                _ => Vec::new(),
            }
        };
        let (arg_attrs, res_attrs) = (dicts(b"arg_attrs"), dicts(b"res_attrs"));
        let body = o.regions().first().copied();
        let entry = body.and_then(|r| m.region(r).blocks.first().copied());
        self.out.push('(');
        for (i, &t) in ins.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match entry.and_then(|b| m.block(b).args.get(i).copied()) {
                Some(arg) => self.region_argument(arg, arg_attrs.get(i).copied()),
                None => {
                    self.ty(t);
                    self.optional_dict(arg_attrs.get(i).copied());
                }
            }
        }
        self.out.push(')');
        if !outs.is_empty() {
            self.out.push_str(" -> ");
            let has_attrs = res_attrs.first().is_some_and(
                |&d| matches!(m.ctx.attr(d), AttrData::Dictionary(d) if !d.is_empty()),
            );
            let parens = outs.len() > 1
                || matches!(m.ctx.ty(outs[0]), TypeData::Function { .. })
                || has_attrs;
            if parens {
                self.out.push('(');
            }
            for (i, &t) in outs.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.ty(t);
                self.optional_dict(res_attrs.get(i).copied());
            }
            if parens {
                self.out.push(')');
            }
        }
    }

    /// `printRegionArgument`: `%a: t`, its attributes `{…}` if any, its
    /// location.
    pub(super) fn region_argument(&mut self, arg: ValueId, attrs: Option<AttrId>) {
        let m = self.shared.m;
        self.value(arg);
        self.out.push_str(": ");
        self.ty(m.value(arg).ty);
        self.optional_dict(attrs);
        if let Some(l) = m.value(arg).loc {
            self.out.push(' ');
            self.location(l, false);
        }
    }

    /// `printOptionalAttrDict` of the op's attributes (inherent and
    /// discardable, sorted by name) less `elided`.
    fn all_attrs_less(&mut self, op: OpId, elided: &[&str]) {
        self.all_attrs_with(op, elided, false)
    }

    /// `printOptionalAttrDict`, or with `keyword`
    /// `printOptionalAttrDictWithKeyword` (` attributes {…}`), of the
    /// op's attributes less `elided`.
    fn all_attrs_with(&mut self, op: OpId, elided: &[&str], keyword: bool) {
        let mut entries = op_attrs(self.shared.m, op);
        entries.retain(|(k, _)| !elided.iter().any(|e| e.as_bytes() == &k[..]));
        self.attr_dict_of(&entries, keyword);
    }

    /// ` {…}`, or with `keyword` ` attributes {…}`, of `entries`; nothing
    /// without any.
    pub(super) fn attr_dict_of(&mut self, entries: &[(Bytes, AttrId)], keyword: bool) {
        if !entries.is_empty() {
            if keyword {
                self.out.push_str(" attributes");
            }
            self.out.push_str(" {");
            self.dict_entries(entries);
            self.out.push('}');
        }
    }

    /// `linalg.generic {indexing_maps = …, iterator_types = ["parallel"]}
    /// ins(%a : t) outs(%b : u) attrs =  {…} { … } -> t`: the iterator
    /// types as strings, other attributes after `attrs = `.
    fn linalg_generic(&mut self, op: OpId) {
        const TRAIT_ATTRS: [&str; 4] = ["doc", "indexing_maps", "iterator_types", "library_call"];
        let m = self.shared.m;
        let o = m.op(op);
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        let mut extra = false;
        for d in [o.properties, Some(o.attributes)].into_iter().flatten() {
            if let AttrData::Dictionary(d) = m.ctx.attr(d) {
                for (k, v) in d {
                    if TRAIT_ATTRS.iter().any(|t| t.as_bytes() == &k[..]) {
                        entries.push((k.clone(), *v));
                    } else if &k[..] != b"operandSegmentSizes" {
                        extra = true;
                    }
                }
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.out.push(' ');
        if !entries.is_empty() {
            self.out.push('{');
            for (i, (k, v)) in entries.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                keyword_or_string(k, &mut self.out);
                self.out.push_str(" = ");
                if &k[..] == b"iterator_types" {
                    self.iterator_types(*v);
                } else {
                    self.attr(*v, Elide::Never);
                }
            }
            self.out.push('}');
        }
        let ops = m.operands(op).to_vec();
        self.ins_outs(op, &ops);
        if extra {
            self.out.push_str(" attrs = ");
            self.all_attrs_less(
                op,
                &[
                    "doc",
                    "indexing_maps",
                    "iterator_types",
                    "library_call",
                    "operandSegmentSizes",
                ],
            );
        }
        if let Some(&r) = o
            .regions()
            .first()
            .filter(|&&r| !m.region(r).blocks.is_empty())
        {
            self.out.push(' ');
            self.custom_region(op, r, true, true);
        }
        self.arrow_result_types(op);
    }

    /// A named op of linalg: ` indexing_maps = […]` where a contraction's
    /// maps are not its default ones, its attributes, `ins(…)`, `outs(…)`,
    /// `-> t`.
    fn linalg_named(&mut self, op: OpId, dsl: &rmlir_format::op_format::opdsl::OpDslOp) {
        let m = self.shared.m;
        if let (Some(default), Some(maps)) = (&dsl.default_maps, inherent(m, op, b"indexing_maps"))
        {
            let none = Aliases::none();
            let mut local = Printer::new_nested(
                Shared {
                    aliases: &none,
                    ..self.shared
                },
                0,
            );
            local.attr(maps, Elide::Never);
            if &local.out != default {
                self.out.push_str(" indexing_maps = ");
                self.attr(maps, Elide::Never);
            }
        }
        self.all_attrs_less(
            op,
            &[
                "operandSegmentSizes",
                "linalg.memoized_indexing_maps",
                "indexing_maps",
            ],
        );
        let ops = m.operands(op).to_vec();
        self.ins_outs(op, &ops);
        self.arrow_result_types(op);
    }

    /// linalg's iterator types as the strings they were before they were
    /// an enum (`["parallel", "reduction"]`).
    fn iterator_types(&mut self, a: AttrId) {
        let m = self.shared.m;
        let AttrData::Array(items) = m.ctx.attr(a) else {
            self.attr(a, Elide::Never);
            return;
        };
        self.out.push('[');
        for (i, &it) in items.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match m.ctx.attr(it) {
                AttrData::Dialect { body, .. } => match body.pieces.as_slice() {
                    [BodyPiece::Text(t)] => {
                        let kind = t
                            .strip_prefix("iterator_type<")
                            .and_then(|k| k.strip_suffix('>'))
                            .unwrap_or(t);
                        quoted(kind.as_bytes(), &mut self.out);
                    }
                    _ => self.attr(it, Elide::Never),
                },
                _ => self.attr(it, Elide::Never),
            }
        }
        self.out.push(']');
    }

    /// `arith.select %c, %a, %b {…} : [cond type, ]t`: the condition's
    /// type only where it is shaped.
    fn arith_select(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        self.value_list(&ops);
        self.all_attrs_less(op, &[]);
        self.out.push_str(" : ");
        if let Some(&c) = ops.first() {
            let t = m.value(c).ty;
            if m.ctx.ty(t).shape().is_some()
                || matches!(
                    m.ctx.ty(t),
                    TypeData::UnrankedTensor { .. } | TypeData::UnrankedMemRef { .. }
                )
            {
                self.ty(t);
                self.out.push_str(", ");
            }
        }
        if let Some(r) = m.op(op).results().next() {
            self.ty(m.value(r).ty);
        }
    }

    /// `bufferization.alloc_tensor(%d) copy(%c) size_hint=%h {…} : tensor<…>`.
    fn alloc_tensor(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let sizes = operand_segments(m, op).unwrap_or_else(|| vec![ops.len(), 0, 0]);
        let group = |k: usize| segment(&ops, &sizes, k);
        self.out.push('(');
        self.value_list(&group(0));
        self.out.push(')');
        if let Some(&c) = group(1).first() {
            self.out.push_str(" copy(");
            self.value(c);
            self.out.push(')');
        }
        if let Some(&h) = group(2).first() {
            self.out.push_str(" size_hint=");
            self.value(h);
        }
        self.all_attrs_less(op, &["operandSegmentSizes"]);
        self.out.push_str(" : ");
        if let Some(r) = m.op(op).results().next() {
            self.ty(m.value(r).ty);
        }
    }

    /// `vector.transfer_read %base[%i, %j], %pad[, %mask] {…} : memref<…>,
    /// vector<…>` and `vector.transfer_write %v, %base[%i][, %mask] {…} :
    /// vector<…>, memref<…>`: `permutation_map` left out where it is a
    /// minor identity, `in_bounds` where no dimension is in bounds.
    fn transfer(&mut self, op: OpId, read: bool) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let Some(sizes) = operand_segments(m, op) else {
            return;
        };
        let group = |k: usize| segment(&ops, &sizes, k);
        // Read: base, indices, padding, mask; write: vector, base, indices, mask.
        let (base, indices, other, mask) = if read {
            (group(0), group(1), group(2), group(3))
        } else {
            (group(1), group(2), group(0), group(3))
        };
        self.out.push(' ');
        if !read {
            self.value_list(&other);
            self.out.push_str(", ");
        }
        self.value_list(&base);
        self.out.push('[');
        self.value_list(&indices);
        self.out.push(']');
        if read {
            self.out.push_str(", ");
            self.value_list(&other);
        }
        if let Some(&k) = mask.first() {
            self.out.push_str(", ");
            self.value(k);
        }
        self.all_attrs_less(op, &transfer_elided(m, op));
        self.out.push_str(" : ");
        let ty = |v: &[ValueId]| v.first().map(|&v| m.value(v).ty);
        let (first, second) = if read {
            (ty(&base), m.op(op).results().next().map(|r| m.value(r).ty))
        } else {
            (ty(&other), ty(&base))
        };
        if let Some(t) = first {
            self.ty(t);
        }
        self.out.push_str(", ");
        if let Some(t) = second {
            self.ty(t);
        }
    }

    /// `linalg.yield %a, %b {…} : t, u`.
    fn linalg_yield(&mut self, op: OpId) {
        let m = self.shared.m;
        let vals = m.operands(op).to_vec();
        if !vals.is_empty() {
            self.out.push(' ');
            self.value_list(&vals);
        }
        self.all_attrs_less(op, &[]);
        if !vals.is_empty() {
            self.out.push_str(" : ");
            self.type_list(&vals);
        }
    }

    fn type_list(&mut self, vals: &[ValueId]) {
        let m = self.shared.m;
        for (k, &v) in vals.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            self.ty(m.value(v).ty);
        }
    }

    /// `scf.if %c -> (t) { … } else { … } {…}`: the terminators shown only
    /// where the op has results.
    fn scf_if(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let cond = m.operands(op).first().copied();
        self.out.push(' ');
        if let Some(c) = cond {
            self.value(c);
        }
        let results: Vec<ValueId> = o.results().collect();
        if !results.is_empty() {
            self.out.push_str(" -> (");
            self.type_list(&results);
            self.out.push(')');
        }
        self.then_else(op, !results.is_empty());
        self.all_attrs_less(op, &[]);
    }

    /// ` { then } else { other }` of `scf.if` and `affine.if`: the else
    /// region only where it has a block, entry blocks without headers,
    /// terminators shown where `terminators`.
    pub(super) fn then_else(&mut self, op: OpId, terminators: bool) {
        let m = self.shared.m;
        let regions = m.op(op).regions().to_vec();
        self.out.push(' ');
        if let Some(&then) = regions.first() {
            self.custom_region(op, then, false, terminators);
        }
        if let Some(&other) = regions.get(1).filter(|&&r| !m.region(r).blocks.is_empty()) {
            self.out.push_str(" else ");
            self.custom_region(op, other, false, terminators);
        }
    }

    /// `scf.for [unsigned] %i = %lb to %ub step %s iter_args(%a = %x) ->
    /// (t) [ : i32] { … } {…}`.
    fn scf_for(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        if let Some(AttrData::Unit) = inherent(m, op, b"unsignedCmp").map(|a| m.ctx.attr(a)) {
            self.out.push_str(" unsigned");
        }
        let Some(&body) = o.regions().first() else {
            return;
        };
        let args = entry_args(m, body);
        self.out.push(' ');
        if let Some(&iv) = args.first() {
            self.value(iv);
        }
        self.out.push_str(" = ");
        for (k, word) in [(0, ""), (1, " to "), (2, " step ")] {
            self.out.push_str(word);
            if let Some(&v) = ops.get(k) {
                self.value(v);
            }
        }
        let inits = ops.get(3..).unwrap_or_default().to_vec();
        if !inits.is_empty() {
            self.iter_args(args.get(1..).unwrap_or_default(), &inits);
            self.out.push_str(") -> (");
            self.type_list(&inits);
            self.out.push(')');
        }
        self.out.push(' ');
        if let Some(&iv) = args.first() {
            let t = m.value(iv).ty;
            if !matches!(m.ctx.ty(t), TypeData::Index) {
                self.out.push_str(" : ");
                self.ty(t);
                self.out.push(' ');
            }
        }
        self.custom_region(op, body, false, !inits.is_empty());
        self.all_attrs_less(op, &["unsignedCmp"]);
    }

    /// `vector.contract {indexing_maps = …, iterator_types = [strings],
    /// kind = …} %lhs, %rhs, %acc {…} : t, u into v`.
    fn vector_contract(&mut self, op: OpId) {
        const TRAIT_ATTRS: [&str; 3] = ["indexing_maps", "iterator_types", "kind"];
        let m = self.shared.m;
        let o = m.op(op);
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        for d in [o.properties, Some(o.attributes)].into_iter().flatten() {
            if let AttrData::Dictionary(d) = m.ctx.attr(d) {
                entries.extend(
                    d.iter()
                        .filter(|(k, _)| TRAIT_ATTRS.iter().any(|t| t.as_bytes() == &k[..]))
                        .cloned(),
                );
            }
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        self.out.push_str(" {");
        for (i, (k, v)) in entries.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            keyword_or_string(k, &mut self.out);
            self.out.push_str(" = ");
            if &k[..] == b"iterator_types" {
                self.iterator_types(*v);
            } else {
                self.attr(*v, Elide::Never);
            }
        }
        self.out.push_str("} ");
        let ops = m.operands(op).to_vec();
        self.value_list(&ops[..ops.len().min(3)]);
        self.all_attrs_less(op, &TRAIT_ATTRS);
        self.out.push_str(" : ");
        if let [l, r, ..] = ops.as_slice() {
            self.ty(m.value(*l).ty);
            self.out.push_str(", ");
            self.ty(m.value(*r).ty);
        }
        self.out.push_str(" into ");
        if let Some(res) = o.results().next() {
            self.ty(m.value(res).ty);
        }
    }

    /// `scf.parallel (%i) = (%lb) to (%ub) step (%s) init (%x) -> t { … }
    /// {…}`.
    fn scf_parallel(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        let Some(sizes) = operand_segments(m, op) else {
            return;
        };
        let group = |k: usize| segment(&ops, &sizes, k);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let args = entry_args(m, body);
        self.out.push_str(" (");
        self.value_list(&args);
        self.out.push_str(") = (");
        self.value_list(&group(0));
        self.out.push_str(") to (");
        self.value_list(&group(1));
        self.out.push_str(") step (");
        self.value_list(&group(2));
        self.out.push(')');
        let inits = group(3);
        if !inits.is_empty() {
            self.out.push_str(" init (");
            self.value_list(&inits);
            self.out.push(')');
        }
        self.arrow_result_types(op);
        self.out.push(' ');
        self.custom_region(op, body, false, true);
        self.all_attrs_less(op, &["operandSegmentSizes"]);
    }

    /// `shape.const_shape {…}[1, 2] : t`.
    fn const_shape(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        self.all_attrs_less(op, &["shape"]);
        self.out.push('[');
        if let Some(AttrData::DenseIntOrFp { ty, splat, data }) =
            inherent(m, op, b"shape").map(|a| m.ctx.attr(a))
        {
            let n = m
                .ctx
                .ty(*ty)
                .shape()
                .map_or(0, |s| s.iter().product::<i64>())
                .max(0) as usize;
            for i in 0..n {
                if i > 0 {
                    self.out.push_str(", ");
                }
                let at = if *splat { 0 } else { i * 8 };
                if let Some(c) = data.get(at..at + 8) {
                    let v = i64::from_le_bytes(c.try_into().expect("8 bytes"));
                    let _ = write!(self.out, "{v}");
                }
            }
        }
        self.out.push_str("] : ");
        if let Some(r) = m.op(op).results().next() {
            self.ty(m.value(r).ty);
        }
    }

    /// `affine.load %m[%i + 1, symbol(%n)] {…} : memref<…>` and
    /// `affine.store %v, %m[…] {…} : memref<…>`: the map's results with its
    /// operands' names (`printAffineMapOfSSAIds`).
    fn affine_load_store(&mut self, op: OpId, load: bool, vector: bool) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let (value, rest) = if load {
            (None, &ops[..])
        } else {
            (ops.first().copied(), ops.get(1..).unwrap_or_default())
        };
        let Some((&memref, indices)) = rest.split_first() else {
            return;
        };
        self.out.push(' ');
        if let Some(v) = value {
            self.value(v);
            self.out.push_str(", ");
        }
        self.value(memref);
        self.out.push('[');
        if let Some(AttrData::AffineMap(map)) = inherent(m, op, b"map").map(|a| m.ctx.attr(a)) {
            self.ssa_exprs(&map.results, map.num_dims, indices);
        }
        self.out.push(']');
        self.all_attrs_less(op, &["map"]);
        self.out.push_str(" : ");
        self.ty(m.value(memref).ty);
        // `affine.vector_load` and `affine.vector_store`: the vector type.
        if vector {
            let v = if load {
                m.op(op).results().next()
            } else {
                value
            };
            if let Some(v) = v {
                self.out.push_str(", ");
                self.ty(m.value(v).ty);
            }
        }
    }

    /// `affine.for %i = 0 to %n step 2 iter_args(%a = %x) -> (t) { … }
    /// {…}`: a bound as its constant or symbol where it is one, else `max`
    /// / `min` and its map with its operands.
    fn affine_for(&mut self, op: OpId) {
        let m = self.shared.m;
        let o = m.op(op);
        let ops = m.operands(op).to_vec();
        let Some(sizes) = operand_segments(m, op) else {
            return;
        };
        let group = |k: usize| segment(&ops, &sizes, k);
        let Some(&body) = o.regions().first() else {
            return;
        };
        let args = entry_args(m, body);
        self.out.push(' ');
        if let Some(&iv) = args.first() {
            self.value(iv);
            if let Some(l) = m.value(iv).loc {
                self.out.push(' ');
                self.location(l, false);
            }
        }
        self.out.push_str(" = ");
        self.affine_bound(b"lowerBoundMap", &group(0), "max", op);
        self.out.push_str(" to ");
        self.affine_bound(b"upperBoundMap", &group(1), "min", op);
        if let Some(AttrData::Integer { value, .. }) =
            inherent(m, op, b"step").map(|a| m.ctx.attr(a))
        {
            if *value != BigInt::from(1) {
                let _ = write!(self.out, " step {value}");
            }
        }
        let inits = group(2);
        if !inits.is_empty() {
            self.iter_args(args.get(1..).unwrap_or_default(), &inits);
            self.out.push_str(") -> (");
            let results: Vec<ValueId> = o.results().collect();
            self.type_list(&results);
            self.out.push(')');
        }
        self.out.push(' ');
        self.custom_region(op, body, false, !inits.is_empty());
        self.all_attrs_less(
            op,
            &[
                "lowerBoundMap",
                "upperBoundMap",
                "step",
                "operandSegmentSizes",
            ],
        );
    }

    /// One bound of `affine.for` (`printBound`).
    fn affine_bound(&mut self, name: &[u8], operands: &[ValueId], prefix: &str, op: OpId) {
        use rmlir_format::affine::AffineExpr;
        let m = self.shared.m;
        let Some(a) = inherent(m, op, name) else {
            return;
        };
        let AttrData::AffineMap(map) = m.ctx.attr(a) else {
            return;
        };
        if map.results.len() == 1 {
            if map.num_dims == 0 && map.num_symbols == 0 {
                if let AffineExpr::Constant(c) = map.results[0] {
                    let _ = write!(self.out, "{c}");
                    return;
                }
            }
            if map.num_dims == 0 && map.num_symbols == 1 {
                if let (AffineExpr::Symbol(_), Some(&v)) = (&map.results[0], operands.first()) {
                    self.value(v);
                    return;
                }
            }
        } else {
            self.out.push_str(prefix);
            self.out.push(' ');
        }
        let dims = map.num_dims as usize;
        self.attr(a, Elide::Never);
        let (d, s) = operands.split_at(dims.min(operands.len()));
        self.out.push('(');
        self.value_list(d);
        self.out.push(')');
        if !s.is_empty() {
            self.out.push('[');
            self.value_list(s);
            self.out.push(']');
        }
    }

    /// `affine.apply #map(%d0)[%s0] {…}`.
    fn affine_apply(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(map) = inherent(m, op, b"map") else {
            return;
        };
        let dims = match m.ctx.attr(map) {
            AttrData::AffineMap(a) => a.num_dims as usize,
            _ => 0,
        };
        self.out.push(' ');
        self.attr(map, Elide::Never);
        let ops = m.operands(op).to_vec();
        self.dim_and_symbol_list(&ops, dims);
        self.all_attrs_less(op, &["map"]);
    }

    /// ` {…}` for a non-empty dictionary attribute.
    fn optional_dict(&mut self, d: Option<AttrId>) {
        let m = self.shared.m;
        if let Some(AttrData::Dictionary(d)) = d.map(|d| m.ctx.attr(d)) {
            if !d.is_empty() {
                self.out.push_str(" {");
                self.dict_entries(d);
                self.out.push('}');
            }
        }
    }
}

/// The attributes a vector transfer op's printer leaves out: its segment
/// sizes, `permutation_map` where it is a minor identity, `in_bounds`
/// where no dimension is in bounds (`printTransferAttrs`).
fn transfer_elided(m: &Module, op: OpId) -> Vec<&'static str> {
    let mut elided = vec!["operandSegmentSizes"];
    if let Some(AttrData::AffineMap(map)) =
        inherent(m, op, b"permutation_map").map(|a| m.ctx.attr(a))
    {
        let n = map.results.len() as u32;
        let minor_identity = map.num_symbols == 0
            && map.num_dims >= n
            && map.results.iter().enumerate().all(|(i, e)| {
                matches!(e, rmlir_format::affine::AffineExpr::Dim(d) if *d == map.num_dims - n + i as u32)
            });
        if minor_identity {
            elided.push("permutation_map");
        }
    }
    let any_in_bounds = match inherent(m, op, b"in_bounds").map(|a| m.ctx.attr(a)) {
        Some(AttrData::Array(items)) => items.iter().any(|&b| {
            matches!(m.ctx.attr(b), AttrData::Integer { value, .. } if value.sign() != Sign::NoSign)
        }),
        _ => false,
    };
    if !any_in_bounds {
        elided.push("in_bounds");
    }
    elided
}

/// How ops named `name` print in the custom form as far as the name
/// decides (the op itself may still not fit: `Printer::custom_how`).
pub(super) fn name_how(host: &rmlir_dialects::hosts::Host, name: &[u8]) -> Option<How> {
    let dialect = name.split(|&c| c == b'.').next()?;
    let dialect = std::str::from_utf8(dialect).ok()?;
    if !host.registers(dialect) || host.leaves_unregistered(name) {
        return None;
    }
    // Before the ODS data: some ported ops have none (`affine.dma_start`
    // is defined in C++ alone).
    if let Some((_, hand)) = HAND_WRITTEN.iter().find(|(n, _)| n.as_bytes() == name) {
        return Some(How::Hand(*hand));
    }
    let syn = op_syntax(host, name)?;
    if FUNCTION_OPS.iter().any(|f| f.as_bytes() == name) {
        return Some(How::Function(syn));
    }
    if let Some(dsl) = rmlir_format::op_format::opdsl::op(std::str::from_utf8(name).ok()?) {
        return Some(How::LinalgNamed(dsl));
    }
    let elements = syn.elements()?.as_ref().ok()?;
    declarative_supported(syn, elements, dialect).then_some(How::Declarative(syn, elements))
}

/// How each op of a module prints in the custom form, decided once
/// before printing: the printer and the alias walk ask per op, several
/// times each (SPEC.md §11.4).
#[derive(Default)]
pub(super) struct Hows {
    /// [`name_how`] of each op name, by name id.
    by_name: Vec<Option<How>>,
    /// How each op name names its results, by name id.
    naming: Vec<Naming>,
    /// Whether each op, by op id, prints as its name says
    /// (`Printer::op_fits`); empty where not computed.
    fits: Vec<bool>,
    /// Which attributes hold their default value, by op name, value and
    /// attribute name (`Printer::is_default`, which compares them as
    /// printed): asked for each op of a kind, and a module's ops share
    /// few values.
    defaults: DefaultsSeen,
}

/// The answers of `Printer::is_default` so far, shared by the printing
/// threads.
#[derive(Default)]
struct DefaultsSeen(std::sync::RwLock<hashbrown::HashMap<DefaultKey, bool, FastBuildHasher>>);

/// A question of `Printer::is_default`, kept.
#[derive(Hash, PartialEq, Eq)]
struct DefaultKey {
    op: u32,
    attr: u32,
    name: Box<[u8]>,
}

/// A question of `Printer::is_default`, asked: hashes as its
/// [`DefaultKey`] does.
#[derive(Hash)]
struct DefaultQuery<'a> {
    op: u32,
    attr: u32,
    name: &'a [u8],
}

impl hashbrown::Equivalent<DefaultKey> for DefaultQuery<'_> {
    fn equivalent(&self, key: &DefaultKey) -> bool {
        self.op == key.op && self.attr == key.attr && self.name == &key.name[..]
    }
}

impl DefaultsSeen {
    fn known(&self, q: &DefaultQuery<'_>) -> Option<bool> {
        self.0.read().ok()?.get(q).copied()
    }

    fn remember(&self, q: DefaultQuery<'_>, is: bool) {
        if let Ok(mut seen) = self.0.write() {
            seen.insert(
                DefaultKey {
                    op: q.op,
                    attr: q.attr,
                    name: q.name.into(),
                },
                is,
            );
        }
    }
}

/// Ops per task when the per-op half of [`Hows`] is computed in parallel.
const FITS_CHUNK: usize = 4096;

impl Hows {
    /// The decisions by name alone.
    fn by_name(m: &Module, host: &rmlir_dialects::hosts::Host) -> Hows {
        Hows {
            by_name: (0..m.op_names.len())
                .map(|i| name_how(host, m.op_names.get(OpNameId(i as u32))))
                .collect(),
            naming: (0..m.op_names.len())
                .map(|i| Naming::of(host, m.op_names.get(OpNameId(i as u32))))
                .collect(),
            fits: Vec::new(),
            defaults: DefaultsSeen::default(),
        }
    }

    /// The decisions for every op of `m`, the per-op half split across
    /// the thread pool.
    pub(super) fn compute(m: &Module, host: &'static rmlir_dialects::hosts::Host) -> Hows {
        use rayon::prelude::*;
        let named = Hows::by_name(m, host);
        let mut fits = vec![true; m.ops.len()];
        fits.par_chunks_mut(FITS_CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                with_probe(m, host, &named, |p| {
                    for (i, fit) in chunk.iter_mut().enumerate() {
                        let op = OpId((c * FITS_CHUNK + i) as u32);
                        if let Some(how) = named.by_name[m.op(op).name.index()] {
                            *fit = p.op_fits(op, how);
                        }
                    }
                })
            });
        Hows { fits, ..named }
    }

    /// Appends to `out` the names `op` gives its results in the custom
    /// form (`Naming::result_names`).
    pub(super) fn result_names(
        &self,
        host: &rmlir_dialects::hosts::Host,
        m: &Module,
        op: OpId,
        out: &mut Vec<(u32, String)>,
    ) {
        match self.naming.get(m.op(op).name.index()) {
            Some(n) if n.names_any() => n.result_names(m, op, out),
            Some(_) => {}
            None => Naming::of(host, m.op_name(op)).result_names(m, op, out),
        }
    }
}

/// The ops of `m` the custom form prints generic although mlir-opt
/// prints them in a custom form of their own: ops of a dialect the host
/// registers whose ODS gives them a format or a hand-written printer
/// (or that are missing from the ODS data) and whose printer is not
/// ported. Their text still reads back as the same IR; a caller that
/// wants mlir-opt's text exactly refuses them (SPEC.md §11.4).
pub fn unported_custom_ops(
    m: &Module,
    host: Option<&'static rmlir_dialects::hosts::Host>,
) -> Vec<OpId> {
    let host = host.unwrap_or(&rmlir_dialects::hosts::MLIR_OPT_22);
    let hows = Hows::by_name(m, host);
    with_probe(m, host, &hows, |p| unported_with(p, m, host))
}

fn unported_with(
    p: &Printer<'_, '_>,
    m: &Module,
    host: &'static rmlir_dialects::hosts::Host,
) -> Vec<OpId> {
    let mut out = Vec::new();
    // In print order: the top-level op, then each op's regions in turn.
    let mut stack: Vec<OpId> = m.top.into_iter().collect();
    while let Some(op) = stack.pop() {
        for &r in m.op(op).regions().iter().rev() {
            for &b in m.region(r).blocks.iter().rev() {
                stack.extend(m.block(b).ops.iter().rev().copied());
            }
        }
        let name = m.op_name(op);
        let Some(dialect) = name.split(|&c| c == b'.').next() else {
            continue;
        };
        let registered = std::str::from_utf8(dialect).is_ok_and(|d| host.registers(d))
            && !host.leaves_unregistered(name);
        let has_custom_form =
            op_syntax(host, name).is_none_or(|syn| syn.custom || syn.format.is_some());
        if registered && has_custom_form && p.custom_how(op).is_none() {
            out.push(op);
        }
    }
    out
}

/// Whether the custom form leaves attribute `name` of `op` out of its
/// print, or with no name its regions, for the alias walk (what is not
/// printed gets no alias): segment sizes, default values, attributes of
/// optional groups not printed, those a ported printer elides, the body
/// of linalg's named ops.
pub(crate) fn skips(
    m: &Module,
    host: &'static rmlir_dialects::hosts::Host,
    hows: &Hows,
    op: OpId,
    part: super::super::aliases::Part<'_>,
) -> bool {
    with_probe(m, host, hows, |p| skips_with(p, m, host, op, part))
}

/// Runs `f` with a printer that prints nothing, to ask how ops print.
fn with_probe<R>(
    m: &Module,
    host: &'static rmlir_dialects::hosts::Host,
    hows: &Hows,
    f: impl FnOnce(&Printer<'_, '_>) -> R,
) -> R {
    let names = Names {
        values: Vec::new(),
        blocks: Vec::new(),
        named: Vec::new(),
        groups: Default::default(),
    };
    let preds = HashMap::default();
    let none = Aliases::none();
    let p = Printer::new_nested(
        Shared {
            m,
            names: &names,
            aliases: &none,
            preds: &preds,
            quoted_op_names: &[],
            custom: true,
            host,
            hows,
        },
        0,
    );
    f(&p)
}

fn skips_with(
    p: &Printer<'_, '_>,
    m: &Module,
    host: &'static rmlir_dialects::hosts::Host,
    op: OpId,
    part: super::super::aliases::Part<'_>,
) -> bool {
    use super::super::aliases::Part;
    let how = p.custom_how(op);
    let name = match part {
        Part::Attr(name) => name,
        Part::Regions => {
            return matches!(how, Some(How::LinalgNamed(_)))
                || (matches!(how, Some(How::Hand(_)))
                    && matches!(
                        m.op_names.get(m.op(op).name),
                        b"linalg.transpose" | b"linalg.broadcast"
                    ))
                || (matches!(how, Some(How::Hand(_)))
                    && matches!(
                        m.op_names.get(m.op(op).name),
                        b"linalg.map" | b"linalg.reduce"
                    )
                    && map_or_reduce_short(m, op))
                || (matches!(how, Some(How::Hand(_)))
                    && m.op_names.get(m.op(op).name) == b"stablehlo.reduce"
                    && stablehlo::compact_reduce_op(host, m, op).is_some())
        }
        // Printers that show their entry block's arguments as operands,
        // or not at all: `affine.for` shows its induction variable's
        // location.
        Part::AttrsBeforeRegions => {
            return match how {
                None | Some(How::LinalgNamed(_)) => false,
                Some(How::Function(_)) | Some(How::Hand(_)) => true,
                Some(How::Declarative(_, elements)) => attrs_before_regions(elements),
            };
        }
        Part::EntryArgsPaired => {
            return matches!(how, Some(How::Hand(_)))
                && m.op_name(op) == b"stablehlo.reduce"
                && stablehlo::compact_reduce_op(host, m, op).is_none();
        }
        Part::FirstRegionLast => {
            return matches!(how, Some(How::Declarative(..)))
                && m.op_name(op) == b"scf.index_switch";
        }
        Part::Terminator { region } => {
            let Some(&last) = m
                .op(op)
                .regions()
                .get(region as usize)
                .and_then(|&r| m.region(r).blocks.first())
                .and_then(|&b| m.block(b).ops.last())
            else {
                return false;
            };
            return host
                .ops()
                .get(m.op_name(last))
                .is_some_and(|i| i.terminator)
                && hides_terminator(m, how, op, region as usize);
        }
        Part::EntryArg { region, arg } => {
            let Some(How::Hand(_)) = how else {
                return false;
            };
            return match m.op_names.get(m.op(op).name) {
                b"scf.for" | b"scf.parallel" | b"scf.forall" => true,
                b"affine.for" => arg > 0,
                b"scf.while" => region == 0,
                b"stablehlo.while" => true,
                // The launch configuration's arguments and the
                // attributions print without their locations.
                b"gpu.launch" | b"async.execute" | b"affine.parallel" | b"pdl_interp.foreach" => {
                    true
                }
                b"gpu.func" => arg as usize >= function_inputs(m, op),
                _ => false,
            };
        }
    };
    let segments = name == b"operandSegmentSizes" || name == b"resultSegmentSizes";
    match how {
        None => false,
        // The arguments of a function with a body print as its entry
        // block's (`printRegionArgument`), whose attributes mlir-opt's
        // alias walk does not visit.
        Some(How::Function(_)) => {
            name == b"arg_attrs"
                && m.op(op)
                    .regions()
                    .first()
                    .is_some_and(|&r| !m.region(r).blocks.is_empty())
        }
        Some(How::LinalgNamed(_)) => {
            segments || name == b"linalg.memoized_indexing_maps" || name == b"indexing_maps"
        }
        Some(How::Hand(_)) => {
            let op_name = m.op_names.get(m.op(op).name);
            if op_name == b"vector.transfer_read" || op_name == b"vector.transfer_write" {
                return transfer_elided(m, op).iter().any(|e| e.as_bytes() == name);
            }
            if op_name.starts_with(b"llvm.") {
                return segments || llvm::elided(m, op).iter().any(|e| e.as_bytes() == name);
            }
            if matches!(
                op_name,
                b"affine.load" | b"affine.store" | b"affine.vector_load" | b"affine.vector_store"
            ) {
                return name == b"map";
            }
            if matches!(
                op_name,
                b"affine.dma_start" | b"affine.dma_wait" | b"affine.prefetch"
            ) {
                return name.ends_with(b"map");
            }
            if op_name == b"affine.parallel" {
                return name == b"lowerBoundsMap" || name == b"upperBoundsMap";
            }
            // As a function's: its arguments print as its entry block's.
            if op_name == b"spirv.func" && name == b"arg_attrs" {
                return m
                    .op(op)
                    .regions()
                    .first()
                    .is_some_and(|&r| !m.region(r).blocks.is_empty());
            }
            if op_name == b"affine.for" && (name == b"lowerBoundMap" || name == b"upperBoundMap") {
                return inherent(m, op, name).is_some_and(|a| trivial_bound(m, a));
            }
            segments
        }
        Some(How::Declarative(syn, elements)) => {
            if segments {
                return true;
            }
            let var = syn.attrs.iter().position(|a| a.name.as_bytes() == name);
            match var.and_then(|i| p.var_printed(op, syn, elements, i)) {
                Some(printed) => !printed,
                None => inherent(m, op, name).is_some_and(|a| p.is_default(op, name, a)),
            }
        }
    }
}

/// Whether a declarative format prints attributes or types before its
/// first region.
fn attrs_before_regions(elements: &[Element]) -> bool {
    for e in elements {
        match e {
            Element::Var(Var::Region(_)) | Element::Regions => return false,
            Element::Var(Var::Attr(_))
            | Element::Type(_)
            | Element::FunctionalType(..)
            | Element::AttrDict { .. }
            | Element::Custom { .. } => return true,
            Element::Optional {
                then, otherwise, ..
            } => {
                for part in [then, otherwise] {
                    if part
                        .iter()
                        .any(|e| matches!(e, Element::Var(Var::Region(_)) | Element::Regions))
                    {
                        return false;
                    }
                    if !attrs_before_regions(part) {
                        continue;
                    }
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether a declarative format's region `r` leaves its terminator out:
/// the op has an implicit one and it holds nothing (no operands,
/// results or attributes).
fn declarative_hides_terminator(m: &Module, syn: &OpSyntax, r: RegionId) -> bool {
    if syn.implicit_terminator().is_none() {
        return false;
    }
    let Some(&last) = m
        .region(r)
        .blocks
        .first()
        .and_then(|&b| m.block(b).ops.last())
    else {
        return false;
    };
    let t = m.op(last);
    let empty = |a: AttrId| matches!(m.ctx.attr(a), AttrData::Dictionary(d) if d.is_empty());
    empty(t.attributes)
        && t.properties.is_none_or(empty)
        && m.operands(last).is_empty()
        && t.num_results == 0
}

/// Whether the custom form of `op` leaves out the terminator of its
/// region `region`'s entry block (`printBlockTerminators` false), as the
/// ported printers do.
fn hides_terminator(m: &Module, how: Option<How>, op: OpId, region: usize) -> bool {
    let o = m.op(op);
    match how {
        Some(How::Declarative(syn, _)) => o
            .regions()
            .get(region)
            .is_some_and(|&r| declarative_hides_terminator(m, syn, r)),
        Some(How::Hand(_)) => match m.op_name(op) {
            b"scf.if" | b"affine.if" | b"shape.assuming" | b"scf.forall" | b"affine.parallel" => {
                o.num_results == 0
            }
            b"scf.for" => m.operands(op).len() <= 3,
            b"affine.for" => o.num_results == 0,
            b"scf.forall.in_parallel" => true,
            _ => false,
        },
        _ => false,
    }
}

/// Whether `affine.for` prints bound map `a` without the map: a constant,
/// or the one symbol of a map over a single symbol.
fn trivial_bound(m: &Module, a: AttrId) -> bool {
    use rmlir_format::affine::AffineExpr;
    match m.ctx.attr(a) {
        AttrData::AffineMap(map) if map.results.len() == 1 && map.num_dims == 0 => {
            matches!(
                (&map.results[0], map.num_symbols),
                (AffineExpr::Constant(_), 0) | (AffineExpr::Symbol(_), 1)
            )
        }
        _ => false,
    }
}

/// mlir-tblgen's `shouldEmitSpaceBefore`: no space before closing
/// punctuation after punctuation, nor before any bracket or comma after
/// anything else; always one before a word or `->`.
fn space_before(lit: &str, last_was_punct: bool) -> bool {
    if lit.len() != 1 && lit != "->" {
        return true;
    }
    let c = lit.chars().next().unwrap_or(' ');
    if last_was_punct {
        return !">)}],".contains(c);
    }
    !"<>(){}[],".contains(c)
}

/// The names of the attributes a format prints itself.
fn collect_attr_vars<'s>(syn: &'s OpSyntax, els: &[Element], out: &mut Vec<&'s str>) {
    for e in els {
        match e {
            Element::Var(Var::Attr(i)) => out.push(syn.attrs[*i].name.as_str()),
            Element::Type(i) | Element::Qualified(i) | Element::Ref(i) => {
                collect_attr_vars(syn, std::slice::from_ref(i), out)
            }
            Element::FunctionalType(a, b) => {
                collect_attr_vars(syn, std::slice::from_ref(a), out);
                collect_attr_vars(syn, std::slice::from_ref(b), out);
            }
            Element::Optional {
                then, otherwise, ..
            } => {
                collect_attr_vars(syn, then, out);
                collect_attr_vars(syn, otherwise, out);
            }
            Element::Custom { args, .. } => collect_attr_vars(syn, args, out),
            Element::OIList(clauses) => {
                for c in clauses {
                    collect_attr_vars(syn, c, out);
                }
            }
            _ => {}
        }
    }
}

/// The entry `name = value` of a printed default-properties dictionary,
/// as its value's text.
fn default_entry<'d>(defaults: &'d str, name: &[u8]) -> Option<&'d str> {
    let inner = defaults.strip_prefix('{')?.strip_suffix('}')?;
    let mut depth = 0i32;
    let mut start = 0;
    let mut in_str = false;
    let bytes = inner.as_bytes();
    let mut entries = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if in_str {
            if c == b'\\' {
                i += 1;
            } else if c == b'"' {
                in_str = false;
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' | b')' | b']' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    entries.push(&inner[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    entries.push(&inner[start..]);
    entries.into_iter().find_map(|e| {
        let (k, v) = e.trim().split_once(" = ")?;
        (k.as_bytes() == name).then_some(v)
    })
}

/// The values of operand group `i` of `op`, by the op's segment sizes
/// where it has them, else by position around its one variable group.
fn operand_group(m: &Module, op: OpId, syn: &OpSyntax, i: usize) -> Vec<ValueId> {
    let all = m.operands(op);
    let (start, len) = group_range(m, op, &syn.operands, all.len(), i, b"operandSegmentSizes");
    all.get(start..start + len)
        .map(<[ValueId]>::to_vec)
        .unwrap_or_default()
}

/// The values of result group `i` of `op`.
fn result_group(m: &Module, op: OpId, syn: &OpSyntax, i: usize) -> Vec<ValueId> {
    let all: Vec<ValueId> = m.op(op).results().collect();
    let (start, len) = group_range(m, op, &syn.results, all.len(), i, b"resultSegmentSizes");
    all.get(start..start + len)
        .map(<[ValueId]>::to_vec)
        .unwrap_or_default()
}

/// The regions of region group `i` of `op`.
fn region_group(m: &Module, op: OpId, syn: &OpSyntax, i: usize) -> Vec<RegionId> {
    variadic_group(m.op(op).regions(), &syn.regions, i)
}

/// Group `i` of `all`, cut by `groups`: a variadic group takes what the
/// fixed ones leave (regions and successors, which have no sizes).
fn variadic_group<T: Copy>(all: &[T], groups: &[GroupSpec], i: usize) -> Vec<T> {
    let fixed = groups.iter().filter(|g| !g.variadic).count();
    let var = all.len().saturating_sub(fixed);
    let start: usize = groups
        .iter()
        .take(i)
        .map(|g| if g.variadic { var } else { 1 })
        .sum();
    let len = match groups.get(i) {
        Some(g) if g.variadic => var,
        Some(_) => 1,
        None => 0,
    };
    all.get(start..start + len)
        .map(<[T]>::to_vec)
        .unwrap_or_default()
}

/// The arguments of region `r`'s entry block (none without a block).
fn entry_args(m: &Module, r: RegionId) -> Vec<ValueId> {
    m.region(r)
        .blocks
        .first()
        .map(|&b| m.block(b).args.clone())
        .unwrap_or_default()
}

/// `op`'s operand segment sizes, if it has them.
fn operand_segments(m: &Module, op: OpId) -> Option<Vec<usize>> {
    segment_sizes(m, op, b"operandSegmentSizes")
}

/// The segment sizes `op` holds under `name` (`operandSegmentSizes`,
/// `resultSegmentSizes`), if it has them.
fn segment_sizes(m: &Module, op: OpId, name: &[u8]) -> Option<Vec<usize>> {
    match inherent(m, op, name).map(|a| m.ctx.attr(a)) {
        Some(AttrData::DenseArray { data, .. }) => Some(
            data.chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]).max(0) as usize)
                .collect(),
        ),
        _ => None,
    }
}

/// Segment `k` of `ops`, cut by `sizes`.
fn segment(ops: &[ValueId], sizes: &[usize], k: usize) -> Vec<ValueId> {
    let start: usize = sizes.iter().take(k).sum();
    let len = sizes.get(k).copied().unwrap_or(0);
    ops.get(start..start + len)
        .map(<[ValueId]>::to_vec)
        .unwrap_or_default()
}

/// The successors of successor group `i` of `op`.
fn successor_group(m: &Module, op: OpId, syn: &OpSyntax, i: usize) -> Vec<BlockId> {
    variadic_group(m.op(op).successors(), &syn.successors, i)
}

fn group_range(
    m: &Module,
    op: OpId,
    groups: &[ValueSpec],
    total: usize,
    i: usize,
    seg_name: &[u8],
) -> (usize, usize) {
    if let Some(sizes) = segment_sizes(m, op, seg_name) {
        let start = sizes.iter().take(i).sum();
        return (start, sizes.get(i).copied().unwrap_or(0));
    }
    let fixed = groups.iter().filter(|g| g.arity == Arity::Single).count();
    let variable = groups.iter().filter(|g| g.arity != Arity::Single).count();
    let var_len = total
        .saturating_sub(fixed)
        .checked_div(variable)
        .unwrap_or(0);
    let mut start = 0;
    for (k, g) in groups.iter().enumerate() {
        let len = if g.arity == Arity::Single { 1 } else { var_len };
        if k == i {
            return (start, len.min(total.saturating_sub(start)));
        }
        start += len;
    }
    (total, 0)
}

/// Whether `elements` print property `i`.
fn mentions_prop(elements: &[Element], i: usize) -> bool {
    elements.iter().any(|e| match e {
        Element::Var(Var::Prop(k)) => *k == i,
        Element::Optional {
            then, otherwise, ..
        } => mentions_prop(then, i) || mentions_prop(otherwise, i),
        Element::OIList(clauses) => clauses.iter().any(|c| mentions_prop(c, i)),
        _ => false,
    })
}

/// The case of value `v` of named enum property `spec` (ODS's
/// `NamedEnumProp`, e.g. `overflow<none>`), where the property is one.
fn named_enum_case(spec: &rmlir_format::op_format::catalog::PropSpec, v: i64) -> Option<&str> {
    if spec.kind.as_deref() != Some("named_enum") || spec.mnemonic.is_none() {
        return None;
    }
    spec.cases
        .iter()
        .find(|(_, c)| *c == v)
        .map(|(k, _)| k.as_str())
}

/// What a named enum property holding `a` prints inside its
/// `mnemonic<…>`: its case, or for a bit enum the cases of its set bits
/// joined by `, ` (its `stringify`); `None` for a value it has no words
/// for.
fn named_enum_text(
    m: &Module,
    spec: &rmlir_format::op_format::catalog::PropSpec,
    a: AttrId,
) -> Option<String> {
    let AttrData::Integer { value, .. } = m.ctx.attr(a) else {
        return None;
    };
    let v = i64::try_from(value).ok()?;
    if !spec.bit || v == 0 {
        return named_enum_case(spec, v).map(str::to_string);
    }
    named_enum_case(spec, 0)?;
    let mut rest = v;
    let mut words = Vec::new();
    for (k, c) in &spec.cases {
        // Only single-bit cases: a group's place among them is unknown.
        if *c != 0 && c.count_ones() != 1 {
            return None;
        }
        if *c != 0 && v & c == *c {
            words.push(k.as_str());
            rest &= !c;
        }
    }
    (rest == 0).then(|| words.join(", "))
}
