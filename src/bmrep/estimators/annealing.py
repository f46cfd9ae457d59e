"""One annealing pass, the loop of forward AIS and of RAISE, resumable from a checkpoint.

Neal (2001) for the forward pass, Burda, Grosse & Salakhutdinov (2015) for the
reverse one; :mod:`bmrep.estimators.ais` describes the model interface
(``log_f`` or ``log_f_pair``, ``transition``) and :mod:`bmrep.estimators.reverse_ais`
the reverse chain. A pass of the paper profile can run for hours (Carlson et
al. 2016, Fig. 3's truth bracket: 10^7 steps), longer than a cluster's time
limit; :func:`anneal` can therefore save its state every N steps and resume
from it. The state is everything the loop changes: the accumulated log weights,
the step index, the partial sums and step spreads recorded so far, and the
chains (the model's state object's ``get_state()``: states, cached products
and every random stream). A resumed pass makes exactly the draws and the
arithmetic of the uninterrupted one, so its result is bit-identical; without a
checkpoint nothing is saved or read and the loop is the one it always was.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..progress import track

__all__ = ["anneal"]


def _spread(inc: np.ndarray) -> float:
    """Standard deviation over runs of one step's log-weight increments (0 for a single run)."""
    return float(np.std(inc, ddof=1)) if inc.size > 1 else 0.0


def _default_pair(log_f):
    def pair(state, b0, b1):
        return log_f(state, b0), log_f(state, b1)

    return pair


def _saved(done: int, acc: np.ndarray, state: Any, partial: list | None, step_sd: list | None) -> dict:
    """The pass's state after step ``done`` (arrays and JSON values, for ``checkpoint.save``)."""
    return {
        "acc": acc,
        "chains": state.get_state(),
        # stacked: a list of 10^6 arrays or floats would be 10^6 entries of the checkpoint's tree
        "partial": None if partial is None else np.stack(partial),
        "step_sd": None if step_sd is None else np.asarray(step_sd, dtype=np.float64),
    }


def _restore(saved: dict, state: Any, partial: list | None, step_sd: list | None) -> np.ndarray:
    """Put a :func:`_saved` state back (chains in place, records appended); return the accumulated weights."""
    state.set_state(saved["chains"])
    if partial is not None:
        partial.extend(row.copy() for row in saved["partial"])
    if step_sd is not None:
        # tolist gives back the Python floats (or lists of them, one per block) the loop appended
        step_sd.extend(saved["step_sd"].tolist())
    return saved["acc"]


def anneal(
    betas: np.ndarray,
    state: Any,
    *,
    log_f: Callable | None = None,
    transition: Callable,
    log_f_pair: Callable | None = None,
    transition_first: bool = False,
    partial: list | None = None,
    step_sd: list | None = None,
    checkpoint=None,
) -> tuple[np.ndarray, Any]:
    """Run one annealing pass and return ``(sum_j [log f_{b_j}(x) - log f_{b_{j-1}}(x)], state)``.

    Forward AIS (``transition_first=False``): at step ``j = 1..J`` the
    increment is evaluated at the current state, then (for ``j < J``) the
    state moves by ``transition(state, b_j)``. Reverse annealing
    (``transition_first=True``, used by RAISE with decreasing ``betas``): at
    step ``j`` the state first moves by ``transition(state, b_{j-1})`` and the
    increment ``log f_{b_{j-1}}(x) - log f_{b_j}(x)`` (note the sign) is
    accumulated, i.e. the returned sum is the forward-AIS weight formula
    evaluated along the reversed path (Burda et al. 2015). If ``partial`` is
    a list, the running sum after every step is appended to it; if
    ``step_sd`` is a list, the standard deviation over runs of every step's
    increment is (the input of :func:`bmrep.sampling.ladders.adaptive_betas`).

    ``betas`` (K+1, B) anneals B blocks of runs along their own ladders (see
    :mod:`bmrep.estimators.ais`): the models get each step's betas as an array
    (B,), and ``step_sd`` gets one list of B values per step, each over its
    block's runs only, so a block's spread is the one its own run would have.

    ``checkpoint`` (a :class:`bmrep.learning.checkpoint.Checkpoint`, or anything
    with its ``load()``, ``due(done, total)``, ``save(done, state, what)`` and
    ``log``; None: off) saves the pass every ``checkpoint.every`` steps and,
    when it holds a saved pass, continues after its step (see the module
    docstring). The caller must have built ``state`` as for a fresh pass; it
    needs ``get_state()`` / ``set_state(saved)`` (the RBM and DBM families'
    chains have them). ``partial`` and ``step_sd`` must then come in empty.
    """
    if log_f_pair is None:
        if log_f is None:
            raise ValueError("give log_f or log_f_pair")
        log_f_pair = _default_pair(log_f)
    acc = None
    n_steps = betas.shape[0] - 1
    n_blocks = betas.shape[1] if betas.ndim == 2 else 0
    saved = None if checkpoint is None else checkpoint.load()
    done = 0
    if saved is not None:
        done, body = saved
        acc = _restore(body, state, partial, step_sd)
        checkpoint.log(f"resuming from checkpoint {checkpoint.path} after annealing step {done} of {n_steps}")
    for j in track(range(done + 1, n_steps + 1), "annealing steps"):
        b_prev, b_cur = (betas[k] if n_blocks else float(betas[k]) for k in (j - 1, j))
        if transition_first:
            state = transition(state, b_prev)
            lf_cur, lf_prev = log_f_pair(state, b_cur, b_prev)
            inc = np.asarray(lf_prev, np.float64) - np.asarray(lf_cur, np.float64)
        else:
            lf_prev, lf_cur = log_f_pair(state, b_prev, b_cur)
            inc = np.asarray(lf_cur, np.float64) - np.asarray(lf_prev, np.float64)
            if j < n_steps:
                state = transition(state, b_cur)
        acc = inc.copy() if acc is None else acc + inc
        if step_sd is not None:
            step_sd.append([_spread(x) for x in np.split(inc, n_blocks)] if n_blocks else _spread(inc))
        if partial is not None:
            partial.append(acc.copy())
        if checkpoint is not None and checkpoint.due(j, n_steps):
            checkpoint.save(j, _saved(j, acc, state, partial, step_sd), what="annealing step")
    return acc, state
