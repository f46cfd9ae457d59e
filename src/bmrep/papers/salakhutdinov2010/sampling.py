"""Figure 4 (left, middle) of Salakhutdinov (2010): Gibbs vs adaptive simulated tempering on a trained DBM.

Sample sequences of both samplers, the digit class of every sample (a fixed
logistic-regression classifier, spec section 3; a nearest-class-mean one for
tests) and its switches, and the temperature index of independent adaptive-ST
particles (Algorithm 1).
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.special import expit
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression

from bmrep.models.dbm import DBM
from bmrep.sampling.dbm_gibbs import gibbs_sweep, random_chains
from bmrep.sampling.ladders import linear_betas
from bmrep.sampling.wang_landau import AdaptiveTempering, gamma_schedule

from .common import chain_streams, paper_rng


def logistic_classifier(X: np.ndarray, y: np.ndarray, C: float, max_iter: int):
    """The spec's fixed digit classifier: multinomial logistic regression (scikit-learn, L2 penalty ``1 / C``).

    Trained once on the training images; an lbfgs run that stops at
    ``max_iter`` is used as it is (its test accuracy is what is reported).

    Returns
    -------
    predict : callable (n, D) -> labels
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        model = LogisticRegression(C=float(C), max_iter=int(max_iter)).fit(X, y)
    return model.predict


def count_switches(labels: np.ndarray) -> np.ndarray:
    """Number of label changes along axis 1 (time), per row (chain)."""
    return (np.diff(labels, axis=1) != 0).sum(axis=1)


def sample_sequences(dbm: DBM, cfg_s: dict, classify, seed: int):
    """Gibbs and adaptive-ST (Algorithm 1) sample sequences from a trained DBM.

    Both samplers start from random states, discard ``burn_in`` updates, then
    run ``n_columns * gap`` updates; the image shown for a chain is
    ``P(v | h1)`` of its current state (Gibbs) or of its last beta = 1 state
    (adaptive ST). Class labels are recorded every ``classify_every`` updates.

    Returns dict with ``gibbs_images``, ``ast_images`` (n_chains, n_columns, D),
    ``gibbs_labels``, ``ast_labels`` (n_chains, n_checks), ``k_trace``
    (trajectory of chain 0's temperature index over ``trace_updates``), and
    the switch counts.
    """
    n = int(cfg_s["n_chains"])
    dbm = dbm.astype(np.float32)
    betas = linear_betas(int(cfg_s["n_betas"]), float(cfg_s["beta_min"]))[::-1].copy()  # index 0 is beta = 1
    out = {}
    for name in ("gibbs", "ast"):
        r = paper_rng(seed, "samples", name)
        streams = chain_streams(seed, n, "samples", name)
        ch = random_chains(dbm, n, r)
        st = None
        if name == "ast":
            st = AdaptiveTempering.create(
                betas, n, gamma_schedule(float(cfg_s["gamma"])), [streams.generator(i) for i in range(n)]
            )
        last = ch.copy()
        total = int(cfg_s["burn_in"]) + int(cfg_s["n_columns"]) * int(cfg_s["gap"])
        images, labels, k_trace = [], [], []
        for t in range(1, total + 1):
            b = None if st is None else st.chain_betas().astype(np.float32)
            e = gibbs_sweep(dbm, ch, streams, betas=b)
            if st is not None:
                st.temperature_step(e)
                at1 = np.flatnonzero(st.k == 0)
                last.put(at1, ch.take(at1))
                k_trace.append(int(st.k[0]))
            else:
                last = ch
            if t > cfg_s["burn_in"]:
                s = t - int(cfg_s["burn_in"])
                pv = expit(last.h1 @ dbm.W1.T + dbm.b)
                if s % int(cfg_s["gap"]) == 0:
                    images.append(pv)
                if s % int(cfg_s["classify_every"]) == 0:
                    labels.append(classify(pv))
        out[f"{name}_images"] = np.stack(images, axis=1)
        out[f"{name}_labels"] = np.stack(labels, axis=1)
        if st is not None:
            out["k_trace"] = np.array(k_trace[: int(cfg_s["trace_updates"])])
    out["gibbs_switches"] = count_switches(out["gibbs_labels"])
    out["ast_switches"] = count_switches(out["ast_labels"])
    # the same labels read only at the figure's columns (every ``gap`` updates): a coarser count that
    # ignores a classifier flickering on an ambiguous image between two nearby label checks
    stride = int(cfg_s["gap"]) // int(cfg_s["classify_every"])
    if stride >= 1 and int(cfg_s["gap"]) % int(cfg_s["classify_every"]) == 0:
        for name in ("gibbs", "ast"):
            out[f"{name}_column_switches"] = count_switches(out[f"{name}_labels"][:, stride - 1 :: stride])
    return out


def temperature_trajectories(dbm: DBM, cfg_s: dict, seed: int) -> np.ndarray:
    """Temperature indices of ``n_particles`` independent adaptive-ST particles over ``trace_updates`` updates.

    Each particle starts at beta = 1 from a random state with weights g = 1
    (its own Wang-Landau weights, Algorithm 1); all are swept together.

    Returns
    -------
    k : int array (n_particles, trace_updates)
    """
    dbm = dbm.astype(np.float32)
    n = int(cfg_s["n_particles"])
    streams = chain_streams(seed, n, "temperature")
    ch = random_chains(dbm, n, paper_rng(seed, "temperature"))
    st = AdaptiveTempering.create(
        linear_betas(int(cfg_s["n_betas"]), float(cfg_s["beta_min"]))[::-1].copy(),  # index 0 is beta = 1
        n,
        gamma_schedule(float(cfg_s["gamma"])),
        [streams.generator(i) for i in range(n)],
    )
    ks = []
    for _ in range(int(cfg_s["trace_updates"])):
        e = gibbs_sweep(dbm, ch, streams, betas=st.chain_betas().astype(np.float32))
        st.temperature_step(e)
        ks.append(st.k.copy())
    return np.stack(ks, axis=1)
