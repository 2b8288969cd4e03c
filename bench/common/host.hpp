// What the benchmarks record about the run: host, MPI library, load, date, CPU pinning.
#pragma once

#include <string>

namespace armada::bench {

/// The 1-minute load average from /proc/loadavg (-1 if unknown).
double load_average();

/// gethostname().
std::string host_name();

/// The CPU model from /proc/cpuinfo and the CPUs online: "Intel(R) Xeon(R) ... @ 2.10GHz, 2 CPUs".
std::string cpu_model();

/// MPI_Get_library_version, first line and up to the first comma ("Open MPI v4.1.4").
std::string mpi_library_version();

/// The current UTC time as "2026-11-22T02:05:40Z".
std::string utc_timestamp();

/// The value of environment variable `name`, or `fallback` when it is not set.
std::string env_or(const char* name, const std::string& fallback);

/// Pins the calling thread to the `index`-th CPU (0-based) of the affinity mask the launcher
/// gave, unless the mask has fewer than 2 CPUs (the launcher bound the rank). Returns what was
/// done: "cpu N", "bound by the launcher", "affinity unknown" or "pinning failed".
std::string pin_to_cpu_index(int index);

/// Restores the CPU affinity this process had when host.cpp's first function ran (before any
/// pin): threads started after (such as a node server at rma::init) may then run anywhere.
void restore_launch_affinity();

}  // namespace armada::bench
