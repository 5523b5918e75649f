// Internal: the text pieces the report's views share (report.cpp,
// report_views.cpp, breakdown.cpp, scaling.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

// The noisy points of `recs` (Record::noise) as one compact table: the
// point, its size and ranks, its noisy samples of all, the samples
// measured again, the steal in its kept samples and the most preemptions
// in one; in HTML also its first noisy sample. Empty when none is noisy.
std::string render_noisy_table(const std::vector<const Record*>& recs,
                               Style style);
// "Noisy points: 3 of 172 (...)": the count above that table.
std::string noisy_count_line(const std::vector<const Record*>& recs);

// Under a table: per byte count of `recs` that carries the machine's copy
// limit (Record::copy_limit), "copy limit at 110 MB: 15.2 GB/s one core,
// 17.1 GB/s 2 ranks at once; reached: shm 0.93 (2 copies), ..."; empty
// when none carries it.
std::string copy_limit_lines(const std::vector<const Record*>& recs,
                             Style style);

}  // namespace mpiarena
