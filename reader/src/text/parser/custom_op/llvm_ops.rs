//! The llvm dialect's hand-written parsers (MLIR's `LLVMDialect.cpp`),
//! SPEC.md §11.2.

use super::hand_written::{FnArg, Signature};
use super::*;

/// `LLVM::Linkage`'s keywords, in enum order.
const LINKAGES: &[&str] = &[
    "private",
    "internal",
    "available_externally",
    "linkonce",
    "weak",
    "common",
    "appending",
    "extern_weak",
    "linkonce_odr",
    "weak_odr",
    "external",
];

/// `LLVM::Visibility`'s keywords: the integer is the index.
const VISIBILITIES: &[&str] = &["default", "hidden", "protected"];

/// `LLVM::UnnamedAddr`'s keywords (none is 0).
const UNNAMED_ADDRS: &[&str] = &["", "local_unnamed_addr", "unnamed_addr"];

/// `LLVM::cconv::CConv`'s keywords (`ccc` is the default).
const CCONVS: &[&str] = &[
    "ccc",
    "fastcc",
    "coldcc",
    "cc_10",
    "cc_11",
    "anyregcc",
    "preserve_mostcc",
    "preserve_allcc",
    "swiftcc",
    "cxx_fast_tlscc",
    "tailcc",
    "cfguard_checkcc",
    "swifttailcc",
    "x86_stdcallcc",
    "x86_fastcallcc",
    "arm_apcscc",
    "arm_aapcscc",
    "arm_aapcs_vfpcc",
    "msp430_intrcc",
    "x86_thiscallcc",
    "ptx_kernelcc",
    "ptx_devicecc",
    "spir_funccc",
    "spir_kernelcc",
    "intel_ocl_bicc",
    "x86_64_sysvcc",
    "win64cc",
    "x86_vectorcallcc",
    "hhvmcc",
    "hhvm_ccc",
    "x86_intrcc",
    "avr_intrcc",
    "avr_builtincc",
    "amdgpu_vscc",
    "amdgpu_gscc",
    "amdgpu_cscc",
    "amdgpu_kernelcc",
    "x86_regcallcc",
    "amdgpu_hscc",
    "msp430_builtincc",
    "amdgpu_lscc",
    "amdgpu_escc",
    "aarch64_vectorcallcc",
    "aarch64_sve_vectorcallcc",
    "wasm_emscripten_invokecc",
    "amdgpu_gfxcc",
    "m68k_intrcc",
];

impl<'a> Parser<'a> {
    /// `linkage`, `visibility_` and `unnamed_addr` of a function or global
    /// from the indices of their keywords.
    fn linkage_properties(
        &mut self,
        linkage: usize,
        visibility: usize,
        unnamed_addr: usize,
        at: usize,
    ) -> Result<Vec<(Bytes, AttrId)>> {
        let texts = [
            ("linkage", format!("#llvm.linkage<{}>", LINKAGES[linkage])),
            ("visibility_", format!("{visibility} : i64")),
            ("unnamed_addr", format!("{unnamed_addr} : i64")),
        ];
        let mut props = Vec::with_capacity(texts.len());
        for (name, text) in texts {
            props.push((name.as_bytes().into(), self.parse_attr_text(&text, at)?));
        }
        Ok(props)
    }

    /// `comdat(@symbol)`, if present.
    fn optional_comdat(&mut self) -> Result<Option<AttrId>> {
        if !self.is_kw("comdat") {
            return Ok(None);
        }
        self.bump();
        self.expect(Tok::LParen, "'('")?;
        let at = self.tok.start;
        let comdat = self.parse_attr(None)?;
        if !matches!(self.m.ctx.attr(comdat), AttrData::SymbolRef { .. }) {
            return self.sem_err_at(at, "expected a symbol reference");
        }
        self.expect(Tok::RParen, "')'")?;
        Ok(Some(comdat))
    }

    /// A keyword of `names` at the current token (MLIR's
    /// `parseOptionalKeywordAlternative`), consumed.
    fn optional_keyword_of(&mut self, names: &[&str]) -> Option<usize> {
        if !self.is(Tok::BareIdent) {
            return None;
        }
        let i = names
            .iter()
            .position(|n| !n.is_empty() && n.as_bytes() == self.spelling())?;
        self.bump();
        Some(i)
    }

