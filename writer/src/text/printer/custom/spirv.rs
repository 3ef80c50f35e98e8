//! Ports of the spirv dialect's hand-written printers (`SPIRVOps.cpp`,
//! `ControlFlowOps.cpp`, `MemoryOps.cpp`).
//!
//! Several of them leave attributes out of their text without an
//! attribute dictionary (`spirv.Constant`, `spirv.EntryPoint`); such an
//! op prints in the generic form unless it has exactly the attributes its
//! printer shows ([`printable`]).

use super::*;

/// The attribute names a printer shows or derives, by op: an op with any
/// other attribute prints in the generic form. `None`: the printer keeps
/// the others in an attribute dictionary.
fn shown_attrs(name: &[u8]) -> Option<&'static [&'static str]> {
    Some(match name {
        b"spirv.Constant" => &["value"],
        b"spirv.EntryPoint" => &["execution_model", "fn", "interface"],
        b"spirv.ExecutionMode" => &["execution_mode", "fn", "values"],
        b"spirv.BranchConditional" => &["branch_weights", "operandSegmentSizes"],
        b"spirv.mlir.loop" => &["loop_control"],
        b"spirv.mlir.selection" => &["selection_control"],
        b"spirv.SpecConstant" => &["default_value", "spec_id", "sym_name"],
        b"spirv.CompositeInsert" => &["indices"],
        b"spirv.CompositeExtract" => &["indices"],
        b"spirv.CopyMemory" => &[
            "alignment",
            "memory_access",
            "source_alignment",
            "source_memory_access",
        ],
        _ => return None,
    })
}

/// The case of a spirv enum attribute `#spirv.<mnemonic><Case>`
/// (`Case|Other` for a bit enum), as `stringify…` spells it.
fn enum_case<'m>(m: &'m Module, a: AttrId, mnemonic: &str) -> Option<&'m str> {
    let AttrData::Dialect { body, ty: None } = m.ctx.attr(a) else {
        return None;
    };
    let [BodyPiece::Text(t)] = body.pieces.as_slice() else {
        return None;
    };
    if &*body.dialect != "spirv" {
        return None;
    }
    let case = t
        .strip_prefix(mnemonic)?
        .strip_prefix('<')?
        .strip_suffix('>')?;
    let word = |w: &str| {
        w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    case.split('|').all(word).then_some(case)
}

/// The inherent enum attribute `name` of `op` as its case.
fn inherent_case<'m>(m: &'m Module, op: OpId, name: &str, mnemonic: &str) -> Option<&'m str> {
    enum_case(m, inherent(m, op, name.as_bytes())?, mnemonic)
}

/// The pointee type's text and the storage class of a
/// `!spirv.ptr<T, Class>`.
fn pointer_parts(m: &Module, t: TypeId) -> Option<(String, String)> {
    let text = crate::bytecode::text_entry::type_text(&m.ctx, t);
    let (pointee, class) = text
        .strip_prefix("!spirv.ptr<")?
        .strip_suffix('>')?
        .rsplit_once(", ")?;
    (!class.is_empty() && class.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then(|| (pointee.to_string(), class.to_string()))
}

/// Whether a value of type `t` is what a `!spirv.ptr` to `pointee`
/// points to.
fn is_pointee(m: &Module, t: TypeId, pointee: &str) -> bool {
    crate::bytecode::text_entry::type_text(&m.ctx, t) == pointee
}

/// Whether the memory access `access` and its alignment `align` are
/// both printed, so read back (`printMemoryAccessAttribute`): the access
/// a known case, the alignment an `i32` there exactly with `Aligned`.
fn access_consumed(m: &Module, op: OpId, access: &str, align: &str) -> bool {
    let case = match inherent(m, op, access.as_bytes()) {
        Some(c) => match enum_case(m, c, "memory_access") {
            Some(case) => Some(case),
            None => return false,
        },
        None => None,
    };
    let aligned = case.is_some_and(|c| c.split('|').any(|w| w == "Aligned"));
    match inherent(m, op, align.as_bytes()) {
        None => !aligned,
        Some(a) => {
            aligned
                && matches!(m.ctx.attr(a), AttrData::Integer { ty, value }
                    if matches!(m.ctx.ty(*ty), TypeData::Integer { width: 32, signedness: Signedness::Signless })
                        && value.sign() != Sign::Minus)
        }
    }
}

/// The text of element `i` of a composite type's text (`vector<4xf32>`,
/// `!spirv.array<4 x f32>`, `!spirv.struct<(f32, i32)>`), as
/// `spirv::CompositeType::getElementType` gives it (a struct member
/// without its offset or decorations); `None` for any other type or an
/// index out of range.
fn element_text(text: &str, i: usize) -> Option<String> {
    if let Some(rest) = text.strip_prefix("vector<") {
        let (n, elem) = rest.strip_suffix('>')?.split_once('x')?;
        let n: usize = n.parse().ok()?;
        let plain = elem.starts_with(|c: char| c.is_ascii_alphabetic());
        return (i < n && plain && !elem.contains(['x', '<'])).then(|| elem.to_string());
    }
    if let Some(rest) = text.strip_prefix("!spirv.array<") {
        let (n, elem) = rest.strip_suffix('>')?.split_once(" x ")?;
        let n: usize = n.parse().ok()?;
        let parts = top_level_split(elem);
        let elem = match parts.as_slice() {
            [e] => *e,
            [e, stride] if stride.starts_with("stride=") => *e,
            _ => return None,
        };
        return (i < n).then(|| elem.to_string());
    }
    let members = text.strip_prefix("!spirv.struct<(")?.strip_suffix(")>")?;
    let parts = top_level_split(members);
    let member = parts.get(i)?;
    // A member with an offset or decorations (`f32 [4]`) has its type
    // before them; types themselves end otherwise.
    if let Some(head) = member.strip_suffix(']') {
        let (ty, decorations) = head.rsplit_once(" [")?;
        if decorations.contains(['[', '<', '(', '"']) || ty.ends_with(']') {
            return None;
        }
        return Some(ty.to_string());
    }
    Some(member.to_string())
}

/// `s` split at its commas outside brackets and quotes.
fn top_level_split(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    let bytes = s.as_bytes();
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'"' => quoted = !quoted,
            b'\\' if quoted => k += 1,
            b'<' | b'(' | b'[' | b'{' if !quoted => depth += 1,
            b'>' | b')' | b']' | b'}' if !quoted => depth -= 1,
            b',' if !quoted && depth == 0 => {
                out.push(s[start..k].trim());
                start = k + 1;
            }
            _ => {}
        }
        k += 1;
    }
    out.push(s[start..].trim());
    out
}

