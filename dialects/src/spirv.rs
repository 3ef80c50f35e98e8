//! The spirv dialect's types and attributes written by hand, respelled the
//! way MLIR 22 prints them (SPEC.md §2.4). mlir-opt parses a spirv type or
//! attribute into its parameters and prints it again, so the spelling in a
//! test file does not survive: `!spirv.array<4xf32>` prints as
//! `!spirv.array<4 x f32>`, `!spirv.ptr<f32,Uniform>` as `!spirv.ptr<f32,
//! Uniform>`, and a `#spirv.target_env<…>` split over lines prints on one.
//! Without this hook the text parser would keep those bodies as written
//! and print them unlike mlir-opt.
//!
//! Each kind has a grammar taken from MLIR 22's parser and printer
//! (`SPIRVDialect.cpp` for the types, `SPIRVAttributes.cpp` for
//! `target_env`, `vce` and `interface_var_abi`, the ODS formats of
//! `SPIRVAttributes.td` and `SPIRVBase.td` for the others), checked against
//! mlir-opt 22. Nested `!…`/`#…` values are separate body pieces and are
//! kept as they are (they were respelled when they were read); builtin
//! types written inside the text (`f32`, `vector< 4 x f32 >`) are read and
//! printed again. A body that a grammar does not cover (an element type
//! that is not an integer, float or vector of them, a struct member with
//! more than one decoration, typed integers in a `resource_limits` array,
//! a string that is not a plain keyword where MLIR reads a keyword or a
//! string) is left as written, as is any kind not listed here.

use rmlir_format::dialect_encodings::BodyInterner;
use rmlir_format::dialect_hooks::BytecodeDialect;
use rmlir_format::BodyPiece;

/// The spirv dialect's hooks: text respelling only (its attributes and
/// types go into bytecode as text, as mlir-opt writes them).
pub struct Spirv;

impl BytecodeDialect for Spirv {
    fn name(&self) -> &str {
        "spirv"
    }

    fn respell_body(
        &self,
        _space: &mut dyn BodyInterner,
        is_attr: bool,
        pieces: &[BodyPiece],
    ) -> Option<Vec<BodyPiece>> {
        respell(is_attr, pieces)
    }
}

/// The body mlir-opt 22 prints for the spirv attribute (`is_attr`) or type
/// read as `pieces`, or `None` when it is printed as written or not
/// understood.
pub fn respell(is_attr: bool, pieces: &[BodyPiece]) -> Option<Vec<BodyPiece>> {
    let mut c = Cursor {
        pieces,
        i: 0,
        off: 0,
    };
    let mut out = Out::default();
    let kind = c.ident()?;
    out.text(kind);
    if is_attr {
        match kind {
            "vce" => vce(&mut c, &mut out)?,
            "target_env" => target_env(&mut c, &mut out)?,
            "resource_limits" => resource_limits(&mut c, &mut out)?,
            "entry_point_abi" => entry_point_abi(&mut c, &mut out)?,
            "interface_var_abi" => interface_var_abi(&mut c, &mut out)?,
            "linkage_attributes" => linkage_attributes(&mut c, &mut out)?,
            k if ENUM_KINDS.contains(&k) => enum_value(&mut c, &mut out)?,
            k => {
                let (_, flags) = BIT_ENUM_KINDS.iter().find(|(n, _)| *n == k)?;
                bit_enum_value(&mut c, &mut out, flags)?;
            }
        }
    } else {
        match kind {
            "array" => array(&mut c, &mut out, true)?,
            "matrix" => array(&mut c, &mut out, false)?,
            "rtarray" => rtarray(&mut c, &mut out)?,
            "ptr" => ptr(&mut c, &mut out)?,
            "coopmatrix" => coopmatrix(&mut c, &mut out)?,
            "image" => image(&mut c, &mut out)?,
            "sampled_image" => {
                c.expect('<')?;
                out.text("<");
                element_type(&mut c, &mut out)?;
                c.expect('>')?;
                out.text(">");
            }
            "struct" => structure(&mut c, &mut out)?,
            _ => return None,
        }
    }
    if !c.at_end() {
        return None;
    }
    (out.pieces != pieces).then_some(out.pieces)
}