    /// `llvm.func linkage? visibility? unnamed_addr? cconv? @name(args)
    /// (-> result)? (vscale_range(min, max))? (comdat(@sym))? (attributes
    /// {…})? body?` (MLIR's `LLVMFuncOp::parse`). Its `function_type` is
    /// an `!llvm.func<result (args)>`.
    pub(super) fn parse_llvm_func(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let linkage = self.optional_keyword_of(LINKAGES).unwrap_or(10);
        let visibility = self.optional_keyword_of(VISIBILITIES).unwrap_or(0);
        let unnamed_addr = self.optional_keyword_of(UNNAMED_ADDRS).unwrap_or(0);
        let cconv_at = self.tok.start;
        let cconv = match self.optional_keyword_of(CCONVS) {
            Some(i) => i,
            None if self.is(Tok::BareIdent) => {
                return self.unsupported(
                    syn,
                    cconv_at,
                    &format!("the keyword '{}'", lossy(self.spelling())),
                )
            }
            None => 0,
        };
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        props.extend(self.linkage_properties(linkage, visibility, unnamed_addr, name_at)?);
        let text = format!("#llvm.cconv<{}>", CCONVS[cconv]);
        props.push((b"CConv"[..].into(), self.parse_attr_text(&text, name_at)?));
        let sym = self.parse_symbol_name()?;
        let a = self.m.ctx.intern_attr(AttrData::String {
            value: sym.into_boxed_slice(),
            ty: None,
        });
        props.push((b"sym_name"[..].into(), a));

        let signature_at = self.tok.start;
        let Signature {
            args,
            results,
            variadic,
        } = self.function_signature_parts(true)?;
        let fty = self.llvm_function_type(syn, &args, &results, variadic, signature_at)?;
        props.extend(self.signature_properties(&args, &results, fty));
        if self.is_kw("vscale_range") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let min = self.expect(Tok::Integer, "an integer")?;
            self.expect(Tok::Comma, "','")?;
            let max = self.expect(Tok::Integer, "an integer")?;
            self.expect(Tok::RParen, "')'")?;
            let text = format!(
                "#llvm.vscale_range<minRange = {} : i32, maxRange = {} : i32>",
                lossy(&self.src[min.start..min.end]),
                lossy(&self.src[max.start..max.end])
            );
            props.push((
                b"vscale_range"[..].into(),
                self.parse_attr_text(&text, min.start)?,
            ));
        }
        if let Some(comdat) = self.optional_comdat()? {
            props.push((b"comdat"[..].into(), comdat));
        }
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

