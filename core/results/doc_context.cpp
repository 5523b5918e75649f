// The context's JSON, field by field (doc_context.hpp).
#include "core/results/doc_context.hpp"

#include <algorithm>

namespace mpiarena {

namespace {

using json = nlohmann::json;

// A field written: an absent optional not at all, an optional holding an
// empty optional as null.
template <class T>
void put(json& j, const char* key, const T& v) {
  j[key] = v;
}
template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v) j[key] = *v;
}
template <class T>
void put(json& j, const char* key, const std::optional<std::optional<T>>& v) {
  if (v) j[key] = *v ? json(**v) : json(nullptr);
}

// A field read: missing or null keeps its default (a file written before
// the field existed); a mistyped value throws nlohmann::json::exception.
template <class T>
void get(const json& j, const char* key, T& v) {
  const auto it = j.find(key);
  if (it != j.end() && !it->is_null()) it->get_to(v);
}
template <class T>
void get(const json& j, const char* key, std::optional<T>& v) {
  const auto it = j.find(key);
  if (it != j.end() && !it->is_null()) v = it->get<T>();
}
template <class T>
void get(const json& j, const char* key, std::optional<std::optional<T>>& v) {
  const auto it = j.find(key);
  if (it == j.end()) return;
  v = it->is_null() ? std::optional<T>() : std::optional<T>(it->get<T>());
}

template <class T>
void write_fields(json& j, const T& v) {
  j = json::object();
  T::fields(v, [&](const char* key, const auto& m) { put(j, key, m); });
}

template <class T>
void read_fields(const json& j, T& v) {
  if (!j.is_object())
    throw json::type_error::create(302, "a context part is not an object",
                                   &j);
  T::fields(v, [&](const char* key, auto& m) { get(j, key, m); });
}

}  // namespace

#define MPIARENA_CONTEXT_JSON(T)                                          \
  void to_json(json& j, const T& v) { write_fields(j, v); }               \
  void from_json(const json& j, T& v) { read_fields(j, v); }
MPIARENA_CONTEXT_PARTS(MPIARENA_CONTEXT_JSON)
#undef MPIARENA_CONTEXT_JSON

namespace {

// The parts that keep the keys they do not name (`extra`).
template <class T>
void write_open(json& j, const T& v) {
  write_fields(j, v);
  for (auto it = v.extra.begin(); it != v.extra.end(); ++it)
    if (!j.contains(it.key())) j[it.key()] = it.value();
}

template <class T>
void read_open(const json& j, T& v) {
  read_fields(j, v);
  const std::vector<std::string> known = field_names<T>();
  v.extra = json::object();
  for (auto it = j.begin(); it != j.end(); ++it)
    if (std::find(known.begin(), known.end(), it.key()) == known.end())
      v.extra[it.key()] = it.value();
}

}  // namespace

void to_json(json& j, const OptionsContext& v) { write_open(j, v); }
void from_json(const json& j, OptionsContext& v) { read_open(j, v); }
void to_json(json& j, const Context& v) { write_open(j, v); }
void from_json(const json& j, Context& v) { read_open(j, v); }

bool operator==(const Context& a, const Context& b) {
  return json(a) == json(b);
}

std::string library_name(const Context& c) {
  return c.mpi_library.substr(0, c.mpi_library.find_first_of(",\n"));
}

}  // namespace mpiarena
