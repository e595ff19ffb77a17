"""The Python package against the real logs and against the command: the
same flags and seed give the same tables; errors arrive as the exceptions
of swftool.errors, naming what the command names."""

import tomllib

import polars as pl
import pytest
from polars.testing import assert_frame_equal

import swftool
from swftool.errors import LogError, LogNotFoundError, SwftoolError, UsageError


# ---------------------------------------------------------------- read_swf


def test_read_swf_gives_the_18_fields_and_the_typed_header():
    log = swftool.read_swf("curie")
    # `swftool info curie`: 312,826 data lines; MaxProcs 93312.
    assert log.jobs.shape == (312_826, 18)
    assert log.jobs.columns[:3] == ["job_number", "submit_time", "wait_time"]
    assert log.jobs.columns[-1] == "think_time"
    assert log.jobs.schema["submit_time"] == pl.Float64
    assert log.jobs.schema["user_id"] == pl.Int64
    assert log.header.max_procs == 93_312
    assert log.header.max_nodes == 5_544
    assert log.header.unix_start_time == 1_296_571_124
    assert log.header.time_zone_string == "Europe/Paris"
    assert log.header.get("maxprocs").raw == "93312"
    assert len(log.header.partitions) == 33
    assert log.sha256 == "b732a04aea71e2f154c8feee580be549d0bba1462bc91ec581944cb3dd6d442d"
    # `info`: 19 jobs of unknown size (requested and allocated both -1).
    unknown = log.jobs.filter(
        pl.col("allocated_processors").is_null() & pl.col("requested_processors").is_null()
    )
    assert unknown.height == 19
    # -1 is never left in: it is null.
    assert log.jobs.select((pl.all() == -1).any()).row(0) == (False,) * 18


def test_unknown_fields_are_null(tmp_path):
    p = tmp_path / "two.swf"
    p.write_text(
        "; MaxProcs: 8\n"
        "1 0 5 100 4 -1 -1 4 200 -1 1 7 2 -1 1 1 -1 -1\n"
        "2 10 -1 50 2 3.5 -1 2 60 -1 0 7 2 -1 1 1 -1 -1\n"
    )
    log = swftool.read_swf(p)
    assert log.jobs["wait_time"].to_list() == [5.0, None]
    assert log.jobs["average_cpu_time"].to_list() == [None, 3.5]
    assert log.jobs["status"].to_list() == [1, 0]
    assert log.header.max_procs == 8


def test_a_bad_line_names_file_and_line_and_lenient_skips_it(tmp_path):
    p = tmp_path / "bad.swf"
    p.write_text("1 0 5 100 4 -1 -1 4 200 -1 1 7 2 -1 1 1 -1 -1\n1 2 3\n")
    with pytest.raises(LogError) as e:
        swftool.read_swf(p)
    assert e.value.line == 2
    assert e.value.file.endswith("bad.swf")
    assert "wrong field count: expected 18, found 3" in str(e.value)
    assert "--lenient" in str(e.value)
    assert isinstance(e.value, ValueError)
    log = swftool.read_swf(p, lenient=True)
    assert log.jobs.height == 1
    assert sum(log.skipped.values()) == 1
    assert log.skipped_examples[0][0] == 2


def test_a_missing_log_is_file_not_found_with_a_suggestion():
    with pytest.raises(LogNotFoundError) as e:
        swftool.read_swf("curei")
    assert "did you mean curie" in str(e.value)
    assert isinstance(e.value, FileNotFoundError)


# -------------------------------------------------------------- heuristics


def test_heuristics_list_every_environment():
    h = swftool.heuristics()
    assert h.columns == ["env", "heuristic", "summary"]
    assert set(h["env"]) == {"parallel", "serial", "energy", "classic"}
    assert "maxvpr-ph" in swftool.heuristics("parallel")["heuristic"].to_list()
    assert "easy" in swftool.heuristics("classic")["heuristic"].to_list()
    with pytest.raises(UsageError, match="unknown environment"):
        swftool.heuristics("clasic")
    envs = {e.name: e for e in swftool.environments()}
    assert envs["energy"].log == "synthetic"
    assert any(name == "smoke" for name, _ in envs["parallel"].presets)


# ------------------------------------------------- replay = the command


