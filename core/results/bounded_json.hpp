// Internal: JSON text parsed with a bound on its nesting. The parser is
// iterative, but the JSON library copies, compares, prints and destroys
// recursively: a text nested 100 000 levels deep would overflow the stack
// long after it parsed. Every text mpiarena reads from outside (result
// documents, MPICH's selection table, runner tune's decisions) goes
// through here.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace mpiarena {

// A result document nests 5 levels; a file nested deeper than this is not
// one (report, compare and the others refuse it as invalid).
constexpr int kResultDepth = 100;

// MPICH's selection tables nest about 8 levels (collective, comm_type,
// comm_size, avg_msg_size, ..., algorithm), runner tune's guards a few more.
constexpr int kSelectionTableDepth = 64;

class JsonTooDeep : public std::invalid_argument {
 public:
  explicit JsonTooDeep(int limit)
      : std::invalid_argument("arrays or objects nested deeper than " +
                              std::to_string(limit) + " levels"),
        limit_(limit) {}
  int limit() const { return limit_; }

 private:
  int limit_;
};

// Json::parse(input), throwing JsonTooDeep before any container deeper
// than `max_depth` is built (and the library's parse_error for text that
// is not JSON).
template <typename Json = nlohmann::json, typename Input>
Json parse_bounded(Input&& input, int max_depth) {
  return Json::parse(
      std::forward<Input>(input),
      [max_depth](int depth, typename Json::parse_event_t event, Json&) {
        if ((event == Json::parse_event_t::object_start ||
             event == Json::parse_event_t::array_start) &&
            depth >= max_depth)
          throw JsonTooDeep(max_depth);
        return true;
      });
}

}  // namespace mpiarena
