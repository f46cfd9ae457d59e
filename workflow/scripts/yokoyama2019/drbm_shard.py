"""Fig. 6, one shard: DRBM training/test errors for experiments keyed by index."""

from bmrep.io import load_npz, save_npz
from bmrep.papers.yokoyama2019.train_drbm import (
    drbm_curves,
    eval_epoch_grid,
    noisy_test_set,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import shard_ranges

log, cfg = setup_job(snakemake)  # noqa: F821
shard = int(snakemake.wildcards.shard)  # noqa: F821
experiments = shard_ranges(cfg["n_experiments"], cfg["shard_size"])[shard]
mnist = load_npz(snakemake.input[0])  # noqa: F821
n_test = cfg["n_test"] or mnist["X_test"].shape[0]
x_test = noisy_test_set(snakemake.params.seed, mnist["X_test"][:n_test], cfg["noise_sigma"])  # noqa: F821
res = drbm_curves(
    snakemake.params.seed,
    experiments,
    cfg["s_values"],
    x_train_uint8=mnist["X_train"],
    y_train=mnist["y_train"],
    x_test=x_test,
    y_test=mnist["y_test"][:n_test],
    n_train=cfg["n_train"],
    n_hidden=cfg["n_hidden"],
    batch_size=cfg["batch_size"],
    lr=cfg["adamax_lr"],
    epochs=cfg["epochs"],
    eval_epochs=eval_epoch_grid(cfg["epochs"], cfg["n_eval"]),
)
log.info(
    "experiments %s: final train %s test %s",
    list(experiments),
    res["train_error"][:, :, -1],
    res["test_error"][:, :, -1],
)
save_npz(snakemake.output[0], **res)  # noqa: F821
