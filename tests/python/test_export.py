"""Environment D's schedule as Batsim's jobs.csv is read and drawn by
evalys (JobSet.from_csv, its Gantt chart), with the units swftool gave."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402
from evalys.jobset import JobSet  # noqa: E402

import swftool  # noqa: E402


def test_evalys_reads_and_draws_our_batsim_jobs(tmp_path):
    out = tmp_path / "r"
    r = swftool.replay("kth-sp2", env="classic", heuristic="easy", window_jobs=300, window_start=1000,
                       export="batsim", out=out)
    js = JobSet.from_csv(str(out / "batsim" / "easy" / "jobs.csv"))
    jobs = r["jobs"]
    assert len(js.df) == jobs.height == 300
    # evalys parsed every interval set: as many units as each job asked for.
    assert (js.df["proc_alloc"] == js.df["requested_number_of_resources"]).all()
    assert js.res_bounds.inf >= 0 and js.res_bounds.sup < 100  # KTH-SP2: 100 processors
    starts = dict(zip(js.df["jobID"].astype(int), js.df["starting_time"]))
    for n, s in jobs.select("job_number", "start_s").iter_rows():
        assert starts[n] == s
    js.gantt()
    png = tmp_path / "gantt.png"
    plt.savefig(png)
    assert png.stat().st_size > 10_000
    plt.close("all")
    csv = pl.read_csv(out / "batsim" / "easy" / "jobs.csv")
    assert csv.columns[:4] == ["job_id", "workload_name", "profile", "submission_time"]


def test_export_needs_a_folder_to_keep():
    import pytest

    with pytest.raises(swftool.UsageError, match="export= writes files beside the tables: give out="):
        swftool.replay("kth-sp2", env="classic", heuristic="easy", window_jobs=50, export="batsim")


def _started(jobs: pl.DataFrame) -> pl.DataFrame:
    return jobs.filter(pl.col("start_s").is_not_null())


def test_every_environment_exports_a_schedule_evalys_reads(tmp_path):
    """A (a KTH-SP2 day: nodes across its clusters), B (a synthetic trial:
    cores, preempted tasks as one row) and C (a trial: machines, energy)."""
    cases = [
        ("a", dict(log="kth-sp2", env="parallel", heuristic="easy", day=3)),
        ("b", dict(log=None, env="serial", heuristic="maxupt-preempt-greedy", trial=0)),
        ("c", dict(log=None, env="energy", heuristic="maxupe", trial=0)),
    ]
    for name, kw in cases:
        out = tmp_path / name
        log = kw.pop("log")
        h = kw["heuristic"]
        r = swftool.replay(log, export="batsim", out=out, **kw)
        js = JobSet.from_csv(str(out / "batsim" / h / "jobs.csv"))
        jobs = r["jobs"]
        if name == "a":
            ran = _started(jobs.filter(pl.col("status") != "dropped"))
        elif name == "b":
            ran = jobs.filter(pl.col("pieces") > 0)
        else:
            ran = jobs.filter(pl.col("start_s").is_not_null() & pl.col("machine").is_not_null())
        # One Batsim row per job that ran, with the start the replay gave it
        # (the file holds every digit; evalys's pandas parses to ~1e-9).
        assert len(js.df) == ran.height > 0, name
        starts = dict(zip(js.df["jobID"].astype(int), js.df["starting_time"]))
        for n, s in ran.select("job_number", "start_s").iter_rows():
            assert abs(starts[n] - s) <= 1e-6 * max(1.0, abs(s)), (name, n)
        if name == "a":
            # The Gantt of tens of thousands of B's and C's tasks takes
            # matplotlib minutes; A's day is drawn.
            js.gantt()
            plt.savefig(tmp_path / f"{name}.png")
            plt.close("all")
        elif name == "b":
            # A preempted task is one row on the cores of all its pieces.
            assert (js.df["proc_alloc"] >= 1).all()
            several = ran.filter(pl.col("pieces") > 1).height
            assert several > 0
            assert js.df["metadata"].astype(str).str.startswith("pieces=").sum() == several
        else:
            assert (js.df["proc_alloc"] == 1).all()
    csv = pl.read_csv(tmp_path / "c" / "batsim" / "maxupe" / "jobs.csv")
    assert (csv["consumed_energy"] > 0).all()