/// Whether a type is `!spirv.array<…>`.
fn is_array(m: &Module, t: TypeId) -> bool {
    matches!(m.ctx.ty(t), TypeData::Dialect(body) if &*body.dialect == "spirv"
        && matches!(body.pieces.first(), Some(BodyPiece::Text(s)) if s.starts_with("array<")))
}

/// Whether an attribute is an `i32` integer, as the parsers read a bare
/// integer they are given that type for.
fn is_i32(m: &Module, a: AttrId) -> bool {
    matches!(m.ctx.attr(a), AttrData::Integer { ty, .. }
        if matches!(m.ctx.ty(*ty), TypeData::Integer { width: 32, signedness: Signedness::Signless }))
}

/// An integer attribute's value read signed (`IntegerAttr::getInt`).
fn attr_int(m: &Module, a: AttrId) -> Option<BigInt> {
    match m.ctx.attr(a) {
        AttrData::Integer { ty, value } => match m.ctx.ty(*ty) {
            TypeData::Integer { width, .. } => Some(signed(value, *width)),
            TypeData::Index => Some(signed(value, 64)),
            _ => None,
        },
        _ => None,
    }
}

/// A flat symbol reference's name.
fn flat_symbol(m: &Module, a: AttrId) -> Option<&[u8]> {
    match m.ctx.attr(a) {
        AttrData::SymbolRef { root, nested } if nested.is_empty() => Some(root),
        _ => None,
    }
}

