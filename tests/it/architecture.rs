//! The layering of ARCHITECTURE.md ("Direction of dependencies"), checked
//! on the source:
//!
//! * every file of `src/` belongs to one layer of [`LAYERS`], the ordered
//!   list of that paragraph, and imports only files of its own layer or of
//!   layers below it: no import back up ([`BACK_UP_EXCEPTIONS`], the named
//!   exceptions, is empty and stays so);
//! * the file-level import graph has no cycle (two files importing each
//!   other, or any longer circle), printed when there is one, once the
//!   imports [`CYCLE_EXCEPTIONS`] names are left out: a child's import of
//!   what its `mod.rs` declares where that `mod.rs` uses the child in code;
//! * no environment folder imports another's; the environments are the
//!   folders under `src/env/` that `src/env/mod.rs` declares as modules,
//!   read from the source;
//! * generic code (`cmd/`, `experiment/`, `metrics/`,
//!   `report/`) imports no environment: [`GENERIC_IMPORTS_ENV`], the
//!   ratchet of exceptions, is empty and stays so;
//! * the library uses `anyhow` only in `cmd/` (and `main.rs`).
//!
//! An import is a path in code (comments, strings and character literals
//! are skipped), brace groups expanded (`use super::{a, b::{c, self}}` is
//! `super::a`, `super::b::c` and `super::b`), resolved to the longest
//! module prefix that is a file of `src/`:
//!
//! * a `crate::…`, `super::…` or `self::…` path (`super` and `self` count
//!   inline modules, `mod tests { … }`), and in `main.rs` a `swftool::…`
//!   path (the library);
//! * a path relative to the file's own child modules (`use engine::X`,
//!   `pub use backfill::Backfill`, `backfill::Backfill::new(…)` in a
//!   `mod.rs` whose folder holds `engine.rs` and `backfill.rs`, or in a
//!   `foo.rs` with children in `foo/`): an import of the child's file. The
//!   declaration `mod child;` itself is not an import;
//! * a path through a module a `use` brought into scope (`use
//!   super::engine;` then `engine::machine::X` imports `engine/machine.rs`),
//!   wherever in the file that `use` is written;
//! * `crate::m!` of a `#[macro_export]` macro: an import of the file that
//!   defines it.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// Where the environments' folders sit in [`LAYERS`]: every folder under
/// `src/env/` that `src/env/mod.rs` declares as a module.
const ENV_FOLDERS: &str = "env/<name>/";

/// The layers of ARCHITECTURE.md's "Direction of dependencies", bottom
/// first: a file imports only files of its own layer or of the layers
/// before it. A member ending in `/` is a folder (every file under it),
/// [`ENV_FOLDERS`] every environment's folder, any other a file (paths
/// under `src/`).
const LAYERS: &[(&str, &[&str])] = &[
    (
        "whole files, words, interrupts, units",
        &["atomic.rs", "words.rs", "interrupt.rs", "units.rs"],
    ),
    (
        "log format, log catalogue, model, shared metrics",
        &["swf/", "catalog.rs", "model/", "metrics/"],
    ),
    ("simulation core", &["sim/"]),
    ("workloads", &["workload/"]),
    ("figures", &["report/"]),
    ("output", &["output/"]),
    ("environment contract", &["contract/"]),
    ("grids", &["experiment/"]),
    ("environments", &[ENV_FOLDERS]),
    ("environment list", &["env/mod.rs", "env/configs.rs"]),
    ("commands", &["cmd/"]),
    ("crate roots", &["lib.rs", "main.rs"]),
];

/// Imports back up [`LAYERS`] allowed by name, as (file, imported file,
/// why), paths under `src/`. A ratchet that can only shrink: an import
/// back up not listed here fails the test, and so does a listed one that
/// no longer exists.
const BACK_UP_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// Imports that close a cycle, allowed by name, as (file, imported file,
/// why), paths under `src/`: the cycle check runs on the graph without
/// them. Each is a child's import of what its `mod.rs` declares where the
/// `mod.rs` also uses the child in code (not only re-exports it), so no
/// change of import path removes it: moving the declarations the children
/// share out of the `mod.rs` does. A ratchet that can only shrink: a listed
/// import that no longer exists, or no longer closes a cycle, fails the
/// test.
const CYCLE_EXCEPTIONS: &[(&str, &str, &str)] = &[];

