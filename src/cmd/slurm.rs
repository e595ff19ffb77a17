//! `swftool experiment … --slurm DIR`: a grid as a Slurm job array, one
//! array task per shard, and an aggregation job that runs once every task
//! has succeeded (`--dependency=afterok`); with `--submit`, both are
//! submitted with `sbatch`.
//!
//! DIR receives:
//! - `config.toml` — the resolved configuration (a preset or a file, with
//!   `--window`/`--window-start` applied), which every task reads;
//! - `array.sh` — the job array: task i runs `swftool experiment
//!   DIR/config.toml --shard i/N --out OUT/shards/i`;
//! - `aggregate.sh` — `swftool aggregate OUT/shards/0 … OUT/shards/N-1
//!   --out OUT`, which writes the tables, Markdown and figures;
//! - `submit.sh` — submits the two with the dependency (what `--submit`
//!   does), and is how a run is resumed: every shard skips the cells it has
//!   already written, so submitting again runs only what is missing;
//! - `logs/` — each task's output (`shard-<i>.out`, `aggregate.out`).
//!
//! Every script records the swftool version and commit, the command that
//! wrote it and how to resume. Paths are absolute, and every job starts in
//! the directory the scripts were written from (`--chdir`), so relative
//! log paths of a config resolve as they did there; the nodes must see the
//! same file system and the same swftool binary.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

use crate::experiment::ExperimentConfig;
use crate::experiment::manifest::git_state;

/// Default number of array tasks (shards).
pub const DEFAULT_SHARDS: usize = 16;

/// Largest number of array tasks accepted (Slurm's default `MaxArraySize`
/// is 1001, so indices up to 1000).
pub const MAX_SHARDS: usize = 1000;

/// What the job scripts run and ask Slurm for.
#[derive(Debug, Clone, PartialEq)]
pub struct SlurmJob {
    /// Where the scripts, config and logs go (absolute).
    pub dir: PathBuf,
    /// Results: shards in `<out>/shards/<i>`, the aggregate in `<out>`
    /// (absolute).
    pub out: PathBuf,
    /// Array tasks, one shard each (1..=[`MAX_SHARDS`]).
    pub shards: usize,
    /// `#SBATCH --partition`, when given.
    pub partition: Option<String>,
    /// `#SBATCH --time` (Slurm's formats: `MM`, `HH:MM:SS`, `D-HH`…), when
    /// given.
    pub time: Option<String>,
    /// `#SBATCH --cpus-per-task`, and the `--threads` of every task.
    pub cpus_per_task: usize,
    /// Further `#SBATCH` options, verbatim (`--account=p123`, `--mem=4G`).
    pub sbatch_options: Vec<String>,
    /// The swftool binary the jobs run (absolute).
    pub binary: PathBuf,
    /// The directory every job starts in (absolute).
    pub workdir: PathBuf,
    /// Extra arguments of every shard's `swftool experiment` (`--no-check`,
    /// `--progress-every 30`, `--quiet`).
    pub shard_args: Vec<String>,
    /// Extra arguments of `swftool aggregate` (`--no-figures`).
    pub aggregate_args: Vec<String>,
    /// The command line that wrote the scripts, for their header.
    pub command: String,
}

/// The files [`SlurmJob::write`] writes, and what the grid holds.
#[derive(Debug, Clone)]
pub struct Written {
    /// `DIR/array.sh`.
    pub array: PathBuf,
    /// `DIR/aggregate.sh`.
    pub aggregate: PathBuf,
    /// `DIR/submit.sh`.
    pub submit: PathBuf,
}

/// Single-quotes `s` for bash.
fn quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

fn path(p: &Path) -> String {
    quote(&p.display().to_string())
}

