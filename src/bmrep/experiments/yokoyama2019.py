"""Experiments of Yokoyama, Katsumata & Yasuda (2019): Figs. 2, 3, 4 and 6.

Pure functions from settings (and the root seed) to arrays and tables; the
workflow scripts only read the config and write the outputs.

Random streams (``bmrep.seeds.rng(root_seed, "yokoyama2019", ...)``):

* Figs. 2/3, experiment ``e`` at excess hidden units ``R``:
  ``("kld", R, e)`` draws the gRBM, its 200 training points (exact sampling
  from the 256-state marginal) and the tRBM's initial couplings, shared by
  every ``s`` (paired design); ``("kld", R, e, "cd", s)`` drives the CD
  Gibbs steps of the tRBM with that ``s``.
* Fig. 6, experiment ``e``: ``("drbm", e)`` draws the training subset, the
  initial couplings and the minibatch order, shared by both ``s``; the noisy
  test set comes from ``("drbm", "noisy_test")``, the same for all experiments.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar

from ..learning.optimizers import Adam, AdaMax
from ..models import drbm
from ..models.exact import multivalued as mv_exact
from ..models import multivalued as mv
from ..seeds import rng

PAPER = "yokoyama2019"


def s_label(s) -> str:
    """``'1'``, ``'2'``, ..., ``'inf'``: a readable key for ``s``."""
    s = mv.check_s(s)
    return "inf" if math.isinf(s) else str(int(s))


def parse_s(value) -> float:
    """Config value (int or the string ``'inf'``) to ``s``."""
    return mv.check_s(math.inf if str(value).lower() in ("inf", "infinity") else value)


# ---------------------------------------------------------------------------
# Figs. 2 and 3: KLD and training log-likelihood during CD learning
# ---------------------------------------------------------------------------


def kld_setup(root_seed: int, R: int, e: int, n_visible: int, n_hidden_gen: int, n_data: int) -> dict:
    """gRBM, its training data and the tRBM's initial couplings for one experiment (section 2.2).

    The data are ``n_data`` exact, independent draws from the gRBM's
    enumerated marginal (the paper uses a Gibbs chain; exact sampling is its
    limit).
    """
    g = rng(root_seed, PAPER, "kld", R, e)
    gen = mv.random_rbm(n_visible, n_hidden_gen, g)
    data = mv_exact.sample_exact(gen, 1, n_data, g)
    m = n_hidden_gen + R
    a = mv.xavier_bound(n_visible, m)
    w0 = g.uniform(-a, a, (n_visible, m))
    return {"gen": gen, "data": data, "W0": w0}


def kld_curves(
    root_seed: int,
    R: int,
    experiments,
    s_values,
    epochs: int,
    lr: float,
    n_visible: int = 8,
    n_hidden_gen: int = 4,
    n_data: int = 200,
    cd_k: int = 1,
    record_every: int = 1,
) -> dict:
    """Exact KLD (eq. 16) and training log-likelihood (eq. 10), both per |V|, per epoch.

    For each experiment index in ``experiments`` and each ``s``, the tRBM
    (``|H| = n_hidden_gen + R``, ``b = c = 0``, Xavier couplings) is trained
    by CD-``cd_k``, full batch, Adam with step ``lr``, for ``epochs`` updates.
    Experiments sharing one ``s`` are trained as one batch of independent
    models (each with its own random stream).

    Both are recorded at epochs ``0, record_every, 2 record_every, ...`` and
    at ``epochs``.

    Returns
    -------
    dict with ``kld`` and ``loglik`` of shape (n_experiments, n_s, n_recorded)
    (column 0 is the initial model), ``epochs`` (the recorded epochs),
    ``experiments`` and ``s`` (inf as ``np.inf``).
    """
    experiments = list(experiments)
    s_values = [parse_s(s) for s in s_values]
    states = mv_exact.all_visible_states(n_visible)
    setups = [kld_setup(root_seed, R, e, n_visible, n_hidden_gen, n_data) for e in experiments]
    log_p_gen = np.stack([mv_exact.log_marginal(st["gen"], 1, states) for st in setups])  # (E, 2^n)
    data = np.stack([st["data"] for st in setups])  # (E, N, n)
    data_idx = mv_exact.state_index(data)  # (E, N)
    n_exp, m = len(experiments), n_hidden_gen + R
    recorded = sorted(set(range(0, epochs + 1, int(record_every))) | {epochs})
    kld = np.empty((n_exp, len(s_values), len(recorded)))
    loglik = np.empty_like(kld)
    rows = np.arange(n_exp)[:, None]

    for si, s in enumerate(s_values):
        params = {
            "b": np.zeros((n_exp, n_visible)),
            "c": np.zeros((n_exp, m)),
            "W": np.stack([st["W0"] for st in setups]),
        }
        gens = [rng(root_seed, PAPER, "kld", R, e, "cd", s_label(s)) for e in experiments]
        opt = Adam(lr)
        col = 0
        for t in range(epochs + 1):
            if t == recorded[col]:
                log_q = mv_exact.log_marginal(params, s, states)  # (E, 2^n)
                kld[:, si, col] = mv.kl_per_unit(log_p_gen, log_q)
                loglik[:, si, col] = log_q[rows, data_idx].mean(1) / n_visible
                col += 1
            if t == epochs:
                break
            opt.step(params, mv.cd_gradient(params, data, s, cd_k, gens))
    return {"kld": kld, "loglik": loglik, "epochs": np.array(recorded), "experiments": np.array(experiments), "s": np.array(s_values)}


def curve_table(arrays: dict, R: int, metric: str) -> pd.DataFrame:
    """Mean and standard error over experiments of ``metric`` per (s, epoch), long format."""
    vals = arrays[metric]
    n = vals.shape[0]
    rows = []
    for si, s in enumerate(arrays["s"]):
        mean = vals[:, si].mean(0)
        sem = vals[:, si].std(0, ddof=1) / math.sqrt(n) if n > 1 else np.full_like(mean, np.nan)
        rows.append(pd.DataFrame({"R": R, "s": s_label(s), "epoch": arrays["epochs"], "mean": mean, "sem": sem, "n_experiments": n}))
    return pd.concat(rows, ignore_index=True)


def merge_shards(shards: list[dict]) -> dict:
    """Concatenate shard outputs of :func:`kld_curves` or :func:`drbm_curves` along experiments.

    ``s``, ``epochs`` and ``R`` are common to all shards and must agree.
    """
    common = ("s", "epochs", "R")
    for key in common:
        if key in shards[0] and any(not np.array_equal(sh[key], shards[0][key]) for sh in shards):
            raise ValueError(f"shards disagree on {key!r}")
    order = np.argsort(np.concatenate([sh["experiments"] for sh in shards]), kind="stable")
    return {k: (shards[0][k] if k in common else np.concatenate([sh[k] for sh in shards])[order]) for k in shards[0]}


# ---------------------------------------------------------------------------
# Fig. 4: the toy model of section 2.3
# ---------------------------------------------------------------------------


def toy_alpha(w, s, n_hidden: int = 2) -> np.ndarray:
    """``alpha_s(w)`` of section 2.3: the model correlation <v1 v2> of eq. (19).

    ``(A - B)/(A + B)`` with ``A = exp(|H| ln phi_s(2w))``, ``B = 2^|H|``, i.e.
    ``tanh(|H| (ln phi_s(2w) - ln 2) / 2)``.
    """
    w = np.asarray(w, dtype=np.float64)
    return np.tanh(0.5 * n_hidden * (mv.log_phi(2.0 * w, s) - math.log(2.0)))


def toy_log_likelihood(w, s, beta: float, n_hidden: int = 2) -> np.ndarray:
    """``l_s(w)`` of eq. (21) for data with ``d1 = d2 = 0`` and correlation ``beta``."""
    a = toy_alpha(w, s, n_hidden)
    return 0.5 * (1 + beta) * np.log((1 + a) / 4) + 0.5 * (1 - beta) * np.log((1 - a) / 4)


def toy_w_star(s, beta: float, n_hidden: int = 2) -> float:
    """``|w*_s|`` solving ``alpha_s(w*) = beta`` (the maximiser of eq. 21)."""
    if not 0 < beta < 1:
        raise ValueError(f"beta must be in (0, 1), got {beta}")
    hi = 1.0
    while toy_alpha(hi, s, n_hidden) < beta:
        hi *= 2.0
    return brentq(lambda w: float(toy_alpha(w, s, n_hidden)) - beta, 0.0, hi, xtol=1e-14, rtol=1e-14)


def toy_table(s_values, beta: float, n_hidden: int, w_max: float, n_points: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Curves of Fig. 4 (alpha_s and l_s on a w grid) and the maximisers.

    The maximiser is found twice, as the root of ``alpha_s(w) = beta`` and by
    maximising eq. (21) numerically; both are reported.
    """
    w = np.linspace(-w_max, w_max, n_points)
    curves, stars = [], []
    for s in map(parse_s, s_values):
        curves.append(pd.DataFrame({"s": s_label(s), "w": w, "alpha": toy_alpha(w, s, n_hidden), "loglik": toy_log_likelihood(w, s, beta, n_hidden)}))
        root = toy_w_star(s, beta, n_hidden)
        opt = minimize_scalar(lambda x: -float(toy_log_likelihood(x, s, beta, n_hidden)), bounds=(0.0, 4 * root), method="bounded", options={"xatol": 1e-12})
        stars.append({"s": s_label(s), "beta": beta, "n_hidden": n_hidden, "w_star": root, "w_star_argmax": opt.x, "loglik_at_w_star": float(toy_log_likelihood(root, s, beta, n_hidden))})
    return pd.concat(curves, ignore_index=True), pd.DataFrame(stars)


