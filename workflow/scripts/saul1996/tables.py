"""Tables 1-3 for one dataset from the ten networks' test bounds, and Table 1 as a figure."""

import numpy as np

from bmrep.experiments.saul1996.tables import classification_tables
from bmrep.io import load_npz, write_csv
from bmrep.plotting.saul1996 import plot_confusion
from bmrep.plotting.style import caption
from bmrep.runtime import setup_job

log, cfg = setup_job(snakemake)  # noqa: F821
inp, out, p = snakemake.input, snakemake.output, snakemake.params  # noqa: F821
data = load_npz(inp.data)
bounds = np.column_stack([load_npz(f)["bounds"] for f in inp.bounds])
bp = cfg["backprop"]
baselines = {"back-propagation": dict(bp, seed=p.seed)} if bp else {}
t = classification_tables(bounds, data, baselines=baselines)
write_csv(out.table1, t["table1"])
write_csv(out.table2, t["table2"])
write_csv(out.table3, t["table3"])
log.info("\n%s\n%s", t["table2"].to_string(), t["table3"].to_string())
ds = snakemake.wildcards.dataset  # noqa: F821
err = t["table2"].set_index("algorithm").loc["mean field", "error_rate"]
sizes = "x".join(map(str, cfg["sizes"]))
plot_confusion(
    t["table1"],
    out.png,
    f"Table 1 ({ds}): mean field, error {100 * err:.2f}%",
    caption(
        p.profile,
        networks=f"10 x {sizes}",
        sweeps=cfg["n_sweeps"],
        lr=cfg["learning_rate"],
        init=f"N(0, {cfg['init_std']}^2)",
        test_images=len(data["y_test"]),
    ),
)
