#include "core/engine/plugin_log.hpp"

#include <spdlog/spdlog.h>

namespace mpiarena {

void SpdlogLog::write(LogLevel level, const std::string& message) {
  if (!logger_) return;
  switch (level) {
    case LogLevel::debug:
      logger_->debug("{}", message);
      break;
    case LogLevel::info:
      logger_->info("{}", message);
      break;
    case LogLevel::warn:
      logger_->warn("{}", message);
      break;
    case LogLevel::error:
      logger_->error("{}", message);
      break;
  }
}

}  // namespace mpiarena
