//! The affine model used directly through its constructors.  Expected
//! strings are what mlir-opt 22 prints for the equivalent parsed input
//! (shown in the comments), which builds the same trees through the same
//! operators.

use rmlir_format::affine::{AffineExpr, AffineMap, IntegerSet};

fn d(i: u32) -> AffineExpr {
    AffineExpr::Dim(i)
}
fn s(i: u32) -> AffineExpr {
    AffineExpr::Symbol(i)
}
fn c(v: i64) -> AffineExpr {
    AffineExpr::Constant(v)
}
fn add(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::add(a, b)
}
fn mul(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::mul(a, b)
}
fn sub(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::sub(a, b)
}
fn fdiv(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::floor_div(a, b)
}
fn cdiv(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::ceil_div(a, b)
}
fn modulo(a: AffineExpr, b: AffineExpr) -> AffineExpr {
    AffineExpr::modulo(a, b)
}

#[test]
fn constructors_canonicalize_like_mlir() {
    // (d0) -> (2 + d0)
    assert_eq!(
        add(c(2), d(0)),
        AffineExpr::Add(Box::new(d(0)), Box::new(c(2)))
    );
    // (d0) -> (d0 + 1 + 2) prints (d0 + 3)
    assert_eq!(add(add(d(0), c(1)), c(2)).to_string(), "d0 + 3");
    // (d0, d1) -> (2 * d0) prints (d0 * 2)
    assert_eq!(mul(c(2), d(0)).to_string(), "d0 * 2");
    // (d0, d1) -> (d1 + d0) prints (d0 + d1)
    assert_eq!(add(d(1), d(0)).to_string(), "d0 + d1");
    // ()[s0, s1] -> (s1 * s0) prints (s0 * s1)
    assert_eq!(mul(s(1), s(0)).to_string(), "s0 * s1");
    // (d0)[s0] -> (s0 + d0) prints (d0 + s0)
    assert_eq!(add(s(0), d(0)).to_string(), "d0 + s0");
    // (d0, d1) -> (d0 + 1 + d1) prints (d0 + d1 + 1)
    assert_eq!(add(add(d(0), c(1)), d(1)).to_string(), "d0 + d1 + 1");
    // x * 1, x * 0, x + 0, x floordiv 1, x mod 1
    assert_eq!(mul(d(0), c(1)), d(0));
    assert_eq!(mul(d(0), c(0)), c(0));
    assert_eq!(add(d(0), c(0)), d(0));
    assert_eq!(fdiv(d(0), c(1)), d(0));
    assert_eq!(cdiv(d(0), c(1)), d(0));
    assert_eq!(modulo(d(0), c(1)), c(0));
    // d0 * 2 + d0 * 3 prints d0 * 5; d0 - d0 is 0
    assert_eq!(add(mul(d(0), c(2)), mul(d(0), c(3))).to_string(), "d0 * 5");
    assert_eq!(sub(d(0), d(0)), c(0));
}

#[test]
fn division_and_modulo_rules() {
    // (d0 * 4) floordiv 2 -> d0 * 2; (d0 * 4) mod 8 unchanged; (d0 * 4) mod 2 -> 0
    assert_eq!(fdiv(mul(d(0), c(4)), c(2)).to_string(), "d0 * 2");
    assert_eq!(modulo(mul(d(0), c(4)), c(8)).to_string(), "(d0 * 4) mod 8");
    assert_eq!(modulo(mul(d(0), c(4)), c(2)), c(0));
    // (d0 * 4 + d1) floordiv 4 -> d0 + d1 floordiv 4
    let e = fdiv(add(mul(d(0), c(4)), d(1)), c(4));
    assert_eq!(e.to_string(), "d0 + d1 floordiv 4");
    // (d0 mod 8) mod 4 -> d0 mod 4
    assert_eq!(modulo(modulo(d(0), c(8)), c(4)).to_string(), "d0 mod 4");
    // Constant folding, including negative operands.
    assert_eq!(fdiv(c(-7), c(2)), c(-4));
    assert_eq!(cdiv(c(-7), c(2)), c(-3));
    assert_eq!(fdiv(c(7), c(-2)), c(-4));
    assert_eq!(cdiv(c(7), c(-2)), c(-3));
    assert_eq!(modulo(c(-7), c(2)), c(1));
    // Division by zero and modulo by non-positive constants are kept.
    assert_eq!(fdiv(d(0), c(0)).to_string(), "d0 floordiv 0");
    assert_eq!(modulo(c(5), c(-2)).to_string(), "5 mod -2");
    // x - (x floordiv 4) * 4 -> x mod 4
    let e = sub(d(0), mul(fdiv(d(0), c(4)), c(4)));
    assert_eq!(e.to_string(), "d0 mod 4");
    // but not with a negative divisor: d0 + (d0 floordiv -4) * 4
    let e = add(d(0), mul(fdiv(d(0), c(-4)), c(4)));
    assert_eq!(e.to_string(), "d0 + (d0 floordiv -4) * 4");
    // x - (x floordiv s0) * s0 -> x mod s0
    let e = sub(d(0), mul(fdiv(d(0), s(0)), s(0)));
    assert_eq!(e.to_string(), "d0 mod s0");
    // (s0 + s1) - (s1 floordiv 4) * 4 -> s0 + s1 mod 4
    let e = sub(add(s(0), s(1)), mul(fdiv(s(1), c(4)), c(4)));
    assert_eq!(e.to_string(), "s0 + s1 mod 4");
}

