#include "core/engine/noise.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/engine/monotonic.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

namespace {

long involuntary_switches() {
  // The calling thread's (the one that runs the timed loop; RUSAGE_THREAD
  // costs half of RUSAGE_SELF, which sums every thread of the process).
  rusage ru{};
  getrusage(RUSAGE_THREAD, &ru);
  return ru.ru_nivcsw;
}

}  // namespace

double steal_seconds(int fd) {
  if (fd < 0) return 0;
  // The kernel writes the whole file on every read; the first line is
  // "cpu  user nice system idle iowait irq softirq steal ...".
  char buf[256];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = '\0';
  unsigned long long v[8] = {0};
  if (std::sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0],
                  &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
    return 0;
  static const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  return static_cast<double>(v[7]) / tick;
}

bool cpu_frequency_exposed() {
  static const bool exposed =
      access("/sys/devices/system/cpu/cpu0/cpufreq/scaling_cur_freq", R_OK) ==
      0;
  return exposed;
}

double cpu_mhz_now() {
  if (!cpu_frequency_exposed()) return -1;
  const int cpu = sched_getcpu();
  if (cpu < 0) return -1;
  const std::string path = "/sys/devices/system/cpu/cpu" + std::to_string(cpu) +
                           "/cpufreq/scaling_cur_freq";
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return -1;
  char buf[32];
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = '\0';
  return std::atof(buf) / 1000.0;  // kHz
}

NoiseProbe::NoiseProbe(bool enabled, bool reads_steal) : enabled_(enabled) {
  if (enabled_ && reads_steal) stat_fd_ = open("/proc/stat", O_RDONLY);
}

NoiseProbe::~NoiseProbe() {
  if (stat_fd_ >= 0) close(stat_fd_);
}

double NoiseProbe::read_steal() {
  if (stat_fd_ < 0) return 0;
  const double now = monotonic_seconds();
  if (stat_read_at_ < 0 || now - stat_read_at_ >= kChainSeconds) {
    stat_value_ = steal_seconds(stat_fd_);
    stat_read_at_ = now;
  }
  return stat_value_;
}

void NoiseProbe::start() {
  if (!enabled_) return;
  if (last_stop_ >= 0 && monotonic_seconds() - last_stop_ < kChainSeconds) {
    steal0_ = last_steal_;
    nivcsw0_ = last_nivcsw_;
    return;
  }
  steal0_ = read_steal();
  nivcsw0_ = involuntary_switches();
}

NoiseReading NoiseProbe::stop() {
  NoiseReading r;
  if (!enabled_) return r;
  last_nivcsw_ = involuntary_switches();
  last_steal_ = read_steal();
  r.preemptions = static_cast<double>(last_nivcsw_ - nivcsw0_);
  r.steal_s = last_steal_ - steal0_;
  if (r.steal_s < 0) r.steal_s = 0;
  r.cpu_mhz = cpu_mhz_now();
  last_stop_ = monotonic_seconds();
  return r;
}

bool noisy_sample(double steal_s, double preemptions, double wall_s, int cpus,
                  bool oversubscribed, std::string* why) {
  const double cpu_time = wall_s * (cpus > 0 ? cpus : 1);
  const bool stolen = cpu_time > 0 && steal_s > kNoisySteal * cpu_time;
  const bool preempted = !oversubscribed && preemptions >= 1 &&
                         preemptions >= kNoisyPreemptions * wall_s;
  if (why && (stolen || preempted)) {
    std::ostringstream out;
    out.precision(3);
    if (stolen)
      out << "steal " << steal_s * 1e3 << " ms in a " << wall_s * 1e3
          << " ms sample on " << cpus << " CPUs";
    if (stolen && preempted) out << ", ";
    if (preempted)
      out << "a rank preempted " << preemptions << " times in " << wall_s * 1e3
          << " ms";
    *why = out.str();
  }
  return stolen || preempted;
}

}  // namespace mpiarena
