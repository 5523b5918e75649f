// Synthetic documents shared by the tests of runner compare
// (test_compare*.cpp).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/analysis/compare/compare.hpp"
#include "doc_fixtures.hpp"

namespace compare_test {

// Seven samples around `median` seconds, spread by +-2%, no ties.
inline std::vector<double> around(double median, int n = 7) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i)
    out.push_back(median * (1 + 0.02 * (i - n / 2) / (n / 2) + 1e-6 * i));
  return out;
}

inline mpiarena::Document doc_of(std::vector<mpiarena::Record> records) {
  mpiarena::Document d;
  d.context = mpiarena_test::sample_context();
  d.complete = true;
  d.records = std::move(records);
  return d;
}

inline const mpiarena::PointComparison& only_point(
    const mpiarena::Comparison& c) {
  EXPECT_EQ(c.points.size(), 1u);
  return c.points.front();
}

inline bool has_warning(const mpiarena::Comparison& c,
                        const std::string& text) {
  for (const std::string& w : c.warnings)
    if (w.find(text) != std::string::npos) return true;
  return false;
}

}  // namespace compare_test
