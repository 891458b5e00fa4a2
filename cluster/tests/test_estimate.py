"""The estimate on paper (damiera_cluster.estimate) from a hand-made task graph: the work is
every unit's positions over the rate, the critical path the longest chain of dependencies,
and the wall-time bound max(work / cores, critical path). No Ray."""

from damiera_cluster.estimate import estimate

# a (100) <- b (300) <- d (50); a <- c (200) <- d. The longest chain is a, b, d: 450 positions.
GRAPH = ["a\t\t100\n", "b\ta\t300\n", "c\ta\t200\n", "d\tb c\t50\n"]


def test_work_critical_path_and_bounds():
    # 100 positions an hour: 650 positions are 6.5 h of work, the chain 4.5 h.
    lines = estimate(GRAPH, rate=100 / 3600, cores=(1, 2, 8)).splitlines()
    assert lines[0].startswith("units 4, positions 650, work 6.5 core-hours")
    assert lines[1].startswith("critical path 4.5 h; largest unit b: 300 positions, 3.00 h")
    assert lines[2:] == [
        "1 cores: at least 6.5 h",
        "2 cores: at least 4.5 h",
        "8 cores: at least 4.5 h",
    ]


def test_a_unit_listed_before_its_dependency_is_refused():
    import pytest

    with pytest.raises(ValueError, match="unit b depends on a, not listed before it"):
        estimate(["b\ta\t300\n", "a\t\t100\n"], rate=1.0)