/// Attribute kinds of the form `<$value>` for an `I32EnumAttr`
/// (`SPIRV_I32EnumAttr` in `SPIRVBase.td`): one keyword.
const ENUM_KINDS: &[&str] = &[
    "addressing_model",
    "built_in",
    "capability",
    "client_api",
    "coop_matrix_layout_khr",
    "coop_matrix_use_khr",
    "decoration",
    "device_type",
    "dim",
    "execution_mode",
    "execution_model",
    "ext",
    "fp_rounding_mode",
    "group_operation",
    "image_arrayed_info",
    "image_depth_info",
    "image_format",
    "image_sampler_use_info",
    "image_sampling_info",
    "linkage_type",
    "load_cache_control",
    "memory_model",
    "opcode",
    "packed_vector_format",
    "scope",
    "storage_class",
    "store_cache_control",
    "vendor",
    "version",
];

/// Attribute kinds of the form `<$value>` for a bit enum
/// (`SPIRV_BitEnumAttr`): flags joined by `|`, read in any order and
/// printed by MLIR 22's `stringify…` in this order (`None` when no flag
/// is set). Every flag is one bit.
const BIT_ENUM_KINDS: &[(&str, &[(&str, u32)])] = &[
    (
        "function_control",
        &[
            ("Inline", 1),
            ("DontInline", 2),
            ("Pure", 4),
            ("Const", 8),
            ("OptNoneINTEL", 65536),
        ],
    ),
    (
        "image_operands",
        &[
            ("Bias", 1),
            ("Lod", 2),
            ("Grad", 4),
            ("ConstOffset", 8),
            ("Offset", 16),
            ("ConstOffsets", 32),
            ("Sample", 64),
            ("MinLod", 128),
            ("MakeTexelAvailable", 256),
            ("MakeTexelVisible", 512),
            ("NonPrivateTexel", 1024),
            ("VolatileTexel", 2048),
            ("SignExtend", 4096),
            ("Offsets", 65536),
            ("ZeroExtend", 8192),
            ("Nontemporal", 16384),
        ],
    ),
    (
        "loop_control",
        &[
            ("Unroll", 1),
            ("DontUnroll", 2),
            ("DependencyInfinite", 4),
            ("DependencyLength", 8),
            ("MinIterations", 16),
            ("MaxIterations", 32),
            ("IterationMultiple", 64),
            ("PeelCount", 128),
            ("PartialCount", 256),
            ("InitiationIntervalINTEL", 65536),
            ("LoopCoalesceINTEL", 1048576),
            ("MaxConcurrencyINTEL", 131072),
            ("MaxInterleavingINTEL", 2097152),
            ("DependencyArrayINTEL", 262144),
            ("SpeculatedIterationsINTEL", 4194304),
            ("PipelineEnableINTEL", 524288),
            ("NoFusionINTEL", 8388608),
        ],
    ),
    (
        "memory_access",
        &[
            ("Volatile", 1),
            ("Aligned", 2),
            ("Nontemporal", 4),
            ("MakePointerAvailable", 8),
            ("MakePointerVisible", 16),
            ("NonPrivatePointer", 32),
            ("AliasScopeINTELMask", 65536),
            ("NoAliasINTELMask", 131072),
        ],
    ),
    (
        "memory_semantics",
        &[
            ("Acquire", 2),
            ("Release", 4),
            ("AcquireRelease", 8),
            ("SequentiallyConsistent", 16),
            ("UniformMemory", 64),
            ("SubgroupMemory", 128),
            ("WorkgroupMemory", 256),
            ("CrossWorkgroupMemory", 512),
            ("AtomicCounterMemory", 1024),
            ("ImageMemory", 2048),
            ("OutputMemory", 4096),
            ("MakeAvailable", 8192),
            ("MakeVisible", 16384),
            ("Volatile", 32768),
        ],
    ),
    ("selection_control", &[("Flatten", 1), ("DontFlatten", 2)]),
    (
        "cooperative_matrix_operands_khr",
        &[
            ("ASigned", 1),
            ("BSigned", 2),
            ("CSigned", 4),
            ("ResultSigned", 8),
            ("AccSat", 16),
        ],
    ),
    (
        "fastmath_mode",
        &[
            ("NotNaN", 1),
            ("NotInf", 2),
            ("NSZ", 4),
            ("AllowRecip", 8),
            ("Fast", 16),
            ("AllowContractFastINTEL", 65536),
            ("AllowReassocINTEL", 131072),
        ],
    ),
];

/// `ResourceLimitsAttr`'s parameters in the order the printer writes them,
/// with the default of each `int` parameter (left out when equal).
const RESOURCE_LIMITS: &[(&str, Limit)] = &[
    ("max_compute_shared_memory_size", Limit::Int(Some(16384))),
    ("max_compute_workgroup_invocations", Limit::Int(Some(128))),
    ("max_compute_workgroup_size", Limit::IntArray),
    ("subgroup_size", Limit::Int(Some(32))),
    ("min_subgroup_size", Limit::Int(None)),
    ("max_subgroup_size", Limit::Int(None)),
    ("cooperative_matrix_properties_khr", Limit::AttrArray),
    ("cooperative_matrix_properties_nv", Limit::AttrArray),
];

