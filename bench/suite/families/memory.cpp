// Family "memory": what every node server allocated (request and pipeline buffers) and how much
// its process's resident memory grew when it started, per rank (the server transport's facts in
// rma::transport_info); in a pass without node servers (shm, mpi-rma) it says so. Run it on many
// ranks to see the per-client growth.
#include "suite/families/common.hpp"

#include <algorithm>
#include <string>

namespace armada::bench::suite {

namespace {

constexpr int kFields = 4;  // running, clients, buffer_bytes, rss_growth_kb

// From the facts of the transport that reaches other nodes (rma::transport_info): a rank that
// runs a node server reports node_server=yes with its clients, buffers and VmRSS growth.
void stats_of_this_rank(std::int64_t* v) {
  std::fill(v, v + kFields, 0);
  for (int r = 0; r < rma::size(); ++r) {
    const rma::TransportInfo t = rma::transport_info(r);
    const std::string* server = t.find("node_server");
    if (!server) continue;
    if (*server == "yes") {
      v[0] = 1;
      v[1] = std::stoll(*t.find("clients"));
      v[2] = std::stoll(*t.find("buffer_bytes"));
      v[3] = std::stoll(*t.find("rss_growth_kb"));
    }
    return;
  }
}

void add(Pass& p, int rank, const char* metric, const char* unit, std::int64_t value) {
  Record r = plain_record(p, "memory", "node_server", "rank " + std::to_string(rank), metric, unit);
  r.x = rank;
  r.stats.median = r.stats.min = r.stats.max = r.p25 = r.p75 = static_cast<double>(value);
  r.stats.count = 1;
  r.verified = true;  // a report of the runtime's own counters: no data moved to check
  p.report->records.push_back(r);
}

}  // namespace

void server_stats_reply(Pass& p) {
  std::int64_t v[kFields];
  stats_of_this_rank(v);
  MPI_Send(v, kFields, MPI_INT64_T, 0, kTagReply, p.comm);
}

void family_memory(Pass& p) {
  const rma::Config& cfg = rma::config();
  const int cluster = static_cast<int>(cfg.integer("ARMADA_SERVER_CLUSTER"));
  const int buffers = static_cast<int>(cfg.integer("ARMADA_SERVER_BUFFERS"));
  const int inline_bytes = static_cast<int>(cfg.integer("ARMADA_SERVER_INLINE"));
  const long long chunk = cfg.integer("ARMADA_SERVER_CHUNK");
  section(p, "node server memory [" + p.transport + "] (bytes of request and pipeline buffers per server)");
  p.progress->next("memory " + p.transport);
  int servers = 0;
  long long lo = -1, hi = 0, sum = 0, rss_lo = -1, rss_hi = 0;
  for (int r = 0; r < p.nranks; ++r) {
    std::int64_t v[kFields];
    if (r == 0) {
      stats_of_this_rank(v);
    } else {
      send_command(p, r, {Cmd::ServerStats});
      MPI_Recv(v, kFields, MPI_INT64_T, r, kTagReply, p.comm, MPI_STATUS_IGNORE);
    }
    if (!v[0]) continue;
    ++servers;
    const std::int64_t request = v[2] - 2 * chunk;  // the part that grows with the clients
    add(p, r, "clients", "", v[1]);
    add(p, r, "buffer_bytes", "B", v[2]);
    add(p, r, "request_buffer_bytes", "B", request);
    add(p, r, "rss_growth", "KiB", v[3]);
    lo = lo < 0 ? v[2] : std::min<long long>(lo, v[2]);
    hi = std::max<long long>(hi, v[2]);
    sum += v[2];
    rss_lo = rss_lo < 0 ? v[3] : std::min<long long>(rss_lo, v[3]);
    rss_hi = std::max<long long>(rss_hi, v[3]);
    p.table->note("server on rank " + std::to_string(r) + ": " + std::to_string(v[1]) + " clients, " +
                  std::to_string(v[2]) + " B of buffers (" + std::to_string(request) + " B request buffers), VmRSS +" +
                  std::to_string(v[3]) + " KiB");
  }
  char text[320];
  if (servers == 0)
    std::snprintf(text, sizeof text, "no node server runs in this pass (%d node%s, rank 1 through '%s')", rma::node_count(),
                  rma::node_count() == 1 ? "" : "s", rma::transport_name(1));
  else
    std::snprintf(text, sizeof text,
                  "%d ranks, %d servers, cluster g=%d (0: by job size), ARMADA_SERVER_BUFFERS=%d (0: by job size), inline %d B, chunk %lld B: buffers per server "
                  "%lld..%lld B (request buffers %lld..%lld B, the rest two pipeline chunks), total %lld B; VmRSS growth "
                  "per server %lld..%lld KiB",
                  p.nranks, servers, cluster, buffers, inline_bytes, chunk, lo, hi, lo - 2 * chunk, hi - 2 * chunk, sum, rss_lo, rss_hi);
  p.table->note(text);
}

}  // namespace armada::bench::suite