/// Checks a `--time` value against Slurm's formats: `M`, `M:S`, `H:M:S`,
/// `D-H`, `D-H:M`, `D-H:M:S`, or `UNLIMITED`/`INFINITE`.
///
/// # Errors
/// A message naming the value and the accepted formats.
pub fn check_time(t: &str) -> anyhow::Result<()> {
    let ok = if t.eq_ignore_ascii_case("unlimited") || t.eq_ignore_ascii_case("infinite") {
        true
    } else {
        let (days, rest) = match t.split_once('-') {
            Some((d, r)) => (Some(d), r),
            None => (None, t),
        };
        let parts: Vec<&str> = rest.split(':').collect();
        let numeric =
            |s: &str| !s.is_empty() && s.len() <= 6 && s.bytes().all(|b| b.is_ascii_digit());
        days.is_none_or(numeric)
            && parts.iter().all(|p| numeric(p))
            && (1..=3).contains(&parts.len())
    };
    if !ok {
        bail!(
            "--time `{t}`: not a Slurm time limit; give MINUTES, MM:SS, HH:MM:SS, DAYS-HH, DAYS-HH:MM or DAYS-HH:MM:SS (e.g. 30, 2:00:00, 1-00)"
        );
    }
    Ok(())
}

impl SlurmJob {
    fn header(&self, config: &ExperimentConfig, what: &str) -> String {
        let (commit, dirty) = git_state();
        let version = match (commit, dirty) {
            (Some(c), Some(true)) => format!(
                "{} (git {c}, uncommitted changes)",
                env!("CARGO_PKG_VERSION")
            ),
            (Some(c), _) => format!("{} (git {c})", env!("CARGO_PKG_VERSION")),
            (None, _) => env!("CARGO_PKG_VERSION").to_string(),
        };
        let mut h = format!(
            "#!/bin/bash\n\
             # {what} of experiment `{name}` (--env {env}).\n\
             # Written by swftool {version}:\n\
             #   {command}\n\
             # Config: {config} (the resolved configuration every task reads).\n\
             # Results: {out} (shards in {out}/shards/<i>).\n\
             # Resume: bash {submit}  -- every shard skips the cells it has written,\n\
             # so submitting again runs only what is missing or failed, then aggregates.\n",
            name = config.name,
            env = config.environment,
            command = self.command,
            config = self.dir.join("config.toml").display(),
            out = self.out.display(),
            submit = self.dir.join("submit.sh").display(),
        );
        h.push_str(&format!("#SBATCH --chdir={}\n", path(&self.workdir)));
        if let Some(p) = &self.partition {
            h.push_str(&format!("#SBATCH --partition={p}\n"));
        }
        if let Some(t) = &self.time {
            h.push_str(&format!("#SBATCH --time={t}\n"));
        }
        h.push_str(&format!("#SBATCH --cpus-per-task={}\n", self.cpus_per_task));
        for o in &self.sbatch_options {
            h.push_str(&format!("#SBATCH {o}\n"));
        }
        h
    }

    /// The job-array script.
    pub fn array_script(&self, config: &ExperimentConfig) -> String {
        let mut s = self.header(config, "Slurm job array, one task per shard,");
        let name = format!("swftool-{}", config.name);
        s.push_str(&format!(
            "#SBATCH --job-name={}\n#SBATCH --array=0-{}\n#SBATCH --output={}\nset -euo pipefail\n",
            quote(&name),
            self.shards - 1,
            path(&self.dir.join("logs").join("shard-%a.out")),
        ));
        let extra: String = self
            .shard_args
            .iter()
            .map(|a| format!(" {}", quote(a)))
            .collect();
        s.push_str(&format!(
            "exec {bin} experiment {config} --shard \"$SLURM_ARRAY_TASK_ID/{n}\" --out {out}/\"$SLURM_ARRAY_TASK_ID\" --threads \"${{SLURM_CPUS_PER_TASK:-1}}\"{extra}\n",
            bin = path(&self.binary),
            config = path(&self.dir.join("config.toml")),
            n = self.shards,
            out = path(&self.out.join("shards")),
        ));
        s
    }

