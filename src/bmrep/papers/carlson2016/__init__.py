"""Carlson, Stinson, Pakman & Paninski (2016), Figs. 1-5: one module per stage, the claims and the plots.

Pure functions from settings (plain dicts, the config section's entries),
arrays and a root seed to result tables (pandas DataFrames). Random streams
are keyed by (target, repeat, chain) through :mod:`bmrep.seeds`, so results do
not depend on how repeats are sharded or on thread counts.

- :mod:`.base`: the base distribution p1 of every tempered estimator.
- :mod:`.exact_check`: every estimator against exact log Z on enumerable RBMs.
- :mod:`.fig1` .. :mod:`.fig5`: one module per figure (sec. 2.4, 4.1-4.4).
- :mod:`.summaries`: bias and RMSE tables of the aggregating jobs.
- :mod:`.claims` (metrics in :mod:`.claims_metrics` and :mod:`.claims_truth`): the paper's claims;
  :mod:`.plots`: its figures.

Nothing is imported here: a job's import closure (and so its code digest)
holds only the modules it runs. The 784-H MNIST models are trained by
:func:`bmrep.learning.mnist_rbm.train_mnist_rbm` and every RTS run on an RBM is
:mod:`bmrep.estimators.rbm_rts` (both shared with the calibration study).
"""

PAPER = "carlson2016"
