//! `manifest.json`: what produced an output directory (every output records the
//! swftool version, the config and the seeds; docs/outputs.md).
//!
//! Fields: `swftool_version`; `git_commit` and `git_dirty` (from
//! `git rev-parse HEAD` and `git status --porcelain` run at run time in the
//! source directory the binary was built from, `CARGO_MANIFEST_DIR`; null
//! when that fails, e.g. a binary moved to another machine — it is the
//! source tree's state when the command ran, which matches the binary when
//! it was built from that tree); `command`; the full `config`; the `layout`
//! (logs with their days, each day's `scenario_seed`, variants, heuristics:
//! with `config.seed` these are all the seeds); `log_paths`; `log_sha256`
//! (the SHA-256 of each log's decompressed text, in the order of
//! `log_paths`: what was read, whatever its name); `shard`;
//! `sources` (the directories `aggregate` merged); `cells_total` and
//! `cells_present`; `files` (the tables `replay` wrote, so that a later
//! replay into the same directory removes those it does not write again);
//! `when` (UTC, RFC 3339). `when` differs on every run, so
//! manifests are not part of any byte-identity comparison.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde::{Deserialize, Serialize};

use super::ExperimentError;
use super::config::ExperimentConfig;
use super::runner::Layout;

/// The contents of `manifest.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// `CARGO_PKG_VERSION` of the swftool that wrote it.
    pub swftool_version: String,
    /// Git commit of the source tree, when known.
    pub git_commit: Option<String>,
    /// Whether that tree had uncommitted changes, when known.
    pub git_dirty: Option<bool>,
    /// The subcommand: `experiment`, `aggregate` or `compare`.
    pub command: String,
    /// The full configuration.
    pub config: ExperimentConfig,
    /// The grid: logs, days and scenario seeds, variants, heuristics.
    pub layout: Layout,
    /// Path of each log as resolved on the machine that wrote this.
    pub log_paths: Vec<String>,
    /// SHA-256 of each log's decompressed text (lowercase hex), in the
    /// order of `log_paths` (empty in a manifest written before it existed).
    #[serde(default)]
    pub log_sha256: Vec<String>,
    /// `i/N` when this directory holds one shard.
    pub shard: Option<String>,
    /// Directories merged by `aggregate` (empty otherwise).
    #[serde(default)]
    pub sources: Vec<String>,
    /// Cells in the whole grid.
    pub cells_total: usize,
    /// Cells whose results this directory holds or aggregated.
    pub cells_present: usize,
    /// When it was written, UTC, RFC 3339.
    pub when: String,
    /// Files `replay` wrote beside the manifest (names, no directory);
    /// empty for grids, whose outputs are their cells.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
}

/// The keys in which two configurations differ, each with both values:
/// `heuristics = ["easy"] in the directory, ["fcfs"] now` (nested keys
/// joined with `.`; at most 5, then `…`).
pub fn differences(there: &ExperimentConfig, now: &ExperimentConfig) -> Vec<String> {
    let (Ok(a), Ok(b)) = (serde_json::to_value(there), serde_json::to_value(now)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    diff_values("", &a, &b, &mut out);
    if out.len() > 5 {
        out.truncate(5);
        out.push("…".to_string());
    }
    out
}

fn diff_values(key: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let sub = if key.is_empty() {
                    k.clone()
                } else {
                    format!("{key}.{k}")
                };
                let null = Value::Null;
                diff_values(
                    &sub,
                    x.get(k).unwrap_or(&null),
                    y.get(k).unwrap_or(&null),
                    out,
                );
            }
        }
        _ if a != b => out.push(format!("{key} = {a} in the directory, {b} now")),
        _ => {}
    }
}

/// The git commit and dirty flag of the source tree swftool was built from,
/// when `git` can tell (see the module documentation).
pub fn git_state() -> (Option<String>, Option<bool>) {
    let dir = env!("CARGO_MANIFEST_DIR");
    let run = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let commit = run(&["rev-parse", "HEAD"]).filter(|c| !c.is_empty());
    let dirty = commit
        .as_ref()
        .and_then(|_| run(&["status", "--porcelain", "--untracked-files=no"]))
        .map(|s| !s.is_empty());
    (commit, dirty)
}

impl Manifest {
    /// A manifest for `command` on `config` / `layout`, stamped now.
    pub fn new(command: &str, config: &ExperimentConfig, layout: &Layout) -> Manifest {
        let (git_commit, git_dirty) = git_state();
        Manifest {
            swftool_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit,
            git_dirty,
            command: command.to_string(),
            config: config.clone(),
            layout: layout.clone(),
            log_paths: Vec::new(),
            log_sha256: Vec::new(),
            shard: None,
            sources: Vec::new(),
            cells_total: layout.cell_count(),
            cells_present: 0,
            when: jiff::Timestamp::now().to_string(),
            files: Vec::new(),
        }
    }

