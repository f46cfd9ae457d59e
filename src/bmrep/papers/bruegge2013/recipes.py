"""Training recipes of Brügge et al. (2013) from the config, and their labels (sec. 4.2)."""

from __future__ import annotations

import numpy as np


def learning_recipe(learning: dict, curve: dict, bench: str, alg: str, lr: float) -> dict:
    """Training recipe of one Table 1 setting from the config's ``learning`` and ``curve`` sections.

    The setting drawn in Fig. 3 (``curve``) may run longer than the others
    (``curve.n_updates``; null: as the others), so that the figure and its
    significance test see the late phase of training, where the paper finds
    T ahead, even when the other settings are shortened to fit a budget.

    Returns
    -------
    dict
        ``algorithm``, ``lr``, ``n_updates``, ``k``, ``n_temperatures``,
        ``n_replicas``: the recipe :func:`bmrep.papers.bruegge2013.train.train` reads.
    """
    recipe = {
        "algorithm": alg,
        "lr": float(lr),
        "n_updates": int(learning["n_updates"][bench]),
        "k": int(learning["pt_k"] if alg == "pt" else learning["k"]),
        "n_temperatures": int(learning["pt_temperatures"]),
        "n_replicas": learning["pt_replicas"],
    }
    if (
        curve.get("n_updates")
        and bench == curve["benchmark"]
        and alg == curve["algorithm"]
        and np.isclose(float(lr), float(curve["lr"]))
    ):
        recipe["n_updates"] = int(curve["n_updates"])
    return recipe


def recipe_label(recipe: dict) -> str:
    """``'10-PT1, lr 0.05, 300 updates'`` / ``'CD-5, lr 0.05, 2000 updates'`` (the paper's t-PT_k, CD-k names)."""
    alg = recipe["algorithm"]
    name = f"{recipe['n_temperatures']}-PT{recipe['k']}" if alg == "pt" else f"{alg.upper()}-{recipe['k']}"
    return f"{name}, lr {recipe['lr']:g}, {recipe['n_updates']} updates"
