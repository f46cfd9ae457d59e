"""Tables 1-3 of one split: mean field from its ten networks' test bounds, baselines on the same split."""

import numpy as np

from bmrep.io import load_npz, write_csv
from bmrep.papers.saul1996.tables import classification_tables
from bmrep.pipeline.runtime import setup_job
from bmrep.seeds import seed_sequence

log, cfg = setup_job(snakemake)  # noqa: F821
inp, out, p, w = snakemake.input, snakemake.output, snakemake.params, snakemake.wildcards  # noqa: F821
data = load_npz(inp.data)
bounds = np.column_stack([load_npz(f)["bounds"] for f in inp.bounds])
bp = cfg["backprop"]
# back-propagation's initial weights and batch order: a stream of its own per split
bp_seed = int(seed_sequence(p.seed, "saul1996", w.dataset, "split", int(w.split), "backprop").generate_state(1)[0])
baselines = {"back-propagation": dict(bp, seed=bp_seed)} if bp else {}
t = classification_tables(bounds, data, baselines=baselines)
for k in ("table1", "table2", "table3"):
    write_csv(out[k], t[k])
log.info("%s split %s\n%s\n%s", w.dataset, w.split, t["table2"].to_string(), t["table3"].to_string())
