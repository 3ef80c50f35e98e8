//! The spirv dialect's hand-written parsers (MLIR's `SPIRVOps.cpp`,
//! `MemoryOps.cpp`, `ControlFlowOps.cpp` and `ArithmeticOps.cpp`),
//! SPEC.md §11.2.
//!
//! spirv writes its enums as strings (`"Function"`, `"Volatile|Aligned"`)
//! or bare keywords (`Logical GLSL450`); their cases come from the data.
//! Types the syntax leaves out are built the way the C++ builds them:
//! `spirv.Load "Input" %p : f32` reads `%p` as `!spirv.ptr<f32, Input>`,
//! `spirv.CompositeExtract` walks the composite's element types.

use super::hand_written::Properties;
use super::*;

/// What [`Parser::spirv_memory_access`] reads into: the names of the
/// access attribute and of its alignment.
struct AccessNames {
    access: &'static str,
    alignment: &'static str,
}

const TARGET_ACCESS: AccessNames = AccessNames {
    access: "memory_access",
    alignment: "alignment",
};

const SOURCE_ACCESS: AccessNames = AccessNames {
    access: "source_memory_access",
    alignment: "source_alignment",
};

/// A spirv type's body as one string, each nested type piece replaced by
/// a marker naming its index in the list beside it.
struct SpirvBody {
    text: String,
    nested: Vec<TypeId>,
}

const MARK_OPEN: char = '\u{1}';
const MARK_CLOSE: char = '\u{2}';

impl SpirvBody {
    /// The nested type `segment` is, if it is only a marker.
    fn marker(&self, segment: &str) -> Option<TypeId> {
        let inner = segment
            .trim()
            .strip_prefix(MARK_OPEN)?
            .strip_suffix(MARK_CLOSE)?;
        self.nested.get(inner.parse::<usize>().ok()?).copied()
    }

    /// The parameters between `mnemonic<` and the last `>`.
    fn params(&self, mnemonic: &str) -> Option<&str> {
        self.text
            .trim()
            .strip_prefix(mnemonic)?
            .trim_start()
            .strip_prefix('<')?
            .strip_suffix('>')
    }
}

impl<'a> Parser<'a> {
    /// The attribute of a spirv enum case written `text` (`Function`,
    /// `Volatile | Aligned` for a bit enum), as `#spirv.mnemonic<Case>` in
    /// the spelling MLIR's `stringify` gives; an error at `at` naming the
    /// attribute for a case the enum does not have (MLIR's
    /// `parseEnumStrAttr`/`parseEnumKeywordAttr`).
    fn spirv_enum_attr(&mut self, spec: &AttrSpec, text: &str, at: usize) -> Result<AttrId> {
        let bad = |p: &Self| {
            p.sem_err_at(
                at,
                format!("invalid {} attribute specification: \"{text}\"", spec.name),
            )
        };
        let case = |name: &str| spec.cases.iter().find(|(c, _)| c == name.trim());
        let keyword = if spec.bit {
            let mut bits = 0i64;
            for part in text.split('|') {
                match case(part) {
                    Some((_, v)) => bits |= v,
                    None => return bad(self),
                }
            }
            match bit_enum_text(&spec.cases, bits) {
                Some(t) => t,
                None => return bad(self),
            }
        } else {
            match case(text) {
                Some((c, _)) if c == text => c.clone(),
                _ => return bad(self),
            }
        };
        let Some(def) = spec.def.as_deref() else {
            return bad(self);
        };
        self.parse_attr_text(&format!("#{def}<{keyword}>"), at)
    }

