"""The trained RBMs of one shard as arrays (the stored model file) and back."""

from __future__ import annotations

import numpy as np

from ...models.rbm import RBM


def stack_models(models: list[RBM], repeats) -> dict[str, np.ndarray]:
    """``repeat`` (n,), ``W`` (n, visible, hidden), ``b`` (n, visible), ``c`` (n, hidden)."""
    out = {"repeat": np.array([int(r) for r in repeats], dtype=np.int64)}
    out.update({k: np.stack([m.params()[k] for m in models]) for k in ("W", "b", "c")})
    return out


def unstack_models(arrays: dict) -> list[RBM]:
    """The RBMs of :func:`stack_models`' arrays, in repeat order."""
    return [RBM(W, b, c) for W, b, c in zip(arrays["W"], arrays["b"], arrays["c"], strict=True)]
