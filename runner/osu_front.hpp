// runner osu PROGRAM [OSU's flags]: OSU's command line, as a site's
// scripts type it, turned into the run's (--profile osu -f osu). No MPI.
#pragma once

#include <string>
#include <vector>

namespace mpiarena {

// What `osu` runs: the run's arguments (without the program name), or
// the front end's help when `help` is set.
struct OsuFrontEnd {
  std::vector<std::string> args;
  std::string help;
};

// `words` are the words after "osu". Throws UsageError naming a flag it
// does not take, and why (GPU buffers, -d), or a flag's bad value.
OsuFrontEnd osu_front_end(const std::vector<std::string>& words);

}  // namespace mpiarena
