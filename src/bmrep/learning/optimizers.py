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


class _KingmaBa(_Resumable):
    """What Adam and AdaMax share (Kingma & Ba 2015, Algorithms 1 and 2), for ascent.

    The learning-rate schedule, ``beta1``, ``beta2``, ``eps`` and the first
    moment ``m <- beta1 m + (1 - beta1) g``. A subclass names its
    second-moment buffer in ``_buffers[1]`` (the checkpoint key) and gives its
    update (:meth:`_update_second`) and the parameter increment
    (:meth:`_increment`, with the step count ``t`` already advanced).
    """

    def __init__(self, lr: float | Schedule, beta1: float, beta2: float, eps: float):
        if not (0 <= beta1 < 1 and 0 <= beta2 < 1):
            raise ValueError(f"{type(self).__name__} betas must be in [0, 1), got {beta1}, {beta2}")
        self.lr = _as_schedule(lr)
        self.beta1, self.beta2, self.eps = beta1, beta2, eps
        self.t = 0
        for b in self._buffers:
            setattr(self, b, {})

    def step(self, params: Mapping[str, np.ndarray], grads: Mapping[str, np.ndarray]) -> None:
        lr = self.lr(self.t)
        self.t += 1
        second = getattr(self, self._buffers[1])
        for k, g in grads.items():
            m = self._m.setdefault(k, np.zeros_like(params[k]))
            s = second.setdefault(k, np.zeros_like(params[k]))
            m *= self.beta1
            m += (1 - self.beta1) * g
            self._update_second(s, g)
            params[k] += self._increment(lr, m, s)


class Adam(_KingmaBa):
    """Adam (Kingma & Ba 2015, Algorithm 1): ``v`` the average of ``g^2``, both moments bias-corrected."""

    _buffers = ("_m", "_v")

    def __init__(self, lr: float | Schedule = 1e-3, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        super().__init__(lr, beta1, beta2, eps)

    def _update_second(self, v: np.ndarray, g: np.ndarray) -> None:
        v *= self.beta2
        v += (1 - self.beta2) * (g * g)

    def _increment(self, lr: float, m: np.ndarray, v: np.ndarray) -> np.ndarray:
        c1, c2 = 1 - self.beta1**self.t, 1 - self.beta2**self.t
        return lr * (m / c1) / (np.sqrt(v / c2) + self.eps)


class AdaMax(_KingmaBa):
    """AdaMax (Kingma & Ba 2015, section 7.1, Algorithm 2): ``u`` the decayed maximum of ``|g|`` (no bias in ``u``)."""

    _buffers = ("_m", "_u")

    def __init__(self, lr: float | Schedule = 2e-3, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8):
        super().__init__(lr, beta1, beta2, eps)

    def _update_second(self, u: np.ndarray, g: np.ndarray) -> None:
        np.maximum(self.beta2 * u, np.abs(g), out=u)

    def _increment(self, lr: float, m: np.ndarray, u: np.ndarray) -> np.ndarray:
        return (lr / (1 - self.beta1**self.t)) * m / (u + self.eps)


__all__ = [
    "constant",
    "inverse_time",
    "SGD",
    "Adam",
    "AdaMax",
]
