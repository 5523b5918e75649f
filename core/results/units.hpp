// Times and rates as every table, note and page prints them. Pure; no MPI.
#pragma once

#include <string>

namespace mpiarena {

// "7.52 us", "1.23 ms", "2.100 s" (ASCII "us" keeps the columns aligned).
std::string format_seconds(double seconds);
// "5.81 GB/s" (decimal units).
std::string format_rate(double bytes_per_second);

}  // namespace mpiarena
