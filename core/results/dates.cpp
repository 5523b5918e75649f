#include "core/results/dates.hpp"

#include <cctype>
#include <ctime>

namespace mpiarena {

namespace {

// The value of the digits s[at, at + n) (date_shaped() checked them).
int digits(const std::string& s, std::size_t at, std::size_t n) {
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

}  // namespace

std::string iso_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

bool date_shaped(const std::string& s) {
  static const char kShape[] = "dddd-dd-ddTdd:dd:dd";
  std::string t = s;
  if (!t.empty() && t.back() == 'Z') t.pop_back();
  if (t.size() != 10 && t.size() != 16 && t.size() != 19) return false;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (kShape[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(t[i]))
                         : t[i] != kShape[i])
      return false;
  return true;
}

bool is_calendar_date(const std::string& s) {
  if (!date_shaped(s)) return false;
  const int year = digits(s, 0, 4), month = digits(s, 5, 2),
            day = digits(s, 8, 2);
  static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1 ||
      day > kDays[month - 1] + (month == 2 && leap ? 1 : 0))
    return false;
  if (s.size() >= 16 && (digits(s, 11, 2) > 23 || digits(s, 14, 2) > 59))
    return false;
  return s.size() < 19 || digits(s, 17, 2) <= 59;
}

bool is_start_time(const std::string& s) {
  return s.size() >= 19 && is_calendar_date(s.substr(0, 19));
}

}  // namespace mpiarena
