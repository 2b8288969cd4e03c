// Contiguous put, get and accumulate (blocking, nonblocking, aggregate), flag puts, value
// operations, and completion: fences and the barrier.
#include "internal.hpp"

namespace armada::armci {

void set_flag(int* flag, int value, int proc) {
  rma::fence(proc);  // the data is complete at the target before the flag says so
  rma::put(&value, flag, sizeof value, proc);
}

namespace {

/// One contiguous operation. `nonblocking` with a null hdl is an implicit-handle operation.
template <class Count>
int contiguous_call(const char* fn, Kind kind, int datatype, void* scale, void* src, void* dst, Count size,
                    int proc, bool nonblocking = false, armci_hdl_t* hdl = nullptr) noexcept {
  return guard(fn, [&] {
    const std::size_t bytes = to_size(fn, "bytes", size);
    if (nonblocking && kind != Kind::Acc && is_aggregate(hdl))
      return aggregate(fn, hdl, kind == Kind::Put, src, dst, bytes, proc);
    switch (kind) {
      case Kind::Put:
        return issue(nonblocking, hdl, [&] { rma::put(src, dst, bytes, proc); },
                     [&] { return rma::put_nb(src, dst, bytes, proc); });
      case Kind::Get:
        return issue(nonblocking, hdl, [&] { rma::get(src, dst, bytes, proc); },
                     [&] { return rma::get_nb(src, dst, bytes, proc); });
      case Kind::Acc: {
        const rma::AccType type = acc_type(fn, datatype);
        return issue(nonblocking, hdl, [&] { rma::acc(type, scale, src, dst, bytes, proc); },
                     [&] { return rma::acc_nb(type, scale, src, dst, bytes, proc); });
      }
    }
  });
}

template <class Count>
int put_flag(const char* fn, void* src, void* dst, Count size, int* flag, int value, int proc) noexcept {
  return guard(fn, [&] {
    not_null(fn, "flag", flag);  // checked before any byte moves
    // One operation: the data, then the flag ordered after it (one request where the transport
    // has an ordered channel), rma::put_notify.
    rma::put_notify(src, dst, to_size(fn, "bytes", size), flag, value, proc);
  });
}

// The value lives on the caller's stack, so the Nb variants move it before they return too
// (completing early is allowed; ARMCI_Wait on their handle then returns at once).
template <class T>
int put_value(const char* fn, T value, void* dst, int proc) noexcept {
  return guard(fn, [&] { rma::put(&value, dst, sizeof value, proc); });
}

template <class T>
T get_value(const char* fn, void* src, int proc) noexcept {
  return guard_value(fn, T{}, [&] {
    T value;
    rma::get(src, &value, sizeof value, proc);
    return value;
  });
}

constexpr int kNoType = 0;  // datatype argument of put and get (unused)
constexpr bool kNb = true;  // nonblocking

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// ---- contiguous ------------------------------------------------------------------------------
// The six calls of one size type: ARMCI's int (no suffix) and Armada's size_t (suffix _c).
#define ARMADA_ARMCI_CONTIGUOUS_CALLS(suffix, Size)                                                       \
  ARMCI_TWIN(int, ARMCI_Put##suffix, (void* src, void* dst, Size bytes, int proc)) {                      \
    return contiguous_call("ARMCI_Put" #suffix, Kind::Put, kNoType, nullptr, src, dst, bytes, proc);      \
  }                                                                                                        \
  ARMCI_TWIN(int, ARMCI_Get##suffix, (void* src, void* dst, Size bytes, int proc)) {                      \
    return contiguous_call("ARMCI_Get" #suffix, Kind::Get, kNoType, nullptr, src, dst, bytes, proc);      \
  }                                                                                                        \
  ARMCI_TWIN(int, ARMCI_Acc##suffix, (int datatype, void* scale, void* src, void* dst, Size bytes, int proc)) { \
    return contiguous_call("ARMCI_Acc" #suffix, Kind::Acc, datatype, scale, src, dst, bytes, proc);       \
  }                                                                                                        \
  ARMCI_TWIN(int, ARMCI_NbPut##suffix, (void* src, void* dst, Size bytes, int proc, armci_hdl_t* hdl)) {  \
    return contiguous_call("ARMCI_NbPut" #suffix, Kind::Put, kNoType, nullptr, src, dst, bytes, proc, kNb, hdl); \
  }                                                                                                        \
  ARMCI_TWIN(int, ARMCI_NbGet##suffix, (void* src, void* dst, Size bytes, int proc, armci_hdl_t* hdl)) {  \
    return contiguous_call("ARMCI_NbGet" #suffix, Kind::Get, kNoType, nullptr, src, dst, bytes, proc, kNb, hdl); \
  }                                                                                                        \
  ARMCI_TWIN(int, ARMCI_NbAcc##suffix,                                                                     \
             (int datatype, void* scale, void* src, void* dst, Size bytes, int proc, armci_hdl_t* hdl)) {  \
    return contiguous_call("ARMCI_NbAcc" #suffix, Kind::Acc, datatype, scale, src, dst, bytes, proc, kNb, hdl); \
  }

ARMADA_ARMCI_CONTIGUOUS_CALLS(, int)
ARMADA_ARMCI_CONTIGUOUS_CALLS(_c, size_t)
#undef ARMADA_ARMCI_CONTIGUOUS_CALLS

// ---- flag puts -------------------------------------------------------------------------------
ARMCI_TWIN(int, ARMCI_Put_flag, (void* src, void* dst, int size, int* flag, int value, int proc)) {
  return put_flag("ARMCI_Put_flag", src, dst, size, flag, value, proc);
}
ARMCI_TWIN(int, ARMCI_Put_flag_c, (void* src, void* dst, size_t bytes, int* flag, int value, int proc)) {
  return put_flag("ARMCI_Put_flag_c", src, dst, bytes, flag, value, proc);
}

// ---- values ----------------------------------------------------------------------------------
ARMCI_TWIN(int, ARMCI_PutValueInt, (int src, void* dst, int proc)) { return put_value("ARMCI_PutValueInt", src, dst, proc); }
ARMCI_TWIN(int, ARMCI_PutValueLong, (long src, void* dst, int proc)) { return put_value("ARMCI_PutValueLong", src, dst, proc); }
ARMCI_TWIN(int, ARMCI_PutValueFloat, (float src, void* dst, int proc)) { return put_value("ARMCI_PutValueFloat", src, dst, proc); }
ARMCI_TWIN(int, ARMCI_PutValueDouble, (double src, void* dst, int proc)) { return put_value("ARMCI_PutValueDouble", src, dst, proc); }

ARMCI_TWIN(int, ARMCI_NbPutValueInt, (int src, void* dst, int proc, armci_hdl_t*)) {
  return put_value("ARMCI_NbPutValueInt", src, dst, proc);
}
ARMCI_TWIN(int, ARMCI_NbPutValueLong, (long src, void* dst, int proc, armci_hdl_t*)) {
  return put_value("ARMCI_NbPutValueLong", src, dst, proc);
}
ARMCI_TWIN(int, ARMCI_NbPutValueFloat, (float src, void* dst, int proc, armci_hdl_t*)) {
  return put_value("ARMCI_NbPutValueFloat", src, dst, proc);
}
ARMCI_TWIN(int, ARMCI_NbPutValueDouble, (double src, void* dst, int proc, armci_hdl_t*)) {
  return put_value("ARMCI_NbPutValueDouble", src, dst, proc);
}

ARMCI_TWIN(int, ARMCI_GetValueInt, (void* src, int proc)) { return get_value<int>("ARMCI_GetValueInt", src, proc); }
ARMCI_TWIN(long, ARMCI_GetValueLong, (void* src, int proc)) { return get_value<long>("ARMCI_GetValueLong", src, proc); }
ARMCI_TWIN(float, ARMCI_GetValueFloat, (void* src, int proc)) { return get_value<float>("ARMCI_GetValueFloat", src, proc); }
ARMCI_TWIN(double, ARMCI_GetValueDouble, (void* src, int proc)) { return get_value<double>("ARMCI_GetValueDouble", src, proc); }

// ---- completion ------------------------------------------------------------------------------
// Fences also complete the nonblocking operations issued to their targets (as ARMCI-MPI's do):
// a fence promises remote completion of everything issued before it.
ARMCI_TWIN(void, ARMCI_Fence, (int proc)) {
  guard_void("ARMCI_Fence", [&] {
    check_proc("ARMCI_Fence", "proc", proc);
    complete_target(proc);
    rma::fence(proc);
  });
}

ARMCI_TWIN(void, ARMCI_AllFence, (void)) {
  guard_void("ARMCI_AllFence", [] {
    require_init("ARMCI_AllFence");
    complete_all();
    rma::fence_all();
  });
}

// Collective over the world (not the default group), as in ARMCI-MPI.
ARMCI_TWIN(void, ARMCI_Barrier, (void)) {
  guard_void("ARMCI_Barrier", [] {
    require_init("ARMCI_Barrier");
    complete_all();
    rma::barrier();
  });
}

// Not collective: fences every member of the group.
void ARMCI_GroupFence(ARMCI_Group* group) {
  constexpr const char* fn = "ARMCI_GroupFence";
  guard_void(fn, [&] {
    const GroupInfo info = group_of(fn, "group", group);
    for (const int proc : info.group.world_ranks()) {
      complete_target(proc);
      rma::fence(proc);
    }
  });
}
