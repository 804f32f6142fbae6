//! Formula language: LaTeX in, AST out, with a canonical text for comparison.
//!
//! The parser reads one expression grammar for terms and formulas alike (so that `(x+1)^2 = y`
//! and `(A \land B) \to C` need no backtracking) and then sorts the tree into `Formula`/`Term`.

use std::fmt::Write as _;

use thiserror::Error;

use crate::tex::GREEK_LETTERS;

/// A term: names (constants or variables, told apart only by binding), numbers and arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    Name(String),
    /// Decimal literal as written, e.g. `3` or `2.5`.
    Number(String),
    /// Function application `f(a, b)`.
    App(String, Vec<Term>),
    Neg(Box<Term>),
    Arith(ArithOp, Box<Term>, Box<Term>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RelOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Quantifier {
    Forall,
    Exists,
}

/// A first-order formula.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Formula {
    Bottom,
    Top,
    /// Sentence letter `P`.
    Atom(String),
    /// Predicate `P(a, b)`.
    Pred(String, Vec<Term>),
    Rel(RelOp, Term, Term),
    Not(Box<Formula>),
    And(Box<Formula>, Box<Formula>),
    Or(Box<Formula>, Box<Formula>),
    Implies(Box<Formula>, Box<Formula>),
    Iff(Box<Formula>, Box<Formula>),
    Quant(Quantifier, String, Box<Formula>),
}

/// Why a LaTeX formula could not be read; `position` is a byte offset into the input.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("at position {position}: {message}")]
pub struct ParseError {
    pub position: usize,
    pub message: String,
}

/// Hostile input guard: nesting deeper than this is refused, not recursed into. It counts parser
/// levels: a bracket takes about five; `\frac{`, `f(` and a quantifier are charged [`CALL_COST`] more, because
/// their stack frames are larger (300 nested `\frac{` overflowed a 2 MB thread stack in a debug
/// build at the plain charge; found by tests/parsers_property.rs; the browser's stack is 1 MB).
pub const MAX_DEPTH: usize = 500;
/// The extra depth charged for a `\frac{…}{…}`, a function application `f(…)` or a quantifier.
const CALL_COST: usize = 3;
/// Hostile input guard: longer formulas are refused before lexing.
pub const MAX_LEN: usize = 100_000;

/// Parses a LaTeX formula; surrounding `$…$` or `$$…$$` are accepted.
pub fn parse_formula(latex: &str) -> Result<Formula, ParseError> {
    if latex.len() > MAX_LEN {
        return Err(err(0, format!("formula longer than {MAX_LEN} bytes")));
    }
    let tokens = lex(latex)?;
    let mut parser = Parser {
        tokens,
        pos: 0,
        depth: 0,
        end: latex.len(),
    };
    let expr = parser.parse_top()?;
    to_formula(expr, 0, 0)
}

fn err(position: usize, message: impl Into<String>) -> ParseError {
    ParseError {
        position,
        message: message.into(),
    }
}

// ---------------------------------------------------------------- lexer

#[derive(Clone, PartialEq)]
#[cfg_attr(test, derive(Debug))]
enum Tok {
    Ident(String),
    Num(String),
    LParen,
    RParen,
    LBrace,
    RBrace,
    Comma,
    Colon,
    Dot,
    Plus,
    Minus,
    Times,
    Slash,
    Caret,
    Rel(RelOp),
    And,
    Or,
    Not,
    Implies,
    Iff,
    Forall,
    Exists,
    Bottom,
    Top,
    Frac,
}

struct Lexed {
    tok: Tok,
    pos: usize,
}

/// Spacing and sizing commands that carry no meaning.
const IGNORED: &[&str] = &[
    "left",
    "right",
    "quad",
    "qquad",
    "big",
    "Big",
    "bigl",
    "bigr",
    "Bigl",
    "Bigr",
    "displaystyle",
];

/// Commands whose braced argument is a name: `\text{Brimpus}`.
const NAME_WRAPPERS: &[&str] = &[
    "text",
    "mathrm",
    "textrm",
    "operatorname",
    "mathit",
    "mathsf",
    "textit",
    "mathbf",
    "textsf",
];

fn command_token(name: &str) -> Option<Tok> {
    Some(match name {
        "land" | "wedge" => Tok::And,
        "lor" | "vee" => Tok::Or,
        "neg" | "lnot" => Tok::Not,
        "to" | "rightarrow" | "implies" | "Rightarrow" | "supset" => Tok::Implies,
        "leftrightarrow" | "iff" | "Leftrightarrow" | "equiv" => Tok::Iff,
        "forall" => Tok::Forall,
        "exists" => Tok::Exists,
        "bot" | "perp" | "false" => Tok::Bottom,
        "top" => Tok::Top,
        "cdot" | "times" | "ast" => Tok::Times,
        "div" => Tok::Slash,
        "frac" | "dfrac" | "tfrac" => Tok::Frac,
        "le" | "leq" | "leqslant" => Tok::Rel(RelOp::Le),
        "ge" | "geq" | "geqslant" => Tok::Rel(RelOp::Ge),
        "neq" | "ne" => Tok::Rel(RelOp::Ne),
        "lt" => Tok::Rel(RelOp::Lt),
        "gt" => Tok::Rel(RelOp::Gt),
        "{" => Tok::LBrace,
        "}" => Tok::RBrace,
        _ => return None,
    })
}

fn strip_dollars(s: &str) -> (usize, &str) {
    let start = s.len() - s.trim_start().len();
    let t = s.trim();
    for d in ["$$", "$"] {
        if t.len() >= 2 * d.len() && t.starts_with(d) && t.ends_with(d) {
            return (start + d.len(), &t[d.len()..t.len() - d.len()]);
        }
    }
    (0, s)
}

