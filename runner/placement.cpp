// Where the ranks run (placement.hpp).
#include "runner/placement.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <mpiarena/mpi_check.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/engine/collective.hpp"

namespace mpiarena {

namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// "0-3,6": ranges of consecutive CPUs.
std::string cpu_list(const std::vector<int>& cpus) {
  std::string out;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    out += (out.empty() ? "" : ",") + std::to_string(cpus[i]) +
           (j > i ? "-" + std::to_string(cpus[j]) : "");
    i = j + 1;
  }
  return out;
}

// The distinct values of a /sys file over `cpus` (e.g. the L3 caches they
// use, named by the CPUs that share each).
std::vector<std::string> distinct(const std::vector<int>& cpus,
                                  const std::string& leaf) {
  std::set<std::string> out;
  for (int c : cpus) {
    const std::string v = read_line("/sys/devices/system/cpu/cpu" +
                                    std::to_string(c) + "/" + leaf);
    if (!v.empty()) out.insert(v);
  }
  return {out.begin(), out.end()};
}

// The /sys cache index of level `level` (unified or data), or "".
std::string cache_leaf(int cpu, int level) {
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu" +
                            std::to_string(cpu) + "/cache/index" +
                            std::to_string(i) + "/";
    const std::string l = read_line(dir + "level");
    if (l.empty()) break;
    const std::string type = read_line(dir + "type");
    if (l == std::to_string(level) && type != "Instruction")
      return "cache/index" + std::to_string(i) + "/shared_cpu_list";
  }
  return {};
}

// This rank's placement, and the ids of its CPUs (what ranks 0 and 1
// share is found from them).
struct Mine {
  RankPlacement where;
  std::vector<int> cpu_ids;
};

Mine mine(const std::string& host) {
  Mine m;
  std::vector<int>& cpus = m.cpu_ids;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  m.where.host = host;
  m.where.cpus = cpu_list(cpus);
  m.where.bound = online > 0 && static_cast<long>(cpus.size()) < online;
  if (cpus.empty()) return m;
  // A core is named by its package and core ids.
  std::set<std::string> cores;
  for (int c : cpus) {
    const std::string base =
        "/sys/devices/system/cpu/cpu" + std::to_string(c) + "/topology/";
    const std::string core = read_line(base + "core_id");
    if (!core.empty())
      cores.insert(read_line(base + "physical_package_id") + ":" + core);
  }
  if (!cores.empty()) m.where.cores.emplace(cores.begin(), cores.end());
  const auto packages = distinct(cpus, "topology/physical_package_id");
  if (!packages.empty()) m.where.packages = packages;
  for (int level : {2, 3}) {
    const std::string leaf = cache_leaf(cpus.front(), level);
    if (leaf.empty()) continue;
    const auto caches = distinct(cpus, leaf);
    if (!caches.empty()) (level == 2 ? m.where.l2 : m.where.l3) = caches;
  }
  return m;
}

template <class T>
bool overlap(const std::optional<std::vector<T>>& a,
             const std::optional<std::vector<T>>& b) {
  if (!a || !b) return false;
  for (const T& x : *a)
    if (std::find(b->begin(), b->end(), x) != b->end()) return true;
  return false;
}

}  // namespace

PlacementContext placement(MPI_Comm world) {
  char name[256] = {0};
  gethostname(name, sizeof name - 1);
  const Mine me = mine(name);
  // Sent to rank 0 as the context's JSON of it, and the CPU ids.
  const nlohmann::json sent = {nlohmann::json(me.where), me.cpu_ids};
  const std::vector<std::string> all =
      gather_strings(sent.dump(), 0, world);
  int rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(world, &rank));
  PlacementContext out;
  if (rank != 0) return out;
  std::vector<std::optional<std::vector<int>>> ids;
  for (std::size_t r = 0; r < all.size(); ++r) {
    const nlohmann::json got = nlohmann::json::parse(all[r]);
    out.ranks.push_back(got.at(0).get<RankPlacement>());
    out.ranks.back().rank = static_cast<int>(r);
    ids.push_back(got.at(1).get<std::vector<int>>());
  }
  if (out.ranks.size() >= 2) {
    const RankPlacement &a = out.ranks[0], &b = out.ranks[1];
    const bool same = a.host == b.host;
    PairPlacement& pair = out.ranks_0_1.emplace();
    pair.same_host = same;
    pair.share_cpu = same && overlap(ids[0], ids[1]);
    pair.share_core = same && overlap(a.cores, b.cores);
    pair.share_l2 = same && overlap(a.l2, b.l2);
    pair.share_l3 = same && overlap(a.l3, b.l3);
    pair.share_package = same && overlap(a.packages, b.packages);
  }
  return out;
}

}  // namespace mpiarena
