//! Affine expressions, affine maps and integer sets.
//!
//! The model mirrors MLIR's: an [`AffineExpr`] is a tree over dimension
//! identifiers (`d0`, `d1`, ...), symbol identifiers (`s0`, ...), 64-bit
//! constants and the binary operators `+`, `*`, `mod`, `floordiv` and
//! `ceildiv`.  Subtraction and negation are not separate node kinds: MLIR
//! expresses `a - b` as `a + b * -1`, and so does this module.
//!
//! MLIR never stores an arbitrary tree: every binary expression is created
//! through a small set of constructors that fold constants and bring the
//! operands into a canonical order (constants to the right, symbolic terms
//! to the right of dimensional ones, `x + c1 + c2` folded, and so on).  The
//! constructors [`AffineExpr::add`], [`AffineExpr::mul`],
//! [`AffineExpr::floor_div`], [`AffineExpr::ceil_div`] and
//! [`AffineExpr::modulo`] reproduce those rules step by step, so that a tree
//! built here is the same tree MLIR builds from the same sequence of
//! operations.  The `Display` implementations produce exactly the text MLIR's
//! assembly printer emits.
//!
//! Integer arithmetic follows MLIR: where MLIR checks for overflow (folding
//! two constants with `+`, `*`, `floordiv`, `ceildiv`) the fold is simply not
//! performed and the expression is kept as a binary node; where MLIR does not
//! check (for example when merging `x * c1 + x * c2`), the arithmetic wraps.
//! Nothing in this module panics on any input value.

use std::fmt;

