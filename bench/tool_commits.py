"""Which commit of a tool a bench measured: the git commit of its tree and
the source directories its CMake build recorded."""
import os
import subprocess


def git_head(path, aside=()):
    """PATH's commit, with '+changes' when its tracked files differ from it
    (the paths matching the patterns ASIDE apart, e.g. the bench's own
    output); None when PATH is no git tree."""
    try:
        head = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"],
                              capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", path, "status", "--porcelain",
                                "--untracked-files=no", "--", ".",
                                *(":!" + p for p in aside)],
                               capture_output=True, text=True).stdout.strip()
        return head + ("+changes" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return None


def cmake_cache(build, key):
    """The value of KEY in BUILD/CMakeCache.txt (a source directory of a
    reference built with CMake), or None."""
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return None
