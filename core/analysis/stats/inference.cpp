#include "core/analysis/stats/inference.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <mpiarena/stats.hpp>
#include <numeric>

namespace mpiarena {

namespace {

// The continued fraction of the incomplete beta function (modified Lentz),
// for x below (a + 1) / (a + b + 2), where it converges fast.
double beta_fraction(double a, double b, double x) {
  const double tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    for (int odd = 0; odd < 2; ++odd) {
      const double aa =
          odd ? -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
              : m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
      d = 1 + aa * d;
      if (std::fabs(d) < tiny) d = tiny;
      c = 1 + aa / c;
      if (std::fabs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
      if (odd && std::fabs(d * c - 1) < 1e-15) return h;
    }
  }
  return h;
}

}  // namespace

double two_sided_z(double p) {
  // erfc(z / sqrt 2) is the two-sided tail of the standard normal; it
  // falls with z: bisection.
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double median_relative_se(const std::vector<double>& samples) {
  if (samples.size() < 2) return -1;
  const double median = quantile(samples, 0.5);
  if (!(median > 0)) return -1;
  // sqrt(pi / 2) sigma / sqrt(n) is the standard error of the median of n
  // normal samples; IQR / 1.349 (twice the normal's 75% quantile) estimates
  // sigma without the outliers a timing distribution has.
  const double iqr = quantile(samples, 0.75) - quantile(samples, 0.25);
  const double sigma = iqr / (2 * 0.6744897501960817);
  return std::sqrt(std::acos(-1.0) / 2) * sigma /
         (median * std::sqrt(static_cast<double>(samples.size())));
}

double resolvable_change(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha) {
  const double sa = median_relative_se(a), sb = median_relative_se(b);
  if (sa < 0 || sb < 0) return -1;
  return std::expm1(two_sided_z(alpha) * std::hypot(sa, sb));
}

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front =
      std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
               a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * beta_fraction(a, b, x) / a;
  return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double student_t_two_sided_p(double t, double df) {
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

double welch_log_p(const std::vector<double>& a, const std::vector<double>& b) {
  auto logs = [](const std::vector<double>& v) {
    std::vector<double> out;
    for (double x : v)
      if (x > 0) out.push_back(std::log(x));
    return out;
  };
  const std::vector<double> x = logs(a), y = logs(b);
  if (x.size() < 2 || y.size() < 2) return 1;
  auto mean_var = [](const std::vector<double>& v, double& mean, double& var) {
    mean = 0;
    for (double e : v) mean += e;
    mean /= static_cast<double>(v.size());
    var = 0;
    for (double e : v) var += (e - mean) * (e - mean);
    var /= static_cast<double>(v.size() - 1);
  };
  double mx = 0, vx = 0, my = 0, vy = 0;
  mean_var(x, mx, vx);
  mean_var(y, my, vy);
  const double nx = static_cast<double>(x.size()),
               ny = static_cast<double>(y.size());
  const double se2 = vx / nx + vy / ny;
  if (!(se2 > 0)) return mx == my ? 1 : 0;
  const double t = (my - mx) / std::sqrt(se2);
  const double df =
      se2 * se2 /
      ((vx / nx) * (vx / nx) / (nx - 1) + (vy / ny) * (vy / ny) / (ny - 1));
  return student_t_two_sided_p(t, df);
}

std::vector<double> holm(const std::vector<double>& p) {
  std::vector<std::size_t> order(p.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
  const std::size_t k = p.size();
  std::vector<double> adjusted(k);
  double running = 0;  // adjusted p's never decrease with rank
  for (std::size_t j = 0; j < k; ++j) {
    running = std::max(running,
                       std::min(1.0, static_cast<double>(k - j) * p[order[j]]));
    adjusted[order[j]] = running;
  }
  return adjusted;
}

double bonferroni_level(double alpha, int k) {
  return k > 1 ? alpha / k : alpha;
}

}  // namespace mpiarena
