"""Python priority policies in environment D: by submit time they are the
native schedulers job for job on a whole real log; the RLScheduler
baselines give known figures; a policy that raises or answers garbage gets
a PolicyError naming the pass and the job, never a crash."""

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import swftool
from swftool.errors import PolicyError, UsageError
from swftool.policy import PriorityPolicy, Queue, f1, fcfs, sjf, unicep, wfp3


def _without_name(df: pl.DataFrame) -> pl.DataFrame:
    return df.drop("heuristic")


@pytest.mark.parametrize(
    "native, depth", [("fcfs", None), ("easy", 1), ("conservative", "all")]
)
def test_submit_order_is_the_native_scheduler_job_for_job(native, depth):
    r = swftool.replay(
        "kth-sp2", env="classic", heuristic=[native, PriorityPolicy(fcfs, depth, name="mine")]
    )
    assert r.summary["heuristic"].to_list() == [native, "mine"]
    jobs = r.jobs.partition_by("heuristic", as_dict=True)
    assert_frame_equal(_without_name(jobs[(native,)]), _without_name(jobs[("mine",)]))
    s = r.summary
    assert_frame_equal(_without_name(s[0]), _without_name(s[1]))
    assert set(r) == {"jobs", "summary", "clean", "suspensions", "users", "fairness", "series"}
    assert r.suspensions.height == 0
    # The time series of the policy's replay is the native one's, bin by bin.
    series = r.series.partition_by("heuristic", as_dict=True)
    assert series[(native,)].height > 1000
    assert_frame_equal(_without_name(series[(native,)]), _without_name(series[("mine",)]))


def test_the_rlscheduler_baselines_give_their_figures_on_kth():
    got = {}
    for f in [sjf, wfp3, unicep, f1]:
        r = swftool.replay("kth-sp2", env="classic", heuristic=PriorityPolicy(f, 1))
        assert r.summary["heuristic"][0] == f.__name__
        got[f.__name__] = r.summary["bsld_mean"][0]
    easy = swftool.replay("kth-sp2", env="classic", heuristic="easy").summary["bsld_mean"][0]
    # Measured on KTH-SP2 (28,467 cleaned jobs, EASY backfilling): every
    # baseline's mean bounded slowdown (tau 10 s) is below FCFS order's.
    assert got["sjf"] == pytest.approx(65.42418850589556, rel=1e-12)
    assert got["wfp3"] == pytest.approx(67.50071884841638, rel=1e-12)
    assert got["unicep"] == pytest.approx(66.71227704697243, rel=1e-12)
    assert got["f1"] == pytest.approx(70.52304906665998, rel=1e-12)
    assert all(v < easy for v in got.values())


def test_the_queue_a_policy_sees():
    seen = []

    def look(q: Queue):
        assert isinstance(q, Queue)
        assert len(q) == len(q.submit) == len(q.units) > 0
        np.testing.assert_allclose(q.wait, q.now - q.submit)
        assert (q.wait >= 0).all() and (q.requested_time > 0).all()
        assert 0 <= q.free <= q.capacity == 100
        assert not q.submit.flags.writeable
        assert q.submit.dtype == np.float64 and q.units.dtype == np.int64
        seen.append(q.pass_number)
        return q.submit

    swftool.replay("kth-sp2", env="classic", heuristic=PriorityPolicy(look, 1), window_jobs=300)
    assert seen[:3] == sorted(seen[:3]) and len(seen) > 100


def test_classic_flags_reach_the_policy_and_scheduler_flags_are_refused():
    exact = swftool.replay(
        "kth-sp2", env="classic", exact_estimates=True,
        heuristic=["easy", PriorityPolicy(fcfs, 1, name="mine")],
    )
    assert exact.summary["estimates"].to_list() == ["exact", "exact"]
    assert exact.summary["bsld_mean"][0] == exact.summary["bsld_mean"][1]
    with pytest.raises(UsageError, match="--reservation-depth applies to the built-in schedulers"):
        swftool.replay("kth-sp2", env="classic", reservation_depth=3, heuristic=PriorityPolicy(fcfs))
    with pytest.raises(UsageError, match="--seed"):
        swftool.replay("kth-sp2", env="classic", seed=2, heuristic=PriorityPolicy(fcfs))
    with pytest.raises(UsageError, match="environment D"):
        swftool.replay("curie", heuristic=PriorityPolicy(fcfs))
    for bad in [-1, 1.5, "most", True]:
        with pytest.raises(UsageError, match="reservation_depth"):
            PriorityPolicy(fcfs, bad)
    with pytest.raises(UsageError, match="name"):
        PriorityPolicy(fcfs, name="a,b")


def _replay(score):
    return swftool.replay(
        "kth-sp2", env="classic", heuristic=PriorityPolicy(score, 1, name="bad"), window_jobs=200
    )


def test_a_policy_that_raises_is_a_policy_error_with_its_cause():
    def boom(q):
        if q.pass_number == 5:
            raise ValueError("my model is not loaded")
        return q.submit

    with pytest.raises(PolicyError, match=r"pass 5\): ValueError: my model is not loaded") as e:
        _replay(boom)
    assert isinstance(e.value.__cause__, ValueError)


@pytest.mark.parametrize(
    "score, says",
    [
        (lambda q: q.submit[:-1] if len(q) > 1 else [], "scores at the scheduling pass at t = "),
        (lambda q: np.full(len(q), np.nan), "the score NaN"),
        (lambda q: "soon", "returned str, not numbers"),
        (lambda q: np.zeros((len(q), 2)), "shape"),
        (lambda q: None, "returned None, not numbers"),
        (lambda q: [object()] * len(q), "not numbers"),
    ],
)
def test_garbage_scores_are_refused_naming_the_pass(score, says):
    with pytest.raises(PolicyError, match=says):
        _replay(score)


def test_infinite_scores_are_allowed():
    r = _replay(lambda q: np.where(q.units > 8, np.inf, q.submit))
    assert r.summary["jobs"][0] == 200


def test_keyboard_interrupt_in_a_policy_is_raised_as_is():
    def stop(q):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        _replay(stop)