fn lex(input: &str) -> Result<Vec<Lexed>, ParseError> {
    let (offset, s) = strip_dollars(input);
    let bytes = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let pos = offset + i;
        let c = bytes[i];
        let push = |out: &mut Vec<Lexed>, tok| out.push(Lexed { tok, pos });
        match c {
            b' ' | b'\t' | b'\n' | b'\r' | b'~' => i += 1,
            b'(' | b'[' => {
                push(&mut out, Tok::LParen);
                i += 1
            }
            b')' | b']' => {
                push(&mut out, Tok::RParen);
                i += 1
            }
            b'{' => {
                push(&mut out, Tok::LBrace);
                i += 1
            }
            b'}' => {
                push(&mut out, Tok::RBrace);
                i += 1
            }
            b',' => {
                push(&mut out, Tok::Comma);
                i += 1
            }
            b':' => {
                push(&mut out, Tok::Colon);
                i += 1
            }
            b'.' => {
                push(&mut out, Tok::Dot);
                i += 1
            }
            b'+' => {
                push(&mut out, Tok::Plus);
                i += 1
            }
            b'-' => {
                push(&mut out, Tok::Minus);
                i += 1
            }
            b'*' => {
                push(&mut out, Tok::Times);
                i += 1
            }
            b'/' => {
                push(&mut out, Tok::Slash);
                i += 1
            }
            b'^' => {
                push(&mut out, Tok::Caret);
                i += 1
            }
            b'=' => {
                push(&mut out, Tok::Rel(RelOp::Eq));
                i += 1
            }
            b'<' | b'>' | b'!' => {
                let eq = bytes.get(i + 1) == Some(&b'=');
                let op = match (c, eq) {
                    (b'<', true) => RelOp::Le,
                    (b'<', false) => RelOp::Lt,
                    (b'>', true) => RelOp::Ge,
                    (b'>', false) => RelOp::Gt,
                    (_, true) => RelOp::Ne,
                    _ => return Err(err(pos, "unexpected '!'")),
                };
                push(&mut out, Tok::Rel(op));
                i += if eq { 2 } else { 1 };
            }
            b'0'..=b'9' => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                if i + 1 < bytes.len() && bytes[i] == b'.' && bytes[i + 1].is_ascii_digit() {
                    i += 1;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                }
                push(&mut out, Tok::Num(s[start..i].to_string()));
            }
            b'a'..=b'z' | b'A'..=b'Z' => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let mut name = s[start..i].to_string();
                i = lex_suffix(s, i, &mut name, offset)?;
                push(&mut out, Tok::Ident(name));
            }
            b'\\' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                    j += 1;
                }
                if j == start {
                    // One-character command: spacing `\, \; \: \! \ ` or braces `\{ \}`.
                    let Some(ch) = s[start..].chars().next() else {
                        return Err(err(pos, "lone backslash at the end"));
                    };
                    i = start + ch.len_utf8();
                    match ch {
                        ',' | ';' | ':' | '!' | ' ' | '>' => {}
                        '{' => push(&mut out, Tok::LParen),
                        '}' => push(&mut out, Tok::RParen),
                        _ => return Err(err(pos, format!("unknown command \\{ch}"))),
                    }
                    continue;
                }
                let name = &s[start..j];
                i = j;
                if IGNORED.contains(&name) {
                    continue;
                }
                if NAME_WRAPPERS.contains(&name) {
                    let (text, next) = braced_text(s, i, offset)?;
                    let mut text = text;
                    i = lex_suffix(s, next, &mut text, offset)?;
                    push(&mut out, Tok::Ident(text));
                    continue;
                }
                if GREEK_LETTERS.contains(&name) {
                    let mut text = format!("\\{name}");
                    i = lex_suffix(s, i, &mut text, offset)?;
                    push(&mut out, Tok::Ident(text));
                    continue;
                }
                match command_token(name) {
                    Some(tok) => push(&mut out, tok),
                    None => return Err(err(pos, format!("unsupported command \\{name}"))),
                }
            }
            _ => {
                let ch = s[i..].chars().next().unwrap_or('?');
                let tok = match ch {
                    '∧' => Tok::And,
                    '∨' => Tok::Or,
                    '¬' => Tok::Not,
                    '→' | '⇒' => Tok::Implies,
                    '↔' | '⇔' => Tok::Iff,
                    '∀' => Tok::Forall,
                    '∃' => Tok::Exists,
                    '⊥' => Tok::Bottom,
                    '≤' => Tok::Rel(RelOp::Le),
                    '≥' => Tok::Rel(RelOp::Ge),
                    '≠' => Tok::Rel(RelOp::Ne),
                    '·' | '×' => Tok::Times,
                    _ => return Err(err(pos, format!("unexpected character '{ch}'"))),
                };
                push(&mut out, tok);
                i += ch.len_utf8();
            }
        }
    }
    Ok(out)
}

/// Reads `{text}` starting at byte `i` (after optional spaces); returns the trimmed text.
fn braced_text(s: &str, mut i: usize, offset: usize) -> Result<(String, usize), ParseError> {
    let bytes = s.as_bytes();
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    if bytes.get(i) != Some(&b'{') {
        return Err(err(offset + i, "expected '{' after a name command"));
    }
    let Some(close) = s[i + 1..].find('}') else {
        return Err(err(offset + i, "unclosed '{'"));
    };
    let text = s[i + 1..i + 1 + close].trim();
    let ok = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ' || c == '\'');
    if !ok {
        return Err(err(offset + i, format!("'{text}' is not a usable name")));
    }
    Ok((
        text.split_whitespace().collect::<Vec<_>>().join(" "),
        i + 1 + close + 1,
    ))
}

