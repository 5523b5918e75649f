// The MPI tool information interface (MPI_T): the control variables
// (cvars) by name, read and written (library_algorithms.cpp), and the
// library's own settings of a run (the context's mpi_settings.library).
// Needs MPI initialised and MPI_T initialised by the caller
// (MPI_T_init_thread), except library_settings, which initialises it.
#pragma once

#include <mpi.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

// The MPI_T index of control variable `name`, or -1.
int cvar_index(const std::string& name);

// The variable's description, and its enumeration (MPI_T_ENUM_NULL when
// none); "" when MPI_T gives no information on it.
std::string cvar_description(int index, MPI_T_enum& enumtype);

// The variable's int value; false when it cannot be read.
bool cvar_read(int index, int& value);

// Writes an int variable: MPI_SUCCESS or the MPI_T error.
int cvar_write(int index, int value);

// The items of an enumeration: (value, name) each, in order.
std::vector<std::pair<int, std::string>> enum_items(MPI_T_enum e);

// The variable's value as text: a string as it is, a number in decimal,
// an enumerated value by its name. nullopt when it cannot be read (bound
// to an MPI object, of another type, or refused).
std::optional<std::string> cvar_text(int index);

// What the library reports of its own settings through MPI_T, by variable
// name, for the run's `environment` (its recorded variables,
// mpi_settings.hpp). Open MPI: the selection variables pml, btl, mtl, osc
// and coll, and the variable of each OMPI_MCA_<x> as the library read it
// (<x>); MPICH: the variable of each MPIR_CVAR_<X> and MPICH_<X>
// (MPIR_CVAR_<X>). MPI_T gives no variable's default, so no more is
// recorded; nor which components a run selected in the end (no variable
// holds it). `library`: mpi_library_name(). Empty for another library or
// when MPI_T cannot be initialised. Local (no communication).
std::map<std::string, std::string> library_settings(
    const std::string& library,
    const std::map<std::string, std::string>& environment);

}  // namespace mpiarena