    /// The data of attribute `name` of op `op`.
    fn spirv_attr_spec(&self, op: &str, name: &str) -> Option<&'static AttrSpec> {
        self.op_syntax(op.as_bytes())?
            .attrs
            .iter()
            .find(|a| a.name == name)
    }

    /// A string naming a case of `op`'s enum attribute `name` (MLIR's
    /// `parseEnumStrAttr`): its attribute and the case's text.
    fn spirv_enum_string(&mut self, op: &str, name: &str) -> Result<(AttrId, String)> {
        let at = self.tok.start;
        let text = lossy(&self.parse_string(&format!("{name} attribute specified as string"))?);
        let Some(spec) = self.spirv_attr_spec(op, name) else {
            return self.sem_err_at(at, format!("no data for the spirv enum '{name}'"));
        };
        let a = self.spirv_enum_attr(spec, &text, at)?;
        Ok((a, text))
    }

    /// A bare keyword naming a case of `op`'s enum attribute `name`
    /// (MLIR's `parseEnumKeywordAttr`).
    fn spirv_enum_keyword(&mut self, op: &str, name: &str) -> Result<AttrId> {
        let at = self.tok.start;
        if !self.is(Tok::BareIdent) {
            return self.err(format!("expected {name} keyword"));
        }
        let text = lossy(self.spelling());
        self.bump();
        let Some(spec) = self.spirv_attr_spec(op, name) else {
            return self.sem_err_at(at, format!("no data for the spirv enum '{name}'"));
        };
        self.spirv_enum_attr(spec, &text, at)
    }

    /// A storage class string (`"Function"`): its keyword, checked against
    /// the enum's cases.
    fn spirv_storage_class(&mut self) -> Result<String> {
        let at = self.tok.start;
        let (_, text) = self.spirv_enum_string("spirv.Variable", "storage_class")?;
        if text.contains('|') || text.trim() != text {
            return self.sem_err_at(
                at,
                format!("invalid storage_class attribute specification: \"{text}\""),
            );
        }
        Ok(text)
    }

    /// `!spirv.ptr<elem, class>`.
    fn spirv_pointer(
        &mut self,
        syn: &OpSyntax,
        elem: TypeId,
        class: &str,
        at: usize,
    ) -> Result<TypeId> {
        let Some(elem) = self.nested_type_text(elem) else {
            return self.unsupported(
                syn,
                at,
                "a pointee type other than a builtin scalar or vector or a dialect type",
            );
        };
        self.parse_type_text(&format!("!spirv.ptr<{elem}, {class}>"), at)
    }

    /// The text of `t` as it is written nested in a dialect body: builtin
    /// scalars and vectors, and dialect types whose bodies hold only text
    /// and such types; `None` for anything else.
    pub(super) fn nested_type_text(&self, t: TypeId) -> Option<String> {
        match self.m.ctx.ty(t) {
            TypeData::Dialect(body) => {
                let mut s = format!("!{}.", body.dialect);
                for p in &body.pieces {
                    match p {
                        BodyPiece::Text(t) => s += t,
                        BodyPiece::Type(t) => s += &self.nested_type_text(*t)?,
                        _ => return None,
                    }
                }
                Some(s)
            }
            _ => self.builtin_scalar_or_vector_text(t),
        }
    }

    /// The body of `t` if it is a spirv type.
    fn spirv_body(&self, t: TypeId) -> Option<SpirvBody> {
        let TypeData::Dialect(body) = self.m.ctx.ty(t) else {
            return None;
        };
        if &*body.dialect != "spirv" {
            return None;
        }
        let mut out = SpirvBody {
            text: String::new(),
            nested: Vec::new(),
        };
        for p in &body.pieces {
            match p {
                BodyPiece::Text(t) => out.text += t,
                BodyPiece::Type(t) => {
                    out.text.push(MARK_OPEN);
                    out.text += &out.nested.len().to_string();
                    out.text.push(MARK_CLOSE);
                    out.nested.push(*t);
                }
                _ => return None,
            }
        }
        Some(out)
    }

    /// The type `segment` of a spirv body names: a nested piece, or
    /// builtin text.
    fn spirv_segment_type(
        &mut self,
        body: &SpirvBody,
        segment: &str,
        at: usize,
    ) -> Result<Option<TypeId>> {
        if let Some(t) = body.marker(segment) {
            return Ok(Some(t));
        }
        let segment = segment.trim();
        if segment.is_empty() || segment.contains(MARK_OPEN) {
            return Ok(None);
        }
        self.parse_type_text(segment, at).map(Some)
    }

    /// The pointee of a `!spirv.ptr`.
    pub(super) fn spirv_pointee(&mut self, ptr: TypeId, at: usize) -> Result<Option<TypeId>> {
        let Some(body) = self.spirv_body(ptr) else {
            return Ok(None);
        };
        let Some(params) = body.params("ptr") else {
            return Ok(None);
        };
        let parts = split_top(params);
        if parts.len() != 2 {
            return Ok(None);
        }
        self.spirv_segment_type(&body, parts[0], at)
    }

    /// The image type of a `!spirv.sampled_image`.
    pub(super) fn spirv_sampled_image_image(
        &mut self,
        t: TypeId,
        at: usize,
    ) -> Result<Option<TypeId>> {
        let Some(body) = self.spirv_body(t) else {
            return Ok(None);
        };
        let Some(params) = body.params("sampled_image") else {
            return Ok(None);
        };
        self.spirv_segment_type(&body, params, at)
    }

    /// The members of a `!spirv.struct`.
    fn spirv_struct_members(&mut self, t: TypeId, at: usize) -> Result<Option<Vec<TypeId>>> {
        let Some(body) = self.spirv_body(t) else {
            return Ok(None);
        };
        let Some(params) = body.params("struct") else {
            return Ok(None);
        };
        let Some(list) = split_top(params)
            .into_iter()
            .map(str::trim)
            .find(|p| p.starts_with('('))
        else {
            return Ok(None);
        };
        let Some(list) = list.strip_prefix('(').and_then(|l| l.strip_suffix(')')) else {
            return Ok(None);
        };
        let mut members = Vec::new();
        if list.trim().is_empty() {
            return Ok(Some(members));
        }
        for m in split_top(list) {
            // A member's offset and decorations follow it in `[…]`.
            let mut depth = 0i32;
            let mut end = m.len();
            for (i, c) in m.char_indices() {
                match c {
                    '<' | '(' => depth += 1,
                    '>' | ')' => depth -= 1,
                    '[' if depth == 0 => {
                        end = i;
                        break;
                    }
                    _ => {}
                }
            }
            match self.spirv_segment_type(&body, &m[..end], at)? {
                Some(t) => members.push(t),
                None => return Ok(None),
            }
        }
        Ok(Some(members))
    }

    /// Element `index` of a composite type (spirv's
    /// `CompositeType::getElementType`), with the number of elements
    /// where it is known; `None` for a type this does not know.
    fn spirv_composite_element(
        &mut self,
        t: TypeId,
        index: i64,
        at: usize,
    ) -> Result<Option<(TypeId, Option<u64>)>> {
        if let TypeData::Vector { shape, elem, .. } = self.m.ctx.ty(t) {
            let n = shape.iter().product::<i64>().max(0) as u64;
            return Ok(Some((*elem, Some(n))));
        }
        let Some(body) = self.spirv_body(t) else {
            return Ok(None);
        };
        let mnemonic: String = body
            .text
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '.')
            .collect();
        let Some(params) = body.params(&mnemonic) else {
            return Ok(None);
        };
        let first = split_top(params)[0];
        let found = match mnemonic.as_str() {
            "array" | "matrix" => match count_and_type(first) {
                Some((n, ty)) => self
                    .spirv_segment_type(&body, ty, at)?
                    .map(|t| (t, Some(n))),
                None => None,
            },
            "rtarray" => self
                .spirv_segment_type(&body, first, at)?
                .map(|t| (t, None)),
            "coopmatrix" => {
                // `RxCxT`: the element type after the two dimensions.
                let rest = count_and_type(first).and_then(|(_, r)| count_and_type(r));
                match rest {
                    Some((_, ty)) => self.spirv_segment_type(&body, ty, at)?.map(|t| (t, None)),
                    None => None,
                }
            }
            "struct" => {
                let members = self.spirv_struct_members(t, at)?;
                return Ok(members.and_then(|m| {
                    let n = m.len() as u64;
                    usize::try_from(index)
                        .ok()
                        .and_then(|i| m.get(i).copied())
                        .map(|e| (e, Some(n)))
                        .or(Some((t, Some(n))))
                }));
            }
            _ => None,
        };
        Ok(found)
    }

    /// `%v[indices] : type` of `spirv.CompositeExtract`: the element type
    /// the indices select (MLIR's `getElementType`), or an error at `at`.
    fn spirv_extracted_type(
        &mut self,
        mut t: TypeId,
        indices: &[i64],
        at: usize,
    ) -> Result<TypeId> {
        if indices.is_empty() {
            return self.sem_err_at(at, "expected at least one index for spirv.CompositeExtract");
        }
        for &i in indices {
            let Some((elem, count)) = self.spirv_composite_element(t, i, at)? else {
                return self.sem_err_at(
                    at,
                    format!("cannot extract from non-composite type with index {i} (or a spirv type whose elements are not known here)"),
                );
            };
            if i < 0 || count.is_some_and(|n| i as u64 >= n) {
                return self.sem_err_at(at, format!("index {i} out of bounds"));
            }
            t = elem;
        }
        Ok(t)
    }

    /// `spirv.module @name? AddressingModel MemoryModel (requires #vce)?
    /// (attributes {…})? region` (MLIR's `spirv::ModuleOp::parse`).
    pub(super) fn parse_spirv_module(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut props: Properties = Vec::new();
        if self.is(Tok::AtId) {
            let sym = self.parse_symbol_name()?;
            props.push((b"sym_name"[..].into(), self.string_attr(sym)));
        }
        let am = self.spirv_enum_keyword(&syn.name, "addressing_model")?;
        props.push((b"addressing_model"[..].into(), am));
        let mm = self.spirv_enum_keyword(&syn.name, "memory_model")?;
        props.push((b"memory_model"[..].into(), mm));
        if self.is_kw("requires") {
            self.bump();
            let vce = self.parse_attr(None)?;
            props.push((b"vce_triple"[..].into(), vce));
        }
        let attrs = self.optional_attr_dict_with_keyword()?;
        let region = self.parse_custom_region(syn, name_at)?;
        self.finish_hand_written(
            syn,
            &[],
            &[],
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `spirv.func @name(args) -> results "Control" (attributes {…})?
    /// body?` (MLIR's `spirv::FuncOp::parse`).
    pub(super) fn parse_spirv_func(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let sym = self.parse_symbol_name()?;
        let mut props: Properties = vec![(b"sym_name"[..].into(), self.string_attr(sym))];
        let (args, sig) = self.function_signature()?;
        props.extend(sig);
        let (control, _) = self.spirv_enum_string(&syn.name, "function_control")?;
        props.push((b"function_control"[..].into(), control));
        let attrs = self.optional_attr_dict_with_keyword()?;
        let region = self.optional_function_body(&args)?;
        self.finish_hand_written(
            syn,
            &[],
            &[],
            props,
            attrs,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `spirv.Constant attr (: type)?` (MLIR's `spirv::ConstantOp::parse`):
    /// the type is the attribute's, read after `:` for an untyped one or a
    /// tensor.
    pub(super) fn parse_spirv_constant(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let value = self.parse_attr(None)?;
        let typed = match self.m.ctx.attr(value) {
            AttrData::Integer { ty, .. } | AttrData::Float { ty, .. } => Some(*ty),
            AttrData::DenseIntOrFp { ty, .. }
            | AttrData::DenseString { ty, .. }
            | AttrData::DenseResource { ty, .. }
            | AttrData::Sparse { ty, .. } => Some(*ty),
            AttrData::String { ty, .. } => *ty,
            AttrData::DenseArray { .. } => None,
            AttrData::Unit | AttrData::Array(_) | AttrData::Dictionary(_) => None,
            _ => return self.unsupported(syn, name_at, "a value of this kind"),
        };
        let ty = match typed {
            Some(t)
                if !matches!(
                    self.m.ctx.ty(t),
                    TypeData::RankedTensor { .. }
                        | TypeData::UnrankedTensor { .. }
                        | TypeData::None
                ) =>
            {
                t
            }
            _ => {
                self.expect(Tok::Colon, "':'")?;
                self.parse_type()?
            }
        };
        self.finish_hand_written(
            syn,
            &[],
            &[ty],
            vec![(b"value"[..].into(), value)],
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `(bind(set, binding) | built_in("name"))? attr-dict?` (MLIR's
    /// `parseVariableDecorations`).
    fn spirv_variable_decorations(&mut self, props: &mut Properties) -> Result<Option<AttrId>> {
        let i32t = self.m.ctx.intern_type(TypeData::signless(32));
        if self.is_kw("bind") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let set = self.parse_attr(Some(i32t))?;
            self.expect(Tok::Comma, "','")?;
            let binding = self.parse_attr(Some(i32t))?;
            self.expect(Tok::RParen, "')'")?;
            props.push((b"descriptor_set"[..].into(), set));
            props.push((b"binding"[..].into(), binding));
        } else if self.is_kw("built_in") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let at = self.tok.start;
            let name = self.parse_attr(None)?;
            if !matches!(self.m.ctx.attr(name), AttrData::String { .. }) {
                return self.sem_err_at(at, "invalid kind of attribute specified");
            }
            self.expect(Tok::RParen, "')'")?;
            props.push((b"built_in"[..].into(), name));
        }
        self.optional_attr_dict()
    }

    /// `spirv.GlobalVariable @name (initializer(@sym))? decorations :
    /// !spirv.ptr<…>` (MLIR's `spirv::GlobalVariableOp::parse`).
    pub(super) fn parse_spirv_global_variable(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let sym = self.parse_symbol_name()?;
        let mut props: Properties = vec![(b"sym_name"[..].into(), self.string_attr(sym))];
        if self.is_kw("initializer") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let init = self.flat_symbol_ref()?;
            self.expect(Tok::RParen, "')'")?;
            props.push((b"initializer"[..].into(), init));
        }
        let attrs = self.spirv_variable_decorations(&mut props)?;
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let ty = self.parse_type()?;
        if self
            .spirv_body(ty)
            .and_then(|b| b.params("ptr").map(|_| ()))
            .is_none()
        {
            return self.sem_err_at(at, "expected spirv.ptr type");
        }
        props.push((
            b"type"[..].into(),
            self.m.ctx.intern_attr(AttrData::Type(ty)),
        ));
        self.finish_hand_written(
            syn,
            &[],
            &[],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `@name`, as a flat symbol reference.
    fn flat_symbol_ref(&mut self) -> Result<AttrId> {
        let at = self.tok.start;
        if !self.is(Tok::AtId) {
            return self.err("expected symbol reference attribute");
        }
        let a = self.parse_attr(None)?;
        match self.m.ctx.attr(a) {
            AttrData::SymbolRef { nested, .. } if nested.is_empty() => Ok(a),
            _ => self.sem_err_at(at, "invalid kind of attribute specified"),
        }
    }

    /// A string attribute of `value`.
    fn string_attr(&mut self, value: Vec<u8>) -> AttrId {
        self.m.ctx.intern_attr(AttrData::String {
            value: value.into_boxed_slice(),
            ty: None,
        })
    }

    /// `spirv.Variable (init(%v))? decorations : !spirv.ptr<T, class>`
    /// (MLIR's `spirv::VariableOp::parse`): the initializer is of type
    /// `T`, the storage class is the pointer's.
    pub(super) fn parse_spirv_variable(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let init = if self.is_kw("init") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let u = self.parse_value_use()?;
            self.expect(Tok::RParen, "')'")?;
            Some(u)
        } else {
            None
        };
        let mut props: Properties = Vec::new();
        let attrs = self.spirv_variable_decorations(&mut props)?;
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let ty = self.parse_type()?;
        let class = self
            .spirv_body(ty)
            .and_then(|b| {
                b.params("ptr")
                    .map(|p| split_top(p).get(1).map(|c| c.trim().to_string()))
            })
            .flatten();
        let Some(class) = class else {
            return self.sem_err_at(at, "expected spirv.ptr type");
        };
        let mut operands = Vec::new();
        if let Some(u) = init {
            let Some(pointee) = self.spirv_pointee(ty, at)? else {
                return self.unsupported(syn, name_at, "the pointee of this pointer type");
            };
            operands.push(self.resolve_use(u, pointee)?);
        }
        let Some(spec) = self.spirv_attr_spec(&syn.name, "storage_class") else {
            return self.unsupported(syn, name_at, "its storage class");
        };
        let sc = self.spirv_enum_attr(spec, &class, at)?;
        props.push((b"storage_class"[..].into(), sc));
        self.finish_hand_written(
            syn,
            &operands,
            &[ty],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `([ "Access" (, alignment)? ])?` (MLIR's
    /// `parseMemoryAccessAttributes`): the access attribute, and with
    /// `Aligned` the `i32` alignment.
    fn spirv_memory_access(
        &mut self,
        syn: &'static OpSyntax,
        names: &AccessNames,
        props: &mut Properties,
    ) -> Result<()> {
        if !self.eat(Tok::LSquare) {
            return Ok(());
        }
        let at = self.tok.start;
        let text = lossy(&self.parse_string("memory_access attribute specified as string")?);
        let Some(spec) = self.spirv_attr_spec(&syn.name, names.access) else {
            return self.unsupported(syn, at, "its memory access");
        };
        let access = self.spirv_enum_attr(spec, &text, at)?;
        props.push((names.access.as_bytes().into(), access));
        let aligned = spec
            .cases
            .iter()
            .find(|(c, _)| c == "Aligned")
            .is_some_and(|(_, v)| {
                let bits: i64 = text
                    .split('|')
                    .filter_map(|p| spec.cases.iter().find(|(c, _)| c == p.trim()))
                    .fold(0, |acc, (_, v)| acc | v);
                bits & v == *v
            });
        if aligned {
            self.expect(Tok::Comma, "','")?;
            let i32t = self.m.ctx.intern_type(TypeData::signless(32));
            let a = self.parse_attr(Some(i32t))?;
            props.push((names.alignment.as_bytes().into(), a));
        }
        self.expect(Tok::RSquare, "']'")?;
        Ok(())
    }

    /// `spirv.Load "Class" %ptr access? attr-dict? : type` (MLIR's
    /// `spirv::LoadOp::parse`).
    pub(super) fn parse_spirv_load(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let class = self.spirv_storage_class()?;
        let ptr = self.parse_value_use()?;
        let mut props: Properties = Vec::new();
        self.spirv_memory_access(syn, &TARGET_ACCESS, &mut props)?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let elem = self.parse_type()?;
        let ptr_ty = self.spirv_pointer(syn, elem, &class, at)?;
        let ptr = self.resolve_use(ptr, ptr_ty)?;
        self.finish_hand_written(
            syn,
            &[ptr],
            &[elem],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `spirv.Store "Class" %ptr, %value access? : type` (MLIR's
    /// `spirv::StoreOp::parse`; it reads no attribute dictionary).
    pub(super) fn parse_spirv_store(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let class = self.spirv_storage_class()?;
        let uses_at = self.tok.start;
        let ptr = self.parse_value_use()?;
        self.expect(Tok::Comma, "','")?;
        let value = self.parse_value_use()?;
        let mut props: Properties = Vec::new();
        self.spirv_memory_access(syn, &TARGET_ACCESS, &mut props)?;
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let elem = self.parse_type()?;
        let ptr_ty = self.spirv_pointer(syn, elem, &class, at)?;
        let mut operands = Vec::new();
        self.resolve_operands(&[ptr, value], &[ptr_ty, elem], uses_at, &mut operands)?;
        self.finish_hand_written(
            syn,
            &operands,
            &[],
            props,
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `spirv.CopyMemory "Class" %target, "Class" %source access? (,
    /// access)? : type attr-dict?` (MLIR's `spirv::CopyMemoryOp::parse`).
    pub(super) fn parse_spirv_copy_memory(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let target_class = self.spirv_storage_class()?;
        let target = self.parse_value_use()?;
        self.expect(Tok::Comma, "','")?;
        let source_class = self.spirv_storage_class()?;
        let source = self.parse_value_use()?;
        let mut props: Properties = Vec::new();
        self.spirv_memory_access(syn, &TARGET_ACCESS, &mut props)?;
        if self.eat(Tok::Comma) {
            self.spirv_memory_access(syn, &SOURCE_ACCESS, &mut props)?;
        }
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let elem = self.parse_type()?;
        let attrs = self.optional_attr_dict()?;
        let target_ty = self.spirv_pointer(syn, elem, &target_class, at)?;
        let source_ty = self.spirv_pointer(syn, elem, &source_class, at)?;
        let target = self.resolve_use(target, target_ty)?;
        let source = self.resolve_use(source, source_ty)?;
        self.finish_hand_written(
            syn,
            &[target, source],
            &[],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `[i : i32, …]` of the composite ops: the attribute and its values.
    fn spirv_indices(&mut self) -> Result<(AttrId, Vec<i64>, usize)> {
        let at = self.tok.start;
        let a = self.parse_attr(None)?;
        let mut values = Vec::new();
        if let AttrData::Array(items) = self.m.ctx.attr(a) {
            for &i in items {
                match self.m.ctx.attr(i) {
                    AttrData::Integer { value, .. } => match i64::try_from(value) {
                        Ok(v) => values.push(v),
                        Err(_) => return self.sem_err_at(at, "index out of range"),
                    },
                    _ => return self.sem_err_at(at, "expected an 32-bit integer for index"),
                }
            }
        } else {
            return self.sem_err_at(
                at,
                "expected a 32-bit integer array attribute for 'indices'",
            );
        }
        Ok((a, values, at))
    }

    /// `spirv.CompositeExtract %v[indices] : type` (MLIR's
    /// `spirv::CompositeExtractOp::parse`).
    pub(super) fn parse_spirv_composite_extract(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let composite = self.parse_value_use()?;
        let (indices, values, at) = self.spirv_indices()?;
        self.expect(Tok::Colon, "':'")?;
        let ty = self.parse_type()?;
        let composite = self.resolve_use(composite, ty)?;
        let result = self.spirv_extracted_type(ty, &values, at)?;
        self.finish_hand_written(
            syn,
            &[composite],
            &[result],
            vec![(b"indices"[..].into(), indices)],
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `spirv.CompositeInsert %obj, %composite[indices] : type into type`
    /// (MLIR's `spirv::CompositeInsertOp::parse`).
    pub(super) fn parse_spirv_composite_insert(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let uses_at = self.tok.start;
        let object = self.parse_value_use()?;
        self.expect(Tok::Comma, "','")?;
        let composite = self.parse_value_use()?;
        let (indices, _, _) = self.spirv_indices()?;
        self.expect(Tok::Colon, "':'")?;
        let object_ty = self.parse_type()?;
        self.expect_kw("into")?;
        let composite_ty = self.parse_type()?;
        let mut operands = Vec::new();
        self.resolve_operands(
            &[object, composite],
            &[object_ty, composite_ty],
            uses_at,
            &mut operands,
        )?;
        self.finish_hand_written(
            syn,
            &operands,
            &[composite_ty],
            vec![(b"indices"[..].into(), indices)],
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `%cond ([w1, w2])?, ^true(args : types)?, ^false(args : types)?`
    /// (MLIR's `spirv::BranchConditionalOp::parse`).
    pub(super) fn parse_spirv_branch_conditional(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let cond = self.parse_value_use()?;
        let i1 = self.m.ctx.intern_type(TypeData::signless(1));
        let cond = self.resolve_use(cond, i1)?;
        let mut props: Properties = Vec::new();
        if self.eat(Tok::LSquare) {
            let i32t = self.m.ctx.intern_type(TypeData::signless(32));
            let t = self.parse_attr(Some(i32t))?;
            self.expect(Tok::Comma, "','")?;
            let f = self.parse_attr(Some(i32t))?;
            self.expect(Tok::RSquare, "']'")?;
            let w = self.m.ctx.intern_attr(AttrData::Array(vec![t, f]));
            props.push((b"branch_weights"[..].into(), w));
        }
        let mut operands = vec![cond];
        let mut successors = Vec::new();
        let mut sizes = [1usize, 0, 0];
        for size in &mut sizes[1..] {
            self.expect(Tok::Comma, "','")?;
            let (block, args) = self.successor_and_use_list()?;
            successors.push(block);
            *size = args.len();
            operands.extend(args);
        }
        let a = self.segment_sizes(&sizes, name_at)?;
        props.push((b"operandSegmentSizes"[..].into(), a));
        self.finish_hand_written_with_successors(
            syn,
            &operands,
            &[],
            successors,
            props,
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `^block((%v, … : types))?` (MLIR's `parseSuccessorAndUseList`).
    pub(super) fn successor_and_use_list(&mut self) -> Result<(BlockId, Vec<ValueId>)> {
        let block = self.parse_block_ref()?;
        let mut values = Vec::new();
        if self.eat(Tok::LParen) {
            let at = self.tok.start;
            let mut uses = vec![self.parse_value_use()?];
            while self.eat(Tok::Comma) {
                uses.push(self.parse_value_use()?);
            }
            self.expect(Tok::Colon, "':'")?;
            let mut types = vec![self.parse_type()?];
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
            self.expect(Tok::RParen, "')'")?;
            self.resolve_operands(&uses, &types, at, &mut values)?;
        }
        Ok((block, values))
    }

    /// `spirv.mlir.loop`/`spirv.mlir.selection (control(Keyword))? (->
    /// types)? region` (MLIR's `parseControlAttribute` and the ops'
    /// parsers): the control is `None` when left out.
    pub(super) fn parse_spirv_structured(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let Some(spec) = syn.attrs.iter().find(|a| a.name.ends_with("_control")) else {
            return self.unsupported(syn, name_at, "its control attribute");
        };
        let control = if self.is_kw("control") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let a = self.spirv_enum_keyword(&syn.name, &spec.name)?;
            self.expect(Tok::RParen, "')'")?;
            a
        } else {
            self.spirv_enum_attr(spec, "None", name_at)?
        };
        let results = self.optional_arrow_type_list()?;
        let region = self.parse_region()?;
        self.finish_hand_written(
            syn,
            &[],
            &results,
            vec![(spec.name.as_bytes().into(), control)],
            None,
            vec![region],
            name_at,
            results_start,
        )
    }

    /// `spirv.EntryPoint "Model" @fn (, @var)*` (MLIR's
    /// `spirv::EntryPointOp::parse`).
    pub(super) fn parse_spirv_entry_point(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let (model, _) = self.spirv_enum_string(&syn.name, "execution_model")?;
        let f = self.flat_symbol_ref()?;
        let mut vars = Vec::new();
        while self.eat(Tok::Comma) {
            vars.push(self.flat_symbol_ref()?);
        }
        let interface = self.m.ctx.intern_attr(AttrData::Array(vars));
        self.finish_hand_written(
            syn,
            &[],
            &[],
            vec![
                (b"execution_model"[..].into(), model),
                (b"fn"[..].into(), f),
                (b"interface"[..].into(), interface),
            ],
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `spirv.ExecutionMode @fn "Mode" (, int)*` (MLIR's
    /// `spirv::ExecutionModeOp::parse`): the values are `i32`s.
    pub(super) fn parse_spirv_execution_mode(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let f = self.parse_attr(None)?;
        let (mode, _) = self.spirv_enum_string(&syn.name, "execution_mode")?;
        let i32t = self.m.ctx.intern_type(TypeData::signless(32));
        let mut values = Vec::new();
        while self.eat(Tok::Comma) {
            let at = self.tok.start;
            let v = self.parse_attr(Some(i32t))?;
            // MLIR keeps `getInt()` of what it read, as an `i32`.
            let AttrData::Integer { value, .. } = self.m.ctx.attr(v) else {
                return self.sem_err_at(at, "invalid kind of attribute specified");
            };
            let Ok(n) = i64::try_from(value) else {
                return self.sem_err_at(at, "integer value too large");
            };
            let n = BigInt::from(n as i32);
            values.push(
                self.m
                    .ctx
                    .intern_attr(AttrData::Integer { ty: i32t, value: n }),
            );
        }
        let values = self.m.ctx.intern_attr(AttrData::Array(values));
        self.finish_hand_written(
            syn,
            &[],
            &[],
            vec![
                (b"execution_mode"[..].into(), mode),
                (b"fn"[..].into(), f),
                (b"values"[..].into(), values),
            ],
            None,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `spirv.SpecConstant @name (spec_id(N))? = attr` (MLIR's
    /// `spirv::SpecConstantOp::parse`): `spec_id` is a discardable
    /// attribute.
    pub(super) fn parse_spirv_spec_constant(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let sym = self.parse_symbol_name()?;
        let mut props: Properties = vec![(b"sym_name"[..].into(), self.string_attr(sym))];
        let mut attrs = None;
        if self.is_kw("spec_id") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let at = self.tok.start;
            let id = self.parse_attr(None)?;
            if !matches!(self.m.ctx.attr(id), AttrData::Integer { .. }) {
                return self.sem_err_at(at, "invalid kind of attribute specified");
            }
            self.expect(Tok::RParen, "')'")?;
            let d = AttrData::Dictionary(vec![(b"spec_id"[..].into(), id)]);
            attrs = Some(self.m.ctx.intern_attr(d));
        }
        self.expect(Tok::Equal, "'='")?;
        let value = self.parse_attr(None)?;
        props.push((b"default_value"[..].into(), value));
        self.finish_hand_written(
            syn,
            &[],
            &[],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `%a, %b, … attr-dict? : type`, or `(%a, …) attr-dict? :
    /// function-type` (MLIR's `parseOneResultSameOperandTypeOp`).
    pub(super) fn parse_spirv_same_type(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let parens = self.eat(Tok::LParen);
        let at = self.tok.start;
        let mut uses = Vec::new();
        if !(parens && self.is(Tok::RParen)) {
            uses.push(self.parse_value_use()?);
            while self.eat(Tok::Comma) {
                uses.push(self.parse_value_use()?);
            }
        }
        if parens {
            self.expect(Tok::RParen, "')'")?;
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let ty = self.parse_type()?;
        let mut operands = Vec::new();
        let results = if parens {
            let TypeData::Function { inputs, results } = self.m.ctx.ty(ty).clone() else {
                return self.sem_err_at(type_at, "expected function type");
            };
            self.resolve_operands(&uses, &inputs, at, &mut operands)?;
            results
        } else {
            for u in &uses {
                operands.push(self.resolve_use(*u, ty)?);
            }
            vec![ty]
        };
        self.finish_hand_written(
            syn,
            &operands,
            &results,
            Vec::new(),
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `attr-dict? %a, %b : !spirv.struct<(T, T)>` (MLIR's
    /// `parseArithmeticExtendedBinaryOp`): both operands are of the
    /// struct's first member type.
    pub(super) fn parse_spirv_extended_binary(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let attrs = self.optional_attr_dict()?;
        let uses_at = self.tok.start;
        let mut uses = vec![self.parse_value_use()?];
        while self.eat(Tok::Comma) {
            uses.push(self.parse_value_use()?);
        }
        self.expect(Tok::Colon, "':'")?;
        let at = self.tok.start;
        let ty = self.parse_type()?;
        let members = self.spirv_struct_members(ty, at)?;
        let Some(&[member, _]) = members.as_deref() else {
            return self.sem_err_at(at, "expected spirv.struct type with two members");
        };
        let mut operands = Vec::new();
        self.resolve_operands(&uses, &[member, member], uses_at, &mut operands)?;
        self.finish_hand_written(
            syn,
            &operands,
            &[ty],
            Vec::new(),
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }
}