/// The kind of a `resource_limits` parameter.
#[derive(Clone, Copy)]
enum Limit {
    /// An `int`, left out when equal to its default.
    Int(Option<i64>),
    /// An array of untyped integers (`i64` elements: never the `i32`
    /// default, so always printed).
    IntArray,
    /// An array of nested attributes.
    AttrArray,
}

/// A position in a body: piece `i`, byte `off` of it when it is text.
struct Cursor<'a> {
    pieces: &'a [BodyPiece],
    i: usize,
    off: usize,
}

impl<'a> Cursor<'a> {
    /// The rest of the current text piece (moving past finished ones), or
    /// `None` at a nested piece or the end.
    fn rest(&mut self) -> Option<&'a str> {
        loop {
            match self.pieces.get(self.i)? {
                BodyPiece::Text(t) => {
                    let t: &'a str = t;
                    match t.get(self.off..) {
                        Some(r) if !r.is_empty() => return Some(r),
                        Some(_) => {
                            self.i += 1;
                            self.off = 0;
                        }
                        None => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    /// Skips whitespace and `//` comments, as MLIR's lexer does.
    fn skip_ws(&mut self) {
        while let Some(r) = self.rest() {
            let trimmed = r.trim_start_matches([' ', '\t', '\n', '\r']);
            if let Some(comment) = trimmed.strip_prefix("//") {
                let len = comment.find('\n').map_or(comment.len(), |n| n + 1);
                self.off += r.len() - comment.len() + len;
            } else if trimmed.len() < r.len() {
                self.off += r.len() - trimmed.len();
            } else {
                return;
            }
        }
    }

    /// The next character after whitespace, if it is text.
    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.rest()?.chars().next()
    }

    /// Consumes `ch` after whitespace.
    fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.off += ch.len_utf8();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, ch: char) -> Option<()> {
        self.eat(ch).then_some(())
    }

    /// A bare identifier, `[a-zA-Z_][a-zA-Z0-9_$.]*`.
    fn ident(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let r = self.rest()?;
        if !r.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            return None;
        }
        let len = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
            .unwrap_or(r.len());
        self.off += len;
        r.get(..len)
    }

    /// The identifier `word`, if it comes next.
    fn eat_word(&mut self, word: &str) -> bool {
        let (i, off) = (self.i, self.off);
        if self.ident() == Some(word) {
            return true;
        }
        (self.i, self.off) = (i, off);
        false
    }

    /// Decimal digits, not followed by an identifier character unless
    /// `dimension` (`4xf32`, where MLIR lexes `4` then `xf32`).
    fn digits(&mut self, dimension: bool) -> Option<u64> {
        self.skip_ws();
        let r = self.rest()?;
        let len = r.find(|c: char| !c.is_ascii_digit()).unwrap_or(r.len());
        let digits = r.get(..len).filter(|d| !d.is_empty())?;
        let next = r.get(len..).and_then(|n| n.chars().next());
        match next {
            // `0x…` is a hexadecimal literal to MLIR's lexer.
            Some('x') if dimension && digits != "0" => {}
            Some(c) if c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.') => return None,
            _ => {}
        }
        self.off += len;
        digits.parse().ok()
    }

    /// An integer as `parseInteger` reads it: optional `-`, decimal or
    /// `0x` hexadecimal.
    fn integer(&mut self) -> Option<i64> {
        let negative = self.eat('-');
        let r = self.rest()?;
        let value = if let Some(hex) = r.strip_prefix("0x") {
            let len = hex
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(hex.len());
            let h = hex.get(..len).filter(|h| !h.is_empty())?;
            if hex
                .get(len..)
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
            {
                return None;
            }
            self.off += 2 + len;
            i64::from_str_radix(h, 16).ok()?
        } else {
            i64::try_from(self.digits(false)?).ok()?
        };
        Some(if negative { -value } else { value })
    }

    /// An integer within `i32` (MLIR's `int` and `uint32_t` parameters).
    fn int32(&mut self) -> Option<i64> {
        self.integer().filter(|v| i32::try_from(*v).is_ok())
    }

    /// A nested attribute or type piece.
    fn nested(&mut self) -> Option<BodyPiece> {
        self.skip_ws();
        let _ = self.rest();
        match self.pieces.get(self.i)? {
            BodyPiece::Text(_) => None,
            p => {
                self.i += 1;
                self.off = 0;
                Some(p.clone())
            }
        }
    }

    /// A string literal, as written (the text parser has re-escaped it).
    fn string(&mut self) -> Option<&'a str> {
        self.skip_ws();
        let r = self.rest()?;
        let body = r.strip_prefix('"')?;
        let mut escaped = false;
        for (n, c) in body.char_indices() {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => {
                    self.off += n + 2;
                    return r.get(..n + 2);
                }
                '\n' => return None,
                _ => escaped = false,
            }
        }
        None
    }

    /// A keyword, or a string literal without escapes holding one
    /// (`parseKeywordOrString`).
    fn keyword_or_string(&mut self) -> Option<&'a str> {
        if self.peek() == Some('"') {
            let s = self.string()?;
            let inner = s.get(1..s.len().checked_sub(1)?)?;
            return (!inner.contains('\\')).then_some(inner);
        }
        self.ident()
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.rest().is_none() && self.i >= self.pieces.len()
    }
}

