# Unity builds: a target's sources compiled in batches of 8, one compiler
# run per batch, so the headers every source includes (Boost.MPI,
# nlohmann_json, spdlog, valijson) are parsed once a batch
# (docs/architecture.md, "Build and test time", has the figures).
# MPIARENA_UNITY (cache):
#
#   all  (default) every layer's libraries and programs (not the plugins
#        and test programs, one source each).
#   mpi  the MPI layers only: the SDK, the engine, the runner and the
#        start-up probe; the MPI-free layers (results, analysis, the file
#        commands) one object per source.
#   off  one object per source everywhere (a source that misses an include
#        is seen only so).
#
# The MPI-free layers' objects are the same compile in the Open MPI tree,
# the MPICH tree and e2e_files_without_mpi's tree, and ccache compiles them
# once: a batch is a file of the build tree that includes the sources by
# their absolute paths, so scripts/common.sh sets CCACHE_BASEDIR (paths
# relative to each tree, which sit side by side) and a generated source
# stays out of the batches (its own path differs from tree to tree).
#
# A source whose file-local names clash with another's in its batch (two
# anonymous-namespace functions of one name) fails the build: give one a
# more telling name, or move the shared one to a header.
set(MPIARENA_UNITY "all" CACHE STRING
    "Unity builds: all (default), mpi (the MPI layers only), off")
set_property(CACHE MPIARENA_UNITY PROPERTY STRINGS all mpi off)
if(NOT MPIARENA_UNITY MATCHES "^(all|mpi|off)$")
  message(FATAL_ERROR "MPIARENA_UNITY is '${MPIARENA_UNITY}'; accepted: all, mpi, off")
endif()

# mpiarena_unity(MPI|MPI_FREE <target>...): the targets' sources in batches
# when MPIARENA_UNITY says so for their layer.
function(mpiarena_unity layer)
  if(MPIARENA_UNITY STREQUAL "all" OR
     (MPIARENA_UNITY STREQUAL "mpi" AND layer STREQUAL "MPI"))
    set_target_properties(${ARGN} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()
