/* Armada's Global Arrays C API: the C types of Fortran's, as GA 5.8's typesf2c.h defines them
 * (ga.h and macdecls.h include it, as GA's do, and C code shared with Fortran includes it for
 * `Integer`). `Integer` is 8 bytes: the default INTEGER of the Fortran programs GA's C
 * interfaces serve (NWChem, Debian's GA build); Armada's C API takes it at that width whichever
 * INTEGER width its Fortran API was built for (docs/ga.md, "A GA installation's layout"). */
#ifndef ARMADA_GA_TYPESF2C_H
#define ARMADA_GA_TYPESF2C_H

/* The calling convention of a Fortran-callable C function (empty on every system Armada runs on). */
#define FATR

typedef long Integer;
typedef float Real;
typedef double DoublePrecision;
typedef Integer logical;
typedef Integer Logical;

/* GA's complex scalars: the layout of C's and C++'s complex types. */
typedef struct {
  DoublePrecision real;
  DoublePrecision imag;
} DoubleComplex;
typedef struct {
  Real real;
  Real imag;
} SingleComplex;

/* An integer the size of a pointer. */
typedef long intp;

#endif
