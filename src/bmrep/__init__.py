"""bmrep: a replication library for five papers on Boltzmann machines and belief networks.

Science lives here (models, samplers, estimators, learning rules, and one folder
per paper in ``papers/`` with its stages, claims and plots); the Snakemake
workflow in ``workflow/`` only moves files around.
"""

__version__ = "0.1.0"
