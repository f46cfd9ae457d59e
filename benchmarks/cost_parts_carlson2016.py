"""CPU time of carlson2016's Fig. 4, Fig. 5 and training parts: the measurements behind their cost_scaling.yaml weights.

Not a ``bench_*`` script (``make bench`` does not run it): it measures what a job's parts cost at given settings,
so that ``src/bmrep/ops/records/cost_scaling.yaml`` weighs work that grows with different keys (issue 52). One BLAS
thread; process CPU time per part (a busy machine stretches wall time, not this). Prints one JSON line per run.

    # Fig. 4 at the paper's shape (784-500 float64, 100 chains): sweeps, TI-RB, MBAR per K
    python benchmarks/cost_parts_carlson2016.py fig4 MODEL.npz mnist_binary.npz N_SWEEPS MBAR_SAMPLES 10,100,1000
    # Fig. 5 on dna at the default's settings: pretraining, AIS checkpoints, the rest (the tempered sweeps)
    python benchmarks/cost_parts_carlson2016.py fig5 dna.npz N_CHAINS N_UPDATES AIS_EVERY
    # the MNIST models' training: an update of the default's PCD-1 and of the paper's CD-25, per hidden size
    python benchmarks/cost_parts_carlson2016.py train mnist_binary.npz N_UPDATES 10,100,500

MODEL is a trained 784-500 RBM (``results/.../models/carlson2016/mnist_784x500.npz``, any profile's).
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
import yaml
from threadpoolctl import threadpool_limits

import bmrep.papers.carlson2016.fig4 as f4
import bmrep.papers.carlson2016.fig5 as f5
from bmrep.io import load_model, load_npz
from bmrep.learning.mnist_rbm import train_mnist_rbm
from bmrep.models.rbm import RBM
from bmrep.papers.carlson2016.base import base_bias_for

SEED = 20261121


def timed(module, names: tuple[str, ...], spent: dict) -> None:
    """Replace ``module``'s functions ``names`` by ones that add their CPU time to ``spent[name]``."""
    for name in names:
        fn = getattr(module, name)

        def wrapper(*args, _fn=fn, _name=name, **kwargs):
            t0 = time.process_time()
            try:
                return _fn(*args, **kwargs)
            finally:
                spent[_name] = spent.get(_name, 0.0) + time.process_time() - t0

        setattr(module, name, wrapper)


def fig4(model: str, data: str, n_sweeps: str, mbar_samples: str, Ks: str) -> None:
    spent: dict = {}
    timed(f4, ("rbm_tempered_run", "rao_blackwell_ti", "mbar_log_z"), spent)
    rbm = RBM.from_params(load_model(model)[0])
    base = base_bias_for("data", load_npz(data)["X_train"], 1.0)  # the config's base and pseudo-count
    settings = dict(n_chains=100, dtype="float64", init="ais", init_iterations=5, init_sweeps=50, burn_in=0,
                    n_sweeps=int(n_sweeps), mbar_max_K=1000, mbar_samples=int(mbar_samples))  # fmt: skip
    for K in map(int, Ks.split(",")):
        spent.clear()
        t0 = time.process_time()
        f4.fig4_run(rbm, base, K, settings, 0, SEED, "784x500")
        total = time.process_time() - t0
        print(json.dumps({"K": K, **settings, **{k: round(v, 2) for k, v in spent.items()}, "total": round(total, 2)}))


def fig5(data: str, n_chains: str, n_updates: str, ais_every: str) -> None:
    spent: dict = {}
    timed(f5, ("train_rbm", "ais_log_partition"), spent)
    cfg = yaml.safe_load(open("config/config.yaml"))["carlson2016"]["fig5"]
    cfg.update(n_chains=int(n_chains), n_updates=int(n_updates), ais_every=int(ais_every))
    X = load_npz(data)["X_train"].astype(np.float64)
    n_valid = int(round(cfg["validation_fraction"] * len(X)))
    t0 = time.process_time()
    f5.fig5_track_training(X[n_valid:], X[:n_valid], cfg, SEED)
    total = time.process_time() - t0
    keys = ("n_chains", "n_updates", "ais_every", "ais_replicates", "ais_runs", "ais_betas", "pretrain_updates")
    times = {k: round(v, 2) for k, v in spent.items()}
    print(json.dumps({**{k: cfg[k] for k in keys}, **times, "total": round(total, 2)}))


def train(data: str, n_updates: str, hidden: str) -> None:
    """Milliseconds per update of the default's recipe and the paper's (config/paper.yaml: CD-25); w in 1 + w k."""
    cfg = yaml.safe_load(open("config/config.yaml"))["carlson2016"]["training"]
    X = load_npz(data)["X_train"]
    for H in map(int, hidden.split(",")):
        ms = {}
        for rule, k in (("pcd", 1), ("cd", 25)):
            settings = {**cfg, "rule": rule, "k": k, "n_updates": int(n_updates)}
            t0 = time.process_time()
            train_mnist_rbm(X, H, settings, SEED)
            ms[k] = (time.process_time() - t0) / int(n_updates) * 1e3
        r = ms[25] / ms[1]  # (1 + 25 w) / (1 + w) = r
        print(json.dumps({"n_hidden": H, "ms_pcd1": round(ms[1], 2), "ms_cd25": round(ms[25], 2),
                          "ratio": round(r, 2), "w": round((r - 1) / (25 - r), 3)}))  # fmt: skip


if __name__ == "__main__":
    with threadpool_limits(1):
        {"fig4": fig4, "fig5": fig5, "train": train}[sys.argv[1]](*sys.argv[2:])
