//! A small, bounded parser and evaluator for normalised answers: numbers, `+ - * / ^ !`,
//! parentheses, `\frac`, `\sqrt[n]{}`, `\pi`, `e`, common functions, variables, implicit
//! multiplication and mixed numbers (`3\frac{1}{2}`).
//!
//! Bounded on purpose: at most [`MAX_NODES`] nodes and [`MAX_DEPTH`] nesting, so hostile input
//! costs microseconds and never recursion-overflows; works the same in wasm.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};

use crate::tex::GREEK_LETTERS;

use super::number::{parse_decimal_big, pow10, Num};
use super::real;

pub const MAX_NODES: usize = 512;
pub const MAX_DEPTH: usize = 48;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Cot,
    Sec,
    Csc,
    Asin,
    Acos,
    Atan,
    Ln,
    Log,
    Exp,
    Sqrt,
    Abs,
    Sinh,
    Cosh,
    Tanh,
    /// `\lfloor x \rfloor`.
    Floor,
    /// `\lceil x \rceil`.
    Ceil,
    /// `n!!`: n·(n−2)·(n−4)…, exact for integers (`5!!` = 15, not (5!)! or 5!).
    DoubleFact,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    /// An exact literal of any length (decimals and repeating decimals are rationals).
    Lit(BigRational),
    Pi,
    E,
    /// `\infty`: a limit, not a variable (`\infty-\infty` is undefined, not 0).
    Infinity,
    Var(usize),
    Neg(Box<Node>),
    Add(Box<Node>, Box<Node>),
    Sub(Box<Node>, Box<Node>),
    Mul(Box<Node>, Box<Node>),
    Div(Box<Node>, Box<Node>),
    Pow(Box<Node>, Box<Node>),
    Fact(Box<Node>),
    Call(Func, Box<Node>),
    Root(Box<Node>, Box<Node>),
    Binom(Box<Node>, Box<Node>),
    /// `\log_b x`: exact when `x` is an integer power of `b`.
    LogBase(Box<Node>, Box<Node>),
    /// `F_{n-k-1}`, `F_k`: an unknown sequence or function (named by a hash of its name) at an
    /// argument. Only [`parse_opaque`] builds it; it has no numeric value, and exact sampling
    /// gives it a pseudo-random value per exact argument (equiv/exact.rs), so two answers
    /// agree only when they apply the same functions to equal arguments.
    Apply(u64, Box<Node>),
}

/// A parsed expression and the names of its free variables.
#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub root: Node,
    pub vars: Vec<String>,
}

struct Parser<'a> {
    s: &'a [u8],
    src: &'a str,
    i: usize,
    nodes: usize,
    depth: usize,
    vars: Vec<String>,
    /// Subscripts are arguments of unknown functions (`F_{n-k-1}` is F at n−k−1), not parts
    /// of a name: see [`parse_opaque`].
    opaque: bool,
}

/// Parses a whole normalised answer; `None` when it is not (entirely) an expression.
pub fn parse(src: &str) -> Option<Expr> {
    parse_with(src, false)
}

/// Like [`parse`], but every subscript is the argument of an unknown function: `F_k F_{n-k-1}`
/// is F(k)·F(n−k−1). For the bodies of sums and products (equiv, "big operators"), whose
/// index appears in subscripts; such an expression has no float value.
pub fn parse_opaque(src: &str) -> Option<Expr> {
    parse_with(src, true)
}

