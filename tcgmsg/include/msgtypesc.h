/* TCGMSG's message-type flags (GA's msgtypesc.h): OR'ed into a user type (1 .. 32767) to say
 * what the message holds. Armada's messages are bytes: the flags only make types distinct. */
#ifndef MSGTYPES_H_
#define MSGTYPES_H_

#define MSGDBL  65536
#define MSGINT 131072
#define MSGCHR 262144

#endif /* MSGTYPES_H_ */
