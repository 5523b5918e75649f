// Internal: what the machine did during a sample (runner --noise on,
// docs/methodology.md): the node's steal time, the rank's involuntary
// context switches and its CPU clock, read outside the timed loop.
#pragma once

#include <string>

namespace mpiarena {

// One rank's figures over one sample.
struct NoiseReading {
  double steal_s = 0;      // the node's steal time, all CPUs (0: not read)
  double preemptions = 0;  // involuntary context switches of this rank
  double cpu_mhz = -1;     // this rank's CPU clock; -1: not exposed
};

// Reads the figures before and after a sample: start() before the
// barrier, stop() after the loop. Only `reads_steal` ranks (one per node)
// read /proc/stat (`reads_steal`); a disabled probe reads nothing and returns
// zeros. Samples run back to back (the rounds of a group): a start() within
// kChainSeconds of the last stop() takes that stop's figures instead of
// reading again, which halves the cost (a /proc/stat read is about 6 us:
// the kernel writes the whole file) and charges the short gap between the
// samples to the next one. And /proc/stat counts steal in 10 ms ticks, so
// it is read at most once per kChainSeconds: a sample shorter than that
// (one operation of the null method) reuses the last reading, and the
// steal of a tick is charged to the sample in which the next reading falls.
class NoiseProbe {
 public:
  NoiseProbe(bool enabled, bool reads_steal);
  ~NoiseProbe();
  NoiseProbe(const NoiseProbe&) = delete;
  NoiseProbe& operator=(const NoiseProbe&) = delete;
  bool enabled() const { return enabled_; }
  void start();
  NoiseReading stop();

 private:
  static constexpr double kChainSeconds = 1e-3;
  bool enabled_;
  int stat_fd_ = -1;
  double steal0_ = 0;
  long nivcsw0_ = 0;
  double read_steal();  // /proc/stat, at most once per kChainSeconds
  double last_steal_ = 0, last_stop_ = -1;  // the last stop()'s reading
  long last_nivcsw_ = 0;
  double stat_value_ = 0, stat_read_at_ = -1;  // the last /proc/stat read
};

// The steal time of all CPUs since boot (the "cpu" line of /proc/stat,
// read through `fd`), seconds; 0 when it cannot be read.
double steal_seconds(int fd);
// The current clock of the CPU this thread runs on (cpufreq's
// scaling_cur_freq), MHz; -1 when the system does not expose it.
double cpu_mhz_now();
// Whether a kernel exposes the CPU clock at all (the context says).
bool cpu_frequency_exposed();

// Whether a sample of `wall_s` seconds (the slowest rank's loop) is noisy:
// steal took over kNoisySteal of the node's CPU time (`cpus` CPUs), or, on
// a machine that is not oversubscribed, the most preempted rank was
// preempted at kNoisyPreemptions per second (at least once). `why` gets
// the figures.
bool noisy_sample(double steal_s, double preemptions, double wall_s, int cpus,
                  bool oversubscribed, std::string* why = nullptr);

}  // namespace mpiarena
