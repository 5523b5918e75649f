#include "core/analysis/stats/rank_tests.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>
#include <vector>

#include "core/analysis/stats/inference.hpp"

namespace mpiarena {

UTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b,
                   std::size_t exact_limit) {
  UTest t;
  t.n1 = a.size();
  t.n2 = b.size();
  if (t.n1 == 0 || t.n2 == 0) return t;
  const std::size_t n = t.n1 + t.n2;
  std::vector<std::pair<double, bool>> pooled;  // (value, from a)
  for (double v : a) pooled.push_back({v, true});
  for (double v : b) pooled.push_back({v, false});
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  // Doubled mid-ranks are integers: a tie group at 0-based positions i..j-1
  // holds ranks i+1..j, whose mean doubled is i+1+j.
  std::vector<long> rank2(n);
  long sum2_a = 0;
  double tie_term = 0;  // sum of t^3 - t over tie groups
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double size = static_cast<double>(j - i);
    if (j - i > 1) {
      t.ties = true;
      tie_term += size * size * size - size;
    }
    for (std::size_t k = i; k < j; ++k) {
      rank2[k] = static_cast<long>(i + 1 + j);
      if (pooled[k].second) sum2_a += rank2[k];
    }
    i = j;
  }
  const double n1 = static_cast<double>(t.n1), n2 = static_cast<double>(t.n2);
  t.u = static_cast<double>(sum2_a) / 2 - n1 * (n1 + 1) / 2;

  if (n <= std::min(exact_limit, kExactLimit)) {
    // ways[k][s]: splits choosing k of the values seen so far whose doubled
    // ranks sum to s. Counts stay below C(50, 25) ~ 1.3e14 < 2^53: exact.
    const long max_sum = static_cast<long>(n * (n + 1));
    std::vector<std::vector<double>> ways(
        t.n1 + 1, std::vector<double>(static_cast<std::size_t>(max_sum) + 1));
    ways[0][0] = 1;
    for (std::size_t item = 0; item < n; ++item)
      for (std::size_t k = std::min(item + 1, t.n1); k >= 1; --k)
        for (long s = max_sum; s >= rank2[item]; --s)
          ways[k][s] += ways[k - 1][s - rank2[item]];
    double below = 0, above = 0, total = 0;
    for (long s = 0; s <= max_sum; ++s) {
      const double w = ways[t.n1][s];
      total += w;
      if (s <= sum2_a) below += w;
      if (s >= sum2_a) above += w;
    }
    t.exact = true;
    t.p = std::min(1.0, 2 * std::min(below, above) / total);
    return t;
  }
  const double nn = static_cast<double>(n);
  const double mean = n1 * n2 / 2;
  const double var = n1 * n2 / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
  if (var <= 0) return t;  // every value equal: no evidence at all
  const double z = (std::fabs(t.u - mean) - 0.5) / std::sqrt(var);
  t.p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));
  return t;
}

double min_p_value(std::size_t n1, std::size_t n2) {
  double splits = 1;  // C(n1 + n2, n1)
  for (std::size_t i = 1; i <= n1; ++i)
    splits = splits * static_cast<double>(n2 + i) / static_cast<double>(i);
  return std::min(1.0, 2 / splits);
}

std::size_t min_samples_for(double alpha) {
  std::size_t n = 1;
  while (n < 1000 && !(min_p_value(n, n) < alpha)) ++n;
  return n;
}

long u_lower_critical(std::size_t n1, std::size_t n2, double tail) {
  // ways[j][u]: arrangements of i values of one sample and j of the other
  // with U = u, built up over i (U grows by j when a value of the first
  // sample is placed above j of the second).
  const std::size_t top = n1 * n2;
  std::vector<std::vector<double>> ways(n2 + 1,
                                        std::vector<double>(top + 1, 0.0));
  for (std::size_t j = 0; j <= n2; ++j) ways[j][0] = 1;  // i = 0
  for (std::size_t i = 1; i <= n1; ++i) {
    std::vector<std::vector<double>> next(n2 + 1,
                                          std::vector<double>(top + 1, 0.0));
    for (std::size_t j = 0; j <= n2; ++j)
      for (std::size_t u = 0; u <= top; ++u)
        next[j][u] =
            (u >= j ? ways[j][u - j] : 0.0) + (j > 0 ? next[j - 1][u] : 0.0);
    ways.swap(next);
  }
  double total = 0;
  for (double w : ways[n2]) total += w;
  double below = 0;
  long c = -1;
  for (std::size_t u = 0; u <= top; ++u) {
    below += ways[n2][u];
    if (below / total > tail) break;
    c = static_cast<long>(u);
  }
  return c;
}

std::size_t min_samples_to_bound(double alpha) {
  std::size_t n = 1;
  while (n < 1000 && u_lower_critical(n, n, alpha / 2) < 0) ++n;
  return n;
}

double ratio_lower_bound(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha) {
  std::vector<double> r;
  for (double x : a)
    for (double y : b)
      if (y > 0) r.push_back(x / y);
  if (r.empty()) return 1;
  std::sort(r.begin(), r.end());
  if (a.size() + b.size() <= kExactLimit) {
    // The exact cut: the (c+1)-th smallest ratio, P(U <= c) <= alpha / 2.
    const long c = u_lower_critical(a.size(), b.size(), alpha / 2);
    if (c < 0) return 0;  // no bound at this level from so few samples
    return r[std::min(static_cast<std::size_t>(c), r.size() - 1)];
  }
  const double z = two_sided_z(alpha);
  const double n = static_cast<double>(a.size()),
               m = static_cast<double>(b.size());
  const double k =
      std::floor(n * m / 2 - z * std::sqrt(n * m * (n + m + 1) / 12));
  const std::size_t drop = k > 0 ? static_cast<std::size_t>(k) : 0;
  return r[std::min(drop, r.size() - 1)];
}

}  // namespace mpiarena
