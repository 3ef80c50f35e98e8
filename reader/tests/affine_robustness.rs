//! Robustness of the affine parser: lexical details, error positions,
//! nesting limits, and no panics on arbitrary (mutated or random) input.

use rmlir_reader::affine_parser::{
    parse_affine_map, parse_integer_set, AffineParseError, MAX_EXPR_DEPTH, MAX_NESTING,
};

fn map(s: &str) -> String {
    let (m, n) = parse_affine_map(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    assert_eq!(n, s.len(), "{s:?} not fully consumed");
    m.to_string()
}

fn map_err(s: &str) -> AffineParseError {
    match parse_affine_map(s) {
        Ok((m, n)) if n == s.len() => panic!("{s:?} unexpectedly parsed as {m}"),
        Ok((_, n)) => AffineParseError {
            offset: n,
            message: "trailing text".into(),
        },
        Err(e) => e,
    }
}

#[test]
fn whitespace_comments_and_newlines_between_tokens() {
    assert_eq!(
        map("(d0,\n d1)\t[s0]\r\n->\n(d0 // a comment\n + s0, // another\n d1)"),
        "(d0, d1)[s0] -> (d0 + s0, d1)"
    );
    assert_eq!(map("(d0)->(d0)"), "(d0) -> (d0)");
    assert_eq!(map("  (d0) -> (d0)  "), "(d0) -> (d0)");
    let text = "(d0)\n:\n(d0\n>=\n0)";
    let (set, n) = parse_integer_set(text).unwrap();
    assert_eq!(n, text.len());
    assert_eq!(set.to_string(), "(d0) : (d0 >= 0)");
}

#[test]
fn parsing_stops_before_the_closing_angle_bracket() {
    let text = "(d0) -> (d0 + 1)>} : () -> ()";
    let (m, n) = parse_affine_map(text).unwrap();
    assert_eq!(&text[n..], ">} : () -> ()");
    assert_eq!(m.to_string(), "(d0) -> (d0 + 1)");

    let text = "(d0) -> (d0) \n // trailing comment\n >";
    let (_, n) = parse_affine_map(text).unwrap();
    assert_eq!(&text[n..], ">");

    let text = "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)>, x = 1";
    let (s, n) = parse_integer_set(text).unwrap();
    assert_eq!(&text[n..], ">, x = 1");
    assert_eq!(s.to_string(), "(d0)[s0] : (d0 - s0 >= 0, d0 == 0)");
}

#[test]
fn error_offsets_point_at_the_problem() {
    assert_eq!(map_err("(d0) -> (d1)").offset, 9);
    assert_eq!(map_err("(d0, d1) -> (d0 * d1)").offset, 16);
    assert_eq!(map_err("(d0) -> (d0 + 99999999999999999999)").offset, 14);
    assert_eq!(map_err("(d0, d0) -> (d0)").offset, 5);
    assert_eq!(map_err("(d0) -> ((d0)").offset, 13);
    assert_eq!(map_err("(d0) -> (d0 +)").offset, 13);
    let e = map_err("(d0) -> (d1)");
    assert!(e.message.contains("undeclared"), "{e}");
    assert!(e.to_string().contains("d1"), "{e}");
    let e = map_err("(d0, d1) -> (d0 * d1)");
    assert!(e.message.contains("non-affine"), "{e}");
    // Maps and sets are told apart.
    assert!(parse_affine_map("(d0) : (d0 >= 0)").is_err());
    assert!(parse_integer_set("(d0) -> (d0)").is_err());
}

#[test]
fn deeply_nested_parentheses_are_rejected_without_overflow() {
    for depth in [MAX_NESTING + 1, 10 * MAX_NESTING, 200_000] {
        let text = format!("(d0) -> ({}d0{})", "(".repeat(depth), ")".repeat(depth));
        let e = map_err(&text);
        assert!(e.message.contains("nested too deeply"), "{e}");
        // Unbalanced variants too.
        let text = format!("(d0) -> ({}d0", "(".repeat(depth));
        assert!(parse_affine_map(&text).is_err());
        let text = format!("(d0) -> ({}", "-(".repeat(depth));
        assert!(parse_affine_map(&text).is_err());
    }
    let depth = MAX_NESTING - 1;
    let text = format!("(d0) -> ({}d0{})", "(".repeat(depth), ")".repeat(depth));
    assert_eq!(map(&text), "(d0) -> (d0)");
    let text = format!("(d0) -> ({}d0 + 1{})", "(".repeat(depth), ")".repeat(depth));
    assert_eq!(map(&text), "(d0) -> (d0 + 1)");
}

#[test]
fn deep_expression_trees_are_capped() {
    // A long chain builds a deep tree; beyond the cap it is an error, not a
    // stack overflow.
    let n = 4 * MAX_EXPR_DEPTH;
    let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    let text = format!("({}) -> ({})", dims.join(", "), dims.join(" + "));
    let e = map_err(&text);
    assert!(e.message.contains("too deep"), "{e}");

    // Right-nested sums through parentheses.
    let depth = MAX_NESTING - 1;
    let text = format!(
        "(d0, d1) -> ({}d0{})",
        "d1 + (".repeat(depth),
        ")".repeat(depth)
    );
    assert!(parse_affine_map(&text).is_ok() || map_err(&text).message.contains("too deep"));

    // Chains up to the cap are fine (and print as mlir-opt does); this also
    // checks that printing and dropping such trees fits the default stack.
    let n = MAX_EXPR_DEPTH - 1;
    let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    let text = format!("({}) -> ({})", dims.join(", "), dims.join(" + "));
    assert_eq!(map(&text), text);
    let n = MAX_EXPR_DEPTH / 2;
    let dims: Vec<String> = (0..n).map(|i| format!("d{i}")).collect();
    let text = format!("({}) -> ({} + 1)", dims.join(", "), dims.join(" + 2 + "));
    let expected = format!(
        "({}) -> ({} + {})",
        dims.join(", "),
        dims.join(" + "),
        2 * (n - 1) + 1
    );
    assert_eq!(map(&text), expected);
}

#[test]
fn long_runs_of_unary_minus() {
    for n in [1usize, 2, 3, 1000, 100_001] {
        let text = format!("(d0) -> ({}d0)", "-".repeat(n));
        let want = if n % 2 == 0 {
            "(d0) -> (d0)"
        } else {
            "(d0) -> (-d0)"
        };
        assert_eq!(map(&text), want, "{n} minus signs");
    }
    let text = format!("(d0) -> ({}(d0 + 1))", "-".repeat(5));
    assert_eq!(map(&text), "(d0) -> (-(d0 + 1))");
}

/// A small deterministic generator (xorshift64*), to avoid dependencies.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const PIECES: &[&str] = &[
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "->",
    "-",
    "+",
    "*",
    " floordiv ",
    " ceildiv ",
    " mod ",
    ">=",
    "<=",
    "==",
    ">",
    "<",
    "=",
    "d0",
    "d1",
    "s0",
    "s1",
    "0",
    "1",
    "-1",
    "7",
    "0x1f",
    "9223372036854775807",
    "9223372036854775808",
    "4611686018427387904",
    " ",
    "\n",
    "//",
    "%x",
    "symbol",
    "1.5",
    "é",
    "\u{0}",
    "$",
    ".",
    "_a",
    "i32",
    "mod",
];

