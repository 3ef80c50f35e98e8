//! Ops in their custom (pretty) form (SPEC.md §11.2): one interpreter of
//! ODS's declarative assembly format over the data of
//! [`rmlir_format::op_format::catalog`], the types the format leaves out
//! inferred from the op's traits, and the ported hand-written parsers
//! of the ops in [`HAND_WRITTEN`].
//!
//! What the data does not cover is refused with the op's name and
//! position, never guessed: the op's generic form is always accepted.

use super::*;

mod affine_ops;
mod directives;
mod format;
mod hand_written;
mod infer;
mod linalg_ops;
mod llvm_ops;
mod spirv_ops;
mod stablehlo_ops;

use rmlir_format::op_format::catalog::{
    Arity, AttrKind, AttrSpec, Catalog, OpSyntax, Trait, ValueSpec,
};
use rmlir_format::op_format::{Element, Var};

/// The ported parser of op `name`, if there is one: [`HAND_WRITTEN`] as a
/// map, built once, since it is asked of every op in the custom form.
fn hand_written(name: &str) -> Option<HandWritten> {
    static MAP: std::sync::OnceLock<rmlir_format::fasthash::FastMap<&'static str, HandWritten>> =
        std::sync::OnceLock::new();
    MAP.get_or_init(|| HAND_WRITTEN.iter().copied().collect())
        .get(name)
        .copied()
}

/// A hand-written parser: the op's syntax, its name's offset and where
/// its result names are on `value_refs`.
type HandWritten = for<'p> fn(&mut Parser<'p>, &'static OpSyntax, usize, usize) -> Result<OpId>;