fn parse_with(src: &str, opaque: bool) -> Option<Expr> {
    if src.is_empty() || src.len() > 2048 {
        return None;
    }
    let mut p = Parser {
        s: src.as_bytes(),
        src,
        i: 0,
        nodes: 0,
        depth: 0,
        vars: Vec::new(),
        opaque,
    };
    let root = p.expr()?;
    p.skip_ws();
    (p.i == p.s.len()).then_some(Expr { root, vars: p.vars })
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|b| b == b' ') {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// Consumes `word` (a command such as `\bmod`) when it comes next and is not the start of
    /// a longer command.
    fn eat_word(&mut self, word: &str) -> bool {
        self.skip_ws();
        let rest = self.src.get(self.i..).unwrap_or("");
        let whole = rest
            .strip_prefix(word)
            .is_some_and(|after| !after.starts_with(|c: char| c.is_ascii_alphabetic()));
        if whole {
            self.i += word.len();
        }
        whole
    }

    fn node(&mut self, n: Node) -> Option<Node> {
        self.nodes += 1;
        (self.nodes <= MAX_NODES).then_some(n)
    }

    fn enter(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    fn expr(&mut self) -> Option<Node> {
        self.enter()?;
        let mut left = self.term()?;
        loop {
            if self.eat(b'+') {
                let r = self.term()?;
                left = self.node(Node::Add(Box::new(left), Box::new(r)))?;
            } else if self.eat(b'-') {
                let r = self.term()?;
                left = self.node(Node::Sub(Box::new(left), Box::new(r)))?;
            } else {
                break;
            }
        }
        self.depth -= 1;
        Some(left)
    }

    fn term(&mut self) -> Option<Node> {
        let mut left = self.unary()?;
        loop {
            if self.eat(b'*') {
                let r = self.unary()?;
                left = self.node(Node::Mul(Box::new(left), Box::new(r)))?;
            } else if self.eat(b'/') {
                let r = self.unary()?;
                left = self.node(Node::Div(Box::new(left), Box::new(r)))?;
            } else if self.eat_word("\\bmod") || self.eat_word("\\mod") {
                // a mod b = a − b·⌊a/b⌋, exact for rationals.
                let r = self.unary()?;
                let q = Node::Div(Box::new(left.clone()), Box::new(r.clone()));
                let fl = self.node(Node::Call(Func::Floor, Box::new(q)))?;
                let m = self.node(Node::Mul(Box::new(r), Box::new(fl)))?;
                left = self.node(Node::Sub(Box::new(left), Box::new(m)))?;
            } else if self.starts_atom() {
                let r = self.power()?;
                left = self.node(Node::Mul(Box::new(left), Box::new(r)))?;
            } else {
                break;
            }
        }
        Some(left)
    }

    fn starts_atom(&mut self) -> bool {
        self.skip_ws();
        match self.peek() {
            Some(b) if b.is_ascii_alphanumeric() || b == b'(' || b == b'{' || b == b'.' => true,
            Some(b'\\') => {
                let rest = self.src.get(self.i..).unwrap_or("");
                !["\\}", "\\end", "\\rfloor", "\\rceil", "\\bmod", "\\mod"]
                    .iter()
                    .any(|w| rest.starts_with(w))
            }
            _ => false,
        }
    }

    fn unary(&mut self) -> Option<Node> {
        self.enter()?;
        let n = if self.eat(b'-') {
            let inner = self.unary()?;
            self.node(Node::Neg(Box::new(inner)))?
        } else if self.eat(b'+') {
            self.unary()?
        } else {
            self.power()?
        };
        self.depth -= 1;
        Some(n)
    }

    fn power(&mut self) -> Option<Node> {
        let mut base = self.postfix()?;
        if self.eat(b'^') {
            let exp = self.exponent()?;
            base = self.node(Node::Pow(Box::new(base), Box::new(exp)))?;
        }
        Some(base)
    }

    fn exponent(&mut self) -> Option<Node> {
        self.skip_ws();
        match self.peek() {
            Some(b'{') => self.group(),
            Some(b'-') => {
                self.i += 1;
                let e = self.exponent()?;
                self.node(Node::Neg(Box::new(e)))
            }
            _ => self.postfix(),
        }
    }

    fn postfix(&mut self) -> Option<Node> {
        let mut a = self.atom()?;
        if self.peek() == Some(b'!') {
            self.i += 1;
            // `5!!` is a double factorial (15), not (5!)! and not 5!.
            if self.peek() == Some(b'!') {
                self.i += 1;
                if self.peek() == Some(b'!') {
                    return None;
                }
                return self.node(Node::Call(Func::DoubleFact, Box::new(a)));
            }
            a = self.node(Node::Fact(Box::new(a)))?;
        }
        Some(a)
    }

    fn group(&mut self) -> Option<Node> {
        self.enter()?;
        let close = match self.peek() {
            Some(b'(') => b')',
            Some(b'{') => b'}',
            Some(b'[') => b']',
            _ => return None,
        };
        self.i += 1;
        let e = self.expr()?;
        if !self.eat(close) {
            return None;
        }
        self.depth -= 1;
        Some(e)
    }

    /// A `\frac` argument: a brace group or a single character (`\frac12`).
    fn arg(&mut self) -> Option<Node> {
        self.skip_ws();
        match self.peek()? {
            b'{' => self.group(),
            b if b.is_ascii_digit() => {
                self.i += 1;
                self.node(Node::Lit(BigRational::from_integer(BigInt::from(b - b'0'))))
            }
            _ => self.atom(),
        }
    }

    fn number(&mut self) -> Option<Node> {
        let start = self.i;
        while self.peek().is_some_and(|b| b.is_ascii_digit() || b == b'.') {
            self.i += 1;
        }
        // Scientific notation `1.5e3`, but not `2e` (2 times Euler's number).
        if self.peek() == Some(b'e') {
            let save = self.i;
            self.i += 1;
            if self.peek() == Some(b'-') || self.peek() == Some(b'+') {
                self.i += 1;
            }
            if self.peek().is_some_and(|b| b.is_ascii_digit()) {
                while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.i += 1;
                }
            } else {
                self.i = save;
            }
        }
        let text = self.src.get(start..self.i)?;
        if text.contains('.') {
            if let Some(r) = self.repeating(text) {
                return self.node(Node::Lit(r));
            }
        }
        // Exact at any length: a float here is what made 40-digit numbers differing in the
        // last digit "equal".
        let r = parse_decimal_big(text)?;
        let lit = self.node(Node::Lit(r.clone()))?;
        self.mixed(lit, &r)
    }

    /// `0.\overline{3}` = 1/3, `0.1\overline{6}` = 1/6: a repeating decimal is an exact
    /// rational. Without this `\overline` read as a variable and every such answer was `0`.
    fn repeating(&mut self, text: &str) -> Option<BigRational> {
        let rest = self.src.get(self.i..)?;
        let after = rest.strip_prefix("\\overline")?;
        let open = self.i + (rest.len() - after.len());
        let body = self.src.get(open..)?.strip_prefix('{')?;
        let close = body.find('}')?;
        let period = body.get(..close)?;
        if period.is_empty() || period.len() > 64 || !period.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let (int_part, frac) = text.split_once('.')?;
        if frac.contains(['e', 'E']) {
            return None;
        }
        let head = parse_decimal_big(&format!(
            "{}.{frac}",
            if int_part.is_empty() { "0" } else { int_part }
        ))?;
        // The repeating block after `frac.len()` places: period / (10^p − 1) / 10^frac.len().
        let p = i64::try_from(period.len()).ok()?;
        let scale = i64::try_from(frac.len()).ok()?;
        let block: BigInt = period.parse().ok()?;
        let nines = pow10(p).to_integer() - BigInt::one();
        let tail = BigRational::new(block, nines) * pow10(-scale);
        self.i = open + 1 + close + 1;
        Some(head + tail)
    }

    /// `3\frac{1}{2}` is three and a half, not three halves.
    fn mixed(&mut self, lit: Node, r: &BigRational) -> Option<Node> {
        let rest = self.src.get(self.i..).unwrap_or("");
        if r.is_integer() && rest.starts_with("\\frac") {
            let save = (self.i, self.nodes);
            self.i += 5;
            if let (Some(Node::Lit(n)), Some(Node::Lit(d))) = (self.arg(), self.arg()) {
                if n.is_integer() && d.is_integer() {
                    let frac = Node::Div(Box::new(Node::Lit(n)), Box::new(Node::Lit(d)));
                    let sum = if r.is_negative() {
                        Node::Sub(Box::new(lit), Box::new(frac))
                    } else {
                        Node::Add(Box::new(lit), Box::new(frac))
                    };
                    return self.node(sum);
                }
            }
            (self.i, self.nodes) = save;
        }
        Some(lit)
    }

    fn command(&mut self) -> Option<Node> {
        let start = self.i + 1;
        let mut end = start;
        while self.s.get(end).is_some_and(|b| b.is_ascii_alphabetic()) {
            end += 1;
        }
        let name = self.src.get(start..end)?;
        self.i = end;
        match name {
            "frac" => {
                let n = self.arg()?;
                let d = self.arg()?;
                self.node(Node::Div(Box::new(n), Box::new(d)))
            }
            "sqrt" => {
                self.skip_ws();
                if self.peek() == Some(b'[') {
                    let idx = self.group()?;
                    let x = self.arg()?;
                    return self.node(Node::Root(Box::new(x), Box::new(idx)));
                }
                let x = self.arg()?;
                self.node(Node::Call(Func::Sqrt, Box::new(x)))
            }
            // C(n, k), exactly (bounded): `\binom{100}{50}` has 30 digits.
            "binom" | "dbinom" | "tbinom" => {
                let n = self.arg()?;
                let k = self.arg()?;
                self.node(Node::Binom(Box::new(n), Box::new(k)))
            }
            "lfloor" | "lceil" => {
                let x = self.expr()?;
                let close = if name == "lfloor" {
                    "\\rfloor"
                } else {
                    "\\rceil"
                };
                if !self.eat_word(close) {
                    return None;
                }
                let f = if name == "lfloor" {
                    Func::Floor
                } else {
                    Func::Ceil
                };
                self.node(Node::Call(f, Box::new(x)))
            }
            "pi" => self.node(Node::Pi),
            "infty" | "inf" => self.node(Node::Infinity),
            "sin" | "cos" | "tan" | "cot" | "sec" | "csc" | "arcsin" | "arccos" | "arctan"
            | "ln" | "log" | "exp" | "sinh" | "cosh" | "tanh" => self.call(name),
            // `\dot{x}`, `\hat{y}`, `\bar{v}`: a name of its own (the derivative, the estimate).
            "dot" | "ddot" | "hat" | "bar" | "vec" | "tilde" => {
                let rest = self.src.get(self.i..)?;
                let inner = rest.strip_prefix('{')?;
                let close = inner.find('}')?;
                let body = inner.get(..close)?.trim_start_matches('\\');
                if body.is_empty() || !body.bytes().all(|b| b.is_ascii_alphabetic()) {
                    return None;
                }
                self.i += close + 2;
                let full = format!("{name}{{{body}}}");
                self.var(&full)
            }
            // Only Greek letters name variables: any other command (`\overline`, `\cdots`,
            // `\cot`) read as a variable made unrelated answers "symbolically equal".
            // (`\pi` is matched above, so it stays the constant.)
            greek if GREEK_LETTERS.contains(&greek) => self.var(greek),
            // `\pit`, `\omegat` (a space lost in the source): the Greek letter, then the rest
            // of the letters as the next factors.
            other => {
                let prefix = (2..other.len()).rev().find_map(|k| {
                    let p = other.get(..k)?;
                    (p == "pi" || GREEK_LETTERS.contains(&p)).then_some(p)
                })?;
                self.i = start + prefix.len();
                if prefix == "pi" {
                    self.node(Node::Pi)
                } else {
                    self.var(prefix)
                }
            }
        }
    }

    fn call(&mut self, name: &str) -> Option<Node> {
        // `\log_2 8`, `\log_{10} x`: log_b x = ln x / ln b.
        if name == "log" {
            self.skip_ws();
            if self.peek() == Some(b'_') {
                self.i += 1;
                let base = self.arg()?;
                let x = self.power()?;
                return self.node(Node::LogBase(Box::new(base), Box::new(x)));
            }
        }
        let mut f = match name {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "cot" => Func::Cot,
            "sec" => Func::Sec,
            "csc" => Func::Csc,
            "arcsin" => Func::Asin,
            "arccos" => Func::Acos,
            "arctan" => Func::Atan,
            "ln" => Func::Ln,
            "log" => Func::Log,
            "exp" => Func::Exp,
            "sinh" => Func::Sinh,
            "cosh" => Func::Cosh,
            "tanh" => Func::Tanh,
            "sqrt" => Func::Sqrt,
            _ => return None,
        };
        // `\sin^2 x` is (sin x)², `\sin^{-1} x` is arcsin x (the usual reading of each).
        let mut power = None;
        if self.eat(b'^') {
            let e = self.exponent()?;
            let inverse =
                matches!(&e, Node::Neg(one) if matches!(one.as_ref(), Node::Lit(r) if r.is_one()));
            let inverted = match f {
                Func::Sin if inverse => Some(Func::Asin),
                Func::Cos if inverse => Some(Func::Acos),
                Func::Tan if inverse => Some(Func::Atan),
                _ => None,
            };
            match inverted {
                Some(g) => f = g,
                None => power = Some(e),
            }
        }
        let x = self.func_arg()?;
        let call = self.node(Node::Call(f, Box::new(x)))?;
        match power {
            Some(e) => self.node(Node::Pow(Box::new(call), Box::new(e))),
            None => Some(call),
        }
    }

    /// A function's argument: a bracketed group, or the implicit product that follows
    /// (`\sin 2x` is sin(2x), as written by hand), which ends at an operator or at another
    /// function (`\sin x \cos x` is a product of two calls).
    fn func_arg(&mut self) -> Option<Node> {
        self.skip_ws();
        // `\sin(x)^2` is (sin x)²: the power after a bracketed argument belongs to the call
        // (the caller's `power` reads it).
        if matches!(self.peek(), Some(b'(' | b'{')) {
            return self.group();
        }
        let mut arg = self.power()?;
        loop {
            self.skip_ws();
            let next = self.peek();
            let more = match next {
                Some(b) if b.is_ascii_alphanumeric() => {
                    let rest = self.src.get(self.i..).unwrap_or("");
                    !FUNC_WORDS.iter().any(|f| rest.starts_with(f))
                }
                Some(b'\\') => {
                    let rest = self.src.get(self.i + 1..).unwrap_or("");
                    let word: &str = rest
                        .get(..rest.bytes().take_while(u8::is_ascii_alphabetic).count())
                        .unwrap_or("");
                    GREEK_LETTERS.contains(&word)
                }
                _ => false,
            };
            if !more {
                return Some(arg);
            }
            let r = self.power()?;
            arg = self.node(Node::Mul(Box::new(arg), Box::new(r)))?;
        }
    }

    fn var(&mut self, name: &str) -> Option<Node> {
        if self.opaque && self.peek() == Some(b'_') {
            self.i += 1;
            let arg = self.arg()?;
            // FNV-1a of the name: the same name is the same function.
            let h = name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
            });
            return self.node(Node::Apply(h, Box::new(arg)));
        }
        // A subscript is part of the name: `x_1`, `x_{1}`, `\omega_d`, `C_{12}` (one spelling).
        let mut owned = name.to_string();
        if self.peek() == Some(b'_') {
            let rest = self.src.get(self.i + 1..).unwrap_or("");
            let sub = if let Some(inner) = rest.strip_prefix('{') {
                let close = inner.find('}')?;
                let body = inner.get(..close)?;
                // `x_{12}`, `M_{\odot}`: digits and letters, or one command word.
                let word = body.strip_prefix('\\').unwrap_or(body);
                (!word.is_empty()
                    && body.len() <= 12
                    && word.bytes().all(|b| b.is_ascii_alphanumeric()))
                .then(|| (body.to_string(), close + 2))
            } else {
                rest.chars()
                    .next()
                    .filter(char::is_ascii_alphanumeric)
                    .map(|c| (c.to_string(), 1))
            };
            if let Some((body, used)) = sub {
                owned = format!("{name}_{body}");
                self.i += 1 + used;
            }
        }
        // Constants of integration: `C_1` and `c_1` are one name (models and keys differ in case).
        if let Some(k) = owned.strip_prefix("C_") {
            if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) {
                owned = format!("c_{k}");
            }
        }
        let name = owned.as_str();
        let idx = match self.vars.iter().position(|v| v == name) {
            Some(i) => i,
            None => {
                if self.vars.len() >= 8 {
                    return None;
                }
                self.vars.push(name.to_string());
                self.vars.len() - 1
            }
        };
        self.node(Node::Var(idx))
    }

    fn atom(&mut self) -> Option<Node> {
        self.skip_ws();
        let b = self.peek()?;
        match b {
            b'0'..=b'9' | b'.' => self.number(),
            b'(' | b'{' | b'[' => self.group(),
            b'|' => {
                self.i += 1;
                let e = self.expr()?;
                if !self.eat(b'|') {
                    return None;
                }
                self.node(Node::Call(Func::Abs, Box::new(e)))
            }
            b'\\' => self.command(),
            b if b.is_ascii_alphabetic() => {
                let rest = self.src.get(self.i..).unwrap_or("");
                for f in FUNC_WORDS {
                    if rest.starts_with(f) {
                        self.i += f.len();
                        if *f == "sqrt" {
                            let x = self.arg()?;
                            return self.node(Node::Call(Func::Sqrt, Box::new(x)));
                        }
                        return self.call(f);
                    }
                }
                self.i += 1;
                if b == b'e' {
                    return self.node(Node::E);
                }
                self.var(self.src.get(self.i - 1..self.i)?)
            }
            _ => None,
        }
    }
}

