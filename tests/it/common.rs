//! Helpers shared by the integration tests: hand-built environment A
//! scenarios and runs that always pass through the invariant checker.
#![allow(dead_code)]

use swftool::env::parallel::check as invariants;
use swftool::env::parallel::{self, RunResult, TaskOutcome, simulate};
use swftool::model::{Cluster, System, Task, ValueFunction};
use swftool::workload::{DayWindow, Scenario, ScenarioParams};

pub use swftool::env::classic::ClassicJob;

/// A classic (environment D) job of `size` processors (= units), user and
/// queue 1: number, submit s, run s, estimate s ([`ClassicJob::example`]).
pub fn classic_job(n: i64, submit: f64, size: u32, run: f64, estimate: f64) -> ClassicJob {
    ClassicJob::example(n, submit, size, run, estimate)
}

/// Classic jobs numbered from 1, one per (gap to the previous submit s,
/// processors, run s, estimate s): the generated workloads' shape.
pub fn classic_jobs(specs: impl IntoIterator<Item = (f64, u32, f64, f64)>) -> Vec<ClassicJob> {
    let mut t = 0.0;
    specs
        .into_iter()
        .enumerate()
        .map(|(k, (gap, size, run, estimate))| {
            t += gap;
            classic_job(k as i64 + 1, t, size, run, estimate)
        })
        .collect()
}

/// Path of the shared real logs.
pub fn traces_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/traces")
}

/// `swftool ARGS` (the binary under test) run from the crate root, with
/// the shared logs as `SWFTOOL_TRACES`.
pub fn swftool_command(args: &[&str]) -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_swftool"));
    c.current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("SWFTOOL_TRACES", traces_dir())
        .args(args);
    c
}

/// `swftool ARGS` (the binary under test) run in `dir`, with the shared
/// logs as `SWFTOOL_TRACES`.
pub fn swftool_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_swftool"))
        .current_dir(dir)
        .env("SWFTOOL_TRACES", traces_dir())
        .args(args)
        .output()
        .expect("swftool runs")
}

/// Bytes of a child's output as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `swftool ARGS` in `dir`, which must succeed; returns its standard
/// output.
pub fn ok(dir: &std::path::Path, args: &[&str]) -> String {
    let out = swftool_in(dir, args);
    assert!(
        out.status.success(),
        "swftool {args:?} failed: {}",
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// Runs `swftool ARGS` in `dir`, which must fail; returns its standard
/// error.
pub fn refused(dir: &std::path::Path, args: &[&str]) -> String {
    let out = swftool_in(dir, args);
    assert!(!out.status.success(), "swftool {args:?} should fail");
    text(&out.stderr)
}

/// A small environment-A grid: KTH-SP2, two heuristics, the
/// oversubscription axis, 2 days (12 cells, well under a second).
pub const SMALL_GRID: &str = r#"
name = "small"
logs = ["kth-sp2"]
heuristics = ["easy", "maxvpr-ph"]
days = 2
seed = 7
axes = ["oversubscription"]
"#;

/// A task spec: (job number, arrival s, cores, ETC row, start value, soft, hard).
#[derive(Debug, Clone)]
pub struct Spec {
    pub job: i64,
    pub arrival: f64,
    pub cores: u32,
    pub etc: Vec<f64>,
    pub value: f64,
    pub soft: f64,
    pub hard: f64,
}

/// A task that keeps its full value for a very long time.
pub fn loose(job: i64, arrival: f64, cores: u32, etc: Vec<f64>, value: f64) -> Spec {
    Spec {
        job,
        arrival,
        cores,
        etc,
        value,
        soft: 1e7,
        hard: 2e7,
    }
}

/// Builds a scenario on `clusters` (nodes, cores per node); every task counted.
pub fn scenario(clusters: &[(u32, u32)], specs: Vec<Spec>) -> Scenario {
    let tasks = specs
        .into_iter()
        .map(|s| Task {
            job_number: s.job,
            arrival: s.arrival,
            cores: s.cores,
            etc: s.etc,
            value: ValueFunction::Linear {
                start_value: s.value,
                final_value: s.value / 2.0,
                soft_deadline: s.soft,
                hard_deadline: s.hard,
            },
            counted: true,
            owner: swftool::model::Owner::UNKNOWN,
        })
        .collect();
    Scenario {
        day: DayWindow {
            date: "hand-built".into(),
            start: 0.0,
            jobs: 0,
            arrivals: 0,
            wide: 0,
        },
        seed: 0,
        system: System {
            clusters: clusters
                .iter()
                .map(|&(nodes, cores_per_node)| Cluster {
                    cores_per_node,
                    nodes,
                })
                .collect(),
        },
        target_cores: 0.0,
        drawn_cores: 0,
        tasks,
        params: ScenarioParams::default(),
    }
}

/// Runs heuristic `name` on `sc` and asserts every schedule invariant.
pub fn run(sc: &Scenario, name: &str) -> RunResult {
    let h = parallel::HEURISTICS.get(name).expect("known heuristic");
    let mut heuristic = h.build(sc);
    let r = simulate(sc, heuristic.as_mut());
    let v = invariants::check(sc, &r);
    assert!(v.is_empty(), "{name}: invariant violations: {v:#?}");
    r
}

/// The outcome of the task with job number `job`.
pub fn outcome<'a>(sc: &Scenario, r: &'a RunResult, job: i64) -> &'a TaskOutcome {
    let i = sc
        .tasks
        .iter()
        .position(|t| t.job_number == job)
        .expect("job in scenario");
    &r.outcomes[i]
}

/// Start time of job `job` (panics if it never started).
pub fn start(sc: &Scenario, r: &RunResult, job: i64) -> f64 {
    outcome(sc, r, job)
        .start
        .unwrap_or_else(|| panic!("job {job} never started"))
}

/// A real log (file name under the shared traces), its cleaned jobs and
/// its machine's capacity, with the default classic flags.
pub fn cleaned(
    file: &str,
) -> (
    swftool::swf::SwfLog,
    Vec<swftool::env::classic::ClassicJob>,
    u32,
) {
    use swftool::env::classic::{self, params::ClassicArgs};
    use swftool::swf::{ReadOptions, read_log};
    let log = read_log(&traces_dir().join(file), &ReadOptions::strict()).unwrap();
    let args = ClassicArgs::default();
    let machine = args.machine(&log).unwrap();
    let jobs = classic::clean::clean(&log.jobs, &machine, &args.clean_options()).0;
    (log, jobs, machine.capacity)
}

/// A table an output directory holds, read back from its Parquet file.
pub fn parquet(dir: &std::path::Path, name: &str) -> polars::prelude::DataFrame {
    use polars_io::SerReader;
    let f = std::fs::File::open(dir.join(format!("{name}.parquet"))).unwrap();
    polars_io::prelude::ParquetReader::new(f).finish().unwrap()
}

/// Column `c` of `df` as floats (null as NaN).
pub fn f64s(df: &polars::prelude::DataFrame, c: &str) -> Vec<f64> {
    df.column(c)
        .unwrap()
        .cast(&polars::prelude::DataType::Float64)
        .unwrap()
        .f64()
        .unwrap()
        .iter()
        .map(|x| x.unwrap_or(f64::NAN))
        .collect()
}

/// Column `c` of `df` as text (null as "").
pub fn texts(df: &polars::prelude::DataFrame, c: &str) -> Vec<String> {
    df.column(c)
        .unwrap()
        .cast(&polars::prelude::DataType::String)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|x| x.unwrap_or("").to_string())
        .collect()
}