/// The ops whose C++ parsers are ported, by name.
const HAND_WRITTEN: &[(&str, HandWritten)] = &[
    ("func.func", |p, s, at, r| p.parse_function_op(s, at, r)),
    ("async.func", |p, s, at, r| p.parse_function_op(s, at, r)),
    ("tosa.apply_scale", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.argmax", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.clamp", |p, s, at, r| p.parse_tosa_with_enum(s, at, r)),
    ("tosa.max_pool2d", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.maximum", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.minimum", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.reduce_max", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.reduce_min", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.rescale", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("tosa.resize", |p, s, at, r| {
        p.parse_tosa_with_enum(s, at, r)
    }),
    ("pdl_interp.foreach", |p, s, at, r| {
        p.parse_pdl_interp_foreach(s, at, r)
    }),
    ("linalg.transpose", |p, s, at, r| {
        p.parse_linalg_identity_op(s, "permutation", at, r)
    }),
    ("linalg.broadcast", |p, s, at, r| {
        p.parse_linalg_identity_op(s, "dimensions", at, r)
    }),
    ("linalg.map", |p, s, at, r| {
        p.parse_linalg_payload_op(s, None, at, r)
    }),
    ("linalg.reduce", |p, s, at, r| {
        p.parse_linalg_payload_op(s, Some("dimensions"), at, r)
    }),
    ("transform.named_sequence", |p, s, at, r| {
        p.parse_function_op(s, at, r)
    }),
    ("pdl_interp.func", |p, s, at, r| {
        p.parse_function_op(s, at, r)
    }),
    ("spirv.module", |p, s, at, r| p.parse_spirv_module(s, at, r)),
    ("spirv.func", |p, s, at, r| p.parse_spirv_func(s, at, r)),
    ("spirv.Constant", |p, s, at, r| {
        p.parse_spirv_constant(s, at, r)
    }),
    ("spirv.GlobalVariable", |p, s, at, r| {
        p.parse_spirv_global_variable(s, at, r)
    }),
    ("spirv.Variable", |p, s, at, r| {
        p.parse_spirv_variable(s, at, r)
    }),
    ("spirv.Load", |p, s, at, r| p.parse_spirv_load(s, at, r)),
    ("spirv.Store", |p, s, at, r| p.parse_spirv_store(s, at, r)),
    ("spirv.CopyMemory", |p, s, at, r| {
        p.parse_spirv_copy_memory(s, at, r)
    }),
    ("spirv.CompositeExtract", |p, s, at, r| {
        p.parse_spirv_composite_extract(s, at, r)
    }),
    ("spirv.CompositeInsert", |p, s, at, r| {
        p.parse_spirv_composite_insert(s, at, r)
    }),
    ("spirv.BranchConditional", |p, s, at, r| {
        p.parse_spirv_branch_conditional(s, at, r)
    }),
    ("spirv.mlir.loop", |p, s, at, r| {
        p.parse_spirv_structured(s, at, r)
    }),
    ("spirv.mlir.selection", |p, s, at, r| {
        p.parse_spirv_structured(s, at, r)
    }),
    ("spirv.EntryPoint", |p, s, at, r| {
        p.parse_spirv_entry_point(s, at, r)
    }),
    ("spirv.ExecutionMode", |p, s, at, r| {
        p.parse_spirv_execution_mode(s, at, r)
    }),
    ("spirv.SpecConstant", |p, s, at, r| {
        p.parse_spirv_spec_constant(s, at, r)
    }),
    ("spirv.GL.FClamp", |p, s, at, r| {
        p.parse_spirv_same_type(s, at, r)
    }),
    ("spirv.GL.UClamp", |p, s, at, r| {
        p.parse_spirv_same_type(s, at, r)
    }),
    ("spirv.GL.SClamp", |p, s, at, r| {
        p.parse_spirv_same_type(s, at, r)
    }),
    ("spirv.GL.Fma", |p, s, at, r| {
        p.parse_spirv_same_type(s, at, r)
    }),
    ("spirv.IAddCarry", |p, s, at, r| {
        p.parse_spirv_extended_binary(s, at, r)
    }),
    ("spirv.ISubBorrow", |p, s, at, r| {
        p.parse_spirv_extended_binary(s, at, r)
    }),
    ("spirv.SMulExtended", |p, s, at, r| {
        p.parse_spirv_extended_binary(s, at, r)
    }),
    ("spirv.UMulExtended", |p, s, at, r| {
        p.parse_spirv_extended_binary(s, at, r)
    }),
    ("scf.for", |p, s, at, r| p.parse_scf_for(s, at, r)),
    ("scf.if", |p, s, at, r| p.parse_scf_if(s, at, r)),
    ("scf.forall", |p, s, at, r| p.parse_scf_forall(s, at, r)),
    ("scf.forall.in_parallel", |p, s, at, r| {
        p.parse_scf_in_parallel(s, at, r)
    }),
    ("scf.execute_region", |p, s, at, r| {
        p.parse_scf_execute_region(s, at, r)
    }),
    ("vector.outerproduct", |p, s, at, r| {
        p.parse_vector_outerproduct(s, at, r)
    }),
    ("vector.transfer_read", |p, s, at, r| {
        p.parse_transfer_read(s, at, r)
    }),
    ("vector.transfer_write", |p, s, at, r| {
        p.parse_transfer_write(s, at, r)
    }),
    ("affine.prefetch", |p, s, at, r| {
        p.parse_affine_prefetch(s, at, r)
    }),
    ("memref.prefetch", |p, s, at, r| {
        p.parse_memref_prefetch(s, at, r)
    }),
    ("memref.alloca_scope", |p, s, at, r| {
        p.parse_scoped_region_op(s, false, at, r)
    }),
    ("shape.assuming", |p, s, at, r| {
        p.parse_scoped_region_op(s, true, at, r)
    }),
    ("shape.const_shape", |p, s, at, r| {
        p.parse_const_shape(s, at, r)
    }),
    ("arith.select", |p, s, at, r| p.parse_arith_select(s, at, r)),
    ("scf.parallel", |p, s, at, r| p.parse_scf_parallel(s, at, r)),
    ("affine.apply", |p, s, at, r| {
        p.parse_affine_map_op(s, at, r)
    }),
    ("affine.min", |p, s, at, r| p.parse_affine_map_op(s, at, r)),
    ("affine.parallel", |p, s, at, r| {
        p.parse_affine_parallel(s, at, r)
    }),
    ("affine.for", |p, s, at, r| p.parse_affine_for(s, at, r)),
    ("linalg.yield", |p, s, at, r| p.parse_linalg_yield(s, at, r)),
    ("llvm.func", |p, s, at, r| p.parse_llvm_func(s, at, r)),
    ("llvm.alloca", |p, s, at, r| p.parse_llvm_alloca(s, at, r)),
    ("llvm.icmp", |p, s, at, r| p.parse_llvm_cmp(s, at, r)),
    ("llvm.fcmp", |p, s, at, r| p.parse_llvm_cmp(s, at, r)),
    ("llvm.mlir.global", |p, s, at, r| {
        p.parse_llvm_global(s, at, r)
    }),
    ("llvm.call", |p, s, at, r| p.parse_llvm_call(s, at, r)),
    ("llvm.getelementptr", |p, s, at, r| {
        p.parse_llvm_gep(s, at, r)
    }),
    ("linalg.generic", |p, s, at, r| {
        p.parse_linalg_generic(s, at, r)
    }),
    ("affine.if", |p, s, at, r| p.parse_affine_if(s, at, r)),
    ("affine.load", |p, s, at, r| {
        p.parse_affine_access(s, at, r, false, false)
    }),
    ("affine.store", |p, s, at, r| {
        p.parse_affine_access(s, at, r, true, false)
    }),
    ("affine.vector_load", |p, s, at, r| {
        p.parse_affine_access(s, at, r, false, true)
    }),
    ("affine.vector_store", |p, s, at, r| {
        p.parse_affine_access(s, at, r, true, true)
    }),
    ("affine.max", |p, s, at, r| p.parse_affine_map_op(s, at, r)),
    ("scf.while", |p, s, at, r| p.parse_scf_while(s, at, r)),
    ("vector.mask", |p, s, at, r| p.parse_vector_mask(s, at, r)),
    ("gpu.func", |p, s, at, r| p.parse_gpu_func(s, at, r)),
    ("gpu.launch", |p, s, at, r| p.parse_gpu_launch(s, at, r)),
    ("async.execute", |p, s, at, r| {
        p.parse_async_execute(s, at, r)
    }),
    ("bufferization.alloc_tensor", |p, s, at, r| {
        p.parse_alloc_tensor(s, at, r)
    }),
    ("vector.contract", |p, s, at, r| {
        p.parse_vector_contract(s, at, r)
    }),
    ("stablehlo.constant", |p, s, at, r| {
        p.parse_hlo_constant(s, at, r)
    }),
    ("stablehlo.reduce", |p, s, at, r| {
        p.parse_hlo_reduce(s, at, r)
    }),
    ("stablehlo.while", |p, s, at, r| p.parse_hlo_while(s, at, r)),
];