/// Subscripts (`_0`, `_{12}`) and primes belong to the name.
fn lex_suffix(
    s: &str,
    mut i: usize,
    name: &mut String,
    offset: usize,
) -> Result<usize, ParseError> {
    let bytes = s.as_bytes();
    loop {
        match bytes.get(i) {
            Some(b'\'') => {
                name.push('\'');
                i += 1;
            }
            Some(b'_') => {
                i += 1;
                match bytes.get(i) {
                    Some(b'{') => {
                        let Some(close) = s[i + 1..].find('}') else {
                            return Err(err(offset + i, "unclosed subscript"));
                        };
                        let sub = s[i + 1..i + 1 + close].trim();
                        if sub.is_empty() || !sub.chars().all(|c| c.is_ascii_alphanumeric()) {
                            return Err(err(
                                offset + i,
                                "subscripts may hold letters and digits only",
                            ));
                        }
                        name.push('_');
                        name.push_str(sub);
                        i += close + 2;
                    }
                    Some(c) if c.is_ascii_alphanumeric() => {
                        name.push('_');
                        name.push(*c as char);
                        i += 1;
                    }
                    _ => return Err(err(offset + i, "expected a subscript after '_'")),
                }
            }
            _ => return Ok(i),
        }
    }
}

// ---------------------------------------------------------------- parser

/// The untyped tree: formulas and terms share one grammar until `to_formula` sorts them.
#[derive(Debug)]
enum Expr {
    Name(String, usize),
    Num(String),
    App(String, Vec<Expr>, usize),
    Neg(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>, usize),
    /// Chained comparisons `a < b < c` keep all operands.
    Rel(Vec<RelOp>, Vec<Expr>, usize),
    Not(Box<Expr>),
    Logic(LogicOp, Box<Expr>, Box<Expr>),
    Quant(Quantifier, String, Box<Expr>),
    Bottom,
    Top,
    Group(Box<Expr>),
}

#[derive(Clone, Copy, Debug)]
enum LogicOp {
    And,
    Or,
    Implies,
    Iff,
}