/// The respelled body, adjacent text merged into one piece as the text
/// parser splits bodies.
#[derive(Default)]
struct Out {
    pieces: Vec<BodyPiece>,
}

impl Out {
    fn text(&mut self, s: &str) {
        if let Some(BodyPiece::Text(t)) = self.pieces.last_mut() {
            let mut joined = String::from(&**t);
            joined.push_str(s);
            *t = joined.into();
        } else if !s.is_empty() {
            self.pieces.push(BodyPiece::Text(s.into()));
        }
    }

    fn piece(&mut self, p: BodyPiece) {
        self.pieces.push(p);
    }
}

/// Float types MLIR's lexer knows by name.
const FLOAT_TYPES: &[&str] = &[
    "f16",
    "bf16",
    "f32",
    "tf32",
    "f64",
    "f80",
    "f128",
    "f4E2M1FN",
    "f6E2M3FN",
    "f6E3M2FN",
    "f8E5M2",
    "f8E4M3",
    "f8E4M3FN",
    "f8E5M2FNUZ",
    "f8E4M3FNUZ",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f8E8M0FNU",
];

/// `iN`, `siN`, `uiN`, a float type or `index`, as MLIR prints them.
fn scalar_type(name: &str) -> bool {
    let width = name
        .strip_prefix("si")
        .or_else(|| name.strip_prefix("ui"))
        .or_else(|| name.strip_prefix('i'));
    match width {
        Some(w) => {
            !w.is_empty()
                && !w.starts_with('0')
                && w.len() <= 8
                && w.bytes().all(|b| b.is_ascii_digit())
        }
        None => name == "index" || FLOAT_TYPES.contains(&name),
    }
}

/// A type: a nested piece, a scalar type, or a vector of scalars with
/// static sizes (`vector<4x2xf32>`).
fn element_type(c: &mut Cursor, out: &mut Out) -> Option<()> {
    if let Some(p) = c.nested() {
        return match p {
            BodyPiece::Type(_) => {
                out.piece(p);
                Some(())
            }
            _ => None,
        };
    }
    let name = c.ident()?;
    if scalar_type(name) {
        out.text(name);
        return Some(());
    }
    if name != "vector" {
        return None;
    }
    c.expect('<')?;
    let mut s = String::from("vector<");
    loop {
        let d = c.digits(true)?;
        c.expect('x')?;
        s += &format!("{d}x");
        if !c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            break;
        }
    }
    let elem = c.ident().filter(|e| scalar_type(e))?;
    c.expect('>')?;
    s += elem;
    s.push('>');
    out.text(&s);
    Some(())
}

/// `, stride = N`, printed `, stride=N` (a stride of 0 is an error).
fn optional_stride(c: &mut Cursor, out: &mut Out) -> Option<()> {
    if c.eat(',') {
        if !c.eat_word("stride") {
            return None;
        }
        c.expect('=')?;
        let s = c.int32().filter(|s| *s > 0)?;
        out.text(&format!(", stride={s}"));
    }
    Some(())
}

/// `array<N x T[, stride=S]>`, or `matrix<N x T>` (`!stride`).
fn array(c: &mut Cursor, out: &mut Out, stride: bool) -> Option<()> {
    c.expect('<')?;
    let n = c.digits(true)?;
    c.expect('x')?;
    out.text(&format!("<{n} x "));
    element_type(c, out)?;
    if stride {
        optional_stride(c, out)?;
    }
    c.expect('>')?;
    out.text(">");
    Some(())
}

/// `rtarray<T[, stride=S]>`.
fn rtarray(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    out.text("<");
    element_type(c, out)?;
    optional_stride(c, out)?;
    c.expect('>')?;
    out.text(">");
    Some(())
}

