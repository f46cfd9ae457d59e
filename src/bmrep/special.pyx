# cython: language_level=3, boundscheck=False, wraparound=False
"""The logistic and softplus functions for hot loops of the Python code (compiled, in place).

``scipy.special.expit`` is the logistic function everywhere else. In float32
it evaluates libm's ``expf`` one element at a time, about 4 ns an element: in
the mean-field fixed point of a DBM update (Salakhutdinov 2010, section 2.1;
12 logistic calls on 100 x 1500 values) that was an eighth of the whole
update. :func:`logistic_` is the same function built on the kernels' exp of
a non-positive argument (``_expn.h``), vectorised: about 2 ulp from the exact
value (the tests check it against ``scipy.special.expit`` in float64).

:func:`softplus_` is ``log(1 + e^x)`` built the same way (``_expn.h``: that
exp and fdlibm's log kernel), for the AIS weights of the RBM and DBM
families, whose hidden units are summed out analytically (one softplus per
unit, chain and inverse temperature: Salakhutdinov & Murray 2008, eq. 12;
Carlson et al. 2016, eq. 2). ``scipy.special.softplus`` (``np.logaddexp``)
takes about 20 ns an element, and was about a third of a DBM AIS step.

:func:`exp_` and :func:`log_` (float64) are the full-range exp and log of
the mean-field solver of sigmoid belief networks (``bmrep.meanfield._sbn``,
Saul et al. 1996, eqs. 22 and 33), vectorised over a unit's parents or
children; here so that the tests can hold them to numpy's.
"""

cimport numpy as cnp

cnp.import_array()

cdef extern from "_expn.h":
    void bm_logistic_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_logistic_f(float* x, Py_ssize_t n) noexcept nogil
    void bm_softplus_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_softplus_f(float* x, Py_ssize_t n) noexcept nogil
    void bm_exp_scaled_d(const double* w, double s, double* out, Py_ssize_t n) noexcept nogil
    void bm_log_inplace_d(double* x, Py_ssize_t n) noexcept nogil


ctypedef void (*_double_fn)(double*, Py_ssize_t) noexcept nogil
ctypedef void (*_float_fn)(float*, Py_ssize_t) noexcept nogil


cdef object _in_place(x, str name, _double_fn fd, _float_fn ff):
    """Apply ``fd`` (float64) or ``ff`` (float32) to the C-contiguous, writeable array ``x``; return ``x``."""
    if type(x) is not cnp.ndarray or not cnp.PyArray_IS_C_CONTIGUOUS(<cnp.ndarray> x) or not cnp.PyArray_ISWRITEABLE(<cnp.ndarray> x):
        raise ValueError(f"{name} needs a C-contiguous, writeable numpy array")
    cdef int t = cnp.PyArray_TYPE(<cnp.ndarray> x)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(<cnp.ndarray> x)
    cdef void* p = cnp.PyArray_DATA(<cnp.ndarray> x)
    if t == cnp.NPY_DOUBLE:
        with nogil:
            fd(<double*> p, n)
    elif t == cnp.NPY_FLOAT and ff != NULL:
        with nogil:
            ff(<float*> p, n)
    else:
        raise TypeError(f"{name} needs {'float64 or float32' if ff != NULL else 'float64'}, got {x.dtype}")
    return x


def logistic_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 or float32 array) with ``1 / (1 + exp(-x))``; return it."""
    return _in_place(x, "logistic_", bm_logistic_d, bm_logistic_f)


def softplus_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 or float32 array) with ``log(1 + exp(x))``; return it."""
    return _in_place(x, "softplus_", bm_softplus_d, bm_softplus_f)


def softplus_sum_(x):
    """``log(1 + exp(x))`` summed over the last axis (float64 if ``x`` is), overwriting ``x``: pass a temporary.

    The hidden units' part of ``log f`` of the RBM and DBM families with the
    hidden layer summed out (one row per chain).
    """
    return softplus_(x).sum(axis=-1)


cdef void _exp_d(double* x, Py_ssize_t n) noexcept nogil:
    bm_exp_scaled_d(x, 1.0, x, n)


def exp_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 array) with ``exp(x)``; return it."""
    return _in_place(x, "exp_", _exp_d, NULL)


def log_(x):
    """Overwrite ``x`` (a C-contiguous, writeable float64 array) with ``log(x)``; return it."""
    return _in_place(x, "log_", bm_log_inplace_d, NULL)
