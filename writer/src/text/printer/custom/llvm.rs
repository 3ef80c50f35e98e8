//! Ports of the llvm dialect's hand-written printers (`LLVMDialect.cpp`)
//! and of `llvm.getelementptr`'s generated one, with the checks that an
//! op has the shape they expect (else it prints in the generic form).

use super::*;

/// The LLVM types mlir-opt prints without their `!llvm.` prefix inside
/// another LLVM type (`!llvm.struct<(ptr, i32)>`).
const LLVM_TYPE_MNEMONICS: &[&str] = &[
    "array",
    "func",
    "label",
    "metadata",
    "ppc_fp128",
    "ptr",
    "struct",
    "target",
    "token",
    "vec",
    "void",
    "x86_amx",
];

/// `GEPOp::kDynamicIndex`: a `rawConstantIndices` entry that stands for
/// the next dynamic index operand.
const GEP_DYNAMIC_INDEX: i32 = i32::MIN;

/// The attributes `LLVMFuncOp::print` leaves out of `attributes {…}`.
const FUNC_ELIDED: &[&str] = &[
    "sym_name",
    "function_type",
    "arg_attrs",
    "res_attrs",
    "linkage",
    "CConv",
    "visibility_",
    "comdat",
    "unnamed_addr",
    "vscale_range",
];

/// The attributes `CallOp::print` leaves out of its attribute dictionary
/// (`fastmathFlags` too where it holds no flag).
const CALL_ELIDED: &[&str] = &[
    "callee",
    "TailCallKind",
    "var_callee_type",
    "CConv",
    "operandSegmentSizes",
    "op_bundle_sizes",
    "op_bundle_tags",
    "arg_attrs",
    "res_attrs",
];

/// The attributes `InvokeOp::print` leaves out of its attribute
/// dictionary.
const INVOKE_ELIDED: &[&str] = &[
    "callee",
    "operandSegmentSizes",
    "CConv",
    "var_callee_type",
    "op_bundle_sizes",
    "op_bundle_tags",
    "arg_attrs",
    "res_attrs",
];

/// The attributes `CallIntrinsicOp::print` leaves out of its attribute
/// dictionary (`fastmathFlags` too where it holds no flag).
const CALL_INTRINSIC_ELIDED: &[&str] = &[
    "operandSegmentSizes",
    "op_bundle_sizes",
    "intrin",
    "op_bundle_tags",
    "arg_attrs",
    "res_attrs",
];

/// The attributes `AliasOp::print` leaves out of its attribute dictionary.
const ALIAS_ELIDED: &[&str] = &[
    "sym_name",
    "alias_type",
    "linkage",
    "unnamed_addr",
    "thread_local_",
    "visibility_",
];

/// The attributes `llvm.switch`'s printer leaves out of its attribute
/// dictionary.
const SWITCH_ELIDED: &[&str] = &[
    "operandSegmentSizes",
    "case_operand_segments",
    "case_values",
];

/// The operand groups of an `llvm.call` or `llvm.invoke` but the last,
/// and its operand bundles (operands and tag).
struct CallParts {
    groups: Vec<Vec<ValueId>>,
    bundles: Vec<(Vec<ValueId>, AttrId)>,
}

/// The attributes `GlobalOp::print` leaves out of its attribute dictionary.
const GLOBAL_ELIDED: &[&str] = &[
    "sym_name",
    "global_type",
    "constant",
    "value",
    "linkage",
    "unnamed_addr",
    "thread_local_",
    "visibility_",
    "comdat",
];

/// The parts of an `!llvm.func<ret (params[, ...])>` type, each as
/// mlir-opt prints that type on its own (`!llvm.ptr`, not `ptr`).
struct FuncSig {
    /// The result type; `None` for `void`.
    ret: Option<String>,
    params: Vec<String>,
    vararg: bool,
}

/// The keyword `x` of an llvm dialect attribute `#llvm.<mnemonic><x>`
/// (`#llvm.linkage<internal>`), where it is a bare keyword.
fn llvm_keyword<'a>(m: &'a Module, a: AttrId, mnemonic: &str) -> Option<&'a str> {
    let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) else {
        return None;
    };
    if &*body.dialect != "llvm" {
        return None;
    }
    let [BodyPiece::Text(t)] = body.pieces.as_slice() else {
        return None;
    };
    let k = t
        .strip_prefix(mnemonic)?
        .strip_prefix('<')?
        .strip_suffix('>')?;
    let bare = !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_');
    bare.then_some(k)
}

/// The keyword of an optional llvm enum attribute of `op` (`linkage`,
/// `CConv`): `default` where it is absent, `None` where it is there but
/// not of the form `#llvm.<mnemonic><keyword>`.
fn enum_keyword<'a>(
    m: &'a Module,
    op: OpId,
    name: &[u8],
    mnemonic: &str,
    default: &'a str,
) -> Option<&'a str> {
    match inherent(m, op, name) {
        None => Some(default),
        Some(a) => llvm_keyword(m, a, mnemonic),
    }
}

/// The keyword of an integer-valued enum attribute of `op`
/// (`visibility_`, `unnamed_addr`: `""`, then `cases` from 1), `""`
/// where it is absent.
fn int_enum<'a>(m: &Module, op: OpId, name: &[u8], cases: &[&'a str]) -> Option<&'a str> {
    match inherent(m, op, name).map(|a| m.ctx.attr(a)) {
        None => Some(""),
        Some(AttrData::Integer { value, .. }) => {
            let v = usize::try_from(value).ok()?;
            if v == 0 {
                Some("")
            } else {
                cases.get(v - 1).copied()
            }
        }
        Some(_) => None,
    }
}

/// The dictionaries of an `ArrayAttr` of dictionaries (`arg_attrs`); `Some`
/// of an empty list where it is absent, `None` where it is not such an
/// array of `len` dictionaries.
fn dict_array(m: &Module, op: OpId, name: &[u8], len: usize) -> Option<Vec<AttrId>> {
    let Some(a) = inherent(m, op, name) else {
        return Some(Vec::new());
    };
    let AttrData::Array(items) = m.ctx.attr(a) else {
        return None;
    };
    let dicts = items.len() == len
        && items
            .iter()
            .all(|&d| matches!(m.ctx.attr(d), AttrData::Dictionary(_)));
    dicts.then(|| items.clone())
}

