// Internal to trend_render.cpp: the chart of one point of a trend page
// (trend.hpp render_trend_html) and the page's table of runs.
//
// The y range fits the runs' medians and, within limits, their quartiles,
// never the extreme samples: one slow sample of 600 us must not flatten a
// median line of 15 us onto the axis. A sample outside the range is a
// caret at the top or bottom edge (its value in the hover text), a
// quartile outside it runs the band along the edge. The axis is
// logarithmic when the medians span more than a decade, and says so.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/trend/trend.hpp"

namespace mpiarena {

// The y range of a chart and whether its axis is logarithmic.
struct TrendYRange {
  double lo = 0, hi = 1;
  bool log = false;
};

// The range of a chart of `medians` whose runs' quartiles are
// `quartiles` (values not finite or negative are left out): a little below
// the lowest to a little above the highest median, widened to the
// quartiles as far as half the medians' level or their span (a factor of
// 2 on a log axis), so that no median sits on the axis and a quartile that
// is itself a slow sample does not set the scale; logarithmic when the
// highest median is more than ten times the lowest.
TrendYRange trend_y_range(const std::vector<double>& medians,
                          const std::vector<double>& quartiles);

// The labels of y ticks `v` on a range: one unit (ns, us, ms, s) and as
// many decimals as the step needs on a linear axis, each value in its own
// unit on a logarithmic one ("2 us", "50 us", "1 ms").
std::vector<std::string> trend_tick_labels(const std::vector<double>& v,
                                           const TrendYRange& r);

// One run of the chart where the point is present.
struct TrendChartRun {
  int place = 1;  // 1-based place of the run in its group (the x value)
  double median = 0, q1 = 0, q3 = 0, lo = 0, hi = 0;
  std::string tip;   // the hover text of its dot
  std::string flag;  // "up"/"down": a change that passed the test, ringed
  std::string step;  // "up"/"down": a change point of the series, squared
};

struct TrendChart {
  std::string title;  // the point as the store names it
  std::vector<std::string> x_labels;  // per place in the group ("#12")
  std::vector<TrendChartRun> runs;    // in place order
  std::vector<TrendBoundary> boundaries;
  int width = 600, height = 270;
};

// The chart as an SVG <figure>: the band between the quartiles, the line
// of the medians with a dot per run, rings and squares, a dashed line with
// its text at each boundary, carets for samples beyond the range.
std::string render_trend_chart(const TrendChart& c);

// "...tail of a long name": at most `max` characters (UTF-8 characters
// counted, never cut inside one), the end kept.
std::string cut_front(const std::string& text, std::size_t max);

}  // namespace mpiarena