    /// The aggregation script (run after the array).
    pub fn aggregate_script(&self, config: &ExperimentConfig) -> String {
        let mut s = self.header(config, "Slurm aggregation job, after the array,");
        let name = format!("swftool-{}-aggregate", config.name);
        s.push_str(&format!(
            "#SBATCH --job-name={}\n#SBATCH --output={}\nset -euo pipefail\n",
            quote(&name),
            path(&self.dir.join("logs").join("aggregate.out")),
        ));
        let shards: String = (0..self.shards)
            .map(|i| {
                format!(
                    " \\\n  {}",
                    path(&self.out.join("shards").join(i.to_string()))
                )
            })
            .collect();
        let extra: String = self
            .aggregate_args
            .iter()
            .map(|a| format!(" {}", quote(a)))
            .collect();
        s.push_str(&format!(
            "exec {bin} aggregate{shards} \\\n  --out {out} --threads \"${{SLURM_CPUS_PER_TASK:-1}}\"{extra}\n",
            bin = path(&self.binary),
            out = path(&self.out),
        ));
        s
    }

    /// The submission script: the array, then the aggregation after it.
    pub fn submit_script(&self, config: &ExperimentConfig) -> String {
        let mut s = format!(
            "#!/bin/bash\n# Submits experiment `{name}`: the job array ({n} shards), then the aggregation\n\
             # job once every array task has succeeded. Run it again to resume: shards skip\n\
             # the cells they have written. Written by swftool {version}.\n\
             set -euo pipefail\n",
            name = config.name,
            n = self.shards,
            version = env!("CARGO_PKG_VERSION"),
        );
        s.push_str(&format!(
            "array=$(sbatch --parsable {array})\narray=${{array%%;*}}\n\
             aggregate=$(sbatch --parsable --dependency=afterok:\"$array\" {agg})\naggregate=${{aggregate%%;*}}\n\
             echo \"submitted job array $array ({n} tasks) and aggregation job $aggregate (after $array succeeds)\"\n\
             echo \"results: {out}; logs: {logs}\"\n",
            array = path(&self.dir.join("array.sh")),
            agg = path(&self.dir.join("aggregate.sh")),
            n = self.shards,
            out = self.out.display(),
            logs = self.dir.join("logs").display(),
        ));
        s
    }

    /// Writes `config.toml`, the three scripts (executable) and `logs/`
    /// into [`SlurmJob::dir`].
    ///
    /// # Errors
    /// A directory or file that cannot be written; a config that cannot be
    /// written as TOML.
    pub fn write(&self, config: &ExperimentConfig) -> anyhow::Result<Written> {
        let logs = self.dir.join("logs");
        std::fs::create_dir_all(&logs)
            .with_context(|| format!("cannot create {} (--slurm)", logs.display()))?;
        let write = |name: &str, text: String, exec: bool| -> anyhow::Result<PathBuf> {
            let p = self.dir.join(name);
            crate::atomic::write_with(&p, |tmp| std::fs::write(tmp, &text))
                .with_context(|| format!("cannot write {}", p.display()))?;
            if exec {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
                    .with_context(|| format!("cannot make {} executable", p.display()))?;
            }
            Ok(p)
        };
        write(
            "config.toml",
            crate::env::configs::config_toml(config)?,
            false,
        )?;
        Ok(Written {
            array: write("array.sh", self.array_script(config), true)?,
            aggregate: write("aggregate.sh", self.aggregate_script(config), true)?,
            submit: write("submit.sh", self.submit_script(config), true)?,
        })
    }
}

/// The job id in `sbatch --parsable` output (`1234` or `1234;cluster`).
fn parse_job_id(stdout: &str) -> Option<u64> {
    stdout.trim().split(';').next()?.trim().parse().ok()
}

fn sbatch(args: &[&str]) -> anyhow::Result<u64> {
    let out = Command::new("sbatch")
        .args(args)
        .output()
        .with_context(|| "cannot run `sbatch` (--submit needs Slurm's sbatch on the PATH; without --submit the scripts are only written)")?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        bail!(
            "`sbatch {}` failed ({}): {}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    parse_job_id(&stdout).with_context(|| {
        format!(
            "`sbatch {}` printed no job id: `{}`",
            args.join(" "),
            stdout.trim()
        )
    })
}

