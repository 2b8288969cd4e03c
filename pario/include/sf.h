/* Armada's pario: GA's SF, a shared file every process of GA's default group reads and writes
 * at any byte offset. GA 5.8's names and prototypes; docs/pario.md.
 *
 * SF_Create and SF_Destroy are collective; reads and writes are asynchronous (a helper thread of
 * the calling process), finished by SF_Wait / SF_Waitall. The file is "<fname>.<handle>" (GA's
 * naming), or "<fname>.<suffix>" with SF_Create_suffix, and is removed by SF_Destroy. Sizes and
 * offsets are doubles holding whole numbers. Every int function returns 0 on success or
 * SF_ERR_ code (SF_Errmsg gives its text); a bad argument is also named on stderr by the process
 * that passed it. */
#ifndef SF_H_
#define SF_H_

typedef double SFsize_t;

#include "ga.h" /* Integer */

#define SF_ERR_ARGUMENT -20001 /* a bad handle, offset, size or request */
#define SF_ERR_IO -20002       /* the file system refused */
#define SF_ERR_LIMIT -20003    /* past the hard size limit given to SF_Create */
#define SF_ERR_EOF -20004      /* a read past the end of the file */

#ifdef __cplusplus
extern "C" {
#endif

extern int SF_Create(char* fname, SFsize_t size_hard_limit, SFsize_t size_soft_limit, SFsize_t req_size,
                     int* handle);
extern int SF_Create_suffix(char* fname, SFsize_t size_hard_limit, SFsize_t size_soft_limit, SFsize_t req_size,
                            int* handle, int suffix);
extern int SF_Destroy(int handle);
extern int SF_Rwtor(int handle);
extern int SF_Open(int handle);
extern int SF_Close(int handle);
extern int SF_Fsync(int handle);
extern int SF_Write(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id);
extern int SF_Read(int handle, SFsize_t offset, SFsize_t bytes, char* buffer, int* req_id);
extern int SF_Wait(int* req_id);
extern int SF_Waitall(int* list, int num);
extern void SF_Errmsg(int code, char* msg);

#ifdef __cplusplus
}
#endif

#endif /* SF_H_ */
