"""The checkpoint file itself (issues 19 and 22): atomic, keyed by the job, kept until its output is.

A torn save leaves the previous checkpoint; a checkpoint of other settings, inputs or code is ignored;
the workflow removes one only beside a kept output; and a real SIGKILL of a training process resumes
bit-identically (``test_sigkilled_training_resumes``). Resuming each training loop exactly is
``tests/learning/test_checkpoint.py``.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from bmrep.learning import checkpoint as ckpt_mod
from bmrep.learning.checkpoint import Checkpoint

ROOT = Path(__file__).resolve().parents[2]


class Killed(Exception):
    """Stands for a kill between two writes."""


# -- the file: atomic, keyed ---------------------------------------------------------
def test_a_kill_during_a_save_leaves_the_previous_checkpoint(tmp_path, monkeypatch):
    ck = Checkpoint(tmp_path / "a.ckpt.npz", 10, "k")
    ck.save(10, {"x": np.arange(3)})

    def torn_savez(fh, **arrays):
        fh.write(b"PK\x03\x04 half an archive")
        raise Killed

    monkeypatch.setattr(ckpt_mod.np, "savez", torn_savez)
    with pytest.raises(Killed):
        ck.save(20, {"x": np.arange(5)})
    monkeypatch.undo()
    done, state = ck.load()
    assert done == 10 and np.array_equal(state["x"], np.arange(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.ckpt.npz"]


def test_a_checkpoint_of_other_settings_or_an_unreadable_one_is_ignored(tmp_path):
    lines = []
    Checkpoint(tmp_path / "b.npz", 10, {"seed": 1}).save(10, {"x": 1})
    assert Checkpoint(tmp_path / "b.npz", 10, {"seed": 2}, log=lines.append).load() is None
    assert "other settings, seed, inputs or code: ignored" in lines[-1]
    assert Checkpoint(tmp_path / "b.npz", 10, {"seed": 1}).load() == (10, {"x": 1})
    (tmp_path / "b.npz").write_bytes(b"garbage")
    assert Checkpoint(tmp_path / "b.npz", 10, {"seed": 1}, log=lines.append).load() is None
    assert "unreadable" in lines[-1]


def test_checkpoints_outlive_the_job_until_its_output_is_kept(tmp_path):
    """remove_accepted deletes a checkpoint beside its written output, and keeps one whose output is missing.

    A job reported failed at its time limit after writing its output loses that output to Snakemake and
    runs again: its checkpoint must still be there (the workflow calls this only when Snakemake ends).
    """
    (tmp_path / "m").mkdir()
    kept = tmp_path / "m" / "a.npz"
    kept.write_bytes(b"output")
    Checkpoint(tmp_path / "m" / ("a.npz" + ckpt_mod.SUFFIX), 10, "k").save(10, {"x": 1})
    failed = Checkpoint(tmp_path / "m" / ("b.npz" + ckpt_mod.SUFFIX), 10, "k")
    failed.save(20, {"x": 2})
    assert ckpt_mod.remove_accepted(tmp_path) == [tmp_path / "m" / ("a.npz" + ckpt_mod.SUFFIX)]
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["a.npz", "b.npz" + ckpt_mod.SUFFIX]
    assert failed.load() == (20, {"x": 2})
    assert ckpt_mod.remove_accepted(tmp_path) == []


def test_the_job_key_holds_params_wildcards_and_input_digests(tmp_path):
    from bmrep.pipeline.runtime import training_checkpoint

    class Named(dict):
        def __iter__(self):
            return iter(self.values())

    (tmp_path / "in.npz").write_bytes(b"input v1")

    def job(seed, every):
        return SimpleNamespace(
            rule="carlson2016_train_mnist",
            config={"checkpoint_every": {"carlson2016_train_mnist": every}},
            output=[str(tmp_path / "out.npz")],
            input=Named(data=str(tmp_path / "in.npz")),
            params=Named(cfg={"n_updates": 10}, seed=seed, repeats=range(3)),
            wildcards=Named(model="784x10"),
        )

    ck = training_checkpoint(job(1, 5))
    assert ck.every == 5 and ck.path == tmp_path / "out.npz.ckpt.npz"
    ck.save(5, {"x": 1})
    assert training_checkpoint(job(1, 7)).load() == (5, {"x": 1})  # the period is no part of the key
    assert training_checkpoint(job(2, 5)).load() is None
    (tmp_path / "in.npz").write_bytes(b"input v2")
    assert training_checkpoint(job(1, 5)).load() is None
    assert training_checkpoint(job(1, 0)).every == 0


# -- a real kill ---------------------------------------------------------------------
KILL_SCRIPT = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    from bmrep.papers.salakhutdinov2010.train import train
    from bmrep.learning.checkpoint import Checkpoint
    from bmrep.models.dbm import DBM

    out, hang = sys.argv[1], sys.argv[2] == "hang"
    cfg = {"batch_size": 10, "train": dict(
        n_updates=120, n_chains=10, n_mean_field=5, lr_numerator=10.0, lr_offset=2000.0, weight_decay=2e-4,
        snapshot_every=10, fpcd_fast_lr=0.005, fpcd_fast_decay=0.95, tt_levels=4, tt_beta_min=0.9, tt_every=10,
        cast_n_betas=5, cast_beta_min=0.9, cast_gamma=10.0, cast_swap_every=20, cast_record_every=10)}
    X = (np.random.default_rng(0).random((60, 16)) < 0.3).astype(np.float32)
    dbm0 = DBM.random(16, 8, 8, np.random.default_rng(1), scale=0.1).astype(np.float32)

    def log(msg):
        print(msg, flush=True)
        if hang and "update 50/" in msg:
            time.sleep(600)  # stays here until killed (10 updates after the checkpoint of update 40)

    ck = Checkpoint(out + ".ckpt.npz", 20, {"cfg": cfg, "seed": 5}, log=log)
    dbm, snaps, info = train("CAST", dbm0, X, cfg, 5, log=log, checkpoint=ck)
    np.savez(out, **dbm.params(), **{"snapshot_" + k: v for k, v in snaps.items()})
    """
)


