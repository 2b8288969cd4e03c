/* Armada's pario: GA's DRA, disk resident arrays. GA 5.8's names and prototypes; docs/pario.md.
 *
 * A disk array is one file (its "meta-file" in GA's words): a header (type, dimensions, name)
 * and the elements in C order, written and read with MPI-IO by the processes of GA's default
 * group, each moving the part of the global array it owns. Every function is collective over that
 * group, except DRA_Probe and DRA_Wait. As GA's C interface: C types (C_DBL, ...), dimensions in C
 * order, zero-based inclusive sections.
 *
 * Reads and writes return a request for DRA_Wait / DRA_Probe, as GA's; they complete before they
 * return (GA's documentation allows it), so a request is always done.
 *
 * Return values: 0 on success; on a bad argument or a failed file operation a DRA_ERR_ code, and
 * every calling process prints "[rank r] <function>: argument '<name>' = <value>: <why>" to
 * stderr. Nothing is read or written then.
 *
 * Names and file names are at most GA's 72 and 248 characters (DRA_MAX_NAME, DRA_MAX_FNAME), so
 * NDRA_Inquire's name[73] and filename[249] always have room. */
#ifndef _DRA_H_
#define _DRA_H_

#include "chemio.h"
#include "ga.h" /* logical */

typedef long dra_size_t;
#define DRA_RW ELIO_RW
#define DRA_R ELIO_R
#define DRA_W ELIO_W
#define DRA_REQ_INVALID -333

/* Armada's codes (GA's documentation: "> 0: failure"). */
#define DRA_ERR_ARGUMENT 1 /* a bad handle, mode, type, dimension or section */
#define DRA_ERR_IO 2       /* the file system refused (open, read, write, delete) */
#define DRA_ERR_STATE 3    /* DRA_Init not called, too many arrays */

#ifdef __cplusplus
extern "C" {
#endif

extern int NDRA_Create(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode,
                       dra_size_t reqdims[], int* d_a);
extern int NDRA_Create_config(int type, int ndim, dra_size_t dims[], char* name, char* filename, int mode,
                              dra_size_t reqdims[], int numfiles, int ioprocs, int* d_a);
extern int NDRA_Inquire(int d_a, int* type, int* ndim, dra_size_t dims[], char* name, char* filename);
extern int NDRA_Write(int g_a, int d_a, int* request);
extern int NDRA_Read(int g_a, int d_a, int* request);
extern int NDRA_Write_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[],
                              dra_size_t dhi[], int* request);
extern int NDRA_Read_section(logical transp, int g_a, int glo[], int ghi[], int d_a, dra_size_t dlo[],
                             dra_size_t dhi[], int* request);
extern int DRA_Init(int max_arrays, double max_array_size, double total_disk_space, double max_memory);
extern int DRA_Terminate(void);
extern int DRA_Open(char* filename, int mode, int* d_a);
extern int DRA_Probe(int request, int* compl_status);
extern void DRA_Set_debug(logical flag);
extern void DRA_Print_internals(int d_a);
extern void DRA_Set_default_config(int numfiles, int numioprocs);
extern int DRA_Wait(int request);
extern int DRA_Delete(int d_a);
extern int DRA_Close(int d_a);
extern void DRA_Flick(void);

#ifdef __cplusplus
}
#endif

#endif /* _DRA_H_ */
