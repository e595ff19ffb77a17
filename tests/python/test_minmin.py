"""Your own value-based heuristic in environment A: Khemka et al.'s Min-Min
loop with a Python objective. The paper's objectives written in Python are
swftool's maxvalue, maxvpr and maxvpr-ph schedule for schedule on real
Curie days; a new objective runs on the same days and checks; an
objective that fails or answers garbage is a PolicyError naming the event
and the candidate."""

import numpy as np
import pytest
from polars.testing import assert_frame_equal

import swftool
from swftool.errors import PolicyError, UsageError
from swftool.policy import Candidates, MinMinPolicy, max_value, max_vpr

DETERMINISTIC = ["job_number", "cluster", "start_s", "completion_s", "value", "status"]


@pytest.mark.parametrize(
    "native, objective, ph",
    [("maxvalue", max_value, False), ("maxvpr", max_vpr, False), ("maxvpr-ph", max_vpr, True)],
)
def test_the_papers_objectives_in_python_are_the_built_in_heuristics(native, objective, ph):
    flags = dict(days=2, seed=3, oversubscription="higher")
    r = swftool.replay(
        "curie", heuristic=[native, MinMinPolicy(objective, place_holders=ph, name="mine")], **flags
    )
    jobs = r.jobs.partition_by("heuristic", as_dict=True)
    cols = [c for c in jobs[(native,)].columns if c != "heuristic"]
    assert_frame_equal(jobs[(native,)].select(cols), jobs[("mine",)].select(cols))
    s = r.summary.partition_by("heuristic", as_dict=True)
    assert_frame_equal(s[(native,)].drop("heuristic"), s[("mine",)].drop("heuristic"))
    assert set(r) == {"jobs", "summary", "timing", "series", "users", "fairness"}
    for table in ["users", "fairness"]:
        t = r[table].partition_by("heuristic", as_dict=True)
        assert_frame_equal(t[(native,)].drop("heuristic"), t[("mine",)].drop("heuristic"))
    assert r.timing.filter(r.timing["heuristic"] == "mine")["mapping_events"].sum() > 1000


def test_the_main_job_in_python():
    r = swftool.replay("curie", heuristic=MinMinPolicy(max_vpr, place_holders=True))
    # The README's figure for maxvpr-ph on 2012-07-09.
    assert round(r.summary["pct_of_max"][0], 2) == 77.67
    assert r.summary["heuristic"][0] == "max_vpr"


def test_what_an_objective_sees_and_a_new_one():
    seen = []

    def earliest_completion(c: Candidates):
        assert len(c) > 0 and (c.value > 0).all()
        np.testing.assert_allclose(c.completion, c.start + c.etc)
        assert (c.start >= c.now).all() and (c.etc > 0).all()
        assert (c.resources >= c.etc * c.cores * (1 - 1e-12)).all()  # NC >= cores
        assert not c.value.flags.writeable and c.counted.dtype == bool
        seen.append(len(c))
        return -c.completion

    r = swftool.replay("curie", heuristic=[MinMinPolicy(earliest_completion), "maxvpr-ph"])
    # Built-in names run first: their rows come first.
    assert r.summary["heuristic"].to_list() == ["maxvpr-ph", "earliest_completion"]
    vpr, mine = r.summary["pct_of_max"].to_list()
    assert round(mine, 2) == 42.03 and round(vpr, 2) == 77.67
    assert len(seen) > 500 and max(seen) >= 9


def test_declining_every_candidate_maps_nothing():
    r = swftool.replay("curie", heuristic=MinMinPolicy(lambda c: np.full(len(c), -np.inf), name="none"))
    assert r.summary["tasks_completed"][0] == 0
    assert r.summary["value_earned"][0] == 0


@pytest.mark.parametrize(
    "objective, says",
    [
        (lambda c: c.value[:-1], "objectives for"),
        (lambda c: np.full(len(c), np.nan), r"the objective of job \d+ on cluster \d+ \(candidate 0\) is NaN"),
        (lambda c: "high", "returned str, not numbers"),
        (lambda c: None, "returned None"),
        (lambda c: c.value.reshape(-1, 1), "shape"),
    ],
)
def test_garbage_objectives_are_refused_naming_the_event(objective, says):
    with pytest.raises(PolicyError, match=says) as e:
        swftool.replay("curie", heuristic=MinMinPolicy(objective, name="bad"))
    assert "2012-07-09: at the mapping event at t = " in str(e.value)


def test_an_objective_that_raises_is_the_cause():
    def boom(c):
        raise RuntimeError("model not trained")

    with pytest.raises(PolicyError, match="RuntimeError: model not trained") as e:
        swftool.replay("curie", heuristic=MinMinPolicy(boom))
    assert isinstance(e.value.__cause__, RuntimeError)


def test_a_min_min_policy_belongs_to_environment_a():
    with pytest.raises(UsageError, match='environment A: give env="parallel"'):
        swftool.replay("kth-sp2", env="classic", heuristic=MinMinPolicy(max_value))
    with pytest.raises(UsageError, match="--reservation-depth"):
        swftool.replay("curie", heuristic=MinMinPolicy(max_value), reservation_depth=1)