fn check_no_panic(text: &str) {
    for result in [
        parse_affine_map(text).map(|(m, n)| (m.to_string(), n)),
        parse_integer_set(text).map(|(s, n)| (s.to_string(), n)),
    ] {
        match result {
            Ok((printed, n)) => {
                assert!(n <= text.len() && text.is_char_boundary(n));
                // Printing must also survive re-parsing attempts.
                let _ = parse_affine_map(&printed);
                let _ = parse_integer_set(&printed);
            }
            Err(e) => assert!(e.offset <= text.len(), "{e} for {text:?}"),
        }
    }
}

#[test]
fn mutated_and_random_inputs_never_panic() {
    let seeds = [
        "(d0, d1)[s0] -> (d0 + s0 * 2, (d1 floordiv 4) * 4 - d1, d0 mod s0)",
        "(d0)[s0] : (d0 - s0 >= 0, -d0 + 10 >= 0, d0 floordiv 2 == 0)",
        "(d0) -> ((-9223372036854775807 - 1) floordiv -1, d0 * 9223372036854775807 * 2)",
        "(d0, d1) -> (d0 - (d0 floordiv 4) * 4 + d1 - -(d1 ceildiv 3))",
        "()[s0, s1] -> (s0 * s1 + s1 * s0 - (s1 floordiv 4) * 4)",
    ];
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..20_000 {
        let mut text = seeds[round % seeds.len()].to_string();
        for _ in 0..1 + rng.below(4) {
            // Work on char boundaries only.
            let bounds: Vec<usize> = text
                .char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect();
            let at = bounds[rng.below(bounds.len())];
            match rng.below(4) {
                0 => {
                    let end = bounds
                        .iter()
                        .copied()
                        .find(|&b| b > at)
                        .unwrap_or(text.len());
                    text.replace_range(at..end, "");
                }
                1 | 2 => text.insert_str(at, PIECES[rng.below(PIECES.len())]),
                _ => text.truncate(at),
            }
        }
        check_no_panic(&text);
    }
    for _ in 0..5_000 {
        let len = rng.below(40);
        let text: String = (0..len).map(|_| PIECES[rng.below(PIECES.len())]).collect();
        check_no_panic(&text);
        let prefixed = format!("(d0, d1)[s0, s1] -> ({text})");
        check_no_panic(&prefixed);
        let prefixed = format!("(d0, d1)[s0, s1] : ({text})");
        check_no_panic(&prefixed);
    }
    for input in [
        "", " ", "(", "((", ")", "-", "->", ":", "(d0) ->", "(d0) :", "\u{0}",
    ] {
        check_no_panic(input);
        assert!(parse_affine_map(input).is_err(), "{input:?}");
    }
}