struct Parser {
    tokens: Vec<Lexed>,
    pos: usize,
    depth: usize,
    end: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.tokens.get(self.pos).map(|t| &t.tok)
    }
    fn peek_at(&self, k: usize) -> Option<&Tok> {
        self.tokens.get(self.pos + k).map(|t| &t.tok)
    }
    fn here(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |t| t.pos)
    }
    fn eat(&mut self, tok: &Tok) -> bool {
        if self.peek() == Some(tok) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect(&mut self, tok: &Tok, what: &str) -> Result<(), ParseError> {
        if self.eat(tok) {
            Ok(())
        } else {
            Err(err(self.here(), format!("expected {what}")))
        }
    }
    fn enter(&mut self) -> Result<(), ParseError> {
        self.charge(1)
    }

    fn charge(&mut self, cost: usize) -> Result<(), ParseError> {
        self.depth += cost;
        if self.depth > MAX_DEPTH {
            return Err(err(self.here(), format!("nesting deeper than {MAX_DEPTH}")));
        }
        Ok(())
    }

    fn parse_top(&mut self) -> Result<Expr, ParseError> {
        if self.tokens.is_empty() {
            return Err(err(0, "empty formula"));
        }
        let e = self.parse_iff()?;
        if self.pos < self.tokens.len() {
            return Err(err(self.here(), "unexpected text after the formula"));
        }
        Ok(e)
    }

    fn parse_iff(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let saved = self.depth - 1;
        let mut left = self.parse_implies()?;
        while self.eat(&Tok::Iff) {
            self.enter()?;
            let right = self.parse_implies()?;
            left = Expr::Logic(LogicOp::Iff, Box::new(left), Box::new(right));
        }
        self.depth = saved;
        Ok(left)
    }

    /// `→` groups to the right: `A → B → C` is `A → (B → C)`.
    fn parse_implies(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let left = self.parse_or()?;
        let e = if self.eat(&Tok::Implies) {
            let right = self.parse_implies()?;
            Expr::Logic(LogicOp::Implies, Box::new(left), Box::new(right))
        } else {
            left
        };
        self.depth -= 1;
        Ok(e)
    }

    fn parse_or(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.parse_and()?;
        let saved = self.depth;
        while self.eat(&Tok::Or) {
            self.enter()?;
            let right = self.parse_and()?;
            left = Expr::Logic(LogicOp::Or, Box::new(left), Box::new(right));
        }
        self.depth = saved;
        Ok(left)
    }

    fn parse_and(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.parse_unary()?;
        let saved = self.depth;
        while self.eat(&Tok::And) {
            self.enter()?;
            let right = self.parse_unary()?;
            left = Expr::Logic(LogicOp::And, Box::new(left), Box::new(right));
        }
        self.depth = saved;
        Ok(left)
    }

    /// `¬` and quantifiers bind tightly: `\forall x\, F(x) \to G` is `(\forall x\, F(x)) \to G`;
    /// a quantifier followed by `:` or `.` takes everything to its right.
    fn parse_unary(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let e = match self.peek() {
            Some(Tok::Not) => {
                self.pos += 1;
                Expr::Not(Box::new(self.parse_unary()?))
            }
            Some(Tok::Forall) | Some(Tok::Exists) => self.parse_quantifier()?,
            _ => self.parse_relation()?,
        };
        self.depth -= 1;
        Ok(e)
    }

    fn parse_quantifier(&mut self) -> Result<Expr, ParseError> {
        self.charge(CALL_COST)?;
        let q = if self.peek() == Some(&Tok::Forall) {
            Quantifier::Forall
        } else {
            Quantifier::Exists
        };
        self.pos += 1;
        let mut vars = vec![self.variable()?];
        // `\forall x, y\, A`: a comma continues the list when a plain variable follows.
        while self.peek() == Some(&Tok::Comma)
            && matches!(self.peek_at(1), Some(Tok::Ident(_)))
            && !matches!(self.peek_at(2), Some(Tok::LParen))
        {
            self.pos += 1;
            vars.push(self.variable()?);
        }
        // Bounded form `\forall x, y > 0: A` means `\forall x \forall y (x > 0 \land y > 0 \to A)`.
        let mut bound = None;
        if let Some(Tok::Rel(op)) = self.peek().cloned() {
            let at = self.here();
            self.pos += 1;
            let rhs = self.parse_sum()?;
            bound = Some((op, rhs, at));
        }
        let wide = self.eat(&Tok::Colon) || self.eat(&Tok::Dot) || self.eat(&Tok::Comma);
        if bound.is_some() && !wide {
            return Err(err(
                self.here(),
                "a bounded quantifier needs ':' before its body",
            ));
        }
        let mut body = if wide {
            self.parse_iff()?
        } else {
            self.parse_unary()?
        };
        if let Some((op, rhs, at)) = bound {
            let mut guard: Option<Expr> = None;
            for v in &vars {
                let rhs_copy = clone_expr(&rhs);
                let atom = Expr::Rel(vec![op], vec![Expr::Name(v.clone(), at), rhs_copy], at);
                guard = Some(match guard {
                    None => atom,
                    Some(g) => Expr::Logic(LogicOp::And, Box::new(g), Box::new(atom)),
                });
            }
            if let Some(g) = guard {
                let op = if q == Quantifier::Forall {
                    LogicOp::Implies
                } else {
                    LogicOp::And
                };
                body = Expr::Logic(op, Box::new(g), Box::new(body));
            }
        }
        for v in vars.into_iter().rev() {
            body = Expr::Quant(q, v, Box::new(body));
        }
        self.depth -= CALL_COST;
        Ok(body)
    }

    fn variable(&mut self) -> Result<String, ParseError> {
        match (self.peek().cloned(), self.peek_at(1), self.peek_at(2)) {
            (Some(Tok::Ident(name)), _, _) => {
                self.pos += 1;
                Ok(name)
            }
            // `\forall{x}`
            (Some(Tok::LBrace), Some(Tok::Ident(name)), Some(Tok::RBrace)) => {
                let name = name.clone();
                self.pos += 3;
                Ok(name)
            }
            _ => Err(err(self.here(), "expected a variable after the quantifier")),
        }
    }

    /// The older notation `(\forall x) A` / `(\exists x) A`, after its `(`.
    fn parenthesised_quantifier(&mut self) -> Result<Option<Expr>, ParseError> {
        let q = match self.peek() {
            Some(Tok::Forall) => Quantifier::Forall,
            Some(Tok::Exists) => Quantifier::Exists,
            _ => return Ok(None),
        };
        let (Some(Tok::Ident(v)), Some(Tok::RParen)) = (self.peek_at(1), self.peek_at(2)) else {
            return Ok(None);
        };
        let v = v.clone();
        self.pos += 3;
        let body = self.parse_unary()?;
        Ok(Some(Expr::Quant(q, v, Box::new(body))))
    }

    fn parse_relation(&mut self) -> Result<Expr, ParseError> {
        let at = self.here();
        let first = self.parse_sum()?;
        let mut ops = Vec::new();
        let mut operands = vec![first];
        while let Some(Tok::Rel(op)) = self.peek().cloned() {
            self.pos += 1;
            ops.push(op);
            operands.push(self.parse_sum()?);
        }
        if ops.is_empty() {
            return Ok(operands.pop().unwrap_or(Expr::Top));
        }
        Ok(Expr::Rel(ops, operands, at))
    }

    fn parse_sum(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let saved = self.depth - 1;
        let mut left = if self.peek() == Some(&Tok::Minus) {
            self.pos += 1;
            Expr::Neg(Box::new(self.parse_product()?))
        } else {
            if self.peek() == Some(&Tok::Plus) {
                self.pos += 1;
            }
            self.parse_product()?
        };
        loop {
            let at = self.here();
            let op = match self.peek() {
                Some(Tok::Plus) => ArithOp::Add,
                Some(Tok::Minus) => ArithOp::Sub,
                _ => break,
            };
            self.pos += 1;
            self.enter()?;
            let right = self.parse_product()?;
            left = Expr::Arith(op, Box::new(left), Box::new(right), at);
        }
        self.depth = saved;
        Ok(left)
    }

    fn parse_product(&mut self) -> Result<Expr, ParseError> {
        let mut left = self.parse_signed()?;
        let saved = self.depth;
        loop {
            self.enter()?;
            let at = self.here();
            let op = match self.peek() {
                Some(Tok::Times) => ArithOp::Mul,
                Some(Tok::Slash) => ArithOp::Div,
                // Juxtaposition after a number or a closing bracket: `2x`, `2(x+1)`, `(a)(b)`.
                Some(Tok::Ident(_)) | Some(Tok::Num(_)) | Some(Tok::LParen) | Some(Tok::LBrace)
                | Some(Tok::Frac)
                    if self.implicit_product_ok() =>
                {
                    let right = self.parse_power()?;
                    left = Expr::Arith(ArithOp::Mul, Box::new(left), Box::new(right), at);
                    continue;
                }
                _ => break,
            };
            self.pos += 1;
            let right = self.parse_signed()?;
            left = Expr::Arith(op, Box::new(left), Box::new(right), at);
        }
        self.depth = saved;
        Ok(left)
    }

    /// Juxtaposition is a product after a number or a closing bracket (`2x`, `2(x+1)`,
    /// `a^{2} b`), and between two names written apart (`a b`, `3 a b^{2}`, as in LaTeX
    /// arithmetic). Letters run together stay one name (`ab`, `Wumpus`): names here are words.
    fn implicit_product_ok(&self) -> bool {
        let prev = self
            .pos
            .checked_sub(1)
            .and_then(|p| self.tokens.get(p))
            .map(|t| &t.tok);
        match prev {
            Some(Tok::Num(_)) | Some(Tok::RParen) | Some(Tok::RBrace) => true,
            Some(Tok::Ident(_)) => matches!(self.peek(), Some(Tok::Ident(_)) | Some(Tok::Frac)),
            _ => false,
        }
    }

    fn parse_signed(&mut self) -> Result<Expr, ParseError> {
        if self.peek() == Some(&Tok::Minus) {
            self.enter()?;
            self.pos += 1;
            let e = Expr::Neg(Box::new(self.parse_signed()?));
            self.depth -= 1;
            return Ok(e);
        }
        self.parse_power()
    }

    fn parse_power(&mut self) -> Result<Expr, ParseError> {
        let base = self.parse_atom()?;
        let at = self.here();
        if self.eat(&Tok::Caret) {
            self.enter()?;
            let exponent = if self.peek() == Some(&Tok::Minus) {
                self.pos += 1;
                Expr::Neg(Box::new(self.parse_atom()?))
            } else {
                self.parse_atom()?
            };
            self.depth -= 1;
            return Ok(Expr::Arith(
                ArithOp::Pow,
                Box::new(base),
                Box::new(exponent),
                at,
            ));
        }
        Ok(base)
    }

    fn parse_atom(&mut self) -> Result<Expr, ParseError> {
        self.enter()?;
        let at = self.here();
        let Some(tok) = self.peek().cloned() else {
            return Err(err(at, "formula ends too early"));
        };
        self.pos += 1;
        let e = match tok {
            Tok::Num(n) => Expr::Num(n),
            Tok::Bottom => Expr::Bottom,
            Tok::Top => Expr::Top,
            Tok::Ident(name) => {
                if self.peek() == Some(&Tok::LParen) {
                    self.pos += 1;
                    self.charge(CALL_COST)?;
                    let mut args = vec![self.parse_sum()?];
                    while self.eat(&Tok::Comma) {
                        args.push(self.parse_sum()?);
                    }
                    self.expect(&Tok::RParen, "')' closing the argument list")?;
                    self.depth -= CALL_COST;
                    Expr::App(name, args, at)
                } else {
                    Expr::Name(name, at)
                }
            }
            Tok::LParen => {
                if let Some(quantified) = self.parenthesised_quantifier()? {
                    self.depth -= 1;
                    return Ok(quantified);
                }
                let inner = self.parse_iff()?;
                self.expect(&Tok::RParen, "')'")?;
                Expr::Group(Box::new(inner))
            }
            Tok::LBrace => {
                let inner = self.parse_iff()?;
                self.expect(&Tok::RBrace, "'}'")?;
                Expr::Group(Box::new(inner))
            }
            Tok::Frac => {
                self.charge(CALL_COST)?;
                self.expect(&Tok::LBrace, "'{' after \\frac")?;
                let num = self.parse_sum()?;
                self.expect(&Tok::RBrace, "'}' closing the numerator")?;
                self.expect(&Tok::LBrace, "'{' opening the denominator")?;
                let den = self.parse_sum()?;
                self.expect(&Tok::RBrace, "'}' closing the denominator")?;
                self.depth -= CALL_COST;
                Expr::Arith(
                    ArithOp::Div,
                    Box::new(Expr::Group(Box::new(num))),
                    Box::new(Expr::Group(Box::new(den))),
                    at,
                )
            }
            Tok::Not | Tok::Forall | Tok::Exists => {
                self.pos -= 1;
                self.parse_unary()?
            }
            other => return Err(err(at, format!("unexpected {}", describe(&other)))),
        };
        self.depth -= 1;
        Ok(e)
    }
}

