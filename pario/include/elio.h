/* Armada's pario: GA's elio.h as far as programs read it, its constants and types. Armada has no
 * ELIO layer of its own (EAF, DRA and SF stand on POSIX and MPI-IO directly), so the elio_*
 * functions are not declared here: a program calling them fails to compile instead of failing to
 * link. docs/pario.md. */
#ifndef ARMADA_PARIO_ELIO_H
#define ARMADA_PARIO_ELIO_H

#include <stdio.h>
#include <sys/types.h>

#include "chemio.h"

#define ELIO_UFS 0
#define ELIO_PFS 1
#define ELIO_PIOFS 2
#define ELIO_PENDING_ERR -44
#define ELIO_SHARED 77
#define ELIO_PRIVATE 88

typedef long Size_t;            /* bytes of a request */
typedef double Off_t;           /* a file offset: a whole number held in a double (53 bits) */
typedef unsigned long avail_t;  /* free space */
typedef long io_request_t;      /* an asynchronous request */

#endif
