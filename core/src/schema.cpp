#include "schema.hpp"

#include <boost/filesystem.hpp>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

namespace mpiarena {

namespace detail {
extern const char* const kResultsSchemaText;
}

const nlohmann::json& results_schema() {
  static const nlohmann::json schema =
      nlohmann::json::parse(detail::kResultsSchemaText);
  return schema;
}

std::vector<std::string> validate_results(const nlohmann::json& doc) {
  static const valijson::Schema* schema = [] {
    auto* s = new valijson::Schema();
    valijson::SchemaParser parser;
    valijson::adapters::NlohmannJsonAdapter adapter(results_schema());
    parser.populateSchema(adapter, *s);
    return s;
  }();
  valijson::Validator validator;
  valijson::ValidationResults results;
  valijson::adapters::NlohmannJsonAdapter target(doc);
  std::vector<std::string> errors;
  if (validator.validate(*schema, target, &results)) return errors;
  valijson::ValidationResults::Error error;
  while (results.popError(error)) {
    std::string path;
    for (const std::string& part : error.context) path += part;
    errors.push_back(path + ": " + error.description);
  }
  if (errors.empty()) errors.push_back("<root>: invalid document");
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
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << doc.dump(1) << '\n';
    out.flush();
    if (!out) throw std::runtime_error("cannot write '" + tmp + "'");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + tmp + "' to '" + path + "'");
}

}  // namespace mpiarena
