// Change points: e-divisive means placed, Welch decided (change_points.hpp).
#include "core/analysis/stats/change_points.hpp"

#include <algorithm>
#include <cmath>

#include "core/analysis/stats/inference.hpp"

namespace mpiarena {

int energy_split(const std::vector<double>& x, int begin, int end,
                 int min_segment) {
  const int n = end - begin;
  if (min_segment < 1 || n < 2 * min_segment) return -1;
  // Row sums of |x_i - x_j| split at the moving boundary: moving x_t from
  // the right segment to the left changes the within-left sum by its
  // distances to the left, the within-right by those to the right, and the
  // cross sum by both. O(n^2) for every position at once.
  const double* v = x.data() + begin;
  double within_left = 0, within_right = 0, cross = 0;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j) within_right += std::fabs(v[i] - v[j]);
  int best = -1;
  double best_q = -HUGE_VAL;
  for (int t = 0; t < n - min_segment; ++t) {
    double to_left = 0, to_right = 0;
    for (int i = 0; i < t; ++i) to_left += std::fabs(v[t] - v[i]);
    for (int j = t + 1; j < n; ++j) to_right += std::fabs(v[t] - v[j]);
    within_left += to_left;
    within_right -= to_right;
    cross += to_right - to_left;
    const int n1 = t + 1, n2 = n - n1;  // the split before index t + 1
    if (n1 < min_segment) continue;
    // Q = n1 n2 / n * (2/(n1 n2) cross - within_left / C(n1,2) -
    //                  within_right / C(n2,2))   (Matteson and James)
    const double wl = n1 > 1 ? within_left / (n1 * (n1 - 1) / 2.0) : 0;
    const double wr = n2 > 1 ? within_right / (n2 * (n2 - 1) / 2.0) : 0;
    const double q = static_cast<double>(n1) * n2 / n *
                     (2.0 * cross / (static_cast<double>(n1) * n2) - wl - wr);
    if (q > best_q) {
      best_q = q;
      best = begin + n1;
    }
  }
  return best;
}

namespace {

std::vector<double> slice(const std::vector<double>& v, int b, int e) {
  return std::vector<double>(v.begin() + b, v.begin() + e);
}

// The level a split of [b, e) is held to: alpha over its positions.
double split_level(int b, int e, const ChangePointOptions& o) {
  return bonferroni_level(o.alpha, std::max(1, e - b - 2 * o.min_segment + 1));
}

void segment(const std::vector<double>& values, const std::vector<double>& logs,
             int b, int e, const ChangePointOptions& o,
             std::vector<ChangePoint>& out) {
  const int t = energy_split(logs, b, e, o.min_segment);
  if (t < 0) return;
  const double p = welch_log_p(slice(values, b, t), slice(values, t, e));
  const double level = split_level(b, e, o);
  if (!(p <= level)) return;
  out.push_back({t, p, level});
  segment(values, logs, b, t, o, out);
  segment(values, logs, t, e, o, out);
}

}  // namespace

std::vector<ChangePoint> change_points(const std::vector<double>& values,
                                       const ChangePointOptions& options) {
  ChangePointOptions o = options;
  o.min_segment = std::max(2, o.min_segment);
  std::vector<double> logs(values.size());
  for (std::size_t i = 0; i < values.size(); ++i)
    logs[i] = values[i] > 0 ? std::log(values[i]) : 0;
  std::vector<ChangePoint> cps;
  const int n = static_cast<int>(values.size());
  segment(values, logs, 0, n, o, cps);
  std::sort(cps.begin(), cps.end(),
            [](const ChangePoint& a, const ChangePoint& b) {
              return a.index < b.index;
            });
  // Merge: each split judged again between its neighbours; the weakest
  // that fails (the largest p over its level) goes, and the rest are judged
  // again, until every one holds.
  for (;;) {
    int weakest = -1;
    double worst = 1;
    for (std::size_t i = 0; i < cps.size(); ++i) {
      const int b = i == 0 ? 0 : cps[i - 1].index;
      const int e = i + 1 == cps.size() ? n : cps[i + 1].index;
      cps[i].p = welch_log_p(slice(values, b, cps[i].index),
                             slice(values, cps[i].index, e));
      cps[i].level = split_level(b, e, o);
      const double ratio = cps[i].p / cps[i].level;
      if (ratio > worst) {
        worst = ratio;
        weakest = static_cast<int>(i);
      }
    }
    if (weakest < 0) break;
    cps.erase(cps.begin() + weakest);
  }
  return cps;
}

}  // namespace mpiarena