    /// Reads `<dir>/manifest.json`; `Ok(None)` when there is none.
    ///
    /// # Errors
    /// An unreadable or unparsable manifest.
    pub fn read(dir: &Path) -> Result<Option<Manifest>, ExperimentError> {
        let path = dir.join("manifest.json");
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            // No manifest, or a path through a file: no output there yet
            // (creating the directory then says what is wrong).
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                ) =>
            {
                return Ok(None);
            }
            Err(e) => return Err(ExperimentError::Io { path, source: e }),
        };
        serde_json::from_str(&text)
            .map(Some)
            .map_err(|source| ExperimentError::Json { path, source })
    }

    /// Writes `<dir>/manifest.json` (pretty JSON), through a temporary file.
    ///
    /// # Errors
    /// An unwritable directory.
    pub fn write(&self, dir: &Path) -> Result<PathBuf, ExperimentError> {
        let path = dir.join("manifest.json");
        let text = serde_json::to_string_pretty(self).map_err(|source| ExperimentError::Json {
            path: path.clone(),
            source,
        })? + "\n";
        crate::atomic::write(&path, text.as_bytes()).map_err(ExperimentError::io(&path))?;
        Ok(path)
    }

    /// Checks that this manifest describes the same grid as `config` and
    /// `layout` (the configuration and the layout, not the time, paths or
    /// shard).
    ///
    /// # Errors
    /// [`ExperimentError::Mismatch`] naming `dir` and what differs.
    pub fn check_same_grid(
        &self,
        dir: &Path,
        config: &ExperimentConfig,
        layout: &Layout,
    ) -> Result<(), ExperimentError> {
        let what = if self.config != *config {
            let keys = differences(&self.config, config);
            if keys.is_empty() {
                Some("the config differs".to_string())
            } else {
                Some(format!("the config differs: {}", keys.join("; ")))
            }
        } else if self.layout != *layout {
            Some("the days, seeds or logs differ".to_string())
        } else {
            None
        };
        match what {
            Some(what) => Err(ExperimentError::Mismatch {
                dir: dir.to_path_buf(),
                what,
            }),
            None => Ok(()),
        }
    }

    /// Checks that `config` and `layout` may run into `dir`, which holds
    /// this manifest's grid: the same grid, or the same grid grown — keys
    /// of `growable` (the common ones: `name`, `logs`, `heuristics`,
    /// `days`, `dates`, `day_arrivals`, `trials`, and the environment's
    /// [`super::Grid::GROWABLE`]) changed, which add or drop cells without
    /// changing what a cell already done means (a cell keeps its id only
    /// when its log, variant, scenario and heuristic are the same, and its
    /// scenario seed is checked). Returns a note when the grid grew.
    ///
    /// # Errors
    /// [`ExperimentError::Mismatch`] naming `dir` and the key that changes
    /// what the cells mean (the seed, θ, a model flag), or a scenario whose
    /// seed differs.
    pub fn check_grid(
        &self,
        dir: &Path,
        config: &ExperimentConfig,
        layout: &Layout,
        growable: &[&str],
    ) -> Result<Option<String>, ExperimentError> {
        if self.config == *config {
            return self.check_same_grid(dir, config, layout).map(|()| None);
        }
        let mismatch = |what: String| ExperimentError::Mismatch {
            dir: dir.to_path_buf(),
            what,
        };
        let changed = differences_all(&self.config, config);
        let grows = |path: &str| {
            let top = path.split(['.', '[']).next().unwrap_or(path);
            COMMON_GROWABLE.contains(&top) || growable.contains(&top)
        };
        if let Some(fixed) = changed
            .iter()
            .find(|c| !grows(c.split(' ').next().unwrap_or(c)))
        {
            return Err(mismatch(format!(
                "{fixed}: this changes what the cells already done mean; run it into another --out"
            )));
        }
        if self.layout.environment != layout.environment {
            return Err(mismatch("the environment differs".into()));
        }
        for log in &layout.logs {
            let Some(old) = self.layout.logs.iter().find(|l| l.key == log.key) else {
                continue;
            };
            for d in &log.days {
                if let Some(o) = old.days.iter().find(|o| o.date == d.date)
                    && o.scenario_seed != d.scenario_seed
                {
                    return Err(mismatch(format!(
                        "log {} day {}: scenario seed {} in the directory, {} now",
                        log.key, d.date, o.scenario_seed, d.scenario_seed
                    )));
                }
            }
        }
        let shown: Vec<String> = changed.iter().take(3).cloned().collect();
        Ok(Some(format!(
            "the grid in {} changed ({}{}); the cells already done that it keeps are reused, the new ones run",
            dir.display(),
            shown.join("; "),
            if changed.len() > 3 { "; …" } else { "" }
        )))
    }
}

/// Keys of every configuration that add or drop cells without changing
/// what a cell already done means ([`Manifest::check_grid`]).
pub const COMMON_GROWABLE: &[&str] = &[
    "name",
    "logs",
    "heuristics",
    "days",
    "dates",
    "day_arrivals",
    "trials",
];

/// Every difference between two configurations, `key = old in the
/// directory, new now`, keys in order.
fn differences_all(there: &ExperimentConfig, now: &ExperimentConfig) -> Vec<String> {
    let (Ok(a), Ok(b)) = (serde_json::to_value(there), serde_json::to_value(now)) else {
        return vec!["the config".to_string()];
    };
    let mut out = Vec::new();
    diff_values("", &a, &b, &mut out);
    out
}
