"""Experiments of Saul, Jaakkola & Jordan (1996): Figure 2, Figure 5 shards and summary, training, tables."""

import numpy as np
import pytest

from bmrep.datasets import derived
from bmrep.papers.saul1996 import fig2, fig5, summaries, tables, train
from bmrep.papers.saul1996.paper_numbers import PAPER_FIG2
from bmrep.seeds import rng
from support.testsystems import random_sbn


def test_fig2_numbers_to_three_decimals():
    curve, nums = fig2.fig2_curve(np.linspace(0, 1, 11))
    assert round(nums["exact"], 3) == 0.806
    assert round(nums["min_bound"], 3) == 0.818
    assert round(nums["xi0_bound"], 3) == 0.974
    assert np.all(curve["bound"] >= nums["min_bound"] - 1e-12)
    assert np.all(curve["bound"] > curve["exact"])
    table = fig2.fig2_table(curve, nums).set_index("quantity")
    assert table.loc[list(PAPER_FIG2), "paper_value"].tolist() == list(PAPER_FIG2.values())
    assert table.loc["min_bound", "xi"] == nums["xi_star"] and len(table.loc["bound_curve"]) == 11


def test_fig5_does_not_depend_on_sharding():
    whole = fig5.fig5_networks(11, range(12))
    a = fig5.fig5_networks(11, range(5))
    b = fig5.fig5_networks(11, range(5, 12))
    for k in whole:
        assert np.array_equal(whole[k], np.concatenate([a[k], b[k]]))


def test_fig5_shards_merge_in_network_order_and_must_cover_all():
    a, b = fig5.fig5_networks(11, range(5)), fig5.fig5_networks(11, range(5, 9))
    merged = summaries.merge_fig5_shards([b, a], 9)
    assert merged["index"].tolist() == list(range(9))
    assert np.array_equal(merged["bound"], np.concatenate([a["bound"], b["bound"]]))
    with pytest.raises(ValueError, match="exactly once"):
        summaries.merge_fig5_shards([b, a], 10)
    with pytest.raises(ValueError, match="exactly once"):
        summaries.merge_fig5_shards([a, a, b])


def test_fig5_exact_values_and_bound():
    res = fig5.fig5_networks(12, range(30))
    # network 7 rebuilt independently: exact ln P(V = 0) by enumerating 2^6 hidden states
    net = random_sbn((2, 4, 6), rng(12, "saul1996", "fig5", 7))
    codes = np.arange(64)
    states = np.zeros((64, 12))
    states[:, :6] = (codes[:, None] >> np.arange(6)) & 1
    assert np.isclose(res["exact"][7], np.logaddexp.reduce(net.log_joint(states)), atol=1e-12)
    assert np.all(res["bound"] <= res["exact"] + 1e-9)
    assert np.all(res["mf_relative_error"] >= -1e-9)
    assert np.allclose(res["uniform_relative_error"], -6 * np.log(2) / res["exact"] - 1)
    s = summaries.fig5_summary(res).set_index("statistic")["value"]
    assert s["n_networks"] == 30
    assert np.isclose(s["rms_uniform_relative_error"], np.sqrt(np.mean(res["uniform_relative_error"] ** 2)))


