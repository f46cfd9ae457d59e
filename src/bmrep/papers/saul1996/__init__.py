"""Saul, Jaakkola & Jordan (1996): the paper's stages (one module each), claims and plots.

- ``paper_numbers``: the paper's numbers shown beside ours (and claimed on).
- ``fig2``: the logistic-expectation bound of Figure 2.
- ``fig5``: one shard of Figure 5's random networks (bound vs exact ln P(V)).
- ``train``: one digit network of one split trained on the bound, and its test bounds (Tables 1-3).
- ``tables``: Tables 1-3 of one split from the ten networks' test bounds, with baselines;
  combined over the seeded splits (the repeats).
- ``summaries``: Figure 5's shards merged and summarised.
- ``claims``: the paper's claims (spec section 1); ``plots``: its figures.

Pure functions from settings (and seeded generators) to arrays and tables; the
workflow scripts in ``workflow/scripts/saul1996/`` read inputs, call these and
write outputs. This package file imports nothing, so a job's code digest holds
only the stage it runs.

References
----------
Saul, L. K., Jaakkola, T. & Jordan, M. I. (1996). Mean field theory for
sigmoid belief networks. JAIR 4, 61-76 (MIT AI Memo 1570), sections 3-4.
"""
