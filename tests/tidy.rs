//! Tidy checks on the source tree itself, in the style of rust-analyzer's `xtask tidy`: rules of
//! docs/architecture.md that the compiler does not enforce, checked on every `cargo test`.
//!
//! - Browser crates (`leptos`, `web-sys`, `js-sys`, `wasm-bindgen`, `gloo-net`, `talc`) only
//!   under `src/ui/` and in the few target-gated files named in [`BROWSER_FILES`].
//! - No import cycles between source files, and the layers point one way: nothing outside
//!   `src/ui/` uses `crate::ui`, and the domain modules never use `crate::view`.
//!   Test code (`#[cfg(test)]` modules) may use anything and is left out.
//! - Every `src/` folder and top-level file is named in the README's code map and in
//!   docs/architecture.md's, and every name in the README's map exists.
//! - The repository paths named in `Cargo.toml`'s comments and the `docs/*.md` files named in
//!   `src/` exist.
//! - No type erasure by hand: no `dyn Any` or downcast in `src/` (generics and enums say what a
//!   value is, so the compiler checks it).
//! - Every file under `src/` opens with a module doc (`//!`), and no comment in the code, tests or
//!   scripts cites an issue number, which a reader of the repository cannot look up: a comment
//!   says the reason, or points at docs.
//! - Enum names are declared once, with `crate::names::named_enum!`: no hand-written `fn as_str`
//!   and no `match` that spells variants as their own snake_case names, outside [`NAME_TABLES`].
//! - Each JSON format has one reader: no field of a parsed `serde_json::Value` is looked up by
//!   hand (`.get("key")`, `v["key"]`, `as_object()`, …) outside `src/json/` and the
//!   [`WIRE_TYPES`], but in the files of [`VALUE_LOOKUPS`], each with its count and reason.
//!
//! The module tree is read from `mod` declarations starting at `src/lib.rs`; paths are read from
//! `use` trees and from `crate::`/`super::`/`self::` paths in the code, with comments, strings
//! and character literals blanked first. A macro-generated `use` would be missed; none exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Files outside `src/ui/` allowed to use the browser crates, each gated to wasm32 where it is
/// declared (`src/lib.rs`) or inside itself.
const BROWSER_FILES: &[&str] = &[
    "src/lib.rs",          // the wasm allocator (talc)
    "src/main.rs",         // mounts the app on wasm32
    "src/proof_bundle.rs", // the Proof page's own wasm bundle
    "src/katex.rs",        // the one JS binding
    "src/llm/browser.rs",  // the browser transport (gloo-net)
    "src/llm/boundary.rs", // the browser's random source for reply boundaries (js-sys)
    "src/extract/real.rs", // sin, exp, … from JavaScript's Math (js-sys)
    "src/llm/boundary.rs", // a prompt's random boundary from crypto.getRandomValues (js-sys)
];

/// Files allowed a hand-written name table (a `fn as_str`, or a `match` whose arms spell each
/// variant as its snake_case name), each with the reason the enum cannot be a `named_enum!`.
const NAME_TABLES: &[(&str, &str)] = &[(
    "src/extract/mod.rs",
    "`Method::Pattern` carries the user's pattern name, which is its name in records",
)];

/// The wire types: the files where a format's one typed counterpart is read from JSON (its
/// `FromJson` or its serde reader, beside its `Serialize`), with the format. They, and
/// `src/json/`, may look fields up by name; everything else reads the typed value.
const WIRE_TYPES: &[(&str, &str)] = &[
    ("src/audit/batch.rs", "batch case lines and results lines"),
    (
        "src/audit/contract.rs",
        "the audit model's replies (claims, findings)",
    ),
    ("src/audit/grounding.rs", "the number check of a report"),
    (
        "src/audit/report.rs",
        "an audit report (a kept one read back)",
    ),
    (
        "src/extract/records.rs",
        "extract and grade input and output lines",
    ),
    (
        "src/llm/wire.rs",
        "an OpenAI-compatible server's requests and replies",
    ),
    ("src/runs.rs", "a kept run's header"),
];

