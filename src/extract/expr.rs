//! A small, bounded parser and evaluator for normalised answers: numbers, `+ - * / ^ !`,
//! parentheses, `\frac`, `\sqrt[n]{}`, `\pi`, `e`, common functions, variables, implicit
//! multiplication and mixed numbers (`3\frac{1}{2}`).
//!
//! Bounded on purpose: at most [`MAX_NODES`] nodes and [`MAX_DEPTH`] nesting, so hostile input
//! costs microseconds and never recursion-overflows; works the same in wasm.

use super::number::{parse_decimal, Num, Rational};
use super::real;

pub const MAX_NODES: usize = 512;
pub const MAX_DEPTH: usize = 48;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Func {
    Sin,
    Cos,
    Tan,
    Ln,
    Log,
    Exp,
    Sqrt,
    Abs,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Lit(Rational),
    /// A literal too long for an exact i128 rational.
    Real(f64),
    Pi,
    E,
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
}

/// Parses a whole normalised answer; `None` when it is not (entirely) an expression.
pub fn parse(src: &str) -> Option<Expr> {
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
                !(rest.starts_with("\\}") || rest.starts_with("\\end"))
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
        while self.peek() == Some(b'!') {
            self.i += 1;
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
                self.node(Node::Lit(Rational::from_int(i128::from(b - b'0'))))
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
        match parse_decimal(text) {
            Some(r) => {
                let lit = self.node(Node::Lit(r))?;
                self.mixed(lit, r)
            }
            // Too long for i128: keep going in floating point.
            None => {
                let x: f64 = text.parse().ok()?;
                self.node(Node::Real(x))
            }
        }
    }

    /// `3\frac{1}{2}` is three and a half, not three halves.
    fn mixed(&mut self, lit: Node, r: Rational) -> Option<Node> {
        let rest = self.src.get(self.i..).unwrap_or("");
        if r.is_integer() && rest.starts_with("\\frac") {
            let save = (self.i, self.nodes);
            self.i += 5;
            if let (Some(Node::Lit(n)), Some(Node::Lit(d))) = (self.arg(), self.arg()) {
                if n.is_integer() && d.is_integer() {
                    let frac = Node::Div(Box::new(Node::Lit(n)), Box::new(Node::Lit(d)));
                    let sum = if r.numer() < 0 {
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
            // C(n, k) = n! / (k! (n-k)!): exact for the integers answers use.
            "binom" | "dbinom" | "tbinom" => {
                let n = self.arg()?;
                let k = self.arg()?;
                let rest = Node::Sub(Box::new(n.clone()), Box::new(k.clone()));
                let below = Node::Mul(
                    Box::new(Node::Fact(Box::new(k))),
                    Box::new(Node::Fact(Box::new(rest))),
                );
                self.node(Node::Div(
                    Box::new(Node::Fact(Box::new(n))),
                    Box::new(below),
                ))
            }
            "pi" => self.node(Node::Pi),
            "sin" | "cos" | "tan" | "ln" | "log" | "exp" => self.call(name),
            "" => None,
            greek => self.var(greek),
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
                let top = self.node(Node::Call(Func::Ln, Box::new(x)))?;
                let bottom = self.node(Node::Call(Func::Ln, Box::new(base)))?;
                return self.node(Node::Div(Box::new(top), Box::new(bottom)));
            }
        }
        let f = match name {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "ln" => Func::Ln,
            "log" => Func::Log,
            "exp" => Func::Exp,
            "sqrt" => Func::Sqrt,
            _ => return None,
        };
        let x = self.power()?;
        self.node(Node::Call(f, Box::new(x)))
    }

    fn var(&mut self, name: &str) -> Option<Node> {
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
                for f in ["sqrt", "sin", "cos", "tan", "exp", "log", "ln"] {
                    if rest.starts_with(f) {
                        self.i += f.len();
                        if f == "sqrt" {
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

fn factorial(x: Num) -> Num {
    if let Num::Exact(r) = x {
        if r.is_integer() && (0..=33).contains(&r.numer()) {
            let mut acc: i128 = 1;
            for k in 2..=r.numer() {
                acc = acc.saturating_mul(k);
            }
            return Num::Exact(Rational::from_int(acc));
        }
    }
    Num::Real(f64::NAN)
}

/// Evaluates with `vars[i]` as the value of variable `i`.
pub fn eval(n: &Node, vars: &[f64]) -> Num {
    use Node::*;
    match n {
        Lit(r) => Num::Exact(*r),
        Real(x) => Num::Real(*x),
        Pi => Num::Real(std::f64::consts::PI),
        E => Num::Real(std::f64::consts::E),
        Var(i) => Num::Real(vars.get(*i).copied().unwrap_or(f64::NAN)),
        Neg(a) => eval(a, vars).neg(),
        Add(a, b) => eval(a, vars).add(eval(b, vars)),
        Sub(a, b) => eval(a, vars).sub(eval(b, vars)),
        Mul(a, b) => eval(a, vars).mul(eval(b, vars)),
        Div(a, b) => eval(a, vars).div(eval(b, vars)),
        Pow(a, b) => eval(a, vars).pow(eval(b, vars)),
        Fact(a) => factorial(eval(a, vars)),
        Root(x, k) => {
            let x = eval(x, vars);
            let k = eval(k, vars);
            if k == Num::Exact(Rational::from_int(2)) {
                x.sqrt()
            } else {
                Num::Real(real::pow(x.to_f64(), 1.0 / k.to_f64()))
            }
        }
        Call(f, a) => {
            let v = eval(a, vars);
            match f {
                Func::Sqrt => v.sqrt(),
                Func::Abs => match v {
                    Num::Exact(r) if r.numer() < 0 => v.neg(),
                    Num::Exact(_) => v,
                    Num::Real(x) => Num::Real(x.abs()),
                },
                Func::Sin => Num::Real(real::sin(v.to_f64())),
                Func::Cos => Num::Real(real::cos(v.to_f64())),
                Func::Tan => Num::Real(real::tan(v.to_f64())),
                Func::Ln => Num::Real(real::ln(v.to_f64())),
                Func::Log => Num::Real(real::log10(v.to_f64())),
                Func::Exp => Num::Real(real::exp(v.to_f64())),
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

    fn exact(n: i128, d: i128) -> Num {
        Num::Exact(Rational::new(n, d).unwrap())
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
        assert_eq!(val("\\sqrt[3]{8}").to_f64(), 2.0);
        assert!((val("\\log_2 8").to_f64() - 3.0).abs() < 1e-12);
        assert_eq!(val("\\binom{5}{2}"), exact(10, 1));
        assert_eq!(val("\\dbinom{10}{3}"), exact(120, 1));
        assert!((val("\\log_{10} 1000").to_f64() - 3.0).abs() < 1e-12);
    }

    #[test]
    fn mixed_numbers() {
        assert_eq!(val("3\\frac{1}{2}"), exact(7, 2));
        assert_eq!(val("-3\\frac{1}{2}"), exact(-7, 2));
        assert_eq!(
            val("2\\frac{\\pi}{3}").to_f64(),
            2.0 * std::f64::consts::PI / 3.0
        );
    }

    #[test]
    fn constants_and_variables() {
        assert!((val("2\\pi").to_f64() - std::f64::consts::TAU).abs() < 1e-12);
        assert!((val("e^2").to_f64() - 7.38905609893065).abs() < 1e-12);
        let e = parse("x^2+2xy").unwrap();
        assert_eq!(e.vars, ["x", "y"]);
        assert_eq!(eval(&e.root, &[3.0, 1.0]).to_f64(), 15.0);
        let t = parse("\\sin x").unwrap();
        assert_eq!(eval(&t.root, &[0.0]).to_f64(), 0.0);
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
    fn big_literal_falls_back_to_float() {
        let v = val("100000000000000000000000000000000000000000");
        assert!(!v.is_exact());
        assert!((v.to_f64() / 1e41 - 1.0).abs() < 1e-9);
    }
}
