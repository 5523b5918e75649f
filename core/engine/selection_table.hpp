// MPICH's collective selection table (runner tune): the JSON
// text the running library selects its algorithms by. Either the file the
// launch gave it (MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE) or the table
// compiled into the library, read from the library file the process
// loaded (the MPIR-level table is the string there that starts with
// {"collective= and names MPIR_ algorithms). runner tune writes its
// winners into a copy of it, since a file given to MPICH replaces the whole
// table and a collective it leaves out aborts.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/results/doc_context_parts.hpp"

namespace mpiarena {

struct SelectionTable {
  std::string source;  // the file it was read from; empty: none found
  std::string text;    // the JSON, in the library's key order
  std::string why_none;
};

// Call under MPICH only, after MPI_Init.
SelectionTable mpich_selection_table();

// The tuning file the launch makes `library` ("Open MPI", "MPICH") load,
// as the context's tuning_file: its variable, path and digest
// (text_digest of its text; "" when it cannot be read); none when the
// launch loads none.
// Read from the environment (mpirun --mca sets it too): Open MPI's
// coll_tuned_dynamic_rules_filename with coll_tuned_use_dynamic_rules on,
// MPICH's MPIR_CVAR_COLL_SELECTION_TUNING_JSON_FILE. runner tune confirms
// a file with launches that loaded it (docs/tuning.md).
std::optional<TuningFileContext> loaded_tuning_file(
    const std::string& library);

}  // namespace mpiarena
