//! The command examples of README.md and docs/tour.md, run as written.
//!
//! Convention (README.md, "Examples in these docs", says it for readers):
//!
//! - A fenced block whose info string is `console` is an example. A line
//!   starting with `$ ` is a command; the lines after it, up to the next
//!   command or the end of the block, are what it prints (standard output
//!   and standard error together, as on a terminal).
//! - Each block runs in a fresh temporary directory holding `traces`, a
//!   link to the real logs (`../shared/traces`), so short names resolve as
//!   in a checkout whose logs `swftool fetch` put in `./traces`, and relative
//!   output paths (`notebooks-out/…`, `--out r`) land in that directory.
//!   `SWFTOOL_TRACES` is removed from the environment. The commands of one
//!   block run in order in the same directory (a `synth` then the `replay`
//!   of what it wrote); each runs with `sh -c`, the built binary first on
//!   `PATH`, so `head`, `cat` and the like work too.
//! - Printed lines are compared field by field (fields are separated by
//!   white space, so column widths are not compared): a field written `…`
//!   matches any one field, and is how every wall-clock figure (ms per
//!   event, seconds, jobs/s, MB/s) is written; a line that is `...` alone
//!   matches any number of lines, none included. Nothing else is skipped.
//! - A command must succeed, unless the first line it is shown printing
//!   starts with `error:` (swftool's refusals).
//! - Progress lines (`progress 6/12 cells, …`), which a grid or a replay
//!   without a terminal prints every 10 s on standard error, are wall clock
//!   too: they are left out of what a command printed before comparing, so
//!   a slow machine does not fail the examples.
//!
//! Not run: blocks marked `sh` (or `toml`, `text`, …) are not examples.
//! README.md shows `swftool fetch` in an `sh` block because it downloads
//! from the Parallel Workloads Archive and CI has no network but package
//! registries (`tests/it/fetch.rs` runs `fetch` against a server on
//! 127.0.0.1 instead); the two commands of a fresh machine (`cargo run
//! --release -- …` and the test command) are an `sh` block because `.ci/run`
//! runs them itself — the `console` block after them runs the first one's
//! replay and shows what it prints. To keep untested commands out, a
//! non-`console` block of README.md or docs/tour.md may not start with a
//! `$ swftool` line.
//!
//! The Python examples (a `python` block followed by a `text` block of
//! what it prints) are run by tests/python/test_docs_examples.py with the
//! same matching rules.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::common;

/// The documents whose `console` blocks are examples.
const DOCS: &[&str] = &["README.md", "docs/tour.md"];

/// One command of an example and what it prints.
#[derive(Debug, Clone, PartialEq)]
struct Step {
    /// The shell command, without `$ `.
    command: String,
    /// The lines shown after it.
    expected: Vec<String>,
    /// Its line in the document (1-based).
    line: usize,
}

/// A fenced block: its info string, first content line (1-based) and lines.
#[derive(Debug, Clone)]
struct Fence {
    info: String,
    line: usize,
    lines: Vec<String>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every fenced block of a Markdown text (``` fences; the info string is
/// the fence's first word).
fn fences(text: &str) -> Vec<Fence> {
    let mut out = Vec::new();
    let mut open: Option<Fence> = None;
    for (i, raw) in text.lines().enumerate() {
        let trimmed = raw.trim_start();
        match open.take() {
            None => {
                if let Some(info) = trimmed.strip_prefix("```") {
                    open = Some(Fence {
                        info: info.split_whitespace().next().unwrap_or("").to_string(),
                        line: i + 2,
                        lines: Vec::new(),
                    });
                }
            }
            Some(mut f) => {
                if trimmed.starts_with("```") {
                    out.push(f);
                } else {
                    f.lines.push(raw.to_string());
                    open = Some(f);
                }
            }
        }
    }
    assert!(open.is_none(), "a fenced block is not closed");
    out
}

