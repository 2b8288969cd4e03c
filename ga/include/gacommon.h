/* Armada's Global Arrays C API: the constants and basic types ga.h and macdecls.h share.
 * The values are GA 5.8's (gacommon.h, macommon.h, typesf2c.h), so that programs and data files
 * written for GA see the same numbers. */
#ifndef ARMADA_GA_GACOMMON_H
#define ARMADA_GA_GACOMMON_H

#define GA_MAX_DIM 7
#define GA_VERSION_MAJOR 5
#define GA_VERSION_MINOR 8
#define GA_VERSION_PATCH 0

/* Fortran INTEGER as GA's C interfaces see it (8 bytes, as Debian builds GA). */
typedef long Integer;
typedef long logical;
typedef long Logical;
typedef float Real;
typedef double DoublePrecision;
/* GA's complex scalars (typesf2c.h): the layout of C's and C++'s complex types. */
typedef struct {
  DoublePrecision real;
  DoublePrecision imag;
} DoubleComplex;
typedef struct {
  Real real;
  Real imag;
} SingleComplex;

/* MA's element types (macommon.h). */
#define MA_FALSE 0
#define MA_TRUE 1
#define MA_DEFAULT_SPACE (-1)
#define MA_NAMESIZE 32
#define MT_BASE 1000
#define MT_C_CHAR (MT_BASE + 0)
#define MT_C_INT (MT_BASE + 1)
#define MT_C_LONGINT (MT_BASE + 2)
#define MT_C_FLOAT (MT_BASE + 3)
#define MT_C_DBL (MT_BASE + 4)
#define MT_C_LDBL (MT_BASE + 5)
#define MT_C_SCPL (MT_BASE + 6)
#define MT_C_DCPL (MT_BASE + 7)
#define MT_C_LDCPL (MT_BASE + 8)
#define MT_F_BYTE (MT_BASE + 9)
#define MT_F_INT (MT_BASE + 10)
#define MT_F_LOG (MT_BASE + 11)
#define MT_F_REAL (MT_BASE + 12)
#define MT_F_DBL (MT_BASE + 13)
#define MT_F_SCPL (MT_BASE + 14)
#define MT_F_DCPL (MT_BASE + 15)
#define MT_C_LONGLONG (MT_BASE + 16)
#define MT_FIRST MT_C_CHAR
#define MT_LAST MT_C_LONGLONG
#define MT_NUMTYPES (MT_LAST - MT_FIRST + 1)

/* GA's names for them (gacommon.h). */
#define C_CHAR MT_C_CHAR
#define C_DBL MT_C_DBL
#define C_DCPL MT_C_DCPL
#define C_FLOAT MT_C_FLOAT
#define C_INT MT_C_INT
#define C_LDBL MT_C_LDBL
#define C_LDCPL MT_C_LDCPL
#define C_LONGLONG MT_C_LONGLONG
#define C_LONG MT_C_LONGINT
#define C_SCPL MT_C_SCPL
#define F_BYTE MT_F_BYTE
#define F_DBL MT_F_DBL
#define F_DCPL MT_F_DCPL
#define F_INT MT_F_INT
#define F_LOG MT_F_LOG
#define F_REAL MT_F_REAL
#define F_SCPL MT_F_SCPL

#endif
