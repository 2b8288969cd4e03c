#include "common/host.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>

namespace armada::bench {

namespace {

/// The affinity at program start (captured during static initialization, before main).
struct LaunchMask {
  cpu_set_t mask;
  bool ok;
  LaunchMask() {
    CPU_ZERO(&mask);
    ok = sched_getaffinity(0, sizeof mask, &mask) == 0;
  }
};
const LaunchMask g_launch;

}  // namespace

void restore_launch_affinity() {
  if (g_launch.ok) sched_setaffinity(0, sizeof g_launch.mask, &g_launch.mask);
}

double load_average() {
  double load = -1;
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf", &load) != 1) load = -1;
    std::fclose(f);
  }
  return load;
}

std::string host_name() {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  return host;
}

std::string cpu_model() {
  std::FILE* f = std::fopen("/proc/cpuinfo", "r");
  std::string model;
  char line[512];
  while (f && model.empty() && std::fgets(line, sizeof line, f)) {
    const std::string text = line;
    const auto colon = text.find(':');
    if (text.rfind("model name", 0) == 0 && colon != std::string::npos) {
      model = text.substr(colon + 1);
      model.erase(0, model.find_first_not_of(" \t"));
      model.erase(model.find_last_not_of(" \t\n") + 1);
    }
  }
  if (f) std::fclose(f);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return (model.empty() ? "CPU unknown" : model) + ", " + std::to_string(cpus) + " CPUs";
}

std::string mpi_library_version() {
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(version, &len);
  std::string v(version, static_cast<std::size_t>(len));
  return v.substr(0, v.find_first_of(",\n"));
}

std::string utc_timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

std::string env_or(const char* name, const std::string& fallback) {
  const char* value = std::getenv(name);
  return value ? value : fallback;
}

std::string pin_to_cpu_index(int index) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0) return "affinity unknown";
  if (CPU_COUNT(&mask) < 2) return "bound by the launcher";
  int seen = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask) || ++seen != index) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) return "pinning failed";
    return "cpu " + std::to_string(cpu);
  }
  return "not pinned (fewer CPUs than index " + std::to_string(index) + ")";
}

}  // namespace armada::bench
