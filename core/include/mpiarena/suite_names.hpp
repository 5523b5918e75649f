// The suites a method may name in StrategyInfo::suite, and the payloads
// each takes: the registry refuses any other (docs/methods.md lists what
// each measures). Pure: no MPI.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

// Each suite and its payloads. The rma suite's payload is the kind of
// window the target exposes the bytes in (rma.hpp). The harness holds
// probes of the measurement itself (null, probe) and takes every payload.
// The exchange suite holds exchanges of a pattern the method declares
// (StrategyInfo::operation, e.g. "ring"; exchange.hpp): a method ranks
// only with those that declare the same.
inline const std::vector<std::pair<std::string, std::vector<std::string>>>&
suite_names() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>>
      suites = {{"transfer", {"1d", "2d"}},
                {"pingpong", {"bytes"}},
                {"fanin", {"bytes"}},
                {"distribution", {"1d"}},
                {"combination", {"1d"}},
                {"collective", {"1d"}},
                {"overlap", {"1d"}},
                {"stencil", {"1d"}},
                {"exchange", {"bytes"}},
                {"stream", {"bytes"}},
                {"congestion", {"bytes"}},
                {"rma", {"allocate", "create", "dynamic"}},
                {"harness", {"1d", "2d", "bytes"}}};
  return suites;
}

}  // namespace mpiarena
