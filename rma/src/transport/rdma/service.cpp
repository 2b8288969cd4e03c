#include "transport/rdma/service.hpp"

#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>

#include "common/check.hpp"

namespace armada::rma::detail::rdma {

namespace {

constexpr const char* kOp = "rma::init (rdma request service)";

void watch(int epoll_fd, int fd) {
  epoll_event event{};
  event.events = EPOLLIN;
  event.data.fd = fd;
  if (epoll_ctl(epoll_fd, EPOLL_CTL_ADD, fd, &event) != 0) throw_system(kOp, "epoll_ctl", errno);
}

int event_fd_of(ucp_worker_h worker) {
  int fd = -1;
  check_ucs(kOp, "ucp_worker_get_efd", ucp_worker_get_efd(worker, &fd));
  return fd;
}

// An internal invariant of the protocol broke: no caller can recover, and a silently dropped
// request would corrupt data or hang a waiter.
[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "%sarmada::rma rdma request service: %s\n", rank_prefix().c_str(), what);
  std::abort();
}

}  // namespace

RequestService::RequestService(Ucx& ucx, Accumulate accumulate, KeyOf key_of, bool progress_origin)
    : ucx_(ucx), accumulate_(std::move(accumulate)), key_of_(std::move(key_of)), progress_origin_(progress_origin) {
  ucp_am_handler_param_t handler{};
  handler.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS |
                       UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG;
  handler.id = kRequestAm;
  handler.flags = UCP_AM_FLAG_WHOLE_MSG;
  handler.cb = &RequestService::on_request;
  handler.arg = this;
  check_ucs(kOp, "ucp_worker_set_am_recv_handler", ucp_worker_set_am_recv_handler(ucx_.service(), &handler));

  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (epoll_fd_ < 0) throw_system(kOp, "epoll_create1", errno);
  stop_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (stop_fd_ < 0) throw_system(kOp, "eventfd", errno);
  watch(epoll_fd_, stop_fd_);
  watch(epoll_fd_, event_fd_of(ucx_.service()));
  if (progress_origin_) watch(epoll_fd_, event_fd_of(ucx_.origin()));
  thread_ = std::thread([this] { run(); });
}

RequestService::~RequestService() {
  stop_.store(true, std::memory_order_release);
  const std::uint64_t one = 1;
  if (write(stop_fd_, &one, sizeof one) < 0) std::perror("armada::rma rdma service: eventfd write");
  if (thread_.joinable()) thread_.join();
  ucp_am_handler_param_t none{};  // no more calls into this object from the worker
  none.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB;
  none.id = kRequestAm;
  none.cb = nullptr;
  (void)ucp_worker_set_am_recv_handler(ucx_.service(), &none);
  close(stop_fd_);
  close(epoll_fd_);
}

void RequestService::run() {
  for (;;) {
    progress_all();
    send_replies();
    // Requests that arrived while those replies completed queued replies of their own: send
    // them before sleeping (seen: the bench's stream of 5000 accumulates hung its fence on
    // acknowledgements left in the outbox of a sleeping service).
    if (!outbox_.empty()) continue;
    if (stop_.load(std::memory_order_acquire)) return;
    if (!arm()) continue;  // events arrived meanwhile: serve them first
    epoll_event events[3];
    const int n = epoll_wait(epoll_fd_, events, 3, -1);  // asleep in the kernel until an arrival
    if (n < 0 && errno != EINTR) die("epoll_wait failed");
    wakeups_.fetch_add(1, std::memory_order_relaxed);
  }
}

void RequestService::progress_all() {
  while (ucp_worker_progress(ucx_.service()) != 0) {
  }
  if (progress_origin_) {
    std::lock_guard lock(ucx_.origin_mutex());
    while (ucp_worker_progress(ucx_.origin()) != 0) {
    }
  }
}

// UCS_ERR_BUSY: events are pending, progress again before sleeping.
bool RequestService::arm() {
  ucs_status_t status = ucp_worker_arm(ucx_.service());
  if (status == UCS_ERR_BUSY) return false;
  if (status != UCS_OK) die("ucp_worker_arm (service worker) failed");
  if (progress_origin_) {
    std::lock_guard lock(ucx_.origin_mutex());
    status = ucp_worker_arm(ucx_.origin());
    if (status == UCS_ERR_BUSY) return false;
    if (status != UCS_OK) die("ucp_worker_arm (origin worker) failed");
  }
  return true;
}

