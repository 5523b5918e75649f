// Part of the plugin contract (plugin.hpp, which includes it): the Log
// facade a plugin logs through, and the PhaseTimer that splits an
// operation's time into phases. Bump kAbiVersion (plugin.hpp) on any change
// here too.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

#include <boost/config.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mpiarena {

// ---------------------------------------------------------------- logging
// The core's rank-aware logger, handed to the plugin in RunContext::log: a
// plugin logs through it without linking spdlog. Messages go where the
// runner's own go (stderr, rank-prefixed, filtered by --log-level).
enum class LogLevel { debug = 1, info = 2, warn = 3, error = 4 };
class BOOST_SYMBOL_VISIBLE Log {
 public:
  virtual ~Log() = default;
  virtual void write(LogLevel level, const std::string& message) = 0;
  void debug(const std::string& m) { write(LogLevel::debug, m); }
  void info(const std::string& m) { write(LogLevel::info, m); }
  void warn(const std::string& m) { write(LogLevel::warn, m); }
  void error(const std::string& m) { write(LogLevel::error, m); }
};

// ----------------------------------------------------------------- phases
// Sub-phases of one operation (OPBench's: pack, comm, unpack, app). A
// strategy names its phases in StrategyInfo::phases and marks them inside
// execute() with the timer the core hands it (RunContext::phases):
//
//   { auto t = ctx.phases->scope(kPack); pack(); }   // RAII, or
//   ctx.phases->mark(kPack); pack(); ctx.phases->mark(kComm); ...;
//   ctx.phases->stop();                               // closes the last one
//
// A phase index is the position of its name in StrategyInfo::phases. The
// plugin never reads the clock itself. The engine sums each phase over the
// inner iterations of a sample and reduces it like the total (MAX over ranks
// per sample; MIN and AVG kept). Time outside every phase is not a phase.
class PhaseTimer {
 public:
  static constexpr int kMaxPhases = 8;
  using Clock = std::chrono::steady_clock;

  // A tick counter as cheap as the machine has: the time-stamp counter on
  // x86 (about 10 ns a read where a steady_clock read takes 25), else
  // steady_clock. The engine turns ticks into seconds with the ratio of
  // the timed run's own MPI_Wtime duration to its ticks, so the counter's
  // frequency never needs to be known.
  static std::uint64_t now() {
#if defined(__x86_64__) || defined(__i386__)
    return __rdtsc();
#else
    return static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
#endif
  }

  // Ends the open phase (if any) and opens `phase`.
  void mark(int phase) {
    const std::uint64_t t = now();
    if (open_ >= 0) ticks_[open_] += t - since_;
    open_ = phase;
    since_ = t;
  }
  // Ends the open phase, if any.
  void stop() {
    if (open_ < 0) return;
    ticks_[open_] += now() - since_;
    open_ = -1;
  }
  class Scope {
   public:
    Scope(PhaseTimer& t, int phase) : t_(t) { t_.mark(phase); }
    ~Scope() { t_.stop(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    PhaseTimer& t_;
  };
  Scope scope(int phase) { return Scope(*this, phase); }

  // Engine side: zero every phase; ticks accumulated in `phase`.
  void reset() {
    for (auto& t : ticks_) t = 0;
    open_ = -1;
  }
  std::uint64_t ticks(int phase) const { return ticks_[phase]; }

 private:
  std::uint64_t ticks_[kMaxPhases] = {};
  int open_ = -1;
  std::uint64_t since_ = 0;
};

}  // namespace mpiarena
