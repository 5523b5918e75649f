// The report's "Guideline violations" view (ReproMPI's
// self-consistent performance guidelines): where a guideline mock-up (a
// collective built from others, params "collective" and "guideline") or
// another algorithm of the MPI library (runner --algorithms) beats the
// library's own choice of the same collective, size and rank count,
// significantly (Mann-Whitney U test of the samples, p < alpha).
#pragma once

#include <string>
#include <vector>

#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

struct GuidelineViolation {
  std::string collective, size_label, faster;  // faster: the record's method
  std::size_t bytes = 0;
  int ranks = 0;
  double library_s = 0, faster_s = 0;  // medians
  double factor = 1;                   // library_s / faster_s
  double p = 1;
};

// Every violation in `doc`, by collective, size, ranks and factor
// (largest first); `compared` counts the pairs tested.
std::vector<GuidelineViolation> guideline_violations(const Document& doc,
                                                     double alpha,
                                                     int& compared);

// The view: empty when the document holds nothing to compare.
std::string render_guidelines(const Document& doc, Style style,
                              double alpha = 0.05);

}  // namespace mpiarena