#[test]
fn overflow_follows_mlir() {
    // Folding two constants is skipped on overflow ...
    assert_eq!(
        add(c(i64::MAX), c(1)).to_string(),
        "9223372036854775807 + 1"
    );
    assert_eq!(
        mul(c(i64::MAX), c(2)).to_string(),
        "9223372036854775807 * 2"
    );
    assert_eq!(
        fdiv(c(i64::MIN), c(-1)).to_string(),
        "-9223372036854775808 floordiv -1"
    );
    assert_eq!(
        AffineExpr::neg(c(i64::MIN)).to_string(),
        "--9223372036854775808"
    );
    // ... while merged coefficients wrap.
    assert_eq!(mul(mul(d(0), c(i64::MAX)), c(2)).to_string(), "d0 * -2");
    assert_eq!(
        add(add(d(0), c(i64::MAX)), c(1)).to_string(),
        "d0 - -9223372036854775808"
    );
    assert_eq!(
        modulo(mul(d(0), c(i64::MIN)), c(3)).to_string(),
        "(d0 * -9223372036854775808) mod 3"
    );
}

#[test]
fn printing_of_handmade_trees() {
    use AffineExpr::{Add, Mul};
    let b = Box::new;
    // a + b * -1 prints a - b; a + b * -3 prints a - b * 3; a + -c prints a - c
    assert_eq!(
        Add(b(d(0)), b(Mul(b(d(1)), b(c(-1))))).to_string(),
        "d0 - d1"
    );
    assert_eq!(
        Add(b(d(0)), b(Mul(b(d(1)), b(c(-3))))).to_string(),
        "d0 - d1 * 3"
    );
    assert_eq!(Add(b(d(0)), b(c(-3))).to_string(), "d0 - 3");
    // The subtracted sum keeps its parentheses.
    let sum = Add(b(d(1)), b(d(2)));
    assert_eq!(
        Add(b(d(0)), b(Mul(b(sum.clone()), b(c(-1))))).to_string(),
        "d0 - (d1 + d2)"
    );
    assert_eq!(Mul(b(sum.clone()), b(c(-1))).to_string(), "-(d1 + d2)");
    assert_eq!(Mul(b(sum.clone()), b(c(2))).to_string(), "(d1 + d2) * 2");
    assert_eq!(Mul(b(c(2)), b(d(0))).to_string(), "2 * d0");
    assert_eq!(Add(b(sum.clone()), b(sum)).to_string(), "d1 + d2 + d1 + d2");
    assert_eq!(c(-5).to_string(), "-5");
}

#[test]
fn maps_and_sets() {
    let m = AffineMap::new(2, 1, vec![add(d(0), s(0)), fdiv(d(1), c(2))]);
    assert_eq!(m.to_string(), "(d0, d1)[s0] -> (d0 + s0, d1 floordiv 2)");
    assert_eq!(AffineMap::new(0, 0, vec![]).to_string(), "() -> ()");
    assert_eq!(
        AffineMap::new(0, 2, vec![c(0)]).to_string(),
        "()[s0, s1] -> (0)"
    );

    assert!(AffineMap::identity(3).is_identity());
    assert!(AffineMap::new(0, 0, vec![]).is_identity());
    assert!(AffineMap::new(2, 3, vec![d(0), d(1)]).is_identity());
    assert!(!AffineMap::new(2, 0, vec![d(1), d(0)]).is_identity());
    assert!(!AffineMap::new(2, 0, vec![d(0)]).is_identity());
    assert!(!AffineMap::new(1, 0, vec![d(0), d(0)]).is_identity());
    assert!(!AffineMap::new(1, 1, vec![s(0)]).is_identity());

    let set = IntegerSet::new(1, 1, vec![sub(d(0), s(0)), d(0)], vec![false, true]);
    assert_eq!(set.to_string(), "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)");
    let empty = IntegerSet::empty(1, 0);
    assert_eq!(empty.to_string(), "(d0) : (1 == 0)");
    assert!(empty.is_empty_integer_set());
    assert!(!set.is_empty_integer_set());
    // Degenerate values print without panicking.
    assert_eq!(IntegerSet::new(0, 0, vec![], vec![]).to_string(), "() : ()");
    assert_eq!(
        IntegerSet::new(1, 0, vec![d(0)], vec![]).to_string(),
        "(d0) : (d0 >= 0)"
    );
}
