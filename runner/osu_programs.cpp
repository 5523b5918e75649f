// OSU 7.4's MPI programs as names of methods (osu_programs.hpp).
#include "runner/osu_programs.hpp"

#include <algorithm>

namespace mpiarena {

namespace {

using T = OsuTable;

constexpr const char* kUniform = "counts=uniform";
constexpr const char* kUniformInt = "counts=uniform,types=int";
constexpr const char* kCollNote =
    "one operation after its own barrier, as OSU; MPI_INT (OSU's -T "
    "mpi_int), so sizes below 4 B are skipped";

// Point-to-point and one-sided programs.
std::vector<OsuProgram> point_to_point() {
  return {
      // point-to-point (c/mpi/pt2pt)
      {"osu_latency", "mpi_bytes", "", "", T::latency, false, "",
       "separate send and receive buffers, as OSU"},
      {"osu_bw", "isend_bw", "", "", T::bandwidth, false, "",
       "window --window (64, OSU's -W); a buffer per message"},
      {"osu_bibw", "isend_bibw", "", "", T::bibw, false, "",
       "window --window (64); both directions at once"},
      {"osu_mbw_mr", "isend_bw", "", "", T::message_rate, true, "",
       "every pair (2k, 2k+1) at once; OSU pairs (k, k + n/2)"},
      {"osu_multi_lat", "mpi_bytes", "", "", T::latency, true, "",
       "every pair (2k, 2k+1) at once; OSU pairs (k, k + n/2)"},
      {"osu_latency_mt", "latency_mt", "", "", T::latency, false, "multiple",
       "1 sender and 2 receiver threads (OSU's -t 1:2)"},
      {"osu_latency_mp", "latency_mp", "", "", T::latency, false, "",
       "forked idle children, as OSU"},
      {"osu_latency_persistent", "pingpong_persistent", "", "", T::latency,
       false, "", ""},
      {"osu_bw_persistent", "persistent_bw", "", "", T::bandwidth, false, "",
       ""},
      {"osu_bibw_persistent", "persistent_bibw", "", "", T::bibw, false, "",
       ""},
      {"osu_bw_fan_in", "bw_fan_in", "", "", T::bandwidth, false, "",
       "rank 0 the hub; the aggregate bandwidth"},
      {"osu_bw_fan_out", "bw_fan_out", "", "", T::bandwidth, false, "",
       "rank 0 the hub; the aggregate bandwidth"},
      {"osu_partitioned_latency", "mpi_partitioned", "", "", T::latency,
       false, "", "OSU 7.5's; MPI-4 partitioned communication"},
      // one-sided (c/mpi/one-sided): OSU's defaults, MPI_Win_allocate
      // and flush
      {"osu_put_latency", "put_flush", "allocate", "", T::latency, false, "",
       ""},
      {"osu_get_latency", "get_flush", "allocate", "", T::latency, false, "",
       ""},
      {"osu_put_bw", "put_flush_bw", "allocate", "", T::bandwidth, false, "",
       ""},
      {"osu_get_bw", "get_flush_bw", "allocate", "", T::bandwidth, false, "",
       ""},
      {"osu_put_bibw", "put_pscw_bibw", "allocate", "", T::bibw, false, "",
       "OSU's default synchronisation, post-start-complete-wait"},
      {"osu_acc_latency", "acc_flush", "allocate", "", T::latency, false, "",
       ""},
      {"osu_cas_latency", "cas_flush", "allocate", "", T::latency, false, "",
       ""},
      {"osu_fop_latency", "fop_flush", "allocate", "", T::latency, false, "",
       ""},
      {"osu_get_acc_latency", "get_acc_flush", "allocate", "", T::latency,
       false, "", ""},
      {"osu_get_mbw", "get_flush_bw", "allocate", "", T::bandwidth, true, "",
       "in OSU's source tree, not built by its Makefile"},
  };
}

std::vector<OsuProgram> make_programs() {
  std::vector<OsuProgram> p = point_to_point();
  // blocking collectives (c/mpi/collective/blocking)
  const std::vector<std::pair<const char*, const char*>> blocking = {
      {"osu_allgather", ""},     {"osu_allgatherv", kUniform},
      {"osu_allreduce", ""},     {"osu_alltoall", ""},
      {"osu_alltoallv", kUniform}, {"osu_alltoallw", kUniformInt},
      {"osu_gather", ""},        {"osu_gatherv", kUniform},
      {"osu_reduce", ""},        {"osu_reduce_scatter", kUniform},
      {"osu_reduce_scatter_block", ""}, {"osu_scatter", ""},
      {"osu_scatterv", kUniform}};
  static std::vector<std::string> names;  // the methods' names, kept alive
  names.reserve(200);
  auto method = [&](const std::string& n) {
    names.push_back(n);
    return names.back().c_str();
  };
  p.push_back({"osu_barrier", "barrier", "", "", T::barrier, false, "",
               "one operation after its own barrier, as OSU"});
  p.push_back({"osu_bcast", "coll_bcast", "", "", T::collective, false, "",
               kCollNote});
  for (const auto& [osu, settings] : blocking)
    p.push_back({osu, method(std::string(osu).substr(4)), "", settings,
                 T::collective, false, "", kCollNote});
  // non-blocking collectives (c/mpi/collective/non_blocking): the overlap
  // suite's methods, of the same names
  p.push_back({"osu_ibarrier", "ibarrier", "", "", T::nonblocking, false,
               "", ""});
  p.push_back({"osu_ibcast", "ibcast", "", "", T::nonblocking, false, "",
               ""});
  for (const auto& [osu, settings] : blocking) {
    const std::string c = std::string(osu).substr(4);
    p.push_back({method("osu_i" + c), method("i" + c), "", settings,
                 T::nonblocking, false, "", ""});
  }
  // persistent collectives (MPI-4; MPIX_ under Open MPI 4.1)
  p.push_back({"osu_barrier_persistent", "barrier_persistent", "", "",
               T::barrier, false, "", ""});
  p.push_back({"osu_bcast_persistent", "coll_bcast_persistent", "", "",
               T::collective, false, "", kCollNote});
  for (const auto& [osu, settings] : blocking) {
    const std::string c = std::string(osu).substr(4);
    if (c == "reduce_scatter_block") continue;  // OSU 7.4 has none
    p.push_back({method("osu_" + c + "_persistent"),
                 method(c + "_persistent"), "", settings, T::collective,
                 false, "", kCollNote});
  }
  // neighbourhood collectives: OSU's graph (topology=osu, the default)
  for (const char* c : {"allgather", "allgatherv", "alltoall", "alltoallv",
                        "alltoallw"}) {
    const std::string s = c;
    const char* settings = s.back() == 'v' || s.back() == 'w' ? kUniform : "";
    p.push_back({method("osu_neighbor_" + s), method("neighbor_" + s), "",
                 settings, T::collective, false, "", kCollNote});
    p.push_back({method("osu_ineighbor_" + s), method("ineighbor_" + s), "",
                 settings, T::nonblocking, false, "", ""});
  }
  // start-up (c/mpi/startup): launches, timed by another program
  p.push_back({"osu_init", "", "", "", T::startup, false, "",
               "MPI_Init per launch: mpiarena-startup --launch 'mpirun -np N "
               "/bin/true' ... records 'init' (docs/methods.md, startup)"});
  p.push_back({"osu_hello", "", "", "", T::startup, false, "",
               "the whole launch: mpiarena-startup records 'launch' "
               "(docs/methods.md, startup)"});
  return p;
}

}  // namespace

const std::vector<OsuProgram>& osu_programs() {
  static const std::vector<OsuProgram> programs = make_programs();
  return programs;
}

const OsuProgram* find_osu_program(const std::string& name) {
  for (const OsuProgram& p : osu_programs())
    if (name == p.name) return &p;
  return nullptr;
}

std::vector<std::pair<std::string, std::string>> osu_settings(
    const OsuProgram& p) {
  std::vector<std::pair<std::string, std::string>> out;
  std::string s = p.settings;
  std::size_t from = 0;
  while (from < s.size()) {
    std::size_t comma = s.find(',', from);
    if (comma == std::string::npos) comma = s.size();
    const std::string item = s.substr(from, comma - from);
    const std::size_t eq = item.find('=');
    out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    from = comma + 1;
  }
  return out;
}

std::string osu_ladder(const OsuProgram& p) {
  if (std::string(p.method).find("barrier") != std::string::npos)
    return "1";  // osu_ibarrier too: no size, one point
  switch (p.table) {
    case T::barrier:
      return "1";  // no size: one point
    case T::collective:
    case T::nonblocking:
      return "1:1048576";
    default:
      return "1:4194304";
  }
}

OsuSampling osu_sampling(const OsuProgram& p, std::size_t bytes) {
  OsuSampling s;
  switch (p.table) {
    case T::collective:
    case T::nonblocking:
    case T::barrier: {
      const bool large = bytes > 8192;
      s.iterations = 1;
      s.repetitions = large ? 100 : 1000;
      s.warmup = large ? 10 : 100;
      return s;
    }
    default:
      return s;  // mpiarena's calibrated loop
  }
}

const OsuProgram* osu_program_of(const std::string& method) {
  for (const OsuProgram& p : osu_programs())
    if (method == p.method && !p.all_pairs && p.settings[0] == '\0' &&
        p.threads[0] == '\0')
      return &p;
  for (const OsuProgram& p : osu_programs())
    if (method == p.method) return &p;
  return nullptr;
}

}  // namespace mpiarena
