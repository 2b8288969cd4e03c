/* The mpi-rma transport's progress thread, as the reproducers here need it: a thread that enters
 * MPI's progress engine with MPI_Iprobe every 100 us and sleeps in between
 * (rma/src/transport/mpi_rma/mpi_rma_transport.cpp, progress_loop). */
#pragma once

#include <mpi.h>
#include <pthread.h>
#include <time.h>

typedef struct {
  pthread_t thread;
  volatile int stop;
} iprobe_thread_t;

static void* iprobe_thread_main(void* arg) {
  iprobe_thread_t* self = (iprobe_thread_t*)arg;
  const struct timespec interval = {0, 100000};
  while (!self->stop) {
    int flag = 0;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    nanosleep(&interval, NULL);
  }
  return NULL;
}

static inline void iprobe_thread_start(iprobe_thread_t* t) {
  t->stop = 0;
  pthread_create(&t->thread, NULL, iprobe_thread_main, t);
}

static inline void iprobe_thread_stop(iprobe_thread_t* t) {
  t->stop = 1;
  pthread_join(t->thread, NULL);
}
