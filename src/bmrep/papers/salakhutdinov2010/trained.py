"""Trained DBMs kept beyond a run: the published model of a training, and a run adopting it instead of training.

A training at the paper's schedule takes 1.5-2.6 core-hours (issue 51's evidence run, spec "salakhutdinov2010
at the paper's schedule"), longer than the machine that made it lives. What a later run needs of it is kept as a
**published model**: the final parameters (W1, W2, b, c1, c2; float32), CAST's tempering records, and the
evaluation of that training (its bound curve over the snapshots and its final log Z and test bound). The
training's own output also holds every snapshot's parameters (about 3.6 MB each, 51 at the schedule): those
are left out, which is what brings the model to about 4 MB.

A run whose config names the published models' directory (``salakhutdinov2010.adopt_dir``) takes them: the
training job's output is rebuilt from the published model, with the final parameters as its only snapshot (what
the ladder check and Figure 4 read), after checking that it was trained with this run's training settings, seed,
pretraining and data, and that its curve was evaluated with this run's curve settings (:data:`CURVE_KEYS`: the
curve needs every snapshot, which only the training's own output holds). Its final evaluation is taken where it
was made with this run's final instrument (:data:`FINAL_KEYS`) and made again from the final parameters where not
(issue 64: the instrument was chosen after the trainings had started). Nothing here reads or writes files.
"""

from __future__ import annotations

import numpy as np

PARAMS = ("W1", "W2", "b", "c1", "c2")
SNAPSHOT = "snapshot_"
# Sidecar keys of a training that a published model keeps (the rest are the writer's provenance)
ADOPTED_FROM = "adopted_from"
# The evaluation settings a published curve was computed with, and those of the final log Z and test bound.
CURVE_KEYS = ("curve_ais", "curve_train_subset", "n_mean_field", "ais_state")
FINAL_KEYS = ("final_ais", "final_replicates", "curve_train_subset", "n_mean_field", "ais_state")
# Sidecar keys a training records only where they differ from the default: absent means this value.
SIDECAR_DEFAULTS = {"training_images": "fixed"}


def evaluation_part(evaluation: dict | None, keys) -> dict:
    """The ``keys`` of an ``evaluation`` block (absent keys left out): what one part of the evaluation depends on."""
    return {k: evaluation[k] for k in keys if evaluation and k in evaluation}


def published_model(arrays: dict, meta: dict, evaluation: dict) -> tuple[dict, dict]:
    """The published model of a training output: its arrays without the snapshots, and its sidecar.

    ``evaluation`` is the config's ``evaluation`` block the curve and final log Z were computed with; it is
    recorded so that an adopting run can check it evaluates alike.
    """
    out = {k: v for k, v in arrays.items() if not k.startswith(SNAPSHOT)}
    missing = [k for k in PARAMS if k not in out]
    if missing:
        raise ValueError(f"a trained DBM must hold {', '.join(PARAMS)}; missing {', '.join(missing)}")
    n = int(np.asarray(arrays[SNAPSHOT + "updates"])[-1]) if SNAPSHOT + "updates" in arrays else None
    sidecar = {k: v for k, v in meta.items() if k != ADOPTED_FROM}
    sidecar.update({"evaluation": evaluation, "final_update": n})
    return out, sidecar


def _differences(name: str, have, want) -> list[str]:
    """One line per key of ``want`` whose value in ``have`` differs (settings compared as JSON would read them)."""
    if isinstance(want, dict) and isinstance(have, dict):
        return [x for k in sorted(set(want) | set(have)) for x in _differences(f"{name}.{k}", have.get(k), want.get(k))]
    if isinstance(want, (list, tuple)) and isinstance(have, (list, tuple)):
        return [] if list(have) == list(want) else [f"{name}: published {have!r}, this run {want!r}"]
    return [] if have == want else [f"{name}: published {have!r}, this run {want!r}"]


def check_adoptable(meta: dict, *, train: dict | None = None, evaluation: dict | None = None, **expected) -> None:
    """Raise ``ValueError`` (one line) where a published model's sidecar differs from what this run would make.

    ``train`` is compared with the sidecar's ``settings``, ``evaluation`` (a part of the block,
    :func:`evaluation_part`) with the same keys of the sidecar's ``evaluation``; every other keyword
    with the sidecar key of its name (``seed``, ``repeat``, ``algorithm``, ``shape``, ``pretrained_sha256``,
    ``training_images``), a key absent from the sidecar read as its :data:`SIDECAR_DEFAULTS` value.
    """
    diffs = []
    if train is not None:
        diffs += _differences("settings", meta.get("settings"), train)
    if evaluation is not None:
        diffs += _differences("evaluation", evaluation_part(meta.get("evaluation"), evaluation), evaluation)
    for key, want in expected.items():
        diffs += _differences(key, meta.get(key, SIDECAR_DEFAULTS.get(key)), want)
    if diffs:
        raise ValueError("the published model differs from this run's: " + "; ".join(diffs))


def adopted_model(arrays: dict, meta: dict, source: str) -> tuple[dict, dict]:
    """A training output rebuilt from a published model: the final parameters as the one snapshot.

    The snapshot's update is the training's last (``final_update``); ``source`` (the published file) is
    recorded in the sidecar as ``adopted_from``.
    """
    n = meta.get("final_update")
    if n is None:
        raise ValueError(f"{source}: the published model does not say its last update (final_update)")
    out = dict(arrays)
    out[SNAPSHOT + "updates"] = np.array([int(n)])
    for k in PARAMS:
        out[SNAPSHOT + k] = np.asarray(arrays[k])[None]
    sidecar = {k: v for k, v in meta.items() if k not in ("evaluation", "final_update")}
    sidecar[ADOPTED_FROM] = str(source)
    return out, sidecar


__all__ = [
    "PARAMS",
    "ADOPTED_FROM",
    "SIDECAR_DEFAULTS",
    "CURVE_KEYS",
    "FINAL_KEYS",
    "evaluation_part",
    "published_model",
    "check_adoptable",
    "adopted_model",
]
