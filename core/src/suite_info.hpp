// Internal: the StrategyInfo shared by the point-to-point suites.
#pragma once

#include <mpiarena/plugin.hpp>
#include <string>
#include <utility>

namespace mpiarena {

// A method of `suite` that moves a `bytes` payload between at least 2 ranks,
// holding `payload_copies` payload-sized buffers per rank.
inline StrategyInfo bytes_method_info(std::string name, std::string suite,
                                      std::string summary, int payload_copies) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = std::move(suite);
  info.summary = std::move(summary);
  info.payloads = {"bytes"};
  info.min_ranks = 2;
  info.payload_copies = payload_copies;
  return info;
}

}  // namespace mpiarena
