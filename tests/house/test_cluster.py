"""The SLURM path on a real one-node cluster (issue 41): run, killed at its time limit, cancelled, resumed.

Run by ``make cluster-test``, which starts the cluster (``ci/local_slurm.sh``)
and exports its ``SLURM_CONF``; plain ``make test`` deselects these tests
(marker ``cluster``). Without a running cluster they fail: ``make
cluster-test`` is what says SKIPPED where no cluster can be started.

Every run goes through ``--workflow-profile profiles/slurm`` as the README
says, with the status command for clusters without accounting
(``--slurm-status-command squeue``) and the first status check after 5 s
instead of 40 (``--slurm-init-seconds-before-status-checks``, to keep the
tests short), in a copy of the checkout:

- a part of the smoke profile (yokoyama2019 and one training of carlson2016)
  gives the files of the committed smoke manifest;
- a training asking one minute (the profile's block written by
  :func:`bmrep.ops.slurm_resources.slurm_block` for a one-minute cap) is killed by SLURM at
  its time limit, resubmitted by Snakemake, resumes from its checkpoint and
  ends with parameters bit-identical to an uninterrupted local run;
- a training cancelled with ``scancel`` half way leaves no output; the same
  command then resumes it, with the same parameters as an uninterrupted run;
- memory requests hold (issue 65): a job above its ``--mem`` is stopped by the
  cluster (cgroups where the machine has them, else SLURM's polling of the
  job's RSS, ``ci/local_slurm.sh``), the same job below it finishes, and a
  training of the smoke profile through ``profiles/slurm`` with a request too
  small fails there and leaves no output.

The trainings are ``ci/cluster_training.yaml`` (about 2 minutes of work on one
core). On a machine shared with other work, ``BMREP_CLUSTER_UPDATES=<n>`` sets
another number of updates (smaller, so that each one-minute submission still
makes progress).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from bmrep.ops import slurm_resources
from bmrep.ops.records import SMOKE_MANIFEST
from bmrep.ops.result_manifest import file_digest
from conftest import ROOT, SNAKEMAKE, copy_checkout

pytestmark = [pytest.mark.cluster, pytest.mark.workflow]

SLURM = ["--workflow-profile", "profiles/slurm", "--slurm-status-command", "squeue"]
FAST_POLL = ["--slurm-init-seconds-before-status-checks", "5", "--jobs", "2"]
TRAINING_RULE = "carlson2016_train_mnist"
TRAINING_CONFIG = "ci/cluster_training.yaml"


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    """A copy of the checkout; the cluster must be up (its SLURM_CONF exported)."""
    conf = os.environ.get("SLURM_CONF")
    if not conf or not Path(conf).is_file():
        pytest.fail("no SLURM cluster: run `make cluster-test` (it starts one with ci/local_slurm.sh)")
    state = subprocess.run(["sinfo", "-h", "-o", "%T"], capture_output=True, text=True, timeout=30)
    assert state.returncode == 0 and "idle" in state.stdout, state.stdout + state.stderr
    ws = tmp_path_factory.mktemp("cluster") / "checkout"
    copy_checkout(ws)
    updates = os.environ.get("BMREP_CLUSTER_UPDATES")
    if updates:
        cfg = yaml.safe_load((ws / TRAINING_CONFIG).read_text())
        cfg["carlson2016"]["training"]["n_updates"] = int(updates)
        (ws / TRAINING_CONFIG).write_text(yaml.safe_dump(cfg))
    return ws


def _env(ws: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ws / "src"), env.get("PYTHONPATH", "")])
    return env


def _training(ws: Path, results_dir: str, n_hidden: int) -> tuple[list[str], Path]:
    """Target and config options of a cluster-test training (results under ``results_dir``); its output."""
    out = f"{results_dir}/models/carlson2016/mnist_784x{n_hidden}.npz"
    overlay = ws / f"{results_dir.replace('/', '_')}.yaml"
    overlay.write_text(f"results_dir: {results_dir}\nfigures_dir: figures/{results_dir}\n")
    return [out, "--configfile", "config/smoke.yaml", TRAINING_CONFIG, overlay.name], ws / out


def _snakemake(ws: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(
        [SNAKEMAKE, *args], cwd=ws, capture_output=True, text=True, timeout=timeout, env=_env(ws)
    )  # fmt: skip


def _start_local_reference(ws: Path, n_hidden: int) -> tuple[subprocess.Popen, Path]:
    """The same training, uninterrupted, as a local job beside the cluster's (one core each)."""
    args, out = _training(ws, f"results/local{n_hidden}", n_hidden)
    with open(ws / f"local{n_hidden}.log", "w") as log:  # the child keeps its own descriptor
        proc = subprocess.Popen(
            [SNAKEMAKE, "--cores", "1", "--nolock", *args], cwd=ws, stdout=log, stderr=subprocess.STDOUT, env=_env(ws)
        )
    return proc, out