def _same_tables(py: swftool.Result, out, names):
    for name in names:
        assert_frame_equal(py[name], pl.read_parquet(out / f"{name}.parquet"))


def test_replay_of_the_main_job_equals_the_command(cli):
    out = cli("replay", "curie", "--heuristic", "maxvpr-ph", "--out", "r")
    r = swftool.replay("curie", heuristic="maxvpr-ph")
    assert r.out is None
    # Curie names its users: the per-user tables come with the replay.
    assert set(r) == {"jobs", "summary", "timing", "series", "users", "fairness"}
    _same_tables(r, out / "r", ["jobs", "summary", "users", "fairness"])
    # The README's figure: 77.67 % of the maximum value bound.
    assert round(r.summary["pct_of_max"][0], 2) == 77.67
    assert r.manifest["config"]["seed"] == 1


def test_replay_flags_take_the_command_names(cli):
    out = cli(
        "replay", "curie", "-H", "easy,maxvpr-ph", "--days", "2", "--seed", "7",
        "--oversubscription", "higher", "--day-arrivals", "any", "--out", "r",
    )
    r = swftool.replay(
        "curie", heuristic=["easy", "maxvpr-ph"], days=2, seed=7,
        oversubscription="higher", day_arrivals="any", threads=1,
    )
    _same_tables(r, out / "r", ["jobs", "summary"])
    assert r.summary.height == 4


def test_replay_classic_serial_and_energy_equal_the_command(cli):
    out = cli("replay", "kth-sp2", "--env", "classic", "-H", "fcfs,easy", "--out", "d")
    d = swftool.replay("kth-sp2", env="classic", heuristic=["fcfs", "easy"])
    _same_tables(d, out / "d", ["jobs", "summary", "clean"])
    out = cli("replay", "--env", "serial", "-H", "maxutil", "--trial", "2", "--out", "b")
    b = swftool.replay(env="serial", heuristic="maxutil", trial=2)
    _same_tables(b, out / "b", ["jobs", "summary"])
    out = cli(
        "replay", "--env", "energy", "-H", "maxupe", "--trial", "0",
        "--tasks-per-day", "2000", "--budget", "none", "--out", "c",
    )
    c = swftool.replay(env="energy", heuristic="maxupe", trial=0, tasks_per_day=2000, budget="none")
    _same_tables(c, out / "c", ["jobs", "summary"])


def test_replay_into_a_folder_keeps_it(tmp_path):
    r = swftool.replay("kth-sp2", env="classic", heuristic="fcfs", out=tmp_path / "o")
    assert r.out == tmp_path / "o"
    assert (tmp_path / "o" / "jobs.csv").exists()
    assert "o" in repr(r) and "jobs" in repr(r)


def test_refusals_are_the_commands():
    with pytest.raises(UsageError, match="--seed"):
        swftool.replay("kth-sp2", env="classic", heuristic="easy", seed=3)
    with pytest.raises(UsageError, match="classic"):
        swftool.replay("curie", heuristic="fcfs")
    with pytest.raises(UsageError, match="did you mean"):
        swftool.replay("curie", heuristic="maxvpr-pj")
    with pytest.raises(UsageError, match="--bogus-flag"):
        swftool.replay("curie", heuristic="easy", bogus_flag=1)
    with pytest.raises(UsageError, match="--oversubscription"):
        swftool.replay("curie", heuristic="easy", oversubscription="huge")
    with pytest.raises(UsageError):
        swftool.replay("curie", heuristic=[])
    with pytest.raises(KeyError, match="the tables"):
        swftool.replay("kth-sp2", env="classic", heuristic="fcfs")["nope"]


# ------------------------------------------------------------- experiment


def test_experiment_preset_and_dict_equal_the_command(cli, swftool_bin, tmp_path):
    out = cli("experiment", "--preset", "smoke-classic", "--out", "g", "-q", "--no-figures")
    py = swftool.experiment("smoke-classic", out=tmp_path / "p", no_figures=True)
    assert py.out == tmp_path / "p"
    # Environment D's grid: one summary row per (log, window, scheduler).
    assert set(py) == {"summary", "paired", "users", "fairness"}
    assert_frame_equal(py.summary, pl.read_parquet(out / "g" / "summary.parquet"))
    # The same grid as a dict (the preset dumped as TOML, read back).
    import subprocess

    text = subprocess.run(
        [str(swftool_bin), "experiment", "--dump-preset", "smoke-classic"],
        check=True, capture_output=True, text=True,
    ).stdout
    as_dict = swftool.experiment(tomllib.loads(text), out=tmp_path / "d", no_figures=True)
    assert_frame_equal(as_dict.summary, py.summary)
    # Rerun into the same folder: every cell is already there.
    again = swftool.experiment("smoke-classic", out=tmp_path / "p", no_figures=True)
    assert_frame_equal(again.summary, py.summary)


