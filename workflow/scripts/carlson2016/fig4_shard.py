"""Fig. 4, one shard: independent tempered runs at one K on the Fig. 4 model, one estimate per method and run."""

import pandas as pd

from bmrep.io import frame_arrays, load_model, load_npz, save_npz
from bmrep.models.rbm import RBM
from bmrep.papers.carlson2016.base import base_bias_for
from bmrep.papers.carlson2016.fig4 import fig4_run
from bmrep.pipeline.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
rbm = RBM.from_params(load_model(sm.input.model)[0])
bb = base_bias_for(sm.params.base, load_npz(sm.input.data)["X_train"], sm.params.pseudo_count)
df = pd.concat(
    [fig4_run(rbm, bb, int(sm.wildcards.K), cfg, r, int(sm.params.seed), sm.params.model) for r in sm.params.runs],
    ignore_index=True,
)
log.info("\n%s", df.to_string())
save_npz(sm.output.npz, **frame_arrays(df))
