// Contiguous put, get and accumulate (blocking, nonblocking, aggregate), flag puts, value
// operations, and completion: fences and the barrier.
#include "internal.hpp"

namespace armada::armci {

void set_flag(const char* function, int* flag, int value, int proc) {
  not_null(function, "flag", flag);
  rma::fence(proc);  // the data is complete at the target before the flag says so
  rma::put(&value, flag, sizeof value, proc);
}

namespace {

template <class Count>
int contiguous(const char* fn, Kind kind, int datatype, void* scale, void* src, void* dst, Count size,
               int proc, Completion completion, armci_hdl_t* hdl = nullptr) noexcept {
  return guard(fn, [&] {
    const std::size_t bytes = to_size(fn, "bytes", size);
    if (completion == Completion::Nonblocking && kind != Kind::Acc && is_aggregate(hdl))
      return aggregate(hdl, kind == Kind::Put, src, dst, bytes, proc);
    switch (kind) {
      case Kind::Put:
        return issue(completion, hdl, [&] { rma::put(src, dst, bytes, proc); },
                     [&] { return rma::put_nb(src, dst, bytes, proc); });
      case Kind::Get:
        return issue(completion, hdl, [&] { rma::get(src, dst, bytes, proc); },
                     [&] { return rma::get_nb(src, dst, bytes, proc); });
      case Kind::Acc: {
        const rma::AccType type = acc_type(fn, datatype);
        return issue(completion, hdl, [&] { rma::acc(type, scale, src, dst, bytes, proc); },
                     [&] { return rma::acc_nb(type, scale, src, dst, bytes, proc); });
      }
    }
  });
}

template <class Count>
int put_flag(const char* fn, void* src, void* dst, Count size, int* flag, int value, int proc) noexcept {
  return guard(fn, [&] {
    rma::put(src, dst, to_size(fn, "bytes", size), proc);
    set_flag(fn, flag, value, proc);
  });
}

// The value lives on the caller's stack, so even the Nb variants move it before returning.
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

constexpr auto Blocking = Completion::Blocking;
constexpr auto Nonblocking = Completion::Nonblocking;
constexpr int kNoType = 0;

}  // namespace
}  // namespace armada::armci

using namespace armada::armci;

