#include "async.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace armada::pario {

Outcome transfer(int fd, bool write, std::int64_t offset, void* buf, std::size_t bytes) {
  auto* p = static_cast<char*>(buf);
  while (bytes > 0) {
    const ssize_t n = write ? ::pwrite(fd, p, bytes, offset) : ::pread(fd, p, bytes, offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      return {Outcome::Kind::Failed, errno};
    }
    if (n == 0) return {write ? Outcome::Kind::Failed : Outcome::Kind::EndOfFile, write ? EIO : 0};
    p += n;
    offset += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return {};
}

namespace {

struct Request {
  int owner = -1;
  int fd = -1;
  bool write = false;
  std::int64_t offset = 0;
  void* buf = nullptr;
  std::size_t bytes = 0;
  int delay_ms = 0;
  bool done = false;
  Outcome outcome;
};

// The helper threads start with the first request and stop (joined) when the process exits.
class Engine {
 public:
  ~Engine() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    work_.notify_all();
    for (auto& t : threads_) t.join();
  }

  int submit(const Request& r) {
    std::unique_lock lock(mutex_);
    if (threads_.empty())
      for (int i = 0; i < kThreads; ++i) threads_.emplace_back([this] { run(); });
    const int id = next_id_;
    next_id_ = next_id_ == INT32_MAX ? 0 : next_id_ + 1;
    requests_[id] = r;
    queue_.push_back(id);
    lock.unlock();
    work_.notify_one();
    return id;
  }

  int owner_of(int id) {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(id);
    return it == requests_.end() ? -1 : it->second.owner;
  }

  bool finished(int id) {
    std::lock_guard lock(mutex_);
    auto it = requests_.find(id);
    return it != requests_.end() && it->second.done;
  }

  bool wait(int id, Outcome* out) {
    std::unique_lock lock(mutex_);
    auto it = requests_.find(id);
    if (it == requests_.end()) return false;
    done_.wait(lock, [&] { return requests_.at(id).done; });
    if (out) *out = requests_.at(id).outcome;
    requests_.erase(id);
    return true;
  }

  void drain(int owner) {
    std::vector<int> ids;
    {
      std::lock_guard lock(mutex_);
      for (auto& [id, r] : requests_)
        if (r.owner == owner) ids.push_back(id);
    }
    for (int id : ids) wait(id, nullptr);
  }

 private:
  static constexpr int kThreads = 2;

  void run() {
    std::unique_lock lock(mutex_);
    for (;;) {
      work_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      const int id = queue_.front();
      queue_.pop_front();
      Request r = requests_.at(id);
      lock.unlock();
      if (r.delay_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(r.delay_ms));
      const Outcome o = transfer(r.fd, r.write, r.offset, r.buf, r.bytes);
      lock.lock();
      auto& slot = requests_.at(id);
      slot.outcome = o;
      slot.done = true;
      done_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable work_, done_;
  std::deque<int> queue_;
  std::unordered_map<int, Request> requests_;
  std::vector<std::thread> threads_;
  int next_id_ = 0;
  bool stopping_ = false;
};

Engine& engine() {
  static Engine e;
  return e;
}

}  // namespace

int submit(int owner, int fd, bool write, std::int64_t offset, void* buf, std::size_t bytes) {
  Request r;
  r.owner = owner;
  r.fd = fd;
  r.write = write;
  r.offset = offset;
  r.buf = buf;
  r.bytes = bytes;
  // The tests' proof that a request runs while its caller goes on: each request first sleeps
  // this long on its helper thread (read here, on the caller's thread, where setenv happens).
  if (const char* delay = std::getenv("ARMADA_TEST_PARIO_IO_DELAY_MS")) r.delay_ms = std::atoi(delay);
  return engine().submit(r);
}
int owner_of(int id) { return engine().owner_of(id); }
bool finished(int id) { return engine().finished(id); }
bool wait(int id, Outcome* out) { return engine().wait(id, out); }
void drain(int owner) { engine().drain(owner); }

}  // namespace armada::pario