/// A custom op's location when its parser does not leave it to the
/// op's name: MLIR's `OperationState::location` as the parser set it.
#[derive(Clone, Copy)]
pub(super) enum CustomLoc {
    /// The position `at`, unless a trailing `loc(…)` follows.
    At(usize),
    /// The parser read the op's `loc(…)` itself and bound it.
    Bound,
}

/// A value use as the parser keeps it: name, result number, offset.
type Use<'a> = (&'a [u8], u32, usize);

/// What one op's format has read so far.
#[derive(Default)]
pub(super) struct Parts<'a> {
    operands: Vec<Vec<Use<'a>>>,
    operand_types: Vec<Option<Vec<TypeId>>>,
    result_types: Vec<Option<Vec<TypeId>>>,
    attrs: Vec<Option<AttrId>>,
    /// Properties that are not attributes, read in their own syntax.
    props: Vec<Option<AttrId>>,
    attr_dict: Option<AttrId>,
    prop_dict: Option<AttrId>,
    regions: Vec<Vec<RegionId>>,
    successors: Vec<Vec<BlockId>>,
    /// `operands` / `type(operands)` read before they are distributed.
    all_operands: Option<Vec<Use<'a>>>,
    all_operand_types: Option<Vec<TypeId>>,
    all_result_types: Option<Vec<TypeId>>,
    /// Whether the op's results are named (`%r = …`), for directives that
    /// check it (MLIR's `getNumResults` while parsing).
    named_results: bool,
    /// The op's operands and result types as `build_declarative` lists
    /// them, kept with the rest for the next op (empty between ops).
    scratch_operands: Vec<ValueId>,
    scratch_operand_counts: Vec<usize>,
    scratch_result_types: Vec<TypeId>,
    scratch_result_counts: Vec<usize>,
}

