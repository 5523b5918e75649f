// The MPI settings of a run (core/results/mpi_settings.hpp): which
// environment variables are recorded, secrets withheld, the launcher's own
// left out; how two runs' settings differ, as text and as a digest.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/results/mpi_settings.hpp"

namespace {

using mpiarena::Context;
using mpiarena::MpiSettingsContext;

TEST(MpiSettings, RecordsTheLibrariesVariablesByPrefix) {
  const MpiSettingsContext s = mpiarena::environment_settings(
      {"OMPI_MCA_btl=tcp,self", "UCX_TLS=rc,sm", "FI_PROVIDER=tcp",
       "MPIR_CVAR_ASYNC_PROGRESS=1", "MPICH_NEMESIS=x", "I_MPI_FABRICS=shm",
       "PSM2_DEVICES=self", "HCOLL_ENABLE=0", "PMIX_MCA_gds=hash",
       "PATH=/usr/bin", "HOME=/root", "OMPI_ALLOW_RUN_AS_ROOT=1",
       "UCX_=empty name", "NOEQUALS", "OMPI_MCA_pml="});
  const std::map<std::string, std::string> expected = {
      {"FI_PROVIDER", "tcp"},     {"HCOLL_ENABLE", "0"},
      {"I_MPI_FABRICS", "shm"},   {"MPICH_NEMESIS", "x"},
      {"MPIR_CVAR_ASYNC_PROGRESS", "1"}, {"OMPI_MCA_btl", "tcp,self"},
      {"OMPI_MCA_pml", ""},       {"PMIX_MCA_gds", "hash"},
      {"PSM2_DEVICES", "self"},   {"UCX_TLS", "rc,sm"}};
  EXPECT_EQ(s.environment, expected);
  EXPECT_TRUE(s.withheld.empty());
  EXPECT_TRUE(s.library.empty());
  EXPECT_FALSE(s.differing_ranks);
}

TEST(MpiSettings, ASecretsValueIsNeverRecordedOnlyItsName) {
  for (const char* name :
       {"FI_MY_TOKEN", "UCX_PASSWORD", "OMPI_MCA_x_passwd", "I_MPI_Secret",
        "MPICH_API_KEY", "PSM2_CREDENTIALS", "HCOLL_auth_mode"})
    EXPECT_TRUE(mpiarena::secret_name(name)) << name;
  EXPECT_FALSE(mpiarena::secret_name("OMPI_MCA_btl"));
  const MpiSettingsContext s = mpiarena::environment_settings(
      {"FI_MY_TOKEN=s3cret", "OMPI_MCA_fake_password_thing=xyz",
       "UCX_TLS=tcp", "MY_TOKEN=not an MPI variable"});
  EXPECT_EQ(s.environment,
            (std::map<std::string, std::string>{{"UCX_TLS", "tcp"}}));
  EXPECT_EQ(s.withheld, (std::vector<std::string>{
                            "FI_MY_TOKEN", "OMPI_MCA_fake_password_thing"}));
  const std::string text = nlohmann::json(s).dump();
  EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
  EXPECT_EQ(text.find("xyz"), std::string::npos) << text;
}

TEST(MpiSettings, WhatTheLauncherSetsByItselfIsLeftOut) {
  // Open MPI 4.1's mpirun, every rank (docs/formats.md, "MPI settings").
  const MpiSettingsContext s = mpiarena::environment_settings(
      {"OMPI_MCA_ess=^singleton", "OMPI_MCA_ess_base_jobid=1579810817",
       "OMPI_MCA_ess_base_vpid=1", "OMPI_MCA_initial_wdir=/tmp",
       "OMPI_MCA_mpi_oversubscribe=0", "OMPI_MCA_orte_app_num=0",
       "OMPI_MCA_orte_hnp_uri=1579810816.0;tcp://192.0.2.2:58273",
       "OMPI_MCA_orte_precondition_transports=a19e6656b6ac6b26-d201",
       "OMPI_MCA_pmix=^s1,s2,cray,isolated",
       "OMPI_MCA_shmem_RUNTIME_QUERY_hint=mmap",
       "PMIX_MCA_mca_base_component_show_load_errors=1", "PMIX_RANK=1",
       "PMIX_SERVER_URI4=1579810816.0;tcp4://127.0.0.1:59883",
       "MPIR_CVAR_CH3_INTERFACE_HOSTNAME=vm", "PMI_RANK=1",
       "OMPI_MCA_btl=self,vader"});
  EXPECT_EQ(s.environment, (std::map<std::string, std::string>{
                               {"OMPI_MCA_btl", "self,vader"}}));
  EXPECT_TRUE(mpiarena::launch_noise("OMPI_MCA_orte_num_nodes"));
  EXPECT_FALSE(mpiarena::launch_noise("OMPI_MCA_btl"));
  EXPECT_FALSE(mpiarena::mpi_setting_name("PMIX_NAMESPACE"));
  EXPECT_TRUE(mpiarena::mpi_setting_name("OMPI_MCA_pml"));
}

Context with(std::map<std::string, std::string> environment,
             std::map<std::string, std::string> library = {},
             std::vector<std::string> withheld = {}) {
  Context c;
  c.mpi_settings = MpiSettingsContext{environment, library, withheld, {}};
  return c;
}

TEST(MpiSettings, ChangesNameEachSettingThatDiffers) {
  const Context a = with({{"UCX_TLS", "rc"}, {"FI_PROVIDER", "tcp"}},
                         {{"btl", "self,vader"}, {"pml", ""}});
  const Context b =
      with({{"UCX_TLS", "rc"}, {"OMPI_MCA_btl", "tcp,self"}},
           {{"btl", "tcp,self"}, {"pml", ""}}, {"FI_MY_TOKEN"});
  const auto changes = mpiarena::settings_changes(a, b);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0].name, "FI_MY_TOKEN");
  EXPECT_FALSE(changes[0].before);
  EXPECT_EQ(changes[0].after, std::optional<std::string>("(withheld)"));
  EXPECT_EQ(changes[3].name, "library.btl");
  EXPECT_EQ(mpiarena::settings_text(a, b),
            "FI_MY_TOKEN (unset) -> (withheld); FI_PROVIDER tcp -> (unset); "
            "OMPI_MCA_btl (unset) -> tcp,self; "
            "library.btl self,vader -> tcp,self");
  const nlohmann::json j = mpiarena::settings_json(changes);
  EXPECT_TRUE(j.at("differ").get<bool>());
  EXPECT_TRUE(j.at("changes")[1].at("new").is_null());
  EXPECT_EQ(j.at("changes")[2].at("new"), "tcp,self");
  EXPECT_TRUE(mpiarena::settings_changes(a, a).empty());
  EXPECT_EQ(mpiarena::settings_text(a, a), "");
  EXPECT_FALSE(mpiarena::settings_json({}).at("differ").get<bool>());
  // A file written before the settings were recorded: nothing to compare.
  EXPECT_TRUE(mpiarena::settings_changes(Context{}, b).empty());
}

TEST(MpiSettings, TheDigestIsStableAndTellsSettingsApart) {
  const Context a = with({{"OMPI_MCA_btl", "tcp,self"}}, {{"btl", "tcp"}});
  const std::string d = mpiarena::settings_digest(a);
  EXPECT_EQ(d.size(), 16u);
  EXPECT_EQ(d, mpiarena::settings_digest(a));
  EXPECT_NE(d, mpiarena::settings_digest(with({{"OMPI_MCA_btl", "self"}},
                                               {{"btl", "tcp"}})));
  EXPECT_NE(d, mpiarena::settings_digest(
                   with({{"OMPI_MCA_btl", "tcp,self"}}, {{"btl", "tcp"}},
                        {"FI_MY_TOKEN"})));
  // Not the ranks that differ: the same settings.
  Context ranks = a;
  ranks.mpi_settings->differing_ranks = std::vector<int>{1};
  EXPECT_EQ(mpiarena::settings_digest(ranks), d);
  EXPECT_EQ(mpiarena::settings_digest(Context{}), "");
  EXPECT_EQ(mpiarena::settings_digest(with({})), "");
}

}  // namespace