def _start(script, out, mode, log):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), env.get("PYTHONPATH", "")])
    return subprocess.Popen(
        [sys.executable, str(script), str(out), mode], stdout=log, stderr=subprocess.STDOUT, env=env
    )


def test_sigkilled_training_resumes(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(KILL_SCRIPT)
    out = tmp_path / "CAST.npz"
    first = tmp_path / "first.log"
    with open(first, "w") as log:
        proc = _start(script, out, "hang", log)
        deadline = time.time() + 120
        while time.time() < deadline and "update 50/" not in first.read_text():
            assert proc.poll() is None, first.read_text()
            time.sleep(0.1)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    assert "checkpoint after update 40 saved" in first.read_text()
    assert not out.exists() and Path(str(out) + ".ckpt.npz").exists()

    second = tmp_path / "second.log"
    with open(second, "w") as log:
        assert _start(script, out, "run", log).wait(timeout=120) == 0, second.read_text()
    assert "resuming from checkpoint" in second.read_text() and "after update 40" in second.read_text()
    assert Path(str(out) + ".ckpt.npz").exists()  # until the workflow, at its end, sees the output kept
    assert ckpt_mod.remove_accepted(tmp_path) == [Path(str(out) + ".ckpt.npz")]

    with open(tmp_path / "whole.log", "w") as log:  # an uninterrupted run, same script
        assert _start(script, tmp_path / "whole.npz", "run", log).wait(timeout=120) == 0
    with np.load(out) as a, np.load(tmp_path / "whole.npz") as b:
        assert sorted(a.files) == sorted(b.files)
        for k in a.files:
            assert np.array_equal(a[k], b[k]), k
