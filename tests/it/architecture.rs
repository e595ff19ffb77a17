//! The layering of ARCHITECTURE.md, checked on the source:
//!
//! * `sim/` imports nothing from `env/` or `workload/`, `report/` nothing
//!   from `env/`, `experiment/` nothing from `cmd/` or `env/` (the grid
//!   layer and the environments both import the contract, `contract/`,
//!   which imports neither), `env/` nothing from `cmd/`, and the library nothing from `anyhow`
//!   outside `cmd/` and `main.rs`;
//! * the file-level import graph has no cycle (two files importing each
//!   other, or any longer circle), printed when there is one;
//! * no environment folder (`env/<name>/`) imports another's;
//! * generic code (`cmd/` but `cmd/synth.rs`, `experiment/`, `metrics/`,
//!   `report/`) imports no environment: [`GENERIC_IMPORTS_ENV`], the
//!   ratchet of exceptions, is empty since issue 21 and stays so.
//!
//! An import is a `crate::…`, `super::…` or `self::…` path in code
//! (comments, strings and character literals are skipped), brace groups
//! expanded (`use super::{a, b::{c, self}}` is `super::a`, `super::b::c`
//! and `super::b`), resolved to the longest module prefix that is a file of
//! `src/`; `super` and `self` count inline modules (`mod tests { … }`).
//! A path written relative to the file's own children (`use engine::X` in
//! a `mod.rs`) is not an import here: a folder's `mod.rs` declares and
//! re-exports its children.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

/// The environments, one folder each under `src/env/`.
const ENVIRONMENTS: [&str; 4] = ["parallel", "serial", "energy", "classic"];

/// Generic files (under `src/cmd` but `synth.rs`, `src/experiment`,
/// `src/metrics`, `src/report`) that still import an environment's folder,
/// as (file under `src/`, environment). A ratchet that can only shrink: a
/// pair not listed here fails the test, and so does a listed pair that no
/// longer exists (remove it from the list). Issue 21 ("one results
/// pipeline": no command names an environment, each environment's grid glue
/// in its own folder) empties it.
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

/// The paths of one path tree starting at token `i` (`a::b::{c, d::{self,
/// e}}`, `a::*`, `a as b`), and the token after it.
fn tree(t: &[(Token, usize)], mut i: usize) -> (Vec<Vec<String>>, usize) {
    let mut prefix: Vec<String> = Vec::new();
    loop {
        match t.get(i).map(|x| &x.0) {
            Some(Token::Ident(s)) => {
                prefix.push(s.clone());
                i += 1;
            }
            Some(Token::Punct('*')) => return (vec![prefix], i + 1),
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
                            for s in sub {
                                let mut p = prefix.clone();
                                if s != ["self"] {
                                    p.extend(s);
                                }
                                out.push(p);
                            }
                            i = j.max(i + 1);
                        }
                    }
                }
                return (out, i);
            }
            _ => return (vec![prefix], i),
        }
        match t.get(i).map(|x| &x.0) {
            Some(Token::Path) => i += 1,
            Some(Token::Ident(a)) if a == "as" => return (vec![prefix], i + 2),
            _ => return (vec![prefix], i),
        }
    }
}

