//! Parser for the bodies of `affine_map<...>` and `affine_set<...>`.
//!
//! The accepted syntax and the trees produced follow MLIR's affine parser:
//! expressions are assembled left to right through the simplifying
//! constructors of [`AffineExpr`], in the same order MLIR applies its
//! operators, so the resulting map or set is the one MLIR would build (and
//! prints identically).
//!
//! Tokens are recognised as MLIR's lexer does: whitespace is space, tab,
//! newline, carriage return (and NUL), `//` starts a comment running to the
//! end of the line, identifiers are `[A-Za-z_][A-Za-z0-9_$.]*`, integer
//! literals are decimal or `0x` hexadecimal and must fit in a signed 64-bit
//! integer.  Keywords such as `mod` or `floordiv` may name dimensions and
//! symbols; `symbol` may be declared but not used inside an expression (MLIR
//! reserves `symbol(%x)` for SSA operands).
//!
//! The parser is iterative and never recurses on the input.  Parenthesis
//! nesting is capped at [`MAX_NESTING`] levels and the depth of the built
//! expression tree at [`MAX_EXPR_DEPTH`]; inputs beyond either limit are
//! rejected with an error, so later recursive walks over the trees stay
//! within a small stack budget.

use std::collections::HashMap;
use std::fmt;

use crate::affine::{AffineExpr, AffineMap, IntegerSet};

/// Maximum nesting of parentheses inside one affine expression.
pub const MAX_NESTING: usize = 1000;

/// Maximum depth of an expression tree produced by the parser.
pub const MAX_EXPR_DEPTH: usize = 1000;

/// A syntax or semantic error in an affine map or integer set body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AffineParseError {
    /// Byte offset into the parsed text where the problem was detected.
    pub offset: usize,
    /// Human-readable description.
    pub message: String,
}

impl fmt::Display for AffineParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for AffineParseError {}

/// Parses an affine map body, i.e. the text following `affine_map<`, such as
/// `(d0, d1)[s0] -> (d0 + s0, d1)`.
///
/// Parsing stops after the closing parenthesis of the result list and any
/// whitespace or comments after it, right before the `>` that closes the
/// attribute (which is not consumed and not required to be present).
/// Returns the map and the number of bytes consumed.
pub fn parse_affine_map<S: AsRef<[u8]> + ?Sized>(
    s: &S,
) -> Result<(AffineMap, usize), AffineParseError> {
    let mut p = Parser::new(s.as_ref());
    let (num_dims, num_symbols) = p.parse_dim_and_symbol_lists()?;
    match p.tok {
        Tok::Arrow => p.advance(),
        Tok::Colon => {
            return Err(
                p.error_here("expected an affine map ('->'), but found an integer set (':')")
            )
        }
        _ => return Err(p.error_here("expected '->' after the dimension and symbol lists")),
    }
    let mut results = Vec::new();
    p.expect(Tok::LParen, "expected '(' to start the affine map results")?;
    if p.tok == Tok::RParen {
        p.advance();
    } else {
        loop {
            results.push(p.parse_expr()?);
            match p.tok {
                Tok::Comma => p.advance(),
                Tok::RParen => {
                    p.advance();
                    break;
                }
                _ => return Err(p.error_here("expected ',' or ')' in affine map range")),
            }
        }
    }
    let map = AffineMap {
        num_dims,
        num_symbols,
        results,
    };
    Ok((map, p.tok_start))
}

