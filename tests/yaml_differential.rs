//! Our hand-written YAML reader/writer (`config::yaml`) against `yaml-rust2`, a maintained
//! YAML 1.2 reader (native dev-dependency only):
//! - random JSON trees from a hostile alphabet: what `write` gives must read back to the same
//!   tree in yaml-rust2 (both its own scalar resolution and the strict core schema) and in ours;
//! - a corpus of hand-written files in the shapes docs/audit.md documents, plus the shipped
//!   examples: our `parse` must give exactly what yaml-rust2 gives.
//!
//! Two ways of reading yaml-rust2's output, because its own loader (`YamlLoader`) bends the
//! core schema in places (`Null`/`NULL` stay strings; integers past `i64` become floats):
//! - `oracle_core`: yaml-rust2's parser for the structure, and the core schema's regular
//!   expressions (transcribed below, independently of our reader) for plain scalars;
//! - `oracle_loader`: yaml-rust2's `YamlLoader` as is, converted to JSON.

use serde_json::{Map, Number, Value};
use verifyfast::config::yaml::{parse, write};
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};
use yaml_rust2::{Yaml, YamlLoader};

// ---------- oracle 1: yaml-rust2 events + the core schema ----------

/// `[-+]?[0-9]+`
fn is_dec_int(s: &str) -> bool {
    let d = s.strip_prefix(['-', '+']).unwrap_or(s);
    !d.is_empty() && d.chars().all(|c| c.is_ascii_digit())
}

/// `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, checked as mantissa and exponent.
fn is_float(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let all_digits = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some(("", frac)) => !frac.is_empty() && all_digits(frac),
        Some((int, frac)) => !int.is_empty() && all_digits(int) && all_digits(frac),
        None => !mantissa.is_empty() && all_digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && all_digits(e)
    });
    mantissa_ok && exponent_ok
}

/// The core schema (YAML 1.2.2, 10.3.2) for a plain scalar; `None` for inf/nan (no JSON).
fn core_schema(s: &str) -> Option<Value> {
    Some(match s {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        ".nan" | ".NaN" | ".NAN" | ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF"
        | "-.inf" | "-.Inf" | "-.INF" => return None,
        _ if s.len() > 2
            && s.starts_with("0o")
            && s[2..].chars().all(|c| ('0'..='7').contains(&c)) =>
        {
            Value::Number(u64::from_str_radix(&s[2..], 8).ok()?.into())
        }
        _ if s.len() > 2
            && s.starts_with("0x")
            && s[2..].chars().all(|c| c.is_ascii_hexdigit()) =>
        {
            Value::Number(u64::from_str_radix(&s[2..], 16).ok()?.into())
        }
        _ if is_dec_int(s) => json_number(s)?,
        _ if is_float(s) => Value::Number(Number::from_f64(s.parse().ok()?)?),
        _ => Value::String(s.to_string()),
    })
}

/// An integer literal as serde_json reads it: i64, else u64, else the nearest float.
fn json_number(s: &str) -> Option<Value> {
    if let Ok(i) = s.parse::<i64>() {
        return Some(Value::Number(i.into()));
    }
    if let Ok(u) = s.parse::<u64>() {
        return Some(Value::Number(u.into()));
    }
    Some(Value::Number(Number::from_f64(s.parse().ok()?)?))
}

/// Builds a JSON tree from yaml-rust2's events.
#[derive(Default)]
struct Builder {
    stack: Vec<(Value, Option<String>)>,
    docs: Vec<Value>,
    error: Option<String>,
}

impl Builder {
    fn add(&mut self, value: Value) {
        match self.stack.last_mut() {
            None => self.docs.push(value),
            Some((Value::Array(items), _)) => items.push(value),
            Some((Value::Object(map), key)) => match key.take() {
                None => match value {
                    Value::String(k) => *key = Some(k),
                    // A key is its text in our reader: give the oracle the same rule.
                    Value::Null => *key = Some(String::new()),
                    other => *key = Some(other.to_string()),
                },
                Some(k) => {
                    if map.insert(k.clone(), value).is_some() {
                        self.error = Some(format!("duplicate key {k}"));
                    }
                }
            },
            Some(_) => self.error = Some("scalar on the stack".into()),
        }
    }
}

