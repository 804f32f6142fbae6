//! LaTeX vocabulary shared by the answer extractor (`extract::expr`) and the logic engine's
//! formula parser (`logic::formula`), so both read the same commands as the same letters.

/// Greek letter commands (without the backslash) that name a variable. `\pi` is in the list;
/// the extractor matches it first as the constant.
pub const GREEK_LETTERS: &[&str] = &[
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "rho",
    "sigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
];

/// Plain text (ids, rule names, titles) made safe inside LaTeX text mode: the ten special
/// characters escaped, so no text from a log or a model can open a command or a group.
pub fn escape_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '_' | '&' | '%' | '$' | '#' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\textbackslash{}"),
            '^' => out.push_str("\\^{}"),
            '~' => out.push_str("\\~{}"),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escape_text_leaves_no_special_character_bare() {
        assert_eq!(
            super::escape_text(r"a_b & 50% $x$ #1 {g} \cmd ^ ~"),
            r"a\_b \& 50\% \$x\$ \#1 \{g\} \textbackslash{}cmd \^{} \~{}"
        );
    }
}
