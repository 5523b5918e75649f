// The MPI library's own algorithms of the collectives (runner --algorithms),
// found through the MPI tool information interface (MPI_T) at run time: no
// algorithm number is written into mpiarena.
//
// Open MPI (coll/tuned): the control variable coll_tuned_<collective>_
// algorithm and its MPI_T enumeration (0 = "ignore": the library's
// decision). Written after MPI_Init, it holds for the communicators created
// after the write, and only when coll_tuned_use_dynamic_rules was on at
// MPI_Init, which only the environment can set
// (prepare_library_algorithms). A launch may also force one algorithm a
// collective through its environment (OMPI_MCA_coll_tuned_<c>_algorithm),
// which discovery reads back as the launch's value.
//
// MPICH (4.x): MPIR_CVAR_<COLLECTIVE>_INTRA_ALGORITHM, without an MPI_T
// enumeration: its values are the items of the variable's description in
// order ("auto" = 0, the library's decision), which parse_mpich_algorithms
// reads; it can be written after MPI_Init, and the library reads it at each
// call, so a run switches between algorithms point by point.
#pragma once

#include <string>
#include <vector>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

struct LibraryAlgorithm {
  int value = 0;     // the control variable's value
  std::string name;  // the library's name of it
};

struct CollectiveAlgorithms {
  std::string collective;  // "allreduce"
  std::string variable;    // the MPI_T control variable; empty: none found
  // The library's choices, without its own decision (value 0).
  std::vector<LibraryAlgorithm> algorithms;
  // The variable's value when the run started: 0 (the library decides), or
  // what the launch forced (Open MPI's environment).
  int launch_value = 0;
  std::string launch_name;  // "ignore", "auto", or the forced algorithm
  std::string own_choice;   // the name of value 0: "auto", "ignore"
  // Whether the run may change the variable (MPICH: yes; Open MPI: when
  // its dynamic rules are on, which prepare_library_algorithms asks for).
  bool writable = false;
  // When the library reads it: at each call (MPICH), or when a
  // communicator is created (Open MPI: a communicator keeps the algorithm
  // the variable held at its creation).
  bool at_creation = false;
  std::string why_none;   // when `algorithms` is empty: why
  std::string why_fixed;  // when not `writable`: why
};

// Before MPI_Init, for a run that switches algorithms: Open MPI's coll/tuned
// reads a forced algorithm only with its dynamic rules on, which only the
// environment can set (OMPI_MCA_coll_tuned_use_dynamic_rules=1; a value the
// launch gave is kept). Harmless elsewhere.
void prepare_library_algorithms();

// "Open MPI", "MPICH" or "other" (MPI_Get_library_version).
std::string mpi_library_name();

// The algorithms of every collective of library_collectives()
// (suite_info.hpp), then of every other collective the library names an
// algorithm variable for (found among its MPI_T control variables: Open
// MPI's coll_tuned_<c>_algorithm, MPICH's MPIR_CVAR_<C>_INTRA_ALGORITHM).
// Collective
// over nothing (MPI_T only); needs MPI initialised. Opens an MPI_T session
// that AlgorithmSelector keeps until the end of the run.
std::vector<CollectiveAlgorithms> discover_algorithms();

// The items of an MPICH enumerated variable's description (a heading,
// then "name - text" items joined without separators, the names after the
// first padded to one column; an algorithm variable's first is "auto"), in
// order: item k has the value k. Empty, with `why` set, when the text is
// not of that form. MPICH also sets MPIR_CVAR_COLLECTIVE_FALLBACK to its
// item "error" in discover_algorithms.
std::vector<LibraryAlgorithm> parse_mpich_algorithms(
    const std::string& description, std::string& why);

// Switches the library's algorithm of one collective before a step of a
// point (engine's GroupMember::enter), and back to every variable's launch
// value otherwise. Writes only what differs from the current value.
class AlgorithmSelector {
 public:
  static AlgorithmSelector& instance();
  void init(const std::vector<CollectiveAlgorithms>& found);
  bool active() const { return !vars_.empty(); }
  // The collective's variable at `value`, every other at its launch value;
  // collective "": all at their launch values. Throws std::runtime_error
  // when the library refuses a write.
  void select(const std::string& collective, int value);
  // Every variable back to its launch value (no throw).
  void restore() noexcept;

 private:
  struct Var {
    std::string collective, name;
    int index = -1, launch = 0, current = 0;
    bool writable = false;
  };
  void write(Var& v, int value);
  std::vector<Var> vars_;
};

}  // namespace mpiarena
