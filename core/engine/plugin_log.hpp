// The Log facade of the plugin contract (plugin.hpp) over the runner's
// spdlog logger, so plugins log without linking spdlog.
#pragma once

#include <mpiarena/plugin.hpp>

namespace spdlog {
class logger;
}

namespace mpiarena {

class SpdlogLog final : public Log {
 public:
  explicit SpdlogLog(spdlog::logger* logger) : logger_(logger) {}
  void write(LogLevel level, const std::string& message) override;

 private:
  spdlog::logger* logger_;
};

}  // namespace mpiarena