/// Files (of `src/` and `python/src/`) outside the wire types that still look JSON fields up by hand, each with how many
/// lines do (so a new one fails) and why the value has no type to read it through.
const VALUE_LOOKUPS: &[(&str, usize, &str)] = &[
    (
        "python/src/lib.rs",
        1,
        "turns any value (a doubt as the CLI writes it) into Python objects by its shape",
    ),
    (
        "src/band/evaluate.rs",
        1,
        "a HashMap of group names looked up by a constant, not JSON",
    ),
    (
        "src/cli/check.rs",
        1,
        "echoes a case's `id` as the user wrote it (user-supplied fields passed through)",
    ),
    (
        "src/config/edit.rs",
        3,
        "tells settings from a strategy by their top-level keys, before either reader runs",
    ),
    (
        "src/config/yaml.rs",
        5,
        "the YAML reader/writer turns any value into text: walks objects by shape, names no field",
    ),
    (
        "src/llm/browser.rs",
        2,
        "HTTP response headers (retry-after, content-length), not JSON",
    ),
    (
        "src/logic/document.rs",
        2,
        "tells an event log from a problem by its top-level keys, before either reader runs",
    ),
    (
        "src/logic/engine/action.rs",
        1,
        "an action's params: JSON whose fields depend on the rule, read by the rule's check",
    ),
    (
        "src/logic/protocol.rs",
        2,
        "an action's params as a researcher wrote them, normalised before the engine reads them",
    ),
    (
        "src/logic/replay.rs",
        3,
        "splits a log document into its problem and events, each then read by its own reader",
    ),
    (
        "src/logic/rules.rs",
        2,
        "an action's params: JSON whose fields depend on the rule, read by the rule's check",
    ),
    (
        "src/ui/run_store.rs",
        2,
        "JavaScript values (`JsValue::as_bool`, `as_f64` of IndexedDB and storage replies), not JSON",
    ),
    (
        "src/ui/settings_store.rs",
        1,
        "merges the stored settings object key by key, whatever keys it has",
    ),
];

const BROWSER_CRATES: &[&str] = &[
    "leptos",
    "web_sys",
    "js_sys",
    "wasm_bindgen",
    "wasm_bindgen_futures",
    "gloo_net",
    "talc",
    "console_error_panic_hook",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap_or(p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// `src` with comments, string and character literals blanked (newlines kept), so braces
/// and paths are read from code only.
fn code_only(src: &str) -> String {
    blanked(src, true)
}

/// `src` with its comments and the contents of its string and character literals blanked, and
/// if `strings` their quotes too (otherwise a literal still shows as `"   "`, so a lookup by a
/// literal key can be seen). Every byte keeps its offset (a blanked byte is a space, a newline
/// stays a newline).
fn blanked(src: &str, strings: bool) -> String {
    let b = src.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, c: u8| out.push(if c == b'\n' { b'\n' } else { b' ' });
    // A literal's delimiter (quotes, `r#`): blanked, or kept to show a literal is there.
    let delim = |out: &mut Vec<u8>, c: u8| {
        if strings {
            blank(out, c)
        } else {
            out.push(c)
        }
    };
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == b'/' && next == Some(b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && next == Some(b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
        } else if (c == b'r' || (c == b'b' && next == Some(b'r')))
            && !prev_is_ident(b, i)
            && raw_string_start(b, i).is_some()
        {
            let (hashes, body) = raw_string_start(b, i).unwrap_or((0, i));
            while i < body {
                delim(&mut out, b[i]);
                i += 1;
            }
            while i < b.len() {
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    for &c in &b[i..i + hashes + 1] {
                        delim(&mut out, c);
                    }
                    i += hashes + 1;
                    break;
                }
                blank(&mut out, b[i]);
                i += 1;
            }
        } else if c == b'"' {
            delim(&mut out, c);
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    blank(&mut out, b[i]);
                    i += 1;
                }
                if i < b.len() {
                    blank(&mut out, b[i]);
                    i += 1;
                }
            }
            if i < b.len() {
                delim(&mut out, b[i]);
            }
            i += 1;
        } else if c == b'\'' {
            // A character literal ('x', '\n', '\u{..}', '"'), or a lifetime ('a) left as is.
            let end = if next == Some(b'\\') {
                b[i + 2..]
                    .iter()
                    .position(|&x| x == b'\'')
                    .map(|p| i + 2 + p)
            } else {
                let ch = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch) == Some(&b'\'')).then_some(i + 1 + ch)
            };
            match end {
                Some(e) => {
                    while i <= e {
                        blank(&mut out, b[i]);
                        i += 1;
                    }
                }
                None => {
                    out.push(c);
                    i += 1;
                }
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn prev_is_ident(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// At `r"`, `r#"`, `br"`, …: the number of `#`s and where the body starts.
fn raw_string_start(b: &[u8], i: usize) -> Option<(usize, usize)> {
    let mut j = i + if b[i] == b'b' { 2 } else { 1 };
    let mut hashes = 0;
    while b.get(j) == Some(&b'#') {
        hashes += 1;
        j += 1;
    }
    (b.get(j) == Some(&b'"')).then_some((hashes, j + 1))
}

/// `code` without the bodies of `#[cfg(test)] mod name { … }` blocks, and the names of
/// `#[cfg(test)] mod name;` file modules.
fn without_test_modules(code: &str) -> (String, BTreeSet<String>) {
    let mut out = String::with_capacity(code.len());
    let mut test_files = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at + "#[cfg(test)]".len()..];
        let trimmed = after.trim_start();
        let Some(decl) = trimmed
            .strip_prefix("mod ")
            .or_else(|| trimmed.strip_prefix("pub mod "))
        else {
            out.push_str("#[cfg(test)]");
            rest = after;
            continue;
        };
        let name: String = decl
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let tail = decl.trim_start()[name.len()..].trim_start();
        if let Some(after_decl) = tail.strip_prefix(';') {
            test_files.insert(name);
            rest = after_decl;
        } else if tail.starts_with('{') {
            let mut depth = 0usize;
            let mut end = tail.len();
            for (k, ch) in tail.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            end = k + 1;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            rest = &tail[end..];
        } else {
            out.push_str("#[cfg(test)]");
            rest = after;
        }
    }
    out.push_str(rest);
    (out, test_files)
}

