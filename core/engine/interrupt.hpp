// A run stopped from outside (Ctrl-C on mpirun, which passes SIGTERM to
// the ranks and kills them moments later; SIGINT, SIGHUP, SIGTERM sent to a
// rank): the -o file keeps its last write, a whole valid document with
// complete: false (each write is atomic); the handler removes the lock and
// the spare beside it (fileio::remove_remembered), rank 0 says so in one
// line, and the process ends with 128 + the signal's number.
#pragma once

#include <string>

namespace mpiarena {

// Installs the handler for SIGINT, SIGTERM and SIGHUP; `speaker`: this
// process writes the line (rank 0). Call after MPI_Init (which may install
// handlers of its own).
void install_interrupt_handler(bool speaker);

// What the speaker prints on stdout when a signal stops the run: the table
// of the points measured so far and where they are kept, rendered after
// each write of the results (the handler itself may only write(2) it).
// Empty: nothing.
void set_interrupt_summary(const std::string& text);

}  // namespace mpiarena
