"""Nearest-mode classes, class-change counts and steps to the first change (exact cases)."""

import numpy as np

from bmrep.diagnostics.modes import AMBIGUOUS, count_class_changes, nearest_mode_class, steps_to_first_change

MODES = np.array([[1, 1, 0, 0, 0, 0], [0, 0, 1, 1, 0, 0], [0, 0, 0, 0, 1, 1]], dtype=np.uint8)


def test_nearest_mode_and_ties():
    V = np.array(
        [
            [1, 1, 0, 0, 0, 0],  # mode 0 exactly
            [1, 1, 1, 0, 0, 0],  # d = 1, 3, 3 -> 0
            [0, 0, 1, 1, 1, 0],  # d = 5, 1, 3 -> 1
            [1, 0, 1, 0, 0, 0],  # d = 2, 2, 4 -> tie
            [0, 0, 0, 0, 0, 0],  # all at distance 2 -> tie
        ],
        dtype=np.float64,
    )
    np.testing.assert_array_equal(nearest_mode_class(V, MODES), [0, 0, 1, AMBIGUOUS, AMBIGUOUS])
    # works on (time, chain, d) arrays
    assert nearest_mode_class(V.reshape(5, 1, 6), MODES).shape == (5, 1)


def test_count_class_changes_skips_ambiguous():
    c = np.array([0, 0, -1, 1, 1, -1, 1, 2, 0])
    assert count_class_changes(c) == 3  # 0->1, 1->2, 2->0; the -1 between equal classes hides nothing
    c2 = np.stack([c, np.zeros_like(c), np.array([-1] * 9)], axis=1)
    np.testing.assert_array_equal(count_class_changes(c2), [3, 0, 0])


def test_steps_to_first_change():
    classes = np.array(
        [
            [0, 1, -1, 2],
            [0, -1, 0, 2],
            [-1, 1, 1, 2],
            [1, 0, 0, 2],
        ]
    )
    out = steps_to_first_change(classes)
    assert out[0] == 3 and out[1] == 3
    assert np.isnan(out[2]) and np.isinf(out[3])