/// A token for "unexpected …" messages. The names of the plain tokens are spelled as
/// `#[derive(Debug)]` would print them (the messages predate this function), but written out:
/// the derived `Debug` of `Tok` cost the wasm ~800 bytes for this one message.
fn describe(tok: &Tok) -> String {
    let name = match tok {
        Tok::RParen => "')'",
        Tok::RBrace => "'}'",
        Tok::Comma => "','",
        Tok::Rel(_) => "comparison sign",
        Tok::And | Tok::Or | Tok::Implies | Tok::Iff => "connective with nothing on its left",
        Tok::Ident(s) => return format!("Ident({s:?})"),
        Tok::Num(s) => return format!("Num({s:?})"),
        Tok::LParen => "LParen",
        Tok::LBrace => "LBrace",
        Tok::Colon => "Colon",
        Tok::Dot => "Dot",
        Tok::Plus => "Plus",
        Tok::Minus => "Minus",
        Tok::Times => "Times",
        Tok::Slash => "Slash",
        Tok::Caret => "Caret",
        Tok::Not => "Not",
        Tok::Forall => "Forall",
        Tok::Exists => "Exists",
        Tok::Bottom => "Bottom",
        Tok::Top => "Top",
        Tok::Frac => "Frac",
    };
    name.to_string()
}

