#include "schema.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "output.hpp"

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

}  // namespace

std::vector<std::string> validate_results(const nlohmann::json& doc) {
  static const std::unique_ptr<valijson::Schema> schema =
      compile(results_schema());
  return validate_with(*schema, doc);
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
  return validate_with(*schema, value);
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
