"""Another selection DBM of a profile's recipe, for ``dbm_ais_instruments.py`` (issue 64, item 1).

The pipeline trains one selection DBM (``exact_check.selection_seed``) beside the calibration's; an instrument
chosen on one model can be checked on a second of another seed (never the calibration's own). This trains it
exactly as the rule ``salakhutdinov2010_selection_model`` does (same code and settings, read from that job's
sidecar, so the schema's defaults are in), with the given seed:

    python benchmarks/dbm_selection_model.py SIDECAR.json DATA.npz SEED OUT.npz OUT_EXACT.json

e.g. ``results/models/salakhutdinov2010/exact_check_selection.npz.json results/data/mnist_stochastic.npz 2
/tmp/selection2.npz /tmp/selection2_exact.json`` (the default's recipe; with seed 1 it gives the pipeline's own
selection DBM, exact log Z 211.133).
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from bmrep.io import load_npz, read_json, save_model, write_json
from bmrep.papers.salakhutdinov2010.common import split_mnist
from bmrep.papers.salakhutdinov2010.exact_check import exact_model, model_arrays


def main(sidecar: str, data: str, seed: str, out: str, out_exact: str) -> None:
    cfg = read_json(sidecar)["settings"]  # the validated config of the selection DBM's job
    calibration_seed = int(yaml.safe_load(Path("config/config.yaml").read_text())["seed"])
    if int(seed) == calibration_seed:
        raise SystemExit(f"seed {seed} is the calibration's own DBM: choose the instrument on another")
    X, _, X_test, _ = split_mnist(load_npz(data), cfg["n_validation"])
    dbm, base, exact = exact_model(X, X_test, cfg, int(seed))
    print(exact)
    save_model(out, model_arrays(dbm, base), {"settings": cfg, "seed": int(seed), **exact})
    write_json(out_exact, exact)


if __name__ == "__main__":
    if len(sys.argv) != 6:
        raise SystemExit(__doc__.split("\n\n")[2])
    main(*sys.argv[1:])
