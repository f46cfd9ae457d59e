"""Brügge, Fischer & Igel (2013): the flip-the-state operator T against Gibbs G.

Pure functions from settings to arrays and tables, one group per target of
``shared/spec/replication-targets.md`` section 5:

* Fig. 3 (top), sec. 4.1/5.1: SLEM of the exact one-sweep matrices of G and T
  on random n x n RBMs, weights U[-c, c], zero biases
  (:func:`slem_study`, :func:`slem_fractions`).
* Table 1 and Fig. 3 (bottom), sec. 4.2/5.2: exact log-likelihood during
  CD-k, PCD-k and t-PT_k training with G or T (:func:`learning_curves`,
  :func:`table1`).
* Table 2 and Fig. 4, sec. 4.3/5.3: energy autocorrelation of single chains
  (:func:`autocorrelation_runs`, :func:`table2`).
* Tables 3 and 4, sec. 4.4/5.4: class changes on Artificial Modes
  (:func:`class_change_runs`, :func:`table3`, :func:`table4`).

Random streams are keyed by (target, benchmark, repeat, chain), never by the
operator or the learning rate, so that G and T (and the learning rates) of
one repeat share initial weights, minibatch order and start states: the
comparisons are paired by repeat, as the Wilcoxon test of Table 1 assumes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..datasets.toys import BASIC_MODES, artificial_modes, bars_and_stripes
from ..diagnostics.autocorr import ar_autocorrelation_time, autocorrelation_function, integrated_autocorrelation_time
from ..diagnostics.modes import count_class_changes, nearest_mode_class
from ..learning.cd import train_rbm
from ..learning.optimizers import SGD
from ..learning.pt_training import train_rbm_pt
from ..models.exact.rbm import log_partition, mean_log_likelihood
from ..models.rbm import RBM
from ..sampling import ChainStreams
from ..sampling.operators import Blend, FlipTheState, Gibbs
from ..sampling.transition_matrix import slem, stationary_check, sweep_transition_matrix
from ..seeds import rng as keyed_rng

PAPER = "bruegge2013"
OPERATORS = {"G": Gibbs(), "T": FlipTheState()}
BENCHMARK_LABELS = {
    "bas": "Bars and Stripes",
    "modes_0p1": "Artificial Modes, p_mut=0.1",
    "modes_0p01": "Artificial Modes, p_mut=0.01",
    "mnist": "MNIST, n=10",
    "mnist500": "MNIST, n=500",
}
MODES_P_MUT = {"modes_0p1": 0.1, "modes_0p01": 0.01}


def operator(name: str):
    """``"G"`` -> Gibbs, ``"T"`` -> flip-the-state, ``"blend:a"`` -> Blend(a)."""
    if name in OPERATORS:
        return OPERATORS[name]
    if name.startswith("blend:"):
        return Blend(float(name.split(":", 1)[1]))
    raise ValueError(f"unknown operator {name!r}: expected 'G', 'T' or 'blend:<alpha>'")


# ----------------------------------------------------------------- Fig. 3 top
def uniform_weight_rbm(n: int, c: float, rng: np.random.Generator) -> RBM:
    """n x n RBM with weights U[-c, c] and zero biases (sec. 4.1)."""
    return RBM(rng.uniform(-c, c, size=(n, n)), np.zeros(n), np.zeros(n))


def slem_study(size: int, c_values, n_rbms: int, seed: int, blend_alpha: float | None = 0.5) -> pd.DataFrame:
    """SLEM of G, T (and the blend) for ``n_rbms`` random RBMs per c (sec. 4.1).

    Returns one row per RBM: size, c, rbm, slem_G, slem_T[, slem_blend] and
    the largest stationarity error ``max |pP - p|`` over the operators.
    """
    ops = dict(OPERATORS)
    if blend_alpha is not None:
        ops["blend"] = Blend(blend_alpha)
    rows = []
    for c in c_values:
        g = keyed_rng(seed, PAPER, "fig3_slem", int(size), int(c))
        for i in range(int(n_rbms)):
            rbm = uniform_weight_rbm(int(size), float(c), g)
            row = {"size": int(size), "c": int(c), "rbm": i}
            err = 0.0
            for name, op in ops.items():
                P = sweep_transition_matrix(rbm, op)
                row[f"slem_{name}"] = slem(P)
                err = max(err, stationary_check(rbm, P))
            row["stationarity_error"] = err
            rows.append(row)
    return pd.DataFrame(rows)


def slem_fractions(df: pd.DataFrame) -> pd.DataFrame:
    """Fraction of RBMs with SLEM(T) < SLEM(G) per (size, c) (Fig. 3 top)."""
    d = df.assign(t_better=df["slem_T"] < df["slem_G"])
    out = d.groupby(["size", "c"]).agg(fraction_T_better=("t_better", "mean"), n_rbms=("rbm", "size"),
                                       mean_slem_G=("slem_G", "mean"), mean_slem_T=("slem_T", "mean"),
                                       max_stationarity_error=("stationarity_error", "max"))
    return out.reset_index()


# ------------------------------------------------------------------- Table 1
@dataclass(frozen=True)
class Benchmark:
    """Training data, log-likelihood evaluation data, model size, batch size."""

    name: str
    X_train: np.ndarray
    X_eval: np.ndarray
    n_hidden: int
    batch_size: int | None


def make_benchmark(name: str, seed: int, *, modes_train_size: int = 1000, mnist: np.ndarray | None = None,
                   mnist_hidden: int = 10, mnist_eval_size: int | None = None, batch_size: int = 100) -> Benchmark:
    """The benchmarks of sec. 4.2.

    bas: all 30 4x4 Bars-and-Stripes patterns, batch learning, 16 hidden.
    modes_0p1 / modes_0p01: a fixed training set of ``modes_train_size``
    Artificial Modes images (seeded), minibatches, 16 hidden. mnist /
    mnist500: binary MNIST training images, minibatches, ``mnist_hidden``
    (mnist) or 500 (mnist500) hidden units; the log-likelihood on a fixed seeded subset of
    ``mnist_eval_size`` training images (all if None).
    """
    if name == "bas":
        X = bars_and_stripes(4).astype(np.float64)
        return Benchmark(name, X, X, 16, None)
    if name in MODES_P_MUT:
        X, _ = artificial_modes(int(modes_train_size), MODES_P_MUT[name], keyed_rng(seed, PAPER, "data", name))
        X = X.astype(np.float64)
        return Benchmark(name, X, X, 16, int(batch_size))
    if name in ("mnist", "mnist500"):
        n_hidden = 500 if name == "mnist500" else int(mnist_hidden)
        if mnist is None:
            raise ValueError(f"benchmark {name!r} needs the binary MNIST training images")
        X = np.asarray(mnist, dtype=np.float64)
        if mnist_eval_size is None or mnist_eval_size >= len(X):
            Xe = X
        else:
            idx = np.sort(keyed_rng(seed, PAPER, "mnist_eval_subset").choice(len(X), int(mnist_eval_size), replace=False))
            Xe = X[idx]
        return Benchmark(name, X, Xe, n_hidden, int(batch_size))
    raise ValueError(f"unknown benchmark {name!r}; expected one of {sorted(BENCHMARK_LABELS)}")


def init_rbm(n_visible: int, n_hidden: int, rng: np.random.Generator, std: float = 0.01) -> RBM:
    """Weights and biases N(0, std^2) (sec. 4.2)."""
    return RBM(rng.normal(0, std, (n_visible, n_hidden)), rng.normal(0, std, n_visible), rng.normal(0, std, n_hidden))


def train(bench: Benchmark, recipe: dict, op_name: str, repeat: int, seed: int, key: str,
          eval_every: int | None = None) -> tuple[RBM, np.ndarray, np.ndarray]:
    """Train one RBM of ``bench`` with ``recipe``; exact log-likelihood every ``eval_every`` updates.

    recipe: ``algorithm`` ("cd", "pcd", "pt"), ``k`` (sweeps per update or
    between swaps), ``lr``, ``n_updates``, and for PT ``n_temperatures`` and
    optionally ``n_replicas`` (default: the batch size). Plain gradient
    ascent, no momentum, no weight decay (sec. 4.2).

    Returns the model, the updates at which the log-likelihood was evaluated
    and its values (empty if ``eval_every`` is None).
    """
    alg = recipe["algorithm"]
    op = operator(op_name)
    n_updates = int(recipe["n_updates"])
    rbm0 = init_rbm(bench.X_train.shape[1], bench.n_hidden, keyed_rng(seed, PAPER, key, "init", bench.name, repeat))
    data_rng = keyed_rng(seed, PAPER, key, "batches", bench.name, repeat)
    B = len(bench.X_train) if bench.batch_size is None else min(bench.batch_size, len(bench.X_train))

    def evaluate(t, model):
        return float(mean_log_likelihood(model, bench.X_eval, log_partition(model)))

    common = dict(operator=op, batch_size=bench.batch_size, n_updates=n_updates, optimizer=SGD(float(recipe["lr"])),
                  rng=data_rng, callback=evaluate if eval_every else None, callback_every=int(eval_every or n_updates or 1))
    if alg in ("cd", "pcd"):
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=B)
        model, hist = train_rbm(rbm0, bench.X_train, k=int(recipe["k"]), persistent=(alg == "pcd"),
                                streams=streams, **common)
    elif alg == "pt":
        t = int(recipe["n_temperatures"])
        R = int(recipe.get("n_replicas") or B)
        streams = ChainStreams.from_seed(seed, PAPER, key, "chains", bench.name, alg, repeat, n_chains=R * t)
        model, hist = train_rbm_pt(rbm0, bench.X_train, n_temperatures=t, k=int(recipe["k"]), streams=streams,
                                   swap_rng=keyed_rng(seed, PAPER, key, "swaps", bench.name, repeat),
                                   n_replicas=R, **common)
    else:
        raise ValueError(f"unknown algorithm {alg!r}: expected 'cd', 'pcd' or 'pt'")
    updates = np.array([h["update"] for h in hist], dtype=np.int64)
    values = np.array([h["value"] for h in hist], dtype=np.float64)
    return model, updates, values


def learning_recipe(learning: dict, curve: dict, bench: str, alg: str, lr: float) -> dict:
    """Training recipe of one Table 1 setting from the config's ``learning`` and ``curve`` sections.

    The setting drawn in Fig. 3 (``curve``) may run longer than the others
    (``curve.n_updates``; null: as the others), so that the figure and its
    significance test see the late phase of training, where the paper finds
    T ahead, even when the other settings are shortened to fit a budget.
    """
    recipe = {"algorithm": alg, "lr": float(lr), "n_updates": int(learning["n_updates"][bench]),
              "k": int(learning["pt_k"] if alg == "pt" else learning["k"]),
              "n_temperatures": int(learning["pt_temperatures"]), "n_replicas": learning["pt_replicas"]}
    if (curve.get("n_updates") and bench == curve["benchmark"] and alg == curve["algorithm"]
            and np.isclose(float(lr), float(curve["lr"]))):
        recipe["n_updates"] = int(curve["n_updates"])
    return recipe


def recipe_label(recipe: dict) -> str:
    """``'10-PT1, lr 0.05, 300 updates'`` / ``'CD-5, lr 0.05, 2000 updates'``."""
    alg = recipe["algorithm"]
    name = f"{recipe['n_temperatures']}-PT{recipe['k']}" if alg == "pt" else f"{alg.upper()}-{recipe['k']}"
    return f"{name}, lr {recipe['lr']:g}, {recipe['n_updates']} updates"


def learning_curves(bench: Benchmark, recipe: dict, op_name: str, repeats, seed: int, eval_every: int):
    """Log-likelihood curves (n_repeats, n_evals) of :func:`train` for the given repeats."""
    curves, updates = [], None
    for r in repeats:
        _, updates, ll = train(bench, recipe, op_name, int(r), seed, "learning", eval_every)
        curves.append(ll)
    return updates, np.array(curves)


def table1(runs: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Median over repeats of the maximum log-likelihood, G vs T, Wilcoxon signed-rank test.

    ``runs`` has columns benchmark, algorithm, lr, operator, repeat, max_ll
    (and optionally n_updates).
    The test pairs G and T by repeat (two-sided); ``significant`` marks
    p < alpha (the paper's star).
    """
    from scipy import stats

    rows = []
    for (bench, alg, lr), d in runs.groupby(["benchmark", "algorithm", "lr"], sort=False):
        w = d.pivot(index="repeat", columns="operator", values="max_ll").dropna()
        g, t = w["G"].to_numpy(), w["T"].to_numpy()
        diff = t - g
        p = float(stats.wilcoxon(t, g).pvalue) if np.any(diff != 0) else 1.0
        rows.append({"benchmark": bench, "algorithm": alg, "lr": lr, "n_repeats": len(w),
                     "n_updates": int(d["n_updates"].max()) if "n_updates" in d else None,
                     "median_max_ll_G": float(np.median(g)), "median_max_ll_T": float(np.median(t)),
                     "median_diff_T_minus_G": float(np.median(diff)), "wilcoxon_p": p,
                     "significant": bool(p < alpha), "T_at_least_G": bool(np.median(t) >= np.median(g))})
    return pd.DataFrame(rows)


