// MPICH's collective selection table (issue 30, runner tune): the JSON
// text the running library selects its algorithms by. Either the file the
// launch gave it (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) or the table
// compiled into the library, read from the library file the process
// loaded (the MPIR-level table is the string there that starts with
// {"collective= and names MPIR_ algorithms). runner tune writes its
// winners into a copy of it, since a file given to MPICH replaces the whole
// table and a collective it leaves out aborts.
#pragma once

#include <string>

namespace mpiarena {

struct SelectionTable {
  std::string source;  // the file it was read from; empty: none found
  std::string text;    // the JSON, in the library's key order
  std::string why_none;
};

// Call under MPICH only, after MPI_Init.
SelectionTable mpich_selection_table();

}  // namespace mpiarena