/// Generic files (under `src/cmd`, `src/experiment`,
/// `src/metrics`, `src/report`) that still import an environment's folder,
/// as (file under `src/`, environment). A ratchet that can only shrink: a
/// pair not listed here fails the test, and so does a listed pair that no
/// longer exists (remove it from the list).
const GENERIC_IMPORTS_ENV: &[(&str, &str)] = &[];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Module path of a file: `src/env/classic/mod.rs` → [env, classic].
/// `main.rs`, the root of the binary, is module [main].
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(String::from)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// `text` with comments removed and the contents of string and character
/// literals blanked, line breaks kept (so braces and paths in them are not
/// code, and line numbers stay).
fn strip(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    // Skips to the `"` that closes a plain string opened before `i`.
    let skip_string = |mut i: usize, out: &mut String| -> usize {
        while i < c.len() && c[i] != '"' {
            if c[i] == '\\' {
                i += 1;
            }
            if c.get(i) == Some(&'\n') {
                out.push('\n');
            }
            i += 1;
        }
        i + 1
    };
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
        } else if is_ident(c[i]) && (i == 0 || !is_ident(c[i - 1])) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let hashes = c[i..].iter().take_while(|&&x| x == '#').count();
            let raw = matches!(word.as_str(), "r" | "br") && c.get(i + hashes) == Some(&'"');
            if raw {
                // A raw string: r"…", r#"…"#, br"…".
                i += hashes + 1;
                out.push_str("\"\"");
                while i < c.len() {
                    if c[i] == '"' && c[i + 1..].iter().take_while(|&&x| x == '#').count() >= hashes
                    {
                        i += 1 + hashes;
                        break;
                    }
                    if c[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            } else if word != "b" || !matches!(c.get(i), Some('"' | '\'')) {
                out.push_str(&word);
            }
        } else if c[i] == '"' {
            out.push_str("\"\"");
            i = skip_string(i + 1, &mut out);
        } else if c[i] == '\'' && next == Some('\\') {
            // An escaped character literal: '\n', '\'', '\u{7b}'.
            i += 2;
            while i < c.len() && c[i] != '\'' {
                i += 1;
            }
            out.push_str("' '");
            i += 1;
        } else if c[i] == '\'' && c.get(i + 2) == Some(&'\'') {
            out.push_str("' '");
            i += 3;
        } else {
            // A lifetime's quote, or any other character.
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Ident(String),
    /// `::`
    Path,
    Punct(char),
}

/// The tokens of stripped code, each with its 1-based line.
fn tokens(code: &str) -> Vec<(Token, usize)> {
    let c: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        if c[i] == '\n' {
            line += 1;
            i += 1;
        } else if c[i].is_whitespace() {
            i += 1;
        } else if is_ident(c[i]) {
            let start = i;
            while i < c.len() && is_ident(c[i]) {
                i += 1;
            }
            out.push((Token::Ident(c[start..i].iter().collect()), line));
        } else if c[i] == ':' && c.get(i + 1) == Some(&':') {
            out.push((Token::Path, line));
            i += 2;
        } else {
            out.push((Token::Punct(c[i]), line));
            i += 1;
        }
    }
    out
}

/// One path of a path tree and the name a `use` of it binds: its last
/// segment, the `as` name, `None` for a glob or `as _`.
type Bound = (Vec<String>, Option<String>);

/// The paths of one path tree starting at token `i` (`a::b::{c, d::{self,
/// e}}`, `a::*`, `a as b`), each with the name a `use` of it binds, and the
/// token after the tree.
fn tree(t: &[(Token, usize)], mut i: usize) -> (Vec<Bound>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    let named = |p: Vec<String>| {
        let name = p.last().cloned();
        (p, name)
    };
    loop {
        match t.get(i).map(|x| &x.0) {
            Some(Token::Ident(s)) => {
                prefix.push(s.clone());
                i += 1;
            }
            Some(Token::Punct('*')) => return (vec![(prefix, None)], i + 1),
            Some(Token::Punct('{')) => {
                i += 1;
                let mut out = Vec::new();
                while let Some((tok, _)) = t.get(i) {
                    match tok {
                        Token::Punct('}') => {
                            i += 1;
                            break;
                        }
                        Token::Punct(',') => i += 1,
                        _ => {
                            let (sub, j) = tree(t, i);
                            for (s, name) in sub {
                                let mut p = prefix.clone();
                                let name = if s == ["self"] {
                                    name.filter(|n| n != "self").or(prefix.last().cloned())
                                } else {
                                    p.extend(s);
                                    name
                                };
                                out.push((p, name));
                            }
                            i = j.max(i + 1);
                        }
                    }
                }
                return (out, i);
            }
            _ => return (vec![named(prefix)], i),
        }
        match t.get(i).map(|x| &x.0) {
            Some(Token::Path) => i += 1,
            Some(Token::Ident(a)) if a == "as" => {
                let name = match t.get(i + 1).map(|x| &x.0) {
                    Some(Token::Ident(n)) if n != "_" => Some(n.clone()),
                    _ => None,
                };
                return (vec![(prefix, name)], i + 2);
            }
            _ => return (vec![named(prefix)], i),
        }
    }
}

/// One path written in a file's code.
#[derive(Debug, Clone)]
struct Written {
    /// 1-based line.
    line: usize,
    /// The inline modules (`mod tests { … }`) it is written in.
    inline: Vec<String>,
    path: Vec<String>,
    /// The name it binds when it is a `use` (its last segment, or the `as`
    /// name); `None` for a glob, or a path outside a `use`.
    binds: Option<String>,
}