/// `ptr<T, StorageClass>`.
fn ptr(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    out.text("<");
    element_type(c, out)?;
    c.expect(',')?;
    let class = c.ident()?;
    c.expect('>')?;
    out.text(&format!(", {class}>"));
    Some(())
}

/// `coopmatrix<RxCxT, Scope, Use>`.
fn coopmatrix(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    let rows = c.digits(true)?;
    c.expect('x')?;
    let columns = c.digits(true)?;
    c.expect('x')?;
    out.text(&format!("<{rows}x{columns}x"));
    element_type(c, out)?;
    c.expect(',')?;
    let scope = c.ident()?;
    c.expect(',')?;
    let usage = c.ident()?;
    c.expect('>')?;
    out.text(&format!(", {scope}, {usage}>"));
    Some(())
}

/// `image<T, Dim, Depth, Arrayed, Sampling, SamplerUse, Format>`.
fn image(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    out.text("<");
    element_type(c, out)?;
    for _ in 0..6 {
        c.expect(',')?;
        let k = c.ident()?;
        out.text(&format!(", {k}"));
    }
    c.expect('>')?;
    out.text(">");
    Some(())
}

/// `struct<[id, ](T [offset, Decoration=V], …)>` or `struct<id>`.
fn structure(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    out.text("<");
    if c.peek() != Some('(') {
        let id = c.ident()?;
        out.text(id);
        if c.eat('>') {
            out.text(">");
            return Some(());
        }
        c.expect(',')?;
        out.text(", ");
    }
    c.expect('(')?;
    out.text("(");
    if !c.eat(')') {
        loop {
            element_type(c, out)?;
            if c.eat('[') {
                member_decorations(c, out)?;
            }
            if c.eat(')') {
                break;
            }
            c.expect(',')?;
            out.text(", ");
        }
    }
    c.expect('>')?;
    out.text(")>");
    Some(())
}

/// A member's `[offset, Decoration, Decoration=V]` after its `[`: an
/// offset and at most one decoration (MLIR keeps several in its own
/// order, which is not reproduced here).
fn member_decorations(c: &mut Cursor, out: &mut Out) -> Option<()> {
    let mut items = Vec::new();
    if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
        items.push(c.int32().filter(|v| *v >= 0)?.to_string());
        if !c.eat(',') {
            c.expect(']')?;
            out.text(&format!(" [{}]", items.join(", ")));
            return Some(());
        }
    }
    let name = c.ident()?;
    if c.eat('=') {
        let v = c.int32().filter(|v| *v >= 0)?;
        items.push(format!("{name}={v}"));
    } else {
        items.push(name.to_string());
    }
    c.expect(']')?;
    out.text(&format!(" [{}]", items.join(", ")));
    Some(())
}

/// `[a, b]` of identifiers.
fn ident_list(c: &mut Cursor) -> Option<String> {
    c.expect('[')?;
    let mut items = Vec::new();
    if !c.eat(']') {
        loop {
            items.push(c.ident()?);
            if c.eat(']') {
                break;
            }
            c.expect(',')?;
        }
    }
    Some(format!("[{}]", items.join(", ")))
}

/// `vce<version, [capabilities], [extensions]>`.
fn vce(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    let version = c.ident()?;
    c.expect(',')?;
    let caps = ident_list(c)?;
    c.expect(',')?;
    let exts = ident_list(c)?;
    c.expect('>')?;
    out.text(&format!("<{version}, {caps}, {exts}>"));
    Some(())
}

/// `target_env<#spirv.vce<…>[, api=API][, Vendor[:Type[:id]]],
/// #spirv.resource_limits<…>>`; unknown values are not printed.
fn target_env(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    out.text("<");
    out.piece(c.nested().filter(|p| matches!(p, BodyPiece::Attr(_)))?);
    c.expect(',')?;
    if c.eat_word("api") {
        c.expect('=')?;
        let api = c.ident()?;
        c.expect(',')?;
        if api != "Unknown" {
            out.text(&format!(", api={api}"));
        }
    }
    if let Some(vendor) = c.ident() {
        let mut device_type = "Unknown";
        let mut device_id = None;
        if c.eat(':') {
            device_type = c.ident()?;
            if c.eat(':') {
                let id = c.integer().and_then(|v| u32::try_from(v).ok())?;
                device_id = Some(id);
            }
        }
        c.expect(',')?;
        if vendor != "Unknown" {
            out.text(&format!(", {vendor}"));
            if device_type != "Unknown" {
                out.text(&format!(":{device_type}"));
                // `kUnknownDeviceID`.
                if let Some(id) = device_id.filter(|id| *id != 0x7FFF_FFFF) {
                    out.text(&format!(":{id}"));
                }
            }
        }
    }
    out.text(", ");
    out.piece(c.nested().filter(|p| matches!(p, BodyPiece::Attr(_)))?);
    c.expect('>')?;
    out.text(">");
    Some(())
}