fn clone_expr(e: &Expr) -> Expr {
    match e {
        Expr::Name(n, p) => Expr::Name(n.clone(), *p),
        Expr::Num(n) => Expr::Num(n.clone()),
        Expr::App(n, a, p) => Expr::App(n.clone(), a.iter().map(clone_expr).collect(), *p),
        Expr::Neg(x) => Expr::Neg(Box::new(clone_expr(x))),
        Expr::Arith(o, a, b, p) => {
            Expr::Arith(*o, Box::new(clone_expr(a)), Box::new(clone_expr(b)), *p)
        }
        Expr::Rel(o, xs, p) => Expr::Rel(o.clone(), xs.iter().map(clone_expr).collect(), *p),
        Expr::Not(x) => Expr::Not(Box::new(clone_expr(x))),
        Expr::Logic(o, a, b) => Expr::Logic(*o, Box::new(clone_expr(a)), Box::new(clone_expr(b))),
        Expr::Quant(q, v, b) => Expr::Quant(*q, v.clone(), Box::new(clone_expr(b))),
        Expr::Bottom => Expr::Bottom,
        Expr::Top => Expr::Top,
        Expr::Group(x) => Expr::Group(Box::new(clone_expr(x))),
    }
}

// ---------------------------------------------------------------- sorting into Formula / Term

/// `at` is the position of the nearest enclosing node that has one, for error messages.
fn to_formula(e: Expr, depth: usize, at: usize) -> Result<Formula, ParseError> {
    if depth > MAX_DEPTH * 4 {
        return Err(err(at, "formula nested too deeply"));
    }
    let d = depth + 1;
    Ok(match e {
        Expr::Bottom => Formula::Bottom,
        Expr::Top => Formula::Top,
        Expr::Name(n, _) => Formula::Atom(n),
        Expr::App(n, args, p) => {
            let args = args
                .into_iter()
                .map(|a| to_term(a, d, p))
                .collect::<Result<_, _>>()?;
            Formula::Pred(n, args)
        }
        Expr::Group(x) => to_formula(*x, d, at)?,
        Expr::Not(x) => Formula::Not(Box::new(to_formula(*x, d, at)?)),
        Expr::Logic(op, a, b) => {
            let (a, b) = (
                Box::new(to_formula(*a, d, at)?),
                Box::new(to_formula(*b, d, at)?),
            );
            match op {
                LogicOp::And => Formula::And(a, b),
                LogicOp::Or => Formula::Or(a, b),
                LogicOp::Implies => Formula::Implies(a, b),
                LogicOp::Iff => Formula::Iff(a, b),
            }
        }
        Expr::Quant(q, v, b) => Formula::Quant(q, v, Box::new(to_formula(*b, d, at)?)),
        Expr::Rel(ops, operands, p) => {
            let terms = operands
                .into_iter()
                .map(|o| to_term(o, d, p))
                .collect::<Result<Vec<_>, _>>()?;
            let mut out: Option<Formula> = None;
            for (i, op) in ops.iter().enumerate() {
                let (Some(l), Some(r)) = (terms.get(i), terms.get(i + 1)) else {
                    break;
                };
                let atom = Formula::Rel(*op, l.clone(), r.clone());
                out = Some(match out {
                    None => atom,
                    Some(prev) => Formula::And(Box::new(prev), Box::new(atom)),
                });
            }
            out.unwrap_or(Formula::Top)
        }
        Expr::Num(n) => return Err(err(at, format!("the number {n} is not a formula"))),
        Expr::Neg(_) => return Err(err(at, "an arithmetic term is not a formula")),
        Expr::Arith(_, _, _, p) => {
            return Err(err(
                p,
                "an arithmetic term is not a formula (missing a comparison?)",
            ))
        }
    })
}

fn to_term(e: Expr, depth: usize, at: usize) -> Result<Term, ParseError> {
    if depth > MAX_DEPTH * 4 {
        return Err(err(at, "term nested too deeply"));
    }
    let d = depth + 1;
    Ok(match e {
        Expr::Name(n, _) => Term::Name(n),
        Expr::Num(n) => Term::Number(n),
        Expr::App(n, args, p) => Term::App(
            n,
            args.into_iter()
                .map(|a| to_term(a, d, p))
                .collect::<Result<_, _>>()?,
        ),
        Expr::Neg(x) => Term::Neg(Box::new(to_term(*x, d, at)?)),
        Expr::Arith(op, a, b, p) => Term::Arith(
            op,
            Box::new(to_term(*a, d, p)?),
            Box::new(to_term(*b, d, p)?),
        ),
        Expr::Group(x) => to_term(*x, d, at)?,
        Expr::Rel(_, _, p) => return Err(err(p, "a comparison cannot be used as a term")),
        Expr::Not(_) | Expr::Logic(..) | Expr::Quant(..) | Expr::Bottom | Expr::Top => {
            return Err(err(at, "a formula cannot be used as a term"))
        }
    })
}

// ---------------------------------------------------------------- printing

fn rel_text(op: RelOp) -> (&'static str, &'static str) {
    match op {
        RelOp::Eq => ("=", "="),
        RelOp::Ne => ("≠", "\\neq"),
        RelOp::Lt => ("<", "<"),
        RelOp::Le => ("≤", "\\leq"),
        RelOp::Gt => (">", ">"),
        RelOp::Ge => ("≥", "\\geq"),
    }
}

