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
