// ThreadSanitizer annotations. The node server thread writes the memory of its node's ranks on
// behalf of remote origins, exactly as another process writing shared memory would; the
// ordering with the application's own accesses comes from MPI (replies, barriers), which
// ThreadSanitizer cannot see. Its request execution is therefore outside TSan's view, like the
// other processes' accesses are.
#pragma once

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#define ARMADA_TSAN_REMOTE_AGENT_BEGIN() __tsan_ignore_thread_begin()
#define ARMADA_TSAN_REMOTE_AGENT_END() __tsan_ignore_thread_end()
#else
#define ARMADA_TSAN_REMOTE_AGENT_BEGIN() ((void)0)
#define ARMADA_TSAN_REMOTE_AGENT_END() ((void)0)
#endif

namespace armada::rma::detail {
/// The scope of a remote agent (nests).
struct TsanRemoteAgentScope {
  TsanRemoteAgentScope() { ARMADA_TSAN_REMOTE_AGENT_BEGIN(); }
  ~TsanRemoteAgentScope() { ARMADA_TSAN_REMOTE_AGENT_END(); }
  TsanRemoteAgentScope(const TsanRemoteAgentScope&) = delete;
  TsanRemoteAgentScope& operator=(const TsanRemoteAgentScope&) = delete;
};
}  // namespace armada::rma::detail
