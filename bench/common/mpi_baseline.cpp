#include "common/mpi_baseline.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <cstring>
#include <vector>

#include "common/host.hpp"
#include "common/timing.hpp"

namespace armada::bench {

void sleep_us(long us) {
  const timespec ts{us / 1000000, (us % 1000000) * 1000};
  nanosleep(&ts, nullptr);
}

void wait_sleeping(MPI_Request& request, MPI_Status* status) {
  long sleep = 50;
  for (int done = 0;;) {
    MPI_Test(&request, &done, status);
    if (done) return;
    sleep_us(sleep);
    sleep = std::min(2 * sleep, 2000L);
  }
}

std::string mpi_error_string(int rc) {
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return std::string(text, static_cast<std::size_t>(len));
}

bool MpiWindow::create(MPI_Comm comm, std::size_t bytes, bool lock_all) {
  free();
  MPI_Errhandler previous;
  MPI_Comm_get_errhandler(comm, &previous);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  void* base = nullptr;
  MPI_Win win = MPI_WIN_NULL;
  const int rc = MPI_Win_allocate(static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, comm, &base, &win);
  error_ = rc == MPI_SUCCESS ? "" : "MPI_Win_allocate: " + mpi_error_string(rc);
  int mine = rc == MPI_SUCCESS, all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  MPI_Comm_set_errhandler(comm, previous);
  MPI_Errhandler_free(&previous);
  if (!all) {
    if (rc == MPI_SUCCESS) MPI_Win_free(&win);
    if (error_.empty()) error_ = "MPI_Win_allocate failed on another rank";
    return false;
  }
  win_ = win;
  lock_all_ = lock_all;
  local_ = bytes ? static_cast<std::byte*>(base) : nullptr;
  if (local_) std::memset(local_, 0, bytes);
  if (lock_all_) MPI_Win_lock_all(0, win_);
  return true;
}

void MpiWindow::free() {
  if (win_ == MPI_WIN_NULL) return;
  if (lock_all_) MPI_Win_unlock_all(win_);
  MPI_Win_free(&win_);
  win_ = MPI_WIN_NULL;
  local_ = nullptr;
}

void MpiWindow::put(const void* src, std::size_t bytes, int target, std::size_t disp) const {
  MPI_Put(src, static_cast<int>(bytes), MPI_BYTE, target, static_cast<MPI_Aint>(disp), static_cast<int>(bytes),
          MPI_BYTE, win_);
}

void MpiWindow::flush(int target) const { MPI_Win_flush(target, win_); }
void MpiWindow::flush_all() const { MPI_Win_flush_all(win_); }

void MpiWindow::put_flush(const void* src, std::size_t bytes, int target, std::size_t disp) const {
  put(src, bytes, target, disp);
  flush(target);
}

void MpiWindow::get_flush(void* dst, std::size_t bytes, int target, std::size_t disp) const {
  MPI_Get(dst, static_cast<int>(bytes), MPI_BYTE, target, static_cast<MPI_Aint>(disp), static_cast<int>(bytes),
          MPI_BYTE, win_);
  MPI_Win_flush(target, win_);
}

void MpiWindow::acc_flush(const double* src, std::size_t count, int target, std::size_t disp) const {
  MPI_Accumulate(src, static_cast<int>(count), MPI_DOUBLE, target, static_cast<MPI_Aint>(disp),
                 static_cast<int>(count), MPI_DOUBLE, MPI_SUM, win_);
  MPI_Win_flush(target, win_);
}

long MpiWindow::fetch_add(long value, int target, std::size_t disp) const {
  long old = 0;
  MPI_Fetch_and_op(&value, &old, MPI_LONG, target, static_cast<MPI_Aint>(disp), MPI_SUM, win_);
  MPI_Win_flush(target, win_);
  return old;
}

MPI_Request MpiWindow::rget(void* dst, std::size_t bytes, int target, std::size_t disp) const {
  MPI_Request request;
  MPI_Rget(dst, static_cast<int>(bytes), MPI_BYTE, target, static_cast<MPI_Aint>(disp), static_cast<int>(bytes),
           MPI_BYTE, win_, &request);
  return request;
}

void MpiWindow::lock_exclusive(int target) const { MPI_Win_lock(MPI_LOCK_EXCLUSIVE, target, 0, win_); }
void MpiWindow::unlock(int target) const { MPI_Win_unlock(target, win_); }

void MpiWindow::sync() const {
  if (win_ != MPI_WIN_NULL) MPI_Win_sync(win_);
}

double pingpong(MPI_Comm comm, int peer, int tag, const std::byte* src, std::byte* dst, std::size_t bytes,
                std::size_t n, const Rotation& rot, std::size_t first) {
  const int b = static_cast<int>(bytes);
  const auto t0 = Clock::now();
  for (std::size_t i = first; i < first + n; ++i) {
    MPI_Send(src + rot.offset(i), b, MPI_BYTE, peer, tag, comm);
    MPI_Recv(dst + rot.offset(i), b, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
  }
  return seconds(t0, Clock::now());
}

void echo(MPI_Comm comm, int peer, int tag, std::byte* buffer, std::size_t bytes, std::size_t n, const Rotation& rot,
          std::size_t first) {
  const int b = static_cast<int>(bytes);
  for (std::size_t i = first; i < first + n; ++i) {
    MPI_Recv(buffer + rot.offset(i), b, MPI_BYTE, peer, tag, comm, MPI_STATUS_IGNORE);
    MPI_Send(buffer + rot.offset(i), b, MPI_BYTE, peer, tag, comm);
  }
}

double stream_send(MPI_Comm comm, int peer, int tag, int ack_tag, const std::byte* src, std::size_t bytes, int window,
                   std::size_t n, const Rotation& rot, std::size_t first) {
  const int b = static_cast<int>(bytes);
  const auto w_count = static_cast<std::size_t>(window);
  std::vector<MPI_Request> r(w_count);
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < w_count; ++w)
      MPI_Isend(src + rot.offset(first + i * w_count + w), b, MPI_BYTE, peer, tag, comm, &r[w]);
    MPI_Waitall(window, r.data(), MPI_STATUSES_IGNORE);
    int ack = 0;
    MPI_Recv(&ack, 1, MPI_INT, peer, ack_tag, comm, MPI_STATUS_IGNORE);
  }
  return seconds(t0, Clock::now());
}

void stream_receive(MPI_Comm comm, int peer, int tag, int ack_tag, std::byte* buffers, std::size_t bytes, int window,
                    std::size_t n, const Rotation& rot, std::size_t first) {
  const int b = static_cast<int>(bytes);
  const auto w_count = static_cast<std::size_t>(window);
  std::vector<MPI_Request> r(w_count);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t w = 0; w < w_count; ++w)
      MPI_Irecv(buffers + rot.offset(first + i * w_count + w), b, MPI_BYTE, peer, tag, comm, &r[w]);
    MPI_Waitall(window, r.data(), MPI_STATUSES_IGNORE);
    const int ack = 1;
    MPI_Send(&ack, 1, MPI_INT, peer, ack_tag, comm);
  }
}

Rotation stream_buffers(std::size_t bytes, std::size_t stride, int window) {
  Rotation r(bytes, 0, false);
  r.step = stride;
  r.count = static_cast<std::size_t>(window);
  return r;
}

}  // namespace armada::bench
