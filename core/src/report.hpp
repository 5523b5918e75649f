// Human-readable reports computed from a result document.
#pragma once

#include <string>

#include "records.hpp"

namespace mpiarena {

// "7.52 us", "1.23 ms", "2.100 s" (ASCII "us" keeps the columns aligned).
std::string format_seconds(double seconds);
// "5.81 GB/s" (decimal units).
std::string format_rate(double bytes_per_second);

// Per suite, payload and size: methods ranked by median time (fastest first)
// with time, bandwidth, CV, ratio to the best and verification; then the
// points skipped with their reason.
std::string render_table(const Document& doc);

}  // namespace mpiarena
