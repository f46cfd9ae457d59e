"""Tables 1-3 of one dataset over its seeded splits (Table 1 summed, Tables 2-3 mean and s.e.), Table 1 as a figure."""

from bmrep.io import load_table, write_csv
from bmrep.papers.saul1996.plots import plot_confusion
from bmrep.papers.saul1996.tables import combine_splits
from bmrep.pipeline.runtime import setup_job
from bmrep.plotting.style import caption

log, cfg = setup_job(snakemake)  # noqa: F821
inp, out, p = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
per_split = [
    {k: load_table(f) for k, f in zip(("table1", "table2", "table3"), files, strict=True)}
    for files in zip(inp.table1, inp.table2, inp.table3, strict=True)
]
t = combine_splits(per_split)
for k in ("table1", "table2", "table3", "table2_per_split", "table3_per_split"):
    write_csv(out[k], t[k])
log.info("\n%s\n%s", t["table2"].to_string(), t["table3"].to_string())
ds = snakemake.wildcards.dataset  # noqa: F821
mf = t["table2"].set_index("algorithm").loc["mean field"]
sizes = "x".join(map(str, cfg["sizes"]))
n = len(per_split)
plot_confusion(
    t["table1"],
    out.png,
    f"Table 1 ({ds}, {n} splits): mean field, error {100 * mf['error_rate']:.2f} +- {100 * mf['std_error']:.2f}%",
    caption(
        p.profile,
        splits=n,
        networks=f"10 x {sizes} per split",
        sweeps=cfg["n_sweeps"],
        lr=cfg["learning_rate"],
        init=f"N(0, {cfg['init_std']}^2)",
        test_images_per_split=int(mf["n_test"]) // n,
    ),
)