/// Parses an integer set body, i.e. the text following `affine_set<`, such
/// as `(d0)[s0] : (d0 - s0 >= 0, d0 == 0)`.
///
/// Constraints `a >= b`, `a <= b` and `a == b` are normalised to
/// `a - b >= 0`, `b - a >= 0` and `a - b == 0`; an empty constraint list
/// becomes the single constraint `0 == 0`, as in MLIR.  Consumption stops as
/// for [`parse_affine_map`].
pub fn parse_integer_set<S: AsRef<[u8]> + ?Sized>(
    s: &S,
) -> Result<(IntegerSet, usize), AffineParseError> {
    let mut p = Parser::new(s.as_ref());
    let (num_dims, num_symbols) = p.parse_dim_and_symbol_lists()?;
    match p.tok {
        Tok::Colon => p.advance(),
        Tok::Arrow => {
            return Err(
                p.error_here("expected an integer set (':'), but found an affine map ('->')")
            )
        }
        _ => return Err(p.error_here("expected ':' after the dimension and symbol lists")),
    }
    let mut constraints = Vec::new();
    let mut eq_flags = Vec::new();
    p.expect(
        Tok::LParen,
        "expected '(' to start the integer set constraints",
    )?;
    if p.tok == Tok::RParen {
        p.advance();
    } else {
        loop {
            let (expr, is_eq) = p.parse_constraint()?;
            constraints.push(expr);
            eq_flags.push(is_eq);
            match p.tok {
                Tok::Comma => p.advance(),
                Tok::RParen => {
                    p.advance();
                    break;
                }
                _ => return Err(p.error_here("expected ',' or ')' in integer set constraint list")),
            }
        }
    }
    if constraints.is_empty() {
        // MLIR represents the unconstrained set as `0 == 0`.
        constraints.push(AffineExpr::Constant(0));
        eq_flags.push(true);
    }
    let set = IntegerSet {
        num_dims,
        num_symbols,
        constraints,
        eq_flags,
    };
    Ok((set, p.tok_start))
}

/// An affine map whose dimensions and symbols are SSA values, as ops such
/// as `affine.load %m[%i + 3, symbol(%n)]` write it (MLIR's
/// `parseAffineMapOfSSAIds`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsaMap {
    /// The map: a dimension per distinct SSA value used bare, a symbol per
    /// one used as `symbol(%x)`, numbered in order of first use.
    pub map: AffineMap,
    /// Where the first use of each dimension's value starts (its `%`).
    pub dims: Vec<usize>,
    /// Where the first use of each symbol's value starts (its `%`).
    pub symbols: Vec<usize>,
    /// Bytes consumed: up to the token after the closing bracket.
    pub consumed: usize,
}

/// Parses an affine map of SSA ids from its opening bracket (`[` or `(`,
/// closed by `]` or `)`) to its closing one. The list may be empty.
pub fn parse_affine_map_of_ssa_ids(s: &[u8], square: bool) -> Result<SsaMap, AffineParseError> {
    let mut p = Parser::new(s);
    p.ssa = Some(SsaIds::default());
    let (open, close) = if square {
        (Tok::LSquare, Tok::RSquare)
    } else {
        (Tok::LParen, Tok::RParen)
    };
    p.expect(open, &format!("expected {}", describe(open)))?;
    let mut results = Vec::new();
    if p.tok == close {
        p.advance();
    } else {
        loop {
            results.push(p.parse_expr()?);
            if p.tok == Tok::Comma {
                p.advance();
            } else if p.tok == close {
                p.advance();
                break;
            } else {
                return Err(p.error_here(&format!("expected ',' or {}", describe(close))));
            }
        }
    }
    let ids = p.ssa.take().unwrap_or_default();
    Ok(SsaMap {
        map: AffineMap {
            num_dims: ids.dims.len() as u32,
            num_symbols: ids.symbols.len() as u32,
            results,
        },
        dims: ids.dims,
        symbols: ids.symbols,
        consumed: p.tok_start,
    })
}

/// One affine expression whose dimensions and symbols are SSA values,
/// not bracketed (MLIR's `parseAffineExprOfSSAIds`): the expression over
/// its own dimensions and symbols, numbered in order of first use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SsaExpr {
    /// The expression, over dimensions and symbols numbered by first use.
    pub expr: AffineExpr,
    /// Where the first use of each dimension's value starts (its `%`).
    pub dims: Vec<usize>,
    /// Where the first use of each symbol's value starts (its `%`).
    pub symbols: Vec<usize>,
    /// Bytes consumed: up to the token after the expression.
    pub consumed: usize,
}

/// Parses one affine expression of SSA ids from the start of `s`, up to
/// the first token that cannot continue it (`,` or `)` in a list).
pub fn parse_affine_expr_of_ssa_ids(s: &[u8]) -> Result<SsaExpr, AffineParseError> {
    let mut p = Parser::new(s);
    p.ssa = Some(SsaIds::default());
    let expr = p.parse_expr()?;
    let ids = p.ssa.take().unwrap_or_default();
    Ok(SsaExpr {
        expr,
        dims: ids.dims,
        symbols: ids.symbols,
        consumed: p.tok_start,
    })
}