# ---------------------------------------------------------------------------
# Fig. 6: discriminative RBM on noisy MNIST
# ---------------------------------------------------------------------------


def noisy_test_set(root_seed: int, x_test_uint8: np.ndarray, sigma: float) -> np.ndarray:
    """The corrupted test inputs of section 3.2 (one fixed draw for all experiments)."""
    return drbm.noisy_images(x_test_uint8, sigma, rng(root_seed, PAPER, "drbm", "noisy_test"))


def drbm_curves(
    root_seed: int,
    experiments,
    s_values,
    x_train_uint8: np.ndarray,
    y_train: np.ndarray,
    x_test: np.ndarray,
    y_test: np.ndarray,
    n_train: int,
    n_hidden: int,
    batch_size: int,
    lr: float,
    epochs: int,
    eval_epochs,
) -> dict:
    """Training and test misclassification of the DRBM (eq. 22) per evaluated epoch.

    Per experiment: a random subset of ``n_train`` training images (/255),
    Xavier couplings and zero biases, minibatches of ``batch_size`` in a
    random order per epoch, AdaMax with step ``lr`` on the exact gradients of
    eqs. (25)-(28). Subset, initial couplings and minibatch order are shared
    by every ``s`` (paired design). ``x_test`` is already scaled (noisy).

    Returns ``train_error``, ``test_error`` of shape (n_experiments, n_s,
    len(eval_epochs)), ``epochs`` and ``experiments``.
    """
    experiments = list(experiments)
    s_values = [parse_s(s) for s in s_values]
    eval_epochs = sorted(set(int(t) for t in eval_epochs))
    if eval_epochs[-1] != epochs or eval_epochs[0] < 0:
        raise ValueError(f"eval_epochs must lie in [0, epochs] and end at epochs={epochs}, got {eval_epochs}")
    n_classes = int(max(y_train.max(), y_test.max())) + 1
    train_err = np.empty((len(experiments), len(s_values), len(eval_epochs)))
    test_err = np.empty_like(train_err)
    n_batches = n_train // batch_size
    for ei, e in enumerate(experiments):
        g = rng(root_seed, PAPER, "drbm", e)
        idx = g.choice(x_train_uint8.shape[0], size=n_train, replace=False)
        x = x_train_uint8[idx].astype(np.float64) / 255.0
        y = y_train[idx].astype(np.int64)
        init = drbm.init_params(x.shape[1], n_hidden, n_classes, g)
        orders = [g.permutation(n_train) for _ in range(epochs)]
        for si, s in enumerate(s_values):
            params = {k: v.copy() for k, v in init.items()}
            opt = AdaMax(lr)
            col = 0
            for t in range(epochs + 1):
                if t == eval_epochs[col]:
                    train_err[ei, si, col] = drbm.error_rate(params, x, y, s)
                    test_err[ei, si, col] = drbm.error_rate(params, x_test, y_test, s)
                    col += 1
                if t == epochs:
                    break
                for bi in range(n_batches):
                    sel = orders[t][bi * batch_size : (bi + 1) * batch_size]
                    opt.step(params, drbm.gradient(params, x[sel], y[sel], s))
    return {"train_error": train_err, "test_error": test_err, "epochs": np.array(eval_epochs), "experiments": np.array(experiments), "s": np.array(s_values)}


