// Internal to compare: what its three parts share. The matching of points
// across files (compare_keys.cpp), the noise judgement (compare_noise.cpp)
// and the judgement of each point (compare.cpp).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/analysis/compare/compare.hpp"

namespace mpiarena {

// Suite, method, payload, ranks, bytes and, for pairwise methods, the pairs
// that ran at once (--pairs one and all measure different things) and
// whether they crossed nodes (--pairs intra and inter do too).
using Key =
    std::tuple<std::string, std::string, std::string, int, std::size_t, int>;
Key key_of(const Record& r);
Key key_of(const Skip& s);
// Each record of `d` by its key; a key seen twice is warned about (`side`:
// "BASE" or "NEW") and its first record kept.
std::map<Key, const Record*> index_records(const Document& d,
                                           const std::string& side,
                                           std::vector<std::string>& warnings);
// The points of `mine` that `theirs` lacks, with why when `other` skipped
// them.
std::vector<OnlyIn> only_in(const std::map<Key, const Record*>& mine,
                            const std::map<Key, const Record*>& theirs,
                            const Document& other);

// The contexts' differences that change a measurement, as warnings.
void context_warnings(const Context& b, const Context& n,
                      std::vector<std::string>& out);
// The runs' synchronization (sync_setting()) when it differs, as warnings.
void sync_warnings(const Document& base, const Document& now,
                   std::vector<std::string>& out);

// --relative: the group a record's point belongs to (its key without the
// method).
std::string group_of(const Record& r);
// A copy of `r` whose times are multiplied by `factor` (samples, summary,
// bandwidth); phases, parts and metrics are left as they are.
Record scale_times(const Record& r, double factor);
// --relative: each group's common shift (the median of NEW's medians over
// BASE's, over 3 points or more), warned about in `c` where beyond the
// threshold.
std::map<std::string, double> group_shifts(
    const std::map<Key, const Record*>& b,
    const std::map<Key, const Record*>& n, Comparison& c);

// How much better the better of two values is, as a ratio minus one.
double factor(double base, double now);

// The median compare judges a timing by: its samples' (the U test's data;
// a summary that says otherwise must not decide the change),
// the stated one only where there are no samples.
template <typename Timed>
double samples_median(const Timed& t) {
  return t.samples_max.empty() ? t.time.median
                               : summarize(t.samples_max).median;
}
// "0.0123" (3 significant digits); `v` printed with a printf `format`.
std::string number(double v);
std::string fixed(const char* format, double v);

// What a record's noise record says about its samples.
PointNoise point_noise(const Record& r);
// A file's noise figures, from its context and the records compared.
NoiseFigures noise_figures(const Context& context,
                           const std::vector<const Record*>& records);
// The noise figures that differ markedly between the two files
// (nc.differences).
void compare_noise(NoiseComparison& nc);
// The smallest threshold most points of the files resolve.
ThresholdSuggestion suggest_threshold(
    const std::vector<PointComparison>& points);

}  // namespace mpiarena