ucs_status_t RequestService::on_request(void* self, const void*, std::size_t, void* data, std::size_t length,
                                        const ucp_am_recv_param_t* param) {
  auto& service = *static_cast<RequestService*>(self);
  // Origins send with UCP_AM_SEND_FLAG_EAGER, so the whole message is here (valid during the call).
  if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) die("a request arrived by rendezvous");
  if (length < sizeof(RequestKind)) die("a request shorter than its kind");
  RequestKind kind;
  std::memcpy(&kind, data, sizeof kind);
  if (kind == RequestKind::Acc) service.handle_acc(static_cast<const std::byte*>(data), length);
  else if (kind == RequestKind::Key) service.handle_key(static_cast<const std::byte*>(data), length);
  else die("a request of unknown kind");
  service.handled_.fetch_add(1, std::memory_order_relaxed);
  return UCS_OK;  // the data is not kept
}

void RequestService::handle_acc(const std::byte* data, std::size_t length) {
  AccRequest request;
  if (length < sizeof request) die("an accumulate request shorter than its header");
  std::memcpy(&request, data, sizeof request);
  const std::byte* runs = data + sizeof request;
  const std::byte* payload = runs + request.runs * sizeof(RunHeader);
  if (payload > data + length) die("an accumulate request shorter than its run table");
  for (std::uint32_t i = 0; i < request.runs; ++i) {
    RunHeader run;
    std::memcpy(&run, runs + i * sizeof run, sizeof run);
    if (payload + run.bytes > data + length) die("an accumulate request shorter than its payload");
    accumulate_(static_cast<AccType>(request.type), request.scale, payload,
                reinterpret_cast<std::byte*>(static_cast<std::uintptr_t>(run.remote)), run.bytes);
    payload += run.bytes;
  }
  queue_reply(request.origin);
}

void RequestService::handle_key(const std::byte* data, std::size_t length) {
  KeyRequest request;
  if (length != sizeof request) die("a key request of the wrong length");
  std::memcpy(&request, data, sizeof request);
  std::vector<std::byte> key;
  KeyReply reply{request.token, key_of_(request.segment, key) ? 1u : 0u, 0};
  reply.key_bytes = static_cast<std::uint32_t>(key.size());
  Outgoing out{request.origin, Reply{}, std::vector<std::byte>(sizeof reply + key.size())};
  std::memcpy(out.key_reply.data(), &reply, sizeof reply);
  if (!key.empty()) std::memcpy(out.key_reply.data() + sizeof reply, key.data(), key.size());
  outbox_.push_back(std::move(out));
}

void RequestService::queue_reply(int to) {
  outbox_.push_back(Outgoing{to, Reply{ReplyKind::AccDone, ucx_.rank()}, {}});
}

// Replies are sent outside the message handler (UCX does not promise that a handler may send)
// and completed before the next batch; requests arriving meanwhile queue behind them.
void RequestService::send_replies() {
  if (outbox_.empty()) return;
  std::deque<Outgoing> sending;
  sending.swap(outbox_);
  std::vector<ucs_status_ptr_t> pending;
  ucp_request_param_t params{};
  params.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  params.flags = UCP_AM_SEND_FLAG_EAGER;
  for (const Outgoing& o : sending) {
    ucp_ep_h ep = nullptr;
    try {
      ep = ucx_.reply_ep(o.to);  // made on the first reply to o.to
    } catch (const std::exception& e) {
      die(e.what());
    }
    const bool key = !o.key_reply.empty();
    ucs_status_ptr_t r = key ? ucp_am_send_nbx(ep, kKeyReplyAm, nullptr, 0, o.key_reply.data(), o.key_reply.size(), &params)
                             : ucp_am_send_nbx(ep, kReplyAm, nullptr, 0, &o.reply, sizeof o.reply, &params);
    if (UCS_PTR_IS_ERR(r)) die("ucp_am_send_nbx of a reply failed");
    if (r) pending.push_back(r);
  }
  for (ucs_status_ptr_t r : pending) {
    while (ucp_request_check_status(r) == UCS_INPROGRESS) ucp_worker_progress(ucx_.service());
    if (ucp_request_check_status(r) != UCS_OK) die("a reply failed");
    ucp_request_free(r);
  }
}

}  // namespace armada::rma::detail::rdma
