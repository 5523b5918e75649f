// Where the guides the programs cite are: the installed copy
// (<prefix>/share/doc/mpiarena, GNUInstallDirs' CMAKE_INSTALL_DOCDIR), or
// the source tree's docs/ for a program run from its build tree. --help,
// compare's notes and the other messages name a guide as "docs/NAME.md";
// cite_docs() spells that as the file a reader can open.
#pragma once

#include <cstddef>
#include <string>

namespace mpiarena {

// The guides' directory for a program in `exe_dir`: <exe_dir>/../<docdir>
// when it exists (an installed program, wherever the prefix was moved),
// else the source tree's docs/ when it exists (a program of the build
// tree), else the configured <prefix>/<docdir>.
std::string doc_dir_for(const std::string& exe_dir);
// The same for this program (/proc/self/exe), found once.
const std::string& doc_dir();
// `text` with every citation "docs/NAME" (not inside a longer path) spelt
// doc_dir() + "/NAME".
std::string cite_docs(const std::string& text);
// `text` as cite_docs() spells it with the guides in `dir`.
std::string cite_docs_in(const std::string& text, const std::string& dir);
// The same for a text laid out in columns at most `width` wide (--help): a
// line the longer path makes wider is broken before the citation, which
// goes on a line of its own at the column of the line's text; a path is
// never cut.
std::string cite_docs_wrapped(const std::string& text, std::size_t width);
std::string cite_docs_wrapped_in(const std::string& text, std::size_t width,
                                 const std::string& dir);

}  // namespace mpiarena
