//! The layering of ARCHITECTURE.md, checked on the source: `sim/` imports
//! nothing from `env/` or `workload/`, `report/` nothing from `env/`,
//! `experiment/` nothing from `cmd/`, the library nothing from `anyhow`
//! outside `cmd/` and `main.rs`, and no two files import each other.
//!
//! An import is a `crate::…`, `super::…` or `self::…` path in a line of code
//! (comments are skipped), resolved to the longest module prefix that is a
//! file of `src/`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|l| !l.trim_start().starts_with("//"))
}

/// Every `crate::`/`super::`/`self::` path in `line`.
fn paths(line: &str) -> Vec<Vec<&str>> {
    let mut out = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        let mut rest = line;
        while let Some(i) = rest.find(start) {
            let before = rest[..i].chars().last();
            let tail = &rest[i..];
            let end = tail
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(tail.len());
            if !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                out.push(tail[..end].split("::").filter(|s| !s.is_empty()).collect());
            }
            rest = &tail[end.max(1)..];
        }
    }
    out
}

#[test]
fn layers_point_one_way_and_no_two_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let modules: BTreeMap<Vec<String>, PathBuf> = files
        .iter()
        .map(|f| (module_of(&src, f), f.clone()))
        .collect();
    let mut imports: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    let mut broken = Vec::new();
    for f in &files {
        let me = module_of(&src, f);
        let is_mod = matches!(
            f.file_name().and_then(|n| n.to_str()),
            Some("mod.rs" | "lib.rs")
        );
        let rel = f.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        for line in code_lines(&text) {
            if line.contains("anyhow") && !(rel.starts_with("cmd/") || rel == "main.rs") {
                broken.push(format!("{rel} uses anyhow: {line}"));
            }
            for p in paths(line) {
                let (mut base, segs): (Vec<String>, &[&str]) = match p[0] {
                    "crate" => (Vec::new(), &p[1..]),
                    "self" => (me.clone(), &p[1..]),
                    _ => {
                        // `super` of a file module is its folder's module.
                        let mut b = me.clone();
                        if !is_mod || !b.is_empty() {
                            b.pop();
                        }
                        let mut k = 1;
                        while p.get(k) == Some(&"super") {
                            b.pop();
                            k += 1;
                        }
                        (b, &p[k..])
                    }
                };
                let target = (0..=segs.len()).rev().find_map(|n| {
                    let mut m = base.clone();
                    m.extend(segs[..n].iter().map(|s| s.to_string()));
                    modules.get(&m).cloned()
                });
                base.clear();
                let Some(t) = target else { continue };
                if &t == f {
                    continue;
                }
                let trel = t.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
                let rule = |from: &str, to: &str| rel.starts_with(from) && trel.starts_with(to);
                if rule("sim/", "env/")
                    || rule("sim/", "workload/")
                    || rule("report/", "env/")
                    || rule("experiment/", "cmd/")
                    || rule("env/", "experiment/")
                    || rule("env/", "cmd/")
                {
                    broken.push(format!("{rel} imports {trel}: {}", line.trim()));
                }
                imports.entry(f.clone()).or_default().insert(t);
            }
        }
    }
    for (a, targets) in &imports {
        for b in targets {
            if a < b && imports.get(b).is_some_and(|t| t.contains(a)) {
                broken.push(format!(
                    "{} and {} import each other",
                    a.strip_prefix(&src).unwrap().display(),
                    b.strip_prefix(&src).unwrap().display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