/// Whether the ported printer of `op` shows all of it, so that its text
/// reads back as the same op; otherwise it prints in the generic form.
pub(super) fn printable(m: &Module, op: OpId) -> bool {
    let name = m.op_name(op);
    let entries = op_attrs(m, op);
    if let Some(shown) = shown_attrs(name) {
        if !entries
            .iter()
            .all(|(k, _)| shown.iter().any(|s| s.as_bytes() == &k[..]))
        {
            return false;
        }
    }
    let o = m.op(op);
    let has = |n: &str| inherent(m, op, n.as_bytes()).is_some();
    let result_ty = o.results().next().map(|v| m.value(v).ty);
    match name {
        b"spirv.module" => {
            inherent_case(m, op, "addressing_model", "addressing_model").is_some()
                && inherent_case(m, op, "memory_model", "memory_model").is_some()
                && inherent(m, op, b"sym_name")
                    .is_none_or(|a| matches!(m.ctx.attr(a), AttrData::String { .. }))
                && o.regions().len() == 1
        }
        b"spirv.func" => {
            inherent_case(m, op, "function_control", "function_control").is_some()
                && matches!(
                    inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                    Some(AttrData::String { .. })
                )
                && matches!(
                    inherent(m, op, b"function_type").map(|a| m.ctx.attr(a)),
                    Some(AttrData::Type(t)) if matches!(m.ctx.ty(*t), TypeData::Function { .. })
                )
                && o.regions().len() == 1
        }
        b"spirv.Constant" => {
            let (Some(value), Some(ty), 1) = (inherent(m, op, b"value"), result_ty, o.num_results)
            else {
                return false;
            };
            match m.ctx.attr(value).value_type() {
                Some(t) if t == ty => !matches!(
                    m.ctx.ty(t),
                    TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. }
                ),
                Some(t) => {
                    is_array(m, ty)
                        && matches!(
                            m.ctx.ty(t),
                            TypeData::RankedTensor { .. } | TypeData::UnrankedTensor { .. }
                        )
                }
                None => is_array(m, ty) && matches!(m.ctx.attr(value), AttrData::Array(_)),
            }
        }
        b"spirv.EntryPoint" => {
            inherent_case(m, op, "execution_model", "execution_model").is_some()
                && inherent(m, op, b"fn").is_some_and(|a| flat_symbol(m, a).is_some())
                && matches!(
                    inherent(m, op, b"interface").map(|a| m.ctx.attr(a)),
                    Some(AttrData::Array(v)) if v.iter().all(|&a| flat_symbol(m, a).is_some())
                )
        }
        b"spirv.ExecutionMode" => {
            inherent_case(m, op, "execution_mode", "execution_mode").is_some()
                && inherent(m, op, b"fn").is_some_and(|a| flat_symbol(m, a).is_some())
                && matches!(
                    inherent(m, op, b"values").map(|a| m.ctx.attr(a)),
                    Some(AttrData::Array(v)) if v.iter().all(|&a| is_i32(m, a))
                )
        }
        b"spirv.GlobalVariable" => {
            !has("storage_class")
                && matches!(
                    inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                    Some(AttrData::String { .. })
                )
                && matches!(
                    inherent(m, op, b"type").map(|a| m.ctx.attr(a)),
                    Some(AttrData::Type(t)) if pointer_parts(m, *t).is_some()
                )
                && inherent(m, op, b"initializer").is_none_or(|a| flat_symbol(m, a).is_some())
        }
        b"spirv.Variable" => {
            let Some((pointee, class)) = result_ty.and_then(|t| pointer_parts(m, t)) else {
                return false;
            };
            o.num_results == 1
                && m.operands(op).len() <= 1
                && m.operands(op)
                    .iter()
                    .all(|&v| is_pointee(m, m.value(v).ty, &pointee))
                && inherent_case(m, op, "storage_class", "storage_class") == Some(class.as_str())
        }
        b"spirv.Load" | b"spirv.Store" => {
            let load = name == b"spirv.Load";
            let ops = m.operands(op);
            let Some((pointee, _)) = ops.first().and_then(|&p| pointer_parts(m, m.value(p).ty))
            else {
                return false;
            };
            let value_ty = if load {
                result_ty
            } else {
                ops.get(1).map(|&v| m.value(v).ty)
            };
            ops.len() == if load { 1 } else { 2 }
                && o.num_results as usize == usize::from(load)
                && value_ty.is_some_and(|t| is_pointee(m, t, &pointee))
                && !has("storage_class")
                && (!has("memory_access")
                    || inherent_case(m, op, "memory_access", "memory_access").is_some())
                // A load reads an alignment not shown back from its
                // dictionary; a store reads no dictionary back.
                && (access_consumed(m, op, "memory_access", "alignment")
                    || (load
                        && !inherent_case(m, op, "memory_access", "memory_access")
                            .is_some_and(|c| c.split('|').any(|w| w == "Aligned"))))
                && (load || {
                    entries.iter().all(|(k, _)| {
                        &k[..] == b"memory_access" || &k[..] == b"alignment"
                    }) && access_consumed(m, op, "memory_access", "alignment")
                })
        }
        b"spirv.CopyMemory" => {
            let ops = m.operands(op);
            let (&[target, source], 0) = (ops, o.num_results) else {
                return false;
            };
            let (Some((t, _)), Some((s, _))) = (
                pointer_parts(m, m.value(target).ty),
                pointer_parts(m, m.value(source).ty),
            ) else {
                return false;
            };
            // Without its own, the source shows the target's access
            // (`printSourceMemoryAccessAttribute`), read back as its own.
            t == s
                && (!has("memory_access") || has("source_memory_access"))
                && access_consumed(m, op, "memory_access", "alignment")
                && access_consumed(m, op, "source_memory_access", "source_alignment")
        }
        b"spirv.CompositeExtract" => {
            let (&[composite], Some(ty)) = (m.operands(op), result_ty) else {
                return false;
            };
            let Some(AttrData::Array(indices)) = inherent(m, op, b"indices").map(|a| m.ctx.attr(a))
            else {
                return false;
            };
            let mut text = crate::bytecode::text_entry::type_text(&m.ctx, m.value(composite).ty);
            for &i in indices {
                let Some(i) = attr_int(m, i).and_then(|i| usize::try_from(i).ok()) else {
                    return false;
                };
                let Some(elem) = element_text(&text, i) else {
                    return false;
                };
                text = elem;
            }
            !indices.is_empty()
                && o.num_results == 1
                && text == crate::bytecode::text_entry::type_text(&m.ctx, ty)
        }
        b"spirv.BranchConditional" => {
            let sizes = operand_segments(m, op).unwrap_or_default();
            sizes.len() == 3
                && sizes.first() == Some(&1)
                && sizes.iter().sum::<usize>() == m.operands(op).len()
                && o.successors().len() == 2
                // Read back as two `i32`s.
                && inherent(m, op, b"branch_weights").is_none_or(|a| {
                    matches!(m.ctx.attr(a), AttrData::Array(v)
                        if v.len() == 2 && v.iter().all(|&w| is_i32(m, w)))
                })
        }
        b"spirv.mlir.loop" | b"spirv.mlir.selection" => {
            let (attr, mnemonic) = if name == b"spirv.mlir.loop" {
                ("loop_control", "loop_control")
            } else {
                ("selection_control", "selection_control")
            };
            inherent_case(m, op, attr, mnemonic).is_some()
                && o.regions().len() == 1
                && o.regions()
                    .first()
                    .is_some_and(|&r| entry_args(m, r).is_empty())
        }
        b"spirv.SpecConstant" => {
            matches!(
                inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a)),
                Some(AttrData::String { .. })
            ) && inherent(m, op, b"default_value").is_some()
                // Read back as an `i64`, the type an untyped integer takes.
                && inherent(m, op, b"spec_id").is_none_or(|a| {
                    matches!(m.ctx.attr(a), AttrData::Integer { ty, .. }
                        if matches!(m.ctx.ty(*ty), TypeData::Integer { width: 64, signedness: Signedness::Signless }))
                })
        }
        b"spirv.CompositeInsert" => {
            let ops = m.operands(op);
            ops.len() == 2
                && o.num_results == 1
                && inherent(m, op, b"indices").is_some()
                && ops.get(1).map(|&v| m.value(v).ty) == result_ty
        }
        // `printOneResultOp` itself prints the generic form otherwise.
        b"spirv.GL.FClamp" | b"spirv.GL.SClamp" | b"spirv.GL.UClamp" | b"spirv.GL.Fma" => {
            o.num_results == 1
                && m.operands(op)
                    .iter()
                    .all(|&v| Some(m.value(v).ty) == result_ty)
        }
        b"spirv.IAddCarry"
        | b"spirv.ISubBorrow"
        | b"spirv.SMulExtended"
        | b"spirv.UMulExtended" => {
            // Read back with both operands of the struct's first member's
            // type.
            let ops = m.operands(op);
            let (&[a, b], Some(ty)) = (ops, result_ty) else {
                return false;
            };
            let t = m.value(a).ty;
            let text = crate::bytecode::text_entry::type_text(&m.ctx, t);
            t == m.value(b).ty
                && o.num_results == 1
                && crate::bytecode::text_entry::type_text(&m.ctx, ty)
                    == format!("!spirv.struct<({text}, {text})>")
        }
        _ => true,
    }
}

