"""First-order optimisers for gradient *ascent* on a log-likelihood or bound.

Every trainer in the project updates a dict of parameter arrays in place with
``optimizer.step(params, grads)``, where ``grads`` holds the gradient of the
objective to be **maximised** (so plain SGD adds ``lr * grad``).

References
----------
Kingma, D. P. & Ba, J. (2015). Adam: a method for stochastic optimization.
ICLR. Algorithm 1 (Adam) and section 7.1 (AdaMax).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

Schedule = Callable[[int], float]


def constant(lr: float) -> Schedule:
    """Learning rate ``lr`` at every step."""
    return lambda t: lr


def inverse_time(numerator: float, offset: float) -> Schedule:
    """``numerator / (offset + t)``, e.g. 10/(2000+t) of Salakhutdinov (2010), section 8."""
    return lambda t: numerator / (offset + t)


class _Resumable:
    """``get_state`` / ``set_state`` of an optimiser (for checkpoints): its step count and buffers."""

    _buffers: tuple[str, ...] = ()

    def get_state(self) -> dict:
        return {"t": self.t, **{b: {k: v.copy() for k, v in getattr(self, b).items()} for b in self._buffers}}

    def set_state(self, state: Mapping) -> None:
        self.t = int(state["t"])
        for b in self._buffers:
            setattr(self, b, {k: np.array(v) for k, v in state[b].items()})


def _as_schedule(lr: float | Schedule) -> Schedule:
    if callable(lr):
        return lr
    if not lr > 0:
        raise ValueError(f"learning rate must be > 0, got {lr}")
    return constant(float(lr))


class SGD(_Resumable):
    """Gradient ascent with optional momentum and L2 weight decay.

    ``decay`` is applied to the parameters named in ``decay_keys`` (default:
    all) as ``grad - decay * param``.
    """

    _buffers = ("_velocity",)

    def __init__(self, lr: float | Schedule, momentum: float = 0.0, decay: float = 0.0, decay_keys=None):
        if not 0.0 <= momentum < 1.0:
            raise ValueError(f"momentum must be in [0, 1), got {momentum}")
        if decay < 0:
            raise ValueError(f"weight decay must be >= 0, got {decay}")
        self.lr = _as_schedule(lr)
        self.momentum = momentum
        self.decay = decay
        self.decay_keys = None if decay_keys is None else set(decay_keys)
        self.t = 0
        self._velocity: dict[str, np.ndarray] = {}

    def step(self, params: Mapping[str, np.ndarray], grads: Mapping[str, np.ndarray]) -> None:
        lr = self.lr(self.t)
        for k, g in grads.items():
            p = params[k]
            if self.decay and (self.decay_keys is None or k in self.decay_keys):
                g = g - self.decay * p
            if self.momentum:
                v = self._velocity.get(k)
                if v is None:
                    v = self._velocity[k] = np.zeros_like(p)
                v *= self.momentum
                v += lr * g
                p += v
            else:
                p += lr * g
        self.t += 1


class Adam(_Resumable):
    """Adam (Kingma & Ba 2015, Algorithm 1), for ascent."""

    _buffers = ("_m", "_v")

    def __init__(self, lr: float | Schedule = 1e-3, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        if not (0 <= beta1 < 1 and 0 <= beta2 < 1):
            raise ValueError(f"Adam betas must be in [0, 1), got {beta1}, {beta2}")
        self.lr = _as_schedule(lr)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.t = 0
        self._m: dict[str, np.ndarray] = {}
        self._v: dict[str, np.ndarray] = {}

    def step(self, params: Mapping[str, np.ndarray], grads: Mapping[str, np.ndarray]) -> None:
        lr = self.lr(self.t)
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        c1, c2 = 1 - b1**self.t, 1 - b2**self.t
        for k, g in grads.items():
            m = self._m.setdefault(k, np.zeros_like(params[k]))
            v = self._v.setdefault(k, np.zeros_like(params[k]))
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * (g * g)
            params[k] += lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


class AdaMax(_Resumable):
    """AdaMax (Kingma & Ba 2015, section 7.1, Algorithm 2), for ascent."""

    _buffers = ("_m", "_u")

    def __init__(self, lr: float | Schedule = 2e-3, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        if not (0 <= beta1 < 1 and 0 <= beta2 < 1):
            raise ValueError(f"AdaMax betas must be in [0, 1), got {beta1}, {beta2}")
        self.lr = _as_schedule(lr)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.t = 0
        self._m: dict[str, np.ndarray] = {}
        self._u: dict[str, np.ndarray] = {}

    def step(self, params: Mapping[str, np.ndarray], grads: Mapping[str, np.ndarray]) -> None:
        lr = self.lr(self.t)
        self.t += 1
        b1, b2 = self.beta1, self.beta2
        for k, g in grads.items():
            m = self._m.setdefault(k, np.zeros_like(params[k]))
            u = self._u.setdefault(k, np.zeros_like(params[k]))
            m *= b1
            m += (1 - b1) * g
            np.maximum(b2 * u, np.abs(g), out=u)
            params[k] += (lr / (1 - b1**self.t)) * m / (u + self.eps)
