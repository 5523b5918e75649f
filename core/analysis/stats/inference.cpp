#include "core/analysis/stats/inference.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstddef>
#include <mpiarena/stats.hpp>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mpiarena {

double two_sided_z(double p) {
  // A level outside (0, 1] is a caller's mistake, not a z: say so.
  if (!(p > 0 && p <= 1))
    throw std::domain_error("two_sided_z: the two-sided level " +
                            std::to_string(p) + " is not in (0, 1]");
  return boost::math::quantile(
      boost::math::complement(boost::math::normal_distribution<>(), p / 2));
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
  // Outside its domain the function has no value; Boost.Math would throw
  // its own std::domain_error, this one names the arguments.
  if (!(a > 0 && b > 0 && x >= 0 && x <= 1))
    throw std::domain_error("incomplete_beta: I_x(a, b) needs a > 0, b > 0 "
                            "and 0 <= x <= 1, not a = " + std::to_string(a) +
                            ", b = " + std::to_string(b) +
                            ", x = " + std::to_string(x));
  return boost::math::ibeta(a, b, x);
}

double student_t_two_sided_p(double t, double df) {
  // No degrees of freedom, or no t, is a mistake upstream (Welch's df is
  // positive by construction): an error, not a p-value.
  if (!(df > 0) || std::isnan(t))
    throw std::domain_error("student_t_two_sided_p: t = " +
                            std::to_string(t) + " with " +
                            std::to_string(df) +
                            " degrees of freedom (needs df > 0)");
  const boost::math::students_t_distribution<> dist(df);
  return std::min(
      1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(t))));
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
  // Welch-Satterthwaite, as shares of se2 so that no square underflows:
  // between min(nx, ny) - 1 and nx + ny - 2.
  const double sx = vx / nx / se2, sy = vy / ny / se2;
  const double df = 1 / (sx * sx / (nx - 1) + sy * sy / (ny - 1));
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
