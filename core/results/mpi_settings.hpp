// The MPI library's settings of a run (the context's mpi_settings): which
// environment variables are recorded, and how two runs' settings differ.
// No MPI: the runner fills the library's part (core/engine/mpi_tool.hpp).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/results/doc_context.hpp"

namespace mpiarena {

// The name prefixes of the environment variables the MPI libraries and
// their transports read: Open MPI and PMIx's MCA variables, UCX,
// libfabric, MPICH, Intel MPI, PSM2, HCOLL. One list, documented in
// docs/formats.md ("MPI settings").
const std::vector<std::string>& mpi_setting_prefixes();

// A name that suggests a secret (holds TOKEN, PASSWORD, PASSWD, SECRET,
// KEY, CREDENTIAL or AUTH, in any case): its value is never recorded.
bool secret_name(const std::string& name);

// A variable the launcher sets by itself, different from launch to launch
// or describing the launch rather than a choice (Open MPI's orte, ess and
// pmix ones, MPICH's hydra host name): not recorded.
bool launch_noise(const std::string& name);

// Whether `name` is recorded: it has a prefix of mpi_setting_prefixes()
// and is not launch noise.
bool mpi_setting_name(const std::string& name);

// The settings found in `environment` ("NAME=value" entries, as environ
// holds them): each recorded variable in `environment`, or its name in
// `withheld` when secret_name. `library` is left empty.
MpiSettingsContext environment_settings(
    const std::vector<std::string>& environment);

// This process's environment (environ) as "NAME=value" entries.
std::vector<std::string> process_environment();

// The process's environment as it was at the first call: the runner calls
// it before MPI_Init, so that what the MPI library sets in its own process
// at MPI_Init (Open MPI: PMIX_MCA_psec, PSM2_DEVICES) and what the runner
// sets for it (--algorithms: OMPI_MCA_coll_tuned_use_dynamic_rules) are
// not taken for the launch's settings.
const std::vector<std::string>& launch_environment();

// One setting that differs between two runs: an environment variable by
// its name ("OMPI_MCA_btl"), a library variable as "library.<name>"
// ("library.btl"); an absent value is unset, a withheld one "(withheld)".
struct SettingChange {
  std::string name;
  std::optional<std::string> before, after;
};

// What differs from `a`'s settings to `b`'s, by name; empty when both
// recorded the same, or when either recorded none (an older file).
std::vector<SettingChange> settings_changes(const Context& a,
                                            const Context& b);

// "OMPI_MCA_btl (unset) -> tcp,self; library.btl self,vader -> tcp,self":
// the changes on one line, "" when none.
std::string settings_text(const std::vector<SettingChange>& changes);
std::string settings_text(const Context& a, const Context& b);

// The changes as JSON: {"differ": bool, "text": settings_text, "changes":
// [{"name", "base", "new"}...]}, an unset value null.
nlohmann::json settings_json(const std::vector<SettingChange>& changes);

// A stable short key of the recorded settings (environment, library and
// withheld names): 16 hex digits, equal for equal settings; "" when the
// context records none (an older file).
std::string settings_digest(const Context& c);

}  // namespace mpiarena