impl Parts<'_> {
    /// Empty lists for an op of syntax `syn`, as many of each as it has
    /// groups, the lists' allocations kept.
    fn reset(&mut self, syn: &OpSyntax, named_results: bool) {
        fn fill<T>(v: &mut Vec<T>, n: usize, f: impl FnMut() -> T) {
            v.clear();
            v.resize_with(n, f);
        }
        // The operand groups' own lists are kept too.
        self.operands.iter_mut().for_each(Vec::clear);
        self.operands.resize_with(syn.operands.len(), Vec::new);
        fill(&mut self.operand_types, syn.operands.len(), || None);
        fill(&mut self.result_types, syn.results.len(), || None);
        fill(&mut self.attrs, syn.attrs.len(), || None);
        fill(&mut self.props, syn.props.len(), || None);
        fill(&mut self.regions, syn.regions.len(), Vec::new);
        fill(&mut self.successors, syn.successors.len(), Vec::new);
        self.attr_dict = None;
        self.prop_dict = None;
        self.all_operands = None;
        self.all_operand_types = None;
        self.all_result_types = None;
        self.named_results = named_results;
        self.scratch_operands.clear();
        self.scratch_operand_counts.clear();
        self.scratch_result_types.clear();
        self.scratch_result_counts.clear();
    }
}

/// Where a `type(…)` directive's types go.
#[derive(Clone, Copy)]
enum TypeTarget {
    Operand(usize),
    Result(usize),
    AllOperands,
    AllResults,
}