# ------------------------------------------------------------------- Table 2
def energy_traces(rbm: RBM, op, v0: np.ndarray, n_steps: int, streams: ChainStreams, burn_in: int = 0) -> np.ndarray:
    """Energy E(v, h) after every sweep of ``n_chains`` chains, shape (n_steps, n_chains)."""
    v = np.array(v0, dtype=np.float64)
    h = np.zeros((len(v), rbm.n_hidden))
    if burn_in:
        op.sweep(rbm, v, h, streams, n_sweeps=int(burn_in))
    E = np.empty((int(n_steps), len(v)))
    for s in range(int(n_steps)):
        op.sweep(rbm, v, h, streams)
        E[s] = rbm.energy(v, h)
    return E


def autocorrelation_summary(E: np.ndarray, max_lag: int) -> dict:
    """Per chain: AR-fit tau (sec. 4.3, Thompson 2010), emcee's integrated tau, ACF up to ``max_lag``."""
    n_chains = E.shape[1]
    tau_ar = np.array([ar_autocorrelation_time(E[:, j]).tau for j in range(n_chains)])
    tau_int = np.array([integrated_autocorrelation_time(E[:, j]) for j in range(n_chains)])
    acf = np.array([autocorrelation_function(E[:, j], min(max_lag, len(E) - 1)) for j in range(n_chains)])
    return {"tau_ar": tau_ar, "tau_int": tau_int, "acf": acf}