struct SourceFile {
    module: Vec<String>,
    /// Code without comments, literals and test modules.
    code: String,
}

/// Every file of the library's module tree (test-only file modules left out), by path.
fn module_tree() -> BTreeMap<PathBuf, SourceFile> {
    let mut files = BTreeMap::new();
    let mut todo = vec![(root().join("src/lib.rs"), Vec::<String>::new())];
    while let Some((path, module)) = todo.pop() {
        let src = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", rel(&path)));
        let (code, test_files) = without_test_modules(&code_only(&src));
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let owns_dir = matches!(
            path.file_name().and_then(|n| n.to_str()),
            Some("mod.rs" | "lib.rs" | "main.rs")
        );
        let child_dir = if owns_dir {
            dir.clone()
        } else {
            dir.join(path.file_stem().unwrap_or_default())
        };
        for (name, explicit) in mod_declarations(&code, &src) {
            if test_files.contains(&name) {
                continue;
            }
            let file = match explicit {
                Some(p) => dir.join(p),
                None => {
                    let flat = child_dir.join(format!("{name}.rs"));
                    if flat.exists() {
                        flat
                    } else {
                        child_dir.join(&name).join("mod.rs")
                    }
                }
            };
            assert!(file.exists(), "{}: `mod {name};` has no file", rel(&path));
            let mut m = module.clone();
            m.push(name);
            todo.push((file, m));
        }
        files.insert(path, SourceFile { module, code });
    }
    files
}

/// `mod name;` declarations of a file, with the `#[path = "…"]` each names, if any (read from
/// the original text: the blanked code has no strings).
fn mod_declarations(code: &str, src: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices("mod ") {
        if prev_is_ident(code.as_bytes(), at) {
            continue;
        }
        let after = &code[at + 4..];
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if name.is_empty()
            || !after.trim_start()[name.len()..]
                .trim_start()
                .starts_with(';')
        {
            continue;
        }
        let before = &src[..at];
        let attr_line = before.lines().rev().nth(1).unwrap_or("").trim();
        let explicit = attr_line
            .strip_prefix("#[path = \"")
            .and_then(|p| p.strip_suffix("\"]"))
            .map(str::to_string);
        out.push((name, explicit));
    }
    out
}

/// The paths a file's code names: every leaf of its `use` trees, and `crate::`/`super::`/
/// `self::` paths written in place.
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("use ") {
        if prev_is_ident(bytes, at) || (at > 0 && bytes[at - 1] == b':') {
            continue;
        }
        let Some(end) = code[at..].find(';') else {
            continue;
        };
        let tree: String = code[at + 4..at + end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        expand_use(&[], &tree, &mut out);
    }
    let mut i = 0;
    while i < bytes.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|p| code[i..].starts_with(**p) && (i == 0 || !prev_is_ident(bytes, i)));
        if starts.is_some() {
            let len = code[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - i);
            let path: Vec<String> = code[i..i + len]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            out.push(path);
            i += len;
        } else {
            i += 1;
        }
    }
    out
}

fn expand_use(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (k, ch) in tree.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&tree[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    items.push(&tree[start..]);
    for item in items.into_iter().map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(open) = item.find('{') {
            let mut p = prefix.to_vec();
            p.extend(split_path(&item[..open]));
            let inner = item[open + 1..].trim_end().strip_suffix('}').unwrap_or("");
            expand_use(&p, inner, out);
        } else {
            let item = item.split(" as ").next().unwrap_or(item);
            let mut p = prefix.to_vec();
            p.extend(split_path(item));
            if p.last().is_some_and(|s| s == "self" || s == "*") && p.len() > 1 {
                p.pop();
            }
            out.push(p);
        }
    }
}

fn split_path(s: &str) -> Vec<String> {
    s.split("::")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.trim_start_matches('$').to_string())
        .collect()
}

/// The file a path names, through the longest module prefix that is a file of the tree.
fn resolve<'a>(
    from: &[String],
    path: &[String],
    modules: &'a BTreeMap<Vec<String>, PathBuf>,
) -> Option<&'a PathBuf> {
    let first = path.first()?;
    let (mut full, rest) = match first.as_str() {
        "crate" => (Vec::new(), &path[1..]),
        "self" => (from.to_vec(), &path[1..]),
        "super" => {
            let ups = path.iter().take_while(|s| *s == "super").count();
            (
                from[..from.len().saturating_sub(ups)].to_vec(),
                &path[ups..],
            )
        }
        child => {
            let mut m = from.to_vec();
            m.push(child.to_string());
            if !modules.contains_key(&m) {
                return None;
            }
            (from.to_vec(), path)
        }
    };
    full.extend(rest.iter().cloned());
    (1..=full.len()).rev().find_map(|k| modules.get(&full[..k]))
}