/// Function names also read without a backslash (`sin x`); longest first where one is a
/// prefix of another.
const FUNC_WORDS: &[&str] = &[
    "sqrt", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "sin", "cos", "tan", "cot",
    "sec", "csc", "exp", "log", "ln",
];

/// True for a Greek letter command name (`theta`) that names a variable: `\pi` and `\Pi` are
/// constants here, not names.
pub fn is_greek(word: &str) -> bool {
    word != "pi" && word != "Pi" && GREEK_LETTERS.contains(&word)
}

// Hyperbolic functions through `exp` (the browser's `Math.exp`; see real.rs).
fn sinh(x: f64) -> f64 {
    (real::exp(x) - real::exp(-x)) / 2.0
}

fn cosh(x: f64) -> f64 {
    (real::exp(x) + real::exp(-x)) / 2.0
}

fn tanh(x: f64) -> f64 {
    sinh(x) / cosh(x)
}

fn positive(x: f64) -> bool {
    x > 0.0
}

fn unit_interval(x: f64) -> bool {
    (-1.0..=1.0).contains(&x)
}

fn anywhere(_: f64) -> bool {
    true
}

fn exact_zero_to(value: i64) -> fn(&BigRational) -> Option<BigRational> {
    // Function pointers cannot capture, so one small function per constant result.
    match value {
        0 => |r| r.is_zero().then(BigRational::zero),
        _ => |r| r.is_zero().then(BigRational::one),
    }
}

