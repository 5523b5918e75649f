// Internal: the StrategyInfo shared by the point-to-point suites.
#pragma once

#include <mpiarena/plugin.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/results/suites.hpp"

namespace mpiarena {

// Empty when `info` is a valid declaration, else one sentence naming the
// field, what it holds and what is accepted.
std::string check_strategy_info(const StrategyInfo& info);

// What option `o` accepts, in words ("an integer from 1 to 64", "one of
// ring, tree").
std::string option_accepts(const OptionInfo& o);

// `value` written the one way the records use (an integer without leading
// zeros or '+', a number in its shortest exact form), or empty when `o`
// does not accept it.
std::string option_value(const OptionInfo& o, const std::string& value);

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