def autocorrelation_runs(bench: Benchmark, recipe: dict, repeats, seed: int, settings: dict) -> dict:
    """Train RBMs with ``recipe`` (Gibbs), then sample each with G and T (sec. 4.3).

    settings: ``n_steps`` (recorded sweeps per chain), ``burn_in``,
    ``n_chains`` (independent chains per RBM, started at training examples
    shared by G and T), ``max_lag`` (ACF length kept).
    """
    out = {"repeat": [], "chain": []}
    for name in OPERATORS:
        out.update({f"tau_ar_{name}": [], f"tau_int_{name}": [], f"acf_{name}": []})
    params = []
    for r in repeats:
        model, _, _ = train(bench, recipe, "G", int(r), seed, f"autocorr_models_{recipe['algorithm']}")
        params.append(model.params())
        nc = int(settings["n_chains"])
        v0 = bench.X_train[keyed_rng(seed, PAPER, "autocorr_start", bench.name, int(r)).integers(0, len(bench.X_train), nc)]
        for name, op in OPERATORS.items():
            streams = ChainStreams.from_seed(seed, PAPER, "autocorr_chains", bench.name, int(r), name, n_chains=nc)
            E = energy_traces(model, op, v0, settings["n_steps"], streams, settings["burn_in"])
            s = autocorrelation_summary(E, int(settings["max_lag"]))
            out[f"tau_ar_{name}"] += list(s["tau_ar"])
            out[f"tau_int_{name}"] += list(s["tau_int"])
            out[f"acf_{name}"] += list(s["acf"])
        out["repeat"] += [int(r)] * nc
        out["chain"] += list(range(nc))
    res = {k: np.asarray(v) for k, v in out.items()}
    for key in ("W", "b", "c"):
        res[f"model_{key}"] = np.stack([p[key] for p in params])
    return res


