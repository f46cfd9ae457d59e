"""Carlson, Stinson, Pakman & Paninski (2016): the experiments behind Figs. 1-5, one module per stage.

Pure functions from settings (plain dicts, the config section's entries),
arrays and a root seed to result tables (pandas DataFrames). Random streams
are keyed by (target, repeat, chain) through :mod:`bmrep.seeds`, so results do
not depend on how repeats are sharded or on thread counts.

- :mod:`.base`: the base distribution p1 of every tempered estimator.
- :mod:`.exact_check`: every estimator against exact log Z on enumerable RBMs.
- :mod:`.fig1` .. :mod:`.fig5`: one module per figure (sec. 2.4, 4.1-4.4).
- :mod:`.summaries`: bias and RMSE tables of the aggregating jobs.

Nothing is imported here: a job's import closure (and so its code digest)
holds only the modules it runs. The 784-H MNIST models are trained by
:func:`bmrep.learning.mnist_rbm.train_mnist_rbm` and every RTS run on an RBM is
:mod:`bmrep.estimators.rbm_rts` (both shared with the calibration study).
"""

PAPER = "carlson2016"