def drbm_table(arrays: dict) -> pd.DataFrame:
    """Mean and standard error over experiments of the training and test errors per (s, epoch)."""
    rows = []
    n = arrays["train_error"].shape[0]
    for si, s in enumerate(arrays["s"]):
        for metric in ("train_error", "test_error"):
            v = arrays[metric][:, si]
            sem = v.std(0, ddof=1) / math.sqrt(n) if n > 1 else np.full(v.shape[1], np.nan)
            rows.append(pd.DataFrame({"s": s_label(s), "metric": metric, "epoch": arrays["epochs"], "mean": v.mean(0), "sem": sem, "n_experiments": n}))
    return pd.concat(rows, ignore_index=True)


def eval_epoch_grid(epochs: int, n_points: int) -> list[int]:
    """Roughly log-spaced epochs 0..epochs (always including 0, 1 and ``epochs``)."""
    grid = np.unique(np.round(np.geomspace(1, epochs, max(n_points - 1, 1))).astype(int))
    return sorted({0, *grid.tolist(), epochs})


# ---------------------------------------------------------------------------
# Final-epoch tables and the claims of the replication spec
# ---------------------------------------------------------------------------


def final_epoch_table(arrays: dict, keys: tuple[str, ...], **columns) -> pd.DataFrame:
    """Per-experiment values of ``keys`` at the last recorded epoch, one row per (experiment, s)."""
    rows = []
    for si, s in enumerate(arrays["s"]):
        d = {**columns, "experiment": arrays["experiments"], "s": s_label(s), "epoch": int(arrays["epochs"][-1])}
        d.update({k: arrays[k][:, si, -1] for k in keys})
        rows.append(pd.DataFrame(d))
    return pd.concat(rows, ignore_index=True)


