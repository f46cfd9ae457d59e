"""Brügge et al. (2013): exact properties of G, T and the blend, and the experiments' table code.

The claims are tested in test_claims.py (beside this file).
"""

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from scipy.special import expit

from bmrep.datasets.toys import BASIC_MODES
from bmrep.models.exact.rbm import joint_probabilities
from bmrep.models.rbm import RBM
from bmrep.papers.bruegge2013 import (
    benchmarks,
    class_changes,
    recipes,
    summaries,
    train,
)
from bmrep.papers.bruegge2013.common import DATA_KEYS
from bmrep.papers.bruegge2013.models import unstack_models
from bmrep.papers.bruegge2013.slem import slem_study
from bmrep.sampling.operators import Blend, FlipTheState, Gibbs
from bmrep.sampling.streams import ChainStreams
from bmrep.sampling.transition_matrix import slem, sweep_transition_matrix
from bmrep.seeds import rng
from support.testsystems import random_rbm

OPS = [Gibbs(), FlipTheState(), Blend(0.3), Blend(0.7)]


def is_primitive(P):
    """P^k > 0 for k = (N-1)^2 + 1 (Wielandt): irreducible and aperiodic."""
    N = len(P)
    A = (P > 0).astype(np.int64)
    R = A.copy()
    k, target = 1, (N - 1) ** 2 + 1
    while k < target:  # repeated squaring of the boolean pattern: A^(2k)
        R = ((R @ R) > 0).astype(np.int64)
        k *= 2
    return bool(np.all(R > 0)), bool(np.all(np.linalg.matrix_power(P, 64) > 0))


@pytest.mark.parametrize("op", OPS, ids=repr)
@pytest.mark.parametrize("shape,c", [((2, 2), 3.0), ((3, 2), 8.0), ((2, 3), 1.0)])
def test_operators_leave_p_invariant_exactly(op, shape, c):
    rbm = random_rbm(*shape, c, rng(2013, "test_bruegge2013", f"inv_{shape}_{c}"), weights="uniform")
    P = sweep_transition_matrix(rbm, op)
    p = joint_probabilities(rbm)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, atol=1e-13)
    assert np.max(np.abs(p @ P - p)) < 1e-12


@pytest.mark.parametrize("key", range(5))
def test_flip_the_state_is_irreducible_and_aperiodic(key):
    """Theorems 1 and 2: some power of T is strictly positive (random 2x2 and 3x2 RBMs, large weights)."""
    for shape in [(2, 2), (3, 2)]:
        rbm = random_rbm(*shape, 6.0, rng(2013, "test_bruegge2013", f"ergodic_{key}_{shape}"), weights="uniform")
        primitive, _ = is_primitive(sweep_transition_matrix(rbm, FlipTheState()))
        assert primitive


def test_flip_the_state_ergodic_with_exact_ties():
    """Equal conditionals (zero field) use the 1/2 rule of Def. 1, which keeps T ergodic."""
    rbm = RBM(np.array([[2.0, -2.0], [-2.0, 2.0]]), np.zeros(2), np.array([0.0, 0.0]))
    P = sweep_transition_matrix(rbm, FlipTheState())
    assert is_primitive(P)[0]
    p = joint_probabilities(rbm)
    assert np.max(np.abs(p @ P - p)) < 1e-12


def test_slem_of_independent_units():
    """Zero weights: G converges in one sweep (SLEM 0); T oscillates with factor (1 - p*)/p* (sec. 5.1)."""
    g = rng(2013, "test_bruegge2013", "independent")
    b, c = g.normal(0, 1.5, 2), g.normal(0, 1.5, 2)
    rbm = RBM(np.zeros((2, 2)), b, c)
    assert slem(sweep_transition_matrix(rbm, Gibbs())) < 1e-12
    p_star = np.maximum(expit(np.r_[b, c]), 1 - expit(np.r_[b, c]))
    expected = np.max((1 - p_star) / p_star)
    assert abs(slem(sweep_transition_matrix(rbm, FlipTheState())) - expected) < 1e-10
    zero = RBM(np.zeros((2, 2)), np.zeros(2), np.zeros(2))
    assert slem(sweep_transition_matrix(zero, Gibbs())) < 1e-12


def test_slem_study_and_fractions():
    df = slem_study(2, [1, 4], 3, seed=7, blend_alpha=0.5)
    assert len(df) == 6 and df["stationarity_error"].max() < 1e-12
    assert ((df["slem_G"] >= 0) & (df["slem_G"] <= 1 + 1e-12)).all()
    fr = summaries.slem_fractions(df)
    manual = df.assign(b=df.slem_T < df.slem_G).groupby("c")["b"].mean().to_numpy()
    np.testing.assert_allclose(fr["fraction_T_better"].to_numpy(), manual)
    # the study is reproducible from its seed
    pd.testing.assert_frame_equal(df, slem_study(2, [1, 4], 3, seed=7, blend_alpha=0.5))


