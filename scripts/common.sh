# Shared by scripts/demo and scripts/test: set-up, MPI environment, build.
# Source it; it defines ROOT, BUILD and the functions build_mpiarena and
# build_mpiarena_in.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${MPIARENA_BUILD_DIR:-$ROOT/build}

"$ROOT/scripts/setup"

# Open MPI refuses to run as root unless told; set it only when root.
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# ccache, when installed (scripts/setup installs it): the MPI-free layers
# compile with the same command in the Open MPI build, the MPICH build and
# e2e_files_without_mpi's build, so scripts/test compiles them once. CMake
# reads CMAKE_<LANG>_COMPILER_LAUNCHER at a build directory's first
# configure, the nested builds of the tests included. The cache lives in the
# checkout (.ccache), so a fresh clone starts cold; CCACHE_DIR overrides it,
# MPIARENA_CCACHE=0 turns it off. The unity batches (cmake/MpiarenaUnity.cmake)
# are files of each tree: CCACHE_BASEDIR, the directory holding the source
# and the build trees, makes ccache see their paths relative to the tree,
# the same in <build>, <build>-mpich and <build>-files-only, which sit side
# by side (not set when that directory would be /).
if [ "${MPIARENA_CCACHE:-1}" != 0 ] && command -v ccache >/dev/null 2>&1; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CMAKE_C_COMPILER_LAUNCHER=ccache
  export CCACHE_DIR=${CCACHE_DIR:-$ROOT/.ccache}
  if [ -z "${CCACHE_BASEDIR:-}" ]; then
    base=$(python3 -c 'import os, sys; print(os.path.commonpath([sys.argv[1], os.path.dirname(os.path.abspath(sys.argv[2]))]))' "$ROOT" "$BUILD")
    [ "$base" = / ] || export CCACHE_BASEDIR=$base
    unset base
  fi
fi

build_mpiarena() {
  build_mpiarena_in "$BUILD" "$@"
}

# build_mpiarena_in <build dir> [cmake options...]: configures and builds
# every target, or only those named in BUILD_TARGETS (a space-separated
# list, e.g. mpiarena_programs: the programs and plugins, no tests).
build_mpiarena_in() {
  local dir=$1 jobs targets=()
  shift
  jobs=$(nproc 2>/dev/null || echo 2)
  [ -z "${BUILD_TARGETS:-}" ] || read -r -a targets <<<"--target $BUILD_TARGETS"
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$jobs" "${targets[@]}"
}