/// Every path of a file's code that may name a module: a `use` tree, or a
/// path of two segments or more (`a::b`) not inside another path nor after
/// a `.` (a method's turbofish), brace groups expanded.
fn paths(text: &str) -> Vec<Written> {
    let t = tokens(&strip(text));
    let mut out = Vec::new();
    let mut depth = 0usize;
    // Inline modules open at this point, with the depth inside their braces.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < t.len() {
        let here = || -> Vec<String> { inline.iter().map(|(n, _)| n.clone()).collect() };
        match &t[i].0 {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                depth = depth.saturating_sub(1);
                while inline.last().is_some_and(|&(_, d)| d > depth) {
                    inline.pop();
                }
            }
            Token::Ident(m) if m == "mod" => {
                if let (Some((Token::Ident(name), _)), Some((Token::Punct('{'), _))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    inline.push((name.clone(), depth + 1));
                }
            }
            Token::Ident(u) if u == "use" => {
                let line = t[i].1;
                let (found, j) = tree(&t, i + 1);
                let here = here();
                out.extend(found.into_iter().map(|(path, binds)| Written {
                    line,
                    inline: here.clone(),
                    path,
                    binds,
                }));
                i = j.max(i + 1);
                continue;
            }
            Token::Ident(_)
                if t.get(i + 1).is_some_and(|x| x.0 == Token::Path)
                    && (i == 0 || !matches!(t[i - 1].0, Token::Path | Token::Punct('.'))) =>
            {
                let line = t[i].1;
                let (found, j) = tree(&t, i);
                let here = here();
                out.extend(found.into_iter().map(|(path, _)| Written {
                    line,
                    inline: here.clone(),
                    path,
                    binds: None,
                }));
                i = j.max(i + 1);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The modules of `src/` (module path → file), and how a file's paths
/// reach them.
struct Modules(BTreeMap<Vec<String>, String>);

impl Modules {
    /// Every file's module, and every `#[macro_export]` macro as a module
    /// of the crate's root held by the file that defines it (`crate::m!`
    /// imports that file).
    fn of(files: &BTreeMap<String, String>) -> Modules {
        let mut m: BTreeMap<Vec<String>, String> =
            files.keys().map(|f| (module_of(f), f.clone())).collect();
        for (rel, text) in files {
            let t = tokens(&strip(text));
            for (i, w) in t.windows(3).enumerate() {
                if w[1].0 == Token::Ident("macro_export".into())
                    && let Some(name) = t[i..].windows(3).find_map(|x| match x {
                        [
                            (Token::Ident(k), _),
                            (Token::Punct('!'), _),
                            (Token::Ident(n), _),
                        ] if k == "macro_rules" => Some(n.clone()),
                        _ => None,
                    })
                {
                    m.entry(vec![name]).or_insert_with(|| rel.clone());
                }
            }
        }
        Modules(m)
    }

    /// The module paths a path written in file `rel` (module `me`, inline
    /// modules `inline`) stands for, given the modules `use` brought into
    /// scope in the file (`aliases`): none when it names no module of the
    /// crate (`std::…`, a type's `Self::…`, a local name).
    fn absolute(
        &self,
        rel: &str,
        inline: &[String],
        path: &[String],
        aliases: &BTreeMap<String, BTreeSet<Vec<String>>>,
    ) -> Vec<Vec<String>> {
        let me = module_of(rel);
        let mut here = me.clone();
        here.extend(inline.iter().cloned());
        let Some(first) = path.first().map(String::as_str) else {
            return Vec::new();
        };
        let join = |base: &[String], rest: &[String]| {
            let mut full = base.to_vec();
            full.extend(rest.iter().cloned());
            full
        };
        let child = |base: &[String]| self.0.contains_key(&join(base, &path[..1]));
        match first {
            // In `main.rs`, `crate` is the binary and `swftool` the library.
            "crate" if rel == "main.rs" => Vec::new(),
            "swftool" if rel == "main.rs" => vec![path[1..].to_vec()],
            "crate" => vec![path[1..].to_vec()],
            "self" => vec![join(&here, &path[1..])],
            "super" => {
                let mut full = here;
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    full.pop();
                    rest = &rest[1..];
                }
                vec![join(&full, rest)]
            }
            _ if child(&here) => vec![join(&here, path)],
            // A child of the file's module named in an inline module
            // (after `use super::*;`).
            _ if child(&me) => vec![join(&me, path)],
            _ => aliases
                .get(first)
                .into_iter()
                .flatten()
                .map(|m| join(m, &path[1..]))
                .collect(),
        }
    }

    /// The file a module path names: the longest prefix that is a file.
    fn file(&self, full: &[String]) -> Option<&String> {
        (0..=full.len()).rev().find_map(|n| self.0.get(&full[..n]))
    }
}

/// One import: where it is written and what it names.
#[derive(Debug, Clone)]
struct Import {
    line: usize,
    path: String,
}

/// The file-level import graph of `src/`: file → imported file → the
/// first import of it (files as paths under `src/`).
type Graph = BTreeMap<String, BTreeMap<String, Import>>;

fn graph(files: &BTreeMap<String, String>) -> Graph {
    let modules = Modules::of(files);
    let mut g = Graph::new();
    for (rel, text) in files {
        let written = paths(text);
        // The modules each `use` of the file brings into scope, by name
        // (a `use` may go through another: `use super::engine; use
        // engine::machine;`).
        let mut aliases: BTreeMap<String, BTreeSet<Vec<String>>> = BTreeMap::new();
        loop {
            let mut grown = false;
            for w in &written {
                let Some(name) = &w.binds else { continue };
                for full in modules.absolute(rel, &w.inline, &w.path, &aliases) {
                    if modules.0.contains_key(&full) {
                        grown |= aliases.entry(name.clone()).or_default().insert(full);
                    }
                }
            }
            if !grown {
                break;
            }
        }
        let entry = g.entry(rel.clone()).or_default();
        for w in &written {
            for full in modules.absolute(rel, &w.inline, &w.path, &aliases) {
                let Some(target) = modules.file(&full) else {
                    continue;
                };
                if target != rel {
                    entry.entry(target.clone()).or_insert(Import {
                        line: w.line,
                        path: w.path.join("::"),
                    });
                }
            }
        }
    }
    g
}

/// The strongly connected components of `g` with more than one file
/// (Tarjan's algorithm), each sorted.
fn components(g: &Graph) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.g.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut c = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                c.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if c.len() > 1 {
                c.sort();
                t.out.push(c);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out.sort();
    t.out
}

/// A shortest cycle through the first file of component `c`, closed
/// (`[a, b, a]`).
fn cycle(g: &Graph, c: &[String]) -> Vec<String> {
    let inside: BTreeSet<&str> = c.iter().map(String::as_str).collect();
    let start = c[0].as_str();
    let mut from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in g.get(v).into_iter().flat_map(|e| e.keys()) {
            let w = w.as_str();
            if w == start {
                let mut path = vec![start.to_string(), v.to_string()];
                let mut x = v;
                while x != start {
                    x = from[x];
                    path.push(x.to_string());
                }
                path.reverse();
                return path;
            }
            if inside.contains(w) && !from.contains_key(w) {
                from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    unreachable!("a strongly connected component holds a cycle through each file")
}

/// The environments: the folders under `src/env/` that `src/env/mod.rs`
/// declares as modules (`pub mod classic;` with files in `env/classic/`),
/// read from the source.
fn environments(files: &BTreeMap<String, String>) -> Vec<String> {
    let Some(text) = files.get("env/mod.rs") else {
        return Vec::new();
    };
    let t = tokens(&strip(text));
    let mut depth = 0usize;
    let mut out = Vec::new();
    for (i, (tok, _)) in t.iter().enumerate() {
        match tok {
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => depth = depth.saturating_sub(1),
            Token::Ident(m) if m == "mod" && depth == 0 => {
                if let (Some((Token::Ident(name), _)), Some((Token::Punct(';'), _))) =
                    (t.get(i + 1), t.get(i + 2))
                {
                    let folder = format!("env/{name}/");
                    if files.keys().any(|f| f.starts_with(&folder)) {
                        out.push(name.clone());
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// The environment whose folder holds `rel` (`env/serial/engine.rs` →
/// `serial`).
fn environment_of<'a>(envs: &'a [String], rel: &str) -> Option<&'a str> {
    let rest = rel.strip_prefix("env/")?;
    envs.iter()
        .find(|e| rest.starts_with(&format!("{e}/")))
        .map(String::as_str)
}

/// The index in [`LAYERS`] of the layer that holds `rel`.
fn layer_of(envs: &[String], rel: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, members)| {
        members.iter().any(|&m| {
            if m == ENV_FOLDERS {
                environment_of(envs, rel).is_some()
            } else if m.ends_with('/') {
                rel.starts_with(m)
            } else {
                rel == m
            }
        })
    })
}

/// Whether `rel` is generic code, which names no environment.
fn is_generic(rel: &str) -> bool {
    rel.starts_with("cmd/")
        || ["experiment/", "metrics/", "report/"]
            .iter()
            .any(|d| rel.starts_with(d))
}

/// The exceptions the checks allow by name.
struct Exceptions<'a> {
    /// [`GENERIC_IMPORTS_ENV`]
    generic: &'a [(&'a str, &'a str)],
    /// [`BACK_UP_EXCEPTIONS`]
    back_up: &'a [(&'a str, &'a str, &'a str)],
    /// [`CYCLE_EXCEPTIONS`]
    cycle: &'a [(&'a str, &'a str, &'a str)],
}

