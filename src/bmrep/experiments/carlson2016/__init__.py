"""Carlson, Stinson, Pakman & Paninski (2016): the experiments behind Figs. 1-5, one module per stage.

Pure functions from settings (plain dicts, the config section's entries),
arrays and a root seed to result tables (pandas DataFrames). Random streams
are keyed by (target, repeat, chain) through :mod:`bmrep.seeds`, so results do
not depend on how repeats are sharded or on thread counts.

- :mod:`.train`: the 784-H MNIST models (PCD/CD, recipe in the sidecar).
- :mod:`.base`: the base distribution p1 of every tempered estimator.
- :mod:`.tempered`: one RTS run on an RBM (initial iterations, then the continued run).
- :mod:`.exact_check`: every estimator against exact log Z on enumerable RBMs.
- :mod:`.fig1` .. :mod:`.fig5`: one module per figure (sec. 2.4, 4.1-4.4).
- :mod:`.summaries`: bias and RMSE tables of the aggregating jobs.
- :mod:`.shards`: a shard's table as arrays and back (the scripts write them).

Nothing is imported here: a job's import closure (and so its code digest)
holds only the modules it runs.
"""

PAPER = "carlson2016"
