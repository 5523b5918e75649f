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

build_mpiarena() {
  build_mpiarena_in "$BUILD" "$@"
}

# build_mpiarena_in <build dir> [cmake options...]
build_mpiarena_in() {
  local dir=$1 jobs
  shift
  jobs=$(nproc 2>/dev/null || echo 2)
  cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@"
  cmake --build "$dir" -j "$jobs"
}
