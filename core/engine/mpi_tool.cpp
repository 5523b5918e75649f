// The MPI tool information interface (mpi_tool.hpp).
#include "core/engine/mpi_tool.hpp"

#include <cstdint>

namespace mpiarena {

int cvar_index(const std::string& name) {
  int index = -1;
  if (MPI_T_cvar_get_index(name.c_str(), &index) != MPI_SUCCESS) return -1;
  return index;
}

std::string cvar_description(int index, MPI_T_enum& enumtype) {
  char name[256], desc[8192];
  int name_len = sizeof name, desc_len = sizeof desc, verbosity = 0, bind = 0,
      scope = 0;
  MPI_Datatype type;
  if (MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &type, &enumtype,
                          desc, &desc_len, &bind, &scope) != MPI_SUCCESS)
    return "";
  return desc;
}

bool cvar_read(int index, int& value) {
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS)
    return false;
  const bool ok = count == 1 && MPI_T_cvar_read(handle, &value) == MPI_SUCCESS;
  MPI_T_cvar_handle_free(&handle);
  return ok;
}

int cvar_write(int index, int value) {
  MPI_T_cvar_handle handle;
  int count = 0;
  int err = MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count);
  if (err != MPI_SUCCESS) return err;
  err = MPI_T_cvar_write(handle, &value);
  MPI_T_cvar_handle_free(&handle);
  return err;
}

std::vector<std::pair<int, std::string>> enum_items(MPI_T_enum e) {
  std::vector<std::pair<int, std::string>> out;
  int n = 0, len = 256;
  char name[256];
  if (MPI_T_enum_get_info(e, &n, name, &len) != MPI_SUCCESS) return out;
  for (int i = 0; i < n; ++i) {
    int value = 0;
    len = sizeof name;
    if (MPI_T_enum_get_item(e, i, &value, name, &len) == MPI_SUCCESS)
      out.emplace_back(value, name);
  }
  return out;
}

namespace {

// A number of `type` read from `buffer` as text; nullopt for another type.
std::optional<std::string> number_text(MPI_Datatype type, const void* buffer) {
  if (type == MPI_INT) return std::to_string(*static_cast<const int*>(buffer));
  if (type == MPI_UNSIGNED)
    return std::to_string(*static_cast<const unsigned*>(buffer));
  if (type == MPI_UNSIGNED_LONG)
    return std::to_string(*static_cast<const unsigned long*>(buffer));
  if (type == MPI_UNSIGNED_LONG_LONG)
    return std::to_string(*static_cast<const unsigned long long*>(buffer));
  if (type == MPI_COUNT)
    return std::to_string(*static_cast<const MPI_Count*>(buffer));
  if (type == MPI_C_BOOL)
    return std::string(*static_cast<const bool*>(buffer) ? "true" : "false");
  if (type == MPI_DOUBLE)
    return std::to_string(*static_cast<const double*>(buffer));
  return std::nullopt;
}

}  // namespace

std::optional<std::string> cvar_text(int index) {
  char name[256], desc[1];
  int name_len = sizeof name, desc_len = sizeof desc, verbosity = 0, bind = 0,
      scope = 0;
  MPI_Datatype type;
  MPI_T_enum e = MPI_T_ENUM_NULL;
  if (MPI_T_cvar_get_info(index, name, &name_len, &verbosity, &type, &e, desc,
                          &desc_len, &bind, &scope) != MPI_SUCCESS ||
      bind != MPI_T_BIND_NO_OBJECT)
    return std::nullopt;
  MPI_T_cvar_handle handle;
  int count = 0;
  if (MPI_T_cvar_handle_alloc(index, nullptr, &handle, &count) != MPI_SUCCESS)
    return std::nullopt;
  std::optional<std::string> out;
  if (type == MPI_CHAR) {
    std::string text(static_cast<std::size_t>(count > 0 ? count : 0) + 1,
                     '\0');
    if (MPI_T_cvar_read(handle, text.data()) == MPI_SUCCESS)
      out = text.c_str();
  } else if (count == 1) {
    alignas(8) unsigned char buffer[16] = {0};
    if (MPI_T_cvar_read(handle, buffer) == MPI_SUCCESS)
      out = number_text(type, buffer);
    if (out && e != MPI_T_ENUM_NULL && type == MPI_INT) {
      const int value = *reinterpret_cast<const int*>(buffer);
      for (const auto& item : enum_items(e))
        if (item.first == value) out = item.second;
    }
  }
  MPI_T_cvar_handle_free(&handle);
  return out;
}

namespace {

bool cvar_prefixed(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

// The MPI_T variables the run's settings name.
std::vector<std::string> setting_variables(
    const std::string& library,
    const std::map<std::string, std::string>& environment) {
  std::vector<std::string> out;
  if (library == "Open MPI") {
    out = {"pml", "btl", "mtl", "osc", "coll"};
    const std::string head = "OMPI_MCA_";
    for (const auto& kv : environment)
      if (cvar_prefixed(kv.first, head))
        out.push_back(kv.first.substr(head.size()));
  } else if (library == "MPICH") {
    for (const auto& kv : environment) {
      if (cvar_prefixed(kv.first, "MPIR_CVAR_")) out.push_back(kv.first);
      if (cvar_prefixed(kv.first, "MPICH_"))
        out.push_back("MPIR_CVAR_" + kv.first.substr(6));
    }
  }
  return out;
}

}  // namespace

std::map<std::string, std::string> library_settings(
    const std::string& library,
    const std::map<std::string, std::string>& environment) {
  std::map<std::string, std::string> out;
  const std::vector<std::string> names =
      setting_variables(library, environment);
  int provided = 0;
  if (names.empty() ||
      MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    return out;
  for (const std::string& name : names) {
    const int index = cvar_index(name);
    if (index < 0) continue;
    if (const std::optional<std::string> v = cvar_text(index)) out[name] = *v;
  }
  // MPI_T stays initialised, as discover_algorithms() leaves it (MPI
  // allows it to the end). With MPI_T_finalize here, under Open MPI 4.1 a
  // plugin that corrupts the heap ended its rank by a bare SIGSEGV, no
  // crash report, in 10 of 20 launches of e2e_hostile_heap's run (0 of 20
  // without it, and before this call was added).
  return out;
}

}  // namespace mpiarena