/// An affine (or semi-affine) expression.
///
/// Build composite expressions with the simplifying constructors
/// ([`AffineExpr::add`] and friends) to obtain the canonical form MLIR uses;
/// the variants can also be assembled directly when a tree must be
/// represented verbatim.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AffineExpr {
    /// Dimension identifier `d<N>`.
    Dim(u32),
    /// Symbol identifier `s<N>`.
    Symbol(u32),
    /// Integer constant.
    Constant(i64),
    /// `lhs + rhs`.
    Add(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs * rhs`.
    Mul(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs mod rhs`.
    Mod(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs floordiv rhs`.
    FloorDiv(Box<AffineExpr>, Box<AffineExpr>),
    /// `lhs ceildiv rhs`.
    CeilDiv(Box<AffineExpr>, Box<AffineExpr>),
}

use AffineExpr::{Add, CeilDiv, Constant, Dim, FloorDiv, Mod, Mul, Symbol};

/// Floor division of two integers; the caller guarantees `rhs != 0` and that
/// the quotient is representable (not `i64::MIN / -1`).
fn floor_div_i64(lhs: i64, rhs: i64) -> i64 {
    let q = i128::from(lhs).div_euclid(i128::from(rhs));
    // `div_euclid` rounds so that the remainder is non-negative; for a
    // negative divisor that is a ceiling, so adjust to a true floor.
    let r = i128::from(lhs) - q * i128::from(rhs);
    let q = if r != 0 && rhs < 0 { q - 1 } else { q };
    q as i64
}

/// Ceiling division of two integers, same preconditions as [`floor_div_i64`].
fn ceil_div_i64(lhs: i64, rhs: i64) -> i64 {
    let l = i128::from(lhs);
    let r = i128::from(rhs);
    let q = l / r;
    let rem = l % r;
    // Truncating division rounded towards zero; bump when the exact quotient
    // is positive and had a fractional part.
    let q = if rem != 0 && ((rem > 0) == (r > 0)) {
        q + 1
    } else {
        q
    };
    q as i64
}

/// Greatest common divisor on unsigned 64-bit values (`gcd(0, x) == x`).
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

// The constructor names (`add`, `mul`, `neg`, `sub`) are part of the public
// API; the operator traits are implemented as well, below.
#[allow(clippy::should_implement_trait)]
impl AffineExpr {
    /// The dimension identifier `d<position>`.
    pub fn dim(position: u32) -> AffineExpr {
        Dim(position)
    }

    /// The symbol identifier `s<position>`.
    pub fn symbol(position: u32) -> AffineExpr {
        Symbol(position)
    }

    /// An integer constant.
    pub fn constant(value: i64) -> AffineExpr {
        Constant(value)
    }

    /// The constant value if this is a constant expression.
    pub fn as_constant(&self) -> Option<i64> {
        match self {
            Constant(c) => Some(*c),
            _ => None,
        }
    }

    /// The two operands if this is a binary expression.
    pub fn operands(&self) -> Option<(&AffineExpr, &AffineExpr)> {
        match self {
            Add(l, r) | Mul(l, r) | Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => Some((l, r)),
            Dim(_) | Symbol(_) | Constant(_) => None,
        }
    }

    /// True if the expression contains no dimension identifier (MLIR's
    /// `isSymbolicOrConstant`).
    pub fn is_symbolic_or_constant(&self) -> bool {
        match self {
            Constant(_) | Symbol(_) => true,
            Dim(_) => false,
            Add(l, r) | Mul(l, r) | Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => {
                l.is_symbolic_or_constant() && r.is_symbolic_or_constant()
            }
        }
    }

    /// True if multiplication, division and modulo only involve constants
    /// (MLIR's `isPureAffine`).
    pub fn is_pure_affine(&self) -> bool {
        match self {
            Constant(_) | Symbol(_) | Dim(_) => true,
            Add(l, r) => l.is_pure_affine() && r.is_pure_affine(),
            Mul(l, r) => {
                l.is_pure_affine()
                    && r.is_pure_affine()
                    && (matches!(**l, Constant(_)) || matches!(**r, Constant(_)))
            }
            Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => {
                l.is_pure_affine() && matches!(**r, Constant(_))
            }
        }
    }

    /// The largest integer known to divide the value of this expression
    /// (MLIR's `getLargestKnownDivisor`), with MLIR's 64-bit wrap-around
    /// behaviour in degenerate cases.
    pub fn largest_known_divisor(&self) -> i64 {
        match self {
            Dim(_) | Symbol(_) => 1,
            Constant(c) => c.wrapping_abs(),
            FloorDiv(l, r) | CeilDiv(l, r) => {
                if let Constant(d) = **r {
                    if d != 0 {
                        let ld = l.largest_known_divisor();
                        if ld.wrapping_rem(d) == 0 {
                            return ld.wrapping_div(d).wrapping_abs();
                        }
                    }
                }
                1
            }
            Mul(l, r) => l
                .largest_known_divisor()
                .wrapping_mul(r.largest_known_divisor()),
            Add(l, r) | Mod(l, r) => gcd_u64(
                l.largest_known_divisor() as u64,
                r.largest_known_divisor() as u64,
            ) as i64,
        }
    }

    /// `lhs + rhs`, simplified the way MLIR's `AffineExpr::operator+` does.
    pub fn add(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match simplify_add(&lhs, &rhs) {
            Some(e) => e,
            None => {
                let (lhs, rhs) = order_identifiers(lhs, rhs);
                Add(Box::new(lhs), Box::new(rhs))
            }
        }
    }

    /// `lhs * rhs`, simplified the way MLIR's `AffineExpr::operator*` does.
    pub fn mul(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match simplify_mul(&lhs, &rhs) {
            Some(e) => e,
            None => {
                let (lhs, rhs) = order_identifiers(lhs, rhs);
                Mul(Box::new(lhs), Box::new(rhs))
            }
        }
    }

    /// `lhs floordiv rhs`, simplified like MLIR's `AffineExpr::floorDiv`.
    pub fn floor_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match simplify_floor_div(&lhs, &rhs) {
            Some(e) => e,
            None => FloorDiv(Box::new(lhs), Box::new(rhs)),
        }
    }

    /// `lhs ceildiv rhs`, simplified like MLIR's `AffineExpr::ceilDiv`.
    pub fn ceil_div(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match simplify_ceil_div(&lhs, &rhs) {
            Some(e) => e,
            None => CeilDiv(Box::new(lhs), Box::new(rhs)),
        }
    }

    /// `lhs mod rhs`, simplified like MLIR's `AffineExpr::operator%`.
    pub fn modulo(lhs: AffineExpr, rhs: AffineExpr) -> AffineExpr {
        match simplify_mod(&lhs, &rhs) {
            Some(e) => e,
            None => Mod(Box::new(lhs), Box::new(rhs)),
        }
    }

    /// `-a`, which MLIR represents as `a * -1`.
    pub fn neg(a: AffineExpr) -> AffineExpr {
        AffineExpr::mul(a, Constant(-1))
    }

    /// `a - b`, which MLIR represents as `a + b * -1`.
    pub fn sub(a: AffineExpr, b: AffineExpr) -> AffineExpr {
        AffineExpr::add(a, AffineExpr::neg(b))
    }

    /// `self` with `Dim(i)` replaced by `dims[i]` and `Symbol(i)` by
    /// `syms[i]` (kept where there is no replacement), rebuilt through the
    /// simplifying constructors where something changed (MLIR's
    /// `AffineExpr::replaceDimsAndSymbols`).
    pub fn replace_dims_and_symbols(&self, dims: &[AffineExpr], syms: &[AffineExpr]) -> AffineExpr {
        match self {
            Dim(i) => dims
                .get(*i as usize)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            Symbol(i) => syms
                .get(*i as usize)
                .cloned()
                .unwrap_or_else(|| self.clone()),
            Constant(_) => self.clone(),
            Add(l, r) | Mul(l, r) | Mod(l, r) | FloorDiv(l, r) | CeilDiv(l, r) => {
                let (nl, nr) = (
                    l.replace_dims_and_symbols(dims, syms),
                    r.replace_dims_and_symbols(dims, syms),
                );
                if nl == **l && nr == **r {
                    return self.clone();
                }
                self.rebuild_binary(nl, nr).unwrap_or_else(|| self.clone())
            }
        }
    }

    /// Builds a binary expression of the same kind as `self` (which must be
    /// binary) from new operands, through the simplifying constructors.
    /// Returns `None` for leaves.
    pub fn rebuild_binary(&self, lhs: AffineExpr, rhs: AffineExpr) -> Option<AffineExpr> {
        Some(match self {
            Add(..) => AffineExpr::add(lhs, rhs),
            Mul(..) => AffineExpr::mul(lhs, rhs),
            Mod(..) => AffineExpr::modulo(lhs, rhs),
            FloorDiv(..) => AffineExpr::floor_div(lhs, rhs),
            CeilDiv(..) => AffineExpr::ceil_div(lhs, rhs),
            Dim(_) | Symbol(_) | Constant(_) => return None,
        })
    }
}

impl std::ops::Add for AffineExpr {
    type Output = AffineExpr;
    fn add(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::add(self, rhs)
    }
}

impl std::ops::Sub for AffineExpr {
    type Output = AffineExpr;
    fn sub(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::sub(self, rhs)
    }
}

impl std::ops::Mul for AffineExpr {
    type Output = AffineExpr;
    fn mul(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::mul(self, rhs)
    }
}

impl std::ops::Neg for AffineExpr {
    type Output = AffineExpr;
    fn neg(self) -> AffineExpr {
        AffineExpr::neg(self)
    }
}

impl std::ops::Rem for AffineExpr {
    type Output = AffineExpr;
    fn rem(self, rhs: AffineExpr) -> AffineExpr {
        AffineExpr::modulo(self, rhs)
    }
}

/// Sort key of a bare identifier: dimensions before symbols, then by
/// position.
fn identifier_key(e: &AffineExpr) -> Option<(u8, u32)> {
    match *e {
        Dim(p) => Some((0, p)),
        Symbol(p) => Some((1, p)),
        _ => None,
    }
}

/// Recent MLIR (as in LLVM 22) orders the operands of a new `+` or `*` node when
/// both are bare identifiers, so `d1 + d0` is stored as `d0 + d1` and
/// `s1 * s0` as `s0 * s1`.  Operands that are not both identifiers keep
/// their order.
fn order_identifiers(lhs: AffineExpr, rhs: AffineExpr) -> (AffineExpr, AffineExpr) {
    match (identifier_key(&lhs), identifier_key(&rhs)) {
        (Some(l), Some(r)) if l > r => (rhs, lhs),
        _ => (lhs, rhs),
    }
}

/// Splits `e` into `(multiplicand, coefficient)` when it is `x * c` with a
/// constant right operand; otherwise the coefficient is 1.
fn split_coefficient(e: &AffineExpr) -> (&AffineExpr, i64) {
    if let Mul(l, r) = e {
        if let Constant(c) = **r {
            return (l, c);
        }
    }
    (e, 1)
}

fn simplify_add(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    // Two constants: fold unless the sum overflows (then keep the node).
    if let (Constant(a), Constant(b)) = (lhs, rhs) {
        return a.checked_add(*b).map(Constant);
    }

    // Canonical order: a constant goes right; of one symbolic and one
    // dimensional operand, the symbolic one goes right.
    if matches!(lhs, Constant(_))
        || (lhs.is_symbolic_or_constant() && !rhs.is_symbolic_or_constant())
    {
        return Some(AffineExpr::add(rhs.clone(), lhs.clone()));
    }

    // From here on a constant operand can only be on the right.
    if let Constant(0) = rhs {
        return Some(lhs.clone());
    }

    // (x + c1) + c2  ->  x + (c1 + c2)
    if let (Add(ll, lr), Constant(c2)) = (lhs, rhs) {
        if let Constant(c1) = **lr {
            return Some(AffineExpr::add(
                (**ll).clone(),
                Constant(c1.wrapping_add(*c2)),
            ));
        }
    }

    // c1 * x + c2 * x  ->  x * (c1 + c2), a bare x counting as 1 * x.
    let (first, c1) = split_coefficient(lhs);
    let (second, c2) = split_coefficient(rhs);
    if first == second {
        return Some(AffineExpr::mul(
            first.clone(),
            Constant(c1.wrapping_add(c2)),
        ));
    }

    // (x + c) + y  ->  (x + y) + c, keeping the constant outermost.
    if let Add(ll, lr) = lhs {
        if let Constant(c) = **lr {
            let inner = AffineExpr::add((**ll).clone(), rhs.clone());
            return Some(AffineExpr::add(inner, Constant(c)));
        }
    }

    // Recognise `x - (x floordiv q) * q` as `x mod q`, in the two shapes
    // MLIR looks for.  The right operand must be a binary expression.
    let (r_lhs, r_rhs) = rhs.operands()?;

    // Shape 1: x + ((x floordiv q) * q) * -1.
    if let (Constant(-1), Mul(prod_l, prod_r)) = (r_rhs, r_lhs) {
        let FloorDiv(div_l, div_r) = &**prod_l else {
            return None;
        };
        if **div_r == **prod_r && *lhs == **div_l {
            return Some(AffineExpr::modulo(lhs.clone(), (**prod_r).clone()));
        }
    }

    // Shape 2: x + (x floordiv c) * (-c), only for a positive constant c
    // (MLIR does not form a modulo by a negative or symbolic divisor here).
    let (FloorDiv(div_l, div_r), Mul(..)) = (r_lhs, rhs) else {
        return None;
    };
    if matches!(**div_r, Constant(c) if c > 0)
        && *lhs == **div_l
        && **div_r == AffineExpr::neg(r_rhs.clone())
    {
        return Some(AffineExpr::modulo(lhs.clone(), (**div_r).clone()));
    }

    // (a + b) + (x floordiv c) * k: if `b + (x floordiv c) * k` simplifies on
    // its own (for instance to `x mod c` when b is x), use a + that.  MLIR
    // (as in LLVM 22) performs this even when the inner simplification is a
    // mere reordering.
    if let Add(ll, lr) = lhs {
        if let Some(inner) = simplify_add(lr, rhs) {
            return Some(AffineExpr::add((**ll).clone(), inner));
        }
    }
    None
}

fn simplify_mul(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    if let (Constant(a), Constant(b)) = (lhs, rhs) {
        return a.checked_mul(*b).map(Constant);
    }

    let lhs_sym = lhs.is_symbolic_or_constant();
    let rhs_sym = rhs.is_symbolic_or_constant();
    // A product of two dimensional expressions is not affine; MLIR leaves it
    // alone (the parser rejects it before getting here).
    if !lhs_sym && !rhs_sym {
        return None;
    }

    // Canonical order: the symbolic/constant factor goes right, and a
    // constant always goes right.
    if !rhs_sym || matches!(lhs, Constant(_)) {
        return Some(AffineExpr::mul(rhs.clone(), lhs.clone()));
    }

    if let Constant(c) = rhs {
        if *c == 1 {
            return Some(lhs.clone());
        }
        if *c == 0 {
            return Some(Constant(0));
        }
    }

    if let Mul(ll, lr) = lhs {
        if let Constant(c1) = **lr {
            // (x * c1) * c2  ->  x * (c1 * c2)
            if let Constant(c2) = rhs {
                return Some(AffineExpr::mul(
                    (**ll).clone(),
                    Constant(c1.wrapping_mul(*c2)),
                ));
            }
            // (x * c) * y  ->  (x * y) * c
            let inner = AffineExpr::mul((**ll).clone(), rhs.clone());
            return Some(AffineExpr::mul(inner, Constant(c1)));
        }
    }
    None
}

fn simplify_floor_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let Constant(d) = *rhs else {
        return None;
    };
    if d == 0 {
        return None;
    }
    if let Constant(n) = *lhs {
        if n == i64::MIN && d == -1 {
            return None;
        }
        return Some(Constant(floor_div_i64(n, d)));
    }
    if d == 1 {
        return Some(lhs.clone());
    }
    // (x * c) floordiv d  ->  x * (c / d)  when d divides c.
    if let Mul(ll, lr) = lhs {
        if let Constant(c) = **lr {
            if c.wrapping_rem(d) == 0 {
                return Some(AffineExpr::mul((**ll).clone(), Constant(c.wrapping_div(d))));
            }
        }
    }
    // (a + b) floordiv d  ->  a floordiv d + b floordiv d  when d is known
    // to divide one of the summands.
    if let Add(ll, lr) = lhs {
        let ld = ll.largest_known_divisor();
        let rd = lr.largest_known_divisor();
        if ld.wrapping_rem(d) == 0 || rd.wrapping_rem(d) == 0 {
            return Some(AffineExpr::add(
                AffineExpr::floor_div((**ll).clone(), Constant(d)),
                AffineExpr::floor_div((**lr).clone(), Constant(d)),
            ));
        }
    }
    None
}

fn simplify_ceil_div(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    let Constant(d) = *rhs else {
        return None;
    };
    if d == 0 {
        return None;
    }
    if let Constant(n) = *lhs {
        if n == i64::MIN && d == -1 {
            return None;
        }
        return Some(Constant(ceil_div_i64(n, d)));
    }
    if d == 1 {
        return Some(lhs.clone());
    }
    // (x * c) ceildiv d  ->  x * (c / d)  when d divides c.
    if let Mul(ll, lr) = lhs {
        if let Constant(c) = **lr {
            if c.wrapping_rem(d) == 0 {
                return Some(AffineExpr::mul((**ll).clone(), Constant(c.wrapping_div(d))));
            }
        }
    }
    None
}

fn simplify_mod(lhs: &AffineExpr, rhs: &AffineExpr) -> Option<AffineExpr> {
    // Modulo by zero or by a negative number is left untouched.
    let Constant(m) = *rhs else {
        return None;
    };
    if m < 1 {
        return None;
    }
    if let Constant(n) = *lhs {
        return Some(Constant(n.rem_euclid(m)));
    }
    // A known multiple of m is 0 mod m.
    if lhs.largest_known_divisor().wrapping_rem(m) == 0 {
        return Some(Constant(0));
    }
    match lhs {
        // (a + b) mod m drops a summand that is a known multiple of m.
        Add(ll, lr) => {
            if ll.largest_known_divisor().wrapping_rem(m) == 0 {
                return Some(AffineExpr::modulo((**lr).clone(), Constant(m)));
            }
            if lr.largest_known_divisor().wrapping_rem(m) == 0 {
                return Some(AffineExpr::modulo((**ll).clone(), Constant(m)));
            }
        }
        // (x mod k) mod m  ->  x mod m  when m divides k.
        Mod(ll, lr) => {
            if let Constant(k) = **lr {
                if k >= 1 && k % m == 0 {
                    return Some(AffineExpr::modulo((**ll).clone(), Constant(m)));
                }
            }
        }
        _ => {}
    }
    None
}

/// How tightly the context binds the expression being printed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binding {
    Weak,
    Strong,
}

/// How a dimension or symbol prints: `(is_symbol, position)`.
type Leaf<'a> = &'a dyn Fn(&mut fmt::Formatter<'_>, bool, u32) -> fmt::Result;

fn write_expr(f: &mut fmt::Formatter<'_>, e: &AffineExpr, ctx: Binding) -> fmt::Result {
    write_expr_with(f, e, ctx, &|f, sym, p| {
        if sym {
            write!(f, "s{p}")
        } else {
            write!(f, "d{p}")
        }
    })
}

fn write_expr_with(
    f: &mut fmt::Formatter<'_>,
    e: &AffineExpr,
    ctx: Binding,
    leaf: Leaf<'_>,
) -> fmt::Result {
    let write_expr =
        |f: &mut fmt::Formatter<'_>, e: &AffineExpr, ctx: Binding| write_expr_with(f, e, ctx, leaf);
    let (lhs, rhs, spelling) = match e {
        Dim(p) => return leaf(f, false, *p),
        Symbol(p) => return leaf(f, true, *p),
        Constant(c) => return write!(f, "{c}"),
        Add(l, r) => (l, r, " + "),
        Mul(l, r) => (l, r, " * "),
        FloorDiv(l, r) => (l, r, " floordiv "),
        CeilDiv(l, r) => (l, r, " ceildiv "),
        Mod(l, r) => (l, r, " mod "),
    };
    let open = ctx == Binding::Strong;
    if open {
        f.write_str("(")?;
    }
    if !matches!(e, Add(..)) {
        if matches!(e, Mul(..)) && **rhs == Constant(-1) {
            // x * -1 prints as -x.
            f.write_str("-")?;
            write_expr(f, lhs, Binding::Strong)?;
        } else {
            write_expr(f, lhs, Binding::Strong)?;
            f.write_str(spelling)?;
            write_expr(f, rhs, Binding::Strong)?;
        }
    } else {
        write_add(f, lhs, rhs, leaf)?;
    }
    if open {
        f.write_str(")")?;
    }
    Ok(())
}

/// Prints `lhs + rhs` (without surrounding parentheses), turning additions
/// of negated terms into subtractions.
fn write_add(
    f: &mut fmt::Formatter<'_>,
    lhs: &AffineExpr,
    rhs: &AffineExpr,
    leaf: Leaf<'_>,
) -> fmt::Result {
    let write_expr =
        |f: &mut fmt::Formatter<'_>, e: &AffineExpr, ctx: Binding| write_expr_with(f, e, ctx, leaf);
    if let Mul(rl, rr) = rhs {
        if let Constant(c) = **rr {
            if c == -1 {
                // a + b * -1 prints as a - b; b keeps parentheses only when
                // it is itself a sum.
                write_expr(f, lhs, Binding::Weak)?;
                f.write_str(" - ")?;
                let b = if matches!(**rl, Add(..)) {
                    Binding::Strong
                } else {
                    Binding::Weak
                };
                return write_expr(f, rl, b);
            }
            if c < -1 {
                // a + b * -c prints as a - b * c.
                write_expr(f, lhs, Binding::Weak)?;
                f.write_str(" - ")?;
                write_expr(f, rl, Binding::Strong)?;
                return write!(f, " * {}", c.wrapping_neg());
            }
        }
    }
    if let Constant(c) = *rhs {
        if c < 0 {
            // a + -c prints as a - c.
            write_expr(f, lhs, Binding::Weak)?;
            return write!(f, " - {}", c.wrapping_neg());
        }
    }
    write_expr(f, lhs, Binding::Weak)?;
    f.write_str(" + ")?;
    write_expr(f, rhs, Binding::Weak)
}

impl fmt::Display for AffineExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(f, self, Binding::Weak)
    }
}

/// An expression printed with its dimensions and symbols spelled by a
/// function (MLIR's `printAffineExpr` with a value printer: the custom
/// form of `affine.load` names SSA values there).
pub struct DisplayWith<'a> {
    expr: &'a AffineExpr,
    leaf: Leaf<'a>,
}

impl AffineExpr {
    /// This expression printed with `leaf(f, is_symbol, position)` for each
    /// dimension and symbol.
    pub fn display_with<'a>(&'a self, leaf: Leaf<'a>) -> DisplayWith<'a> {
        DisplayWith { expr: self, leaf }
    }
}

impl fmt::Display for DisplayWith<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr_with(f, self.expr, Binding::Weak, self.leaf)
    }
}

/// Writes `(d0, d1)` and, when there are symbols, `[s0, s1]`.
fn write_ids(f: &mut fmt::Formatter<'_>, num_dims: u32, num_symbols: u32) -> fmt::Result {
    f.write_str("(")?;
    for i in 0..num_dims {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "d{i}")?;
    }
    f.write_str(")")?;
    if num_symbols > 0 {
        f.write_str("[")?;
        for i in 0..num_symbols {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "s{i}")?;
        }
        f.write_str("]")?;
    }
    Ok(())
}

/// A multi-result affine map `(d0, ...)[s0, ...] -> (expr, ...)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffineMap {
    /// How many dimensions (`d0`, `d1`, ...) it takes.
    pub num_dims: u32,
    /// How many symbols (`s0`, `s1`, ...) it takes.
    pub num_symbols: u32,
    /// Its result expressions, in order.
    pub results: Vec<AffineExpr>,
}

impl AffineMap {
    /// Creates a map from its parts (no simplification is applied).
    pub fn new(num_dims: u32, num_symbols: u32, results: Vec<AffineExpr>) -> AffineMap {
        AffineMap {
            num_dims,
            num_symbols,
            results,
        }
    }

    /// The identity map on `num_dims` dimensions.
    pub fn identity(num_dims: u32) -> AffineMap {
        AffineMap::new(num_dims, 0, (0..num_dims).map(Dim).collect())
    }

    /// True if the map returns exactly its dimensions, in order (MLIR's
    /// `AffineMap::isIdentity`; symbols are not considered).
    pub fn is_identity(&self) -> bool {
        self.results.len() as u64 == u64::from(self.num_dims)
            && self
                .results
                .iter()
                .enumerate()
                .all(|(i, e)| *e == Dim(i as u32))
    }
}

impl fmt::Display for AffineMap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ids(f, self.num_dims, self.num_symbols)?;
        f.write_str(" -> (")?;
        for (i, e) in self.results.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_expr(f, e, Binding::Weak)?;
        }
        f.write_str(")")
    }
}

