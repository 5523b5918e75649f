# Which MPI implementation mpiarena is built with, and whether Boost.MPI
# fits it (docs/mpi-implementations.md). Included by the top-level
# CMakeLists.txt in place of a bare find_package(MPI).
#
# MPIARENA_MPI (cache): openmpi (default) or mpich. On Debian both are
# installed side by side and the alternatives (mpicc, mpiexec) name one of
# them (scripts/setup pins Open MPI), so the choice is made here, through
# FindMPI's hints: the implementation's own compiler wrapper
# (mpicc.openmpi, mpicc.mpich) and launcher (mpiexec.openmpi,
# mpiexec.mpich = Hydra). A user's own -DMPI_C_COMPILER or
# -DMPIEXEC_EXECUTABLE wins; the mpi.h found must still be of the family
# asked for. Sets:
#   MPIARENA_MPI_NAME    "Open MPI" or "MPICH"
#   MPIARENA_OTHER_MPI   the other one (openmpi or mpich), for the test plugin
#                        built against its mpi.h
#   MPIARENA_BOOST_MPI   ON when Boost.MPI was built against this MPI: the
#                        boost_* plugins are built only then (Boost::mpi,
#                        Boost::serialization)
set(MPIARENA_MPI "openmpi" CACHE STRING
    "MPI implementation to build with: openmpi or mpich")
set_property(CACHE MPIARENA_MPI PROPERTY STRINGS openmpi mpich)
if(MPIARENA_MPI STREQUAL "openmpi")
  set(MPIARENA_MPI_NAME "Open MPI")
  set(MPIARENA_OTHER_MPI mpich)
  set(_mpiarena_family_macro OPEN_MPI)
elseif(MPIARENA_MPI STREQUAL "mpich")
  set(MPIARENA_MPI_NAME "MPICH")
  set(MPIARENA_OTHER_MPI openmpi)
  set(_mpiarena_family_macro MPICH_VERSION)
else()
  message(FATAL_ERROR "MPIARENA_MPI is '${MPIARENA_MPI}'; accepted: openmpi, mpich")
endif()
# FindMPI caches what it found: another MPI needs another build tree.
if(DEFINED MPIARENA_MPI_CONFIGURED AND NOT MPIARENA_MPI STREQUAL MPIARENA_MPI_CONFIGURED)
  message(FATAL_ERROR "this build tree was configured with "
    "MPIARENA_MPI=${MPIARENA_MPI_CONFIGURED}, and FindMPI's cached results "
    "belong to it: configure MPIARENA_MPI=${MPIARENA_MPI} in a new build directory")
endif()
set(MPIARENA_MPI_CONFIGURED ${MPIARENA_MPI} CACHE INTERNAL "MPIARENA_MPI of this tree")

find_program(MPIARENA_MPICC NAMES mpicc.${MPIARENA_MPI}
  DOC "${MPIARENA_MPI_NAME}'s C compiler wrapper (Debian's name)")
find_program(MPIARENA_MPIEXEC NAMES mpiexec.${MPIARENA_MPI}
  DOC "${MPIARENA_MPI_NAME}'s launcher (Debian's name)")
mark_as_advanced(MPIARENA_MPICC MPIARENA_MPIEXEC)
if(MPIARENA_MPICC AND NOT MPI_C_COMPILER)
  set(MPI_C_COMPILER ${MPIARENA_MPICC} CACHE FILEPATH "MPI C compiler wrapper")
endif()
if(MPIARENA_MPIEXEC AND NOT MPIEXEC_EXECUTABLE)
  set(MPIEXEC_EXECUTABLE ${MPIARENA_MPIEXEC} CACHE FILEPATH "MPI launcher")
endif()

# The MPI C API (MPI::MPI_C), never the deprecated C++ bindings.
find_package(MPI REQUIRED COMPONENTS C)

