#!/usr/bin/env python3
"""The CMake configure the Spack recipe drives (docs/spack.md), without
Spack: Spack's standard CMake arguments followed by the recipe's
cmake_args (loaded as spack_recipe.py loads package.py) for ~tests and
each MPI provider installed here, a scratch bin/ standing in for the
provider's prefix in Spack (its mpicc and mpiexec: Debian's mpicc.openmpi
and mpiexec.openmpi, or mpicc.mpich and mpiexec.mpich), the other
dependencies from /usr. Each configure must succeed, name the provider's family
("-- MPI: Open MPI (...)"), and leave MPIARENA_MPI and
MPIARENA_BUILD_TESTS in the cache as the recipe set them.

    spack_configure.py ROOT WORKDIR

Exit 0 when every configure held, 77 when no provider is installed, else
1, one line per problem. Standard library only.
"""
import os
import shutil
import subprocess
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spack_recipe  # noqa: E402

FAMILIES = {"openmpi": "Open MPI", "mpich": "MPICH"}


def provider_bin(name, workdir):
    """A bin/ holding the provider's mpicc and mpiexec, or None."""
    mpicc = shutil.which(f"mpicc.{name}")
    mpiexec = shutil.which(f"mpiexec.{name}")
    if not mpicc or not mpiexec:
        return None
    fake = os.path.join(workdir, f"{name}-prefix", "bin")
    os.makedirs(fake, exist_ok=True)
    for tool, target in (("mpicc", mpicc), ("mpiexec", mpiexec)):
        link = os.path.join(fake, tool)
        if os.path.lexists(link):
            os.remove(link)
        os.symlink(os.path.realpath(target), link)
    return fake


def recipe_args(root, provider, mpi_bin):
    rec, cls = spack_recipe.load(os.path.join(root, spack_recipe.RECIPE))
    pkg = cls.__new__(cls)
    pkg.spec = spack_recipe.Spec({"tests": False}, provider)
    mpi = types.SimpleNamespace(
        mpicc=os.path.join(mpi_bin, "mpicc"),
        prefix=types.SimpleNamespace(bin=mpi_bin))
    pkg.spec.__class__ = type("Spec", (spack_recipe.Spec,),
                              {"__getitem__": lambda self, n: mpi})
    return pkg.cmake_args()


def spack_std_args(prefix):
    """Spack's CMakeBuilder.std_args for build_type=Release, the
    dependencies found through /usr."""
    return ["-G", "Unix Makefiles", f"-DCMAKE_INSTALL_PREFIX:STRING={prefix}",
            "-DCMAKE_INSTALL_RPATH_USE_LINK_PATH:BOOL=ON",
            f"-DCMAKE_INSTALL_RPATH:STRING={prefix}/lib;{prefix}/lib64",
            "-DCMAKE_PREFIX_PATH:STRING=/usr",
            "-DCMAKE_BUILD_TYPE:STRING=Release"]


def cache(build):
    values = {}
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        for line in f:
            if "=" in line and ":" in line.split("=")[0]:
                key, value = line.rstrip("\n").split("=", 1)
                values[key.split(":")[0]] = value
    return values


def configure(root, workdir, provider, mpi_bin):
    build = os.path.join(workdir, f"build-{provider}")
    shutil.rmtree(build, ignore_errors=True)
    args = recipe_args(root, provider, mpi_bin)
    cmd = (["cmake", "-S", root, "-B", build]
           + spack_std_args(os.path.join(workdir, "prefix")) + args)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print(p.stdout[-2000:])
    print(p.stderr[-2000:], file=sys.stderr)
    if p.returncode != 0:
        return [f"^{provider}: cmake exited {p.returncode}"]
    problems = []
    if f"-- MPI: {FAMILIES[provider]} (" not in p.stdout:
        problems.append(f"^{provider}: the configure did not find "
                        f"{FAMILIES[provider]}")
    c = cache(build)
    if c.get("MPIARENA_MPI") != provider:
        problems.append(f"^{provider}: MPIARENA_MPI={c.get('MPIARENA_MPI')}")
    if c.get("MPIARENA_BUILD_TESTS") != "OFF":
        problems.append(f"^{provider}: MPIARENA_BUILD_TESTS="
                        f"{c.get('MPIARENA_BUILD_TESTS')}, not OFF (~tests)")
    return problems


def main():
    root, workdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(workdir, exist_ok=True)
    problems, ran = [], 0
    for provider in FAMILIES:
        mpi_bin = provider_bin(provider, workdir)
        if mpi_bin is None:
            print(f"^{provider}: not installed (no mpicc.{provider})")
            continue
        ran += 1
        problems += configure(root, workdir, provider, mpi_bin)
    for p in problems:
        print(p)
    if not ran:
        print("SKIP: neither Open MPI nor MPICH is installed")
        return 77
    print("spack_configure:", "FAIL" if problems else "PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
