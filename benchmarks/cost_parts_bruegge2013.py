"""CPU time of a step of bruegge2013's autocorrelation chains: the measurement behind its cost_scaling.yaml weight.

Not a ``bench_*`` script (``make bench`` does not run it): it measures how a step of ``energy_traces`` (a sweep
under G and one under T, and the energy after each, as ``autocorrelation_runs`` runs them) grows with the number
of chains, so that ``src/bmrep/ops/records/cost_scaling.yaml`` scales the default's 4 chains per RBM to the paper's
1 as ``1 + w x n_chains`` (issue 52). One BLAS thread; process CPU time, the best of ``REPEATS``. Prints one JSON line
per chain count and the fitted ``w``.

    python benchmarks/cost_parts_bruegge2013.py MODELS.npz mnist_binary.npz N_STEPS

MODELS are trained RBMs of one shard (``results/.../models/bruegge2013/autocorr/mnist500/0.npz``, any profile's;
the first is timed), started at training images as the shard's chains are.
"""

from __future__ import annotations

import json
import sys
import time

import numpy as np
from threadpoolctl import threadpool_limits

from bmrep.io import load_npz
from bmrep.papers.bruegge2013.autocorrelation import energy_traces
from bmrep.papers.bruegge2013.models import unstack_models
from bmrep.papers.bruegge2013.operators import OPERATORS
from bmrep.sampling.streams import ChainStreams

SEED, REPEATS, CHAINS = 20261129, 3, (1, 4)


def step_cost(models: str, data: str, n_steps: str) -> None:
    rbm = unstack_models(load_npz(models))[0]
    X = load_npz(data)["X_train"]
    per_step = {}
    for nc in CHAINS:
        v0 = X[np.random.default_rng(SEED).integers(0, len(X), nc)]
        best = []
        for r in range(REPEATS):
            t0 = time.process_time()
            for name, op in OPERATORS.items():
                streams = ChainStreams.from_seed(SEED, "cost_parts", name, r, n_chains=nc)
                energy_traces(rbm, op, v0, int(n_steps), streams)
            best.append(time.process_time() - t0)
        per_step[nc] = min(best) / int(n_steps)
        shape = f"{rbm.n_visible}-{rbm.n_hidden}"
        print(json.dumps({"shape": shape, "n_chains": nc, "us_per_step_G_and_T": round(per_step[nc] * 1e6, 1)}))
    # (1 + w a) / (1 + w b) = t_a / t_b for chain counts a > b: w = (r - 1) / (a - r b), r = t_a / t_b
    (b, a), r = CHAINS, per_step[CHAINS[1]] / per_step[CHAINS[0]]
    print(json.dumps({"ratio": round(r, 3), "w": round((r - 1) / (a - r * b), 3)}))


if __name__ == "__main__":
    with threadpool_limits(1):
        step_cost(*sys.argv[1:])
