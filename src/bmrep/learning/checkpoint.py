"""Checkpoints of long training loops: save every N updates, resume bit-identically.

A training loop that can run for hours (paper profile) hands a
:class:`Checkpoint` everything it needs to continue: parameters, optimiser
state, the update counter, persistent chains and sampler state, minibatch
order and every random stream's state, and the history recorded so far. The
state is a tree of dicts and lists whose leaves are numpy arrays or JSON
values (numbers, strings, None; a numpy bit generator's ``state`` dict is
one). It is written as ONE ``.npz`` file (the arrays, and the rest of the tree
as JSON in one string array) to a temporary name and renamed into place
(:func:`bmrep.io.atomic_path`), so a kill during a save leaves the previous
checkpoint. A rerun of the same job loads it and continues from the update
it was taken after; since every random draw comes from a saved stream, the
result is bit-identical to an uninterrupted run.

The file records the job's *key* (its settings, seed, inputs and code, as the
caller builds it): a checkpoint written under another key is ignored with a
log line, as is an unreadable one, and training starts from update 0. The
job leaves its checkpoint behind: the workflow deletes it when Snakemake ends
and has kept the job's output (:func:`remove_accepted`). A loop inside a loop
(repeats of a training) saves through :meth:`Checkpoint.inner`, which writes the outer loop's progress with the
inner loop's state; :func:`run_resumable` is such an outer loop.
"""

from __future__ import annotations

import json
import logging
import time
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..io import atomic_path

LOG = logging.getLogger("bmrep.checkpoint")
FORMAT = 1
SUFFIX = ".ckpt.npz"  # a job's checkpoint is its first output's path plus this
_TREE = "__tree__"


def canonical_key(key: Any) -> str:
    """The job key as canonical JSON (sorted keys; values JSON cannot hold, e.g. a range, by ``str``)."""
    # the first pass turns keys into strings (mixed key types cannot be sorted)
    return json.dumps(json.loads(json.dumps(key, default=_json_default)), sort_keys=True)


def _json_default(obj: Any) -> Any:
    if isinstance(obj, (np.ndarray, np.generic)):
        return obj.tolist()
    return str(obj)


def _split(obj: Any, arrays: dict[str, np.ndarray]) -> Any:
    """The tree with every array replaced by a reference into ``arrays``."""
    if isinstance(obj, np.ndarray):
        name = f"a{len(arrays)}"
        arrays[name] = obj
        return {"__array__": name}
    if isinstance(obj, Mapping):
        return {str(k): _split(v, arrays) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_split(v, arrays) for v in obj]
    if isinstance(obj, np.generic):
        return obj.item()
    return obj


def _join(obj: Any, arrays: Mapping[str, np.ndarray]) -> Any:
    if isinstance(obj, dict):
        if set(obj) == {"__array__"}:
            return arrays[obj["__array__"]]
        return {k: _join(v, arrays) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_join(v, arrays) for v in obj]
    return obj


class Checkpoint:
    """The saved state of one training loop, in ``path``, every ``every`` updates (0: never).

    Parameters
    ----------
    path : path-like
        The checkpoint file, normally ``<output>.ckpt.npz`` next to the job's output.
    every : int >= 0
        Updates between saves; 0 turns checkpointing off (nothing is read or written).
    key : JSON-like
        What the saved state must have been made under (settings, seed, inputs, code).
    log : callable(str) or None
        Where the resume / ignore / save lines go (default: the ``bmrep.checkpoint`` logger).
    """

    def __init__(self, path, every: int, key: Any, log: Callable[[str], None] | None = None):
        if int(every) < 0:
            raise ValueError(f"checkpoint period must be >= 0 updates, got {every}")
        self.path = Path(path)
        self.every = int(every)
        self.key = canonical_key(key)
        self.log = log or LOG.info
        self._outer: tuple[int, Any] | None = None  # set on an inner loop's checkpoint

    @property
    def enabled(self) -> bool:
        return self.every > 0

    def due(self, done: int, total: int) -> bool:
        """Whether a save is due after update ``done`` of ``total``: every ``every`` updates, never after the last."""
        return self.enabled and 0 < done < total and done % self.every == 0

    def inner(self, outer_done: int, outer_state: Any) -> Checkpoint:
        """A checkpoint of a loop inside this one, at outer position ``outer_done``.

        Its saves write ``outer_state`` (the outer loop's progress, e.g. the
        finished repeats) along with the inner loop's state; its :meth:`load`
        returns an inner state only if it was saved at the same outer position.
        """
        ck = Checkpoint(self.path, self.every, None, self.log)
        ck.key = self.key
        ck._outer = (int(outer_done), outer_state)
        return ck

    # -- file --------------------------------------------------------------
    def _read(self) -> dict | None:
        if not self.enabled or not self.path.exists():
            return None
        try:
            with np.load(self.path, allow_pickle=False) as z:
                arrays = {k: z[k] for k in z.files}
            head = json.loads(str(arrays.pop(_TREE)))
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as err:
            self.log(f"checkpoint {self.path} is unreadable ({err}): ignored, training starts from update 0")
            return None
        if head.get("format") != FORMAT or head.get("key") != self.key:
            self.log(
                f"checkpoint {self.path} was written for other settings, seed, inputs or code: "
                "ignored, training starts from update 0"
            )
            return None
        return _join(head["body"], arrays)

    def _write(self, body: Any) -> None:
        arrays: dict[str, np.ndarray] = {}
        tree = _split(body, arrays)
        head = json.dumps({"format": FORMAT, "key": self.key, "body": tree})
        with atomic_path(self.path) as tmp:
            with open(tmp, "wb") as fh:
                np.savez(fh, **arrays, **{_TREE: np.array(head)})

    # -- the loop's interface ------------------------------------------------
    def load(self) -> tuple[int, Any] | None:
        """``(done, state)`` saved by :meth:`save` under this key, or None (no, foreign or unreadable file)."""
        body = self._read()
        if body is None:
            return None
        if self._outer is not None:
            body = body.get("inner") if body["done"] == self._outer[0] else None
            if body is None:
                return None
        return int(body["done"]), body["state"]

    def save(self, done: int, state: Any, what: str = "update") -> None:
        """Write ``state``, taken after ``what`` (update) ``done``, atomically over the previous checkpoint."""
        if not self.enabled:
            return
        start = time.perf_counter()
        body = {"done": int(done), "state": state}
        if self._outer is not None:
            body = {"done": self._outer[0], "state": self._outer[1], "inner": body}
        self._write(body)
        self.log(f"checkpoint after {what} {done} saved to {self.path} ({time.perf_counter() - start:.2f} s)")