/// `spirv.Constant`'s name (`ConstantOp::getAsmResultNames`): `%true` or
/// `%false` for `i1`, `%cst<value>_<type>` for other integers,
/// `%cst_<type>` for floats, `%cst_vec_<n>x<elem>` for vectors, `%cst`
/// for anything else.
pub(super) fn constant_name(m: &Module, op: OpId) -> Option<String> {
    let ty = m.value(m.op(op).results().next()?).ty;
    let value = inherent(m, op, b"value")?;
    let mut name = String::from("cst");
    let int = match m.ctx.ty(ty) {
        TypeData::Integer { width, signedness } => Some((*width, *signedness)),
        _ => None,
    };
    if let AttrData::Integer { value, .. } = m.ctx.attr(value) {
        if let Some((width, signedness)) = int {
            if width == 1 {
                return Some(
                    if value.sign() == Sign::NoSign {
                        "false"
                    } else {
                        "true"
                    }
                    .into(),
                );
            }
            let shown = if signedness == Signedness::Unsigned {
                let modulus = BigInt::from(1) << width;
                ((value % &modulus) + &modulus) % &modulus
            } else {
                signed(value, width)
            };
            name.push_str(&shown.to_string());
        }
    }
    let scalar = |t: TypeId| match m.ctx.ty(t) {
        TypeData::Integer { width, signedness } => Some(format!(
            "{}{width}",
            match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            }
        )),
        TypeData::Float(kind) => Some(kind.keyword().to_string()),
        _ => None,
    };
    if let Some(s) = scalar(ty) {
        name.push('_');
        name.push_str(&s);
    }
    if let TypeData::Vector { shape, elem, .. } = m.ctx.ty(ty) {
        name.push_str("_vec_");
        name.push_str(&shape.first().copied().unwrap_or(0).to_string());
        if let Some(s) = scalar(*elem) {
            name.push('x');
            name.push_str(&s);
        }
    }
    Some(name)
}

