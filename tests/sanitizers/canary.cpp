// sanitizer_canary: three methods that each commit one error in plugin code,
// for scripts/sanitize to check that a sanitized runner still reports what
// goes wrong inside a dlopen'ed plugin with the suppressions in force:
//   canary_leak      leaks 4242 bytes (LeakSanitizer, lsan.supp applied),
//   canary_overflow  reads one int past a heap array (AddressSanitizer),
//   canary_ub        overflows a signed int (UndefinedBehaviorSanitizer).
// Built only with MPIARENA_SANITIZE, into a directory of its own.
#include <mpiarena/plugin.hpp>

#include <climits>
#include <cstddef>

namespace {

// Keeps the compiler from proving anything about the values below.
volatile int sink = 0;
char* volatile leaked = nullptr;

class Canary : public mpiarena::Strategy {
 public:
  void execute() override {}
  void poison() override {}
  mpiarena::Verdict verify() override { return {true, ""}; }
};

class Leak final : public Canary {
  void prepare(const mpiarena::RunContext&) override {
    leaked = new char[4242];
    leaked = nullptr;  // now unreachable
  }
};

class Overflow final : public Canary {
  void prepare(const mpiarena::RunContext& ctx) override {
    int* a = new int[4];
    const std::size_t past = 4 + static_cast<std::size_t>(ctx.rank);
    sink = a[past];
    delete[] a;
  }
};

class Ub final : public Canary {
  void prepare(const mpiarena::RunContext& ctx) override {
    int x = INT_MAX - sink;
    x += ctx.size;  // ctx.size >= 1: signed overflow
    sink = x;
  }
};

mpiarena::StrategyInfo info(const char* name, const char* summary) {
  mpiarena::StrategyInfo i;
  i.name = name;
  i.suite = "harness";
  i.summary = summary;
  i.payloads = {"1d"};
  i.min_ranks = 1;
  i.moves_data = false;
  i.payload_copies = 0;
  return i;
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Leak>(info("canary_leak", "sanitizer check: leaks 4242 bytes")),
    mpiarena::make_entry<Overflow>(
        info("canary_overflow", "sanitizer check: reads past a heap array")),
    mpiarena::make_entry<Ub>(info("canary_ub", "sanitizer check: signed overflow")))