/// The `key = value` entries of an ODS `struct(params)` format, each key
/// once; `value` reads one value (after the `=`) into its own output.
fn struct_params(
    c: &mut Cursor,
    keys: &[&str],
    mut value: impl FnMut(&mut Cursor, usize, &mut Out) -> Option<()>,
) -> Option<Vec<Option<Out>>> {
    c.expect('<')?;
    let mut values: Vec<Option<Out>> = keys.iter().map(|_| None).collect();
    if c.eat('>') {
        return Some(values);
    }
    loop {
        let key = c.ident()?;
        let at = keys.iter().position(|k| *k == key)?;
        c.expect('=')?;
        let mut v = Out::default();
        value(c, at, &mut v)?;
        let slot = values.get_mut(at)?;
        if slot.is_some() {
            return None;
        }
        *slot = Some(v);
        if c.eat('>') {
            return Some(values);
        }
        c.expect(',')?;
    }
}

/// Writes the entries that are present, in `keys` order: `<k = v, …>`.
fn print_params(out: &mut Out, keys: &[&str], values: Vec<Option<Out>>) {
    out.text("<");
    let mut first = true;
    for (key, v) in keys.iter().zip(values) {
        let Some(v) = v else { continue };
        if !first {
            out.text(", ");
        }
        first = false;
        out.text(&format!("{key} = "));
        for p in v.pieces {
            match p {
                BodyPiece::Text(t) => out.text(&t),
                p => out.piece(p),
            }
        }
    }
    out.text(">");
}

/// `[1, 2, 3]` of integers within `i32` (untyped).
fn int_list(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('[')?;
    let mut items = Vec::new();
    if !c.eat(']') {
        loop {
            items.push(c.int32()?.to_string());
            if c.eat(']') {
                break;
            }
            c.expect(',')?;
        }
    }
    out.text(&format!("[{}]", items.join(", ")));
    Some(())
}

/// `resource_limits<k = v, …>`: parameters in declaration order, `int`s
/// equal to their default left out.
fn resource_limits(c: &mut Cursor, out: &mut Out) -> Option<()> {
    let keys: Vec<&str> = RESOURCE_LIMITS.iter().map(|(k, _)| *k).collect();
    let mut dropped = vec![false; keys.len()];
    let values = struct_params(c, &keys, |c, at, v| {
        match RESOURCE_LIMITS.get(at)?.1 {
            Limit::Int(default) => {
                let n = c.int32()?;
                if Some(n) == default {
                    *dropped.get_mut(at)? = true;
                }
                v.text(&n.to_string());
            }
            Limit::IntArray => int_list(c, v)?,
            Limit::AttrArray => {
                c.expect('[')?;
                v.text("[");
                if !c.eat(']') {
                    loop {
                        v.piece(c.nested().filter(|p| matches!(p, BodyPiece::Attr(_)))?);
                        if c.eat(']') {
                            break;
                        }
                        c.expect(',')?;
                        v.text(", ");
                    }
                }
                v.text("]");
            }
        }
        Some(())
    })?;
    let values = values
        .into_iter()
        .zip(dropped)
        .map(|(v, d)| v.filter(|_| !d))
        .collect();
    print_params(out, &keys, values);
    Some(())
}

/// `entry_point_abi<workgroup_size = [x, y, z], subgroup_size = n,
/// target_width = w>`, the parameters present in that order.
fn entry_point_abi(c: &mut Cursor, out: &mut Out) -> Option<()> {
    let keys = ["workgroup_size", "subgroup_size", "target_width"];
    let values = struct_params(c, &keys, |c, at, v| {
        if at == 0 {
            int_list(c, v)
        } else {
            v.text(&c.int32()?.to_string());
            Some(())
        }
    })?;
    print_params(out, &keys, values);
    Some(())
}

/// `linkage_attributes<linkage_name = "…", linkage_type = <Kind>>`.
fn linkage_attributes(c: &mut Cursor, out: &mut Out) -> Option<()> {
    let keys = ["linkage_name", "linkage_type"];
    let values = struct_params(c, &keys, |c, at, v| {
        if at == 0 {
            v.text(c.string()?);
        } else {
            c.expect('<')?;
            let kind = c.ident()?;
            c.expect('>')?;
            v.text(&format!("<{kind}>"));
        }
        Some(())
    })?;
    if values.iter().any(Option::is_none) {
        return None;
    }
    print_params(out, &keys, values);
    Some(())
}