def remove_accepted(root: str | Path) -> list[Path]:
    """Delete every checkpoint under ``root`` whose job's output exists; return them.

    Called by the workflow when Snakemake ends (``onsuccess``, ``onerror``), never inside a job: a job
    that writes its output just at its time limit can still be reported failed (SLURM's state TIMEOUT),
    and Snakemake then deletes that output and submits the job again, which must find its checkpoint
    rather than start over. When Snakemake ends, the outputs of failed jobs are gone, so an output
    beside a checkpoint is one it kept. (Snakemake runs no hooks inside cluster jobs: ``--no-hooks``.)
    """
    removed = []
    for path in sorted(Path(root).rglob("*" + SUFFIX)):
        if path.with_name(path.name[: -len(SUFFIX)]).exists():
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def resume(checkpoint: Checkpoint | None, restore: Callable[[Any], None], what: str = "update") -> int:
    """Restore a loop from its checkpoint: call ``restore(state)`` and return the updates done (0 if none)."""
    saved = None if checkpoint is None else checkpoint.load()
    if saved is None:
        return 0
    done, state = saved
    restore(state)
    checkpoint.log(f"resuming from checkpoint {checkpoint.path} after {what} {done}")
    return done


def save_if_due(checkpoint: Checkpoint | None, done: int, total: int, state: Callable[[], Any]) -> None:
    """``checkpoint.save(done, state())`` if a save is due after update ``done`` of ``total``."""
    if checkpoint is not None and checkpoint.due(done, total):
        checkpoint.save(done, state())


def run_resumable(items: Sequence, run: Callable[[Any, Checkpoint | None], Any], checkpoint: Checkpoint | None):
    """``[run(item, inner_checkpoint) for item in items]``, resumable after every item and inside it.

    The results of the finished items are checkpointed after each one (when
    checkpointing is on); ``run`` gets a checkpoint for its own loop
    (:meth:`Checkpoint.inner`) or None. A result must be a tree of arrays and
    JSON values (a tuple comes back as a list).
    """
    results: list = []
    if checkpoint is not None:
        resume(checkpoint, lambda state: results.extend(state["results"]), what="item")
    for i in range(len(results), len(items)):
        inner = None if checkpoint is None or not checkpoint.enabled else checkpoint.inner(i, {"results": results})
        results.append(run(items[i], inner))
        if checkpoint is not None and checkpoint.enabled and i + 1 < len(items):
            checkpoint.save(i + 1, {"results": results}, what="item")
    return results


def copy_into(arrays: Mapping[str, np.ndarray], saved: Mapping[str, np.ndarray]) -> None:
    """Overwrite named arrays in place with saved values (parameters others hold references to)."""
    for k, a in arrays.items():
        a[...] = saved[k]


def chains_state(chains) -> dict:
    """Copies of a chain set's arrays (its dataclass fields, e.g. a DBM chain set's ``v``, ``h1``, ``h2``)."""
    return {k: a.copy() for k, a in vars(chains).items()}


def set_chains_state(chains, state: Mapping[str, np.ndarray]) -> None:
    """Overwrite a chain set's arrays in place with :func:`chains_state`'s."""
    copy_into(vars(chains), state)


def generator_state(rng: np.random.Generator) -> dict:
    """A numpy Generator's bit-generator state (JSON-able), for a checkpoint."""
    return rng.bit_generator.state


def set_generator_state(rng: np.random.Generator, state: Mapping) -> None:
    """Restore :func:`generator_state` in place (every holder of ``rng`` sees it)."""
    rng.bit_generator.state = dict(state)


__all__ = [
    "Checkpoint",
    "canonical_key",
    "resume",
    "save_if_due",
    "run_resumable",
    "copy_into",
    "chains_state",
    "set_chains_state",
    "generator_state",
    "set_generator_state",
]