/// Binding strength of a formula's top connective (higher binds tighter).
fn formula_prec(f: &Formula) -> u8 {
    match f {
        Formula::Iff(..) => 1,
        Formula::Implies(..) => 2,
        Formula::Or(..) => 3,
        Formula::And(..) => 4,
        _ => 5,
    }
}

fn term_prec(t: &Term) -> u8 {
    match t {
        Term::Arith(ArithOp::Add | ArithOp::Sub, ..) => 1,
        Term::Neg(_) => 1,
        Term::Arith(ArithOp::Mul | ArithOp::Div, ..) => 2,
        Term::Arith(ArithOp::Pow, ..) => 3,
        _ => 4,
    }
}

struct Style {
    latex: bool,
}

impl Style {
    fn name(&self, n: &str, out: &mut String) {
        let plain = n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
            && (n.len() == 1 || n.as_bytes().get(1) == Some(&b'_') || n.ends_with('\''))
            || n.starts_with('\\');
        if self.latex && !plain {
            let _ = write!(out, "\\mathrm{{{n}}}");
            return;
        }
        // Braced long subscripts in both styles, so canonical text also parses back.
        match n.split_once('_') {
            Some((base, sub)) if plain && sub.len() > 1 => {
                let _ = write!(out, "{base}_{{{sub}}}");
            }
            _ => out.push_str(n),
        }
        if self.latex && n.starts_with('\\') && n.len() > 1 {
            out.push(' ');
        }
    }

    fn term(&self, t: &Term, out: &mut String) {
        match t {
            Term::Name(n) => self.name(n, out),
            Term::Number(n) => out.push_str(n),
            Term::App(n, args) => {
                self.name(n, out);
                self.args(args, out);
            }
            Term::Neg(x) => {
                out.push('-');
                self.term_paren(x, term_prec(x) <= 1, out);
            }
            Term::Arith(op, a, b) => {
                let p = term_prec(t);
                let (sym, lsym) = match op {
                    ArithOp::Add => (" + ", " + "),
                    ArithOp::Sub => (" - ", " - "),
                    ArithOp::Mul => ("·", " \\cdot "),
                    ArithOp::Div => ("/", " / "),
                    ArithOp::Pow => ("^", "^"),
                };
                if *op == ArithOp::Pow {
                    self.term_paren(a, term_prec(a) <= p, out);
                    out.push('^');
                    out.push('{');
                    self.term(b, out);
                    out.push('}');
                    return;
                }
                self.term_paren(a, term_prec(a) < p, out);
                out.push_str(if self.latex { lsym } else { sym });
                // Left-associative: the right operand of `-`, `/` and of equals needs brackets.
                self.term_paren(b, term_prec(b) <= p, out);
            }
        }
    }

    fn term_paren(&self, t: &Term, paren: bool, out: &mut String) {
        if paren {
            out.push('(');
            self.term(t, out);
            out.push(')');
        } else {
            self.term(t, out);
        }
    }

    fn args(&self, args: &[Term], out: &mut String) {
        out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            self.term(a, out);
        }
        out.push(')');
    }

    fn formula(&self, f: &Formula, out: &mut String) {
        let l = self.latex;
        match f {
            Formula::Bottom => out.push_str(if l { "\\bot" } else { "⊥" }),
            Formula::Top => out.push_str(if l { "\\top" } else { "⊤" }),
            Formula::Atom(n) => self.name(n, out),
            Formula::Pred(n, args) => {
                self.name(n, out);
                self.args(args, out);
            }
            Formula::Rel(op, a, b) => {
                self.term(a, out);
                let (u, x) = rel_text(*op);
                out.push(' ');
                out.push_str(if l { x } else { u });
                out.push(' ');
                self.term(b, out);
            }
            Formula::Not(x) => {
                out.push_str(if l { "\\neg " } else { "¬" });
                self.formula_paren(x, formula_prec(x) < 5, out);
            }
            Formula::Quant(q, v, body) => {
                let sym = match (q, l) {
                    (Quantifier::Forall, true) => "\\forall ",
                    (Quantifier::Exists, true) => "\\exists ",
                    (Quantifier::Forall, false) => "∀",
                    (Quantifier::Exists, false) => "∃",
                };
                out.push_str(sym);
                self.name(v, out);
                out.push_str(if l { "\\, " } else { " " });
                self.formula_paren(body, formula_prec(body) < 5, out);
            }
            Formula::And(a, b)
            | Formula::Or(a, b)
            | Formula::Implies(a, b)
            | Formula::Iff(a, b) => {
                let p = formula_prec(f);
                let (u, x) = match f {
                    Formula::And(..) => (" ∧ ", " \\land "),
                    Formula::Or(..) => (" ∨ ", " \\lor "),
                    Formula::Implies(..) => (" → ", " \\to "),
                    _ => (" ↔ ", " \\leftrightarrow "),
                };
                // `→` groups right; the others group left.
                let right_assoc = matches!(f, Formula::Implies(..));
                self.formula_paren(
                    a,
                    if right_assoc {
                        formula_prec(a) <= p
                    } else {
                        formula_prec(a) < p
                    },
                    out,
                );
                out.push_str(if l { x } else { u });
                self.formula_paren(
                    b,
                    if right_assoc {
                        formula_prec(b) < p
                    } else {
                        formula_prec(b) <= p
                    },
                    out,
                );
            }
        }
    }

    fn formula_paren(&self, f: &Formula, paren: bool, out: &mut String) {
        if paren {
            out.push('(');
            self.formula(f, out);
            out.push(')');
        } else {
            self.formula(f, out);
        }
    }
}