/// A conjunction of affine constraints `(d0, ...)[s0, ...] : (c >= 0, ...)`.
///
/// Each constraint is an expression compared against zero: `expr == 0` when
/// the matching `eq_flags` entry is true, `expr >= 0` otherwise.  (A missing
/// flag is treated as an inequality.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct IntegerSet {
    /// How many dimensions (`d0`, `d1`, ...) it takes.
    pub num_dims: u32,
    /// How many symbols (`s0`, `s1`, ...) it takes.
    pub num_symbols: u32,
    /// The constrained expressions, in order.
    pub constraints: Vec<AffineExpr>,
    /// Per constraint: `true` for `== 0`, `false` for `>= 0`.
    pub eq_flags: Vec<bool>,
}

impl IntegerSet {
    /// Creates a set from its parts (no simplification is applied).
    pub fn new(
        num_dims: u32,
        num_symbols: u32,
        constraints: Vec<AffineExpr>,
        eq_flags: Vec<bool>,
    ) -> IntegerSet {
        IntegerSet {
            num_dims,
            num_symbols,
            constraints,
            eq_flags,
        }
    }

    /// MLIR's canonical empty set, the single constraint `1 == 0`.
    pub fn empty(num_dims: u32, num_symbols: u32) -> IntegerSet {
        IntegerSet::new(num_dims, num_symbols, vec![Constant(1)], vec![true])
    }

