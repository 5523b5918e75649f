// The parametric and multiple-test pieces of the statistics: the normal
// and t distributions and the incomplete beta (Boost.Math's), Welch's test,
// Holm's and Bonferroni's corrections, and the precision of a median. Used
// by compare and tune. Pure. An argument outside a distribution's domain
// throws std::domain_error naming it: a caller's mistake, never a p-value.
#pragma once

#include <vector>

namespace mpiarena {

// z such that a standard normal exceeds |z| with probability `p`
// (two-sided): 1.96 for 0.05. Throws std::domain_error unless 0 < p <= 1.
double two_sided_z(double p);
// The relative standard error of a sample median: sqrt(pi / 2) * sigma /
// (median * sqrt(n)), sigma estimated robustly as IQR / 1.349 (the normal
// approximation of the median's standard error). -1 without a positive
// median or with fewer than 2 samples.
double median_relative_se(const std::vector<double>& samples);
// The smallest change, as a factor minus one (like --threshold), of one
// median against the other that the two samples can resolve at `alpha`:
// exp(z * sqrt(se_a^2 + se_b^2)) - 1, se the median_relative_se() of each
// and z = two_sided_z(alpha): the two log-medians are z standard errors
// apart. -1 when either side has none.
double resolvable_change(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha);

// The regularized incomplete beta function I_x(a, b) (boost::math::ibeta).
// Throws std::domain_error unless a > 0, b > 0 and 0 <= x <= 1.
double incomplete_beta(double a, double b, double x);

// The two-sided p-value of Student's t distribution with `df` degrees of
// freedom (df > 0, not necessarily whole; infinite: the normal), as
// I_{df / (df + t^2)}(df / 2, 1/2). Throws std::domain_error for df <= 0
// or a t that is NaN.
double student_t_two_sided_p(double t, double df);

// Welch's two-sample t test on the logarithms of `a` and `b` (positive
// values; the others are ignored): the two-sided p-value, from the t
// distribution with the Welch-Satterthwaite degrees of freedom. 1 with fewer
// than 2 values a side; 0 or 1 when both sides have no spread (different
// or equal means).
double welch_log_p(const std::vector<double>& a, const std::vector<double>& b);

// Holm's step-down adjustment: the adjusted p-values, in the order of `p`
// (each at least its own p, never above 1, never below the adjusted p of a
// smaller p).
std::vector<double> holm(const std::vector<double>& p);

// The level each of k claims is tested at so that they hold together at
// alpha (Bonferroni): alpha / k, alpha itself for k <= 1.
double bonferroni_level(double alpha, int k);

}  // namespace mpiarena
