"""Figure 5, one shard: mean-field bound and exact ln P(V) on random networks keyed by index."""

from bmrep.io import save_npz
from bmrep.papers.saul1996.fig5 import fig5_networks
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import shard_ranges

log, cfg = setup_job(snakemake)  # noqa: F821
shard = int(snakemake.wildcards.shard)  # noqa: F821
indices = shard_ranges(cfg["n_networks"], cfg["shard_size"])[shard]
r = cfg["weight_range"]
res = fig5_networks(
    snakemake.params.seed,
    indices,
    sizes=tuple(cfg["sizes"]),
    low=-r,
    high=r,  # noqa: F821
    tol=cfg["solver"]["tol"],
    max_iter=cfg["solver"]["max_iter"],
)
log.info(
    "networks %d..%d: mean MF relative error %.4f", indices.start, indices.stop - 1, res["mf_relative_error"].mean()
)
save_npz(snakemake.output.networks, **res)  # noqa: F821
