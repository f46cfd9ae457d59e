# cython: language_level=3
"""Declarations of the compiled mean-field solver (_sbn.pyx): the network in
compressed sparse form, one thread's work area, and the C loops it calls
(the shared exp and log of ``_expn.h``; its per-edge passes, ``_sbn_terms.h``)."""

cimport numpy as cnp


cdef struct Net:
    Py_ssize_t n
    const cnp.int64_t* pptr     # (N+1) edges of child i: pptr[i]..pptr[i+1]
    const cnp.int64_t* epar     # (E) parent of edge e
    const cnp.int64_t* echild   # (E) child of edge e
    const cnp.int64_t* cptr     # (N+1) child-list of parent j: cedge[cptr[j]..cptr[j+1]]
    const cnp.int64_t* cedge    # (E) edge ids grouped by parent
    const double* w           # (E) weights J_ij
    const double* h           # (N) biases h_i
    const unsigned char* vis  # (N) 1 if instantiated


cdef struct Work:
    double* ea    # (E) e^{-xi_i J_ij}
    double* eb    # (E) e^{(1-xi_i) J_ij}
    double* da    # (E) 1 - mu_j + mu_j ea
    double* db    # (E) 1 - mu_j + mu_j eb
    double* la    # (N) ln <e^{-xi_i z_i}>
    double* lb    # (N) ln <e^{(1-xi_i) z_i}>
    double* mz    # (N) <z_i>
    double* phi   # (N) <e^{(1-xi) z}> / (<e^{-xi z}> + <e^{(1-xi) z}>), eq. (33)
    const double* ew    # (E) e^{J_ij} (shared, read-only)
    double* stale # (N) 1 if la/lb hold only their difference (la to be recomputed)
    double* buf   # (3N) one unit's per-parent or per-child values, for the vectorised passes


cdef extern from "../_expn.h":
    double bm_exp_d(double x) noexcept nogil
    void bm_exp_scaled_d(const double* w, double s, double* out, Py_ssize_t n) noexcept nogil
    void bm_log_inplace_d(double* x, Py_ssize_t n) noexcept nogil
    void bm_logistic_d(double* x, Py_ssize_t n) noexcept nogil


cdef extern from "_sbn_terms.h":
    void sbn_parent_terms(const double* mu, const cnp.int64_t* par, const double* w, double x,
                          const double* ew, double* ea, double* eb, double* da, double* db,
                          double* m, double* pa, double* pb, Py_ssize_t n) noexcept nogil
    void sbn_child_terms(const cnp.int64_t* cedge, const cnp.int64_t* echild, const double* w,
                         const double* ea, const double* eb, const double* da, const double* db,
                         const double* phi, const double* mu, const double* xi, double* t,
                         Py_ssize_t n) noexcept nogil
    void sbn_child_update(const cnp.int64_t* cedge, const cnp.int64_t* echild, const double* w,
                          const double* ea, const double* eb, double* da, double* db, double* mz,
                          double mnew, double dm, double* r, Py_ssize_t n) noexcept nogil