impl MarkedEventReceiver for Builder {
    fn on_event(&mut self, ev: Event, _mark: Marker) {
        match ev {
            Event::SequenceStart(..) => self.stack.push((Value::Array(Vec::new()), None)),
            Event::MappingStart(..) => self.stack.push((Value::Object(Map::new()), None)),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((value, _)) = self.stack.pop() {
                    self.add(value);
                }
            }
            Event::Scalar(text, style, _, tag) => {
                if tag.is_some() {
                    self.error = Some("tag".into());
                }
                let value = if style == TScalarStyle::Plain {
                    match core_schema(&text) {
                        Some(v) => v,
                        None => {
                            self.error = Some(format!("no JSON for {text}"));
                            Value::Null
                        }
                    }
                } else {
                    Value::String(text)
                };
                self.add(value);
            }
            Event::Alias(_) => self.error = Some("alias".into()),
            _ => {}
        }
    }
}

fn oracle_core(text: &str) -> Result<Value, String> {
    let mut builder = Builder::default();
    Parser::new_from_str(text)
        .load(&mut builder, true)
        .map_err(|e| e.to_string())?;
    if let Some(e) = builder.error {
        return Err(e);
    }
    match builder.docs.len() {
        // yaml-rust2 gives no document for an empty text; ours reads it as null.
        0 => Ok(Value::Null),
        1 => Ok(builder.docs.remove(0)),
        n => Err(format!("{n} documents")),
    }
}

// ---------- oracle 2: yaml-rust2's own loader ----------

fn from_loader(y: &Yaml) -> Result<Value, String> {
    Ok(match y {
        Yaml::Null => Value::Null,
        Yaml::Boolean(b) => Value::Bool(*b),
        Yaml::Integer(i) => Value::Number((*i).into()),
        // `Real` keeps the literal so callers choose the precision: read it as JSON would.
        Yaml::Real(s) => {
            if is_dec_int(s) {
                json_number(s).ok_or_else(|| format!("no JSON for {s}"))?
            } else {
                let f: f64 = s.parse().map_err(|_| format!("bad real {s}"))?;
                Value::Number(Number::from_f64(f).ok_or_else(|| format!("no JSON for {s}"))?)
            }
        }
        Yaml::String(s) => Value::String(s.clone()),
        Yaml::Array(items) => {
            Value::Array(items.iter().map(from_loader).collect::<Result<_, _>>()?)
        }
        Yaml::Hash(hash) => {
            let mut map = Map::new();
            for (k, v) in hash {
                let key = match k {
                    Yaml::String(s) | Yaml::Real(s) => s.clone(),
                    Yaml::Integer(i) => i.to_string(),
                    Yaml::Boolean(b) => b.to_string(),
                    Yaml::Null => String::new(),
                    other => return Err(format!("key {other:?}")),
                };
                map.insert(key, from_loader(v)?);
            }
            Value::Object(map)
        }
        other => return Err(format!("{other:?}")),
    })
}

fn oracle_loader(text: &str) -> Result<Value, String> {
    let docs = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    match docs.as_slice() {
        [] => Ok(Value::Null),
        [doc] => from_loader(doc),
        _ => Err(format!("{} documents", docs.len())),
    }
}

// ---------- random trees ----------

