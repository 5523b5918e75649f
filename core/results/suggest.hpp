// The names a mistyped word was most likely meant as, for the messages
// about an unknown method, option, command or value. Pure; no MPI.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace mpiarena {

// The optimal string alignment distance (Damerau-Levenshtein where no
// substring is edited twice): insertions, deletions, substitutions and
// swaps of two neighbouring characters, each 1. Case-insensitive.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The `most` names of `accepted` nearest to `word`, best first: those
// within a few edits (one for a word of 3 to 5 characters, two up to 8,
// three beyond; none for a shorter word, unless only the case differs),
// then those that hold the word or that the word holds (3 characters or
// more, and half the word: 'latency' -> 'latency_mt', 'osu_latency' ->
// 'latency'), then those with a part ('_' or '-'
// apart) within those edits of a part of the word. Leading dashes are
// ignored ('--treshold' -> '--threshold'). Empty when none is near.
std::vector<std::string> nearest(const std::string& word,
                                 const std::vector<std::string>& accepted,
                                 std::size_t most = 3);

// "did you mean 'bcast' or 'coll_bcast'?" for nearest(word, accepted,
// most); empty when none is near.
std::string did_you_mean(const std::string& word,
                         const std::vector<std::string>& accepted,
                         std::size_t most = 3);

// "'a'", "'a' or 'b'", "'a', 'b' or 'c'".
std::string quoted_alternatives(const std::vector<std::string>& names);

}  // namespace mpiarena
