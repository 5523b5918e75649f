// What the runner and mpiarena-startup know of the process before MPI: the
// launcher that started it, and the time for the records' context.
#pragma once

#include <string>

namespace mpiarena {

// This process's rank as the launcher announces it (Open MPI, PMIx, PMI,
// Slurm), for printing before MPI is initialised; 0 when not launched.
int launcher_rank();
// Whether a launcher (mpirun, srun) started this process.
bool under_launcher();
// Now, ISO 8601 in UTC (the records' context.start_time).
std::string iso_now();

}  // namespace mpiarena
