# A Spack recipe for mpiarena (docs/spack.md). Spack v1 layout: this
# repository is integrations/spack/spack_repo/mpiarena (namespace mpiarena).

from spack_repo.builtin.build_systems.cmake import CMakePackage

from spack.package import *


class Mpiarena(CMakePackage):
    """Which way of moving this data is fastest, at which size, on this
    machine: an MPI benchmark runner whose methods are plugins, every byte
    moved verified, every point kept with its raw samples in JSON records
    checked against a schema, and a statistical regression gate."""

    homepage = "https://example.org/mpiarena"
    # A placeholder: a site sets the address of its clone of the repository.
    git = "https://example.org/mpiarena.git"

    version("main", branch="main")

    # MPIARENA_BUILD_TESTS: the unit and end-to-end tests (ctest), built in
    # the build tree, never installed. `spack install --test=root` runs
    # their quick tier (check below).
    variant("tests", default=False, description="Build the unit and end-to-end tests")

    depends_on("c", type="build")
    depends_on("cxx", type="build")
    depends_on("cmake@3.18:", type="build")

    # The virtual mpi: CMake's MPIARENA_MPI names the family, openmpi or
    # mpich, and the build checks that mpi.h is that family's.
    depends_on("mpi")
    requires(
        "^[virtuals=mpi] openmpi",
        "^[virtuals=mpi] mpich",
        policy="one_of",
        msg="mpiarena is built and tested with Open MPI or MPICH",
    )

    # program_options (the command line), filesystem (Boost.DLL, the
    # plugins), mpi and serialization (the Boost.MPI methods); Boost.DLL
    # itself is header-only.
    depends_on("boost@1.74: +program_options +filesystem +mpi +serialization")
    depends_on("nlohmann-json@3.10:")
    depends_on("spdlog")
    depends_on("valijson")
    depends_on("zlib-api")
    depends_on("sqlite")

    depends_on("googletest", type=("build", "link"), when="+tests")
    depends_on("python@3:", type=("build", "test"), when="+tests")

    def mpi_family(self):
        """CMake's MPIARENA_MPI for the spec's MPI provider."""
        if self.spec.satisfies("^[virtuals=mpi] openmpi"):
            return "openmpi"
        return "mpich"

    def cmake_args(self):
        mpi = self.spec["mpi"]
        return [
            self.define_from_variant("MPIARENA_BUILD_TESTS", "tests"),
            self.define("MPIARENA_MPI", self.mpi_family()),
            self.define("MPI_C_COMPILER", mpi.mpicc),
            self.define("MPIEXEC_EXECUTABLE", join_path(mpi.prefix.bin, "mpiexec")),
        ]

    def check(self):
        """The quick tier of the tests: unit tests and file commands, no
        MPI job (tests/README.md)."""
        if self.spec.satisfies("+tests"):
            # ctest: set by Spack's cmake for the packages that build with it
            with working_dir(self.build_directory):
                ctest("-L", "^(unit|file)$", "-LE", "slow", "--output-on-failure")