/// Every `crate::`/`super::`/`self::` path of a file's code, brace groups
/// expanded, as (line, inline module path inside the file, path).
fn paths(text: &str) -> Vec<(usize, Vec<String>, Vec<String>)> {
    let t = tokens(&strip(text));
    let mut out = Vec::new();
    let mut depth = 0usize;
    // Inline modules open at this point, with the depth inside their braces.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < t.len() {
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
            Token::Ident(w)
                if matches!(w.as_str(), "crate" | "super" | "self")
                    && t.get(i + 1).is_some_and(|x| x.0 == Token::Path)
                    && (i == 0 || t[i - 1].0 != Token::Path) =>
            {
                let line = t[i].1;
                let (found, j) = tree(&t, i);
                let here: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
                out.extend(found.into_iter().map(|p| (line, here.clone(), p)));
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The file of `src/` a path written in module `me` (the file's module,
/// then its inline modules) names: the longest module prefix that is a
/// file.
fn resolve(
    modules: &BTreeMap<Vec<String>, String>,
    me: &[String],
    path: &[String],
) -> Option<String> {
    let mut full: Vec<String> = match path.first().map(String::as_str) {
        Some("crate") => Vec::new(),
        _ => me.to_vec(),
    };
    let mut rest = &path[1.min(path.len())..];
    if path.first().is_some_and(|s| s == "super") {
        full.pop();
        while rest.first().is_some_and(|s| s == "super") {
            full.pop();
            rest = &rest[1..];
        }
    }
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .find_map(|n| modules.get(&full[..n]).cloned())
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
    let modules: BTreeMap<Vec<String>, String> =
        files.keys().map(|f| (module_of(f), f.clone())).collect();
    let mut g = Graph::new();
    for (rel, text) in files {
        let me = module_of(rel);
        let entry = g.entry(rel.clone()).or_default();
        for (line, inline, p) in paths(text) {
            let mut here = me.clone();
            here.extend(inline);
            let Some(target) = resolve(&modules, &here, &p) else {
                continue;
            };
            if &target != rel {
                entry.entry(target).or_insert(Import {
                    line,
                    path: p.join("::"),
                });
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

/// The environment whose folder holds `rel` (`env/serial/engine.rs` →
/// `serial`).
fn environment_of(rel: &str) -> Option<&'static str> {
    let rest = rel.strip_prefix("env/")?;
    ENVIRONMENTS
        .into_iter()
        .find(|e| rest.starts_with(&format!("{e}/")))
}

/// Whether `rel` is generic code, which names no environment.
fn is_generic(rel: &str) -> bool {
    (rel.starts_with("cmd/") && rel != "cmd/synth.rs")
        || ["experiment/", "metrics/", "report/"]
            .iter()
            .any(|d| rel.starts_with(d))
}

/// The checks, as the list of what breaks them; `allowed` is the ratchet
/// of generic imports of environments ([`GENERIC_IMPORTS_ENV`]).
fn broken(files: &BTreeMap<String, String>, allowed: &[(&str, &str)]) -> Vec<String> {
    let g = graph(files);
    let mut broken = Vec::new();
    for (rel, text) in files {
        for line in code_lines(text) {
            if line.contains("anyhow") && !(rel.starts_with("cmd/") || rel == "main.rs") {
                broken.push(format!("{rel} uses anyhow: {line}"));
            }
        }
    }
    let mut generic: BTreeMap<(String, &str), String> = BTreeMap::new();
    for (rel, targets) in &g {
        for (trel, imp) in targets {
            let at = format!("{rel}:{} imports {trel} ({})", imp.line, imp.path);
            let rule = |from: &str, to: &str| rel.starts_with(from) && trel.starts_with(to);
            if rule("sim/", "env/")
                || rule("sim/", "workload/")
                || rule("report/", "env/")
                || rule("experiment/", "cmd/")
                || rule("experiment/", "env/")
                || rule("contract/", "env/")
                || rule("contract/", "experiment/")
                || rule("contract/", "cmd/")
                || rule("env/", "cmd/")
            {
                broken.push(at.clone());
            }
            match (environment_of(rel), environment_of(trel)) {
                (Some(a), Some(b)) if a != b => broken.push(format!(
                    "environment {a} imports environment {b}: {at}; move what they share \
                     below env/"
                )),
                _ => {}
            }
            if let Some(e) = environment_of(trel).filter(|_| is_generic(rel)) {
                generic.entry((rel.clone(), e)).or_insert(at);
            }
        }
    }
    for ((rel, e), at) in &generic {
        if !allowed.contains(&(rel.as_str(), *e)) {
            broken.push(format!(
                "generic code imports environment {e}: {at}; generic code (cmd/ but \
                 cmd/synth.rs, experiment/, metrics/, report/) names no environment"
            ));
        }
    }
    for (rel, e) in allowed {
        if !generic.contains_key(&(rel.to_string(), *e)) {
            broken.push(format!(
                "{rel} no longer imports environment {e}: remove (\"{rel}\", \"{e}\") from \
                 GENERIC_IMPORTS_ENV in tests/it/architecture.rs"
            ));
        }
    }
    for c in components(&g) {
        // One shortest cycle per tangle of files, each step with its line.
        let cyc = cycle(&g, &c);
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
    broken
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

#[test]
fn layers_point_one_way_without_cycles_and_environments_stay_apart() {
    let broken = broken(&source_tree(), GENERIC_IMPORTS_ENV);
    assert!(broken.is_empty(), "{}", broken.join("\n"));
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
fn strings_comments_and_character_literals_are_not_code() {
    let text = r##"
        /* crate::env::a { */ const A: &str = "{ crate::env::b \" {";
        const B: &str = r#"crate::env::c { "# ;
        const C: char = '{'; const D: u8 = b'{'; const E: char = '\u{7b}';
        fn f<'a>(x: &'a str) -> &'a str { x }
        use crate::model::{rng};
    "##;
    let found: Vec<String> = paths(text)
        .into_iter()
        .map(|(_, _, p)| p.join("::"))
        .collect();
    assert_eq!(found, ["crate::model::rng"]);
}

#[test]
fn every_new_rule_can_fail() {
    let files = tree_of(&[
        ("lib.rs", ""),
        ("env/mod.rs", ""),
        ("env/serial/mod.rs", ""),
        ("env/serial/engine.rs", "use super::{minmin::map};"),
        ("env/serial/minmin.rs", "use super::simple;"),
        ("env/serial/simple.rs", "use super::engine::State;"),
        (
            "env/energy/params.rs",
            "fn f() -> u64 { crate::env::parallel::params::DEFAULT_SEED }",
        ),
        ("env/parallel/params.rs", ""),
        ("env/classic/mod.rs", ""),
        ("experiment/fresh.rs", "use crate::env::{classic::{self}};"),
        ("experiment/listed.rs", "use crate::env::serial::X;"),
        ("cmd/synth.rs", "use crate::env::serial::X;"),
        ("contract/mod.rs", ""),
        ("experiment/ok.rs", "use crate::contract::Environment;"),
    ]);
    let allowed = [
        ("experiment/listed.rs", "serial"),
        ("report/gone.rs", "parallel"),
    ];
    let b = broken(&files, &allowed).join("\n");
    for expected in [
        "import cycle: env/serial/engine.rs (line 1) → env/serial/minmin.rs (line 1) → \
         env/serial/simple.rs (line 1) → env/serial/engine.rs",
        "environment energy imports environment parallel: env/energy/params.rs:1",
        "generic code imports environment classic: experiment/fresh.rs:1",
        "report/gone.rs no longer imports environment parallel",
        // The grid layer sits below the environments' folders.
        "experiment/fresh.rs:1 imports env/classic/mod.rs (crate::env::classic)",
        "experiment/listed.rs:1 imports env/serial/mod.rs",
    ] {
        assert!(b.contains(expected), "{expected}\nnot in:\n{b}");
    }
    assert_eq!(b.lines().count(), 6, "{b}");
}
