/* TCGMSG's C API as Global Arrays installs it (tcgmsg.h of GA 5.8: the tcg_* names), on Armada:
 * libarmada_tcgmsg, over the rma runtime's world (GA's world). docs/tcgmsg.md. */
#ifndef ARMADA_TCGMSG_H_
#define ARMADA_TCGMSG_H_

#ifdef __cplusplus
extern "C" {
#endif

/* Starting and ending. pbegin initializes the runtime (MPI, rma) unless GA or the program has;
 * pend ends the process, as GA's does. */
extern void   tcg_alt_pbegin(int *argc, char **argv[]);
extern void   tcg_pbegin(int argc, char **argv);
extern void   tcg_pbeginf(void);
extern void   tcg_pbginf(void);
extern void   tcg_pend(void);
extern long   tcg_ready(void);

/* Processes. */
extern long   tcg_nnodes(void);
extern long   tcg_nodeid(void);

/* Messages: a type is a tag (>= 0); node -1 receives from any node; sync 0 queues the
 * operation until tcg_waitcom. */
extern void   tcg_snd(long type, void *buf, long lenbuf, long node, long sync);
extern void   tcg_rcv(long type, void *buf, long lenbuf, long *lenmes, long nodeselect, long *nodefrom,
                      long sync);
extern long   tcg_probe(long type, long node);
extern void   tcg_waitcom(long node);

/* Collectives. op: "+", "*", "max", "min", "absmax", "absmin"; tcg_igop also "or", "and" and
 * their spellings "|", "&", "bor", "band", "||", "&&", "lor", "land". */
extern void   tcg_brdcst(long type, void *buf, long lenbuf, long originator);
extern void   tcg_dgop(long type, double *x, long n, char *op);
extern void   tcg_igop(long type, long *x, long n, char *op);
extern void   tcg_synch(long type);
extern long   tcg_nxtval(long mproc);

/* Sizes, times and services. */
extern long   tcg_mdtob(long n);
extern long   tcg_mdtoi(long n);
extern long   tcg_mitob(long n);
extern long   tcg_mitod(long n);
extern long   tcg_mtime(void);
extern double tcg_time(void);
extern double tcg_drand48(void);
extern void   tcg_srand48(long seed);
extern void   tcg_setdbg(long value);
extern void   tcg_llog(void);
extern void   tcg_stats(void);
extern long   tcg_niceftn(long ival);
extern void   tcg_error(char *msg, long code);
extern void   tcg_parerr(long code);

#ifdef __cplusplus
}
#endif

#endif /* ARMADA_TCGMSG_H_ */
