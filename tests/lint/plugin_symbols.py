#!/usr/bin/env python3
"""A plugin carries no analysis: no plugin's shared object needs a symbol
that the analysis library (reports, compare, trend, HTML, SVG) defines, nor
defines one itself, and none loads a library other than the SDK, the results
library, the MPI and system libraries (docs/architecture.md).

Arguments: the analysis archive (libmpiarena_analysis.a), then plugin
directories. Exit 0 when it holds, 1 with one line per problem.
"""
import glob
import os
import subprocess
import sys


def symbols(path, *flags):
    out = subprocess.run(["nm", "-D", "--format=posix", *flags, path],
                         capture_output=True, text=True, check=True).stdout
    return {line.split()[0] for line in out.splitlines() if line.strip()}


def main(analysis, dirs):
    out = subprocess.run(["nm", "--defined-only", "--format=posix", analysis],
                         capture_output=True, text=True, check=True).stdout
    # Archive members print as "file.o:" lines; symbols as "name type ...".
    # The analysis' own: strong global definitions (T, D, B, R) in namespace
    # mpiarena; weak ones are template instantiations any object may hold.
    analysis_syms = {f[0] for f in (l.split() for l in out.splitlines())
                     if len(f) >= 2 and f[1] in "TDBR" and
                     f[0].startswith(("_ZN8mpiarena", "_ZNK8mpiarena"))}
    if len(analysis_syms) < 50:
        print(f"the analysis archive defines only {len(analysis_syms)} global "
              "symbols: not the library this test means")
        return 1
    problems, plugins = [], []
    for d in dirs:
        plugins += sorted(glob.glob(os.path.join(d, "*.so")))
    for so in plugins:
        needed = symbols(so, "--undefined-only")
        defined = symbols(so, "--defined-only")
        both = (needed | defined) & analysis_syms
        if both:
            problems.append(f"{so}: uses {len(both)} analysis symbol(s), e.g. "
                            f"{sorted(both)[0]}")
        ldd = subprocess.run(["ldd", so], capture_output=True,
                             text=True).stdout
        for line in ldd.splitlines():
            lib = line.strip().split()[0] if line.strip() else ""
            if "mpiarena" in lib and not (lib.startswith("libmpiarena.so") or
                                          lib.startswith("libmpiarena_results.so")):
                problems.append(f"{so}: loads {lib}")
    for p in problems:
        print(p)
    print(f"plugin_symbols: {len(plugins)} plugins, {len(analysis_syms)} "
          f"analysis symbols, {len(problems)} problem(s)")
    return 1 if problems or not plugins else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