/// The exceptions listed in this file.
const LISTED: Exceptions<'static> = Exceptions {
    generic: GENERIC_IMPORTS_ENV,
    back_up: BACK_UP_EXCEPTIONS,
    cycle: CYCLE_EXCEPTIONS,
};

/// No exception: what planted trees are checked with.
const NONE: Exceptions<'static> = Exceptions {
    generic: &[],
    back_up: &[],
    cycle: &[],
};

/// What the checks found on a tree of files.
struct Checked {
    /// What breaks the checks, one line each; empty when they pass.
    broken: Vec<String>,
    /// Source files.
    files: usize,
    /// File-to-file imports (edges of the import graph).
    edges: usize,
    /// Import cycles (tangles of files that import each other) without the
    /// imports [`CYCLE_EXCEPTIONS`] allows.
    cycles: usize,
    /// Import cycles with every import.
    cycles_with_exceptions: usize,
    /// Imports back up the layers, the named exceptions included.
    back_up: usize,
}

/// Whether `to` is reached from `from` in `g`.
fn reaches(g: &Graph, from: &str, to: &str) -> bool {
    let mut seen = BTreeSet::from([from]);
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for w in g.get(v).into_iter().flat_map(|e| e.keys()) {
            if w == to {
                return true;
            }
            if seen.insert(w.as_str()) {
                queue.push_back(w.as_str());
            }
        }
    }
    false
}

