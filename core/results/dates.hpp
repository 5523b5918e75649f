// Dates as result documents and the results store hold them: ISO 8601 in
// UTC, "2026-11-26T08:00:00Z". The one formatter and the one parser of the
// tree: the runner's start and end times, the store's added_at, the start
// times trend and history add put runs in order by, history's --since.
#pragma once

#include <string>

namespace mpiarena {

// Now, "YYYY-MM-DDThh:mm:ssZ" (UTC).
std::string iso_now();

// Whether `s` has one of the shapes YYYY-MM-DD, YYYY-MM-DDThh:mm or
// YYYY-MM-DDThh:mm:ss, a Z after either: its shape only.
bool date_shaped(const std::string& s);

// Whether `s` is date_shaped() and a date of the calendar: month 01-12, a
// day the month has (29 February in leap years), hh 00-23, mm and ss 00-59.
bool is_calendar_date(const std::string& s);

// Whether runs can be put in time order by the start time `s`: it begins
// YYYY-MM-DDThh:mm:ss, a date of the calendar, then anything (a Z).
bool is_start_time(const std::string& s);

}  // namespace mpiarena