/// `interface_var_abi<(set, binding)[, StorageClass]>`.
fn interface_var_abi(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    c.expect('(')?;
    let set = c.integer().and_then(|v| u32::try_from(v).ok())?;
    c.expect(',')?;
    let binding = c.integer().and_then(|v| u32::try_from(v).ok())?;
    c.expect(')')?;
    out.text(&format!("<({set}, {binding})"));
    if c.eat(',') {
        let class = c.ident()?;
        out.text(&format!(", {class}"));
    }
    c.expect('>')?;
    out.text(">");
    Some(())
}

/// `<Value>` of an enum attribute: one keyword (or string).
fn enum_value(c: &mut Cursor, out: &mut Out) -> Option<()> {
    c.expect('<')?;
    let v = c.keyword_or_string()?;
    c.expect('>')?;
    out.text(&format!("<{v}>"));
    Some(())
}

/// `<Flag|Flag>` of a bit enum attribute: the flags read (`None` is no
/// flag) and printed in `flags` order.
fn bit_enum_value(c: &mut Cursor, out: &mut Out, flags: &[(&str, u32)]) -> Option<()> {
    c.expect('<')?;
    let mut value = 0;
    loop {
        let name = c.keyword_or_string()?;
        if name != "None" {
            value |= flags.iter().find(|(n, _)| *n == name)?.1;
        }
        if !c.eat('|') {
            break;
        }
    }
    c.expect('>')?;
    let names: Vec<&str> = flags
        .iter()
        .filter(|(_, bit)| value & bit != 0)
        .map(|(n, _)| *n)
        .collect();
    let names = if names.is_empty() {
        "None".to_string()
    } else {
        names.join("|")
    };
    out.text(&format!("<{names}>"));
    Some(())
}

#[cfg(test)]
mod tests {
    use super::respell;
    use rmlir_format::{AttrId, BodyPiece, TypeId};

    fn text(s: &str) -> BodyPiece {
        BodyPiece::Text(s.into())
    }

    fn one(is_attr: bool, s: &str) -> Option<String> {
        respell(is_attr, &[text(s)]).map(|p| match p.as_slice() {
            [BodyPiece::Text(t)] => t.to_string(),
            other => panic!("pieces {other:?}"),
        })
    }