def _finish(proc: subprocess.Popen, ws: Path, n_hidden: int) -> None:
    proc.wait(timeout=900)
    assert proc.returncode == 0, (ws / f"local{n_hidden}.log").read_text()[-3000:]


def _same_parameters(a: Path, b: Path) -> None:
    with np.load(a) as za, np.load(b) as zb:
        assert sorted(za.files) == sorted(zb.files)
        assert za.files, f"{a}: no arrays"
        for k in za.files:
            assert np.array_equal(za[k], zb[k]), f"{a.name}: {k} differs from the uninterrupted run"


def _log_of(ws: Path, results_dir: str, n_hidden: int) -> str:
    return (ws / f"{results_dir}/logs/carlson2016/train_mnist_784x{n_hidden}.log").read_text()


def _manifest() -> dict[str, str]:
    lines = SMOKE_MANIFEST.read_text().splitlines()
    return {name: digest for digest, name in (line.split("  ", 1) for line in lines)}


def test_a_part_of_the_smoke_profile_through_slurm_gives_the_manifests_files(ws):
    training = "results/smoke/models/carlson2016/mnist_784x10.npz"
    proc = _snakemake(ws, *SLURM, *FAST_POLL, "yokoyama2019", training, "--configfile", "config/smoke.yaml")
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    assert re.search(r"Job \d+ has been submitted with SLURM jobid", proc.stderr), "nothing went through SLURM"

    expected = _manifest()
    made = {
        str(p.relative_to(ws / "results/smoke"))
        for p in (ws / "results/smoke").rglob("*")
        if p.is_file() and str(p.relative_to(ws / "results/smoke")) in expected
    }
    assert {"models/carlson2016/mnist_784x10.npz", "yokoyama2019/fig2_kld.csv"} <= made, sorted(made)
    assert len([m for m in made if m.startswith("yokoyama2019/")]) == len(
        [m for m in expected if m.startswith("yokoyama2019/")]
    )
    differ = [m for m in sorted(made) if file_digest(ws / "results/smoke" / m) != expected[m]]
    assert not differ, f"differ from {SMOKE_MANIFEST}: {differ}"


def test_a_training_killed_at_its_time_limit_resumes_over_submissions_bit_identically(ws):
    """A one-minute cap: SLURM kills the training (TIMEOUT), Snakemake resubmits it, it resumes."""
    profile = ws / "profiles/slurm-1min"
    shutil.copytree(ws / "profiles/slurm", profile)
    # what `make costs` writes for a rule estimated at 6 minutes under a partition limit of 1 minute: 7 submissions
    # at most. The training needed 5 on this 2-core machine with nothing else running (2026-11-28: 20 ms an update
    # beside the local reference run, about 3250 updates a one-minute submission), 2-3 where it is faster: the
    # margin keeps the test about resuming, not about the machine's speed
    estimate = pd.DataFrame({"rule": [TRAINING_RULE], "runtime_min": [6.0], "mem_mb": [1000.0]})
    block = slurm_resources.slurm_block(estimate, cap_min=1, checkpointed={TRAINING_RULE})
    (profile / "config.yaml").write_text(slurm_resources.replace_block((profile / "config.yaml").read_text(), block))
    written = yaml.safe_load((profile / "config.yaml").read_text())
    assert written["set-resources"] == {TRAINING_RULE: {"runtime": 1, "mem_mb": 1000}}
    assert written["preemptible-rules"] == [TRAINING_RULE] and written["preemptible-retries"] == 6

    local, reference = _start_local_reference(ws, 500)
    args, out = _training(ws, "results/timelimit", 500)
    slurm = ["--workflow-profile", str(profile.relative_to(ws)), *SLURM[2:], "--slurm-keep-successful-logs"]
    proc = _snakemake(ws, *slurm, *FAST_POLL, *args, timeout=900)
    _finish(local, ws, 500)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-5000:]
    assert "SLURM status is: 'TIMEOUT'" in proc.stderr, "Snakemake saw no job end at its time limit"

    # each submission's SLURM log, in order: one killed while training, the next resuming from its checkpoint
    logs = sorted((ws / f".snakemake/slurm_logs/rule_{TRAINING_RULE}/784x500").glob("*.log"), key=lambda p: int(p.stem))
    subs = [p.read_text() for p in logs]
    done = "trained 784x500"
    killed = [i for i, text in enumerate(subs) if "DUE TO TIME LIMIT" in text and done not in text]
    assert killed, "SLURM never killed the training at its time limit while it trained: the test proved nothing"
    assert killed[0] + 1 < len(subs), "no submission after the killed one"
    resumed = re.search(r"resuming from checkpoint \S+ after update (\d+)", subs[killed[0] + 1])
    assert resumed and int(resumed.group(1)) > 0, subs[killed[0] + 1][-3000:]
    assert done in subs[-1] and "DUE TO TIME LIMIT" not in subs[-1], subs[-1][-3000:]
    assert len(subs) <= 1 + written["preemptible-retries"]
    assert not out.with_name(out.name + ".ckpt.npz").exists()
    _same_parameters(out, reference)