/// `\ln 1` = 0 exactly.
fn exact_ln(r: &BigRational) -> Option<BigRational> {
    r.is_one().then(BigRational::zero)
}

/// `\log 1000` = 3 exactly: base-10 logarithms of powers of ten.
fn exact_log10(r: &BigRational) -> Option<BigRational> {
    exact_log(&BigRational::from_integer(BigInt::from(10u8)), r)
}

/// `log_b x` when `x` is an integer power of `b` (both exact and positive, `b ≠ 1`).
fn exact_log(b: &BigRational, x: &BigRational) -> Option<BigRational> {
    if !b.is_positive() || !x.is_positive() || b.is_one() {
        return None;
    }
    let (lb, lx) = (ln_big(b)?, ln_big(x)?);
    let k = (lx / lb).round();
    if !k.is_finite() || k.abs() > 10_000.0 {
        return None;
    }
    let k = k as i64;
    let back = Num::Exact(b.clone()).pow(&Num::exact_int(k));
    (back == Num::Exact(x.clone())).then(|| BigRational::from_integer(BigInt::from(k)))
}

/// ln of a positive rational of any size (through bit lengths, so 10^{400} works).
fn ln_big(r: &BigRational) -> Option<f64> {
    let part = |n: &BigInt| -> Option<f64> {
        let shift = n.bits().saturating_sub(60);
        let top = (n >> shift).to_f64()?;
        Some(real::ln(top) + shift as f64 * std::f64::consts::LN_2)
    };
    Some(part(r.numer())? - part(r.denom())?)
}

