"""make timeline's split of a run's core-minutes into the jobs' start-up, their work and what no job used."""

from __future__ import annotations

import math

from bmrep.ops import costs, timeline
from bmrep.pipeline import runtime


def _log(path, rule, start, startup, end, cpu, wall, startup_cpu=None):
    """A job log as setup_job writes it: first line at ``start + startup``, resources line at ``end`` (seconds)."""

    def stamp(s):
        return f"2026-01-01 00:{int(s) // 60:02d}:{int(s) % 60:02d},{round((s % 1) * 1000):03d} bmrep.{rule} INFO "

    lines = [stamp(start + startup) + f"rule {rule}, threads 1, outputs ['x']"]
    if startup_cpu is not None:
        lines.append(stamp(start + startup) + runtime.STARTUP_LINE.format(cpu=startup_cpu, wall=startup))
    lines.append(stamp(end) + runtime.RESOURCES_LINE.format(cpu=cpu, wall=wall, rss=100.0))
    path.write_text("\n".join(lines) + "\n")


def test_core_minutes_split_into_startup_work_and_unused(tmp_path):
    # two cores, 120 s from the first start to the last end: 4 core-min available
    _log(tmp_path / "a.log", "p_a", 0.0, 1.5, 60.0, cpu=50.0, wall=60.0, startup_cpu=1.0)
    _log(tmp_path / "b.log", "p_b", 60.0, 2.0, 120.0, cpu=30.0, wall=60.0, startup_cpu=0.5)
    _log(tmp_path / "c.log", "p_c", 10.0, 3.0, 40.0, cpu=3.0, wall=30.0, startup_cpu=2.0)
    jobs = costs.measure_jobs(tmp_path)
    cm = timeline.core_minutes(jobs, cores=2)
    assert math.isclose(cm["available"], 4.0)
    assert math.isclose(cm["startup_wall"], 6.5 / 60) and math.isclose(cm["startup_cpu"], 3.5 / 60)
    assert math.isclose(cm["work_wall"], (150 - 6.5) / 60) and math.isclose(cm["work_cpu"], (83 - 3.5) / 60)
    assert math.isclose(cm["unused"], (240 - 150) / 60) and cm["cpu_measured"]
    text = timeline.startup_report(jobs, cores=2)
    assert "1 jobs under 5 s CPU: 0.1 core-min CPU, of it start-up 0.0" in text  # job c: 3 s, 2 s of it start-up


def test_logs_without_a_startup_line_fall_back_to_the_time_stamps(tmp_path):
    _log(tmp_path / "a.log", "p_a", 0.0, 1.25, 20.0, cpu=10.0, wall=20.0)
    p = timeline.job_phases(costs.measure_jobs(tmp_path))
    assert math.isclose(p["startup_wall_s"].item(), 1.25) and math.isnan(p["startup_cpu_s"].item())
    assert not timeline.core_minutes(p, cores=1)["cpu_measured"]
    assert "wall (no start-up line" in timeline.startup_report(costs.measure_jobs(tmp_path), cores=1)


def test_the_startup_line_is_the_one_timeline_reads():
    line = "2026-01-01 00:00:01,000 bmrep.r INFO " + runtime.STARTUP_LINE.format(cpu=0.5, wall=1.25)
    assert tuple(map(float, timeline.STARTUP.search(line).groups())) == (0.5, 1.25)