def test_confusion_and_nearest_neighbour():
    C = tables.confusion_matrix(np.array([0, 0, 1, 2]), np.array([0, 1, 1, 2]), n_classes=3)
    assert C.tolist() == [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    Xtr = np.array([[0, 0, 0, 0], [1, 1, 1, 1], [1, 1, 0, 0]], dtype=np.uint8)
    ytr = np.array([3, 5, 7])
    Xte = np.array([[0, 0, 0, 1], [1, 1, 1, 0], [1, 1, 0, 0]], dtype=np.uint8)
    assert tables.nearest_neighbour_predict(Xtr, ytr, Xte).tolist() == [3, 5, 7]


def _toy_data(n_per_digit=4):
    y = np.repeat(np.arange(10), n_per_digit)
    X = np.zeros((len(y), 64), dtype=np.uint8)
    X[np.arange(len(y)), y] = 1  # digit d lights pixel d: nearest neighbour is perfect
    return {"X_train": X, "y_train": y, "X_test": X.copy(), "y_test": y.copy()}


def test_classification_tables_from_bounds():
    data = _toy_data()
    y = data["y_test"]
    bounds = np.full((len(y), 10), -50.0)
    bounds[np.arange(len(y)), y] = -30.0
    bounds[0, 3] = -10.0  # one image of digit 0 goes to network 3
    t = tables.classification_tables(bounds, data, baselines={})
    C = t["table1"][[f"pred_{d}" for d in range(10)]].to_numpy()
    assert C.sum() == len(y) and C[0, 3] == 1 and np.trace(C) == len(y) - 1
    t2 = t["table2"].set_index("algorithm")
    assert np.isclose(t2.loc["mean field", "error_rate"], 1 / len(y))
    assert t2.loc["nearest neighbour", "error_rate"] == 0.0
    assert np.isnan(t2.loc["wake-sleep", "error_rate"])
    t3 = t["table3"].set_index("digit")
    assert np.isclose(t3.loc["0", "score"], -30.0 / (64 * np.log(2)))
    assert np.isclose(t3.loc["all", "score"], t3["score"].iloc[:10].mean())


def _split_tables(mf_wrong, nn_wrong, score, data):
    """One split's Tables 1-3 with ``mf_wrong`` mean-field errors and ``nn_wrong`` nearest-neighbour errors."""
    y = data["y_test"]
    bounds = np.full((len(y), 10), -50.0)
    bounds[np.arange(len(y)), y] = score
    bounds[np.arange(mf_wrong), (y[:mf_wrong] + 1) % 10] = 0.0
    t = tables.classification_tables(bounds, data, baselines={})
    t2 = t["table2"].set_index("algorithm")
    t2.loc["nearest neighbour", ["error_rate", "n_errors"]] = nn_wrong / len(y), nn_wrong
    t["table2"] = t2.reset_index()
    return t


def test_combine_splits_sums_table1_and_gives_mean_and_error_over_splits():
    data = _toy_data()
    n = len(data["y_test"])
    splits = [_split_tables(1, 4, -30.0, data), _split_tables(3, 5, -20.0, data), _split_tables(2, 9, -25.0, data)]
    t = tables.combine_splits(splits)
    counts = [f"pred_{d}" for d in range(10)]
    assert np.array_equal(t["table1"][counts].to_numpy(), sum(s["table1"][counts].to_numpy() for s in splits))
    assert t["table1"][counts].to_numpy().sum() == 3 * n
    t2 = t["table2"].set_index("algorithm")
    mf = np.array([1, 3, 2]) / n
    assert t2.loc["mean field", "error_rate"] == pytest.approx(mf.mean())
    assert t2.loc["mean field", "std_error"] == pytest.approx(mf.std(ddof=1) / np.sqrt(3))
    assert t2.loc["mean field", "n_errors"] == 6 and t2.loc["mean field", "n_test"] == 3 * n
    assert t2.loc["nearest neighbour", "error_rate"] == pytest.approx(18 / (3 * n))
    assert np.isnan(t2.loc["wake-sleep", "error_rate"]) and t2.loc["wake-sleep", "n_errors"] == -1
    assert t2["n_splits"].tolist() == [3, 0, 0, 3] and t2.loc["mean field", "evaluated"] == "same splits"
    t3 = t["table3"].set_index("digit")
    per = np.array([-30.0, -20.0, -25.0]) / (64 * np.log(2))
    assert t3.loc["all", "score"] == pytest.approx(per.mean())
    assert t3.loc["all", "std_error"] == pytest.approx(per.std(ddof=1) / np.sqrt(3))
    per_split = t["table2_per_split"]
    assert per_split.columns[0] == "split" and len(per_split) == 3 * 4
    mf_rows = per_split[per_split["algorithm"] == "mean field"]
    assert mf_rows["split"].tolist() == [0, 1, 2] and np.allclose(mf_rows["error_rate"], mf)
    assert t["table3_per_split"]["split"].tolist() == [i for i in range(3) for _ in range(11)]


def test_combine_one_split_has_no_standard_error():
    t = tables.combine_splits([_split_tables(1, 4, -30.0, _toy_data())])
    assert np.isnan(t["table2"].set_index("algorithm").loc["mean field", "std_error"])
    with pytest.raises(ValueError, match="no splits"):
        tables.combine_splits([])


def test_splits_differ_and_each_is_reproducible():
    """Split s of a dataset uses the stream (seed, saul1996, dataset, split, s): splits differ, a split repeats."""
    pooled = derived.digits8(np.random.default_rng(0))
    split = {s: derived.resplit_per_digit(pooled, rng(7, "saul1996", "digits8", "split", s)) for s in (0, 1)}
    again = derived.resplit_per_digit(pooled, rng(7, "saul1996", "digits8", "split", 0))
    for k in ("X_train", "y_train", "X_test", "y_test"):
        assert np.array_equal(split[0][k], again[k])
    assert not np.array_equal(split[0]["X_train"], split[1]["X_train"])
    n_pooled = len(pooled["y_train"]) + len(pooled["y_test"])
    for s in split.values():  # same per-digit counts, all images used once
        assert np.array_equal(np.bincount(s["y_train"]), np.bincount(split[0]["y_train"]))
        assert len(s["y_train"]) + len(s["y_test"]) == n_pooled
        assert s["X_train"].sum() + s["X_test"].sum() == pooled["X_train"].sum() + pooled["X_test"].sum()


def test_resplit_of_mnist8_sized_set_gives_700_and_400_per_digit():
    y = np.repeat(np.arange(10), 1100)
    X = (np.arange(11000)[:, None] >> np.arange(64) & 1).astype(np.uint8)  # every image distinct
    d = derived.resplit_per_digit(
        {"X_train": X[:7000], "y_train": y[:7000], "X_test": X[7000:], "y_test": y[7000:]}, rng(1, "s")
    )
    assert np.bincount(d["y_train"]).tolist() == [700] * 10 and np.bincount(d["y_test"]).tolist() == [400] * 10
    images = {r.tobytes() for r in np.concatenate([d["X_train"], d["X_test"]])}
    assert len(images) == 11000  # each pooled image lands in exactly one of train and test


def test_train_digit_network_is_reproducible():
    X = (rng(3, "digits").random((20, 64)) < 0.3).astype(np.uint8)
    kw = {"sizes": (2, 3, 64), "learning_rate": 0.05, "n_sweeps": 1, "init_std": 0.1, "tol": 1e-8, "max_iter": 200}
    a, _ = train.train_digit_network(X, rng=rng(3, "t"), **kw)
    b, _ = train.train_digit_network(X, rng=rng(3, "t"), **kw)
    assert np.array_equal(a.weights, b.weights) and np.array_equal(a.biases, b.biases)
