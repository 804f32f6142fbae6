//! Property tests for the YAML reader/writer and the settings/strategy readers built on it:
//! hostile Unicode never panics and is read in bounded time, and what `write` gives reads back
//! to the same tree. Case counts are modest so the file runs in seconds in a debug build.

use std::time::{Duration, Instant};

use proptest::prelude::*;
use serde_json::{Map, Number, Value};
use verifyfast::config::yaml::{parse, write, MAX_DEPTH};
use verifyfast::config::{Format, Settings, Strategy as StrategyFile};

/// YAML indicators, with multi-byte characters to sit next to them (a reader that slices by
/// byte offsets panics there), and the keywords and shapes that steer a reader.
const PIECES: &[&str] = &[
    ":", ": ", "-", "- ", "#", " #", "[", "]", "{", "}", "'", "\"", "|", ">", "|-", ">+", "|2",
    ",", "?", "? ", "&a", "*a", "!t", "%", "@", "`", "\\", "\\u", "\\x4", "é", "日", "😀",
    "\u{85}", "\u{2028}", "\u{feff}", "\u{a0}", "\u{3000}", "\u{0}", "\t", "\r", "\n", "\n  ",
    "\n- ", "\n    ", " ", "  ", "a", "key", "1", "0x", "0o7", ".inf", ".nan", "1e999", "null",
    "true", "---", "...", "~", "é:", "é: ", "-é", "#é", "[é", "{é", "'é", "\"é", "|é", ">é",
];

fn hostile_text(max_pieces: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..max_pieces).prop_map(|p| p.concat())
}

/// Arbitrary characters as well as the pieces, for what the pieces do not think of.
fn mixed_text() -> impl Strategy<Value = String> {
    prop_oneof![
        hostile_text(120),
        prop::collection::vec(any::<char>(), 0..200).prop_map(|c| c.into_iter().collect()),
        prop::collection::vec(
            prop_oneof![
                prop::sample::select(PIECES).prop_map(str::to_string),
                any::<char>().prop_map(String::from)
            ],
            0..150
        )
        .prop_map(|p| p.concat()),
    ]
}

/// A line up to 100 KB: a piece repeated, with indicators around it.
fn long_line() -> impl Strategy<Value = String> {
    (
        hostile_text(6),
        prop::sample::select(PIECES),
        1usize..100_000,
        hostile_text(6),
    )
        .prop_map(|(head, piece, bytes, tail)| {
            let count = bytes / piece.len().max(1);
            head + &piece.repeat(count) + &tail
        })
}

/// Nested openers (flow and block), closed or not, up to a few hundred levels.
fn deep_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop::sample::select(&["[", "{a: ", "- ", "{", "- [", "[{k: "][..]),
        0..300,
    )
    .prop_flat_map(|openers| {
        let closers: String = openers
            .iter()
            .rev()
            .map(|o| match o.chars().last() {
                Some('[') => "]",
                Some(' ') if o.starts_with('{') => "}",
                Some('{') => "}",
                _ => "",
            })
            .collect();
        let text = openers.concat();
        (Just(text), Just(closers), any::<bool>()).prop_map(|(text, closers, close)| {
            if close {
                text + "1" + &closers
            } else {
                text
            }
        })
    })
}

/// Mangled example files: the typed readers see realistic shapes with damage in them.
fn mangled_example() -> impl Strategy<Value = String> {
    const SOURCES: [&str; 2] = [
        include_str!("../public/examples/settings.yaml"),
        include_str!("../public/examples/strategy.yaml"),
    ];
    (
        prop::sample::select(&SOURCES[..]),
        prop::collection::vec(
            (any::<prop::sample::Index>(), 0usize..16, hostile_text(4)),
            1..6,
        ),
    )
        .prop_map(|(src, edits)| {
            let mut chars: Vec<char> = src.chars().collect();
            for (at, len, insert) in edits {
                let start = at.index(chars.len() + 1);
                let end = (start + len).min(chars.len());
                chars.splice(start..end, insert.chars());
            }
            chars.into_iter().collect()
        })
}

// Far above what a linear reader needs on these inputs (milliseconds), so a busy machine does not
// fail it, yet far below what a quadratic scan or a runaway recursion takes.
const BUDGET: Duration = Duration::from_secs(5);

/// Every reader on `text`: no panic (proptest reports one as a failure), within the budget.
fn read_all(text: &str) {
    let started = Instant::now();
    let tree = parse(text);
    let _ = Settings::from_text(text, Format::Yaml);
    let _ = StrategyFile::from_text(text, Format::Yaml);
    let took = started.elapsed();
    assert!(took < BUDGET, "{} bytes took {took:?} to read", text.len());
    // What we read, we write, and read back the same.
    if let Ok(tree) = tree {
        let written = write(&tree).expect("a tree read is no deeper than the bound");
        assert_eq!(
            parse(&written).as_ref(),
            Ok(&tree),
            "written as:\n{written}"
        );
    }
}

fn json_tree() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| Value::Number(i.into())),
        any::<u64>().prop_map(|u| Value::Number(u.into())),
        any::<f64>().prop_filter_map("finite", |f| Number::from_f64(f).map(Value::Number)),
        mixed_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(8, 96, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((hostile_text(6), inner), 0..6)
                .prop_map(|entries| Value::Object(entries.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn hostile_unicode_never_panics(text in mixed_text()) {
        read_all(&text);
    }

    #[test]
    fn mangled_examples_never_panic(text in mangled_example()) {
        read_all(&text);
    }

    #[test]
    fn written_trees_read_back(tree in json_tree()) {
        let text = write(&tree).expect("depth 8 is under the bound");
        prop_assert_eq!(parse(&text), Ok(tree), "written as:\n{}", text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn long_lines_read_in_bounded_time(line in long_line(), prefix in hostile_text(4)) {
        read_all(&line);
        read_all(&format!("key: {line}\n"));
        read_all(&format!("{prefix}- [{line}]\n"));
        read_all(&format!("a: |\n  {line}\n"));
    }

    #[test]
    fn deep_nesting_is_bounded(text in deep_text()) {
        read_all(&text);
        read_all(&format!("top:\n  k: {text}\n"));
        // Nesting past the bound is an error, never a tree.
        // (Each bracket here opens a collection; `- ` may not, inside a flow collection.)
        let opened = text.matches(['[', '{']).count();
        if opened > MAX_DEPTH {
            prop_assert!(parse(&text).is_err());
        }
    }
}

/// A block scalar whose first line is a no-break space: YAML trims only spaces and tabs, so the
/// line is content and sets the block's indentation (found by `written_trees_read_back`).
#[test]
fn a_no_break_space_line_is_content_in_a_block_scalar() {
    let tree = serde_json::json!({ "": ["\u{a0}\n  -"], "k": "a\u{a0}\nb" });
    let text = write(&tree).expect("shallow");
    assert_eq!(parse(&text), Ok(tree), "written as:\n{text}");
    assert_eq!(
        parse("k: value\u{a0}"),
        Ok(serde_json::json!({ "k": "value\u{a0}" })),
        "a no-break space after a plain value is content"
    );
}