    /// `!llvm.func<result (args, ...)>` (MLIR's `buildLLVMFunctionType`):
    /// no result is `void`, more than one is an error.
    fn llvm_function_type(
        &mut self,
        syn: &'static OpSyntax,
        args: &[FnArg<'a>],
        results: &[(TypeId, AttrId)],
        variadic: bool,
        at: usize,
    ) -> Result<TypeId> {
        if results.len() > 1 {
            return self.sem_err_at(
                at,
                "failed to construct function type: expected zero or one function result",
            );
        }
        let mut parts = Vec::with_capacity(args.len() + 1);
        for t in args.iter().map(|a| a.ty).chain(results.iter().map(|r| r.0)) {
            match self.llvm_nested_type_text(t) {
                Some(text) => parts.push(text),
                None => {
                    return self.unsupported(
                        syn,
                        at,
                        "a signature type whose spelling inside an llvm type is not ported",
                    )
                }
            }
        }
        let result = if results.is_empty() {
            "void".to_string()
        } else {
            parts.pop().unwrap_or_default()
        };
        if variadic {
            parts.push("...".into());
        }
        let text = format!("!llvm.func<{result} ({})>", parts.join(", "));
        self.parse_type_text(&text, at)
    }

    /// How the llvm dialect's printer writes type `t` inside one of its
    /// types: an llvm type without its `!llvm.` prefix, a builtin scalar or
    /// vector as usual; `None` for anything else.
    pub(super) fn llvm_nested_type_text(&self, t: TypeId) -> Option<String> {
        Some(match self.m.ctx.ty(t) {
            TypeData::Vector {
                shape,
                scalable,
                elem,
            } => vector_text(shape, scalable, &self.llvm_nested_type_text(*elem)?),
            TypeData::Dialect(body) if &*body.dialect == "llvm" => {
                let mut s = String::new();
                for p in &body.pieces {
                    match p {
                        BodyPiece::Text(t) => s += t,
                        _ => return None,
                    }
                }
                s
            }
            _ => return self.builtin_scalar_or_vector_text(t),
        })
    }
}

impl<'a> Parser<'a> {
    /// Element `index` of the llvm struct or array `t` (MLIR's
    /// `getInsertExtractValueElementType`), read from the type's body:
    /// `struct<(T, …)>` (maybe `packed`, maybe named) or `array<N x T>`.
    pub(super) fn llvm_aggregate_element(
        &mut self,
        t: TypeId,
        index: i64,
        at: usize,
    ) -> Result<TypeId> {
        if !matches!(self.m.ctx.ty(t), TypeData::Dialect(b) if &*b.dialect == "llvm") {
            return self.sem_err_at(at, "expected LLVM IR structure/array type");
        }
        let Some(text) = self.llvm_nested_type_text(t) else {
            return Err(Error::new(
                ErrorKind::Unsupported,
                "an llvm aggregate whose body holds a type other than builtin and llvm types is not known here; the op's generic form is accepted",
                self.position(at),
            ));
        };
        let (elems, count): (Vec<&str>, Option<u64>) = if let Some(p) = text
            .strip_prefix("array<")
            .and_then(|p| p.strip_suffix('>'))
        {
            match count_and_type(p) {
                Some((n, elem)) => (vec![elem], Some(n)),
                None => return self.sem_err_at(at, "expected LLVM IR structure/array type"),
            }
        } else if let Some(p) = text
            .strip_prefix("struct<")
            .and_then(|p| p.strip_suffix('>'))
        {
            let body = split_top(p)
                .into_iter()
                .map(str::trim)
                .map(|b| b.strip_prefix("packed").map_or(b, str::trim_start))
                .find(|b| b.starts_with('('));
            match body.and_then(|b| b.strip_prefix('(')?.strip_suffix(')')) {
                Some(b) if b.trim().is_empty() => (Vec::new(), None),
                Some(b) => (split_top(b), None),
                None => return self.sem_err_at(at, "expected LLVM IR structure/array type"),
            }
        } else {
            return self.sem_err_at(at, "expected LLVM IR structure/array type");
        };
        let n = count.unwrap_or(elems.len() as u64);
        if index < 0 || index as u64 >= n {
            return self.sem_err_at(at, format!("position out of bounds: {index}"));
        }
        let elem = if count.is_some() {
            elems[0]
        } else {
            elems[index as usize]
        }
        .trim();
        let word: Vec<u8> = elem
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
            .collect();
        let elem_text = if is_builtin_type_word(&word) || elem.starts_with('!') {
            elem.to_string()
        } else {
            format!("!llvm.{elem}")
        };
        self.parse_type_text(&elem_text, at)
    }
}

/// `LLVM::tailcallkind::TailCallKind`'s keywords (`none` is the default).
const TAIL_CALL_KINDS: &[&str] = &["none", "tail", "musttail", "notail"];

impl<'a> Parser<'a> {
    /// Whether `t` is an `!llvm.ptr` (of any address space).
    fn is_llvm_pointer(&self, t: TypeId) -> bool {
        matches!(self.m.ctx.ty(t), TypeData::Dialect(b) if &*b.dialect == "llvm"
            && matches!(b.pieces.first(), Some(BodyPiece::Text(s)) if s.as_ref() == "ptr" || s.starts_with("ptr<")))
    }

