"""Training images binarised again at every minibatch ("dynamic binarisation").

Salakhutdinov (2010), section 8, trains on MNIST binarised stochastically (Salakhutdinov & Murray 2008) and
says nothing of how the training images are binarised while learning. The public MATLAB code of Salakhutdinov
& Hinton's DBMs keeps the grey levels and draws every minibatch afresh, ``data = batchdata(:,:,batch); data =
data > rand(numcases,numdims)``, in the greedy pretraining and in the joint training alike; the test set stays
the one fixed sample. Issue 63 measured that the fixed sample stalls our DBMs about 25 nats below the paper's
bounds; this is the recipe's first candidate to close the gap, switched on by ``salakhutdinov2010.training_images:
redrawn`` (off by default: nothing the spec decides is trained this way).
"""

from __future__ import annotations

import numpy as np


def redraw_images(grey: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One binary draw of ``grey`` (values in [0, 1]): each pixel 1 with probability its grey level.

    ``u < grey`` with ``u`` uniform on [0, 1) in float64 (as the once-drawn data set,
    :func:`bmrep.datasets.derived.binarize_stochastic`), returned in ``grey``'s dtype: a pixel of 0 is
    never on, one of 1 always, so 0/1 images come back unchanged whatever ``rng`` draws.
    """
    grey = np.asarray(grey)
    return (rng.random(grey.shape) < grey).astype(grey.dtype)


__all__ = ["redraw_images"]