def _paired(final: pd.DataFrame, metric: str, a: str, b: str, **filters) -> tuple[float, float, float, float, int]:
    """Means of ``metric`` at s=a and s=b, and the mean paired difference a-b with its z-score."""
    sub = final
    for k, v in filters.items():
        sub = sub[sub[k] == v]
    wide = sub.pivot(index="experiment", columns="s", values=metric)
    d = wide[a] - wide[b]
    n = len(d)
    se = d.std(ddof=1) / math.sqrt(n) if n > 1 else float("nan")
    z = d.mean() / se if n > 1 and se > 0 else float("nan")
    return float(wide[a].mean()), float(wide[b].mean()), float(d.mean()), float(z), n


def evaluate_claims(kld_final: pd.DataFrame, w_star: pd.DataFrame, drbm_final: pd.DataFrame, cfg: dict, profile: str):
    """The claims of spec section "2. yokoyama2019", computed from the result tables."""
    from ..claims import Claim, check_close, check_less, fmt

    out = []
    kf = kld_final.copy()
    kf["s"] = kf["s"].astype(str)
    s_lab = [s_label(parse_s(s)) for s in cfg["kld"]["s_values"]]
    epoch = int(kf["epoch"].max())
    R = 5 if 5 in set(kf["R"]) else int(kf["R"].max())
    note = f"R = {R}, epoch {epoch} (Adam step {cfg['kld']['adam_lr']})"
    if "1" in s_lab and "inf" in s_lab:
        m1, mi, d, z, n = _paired(kf, "kld", "1", "inf", R=R)
        out.append(Claim(PAPER, "fig2", "final KLD(s=1) > KLD(s=inf) (R=5, paired over experiments)", "KLD(1) > KLD(inf)",
                         f"1 {fmt(m1)} vs inf {fmt(mi)}", "mean over experiments: KLD(1) > KLD(inf)", profile, check_less(mi, m1),
                         f"{note}; mean paired difference {fmt(d)}, z = {fmt(z, 3)}, {n} experiments"))
    means = kf[kf["R"] == R].groupby("s")["kld"].mean()
    seq = [float(means[s]) for s in s_lab]
    mono = all(check_less(seq[i + 1], seq[i]) for i in range(len(seq) - 1))
    out.append(Claim(PAPER, "fig2", "final KLD decreases monotonically in s (1 > 2 > 4 > inf)", "monotone decreasing",
                     fmt(seq), "strictly decreasing means in s order " + str(s_lab), profile, mono,
                     f"{note}; {kf[kf['R'] == R]['experiment'].nunique()} experiments"))
    if "1" in s_lab and "inf" in s_lab:
        m1, mi, d, z, n = _paired(kf, "loglik", "1", "inf", R=R)
        out.append(Claim(PAPER, "fig3", "final training log-likelihood(s=1) > log-likelihood(s=inf) (R=5)", "l(1) > l(inf)",
                         f"1 {fmt(m1)} vs inf {fmt(mi)}", "mean over experiments of l/|V|: l(1) > l(inf)", profile, check_less(mi, m1),
                         f"{note}; mean paired difference {fmt(d)}, z = {fmt(z, 3)}, {n} experiments"))
    toy = cfg["toy"]
    for s, paper_w in zip(toy["s_values"], toy["paper_w_star"]):
        lab = s_label(parse_s(s))
        w = float(w_star.loc[w_star["s"].astype(str) == lab, "w_star"].iloc[0])
        out.append(Claim(PAPER, "fig4", f"|w*_s| for s={lab} (|H|=2, beta={toy['beta']})", f"{paper_w:.4f}", f"{w:.6f}",
                         "equal to 4 decimals (|diff| <= 5e-5)", profile, check_close(w, paper_w, 5e-5),
                         "root of alpha_s(w) = beta; agrees with the numerical argmax of eq. (21)"))
    df = drbm_final.copy()
    df["s"] = df["s"].astype(str)
    ep = int(df["epoch"].max())
    d_lab = [s_label(parse_s(s)) for s in cfg["drbm"]["s_values"]]
    if "1" in d_lab and "inf" in d_lab:
        n_test = cfg["drbm"]["n_test"] or 10000
        dn = f"epoch {ep} (AdaMax step {cfg['drbm']['adamax_lr']}), {df['experiment'].nunique()} experiments, {n_test} noisy test images"
        test_inf, test_1, d, z, n = _paired(df, "test_error", "inf", "1")
        out.append(Claim(PAPER, "fig6", "final test error(s=inf) < test error(s=1)", "inf < 1", f"inf {fmt(test_inf)} vs 1 {fmt(test_1)}",
                         "mean over experiments", profile, check_less(test_inf, test_1), f"{dn}; mean paired difference (inf - 1) {fmt(d)}, z = {fmt(z, 3)}"))
        train_inf, train_1, d, z, n = _paired(df, "train_error", "inf", "1")
        out.append(Claim(PAPER, "fig6", "final training error(s=inf) >= training error(s=1)", "inf >= 1", f"inf {fmt(train_inf)} vs 1 {fmt(train_1)}",
                         "mean over experiments", profile, bool(train_inf >= train_1), f"{dn}; mean paired difference (inf - 1) {fmt(d)}, z = {fmt(z, 3)}"))
    return out
