"""Time of one small-RBM training update: ours (compiled) against the numpy loop and scikit-learn.

Brügge et al. (2013, sec. 4.2) train hundreds of 16x16 RBMs (Bars and
Stripes, Artificial Modes) and 784x10 RBMs (MNIST) by minibatch SGD. One
update here is PCD-1 with Gibbs sampling on a minibatch of 100 (the work of
scikit-learn's ``BernoulliRBM.partial_fit``: one persistent Gibbs step, the
gradient, the SGD step), timed three ways on the same data:

* ``ours``: :func:`bmrep.learning.rbm_training.train_rbm`, whose update is
  one compiled call (``bmrep.learning._rbm_step``), per update of a
  200-update training (the loop, minibatch draws and all);
* ``numpy``: the same training through the numpy update (``rbm_gradient`` and
  ``SGD.step``; the same bits, ``tests/learning/test_rbm_step.py``);
* ``sklearn``: ``BernoulliRBM.partial_fit`` on the minibatch.

Run: ``.venv/bin/python benchmarks/bench_small_rbm.py [--quick]``; writes
``benchmarks/out/small_rbm.csv``. One BLAS thread, thread CPU time, the
three timed in interleaved blocks (repeats) so they see the same machine
state; ratios are medians of the per-block ratios.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.neural_network import BernoulliRBM
from threadpoolctl import threadpool_limits

from bmrep.learning.negative_phases import CDChains
from bmrep.learning.optimizers import SGD
from bmrep.learning.rbm_training import rbm_gradient, train_rbm
from bmrep.models.rbm import RBM
from bmrep.pipeline.runtime import keep_freed_memory
from bmrep.sampling.operators import Gibbs
from bmrep.sampling.streams import ChainStreams

keep_freed_memory()  # the jobs' malloc settings (bmrep.pipeline.runtime.setup_job)
OUT = Path(__file__).resolve().parent / "out" / "small_rbm.csv"
SIZES = [(16, 16), (784, 10)]
BATCH, N_DATA, LR = 100, 1000, 0.05


def _numpy_gradient(model, vd, vm):
    return rbm_gradient(model, vd, vm)  # not rbm_gradient itself: train_rbm then runs its numpy update


def ours(X, n_hidden, n_updates, compiled=True):
    """Seconds per update of a PCD-1 (Gibbs) training of ``n_updates`` updates."""
    rbm = RBM.random(X.shape[1], n_hidden, np.random.default_rng(0))
    chains = CDChains(Gibbs(), 1, persistent=True, streams=ChainStreams.from_seed(0, "bench", n_chains=BATCH))
    t0 = time.thread_time()
    train_rbm(
        rbm,
        X,
        negative_phase=chains,
        batch_size=BATCH,
        n_updates=n_updates,
        optimizer=SGD(LR),
        rng=np.random.default_rng(1),
        gradient=rbm_gradient if compiled else _numpy_gradient,
    )
    return (time.thread_time() - t0) / n_updates


def sklearn(X, n_hidden, n_updates):
    """Seconds per ``partial_fit`` call on a minibatch of ``BATCH`` rows."""
    r = BernoulliRBM(n_components=n_hidden, learning_rate=LR, batch_size=BATCH, random_state=0)
    r.partial_fit(X[:BATCH])
    t0 = time.thread_time()
    for i in range(n_updates):
        s = (i * BATCH) % len(X)
        r.partial_fit(X[s : s + BATCH])
    return (time.thread_time() - t0) / n_updates


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer blocks (noisier)")
    args = ap.parse_args()
    threadpool_limits(1)
    blocks = 5 if args.quick else 15
    rng = np.random.default_rng(0)
    rows = []
    for n, m in SIZES:
        X = (rng.random((N_DATA, n)) < 0.3).astype(np.float64)
        n_up = 200 if n * m < 1000 else 40
        t = {"ours": [], "numpy": [], "sklearn": []}
        for _ in range(blocks):
            t["ours"].append(ours(X, m, n_up))
            t["numpy"].append(ours(X, m, n_up, compiled=False))
            t["sklearn"].append(sklearn(X, m, n_up))
        a = {k: np.array(v) for k, v in t.items()}
        row = {
            "size": f"{n}x{m}",
            "batch": BATCH,
            "ours_s": np.median(a["ours"]),
            "numpy_s": np.median(a["numpy"]),
            "sklearn_s": np.median(a["sklearn"]),
            "numpy/ours": np.median(a["numpy"] / a["ours"]),
            "sklearn/ours": np.median(a["sklearn"] / a["ours"]),
            "sklearn/ours_q1": np.percentile(a["sklearn"] / a["ours"], 25),
            "sklearn/ours_q3": np.percentile(a["sklearn"] / a["ours"], 75),
        }
        rows.append(row)
        print(
            f"{n}x{m}, minibatch {BATCH}, PCD-1: ours {1e6 * row['ours_s']:.1f} us, numpy loop "
            f"{1e6 * row['numpy_s']:.1f} us ({row['numpy/ours']:.2f}x), sklearn partial_fit "
            f"{1e6 * row['sklearn_s']:.1f} us ({row['sklearn/ours']:.2f}x, quartiles "
            f"{row['sklearn/ours_q1']:.2f}-{row['sklearn/ours_q3']:.2f})"
        )
    OUT.parent.mkdir(exist_ok=True)
    pd.DataFrame(rows).to_csv(OUT, index=False)
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
