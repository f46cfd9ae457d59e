"""Figs. 2/3, one shard: exact KLD and log-likelihood curves for experiments keyed by (R, index)."""

from bmrep.io import save_npz
from bmrep.papers.yokoyama2019.train_kld import kld_curves
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import shard_ranges

log, cfg = setup_job(snakemake)  # noqa: F821
R, shard = int(snakemake.wildcards.R), int(snakemake.wildcards.shard)  # noqa: F821
experiments = shard_ranges(cfg["n_experiments"], cfg["shard_size"])[shard]
res = kld_curves(
    snakemake.params.seed,
    R,
    experiments,
    cfg["s_values"],
    cfg["epochs"],
    cfg["adam_lr"],  # noqa: F821
    n_visible=cfg["n_visible"],
    n_hidden_gen=cfg["n_hidden_gen"],
    n_data=cfg["n_data"],
    cd_k=cfg["cd_k"],
    record_every=cfg["record_every"],
)
log.info(
    "R=%d experiments %d..%d: final mean KLD per s %s",
    R,
    experiments.start,
    experiments.stop - 1,
    res["kld"][:, :, -1].mean(0),
)
save_npz(snakemake.output[0], R=R, **res)  # noqa: F821
