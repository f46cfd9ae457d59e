"""Saul, Jaakkola & Jordan (1996): the experiments behind Figures 2 and 5 and Tables 1-3.

Pure functions from settings (and seeded generators) to arrays and tables;
the workflow scripts in ``workflow/scripts/saul1996/`` only read inputs,
call these and write outputs.

References
----------
Saul, L. K., Jaakkola, T. & Jordan, M. I. (1996). Mean field theory for
sigmoid belief networks. JAIR 4, 61-76 (MIT AI Memo 1570), sections 3-4.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..meanfield.logistic_bound import (
    gaussian_cgf,
    gaussian_softplus_bound,
    gaussian_softplus_expectation,
    minimise_softplus_bound,
)
from ..meanfield.sbn_bound import solve_bound, train_meanfield
from ..models.exact import sbn as sbn_exact
from ..models.sbn import SigmoidBeliefNetwork, layered_network, random_layered_network
from ..seeds import rng as keyed_rng

PAPER = "saul1996"

# The paper's numbers (Figure 2 caption, section 3 text, Tables 2 and 3).
PAPER_FIG2 = {"exact": 0.806, "min_bound": 0.818, "xi0_bound": 0.974}
PAPER_FIG5 = {"mean_mf_relative_error": 0.016, "rms_uniform_relative_error": 0.226}
PAPER_TABLE2 = {"nearest neighbour": 0.067, "back-propagation": 0.056, "wake-sleep": 0.048, "mean field": 0.046}
PAPER_TABLE3 = [-0.447, -0.296, -0.636, -0.583, -0.574, -0.565, -0.515, -0.434, -0.569, -0.495]
PAPER_TABLE3_ALL = -0.511


# --- Figure 2 ---


def fig2_curve(xi: np.ndarray, mean: float = 0.0, std: float = 1.0) -> tuple[pd.DataFrame, dict]:
    """Eq. (20) for z ~ N(mean, std^2) on a grid of xi, and the three numbers of Figure 2.

    Returns
    -------
    curve : DataFrame with columns ``xi``, ``bound``, ``exact``
    numbers : dict with ``exact``, ``min_bound``, ``xi_star``, ``xi0_bound``
    """
    xi = np.asarray(xi, dtype=np.float64)
    exact = gaussian_softplus_expectation(mean, std)
    xi_star, best = minimise_softplus_bound(mean, lambda t: gaussian_cgf(t, mean, std))
    numbers = {
        "exact": exact,
        "min_bound": best,
        "xi_star": xi_star,
        "xi0_bound": float(gaussian_softplus_bound(0.0, mean, std)),
    }
    curve = pd.DataFrame({"xi": xi, "bound": gaussian_softplus_bound(xi, mean, std), "exact": exact})
    return curve, numbers


# --- Figure 5 ---


def fig5_networks(root_seed: int, indices, *, sizes=(2, 4, 6), low=-1.0, high=1.0, tol=1e-10,
                  max_iter=1000) -> dict[str, np.ndarray]:
    """Mean-field bound vs exact ln P(V) on random layered networks, bottom layer all 0.

    Network ``k`` draws its weights and biases U[low, high] from the stream
    keyed ``("saul1996", "fig5", k)``, so results do not depend on sharding.

    Returns
    -------
    dict of arrays (one entry per network): ``index``, ``exact`` (ln P(V) by
    enumeration), ``bound`` (L_V, eq. 23), ``n_sweeps``, ``mf_relative_error``
    (L_V / ln P(V) - 1) and ``uniform_relative_error`` (ln 2^-|V| / ln P(V) - 1).
    """
    idx = np.asarray(list(indices), dtype=np.int64)
    n_vis = int(sizes[-1])
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-n_vis:] = True
    v = np.zeros((1, n_vis))
    exact = np.empty(len(idx))
    bound = np.empty(len(idx))
    sweeps = np.empty(len(idx), dtype=np.int64)
    for a, k in enumerate(idx):
        net = random_layered_network(sizes, keyed_rng(root_seed, PAPER, "fig5", int(k)), low, high)
        exact[a] = sbn_exact.log_marginal(net, v, vis)[0]
        sol = solve_bound(net, v, vis, tol=tol, max_iter=max_iter)
        bound[a] = sol.bound[0]
        sweeps[a] = sol.n_sweeps[0]
    return {
        "index": idx,
        "exact": exact,
        "bound": bound,
        "n_sweeps": sweeps,
        "mf_relative_error": bound / exact - 1.0,
        "uniform_relative_error": (-n_vis * np.log(2.0)) / exact - 1.0,
    }


def fig5_summary(res: dict[str, np.ndarray]) -> pd.DataFrame:
    """Summary statistics of the two relative-error distributions of Figure 5."""
    mf, un = res["mf_relative_error"], res["uniform_relative_error"]
    gap = res["bound"] - res["exact"]
    rows = [
        ("n_networks", len(mf), np.nan),
        ("mean_mf_relative_error", mf.mean(), PAPER_FIG5["mean_mf_relative_error"]),
        ("median_mf_relative_error", np.median(mf), np.nan),
        ("rms_mf_relative_error", np.sqrt(np.mean(mf**2)), np.nan),
        ("max_mf_relative_error", mf.max(), np.nan),
        ("mean_uniform_relative_error", un.mean(), np.nan),
        ("rms_uniform_relative_error", np.sqrt(np.mean(un**2)), PAPER_FIG5["rms_uniform_relative_error"]),
        ("max_bound_minus_exact", gap.max(), np.nan),
        ("mean_sweeps", res["n_sweeps"].mean(), np.nan),
    ]
    return pd.DataFrame(rows, columns=["statistic", "value", "paper_value"])


# --- Tables 1-3: digit classification ---


def initial_network(sizes, init_std: float, rng: np.random.Generator) -> SigmoidBeliefNetwork:
    """Layered network with N(0, init_std^2) weights and zero biases (the paper does not say)."""
    net = layered_network(sizes)
    return net.with_parameters(rng.normal(0.0, init_std, size=net.n_edges), np.zeros(net.n_units))


def bottom_visible(sizes) -> np.ndarray:
    vis = np.zeros(sum(sizes), dtype=bool)
    vis[-int(sizes[-1]):] = True
    return vis


def train_digit_network(X: np.ndarray, *, sizes, learning_rate: float, n_sweeps: int, init_std: float,
                        rng: np.random.Generator, tol: float, max_iter: int):
    """One SBN per digit, trained on the bound (eqs. 26, 27), pattern by pattern (section 4)."""
    net = initial_network(sizes, init_std, rng)
    return train_meanfield(net, X, bottom_visible(sizes), learning_rate=learning_rate, n_sweeps=n_sweeps,
                           rng=rng, tol=tol, max_iter=max_iter)


def test_bounds(net: SigmoidBeliefNetwork, X: np.ndarray, *, tol: float, max_iter: int, n_threads: int = 1):
    """L_V of every image under one network (the classifier's score)."""
    vis = bottom_visible(net.layers)
    return solve_bound(net, X, vis, tol=tol, max_iter=max_iter, n_threads=n_threads).bound


def confusion_matrix(y_true: np.ndarray, y_pred: np.ndarray, n_classes: int = 10) -> np.ndarray:
    """Counts ``C[i, j]``: images of digit i classified as j (Table 1)."""
    C = np.zeros((n_classes, n_classes), dtype=np.int64)
    np.add.at(C, (np.asarray(y_true), np.asarray(y_pred)), 1)
    return C


def nearest_neighbour_predict(X_train, y_train, X_test, chunk: int = 2048) -> np.ndarray:
    """1-nearest neighbour in Hamming distance (ties: lowest training index)."""
    A = np.asarray(X_train, dtype=np.float64)
    na = A.sum(1)
    out = np.empty(len(X_test), dtype=np.int64)
    for s in range(0, len(X_test), chunk):
        B = np.asarray(X_test[s : s + chunk], dtype=np.float64)
        d = na[None, :] + B.sum(1)[:, None] - 2.0 * B @ A.T  # Hamming distance of binary vectors
        out[s : s + chunk] = np.asarray(y_train)[np.argmin(d, axis=1)]
    return out


def backprop_predict(X_train, y_train, X_test, *, hidden: int, max_iter: int, seed: int) -> np.ndarray:
    """A one-hidden-layer network trained by back-propagation (scikit-learn's MLPClassifier)."""
    import warnings

    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    clf = MLPClassifier(hidden_layer_sizes=(hidden,), activation="logistic", max_iter=max_iter, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        clf.fit(np.asarray(X_train, float), y_train)
    return clf.predict(np.asarray(X_test, float))


def classification_tables(bounds: np.ndarray, data: dict, *, baselines: dict) -> dict[str, pd.DataFrame]:
    """Tables 1-3 from the test bounds (n_test, 10) of the ten digit networks.

    Parameters
    ----------
    bounds : ndarray (n_test, 10)
        ``bounds[t, d]``: L_V of test image t under the network of digit d.
    data : dict
        ``X_train``, ``y_train``, ``X_test``, ``y_test``.
    baselines : dict
        ``{"back-propagation": {"hidden": .., "max_iter": .., "seed": ..}}`` to
        also run back-propagation; nearest neighbour always runs.
    """
    y = np.asarray(data["y_test"])
    pred = np.argmax(bounds, axis=1)
    C = confusion_matrix(y, pred)
    table1 = pd.DataFrame(C, columns=[f"pred_{d}" for d in range(10)])
    table1.insert(0, "true_digit", np.arange(10))

    def row(name, p):
        err = np.asarray(p) != y if p is not None else None
        return {
            "algorithm": name,
            "error_rate": float(err.mean()) if err is not None else np.nan,
            "n_errors": int(err.sum()) if err is not None else -1,
            "n_test": len(y),
            "paper_error_rate": PAPER_TABLE2[name],
            "evaluated": "same split" if err is not None else "not run (paper's value only)",
        }

    rows = [row("nearest neighbour", nearest_neighbour_predict(data["X_train"], data["y_train"], data["X_test"]))]
    bp = baselines.get("back-propagation")
    rows.append(row("back-propagation", backprop_predict(data["X_train"], data["y_train"], data["X_test"], **bp)
                    if bp else None))
    rows.append(row("wake-sleep", None))
    rows.append(row("mean field", pred))
    table2 = pd.DataFrame(rows)

    n_vis = np.asarray(data["X_test"]).shape[1]
    scores = [bounds[y == d, d].mean() / (n_vis * np.log(2.0)) for d in range(10)]
    table3 = pd.DataFrame({"digit": [str(d) for d in range(10)] + ["all"],
                           "score": scores + [float(np.mean(scores))],
                           "paper_score": PAPER_TABLE3 + [PAPER_TABLE3_ALL],
                           "n_test": [int((y == d).sum()) for d in range(10)] + [len(y)]})
    return {"table1": table1, "table2": table2, "table3": table3}


# --- claims (shared/spec/replication-targets.md, section 1) ---


def evaluate_claims(fig2: pd.DataFrame, fig5: pd.DataFrame, tables: dict[str, dict[str, pd.DataFrame]],
                    profile: str) -> list:
    """The claims of the spec's saul1996 section, evaluated from this run's results.

    Parameters
    ----------
    fig2 : DataFrame written by the fig2 rule (rows ``quantity`` in exact/min_bound/xi0_bound)
    fig5 : Figure 5 summary from :func:`fig5_summary`
    tables : ``{dataset: {"table2": DataFrame, "table3": DataFrame}}``
    profile : str
    """
    from ..claims import Claim, check_close, check_less, check_range, fmt

    claims = []
    nums = fig2.set_index("quantity")["value"]
    for key, label in [("exact", "exact <ln(1+e^z)>, z ~ N(0,1)"), ("min_bound", "min over xi of bound (20)"),
                       ("xi0_bound", "bound (20) at xi = 0")]:
        v = float(nums[key])
        claims.append(Claim(PAPER, "fig2", f"{label} = {PAPER_FIG2[key]:.3f} to 3 decimals", f"{PAPER_FIG2[key]:.3f}",
                            f"{v:.6f}", "|value - paper| <= 0.0005", profile,
                            check_close(v, PAPER_FIG2[key], 0.0005)))
    s = fig5.set_index("statistic")["value"]
    n = int(s["n_networks"])
    mf = float(s["mean_mf_relative_error"])
    claims.append(Claim(PAPER, "fig5", "mean relative error of the mean-field bound", "1.6%", f"{100 * mf:.3f}%",
                        "1.2% <= value <= 2.0%", profile, check_range(mf, 0.012, 0.020), f"{n} random 2x4x6 networks"))
    un = float(s["rms_uniform_relative_error"])
    claims.append(Claim(PAPER, "fig5", "RMS relative error of the uniform approximation", "22.6%", f"{100 * un:.3f}%",
                        "20% <= value <= 25%", profile, check_range(un, 0.20, 0.25), f"{n} random 2x4x6 networks"))
    gap = float(s["max_bound_minus_exact"])
    claims.append(Claim(PAPER, "fig5", "the bound never exceeds the exact ln P(V)", "L_V <= ln P(V)", fmt(gap),
                        "max(L_V - ln P(V)) <= 1e-9", profile, bool(gap <= 1e-9), f"{n} random 2x4x6 networks"))
    for ds, t in tables.items():
        t2 = t["table2"].set_index("algorithm")
        mf_err = float(t2.loc["mean field", "error_rate"])
        nn_err = float(t2.loc["nearest neighbour", "error_rate"])
        score = float(t["table3"].set_index("digit").loc["all", "score"])
        claims.append(Claim(PAPER, f"{ds}/table2", "mean-field error rate below nearest neighbour (same split)",
                            "4.6% < 6.7%", f"{100 * mf_err:.2f}% vs {100 * nn_err:.2f}%", "MF error < NN error",
                            profile, check_less(mf_err, nn_err), f"dataset {ds}, {int(t2.loc['mean field', 'n_test'])} test images"))
        claims.append(Claim(PAPER, f"{ds}/table2", "mean-field error rate <= 8%", "4.6%", f"{100 * mf_err:.2f}%",
                            "value <= 8%", profile, bool(mf_err <= 0.08),
                            f"dataset {ds}; normalised test score (Table 3, shown, not required): "
                            f"ours {score:.3f}, paper -0.511 on the paper's USPS set"))
    return claims
