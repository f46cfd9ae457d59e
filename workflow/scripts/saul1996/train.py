"""Tables 1-3, one split and digit: train its 8x24x64 network on the bound; bound every test image of the split."""

import time

import numpy as np

from bmrep.io import load_npz, save_model, save_npz
from bmrep.papers.saul1996.train import test_bounds, train_digit_network
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, cfg = setup_job(snakemake)  # noqa: F821
w = snakemake.wildcards  # noqa: F821
digit, split = int(w.digit), int(w.split)
seed_key = ["saul1996", w.dataset, "split", split, "digit", digit]  # a split's networks are trained from scratch
data = load_npz(snakemake.input.data)  # noqa: F821
X = data["X_train"][data["y_train"] == digit]
solver = cfg["solver"]
start = time.time()
net, hist = train_digit_network(
    X,
    sizes=tuple(cfg["sizes"]),
    learning_rate=cfg["learning_rate"],
    n_sweeps=cfg["n_sweeps"],
    init_std=cfg["init_std"],
    rng=rng(snakemake.params.seed, *seed_key),  # noqa: F821
    tol=solver["tol"],
    max_iter=solver["max_iter"],
)
train_time = time.time() - start
log.info(
    "split %d, digit %d: %d patterns, mean bound per sweep %s (%.1f s)",
    split,
    digit,
    len(X),
    hist["mean_bound"],
    train_time,
)
save_model(
    snakemake.output.model,
    {
        "edge_child": net.edge_child,
        "edge_parent": net.edge_parent,  # noqa: F821
        "weights": net.weights,
        "biases": net.biases,
        "layers": np.array(net.layers),
    },
    {
        "paper": "saul1996",
        "dataset": w.dataset,
        "split": split,
        "digit": digit,
        "n_train": len(X),
        "settings": cfg,
        "seed_key": seed_key,
        "root_seed": snakemake.params.seed,  # noqa: F821
        "training_seconds": train_time,
        "mean_bound_per_sweep": hist["mean_bound"],
        "mean_iterations_per_sweep": hist["mean_iterations"],
    },
)
b = test_bounds(net, data["X_test"], tol=solver["tol"], max_iter=solver["max_iter"], n_threads=snakemake.threads)  # noqa: F821
save_npz(snakemake.output.bounds, bounds=b, digit=np.array(digit))  # noqa: F821
log.info("bounded %d test images (%.1f s total)", len(b), time.time() - start)