/// The commands of a `console` block, with their expected lines.
fn steps(fence: &Fence) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    for (k, line) in fence.lines.iter().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Step {
                command: command.trim().to_string(),
                expected: Vec::new(),
                line: fence.line + k,
            });
        } else {
            let step = out.last_mut().unwrap_or_else(|| {
                panic!(
                    "line {}: a console block starts with a `$ ` command",
                    fence.line + k
                )
            });
            step.expected.push(line.clone());
        }
    }
    // Blank lines at the end of a command's output are layout, not output.
    for s in &mut out {
        while s.expected.last().is_some_and(|l| l.trim().is_empty()) {
            s.expected.pop();
        }
    }
    out
}

/// Whether a printed line matches a shown one: the same fields, a shown
/// field `…` standing for any one field.
fn line_matches(shown: &str, printed: &str) -> bool {
    let a: Vec<&str> = shown.split_whitespace().collect();
    let b: Vec<&str> = printed.split_whitespace().collect();
    a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| *x == "…" || x == y)
}

/// Whether the printed lines match the shown ones, a shown line `...`
/// standing for any number of lines. Blank lines are compared like the
/// others.
fn lines_match(shown: &[String], printed: &[String]) -> bool {
    // matches[i][j]: shown[i..] matches printed[j..].
    let (n, m) = (shown.len(), printed.len());
    let mut matches = vec![vec![false; m + 1]; n + 1];
    matches[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            matches[i][j] = if shown[i].trim() == "..." {
                matches[i + 1][j] || (j < m && matches[i][j + 1])
            } else {
                j < m && line_matches(&shown[i], &printed[j]) && matches[i + 1][j + 1]
            };
        }
    }
    matches[0][0]
}

/// Whether a printed line is a progress report (wall clock, printed only
/// by a run longer than the progress interval).
fn is_progress_line(line: &str) -> bool {
    line.starts_with("progress ") && line.contains(" cells, ") && line.contains(" elapsed")
}

/// A fresh directory for one block, with `traces` linking to the real logs.
fn block_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(common::traces_dir(), dir.path().join("traces")).unwrap();
    dir
}

