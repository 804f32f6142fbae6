//! Random formulas for property tests (fixed seeds, test builds only).

use super::*;

/// Tiny fixed-seed generator for the property tests below.
pub(crate) struct Gen(pub u64);

impl Gen {
    pub fn next(&mut self) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as usize
    }
    pub fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.next() % xs.len()]
    }
    pub fn term(&mut self, depth: usize) -> Term {
        let leaf = depth == 0 || self.next().is_multiple_of(3);
        if leaf {
            return match self.next() % 4 {
                0 => Term::Number(self.pick(&["0", "2", "17", "2.5"]).into()),
                1 => Term::App("f".into(), vec![self.term(0)]),
                _ => Term::Name(
                    self.pick(&["a", "b", "x", "v_1", "v_12", "\\varepsilon", "alex"])
                        .into(),
                ),
            };
        }
        match self.next() % 6 {
            0 => Term::Neg(Box::new(self.term(depth - 1))),
            k => {
                let op = [
                    ArithOp::Add,
                    ArithOp::Sub,
                    ArithOp::Mul,
                    ArithOp::Div,
                    ArithOp::Pow,
                ][k - 1];
                Term::Arith(
                    op,
                    Box::new(self.term(depth - 1)),
                    Box::new(self.term(depth - 1)),
                )
            }
        }
    }
    pub fn formula(&mut self, depth: usize) -> Formula {
        if depth == 0 || self.next().is_multiple_of(4) {
            return match self.next() % 5 {
                0 => Formula::Bottom,
                1 => Formula::Atom(self.pick(&["P", "Q", "Red"]).into()),
                2 => Formula::Pred(
                    self.pick(&["F", "L", "Brimpus"]).into(),
                    vec![self.term(1), self.term(0)],
                ),
                _ => {
                    let op = [
                        RelOp::Eq,
                        RelOp::Ne,
                        RelOp::Lt,
                        RelOp::Le,
                        RelOp::Gt,
                        RelOp::Ge,
                    ][self.next() % 6];
                    Formula::Rel(op, self.term(2), self.term(2))
                }
            };
        }
        let d = depth - 1;
        match self.next() % 7 {
            0 => Formula::Not(Box::new(self.formula(d))),
            1 => Formula::And(Box::new(self.formula(d)), Box::new(self.formula(d))),
            2 => Formula::Or(Box::new(self.formula(d)), Box::new(self.formula(d))),
            3 => Formula::Implies(Box::new(self.formula(d)), Box::new(self.formula(d))),
            4 => Formula::Iff(Box::new(self.formula(d)), Box::new(self.formula(d))),
            5 => Formula::Quant(
                Quantifier::Forall,
                self.pick(&["x", "y"]).into(),
                Box::new(self.formula(d)),
            ),
            _ => Formula::Quant(
                Quantifier::Exists,
                self.pick(&["x", "z"]).into(),
                Box::new(self.formula(d)),
            ),
        }
    }
}
