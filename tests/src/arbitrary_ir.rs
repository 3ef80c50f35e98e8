//! Random IR for differential tests: modules of unregistered ops (dialects
//! `mlir-opt` does not know, so it neither verifies nor re-prints them in a
//! custom way) that carry every kind of builtin type, attribute and location
//! of the IR model, built from an [`arbitrary::Unstructured`].
//!
//! By default everything generated is *canonical*: it is exactly what MLIR
//! would hold after parsing its own printed text, so that printing it,
//! parsing the text with `mlir-opt` and printing again gives the same bytes.
//! Where MLIR folds several representations into one (fused locations, float
//! values the text cannot carry exactly, affine expressions, splat
//! detection, ...) the generator applies the same folding; the list is in
//! the doc comment of `tests/tests/text_arbitrary.rs`. With
//! [`GenConfig::canonical`] false it also makes forms that reading text
//! folds, to compare our parser's folding with mlir-opt's.
//!
//! The `GEN_*` constants below switch on cases that expose known divergences
//! from mlir-opt; each says what goes wrong. They are off so that the tests
//! pass; switch one on to reproduce its divergence.
//!
//! Generation is deterministic: the same bytes give the same module.

use arbitrary::Unstructured;
use rmlir_format::affine::{AffineExpr, AffineMap, IntegerSet};
use rmlir_format::float::{self, FloatKind};
use rmlir_format::*;
use std::ops::{Add, Shl, Sub};

/// Generate `FileLineColRange` locations with only a start line
/// (`loc("f":3)`); mlir-opt prints them as `loc("f":3:0)`, and so do we
/// (this divergence was found by this generator and fixed).
pub const GEN_RANGE_WITHOUT_COLUMN: bool = true;

/// Generate `FileLineColRange` locations whose end equals their start
/// (`loc("f":3:4 to :4)`), printed as a point like mlir-opt does (found by
/// this generator and fixed).
pub const GEN_POINT_RANGE: bool = true;

/// Keep `f80`/`f128` elements of `dense<..>`/`array<..>` beyond `f64`'s
/// range as they are. Off: such values are not canonical (mlir-opt reads
/// their decimal text through a `double` as infinity, as our parser now
/// does too, a divergence this generator found); the non-canonical test
/// covers reading them.
pub const GEN_DENSE_FLOAT_BEYOND_F64: bool = false;

/// Keep fused locations unfolded (empty, single, unknown or duplicate
/// members, nested). Off: they are not canonical; both parsers now fold
/// them as MLIR's `FusedLoc::get` does (the fold was missing in ours until
/// this generator found it).
pub const GEN_UNFOLDED_FUSED_LOC: bool = false;

/// Generate `file:line:col` locations with an empty file name; mlir-opt
/// prints them as `loc("-":1:2)` and so do we (found by this generator,
/// fixed).
pub const GEN_EMPTY_FILE_POINT_LOC: bool = true;

/// Generate empty resource blobs; mlir-opt prints them with alignment 0
/// and reads `"0x00000000"` back, as we now do (found by this generator,
/// fixed).
pub const GEN_EMPTY_BLOB: bool = true;

/// Generate dense string elements printed as one string starting with
/// `0x` (`dense<"0x12"> : tensor<!foo.s>`), which MLIR keeps as a string
/// for non-numeric element types, as we now do (found by this generator,
/// fixed).
pub const GEN_HEX_LIKE_DENSE_STRING: bool = true;

/// Dialects that mlir-opt does not register.
const DIALECTS: &[&str] = &["foo", "bar", "xdial", "zz9", "my_d"];

/// Counters describing what was generated.
#[derive(Clone, Debug, Default)]
pub struct GenStats {
    pub ops: usize,
    pub blocks: usize,
    pub regions: usize,
    pub attrs: usize,
    pub types: usize,
    pub locs: usize,
    /// Float values (per kind, in `FloatKind::ALL` order) that the text
    /// round trip changed, so that the canonical value was used instead.
    pub floats_canonicalised: [usize; 18],
    /// Float values (per kind) generated.
    pub floats: [usize; 18],
    /// Float values whose text round trip did not settle (replaced by 0).
    pub floats_unstable: usize,
    /// Affine maps/sets whose text round trip changed them.
    pub affine_canonicalised: usize,
    pub affine_total: usize,
    /// Generated maps/sets whose text does not parse (generated again).
    pub affine_unparseable: usize,
    /// Fused locations that `FusedLoc::get` folding changed.
    pub fused_folded: usize,
    pub fused_total: usize,
}

impl GenStats {
    pub fn merge(&mut self, o: &GenStats) {
        self.ops += o.ops;
        self.blocks += o.blocks;
        self.regions += o.regions;
        self.attrs += o.attrs;
        self.types += o.types;
        self.locs += o.locs;
        for i in 0..18 {
            self.floats_canonicalised[i] += o.floats_canonicalised[i];
            self.floats[i] += o.floats[i];
        }
        self.floats_unstable += o.floats_unstable;
        self.affine_canonicalised += o.affine_canonicalised;
        self.affine_total += o.affine_total;
        self.affine_unparseable += o.affine_unparseable;
        self.fused_folded += o.fused_folded;
        self.fused_total += o.fused_total;
    }
}

/// Size limits of a generated module.
#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    /// Maximum nesting of regions below the module's body.
    pub max_region_depth: u32,
    /// Soft limit on the number of operations.
    pub max_ops: usize,
    /// Maximum nesting of attributes and types.
    pub max_attr_depth: u32,
    /// Generate only IR in the form MLIR holds after reading its own text
    /// (see the module doc). When false, also generate forms that reading
    /// text folds — float values the text cannot carry, unsimplified affine
    /// expressions, all-equal dense elements that are not a splat, out-of-
    /// range signless integers (`255 : i8`), identity memref layouts,
    /// memory space 0, unsorted dictionaries — to compare how our parser
    /// and mlir-opt's fold them.
    pub canonical: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            max_region_depth: 3,
            max_ops: 40,
            max_attr_depth: 3,
            canonical: true,
        }
    }
}

/// A tiny deterministic PRNG (xorshift64*), seeded through splitmix64.
#[derive(Clone, Debug)]
pub struct XorShift(u64);