    /// True if this is exactly the canonical empty set (MLIR's
    /// `isEmptyIntegerSet`).
    pub fn is_empty_integer_set(&self) -> bool {
        *self == IntegerSet::empty(self.num_dims, self.num_symbols)
    }

    /// Whether constraint `i` is an equality.
    pub fn is_eq(&self, i: usize) -> bool {
        self.eq_flags.get(i).copied().unwrap_or(false)
    }
}

impl fmt::Display for IntegerSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_ids(f, self.num_dims, self.num_symbols)?;
        f.write_str(" : (")?;
        for (i, e) in self.constraints.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_expr(f, e, Binding::Weak)?;
            f.write_str(if self.is_eq(i) { " == 0" } else { " >= 0" })?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(i: u32) -> AffineExpr {
        Dim(i)
    }
    fn s(i: u32) -> AffineExpr {
        Symbol(i)
    }
    fn c(v: i64) -> AffineExpr {
        Constant(v)
    }

    #[test]
    fn integer_division_helpers() {
        for n in [-7i64, -6, -1, 0, 1, 6, 7, i64::MIN, i64::MAX] {
            for m in [-3i64, -2, -1, 1, 2, 3, i64::MAX, i64::MIN] {
                if n == i64::MIN && m == -1 {
                    continue;
                }
                let fl = (n as f64 / m as f64).floor();
                let ce = (n as f64 / m as f64).ceil();
                if n.unsigned_abs() < 1 << 40 && m.unsigned_abs() < 1 << 40 {
                    assert_eq!(floor_div_i64(n, m) as f64, fl, "{n} floordiv {m}");
                    assert_eq!(ceil_div_i64(n, m) as f64, ce, "{n} ceildiv {m}");
                }
            }
        }
        assert_eq!(floor_div_i64(i64::MIN, 2), i64::MIN / 2);
        assert_eq!(ceil_div_i64(i64::MAX, 2), i64::MAX / 2 + 1);
    }

    #[test]
    fn basic_simplifications() {
        assert_eq!(AffineExpr::add(c(2), d(0)).to_string(), "d0 + 2");
        assert_eq!(AffineExpr::mul(c(2), d(0)).to_string(), "d0 * 2");
        assert_eq!(AffineExpr::sub(d(0), s(0)).to_string(), "d0 - s0");
        assert_eq!(
            AffineExpr::neg(AffineExpr::add(d(0), c(1))).to_string(),
            "-(d0 + 1)"
        );
        let x = AffineExpr::floor_div(d(0), c(4));
        let e = AffineExpr::sub(d(0), AffineExpr::mul(x, c(4)));
        assert_eq!(e.to_string(), "d0 mod 4");
        assert_eq!(
            AffineExpr::add(c(i64::MAX), c(1)).to_string(),
            "9223372036854775807 + 1"
        );
    }

    #[test]
    fn printing_of_maps_and_sets() {
        let m = AffineMap::new(2, 1, vec![AffineExpr::add(d(0), s(0)), d(1)]);
        assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d0 + s0, d1)");
        assert!(!m.is_identity());
        assert!(AffineMap::identity(3).is_identity());
        assert_eq!(AffineMap::new(0, 0, vec![]).to_string(), "() -> ()");
        let set = IntegerSet::empty(1, 0);
        assert_eq!(set.to_string(), "(d0) : (1 == 0)");
        assert!(set.is_empty_integer_set());
    }
}