/// The top-level pieces of `s` split at `sep` (outside brackets and
/// strings).
fn split_top(s: &str, sep: u8) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut in_str = false;
    let mut start = 0;
    let bytes = s.as_bytes();
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
                _ if c == sep && depth == 0 => {
                    out.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        i += 1;
    }
    out.push(&s[start..]);
    out
}

/// A type printed inside an LLVM type, as it prints on its own: the LLVM
/// ones get their `!llvm.` prefix back.
fn full_llvm_type(t: &str) -> String {
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    if LLVM_TYPE_MNEMONICS.contains(&&t[..end]) {
        format!("!llvm.{t}")
    } else {
        t.to_string()
    }
}

/// The parts of the function type text `func<ret (params)>`.
fn parse_func_type(text: &str) -> Option<FuncSig> {
    let inner = text.strip_prefix("func<")?.strip_suffix('>')?;
    // A builtin function type's `->` would upset the bracket count.
    if inner.contains("->") {
        return None;
    }
    let mut depth = 0i32;
    let mut in_str = false;
    let mut open = None;
    let bytes = inner.as_bytes();
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
                b'(' if depth == 0 => {
                    open = Some(i);
                    break;
                }
                b'<' | b'(' | b'[' | b'{' => depth += 1,
                b'>' | b')' | b']' | b'}' => depth -= 1,
                _ => {}
            }
        }
        i += 1;
    }
    let open = open?;
    let ret = inner[..open].strip_suffix(' ')?;
    let params = inner[open + 1..].strip_suffix(')')?;
    if ret.is_empty() || split_top(params, b')').len() != 1 {
        return None;
    }
    let mut params: Vec<&str> = if params.is_empty() {
        Vec::new()
    } else {
        split_top(params, b',').into_iter().map(str::trim).collect()
    };
    let vararg = params.last() == Some(&"...");
    if vararg {
        params.pop();
    }
    if params.iter().any(|p| p.is_empty() || *p == "...") {
        return None;
    }
    Some(FuncSig {
        ret: (ret != "void").then(|| full_llvm_type(ret)),
        params: params.into_iter().map(full_llvm_type).collect(),
        vararg,
    })
}

/// The integer of an `IntegerAttr`, where it fits an `i64`.
fn int_of(m: &Module, a: AttrId) -> Option<i64> {
    match m.ctx.attr(a) {
        AttrData::Integer { value, .. } => i64::try_from(value).ok(),
        _ => None,
    }
}

/// The `i32` entries of a `DenseI32ArrayAttr`.
fn i32_array(m: &Module, a: AttrId) -> Option<Vec<i32>> {
    match m.ctx.attr(a) {
        AttrData::DenseArray { elem, data } if data.len() % 4 == 0 => {
            matches!(m.ctx.ty(*elem), TypeData::Integer { width: 32, .. }).then(|| {
                data.chunks_exact(4)
                    .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect()
            })
        }
        _ => None,
    }
}

/// `stringifyGEPNoWrapFlags`: `inbounds` (both of its bits) before the
/// single flags, joined by `|`; `None` for bits it does not know.
fn gep_flags(v: i64) -> Option<String> {
    if !(0..=7).contains(&v) {
        return None;
    }
    if v == 0 {
        return Some("none".into());
    }
    let mut rest = v;
    let mut words = Vec::new();
    if rest & 3 == 3 {
        words.push("inbounds");
        rest &= !3;
    }
    for (bit, word) in [(1, "inbounds_flag"), (2, "nusw"), (4, "nuw")] {
        if rest & bit != 0 {
            words.push(word);
        }
    }
    Some(words.join("|"))
}

/// The attributes a ported llvm printer leaves out of `op`'s print, for
/// the alias walk.
pub(super) fn elided(m: &Module, op: OpId) -> &'static [&'static str] {
    match m.op_names.get(m.op(op).name) {
        b"llvm.func" => FUNC_ELIDED,
        b"llvm.call" => CALL_ELIDED,
        b"llvm.invoke" => INVOKE_ELIDED,
        b"llvm.switch" => SWITCH_ELIDED,
        b"llvm.landingpad" => &["cleanup"],
        b"llvm.call_intrinsic" => CALL_INTRINSIC_ELIDED,
        b"llvm.intr.assume" => &["op_bundle_sizes", "op_bundle_tags"],
        b"llvm.mlir.alias" => ALIAS_ELIDED,
        b"llvm.indirectbr" => &["indbr_operand_segments"],
        b"llvm.mlir.ifunc" => {
            let zero_space = inherent(m, op, b"address_space")
                .and_then(|a| int_of(m, a))
                .is_some_and(|v| v == 0);
            if zero_space {
                &[
                    "linkage",
                    "visibility_",
                    "unnamed_addr",
                    "sym_name",
                    "i_func_type",
                    "resolver_type",
                    "resolver",
                    "address_space",
                ]
            } else {
                &[
                    "linkage",
                    "visibility_",
                    "unnamed_addr",
                    "sym_name",
                    "i_func_type",
                    "resolver_type",
                    "resolver",
                ]
            }
        }
        b"llvm.mlir.global" => GLOBAL_ELIDED,
        b"llvm.alloca" => {
            let aligned = inherent(m, op, b"alignment")
                .and_then(|a| int_of(m, a))
                .is_some_and(|v| v != 0);
            if aligned {
                &["elem_type", "inalloca"]
            } else {
                &["alignment", "elem_type", "inalloca"]
            }
        }
        b"llvm.getelementptr" => &["rawConstantIndices", "elem_type", "noWrapFlags"],
        b"llvm.icmp" | b"llvm.fcmp" => &["predicate"],
        _ => &[],
    }
}

