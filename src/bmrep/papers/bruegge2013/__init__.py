"""Brügge, Fischer & Igel (2013), the flip-the-state operator T against Gibbs G: stages, claims, plots.

Pure functions from settings (plain dicts, parts of the paper's config
section) and seeds to arrays and data frames; the workflow scripts in
``workflow/scripts/bruegge2013/`` only read, call these and write. One module
per pipeline stage (spec section 5), so a job imports only the code it runs:

* :mod:`.common`: the paper's random-stream key, benchmark names and labels.
* :mod:`.operators`: G, T and the blend by name.
* :mod:`.recipes`: a training recipe from the config, and its label.
* :mod:`.benchmarks`: the data sets of sec. 4.2.
* :mod:`.train`: RBM training with G or T: the learning curves of Table 1
  and Fig. 3 (bottom), and the RBMs sampled for Table 2 and Tables 3 and 4.
* :mod:`.models`: the trained RBMs of one shard as arrays and back.
* :mod:`.slem`: exact transition matrices of random RBMs (Fig. 3, top).
* :mod:`.autocorrelation`: energy autocorrelation of single chains of the
  trained RBMs (Table 2, Fig. 4).
* :mod:`.class_changes`: class changes of the trained RBMs on Artificial
  Modes (Tables 3 and 4).
* :mod:`.summaries`: the tables (Fig. 3 fractions, Tables 1 to 4) from the
  shards.
* :mod:`.claims`: the paper's claims; :mod:`.plots`: its figures.

Random streams are keyed by (target, benchmark, repeat, chain), never by the
operator or the learning rate, so that G and T (and the learning rates) of
one repeat share initial weights, minibatch order and start states: the
comparisons are paired by repeat, as the Wilcoxon test of Table 1 assumes.

This file imports nothing: Python runs it for every module of the package.
"""