/// The checks, given the exceptions they allow.
fn check(files: &BTreeMap<String, String>, allowed: &Exceptions<'_>) -> Checked {
    let (generic_allowed, back_up_allowed) = (allowed.generic, allowed.back_up);
    let g = graph(files);
    let edges = g.values().map(BTreeMap::len).sum();
    let envs = environments(files);
    let mut broken = Vec::new();
    for (rel, text) in files {
        for line in code_lines(text) {
            if line.contains("anyhow") && !(rel.starts_with("cmd/") || rel == "main.rs") {
                broken.push(format!("{rel} uses anyhow: {line}"));
            }
        }
        if layer_of(&envs, rel).is_none() {
            broken.push(format!(
                "{rel} is in no layer: add it to LAYERS in tests/it/architecture.rs (and \
                 to ARCHITECTURE.md's direction of dependencies)"
            ));
        }
    }
    let mut generic: BTreeMap<(String, &str), String> = BTreeMap::new();
    let mut back_up: BTreeSet<(String, String)> = BTreeSet::new();
    for (rel, targets) in &g {
        for (trel, imp) in targets {
            let at = format!("{rel}:{} imports {trel} ({})", imp.line, imp.path);
            if let (Some(from), Some(to)) = (layer_of(&envs, rel), layer_of(&envs, trel))
                && to > from
            {
                back_up.insert((rel.clone(), trel.clone()));
                if !back_up_allowed
                    .iter()
                    .any(|&(a, b, _)| (a, b) == (rel.as_str(), trel.as_str()))
                {
                    broken.push(format!(
                        "{at}: back up, layer {from} ({}) imports layer {to} ({})",
                        LAYERS[from].0, LAYERS[to].0
                    ));
                }
            }
            match (environment_of(&envs, rel), environment_of(&envs, trel)) {
                (Some(a), Some(b)) if a != b => broken.push(format!(
                    "environment {a} imports environment {b}: {at}; move what they share \
                     below env/"
                )),
                _ => {}
            }
            if let Some(e) = environment_of(&envs, trel).filter(|_| is_generic(rel)) {
                generic.entry((rel.clone(), e)).or_insert(at);
            }
        }
    }
    for (a, b, _) in back_up_allowed {
        if !back_up.contains(&(a.to_string(), b.to_string())) {
            broken.push(format!(
                "{a} no longer imports {b} back up: remove it from BACK_UP_EXCEPTIONS in \
                 tests/it/architecture.rs"
            ));
        }
    }
    for ((rel, e), at) in &generic {
        if !generic_allowed.contains(&(rel.as_str(), *e)) {
            broken.push(format!(
                "generic code imports environment {e}: {at}; generic code (cmd/, \
                 experiment/, metrics/, report/) names no environment"
            ));
        }
    }
    for (rel, e) in generic_allowed {
        if !generic.contains_key(&(rel.to_string(), *e)) {
            broken.push(format!(
                "{rel} no longer imports environment {e}: remove (\"{rel}\", \"{e}\") from \
                 GENERIC_IMPORTS_ENV in tests/it/architecture.rs"
            ));
        }
    }
    // The cycles, without the imports allowed to close one.
    let mut cut = g.clone();
    for &(a, b, _) in allowed.cycle {
        let closes = cut.get_mut(a).and_then(|e| e.remove(b)).is_some() && reaches(&g, b, a);
        if !closes {
            broken.push(format!(
                "{a} no longer imports {b} in a cycle: remove it from CYCLE_EXCEPTIONS in \
                 tests/it/architecture.rs"
            ));
        }
    }
    let cycles_with_exceptions = components(&g).len();
    let g = cut;
    let tangles = components(&g);
    for c in &tangles {
        // One shortest cycle per tangle of files, each step with its line.
        let cyc = cycle(&g, c);
        let steps: Vec<String> = cyc
            .windows(2)
            .map(|w| format!("{} (line {})", w[0], g[&w[0]][&w[1]].line))
            .collect();
        let others: Vec<&str> = c
            .iter()
            .filter(|f| !cyc.contains(f))
            .map(String::as_str)
            .collect();
        broken.push(format!(
            "import cycle: {} → {}{}",
            steps.join(" → "),
            cyc[0],
            if others.is_empty() {
                String::new()
            } else {
                format!(" (files in other cycles with these: {})", others.join(", "))
            }
        ));
    }
    Checked {
        broken,
        files: files.len(),
        edges,
        cycles: tangles.len(),
        cycles_with_exceptions,
        back_up: back_up.len(),
    }
}