/// `spirv.mlir.addressof`'s name: the variable's, then `_addr`
/// (`AddressOfOp::getAsmResultNames`).
pub(super) fn address_of_name(m: &Module, op: OpId) -> Option<String> {
    let var = flat_symbol(m, inherent(m, op, b"variable")?)?;
    let mut name: String = String::from_utf8_lossy(var)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "$._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if name.starts_with(|c: char| c.is_ascii_digit()) {
        name.insert(0, '_');
    }
    name.push_str("_addr");
    Some(name)
}

impl Printer<'_, '_> {
    /// `spirv.module @name Logical GLSL450 requires #spirv.vce<…>
    /// attributes {…} { … }` (`spirv::ModuleOp::print`).
    pub(super) fn spirv_module(&mut self, op: OpId) {
        let m = self.shared.m;
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            self.out.push(' ');
            symbol_ref(value, &mut self.out);
        }
        for (attr, mnemonic) in [
            ("addressing_model", "addressing_model"),
            ("memory_model", "memory_model"),
        ] {
            self.out.push(' ');
            self.out
                .push_str(inherent_case(m, op, attr, mnemonic).unwrap_or_default());
        }
        if let Some(triple) = inherent(m, op, b"vce_triple") {
            self.out.push_str(" requires ");
            self.attr(triple, Elide::Never);
        }
        self.all_attrs_with(
            op,
            &["addressing_model", "memory_model", "sym_name", "vce_triple"],
            true,
        );
        self.out.push(' ');
        if let Some(&r) = m.op(op).regions().first() {
            self.custom_region(op, r, true, true);
        }
    }

    /// `spirv.func @f(%a: t) -> u "None" attributes {…} { … }`
    /// (`spirv::FuncOp::print`): the function control quoted after the
    /// signature.
    pub(super) fn spirv_func(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        self.name_and_signature(op);
        self.out.push_str(" \"");
        self.out.push_str(
            inherent_case(m, op, "function_control", "function_control").unwrap_or_default(),
        );
        self.out.push('"');
        self.all_attrs_with(
            op,
            &[
                "sym_name",
                "function_control",
                "function_type",
                "arg_attrs",
                "res_attrs",
            ],
            true,
        );
        if let Some(r) = m
            .op(op)
            .regions()
            .first()
            .copied()
            .filter(|&r| !m.region(r).blocks.is_empty())
        {
            self.out.push(' ');
            self.custom_region(op, r, false, true);
        }
    }

    /// `spirv.Constant 1 : i32`, with ` : !spirv.array<…>` after the value
    /// for an array (`spirv::ConstantOp::print`).
    pub(super) fn spirv_constant(&mut self, op: OpId) {
        let m = self.shared.m;
        if let Some(v) = inherent(m, op, b"value") {
            self.out.push(' ');
            self.attr(v, Elide::Never);
        }
        if let Some(r) = m.op(op).results().next() {
            let ty = m.value(r).ty;
            if is_array(m, ty) {
                self.out.push_str(" : ");
                self.ty(ty);
            }
        }
    }

    /// `spirv.EntryPoint "GLCompute" @f, @v, …`
    /// (`spirv::EntryPointOp::print`).
    pub(super) fn spirv_entry_point(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push_str(" \"");
        self.out.push_str(
            inherent_case(m, op, "execution_model", "execution_model").unwrap_or_default(),
        );
        self.out.push_str("\" ");
        if let Some(f) = inherent(m, op, b"fn").and_then(|a| flat_symbol(m, a)) {
            symbol_ref(f, &mut self.out);
        }
        if let Some(AttrData::Array(vars)) = inherent(m, op, b"interface").map(|a| m.ctx.attr(a)) {
            for &v in vars {
                self.out.push_str(", ");
                self.attr(v, Elide::Never);
            }
        }
    }

    /// `spirv.ExecutionMode @f "LocalSize", 1, 1, 1`
    /// (`spirv::ExecutionModeOp::print`).
    pub(super) fn spirv_execution_mode(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        if let Some(f) = inherent(m, op, b"fn").and_then(|a| flat_symbol(m, a)) {
            symbol_ref(f, &mut self.out);
        }
        self.out.push_str(" \"");
        self.out
            .push_str(inherent_case(m, op, "execution_mode", "execution_mode").unwrap_or_default());
        self.out.push('"');
        if let Some(AttrData::Array(values)) = inherent(m, op, b"values").map(|a| m.ctx.attr(a)) {
            for &v in values {
                self.out.push_str(", ");
                if let Some(n) = attr_int(m, v) {
                    self.out.push_str(&n.to_string());
                }
            }
        }
    }

    /// ` bind(set, binding)` and ` built_in("Name")`, then the other
    /// attributes in a dictionary (`spirv::printVariableDecorations`).
    fn variable_decorations(&mut self, op: OpId, elided: &mut Vec<&'static str>) {
        let m = self.shared.m;
        // Read back as `i32`s: others stay in the dictionary.
        let int = |n: &str| {
            inherent(m, op, n.as_bytes())
                .filter(|&a| is_i32(m, a))
                .and_then(|a| attr_int(m, a))
        };
        let mut bind = false;
        if let (Some(set), Some(binding)) = (int("descriptor_set"), int("binding")) {
            elided.extend(["descriptor_set", "binding"]);
            self.out.push_str(&format!(" bind({set}, {binding})"));
            bind = true;
        }
        if let Some(AttrData::String { value, ty: None }) =
            inherent(m, op, b"built_in").map(|a| m.ctx.attr(a))
        {
            // Printed unescaped: only a plain name reads back as itself,
            // and only without `bind(…)` (`parseVariableDecorations` reads
            // one or the other).
            if !bind
                && value
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || *c == b'_')
            {
                elided.push("built_in");
                self.out.push_str(" built_in(\"");
                self.out.push_str(&String::from_utf8_lossy(value));
                self.out.push_str("\")");
            }
        }
        self.all_attrs_less(op, elided);
    }

    /// `spirv.GlobalVariable @v initializer(@i) bind(0, 1) {…} :
    /// !spirv.ptr<…>` (`spirv::GlobalVariableOp::print`).
    pub(super) fn spirv_global_variable(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        let mut elided = vec!["storage_class", "sym_name", "type"];
        if let Some(init) = inherent(m, op, b"initializer").and_then(|a| flat_symbol(m, a)) {
            self.out.push_str(" initializer(");
            symbol_ref(init, &mut self.out);
            self.out.push(')');
            elided.push("initializer");
        }
        self.variable_decorations(op, &mut elided);
        if let Some(AttrData::Type(t)) = inherent(m, op, b"type").map(|a| m.ctx.attr(a)) {
            self.out.push_str(" : ");
            self.ty(*t);
        }
    }

    /// `spirv.Variable init(%v) {…} : !spirv.ptr<…>`
    /// (`spirv::VariableOp::print`).
    pub(super) fn spirv_variable(&mut self, op: OpId) {
        let m = self.shared.m;
        if let Some(&init) = m.operands(op).first() {
            self.out.push_str(" init(");
            self.value(init);
            self.out.push(')');
        }
        let mut elided = vec!["storage_class"];
        self.variable_decorations(op, &mut elided);
        if let Some(r) = m.op(op).results().next() {
            self.out.push_str(" : ");
            self.ty(m.value(r).ty);
        }
    }

    /// ` ["Aligned", 4]` where the op has a memory access
    /// (`printMemoryAccessAttribute`); the attributes printed join
    /// `elided`.
    fn memory_access(&mut self, op: OpId, elided: &mut Vec<&'static str>) {
        self.memory_access_of(op, "memory_access", "alignment", elided);
    }

    /// ` ["Aligned", 4]` from the memory access attribute `access` and the
    /// alignment `align` (`printMemoryAccessAttribute`,
    /// `printSourceMemoryAccessAttribute`).
    fn memory_access_of(
        &mut self,
        op: OpId,
        access_name: &'static str,
        align: &'static str,
        elided: &mut Vec<&'static str>,
    ) {
        let m = self.shared.m;
        let Some(access) = inherent_case(m, op, access_name, "memory_access") else {
            return;
        };
        elided.push(access_name);
        self.out.push_str(" [\"");
        self.out.push_str(access);
        self.out.push('"');
        if access.split('|').any(|c| c == "Aligned") {
            if let Some(n) = inherent(m, op, align.as_bytes()).and_then(|a| attr_int(m, a)) {
                elided.push(align);
                // An unsigned 32-bit value (`getAlignment`).
                let n = ((n % (1u64 << 32)) + (1u64 << 32)) % (1u64 << 32);
                self.out.push_str(", ");
                self.out.push_str(&n.to_string());
            }
        }
        self.out.push(']');
    }

    /// `spirv.Load "StorageBuffer" %p ["Aligned", 4] {…} : f32`
    /// (`spirv::LoadOp::print`).
    pub(super) fn spirv_load(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(&ptr) = m.operands(op).first() else {
            return;
        };
        let class = pointer_parts(m, m.value(ptr).ty).map(|(_, c)| c);
        self.out.push_str(" \"");
        self.out.push_str(class.as_deref().unwrap_or_default());
        self.out.push_str("\" ");
        self.value(ptr);
        let mut elided = vec!["storage_class"];
        self.memory_access(op, &mut elided);
        self.all_attrs_less(op, &elided);
        if let Some(r) = m.op(op).results().next() {
            self.out.push_str(" : ");
            self.ty(m.value(r).ty);
        }
    }

    /// `spirv.Store "StorageBuffer" %p, %v ["Volatile"] : f32 {…}`
    /// (`spirv::StoreOp::print`).
    pub(super) fn spirv_store(&mut self, op: OpId) {
        let m = self.shared.m;
        let (Some(&ptr), Some(&val)) = (m.operands(op).first(), m.operands(op).get(1)) else {
            return;
        };
        let class = pointer_parts(m, m.value(ptr).ty).map(|(_, c)| c);
        self.out.push_str(" \"");
        self.out.push_str(class.as_deref().unwrap_or_default());
        self.out.push_str("\" ");
        self.value(ptr);
        self.out.push_str(", ");
        self.value(val);
        let mut elided = vec!["storage_class"];
        self.memory_access(op, &mut elided);
        self.out.push_str(" : ");
        self.ty(m.value(val).ty);
        self.all_attrs_less(op, &elided);
    }

    /// `^bb1` or `^bb1(%a, %b : t, u)` (`printSuccessorAndUseList`).
    fn successor_and_operands(&mut self, b: BlockId, args: &[ValueId]) {
        self.block_name(b);
        if !args.is_empty() {
            self.out.push('(');
            self.value_list(args);
            self.out.push_str(" : ");
            self.type_list(args);
            self.out.push(')');
        }
    }

    /// `spirv.BranchConditional %c [1, 2], ^bb1(%a : t), ^bb2`
    /// (`spirv::BranchConditionalOp::print`).
    pub(super) fn spirv_branch_conditional(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        let sizes = operand_segments(m, op).unwrap_or_default();
        let group = |k: usize| segment(&ops, &sizes, k);
        self.out.push(' ');
        if let Some(&c) = group(0).first() {
            self.value(c);
        }
        if let Some(AttrData::Array(weights)) =
            inherent(m, op, b"branch_weights").map(|a| m.ctx.attr(a))
        {
            self.out.push_str(" [");
            for (k, &w) in weights.iter().enumerate() {
                if k > 0 {
                    self.out.push_str(", ");
                }
                if let Some(n) = attr_int(m, w) {
                    self.out.push_str(&n.to_string());
                }
            }
            self.out.push(']');
        }
        let succ = m.op(op).successors().to_vec();
        for (k, &b) in succ.iter().enumerate().take(2) {
            self.out.push_str(", ");
            self.successor_and_operands(b, &group(k + 1));
        }
    }

    /// `spirv.mlir.loop control(Unroll) -> t { … }`, and
    /// `spirv.mlir.selection` alike (`LoopOp::print`,
    /// `SelectionOp::print`): the control shown unless `None`.
    pub(super) fn spirv_structured(&mut self, op: OpId, control: &str) {
        let m = self.shared.m;
        let o = m.op(op);
        if let Some(c) = inherent_case(m, op, control, control).filter(|&c| c != "None") {
            self.out.push_str(" control(");
            self.out.push_str(c);
            self.out.push(')');
        }
        let results: Vec<ValueId> = o.results().collect();
        if !results.is_empty() {
            self.out.push_str(" -> ");
            self.type_list(&results);
        }
        self.out.push(' ');
        if let Some(&r) = o.regions().first() {
            self.custom_region(op, r, false, true);
        }
    }

    /// `spirv.SpecConstant @c spec_id(5) = 1 : i32`
    /// (`spirv::SpecConstantOp::print`).
    pub(super) fn spirv_spec_constant(&mut self, op: OpId) {
        let m = self.shared.m;
        self.out.push(' ');
        if let Some(AttrData::String { value, .. }) =
            inherent(m, op, b"sym_name").map(|a| m.ctx.attr(a))
        {
            symbol_ref(value, &mut self.out);
        }
        if let Some(id) = inherent(m, op, b"spec_id").and_then(|a| attr_int(m, a)) {
            self.out.push_str(&format!(" spec_id({id})"));
        }
        self.out.push_str(" = ");
        if let Some(v) = inherent(m, op, b"default_value") {
            self.attr(v, Elide::Never);
        }
    }

    /// `spirv.CompositeInsert %o, %c[0 : i32] : f32 into vector<4xf32>`
    /// (`spirv::CompositeInsertOp::print`).
    pub(super) fn spirv_composite_insert(&mut self, op: OpId) {
        let m = self.shared.m;
        let (Some(&object), Some(&composite)) = (m.operands(op).first(), m.operands(op).get(1))
        else {
            return;
        };
        self.out.push(' ');
        self.value(object);
        self.out.push_str(", ");
        self.value(composite);
        if let Some(i) = inherent(m, op, b"indices") {
            self.attr(i, Elide::Never);
        }
        self.out.push_str(" : ");
        self.ty(m.value(object).ty);
        self.out.push_str(" into ");
        self.ty(m.value(composite).ty);
    }

    /// `spirv.GL.FClamp %x, %lo, %hi : f32`, or the generic form where the
    /// operands' types are not all the result's (`printOneResultOp`).
    pub(super) fn spirv_one_result(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        self.value_list(&ops);
        self.all_attrs_less(op, &[]);
        if let Some(r) = m.op(op).results().next() {
            self.out.push_str(" : ");
            self.ty(m.value(r).ty);
        }
    }

    /// `spirv.IAddCarry %a, %b : !spirv.struct<(i32, i32)>`, its attributes
    /// between the name and the operands (`printArithmeticExtendedBinaryOp`).
    pub(super) fn spirv_extended_binary(&mut self, op: OpId) {
        let m = self.shared.m;
        let ops = m.operands(op).to_vec();
        self.out.push(' ');
        self.all_attrs_less(op, &[]);
        self.value_list(&ops);
        if let Some(r) = m.op(op).results().next() {
            self.out.push_str(" : ");
            self.ty(m.value(r).ty);
        }
    }

    /// `spirv.CompositeExtract %c[1 : i32] : vector<4xf32>`
    /// (`spirv::CompositeExtractOp::print`): the indices right after the
    /// operand.
    pub(super) fn spirv_composite_extract(&mut self, op: OpId) {
        let m = self.shared.m;
        let Some(&composite) = m.operands(op).first() else {
            return;
        };
        self.out.push(' ');
        self.value(composite);
        if let Some(i) = inherent(m, op, b"indices") {
            self.attr(i, Elide::Never);
        }
        self.out.push_str(" : ");
        self.ty(m.value(composite).ty);
    }

    /// `spirv.CopyMemory  "Function" %t,  "Function" %s ["Volatile"],
    /// ["Aligned", 4] : f32` (`spirv::CopyMemoryOp::print`): the target's
    /// memory access, then after a comma always the source's.
    pub(super) fn spirv_copy_memory(&mut self, op: OpId) {
        let m = self.shared.m;
        let (Some(&target), Some(&source)) = (m.operands(op).first(), m.operands(op).get(1)) else {
            return;
        };
        let target_parts = pointer_parts(m, m.value(target).ty);
        let source_class = pointer_parts(m, m.value(source).ty).map(|(_, c)| c);
        self.out.push_str("  \"");
        self.out
            .push_str(target_parts.as_ref().map_or("", |(_, c)| c.as_str()));
        self.out.push_str("\" ");
        self.value(target);
        self.out.push_str(",  \"");
        self.out
            .push_str(source_class.as_deref().unwrap_or_default());
        self.out.push_str("\" ");
        self.value(source);
        let mut elided = Vec::new();
        self.memory_access_of(op, "memory_access", "alignment", &mut elided);
        self.out.push_str(", ");
        self.memory_access_of(op, "source_memory_access", "source_alignment", &mut elided);
        self.all_attrs_less(op, &elided);
        if let Some((pointee, _)) = target_parts {
            self.out.push_str(" : ");
            // A nested type of the pointer prints as a type (its alias
            // where it has one); a builtin one is in the pointer's text.
            let nested = match m.ctx.ty(m.value(target).ty) {
                TypeData::Dialect(body) => body.pieces.iter().find_map(|p| match p {
                    BodyPiece::Type(t)
                        if crate::bytecode::text_entry::type_text(&m.ctx, *t) == pointee =>
                    {
                        Some(*t)
                    }
                    _ => None,
                }),
                _ => None,
            };
            match nested {
                Some(t) => self.ty(t),
                None => self.out.push_str(&pointee),
            }
        }
    }
}
