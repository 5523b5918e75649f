// Least-squares fit of the latency-bandwidth model time(n) = L + n / B,
// and where over a ladder of sizes that model holds. Pure functions; no
// MPI.
#pragma once

#include <cstddef>
#include <vector>

namespace mpiarena {

struct LatencyBandwidthFit {
  double latency_s = 0;      // L, the intercept
  double bandwidth_Bps = 0;  // B = 1 / slope; 0 when the slope is not > 0
  double r2 = 0;             // coefficient of determination (1 if all equal)
  std::size_t points = 0;
  bool ok = false;  // false with fewer than 2 distinct sizes
};

// Ordinary least squares of seconds[i] against bytes[i].
LatencyBandwidthFit fit_latency_bandwidth(const std::vector<double>& bytes,
                                          const std::vector<double>& seconds);

// A line is kept only where it is this close to every median it was
// fitted on (|L + n / B - t| <= kFitTolerance * t), with L >= 0, over at
// least kFitMinPoints sizes: a line that misses its own points by more,
// or crosses zero time, is no model of them.
inline constexpr double kFitTolerance = 0.25;
inline constexpr std::size_t kFitMinPoints = 3;

// The model fitted over the sizes [first, last) of a series.
struct FitPiece {
  LatencyBandwidthFit fit;  // bandwidth 0: a latency only (flat times)
  std::size_t first = 0, last = 0;
  // The largest |L + n / B - t| / t over those sizes.
  double max_error = 0;
  // Within kFitTolerance of each, L >= 0, everything finite.
  bool holds = false;
};

// Least squares over [first, last), on values scaled by powers of two
// (exact: the result is the same) so that sums of squares of extreme
// times do not overflow. A slope that is not positive gives the flat
// model L = the mean time (bandwidth 0). An intercept below zero by
// rounding only (1e-9 of the smallest time) is taken as 0.
FitPiece fit_piece(const std::vector<double>& bytes,
                   const std::vector<double>& seconds, std::size_t first,
                   std::size_t last);

// Where the model holds over a series sorted by size (one line
// over a protocol switch missed the small sizes tenfold and gave negative
// latencies): every size if one line holds over all of them; else two
// lines, below and above the split that fits best (the eager-rendezvous
// switch), each holding; else one line over the largest sizes where it
// holds (as many as it can); else none. In size order.
std::vector<FitPiece> fit_where_it_holds(const std::vector<double>& bytes,
                                         const std::vector<double>& seconds);

}  // namespace mpiarena
