"""CAST's fast chains over training, every seed: level occupancy per window, shared log-weights, swaps (figure)."""

import pandas as pd

from bmrep.experiments.salakhutdinov2010.tempering import OCCUPANCY_BAND, occupancy_table, swap_table
from bmrep.io import load_model, write_csv
from bmrep.plotting.salakhutdinov2010 import plot_cast_tempering
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
occ, swaps = [], []
for repeat, path in enumerate(sm.input.models):
    arrays, meta = load_model(path)
    rec = {k[len("tempering_") :]: v for k, v in arrays.items() if k.startswith("tempering_")}
    occ.append(occupancy_table(rec, meta.get("repeat", repeat)))
    swaps.append(swap_table(rec, meta.get("repeat", repeat), meta["n_fast"]))
occ, swaps = pd.concat(occ, ignore_index=True), pd.concat(swaps, ignore_index=True)
write_csv(sm.output.occupancy, occ)
write_csv(sm.output.swaps, swaps)
t = cfg["train"]
plot_cast_tempering(
    occ,
    swaps,
    sm.output.fig,
    caption(
        sm.params.profile,
        seeds=int(occ["repeat"].nunique()),
        updates=t["n_updates"],
        fast_chains=int(swaps["n_fast"].iloc[0]),
        levels=f"{t['cast_n_betas']} betas in [{t['cast_beta_min']}, 1]",
        gamma=t["cast_gamma"],
        window=f"{t['cast_record_every']} updates",
        swap_every=t["cast_swap_every"],
        band=f"{OCCUPANCY_BAND}",
    ),
    OCCUPANCY_BAND,
)