impl Printer<'_, '_> {
    /// Whether `op`, an op of the llvm dialect with a ported printer, has
    /// the shape that printer expects.
    pub(super) fn llvm_fits(&self, op: OpId) -> bool {
        let m = self.shared.m;
        let o = m.op(op);
        let nres = o.num_results as usize;
        let nops = m.operands(op).len();
        let type_attr = |name: &[u8]| {
            inherent(m, op, name).is_some_and(|a| matches!(m.ctx.attr(a), AttrData::Type(_)))
        };
        match m.op_names.get(o.name) {
            b"llvm.func" => self.llvm_func_fits(op),
            b"llvm.alloca" => {
                nops == 1
                    && nres == 1
                    && type_attr(b"elem_type")
                    && inherent(m, op, b"alignment").is_none_or(|a| int_of(m, a).is_some())
            }
            b"llvm.call" => self.llvm_call_fits(op, 2),
            b"llvm.invoke" => self.llvm_call_fits(op, 4) && m.op(op).successors().len() == 2,
            b"llvm.landingpad" => nres == 1,
            b"llvm.switch" => self.llvm_switch_fits(op),
            b"llvm.icmp" | b"llvm.fcmp" => {
                nops == 2 && nres == 1 && self.llvm_predicate(op).is_some()
            }
            b"llvm.getelementptr" => {
                let raw = inherent(m, op, b"rawConstantIndices").and_then(|a| i32_array(m, a));
                let flags = match inherent(m, op, b"noWrapFlags") {
                    None => true,
                    Some(a) => int_of(m, a).and_then(gep_flags).is_some(),
                };
                nres == 1
                    && flags
                    && type_attr(b"elem_type")
                    && raw.is_some_and(|r| {
                        nops >= 1
                            && r.iter().filter(|&&i| i == GEP_DYNAMIC_INDEX).count() == nops - 1
                    })
            }
            b"llvm.mlir.global" => self.llvm_global_fits(op, b"global_type"),
            b"llvm.mlir.alias" => {
                self.llvm_global_fits(op, b"alias_type")
                    && m.op(op)
                        .regions()
                        .first()
                        .is_some_and(|&r| !m.region(r).blocks.is_empty())
            }
            b"llvm.mlir.ifunc" => {
                nops == 0
                    && nres == 0
                    && m.op(op).regions().is_empty()
                    && type_attr(b"i_func_type")
                    && type_attr(b"resolver_type")
                    && matches!(
                        inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                        Some(AttrData::String { .. })
                    )
                    && matches!(
                        inherent(m, op, b"resolver").map(|a| m.ctx.attr(a)),
                        Some(AttrData::SymbolRef { nested, .. }) if nested.is_empty()
                    )
                    && inherent(m, op, b"linkage")
                        .is_some_and(|a| llvm_keyword(m, a, "linkage").is_some())
                    && int_enum(m, op, b"visibility_", &["hidden", "protected"]).is_some()
                    && int_enum(
                        m,
                        op,
                        b"unnamed_addr",
                        &["local_unnamed_addr", "unnamed_addr"],
                    )
                    .is_some()
            }
            b"llvm.call_intrinsic" => {
                matches!(
                    inherent(m, op, b"intrin").map(|a| m.ctx.attr(a)),
                    Some(AttrData::String { ty: None, .. })
                ) && self
                    .llvm_call_parts(op, 2)
                    .is_some_and(|p| dict_array(m, op, b"arg_attrs", p.groups[0].len()).is_some())
                    && dict_array(m, op, b"res_attrs", nres).is_some()
            }
            b"llvm.intr.assume" => {
                nres == 0
                    && nops >= 1
                    && self
                        .llvm_bundles(op, m.operands(op).get(1..).unwrap_or_default())
                        .is_some()
            }
            b"llvm.indirectbr" => {
                let seg = inherent(m, op, b"indbr_operand_segments").and_then(|a| i32_array(m, a));
                nops >= 1
                    && nres == 0
                    && seg.is_some_and(|s| {
                        s.len() == m.op(op).successors().len()
                            && s.iter().all(|&x| x >= 0)
                            && s.iter().map(|&x| x as usize).sum::<usize>() == nops - 1
                    })
            }
            _ => false,
        }
    }

