// One rank-aware logger, created by the runner and handed to plugins.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>

namespace mpiarena {

// Logger "rank<N>" on stderr, pattern "[rank<N>] [level] message". Rank 0
// logs at info, the others at warn; `quiet` raises rank 0 to warn too.
// SPDLOG_LEVEL in the environment overrides.
std::shared_ptr<spdlog::logger> make_rank_logger(int rank, bool quiet);

}  // namespace mpiarena
