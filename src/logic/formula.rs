//! Formula language: LaTeX in, AST out, with a canonical text for comparison.

use thiserror::Error;

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

/// Parses a LaTeX formula; surrounding `$…$` or `$$…$$` are accepted.
pub fn parse_formula(latex: &str) -> Result<Formula, ParseError> {
    Err(ParseError {
        position: 0,
        message: format!("parser not implemented yet ({} bytes)", latex.len()),
    })
}

impl Formula {
    /// Notation-independent text: equal for formulas that differ only in notation.
    pub fn canonical(&self) -> String {
        format!("{self:?}")
    }

    /// Equal up to the names of bound variables (alpha-equivalence).
    pub fn same_up_to_bound_renaming(&self, other: &Formula) -> bool {
        self == other
    }
}
