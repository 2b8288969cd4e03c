#include "transport/mpi_rma/leftovers.hpp"

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

namespace armada::rma::detail::mpi_rma {

namespace {

// Where osc sm puts its files: Open MPI's parameter as the launcher passes it, else its default.
std::string backing_directory() {
  const char* dir = std::getenv("OMPI_MCA_osc_sm_backing_directory");
  return dir && *dir ? dir : "/dev/shm";
}

// Open MPI names the host without its domain.
std::string short_host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  std::string host = name;
  return host.substr(0, host.find('.'));
}

using Directory = std::unique_ptr<DIR, int (*)(DIR*)>;
Directory open_directory(const std::string& path) { return {opendir(path.c_str()), closedir}; }

bool numeric(const char* name) { return *name && std::strspn(name, "0123456789") == std::strlen(name); }

// This user's files named for osc sm on this host.
std::vector<std::string> candidates() {
  const std::string dir = backing_directory();
  const std::string prefix = "osc_sm." + short_host_name() + ".";
  std::vector<std::string> found;
  Directory d = open_directory(dir);
  if (!d) return found;
  while (const dirent* e = readdir(d.get())) {
    if (std::strncmp(e->d_name, prefix.c_str(), prefix.size()) != 0) continue;
    const std::string path = dir + "/" + e->d_name;
    struct stat st {};
    if (lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()) found.push_back(path);
  }
  return found;
}

// Whether process `pid` has `path` open or mapped. A live window's file always is: its creator
// holds the descriptor from creation until it maps the file, and the mapping until the unlink.
bool holds(const std::string& pid, const std::string& path) {
  const std::string fd_dir = "/proc/" + pid + "/fd";
  if (Directory d = open_directory(fd_dir)) {
    char target[4096];
    while (const dirent* e = readdir(d.get())) {
      const ssize_t n = readlink((fd_dir + "/" + e->d_name).c_str(), target, sizeof target - 1);
      if (n > 0 && path.compare(0, std::string::npos, target, static_cast<std::size_t>(n)) == 0) return true;
    }
  }
  std::ifstream maps("/proc/" + pid + "/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.size() >= path.size() && line.compare(line.size() - path.size(), path.size(), path) == 0) return true;
  return false;
}

bool held_by_any_process(const std::string& path) {
  Directory proc = open_directory("/proc");
  if (!proc) return true;  // cannot tell: leave it
  while (const dirent* e = readdir(proc.get()))
    if (numeric(e->d_name) && holds(e->d_name, path)) return true;
  return false;
}

}  // namespace

std::vector<std::string> remove_unheld_osc_sm_files() {
  std::vector<std::string> removed;
  for (const std::string& path : candidates())  // usually none: /proc is read only when one exists
    if (!held_by_any_process(path) && unlink(path.c_str()) == 0) removed.push_back(path);
  return removed;
}

}  // namespace armada::rma::detail::mpi_rma
