# cython: language_level=3
"""Declarations of the compiled mean-field solver (_sbn.pyx): the network in
compressed sparse form and one thread's work area."""

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
    double* buf   # (N) one unit's per-child values, for the vectorised log and logistic
