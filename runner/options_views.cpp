// The tables' optional views (options_parse.hpp): --per-rank, each rank's
// own time, and --percentiles, the columns p50, p95 and p99.
#include "runner/options_parse.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

void check_views(const po::variables_map& vm, Options& o) {
  o.per_rank = vm.count("per-rank") > 0;
  o.percentiles = vm.count("percentiles") > 0;
  // The formats that draw tables (reporters.hpp).
  const bool table = reporter(o.format).draws_tables();
  if (o.per_rank && !table)
    throw UsageError(
        "--per-rank prints a table, so it needs --format " + table_formats() +
        ", got '" + o.format +
        "' (the JSON records hold the times as per_rank_s)");
  if (o.percentiles && !table)
    throw UsageError(
        "--percentiles adds columns to a table, so it needs --format " +
        table_formats() + ", got '" + o.format +
        "' (the JSON records hold them as time_s.p50, p95 and p99; csv and "
        "html show them without it)");
  if (o.percentiles && o.command == Command::ab)
    throw UsageError(
        "--percentiles applies to a run and 'report' (it adds columns to "
        "their tables); 'ab' prints a comparison");
}

}  // namespace mpiarena
