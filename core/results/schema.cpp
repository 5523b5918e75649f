#include "core/results/schema.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <mpiarena/stats.hpp>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "core/results/output.hpp"

namespace mpiarena {

namespace detail {
extern const char* const kResultsSchemaText;
}

const nlohmann::json& results_schema() {
  static const nlohmann::json schema =
      nlohmann::json::parse(detail::kResultsSchemaText);
  return schema;
}

namespace {

std::vector<std::string> validate_with(const valijson::Schema& schema,
                                       const nlohmann::json& doc) {
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  std::vector<std::string> errors;
  if (validator.validate(schema, target, &results)) return errors;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string path;
    for (const std::string& part : error.context) path += part;
    errors.push_back(path + ": " + error.description);
  }
  if (errors.empty()) errors.push_back("<root>: invalid document");
  return errors;
}

std::unique_ptr<valijson::Schema> compile(const nlohmann::json& text) {
  auto schema = std::make_unique<valijson::Schema>();
  valijson::SchemaParser parser;
  valijson::adapters::NlohmannJsonAdapter adapter(text);
  parser.populateSchema(adapter, *schema);
  return schema;
}

// Whether two figures of one summary agree: the same double after a
// round trip through JSON, up to the order of a sum.
bool agrees(double stated, double from_samples) {
  if (!std::isfinite(stated) || !std::isfinite(from_samples))
    return stated == from_samples;
  return std::fabs(stated - from_samples) <=
         1e-9 * std::max(std::fabs(stated), std::fabs(from_samples));
}

// The percentiles a timing's time_s states (stats.hpp): each the one its
// samples_s.max give, none where they are too few for it, and in order:
// min <= p50 <= p95 <= p99 <= max.
void check_percentiles(const nlohmann::json& t, const std::string& where,
                       std::vector<std::string>& errors) {
  const nlohmann::json& stated = t.at("time_s");
  std::vector<double> sorted =
      t.at("samples_s").at("max").get<std::vector<double>>();
  std::sort(sorted.begin(), sorted.end());
  const auto text = [](double v) { return nlohmann::json(v).dump(); };
  std::string below = "min";
  double floor = stated.at("min").get<double>();
  for (std::size_t i = 0; i < kPercentiles.size(); ++i) {
    const std::string name = percentile_name(i);
    if (!stated.contains(name)) continue;
    const double given = stated.at(name).get<double>();
    const std::string at = where + "[time_s][" + name + "]: " + text(given);
    const std::optional<double> value = percentile(sorted, kPercentiles[i]);
    const std::string n = std::to_string(sorted.size()) + " samples";
    if (!sorted.empty() && !value)
      errors.push_back(at + " is given for " + n + "; " + name +
                       " needs at least " +
                       std::to_string(percentile_min_samples(kPercentiles[i])));
    else if (value && !agrees(given, *value))
      errors.push_back(at + " contradicts its " + n + " (the nearest-rank " +
                       name + " of samples_s.max is " + text(*value) + ")");
    if (given < floor)
      errors.push_back(at + " is below " + below + " " + text(floor));
    below = name;
    floor = given;
  }
  const double max = stated.at("max").get<double>();
  if (below != "min" && floor > max)
    errors.push_back(where + "[time_s][" + below + "]: " + text(floor) +
                     " is above max " + text(max));
}

// A timing's time_s against its samples_s.max (the statistics are over
// them): each figure that differs, as "<where>[time_s][median]: ...".
void check_timing(const nlohmann::json& t, const std::string& where,
                  std::vector<std::string>& errors) {
  const nlohmann::json& samples = t.at("samples_s").at("max");
  check_percentiles(t, where, errors);
  if (samples.empty()) return;
  const Summary s = summarize(samples.get<std::vector<double>>());
  const nlohmann::json& stated = t.at("time_s");
  const std::pair<const char*, double> figures[] = {
      {"min", s.min}, {"median", s.median}, {"mean", s.mean}, {"max", s.max}};
  for (const auto& [name, value] : figures) {
    const double given = stated.at(name).get<double>();
    if (!agrees(given, value))
      errors.push_back(
          where + "[time_s][" + name + "]: " + nlohmann::json(given).dump() +
          " contradicts its " + std::to_string(samples.size()) +
          " samples (samples_s.max give " + nlohmann::json(value).dump() + ")");
  }
}

}  // namespace

std::vector<std::string> record_contradictions(const nlohmann::json& record,
                                               const std::string& where) {
  std::vector<std::string> errors;
  check_timing(record, where, errors);
  for (const char* list : {"phases_s", "parts"}) {
    if (!record.contains(list)) continue;
    const nlohmann::json& items = record.at(list);
    for (std::size_t i = 0; i < items.size(); ++i) {
      const std::string at =
          where + "[" + list + "][" + std::to_string(i) + "]";
      check_timing(items[i], at, errors);
      if (items[i].contains("phases_s"))
        for (std::size_t k = 0; k < items[i]["phases_s"].size(); ++k)
          check_timing(items[i]["phases_s"][k],
                       at + "[phases_s][" + std::to_string(k) + "]", errors);
    }
  }
  return errors;
}

std::vector<std::string> validate_results(const nlohmann::json& doc) {
  static const std::unique_ptr<valijson::Schema> schema =
      compile(results_schema());
  std::vector<std::string> errors = validate_with(*schema, doc);
  if (!errors.empty()) return errors;
  const nlohmann::json& records = doc.at("records");
  for (std::size_t i = 0; i < records.size(); ++i) {
    const std::vector<std::string> bad = record_contradictions(
        records[i], "<root>[records][" + std::to_string(i) + "]");
    errors.insert(errors.end(), bad.begin(), bad.end());
  }
  return errors;
}

std::vector<std::string> validate_definition(const nlohmann::json& value,
                                             const std::string& definition) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<valijson::Schema>> schemas;
  const valijson::Schema* schema = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto& slot = schemas[definition];
    if (!slot) {
      const nlohmann::json& full = results_schema();
      if (!full.at("definitions").contains(definition)) {
        schemas.erase(definition);
        throw std::invalid_argument("the results schema has no definition '" +
                                    definition + "'");
      }
      // The definition as the root, its $refs still resolving.
      slot = compile({{"$schema", full.at("$schema")},
                      {"definitions", full.at("definitions")},
                      {"$ref", "#/definitions/" + definition}});
    }
    schema = slot.get();
  }
  std::vector<std::string> errors = validate_with(*schema, value);
  if (errors.empty() && definition == "record")
    errors = record_contradictions(value, "<root>");
  return errors;
}

void write_results(const nlohmann::json& doc, const std::string& path) {
  const std::vector<std::string> errors = validate_results(doc);
  if (!errors.empty()) {
    std::string text = "refusing to write '" + path +
                       "': the document does not match the results schema:";
    for (const std::string& e : errors) text += "\n  " + e;
    throw std::runtime_error(text);
  }
  std::string target, error;
  if (!resolve_output(path, target, error)) throw std::runtime_error(error);
  error = replace_file(target, doc.dump(1) + "\n", /*durable=*/false);
  if (!error.empty())
    throw std::runtime_error("cannot write the output file '" + path +
                             "': " + error);
}

}  // namespace mpiarena