/// `n` as `k·π` with `k` an exact rational, by structure (`\pi`, `2\pi`, `\frac{\pi}{6}`,
/// `-\pi/3`, `30\pi/180`).
pub fn pi_multiple(n: &Node) -> Option<BigRational> {
    use Node::*;
    let constant = |n: &Node| match (mentions_pi(n), eval(n, &[])) {
        (false, Num::Exact(r)) => Some(r),
        _ => None,
    };
    match n {
        Pi => Some(BigRational::one()),
        Neg(a) => pi_multiple(a).map(|k| -k),
        Add(a, b) => Some(pi_multiple(a)? + pi_multiple(b)?),
        Sub(a, b) => Some(pi_multiple(a)? - pi_multiple(b)?),
        Mul(a, b) => match (pi_multiple(a), pi_multiple(b)) {
            (Some(k), None) => Some(k * constant(b)?),
            (None, Some(k)) => Some(constant(a)? * k),
            _ => None,
        },
        Div(a, b) => {
            let d = constant(b)?;
            (!d.is_zero()).then(|| Some(pi_multiple(a)? / d)).flatten()
        }
        Lit(r) if r.is_zero() => Some(BigRational::zero()),
        _ => None,
    }
}

fn mentions_pi(n: &Node) -> bool {
    any_leaf(n, &|l| matches!(l, Node::Pi))
}

