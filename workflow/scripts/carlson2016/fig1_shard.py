"""Fig. 1, one shard of seeds: RTS initial iterations on the 784-10 MNIST RBM, with and without RB, and the main run."""

import pandas as pd

from bmrep.io import frame_arrays, load_model, load_npz, save_npz
from bmrep.models.rbm import RBM
from bmrep.papers.carlson2016.base import base_bias_for
from bmrep.papers.carlson2016.fig1 import fig1_exact_log_z, fig1_seed
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
bb = base_bias_for(sm.params.base, load_npz(sm.input.data)["X_train"], sm.params.pseudo_count)
exact_lz = fig1_exact_log_z(rbm, bb, cfg["K"])
seeds = [fig1_seed(rbm, bb, cfg, int(sm.params.seed), r, exact_lz) for r in sm.params.repeats]
df = pd.concat([s[0] for s in seeds], ignore_index=True)
main = pd.concat([s[1] for s in seeds], ignore_index=True)
for seed, g in df.groupby("seed"):
    m = main[main["seed"] == seed].iloc[-1]
    log.info(
        "seed %d: RB converged at %d; log Z_K - exact after the iterations %+.3f, after the main run %+.3f",
        seed, g[g["variant"] == "RB"]["converged_at"].iloc[0], m["init_log_z"] - m["exact"], m["log_z"] - m["exact"],
    )  # fmt: skip
save_npz(sm.output.npz, **frame_arrays(df))
save_npz(sm.output.main, **frame_arrays(main))