    /// `llvm.alloca inalloca? %size x elem-type attr-dict? : (size type) ->
    /// result type` (MLIR's `AllocaOp::parse`): an `alignment` of 0 is
    /// dropped, and `elem_type` is set when the result is a pointer.
    pub(super) fn parse_llvm_alloca(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        if self.is_kw("inalloca") {
            self.bump();
            props.push((b"inalloca"[..].into(), self.unit_attr));
        }
        let size = self.parse_value_use()?;
        self.expect_kw("x")?;
        let elem = self.parse_type()?;
        let mut attrs = self.optional_attr_dict()?;
        if let Some(d) = attrs {
            if let AttrData::Dictionary(entries) = self.m.ctx.attr(d) {
                let zero_alignment = entries.iter().any(|(k, v)| {
                    &k[..] == b"alignment"
                        && matches!(self.m.ctx.attr(*v), AttrData::Integer { value, .. } if value.sign() == num_bigint::Sign::NoSign)
                });
                if zero_alignment {
                    let kept: Vec<_> = entries
                        .iter()
                        .filter(|(k, _)| &k[..] != b"alignment")
                        .cloned()
                        .collect();
                    attrs = Some(self.m.ctx.intern_attr(AttrData::Dictionary(kept)));
                }
            }
        }
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let fty = self.parse_type()?;
        let (input, result) = match self.m.ctx.ty(fty) {
            TypeData::Function { inputs, results } if inputs.len() == 1 && results.len() == 1 => {
                (inputs[0], results[0])
            }
            _ => {
                return self.sem_err_at(
                    type_at,
                    "expected trailing function type with one argument and one result",
                )
            }
        };
        let size = self.resolve_use(size, input)?;
        if self.is_llvm_pointer(result) {
            let a = self.m.ctx.intern_attr(AttrData::Type(elem));
            props.push((b"elem_type"[..].into(), a));
        }
        self.finish_hand_written(
            syn,
            &[size],
            &[result],
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }

    /// `llvm.call cconv? tail-call-kind? (@callee | %fptr)(%args)
    /// (vararg(type))? attr-dict? : (fptr type ,)? function type` (MLIR's
    /// `CallOp::parse` and `parseCallTypeAndResolveOperands`). Operand
    /// bundles (`[…]`) are not ported.
    pub(super) fn parse_llvm_call(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let cconv = self.optional_keyword_of(CCONVS).unwrap_or(0);
        let tail = self.optional_keyword_of(TAIL_CALL_KINDS).unwrap_or(0);
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        let text = format!("#llvm.cconv<{}>", CCONVS[cconv]);
        props.push((b"CConv"[..].into(), self.parse_attr_text(&text, name_at)?));
        let text = format!("#llvm.tailcallkind<{}>", TAIL_CALL_KINDS[tail]);
        props.push((
            b"TailCallKind"[..].into(),
            self.parse_attr_text(&text, name_at)?,
        ));
        let mut uses = Vec::new();
        let direct = !self.is(Tok::PercentId);
        if direct {
            let at = self.tok.start;
            let callee = self.parse_attr(None)?;
            if !matches!(self.m.ctx.attr(callee), AttrData::SymbolRef { .. }) {
                return self.sem_err_at(at, "expected a symbol reference to the callee");
            }
            props.push((b"callee"[..].into(), callee));
        } else {
            uses.push(self.parse_value_use()?);
        }
        uses.extend(self.paren_value_uses()?);
        if self.is_kw("vararg") {
            self.bump();
            self.expect(Tok::LParen, "'('")?;
            let t = self.parse_type()?;
            self.expect(Tok::RParen, "')'")?;
            let a = self.m.ctx.intern_attr(AttrData::Type(t));
            props.push((b"var_callee_type"[..].into(), a));
        }
        if self.is(Tok::LSquare) {
            return self.unsupported(syn, self.tok.start, "operand bundles");
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let mut types = Vec::new();
        if !direct {
            types.push(self.parse_type()?);
            self.expect(Tok::Comma, "','")?;
        }
        let type_at = self.tok.start;
        let (inputs, arg_attrs, results, res_attrs) = self.parse_call_signature()?;
        if results.len() > 1 {
            return self.sem_err_at(type_at, "expected function with 0 or 1 result");
        }
        for (name, dicts) in [(&b"arg_attrs"[..], arg_attrs), (b"res_attrs", res_attrs)] {
            if let Some(a) = self.dict_array(dicts) {
                props.push((name.into(), a));
            }
        }
        types.extend(inputs);
        let mut operands = Vec::new();
        self.resolve_operands(&uses, &types, name_at, &mut operands)?;
        let sizes = self.parse_attr_text("array<i32>", name_at)?;
        props.push((b"op_bundle_sizes"[..].into(), sizes));
        let segments = self.segment_sizes(&[operands.len(), 0], name_at)?;
        props.push((b"operandSegmentSizes"[..].into(), segments));
        self.finish_hand_written(
            syn,
            &operands,
            &results,
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }
}

/// The types and attribute dictionaries of a call's signature: arguments,
/// then results.
type CallSignature = (
    Vec<TypeId>,
    Vec<Option<AttrId>>,
    Vec<TypeId>,
    Vec<Option<AttrId>>,
);

impl<'a> Parser<'a> {
    /// `(type {attrs}?, …) -> result-list` (MLIR's
    /// `call_interface_impl::parseFunctionSignature`, the result list
    /// required): a result list is `()`, one type without attributes, or
    /// `(type {attrs}?, …)`.
    fn parse_call_signature(&mut self) -> Result<CallSignature> {
        let list = |p: &mut Self| -> Result<(Vec<TypeId>, Vec<Option<AttrId>>)> {
            let (mut types, mut attrs) = (Vec::new(), Vec::new());
            if !p.eat(Tok::RParen) {
                loop {
                    types.push(p.parse_type()?);
                    attrs.push(p.optional_attr_dict()?);
                    if !p.eat(Tok::Comma) {
                        break;
                    }
                }
                p.expect(Tok::RParen, "')'")?;
            }
            Ok((types, attrs))
        };
        self.expect(Tok::LParen, "'('")?;
        let (ins, in_attrs) = list(self)?;
        self.expect(Tok::Arrow, "'->'")?;
        let (outs, out_attrs) = if self.eat(Tok::LParen) {
            list(self)?
        } else {
            (vec![self.parse_type()?], vec![None])
        };
        Ok((ins, in_attrs, outs, out_attrs))
    }

    /// The `ArrayAttr` of dictionaries `call_interface_impl::
    /// addArgAndResultAttrs` adds: none unless a dictionary is non-empty,
    /// an empty one where none was written.
    fn dict_array(&mut self, dicts: Vec<Option<AttrId>>) -> Option<AttrId> {
        let empty = self.m.ctx.intern_attr(AttrData::Dictionary(Vec::new()));
        let dicts: Vec<AttrId> = dicts.into_iter().map(|d| d.unwrap_or(empty)).collect();
        let any = dicts
            .iter()
            .any(|&d| !matches!(self.m.ctx.attr(d), AttrData::Dictionary(e) if e.is_empty()));
        any.then(|| self.m.ctx.intern_attr(AttrData::Array(dicts)))
    }
}

/// `LLVM::GEPNoWrapFlags`' keywords, and their bits in the same order
/// (`inbounds` implies `nusw`).
const GEP_NO_WRAP_FLAGS: &[&str] = &["inbounds_flag", "nusw", "nuw", "inbounds"];
const GEP_NO_WRAP_BITS: &[u32] = &[1, 2, 4, 3];

impl<'a> Parser<'a> {
    /// `llvm.getelementptr (flag (| flag)*)? %base[indices] attr-dict? :
    /// (types) -> type, elem-type`: its declarative format, whose
    /// `noWrapFlags` property (a bit enum) and `custom<GEPIndices>` the
    /// interpreter does not read. An index is a value (its constant slot
    /// holds `INT32_MIN`, MLIR's `kDynamicIndex`) or an i32 constant.
    pub(super) fn parse_llvm_gep(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let mut flags = 0u32;
        while let Some(i) = self.optional_keyword_of(GEP_NO_WRAP_FLAGS) {
            flags |= GEP_NO_WRAP_BITS[i];
            // `|` has no token of its own: matched in the source.
            if self.src.get(self.tok.start) != Some(&b'|') {
                break;
            }
            self.reset_to(self.tok.start + 1);
        }
        let base = self.parse_value_use()?;
        let mut dynamic = Vec::new();
        let mut constants = Vec::new();
        let open_at = self.tok.start;
        self.comma_list(Tok::LSquare, Tok::RSquare, "'['", |p| {
            if p.is(Tok::PercentId) {
                dynamic.push(p.parse_value_use()?);
                constants.push(i32::MIN as i64);
                return Ok(());
            }
            let neg = p.eat(Tok::Minus);
            let t = p.expect(Tok::Integer, "an SSA value or an integer")?;
            let v = lossy(&p.src[t.start..t.end]).parse::<i64>().ok();
            match v.map(|v| if neg { -v } else { v }) {
                Some(v) if i32::try_from(v).is_ok() => constants.push(v),
                _ => return p.err_at(t.start, "expected an i32 constant index"),
            }
            Ok(())
        })?;
        if constants.is_empty() {
            // MLIR's list in brackets takes at least one element.
            return self.err_at(open_at + 1, "expected SSA operand");
        }
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let (mut inputs, mut outputs) = (Vec::new(), Vec::new());
        self.parse_function_type_parts(&mut inputs, &mut outputs)?;
        self.expect(Tok::Comma, "','")?;
        let elem = self.parse_type()?;
        if inputs.len() != dynamic.len() + 1 || outputs.len() != 1 {
            return self.sem_err_at(
                type_at,
                format!(
                    "{} operands present, but expected {}",
                    dynamic.len() + 1,
                    inputs.len()
                ),
            );
        }
        let mut operands = vec![self.resolve_use(base, inputs[0])?];
        for (u, t) in dynamic.iter().zip(&inputs[1..]) {
            operands.push(self.resolve_use(*u, *t)?);
        }
        let list: Vec<String> = constants.iter().map(i64::to_string).collect();
        let text = if list.is_empty() {
            "array<i32>".to_string()
        } else {
            format!("array<i32: {}>", list.join(", "))
        };
        let props = vec![
            (
                b"elem_type"[..].into(),
                self.m.ctx.intern_attr(AttrData::Type(elem)),
            ),
            (
                b"noWrapFlags"[..].into(),
                self.parse_attr_text(&format!("{flags} : i32"), name_at)?,
            ),
            (
                b"rawConstantIndices"[..].into(),
                self.parse_attr_text(&text, name_at)?,
            ),
        ];
        self.finish_hand_written(
            syn,
            &operands,
            &outputs,
            props,
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }
}

impl<'a> Parser<'a> {
    /// `llvm.mlir.global linkage? visibility? thread_local? unnamed_addr?
    /// constant? @name((value)?) (comdat(@c))? attr-dict? (: type)?
    /// region?` (MLIR's `GlobalOp::parse`): without a type the value must
    /// be a string, and the type is `!llvm.array<N x i8>` of its length.
    pub(super) fn parse_llvm_global(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        // The order mlir-opt 22 accepts (checked): linkage, visibility,
        // `thread_local`, unnamed_addr, `constant`.
        let linkage = self.optional_keyword_of(LINKAGES).unwrap_or(10);
        let visibility = self.optional_keyword_of(VISIBILITIES).unwrap_or(0);
        let mut props: Vec<(Bytes, AttrId)> = Vec::new();
        if self.is_kw("thread_local") {
            self.bump();
            props.push((b"thread_local_"[..].into(), self.unit_attr));
        }
        let unnamed_addr = self.optional_keyword_of(UNNAMED_ADDRS).unwrap_or(0);
        if self.is_kw("constant") {
            self.bump();
            props.push((b"constant"[..].into(), self.unit_attr));
        }
        props.extend(self.linkage_properties(linkage, visibility, unnamed_addr, name_at)?);
        let sym = self.parse_symbol_name()?;
        let a = self.m.ctx.intern_attr(AttrData::String {
            value: sym.into_boxed_slice(),
            ty: None,
        });
        props.push((b"sym_name"[..].into(), a));
        self.expect(Tok::LParen, "'('")?;
        let mut value = None;
        if !self.eat(Tok::RParen) {
            let v = self.parse_attr(None)?;
            self.expect(Tok::RParen, "')'")?;
            props.push((b"value"[..].into(), v));
            value = Some(v);
        }
        if let Some(comdat) = self.optional_comdat()? {
            props.push((b"comdat"[..].into(), comdat));
        }
        let attrs = self.optional_attr_dict()?;
        let mut types = Vec::new();
        if self.eat(Tok::Colon) {
            types.push(self.parse_type()?);
            while self.eat(Tok::Comma) {
                types.push(self.parse_type()?);
            }
        }
        if types.len() > 1 {
            return self.sem_err_at(name_at, "expected zero or one type");
        }
        let region = self.m.new_region();
        let ty = match types.first() {
            Some(&t) => {
                if self.is(Tok::LBrace) {
                    self.parse_region_into(region, &[])?;
                }
                t
            }
            None => match value.map(|v| self.m.ctx.attr(v)) {
                Some(AttrData::String { value, .. }) => {
                    let text = format!("!llvm.array<{} x i8>", value.len());
                    self.parse_type_text(&text, name_at)?
                }
                _ => {
                    return self.sem_err_at(name_at, "type can only be omitted for string globals")
                }
            },
        };
        props.push((
            b"global_type"[..].into(),
            self.m.ctx.intern_attr(AttrData::Type(ty)),
        ));
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
}

impl<'a> Parser<'a> {
    /// `llvm.icmp`/`llvm.fcmp "pred" %lhs, %rhs attr-dict? : type` (MLIR's
    /// `parseCmpOp`): the predicate's string becomes the `i64` of its case
    /// (the op's enum cases, from the data), the result is `i1` or a
    /// vector of `i1` as long as the operands'.
    pub(super) fn parse_llvm_cmp(
        &mut self,
        syn: &'static OpSyntax,
        name_at: usize,
        results_start: usize,
    ) -> Result<OpId> {
        let pred_at = self.tok.start;
        if !self.is(Tok::String) {
            return self.err("expected attribute value");
        }
        let pred = self.parse_string("a predicate")?;
        let lhs = self.parse_value_use()?;
        self.expect(Tok::Comma, "','")?;
        let rhs = self.parse_value_use()?;
        let attrs = self.optional_attr_dict()?;
        self.expect(Tok::Colon, "':'")?;
        let type_at = self.tok.start;
        let ty = self.parse_type()?;
        let mut operands = Vec::new();
        self.resolve_operands(&[lhs, rhs], &[ty, ty], type_at, &mut operands)?;
        let spec = syn.attrs.iter().find(|a| a.name == "predicate");
        let case = spec.and_then(|a| {
            a.cases
                .iter()
                .find(|(name, _)| name.as_bytes() == &pred[..])
                .map(|(_, v)| *v)
        });
        let Some(case) = case else {
            return self.sem_err_at(
                pred_at,
                format!(
                    "'{}' is an incorrect value of the 'predicate' attribute",
                    lossy(&pred)
                ),
            );
        };
        let i64t = self.m.ctx.intern_type(TypeData::signless(64));
        let value = self.m.ctx.intern_attr(AttrData::Integer {
            ty: i64t,
            value: BigInt::from(case),
        });
        let compatible = match self.m.ctx.ty(ty) {
            TypeData::Integer { signedness, .. } => *signedness == Signedness::Signless,
            TypeData::Float(_) | TypeData::Vector { .. } => true,
            TypeData::Dialect(body) => &*body.dialect == "llvm",
            _ => false,
        };
        if !compatible {
            return self.sem_err_at(type_at, "expected LLVM dialect-compatible type");
        }
        let i1 = self.m.ctx.intern_type(TypeData::signless(1));
        let result = match self.m.ctx.ty(ty).clone() {
            TypeData::Vector {
                shape, scalable, ..
            } => {
                let n: i64 = shape.iter().product();
                let scalable = if scalable.iter().any(|&s| s) {
                    vec![true]
                } else {
                    Vec::new()
                };
                self.m.ctx.intern_type(TypeData::Vector {
                    shape: vec![n],
                    scalable,
                    elem: i1,
                })
            }
            _ => i1,
        };
        self.finish_hand_written(
            syn,
            &operands,
            &[result],
            vec![(b"predicate"[..].into(), value)],
            attrs,
            Vec::new(),
            name_at,
            results_start,
        )
    }
}
