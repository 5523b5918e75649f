# Unity builds: a target's sources compiled in batches of 8, one compiler
# run per batch, so the headers every source includes (Boost.MPI,
# nlohmann_json, spdlog) are parsed once a batch (docs/architecture.md,
# "Build and test time", has the figures). MPIARENA_UNITY (cache):
#
#   mpi  (default) the MPI layers: the SDK, the engine, the runner and the
#        start-up probe. The MPI-free layers (results, analysis, the file
#        commands) stay one object per source: their objects are then the
#        same command in the Open MPI build, the MPICH build and
#        e2e_files_without_mpi's build, and ccache compiles them once.
#   all  the MPI-free layers too (scripts/sanitize: its flags are its own,
#        so it shares no object with another build).
#   off  one object per source everywhere (a source that misses an include
#        is seen only so).
#
# A source whose file-local names clash with another's in its batch (two
# anonymous-namespace functions of one name) fails the build: give one a
# more telling name, or move the shared one to a header.
set(MPIARENA_UNITY "mpi" CACHE STRING
    "Unity builds: mpi (the MPI layers, default), all, off")
set_property(CACHE MPIARENA_UNITY PROPERTY STRINGS mpi all off)
if(NOT MPIARENA_UNITY MATCHES "^(mpi|all|off)$")
  message(FATAL_ERROR "MPIARENA_UNITY is '${MPIARENA_UNITY}'; accepted: mpi, all, off")
endif()

# mpiarena_unity(MPI|MPI_FREE <target>...): the targets' sources in batches
# when MPIARENA_UNITY says so for their layer.
function(mpiarena_unity layer)
  if(MPIARENA_UNITY STREQUAL "all" OR
     (MPIARENA_UNITY STREQUAL "mpi" AND layer STREQUAL "MPI"))
    set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
