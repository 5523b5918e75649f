// The synchronisation methods made by name (synchronizer.hpp): the
// registry's lines (sync_methods.hpp) bound to each method's make_NAME_sync.
#include "core/engine/synchronizer.hpp"

#include <stdexcept>

namespace mpiarena {

// Each method's file defines its maker (a missing one does not link).
#define MPIARENA_SYNC_MAKER(name, clock, text)      \
  std::unique_ptr<Synchronizer> make_##name##_sync( \
      const SyncMethodInfo& info, const SyncSettings& settings);
MPIARENA_SYNC_METHODS(MPIARENA_SYNC_MAKER)
#undef MPIARENA_SYNC_MAKER

namespace {

using Maker = std::unique_ptr<Synchronizer> (*)(const SyncMethodInfo&,
                                                const SyncSettings&);

// The makers in the registry's order, as sync_methods() lists the methods.
const std::vector<Maker>& makers() {
#define MPIARENA_SYNC_ENTRY(name, clock, text) &make_##name##_sync,
  static const std::vector<Maker> all{
      MPIARENA_SYNC_METHODS(MPIARENA_SYNC_ENTRY)};
#undef MPIARENA_SYNC_ENTRY
  return all;
}

}  // namespace

std::unique_ptr<Synchronizer> make_synchronizer(const std::string& name,
                                                const SyncSettings& settings) {
  const std::vector<SyncMethodInfo>& methods = sync_methods();
  std::string accepted;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    if (methods[i].name == name) return makers()[i](methods[i], settings);
    accepted += (accepted.empty() ? "" : ", ") + methods[i].name;
  }
  throw std::invalid_argument("--sync '" + name +
                              "' is not supported; accepted: " + accepted);
}

const Synchronizer& default_synchronizer() {
  static const std::unique_ptr<Synchronizer> barrier =
      make_synchronizer("barrier", SyncSettings{});
  return *barrier;
}

}  // namespace mpiarena
