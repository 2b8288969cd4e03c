/* Armada's pario: GA's EAF, files of one process with synchronous and asynchronous reads and
 * writes at byte offsets. GA 5.8's names, prototypes, modes and error codes; docs/pario.md.
 *
 * Every int function returns 0 (EAF_OK) on success or one of GA's negative codes below;
 * EAF_Errmsg gives its text. Offsets and lengths are doubles holding whole numbers (GA's
 * eaf_off_t). An asynchronous request runs on a helper thread of the process; EAF_Wait blocks
 * until it is done and returns its result, EAF_Probe tells whether it is. The buffer of a request
 * belongs to it until then. */
#ifndef EAF_H
#define EAF_H

#define EAF_RW -1
#define EAF_W -2
#define EAF_R -3

#ifndef EAF_FORTRAN

#include <stdio.h>
#include <sys/types.h>

/* GA's error codes (GA keeps them in eafP.h; Armada gives them to programs too). */
#define EAF_OK 0
#define EAF_ERR_EOF -10001
#define EAF_ERR_MAX_OPEN -10002
#define EAF_ERR_MEMORY -10003
#define EAF_ERR_OPEN -10004
#define EAF_ERR_CLOSE -10005
#define EAF_ERR_INVALID_FD -10006
#define EAF_ERR_WRITE -10007
#define EAF_ERR_AWRITE -10008
#define EAF_ERR_READ -10009
#define EAF_ERR_AREAD -10010
#define EAF_ERR_WAIT -10011
#define EAF_ERR_PROBE -10012
#define EAF_ERR_UNLINK -10013
#define EAF_ERR_UNIMPLEMENTED -10014
#define EAF_ERR_STAT -10015
#define EAF_ERR_TOO_SHORT -10016
#define EAF_ERR_TOO_LONG -10017
#define EAF_ERR_NONINTEGER_OFFSET -10018
#define EAF_ERR_TRUNCATE -10019
#define EAF_ERR_LENGTH -10020

#ifdef __cplusplus
extern "C" {
#endif

typedef double eaf_off_t;

int EAF_Aread(int fd, eaf_off_t offset, void* buf, size_t bytes, int* req_id);
int EAF_Awrite(int fd, eaf_off_t offset, const void* buf, size_t bytes, int* req_id);
int EAF_Close(int fd);
int EAF_Delete(const char* fname);
/* 0 when code is EAF_ERR_EOF, non-zero otherwise (GA's convention). */
int EAF_Eof(int code);
/* The text of code in msg (room for 80 characters); "" for a code EAF does not return. */
void EAF_Errmsg(int code, char* msg);
int EAF_Length(int fd, eaf_off_t* length);
int EAF_Open(const char* fname, int type, int* fd);
void EAF_Print_stats(int fd);
/* *status: 0 when request id is complete, 1 while it runs. */
int EAF_Probe(int id, int* status);
int EAF_Read(int fd, eaf_off_t offset, void* buf, size_t bytes);
/* *avail_kb: the free space in MiB (GA 5.8's unit, despite the name), fstype "UFS". */
int EAF_Stat(const char* path, long* avail_kb, char* fstype, int fslen);
int EAF_Truncate(int fd, eaf_off_t length);
int EAF_Wait(int fd, int id);
int EAF_Write(int fd, eaf_off_t offset, const void* buf, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif /* EAF_FORTRAN */
#endif