/// One token.  Identifier-like tokens (bare identifiers, integer type names
/// and keywords) are all `Ident`; their spelling decides whether they act
/// as an operator keyword in a given position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    LParen,
    RParen,
    LSquare,
    RSquare,
    Comma,
    Colon,
    Arrow,
    Plus,
    Minus,
    Star,
    Less,
    Greater,
    Equal,
    Integer(&'a str),
    Float(&'a str),
    Ident(&'a str),
    /// `%name`: an SSA value, never valid here.
    Percent(&'a str),
    /// Any other character or token.
    Other(&'a str),
    Eof,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.'
}

/// Skips whitespace and comments from `pos`, returning the first offset that
/// starts a token (or the end of the input).
fn skip_trivia(bytes: &[u8], mut pos: usize) -> usize {
    loop {
        match bytes.get(pos) {
            Some(b' ' | b'\t' | b'\n' | b'\r' | 0) => pos += 1,
            Some(b'/') if bytes.get(pos + 1) == Some(&b'/') => {
                pos += 2;
                while let Some(&b) = bytes.get(pos) {
                    pos += 1;
                    if b == b'\n' || b == b'\r' {
                        break;
                    }
                }
            }
            _ => return pos,
        }
    }
}

/// The text of an ASCII token (every token but `Other` is ASCII).
fn ascii(bytes: &[u8], start: usize, end: usize) -> &str {
    std::str::from_utf8(&bytes[start..end]).unwrap_or("")
}

/// Lexes the token starting at `start` (which must not be trivia), returning
/// it with its end offset.
fn lex_at(bytes: &[u8], start: usize) -> (Tok<'_>, usize) {
    let src = |s: usize, e: usize| ascii(bytes, s, e);
    let Some(&b) = bytes.get(start) else {
        return (Tok::Eof, start);
    };
    let one = |t| (t, start + 1);
    match b {
        b'(' => one(Tok::LParen),
        b')' => one(Tok::RParen),
        b'[' => one(Tok::LSquare),
        b']' => one(Tok::RSquare),
        b',' => one(Tok::Comma),
        b':' => one(Tok::Colon),
        b'+' => one(Tok::Plus),
        b'*' => one(Tok::Star),
        b'<' => one(Tok::Less),
        b'>' => one(Tok::Greater),
        b'=' => one(Tok::Equal),
        b'-' => {
            if bytes.get(start + 1) == Some(&b'>') {
                (Tok::Arrow, start + 2)
            } else {
                one(Tok::Minus)
            }
        }
        b'0'..=b'9' => {
            let mut end = start + 1;
            if b == b'0'
                && bytes.get(end) == Some(&b'x')
                && bytes.get(end + 1).is_some_and(|c| c.is_ascii_hexdigit())
            {
                end += 2;
                while bytes.get(end).is_some_and(|c| c.is_ascii_hexdigit()) {
                    end += 1;
                }
                return (Tok::Integer(src(start, end)), end);
            }
            while bytes.get(end).is_some_and(|c| c.is_ascii_digit()) {
                end += 1;
            }
            if bytes.get(end) != Some(&b'.') {
                return (Tok::Integer(src(start, end)), end);
            }
            // A floating-point literal: never valid in an affine expression,
            // but lexed whole for a sensible error message.
            end += 1;
            while bytes.get(end).is_some_and(|c| c.is_ascii_digit()) {
                end += 1;
            }
            if matches!(bytes.get(end), Some(b'e' | b'E')) {
                let digit_at = |i: usize| bytes.get(i).is_some_and(|c| c.is_ascii_digit());
                if digit_at(end + 1) {
                    end += 1;
                } else if matches!(bytes.get(end + 1), Some(b'+' | b'-')) && digit_at(end + 2) {
                    end += 2;
                }
                while bytes.get(end).is_some_and(|c| c.is_ascii_digit()) {
                    end += 1;
                }
            }
            (Tok::Float(src(start, end)), end)
        }
        _ if is_ident_start(b) => {
            let mut end = start + 1;
            while bytes.get(end).copied().is_some_and(is_ident_continue) {
                end += 1;
            }
            (Tok::Ident(src(start, end)), end)
        }
        b'%' => {
            // MLIR's suffix-id: digits only, or a letter or `$._-` followed
            // by letters, digits and `$._-`.
            let mut end = start + 1;
            let digit = |c: &u8| c.is_ascii_digit();
            let punct = |c: &u8| c.is_ascii_alphanumeric() || b"$._-".contains(c);
            if bytes.get(end).is_some_and(digit) {
                while bytes.get(end).is_some_and(digit) {
                    end += 1;
                }
            } else {
                while bytes.get(end).is_some_and(punct) {
                    end += 1;
                }
            }
            (Tok::Percent(src(start, end)), end)
        }
        _ => {
            // One (possibly multi-byte) character.
            let len = match b {
                0xc0..=0xdf => 2,
                0xe0..=0xef => 3,
                0xf0..=0xf7 => 4,
                _ => 1,
            };
            let end = (start + len).min(bytes.len());
            let text = std::str::from_utf8(&bytes[start..end]).unwrap_or("\u{fffd}");
            (Tok::Other(text), end)
        }
    }
}

fn describe(tok: Tok<'_>) -> String {
    match tok {
        Tok::LParen => "'('".into(),
        Tok::RParen => "')'".into(),
        Tok::LSquare => "'['".into(),
        Tok::RSquare => "']'".into(),
        Tok::Comma => "','".into(),
        Tok::Colon => "':'".into(),
        Tok::Arrow => "'->'".into(),
        Tok::Plus => "'+'".into(),
        Tok::Minus => "'-'".into(),
        Tok::Star => "'*'".into(),
        Tok::Less => "'<'".into(),
        Tok::Greater => "'>'".into(),
        Tok::Equal => "'='".into(),
        Tok::Integer(s) | Tok::Float(s) | Tok::Ident(s) | Tok::Percent(s) | Tok::Other(s) => {
            format!("'{s}'")
        }
        Tok::Eof => "end of input".into(),
    }
}

/// Additive operators.
#[derive(Clone, Copy)]
enum LowOp {
    Add,
    Sub,
}

/// Multiplicative operators.
#[derive(Clone, Copy)]
enum HighOp {
    Mul,
    FloorDiv,
    CeilDiv,
    Mod,
}

impl HighOp {
    fn from_tok(tok: Tok<'_>) -> Option<HighOp> {
        match tok {
            Tok::Star => Some(HighOp::Mul),
            Tok::Ident("floordiv") => Some(HighOp::FloorDiv),
            Tok::Ident("ceildiv") => Some(HighOp::CeilDiv),
            Tok::Ident("mod") => Some(HighOp::Mod),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            HighOp::Mul => "*",
            HighOp::FloorDiv => "floordiv",
            HighOp::CeilDiv => "ceildiv",
            HighOp::Mod => "mod",
        }
    }
}

/// A parsed (sub)expression with an upper bound on its tree depth.
struct Val {
    expr: AffineExpr,
    depth: usize,
}

/// Exact depth of an expression tree (a leaf has depth 1), computed without
/// recursion.
fn tree_depth(e: &AffineExpr) -> usize {
    let mut max = 0;
    let mut stack = vec![(e, 1usize)];
    while let Some((e, d)) = stack.pop() {
        max = max.max(d);
        if let Some((l, r)) = e.operands() {
            stack.push((l, d + 1));
            stack.push((r, d + 1));
        }
    }
    max
}

/// Parsing state for one level of parentheses.
struct Frame {
    /// Pending `lhs +` or `lhs -`.
    low: Option<(Val, LowOp)>,
    /// Pending `lhs *` (or floordiv, ceildiv, mod) with the operator offset.
    high: Option<(Val, HighOp, usize)>,
    /// Number of unary minus signs waiting for the next operand.
    negations: usize,
    /// Offset of the opening parenthesis (0 for the outermost level).
    open: usize,
}

impl Frame {
    fn new(open: usize) -> Frame {
        Frame {
            low: None,
            high: None,
            negations: 0,
            open,
        }
    }
}

struct Parser<'a> {
    src: &'a [u8],
    tok: Tok<'a>,
    tok_start: usize,
    tok_end: usize,
    names: HashMap<&'a str, AffineExpr>,
    /// Set when SSA values stand for dimensions and symbols.
    ssa: Option<SsaIds<'a>>,
}

/// The SSA values met so far in an affine map of SSA ids.
#[derive(Default)]
struct SsaIds<'a> {
    /// Each value's spelling (`%x`, without a `#N` suffix, as MLIR keys
    /// them) and the dimension or symbol it became.
    seen: Vec<(&'a str, AffineExpr)>,
    dims: Vec<usize>,
    symbols: Vec<usize>,
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8]) -> Parser<'a> {
        let mut p = Parser {
            src,
            tok: Tok::Eof,
            tok_start: 0,
            tok_end: 0,
            names: HashMap::new(),
            ssa: None,
        };
        p.advance();
        p
    }

    fn advance(&mut self) {
        let start = skip_trivia(self.src, self.tok_end);
        let (tok, end) = lex_at(self.src, start);
        self.tok = tok;
        self.tok_start = start;
        self.tok_end = end;
    }

    fn error_at(&self, offset: usize, message: impl Into<String>) -> AffineParseError {
        AffineParseError {
            offset,
            message: message.into(),
        }
    }

    fn error_here(&self, message: &str) -> AffineParseError {
        self.error_at(
            self.tok_start,
            format!("{message}, found {}", describe(self.tok)),
        )
    }

    fn expect(&mut self, tok: Tok<'_>, message: &str) -> Result<(), AffineParseError> {
        if self.tok == tok {
            self.advance();
            Ok(())
        } else {
            Err(self.error_here(message))
        }
    }

    /// The dimension or symbol of the SSA value at the current token: the
    /// one it became when first met (MLIR keys them by spelling, so
    /// `symbol(%x)` after `%x` is `%x`'s dimension), or the next one. A
    /// first use records where its text starts, `#N` suffix included.
    fn ssa_id(&mut self, name: &'a str, symbol: bool) -> Result<AffineExpr, AffineParseError> {
        let at = self.tok_start;
        let Some(ids) = self.ssa.as_mut() else {
            return Err(self.error_here("unexpected SSA identifier in affine expression"));
        };
        if let Some((_, e)) = ids.seen.iter().find(|(n, _)| *n == name) {
            let e = e.clone();
            self.advance();
            return Ok(e);
        }
        let expr = if symbol {
            ids.symbols.push(at);
            AffineExpr::Symbol(ids.symbols.len() as u32 - 1)
        } else {
            ids.dims.push(at);
            AffineExpr::Dim(ids.dims.len() as u32 - 1)
        };
        ids.seen.push((name, expr.clone()));
        // `%x#3`: the result number belongs to the use.
        if self.src.get(self.tok_end) == Some(&b'#') {
            let mut end = self.tok_end + 1;
            while self.src.get(end).is_some_and(u8::is_ascii_digit) {
                end += 1;
            }
            if end > self.tok_end + 1 {
                self.tok_end = end;
            }
        }
        self.advance();
        Ok(expr)
    }

    /// Parses `(ids)` and an optional `[ids]`, binding the names.
    fn parse_dim_and_symbol_lists(&mut self) -> Result<(u32, u32), AffineParseError> {
        self.expect(Tok::LParen, "expected '(' to start the dimension list")?;
        let num_dims = self.parse_id_list(Tok::RParen, AffineExpr::Dim, "dimension")?;
        let mut num_symbols = 0;
        if self.tok == Tok::LSquare {
            self.advance();
            num_symbols = self.parse_id_list(Tok::RSquare, AffineExpr::Symbol, "symbol")?;
        }
        Ok((num_dims, num_symbols))
    }

    /// Parses identifiers up to and including `close`; the opening bracket
    /// has been consumed.
    fn parse_id_list(
        &mut self,
        close: Tok<'static>,
        make: fn(u32) -> AffineExpr,
        what: &str,
    ) -> Result<u32, AffineParseError> {
        let mut count: u32 = 0;
        if self.tok == close {
            self.advance();
            return Ok(0);
        }
        loop {
            let Tok::Ident(name) = self.tok else {
                return Err(self.error_here(&format!("expected {what} identifier")));
            };
            if self.names.contains_key(name) {
                return Err(self.error_at(
                    self.tok_start,
                    format!("redefinition of identifier '{name}'"),
                ));
            }
            self.names.insert(name, make(count));
            count = count
                .checked_add(1)
                .ok_or_else(|| self.error_at(self.tok_start, format!("too many {what}s")))?;
            self.advance();
            if self.tok == Tok::Comma {
                self.advance();
            } else if self.tok == close {
                self.advance();
                return Ok(count);
            } else {
                return Err(self.error_here(&format!(
                    "expected ',' or {} in {what} identifier list",
                    describe(close)
                )));
            }
        }
    }

    /// Parses `lhs >= rhs`, `lhs <= rhs` or `lhs == rhs` (each comparison
    /// operator being two tokens, as in MLIR) into a normalised constraint.
    fn parse_constraint(&mut self) -> Result<(AffineExpr, bool), AffineParseError> {
        let lhs = self.parse_expr()?;
        // The checks consume tokens in exactly MLIR's order.
        if self.eat(Tok::Greater) && self.eat(Tok::Equal) {
            let rhs = self.parse_expr()?;
            return Ok((AffineExpr::sub(lhs, rhs), false));
        }
        if self.eat(Tok::Less) && self.eat(Tok::Equal) {
            let rhs = self.parse_expr()?;
            return Ok((AffineExpr::sub(rhs, lhs), false));
        }
        if self.eat(Tok::Equal) && self.eat(Tok::Equal) {
            let rhs = self.parse_expr()?;
            return Ok((AffineExpr::sub(lhs, rhs), true));
        }
        Err(self.error_here(
            "expected '== affine-expr' or '>= affine-expr' at end of affine constraint",
        ))
    }

    fn eat(&mut self, tok: Tok<'_>) -> bool {
        if self.tok == tok {
            self.advance();
            true
        } else {
            false
        }
    }

    /// Checks the depth of a freshly built expression.
    fn checked(&self, expr: AffineExpr, bound: usize, at: usize) -> Result<Val, AffineParseError> {
        if bound <= MAX_EXPR_DEPTH {
            return Ok(Val { expr, depth: bound });
        }
        let depth = tree_depth(&expr);
        if depth > MAX_EXPR_DEPTH {
            return Err(self.error_at(
                at,
                format!("affine expression is too deep (more than {MAX_EXPR_DEPTH} levels)"),
            ));
        }
        Ok(Val { expr, depth })
    }

    fn combine_high(
        &self,
        lhs: Val,
        op: HighOp,
        rhs: Val,
        at: usize,
    ) -> Result<Val, AffineParseError> {
        let (l, r) = (lhs.expr, rhs.expr);
        let expr = match op {
            HighOp::Mul => {
                if !l.is_symbolic_or_constant() && !r.is_symbolic_or_constant() {
                    return Err(self.error_at(
                        at,
                        "non-affine expression: at least one of the multiply operands has to \
                         be either a constant or symbolic",
                    ));
                }
                AffineExpr::mul(l, r)
            }
            HighOp::FloorDiv | HighOp::CeilDiv | HighOp::Mod => {
                if !r.is_symbolic_or_constant() {
                    return Err(self.error_at(
                        at,
                        format!(
                            "non-affine expression: right operand of {} has to be either a \
                             constant or symbolic",
                            op.name()
                        ),
                    ));
                }
                match op {
                    HighOp::FloorDiv => AffineExpr::floor_div(l, r),
                    HighOp::CeilDiv => AffineExpr::ceil_div(l, r),
                    _ => AffineExpr::modulo(l, r),
                }
            }
        };
        self.checked(expr, lhs.depth.max(rhs.depth) + 2, at)
    }

    fn combine_low(
        &self,
        lhs: Val,
        op: LowOp,
        rhs: Val,
        at: usize,
    ) -> Result<Val, AffineParseError> {
        let expr = match op {
            LowOp::Add => AffineExpr::add(lhs.expr, rhs.expr),
            LowOp::Sub => AffineExpr::sub(lhs.expr, rhs.expr),
        };
        self.checked(expr, lhs.depth.max(rhs.depth) + 3, at)
    }

    /// Parses one affine expression starting at the current token.  Binary
    /// operators associate to the left, `*`/`floordiv`/`ceildiv`/`mod` bind
    /// tighter than `+`/`-`, and unary minus applies to the next operand
    /// only (an identifier, literal, parenthesised expression or another
    /// negation).
    fn parse_expr(&mut self) -> Result<AffineExpr, AffineParseError> {
        let mut stack = vec![Frame::new(0)];
        loop {
            // Read prefix operators and one primary operand.
            let mut val = loop {
                let Some(frame) = stack.last_mut() else {
                    unreachable_frame()?
                };
                match self.tok {
                    Tok::Minus => {
                        frame.negations += 1;
                        self.advance();
                    }
                    Tok::LParen => {
                        let open = self.tok_start;
                        if stack.len() > MAX_NESTING {
                            return Err(self.error_at(
                                open,
                                format!(
                                    "affine expression nested too deeply (more than \
                                     {MAX_NESTING} levels of parentheses)"
                                ),
                            ));
                        }
                        self.advance();
                        if self.tok == Tok::RParen {
                            return Err(self.error_here("no expression inside parentheses"));
                        }
                        stack.push(Frame::new(open));
                    }
                    Tok::Integer(text) => {
                        let value = parse_integer(text).ok_or_else(|| {
                            self.error_at(self.tok_start, "constant too large for index")
                        })?;
                        self.advance();
                        break Val {
                            expr: AffineExpr::Constant(value),
                            depth: 1,
                        };
                    }
                    Tok::Percent(name) if self.ssa.is_some() => {
                        let expr = self.ssa_id(name, false)?;
                        break Val { expr, depth: 1 };
                    }
                    Tok::Ident("symbol") if self.ssa.is_some() => {
                        self.advance();
                        self.expect(Tok::LParen, "expected '(' at start of SSA symbol")?;
                        let Tok::Percent(name) = self.tok else {
                            return Err(self.error_here("expected ssa identifier"));
                        };
                        let expr = self.ssa_id(name, true)?;
                        self.expect(Tok::RParen, "expected ')' at end of SSA symbol")?;
                        break Val { expr, depth: 1 };
                    }
                    Tok::Ident("symbol") => {
                        return Err(self.error_here(
                            "'symbol' operands (SSA values) are not allowed in an affine map \
                             or set",
                        ));
                    }
                    Tok::Ident(name) => {
                        let Some(expr) = self.names.get(name).cloned() else {
                            return Err(self.error_at(
                                self.tok_start,
                                format!("use of undeclared identifier '{name}'"),
                            ));
                        };
                        self.advance();
                        break Val { expr, depth: 1 };
                    }
                    Tok::Percent(_) => {
                        return Err(
                            self.error_here("unexpected SSA identifier in affine expression")
                        );
                    }
                    _ => {
                        let pending = frame.low.is_some() || frame.high.is_some();
                        let message = if frame.negations > 0 {
                            "missing operand of negation"
                        } else if pending {
                            "missing right operand of binary operator"
                        } else if matches!(self.tok, Tok::Plus | Tok::Star) {
                            "missing left operand of binary operator"
                        } else {
                            "expected affine expression"
                        };
                        return Err(self.error_here(message));
                    }
                }
            };

            // Fold the operand into the enclosing frames for as long as the
            // following token does not continue the current level.
            loop {
                let at = self.tok_start;
                let Some(frame) = stack.last_mut() else {
                    unreachable_frame()?
                };
                let negations = std::mem::take(&mut frame.negations);
                let pending_high = frame.high.take();
                for _ in 0..negations {
                    let expr = AffineExpr::neg(val.expr);
                    val = self.checked(expr, val.depth + 2, at)?;
                }
                if let Some((lhs, op, op_at)) = pending_high {
                    val = self.combine_high(lhs, op, val, op_at)?;
                }
                if let Some(op) = HighOp::from_tok(self.tok) {
                    let Some(frame) = stack.last_mut() else {
                        unreachable_frame()?
                    };
                    frame.high = Some((val, op, self.tok_start));
                    self.advance();
                    break;
                }
                let Some(frame) = stack.last_mut() else {
                    unreachable_frame()?
                };
                if let Some((lhs, op)) = frame.low.take() {
                    val = self.combine_low(lhs, op, val, at)?;
                }
                let low = match self.tok {
                    Tok::Plus => Some(LowOp::Add),
                    Tok::Minus => Some(LowOp::Sub),
                    _ => None,
                };
                if let Some(op) = low {
                    let Some(frame) = stack.last_mut() else {
                        unreachable_frame()?
                    };
                    frame.low = Some((val, op));
                    self.advance();
                    break;
                }
                // This level is complete.
                if stack.len() == 1 {
                    return Ok(val.expr);
                }
                if self.tok != Tok::RParen {
                    let open = stack.last().map_or(0, |f| f.open);
                    return Err(self.error_at(
                        self.tok_start,
                        format!(
                            "expected ')' to close the '(' at byte {open}, found {}",
                            describe(self.tok)
                        ),
                    ));
                }
                self.advance();
                stack.pop();
            }
        }
    }
}

