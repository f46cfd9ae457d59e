"""Class changes of trained RBMs on Artificial Modes under G and T.

Brügge et al. 2013, sec. 4.4/5.4; Tables 3 and 4.
"""

from __future__ import annotations

import numpy as np

from ...datasets.toys import BASIC_MODES, artificial_modes
from ...diagnostics.modes import count_class_changes, nearest_mode_class
from ...models.rbm import RBM
from ...progress import track
from ...sampling.streams import ChainStreams
from ...seeds import rng as keyed_rng
from .common import MODES_P_MUT, PAPER
from .operators import OPERATORS


def class_sequence(rbm: RBM, op, v0: np.ndarray, n_steps: int, streams: ChainStreams, modes=BASIC_MODES) -> np.ndarray:
    """Classes of the visible states, start included: shape (n_steps + 1, n_chains)."""
    v = np.array(v0, dtype=np.float64)
    h = np.zeros((len(v), rbm.n_hidden))
    out = np.empty((int(n_steps) + 1, len(v)), dtype=np.int64)
    out[0] = nearest_mode_class(v, modes)
    for s in range(1, int(n_steps) + 1):
        op.sweep(rbm, v, h, streams)
        out[s] = nearest_mode_class(v, modes)
    return out


def first_change_steps(
    rbm: RBM, op, v0: np.ndarray, max_steps: int, streams: ChainStreams, modes=BASIC_MODES
) -> np.ndarray:
    """Steps until each chain's class first differs from its start class (sec. 4.4).

    NaN for an ambiguous start (discarded), ``inf`` if no change within
    ``max_steps`` (censored). Stops early once every chain has changed.
    """
    v = np.array(v0, dtype=np.float64)
    h = np.zeros((len(v), rbm.n_hidden))
    start = nearest_mode_class(v, modes)
    first = np.full(len(v), np.inf)
    first[start < 0] = np.nan
    open_ = np.isinf(first)
    for s in range(1, int(max_steps) + 1):
        if not open_.any():
            break
        op.sweep(rbm, v, h, streams)
        cls = nearest_mode_class(v, modes)
        hit = open_ & (cls >= 0) & (cls != start)
        first[hit] = s
        open_ &= ~hit
    return first


def class_change_runs(bench_name: str, models: list[RBM], repeats, seed: int, settings: dict) -> dict:
    """Table 3 and Table 4 runs with G and T on trained RBMs (one per repeat) of Artificial Modes.

    settings: ``n_steps`` (chain from all-ones visible units, Table 3),
    ``n_starts`` (starts drawn from the training distribution, Table 4),
    ``max_steps`` (cap for the first change).

    Returns
    -------
    dict of arrays
        Per RBM: repeat, changes_{G,T} (Table 3) and first_{G,T} (Table 4,
        one value per start).
    """
    p_mut = MODES_P_MUT[bench_name]
    out = {"repeat": []}
    for name in OPERATORS:
        out[f"changes_{name}"] = []
        out[f"first_{name}"] = []
    for model, r in track(zip(models, repeats, strict=True), "RBMs sampled", total=len(models)):
        out["repeat"].append(int(r))
        starts, _ = artificial_modes(
            int(settings["n_starts"]), p_mut, keyed_rng(seed, PAPER, "classes_starts", bench_name, int(r))
        )
        for name, op in OPERATORS.items():
            st1 = ChainStreams.from_seed(seed, PAPER, "classes_chain", bench_name, int(r), name, n_chains=1)
            cls = class_sequence(model, op, np.ones((1, model.n_visible)), settings["n_steps"], st1)
            out[f"changes_{name}"].append(int(count_class_changes(cls)[0]))
            stn = ChainStreams.from_seed(seed, PAPER, "classes_first", bench_name, int(r), name, n_chains=len(starts))
            out[f"first_{name}"].append(first_change_steps(model, op, starts, settings["max_steps"], stn))
    return {k: np.asarray(v) for k, v in out.items()}
