"""Yokoyama, Katsumata & Yasuda (2019), Figs. 2, 3, 4 and 6: the stages, claims and plots.

Split by pipeline stage, so that a job imports only what it runs:

* :mod:`.train_kld` -- one shard of Figs. 2/3 (exact KLD and log-likelihood
  during CD learning);
* :mod:`.train_drbm` -- one shard of Fig. 6 (discriminative RBM on noisy MNIST);
* :mod:`.toy` -- Fig. 4 (the toy model of section 2.3, no training);
* :mod:`.summaries` -- merged shards to per-epoch and final-epoch tables;
* :mod:`.s_values` -- the hidden resolution ``s`` as configured and as labelled;
* :mod:`.claims` -- the paper's claims; :mod:`.plots` -- its figures.

Pure functions from settings (and the root seed) to arrays and tables; the
workflow scripts read the config and the files and write the outputs.

Random streams (``bmrep.seeds.rng(root_seed, "yokoyama2019", ...)``):

* Figs. 2/3, experiment ``e`` at excess hidden units ``R``:
  ``("kld", R, e)`` draws the gRBM, its 200 training points (exact sampling
  from the 256-state marginal) and the tRBM's initial couplings, shared by
  every ``s`` (paired design); ``("kld", R, e, "cd", s)`` drives the CD
  Gibbs steps of the tRBM with that ``s``.
* Fig. 6, experiment ``e``: ``("drbm", e)`` draws the training subset, the
  initial couplings and the minibatch order, shared by both ``s``; the noisy
  test set comes from ``("drbm", "noisy_test")``, the same for all experiments.
"""

# The name of this paper's random streams (bmrep.seeds.rng).
PAPER = "yokoyama2019"