/// The frame stack is never empty while parsing; this turns the impossible
/// case into an error instead of a panic.
fn unreachable_frame<T>() -> Result<T, AffineParseError> {
    Err(AffineParseError {
        offset: 0,
        message: "internal error: empty parser stack".into(),
    })
}

/// Value of an integer literal token, if it fits in a non-negative `i64`.
fn parse_integer(text: &str) -> Option<i64> {
    let value = match text.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok()?,
        None => text.parse::<u64>().ok()?,
    };
    i64::try_from(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(s: &str) -> String {
        parse_affine_map(s).expect(s).0.to_string()
    }

    #[test]
    fn simple_maps() {
        assert_eq!(map("(d0) -> (d0 + 1 + 2)"), "(d0) -> (d0 + 3)");
        assert_eq!(map("(d0, d1) -> (2 * d0)"), "(d0, d1) -> (d0 * 2)");
        assert_eq!(
            map("(i, j)[N] -> (i + N, j)"),
            "(d0, d1)[s0] -> (d0 + s0, d1)"
        );
        assert_eq!(map("() -> ()"), "() -> ()");
    }

    /// MLIR's rules, applied by hand: a dimension per distinct spelling
    /// in order of first use, `symbol(…)` of a known spelling is that
    /// dimension, `#N` belongs to the use, `-` continues a name.
    #[test]
    fn maps_of_ssa_ids() {
        let text = b"[%i + 3, symbol(%n), %i * 2 - %j] : x";
        let m = parse_affine_map_of_ssa_ids(text, true).unwrap();
        assert_eq!(
            m.map.to_string(),
            "(d0, d1)[s0] -> (d0 + 3, s0, d0 * 2 - d1)"
        );
        assert_eq!(m.dims, [1, 30]);
        assert_eq!(m.symbols, [16]);
        assert_eq!(&text[m.consumed..], b": x");

        let m = parse_affine_map_of_ssa_ids(b"[%x#1, symbol(%x)]", true).unwrap();
        assert_eq!(m.map.to_string(), "(d0) -> (d0, d0)");
        assert_eq!((m.dims.len(), m.symbols.len()), (1, 0));

        let m = parse_affine_map_of_ssa_ids(b"(%a-1, 3 + %0)", false).unwrap();
        assert_eq!(m.map.to_string(), "(d0, d1) -> (d0, d1 + 3)");

        let m = parse_affine_map_of_ssa_ids(b"[]", true).unwrap();
        assert_eq!(m.map.to_string(), "() -> ()");

        for (bad, what) in [
            (&b"[d0]"[..], "undeclared"),
            (b"[symbol %x]", "'(' at start of SSA symbol"),
            (b"[%x * %y]", "non-affine"),
            (b"[%x", "expected ',' or ']'"),
        ] {
            let e = parse_affine_map_of_ssa_ids(bad, true).unwrap_err();
            assert!(e.message.contains(what), "{e}");
        }
        // Without SSA mode, SSA values stay errors.
        assert!(parse_affine_map("(d0) -> (%x)").is_err());
    }

    #[test]
    fn consumed_length_stops_before_closing_angle() {
        let text = "(d0) -> (d0)  >rest";
        let (_, n) = parse_affine_map(text).unwrap();
        assert_eq!(&text[n..], ">rest");
        let text = "(d0) : (d0 >= 0)>";
        let (_, n) = parse_integer_set(text).unwrap();
        assert_eq!(&text[n..], ">");
    }

    #[test]
    fn errors() {
        assert!(parse_affine_map("(d0, d1) -> (d0 * d1)").is_err());
        assert!(parse_affine_map("(d0) -> (d1)").is_err());
        assert!(parse_affine_map("(d0) -> ((d0)").is_err());
        assert!(parse_affine_map("(d0) -> (9223372036854775808)").is_err());
        assert!(parse_integer_set("(d0) -> (d0)").is_err());
        assert!(parse_affine_map("(d0) : (d0 >= 0)").is_err());
    }
}
