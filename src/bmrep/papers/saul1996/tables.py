"""Tables 1-3 of Saul, Jaakkola & Jordan (1996) for one dataset, from the ten networks' test bounds.

Table 1: confusion matrix of the mean-field classifier; Table 2: its error rate
beside baselines on the same split; Table 3: the normalised log-likelihood score
per digit (section 4). :func:`classification_tables` makes them for one split,
:func:`combine_splits` over the seeded splits (the repeats): Table 1 summed,
Tables 2 and 3 as mean and standard error.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...progress import track
from .paper_numbers import PAPER_TABLE2, PAPER_TABLE3, PAPER_TABLE3_ALL


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
    for s in track(range(0, len(X_test), chunk), "test images bounded (chunks)"):
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
    rows.append(
        row(
            "back-propagation", backprop_predict(data["X_train"], data["y_train"], data["X_test"], **bp) if bp else None
        )
    )
    rows.append(row("wake-sleep", None))
    rows.append(row("mean field", pred))
    table2 = pd.DataFrame(rows)

    n_vis = np.asarray(data["X_test"]).shape[1]
    scores = [bounds[y == d, d].mean() / (n_vis * np.log(2.0)) for d in range(10)]
    table3 = pd.DataFrame(
        {
            "digit": [str(d) for d in range(10)] + ["all"],
            "score": scores + [float(np.mean(scores))],
            "paper_score": PAPER_TABLE3 + [PAPER_TABLE3_ALL],
            "n_test": [int((y == d).sum()) for d in range(10)] + [len(y)],
        }
    )
    return {"table1": table1, "table2": table2, "table3": table3}


def _mean_and_error(per_split: pd.DataFrame, key: str, value: str) -> pd.DataFrame:
    """Mean of ``value`` over splits per ``key`` (in first-split order), s = sd / sqrt(n), NaN for n = 1.

    ``n_splits`` counts the splits with a value (0 for a baseline that was not run).
    """
    g = per_split.groupby(key, sort=False)[value]
    n = g.count()
    se = (g.std(ddof=1) / np.sqrt(n)).where(n >= 2)
    return pd.DataFrame({value: g.mean(), "std_error": se, "n_splits": n}).reset_index()


def combine_splits(per_split: list[dict[str, pd.DataFrame]]) -> dict[str, pd.DataFrame]:
    """Tables 1-3 over seeded splits, each split's tables from :func:`classification_tables`.

    Returns ``table1`` (confusion counts summed over splits), ``table2`` and
    ``table3`` (mean and standard error over splits; ``n_errors`` and
    ``n_test`` summed), and ``table2_per_split``, ``table3_per_split`` (every
    split's rows, with its index in column ``split``: the repeats the claims read).
    """
    if not per_split:
        raise ValueError("no splits to combine")
    table1 = per_split[0]["table1"].copy()
    counts = [c for c in table1.columns if c.startswith("pred_")]
    table1[counts] = sum(t["table1"][counts].to_numpy() for t in per_split)
    long = {
        k: pd.concat([t[k].assign(split=i) for i, t in enumerate(per_split)], ignore_index=True)
        for k in ("table2", "table3")
    }
    for k in long:
        long[k].insert(0, "split", long[k].pop("split"))
    t2 = long["table2"]
    first2 = per_split[0]["table2"].set_index("algorithm")
    table2 = _mean_and_error(t2, "algorithm", "error_rate").merge(
        t2.groupby("algorithm", sort=False)[["n_errors", "n_test"]].sum().reset_index(), on="algorithm"
    )
    table2["n_errors"] = table2["n_errors"].where(table2["error_rate"].notna(), -1)
    table2["paper_error_rate"] = first2.loc[table2["algorithm"], "paper_error_rate"].to_numpy()
    table2["evaluated"] = (
        first2.loc[table2["algorithm"], "evaluated"].str.replace("same split", "same splits").to_numpy()
    )
    t3 = long["table3"]
    first3 = per_split[0]["table3"].set_index("digit")
    table3 = _mean_and_error(t3, "digit", "score").merge(
        t3.groupby("digit", sort=False)["n_test"].sum().reset_index(), on="digit"
    )
    table3["paper_score"] = first3.loc[table3["digit"], "paper_score"].to_numpy()
    return {
        "table1": table1,
        "table2": table2,
        "table3": table3,
        "table2_per_split": long["table2"],
        "table3_per_split": long["table3"],
    }
