#include "core/results/log.hpp"

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include <optional>
#include <string>
#include <utility>

namespace mpiarena {

namespace {

constexpr std::pair<const char*, spdlog::level::level_enum> kLevels[] = {
    {"trace", spdlog::level::trace}, {"debug", spdlog::level::debug},
    {"info", spdlog::level::info},   {"warn", spdlog::level::warn},
    {"error", spdlog::level::err},   {"off", spdlog::level::off}};

std::optional<spdlog::level::level_enum>& requested_level() {
  static std::optional<spdlog::level::level_enum> level;
  return level;
}

}  // namespace

const char* log_level_names() { return "trace, debug, info, warn, error, off"; }

bool parse_log_level(const std::string& name,
                     spdlog::level::level_enum& level) {
  for (const auto& [text, value] : kLevels)
    if (name == text) {
      level = value;
      return true;
    }
  return false;
}

void set_log_level(spdlog::level::level_enum level) {
  requested_level() = level;
  auto logger = spdlog::get("runner");
  if (!logger) logger = spdlog::stderr_color_mt("runner");
  logger->set_pattern("[%n] [%^%l%$] %v");
  logger->set_level(level);
  spdlog::set_default_logger(logger);
}

std::shared_ptr<spdlog::logger> make_rank_logger(int rank, bool quiet) {
  const std::string name = "rank" + std::to_string(rank);
  auto logger = spdlog::get(name);
  if (!logger) logger = spdlog::stderr_color_mt(name);
  logger->set_pattern("[%n] [%^%l%$] %v");
  logger->set_level(rank == 0 && !quiet ? spdlog::level::info
                                        : spdlog::level::warn);
  spdlog::set_default_logger(logger);
  spdlog::cfg::load_env_levels();
  if (const auto& asked = requested_level()) {
    const spdlog::level::level_enum level = *asked;
    logger->set_level(rank == 0 || level <= spdlog::level::debug ||
                              level > spdlog::level::warn
                          ? level
                          : spdlog::level::warn);
  }
  return logger;
}

}  // namespace mpiarena