/// Pieces of keys and strings: everything a writer must quote, and then some.
const PIECES: &[&str] = &[
    "a",
    "b c",
    "x",
    "Z",
    "_",
    "/",
    "0x1F",
    "0o17",
    "0xG",
    ".inf",
    "-.inf",
    "+.inf",
    ".Inf",
    ".nan",
    ".NaN",
    "nan",
    "inf",
    "Infinity",
    "yes",
    "no",
    "on",
    "off",
    "y",
    "n",
    "Y",
    "N",
    "Yes",
    "NO",
    "On",
    "OFF",
    "null",
    "Null",
    "NULL",
    "~",
    "",
    "007",
    "1e3",
    "1E3",
    "+1",
    "-1",
    "1.0",
    "1.",
    ".5",
    "-0",
    "1_000",
    "1:30",
    "2001-12-14",
    "=",
    "<<",
    ": ",
    ":",
    "#",
    " #",
    "# c",
    " ",
    "  ",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "- x",
    "-",
    "? x",
    "?",
    "--- ",
    "---",
    "...",
    "@",
    "`",
    "'",
    "\"",
    "\\",
    "|",
    ">",
    "%",
    "&",
    "*",
    "!",
    "[",
    "]",
    "{",
    "}",
    ",",
    "é",
    "✓",
    "日本",
    "😀",
    "\u{0}",
    "\u{1}",
    "\u{7}",
    "\u{1b}",
    "\u{7f}",
    "\u{85}",
    "\u{a0}",
    "\u{2028}",
    "\u{2029}",
    "\u{feff}",
    "\u{fffe}",
    "\u{ffff}",
    "\u{3000}",
    "true",
    "False",
    "TRUE",
    "http://h:8000/v1",
    "qwen2.5:7b-instruct",
    "line\nline",
    "\n\n",
    "tail  ",
];

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        // xorshift64*: deterministic, so a failure reproduces.
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }

    fn text(&mut self, max_pieces: usize) -> String {
        (0..self.below(max_pieces + 1))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }

    fn number(&mut self) -> Value {
        match self.below(8) {
            0 => Value::Number((self.below(2000) as i64 - 1000).into()),
            1 => Value::Number(u64::MAX.into()),
            2 => Value::Number(i64::MIN.into()),
            3 => Value::Number((i64::MAX as u64 + 1 + self.below(1000) as u64).into()),
            _ => {
                let f = [
                    1.0, -0.0, 0.1, 1e300, -1e-300, 1.5e-7, 1e16, 123456.789, 5e-324,
                ][self.below(9)]
                    * [1.0, -1.0, 3.0][self.below(3)];
                Value::Number(Number::from_f64(f).unwrap_or_else(|| 0.into()))
            }
        }
    }

    fn tree(&mut self, depth: usize) -> Value {
        let leaf_only = depth >= 7;
        match self.below(if leaf_only { 5 } else { 7 }) {
            0 => Value::Null,
            1 => Value::Bool(self.below(2) == 0),
            2 => self.number(),
            3 | 4 => Value::String(self.text(5)),
            5 => Value::Array((0..self.below(4)).map(|_| self.tree(depth + 1)).collect()),
            _ => {
                let mut map = Map::new();
                for _ in 0..self.below(4) {
                    // Now and then a key past YAML's 1024-character limit for `key:` (the
                    // writer's explicit `? key` form), short or long only once escaped.
                    let key = match self.below(30) {
                        0 => self.text(3) + &"k".repeat(1000 + self.below(40)),
                        1 => self.text(2) + &"\u{1}".repeat(160 + self.below(20)),
                        _ => self.text(3),
                    };
                    map.insert(key, self.tree(depth + 1));
                }
                Value::Object(map)
            }
        }
    }
}

#[test]
fn written_trees_read_back_the_same_in_yaml_rust2_and_ours() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..3_000 {
        let tree = rng.tree(0);
        let text = write(&tree).expect("shallow trees are written");
        assert_eq!(
            parse(&text).as_ref(),
            Ok(&tree),
            "ours, case {case}:\n{text}"
        );
        assert_eq!(
            oracle_core(&text).as_ref(),
            Ok(&tree),
            "core, case {case}:\n{text}"
        );
        assert_eq!(
            oracle_loader(&text).as_ref(),
            Ok(&tree),
            "loader, case {case}:\n{text}"
        );
    }
}