def table2(per_chain: pd.DataFrame) -> pd.DataFrame:
    """Mean tau_G, tau_T over RBMs (the mean over each RBM's chains first) and gain = 1 - tau_T / tau_G."""
    rows = []
    for bench, d in per_chain.groupby("benchmark", sort=False):
        per_rbm = d.groupby("repeat")[["tau_ar_G", "tau_ar_T", "tau_int_G", "tau_int_T"]].mean()
        m = per_rbm.mean()
        rbm_gain = 1 - per_rbm["tau_ar_T"] / per_rbm["tau_ar_G"]
        rows.append({"benchmark": bench, "label": BENCHMARK_LABELS.get(bench, bench), "n_rbms": len(per_rbm),
                     "n_chains": len(d), "tau_G": m["tau_ar_G"], "tau_T": m["tau_ar_T"],
                     "gain_percent": 100 * (1 - m["tau_ar_T"] / m["tau_ar_G"]),
                     "rbms_with_positive_gain": int((rbm_gain > 0).sum()),
                     "tau_int_G": m["tau_int_G"], "tau_int_T": m["tau_int_T"],
                     "gain_int_percent": 100 * (1 - m["tau_int_T"] / m["tau_int_G"])})
    return pd.DataFrame(rows)


# ------------------------------------------------------------- Tables 3 and 4
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


