"""Fig. 4: alpha_s(w) and l_s(w) of the toy model, and the maximisers |w*_s|."""

from bmrep.io import write_csv
from bmrep.papers.yokoyama2019.plots import plot_toy
from bmrep.papers.yokoyama2019.toy import toy_table
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
curves, stars = toy_table(cfg["s_values"], cfg["beta"], cfg["n_hidden"], cfg["w_max"], cfg["n_points"])
log.info("\n%s", stars.to_string())
write_csv(snakemake.output.curves, curves)  # noqa: F821
write_csv(snakemake.output.stars, stars)  # noqa: F821
plot_toy(
    curves,
    stars,
    cfg["beta"],
    snakemake.output.png,  # noqa: F821
    caption(
        snakemake.params.profile,
        hidden_units=cfg["n_hidden"],
        beta=cfg["beta"],  # noqa: F821
        w_star=", ".join(f"s={s}: {w:.4f}" for s, w in zip(stars["s"], stars["w_star"], strict=True)),
    ),
)
