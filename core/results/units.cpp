// Times and rates as the tables print them (units.hpp).
#include "core/results/units.hpp"

#include <cmath>
#include <cstdio>

namespace mpiarena {

std::string format_seconds(double s) {
  if (std::isnan(s)) return "n/a";
  if (s < 0) return "-" + format_seconds(-s);  // a fitted L may be < 0
  if (std::isinf(s)) return "inf s";
  char buf[32];
  if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.1f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  else if (s < 1e5)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else  // a day and more: scientific, never hundreds of digits
    std::snprintf(buf, sizeof buf, "%.3e s", s);
  return buf;
}

std::string format_rate(double bps) {
  if (std::isnan(bps)) return "n/a";
  if (bps < 0) return "-" + format_rate(-bps);
  if (std::isinf(bps)) return "inf B/s";
  char buf[32];
  if (bps > 0 && bps < 1)
    std::snprintf(buf, sizeof buf, "%.2e B/s", bps);
  else if (bps >= 1e15)
    std::snprintf(buf, sizeof buf, "%.2e B/s", bps);
  else if (bps >= 1e12)
    std::snprintf(buf, sizeof buf, "%.2f TB/s", bps / 1e12);
  else if (bps >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB/s", bps / 1e9);
  else if (bps >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB/s", bps / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.1f kB/s", bps / 1e3);
  return buf;
}

}  // namespace mpiarena