/// The exact value of sin, cos or tan at `k·π` when it is rational (0, ±1/2, ±1); `None`
/// otherwise (`\sin\frac{\pi}{4}` is irrational, left to floats).
fn exact_trig(f: Func, a: &Node) -> Option<BigRational> {
    if !matches!(f, Func::Sin | Func::Cos | Func::Tan) || mentions(a, None) || !mentions_pi(a) {
        return None;
    }
    let k = pi_multiple(a)?;
    let q = k.denom().to_u32()?;
    let rational = match f {
        Func::Sin => matches!(q, 1 | 2 | 6),
        Func::Cos => matches!(q, 1..=3),
        _ => matches!(q, 1 | 4),
    };
    if !rational {
        return None;
    }
    // Reduce k modulo 2 so the float below is taken near [0, 2π) and is accurate to 1e-15.
    let two = BigRational::from_integer(BigInt::from(2));
    let r = &k - (&k / &two).floor() * &two;
    let x = r.to_f64()? * std::f64::consts::PI;
    let v = match f {
        Func::Sin => x.sin(),
        Func::Cos => x.cos(),
        _ => x.tan(),
    };
    // The value is one of 0, ±1/2, ±1 (by the denominator): the nearest one is exact.
    let half = [-1.0, -0.5, 0.0, 0.5, 1.0]
        .into_iter()
        .find(|c: &f64| (v - c).abs() < 1e-9)?;
    BigRational::from_float(half)
}

/// True when variable `var` occurs in `n` (`None`: any variable).
pub fn mentions(n: &Node, var: Option<usize>) -> bool {
    any_leaf(
        n,
        &|l| matches!(l, Node::Var(k) if var.is_none_or(|v| v == *k)),
    )
}

/// True when some leaf of `n` (a number, `\pi`, `e`, `\infty` or a variable) is one `leaf`
/// accepts: the one walk over the tree that `mentions` and its kin share.
pub fn any_leaf(n: &Node, leaf: &dyn Fn(&Node) -> bool) -> bool {
    use Node::*;
    match n {
        Lit(_) | Pi | E | Infinity | Var(_) => leaf(n),
        Neg(a) | Call(_, a) | Fact(a) | Apply(_, a) => any_leaf(a, leaf),
        Add(a, b)
        | Sub(a, b)
        | Mul(a, b)
        | Div(a, b)
        | Pow(a, b)
        | Root(a, b)
        | Binom(a, b)
        | LogBase(a, b) => any_leaf(a, leaf) || any_leaf(b, leaf),
    }
}

/// `n` as `a·x + b` in variable `var` with `a`, `b` exact rationals, when it is linear by its
/// structure (sums, negations, products and quotients by constants): `-x`, `2x+1`,
/// `\frac{x-3}{2}`. Structural, not sampled, so an inequality solved with it is exact.
/// `None` for anything else (another variable, `x^2`, `x/x`, an irrational coefficient).
pub fn linear(n: &Node, var: usize) -> Option<(BigRational, BigRational)> {
    use Node::*;
    let small = |r: &BigRational| r.numer().bits() + r.denom().bits() <= 4096;
    let out = match n {
        Var(k) if *k == var => (BigRational::one(), BigRational::zero()),
        _ if !mentions(n, None) => match eval(n, &[]) {
            Num::Exact(c) => (BigRational::zero(), c),
            _ => return None,
        },
        Neg(a) => {
            let (a1, b1) = linear(a, var)?;
            (-a1, -b1)
        }
        Add(a, b) | Sub(a, b) => {
            let (a1, b1) = linear(a, var)?;
            let (a2, b2) = linear(b, var)?;
            if matches!(n, Add(..)) {
                (a1 + a2, b1 + b2)
            } else {
                (a1 - a2, b1 - b2)
            }
        }
        Mul(a, b) => {
            let (a1, b1) = linear(a, var)?;
            let (a2, b2) = linear(b, var)?;
            if a1.is_zero() {
                (&b1 * a2, b1 * b2)
            } else if a2.is_zero() {
                (a1 * &b2, b1 * b2)
            } else {
                return None;
            }
        }
        Div(a, b) => {
            let (a1, b1) = linear(a, var)?;
            let (a2, b2) = linear(b, var)?;
            if !a2.is_zero() || b2.is_zero() {
                return None;
            }
            (a1 / &b2, b1 / b2)
        }
        _ => return None,
    };
    // Bounded like every exact value: a hostile chain of big constants stops here.
    (small(&out.0) && small(&out.1)).then_some(out)
}

