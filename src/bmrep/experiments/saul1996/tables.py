"""Tables 1-3 of Saul, Jaakkola & Jordan (1996) for one dataset, from the ten networks' test bounds.

Table 1: confusion matrix of the mean-field classifier; Table 2: its error rate
beside baselines on the same split; Table 3: the normalised log-likelihood score
per digit (section 4).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

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