/// Every piece alone, as a value, a key and a list item: the cases the issue lists by name.
#[test]
fn each_hostile_piece_round_trips() {
    for piece in PIECES {
        let s = Value::String(piece.to_string());
        let mut map = Map::new();
        map.insert(piece.to_string(), s.clone());
        for tree in [
            s.clone(),
            Value::Object(map),
            Value::Array(vec![s.clone(), s]),
        ] {
            let text = write(&tree).expect("shallow");
            assert_eq!(parse(&text).as_ref(), Ok(&tree), "ours:\n{text}");
            assert_eq!(oracle_core(&text).as_ref(), Ok(&tree), "core:\n{text}");
            assert_eq!(oracle_loader(&text).as_ref(), Ok(&tree), "loader:\n{text}");
        }
    }
}

// ---------- hand-written corpus ----------

/// Files in the shapes docs/audit.md documents; each must read the same in both readers.
const CORPUS: &[&str] = &[
    // block mappings, comments, plain and quoted scalars
    "# top\ndefaults:\n  max_tokens: 4000   # tokens\n  temperature: 0.1\n\nllms:\n  a:\n    base_url: \"http://127.0.0.1:11434/v1\"\n    model: qwen2.5:7b-instruct\n    on: true\n    key: ~\n    empty:\n",
    "a: 10\nb: -3\nc: 1.5e3\nd: .5\ne: 1.2.3\nf: yes\ng: 0.10\nh: 18446744073709551615\ni: null\nj: +7\nk: 007\nl: 0x1F\nm: 0o17\nn: 1.\no: -0.0\np: 1e-3\nq: True\nr: FALSE\ns: ~\n",
    "a: 'it''s # not a comment'\nb: \"tab\\there \\u00e9 \\\"q\\\"\"\nc: \"123\"\nd: a#b\ne: 'x: y'\nf: \"\\x41\\U0001F600\\N\\_\"\ng: ''\nh: \"\"\n",
    // sequences, sequences of mappings, nested sequences
    "a:\n  - 1\n  - two\n  - k: v\n    j: [x, \"y, z\", {p: 1}]\nb:\n- 3\n- - 4\n  - 5\nc: []\nd: {}\n",
    "- id: 1\n  name: first\n  tags: [a, b]\n- id: 2\n  nested:\n    - x\n    - y: z\n-\n  - deep\n",
    // flow collections on one line
    "a: [1, 2.5, true, null, ~, \"q\", 'r', [x, y], {k: v, l: [1]}]\nb: {a: 1, 'b c': [], \"d\": {}}\nc: [a, b, ]\nd: {a:1, b: 2, url: http://x:80/}\n",
    // block scalars with chomping
    "p: |\n  line one\n    indented\n\n  line three\nq: |-\n  no newline\nr: >\n  folded\n  text\n\n  para\ns: |+\n  keep\n\nt: done\n",
    "prompt: >-\n  You are a checker.\n  Return JSON only.\nother: |2\n    two extra\n  base\nlast: x\n",
    "list:\n  - |\n    in a list\n    two\n  - >\n    folded\n    here\n  - plain\n",
    // comments and document markers
    "---\n# comment\na: 1 # trailing\n# between\nb: [1, 2] # after flow\n...\n",
    "--- # a comment after the marker\nkey: value\n",
    // the settings and strategy shapes
    "llms:\n  my model:   # a key with a space\n    base_url: http://127.0.0.1:8000/v1\n    tags:\n      - a:b\n      - 'quoted, with comma'\n    empty:\nprofiles:\n  p:\n    run: my model\n    prompt: | # a comment after the header\n      first\n      second\n",
    "defaults:\n  params:\n    numeric_deviation_threshold: 0.10\n    score_thresholds:\n      high_for_1: 3\nprofiles:\n  x:\n    params:\n      reverse_verify: true\n",
    // odd but valid spacing and keys
    "\"quoted key\": 1\n'single key': 2\nkey with spaces: 3\n\"1\": 4\nurl: http://a.b/c?d=e&f=g\nunicode: 日本語 ✓\n",
    "a:\n    b:\n        c: deep\n    d: 2\n",
    "a: \"multi \\\" quote\"\nb: 'x'' y'\nc: \"  spaced  \"\n",
    "",
    "# only a comment\n",
    "plain text\n",
    // explicit keys (what the writer uses for keys past 1024 characters)
    "? 'a key'\n: 1\n? plain\n:\n  - x\nafter: 2\n",
    "[1, 2, 3]\n",
    "{a: 1}\n",
];

