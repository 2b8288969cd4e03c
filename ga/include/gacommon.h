/* Armada's Global Arrays C API: GA's constants (its element types by GA's names, GA_MAX_DIM, the
 * version). The values are GA 5.8's, so that programs and data files written for GA see the same
 * numbers; as in GA, the C types of Fortran's (Integer, DoubleComplex, ...) are typesf2c.h's and
 * MA's type numbers macommon.h's. */
#ifndef ARMADA_GA_GACOMMON_H
#define ARMADA_GA_GACOMMON_H

#define GA_MAX_DIM 7
#define GA_MAX_CACHE 10 /* GA 5.8's value */
#define GA_VERSION_MAJOR 5
#define GA_VERSION_MINOR 8
#define GA_VERSION_PATCH 0

#include "macommon.h"

/* GA's names for MA's element types. */
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