def test_a_cancelled_job_leaves_nothing_used_and_the_same_command_finishes(ws):
    """``scancel`` half way through a training; the same command resumes it; nothing half-written is used."""
    local, reference = _start_local_reference(ws, 100)
    args, out = _training(ws, "results/scancel", 100)
    command = [SNAKEMAKE, *SLURM, *FAST_POLL, *args]
    checkpoint = out.with_name(out.name + ".ckpt.npz")
    with open(ws / "scancel_first.log", "w") as log:
        first = subprocess.Popen(command, cwd=ws, stdout=log, stderr=subprocess.STDOUT, env=_env(ws))
        deadline = time.time() + 600
        while first.poll() is None and time.time() < deadline and not checkpoint.exists():
            time.sleep(0.5)
        assert first.poll() is None and checkpoint.exists(), "the training ended before it could be cancelled"
        jobs = subprocess.run(
            ["squeue", "-h", "-t", "running", "-o", "%i %k"], capture_output=True, text=True, check=True
        ).stdout.split("\n")
        ids = [line.split()[0] for line in jobs if f"rule_{TRAINING_RULE}" in line]
        assert len(ids) == 1, jobs
        subprocess.run(["scancel", ids[0]], check=True)
        first.wait(timeout=600)
    first_log = (ws / "scancel_first.log").read_text()
    assert first.returncode != 0 and "CANCELLED" in first_log, first_log[-3000:]
    assert not out.exists(), "the cancelled job's output exists"
    assert checkpoint.exists(), "the cancelled training left no checkpoint to resume from"

    again = _snakemake(ws, *SLURM, *FAST_POLL, *args, timeout=900)
    _finish(local, ws, 100)
    assert again.returncode == 0, (again.stdout + again.stderr)[-5000:]
    assert re.search(r"resuming from checkpoint \S+ after update [1-9]", _log_of(ws, "results/scancel", 100))
    leftovers = [str(p) for p in (ws / "results/scancel").rglob(".*.tmp*")]
    assert not leftovers, f"temporary files of the cancelled job left behind: {leftovers}"
    _same_parameters(out, reference)


# Holds 600 MB (bytes multiplied: every page written) for 3 s, then says so.
HOG = 'import time; b = b"x" * (600 * 2**20); time.sleep(3); print("held", len(b) >> 20, "MB")'


def _job_state(jobid: str) -> str:
    shown = subprocess.run(["scontrol", "show", "job", jobid], capture_output=True, text=True, timeout=30).stdout
    return re.search(r"JobState=(\S+)", shown).group(1)


def test_a_job_above_its_memory_request_is_stopped(tmp_path):
    script = tmp_path / "hog.sh"
    script.write_text(f"#!/bin/sh\nexec {ROOT / '.venv/bin/python'} -c '{HOG}'\n")
    script.chmod(0o755)
    states = {}
    for mem in ("200M", "1500M"):
        out = tmp_path / f"{mem}.out"
        proc = subprocess.run(
            ["sbatch", "--parsable", "--wait", f"--mem={mem}", "-o", str(out), str(script)],
            capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        jobid = proc.stdout.strip().split(";")[0]
        states[mem] = (proc.returncode, _job_state(jobid), out.read_text())
    rc, state, out = states["200M"]
    assert rc != 0 and state in ("OUT_OF_MEMORY", "CANCELLED", "FAILED") and "held" not in out, states
    rc, state, out = states["1500M"]
    assert rc == 0 and state == "COMPLETED" and "held 600 MB" in out, states


def test_a_rule_asking_too_little_memory_fails_on_the_cluster(ws):
    """The smoke profile's training through profiles/slurm with a 100 MB request: stopped, no output left."""
    args, out = _training(ws, "results/oom", 10)
    # the target first: --set-resources, like --configfile, takes every value up to the next option
    proc = _snakemake(ws, *args, *SLURM, *FAST_POLL, "--set-resources", f"{TRAINING_RULE}:mem_mb=100")
    assert proc.returncode != 0, (proc.stdout + proc.stderr)[-3000:]
    submitted = re.findall(r"has been submitted with SLURM jobid (\d+)", proc.stderr)
    assert submitted, (proc.stdout + proc.stderr)[-3000:]
    assert _job_state(submitted[0]) in ("OUT_OF_MEMORY", "CANCELLED", "FAILED")
    assert not out.exists()