#[test]
fn corpus_reads_the_same_in_both_readers() {
    for text in CORPUS {
        let ours = parse(text).map_err(|e| e.to_string());
        let theirs = oracle_core(text);
        assert!(theirs.is_ok(), "yaml-rust2 refused:\n{text}\n{theirs:?}");
        assert_eq!(ours, theirs, "\n{text}");
    }
}

#[test]
fn shipped_examples_read_the_same_in_both_readers() {
    for text in [
        include_str!("../public/examples/settings.yaml"),
        include_str!("../public/examples/strategy.yaml"),
    ] {
        let ours = parse(text).map_err(|e| e.to_string());
        assert!(ours.is_ok(), "{ours:?}");
        assert_eq!(ours, oracle_core(text));
        assert_eq!(ours, oracle_loader(text));
        // And what we write back from them.
        let written = write(ours.as_ref().expect("checked")).expect("shallow");
        assert_eq!(oracle_core(&written), ours, "\n{written}");
    }
}

/// What our reader refuses on purpose, yaml-rust2 refuses too (so no file reads differently
/// in the two: it reads the same or not at all in ours).
#[test]
fn what_we_refuse_as_invalid_yaml_yaml_rust2_refuses() {
    for text in [
        "a: b: c\n",
        "a: - x\n",
        "a: [x, , y]\n",
        "a: @x\n",
        "a: `x`\n",
        "a: 1\n b: 2\n",
    ] {
        assert!(parse(text).is_err(), "ours read {text:?}");
        assert!(oracle_core(text).is_err(), "yaml-rust2 read {text:?}");
    }
}

/// The oracles see what they must (a blind oracle would pass everything).
#[test]
fn oracles_tell_scalars_apart() {
    let core = |t: &str| oracle_core(t).ok();
    let loader = |t: &str| oracle_loader(t).ok();
    assert_eq!(core("a: 0x1F"), Some(serde_json::json!({"a": 31})));
    assert_eq!(core("a: \"0x1F\""), Some(serde_json::json!({"a": "0x1F"})));
    assert_eq!(core("a: Null"), Some(serde_json::json!({"a": null})));
    assert_eq!(loader("a: Null"), Some(serde_json::json!({"a": "Null"})));
    assert_eq!(core("a: 1.0"), Some(serde_json::json!({"a": 1.0})));
    assert_ne!(core("a: 1.0"), Some(serde_json::json!({"a": 1})));
    assert_eq!(core("a: yes"), Some(serde_json::json!({"a": "yes"})));
    assert_eq!(core("a: |\n  x\n"), Some(serde_json::json!({"a": "x\n"})));
    assert!(oracle_core("a: .inf").is_err());
    // The 1024-character cap on `key:` is real in yaml-rust2: hence the writer's `? key`.
    assert!(oracle_core(&format!("{}: 1\n", "k".repeat(1100))).is_err());
    let long = "k".repeat(1100);
    let tree = serde_json::json!({ &long: 1 });
    assert_eq!(oracle_core(&write(&tree).expect("shallow")), Ok(tree));
}
