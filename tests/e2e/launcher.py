#!/usr/bin/env python3
"""How the tests start an MPI job: the one place that knows each launcher's
flags and environment (CMake passes the build's MPIARENA_MPI as --launcher).

  openmpi  Open MPI's mpirun/mpiexec: --oversubscribe (the machines here have
           2 cores and the tests run up to 4 ranks), the same through
           OMPI_MCA_rmaps_base_oversubscribe for a command line built
           elsewhere, and as root OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM).
  mpich    MPICH's Hydra (mpiexec.mpich): oversubscribes and runs as root
           with no flag or variable; it rejects --oversubscribe.

As a program, for ctest and the shell scripts:

    launcher.py MPIEXEC LAUNCHER NP PROGRAM [ARG...]

runs PROGRAM on NP ranks (it becomes the launcher: same exit code).
"""
import os
import subprocess
import sys

LAUNCHERS = ("openmpi", "mpich")


def detect(mpiexec):
    """The launcher family of `mpiexec` from its --version (for a caller
    that was not told); Open MPI when it cannot tell."""
    try:
        p = subprocess.run([mpiexec, "--version"], capture_output=True, text=True,
                           timeout=30)
        if "HYDRA" in p.stdout + p.stderr:
            return "mpich"
    except (OSError, subprocess.SubprocessError):
        pass
    return "openmpi"


def flags(launcher):
    """Options that go right after the launcher, before any -np."""
    return ["--oversubscribe"] if launcher == "openmpi" else []


def environment(launcher, extra=None):
    """This process's environment with what `launcher` needs, and `extra`."""
    e = dict(os.environ)
    if launcher == "openmpi":
        if os.geteuid() == 0:
            e["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            e["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        e["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
    e.update(extra or {})
    return e


def command(mpiexec, launcher, np, argv):
    """The command line running argv on np ranks."""
    return [mpiexec] + flags(launcher) + ["-np", str(np)] + list(argv)


def main(argv):
    if len(argv) < 5 or argv[2] not in LAUNCHERS:
        print(__doc__, file=sys.stderr)
        return 2
    mpiexec, launcher, np = argv[1], argv[2], argv[3]
    cmd = command(mpiexec, launcher, np, argv[4:])
    sys.stdout.flush()
    os.execvpe(cmd[0], cmd, environment(launcher))
    return 127  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv))