fn source_tree() -> BTreeMap<String, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    files
        .iter()
        .map(|f| {
            let rel = f
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(f).unwrap())
        })
        .collect()
}

/// Also prints the figures of the import graph (`cargo test --release
/// --test it architecture -- --nocapture`).
#[test]
fn layers_point_one_way_without_cycles_and_environments_stay_apart() {
    let files = source_tree();
    let c = check(&files, &LISTED);
    println!(
        "import graph of src/: {} source files, {} file-to-file imports, {} layers, \
         environments {}; {} cycles, {} imports back up ({} imports that close a cycle \
         allowed by name: {} cycles with them)",
        c.files,
        c.edges,
        LAYERS.len(),
        environments(&files).join(", "),
        c.cycles,
        c.back_up,
        CYCLE_EXCEPTIONS.len(),
        c.cycles_with_exceptions,
    );
    assert!(c.broken.is_empty(), "{}", c.broken.join("\n"));
}

/// What breaks the checks on a planted tree, with no exception.
fn broken(files: &[(&str, &str)]) -> String {
    check(&tree_of(files), &NONE).broken.join("\n")
}

/// A small tree of files for the checker's own tests.
fn tree_of(files: &[(&str, &str)]) -> BTreeMap<String, String> {
    files
        .iter()
        .map(|(f, t)| (f.to_string(), t.to_string()))
        .collect()
}

#[test]
fn brace_imports_self_and_inline_modules_resolve() {
    let files = tree_of(&[
        ("lib.rs", ""),
        ("env/mod.rs", ""),
        ("env/serial/mod.rs", ""),
        ("env/serial/minmin.rs", ""),
        ("env/serial/simple.rs", ""),
        ("env/serial/workload.rs", ""),
        ("model/mod.rs", ""),
        ("model/rng.rs", ""),
        (
            "env/serial/engine.rs",
            "use super::{Objective, minmin, simple};\n\
             use crate::model::{self, rng::{stream}};\n\
             // use crate::env::mod;\n\
             const S: &str = \"crate::env\";\n\
             #[cfg(test)]\nmod tests {\n    use super::super::workload::x;\n    use super::*;\n}\n",
        ),
    ]);
    let g = graph(&files);
    let got: Vec<&String> = g["env/serial/engine.rs"].keys().collect();
    assert_eq!(
        got,
        [
            "env/serial/minmin.rs",
            "env/serial/mod.rs",
            "env/serial/simple.rs",
            "env/serial/workload.rs",
            "model/mod.rs",
            "model/rng.rs",
        ]
    );
}

#[test]
fn paths_through_children_and_used_modules_resolve() {
    let files = tree_of(&[
        ("lib.rs", ""),
        (
            "main.rs",
            "use swftool::cmd;\nfn main() { swftool::sim::run(); }",
        ),
        ("cmd/mod.rs", ""),
        (
            "sim/mod.rs",
            "pub mod engine;\nmod policies;\npub use engine::{Replay, machine::X};",
        ),
        ("sim/engine/mod.rs", "pub mod machine;"),
        ("sim/engine/machine.rs", ""),
        (
            "sim/policies/mod.rs",
            "mod backfill;\nfn f() { backfill::Backfill::new(); }\n\
             fn g() { x.backfill::<u8>(); Vec::<u8>::new(); std::mem::take(y); }",
        ),
        ("sim/policies/backfill.rs", ""),
        // Rust 2018 layout: `pair.rs` with its child in `pair/`.
        ("sim/pair.rs", "#[cfg(test)]\nmod tests;\nuse tests::T;"),
        ("sim/pair/tests.rs", ""),
        (
            "sim/user.rs",
            "use super::engine::{self as eng};\nuse super::policies;\n\
             fn f() { eng::machine::g(); }\n\
             #[cfg(test)]\nmod tests { use super::*; fn t() { policies::backfill::h(); } }",
        ),
    ]);
    let g = graph(&files);
    let edges = |f: &str| -> Vec<&str> { g[f].keys().map(String::as_str).collect() };
    assert_eq!(edges("main.rs"), ["cmd/mod.rs", "sim/mod.rs"]);
    assert_eq!(
        edges("sim/mod.rs"),
        ["sim/engine/machine.rs", "sim/engine/mod.rs"]
    );
    // `mod machine;` alone is no import.
    assert!(edges("sim/engine/mod.rs").is_empty());
    assert_eq!(edges("sim/policies/mod.rs"), ["sim/policies/backfill.rs"]);
    assert_eq!(edges("sim/pair.rs"), ["sim/pair/tests.rs"]);
    assert_eq!(
        edges("sim/user.rs"),
        [
            "sim/engine/machine.rs",
            "sim/engine/mod.rs",
            "sim/policies/backfill.rs",
            "sim/policies/mod.rs"
        ]
    );
}