// ---- contiguous ------------------------------------------------------------------------------
int PARMCI_Put(void* src, void* dst, int size, int proc) {
  return contiguous("ARMCI_Put", Kind::Put, kNoType, nullptr, src, dst, size, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Put)
int PARMCI_Get(void* src, void* dst, int size, int proc) {
  return contiguous("ARMCI_Get", Kind::Get, kNoType, nullptr, src, dst, size, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Get)
int PARMCI_Acc(int datatype, void* scale, void* src, void* dst, int bytes, int proc) {
  return contiguous("ARMCI_Acc", Kind::Acc, datatype, scale, src, dst, bytes, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Acc)

int PARMCI_NbPut(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbPut", Kind::Put, kNoType, nullptr, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPut)
int PARMCI_NbGet(void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbGet", Kind::Get, kNoType, nullptr, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbGet)
int PARMCI_NbAcc(int datatype, void* scale, void* src, void* dst, int bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbAcc", Kind::Acc, datatype, scale, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbAcc)

int PARMCI_Put_c(void* src, void* dst, size_t bytes, int proc) {
  return contiguous("ARMCI_Put_c", Kind::Put, kNoType, nullptr, src, dst, bytes, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Put_c)
int PARMCI_Get_c(void* src, void* dst, size_t bytes, int proc) {
  return contiguous("ARMCI_Get_c", Kind::Get, kNoType, nullptr, src, dst, bytes, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Get_c)
int PARMCI_Acc_c(int datatype, void* scale, void* src, void* dst, size_t bytes, int proc) {
  return contiguous("ARMCI_Acc_c", Kind::Acc, datatype, scale, src, dst, bytes, proc, Blocking);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Acc_c)
int PARMCI_NbPut_c(void* src, void* dst, size_t bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbPut_c", Kind::Put, kNoType, nullptr, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPut_c)
int PARMCI_NbGet_c(void* src, void* dst, size_t bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbGet_c", Kind::Get, kNoType, nullptr, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbGet_c)
int PARMCI_NbAcc_c(int datatype, void* scale, void* src, void* dst, size_t bytes, int proc, armci_hdl_t* hdl) {
  return contiguous("ARMCI_NbAcc_c", Kind::Acc, datatype, scale, src, dst, bytes, proc, Nonblocking, hdl);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbAcc_c)

// ---- flag puts -------------------------------------------------------------------------------
int PARMCI_Put_flag(void* src, void* dst, int size, int* flag, int value, int proc) {
  return put_flag("ARMCI_Put_flag", src, dst, size, flag, value, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Put_flag)
int PARMCI_Put_flag_c(void* src, void* dst, size_t bytes, int* flag, int value, int proc) {
  return put_flag("ARMCI_Put_flag_c", src, dst, bytes, flag, value, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Put_flag_c)

// ---- values ----------------------------------------------------------------------------------
int PARMCI_PutValueInt(int src, void* dst, int proc) { return put_value("ARMCI_PutValueInt", src, dst, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_PutValueInt)
int PARMCI_PutValueLong(long src, void* dst, int proc) { return put_value("ARMCI_PutValueLong", src, dst, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_PutValueLong)
int PARMCI_PutValueFloat(float src, void* dst, int proc) { return put_value("ARMCI_PutValueFloat", src, dst, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_PutValueFloat)
int PARMCI_PutValueDouble(double src, void* dst, int proc) { return put_value("ARMCI_PutValueDouble", src, dst, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_PutValueDouble)

int PARMCI_NbPutValueInt(int src, void* dst, int proc, armci_hdl_t*) {
  return put_value("ARMCI_NbPutValueInt", src, dst, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPutValueInt)
int PARMCI_NbPutValueLong(long src, void* dst, int proc, armci_hdl_t*) {
  return put_value("ARMCI_NbPutValueLong", src, dst, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPutValueLong)
int PARMCI_NbPutValueFloat(float src, void* dst, int proc, armci_hdl_t*) {
  return put_value("ARMCI_NbPutValueFloat", src, dst, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPutValueFloat)
int PARMCI_NbPutValueDouble(double src, void* dst, int proc, armci_hdl_t*) {
  return put_value("ARMCI_NbPutValueDouble", src, dst, proc);
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_NbPutValueDouble)

int PARMCI_GetValueInt(void* src, int proc) { return get_value<int>("ARMCI_GetValueInt", src, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_GetValueInt)
long PARMCI_GetValueLong(void* src, int proc) { return get_value<long>("ARMCI_GetValueLong", src, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_GetValueLong)
float PARMCI_GetValueFloat(void* src, int proc) { return get_value<float>("ARMCI_GetValueFloat", src, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_GetValueFloat)
double PARMCI_GetValueDouble(void* src, int proc) { return get_value<double>("ARMCI_GetValueDouble", src, proc); }
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_GetValueDouble)

// ---- completion ------------------------------------------------------------------------------
// Fences also complete the issued nonblocking operations to their targets, as ARMCI-MPI's do.
void PARMCI_Fence(int proc) {
  guard_void("ARMCI_Fence", [&] {
    check_proc("ARMCI_Fence", "proc", proc);
    complete_target(proc);
    rma::fence(proc);
  });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Fence)

void PARMCI_AllFence(void) {
  guard_void("ARMCI_AllFence", [] {
    require_init("ARMCI_AllFence");
    complete_all();
    rma::fence_all();
  });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_AllFence)

void PARMCI_Barrier(void) {
  guard_void("ARMCI_Barrier", [] {
    require_init("ARMCI_Barrier");
    complete_all();
    rma::barrier();
  });
}
ARMADA_ARMCI_WEAK_ALIAS(ARMCI_Barrier)

void ARMCI_GroupFence(ARMCI_Group* group) {
  guard_void("ARMCI_GroupFence", [&] {
    const GroupInfo info = group_of("ARMCI_GroupFence", group);
    for (const int proc : info.group.world_ranks()) {
      complete_target(proc);
      rma::fence(proc);
    }
  });
}
