"""Everyday use (issue 22): the workflow profile, one-line config errors, file modes, checked caches, progress.

Each test reproduces one failure found on main at 53f7361 (the issue's list)
and shows it fixed; the kill-and-resume test is ``tests/house/test_resume.py``.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

from bmrep import io
from bmrep.pipeline.cli import check_args, dotted_override, repeated_config_file_options
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.progress import track
from conftest import ROOT, run_snakemake


def _bmrep_run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "bmrep.pipeline.cli", *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )


def _one_line(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2, proc.stdout + proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


# 1. The workflow profile (rerun-incomplete, keep-going) is loaded by a plain `snakemake`.
@pytest.mark.workflow
@pytest.mark.checkout
def test_plain_snakemake_loads_the_workflow_profile():
    proc = run_snakemake("saul1996", "-n", "-q", timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "workflow specific profile profiles/default" in proc.stderr


# 2. Config errors are one line naming the file, the YAML line or the key.
def test_missing_config_file_is_one_line():
    line = _one_line(_bmrep_run("-n", "all", "--configfile", "config/nope.yaml"))
    assert line.startswith("bmrep-run: config file not found: config/nope.yaml")
    assert "config/smoke.yaml" in line  # the profiles that do exist


def test_target_after_configfile_is_explained():
    line = _one_line(_bmrep_run("-n", "--configfile", "config/smoke.yaml", "all"))
    assert "config file not found: all" in line and "put targets first" in line


def test_yaml_syntax_error_names_file_and_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("seed: 1\nsaul1996:\n  classifier: [1, 2\n  fig2: {}\n")
    line = _one_line(_bmrep_run("-n", "all", "--configfile", str(bad)))
    assert line.startswith(f"bmrep-run: {bad}:") and "YAML syntax error" in line
    assert f"{bad}:4:" in line  # the line where the unclosed list breaks


def test_config_file_that_is_not_a_mapping(tmp_path):
    bad = tmp_path / "list.yaml"
    bad.write_text("- 1\n- 2\n")
    assert "must be a mapping" in _one_line(_bmrep_run("-n", "all", "--configfile", str(bad)))


def test_repeated_configfile_options_are_merged_in_order():
    argv = check_args(["--cores", "1", "all", "--configfile", "config/smoke.yaml", "--configfile=config/paper.yaml"])
    assert argv == ["--cores", "1", "all", "--configfile", "config/smoke.yaml", "config/paper.yaml"]
    assert repeated_config_file_options(["--configfile", "a.yaml", "--configfile", "b.yaml"]).startswith(
        "--configfile given 2 times"
    )
    assert repeated_config_file_options(["--configfile", "a.yaml", "b.yaml"]) is None


@pytest.mark.workflow
@pytest.mark.checkout
def test_plain_snakemake_refuses_repeated_configfile_options():
    proc = run_snakemake("-n", "all", "--configfile", "config/smoke.yaml", "--configfile", "config/paper.yaml")
    assert proc.returncode != 0
    assert "--configfile given 2 times: Snakemake keeps only the last one" in proc.stderr + proc.stdout


def test_dotted_config_key_becomes_a_config_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert dotted_override("seed=3") is None
    assert dotted_override("saul1996.classifier.n_splits=3") == {"saul1996": {"classifier": {"n_splits": 3}}}
    argv = check_args(["all", "--config", "seed=3", "a.b=1", "a.c=x"])
    assert argv[:4] == ["all", "--config", "seed=3", "--configfile"]
    assert yaml.safe_load(Path(argv[4]).read_text()) == {"a": {"b": 1, "c": "x"}}
    with pytest.raises(ValueError, match="not a key or dotted key path"):
        dotted_override("saul1996..x=3")
    with pytest.raises(ValueError, match="expected key=value"):
        dotted_override("saul1996")


@pytest.mark.workflow
@pytest.mark.checkout
def test_nested_config_value_reaches_the_schema_check():
    proc = _bmrep_run("saul1996", "-n", "-q", "--config", "saul1996.classifier.n_splits=0")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-2000:]
    assert "invalid config: saul1996.classifier.n_splits: 0 is less than the minimum of 1" in proc.stderr + proc.stdout


# 3. Files get the user's umask, not mkstemp's 0600; no orphan sidecar on a failed write.
def test_written_files_follow_the_umask(tmp_path):
    script = (
        "import os, sys; os.umask(0o022); import numpy as np; from bmrep import io; "
        "io.write_text(sys.argv[1] + '/a.txt', 'x'); io.save_npz(sys.argv[1] + '/b.npz', a=np.zeros(2))"
    )
    subprocess.run([sys.executable, "-c", script, str(tmp_path)], check=True)
    for name in ("a.txt", "b.npz", "b.npz.json"):
        assert oct(os.stat(tmp_path / name).st_mode & 0o777) == "0o644", name


@pytest.mark.parametrize(
    "failing", ["numpy.savez_compressed", "bmrep.io.write_json"], ids=["archive-fails", "sidecar-fails"]
)
def test_failed_model_write_leaves_no_file(tmp_path, monkeypatch, failing):
    """A failed archive write leaves no orphan sidecar; a failed sidecar write removes the archive."""

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(failing, full_disk)
    with pytest.raises(OSError, match="No space"):
        io.save_model(tmp_path / "m.npz", {"W": np.eye(2)}, {"seed": 1})
    assert list(tmp_path.iterdir()) == []


# 4. A cached model carries its SHA-256; a corrupted or truncated one is one line saying how to remake it.
def test_corrupted_model_names_the_file_and_the_remake_command(tmp_path):
    path = tmp_path / "results" / "smoke" / "models" / "m.npz"
    io.save_model(path, {"W": np.arange(6.0).reshape(2, 3)}, {"seed": 1})
    assert io.read_json(str(path) + ".json")["sha256"] == io.sha256_of(path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte inside the compressed array
    path.write_bytes(bytes(data))
    with pytest.raises(io.CacheError) as err:
        io.load_model(path)
    msg = str(err.value)
    assert "does not match the SHA-256" in msg and str(path) in msg
    assert f"snakemake --cores 1 {path} --configfile config/smoke.yaml" in msg
    assert err.type.user_facing


def test_truncated_archive_without_sidecar_is_a_cache_error(tmp_path):
    path = tmp_path / "x.npz"
    io.save_npz(path, a=np.arange(100.0))
    io.sidecar_of(path).unlink()
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(io.CacheError, match="not a readable npz archive"):
        io.load_npz(path)
    with pytest.raises(io.CacheError, match="sidecar m.npz.json is missing"):
        (tmp_path / "m.npz").write_bytes(b"")
        io.load_model(tmp_path / "m.npz")


def test_stale_temporary_files_of_a_killed_write_are_removed(tmp_path):
    stale = tmp_path / ".out.csv.abc12_yz.tmp.csv"  # as mkstemp names it
    stale.write_text("half")
    io.write_text(tmp_path / "out.csv", "a\n1\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]


# 6. Progress: a line per tenth of the work with elapsed and remaining time; nested loops stay quiet.
def test_progress_reports_each_tenth_once(caplog, monkeypatch):
    monkeypatch.setenv("BMREP_PROGRESS_AFTER", "0")
    caplog.set_level(logging.INFO, logger="bmrep.progress")
    total = 0
    for i in track(range(25), "updates"):
        for _ in track(range(3), "inner"):
            total += i
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 10 and all(line.startswith("updates: ") for line in lines), lines
    assert lines[0].startswith("updates: 3/25 (12%)") and lines[-1].startswith("updates: 25/25 (100%)")
    assert "elapsed" in lines[-1] and "0:00 left" in lines[-1]
    assert total == 3 * sum(range(25))


def test_progress_is_quiet_for_short_loops_and_reports_long_ones_from_the_threshold(caplog, monkeypatch):
    clock = iter(range(1000))  # each call of the clock advances one second
    monkeypatch.setattr("bmrep.progress.time.monotonic", lambda: float(next(clock)))
    caplog.set_level(logging.INFO, logger="bmrep.progress")
    monkeypatch.setenv("BMREP_PROGRESS_AFTER", "5")
    list(track(range(4), "short"))  # ends before 5 s: no line
    assert not caplog.records
    list(track(range(20), "long"))  # marks every 2 items; the clock reads 1 s more per mark
    lines = [r.getMessage() for r in caplog.records]
    assert lines[0].startswith("long: 10/20 (50%), 0:05 elapsed") and lines[-1].startswith("long: 20/20 (100%)")
    assert len(lines) == 6, lines
    monkeypatch.setenv("BMREP_PROGRESS_AFTER", "soon")
    with pytest.raises(ValueError, match="BMREP_PROGRESS_AFTER"):
        list(track(range(3), "bad"))


# 7. One BLAS thread per job (determinism), documented with how to change it.
def test_jobs_run_one_blas_thread_and_the_readme_says_why():
    script = (
        "from bmrep.pipeline.runtime import limit_threads; limit_threads(1); import numpy, threadpoolctl; "
        "print(max(p['num_threads'] for p in threadpoolctl.threadpool_info()))"
    )
    env = {**os.environ, "OMP_NUM_THREADS": "2", "OPENBLAS_NUM_THREADS": "2"}
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    assert out.stdout.strip() == "1"
    running = (ROOT / "docs" / "running.md").read_text()  # linked from the README
    assert "One BLAS thread per job" in running and "--set-threads" in running
    assert "one BLAS thread" in (ROOT / "README.md").read_text()


# 7b. Freed numpy temporaries stay in the job's process: no page faults for each new one.
_FAULTS = """
import resource, sys, numpy as np
from bmrep.pipeline.runtime import keep_freed_memory
if sys.argv[1] == "keep":
    assert keep_freed_memory()