impl XorShift {
    pub fn new(seed: u64) -> Self {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        XorShift(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// `n` pseudo-random bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = Vec::with_capacity(n + 8);
        while v.len() < n {
            v.extend_from_slice(&self.next_u64().to_le_bytes());
        }
        v.truncate(n);
        v
    }
}

/// The module for `seed`: an `Unstructured` over 64 KiB of [`XorShift`]
/// bytes drives the generator.
pub fn module_for_seed(seed: u64, cfg: GenConfig) -> (Module, GenStats) {
    let data = XorShift::new(seed).bytes(1 << 16);
    let mut u = Unstructured::new(&data);
    generate(&mut u, cfg)
}

/// The module a `structured` fuzz input stands for, and whether it is
/// canonical ([`GenConfig::canonical`]): the first byte picks that (canonical
/// when the input is empty), the rest drives [`generate`] with the default
/// limits. The fuzz target and the regression test replaying its inputs
/// both read an input through this, so a saved input means the same module
/// to each.
pub fn generate_from_input(data: &[u8]) -> (Module, bool) {
    let mut u = Unstructured::new(data);
    let canonical = u.arbitrary::<bool>().unwrap_or(true);
    let cfg = GenConfig {
        canonical,
        ..GenConfig::default()
    };
    let (m, _) = generate(&mut u, cfg);
    (m, canonical)
}

/// Builds one random module from `u`.
pub fn generate(u: &mut Unstructured<'_>, cfg: GenConfig) -> (Module, GenStats) {
    let mut g = Gen {
        u,
        cfg,
        m: Module::new(),
        loc_pool: Vec::new(),
        type_pool: Vec::new(),
        attr_pool: Vec::new(),
        distinct_pool: Vec::new(),
        in_props: 0,
        in_metadata: 0,
        resources: Vec::new(),
        ops_left: cfg.max_ops,
        stats: GenStats::default(),
    };
    g.module();
    (g.m, g.stats)
}

struct Gen<'u, 'a> {
    u: &'u mut Unstructured<'a>,
    cfg: GenConfig,
    m: Module,
    loc_pool: Vec<AttrId>,
    type_pool: Vec<TypeId>,
    attr_pool: Vec<AttrId>,
    distinct_pool: Vec<AttrId>,
    /// Inside the properties of an op: mlir-opt does not visit them when it
    /// collects aliases, so an alias used there must already be defined
    /// (not deferred): no locations, no reuse of pooled values.
    in_props: u32,
    /// Inside fused-location metadata: what is aliased there only is
    /// deferred, so nothing aliasable but locations, no reuse of pooled values.
    in_metadata: u32,
    /// `dense_resource` keys with a blob (or `None`: referenced, no blob).
    resources: Vec<(Vec<u8>, Option<ResourceValue>)>,
    ops_left: usize,
    stats: GenStats,
}

/// Builds an integer of the IR's big-integer type from little-endian bytes,
/// minus `2^offset_bits` when given (two's complement reading), without
/// naming the type (it is inferred from the use site).
fn big_from_le<T>(bytes: &[u8], minus_pow2: Option<u32>) -> T
where
    T: From<u8> + Shl<usize, Output = T> + Add<Output = T> + Sub<Output = T>,
{
    let mut v = T::from(0u8);
    for &b in bytes.iter().rev() {
        v = (v << 8) + T::from(b);
    }
    if let Some(w) = minus_pow2 {
        v = v - (T::from(1u8) << w as usize);
    }
    v
}

fn is_bit_set(bytes: &[u8], bit: u32) -> bool {
    bytes
        .get((bit / 8) as usize)
        .is_some_and(|b| b >> (bit % 8) & 1 == 1)
}

/// Storage bytes of an integer element in dense attributes, as the parser
/// stores it: `ceil(width/8)` bytes (at least one), sign-extended unless the
/// type is unsigned; `i1` as one byte 0/1.
fn int_storage(raw: &[u8], width: u32, signedness: Signedness) -> Vec<u8> {
    let n = (width as usize).div_ceil(8).max(1);
    if width == 1 {
        return vec![raw.first().copied().unwrap_or(0) & 1];
    }
    let mut out = raw.to_vec();
    out.resize(n, 0);
    let negative = signedness != Signedness::Unsigned && width > 0 && is_bit_set(raw, width - 1);
    if negative && width & 7 != 0 {
        let last = n - 1;
        out[last] |= 0xFFu8 << (width % 8);
    }
    out
}

/// The fixpoint of print → parse of an affine map or integer set, or
/// `None` when its text does not parse (or does not settle).
fn canonical_affine<T, E>(start: T, parse: impl Fn(&str) -> Result<T, E>) -> Option<T>
where
    T: PartialEq + std::fmt::Display,
{
    let mut cur = start;
    for _ in 0..4 {
        let text = format!("{cur}>");
        let next = parse(&text).ok()?;
        if next == cur {
            return Some(cur);
        }
        cur = next;
    }
    None
}

fn float_index(k: FloatKind) -> usize {
    FloatKind::ALL.iter().position(|&x| x == k).expect("kind")
}

fn mask_bits(v: u128, width: u32) -> u128 {
    if width >= 128 {
        v
    } else {
        v & ((1u128 << width) - 1)
    }
}

/// The attribute name would make mlir-opt ask a registered dialect to verify it.
fn names_registered_dialect(name: &[u8]) -> bool {
    match name.iter().position(|&c| c == b'.') {
        Some(i) => std::str::from_utf8(&name[..i])
            .is_ok_and(rmlir_dialects::mlir_opt::is_registered_dialect),
        None => false,
    }
}

impl Gen<'_, '_> {
    /// Whether pooled (shared) types and attributes may be reused here.
    fn pools_ok(&self) -> bool {
        self.in_props == 0 && self.in_metadata == 0
    }

    /// Whether attributes that get an alias (maps, sets, distinct, big
    /// tuples) may be generated here.
    fn aliasable_ok(&self) -> bool {
        self.in_metadata == 0
    }

    // ----- randomness -----

    fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            0
        } else {
            self.u.choose_index(n).unwrap_or(0)
        }
    }

    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        self.u.int_in_range(lo..=hi).unwrap_or(lo)
    }

    fn chance(&mut self, num: u32, den: u32) -> bool {
        self.u.ratio(num, den).unwrap_or(false)
    }

    /// An index into `weights`, chosen with those weights.
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut r = self.range(0, u64::from(total - 1)) as u32;
        for (i, &w) in weights.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        weights.len() - 1
    }

    fn byte(&mut self) -> u8 {
        self.u.arbitrary().unwrap_or(0)
    }

    fn u64(&mut self) -> u64 {
        self.u.arbitrary().unwrap_or(0)
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        let i = self.below(items.len());
        items[i]
    }

    /// A line or column number: mostly small, sometimes huge.
    fn line_number(&mut self) -> u32 {
        match self.weighted(&[6, 3, 1]) {
            0 => self.range(0, 20) as u32,
            1 => self.range(0, 100_000) as u32,
            _ => self.pick(&[u32::MAX, u32::MAX - 1, 1 << 31]),
        }
    }

    /// Arbitrary bytes for strings: printable text, escapes, UTF-8, controls.
    fn string_bytes(&mut self, max_len: usize) -> Vec<u8> {
        const POOL: &[&[u8]] = &[
            b"",
            b"a",
            b"hello",
            b"x y",
            b"q\"uote",
            b"back\\slash",
            b"tab\tnew\nline",
            b"\xC3\xA9t\xC3\xA9",
            b"\xF0\x9F\x98\x80",
            b"\x00\x01\x7F\xFF",
            b"0x12",
            b"dir/file.mlir",
        ];
        if self.chance(1, 2) {
            return self.pick(POOL).to_vec();
        }
        let n = self.below(max_len + 1);
        (0..n)
            .map(|_| match self.weighted(&[6, 2, 1]) {
                0 => self.range(0x20, 0x7E) as u8,
                1 => self.pick(b"\"\\\n\t\x00\x7F\xFF\xC3\x80"),
                _ => self.byte(),
            })
            .collect()
    }

    /// A non-empty name for attributes and symbols: identifiers mostly.
    fn name(&mut self) -> Vec<u8> {
        const POOL: &[&[u8]] = &[
            b"a",
            b"b",
            b"value",
            b"x_1",
            b"foo.attr",
            b"_",
            b"Z9$",
            b"a.b.c",
            b"with space",
            b"1abc",
            b"$x",
            b"q\"",
            b"\xC3\xA9",
            b"zeta",
        ];
        let mut n = if self.chance(3, 4) {
            self.pick(POOL).to_vec()
        } else {
            self.string_bytes(6)
        };
        if n.is_empty() {
            n.push(b'e');
        }
        if names_registered_dialect(&n) || n == b"sym_name" || n == b"sym_visibility" {
            n.insert(0, b'x');
        }
        n
    }

    /// Text for `escaped_string` inside dialect bodies: a valid string literal.
    fn string_literal(&mut self) -> String {
        let b = self.string_bytes(5);
        let mut s = String::new();
        rmlir_writer::text::escaped_string(&b, &mut s);
        s
    }

    // ----- dialect symbol data -----

    fn body_token(&mut self, depth: u32) -> String {
        let k = if depth >= 2 {
            self.weighted(&[3, 3, 2, 1, 0, 0, 0, 0])
        } else {
            self.weighted(&[3, 3, 2, 1, 1, 1, 1, 1])
        };
        match k {
            0 => self.range(0, 1000).to_string(),
            1 => self
                .pick(&["a", "x1", "b_c", "p.q", "i32", "f"])
                .to_string(),
            2 => self.string_literal(),
            3 => self.pick(&["?", "*", "->", "-", ":", "=", "x"]).to_string(),
            4 => format!("<{}>", self.body(depth + 1)),
            5 => format!("[{}]", self.body(depth + 1)),
            6 => format!("({})", self.body(depth + 1)),
            _ => format!("{{{}}}", self.body(depth + 1)),
        }
    }

    fn body(&mut self, depth: u32) -> String {
        let n = self.range(0, 3) as usize;
        let mut s = String::new();
        for i in 0..n {
            if i > 0 {
                s.push_str(self.pick(&[", ", " ", ""]));
            }
            let t = self.body_token(depth);
            // Keep tokens apart where gluing would change the lexing.
            if s.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
                && t.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '>')
            {
                s.push(' ');
            }
            s.push_str(&t);
        }
        // A trailing `-` would swallow the closing `>` as an arrow `->`.
        if s.ends_with('-') {
            s.push('1');
        }
        s
    }

    /// The symbol data of an unregistered dialect's type or attribute.
    fn dialect_data(&mut self) -> Vec<u8> {
        let idents = ["bar", "x1", "a_b", "a.b", "tok", "Q"];
        match self.weighted(&[3, 4, 3]) {
            0 => self.pick(&idents).as_bytes().to_vec(),
            1 => {
                let id = self.pick(&idents);
                format!("{id}<{}>", self.body(0)).into_bytes()
            }
            _ => {
                // Verbose form `#foo<...>`: starts with something that is
                // not an identifier, so it is never mistaken for `id<..>`.
                let first = match self.weighted(&[2, 2, 1, 1]) {
                    0 => self.string_literal(),
                    1 => self.range(0, 99).to_string(),
                    2 => format!("[{}]", self.body(1)),
                    _ => String::new(),
                };
                let rest = if first.is_empty() {
                    String::new()
                } else {
                    self.body(1)
                };
                let sep = if rest.is_empty() { "" } else { " " };
                format!("{first}{sep}{rest}").into_bytes()
            }
        }
    }

    // ----- types -----

    fn intern_type(&mut self, t: TypeData) -> TypeId {
        self.stats.types += 1;
        let id = self.m.ctx.intern_type(t);
        if self.type_pool.len() < 64 {
            self.type_pool.push(id);
        }
        id
    }

    fn int_width(&mut self) -> u32 {
        match self.weighted(&[3, 4, 2, 4, 4, 4, 1, 1]) {
            0 => 1,
            1 => 8,
            2 => 16,
            3 => 32,
            4 => 64,
            5 => self.range(2, 130) as u32,
            6 => self.range(131, 700) as u32,
            _ => self.pick(&[0, 128, 256, 16_777_215]),
        }
    }

    fn signedness(&mut self) -> Signedness {
        self.pick(&[
            Signedness::Signless,
            Signedness::Signless,
            Signedness::Signed,
            Signedness::Unsigned,
        ])
    }

    fn int_type_with(&mut self, width: u32) -> TypeId {
        let signedness = self.signedness();
        self.intern_type(TypeData::Integer { width, signedness })
    }

    /// An integer type of a width small enough for element storage.
    fn elem_int_type(&mut self) -> TypeId {
        let w = match self.weighted(&[2, 3, 2, 3, 3, 3, 1]) {
            0 => 1,
            1 => 8,
            2 => 16,
            3 => 32,
            4 => 64,
            5 => self.range(2, 72) as u32,
            _ => self.pick(&[128, 100, 200]),
        };
        if w == 1 {
            return self.intern_type(TypeData::signless(1));
        }
        self.int_type_with(w)
    }

    fn float_type(&mut self) -> TypeId {
        let k = self.pick(&FloatKind::ALL);
        self.intern_type(TypeData::Float(k))
    }

    /// Integer, index or float.
    fn scalar_type(&mut self) -> TypeId {
        match self.weighted(&[4, 1, 4]) {
            0 => {
                let w = self.int_width();
                if w > 4096 && self.chance(3, 4) {
                    return self.int_type_with(32);
                }
                self.int_type_with(w)
            }
            1 => self.intern_type(TypeData::Index),
            _ => self.float_type(),
        }
    }

    fn complex_type(&mut self) -> TypeId {
        let inner = if self.chance(2, 3) {
            self.float_type()
        } else {
            let w = self.range(2, 64) as u32;
            self.int_type_with(w)
        };
        self.intern_type(TypeData::Complex(inner))
    }

    fn opaque_type(&mut self) -> TypeId {
        let dialect = self.pick(DIALECTS);
        let data = self.dialect_data();
        self.intern_type(TypeData::Opaque {
            dialect: dialect.into(),
            data: data.into(),
        })
    }

    /// A shape: `rank` dims from `lo..=hi`, some dynamic when allowed.
    fn shape(&mut self, max_rank: usize, lo: i64, hi: i64, dynamic: bool) -> Vec<i64> {
        let rank = self.below(max_rank + 1);
        (0..rank)
            .map(|_| {
                if dynamic && self.chance(1, 4) {
                    DYNAMIC
                } else {
                    self.range(lo as u64, hi as u64) as i64
                }
            })
            .collect()
    }

    /// A shape of a tensor or memref type (not of an elements attribute):
    /// some dimensions dynamic, now and then a huge one.
    fn type_shape(&mut self) -> Vec<i64> {
        let mut shape = self.shape(3, 0, 8, true);
        for d in shape.iter_mut() {
            if self.chance(1, 40) {
                *d = self.pick(&[i64::MAX, 1 << 40, 4_294_967_296]);
            }
        }
        shape
    }

    fn vector_type(&mut self, elem: Option<TypeId>) -> TypeId {
        let elem = match elem {
            Some(e) => e,
            None => self.scalar_type(),
        };
        let shape = self.shape(3, 1, 6, false);
        let mut scalable: Vec<bool> = shape.iter().map(|_| self.chance(1, 4)).collect();
        if !scalable.iter().any(|&s| s) {
            scalable.clear();
        }
        self.intern_type(TypeData::Vector {
            shape,
            scalable,
            elem,
        })
    }

    /// A type allowed as a tensor element.
    fn tensor_elem_type(&mut self, depth: u32) -> TypeId {
        match self.weighted(&[6, 1, 1, 1]) {
            0 => self.scalar_type(),
            1 => self.complex_type(),
            2 => self.opaque_type(),
            _ if depth < self.cfg.max_attr_depth => self.vector_type(None),
            _ => self.scalar_type(),
        }
    }

    /// A type allowed as a memref element.
    fn memref_elem_type(&mut self, depth: u32) -> TypeId {
        match self.weighted(&[6, 1, 1, 1]) {
            0 => self.scalar_type(),
            1 => self.complex_type(),
            2 if depth < self.cfg.max_attr_depth => self.vector_type(None),
            3 if depth < self.cfg.max_attr_depth => self.memref_type(depth + 1),
            _ => self.scalar_type(),
        }
    }

    fn memory_space(&mut self, depth: u32) -> Option<AttrId> {
        match self.weighted(&[6, 2, 1, 1]) {
            0 => None,
            1 => {
                // A non-zero integer (an integer 0 is the default space,
                // stored as absent).
                let ty = if self.chance(2, 3) {
                    self.intern_type(TypeData::signless(64))
                } else {
                    let w = self.range(2, 64) as u32;
                    self.int_type_with(w)
                };
                loop {
                    let a = self.int_attr_of(ty);
                    if let AttrData::Integer { value, .. } = self.m.ctx.attr(a) {
                        if value.to_string() != "0" || !self.cfg.canonical {
                            return Some(a);
                        }
                    }
                    if self.u.is_empty() {
                        let one = self.m.ctx.intern_attr(AttrData::Integer {
                            ty,
                            value: big_from_le(&[1], None),
                        });
                        return Some(one);
                    }
                }
            }
            2 => {
                let value = self.string_bytes(6);
                Some(self.m.ctx.intern_attr(AttrData::String {
                    value: value.into(),
                    ty: None,
                }))
            }
            _ => Some(self.dict_attr(depth + 1)),
        }
    }

    fn memref_type(&mut self, depth: u32) -> TypeId {
        let elem = self.memref_elem_type(depth + 1);
        if self.chance(1, 6) {
            let memory_space = self.memory_space(depth);
            return self.intern_type(TypeData::UnrankedMemRef { elem, memory_space });
        }
        let shape = self.type_shape();
        let maps = u32::from(self.aliasable_ok()) * 2;
        let layout = match self.weighted(&[5, 2, maps]) {
            0 => None,
            1 => {
                let strides = (0..shape.len()).map(|_| self.stride_value()).collect();
                let offset = if self.chance(1, 2) {
                    0
                } else {
                    self.stride_value()
                };
                Some(
                    self.m
                        .ctx
                        .intern_attr(AttrData::Strided { offset, strides }),
                )
            }
            _ => {
                let map = self.affine_map_with_dims(shape.len() as u32);
                // The identity map is the default layout: stored as absent.
                if map.is_identity() && self.cfg.canonical {
                    None
                } else {
                    Some(self.m.ctx.intern_attr(AttrData::AffineMap(map)))
                }
            }
        };
        let memory_space = self.memory_space(depth);
        self.intern_type(TypeData::MemRef {
            shape,
            elem,
            layout,
            memory_space,
        })
    }

    fn stride_value(&mut self) -> i64 {
        match self.weighted(&[4, 1, 1, 1]) {
            0 => self.range(0, 64) as i64,
            1 => -(self.range(1, 64) as i64),
            2 => DYNAMIC,
            _ => self.pick(&[i64::MAX, i64::MIN + 1, 1 << 40]),
        }
    }

    fn any_type(&mut self, depth: u32) -> TypeId {
        if self.pools_ok() && !self.type_pool.is_empty() && self.chance(1, 3) {
            let i = self.below(self.type_pool.len());
            return self.type_pool[i];
        }
        let leaf = depth >= self.cfg.max_attr_depth;
        let k = if leaf {
            self.weighted(&[10, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0])
        } else {
            self.weighted(&[10, 1, 2, 2, 1, 1, 2, 3, 1, 3, 1])
        };
        match k {
            0 => self.scalar_type(),
            1 => self.intern_type(TypeData::None),
            2 => self.opaque_type(),
            3 => self.complex_type(),
            4 => {
                // Tuples; more than 16 elements get a `!tuple` alias.
                let n = if self.aliasable_ok() && self.chance(1, 8) {
                    self.range(17, 19) as usize
                } else {
                    self.below(4)
                };
                let elems = (0..n).map(|_| self.any_type(depth + 1)).collect();
                self.intern_type(TypeData::Tuple(elems))
            }
            5 => {
                let ni = self.below(3);
                let nr = self.below(3);
                let inputs = (0..ni).map(|_| self.any_type(depth + 1)).collect();
                let results = (0..nr).map(|_| self.any_type(depth + 1)).collect();
                self.intern_type(TypeData::Function { inputs, results })
            }
            6 => self.vector_type(None),
            7 => {
                let elem = self.tensor_elem_type(depth + 1);
                let shape = self.type_shape();
                let encoding = if self.chance(1, 5) {
                    Some(self.encoding_attr(depth + 1))
                } else {
                    None
                };
                self.intern_type(TypeData::RankedTensor {
                    shape,
                    elem,
                    encoding,
                })
            }
            8 => {
                let elem = self.tensor_elem_type(depth + 1);
                self.intern_type(TypeData::UnrankedTensor { elem })
            }
            9 => self.memref_type(depth),
            _ => {
                let w = self.int_width();
                self.int_type_with(w)
            }
        }
    }

    // ----- numbers -----

    /// Random two's-complement bits of `width` (little-endian bytes, masked).
    fn int_bits(&mut self, width: u32) -> Vec<u8> {
        let n = (width as usize).div_ceil(8).max(1);
        let mut v = match self.weighted(&[2, 1, 1, 1, 1, 4]) {
            0 => vec![0u8; n],
            1 => {
                let mut v = vec![0u8; n];
                v[0] = 1;
                v
            }
            2 => vec![0xFF; n],
            3 => {
                // Minimum signed value: only the top bit.
                let mut v = vec![0u8; n];
                if width > 0 {
                    v[((width - 1) / 8) as usize] |= 1 << ((width - 1) % 8);
                }
                v
            }
            4 => {
                // Maximum signed value: all but the top bit.
                let mut v = vec![0xFFu8; n];
                if width > 0 {
                    v[((width - 1) / 8) as usize] &= !(1 << ((width - 1) % 8));
                }
                v
            }
            _ => {
                // Random, mostly with few significant bytes.
                let sig = if self.chance(2, 3) {
                    self.range(1, 2) as usize
                } else {
                    n
                };
                let mut v = vec![0u8; n];
                for b in v.iter_mut().take(sig) {
                    *b = self.byte();
                }
                if self.chance(1, 3) {
                    // Negative in two's complement.
                    for b in v.iter_mut().skip(sig) {
                        *b = 0xFF;
                    }
                }
                v
            }
        };
        if width & 7 != 0 {
            v[n - 1] &= (1u8 << (width % 8)) - 1;
        }
        if width == 0 {
            v[0] = 0;
        }
        v
    }

    /// An integer attribute of `ty` (integer or index), normalised as the
    /// parser stores it.
    fn int_attr_of(&mut self, ty: TypeId) -> AttrId {
        let (width, signedness) = match self.m.ctx.ty(ty) {
            TypeData::Integer { width, signedness } => (*width, *signedness),
            _ => (64, Signedness::Signless),
        };
        let bits = self.int_bits(width);
        let negative = signedness != Signedness::Unsigned
            && width > 0
            && is_bit_set(&bits, width - 1)
            && !(width == 1 && signedness == Signedness::Signless);
        // Non-canonical: a signless value printed as its unsigned reading
        // (not for `index`, where mlir-opt rejects values of 2^63 and more).
        let is_index = matches!(self.m.ctx.ty(ty), TypeData::Index);
        let negative = negative
            && (self.cfg.canonical
                || signedness != Signedness::Signless
                || is_index
                || self.chance(3, 4));
        let value = big_from_le(&bits, negative.then_some(width));
        self.m.ctx.intern_attr(AttrData::Integer { ty, value })
    }

    /// Random float bits of `kind`: special values and random patterns.
    fn raw_float_bits(&mut self, kind: FloatKind) -> u128 {
        let width = kind.bit_width();
        match self.weighted(&[3, 4, 2]) {
            0 => {
                let v = self.pick(&[
                    0.0,
                    -0.0,
                    1.0,
                    -1.5,
                    0.1,
                    3.0e10,
                    -2.5e-3,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NAN,
                    f64::MIN_POSITIVE,
                    5e-324,
                    f64::MAX,
                    65504.0,
                    448.0,
                    1.0 / 3.0,
                    0.5,
                    2.0,
                    6.0,
                ]);
                float::from_f64(kind, v)
            }
            1 => {
                let lo = self.u64() as u128;
                let hi = self.u64() as u128;
                mask_bits(lo | (hi << 64), width)
            }
            _ => {
                // Near-round values: few significand bits set.
                let v = (self.range(0, 2000) as f64 - 1000.0) / self.pick(&[1.0, 4.0, 10.0, 1e6]);
                float::from_f64(kind, v)
            }
        }
    }

    /// The value MLIR holds after printing `bits` and reading the text back
    /// (decimal text is read through a `double`, hex is a bit pattern).
    fn canonical_float(&mut self, kind: FloatKind, bits: u128) -> u128 {
        let idx = float_index(kind);
        self.stats.floats[idx] += 1;
        let start = mask_bits(bits, kind.bit_width());
        let mut b = start;
        for _ in 0..6 {
            let s = float::format_mlir_float(kind, b);
            let nb = match s.strip_prefix("0x") {
                Some(h) => u128::from_str_radix(h, 16).expect("hex"),
                None => float::parse_mlir_float(kind, &s).expect("printed floats parse"),
            };
            if nb == b {
                if b != start {
                    self.stats.floats_canonicalised[idx] += 1;
                }
                return b;
            }
            b = nb;
        }
        self.stats.floats_unstable += 1;
        0
    }

    fn float_bits(&mut self, kind: FloatKind) -> u128 {
        let raw = self.raw_float_bits(kind);
        if !self.cfg.canonical && self.chance(1, 2) {
            return mask_bits(raw, kind.bit_width());
        }
        self.canonical_float(kind, raw)
    }

    /// Float bits for an element of `dense<..>`/`array<..>`.
    fn dense_float_bits(&mut self, kind: FloatKind) -> u128 {
        if GEN_DENSE_FLOAT_BEYOND_F64
            && matches!(kind, FloatKind::F80 | FloatKind::F128)
            && self.chance(1, 4)
        {
            // The largest finite value: far beyond f64's range.
            return match kind {
                FloatKind::F80 => 0x7FFE_FFFF_FFFF_FFFF_FFFF,
                _ => 0x7FFE_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF_FFFF,
            };
        }
        let raw = mask_bits(self.raw_float_bits(kind), kind.bit_width());
        if !self.cfg.canonical && self.chance(1, 2) {
            // Not an f80/f128 value printed as a decimal beyond f64's range
            // (see GEN_DENSE_FLOAT_BEYOND_F64).
            let text = float::format_mlir_float(kind, raw);
            let beyond = !text.starts_with("0x") && text.parse::<f64>().is_ok_and(f64::is_infinite);
            if !beyond || GEN_DENSE_FLOAT_BEYOND_F64 {
                return raw;
            }
        }
        self.canonical_float(kind, raw)
    }

    // ----- attributes -----

    fn intern_attr(&mut self, a: AttrData) -> AttrId {
        self.stats.attrs += 1;
        let id = self.m.ctx.intern_attr(a);
        if self.attr_pool.len() < 64 {
            self.attr_pool.push(id);
        }
        id
    }

    fn attr(&mut self, depth: u32) -> AttrId {
        if self.pools_ok() && !self.attr_pool.is_empty() && self.chance(1, 6) {
            let i = self.below(self.attr_pool.len());
            return self.attr_pool[i];
        }
        let leaf = depth >= self.cfg.max_attr_depth;
        // unit int float string type array dict dense_array dense dense_string
        // dense_resource sparse symref map set strided distinct opaque loc
        let mut weights: [u32; 19] = if leaf {
            [1, 5, 5, 3, 0, 0, 0, 1, 0, 0, 0, 0, 2, 1, 1, 1, 0, 2, 0]
        } else {
            [1, 5, 5, 3, 2, 3, 2, 2, 3, 1, 1, 1, 2, 2, 1, 1, 1, 2, 2]
        };
        if !self.aliasable_ok() {
            weights[13] = 0;
            weights[14] = 0;
            weights[16] = 0;
        }
        if self.in_props > 0 {
            weights[18] = 0;
        }
        match self.weighted(&weights) {
            0 => self.m.ctx.intern_attr(AttrData::Unit),
            1 => {
                let ty = if self.chance(1, 6) {
                    self.intern_type(TypeData::Index)
                } else {
                    let w = self.int_width();
                    let w = if w > 1024 { 64 } else { w };
                    if w == 1 && self.chance(1, 2) {
                        self.intern_type(TypeData::signless(1))
                    } else {
                        self.int_type_with(w)
                    }
                };
                let a = self.int_attr_of(ty);
                self.stats.attrs += 1;
                a
            }
            2 => {
                let kind = self.pick(&FloatKind::ALL);
                let ty = self.intern_type(TypeData::Float(kind));
                let bits = self.float_bits(kind);
                self.intern_attr(AttrData::Float {
                    ty,
                    bits: bits.into(),
                })
            }
            3 => {
                let value = self.string_bytes(12);
                let ty = if self.chance(1, 4) {
                    let t = self.any_type(depth + 1);
                    (!matches!(self.m.ctx.ty(t), TypeData::None)).then_some(t)
                } else {
                    None
                };
                self.intern_attr(AttrData::String {
                    value: value.into(),
                    ty,
                })
            }
            4 => {
                let t = self.any_type(depth + 1);
                self.intern_attr(AttrData::Type(t))
            }
            5 => {
                let n = self.below(5);
                let elems = (0..n).map(|_| self.attr(depth + 1)).collect();
                self.intern_attr(AttrData::Array(elems))
            }
            6 => self.dict_attr(depth + 1),
            7 => self.dense_array(),
            8 => self.dense_int_or_fp(depth),
            9 => self.dense_string(),
            10 => self.dense_resource(),
            11 => self.sparse(),
            12 => {
                let root = self.name();
                let n = self.below(3);
                let nested = (0..n).map(|_| self.name().into()).collect();
                self.intern_attr(AttrData::SymbolRef {
                    root: root.into(),
                    nested,
                })
            }
            13 => {
                let nd = self.range(0, 3) as u32;
                let map = self.affine_map_with_dims(nd);
                self.intern_attr(AttrData::AffineMap(map))
            }
            14 => {
                let set = self.integer_set();
                self.intern_attr(AttrData::IntegerSet(Box::new(set)))
            }
            15 => {
                let n = self.below(4);
                let strides = (0..n).map(|_| self.stride_value()).collect();
                let offset = if self.chance(1, 2) {
                    0
                } else {
                    self.stride_value()
                };
                self.intern_attr(AttrData::Strided { offset, strides })
            }
            16 => self.distinct(depth),
            17 => {
                let dialect = self.pick(DIALECTS);
                let data = self.dialect_data();
                let ty = if self.chance(1, 4) {
                    let t = self.any_type(depth + 1);
                    // The attribute with its type is one textual entry in
                    // bytecode, parsed afresh when read: a `distinct[…]`
                    // inside is no longer the distinct attribute used
                    // elsewhere, and a location with an empty file name
                    // (printed `"-"`) comes back named `-`. mlir-opt splits
                    // both the same way: not canonical. A `dense_resource`
                    // inside is not seen as a use of its blob, so the blob
                    // is not written (mlir-opt's bytes for such a module
                    // equal ours; found by the `structured` fuzzer,
                    // tests/regressions/structured/).
                    let text = rmlir_writer::bytecode::type_text(&self.m.ctx, t);
                    let split = self.cfg.canonical
                        && (text.contains("distinct[")
                            || text.contains("loc(")
                            || text.contains("dense_resource<"));
                    (!split && !matches!(self.m.ctx.ty(t), TypeData::None)).then_some(t)
                } else {
                    None
                };
                self.intern_attr(AttrData::Opaque(Box::new(OpaqueAttr {
                    dialect: dialect.into(),
                    data: data.into(),
                    ty,
                })))
            }
            _ => self.loc(depth + 1),
        }
    }

    /// A tensor encoding: any attribute but a strided layout, a dense array
    /// or a distinct attribute (mlir-opt reads the encoding with
    /// `parseOptionalAttribute`, which does not know `strided<`, `array<`
    /// and `distinct[`: `tensor<4xi32, array<i32>>` is a syntax error).
    ///
    /// Tries a bounded number of times, then takes `unit`: once the input
    /// is used up, `Unstructured` keeps giving the same choice, and an
    /// unbounded retry looped forever (found by the `structured` fuzzer).
    fn encoding_attr(&mut self, depth: u32) -> AttrId {
        for _ in 0..8 {
            let a = self.attr(depth);
            if !matches!(
                self.m.ctx.attr(a),
                AttrData::Strided { .. } | AttrData::DenseArray { .. } | AttrData::Distinct { .. }
            ) {
                return a;
            }
        }
        self.intern_attr(AttrData::Unit)
    }

    fn dict_attr(&mut self, depth: u32) -> AttrId {
        let n = self.below(5);
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        for _ in 0..n {
            let name = self.name();
            let v = if depth > self.cfg.max_attr_depth + 1 {
                self.m.ctx.intern_attr(AttrData::Unit)
            } else {
                self.attr(depth + 1)
            };
            if !entries.iter().any(|(k, _)| **k == *name) {
                entries.push((name.into(), v));
            }
        }
        if self.cfg.canonical || self.chance(1, 2) {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        self.intern_attr(AttrData::Dictionary(entries))
    }

    fn dense_array(&mut self) -> AttrId {
        // Element widths must be 1 or a multiple of 8.
        let elem = if self.chance(1, 3) {
            let k = self.pick(&[
                FloatKind::F16,
                FloatKind::BF16,
                FloatKind::F32,
                FloatKind::F64,
                FloatKind::F80,
                FloatKind::F128,
                FloatKind::F8E5M2,
                FloatKind::F8E4M3FN,
                FloatKind::F8E8M0FNU,
            ]);
            self.intern_type(TypeData::Float(k))
        } else {
            let w = self.pick(&[1, 8, 16, 32, 64, 128, 24]);
            if w == 1 {
                self.intern_type(TypeData::signless(1))
            } else {
                self.int_type_with(w)
            }
        };
        let n = self.below(6);
        let mut data = Vec::new();
        for _ in 0..n {
            data.extend(self.scalar_element(elem));
        }
        self.intern_attr(AttrData::DenseArray {
            elem,
            data: data.into(),
        })
    }

    /// The storage bytes of one random element of scalar (or complex) type.
    fn scalar_element(&mut self, elem: TypeId) -> Vec<u8> {
        match self.m.ctx.ty(elem).clone() {
            TypeData::Integer { width, signedness } => {
                let bits = self.int_bits(width);
                int_storage(&bits, width, signedness)
            }
            TypeData::Index => {
                let bits = self.int_bits(64);
                int_storage(&bits, 64, Signedness::Signless)
            }
            TypeData::Float(k) => {
                let bits = self.dense_float_bits(k);
                let n = (k.bit_width() as usize).div_ceil(8);
                bits.to_le_bytes()[..n].to_vec()
            }
            TypeData::Complex(inner) => {
                let mut v = self.scalar_element(inner);
                v.extend(self.scalar_element(inner));
                v
            }
            other => panic!("not a scalar element type: {other:?}"),
        }
    }

    /// A static-shaped tensor or vector type of `elem`, with a shape of at
    /// most a few elements, or a long 1-D one (hex form) when `long`.
    fn static_shaped(&mut self, elem: TypeId, long: bool, allow_vector: bool) -> TypeId {
        let vector_ok = allow_vector
            && matches!(
                self.m.ctx.ty(elem),
                TypeData::Integer { .. } | TypeData::Index | TypeData::Float(_)
            );
        let shape = if long {
            vec![self.range(101, 140) as i64]
        } else if vector_ok && self.chance(1, 3) {
            return self.vector_type(Some(elem));
        } else {
            self.shape(3, 0, 3, false)
        };
        let encoding = if !long && self.chance(1, 10) {
            Some(self.encoding_attr(self.cfg.max_attr_depth))
        } else {
            None
        };
        self.intern_type(TypeData::RankedTensor {
            shape,
            elem,
            encoding,
        })
    }

    fn num_elements(&self, ty: TypeId) -> usize {
        self.m
            .ctx
            .ty(ty)
            .shape()
            .map_or(1, |s| s.iter().product::<i64>() as usize)
    }

    fn dense_int_or_fp(&mut self, _depth: u32) -> AttrId {
        let elem = match self.weighted(&[4, 1, 4, 2]) {
            0 => self.elem_int_type(),
            1 => self.intern_type(TypeData::Index),
            2 => self.float_type(),
            _ => self.complex_type(),
        };
        let long = self.chance(1, 12);
        let ty = self.static_shaped(elem, long, true);
        let n = self.num_elements(ty);
        let one = self.scalar_element(elem);
        let size = one.len();
        let mut data = one;
        if !long && self.chance(1, 3) {
            // Generated as a splat.
            for _ in 1..n {
                data.extend_from_within(..size);
            }
        } else {
            for _ in 1..n {
                if self.chance(1, 4) {
                    // Repeat an earlier element now and then.
                    let j = self.below(data.len() / size);
                    data.extend_from_within(j * size..(j + 1) * size);
                } else {
                    let e = self.scalar_element(elem);
                    data.extend(e);
                }
            }
        }
        if n == 0 {
            data.clear();
        }
        // MLIR detects splats: all elements equal (or one element).
        let splat = n > 0
            && data.chunks(size).all(|c| c == &data[..size])
            && (self.cfg.canonical || self.chance(1, 2));
        if splat {
            data.truncate(size);
        }
        self.intern_attr(AttrData::DenseIntOrFp {
            ty,
            splat,
            data: data.into(),
        })
    }

    fn dense_string(&mut self) -> AttrId {
        let elem = self.opaque_type();
        let ty = self.static_shaped(elem, false, false);
        let n = self.num_elements(ty);
        let first = self.string_bytes(6);
        let mut strings: Vec<Bytes> = vec![first.into()];
        let splat_gen = self.chance(1, 3);
        for _ in 1..n {
            let s: Bytes = if splat_gen || self.chance(1, 4) {
                strings[0].clone()
            } else {
                self.string_bytes(6).into()
            };
            strings.push(s);
        }
        if n == 0 {
            strings.clear();
        }
        let splat = n > 0
            && strings.iter().all(|s| *s == strings[0])
            && (self.cfg.canonical || self.chance(1, 2));
        if splat {
            strings.truncate(1);
        }
        // A lone string literal (a splat, or the one element of a rank-0
        // tensor) that starts with `0x`: see GEN_HEX_LIKE_DENSE_STRING.
        let rank0 = self.m.ctx.ty(ty).shape().is_some_and(|s| s.is_empty());
        if !GEN_HEX_LIKE_DENSE_STRING && (splat || rank0) && strings[0].starts_with(b"0x") {
            strings[0] = b"0y".to_vec().into();
        }
        self.intern_attr(AttrData::DenseString { ty, splat, strings })
    }

    fn dense_resource(&mut self) -> AttrId {
        let elem = match self.weighted(&[3, 3]) {
            0 => self.elem_int_type(),
            _ => self.float_type(),
        };
        let ty = self.static_shaped(elem, false, true);
        let keys: [&[u8]; 5] = [b"blob0", b"k_1", b"r.x", b"blob0_1", b"z"];
        let key = self.pick(&keys).to_vec();
        if !self.resources.iter().any(|(k, _)| *k == key) {
            let blob = if self.chance(4, 5) {
                let n = if GEN_EMPTY_BLOB {
                    self.below(16)
                } else {
                    self.range(1, 16) as usize
                };
                let data = (0..n).map(|_| self.byte()).collect::<Vec<u8>>().into();
                let alignment = if n == 0 {
                    self.pick(&[0, 1, 8])
                } else {
                    self.pick(&[1, 2, 4, 8, 16, 64])
                };
                Some(ResourceValue::Blob { alignment, data })
            } else {
                None
            };
            self.resources.push((key.clone(), blob));
        }
        self.intern_attr(AttrData::DenseResource {
            ty,
            key: key.into(),
        })
    }

    fn sparse(&mut self) -> AttrId {
        let elem = match self.weighted(&[3, 3]) {
            0 => self.elem_int_type(),
            _ => self.float_type(),
        };
        let shape = self.shape(2, 1, 4, false);
        let shape = if shape.is_empty() { vec![3] } else { shape };
        let rank = shape.len();
        let ty = self.intern_type(TypeData::RankedTensor {
            shape: shape.clone(),
            elem,
            encoding: None,
        });
        let i64t = self.intern_type(TypeData::signless(64));
        let mut n = self.below(4);
        let mut coords: Vec<i64> = Vec::new();
        for _ in 0..n {
            for &d in &shape {
                coords.push(self.range(0, (d - 1) as u64) as i64);
            }
        }
        // An all-equal index list is a splat, printed as one element, which
        // reads back as a single index: keep one.
        if n >= 2 && coords.iter().all(|&c| c == coords[0]) {
            n = 1;
            coords.truncate(rank);
        }
        let it = self.intern_type(TypeData::RankedTensor {
            shape: vec![n as i64, rank as i64],
            elem: i64t,
            encoding: None,
        });
        let mut idata: Vec<u8> = coords.iter().flat_map(|c| c.to_le_bytes()).collect();
        let isplat = !idata.is_empty() && idata.chunks(8).all(|c| c == &idata[..8]);
        if isplat {
            idata.truncate(8);
        }
        let indices = self.intern_attr(AttrData::DenseIntOrFp {
            ty: it,
            splat: isplat,
            data: idata.into(),
        });
        let vt = self.intern_type(TypeData::RankedTensor {
            shape: vec![n as i64],
            elem,
            encoding: None,
        });
        let mut vdata = Vec::new();
        let mut size = 0;
        for _ in 0..n {
            let e = self.scalar_element(elem);
            size = e.len();
            vdata.extend(e);
        }
        let vsplat = n > 0 && vdata.chunks(size).all(|c| c == &vdata[..size]);
        if vsplat {
            vdata.truncate(size);
        }
        let values = self.intern_attr(AttrData::DenseIntOrFp {
            ty: vt,
            splat: vsplat,
            data: vdata.into(),
        });
        self.intern_attr(AttrData::Sparse {
            ty,
            indices,
            values,
        })
    }

    fn distinct(&mut self, depth: u32) -> AttrId {
        if !self.distinct_pool.is_empty() && self.chance(1, 3) {
            let i = self.below(self.distinct_pool.len());
            return self.distinct_pool[i];
        }
        let referenced = if self.chance(1, 3) {
            self.m.ctx.intern_attr(AttrData::Unit)
        } else {
            self.attr(depth + 1)
        };
        let id = self.m.ctx.fresh_distinct_id();
        let a = self.intern_attr(AttrData::Distinct { id, referenced });
        self.distinct_pool.push(a);
        a
    }

    // ----- affine -----

    fn affine_expr(&mut self, nd: u32, ns: u32, depth: u32, dims_ok: bool) -> AffineExpr {
        let leaf = depth >= 3;
        let k = if leaf {
            self.weighted(&[3, 2, 2, 0, 0, 0])
        } else {
            self.weighted(&[3, 2, 2, 4, 3, 3])
        };
        match k {
            0 if dims_ok && nd > 0 => AffineExpr::dim(self.range(0, u64::from(nd - 1)) as u32),
            1 if ns > 0 => AffineExpr::symbol(self.range(0, u64::from(ns - 1)) as u32),
            0..=2 => AffineExpr::constant(self.affine_constant()),
            3 => {
                let a = self.affine_expr(nd, ns, depth + 1, dims_ok);
                let b = self.affine_expr(nd, ns, depth + 1, dims_ok);
                if self.chance(1, 3) {
                    AffineExpr::sub(a, b)
                } else {
                    AffineExpr::add(a, b)
                }
            }
            4 => {
                // One factor must be symbolic or constant.
                let a = self.affine_expr(nd, ns, depth + 1, dims_ok);
                let b = self.affine_expr(nd, ns, depth + 1, false);
                if self.chance(1, 2) {
                    AffineExpr::mul(a, b)
                } else {
                    AffineExpr::mul(b, a)
                }
            }
            _ => {
                let a = self.affine_expr(nd, ns, depth + 1, dims_ok);
                let b = if self.chance(2, 3) || ns == 0 {
                    AffineExpr::constant(self.affine_constant())
                } else {
                    self.affine_expr(nd, ns, depth + 1, false)
                };
                match self.below(3) {
                    0 => AffineExpr::floor_div(a, b),
                    1 => AffineExpr::ceil_div(a, b),
                    _ => AffineExpr::modulo(a, b),
                }
            }
        }
    }

    fn affine_constant(&mut self) -> i64 {
        match self.weighted(&[6, 2, 1]) {
            0 => self.range(0, 16) as i64 - 4,
            1 => self.range(0, 2000) as i64 - 1000,
            _ => self.pick(&[i64::MAX, i64::MIN, i64::MIN + 1, 1 << 40]),
        }
    }

    /// A map over `nd` dimensions, in the canonical form MLIR's parser
    /// builds from its own printed text. (Maps whose text does not parse,
    /// e.g. with the constant `i64::MIN`, are generated again.)
    fn affine_map_with_dims(&mut self, nd: u32) -> AffineMap {
        self.stats.affine_total += 1;
        for _ in 0..8 {
            let ns = self.range(0, 2) as u32;
            let nr = self.range(0, 3) as usize;
            let results = (0..nr).map(|_| self.affine_expr(nd, ns, 0, true)).collect();
            let map = AffineMap::new(nd, ns, results);
            if let Some(cur) = canonical_affine(map.clone(), |t| {
                rmlir_reader::affine_parser::parse_affine_map(t).map(|r| r.0)
            }) {
                if cur != map {
                    self.stats.affine_canonicalised += 1;
                }
                return if self.cfg.canonical { cur } else { map };
            }
            self.stats.affine_unparseable += 1;
        }
        AffineMap::new(nd, 0, Vec::new())
    }

    fn integer_set(&mut self) -> IntegerSet {
        self.stats.affine_total += 1;
        for _ in 0..8 {
            let nd = self.range(0, 3) as u32;
            let ns = self.range(0, 2) as u32;
            let nc = self.range(1, 3) as usize;
            let constraints = (0..nc).map(|_| self.affine_expr(nd, ns, 0, true)).collect();
            let eq_flags = (0..nc).map(|_| self.chance(1, 3)).collect();
            let set = IntegerSet::new(nd, ns, constraints, eq_flags);
            if let Some(cur) = canonical_affine(set.clone(), |t| {
                rmlir_reader::affine_parser::parse_integer_set(t).map(|r| r.0)
            }) {
                if cur != set {
                    self.stats.affine_canonicalised += 1;
                }
                return if self.cfg.canonical { cur } else { set };
            }
            self.stats.affine_unparseable += 1;
        }
        IntegerSet::empty(0, 0)
    }

    // ----- locations -----

    fn file_name(&mut self) -> Vec<u8> {
        if self.chance(3, 4) {
            let names: [&[u8]; 6] = [
                b"a.mlir",
                b"x.py",
                b"dir/f.c",
                b"",
                b"with space\"q\".txt",
                b"<stdin>",
            ];
            self.pick(&names).to_vec()
        } else {
            self.string_bytes(8)
        }
    }

    fn loc(&mut self, depth: u32) -> AttrId {
        if !self.loc_pool.is_empty() && self.chance(2, 5) {
            let i = self.below(self.loc_pool.len());
            return self.loc_pool[i];
        }
        self.stats.locs += 1;
        let leaf = depth >= self.cfg.max_attr_depth;
        let k = if leaf {
            self.weighted(&[2, 6, 3, 0, 0, 0])
        } else {
            self.weighted(&[2, 6, 3, 3, 2, 3])
        };
        let l = match k {
            0 => self.m.ctx.intern_attr(AttrData::UnknownLoc),
            1 => {
                let mut file = self.file_name();
                if file.is_empty() && !GEN_EMPTY_FILE_POINT_LOC {
                    file = b"-".to_vec();
                }
                let line = self.line_number();
                let col = self.line_number();
                self.m.ctx.intern_attr(AttrData::FileLineCol {
                    file: file.into(),
                    line,
                    col,
                })
            }
            2 => {
                let file = self.file_name();
                let start_line = self.line_number();
                let start_col = self.line_number();
                let form = self.weighted(&[
                    3,
                    3,
                    u32::from(GEN_RANGE_WITHOUT_COLUMN),
                    u32::from(GEN_POINT_RANGE),
                ]);
                let (start_col, end_line, end_col) = match form {
                    0 => {
                        // Same line: `a:1:2 to :5`.
                        let mut ec = self.line_number();
                        if ec == start_col {
                            ec = ec.wrapping_add(1);
                        }
                        (Some(start_col), Some(start_line), Some(ec))
                    }
                    1 => {
                        let mut el = self.line_number();
                        if el == start_line {
                            el = el.wrapping_add(1);
                        }
                        (Some(start_col), Some(el), Some(self.line_number()))
                    }
                    2 => (None, None, None),
                    _ => (Some(start_col), Some(start_line), Some(start_col)),
                };
                // These two forms print as a point `"file":line:col`, which
                // reads back as a `FileLineCol`: a file name of their own
                // keeps them from meeting an equal-looking point location
                // (mlir-opt would merge the two after reading).
                let file = match form {
                    2 => b"nocol.c".to_vec(),
                    3 => b"pointrange.c".to_vec(),
                    _ => file,
                };
                self.m
                    .ctx
                    .intern_attr(AttrData::FileLineColRange(Box::new(FileLineColRange {
                        file: file.into(),
                        start_line,
                        start_col,
                        end_line,
                        end_col,
                    })))
            }
            3 => {
                let name = self.string_bytes(6);
                let child = if self.chance(1, 2) {
                    self.m.ctx.intern_attr(AttrData::UnknownLoc)
                } else {
                    self.loc(depth + 1)
                };
                self.m.ctx.intern_attr(AttrData::NameLoc {
                    name: name.into(),
                    child,
                })
            }
            4 => {
                let callee = self.loc(depth + 1);
                let caller = self.loc(depth + 1);
                self.m
                    .ctx
                    .intern_attr(AttrData::CallSiteLoc { callee, caller })
            }
            _ => {
                let n = self.weighted(&[1, 2, 4, 3, 1]);
                let locations: Vec<AttrId> = (0..n).map(|_| self.loc(depth + 1)).collect();
                let metadata = if self.chance(1, 2) {
                    self.in_metadata += 1;
                    let md = self.attr(depth + 1);
                    self.in_metadata -= 1;
                    Some(md)
                } else {
                    None
                };
                self.fused(locations, metadata)
            }
        };
        self.loc_pool.push(l);
        l
    }

    /// A fused location as MLIR holds it after reading its text: MLIR's
    /// `FusedLoc::get` flattens fused members with the same metadata, drops
    /// unknown members and duplicates, gives `unknown` for no members
    /// without metadata (`fused<md>[unknown]` with metadata) and the member
    /// itself for a single one without metadata. One application is not
    /// always a fixpoint (flattening `fused<md>[unknown]` into a list keeps
    /// its `unknown`, which the next read drops), so it is applied until
    /// the result settles, as print → parse would.
    fn fused(&mut self, locs: Vec<AttrId>, metadata: Option<AttrId>) -> AttrId {
        self.stats.fused_total += 1;
        let raw = AttrData::FusedLoc {
            locations: locs.clone(),
            metadata,
        };
        if GEN_UNFOLDED_FUSED_LOC {
            return self.m.ctx.intern_attr(raw);
        }
        let mut cur = self.fused_get(&locs, metadata);
        while let AttrData::FusedLoc {
            locations,
            metadata,
        } = self.m.ctx.attr(cur).clone()
        {
            let next = self.fused_get(&locations, metadata);
            if next == cur {
                break;
            }
            cur = next;
        }
        if *self.m.ctx.attr(cur) != raw {
            self.stats.fused_folded += 1;
        }
        cur
    }

    /// One application of MLIR's `FusedLoc::get`.
    fn fused_get(&mut self, locs: &[AttrId], metadata: Option<AttrId>) -> AttrId {
        let mut out: Vec<AttrId> = Vec::new();
        let insert = |out: &mut Vec<AttrId>, l: AttrId| {
            if !out.contains(&l) {
                out.push(l);
            }
        };
        for &l in locs {
            if let AttrData::FusedLoc {
                locations,
                metadata: md,
            } = self.m.ctx.attr(l)
            {
                if *md == metadata {
                    for &x in locations {
                        insert(&mut out, x);
                    }
                    continue;
                }
            }
            if !matches!(self.m.ctx.attr(l), AttrData::UnknownLoc) {
                insert(&mut out, l);
            }
        }
        let unknown = self.m.ctx.intern_attr(AttrData::UnknownLoc);
        if out.is_empty() && metadata.is_none() {
            unknown
        } else if out.is_empty() {
            self.m.ctx.intern_attr(AttrData::FusedLoc {
                locations: vec![unknown],
                metadata,
            })
        } else if out.len() == 1 && metadata.is_none() {
            out[0]
        } else {
            self.m.ctx.intern_attr(AttrData::FusedLoc {
                locations: out,
                metadata,
            })
        }
    }

    // ----- operations -----

    fn op_name(&mut self) -> Vec<u8> {
        let dialect = self.pick(DIALECTS);
        match self.weighted(&[8, 1, 1]) {
            0 => {
                let n = self.range(0, 9);
                let stem = self.pick(&["op", "x", "do_it", "a.b", "Op"]);
                format!("{dialect}.{stem}{n}").into_bytes()
            }
            1 => {
                // Odd characters in the op name (printed escaped).
                let mut v = format!("{dialect}.").into_bytes();
                // (mlir-opt rejects a NUL in an operation name.)
                let tail = self.string_bytes(5);
                v.extend(tail.into_iter().filter(|&c| c != 0));
                v
            }
            _ => dialect.as_bytes().to_vec(),
        }
    }

    fn op(&mut self, depth: u32, visible: &[ValueId], successors: Vec<BlockId>) -> OpId {
        self.ops_left = self.ops_left.saturating_sub(1);
        self.stats.ops += 1;
        let name = self.op_name();
        let name = self.m.op_names.intern(&name);
        let n_operands = if visible.is_empty() {
            0
        } else {
            self.weighted(&[3, 3, 2, 1, 1])
        };
        let operands: Vec<ValueId> = (0..n_operands)
            .map(|_| visible[self.below(visible.len())])
            .collect();
        let n_results = match self.weighted(&[4, 5, 2, 1, 1]) {
            4 => self.range(4, 20) as usize,
            n => n,
        };
        let result_types: Vec<TypeId> = (0..n_results).map(|_| self.any_type(0)).collect();
        let n_regions = if depth < self.cfg.max_region_depth && self.ops_left > 0 {
            self.weighted(&[6, 3, 1])
        } else {
            0
        };
        let regions: Vec<RegionId> = (0..n_regions)
            .map(|_| self.region(depth + 1, visible))
            .collect();
        self.in_props += 1;
        let properties = match self.weighted(&[10, 3, 1]) {
            0 => None,
            1 => Some(self.dict_attr(1)),
            _ => Some(self.attr(1)),
        };
        self.in_props -= 1;
        let attributes = if self.chance(1, 2) {
            self.m.ctx.intern_attr(AttrData::Dictionary(Vec::new()))
        } else {
            self.dict_attr(0)
        };
        let loc = self.loc(0);
        self.m.new_op(
            name,
            &operands,
            &result_types,
            successors,
            properties,
            attributes,
            regions,
            loc,
        )
    }

    /// A region of an op nested `depth` levels deep; `scope` are the values
    /// that dominate the op.
    fn region(&mut self, depth: u32, scope: &[ValueId]) -> RegionId {
        self.stats.regions += 1;
        let r = self.m.new_region();
        let nblocks = if self.ops_left == 0 {
            self.weighted(&[1, 3])
        } else {
            self.weighted(&[1, 6, 2, 1])
        };
        let blocks: Vec<BlockId> = (0..nblocks).map(|_| self.m.new_block()).collect();
        for &b in &blocks {
            self.stats.blocks += 1;
            self.m.push_block(r, b);
            let nargs = match self.weighted(&[10, 6, 2, 2, 1]) {
                4 => self.range(4, 12) as usize,
                n => n,
            };
            for _ in 0..nargs {
                let ty = self.any_type(0);
                let loc = self.loc(0);
                self.m.add_block_arg(b, ty, loc);
            }
        }
        let mut entry_values: Vec<ValueId> = Vec::new();
        for (i, &b) in blocks.iter().enumerate() {
            let mut visible = scope.to_vec();
            if i > 0 {
                // The entry block dominates every (reachable) block.
                visible.extend_from_slice(&entry_values);
            }
            visible.extend(self.m.block(b).args.iter().copied());
            // Blocks of a multi-block region need at least one op.
            let min = usize::from(nblocks > 1);
            let max = if self.ops_left == 0 { min } else { 4 };
            let nops = self.range(min as u64, max as u64) as usize;
            for k in 0..nops {
                let successors = if k + 1 == nops && nblocks > 1 && self.chance(1, 2) {
                    let ns = self.weighted(&[3, 2, 1]) + 1;
                    (0..ns)
                        .map(|_| blocks[1 + self.below(nblocks - 1)])
                        .collect()
                } else {
                    Vec::new()
                };
                let op = self.op(depth, &visible, successors);
                self.m.push_op(b, op);
                visible.extend(self.m.op(op).results());
            }
            if i == 0 {
                entry_values = visible[scope.len()..].to_vec();
            }
        }
        r
    }

    fn module(&mut self) {
        let region = self.m.new_region();
        let block = self.m.new_block();
        self.m.push_block(region, block);
        let mut visible: Vec<ValueId> = Vec::new();
        let n = if self.chance(1, 50) {
            0
        } else {
            self.range(1, 8)
        };
        for _ in 0..n {
            let op = self.op(1, &visible, Vec::new());
            self.m.push_op(block, op);
            visible.extend(self.m.op(op).results());
            if self.ops_left == 0 {
                break;
            }
        }
        // The module accepts discardable attributes with a dialect prefix only.
        let mut entries: Vec<(Bytes, AttrId)> = Vec::new();
        if self.chance(1, 5) {
            for _ in 0..self.range(1, 2) {
                let d = self.pick(DIALECTS);
                let suffix = self.pick(&["attr", "x", "y.z"]);
                let name = format!("{d}.{suffix}").into_bytes();
                let v = self.attr(1);
                if !entries.iter().any(|(k, _)| **k == *name) {
                    entries.push((name.into(), v));
                }
            }
            entries.sort_by(|a, b| a.0.cmp(&b.0));
        }
        let attrs = self.m.ctx.intern_attr(AttrData::Dictionary(entries));
        let loc = self.loc(0);
        let name = self.m.op_names.intern(b"builtin.module");
        let top = self
            .m
            .new_op(name, &[], &[], Vec::new(), None, attrs, vec![region], loc);
        self.m.top = Some(top);
        // File-level resources: the blobs of the `dense_resource` keys, plus
        // an unreferenced one now and then (not printed).
        let mut entries: Vec<(Bytes, ResourceValue)> = Vec::new();
        for (k, v) in std::mem::take(&mut self.resources) {
            if let Some(v) = v {
                entries.push((k.into(), v));
            }
        }
        if self.chance(1, 10) {
            entries.push((
                b"unused_blob".to_vec().into(),
                ResourceValue::Blob {
                    alignment: 8,
                    data: vec![1, 2, 3].into(),
                },
            ));
        }
        if !entries.is_empty() {
            self.m.resources.dialect.push(ResourceGroup {
                name: b"builtin".to_vec().into(),
                entries,
            });
        }
    }
}