impl Formula {
    /// Notation-independent text (Unicode symbols, minimal brackets): formulas that differ only in
    /// notation (`\land`/`\wedge`, `\text{}`/`\mathrm{}`, spacing, redundant brackets) share it.
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        Style { latex: false }.formula(self, &mut out);
        out
    }

    /// LaTeX that parses back to the same formula.
    pub fn to_latex(&self) -> String {
        let mut out = String::new();
        Style { latex: true }.formula(self, &mut out);
        out
    }

    /// Equal up to the names of bound variables (alpha-equivalence).
    pub fn same_up_to_bound_renaming(&self, other: &Formula) -> bool {
        alpha_eq(self, other, &mut Vec::new())
    }
}

impl Term {
    pub fn canonical(&self) -> String {
        let mut out = String::new();
        Style { latex: false }.term(self, &mut out);
        out
    }
}

// ---------------------------------------------------------------- binding-aware helpers

/// Binder pairs (left variable, right variable), innermost last.
pub(crate) type Env = Vec<(String, String)>;

/// Looks a name up from the innermost binder: Some(index) if bound on that side.
fn bound_index(env: &Env, name: &str, left: bool) -> Option<usize> {
    env.iter()
        .rposition(|(l, r)| if left { l == name } else { r == name })
}

pub(crate) fn alpha_eq(a: &Formula, b: &Formula, env: &mut Env) -> bool {
    match (a, b) {
        (Formula::Bottom, Formula::Bottom) | (Formula::Top, Formula::Top) => true,
        (Formula::Atom(x), Formula::Atom(y)) => x == y,
        (Formula::Pred(p, xs), Formula::Pred(q, ys)) => {
            p == q
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(x, y)| term_alpha_eq(x, y, env))
        }
        (Formula::Rel(o, x1, x2), Formula::Rel(p, y1, y2)) => {
            o == p && term_alpha_eq(x1, y1, env) && term_alpha_eq(x2, y2, env)
        }
        (Formula::Not(x), Formula::Not(y)) => alpha_eq(x, y, env),
        (Formula::And(x1, x2), Formula::And(y1, y2))
        | (Formula::Or(x1, x2), Formula::Or(y1, y2))
        | (Formula::Implies(x1, x2), Formula::Implies(y1, y2))
        | (Formula::Iff(x1, x2), Formula::Iff(y1, y2)) => {
            alpha_eq(x1, y1, env) && alpha_eq(x2, y2, env)
        }
        (Formula::Quant(q, v, x), Formula::Quant(r, w, y)) => {
            if q != r {
                return false;
            }
            env.push((v.clone(), w.clone()));
            let same = alpha_eq(x, y, env);
            env.pop();
            same
        }
        _ => false,
    }
}

pub(crate) fn term_alpha_eq(a: &Term, b: &Term, env: &Env) -> bool {
    match (a, b) {
        (Term::Name(x), Term::Name(y)) => {
            let (i, j) = (bound_index(env, x, true), bound_index(env, y, false));
            match (i, j) {
                (None, None) => x == y,
                (Some(i), Some(j)) => i == j,
                _ => false,
            }
        }
        (Term::Number(x), Term::Number(y)) => x == y,
        (Term::App(f, xs), Term::App(g, ys)) => {
            f == g
                && xs.len() == ys.len()
                && xs.iter().zip(ys).all(|(x, y)| term_alpha_eq(x, y, env))
        }
        (Term::Neg(x), Term::Neg(y)) => term_alpha_eq(x, y, env),
        (Term::Arith(o, x1, x2), Term::Arith(p, y1, y2)) => {
            o == p && term_alpha_eq(x1, y1, env) && term_alpha_eq(x2, y2, env)
        }
        _ => false,
    }
}

/// Names occurring free in a term (constants and free variables alike).
pub(crate) fn term_names(t: &Term, bound: &[String], out: &mut Vec<String>) {
    match t {
        Term::Name(n) => {
            if !bound.contains(n) && !out.contains(n) {
                out.push(n.clone());
            }
        }
        Term::Number(_) => {}
        Term::App(_, args) => args.iter().for_each(|a| term_names(a, bound, out)),
        Term::Neg(x) => term_names(x, bound, out),
        Term::Arith(_, a, b) => {
            term_names(a, bound, out);
            term_names(b, bound, out);
        }
    }
}

/// Names occurring free in a formula.
pub fn free_names(f: &Formula) -> Vec<String> {
    let mut out = Vec::new();
    formula_names(f, &mut Vec::new(), &mut out);
    out
}

fn formula_names(f: &Formula, bound: &mut Vec<String>, out: &mut Vec<String>) {
    match f {
        Formula::Bottom | Formula::Top | Formula::Atom(_) => {}
        Formula::Pred(_, args) => args.iter().for_each(|a| term_names(a, bound, out)),
        Formula::Rel(_, a, b) => {
            term_names(a, bound, out);
            term_names(b, bound, out);
        }
        Formula::Not(x) => formula_names(x, bound, out),
        Formula::And(a, b) | Formula::Or(a, b) | Formula::Implies(a, b) | Formula::Iff(a, b) => {
            formula_names(a, bound, out);
            formula_names(b, bound, out);
        }
        Formula::Quant(_, v, body) => {
            bound.push(v.clone());
            formula_names(body, bound, out);
            bound.pop();
        }
    }
}

/// Does the name occur free anywhere in the formula?
pub fn mentions(f: &Formula, name: &str) -> bool {
    free_names(f).iter().any(|n| n == name)
}

#[cfg(test)]
pub(crate) mod testgen;
#[cfg(test)]
mod tests;
