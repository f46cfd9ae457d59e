"""Build the Cython extensions: every ``.pyx`` under ``src/`` is compiled.

Each module is compiled with OpenMP (for ``prange`` over chains) and against
numpy's headers (for the BitGenerator C API). A new kernel needs no change
here: drop ``src/bmrep/<subpackage>/_name.pyx`` in and reinstall.
"""

from pathlib import Path

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

ROOT = Path(__file__).parent
extensions = []
for pyx in sorted((ROOT / "src").rglob("*.pyx")):
    rel = pyx.relative_to(ROOT / "src").with_suffix("")
    extensions.append(
        Extension(
            ".".join(rel.parts),
            [str(pyx.relative_to(ROOT))],
            include_dirs=[np.get_include()],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=["-O3", "-fopenmp", "-ffp-contract=off"],
            extra_link_args=["-fopenmp"],
        )
    )

setup(
    ext_modules=cythonize(
        extensions,
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
        quiet=True,
        # bmrep/_cmath.pxd (helpers shared by the compiled modules) is cimported as bmrep._cmath
        include_path=[str(ROOT / "src")],
    )
)