#[test]
fn strings_comments_and_character_literals_are_not_code() {
    let text = r##"
        /* crate::env::a { */ const A: &str = "{ crate::env::b \" {";
        const B: &str = r#"crate::env::c { "# ;
        const C: char = '{'; const D: u8 = b'{'; const E: char = '\u{7b}';
        fn f<'a>(x: &'a str) -> &'a str { x }
        use crate::model::{rng};
    "##;
    let found: Vec<String> = paths(text).into_iter().map(|w| w.path.join("::")).collect();
    assert_eq!(found, ["crate::model::rng"]);
}

/// `src/env/mod.rs` declaring the four environments and `configs`.
const ENV_MOD: &str = "pub mod classic;\npub mod configs;\npub mod energy;\n\
                       pub mod parallel;\npub mod serial;\n";

#[test]
fn every_rule_can_fail() {
    let files = tree_of(&[
        ("lib.rs", ""),
        ("env/mod.rs", ENV_MOD),
        ("env/serial/mod.rs", ""),
        ("env/serial/engine.rs", "use super::{minmin::map};"),
        ("env/serial/minmin.rs", "use super::simple;"),
        ("env/serial/simple.rs", "use super::engine::State;"),
        (
            "env/energy/params.rs",
            "fn f() -> u64 { crate::env::parallel::params::DEFAULT_SEED }",
        ),
        ("env/parallel/params.rs", ""),
        ("env/classic/mod.rs", "pub use window::W;"),
        ("env/classic/window.rs", "use super::Job;"),
        ("experiment/fresh.rs", "use crate::env::{classic::{self}};"),
        ("experiment/listed.rs", "use crate::env::serial::X;"),
        ("cmd/synth.rs", "use crate::env::serial::X;"),
        ("contract/mod.rs", ""),
        ("experiment/ok.rs", "use crate::contract::Environment;"),
        ("sim/mod.rs", "use anyhow::Context;"),
        ("stray.rs", ""),
    ]);
    let generic = [
        ("experiment/listed.rs", "serial"),
        ("report/gone.rs", "parallel"),
    ];
    let back_up = [
        ("experiment/listed.rs", "env/serial/mod.rs", "planted"),
        ("sim/gone.rs", "cmd/mod.rs", "planted"),
    ];
    let cycle = [
        ("env/classic/window.rs", "env/classic/mod.rs", "planted"),
        ("env/serial/simple.rs", "env/serial/mod.rs", "planted"),
    ];
    let allowed = Exceptions {
        generic: &generic,
        back_up: &back_up,
        cycle: &cycle,
    };
    let c = check(&files, &allowed);
    let b = c.broken.join("\n");
    for expected in [
        "import cycle: env/serial/engine.rs (line 1) → env/serial/minmin.rs (line 1) → \
         env/serial/simple.rs (line 1) → env/serial/engine.rs",
        "environment energy imports environment parallel: env/energy/params.rs:1",
        "generic code imports environment classic: experiment/fresh.rs:1",
        "generic code imports environment serial: cmd/synth.rs:1",
        "report/gone.rs no longer imports environment parallel",
        // The grid layer sits below the environments' folders.
        "experiment/fresh.rs:1 imports env/classic/mod.rs (crate::env::classic): back up, \
         layer 7 (grids) imports layer 8 (environments)",
        "sim/gone.rs no longer imports cmd/mod.rs back up",
        "sim/mod.rs uses anyhow",
        "stray.rs is in no layer",
        "env/serial/simple.rs no longer imports env/serial/mod.rs in a cycle",
    ] {
        assert!(b.contains(expected), "{expected}\nnot in:\n{b}");
    }
    assert_eq!(b.lines().count(), 10, "{b}");
    assert_eq!((c.cycles, c.cycles_with_exceptions, c.back_up), (1, 2, 2));
}

#[test]
fn a_circle_through_a_mod_rs_fails() {
    // mod.rs → child through a path relative to the child, child → mod.rs
    // through `super`: a `use`, a `pub use`, an expression path, a path
    // through a module a `use` named, and the Rust 2018 layout.
    for (parent, child, parent_text) in [
        (
            "sim/mod.rs",
            "sim/events.rs",
            "pub mod events;\nuse events::Queue;",
        ),
        (
            "sim/mod.rs",
            "sim/events.rs",
            "pub mod events;\npub use events::X;",
        ),
        (
            "sim/mod.rs",
            "sim/events.rs",
            "mod events;\nfn f() { events::Queue::new(); }",
        ),
        (
            "sim/mod.rs",
            "sim/events/mod.rs",
            "mod events;\nuse self::events as e;\nfn f() { e::g() }",
        ),
        (
            "sim/profile.rs",
            "sim/profile/tests.rs",
            "#[cfg(test)]\nmod tests;\nuse tests::T;",
        ),
    ] {
        let files = [
            ("lib.rs", ""),
            (parent, parent_text),
            (child, "use super::Y;\npub struct X;"),
        ];
        let b = broken(&files);
        let (first, second) = if child < parent {
            (child, parent)
        } else {
            (parent, child)
        };
        let expected = format!("import cycle: {first} (line ");
        assert!(
            b.contains(&expected) && b.contains(&format!("→ {second} (line ")),
            "{parent_text}: no cycle {parent} ⇄ {child} in:\n{b}"
        );
        assert_eq!(b.lines().count(), 1, "{b}");
    }
    // `mod child;` alone is no import: the child's `super::` is no circle.
    assert_eq!(
        broken(&[
            ("lib.rs", ""),
            ("sim/mod.rs", "pub mod events;\npub struct Y;"),
            ("sim/events.rs", "use super::Y;")
        ]),
        ""
    );
}