/// Runs one command in `dir`; gives (success, stdout and stderr as one
/// text, in the order written).
fn run(dir: &Path, command: &str) -> (bool, String) {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_swftool"));
    let path = format!(
        "{}:{}",
        bin.parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let log = dir.join(".docs-example-output");
    let out = File::create(&log).unwrap();
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env_remove("SWFTOOL_TRACES")
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .status()
        .expect("sh runs");
    let printed = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_file(&log).unwrap();
    (status.success(), printed)
}

/// Runs every `console` block of `doc` and gives one message per command
/// whose output does not match.
fn check_doc(doc: &str) -> (usize, Vec<String>) {
    let text = std::fs::read_to_string(root().join(doc)).unwrap();
    let mut failures = Vec::new();
    let mut count = 0;
    for fence in fences(&text).iter().filter(|f| f.info == "console") {
        let dir = block_dir();
        for step in steps(fence) {
            count += 1;
            let started = std::time::Instant::now();
            let (ok, printed) = run(dir.path(), &step.command);
            let seconds = started.elapsed().as_secs_f64();
            eprintln!("{doc}:{}: {:.2} s  $ {}", step.line, seconds, step.command);
            let mut printed: Vec<String> = printed
                .lines()
                .filter(|l| !is_progress_line(l))
                .map(str::to_string)
                .collect();
            while printed.last().is_some_and(|l| l.trim().is_empty()) {
                printed.pop();
            }
            let may_fail = step
                .expected
                .first()
                .is_some_and(|l| l.starts_with("error:"));
            if !ok && !may_fail {
                failures.push(format!(
                    "{doc}:{}: `{}` failed:\n{}",
                    step.line,
                    step.command,
                    printed.join("\n")
                ));
            } else if !lines_match(&step.expected, &printed) {
                failures.push(format!(
                    "{doc}:{}: `{}` printed\n{}\n--- where the document shows\n{}",
                    step.line,
                    step.command,
                    printed.join("\n"),
                    step.expected.join("\n")
                ));
            }
        }
    }
    (count, failures)
}

fn assert_doc(doc: &str) {
    let (count, failures) = check_doc(doc);
    assert!(count > 0, "{doc} has no console example");
    assert!(
        failures.is_empty(),
        "{} of {count} commands of {doc} do not print what it shows \
         (tests/it/docs_examples.rs says how examples are read):\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn readme_examples_print_what_it_shows() {
    assert_doc("README.md");
}

#[test]
fn tour_examples_print_what_it_shows() {
    assert_doc("docs/tour.md");
}

#[test]
fn no_command_is_shown_outside_a_console_block() {
    for doc in DOCS {
        let text = std::fs::read_to_string(root().join(doc)).unwrap();
        for f in fences(&text) {
            if f.info != "console" {
                let first = f.lines.iter().find(|l| !l.trim().is_empty());
                assert!(
                    !first.is_some_and(|l| l.starts_with("$ swftool")),
                    "{doc}:{}: a `{}` block shows a command; make it a `console` block \
                     so that it runs, or an `sh` block without its output",
                    f.line,
                    f.info
                );
            }
        }
    }
}

#[test]
fn the_readme_gives_the_test_command_ci_runs() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    for command in [
        "cargo test --release && python3 -m pip install '.[test]' && python3 -m pytest tests/python",
        "cargo run --release -- replay curie --heuristic maxvpr-ph",
    ] {
        assert!(ci.contains(command), ".ci/run runs `{command}`");
        assert!(readme.contains(command), "README.md gives `{command}`");
    }
}

#[test]
fn the_readme_indexes_every_file_of_docs() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut missing = Vec::new();
    let mut stack = vec![root().join("docs")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(root())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                if !readme.contains(&format!("]({rel})")) {
                    missing.push(rel);
                }
            }
        }
    }
    missing.sort();
    assert!(
        missing.is_empty(),
        "README.md's index of docs/ links no line to {missing:?}"
    );
    // And every local link of the README leads to a file.
    for (k, _) in readme.match_indices("](") {
        let rest = &readme[k + 2..];
        let target = &rest[..rest.find(')').unwrap()];
        let file = target.split('#').next().unwrap();
        if !file.is_empty() && !file.contains("://") {
            assert!(
                root().join(file).exists(),
                "README.md links {target}, which does not exist"
            );
        }
    }
}

#[test]
fn shown_lines_match_by_field_with_wildcards() {
    let lines = |s: &[&str]| s.iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert!(line_matches("a  b … d", "a b 0.147 d"));
    assert!(!line_matches("a b … d", "a b 0.147 e"));
    assert!(!line_matches("a b …", "a b 1 2"));
    assert!(!line_matches("(…)", "(x)"));
    assert!(is_progress_line(
        "progress 65/147 cells, 0 failed, 6.50 cells/s, 10 s elapsed, about 13 s left"
    ));
    assert!(!is_progress_line("wrote notebooks-out/smoke/aggregate.md"));
    assert!(lines_match(&lines(&["x", "...", "z"]), &lines(&["x", "z"])));
    assert!(lines_match(
        &lines(&["x", "...", "z"]),
        &lines(&["x", "1", "2", "z"])
    ));
    assert!(lines_match(&lines(&["x", "..."]), &lines(&["x", "1"])));
    assert!(!lines_match(
        &lines(&["x", "...", "z"]),
        &lines(&["x", "1"])
    ));
    assert!(!lines_match(&lines(&["x"]), &lines(&["x", ""])));
    let f = fences("text\n```console\n$ swftool a\nout\n\n$ head b\n```\n```sh\nx\n```\n");
    assert_eq!(f.len(), 2);
    assert_eq!(
        steps(&f[0]),
        vec![
            Step {
                command: "swftool a".into(),
                expected: vec!["out".into()],
                line: 3
            },
            Step {
                command: "head b".into(),
                expected: vec![],
                line: 6
            }
        ]
    );
}
