"""Toy sets for reference: 4x4 Bars and Stripes, the Artificial Modes and 1000 samples of each p_mut."""

from bmrep.datasets.toys import BASIC_MODES, artificial_modes, bars_and_stripes
from bmrep.io import save_npz
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import rng

log, _ = setup_job(snakemake)  # noqa: F821
seed = snakemake.params.seed  # noqa: F821
samples = {}
for p_mut, tag in [(0.01, "pmut001"), (0.1, "pmut010")]:
    X, mode = artificial_modes(1000, p_mut, rng(seed, "data", "artificial_modes", tag))
    samples[f"artificial_modes_{tag}"], samples[f"artificial_modes_{tag}_mode"] = X, mode
save_npz(
    snakemake.output[0],  # noqa: F821
    bars_and_stripes_4x4=bars_and_stripes(4),
    artificial_modes_basic=BASIC_MODES,
    **samples,
)
log.info("toys written")
