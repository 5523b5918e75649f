// One rank-aware logger, created by the runner and handed to plugins.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>
#include <string>

namespace mpiarena {

// The names --log-level accepts, in order of verbosity: trace, debug, info,
// warn, error, off.
const char* log_level_names();

// Parses one of log_level_names() into `level`; false for anything else.
bool parse_log_level(const std::string& name, spdlog::level::level_enum& level);

// The level asked for on the command line (--log-level), for every logger
// made afterwards; the default logger (used by the plugin loader) becomes a
// stderr logger at that level. Without a call, make_rank_logger's defaults
// hold.
void set_log_level(spdlog::level::level_enum level);

// Logger "rank<N>" on stderr, pattern "[rank<N>] [level] message". Rank 0
// logs at info, the others at warn; `quiet` raises rank 0 to warn too.
// SPDLOG_LEVEL in the environment overrides these defaults. A level given
// to set_log_level overrides both: rank 0 logs at it; the other ranks too
// when it is debug or trace (to debug every rank) or quieter than warn,
// else at warn (one progress line per point, from rank 0).
std::shared_ptr<spdlog::logger> make_rank_logger(int rank, bool quiet);

}  // namespace mpiarena
