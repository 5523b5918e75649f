// Change points of a series (runner history changes): where the level of a
// sequence of values (one per run, in time order) moves and stays. E-
// divisive means (Matteson and James 2014, energy distance with alpha 1, as
// Apache Otava) places each split; Welch's t test on the logarithms of the
// two sides decides it, at a level that holds over every position the
// split could have taken (Bonferroni); splits are sought again on each side
// (binary segmentation), and a split that no longer holds between its
// neighbours is merged away, weakest first (as Otava does). Pure.
#pragma once

#include <vector>

namespace mpiarena {

struct ChangePointOptions {
  // The chance that a series without a change reports one, bounded for the
  // first split (each later split is tested at the same level): a split
  // holds when Welch's p is at most alpha / (positions it could have
  // taken).
  double alpha = 0.05;
  // Values on each side of a split, at least 2 (Welch's test needs a
  // spread a side).
  int min_segment = 3;
};

struct ChangePoint {
  int index = 0;     // the first value after the change
  double p = 1;      // Welch's p between the segments on either side
  double level = 0;  // the level p was held to (alpha / positions)
};

// The position in [begin + min_segment, end - min_segment] that maximises
// the energy statistic of x[begin, index) against x[index, end); -1 when the
// range is shorter than 2 * min_segment. `x` should be on the scale its
// changes are judged on (the logarithms of times: a change is a factor).
int energy_split(const std::vector<double>& x, int begin, int end,
                 int min_segment);

// The change points of `values` (positive: times), in increasing index.
std::vector<ChangePoint> change_points(const std::vector<double>& values,
                                       const ChangePointOptions& options);

}  // namespace mpiarena
