#include "log.hpp"

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <string>

namespace mpiarena {

std::shared_ptr<spdlog::logger> make_rank_logger(int rank, bool quiet) {
  const std::string name = "rank" + std::to_string(rank);
  auto logger = spdlog::get(name);
  if (!logger) logger = spdlog::stderr_color_mt(name);
  logger->set_pattern("[%n] [%^%l%$] %v");
  logger->set_level(rank == 0 && !quiet ? spdlog::level::info
                                        : spdlog::level::warn);
  spdlog::set_default_logger(logger);
  spdlog::cfg::load_env_levels();
  return logger;
}

}  // namespace mpiarena
