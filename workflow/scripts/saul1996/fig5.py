"""Figure 5: relative-error histograms and summary over all shards."""

import numpy as np

from bmrep.experiments.saul1996 import fig5_summary
from bmrep.io import load_npz, write_csv
from bmrep.plotting.saul1996 import plot_fig5
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
parts = [load_npz(p) for p in snakemake.input]  # noqa: F821
res = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
order = np.argsort(res["index"])
res = {k: v[order] for k, v in res.items()}
if not np.array_equal(res["index"], np.arange(cfg["n_networks"])):
    raise ValueError("fig5 shards do not cover networks 0..n_networks-1 exactly once")
summary = fig5_summary(res)
write_csv(snakemake.output.csv, summary)  # noqa: F821
log.info("\n%s", summary.to_string())
sizes = "x".join(map(str, cfg["sizes"]))
plot_fig5(res["mf_relative_error"], res["uniform_relative_error"], summary, snakemake.output.png,  # noqa: F821
          caption(snakemake.params.profile, networks=f"{cfg['n_networks']} random {sizes}",  # noqa: F821
                  weights=f"U[-{cfg['weight_range']}, {cfg['weight_range']}]", evidence="bottom layer all 0"))