def first_change_steps(rbm: RBM, op, v0: np.ndarray, max_steps: int, streams: ChainStreams, modes=BASIC_MODES) -> np.ndarray:
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


def class_change_runs(bench: Benchmark, recipe: dict, repeats, seed: int, settings: dict) -> dict:
    """Train RBMs with ``recipe`` (CD-5, Gibbs), then Table 3 and Table 4 runs with G and T.

    settings: ``n_steps`` (chain from all-ones visible units, Table 3),
    ``n_starts`` (starts drawn from the training distribution, Table 4),
    ``max_steps`` (cap for the first change).
    """
    p_mut = MODES_P_MUT[bench.name]
    out = {"repeat": []}
    for name in OPERATORS:
        out[f"changes_{name}"] = []
        out[f"first_{name}"] = []
    for r in repeats:
        model, _, _ = train(bench, recipe, "G", int(r), seed, "classes_models")
        out["repeat"].append(int(r))
        starts, _ = artificial_modes(int(settings["n_starts"]), p_mut, keyed_rng(seed, PAPER, "classes_starts", bench.name, int(r)))
        for name, op in OPERATORS.items():
            st1 = ChainStreams.from_seed(seed, PAPER, "classes_chain", bench.name, int(r), name, n_chains=1)
            cls = class_sequence(model, op, np.ones((1, model.n_visible)), settings["n_steps"], st1)
            out[f"changes_{name}"].append(int(count_class_changes(cls)[0]))
            stn = ChainStreams.from_seed(seed, PAPER, "classes_first", bench.name, int(r), name, n_chains=len(starts))
            out[f"first_{name}"].append(first_change_steps(model, op, starts, settings["max_steps"], stn))
    return {k: np.asarray(v) for k, v in out.items()}


def _quartiles(x: np.ndarray) -> tuple[float, float, float]:
    # inverted-CDF quantiles: no interpolation, so censored (inf) values stay ordered
    q = np.quantile(x, [0.25, 0.5, 0.75], method="inverted_cdf")
    return float(q[0]), float(q[1]), float(q[2])