/// Submits the array, then the aggregation job depending on it; returns
/// both job ids.
///
/// # Errors
/// `sbatch` missing or refusing a script (its message is given).
pub fn submit(written: &Written) -> anyhow::Result<(u64, u64)> {
    let array = sbatch(&["--parsable", &written.array.display().to_string()])?;
    let dep = format!("--dependency=afterok:{array}");
    let aggregate = sbatch(&["--parsable", &dep, &written.aggregate.display().to_string()])?;
    Ok((array, aggregate))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job() -> SlurmJob {
        SlurmJob {
            dir: PathBuf::from("/scratch/me/slurm"),
            out: PathBuf::from("/scratch/me/results/grid"),
            shards: 4,
            partition: Some("short".to_string()),
            time: Some("1:00:00".to_string()),
            cpus_per_task: 2,
            sbatch_options: vec!["--account=p123".to_string()],
            binary: PathBuf::from("/opt/swftool/bin/swftool"),
            workdir: PathBuf::from("/home/me/work dir"),
            shard_args: vec!["--no-check".to_string()],
            aggregate_args: vec!["--no-figures".to_string()],
            command: "swftool experiment --preset smoke --slurm slurm".to_string(),
        }
    }

    #[test]
    fn the_array_runs_one_shard_per_task_into_its_own_directory() {
        let config = crate::env::configs::preset("smoke").unwrap();
        let s = job().array_script(&config);
        assert!(s.starts_with("#!/bin/bash\n"), "{s}");
        for line in [
            "#SBATCH --array=0-3\n",
            "#SBATCH --partition=short\n",
            "#SBATCH --time=1:00:00\n",
            "#SBATCH --cpus-per-task=2\n",
            "#SBATCH --account=p123\n",
            "#SBATCH --chdir='/home/me/work dir'\n",
            "#SBATCH --output=/scratch/me/slurm/logs/shard-%a.out\n",
            "exec /opt/swftool/bin/swftool experiment /scratch/me/slurm/config.toml --shard \"$SLURM_ARRAY_TASK_ID/4\" --out /scratch/me/results/grid/shards/\"$SLURM_ARRAY_TASK_ID\" --threads \"${SLURM_CPUS_PER_TASK:-1}\" --no-check\n",
        ] {
            assert!(s.contains(line), "missing {line:?} in\n{s}");
        }
        assert!(
            s.contains(concat!("swftool ", env!("CARGO_PKG_VERSION"))),
            "{s}"
        );
        assert!(
            s.contains("# Resume: bash /scratch/me/slurm/submit.sh"),
            "{s}"
        );
    }

    #[test]
    fn the_aggregation_names_every_shard_directory() {
        let config = crate::env::configs::preset("smoke").unwrap();
        let s = job().aggregate_script(&config);
        for i in 0..4 {
            assert!(
                s.contains(&format!("  /scratch/me/results/grid/shards/{i}")),
                "{s}"
            );
        }
        assert!(!s.contains("shards/4"), "{s}");
        assert!(
            s.contains("--out /scratch/me/results/grid --threads"),
            "{s}"
        );
        assert!(s.trim_end().ends_with("--no-figures"), "{s}");
        let submit = job().submit_script(&config);
        assert!(
            submit.contains("--dependency=afterok:\"$array\""),
            "{submit}"
        );
    }

    #[test]
    fn slurm_time_limits_are_checked() {
        for ok in ["30", "2:00:00", "1-00", "1-12:30", "0-0:5:0", "UNLIMITED"] {
            check_time(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
        for bad in ["", "1h", "1:2:3:4", "-5", "1-", "12:", "a-1"] {
            let e = check_time(bad).unwrap_err().to_string();
            assert!(e.contains("--time"), "{bad}: {e}");
        }
    }

    #[test]
    fn job_ids_are_read_from_parsable_output() {
        assert_eq!(parse_job_id("1234\n"), Some(1234));
        assert_eq!(parse_job_id("77;cluster\n"), Some(77));
        assert_eq!(parse_job_id("Submitted batch job 5"), None);
    }

    #[test]
    fn arguments_with_spaces_or_quotes_are_quoted() {
        assert_eq!(quote("plain/path-1.toml"), "plain/path-1.toml");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("it's"), "'it'\\''s'");
        assert_eq!(quote(""), "''");
    }
}
