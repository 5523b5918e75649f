// What the runner and mpiarena-startup know of the process before MPI: the
// launcher that started it (the time for the records' context is
// dates.hpp's iso_now()).
#pragma once

#include <string>

namespace mpiarena {

// This process's rank as the launcher announces it (Open MPI, PMIx, PMI,
// Slurm), for printing before MPI is initialised; 0 when not launched.
int launcher_rank();
// Whether a launcher (mpirun, srun) started this process.
bool under_launcher();

}  // namespace mpiarena
