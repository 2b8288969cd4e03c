"""Distributed linear algebra on GlobalArrays (armada::linalg, docs/linalg.md).

Every function is collective over the arrays' group. Matrices are 2-D GlobalArrays of float32,
float64, complex64 or complex128, any distribution. Factorizations work on copies: the input
matrix is never changed, and a breakdown (singular, not positive definite) raises
armada.LinAlgError on every rank with every output unchanged.
"""

from . import _core

_la = _core.linalg


def gemm(a, b, c, alpha=1, beta=0, transa="N", transb="N"):
    """c = alpha * op(a) @ op(b) + beta * c; op is 'N' (as is), 'T' (transpose) or 'C'
    (conjugate transpose). beta == 0 sets c without reading it."""
    _la.gemm(a, b, c, alpha, beta, transa, transb)
    return c


def lu_solve(a, b, trans="N"):
    """Solves op(a) @ x = b by LU with partial pivoting; b (n x nrhs) is overwritten by x."""
    _la.lu_solve(a, b, trans)
    return b


def cholesky_solve(a, b):
    """Solves a @ x = b for a symmetric (Hermitian) positive definite a, reading its lower
    triangle; b is overwritten by x."""
    _la.cholesky_solve(a, b)
    return b


def eigen_symmetric(a, v=None):
    """Eigenvalues (ascending, a NumPy array on every rank) and eigenvectors (the columns of v, a
    GlobalArray; a new one like `a` when v is None) of the symmetric (Hermitian) a, reading its
    lower triangle. Returns (w, v)."""
    if v is None:
        v = a.duplicate(a.name + "_eigenvectors")
    w = _la.eigen_symmetric(a, v)
    return w, v


def inverse(a, inv=None):
    """The inverse of a into inv (a new array like `a` when None); returns inv."""
    if inv is None:
        inv = a.duplicate(a.name + "_inverse")
    _la.inverse(a, inv)
    return inv