def test_a_bad_configuration_names_the_key(tmp_path):
    with pytest.raises(UsageError, match="bogus"):
        swftool.experiment(
            {"name": "x", "environment": "classic", "logs": ["kth-sp2"], "heuristics": ["easy"], "bogus": 1},
            out=tmp_path / "x",
        )
    with pytest.raises(UsageError, match="smoke"):
        swftool.experiment("smokey", out=tmp_path / "y")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "b"\nenvironment = "classic"\nlogs = ["kth-sp2"]\nheuristics = ["easy"]\ndays = 3\n')
    with pytest.raises(UsageError, match="bad.toml"):
        swftool.experiment(bad, out=tmp_path / "z")


def test_errors_share_one_base():
    for cls in (UsageError, LogError, LogNotFoundError):
        assert issubclass(cls, SwftoolError)


def test_read_swf_reads_slurm_accounting(tmp_path):
    """A sacct --parsable2 file is a log too: steps folded, bad values a
    LogError naming the line."""
    text = (
        "JobID|JobIDRaw|User|Partition|Submit|Start|End|Timelimit|ReqCPUS|AllocCPUS|State\n"
        "7|7|ann|batch|2024-03-01T10:00:00|2024-03-01T10:01:00|2024-03-01T10:11:00|00:30:00|4|4|COMPLETED\n"
        "7.batch|7||||2024-03-01T10:01:00|2024-03-01T10:11:00||4|4|COMPLETED\n"
        "8|8|bob|batch|2024-03-01T10:02:00|None|Unknown|00:30:00|2|0|PENDING\n"
    )
    path = tmp_path / "jobs.sacct"
    path.write_text(text)
    log = swftool.read_swf(path)
    assert log.jobs.shape == (1, 18)
    row = log.jobs.row(0, named=True)
    assert (row["job_number"], row["wait_time"], row["run_time"], row["requested_time"]) == (7, 60, 600, 1800)
    bad = tmp_path / "bad.sacct"
    bad.write_text(text.replace("00:30:00|4|4", "half an hour|4|4", 1))
    with pytest.raises(swftool.LogError) as e:
        swftool.read_swf(bad)
    assert e.value.line == 2 and "Timelimit" in str(e.value)


def test_read_swf_agrees_with_polars_read_csv_on_a_whole_log(tmp_path):
    # KTH-SP2 rewritten with one space between fields, read by
    # polars.read_csv with -1 made null: the same frame, cell for cell.
    import gzip

    from conftest import TRACES

    text = gzip.decompress((TRACES / "KTH-SP2-1996-2.1-cln.swf.gz").read_bytes()).decode()
    rows = [" ".join(line.split()) for line in text.splitlines() if line.strip() and not line.startswith(";")]
    plain = tmp_path / "kth.csv"
    plain.write_text("\n".join(rows) + "\n")
    log = swftool.read_swf("kth-sp2")
    schema = dict(log.jobs.schema)
    want = pl.read_csv(plain, separator=" ", has_header=False, new_columns=list(schema), schema=schema)
    want = want.with_columns(pl.when(pl.col(c) != -1).then(pl.col(c)).alias(c) for c in want.columns)
    assert log.jobs.shape == (28_476, 18)
    assert log.jobs.equals(want)


def test_a_log_without_jobs_gives_an_empty_frame_of_the_18_columns(tmp_path):
    p = tmp_path / "empty.swf"
    p.write_text("; MaxProcs: 8\n")
    log = swftool.read_swf(p)
    assert log.jobs.shape == (0, 18)
    assert log.jobs.schema["submit_time"] == pl.Float64
    assert log.jobs.schema["user_id"] == pl.Int64