def table3(runs: dict[str, dict]) -> pd.DataFrame:
    """Class changes in one chain per RBM: quartiles over RBMs (Table 3)."""
    rows = []
    for bench, d in runs.items():
        for name in OPERATORS:
            q25, q50, q75 = _quartiles(d[f"changes_{name}"])
            rows.append({"benchmark": bench, "label": BENCHMARK_LABELS[bench], "operator": name,
                         "n_rbms": len(d["repeat"]), "q25": q25, "median": q50, "q75": q75})
    return pd.DataFrame(rows)


def table4(runs: dict[str, dict], max_steps: int) -> pd.DataFrame:
    """Steps before the first class change: quartiles over all starts of all RBMs (Table 4).

    Ambiguous starts are dropped; a chain without a change within
    ``max_steps`` counts as ``inf`` (reported as its fraction ``censored``).
    """
    rows = []
    for bench, d in runs.items():
        for name in OPERATORS:
            x = np.asarray(d[f"first_{name}"], dtype=np.float64).ravel()
            x = x[~np.isnan(x)]
            q25, q50, q75 = _quartiles(x)
            rows.append({"benchmark": bench, "label": BENCHMARK_LABELS[bench], "operator": name,
                         "n_rbms": len(d["repeat"]), "n_starts": len(x), "q25": q25, "median": q50, "q75": q75,
                         "censored": float(np.mean(np.isinf(x))), "max_steps": int(max_steps)})
    return pd.DataFrame(rows)


