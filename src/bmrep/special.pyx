# cython: language_level=3, boundscheck=False, wraparound=False
"""The logistic function for hot loops of the Python code (compiled, in place).

``scipy.special.expit`` is the logistic function everywhere else. In float32
it evaluates libm's ``expf`` one element at a time, about 4 ns an element: in
the mean-field fixed point of a DBM update (Salakhutdinov 2010, section 2.1;
12 logistic calls on 100 x 1500 values) that was an eighth of the whole
update. :func:`logistic_` is the same function built on the kernels' exp of
a non-positive argument (``_expn.h``), vectorised: about 2 ulp from the exact
value (the tests check it against ``scipy.special.expit`` in float64).
"""

cimport numpy as cnp

cnp.import_array()

cdef extern from "_expn.h":
    void bm_logistic_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_logistic_f(float* x, Py_ssize_t n) noexcept nogil


def logistic_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 or float32 array) with ``1 / (1 + exp(-x))``; return it."""
    if type(x) is not cnp.ndarray or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) or not cnp.PyArray_ISWRITEABLE(<cnp.ndarray> x):
        raise ValueError("logistic_ needs a C-contiguous, writeable numpy array")
    cdef int t = cnp.PyArray_TYPE(<cnp.ndarray> x)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray> x)
    cdef void* p = cnp.PyArray_DATA(<cnp.ndarray> x)
    if t == cnp.NPY_DOUBLE:
        with nogil:
            bm_logistic_d(<double*> p, n)
    elif t == cnp.NPY_FLOAT:
        with nogil:
            bm_logistic_f(<float*> p, n)
    else:
        raise TypeError(f"logistic_ needs float64 or float32, got {x.dtype}")
    return x