def test_table1_wilcoxon_and_medians():
    g = rng(2013, "test_bruegge2013", "table1")
    base = g.normal(-10, 1, 12)
    rows = [
        {
            "benchmark": "bas",
            "algorithm": "cd",
            "lr": 0.05,
            "operator": op,
            "repeat": r,
            "max_ll": base[r] + (0.5 if op == "T" else 0) + 0.01 * g.normal(),
        }
        for r in range(12)
        for op in ("G", "T")
    ]
    t = summaries.table1(pd.DataFrame(rows)).iloc[0]
    d = pd.DataFrame(rows).pivot(index="repeat", columns="operator", values="max_ll")
    assert t["wilcoxon_p"] == pytest.approx(stats.wilcoxon(d["T"], d["G"]).pvalue)
    assert t["significant"] and t["T_at_least_G"]
    assert t["median_max_ll_T"] == pytest.approx(np.median(d["T"]))


def test_table2_gain():
    pc = pd.DataFrame(
        {
            "benchmark": "bas",
            "repeat": [0, 0, 1, 1],
            "chain": [0, 1, 0, 1],
            "tau_ar_G": [4.0, 6.0, 10.0, 10.0],
            "tau_ar_T": [2.0, 4.0, 9.0, 9.0],
            "tau_int_G": 1.0,
            "tau_int_T": 1.0,
        }
    )
    t = summaries.table2(pc).iloc[0]
    assert t["tau_G"] == 7.5 and t["tau_T"] == 6.0 and t["gain_percent"] == pytest.approx(20.0)
    assert t["rbms_with_positive_gain"] == 2


def test_tables34_quartiles_and_censoring():
    runs = {
        "modes_0p1": {
            "repeat": np.arange(3),
            "changes_G": np.array([1, 2, 3]),
            "changes_T": np.array([5, 6, 7]),
            "first_G": np.array([[1.0, np.inf, np.nan], [2.0, 3.0, 4.0], [np.inf, 5.0, 1.0]]),
            "first_T": np.ones((3, 3)),
        }
    }
    t3 = summaries.table3(runs).set_index("operator")
    assert t3.loc["G", "median"] == 2 and t3.loc["T", "median"] == 6
    t4 = summaries.table4(runs, 10).set_index("operator")
    assert t4.loc["G", "n_starts"] == 8 and t4.loc["G", "censored"] == pytest.approx(2 / 8)
    # sorted: 1, 1, 2, 3, 4, 5, inf, inf; inverted-CDF quantiles
    assert (t4.loc["G", "q25"], t4.loc["G", "median"], t4.loc["G", "q75"]) == (1.0, 3.0, 5.0)


def test_pt_training_is_reproducible_and_learns():
    """t-PT_k training (PTChains): identical for identical seeds; the exact log-likelihood rises on 4x4 BAS."""
    bench = benchmarks.make_benchmark("bas", 1)
    recipe = {"algorithm": "pt", "k": 1, "lr": 0.1, "n_updates": 1000, "n_temperatures": 3}
    m1, u, ll = train.train(bench, recipe, "T", 0, 5, "test", eval_every=500)
    m2, _, ll2 = train.train(bench, recipe, "T", 0, 5, "test", eval_every=500)
    np.testing.assert_array_equal(m1.W, m2.W)
    np.testing.assert_array_equal(ll, ll2)
    np.testing.assert_array_equal(u, [0, 500, 1000])
    # 1000 full-batch updates at lr 0.1 from N(0, 0.01^2) weights leave the symmetric start (-16 log 2)
    assert ll[0] == pytest.approx(-16 * np.log(2), abs=0.01) and ll[-1] > ll[0] + 0.5


def test_learning_recipe_and_curve_override():
    learning = {"n_updates": {"bas": 2000, "mnist": 200}, "k": 5, "pt_k": 1, "pt_temperatures": 5, "pt_replicas": None}
    curve = {"benchmark": "bas", "algorithm": "cd", "lr": 0.05, "n_updates": 20000}
    assert recipes.learning_recipe(learning, curve, "bas", "cd", 0.05)["n_updates"] == 20000
    assert recipes.learning_recipe(learning, curve, "bas", "cd", 0.1)["n_updates"] == 2000
    r = recipes.learning_recipe(learning, curve, "mnist", "pt", 0.05)
    assert (r["n_updates"], r["k"], r["n_temperatures"]) == (200, 1, 5)
    assert recipes.recipe_label(r) == "5-PT1, lr 0.05, 200 updates"
    assert recipes.learning_recipe(learning, {**curve, "n_updates": None}, "bas", "cd", 0.05)["n_updates"] == 2000