#[test]
fn a_sixth_environment_is_read_from_env_mod_rs() {
    let env_mod = format!("{ENV_MOD}pub mod fifth;\npub mod toy;\n");
    let files = [
        ("lib.rs", ""),
        ("env/mod.rs", &env_mod as &str),
        ("env/classic/mod.rs", ""),
        ("env/classic/engine.rs", ""),
        ("env/energy/mod.rs", ""),
        ("env/parallel/mod.rs", ""),
        ("env/serial/mod.rs", ""),
        ("env/fifth/mod.rs", ""),
        ("env/configs.rs", ""),
        // The sixth environment's folder.
        (
            "env/toy/mod.rs",
            "use crate::env::classic::engine::simulate;",
        ),
        ("env/toy/grid.rs", "use crate::experiment::Grid;"),
        ("experiment/mod.rs", ""),
        // Not declared in env/mod.rs: no environment, in no layer.
        ("env/stray/mod.rs", ""),
    ];
    let files = tree_of(&files);
    assert_eq!(
        environments(&files),
        ["classic", "energy", "parallel", "serial", "fifth", "toy"],
        "the declared folders, in order"
    );
    let b = check(&files, &NONE).broken.join("\n");
    for expected in [
        "environment toy imports environment classic: env/toy/mod.rs:1 imports \
         env/classic/engine.rs",
        "env/stray/mod.rs is in no layer",
    ] {
        assert!(b.contains(expected), "{expected}\nnot in:\n{b}");
    }
    assert_eq!(b.lines().count(), 2, "{b}");
}

#[test]
fn every_import_back_up_fails_and_imports_down_pass() {
    let env_mod = format!("{ENV_MOD}pub mod toy;\n");
    // (importing file, imported file), each a step back up the layers.
    let up = [
        ("experiment/grid.rs", "env/classic/mod.rs"),
        ("experiment/grid.rs", "env/mod.rs"),
        ("experiment/grid.rs", "cmd/mod.rs"),
        ("contract/registry.rs", "env/serial/mod.rs"),
        ("contract/registry.rs", "experiment/grid.rs"),
        ("contract/registry.rs", "cmd/mod.rs"),
        ("output/record.rs", "contract/registry.rs"),
        ("output/record.rs", "env/toy/mod.rs"),
        ("output/record.rs", "experiment/grid.rs"),
        ("output/record.rs", "cmd/mod.rs"),
        ("sim/events.rs", "env/energy/mod.rs"),
        ("sim/events.rs", "workload/days.rs"),
        ("report/bars.rs", "env/parallel/mod.rs"),
        ("env/classic/grid.rs", "cmd/mod.rs"),
        ("env/classic/grid.rs", "env/configs.rs"),
        ("env/configs.rs", "cmd/replay.rs"),
        ("metrics/tables.rs", "workload/days.rs"),
        ("atomic.rs", "swf/mod.rs"),
        ("cmd/info.rs", "main.rs"),
    ];
    let down = [
        ("cmd/replay.rs", "env/mod.rs"),
        ("env/mod.rs", "env/classic/mod.rs"),
        ("env/classic/grid.rs", "experiment/grid.rs"),
        ("experiment/grid.rs", "contract/registry.rs"),
        ("contract/registry.rs", "output/record.rs"),
        ("sim/events.rs", "metrics/tables.rs"),
        ("swf/reader.rs", "atomic.rs"),
    ];
    let module = |f: &str| module_of(f).join("::");
    for (from, to) in up.iter().chain(&down) {
        let mut files = tree_of(&[("lib.rs", ""), ("env/mod.rs", &env_mod)]);
        files.entry(to.to_string()).or_default();
        let text = files.entry(from.to_string()).or_default();
        text.push_str(&format!("use crate::{}::X;", module(to)));
        let b = check(&files, &NONE).broken.join("\n");
        if up.contains(&(from, to)) {
            let expected = format!("{from}:1 imports {to} (crate::{}::X): back up", module(to));
            assert!(b.contains(&expected), "{expected}\nnot in:\n{b}");
            // (and, from generic code, an import of an environment)
            let others = b.lines().filter(|l| !l.starts_with("generic code imports"));
            assert_eq!(others.count(), 1, "{b}");
        } else {
            assert_eq!(b, "", "{from} → {to}");
        }
    }
}
