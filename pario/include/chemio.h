/* Armada's pario: the constants GA's chemio.h gives C and Fortran sources alike (file modes and
 * request states of ELIO, EAF and DRA). The values are GA 5.8's. docs/pario.md. */
#ifndef ARMADA_PARIO_CHEMIO_H
#define ARMADA_PARIO_CHEMIO_H

#define ELIO_RW -1
#define ELIO_W -2
#define ELIO_R -3

#define ELIO_DONE -1
#define ELIO_PENDING 1
#define ELIO_OK 0

#define CHEMIO_RW ELIO_RW
#define CHEMIO_W ELIO_W
#define CHEMIO_R ELIO_R
#define CHEMIO_DONE ELIO_DONE
#define CHEMIO_PENDING ELIO_PENDING
#define CHEMIO_OK ELIO_OK

#endif