@pytest.mark.parametrize("op", [Gibbs(), FlipTheState()], ids=repr)
def test_class_runs_on_a_deterministic_model(op):
    """Visible biases +-50 towards basic mode 0, no weights: every sweep lands on mode 0 (P > 1 - 1e-20)."""
    rbm = RBM(np.zeros((16, 4)), np.where(BASIC_MODES[0] == 1, 50.0, -50.0), np.zeros(4))
    starts = BASIC_MODES[[1, 0, 2]].astype(np.float64)
    first = class_changes.first_change_steps(rbm, op, starts, 5, ChainStreams.from_seed(1, "cls", n_chains=3))
    np.testing.assert_array_equal(first, [1.0, np.inf, 1.0])
    cls = class_changes.class_sequence(rbm, op, np.ones((1, 16)), 4, ChainStreams.from_seed(1, "seq", n_chains=1))
    np.testing.assert_array_equal(cls[:, 0], [-1, 0, 0, 0, 0])  # all-ones is equidistant (8) from the four modes


def test_merge_shards_concatenates_per_benchmark_in_order():
    a = {"repeat": np.array([0, 1]), "first_G": np.ones((2, 3))}
    b = {"repeat": np.array([2]), "first_G": np.zeros((1, 3))}
    c = {"repeat": np.array([0]), "first_G": np.full((1, 3), 2.0)}
    runs = summaries.merge_shards(["modes_0p1", "modes_0p01", "modes_0p1"], [a, c, b])
    np.testing.assert_array_equal(runs["modes_0p1"]["repeat"], [0, 1, 2])
    assert runs["modes_0p1"]["first_G"].shape == (3, 3) and runs["modes_0p01"]["first_G"][0, 0] == 2.0


PERTURBED_DATA = {"modes_train_size": 37, "batch_size": 7, "mnist_hidden": 3, "mnist_eval_size": 5}


@pytest.mark.parametrize("bench", sorted(DATA_KEYS))
def test_a_benchmark_depends_on_its_data_keys_only(bench):
    """The rules pass each benchmark only DATA_KEYS[bench]: any other data setting must not change it."""
    mnist = rng(2013, "test_bruegge2013", "fake_mnist").integers(0, 2, (20, 6)).astype(np.float64)
    base = {"modes_train_size": 50, "batch_size": 10, "mnist_hidden": 4, "mnist_eval_size": 8}
    others = {k: v for k, v in PERTURBED_DATA.items() if k not in DATA_KEYS[bench]}
    a = benchmarks.make_benchmark(bench, 3, mnist=mnist, **base)
    b = benchmarks.make_benchmark(bench, 3, mnist=mnist, **{**base, **others})
    np.testing.assert_array_equal(a.X_train, b.X_train)
    np.testing.assert_array_equal(a.X_eval, b.X_eval)
    assert (a.n_hidden, a.batch_size) == (b.n_hidden, b.batch_size)
    for key in DATA_KEYS[bench]:  # and each listed key does matter
        c = benchmarks.make_benchmark(bench, 3, mnist=mnist, **{**base, key: PERTURBED_DATA[key]})
        assert (c.X_train.shape, c.X_eval.shape, c.n_hidden, c.batch_size) != (
            a.X_train.shape,
            a.X_eval.shape,
            a.n_hidden,
            a.batch_size,
        )


def test_trained_models_round_trip_through_their_arrays():
    """The model file of a shard (train_models) gives back the trained RBMs exactly, in repeat order."""
    bench = benchmarks.make_benchmark("bas", 1)
    recipe = {"algorithm": "cd", "k": 1, "lr": 0.1, "n_updates": 20}
    arrays = train.train_models(bench, recipe, [3, 5], 7, "classes")
    np.testing.assert_array_equal(arrays["repeat"], [3, 5])
    for rbm, r in zip(unstack_models(arrays), [3, 5], strict=True):
        direct, _, _ = train.train(bench, recipe, "G", r, 7, "classes_models")
        np.testing.assert_array_equal(rbm.W, direct.W)
        np.testing.assert_array_equal(rbm.c, direct.c)
    with pytest.raises(ValueError):
        train.model_key("table1", recipe)
