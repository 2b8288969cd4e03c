!     TCGMSG's message-type flags (GA's msgtypesf.h), OR'ed into a user type (1 .. 32767).
      integer msgdbl, msgint, msgchr
      parameter (msgdbl=65536, msgint=131072, msgchr=262144)