x = np.ones(1_000_000)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(40):
    y, z, w = x * 2.0, x * 3.0, x * 4.0  # three 8 MB temporaries, as a job's loop makes them
    del y, z, w
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


@pytest.mark.skipif(not keep_freed_memory(), reason="no glibc mallopt here (e.g. macOS, musl)")
def test_kept_memory_spares_the_page_faults_of_each_new_temporary():
    def run(mode):
        return subprocess.run([sys.executable, "-c", _FAULTS, mode], capture_output=True, text=True, check=True)

    faults = {mode: int(run(mode).stdout) for mode in ("default", "keep")}
    # glibc's defaults trim the 24 MB off the heap's top after each round, so every round faults
    # its pages in again (about 20000 faults here; fewer than 40 x 6144 with transparent huge
    # pages); kept, only the first round faults (about 1800).
    assert faults["keep"] * 5 < faults["default"], faults


# 8. The README answers how to resume, run one figure, and run on a cluster.
def test_readme_says_how_to_resume_run_one_figure_and_use_a_cluster():
    readme = (ROOT / "README.md").read_text()
    assert "Interrupted? Run the same command again" in readme
    assert "make run TARGET=figures/" in readme
    assert "--workflow-profile profiles/slurm" in readme and (ROOT / "profiles/slurm/config.yaml").is_file()