# The mpi.h found must be the family asked for (a stray MPI_C_COMPILER or
# alternative would otherwise build against the other one).
include(CheckSymbolExists)
set(CMAKE_REQUIRED_INCLUDES ${MPI_C_INCLUDE_DIRS})
set(CMAKE_REQUIRED_QUIET ON)
check_symbol_exists(${_mpiarena_family_macro} mpi.h MPIARENA_MPI_H_IS_${MPIARENA_MPI})
unset(CMAKE_REQUIRED_INCLUDES)
unset(CMAKE_REQUIRED_QUIET)
if(NOT MPIARENA_MPI_H_IS_${MPIARENA_MPI})
  message(FATAL_ERROR "MPIARENA_MPI=${MPIARENA_MPI}, but the mpi.h found "
    "(${MPI_C_INCLUDE_DIRS}, through ${MPI_C_COMPILER}) is not ${MPIARENA_MPI_NAME}'s; "
    "point MPI_C_COMPILER at ${MPIARENA_MPI_NAME}'s mpicc in a new build directory")
endif()
message(STATUS "MPI: ${MPIARENA_MPI_NAME} (${MPI_C_COMPILER}, launcher ${MPIEXEC_EXECUTABLE})")

# Boost.MPI is one compiled library built against one MPI (Debian's:
# Open MPI). Linked into a build with another MPI it would load both MPI
# libraries into one process. It fits when its shared library needs this
# MPI's library (readelf: a NEEDED entry equal to the SONAME of
# MPI_C_LIBRARIES); without readelf, when the MPI is Open MPI.
set(MPIARENA_BOOST_MPI OFF)
set(_mpiarena_why "")
find_package(Boost ${MPIARENA_BOOST_MIN_VERSION} QUIET COMPONENTS mpi serialization)
find_program(MPIARENA_READELF NAMES readelf)
mark_as_advanced(MPIARENA_READELF)
if(NOT TARGET Boost::mpi OR NOT TARGET Boost::serialization)
  set(_mpiarena_why "Boost.MPI or Boost.Serialization is not installed")
elseif(NOT MPIARENA_READELF)
  if(MPIARENA_MPI STREQUAL "openmpi")  # as Debian builds it
    set(MPIARENA_BOOST_MPI ON)
  else()
    set(_mpiarena_why "no readelf to check which MPI Boost.MPI was built against")
  endif()
else()
  get_target_property(_mpiarena_boost_mpi_lib Boost::mpi LOCATION)
  execute_process(COMMAND ${MPIARENA_READELF} -d ${_mpiarena_boost_mpi_lib}
                  OUTPUT_VARIABLE _mpiarena_out ERROR_QUIET)
  string(REGEX MATCHALL "Shared library: \\[[A-Za-z0-9_.+-]+\\]" _mpiarena_needed
         "${_mpiarena_out}")
  string(REGEX REPLACE "Shared library: \\[([A-Za-z0-9_.+-]+)\\]" "\\1" _mpiarena_needed
         "${_mpiarena_needed}")
  set(_mpiarena_sonames "")
  foreach(lib ${MPI_C_LIBRARIES})
    execute_process(COMMAND ${MPIARENA_READELF} -d ${lib}
                    OUTPUT_VARIABLE _mpiarena_out ERROR_QUIET)
    if(_mpiarena_out MATCHES "Library soname: \\[([A-Za-z0-9_.+-]+)\\]")
      list(APPEND _mpiarena_sonames ${CMAKE_MATCH_1})
      if(CMAKE_MATCH_1 IN_LIST _mpiarena_needed)
        set(MPIARENA_BOOST_MPI ON)
      endif()
    endif()
  endforeach()
  list(FILTER _mpiarena_needed INCLUDE REGEX "mpi")
  list(JOIN _mpiarena_needed ", " _mpiarena_needed)
  list(JOIN _mpiarena_sonames ", " _mpiarena_sonames)
  set(_mpiarena_why "${_mpiarena_boost_mpi_lib} was built against ${_mpiarena_needed}, "
      "${MPIARENA_MPI_NAME}'s library is ${_mpiarena_sonames}")
  string(CONCAT _mpiarena_why ${_mpiarena_why})
endif()
if(MPIARENA_BOOST_MPI)
  message(STATUS "Boost.MPI fits ${MPIARENA_MPI_NAME}: the Boost.MPI methods are built")
else()
  message(STATUS "Boost.MPI does not fit ${MPIARENA_MPI_NAME} (${_mpiarena_why}): "
    "the Boost.MPI methods (boost, boost_packed, boost_skeleton, boost_bytes, "
    "boost_datatype, boost_serialized) are left out")
endif()