/// File → files it names, leaving out a module's own descendants (declaring and re-exporting
/// children is how a module is built).
fn file_graph(files: &BTreeMap<PathBuf, SourceFile>) -> BTreeMap<&PathBuf, BTreeSet<&PathBuf>> {
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|(p, f)| (f.module.clone(), p.clone()))
        .collect();
    let mut graph = BTreeMap::new();
    for (path, file) in files {
        let mut deps = BTreeSet::new();
        for p in paths_in(&file.code) {
            let Some(target) = resolve(&file.module, &p, &modules) else {
                continue;
            };
            let Some((tp, tf)) = files.get_key_value(target) else {
                continue;
            };
            if tp != path && !tf.module.starts_with(&file.module) {
                deps.insert(tp);
            }
        }
        graph.insert(path, deps);
    }
    graph
}

#[test]
fn browser_crates_only_in_the_browser_files() {
    let mut wrong = Vec::new();
    for path in rust_files(&root().join("src")) {
        let r = rel(&path);
        if r.starts_with("src/ui/") || BROWSER_FILES.contains(&r.as_str()) {
            continue;
        }
        let code = code_only(&fs::read_to_string(&path).unwrap_or_default());
        for krate in BROWSER_CRATES {
            let named = code.match_indices(krate).any(|(at, _)| {
                let b = code.as_bytes();
                !prev_is_ident(b, at)
                    && b.get(at + krate.len())
                        .is_none_or(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
            });
            if named {
                wrong.push(format!("{r} uses `{krate}`"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "browser crates outside src/ui/ and the target-gated files (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_import_cycles_between_files() {
    let files = module_tree();
    let graph = file_graph(&files);
    let cycles = cycles(&graph);
    assert!(
        cycles.is_empty(),
        "import cycles between source files (break each by moving the shared item to the file \
         both can use; docs/architecture.md):\n{}",
        cycles
            .iter()
            .map(|c| c.iter().map(|p| rel(p)).collect::<Vec<_>>().join(" -> "))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn layers_point_one_way() {
    let files = module_tree();
    let mut wrong = Vec::new();
    for (path, file) in &files {
        let r = rel(path);
        let top = file.module.first().map(String::as_str).unwrap_or("");
        for p in paths_in(&file.code) {
            let names = |m: &str| {
                p.first().is_some_and(|s| s == "crate") && p.get(1).is_some_and(|s| s == m)
            };
            if top != "ui" && names("ui") {
                wrong.push(format!("{r} uses crate::ui ({})", p.join("::")));
            }
            if !matches!(top, "ui" | "view") && names("view") {
                wrong.push(format!("{r} uses crate::view ({})", p.join("::")));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ui -> view -> domains, never back (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

/// Every cycle, one per strongly connected component, as a file path round it.
fn cycles<'a>(graph: &BTreeMap<&'a PathBuf, BTreeSet<&'a PathBuf>>) -> Vec<Vec<&'a PathBuf>> {
    // Tarjan's algorithm, iteratively.
    let nodes: Vec<&PathBuf> = graph.keys().copied().collect();
    let index_of: BTreeMap<&PathBuf, usize> =
        nodes.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let n = nodes.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    let succ = |v: usize| -> Vec<usize> {
        graph[nodes[v]]
            .iter()
            .filter_map(|w| index_of.get(w).copied())
            .collect()
    };
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut call = vec![(s, succ(s), 0usize)];
        index[s] = next;
        low[s] = next;
        next += 1;
        stack.push(s);
        on[s] = true;
        while let Some((v, ws, k)) = call.last_mut() {
            let v = *v;
            if let Some(&w) = ws.get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on[w] = true;
                    call.push((w, succ(w), 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            call.pop();
            if let Some((u, _, _)) = call.last() {
                low[*u] = low[*u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(nodes[w]);
                    if w == v {
                        break;
                    }
                }
                if comp.len() > 1 {
                    comp.sort();
                    out.push(comp);
                }
            }
        }
    }
    out
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The first ``` block after `heading` in `doc`.
fn code_map(doc: &str, heading: &str) -> String {
    let after = doc.split_once(heading).map_or("", |(_, a)| a);
    let body = after.split_once("```").map_or("", |(_, b)| b);
    body.split_once("```").map_or("", |(m, _)| m).to_string()
}

/// Names in the first column of a code map's indented lines (`ui/`, `lib.rs`, `ui/audit/`):
/// the entries under `src/`; unindented lines name the repository's other folders.
fn map_names(map: &str) -> BTreeSet<String> {
    map.lines()
        .filter(|l| l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|w| w.ends_with('/') || w.ends_with(".rs"))
        .map(str::to_string)
        .collect()
}

#[test]
fn code_maps_name_the_tree() {
    let src = root().join("src");
    let mut top = BTreeSet::new();
    let mut dirs = BTreeSet::new();
    let mut todo = vec![src.clone()];
    while let Some(d) = todo.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            let name = p
                .strip_prefix(&src)
                .map(|r| r.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            if p.is_dir() {
                if d == src {
                    top.insert(format!("{name}/"));
                }
                dirs.insert(format!("{name}/"));
                todo.push(p);
            } else if d == src && name.ends_with(".rs") {
                top.insert(name);
            }
        }
    }
    let readme = fs::read_to_string(root().join("README.md")).unwrap_or_default();
    let arch = fs::read_to_string(root().join("docs/architecture.md")).unwrap_or_default();
    let readme_names = map_names(&code_map(&readme, "## Architecture"));
    let arch_names = map_names(&code_map(&arch, "## Code map"));
    let mut wrong = Vec::new();
    for name in &top {
        if !readme_names.contains(name) {
            wrong.push(format!("src/{name} is not in the README's code map"));
        }
    }
    for name in &readme_names {
        if !top.contains(name) {
            wrong.push(format!(
                "the README's code map names {name}, which is not a top-level entry of src/"
            ));
        }
    }
    for name in top.iter().chain(&dirs) {
        if !arch_names.contains(name) {
            wrong.push(format!(
                "src/{name} is not in docs/architecture.md's code map"
            ));
        }
    }
    for name in &arch_names {
        if !top.contains(name) && !dirs.contains(name) {
            wrong.push(format!(
                "docs/architecture.md's code map names {name}, which is not in src/"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `Name` → `name`, `FinalAnswer` → `final_answer`.
fn snake_case(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Hand-written name tables in `src` (a file's text; its test module left out): each
/// `fn as_str`, and each `match` of three or more arms that are all `Enum::Variant =>
/// "variant",`, spelling each variant's snake_case name (labels that only partly coincide, like
/// "regressed" beside "new cross-band", are not one). Line numbers, 1-based.
fn name_tables(src: &str) -> Vec<(usize, String)> {
    let src = src.split("#[cfg(test)]\nmod ").next().unwrap_or(src);
    let mut found = Vec::new();
    // The arms of the `match` being read, while every arm so far spells its own name.
    let mut run: Option<Vec<(usize, String)>> = None;
    for (i, line) in src.lines().enumerate() {
        let t = line.trim();
        if t.starts_with("//") {
            continue;
        }
        if t.contains("fn as_str(") {
            found.push((i + 1, t.to_string()));
        }
        let own_name = t.split_once(" => \"").is_some_and(|(pattern, name)| {
            let variant = pattern.rsplit("::").next().unwrap_or("");
            let name = name.strip_suffix("\",").or_else(|| name.strip_suffix('"'));
            variant.starts_with(|c: char| c.is_ascii_uppercase())
                && variant.chars().all(|c| c.is_ascii_alphanumeric())
                && name == Some(snake_case(variant).as_str())
        });
        match run.as_mut() {
            Some(arms) if own_name => arms.push((i + 1, t.to_string())),
            Some(arms) => {
                if t.starts_with('}') && arms.len() >= 3 {
                    found.push(arms[0].clone());
                }
                run = None;
            }
            None => {}
        }
        if t.contains("match ") && t.ends_with('{') {
            run = Some(Vec::new());
        }
    }
    found
}

#[test]
fn enum_names_are_declared_once() {
    let mut wrong = Vec::new();
    for path in rust_files(&root().join("src")) {
        let r = rel(&path);
        if r == "src/names.rs" || NAME_TABLES.iter().any(|(f, _)| *f == r) {
            continue;
        }
        let src = fs::read_to_string(&path).unwrap_or_default();
        for (line, text) in name_tables(&src) {
            wrong.push(format!("{r}:{line}: {text}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "enum names written by hand; declare the enum with crate::names::named_enum! (or add the \
         file to NAME_TABLES in tests/tidy.rs with the reason it cannot be one):\n{}",
        wrong.join("\n")
    );
}

/// Repository paths in `text` (`src/…`, `tests/…`, `docs/….md`, …): runs of path characters
/// that start with one of the repository's top folders.
fn repo_paths(text: &str) -> Vec<String> {
    const TOP: &[&str] = &[
        "src/", "tests/", "scripts/", "python/", "benches/", "docs/", "public/",
    ];
    let is_path = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c.is_ascii_alphabetic()) {
        let before_ok = !rest[..at].ends_with(|c: char| is_path(c) || c == ':');
        let word_end = rest[at..]
            .find(|c: char| !is_path(c))
            .map_or(rest.len(), |e| at + e);
        let word = rest[at..word_end].trim_end_matches('.');
        if before_ok && TOP.iter().any(|t| word.starts_with(t)) && word.len() > 5 {
            out.push(word.to_string());
        }
        rest = &rest[word_end.max(at + 1)..];
    }
    out
}

#[test]
fn named_paths_exist() {
    let mut wrong = Vec::new();
    let cargo = fs::read_to_string(root().join("Cargo.toml")).unwrap_or_default();
    for line in cargo.lines() {
        if let Some((_, comment)) = line.split_once('#') {
            for p in repo_paths(comment) {
                if !root().join(&p).exists() {
                    wrong.push(format!("Cargo.toml names {p}"));
                }
            }
        }
    }
    for path in rust_files(&root().join("src")) {
        let src = fs::read_to_string(&path).unwrap_or_default();
        for p in repo_paths(&src) {
            if p.starts_with("docs/") && p.ends_with(".md") && !root().join(&p).exists() {
                wrong.push(format!("{} names {p}", rel(&path)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "paths that do not exist:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_type_erasure_by_hand() {
    let mut wrong = Vec::new();
    for path in rust_files(&root().join("src")) {
        let code = code_only(&fs::read_to_string(&path).unwrap_or_default());
        for bad in ["dyn Any", "any::Any", "downcast"] {
            if code.contains(bad) {
                wrong.push(format!("{} uses `{bad}`", rel(&path)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "type erasure by hand (docs/architecture.md):\n{}",
        wrong.join("\n")
    );
}

#[test]
fn every_source_file_has_a_module_doc() {
    let wrong: Vec<String> = rust_files(&root().join("src"))
        .into_iter()
        .filter(|p| !fs::read_to_string(p).unwrap_or_default().starts_with("//!"))
        .map(|p| rel(&p))
        .collect();
    assert!(
        wrong.is_empty(),
        "files without a module doc (`//!` on the first line):\n{}",
        wrong.join("\n")
    );
}

/// "issue 27", "Issue #5", "issues 16 and 18": a tracker's number, which the repository does not
/// hold. Words that merely end in "issue" ("tissue 3") do not count.
fn cites_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.match_indices("issue").any(|(at, _)| {
        let before_ok = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
        let rest = lower[at + "issue".len()..].trim_start_matches('s');
        let rest = rest.trim_start_matches([' ', '#']);
        before_ok && rest.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Every file a maintainer reads as code: Rust, the browser suite, the Python package, scripts.
fn code_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = ["src", "tests", "python", "scripts", "benches"]
        .map(|d| root().join(d))
        .to_vec();
    while let Some(d) = todo.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if p.is_dir() {
                if !matches!(
                    name,
                    "fixtures" | "node_modules" | "target" | "__pycache__" | ".venv"
                ) {
                    todo.push(p);
                }
            } else if matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("rs" | "mjs" | "js" | "py" | "pyi" | "sh") | None
            ) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn comments_cite_no_issue_numbers() {
    let mut wrong = Vec::new();
    for path in code_files() {
        // This file spells the pattern out to test it.
        let Ok(text) = fs::read_to_string(&path) else {
            continue;
        };
        if rel(&path) == "tests/tidy.rs" {
            continue;
        }
        for (i, line) in text.lines().enumerate() {
            if cites_issue(line) {
                wrong.push(format!("{}:{}: {}", rel(&path), i + 1, line.trim()));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "an issue number a reader cannot look up: say the reason, or point at docs:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_checks_can_fail() {
    // An issue number is found in any spelling; words ending in "issue" are not.
    for cited in ["// see ISSUE 27", "(issues 16 and 18)", "issue #5's rule"] {
        assert!(cites_issue(cited), "{cited}");
    }
    assert!(!cites_issue("tissue 3, an issue with no number"));
    // The readers see through comments and strings, and a cycle is found.
    let code = code_only(
        "// use crate::a;\nlet s = \"crate::b\"; let c = '{'; use crate::c::{d, e::f as g};",
    );
    let got: Vec<String> = paths_in(&code).iter().map(|p| p.join("::")).collect();
    assert_eq!(got, ["crate::c::d", "crate::c::e::f", "crate::c"]);
    let (a, b, c) = (PathBuf::from("a"), PathBuf::from("b"), PathBuf::from("c"));
    let graph: BTreeMap<&PathBuf, BTreeSet<&PathBuf>> = [
        (&a, [&b].into_iter().collect()),
        (&b, [&a].into_iter().collect()),
        (&c, [&a].into_iter().collect()),
    ]
    .into_iter()
    .collect();
    assert_eq!(cycles(&graph), vec![vec![&a, &b]]);
    let (kept, test_files) = without_test_modules(
        "fn a() {}\n#[cfg(test)]\nmod tests {\n use crate::x;\n}\n#[cfg(test)]\nmod more;\n",
    );
    assert!(!kept.contains("crate::x") && test_files.contains("more"));
    // A hand-written name table is found; labels and a table's test module are not.
    let src = "impl Mode {\n    pub fn as_str(self) -> &'static str {\n        match self {\n            \
               Mode::Off => \"off\",\n            Mode::FastMode => \"fast_mode\",\n            \
               Self::Slow => \"slow\",\n        }\n    }\n    fn label(self) -> &'static str {\n        \
               match self {\n            Mode::Off => \"off\",\n            Mode::FastMode => \"fast\",\n            \
               Mode::Slow => \"slow\",\n        }\n    }\n}\n#[cfg(test)]\nmod tests {\n    fn as_str() {}\n}\n";
    let found: Vec<usize> = name_tables(src).iter().map(|(line, _)| *line).collect();
    assert_eq!(found, [2, 4]);
    assert_eq!(
        repo_paths(
            "(src/proof_bundle.rs, scripts/versions.sh). See docs/band.md, not crate::src/x."
        ),
        ["src/proof_bundle.rs", "scripts/versions.sh", "docs/band.md"]
    );
    // A JSON field looked up by hand is found in each spelling; building a value, a vector's
    // index, a comment, a string and a test module are not lookups.
    let src = "fn read(v: &Value, h: &mut Map<String, Value>) {\n    \
               let a = v.get(\"answer\").and_then(Value::as_str);\n    \
               let b = &v[\"id\"];\n    \
               let c = h.remove(KEPT_REPORT);\n    \
               let Value::Object(m) = v else { return };\n    \
               if let Some(m) = v.as_object() {}\n    \
               let d = v.get(crate::batch::KEPT).is_some();\n    \
               // v.get(\"not code\")\n    \
               let e = Value::Object(Map::new());\n    \
               let f = items.get(0).map(|x| [\"a\", \"b\"]);\n    \
               let g = \".get(\\\"in a string\\\")\";\n    \
               let h = v.get(k).and_then(|x| x.as_u64());\n    \
               let i = names.get(k).map(|s| s.as_str()).and_then(|q| q.as_deref());\n\
               }\n#[cfg(test)]\nmod tests {\n    fn t() { v[\"x\"]; }\n}\n";
    let found: Vec<usize> = value_lookups(src).iter().map(|(line, _)| *line).collect();
    assert_eq!(found, [2, 3, 4, 5, 6, 7, 12]);
    // A file with one lookup more or less than its entry, or none at all, fails the list.
    let lookups: BTreeMap<String, Vec<(usize, String)>> =
        [("src/a.rs".to_string(), value_lookups(src))].into();
    assert!(unlisted_lookups(&lookups, &[("src/a.rs", 7, "why")]).is_empty());
    for list in [
        &[("src/a.rs", 6, "why")][..],
        &[("src/a.rs", 8, "why")],
        &[],
        &[("src/a.rs", 7, "why"), ("src/b.rs", 1, "gone")],
    ] {
        assert_eq!(unlisted_lookups(&lookups, list).len(), 1, "{list:?}");
    }
}

/// `kept` (a file's text, its comments and literals' contents blanked) with the `#[cfg(test)] mod name { … }` blocks
/// that `code` (the same text with its literals blanked too, byte for byte) holds blanked.
fn without_test_blocks(code: &str, kept: &str) -> String {
    let mut out = kept.as_bytes().to_vec();
    let mut from = 0;
    while let Some(found) = code[from..].find("#[cfg(test)]") {
        let at = from + found;
        let after = at + "#[cfg(test)]".len();
        let rest = code[after..].trim_start();
        let decl = rest
            .strip_prefix("mod ")
            .or_else(|| rest.strip_prefix("pub mod "));
        let open = decl.and_then(|d| {
            let name_end = d
                .trim_start()
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            let tail = d.trim_start()[name_end..].trim_start();
            tail.starts_with('{').then(|| code.len() - tail.len())
        });
        let Some(open) = open else {
            from = after;
            continue;
        };
        let mut depth = 0usize;
        let mut end = code.len();
        for (k, ch) in code[open..].char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        for b in &mut out[at..end] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
        from = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `line` (code, comments and literals' contents blanked) looks a field of a parsed JSON value
/// up by hand: `.get("key")` (also `get_mut`, `remove`, `contains_key`, `pointer`, or a
/// `CONSTANT` key), `value["key"]`, `as_object()`, `Value::Object(…)` as a pattern (not when
/// one is built), or `Value::as_str`-style accessors (passed as functions, or called in an
/// `and_then` closure). Read per line: a chain on one line is one lookup; a lookup by a
/// variable key (`v.get(k)`) is seen only by its accessor.
fn looks_up_a_field(line: &str) -> bool {
    const CALLS: &[&str] = &[
        ".get(",
        ".get_mut(",
        ".remove(",
        ".contains_key(",
        ".pointer(",
    ];
    let by_name = CALLS.iter().any(|call| {
        line.match_indices(call).any(|(at, _)| {
            let arg = &line[at + call.len()..];
            let constant = arg
                .split_once(')')
                .map(|(a, _)| a)
                .map(|a| a.rsplit("::").next().unwrap_or(a))
                .filter(|a| !a.is_empty())
                .is_some_and(|a| {
                    a.starts_with(|c: char| c.is_ascii_uppercase())
                        && a.chars()
                            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                });
            arg.starts_with('"') || constant
        })
    });
    let indexed = line.match_indices("[\"").any(|(at, _)| {
        line[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ')' || c == ']')
    });
    let object = line.contains("as_object(") || line.contains("as_object_mut(");
    let pattern = line.match_indices("Value::Object(").any(|(at, _)| {
        let before = &line[..at];
        let in_let = before
            .rfind("let ")
            .is_some_and(|l| !before[l..].contains('='));
        in_let || line[at..].contains("=>") || before.contains("matches!(")
    });
    // `.and_then(|v| v.as_str())` is `Value::as_str` in a closure: only a JSON value's `as_…`
    // (or a JavaScript value's) returns an `Option`; a `String`'s `as_str` does not.
    let in_closure = line.match_indices(".and_then(|").any(|(at, _)| {
        let rest = &line[at + ".and_then(|".len()..];
        rest.split_once('|').is_some_and(|(name, body)| {
            let name = name.trim();
            let body = body.trim_start();
            !name.is_empty()
                && ["str", "bool", "u64", "i64", "f64", "array", "object"]
                    .iter()
                    .any(|kind| body.starts_with(&format!("{name}.as_{kind}()")))
        })
    });
    let accessor = ["Value::as_", "Value::is_"]
        .iter()
        .any(|p| line.contains(p))
        || in_closure;
    by_name || indexed || object || pattern || accessor
}

/// The lines of `src` (a file's text) that look a JSON field up by hand, its test modules left
/// out: 1-based line numbers and the lines.
fn value_lookups(src: &str) -> Vec<(usize, String)> {
    let kept = without_test_blocks(&code_only(src), &blanked(src, false));
    kept.lines()
        .enumerate()
        .filter(|(_, line)| looks_up_a_field(line))
        .map(|(i, line)| (i + 1, line.trim().to_string()))
        .collect()
}

/// Where the lookups `found` (by file) and the allow-list `allowed` disagree: a file with more
/// or fewer lookups than it is allowed, or an entry for a file that has none.
fn unlisted_lookups(
    found: &BTreeMap<String, Vec<(usize, String)>>,
    allowed: &[(&str, usize, &str)],
) -> Vec<String> {
    let mut wrong = Vec::new();
    for (file, lookups) in found {
        let n = allowed
            .iter()
            .find(|(f, ..)| f == file)
            .map_or(0, |(_, n, _)| *n);
        if lookups.len() != n {
            wrong.push(format!(
                "{file}: {} lookups, {n} allowed:\n  {}",
                lookups.len(),
                lookups
                    .iter()
                    .map(|(line, l)| format!("{line}: {l}"))
                    .collect::<Vec<_>>()
                    .join("\n  ")
            ));
        }
    }
    for (file, n, _) in allowed {
        if !found.contains_key(*file) {
            wrong.push(format!(
                "{file}: 0 lookups, {n} allowed (take it off VALUE_LOOKUPS)"
            ));
        }
    }
    wrong
}

#[test]
fn json_fields_are_read_by_their_types() {
    let mut found: BTreeMap<String, Vec<(usize, String)>> = BTreeMap::new();
    let mut in_wire_types = 0;
    // The library's modules and the Python binding (a crate of its own over the library).
    let python = rust_files(&root().join("python/src"));
    for path in module_tree().keys().chain(&python) {
        let r = rel(path);
        if r.starts_with("src/json/") {
            continue;
        }
        let lookups = value_lookups(&fs::read_to_string(path).unwrap_or_default());
        if WIRE_TYPES.iter().any(|(f, _)| *f == r) {
            in_wire_types += lookups.len();
        } else if !lookups.is_empty() {
            found.insert(r, lookups);
        }
    }
    // The figures (`cargo test --test tidy json_fields -- --nocapture`).
    println!(
        "JSON field lookups by hand: {} lines in {} files outside src/json/ and the wire types, \
         {in_wire_types} in the {} wire types",
        found.values().map(Vec::len).sum::<usize>(),
        found.len(),
        WIRE_TYPES.len()
    );
    let wrong = unlisted_lookups(&found, VALUE_LOOKUPS);
    assert!(
        wrong.is_empty(),
        "JSON fields looked up by hand outside src/json/ and the wire types: read the value \
         through its format's type (its `FromJson` beside its `Serialize`), or list the file in \
         VALUE_LOOKUPS in tests/tidy.rs with its count and the reason:\n{}",
        wrong.join("\n")
    );
}
