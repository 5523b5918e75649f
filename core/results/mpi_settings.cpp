// The MPI library's settings of a run (mpi_settings.hpp).
#include "core/results/mpi_settings.hpp"

#include <unistd.h>  // environ (glibc, with _GNU_SOURCE as g++ defines it)

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "core/results/digest.hpp"

namespace mpiarena {

namespace {

bool setting_prefixed(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string setting_upper(std::string s) {
  for (char& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

const std::vector<std::string>& mpi_setting_prefixes() {
  static const std::vector<std::string> prefixes = {
      "OMPI_MCA_",  "PMIX_MCA_", "PRTE_MCA_", "UCX_",  "FI_",
      "MPIR_CVAR_", "MPICH_",    "I_MPI_",    "PSM2_", "PSM3_",
      "HCOLL_"};
  return prefixes;
}

bool secret_name(const std::string& name) {
  static const std::vector<std::string> words = {
      "TOKEN", "PASSWORD", "PASSWD", "SECRET", "KEY", "CREDENTIAL", "AUTH"};
  const std::string u = setting_upper(name);
  return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
    return u.find(w) != std::string::npos;
  });
}

bool launch_noise(const std::string& name) {
  // Open MPI 4's mpirun (orte) sets these in every rank: the job's ids,
  // its session directories, the daemons' URIs, the launch's shape, and
  // the components it makes the ranks use to reach it. mpi_oversubscribe
  // follows the launch's layout: the context records it as oversubscribed.
  static const std::vector<std::string> prefixes = {
      "OMPI_MCA_orte_", "OMPI_MCA_ess_", "OMPI_MCA_pmix_", "OMPI_MCA_prte_",
      "PRTE_MCA_ess_",  "PRTE_MCA_pmix_"};
  static const std::set<std::string> names = {
      "OMPI_MCA_ess",
      "OMPI_MCA_pmix",
      "OMPI_MCA_initial_wdir",
      "OMPI_MCA_shmem_RUNTIME_QUERY_hint",
      "OMPI_MCA_mpi_oversubscribe",
      "PMIX_MCA_mca_base_component_show_load_errors",
      // MPICH's hydra: the host each rank runs on.
      "MPIR_CVAR_CH3_INTERFACE_HOSTNAME"};
  if (names.count(name)) return true;
  return std::any_of(
      prefixes.begin(), prefixes.end(),
      [&](const std::string& p) { return setting_prefixed(name, p); });
}

bool mpi_setting_name(const std::string& name) {
  const auto& prefixes = mpi_setting_prefixes();
  const bool named =
      std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) {
        return name.size() > p.size() && setting_prefixed(name, p);
      });
  return named && !launch_noise(name);
}

MpiSettingsContext environment_settings(
    const std::vector<std::string>& environment) {
  MpiSettingsContext s;
  std::set<std::string> withheld;
  for (const std::string& entry : environment) {
    const std::size_t eq = entry.find('=');
    if (eq == std::string::npos) continue;
    const std::string name = entry.substr(0, eq);
    if (!mpi_setting_name(name)) continue;
    if (secret_name(name))
      withheld.insert(name);
    else
      s.environment[name] = entry.substr(eq + 1);
  }
  s.withheld.assign(withheld.begin(), withheld.end());
  return s;
}

std::vector<std::string> process_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

const std::vector<std::string>& launch_environment() {
  static const std::vector<std::string> at_start = process_environment();
  return at_start;
}

namespace {

using Values = std::map<std::string, std::string>;

// Every recorded setting by its change name; withheld ones "(withheld)".
Values flat(const MpiSettingsContext& s) {
  Values out = s.environment;
  for (const std::string& w : s.withheld) out[w] = "(withheld)";
  for (const auto& [name, value] : s.library) out["library." + name] = value;
  return out;
}

}  // namespace

std::vector<SettingChange> settings_changes(const Context& a,
                                            const Context& b) {
  std::vector<SettingChange> out;
  if (!a.mpi_settings || !b.mpi_settings) return out;
  const Values x = flat(*a.mpi_settings), y = flat(*b.mpi_settings);
  std::set<std::string> names;
  for (const auto& kv : x) names.insert(kv.first);
  for (const auto& kv : y) names.insert(kv.first);
  for (const std::string& name : names) {
    const auto i = x.find(name), j = y.find(name);
    SettingChange c{name, std::nullopt, std::nullopt};
    if (i != x.end()) c.before = i->second;
    if (j != y.end()) c.after = j->second;
    if (c.before != c.after) out.push_back(c);
  }
  // The environment's first, then the library's.
  std::stable_partition(out.begin(), out.end(), [](const SettingChange& c) {
    return !setting_prefixed(c.name, "library.");
  });
  return out;
}

std::string settings_text(const std::vector<SettingChange>& changes) {
  std::string out;
  const auto shown = [](const std::optional<std::string>& v) {
    return v ? (v->empty() ? std::string("\"\"") : *v) : "(unset)";
  };
  for (const SettingChange& c : changes)
    out += (out.empty() ? "" : "; ") + c.name + " " + shown(c.before) +
           " -> " + shown(c.after);
  return out;
}

std::string settings_text(const Context& a, const Context& b) {
  return settings_text(settings_changes(a, b));
}

nlohmann::json settings_json(const std::vector<SettingChange>& changes) {
  const auto value = [](const std::optional<std::string>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json list = nlohmann::json::array();
  for (const SettingChange& c : changes)
    list.push_back(
        {{"name", c.name}, {"base", value(c.before)}, {"new", value(c.after)}});
  return {{"differ", !changes.empty()},
          {"text", settings_text(changes)},
          {"changes", list}};
}

std::string settings_digest(const Context& c) {
  if (!c.mpi_settings) return "";
  const MpiSettingsContext& s = *c.mpi_settings;
  if (s.environment.empty() && s.library.empty() && s.withheld.empty())
    return "";
  const nlohmann::json key = {{"environment", s.environment},
                              {"library", s.library},
                              {"withheld", s.withheld}};
  return text_digest(key.dump());
}

}  // namespace mpiarena