# -------------------------------------------------------------------- claims
def claims(profile: str, fractions: pd.DataFrame, t1: pd.DataFrame, t2: pd.DataFrame, t3: pd.DataFrame,
           t4: pd.DataFrame, curve: dict) -> list:
    """The claims of spec section 5, evaluated from this run's tables.

    ``curve`` names the Table 1 setting of the learning-curve figure
    (benchmark, algorithm, lr).
    """
    from ..claims import Claim, fmt

    out = []

    def add(target, claim, paper_value, value, test, passed, details=""):
        out.append(Claim(PAPER, target, claim, paper_value, value, test, profile, passed, details))

    err = float(fractions["max_stationarity_error"].max())
    add("fig3_slem", "p G = p and p T = p exactly for random small RBMs", "exact (0)", fmt(err),
        "max |pP - p| <= 1e-12 over all RBMs, sizes and c (G, T and the blend)", err <= 1e-12,
        f"{int(fractions['n_rbms'].sum())} RBMs")
    f4 = fractions[fractions["size"] == 4].set_index("c")["fraction_T_better"]
    if len(f4) and {1, 10} <= set(f4.index):
        d = float(f4.loc[10] - f4.loc[1])
        add("fig3_slem", "4x4: fraction(SLEM T < SLEM G) rises with c", "~0 at c=1, ~1 at c=10 (Fig. 3)",
            fmt(d), "fraction(c=10) - fraction(c=1) >= 0.5", d >= 0.5,
            f"fraction(c=1) = {fmt(f4.loc[1])}, fraction(c=10) = {fmt(f4.loc[10])}")
    else:
        add("fig3_slem", "4x4: fraction(SLEM T < SLEM G) rises with c", "~0 at c=1, ~1 at c=10 (Fig. 3)", "",
            "fraction(c=10) - fraction(c=1) >= 0.5", None, "size 4 or c in {1, 10} not run in this profile")
    sel = fractions[(fractions["c"] >= 5) & (fractions["c"] <= 10)]
    m = sel.groupby("size")["fraction_T_better"].mean()
    if 2 in m.index and 4 in m.index:
        add("fig3_slem", "effect more pronounced for larger RBMs", "4x4 above 2x2 (Fig. 3)",
            f"4x4 {fmt(m.loc[4])} vs 2x2 {fmt(m.loc[2])}", "mean fraction over c=5..10: 4x4 >= 2x2",
            bool(m.loc[4] >= m.loc[2]), f"c values present: {sorted(sel['c'].unique().tolist())}")
    else:
        add("fig3_slem", "effect more pronounced for larger RBMs", "4x4 above 2x2 (Fig. 3)", "",
            "mean fraction over c=5..10: 4x4 >= 2x2", None, "sizes 2 and 4 with c in 5..10 not both run")

    n_ge = int(t1["T_at_least_G"].sum())
    add("table1", "T's median maximum log-likelihood >= G's in the majority of settings",
        "most settings (Table 1)", f"{n_ge}/{len(t1)}", "count > half of the settings", n_ge > len(t1) / 2,
        f"{int(t1['significant'].sum())} settings significant at p < 0.05 (Wilcoxon signed-rank, either direction)")
    row = t1[(t1["benchmark"] == curve["benchmark"]) & (t1["algorithm"] == curve["algorithm"])
             & np.isclose(t1["lr"].astype(float), float(curve["lr"]))]
    name = f"{curve['benchmark']} {curve['algorithm'].upper()} lr {curve['lr']}"
    if len(row):
        r = row.iloc[0]
        ok = bool(r["wilcoxon_p"] < 0.05 and r["median_max_ll_T"] > r["median_max_ll_G"])
        add("table1", f"{name}: T better than G, significantly", "significant (Table 1, Fig. 3)",
            f"p = {fmt(r['wilcoxon_p'])}, median diff T-G = {fmt(r['median_diff_T_minus_G'])}",
            "Wilcoxon signed-rank p < 0.05 and median T > median G", ok,
            f"medians G {fmt(r['median_max_ll_G'])}, T {fmt(r['median_max_ll_T'])}, {int(r['n_repeats'])} repeats")
    else:
        add("table1", f"{name}: T better than G, significantly", "significant (Table 1, Fig. 3)", "",
            "Wilcoxon signed-rank p < 0.05 and median T > median G", None, "setting not run in this profile")

    for _, r in t2.iterrows():
        paper = "17.28%" if r["benchmark"] == "mnist500" else "> 0 (Table 2)"
        add("table2", f"{r['label']}: mean gain 1 - tau_T/tau_G > 0", paper, f"{fmt(r['gain_percent'])}%",
            "gain > 0 (AR-fit tau)", bool(r["gain_percent"] > 0),
            f"tau_G {fmt(r['tau_G'])}, tau_T {fmt(r['tau_T'])}; integrated (emcee) gain {fmt(r['gain_int_percent'])}%; "
            f"{int(r['n_rbms'])} RBMs x {int(r['n_chains'] // max(r['n_rbms'], 1))} chains")

    for bench, d in t3.groupby("benchmark", sort=False):
        g = d.set_index("operator")
        add("table3", f"{g.loc['T', 'label']}: T has more class changes than G", "T > G (Table 3)",
            f"median G {fmt(g.loc['G', 'median'])}, T {fmt(g.loc['T', 'median'])}", "median T > median G",
            bool(g.loc["T", "median"] > g.loc["G", "median"]),
            f"quartiles G [{fmt(g.loc['G', 'q25'])}, {fmt(g.loc['G', 'q75'])}], T [{fmt(g.loc['T', 'q25'])}, "
            f"{fmt(g.loc['T', 'q75'])}]; {int(g.loc['T', 'n_rbms'])} RBMs")
    for bench, d in t4.groupby("benchmark", sort=False):
        g = d.set_index("operator")
        add("table4", f"{g.loc['T', 'label']}: T needs fewer steps to the first class change", "T < G (Table 4)",
            f"median G {fmt(g.loc['G', 'median'])}, T {fmt(g.loc['T', 'median'])}", "median T < median G",
            bool(g.loc["T", "median"] < g.loc["G", "median"]),
            f"censored at {int(g.loc['T', 'max_steps'])} steps: G {fmt(g.loc['G', 'censored'])}, "
            f"T {fmt(g.loc['T', 'censored'])}; {int(g.loc['T', 'n_starts'])} starts")
    return out