    /// The keyword of an `llvm.icmp`/`llvm.fcmp` predicate
    /// (`stringifyICmpPredicate`).
    fn llvm_predicate(&self, op: OpId) -> Option<&'static str> {
        let m = self.shared.m;
        let syn = Catalog::upstream().get(m.op_names.get(m.op(op).name))?;
        let spec = syn.attrs.iter().find(|a| a.name == "predicate")?;
        let v = int_of(m, inherent(m, op, b"predicate")?)?;
        // `_false` and `_true` print as they are named.
        spec.cases
            .iter()
            .find(|(_, c)| *c == v)
            .map(|(case, _)| case.as_str())
    }

    /// The signature of `!llvm.func` type `t`, printed without aliases.
    fn llvm_func_sig(&self, t: TypeId) -> Option<FuncSig> {
        let m = self.shared.m;
        let TypeData::Dialect(body) = m.ctx.ty(t) else {
            return None;
        };
        if &*body.dialect != "llvm" {
            return None;
        }
        let none = Aliases::none();
        let mut p = Printer::new_nested(
            Shared {
                aliases: &none,
                ..self.shared
            },
            0,
        );
        parse_func_type(&p.body_string(body))
    }

    /// The function type of an `llvm.func`, `var_callee_type` of an
    /// `llvm.call`.
    fn llvm_type_attr(&self, op: OpId, name: &[u8]) -> Option<TypeId> {
        let m = self.shared.m;
        match m.ctx.attr(inherent(m, op, name)?) {
            AttrData::Type(t) => Some(*t),
            _ => None,
        }
    }

    fn llvm_func_fits(&self, op: OpId) -> bool {
        let m = self.shared.m;
        let Some(sig) = self
            .llvm_type_attr(op, b"function_type")
            .and_then(|t| self.llvm_func_sig(t))
        else {
            return false;
        };
        let body_ok = match m.op(op).regions() {
            [r] => match m.region(*r).blocks.first() {
                None => true,
                Some(&b) => m.block(b).args.len() == sig.params.len(),
            },
            _ => false,
        };
        let vscale = match inherent(m, op, b"vscale_range") {
            None => true,
            Some(a) => vscale_range(m, a).is_some(),
        };
        body_ok
            && vscale
            && m.op(op).num_results == 0
            && m.operands(op).is_empty()
            && matches!(
                inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                Some(AttrData::String { .. })
            )
            && enum_keyword(m, op, b"linkage", "linkage", "external").is_some()
            && enum_keyword(m, op, b"CConv", "cconv", "ccc").is_some()
            && int_enum(m, op, b"visibility_", &["hidden", "protected"]).is_some()
            && int_enum(
                m,
                op,
                b"unnamed_addr",
                &["local_unnamed_addr", "unnamed_addr"],
            )
            .is_some()
            && dict_array(m, op, b"arg_attrs", sig.params.len()).is_some()
            && dict_array(m, op, b"res_attrs", usize::from(sig.ret.is_some())).is_some()
            && inherent(m, op, b"comdat")
                .is_none_or(|a| matches!(m.ctx.attr(a), AttrData::SymbolRef { .. }))
    }

    /// `LLVMFuncOp::print`: linkage (but `external`), visibility, unnamed
    /// address, calling convention (but `ccc`), `@name`, the signature
    /// (`function_interface_impl::printFunctionSignature`, `void` left
    /// out), `vscale_range(a, b)`, `comdat(@c)`, `attributes {…}`, the
    /// body.
    pub(super) fn llvm_func(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(sig) = self
            .llvm_type_attr(op, b"function_type")
            .and_then(|t| self.llvm_func_sig(t))
        else {
            return;
        };
        self.out.push(' ');
        let linkage = enum_keyword(m, op, b"linkage", "linkage", "external").unwrap_or("external");
        let visibility = int_enum(m, op, b"visibility_", &["hidden", "protected"]).unwrap_or("");
        let unnamed = int_enum(
            m,
            op,
            b"unnamed_addr",
            &["local_unnamed_addr", "unnamed_addr"],
        )
        .unwrap_or("");
        let cconv = enum_keyword(m, op, b"CConv", "cconv", "ccc").unwrap_or("ccc");
        for (word, default) in [
            (linkage, "external"),
            (visibility, ""),
            (unnamed, ""),
            (cconv, "ccc"),
        ] {
            if word != default {
                self.out.push_str(word);
                self.out.push(' ');
            }
        }
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        let arg_attrs = dict_array(m, op, b"arg_attrs", sig.params.len()).unwrap_or_default();
        let res_attrs =
            dict_array(m, op, b"res_attrs", usize::from(sig.ret.is_some())).unwrap_or_default();
        let body = m.op(op).regions().first().copied();
        let entry = body.and_then(|r| m.region(r).blocks.first().copied());
        self.out.push('(');
        for (i, param) in sig.params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            match entry.and_then(|b| m.block(b).args.get(i).copied()) {
                Some(arg) => self.region_argument(arg, arg_attrs.get(i).copied()),
                None => {
                    self.out.push_str(param);
                    self.optional_dict(arg_attrs.get(i).copied());
                }
            }
        }
        if sig.vararg {
            if !sig.params.is_empty() {
                self.out.push_str(", ");
            }
            self.out.push_str("...");
        }
        self.out.push(')');
        if let Some(ret) = &sig.ret {
            self.out.push_str(" -> ");
            let attrs = res_attrs.first().copied();
            let parens = attrs
                .is_some_and(|d| matches!(m.ctx.attr(d), AttrData::Dictionary(d) if !d.is_empty()));
            if parens {
                self.out.push('(');
            }
            self.out.push_str(ret);
            self.optional_dict(attrs);
            if parens {
                self.out.push(')');
            }
        }
        if let Some((lo, hi)) = inherent(m, op, b"vscale_range").and_then(|a| vscale_range(m, a)) {
            let _ = write!(self.out, " vscale_range({lo}, {hi})");
        }
        if let Some(c) = inherent(m, op, b"comdat") {
            self.out.push_str(" comdat(");
            self.attr(c, Elide::Never);
            self.out.push(')');
        }
        self.llvm_attr_dict(op, FUNC_ELIDED, true, false);
        if let Some(r) = body.filter(|&r| !m.region(r).blocks.is_empty()) {
            self.out.push(' ');
            self.custom_region(op, r, false, true);
        }
    }

    /// `printOptionalAttrDict` (`printOptionalAttrDictWithKeyword` with
    /// `keyword`) of the op's attributes less `elided`, and with `fmf`
    /// less `fastmathFlags` where it holds no flag (`processFMFAttr`).
    fn llvm_attr_dict(&mut self, op: OpId, elided: &[&str], keyword: bool, fmf: bool) {
        let m = self.shared.m;
        let mut entries = op_attrs(m, op);
        entries.retain(|(k, v)| {
            let no_flags = fmf
                && &k[..] == b"fastmathFlags"
                && llvm_keyword(m, *v, "fastmath") == Some("none");
            !no_flags && !elided.iter().any(|e| e.as_bytes() == &k[..])
        });
        self.attr_dict_of(&entries, keyword);
    }

    /// `AllocaOp::print`: `[inalloca ]%n x elem-type {…} : (i64) ->
    /// !llvm.ptr`, `alignment` left out where it is 0.
    pub(super) fn llvm_alloca(&mut self, op: OpId) {
        let m = self.shared.m;
        if matches!(
            inherent(m, op, b"inalloca").map(|a| m.ctx.attr(a)),
            Some(AttrData::Unit)
        ) {
            self.out.push_str(" inalloca");
        }
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        self.value_list(&ops);
        self.out.push_str(" x ");
        if let Some(t) = self.llvm_type_attr(op, b"elem_type") {
            self.ty(t);
        }
        self.llvm_attr_dict(op, elided(m, op), false, false);
        self.out.push_str(" : (");
        self.type_list(&ops);
        self.out.push(')');
        self.arrow_result_types(op);
    }

    /// `ICmpOp::print` and `FCmpOp::print`: `"pred" %a, %b {…} : t`.
    pub(super) fn llvm_cmp(&mut self, op: OpId) {
        let m = self.shared.m;
        let pred = self.llvm_predicate(op).unwrap_or_default();
        let _ = write!(self.out, " \"{pred}\" ");
        let ops = m.operands(op).to_vec();
        self.value_list(&ops);
        self.llvm_attr_dict(op, &["predicate"], false, true);
        self.out.push_str(" : ");
        if let Some(&a) = ops.first() {
            self.ty(m.value(a).ty);
        }
    }

    /// The operand groups of an `llvm.call` (callee operands) or
    /// `llvm.invoke` (callee, normal and unwind destination operands) by
    /// its `groups` segment sizes, the last of which holds the operand
    /// bundles, and those bundles (their operands and tags).
    fn llvm_call_parts(&self, op: OpId, groups: usize) -> Option<CallParts> {
        let m = self.shared.m;
        let ops = m.operands(op);
        let seg = segment_sizes(m, op, b"operandSegmentSizes")?;
        if seg.len() != groups || seg.iter().sum::<usize>() != ops.len() {
            return None;
        }
        let bundles = self.llvm_bundles(op, &ops[ops.len() - seg[groups - 1]..])?;
        let groups = (0..groups - 1).map(|k| segment(ops, &seg, k)).collect();
        Some(CallParts { groups, bundles })
    }

    /// The operand bundles of `op` (operands and tag), `ops` cut by its
    /// `op_bundle_sizes` and named by its `op_bundle_tags`.
    #[allow(clippy::type_complexity)]
    fn llvm_bundles(&self, op: OpId, ops: &[ValueId]) -> Option<Vec<(Vec<ValueId>, AttrId)>> {
        let m = self.shared.m;
        let sizes = match inherent(m, op, b"op_bundle_sizes") {
            Some(a) => i32_array(m, a)?,
            None => Vec::new(),
        };
        let tags = match inherent(m, op, b"op_bundle_tags").map(|a| m.ctx.attr(a)) {
            None => Vec::new(),
            Some(AttrData::Array(t)) => t.clone(),
            Some(_) => return None,
        };
        if sizes.len() != tags.len()
            || sizes.iter().any(|&s| s < 0)
            || sizes.iter().map(|&s| s as usize).sum::<usize>() != ops.len()
            || tags
                .iter()
                .any(|&t| !matches!(m.ctx.attr(t), AttrData::String { ty: None, .. }))
        {
            return None;
        }
        let mut at = 0;
        Some(
            sizes
                .iter()
                .zip(tags)
                .map(|(&s, t)| {
                    let vals = ops[at..at + s as usize].to_vec();
                    at += s as usize;
                    (vals, t)
                })
                .collect(),
        )
    }

    /// Whether an `llvm.call` or `llvm.invoke` (`groups` operand groups)
    /// has the shape its printer expects.
    fn llvm_call_fits(&self, op: OpId, groups: usize) -> bool {
        let m = self.shared.m;
        let Some(parts) = self.llvm_call_parts(op, groups) else {
            return false;
        };
        let callee_ops = &parts.groups[0];
        let direct = match inherent(m, op, b"callee").map(|a| m.ctx.attr(a)) {
            None => false,
            Some(AttrData::SymbolRef { nested, .. }) if nested.is_empty() => true,
            Some(_) => return false,
        };
        let nargs = callee_ops.len().saturating_sub(usize::from(!direct));
        (direct || !callee_ops.is_empty())
            && m.op(op).num_results <= 1
            && enum_keyword(m, op, b"CConv", "cconv", "ccc").is_some()
            && enum_keyword(m, op, b"TailCallKind", "tailcallkind", "none").is_some()
            && inherent(m, op, b"var_callee_type").is_none_or(|a| {
                matches!(m.ctx.attr(a), AttrData::Type(t) if matches!(m.ctx.ty(*t), TypeData::Dialect(_)))
            })
            && dict_array(m, op, b"arg_attrs", nargs).is_some()
            && dict_array(m, op, b"res_attrs", m.op(op).num_results as usize).is_some()
    }

    /// The calling convention (but `ccc`) and, with `tail`, the tail call
    /// kind (but `none`) of an `llvm.call` or `llvm.invoke`, then its
    /// `@callee` or callee operand and `(args)`; the arguments.
    fn llvm_callee(&mut self, op: OpId, callee_ops: &[ValueId], tail: bool) -> Vec<ValueId> {
        let m = self.shared.m;
        self.out.push(' ');
        let cconv = enum_keyword(m, op, b"CConv", "cconv", "ccc").unwrap_or("ccc");
        let kind = enum_keyword(m, op, b"TailCallKind", "tailcallkind", "none").unwrap_or("none");
        for (word, default, shown) in [(cconv, "ccc", true), (kind, "none", tail)] {
            if shown && word != default {
                self.out.push_str(word);
                self.out.push(' ');
            }
        }
        let args = match inherent(m, op, b"callee").map(|a| m.ctx.attr(a)) {
            Some(AttrData::SymbolRef { root, .. }) => {
                symbol_ref(root, &mut self.out);
                callee_ops.to_vec()
            }
            _ => {
                if let Some(&f) = callee_ops.first() {
                    self.value(f);
                }
                callee_ops.get(1..).unwrap_or_default().to_vec()
            }
        };
        self.out.push('(');
        self.value_list(&args);
        self.out.push(')');
        args
    }

    /// ` vararg(type)` and the operand bundles ` ["tag"(%a : t), …]`
    /// (`printOpBundles`) of an `llvm.call` or `llvm.invoke`.
    fn llvm_vararg_bundles(&mut self, op: OpId, bundles: &[(Vec<ValueId>, AttrId)]) {
        let m = self.shared.m;
        if let Some(t) = self.llvm_type_attr(op, b"var_callee_type") {
            self.out.push_str(" vararg(");
            self.ty(t);
            self.out.push(')');
        }
        if bundles.is_empty() {
            return;
        }
        self.out.push_str(" [");
        for (k, (vals, tag)) in bundles.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            if let AttrData::String { value, .. } = m.ctx.attr(*tag) {
                quoted(value, &mut self.out);
            }
            self.out.push('(');
            if !vals.is_empty() {
                self.value_list(vals);
                self.out.push_str(" : ");
                self.type_list(vals);
            }
            self.out.push(')');
        }
        self.out.push(']');
    }

    /// ` : ` then the callee's type where the call is indirect, then the
    /// signature (`call_interface_impl::printFunctionSignature`, no body,
    /// `-> ()` for no result).
    fn llvm_call_type(&mut self, op: OpId, callee_ops: &[ValueId], args: &[ValueId]) {
        let m = self.shared.m;
        self.out.push_str(" : ");
        if inherent(m, op, b"callee").is_none() {
            if let Some(&f) = callee_ops.first() {
                self.ty(m.value(f).ty);
                self.out.push_str(", ");
            }
        }
        self.llvm_call_signature(op, args);
    }

    /// `call_interface_impl::printFunctionSignature` of a call without
    /// body: `(t {…}, …) -> ` then `()`, one type, or (several, a function
    /// type, attributes on the first) `(t {…}, …)`.
    fn llvm_call_signature(&mut self, op: OpId, args: &[ValueId]) {
        let m = self.shared.m;
        let arg_attrs = dict_array(m, op, b"arg_attrs", args.len()).unwrap_or_default();
        let results: Vec<ValueId> = m.op(op).results().collect();
        let res_attrs = dict_array(m, op, b"res_attrs", results.len()).unwrap_or_default();
        self.out.push('(');
        for (i, &a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(m.value(a).ty);
            self.optional_dict(arg_attrs.get(i).copied());
        }
        self.out.push_str(") -> ");
        let Some(&first) = results.first() else {
            self.out.push_str("()");
            return;
        };
        let parens = results.len() > 1
            || matches!(m.ctx.ty(m.value(first).ty), TypeData::Function { .. })
            || res_attrs.first().is_some_and(
                |&d| matches!(m.ctx.attr(d), AttrData::Dictionary(d) if !d.is_empty()),
            );
        if parens {
            self.out.push('(');
        }
        for (i, &r) in results.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(m.value(r).ty);
            self.optional_dict(res_attrs.get(i).copied());
        }
        if parens {
            self.out.push(')');
        }
    }

    /// `CallIntrinsicOp::print`: `"llvm.name"(args)`, the operand bundles,
    /// `{…}`, `:`, the signature.
    pub(super) fn llvm_call_intrinsic(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(parts) = self.llvm_call_parts(op, 2) else {
            return;
        };
        self.out.push(' ');
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"intrin").map(|a| m.ctx.attr(a))
        {
            quoted(value, &mut self.out);
        }
        let args = &parts.groups[0];
        self.out.push('(');
        self.value_list(args);
        self.out.push(')');
        self.llvm_vararg_bundles(op, &parts.bundles);
        self.llvm_attr_dict(op, CALL_INTRINSIC_ELIDED, false, true);
        self.out.push_str(" : ");
        self.llvm_call_signature(op, args);
    }

    /// `llvm.intr.assume`'s generated printer: `%cond[ bundles] : i1 {…}`,
    /// the bundles' place kept where the tags are there but empty.
    pub(super) fn llvm_assume(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let Some(bundles) = self.llvm_bundles(op, ops.get(1..).unwrap_or_default()) else {
            return;
        };
        let cond = ops.first().copied();
        self.out.push(' ');
        if let Some(c) = cond {
            self.value(c);
        }
        if !bundles.is_empty() || inherent(m, op, b"op_bundle_tags").is_some() {
            self.out.push(' ');
            if !bundles.is_empty() {
                // `llvm_vararg_bundles` leads with its own space.
                self.out.pop();
            }
            self.llvm_vararg_bundles(op, &bundles);
        }
        self.out.push_str(" : ");
        if let Some(c) = cond {
            self.ty(m.value(c).ty);
        }
        self.llvm_attr_dict(op, &["op_bundle_sizes", "op_bundle_tags"], false, false);
    }

    /// `AliasOp::print`: linkage, visibility, `thread_local`, unnamed
    /// address (`printCommonGlobalAndAlias`), `@name`, `{…}`, `: type`,
    /// the initializer region.
    pub(super) fn llvm_alias(&mut self, op: OpId) {
        let m = self.shared.m;
        self.llvm_global_prefix(op);
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        self.llvm_attr_dict(op, ALIAS_ELIDED, false, false);
        self.out.push_str(" : ");
        if let Some(t) = self.llvm_type_attr(op, b"alias_type") {
            self.ty(t);
        }
        self.out.push(' ');
        if let Some(&r) = m.op(op).regions().first() {
            self.custom_region(op, r, false, true);
        }
    }

    /// `llvm.mlir.ifunc`'s generated printer: `linkage[ visibility][
    /// unnamed_addr] @name : type, resolver-type @resolver {…}`, with
    /// `address_space` left out where it is 0.
    pub(super) fn llvm_ifunc(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        let linkage = inherent(m, op, b"linkage")
            .and_then(|a| llvm_keyword(m, a, "linkage"))
            .unwrap_or("external");
        self.out.push_str(linkage);
        let visibility = int_enum(m, op, b"visibility_", &["hidden", "protected"]).unwrap_or("");
        let unnamed = int_enum(
            m,
            op,
            b"unnamed_addr",
            &["local_unnamed_addr", "unnamed_addr"],
        )
        .unwrap_or("");
        for word in [visibility, unnamed] {
            if !word.is_empty() {
                self.out.push(' ');
                self.out.push_str(word);
            }
        }
        self.out.push(' ');
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        self.out.push_str(" : ");
        if let Some(t) = self.llvm_type_attr(op, b"i_func_type") {
            self.ty(t);
        }
        self.out.push_str(", ");
        if let Some(t) = self.llvm_type_attr(op, b"resolver_type") {
            self.ty(t);
        }
        self.out.push(' ');
        if let Some(r) = inherent(m, op, b"resolver") {
            self.attr(r, Elide::All);
        }
        self.llvm_attr_dict(op, elided(m, op), false, false);
    }

    /// `llvm.indirectbr`'s generated printer: `%addr : !llvm.ptr, [` then
    /// each successor with its operands on a line of its own
    /// (`printIndirectBrOpSucessors`), `]`, `{…}`.
    pub(super) fn llvm_indirectbr(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let seg = inherent(m, op, b"indbr_operand_segments")
            .and_then(|a| i32_array(m, a))
            .unwrap_or_default();
        let sizes: Vec<usize> = seg.iter().map(|&s| s as usize).collect();
        let rest = ops.get(1..).unwrap_or_default();
        self.out.push(' ');
        if let Some(&a) = ops.first() {
            self.value(a);
            self.out.push_str(" : ");
            self.ty(m.value(a).ty);
        }
        self.out.push_str(", [");
        let succ = m.op(op).successors().to_vec();
        for (k, &b) in succ.iter().enumerate() {
            if k > 0 {
                self.out.push(',');
            }
            self.out.push('\n');
            self.pad();
            self.successor_and_uses(b, &segment(rest, &sizes, k));
        }
        if !succ.is_empty() {
            self.out.push('\n');
            self.pad();
        }
        self.out.push(']');
        self.llvm_attr_dict(op, &["indbr_operand_segments"], false, false);
    }

    /// `CallOp::print`: calling convention (but `ccc`), tail call kind
    /// (but `none`), `@callee` or the callee operand, `(args)`,
    /// `vararg(type)`, the operand bundles, `{…}`, `:`, the callee's type
    /// where indirect, the signature.
    pub(super) fn llvm_call(&mut self, op: OpId) {
        let Some(parts) = self.llvm_call_parts(op, 2) else {
            return;
        };
        let callee_ops = &parts.groups[0];
        let args = self.llvm_callee(op, callee_ops, true);
        self.llvm_vararg_bundles(op, &parts.bundles);
        self.llvm_attr_dict(op, CALL_ELIDED, false, true);
        self.llvm_call_type(op, callee_ops, &args);
    }

    /// `InvokeOp::print`: as `CallOp::print` without the tail call kind,
    /// with ` to ^normal(…) unwind ^unwind(…)` after the arguments
    /// (`printSuccessorAndUseList`).
    pub(super) fn llvm_invoke(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(parts) = self.llvm_call_parts(op, 4) else {
            return;
        };
        let callee_ops = &parts.groups[0];
        let args = self.llvm_callee(op, callee_ops, false);
        let succ = m.op(op).successors().to_vec();
        for (k, word) in [" to ", " unwind "].into_iter().enumerate() {
            self.out.push_str(word);
            if let Some(&b) = succ.get(k) {
                self.successor_and_uses(b, &parts.groups[k + 1]);
            }
        }
        self.llvm_vararg_bundles(op, &parts.bundles);
        self.llvm_attr_dict(op, INVOKE_ELIDED, false, false);
        self.llvm_call_type(op, callee_ops, &args);
    }

    /// `LandingpadOp::print`: `[cleanup ](catch %a : t) (filter %b : u)
    /// {…}: type`, an operand of array type being a filter.
    pub(super) fn llvm_landingpad(&mut self, op: OpId) {
        let m = self.shared.m;
        let cleanup = matches!(
            inherent(m, op, b"cleanup").map(|a| m.ctx.attr(a)),
            Some(AttrData::Unit)
        );
        self.out.push_str(if cleanup { " cleanup " } else { " " });
        for v in m.operands(op).to_vec() {
            let t = m.value(v).ty;
            let filter = matches!(m.ctx.ty(t), TypeData::Dialect(b)
                if &*b.dialect == "llvm"
                    && matches!(b.pieces.first(), Some(BodyPiece::Text(x)) if x.starts_with("array<")));
            self.out
                .push_str(if filter { "(filter " } else { "(catch " });
            self.value(v);
            self.out.push_str(" : ");
            self.ty(t);
            self.out.push_str(") ");
        }
        self.llvm_attr_dict(op, &["cleanup"], false, false);
        self.out.push_str(": ");
        if let Some(r) = m.op(op).results().next() {
            self.ty(m.value(r).ty);
        }
    }

    /// The case values of an `llvm.switch`, one per case destination.
    fn llvm_switch_cases(&self, op: OpId) -> Option<Vec<BigInt>> {
        let m = self.shared.m;
        let Some(a) = inherent(m, op, b"case_values") else {
            return Some(Vec::new());
        };
        let AttrData::DenseIntOrFp { ty, splat, data } = m.ctx.attr(a) else {
            return None;
        };
        let TypeData::Vector { shape, elem, .. } = m.ctx.ty(*ty) else {
            return None;
        };
        let TypeData::Integer { width, .. } = m.ctx.ty(*elem) else {
            return None;
        };
        let (&[n], true) = (shape.as_slice(), matches!(width, 8 | 16 | 32 | 64)) else {
            return None;
        };
        let bytes = *width as usize / 8;
        let n = usize::try_from(n).ok()?;
        let count = if *splat { 1 } else { n };
        if data.len() != count * bytes {
            return None;
        }
        let value = |k: usize| {
            let mut buf = [0u8; 8];
            buf[..bytes].copy_from_slice(&data[k * bytes..(k + 1) * bytes]);
            let v = i64::from_le_bytes(buf);
            // Sign-extend from the element's width (`APInt` printed signed).
            let shift = 64 - 8 * bytes as u32;
            BigInt::from((v << shift) >> shift)
        };
        Some((0..n).map(|k| value(if *splat { 0 } else { k })).collect())
    }

    fn llvm_switch_fits(&self, op: OpId) -> bool {
        let m = self.shared.m;
        let Some(seg) = segment_sizes(m, op, b"operandSegmentSizes") else {
            return false;
        };
        let Some(case_seg) =
            inherent(m, op, b"case_operand_segments").and_then(|a| i32_array(m, a))
        else {
            return false;
        };
        let ncases = m.op(op).successors().len().saturating_sub(1);
        seg.len() == 3
            && seg[0] == 1
            && seg.iter().sum::<usize>() == m.operands(op).len()
            && !m.op(op).successors().is_empty()
            && m.op(op).num_results == 0
            && case_seg.len() == ncases
            && case_seg.iter().all(|&s| s >= 0)
            && case_seg.iter().map(|&s| s as usize).sum::<usize>() == seg[2]
            && self
                .llvm_switch_cases(op)
                .is_some_and(|c| c.len() == ncases)
    }

    /// `llvm.switch`'s generated printer: `%v : t, ^default(…) [` then one
    /// line per case `value: ^dest(…)` (`printSwitchOpCases`), `]`, `{…}`.
    pub(super) fn llvm_switch(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let seg = segment_sizes(m, op, b"operandSegmentSizes").unwrap_or_default();
        let case_seg = inherent(m, op, b"case_operand_segments")
            .and_then(|a| i32_array(m, a))
            .unwrap_or_default();
        let cases = self.llvm_switch_cases(op).unwrap_or_default();
        let succ = m.op(op).successors().to_vec();
        self.out.push(' ');
        if let Some(&v) = ops.first() {
            self.value(v);
            self.out.push_str(" : ");
            self.ty(m.value(v).ty);
        }
        self.out.push_str(", ");
        if let Some(&d) = succ.first() {
            self.successor_and_uses(d, &segment(&ops, &seg, 1));
        }
        self.out.push_str(" [\n");
        self.pad();
        let case_ops = segment(&ops, &seg, 2);
        let case_sizes: Vec<usize> = case_seg.iter().map(|&s| s as usize).collect();
        if !cases.is_empty() {
            for (k, value) in cases.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(",\n");
                    self.pad();
                }
                let _ = write!(self.out, "  {value}: ");
                if let Some(&b) = succ.get(k + 1) {
                    self.successor_and_uses(b, &segment(&case_ops, &case_sizes, k));
                }
            }
            self.out.push('\n');
            self.pad();
        }
        self.out.push(']');
        self.llvm_attr_dict(op, SWITCH_ELIDED, false, false);
    }

    /// `llvm.getelementptr`'s generated printer: `[flags ]%base[indices]
    /// {…} : (operand types) -> t, elem-type`, a dynamic index printed as
    /// its operand (`printGEPIndices`).
    pub(super) fn llvm_gep(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        if let Some(flags) = inherent(m, op, b"noWrapFlags")
            .and_then(|a| int_of(m, a))
            .filter(|&v| v != 0)
            .and_then(gep_flags)
        {
            self.out.push(' ');
            self.out.push_str(&flags);
        }
        self.out.push(' ');
        if let Some(&base) = ops.first() {
            self.value(base);
        }
        self.out.push('[');
        let raw = inherent(m, op, b"rawConstantIndices")
            .and_then(|a| i32_array(m, a))
            .unwrap_or_default();
        let mut dynamic = ops.iter().skip(1);
        for (k, &i) in raw.iter().enumerate() {
            if k > 0 {
                self.out.push_str(", ");
            }
            if i == GEP_DYNAMIC_INDEX {
                if let Some(&v) = dynamic.next() {
                    self.value(v);
                }
            } else {
                let _ = write!(self.out, "{i}");
            }
        }
        self.out.push(']');
        self.llvm_attr_dict(op, elided(m, op), false, false);
        self.out.push_str(" : (");
        self.type_list(&ops);
        self.out.push(')');
        self.arrow_result_types(op);
        self.out.push_str(", ");
        if let Some(t) = self.llvm_type_attr(op, b"elem_type") {
            self.ty(t);
        }
    }

    /// Whether an `llvm.mlir.global` or `llvm.mlir.alias` (its type in
    /// attribute `ty`) has the shape its printer expects.
    fn llvm_global_fits(&self, op: OpId, ty: &[u8]) -> bool {
        let m = self.shared.m;
        let o = m.op(op);
        o.num_results == 0
            && m.operands(op).is_empty()
            && o.regions().len() == 1
            && self.llvm_type_attr(op, ty).is_some()
            && matches!(
                inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                Some(AttrData::String { .. })
            )
            && inherent(m, op, b"linkage").is_some_and(|a| llvm_keyword(m, a, "linkage").is_some())
            && int_enum(m, op, b"visibility_", &["hidden", "protected"]).is_some()
            && int_enum(
                m,
                op,
                b"unnamed_addr",
                &["local_unnamed_addr", "unnamed_addr"],
            )
            .is_some()
            && inherent(m, op, b"comdat")
                .is_none_or(|a| matches!(m.ctx.attr(a), AttrData::SymbolRef { .. }))
    }

    /// `GlobalOp::print`: linkage, visibility, `thread_local`, unnamed
    /// address, `constant`, `@name`, `(value)`, `comdat(@c)`, `{…}`, and
    /// but for a string value `: type` and the initializer region
    /// (`printCommonGlobalAndAlias`).
    pub(super) fn llvm_global(&mut self, op: OpId) {
        let m = self.shared.m;
        self.llvm_global_prefix(op);
        if matches!(
            inherent(m, op, b"constant").map(|a| m.ctx.attr(a)),
            Some(AttrData::Unit)
        ) {
            self.out.push_str("constant ");
        }
        self.llvm_global_rest(op);
    }

    /// `printCommonGlobalAndAlias`: ` linkage `, then visibility,
    /// `thread_local` and the unnamed address where they are there, each
    /// followed by a space.
    fn llvm_global_prefix(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        let linkage = inherent(m, op, b"linkage")
            .and_then(|a| llvm_keyword(m, a, "linkage"))
            .unwrap_or("external");
        self.out.push_str(linkage);
        self.out.push(' ');
        let visibility = int_enum(m, op, b"visibility_", &["hidden", "protected"]).unwrap_or("");
        if !visibility.is_empty() {
            self.out.push_str(visibility);
            self.out.push(' ');
        }
        if matches!(
            inherent(m, op, b"thread_local_").map(|a| m.ctx.attr(a)),
            Some(AttrData::Unit)
        ) {
            self.out.push_str("thread_local ");
        }
        let unnamed = int_enum(
            m,
            op,
            b"unnamed_addr",
            &["local_unnamed_addr", "unnamed_addr"],
        )
        .unwrap_or("");
        if !unnamed.is_empty() {
            self.out.push_str(unnamed);
            self.out.push(' ');
        }
    }

    /// `GlobalOp::print` after `constant`.
    fn llvm_global_rest(&mut self, op: OpId) {
        let m = self.shared.m;
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        self.out.push('(');
        let value = inherent(m, op, b"value");
        if let Some(v) = value {
            self.attr(v, Elide::Never);
        }
        self.out.push(')');
        if let Some(c) = inherent(m, op, b"comdat") {
            self.out.push_str(" comdat(");
            self.attr(c, Elide::Never);
            self.out.push(')');
        }
        self.llvm_attr_dict(op, GLOBAL_ELIDED, false, false);
        if value.is_some_and(|v| matches!(m.ctx.attr(v), AttrData::String { .. })) {
            return;
        }
        self.out.push_str(" : ");
        if let Some(t) = self.llvm_type_attr(op, b"global_type") {
            self.ty(t);
        }
        if let Some(&r) = m
            .op(op)
            .regions()
            .first()
            .filter(|&&r| !m.region(r).blocks.is_empty())
        {
            self.out.push(' ');
            self.custom_region(op, r, false, true);
        }
    }
}

/// The bounds of a `#llvm.vscale_range<minRange = a : i32, maxRange = b :
/// i32>`.
fn vscale_range(m: &Module, a: AttrId) -> Option<(i64, i64)> {
    let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) else {
        return None;
    };
    let [BodyPiece::Text(t)] = body.pieces.as_slice() else {
        return None;
    };
    let inner = t.strip_prefix("vscale_range<")?.strip_suffix('>')?;
    let mut bounds = split_top(inner, b',').into_iter().map(|part| {
        let (_, v) = part.split_once('=')?;
        let v = v.trim().strip_suffix(": i32")?.trim();
        v.parse::<i64>().ok()
    });
    let lo = bounds.next()??;
    let hi = bounds.next()??;
    bounds.next().is_none().then_some((lo, hi))
}
