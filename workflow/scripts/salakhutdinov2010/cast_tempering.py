"""CAST's fast chains over training, every seed: level occupancy per window, shared log-weights, swaps (figure).

With the seeds also trained without swapping (CAST-noswap): their occupancy table and, per level, the
second-half shares and final log-weights with and without swapping, drawn as the figure's last row(s).
For CAST-perchain (params.variant): its per-chain weights' mean, and when each fast chain first reached beta_min.
"""

import pandas as pd

from bmrep.io import load_model, write_csv
from bmrep.papers.salakhutdinov2010.plots import plot_cast_tempering
from bmrep.papers.salakhutdinov2010.tempering import (
    OCCUPANCY_BAND,
    first_reach_table,
    occupancy_table,
    swap_comparison,
    swap_table,
)
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821


def tables(paths):
    """Per CAST model file: its occupancy, swap and (CAST-perchain) first-reach tables (``tempering_*`` arrays)."""
    occ, swaps, first = [], [], []
    for path in paths:
        arrays, meta = load_model(path)
        rec = {k[len("tempering_") :]: v for k, v in arrays.items() if k.startswith("tempering_")}
        occ.append(occupancy_table(rec, meta["repeat"]))
        swaps.append(swap_table(rec, meta["repeat"], meta["n_fast"]))
        if "first_reached_min" in rec:
            first.append(first_reach_table(rec, meta["repeat"]))
    return occ, swaps, first


occ, swaps, first = tables(sm.input.models)
occ, swaps = pd.concat(occ, ignore_index=True), pd.concat(swaps, ignore_index=True)
noswap_parts = tables(sm.input.noswap)[0]  # none if salakhutdinov2010.cast_noswap_seeds is 0 (or for CAST-perchain)
noswap = pd.concat(noswap_parts, ignore_index=True) if noswap_parts else occ.iloc[:0]
comparison = swap_comparison(occ, noswap)
write_csv(sm.output.occupancy, occ)
write_csv(sm.output.swaps, swaps)
shared = sm.params.variant == "CAST"
if shared:
    write_csv(sm.output.noswap_occupancy, noswap)
    write_csv(sm.output.comparison, comparison)
else:
    first = pd.concat(first, ignore_index=True)
    write_csv(sm.output.first_reach, first)
    reached = first["first_update"] >= 0
    log.info("%d of %d fast chains reached beta_min, the last first at update %d", reached.sum(), len(first),
             first["first_update"].max())  # fmt: skip
for rep, c in comparison.groupby("repeat"):
    log.info("seed %d: log g_K - log g_1 at the end: with swapping %.2f, without %.2f nats", rep,
             c["log_weight_swapping"].iloc[-1], c["log_weight_noswap"].iloc[-1])  # fmt: skip
t = cfg["train"]
plot_cast_tempering(
    occ,
    swaps,
    sm.output.fig,
    caption(
        sm.params.profile,
        variant=sm.params.variant + (" (one shared Wang-Landau vector)" if shared else " (one vector per fast chain)"),
        seeds=int(occ["repeat"].nunique()),
        seeds_without_swapping=int(noswap["repeat"].nunique()),
        updates=t["n_updates"],
        fast_chains=int(swaps["n_fast"].iloc[0]),
        levels=f"{t['cast_n_betas']} betas in [{t['cast_beta_min']}, 1]",
        gamma=t["cast_gamma"],
        window=f"{t['cast_record_every']} updates",
        swap_every=t["cast_swap_every"],
        band=f"{OCCUPANCY_BAND}",
    ),
    OCCUPANCY_BAND,
    noswap=noswap,
    comparison=comparison if len(comparison) else None,
    first_reach=None if shared else first,
)