impl<'a> Parser<'a> {
    /// The op whose name is the bare identifier at the current token (its
    /// results, if any, are on `value_refs` from `results_start`).
    pub(super) fn parse_custom_operation(
        &mut self,
        op_start: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let name_at = self.tok.start;
        let spelled = self.spelling();
        let Some((name, syn)) = self.custom_op_name(spelled) else {
            return Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "custom syntax of operation '{}' is not known; its generic form (`\"{}\"(…) : (…) -> (…)`) is accepted",
                    lossy(spelled),
                    lossy(spelled)
                ),
                self.position(name_at),
            ));
        };
        self.bump();
        // Each custom op sets the default dialect of what it parses, none
        // for most (MLIR's `defaultDialectStack`).
        self.default_dialects
            .push(Self::default_dialect_of(name).unwrap_or(""));
        let op = self.parse_custom_op_body(name, syn, op_start, name_at, results_start);
        self.default_dialects.pop();
        let op = op?;
        match self.custom_loc.take() {
            None => self.parse_op_loc(op, name_at)?,
            Some(CustomLoc::At(at)) => self.parse_op_loc(op, at)?,
            Some(CustomLoc::Bound) => {}
        }
        Ok(op)
    }

    /// The op's syntax: a ported hand-written parser, or its format.
    fn parse_custom_op_body(
        &mut self,
        name: &str,
        syn: &'static OpSyntax,
        op_start: usize,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        if let Some(parse) = hand_written(name) {
            return parse(self, syn, name_at, results_start);
        }
        if linalg_ops::is_named_structured(name) {
            return self.parse_named_structured(syn, name_at, results_start);
        }
        match syn.elements() {
            Some(Ok(elements)) => {
                self.parse_declarative(syn, elements, op_start, name_at, results_start)
            }
            _ => Err(Error::new(
                ErrorKind::Unsupported,
                format!(
                    "custom syntax of operation '{name}' is not known (its parser is hand-written C++); its generic form is accepted"
                ),
                self.position(name_at),
            )),
        }
    }

    /// The op `spelled` names: itself, or, without a dialect prefix, in
    /// the default dialect of the op around it.
    fn custom_op_name(&self, spelled: &[u8]) -> Option<(&'static str, &'static OpSyntax)> {
        if let Some(s) = self.op_syntax(spelled) {
            return Some((s.name.as_str(), s));
        }
        if spelled.contains(&b'.') {
            return None;
        }
        let dialect = self.default_dialects.last().filter(|d| !d.is_empty())?;
        let full = format!("{}.{}", dialect, lossy(spelled));
        self.op_syntax(full.as_bytes())
            .map(|s| (s.name.as_str(), s))
    }

    /// The custom syntax of the op named `name`: upstream MLIR's, or that
    /// of a dialect registered with the parser whose hook brings its own
    /// ([`BytecodeDialect::op_syntax`], SPEC.md §11.3).
    ///
    /// [`BytecodeDialect::op_syntax`]: rmlir_format::dialect_hooks::BytecodeDialect::op_syntax
    pub(super) fn op_syntax(&self, name: &[u8]) -> Option<&'static OpSyntax> {
        if let Some(s) = Catalog::upstream().get(name) {
            return Some(s);
        }
        let dialect = &name[..name.iter().position(|&c| c == b'.')?];
        self.dialects?.get(dialect)?.op_syntax()?.get(name)
    }

    /// What the op registry knows of `name`: the host's upstream layouts,
    /// or for an op of a dialect registered with the parser that brings
    /// its own syntax (stablehlo, chlo), the out-of-tree layouts of
    /// [`rmlir_dialects`] (which attributes are inherent, and whether they
    /// are properties): such an op is read as the tool that registers its
    /// dialect reads it, in the custom form and in the generic.
    fn registered_op_info(
        &self,
        name: &[u8],
    ) -> Option<&'static rmlir_format::op_registry::OpInfo> {
        if let Some(i) = self.registry.get(name) {
            return Some(i);
        }
        let dialect = &name[..name.iter().position(|&c| c == b'.')?];
        self.dialects?.get(dialect)?.op_syntax()?;
        rmlir_dialects::out_of_tree_layouts().get(name)
    }

    /// The default dialect the custom op at the current token sets for
    /// its regions (`""` for none), or `None` where the token starts no
    /// custom op: what a split parse's second thread starts its body with.
    pub(super) fn custom_default_dialect(&self) -> Option<&'static str> {
        if !self.is(Tok::BareIdent) {
            return None;
        }
        let (name, _) = self.custom_op_name(self.spelling())?;
        Some(Self::default_dialect_of(name).unwrap_or(""))
    }

    fn default_dialect_of(name: &str) -> Option<&'static str> {
        rmlir_format::op_format::default_dialect(name)
    }

    /// `{…}` if one follows: an op's optional attribute dictionary.
    fn optional_attr_dict(&mut self) -> Result<Option<AttrId>> {
        if self.is(Tok::LBrace) {
            self.parse_dictionary().map(Some)
        } else {
            Ok(None)
        }
    }

    /// `attributes {…}` if the keyword follows.
    fn optional_attr_dict_with_keyword(&mut self) -> Result<Option<AttrId>> {
        if self.is_kw("attributes") {
            self.bump();
            self.parse_dictionary().map(Some)
        } else {
            Ok(None)
        }
    }

    /// The value a parsed use names, of type `ty`.
    fn resolve_use(&mut self, u: Use<'a>, ty: TypeId) -> Result<ValueId> {
        self.resolve_value_use(u.0, u.1, u.2, ty)
    }

    /// MLIR's `OpAsmParser::resolveOperands`: the values `uses` name, each
    /// of its type in `types`, appended to `out`; as many types as uses,
    /// else "N operands present, but expected M" at `at`.
    fn resolve_operands(
        &mut self,
        uses: &[Use<'a>],
        types: &[TypeId],
        at: usize,
        out: &mut Vec<ValueId>,
    ) -> Result<()> {
        if uses.len() != types.len() {
            return self.sem_err_at(
                at,
                format!(
                    "{} operands present, but expected {}",
                    uses.len(),
                    types.len()
                ),
            );
        }
        out.reserve(uses.len());
        for (u, t) in uses.iter().zip(types) {
            out.push(self.resolve_use(*u, *t)?);
        }
        Ok(())
    }

    /// Entry-block arguments named by `names`, of `types`, each at its
    /// name (`%iter = %init` pairs of loops).
    fn entry_args(names: &[Use<'a>], types: &[TypeId]) -> Vec<EntryArg<'a>> {
        names
            .iter()
            .zip(types)
            .map(|(u, t)| EntryArg {
                name: u.0,
                at: u.2,
                ty: *t,
                loc: None,
            })
            .collect()
    }

    /// `loc(…)` after a region argument (MLIR's `parseArgument` reads one
    /// after every argument it parses, the printer writes it with debug
    /// info).
    fn optional_trailing_loc(&mut self) -> Result<Option<AttrId>> {
        if !self.is_kw("loc") {
            return Ok(None);
        }
        self.bump();
        self.expect(Tok::LParen, "'(' in inline location")?;
        let l = self.parse_location_instance()?;
        self.expect(Tok::RParen, "')' in inline location")?;
        Ok(Some(l))
    }

    /// Refuses the op: what of its custom syntax is not known.
    fn unsupported<T>(&self, syn: &OpSyntax, at: usize, what: &str) -> Result<T> {
        Err(Error::new(
            ErrorKind::Unsupported,
            format!(
                "custom syntax of operation '{}' is not fully known ({what}); its generic form is accepted",
                syn.name
            ),
            self.position(at),
        ))
    }

    /// Creates the op and binds its result names.
    #[allow(clippy::too_many_arguments)]
    fn finish_custom_op(
        &mut self,
        name: OpNameId,
        operands: &[ValueId],
        result_types: &[TypeId],
        successors: Vec<BlockId>,
        properties: Option<AttrId>,
        attributes: AttrId,
        regions: Vec<RegionId>,
        op_start: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let results = &self.value_refs[results_start..];
        let total: u64 = results.iter().map(|r| r.1 as u64).sum();
        if !results.is_empty() && total != result_types.len() as u64 {
            return self.sem_err_at(
                op_start,
                format!(
                    "operation defines {} results but was provided {} to bind",
                    result_types.len(),
                    total
                ),
            );
        }
        let unknown = self.unknown_loc;
        let op = self.m.new_op(
            name,
            operands,
            result_types,
            successors,
            properties,
            attributes,
            regions,
            unknown,
        );
        let first = self.m.op(op).first_result;
        let mut next = 0u32;
        for i in results_start..self.value_refs.len() {
            let (n, count, at) = self.value_refs[i];
            self.define_values(n, first + next, count, at)?;
            next += count;
        }
        self.value_refs.truncate(results_start);
        Ok(op)
    }

    /// The op's properties and attribute dictionary from the attributes
    /// its syntax read and its `attr-dict`: inherent attributes are
    /// properties where the op keeps them so (SPEC.md §7.1).
    fn split_properties(
        &mut self,
        name: &[u8],
        mut entries: Vec<(Bytes, AttrId)>,
        attr_dict: Option<AttrId>,
        prop_dict: Option<AttrId>,
    ) -> (Option<AttrId>, AttrId) {
        let info = self.registered_op_info(name);
        let has_props = info.is_some_and(|i| i.has_properties);
        let mut rest = Vec::new();
        if let Some(d) = attr_dict {
            if let AttrData::Dictionary(d) = self.m.ctx.attr(d) {
                for (k, v) in d.clone() {
                    let inherent = info
                        .is_some_and(|i| i.inherent_attrs.iter().any(|n| n.as_bytes() == &k[..]));
                    if has_props && inherent {
                        entries.push((k, v));
                    } else {
                        rest.push((k, v));
                    }
                }
            }
        }
        if let Some(p) = prop_dict {
            if let AttrData::Dictionary(d) = self.m.ctx.attr(p) {
                entries.extend(d.iter().cloned());
            }
        }
        let properties = if has_props {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            entries.dedup_by(|a, b| a.0 == b.0);
            (!entries.is_empty()).then(|| self.m.ctx.intern_attr(AttrData::Dictionary(entries)))
        } else {
            rest.extend(entries);
            None
        };
        rest.sort_by(|a, b| a.0.cmp(&b.0));
        let attributes = if rest.is_empty() {
            self.empty_dict
        } else {
            self.m.ctx.intern_attr(AttrData::Dictionary(rest))
        };
        (properties, attributes)
    }

    /// A generic op's attribute dictionary `attributes` split into its
    /// inherent attributes, as properties, and the rest, for an op that
    /// keeps properties; unchanged otherwise.
    pub(super) fn inherent_attrs_as_properties(
        &mut self,
        name: OpNameId,
        attributes: AttrId,
    ) -> (Option<AttrId>, AttrId) {
        let name = self.m.op_names.get(name).to_vec();
        let Some(info) = self.registered_op_info(&name).filter(|i| i.has_properties) else {
            return (None, attributes);
        };
        let any = match self.m.ctx.attr(attributes) {
            AttrData::Dictionary(d) => d
                .iter()
                .any(|(k, _)| info.inherent_attrs.iter().any(|n| n.as_bytes() == &k[..])),
            _ => false,
        };
        if !any {
            return (None, attributes);
        }
        self.split_properties(&name, Vec::new(), Some(attributes), None)
    }

    /// An attribute from text the syntax implies (`array<i64: 1, 2>`,
    /// `#arith.overflow<nsw>`), at `at` for errors.
    /// The same text gives the same attribute, so it is parsed once: the
    /// context interns it (its id stays valid through a split parse, whose
    /// merge keeps this thread's ids). Not kept: a `distinct` or
    /// `dense_resource` attribute (a parse makes a new distinct id), and
    /// text longer than [`CUSTOM_ATTR_TEXT_MAX`], hardly ever repeated.
    fn parse_attr_text(&mut self, text: &str, at: usize) -> Result<AttrId> {
        if let Some(&a) = self.custom_attrs.get(text) {
            return Ok(a);
        }
        let a = self.parse_attr_text_once(text, at)?;
        if text.len() <= CUSTOM_ATTR_TEXT_MAX
            && !text.contains("distinct")
            && !text.contains("dense_resource")
        {
            self.custom_attrs.insert(text.into(), a);
        }
        Ok(a)
    }

    fn parse_attr_text_once(&mut self, text: &str, at: usize) -> Result<AttrId> {
        let mut m = std::mem::take(&mut self.m);
        // Read as this parse reads attributes: a dialect whose hook parses
        // its bodies gets its body split, as in the text itself.
        let r = parse_entry_into(
            &mut m,
            text.as_bytes(),
            self.limits,
            self.host,
            self.dialects,
            "Attribute",
            |p| p.parse_attr(None),
        );
        self.m = m;
        r.map_err(|e| {
            Error::new(
                ErrorKind::Syntax,
                format!("in '{text}': {}", e.message()),
                self.position(at),
            )
        })
    }

    /// `%a, %b : t1, t2` (MLIR's `parseOperandList` then
    /// `parseColonTypeList`): the uses, maybe none, and at least one type.
    fn uses_colon_types(&mut self) -> Result<(Vec<Use<'a>>, Vec<TypeId>)> {
        let mut uses = Vec::new();
        if self.is(Tok::PercentId) {
            uses.push(self.parse_value_use()?);
            while self.eat(Tok::Comma) {
                uses.push(self.parse_value_use()?);
            }
        }
        self.expect(Tok::Colon, "':'")?;
        let mut types = vec![self.parse_type()?];
        while self.eat(Tok::Comma) {
            types.push(self.parse_type()?);
        }
        Ok((uses, types))
    }

    /// A dense array of `elem` written `[1, 2]`, at the current `[`
    /// (`DenseArrayAttr::parse` without its `array<…>`).
    fn bracketed_dense_array(&mut self, elem: &str) -> Result<AttrId> {
        let at = self.tok.start;
        let end = self.scan_square(at)?;
        let inner = lossy(&self.src[at + 1..end - 1]);
        let text = if inner.trim().is_empty() {
            format!("array<{elem}>")
        } else {
            format!("array<{elem}: {inner}>")
        };
        let a = self.parse_attr_text(&text, at)?;
        self.reset_to(end);
        Ok(a)
    }

    /// A builtin integer, float, index or vector type's text, as it is
    /// written nested in a dialect body.
    pub(super) fn builtin_scalar_or_vector_text(&self, t: TypeId) -> Option<String> {
        Some(match self.m.ctx.ty(t) {
            TypeData::Integer { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                format!("{prefix}{width}")
            }
            TypeData::Float(k) => k.keyword().to_string(),
            TypeData::Index => "index".into(),
            TypeData::Vector {
                shape,
                scalable,
                elem,
            } => vector_text(shape, scalable, &self.builtin_scalar_or_vector_text(*elem)?),
            _ => return None,
        })
    }

    /// A type from text the data names (`i1`, `!pdl.operation`), parsed
    /// once per parse.
    fn parse_type_text(&mut self, text: &str, at: usize) -> Result<TypeId> {
        if let Some(&t) = self.custom_types.get(text) {
            return Ok(t);
        }
        let mut m = std::mem::take(&mut self.m);
        let r = parse_type_into(&mut m, text.as_bytes(), self.limits);
        self.m = m;
        let t = r.map_err(|e| {
            Error::new(
                ErrorKind::Syntax,
                format!("in '{text}': {}", e.message()),
                self.position(at),
            )
        })?;
        self.custom_types.insert(text.to_string(), t);
        Ok(t)
    }
}

/// `s` split at the commas outside brackets.
pub(super) fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' | ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// `N x T` (the element counts of spirv's and llvm's arrays; `x` may
/// touch the count): the count and `T`.
pub(super) fn count_and_type(s: &str) -> Option<(u64, &str)> {
    let s = s.trim_start();
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    let n = s.get(..digits)?.parse().ok()?;
    let rest = s[digits..].trim_start().strip_prefix('x')?;
    Some((n, rest))
}

/// How a bit enum's generated `stringify` writes `bits`: the case of value
/// 0 for none, else the cases whose bits are all set, in declaration
/// order, joined by `|`; `None` for 0 without such a case.
fn bit_enum_text(cases: &[(String, i64)], bits: i64) -> Option<String> {
    if bits == 0 {
        return cases.iter().find(|(_, v)| *v == 0).map(|(c, _)| c.clone());
    }
    let set: Vec<&str> = cases
        .iter()
        .filter(|(_, v)| *v != 0 && v & bits == *v)
        .map(|(c, _)| c.as_str())
        .collect();
    Some(set.join("|"))
}

/// `vector<…>` of the sizes `shape` (`[n]` where scalable) and element
/// text `elem`.
fn vector_text(shape: &[i64], scalable: &[bool], elem: &str) -> String {
    let mut s = String::from("vector<");
    for (i, d) in shape.iter().enumerate() {
        if scalable.get(i).copied().unwrap_or(false) {
            s += &format!("[{d}]x");
        } else {
            s += &format!("{d}x");
        }
    }
    s += elem;
    s.push('>');
    s
}

/// The longest attribute text [`Parser::parse_attr_text`] keeps.
const CUSTOM_ATTR_TEXT_MAX: usize = 64;

/// Which values a type-matching trait ties together.
enum Tie<'n> {
    /// `SameOperandsAndResultType`.
    All,
    /// `SameTypeOperands`.
    Operands,
    /// `AllTypesMatch<[names]>`: operands, results and typed attributes.
    Named(&'n [String]),
}

impl Tie<'_> {
    fn operand(&self, name: &str) -> bool {
        match self {
            Tie::All | Tie::Operands => true,
            Tie::Named(n) => n.iter().any(|n| n == name),
        }
    }

    fn result(&self, name: &str) -> bool {
        match self {
            Tie::All => true,
            Tie::Operands => false,
            Tie::Named(n) => n.iter().any(|n| n == name),
        }
    }

    fn attr(&self, name: &str) -> bool {
        matches!(self, Tie::Named(n) if n.iter().any(|n| n == name))
    }
}

/// Whether a bare identifier starts a builtin type (`i32`, `f16`,
/// `index`, `tensor`, …).
fn is_builtin_type_word(w: &[u8]) -> bool {
    let int = |s: &[u8]| !s.is_empty() && s.iter().all(u8::is_ascii_digit);
    match w {
        b"index" | b"none" | b"bf16" | b"tf32" | b"tensor" | b"memref" | b"vector" | b"complex"
        | b"tuple" => true,
        _ => {
            if let Some(r) = w.strip_prefix(b"si").or_else(|| w.strip_prefix(b"ui")) {
                return int(r);
            }
            if let Some(r) = w.strip_prefix(b"i") {
                return int(r);
            }
            if let Some(r) = w.strip_prefix(b"f") {
                return r.first().is_some_and(u8::is_ascii_digit);
            }
            false
        }
    }
}