# 9. Stale locks of a killed run are cleared, never those of a live run or of another host's run.
def test_stale_locks_are_cleared_only_when_no_live_run_holds_them(tmp_path, capsys):
    import json
    import socket

    from bmrep.pipeline.cli import LOCK_OWNER, clear_stale_locks

    locks = tmp_path / ".snakemake/locks"
    locks.mkdir(parents=True)
    here = socket.gethostname()
    assert not clear_stale_locks(tmp_path)  # no locks: this run records itself as their owner
    assert json.loads((tmp_path / LOCK_OWNER).read_text()) == {"host": here, "pid": os.getpid()}
    lock = locks / "0.output.lock"
    lock.write_text("results/x.csv\n")
    assert not clear_stale_locks(tmp_path) and lock.exists()  # its own locks

    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    (tmp_path / LOCK_OWNER).write_text(json.dumps({"host": here, "pid": gone.pid}))
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "snakemake"], cwd=tmp_path)
    try:
        time.sleep(0.5)
        assert not clear_stale_locks(tmp_path) and lock.exists()  # a live Snakemake process works here
    finally:
        live.kill()
        live.wait()
    assert clear_stale_locks(tmp_path) and not lock.exists()  # the killed run's
    assert "removed the locks of an earlier run that was killed" in capsys.readouterr().err

    lock.write_text("results/x.csv\n")
    (tmp_path / LOCK_OWNER).write_text(json.dumps({"host": "login2.elsewhere", "pid": 1234}))
    assert not clear_stale_locks(tmp_path) and lock.exists()  # another host's: cannot be seen from here
    assert "run on host login2.elsewhere" in capsys.readouterr().err