    /// Expected spellings are mlir-opt 22's prints of the same bodies
    /// (checked by hand with `--mlir-print-op-generic`); `None` where the
    /// body is printed as written or is left as written.
    #[test]
    fn respells_as_mlir_opt_prints() {
        let types = [
            ("array<4xf32>", Some("array<4 x f32>")),
            (
                "array< 32 x vector<4xf32> >",
                Some("array<32 x vector<4xf32>>"),
            ),
            (
                "array< 4 x f32 , stride = 8 >",
                Some("array<4 x f32, stride=8>"),
            ),
            (
                "array<4 x vector< 4 x f32 >>",
                Some("array<4 x vector<4xf32>>"),
            ),
            ("array<04 x f32>", Some("array<4 x f32>")),
            ("array<4 x f32>", None),
            ("array<0x4 x f32>", None),
            ("array<4x4xf32>", None),
            ("rtarray< vector<4xf32> >", Some("rtarray<vector<4xf32>>")),
            (
                "rtarray< f32 , stride = 4 >",
                Some("rtarray<f32, stride=4>"),
            ),
            (
                "ptr<vector<4xi32>,PushConstant>",
                Some("ptr<vector<4xi32>, PushConstant>"),
            ),
            ("matrix<3xvector<3xf32>>", Some("matrix<3 x vector<3xf32>>")),
            (
                "coopmatrix< 8 x 16 x f32 , Subgroup , MatrixA >",
                Some("coopmatrix<8x16xf32, Subgroup, MatrixA>"),
            ),
            (
                "image< f32 , Dim1D , NoDepth , NonArrayed , SingleSampled , NoSampler , Unknown >",
                Some("image<f32, Dim1D, NoDepth, NonArrayed, SingleSampled, NoSampler, Unknown>"),
            ),
            ("struct< ( f32 , i32 ) >", Some("struct<(f32, i32)>")),
            ("struct< ( ) >", Some("struct<()>")),
            ("struct<(i8[0], i32[4])>", Some("struct<(i8 [0], i32 [4])>")),
            (
                "struct<(f32 [0, NonWritable], i32 [4, Offset = 4])>",
                Some("struct<(f32 [0, NonWritable], i32 [4, Offset=4])>"),
            ),
            ("struct< foo , ( f32 ) >", Some("struct<foo, (f32)>")),
            ("struct<(f32 [0, NonWritable, NonReadable])>", None),
            ("array<4 x tensor<4xf32>>", None),
        ];
        for (body, expected) in types {
            assert_eq!(one(false, body).as_deref(), expected, "{body}");
        }
        let attrs = [
            ("vce< v1.0 , [ Shader , Int8 ] , [ ] >", Some("vce<v1.0, [Shader, Int8], []>")),
            (
                "vce<v1.0,\n   [A],\n   [B]>",
                Some("vce<v1.0, [A], [B]>"),
            ),
            (
                "resource_limits< subgroup_size = 16 , max_compute_shared_memory_size = 100 >",
                Some("resource_limits<max_compute_shared_memory_size = 100, subgroup_size = 16>"),
            ),
            (
                "resource_limits<\n max_compute_workgroup_invocations = 128,\n max_compute_workgroup_size = [128, 128, 64]>",
                Some("resource_limits<max_compute_workgroup_size = [128, 128, 64]>"),
            ),
            ("resource_limits<subgroup_size = 0x10>", Some("resource_limits<subgroup_size = 16>")),
            ("resource_limits<max_compute_workgroup_size = [128 : i32]>", None),
            (
                "entry_point_abi<subgroup_size = 16, workgroup_size = [1,2,3]>",
                Some("entry_point_abi<workgroup_size = [1, 2, 3], subgroup_size = 16>"),
            ),
            (
                "interface_var_abi< ( 1 , 2 ) , StorageBuffer >",
                Some("interface_var_abi<(1, 2), StorageBuffer>"),
            ),
            ("storage_class< StorageBuffer >", Some("storage_class<StorageBuffer>")),
            ("memory_access<Aligned|Volatile>", Some("memory_access<Volatile|Aligned>")),
            ("memory_access< Volatile | Aligned >", Some("memory_access<Volatile|Aligned>")),
            ("memory_access<Volatile|Aligned>", None),
            ("memory_access<None|Volatile>", Some("memory_access<Volatile>")),
            ("fastmath_mode<NSZ|NotInf>", Some("fastmath_mode<NotInf|NSZ>")),
            ("memory_access<Aligned|Bogus>", None),
            (
                "linkage_attributes<linkage_type = <Import>, linkage_name = \"a\">",
                Some("linkage_attributes<linkage_name = \"a\", linkage_type = <Import>>"),
            ),
            ("unknown_kind< x >", None),
        ];
        for (body, expected) in attrs {
            assert_eq!(one(true, body).as_deref(), expected, "{body}");
        }
    }

    /// Nested values stay pieces; the text around them is respelled.
    #[test]
    fn keeps_nested_pieces() {
        let (vce, limits) = (BodyPiece::Attr(AttrId(1)), BodyPiece::Attr(AttrId(2)));
        let body = [
            text("target_env<\n    "),
            vce.clone(),
            text(" , api = Vulkan , NVIDIA : DiscreteGPU : 12 , "),
            limits.clone(),
            text(">"),
        ];
        let expected = vec![
            text("target_env<"),
            vce.clone(),
            text(", api=Vulkan, NVIDIA:DiscreteGPU:12, "),
            limits.clone(),
            text(">"),
        ];
        assert_eq!(respell(true, &body), Some(expected));
        let unknown = [
            text("target_env<"),
            vce.clone(),
            text(", api=Unknown, AMD:Unknown:3, "),
            limits.clone(),
            text(">"),
        ];
        let expected = vec![text("target_env<"), vce, text(", AMD, "), limits, text(">")];
        assert_eq!(respell(true, &unknown), Some(expected));
        let elem = BodyPiece::Type(TypeId(3));
        let body = [text("array< 4 x "), elem.clone(), text(", stride = 128>")];
        let expected = vec![text("array<4 x "), elem, text(", stride=128>")];
        assert_eq!(respell(false, &body), Some(expected));
    }

    /// Bodies cut short or holding stray characters are left as written.
    #[test]
    fn bad_bodies_are_kept() {
        for body in [
            "",
            "array",
            "array<",
            "array<4",
            "array<4 x",
            "ptr<f32,",
            "struct<(f32 [",
            "vce<v1.0, [A",
            "resource_limits<subgroup_size = 99999999999>",
            "linkage_attributes<linkage_name = \"a",
            "target_env<",
            "array<4 x f32>>",
            "array<4 x \u{e9}>",
        ] {
            assert_eq!(respell(false, &[text(body)]), None, "{body}");
            assert_eq!(respell(true, &[text(body)]), None, "{body}");
        }
    }
}
