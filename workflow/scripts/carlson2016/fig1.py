"""Fig. 1: RTS initial iterations on the 784-10 MNIST RBM over seeds, and the main run (aggregate of the shards)."""

from bmrep.io import concat_frames, load_npz, write_csv
from bmrep.papers.carlson2016.plots import plot_fig1
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption, configured

log, cfg = setup_job(snakemake)  # noqa: F821
sm = snakemake  # noqa: F821
df = concat_frames(load_npz(p) for p in sm.input.shards).sort_values(["seed", "variant", "iteration", "k"])
main = concat_frames(load_npz(p) for p in sm.input.main).sort_values(["seed", "main_sweeps"])
write_csv(sm.output.csv, df)
write_csv(sm.output.main, main)
plot_fig1(
    df,
    main,
    sm.output.png,
    caption(
        sm.params.profile,
        model=f"784x{cfg['n_hidden']}",
        **configured(cfg, "n_seeds", "K", "n_chains", "sweeps_per_iteration", "main_sweeps"),
        base=sm.params.base,
    ),
)
