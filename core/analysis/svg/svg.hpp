// Internal: SVG charts drawn by the runner itself for the HTML pages
// (report_html.hpp, trend.hpp). No library: a chart is a few dozen lines of
// SVG text, and writing it here keeps the page self-contained, the output
// deterministic (the same document gives the same bytes) and the runner
// free of a dependency that Debian would have to ship (docs/formats.md,
// "HTML").
//
// Every element that shows data carries class "mark" (the browser test
// checks that each chart drew at least one), and a <title> child where a
// hover should tell the exact value. A legend never cuts a name: a long
// one wraps onto lines (<tspan>s) that fit the right margin, and the chart
// grows taller when its legend needs it.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace mpiarena::svg {

// "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" for the five XML specials;
// what XML may not hold (control characters) spelt out (printable.hpp).
std::string escape(const std::string& text);

// The colour of series i: ten distinguishable colours (Tableau 10), then
// the same again (charts with more series also dash their lines).
const char* colour(int i);

struct Point {
  double x = 0, y = 0;
  // The band drawn around y (the spread of a run's samples); NaN: none.
  double lo, hi;
  std::string tip;  // hover text; empty: the series name and the values
  // "up" or "down": ringed in red or green (a change that passed the test).
  std::string flag;
  // "up" or "down": a square in red or green (a change point of the
  // series: the level moved here and stayed).
  std::string step;
  Point();
  Point(double x_, double y_);
};

struct Series {
  std::string name;
  std::vector<Point> points;
  int colour = -1;      // index into colour(); -1: its place in the chart
  bool dashed = false;  // a fitted model, not measurements
  bool markers = true;  // a dot per point (always when there is one point)
  bool line = true;     // a line through the points
  bool legend = true;   // an entry in the legend (false: a second piece)
};

struct Axis {
  std::string label;
  bool log = true;
  // Tick values are labelled with it; ticks of a logarithmic axis are
  // powers of `base` (10 for times and rates, 2 for byte sizes).
  std::function<std::string(double)> format;
  double base = 10;
  // Whole numbers only (run indices): linear ticks at integers.
  bool integers = false;
};

struct LineChart {
  std::string title, caption;
  Axis x, y;
  std::vector<Series> series;
  int width = 640, height = 340;
};

// Points with x or y not finite, or not positive on a logarithmic axis, are
// left out (and counted in the caption). A chart with no point left says so
// inside the plot area, with no "mark".
std::string render(const LineChart& chart);

// One bar per category, split into stacks (each a share of the bar's sum,
// shown as a percentage of it): the phases of an operation per size.
struct StackedBars {
  std::string title, caption;
  std::vector<std::string> categories;
  std::vector<std::string> stack_names;
  // values[stack][category] >= 0; the tip of each bar segment.
  std::vector<std::vector<double>> values;
  std::vector<std::vector<std::string>> tips;
  int width = 640, height = 300;
};
std::string render(const StackedBars& bars);

}  // namespace mpiarena::svg