/// Evaluates with `vars[i]` as the value of variable `i`.
pub fn eval(n: &Node, vars: &[f64]) -> Num {
    use Node::*;
    match n {
        Lit(r) => Num::Exact(r.clone()),
        Pi => Num::Real(std::f64::consts::PI),
        E => Num::Real(std::f64::consts::E),
        Infinity => Num::Infinity(true),
        Var(i) => match vars.get(*i) {
            Some(x) => Num::Real(*x),
            None => Num::Unknown("a variable without a value"),
        },
        Neg(a) => eval(a, vars).neg(),
        Add(a, b) => eval(a, vars).add(&eval(b, vars)),
        Sub(a, b) => eval(a, vars).sub(&eval(b, vars)),
        Mul(a, b) => eval(a, vars).mul(&eval(b, vars)),
        Div(a, b) => eval(a, vars).div(&eval(b, vars)),
        Pow(a, b) => eval(a, vars).pow(&eval(b, vars)),
        Fact(a) => eval(a, vars).factorial(),
        Apply(..) => Num::Unknown("the value of an unknown function"),
        Binom(a, b) => eval(a, vars).binomial(&eval(b, vars)),
        Root(x, k) => {
            let x = eval(x, vars);
            match eval(k, vars) {
                Num::Exact(k) if k.is_integer() && k.is_positive() => {
                    match k.to_integer().to_u32().filter(|k| *k <= 64) {
                        Some(k) => x.root(k),
                        None => x.pow(&Num::Exact(k.recip())),
                    }
                }
                k => x.pow(&Num::Exact(BigRational::one()).div(&k)),
            }
        }
        LogBase(b, x) => {
            let (b, x) = (eval(b, vars), eval(x, vars));
            if let (Num::Exact(bb), Num::Exact(xx)) = (&b, &x) {
                if let Some(k) = exact_log(bb, xx) {
                    return Num::Exact(k);
                }
            }
            let ln = |v: &Num| v.func(real::ln, Some(exact_ln), positive);
            let base = ln(&b);
            if base.to_f64() == Some(0.0) {
                return Num::Undefined("a logarithm to base 1");
            }
            ln(&x).div(&base)
        }
        Call(f, a) => {
            // sin, cos, tan at a rational multiple of π with a rational value (`\sin(\pi)` = 0,
            // `\cos\frac{\pi}{3}` = 1/2) are exact: the float sin(π) is 1.2e-16, not 0.
            if let Some(v) = exact_trig(*f, a) {
                return Num::Exact(v);
            }
            let v = eval(a, vars);
            match f {
                Func::Floor => v.rounded(false),
                Func::Ceil => v.rounded(true),
                Func::DoubleFact => v.double_factorial(),
                Func::Sqrt => v.sqrt(),
                Func::Abs => v.abs(),
                Func::Sin => v.func(real::sin, Some(exact_zero_to(0)), anywhere),
                Func::Cos => v.func(real::cos, Some(exact_zero_to(1)), anywhere),
                Func::Tan => v.func(real::tan, Some(exact_zero_to(0)), anywhere),
                // Reciprocals through exact division: `\cot 0` is undefined, not a huge float.
                Func::Cot => {
                    Num::exact_int(1).div(&v.func(real::tan, Some(exact_zero_to(0)), anywhere))
                }
                Func::Sec => {
                    Num::exact_int(1).div(&v.func(real::cos, Some(exact_zero_to(1)), anywhere))
                }
                Func::Csc => {
                    Num::exact_int(1).div(&v.func(real::sin, Some(exact_zero_to(0)), anywhere))
                }
                Func::Asin => v.func(real::asin, Some(exact_zero_to(0)), unit_interval),
                Func::Acos => v.func(real::acos, None, unit_interval),
                Func::Atan => v.func(real::atan, Some(exact_zero_to(0)), anywhere),
                Func::Ln => v.func(real::ln, Some(exact_ln), positive),
                Func::Log => v.func(real::log10, Some(exact_log10), positive),
                Func::Exp => v.func(real::exp, Some(exact_zero_to(1)), anywhere),
                Func::Sinh => v.func(sinh, Some(exact_zero_to(0)), anywhere),
                Func::Cosh => v.func(cosh, Some(exact_zero_to(1)), anywhere),
                Func::Tanh => v.func(tanh, Some(exact_zero_to(0)), anywhere),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(s: &str) -> Num {
        let e = parse(s).unwrap_or_else(|| panic!("parse {s}"));
        eval(&e.root, &[])
    }

    fn exact(n: i64, d: i64) -> Num {
        Num::Exact(BigRational::new(BigInt::from(n), BigInt::from(d)))
    }

    fn float(s: &str) -> f64 {
        val(s).to_f64().unwrap_or(f64::NAN)
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(val("5/324"), exact(5, 324));
        assert_eq!(val("\\frac{5}{324}"), exact(5, 324));
        assert_eq!(val("\\frac12"), exact(1, 2));
        assert_eq!(val("2^{10}"), exact(1024, 1));
        assert_eq!(val("2^10"), exact(1024, 1));
        assert_eq!(val("1/2^{99}*2"), val("1/2^{98}"));
        assert_eq!(val("-3+4*2"), exact(5, 1));
        assert_eq!(val("(1+2)(3)"), exact(9, 1));
        assert_eq!(val("1.5e3"), exact(1500, 1));
        assert_eq!(val("5!"), exact(120, 1));
        assert_eq!(val("\\sqrt{16}"), exact(4, 1));
        assert_eq!(val("\\sqrt[3]{8}"), exact(2, 1));
        assert_eq!(val("\\log_2 8"), exact(3, 1));
        assert_eq!(val("\\binom{5}{2}"), exact(10, 1));
        assert_eq!(val("\\dbinom{10}{3}"), exact(120, 1));
        assert_eq!(val("\\log_{10} 1000"), exact(3, 1));
    }

    #[test]
    fn mixed_numbers() {
        assert_eq!(val("3\\frac{1}{2}"), exact(7, 2));
        assert_eq!(val("-3\\frac{1}{2}"), exact(-7, 2));
        assert_eq!(float("2\\frac{\\pi}{3}"), 2.0 * std::f64::consts::PI / 3.0);
    }

    #[test]
    fn constants_and_variables() {
        assert!((float("2\\pi") - std::f64::consts::TAU).abs() < 1e-12);
        assert!((float("e^2") - 7.38905609893065).abs() < 1e-12);
        let e = parse("x^2+2xy").unwrap();
        assert_eq!(e.vars, ["x", "y"]);
        assert_eq!(eval(&e.root, &[3.0, 1.0]).to_f64(), Some(15.0));
        let t = parse("\\sin x").unwrap();
        assert_eq!(eval(&t.root, &[0.0]).to_f64(), Some(0.0));
    }

    #[test]
    fn rejects_garbage_and_bounds_work() {
        assert!(parse("(1,2)").is_none());
        assert!(parse("1+").is_none());
        assert!(parse("{{{{").is_none());
        let deep = "(".repeat(500) + "1" + &")".repeat(500);
        assert!(parse(&deep).is_none());
        let long = "1+".repeat(600) + "1";
        assert!(parse(&long).is_none());
    }

    #[test]
    fn big_literals_stay_exact() {
        let v = val("100000000000000000000000000000000000000001");
        assert_eq!(v, Num::Exact(pow10(41) + BigRational::one()));
    }

    // Each case below was a false "equal" in a fault campaign; the comment says which cause.
    #[test]
    fn fault_causes_are_exact_or_explicitly_unknown() {
        // Cause: i128 overflow fell back to floats. 2^128 and 2^128+1 are distinct exactly.
        assert_ne!(val("2^{128}"), val("2^{128}+1"));
        assert_ne!(val("10^{40}"), val("10^{40}+1"));
        assert_ne!(val("1-10^{-40}"), val("1"));
        // Cause: underflow to zero.
        assert_ne!(val("10^{-400}"), val("0"));
        assert_ne!(val("(1/2)^{10000}"), val("(1/2)^{10001}"));
        // Sizes are bounded: a result of millions of digits is not computed (and no hang).
        assert!(matches!(val("10^{10^{9}}"), Num::Unknown(_)));
        assert!(matches!(val("(10^{9})!"), Num::Unknown(_)));
        // Cause: the sign of (-1)^n came from a float power of a huge n.
        assert_eq!(val("(-1)^{10^{40}+1}"), exact(-1, 1));
        // Cause: binomials went through factorials capped at 33!.
        assert_eq!(
            val("\\binom{100}{50}"),
            Num::Exact(BigRational::from_integer(
                "100891344545564193334812497256".parse().unwrap()
            ))
        );
        assert_eq!(val("\\frac{2006!}{2004!}"), val("2006*2005"));
        // Cause: \overline was a variable. Repeating decimals are exact.
        assert_eq!(val("0.\\overline{3}"), exact(1, 3));
        assert_eq!(val("0.1\\overline{6}"), exact(1, 6));
        assert_eq!(val("1.\\overline{142857}"), exact(8, 7));
        // Cause: \infty was a variable, so \infty-\infty was 0.
        assert!(matches!(val("\\infty-\\infty"), Num::Undefined(_)));
        assert!(parse("\\overline{AB}").is_none());
        // Cause: `5!!` was read as `5!`; it is the double factorial 15.
        assert_eq!(val("5!!"), exact(15, 1));
        assert_eq!(val("\\lfloor 2.5 \\rfloor"), exact(2, 1));
        assert_eq!(val("\\lceil 2.5 \\rceil"), exact(3, 1));
        assert_eq!(val("7 \\bmod 3"), exact(1, 1));
        assert_eq!(val("\\sin(\\pi)"), exact(0, 1));
        assert_eq!(val("\\cos\\frac{\\pi}{3}"), exact(1, 2));
        assert!(parse("5!!!").is_none());
    }

    #[test]
    fn domains_are_reported() {
        assert!(matches!(val("1/0"), Num::Undefined(_)));
        assert!(matches!(val("\\sqrt{-4}"), Num::Undefined(_)));
        assert!(matches!(val("\\ln 0"), Num::Undefined(_)));
        assert!(matches!(val("e^{1000}"), Num::Unknown(_)));
        assert!(matches!(val("e^{-1000}"), Num::Unknown(_)));
        assert_eq!(val("\\sqrt[3]{-8}"), exact(-2, 1));
    }
}
