#!/usr/bin/env python3
"""The Spack recipe (integrations/spack/spack_repo/mpiarena/packages/
mpiarena/package.py, docs/spack.md) against the CMake build, without Spack.

package.py is loaded with a small stand-in for Spack's directives (version,
variant, depends_on, requires... recorded into lists) and for a spec, then:

1. every find_package of the build (CMakeLists.txt, cmake/, core/, runner/,
   plugins/, tests/) maps, through DEPENDENCIES below, to a depends_on of
   the recipe (or is named there as one Spack need not provide), with the
   build's minimum version as the recipe's lower bound, and each Boost
   COMPONENT as a variant of the recipe's boost;
2. cmake_minimum_required is the recipe's cmake@X: lower bound;
3. each variant sets a CMake option the build declares (option(...) or a
   cache STRING), and cmake_args of each variant value and MPI provider
   gives that option the value meant (-DMPIARENA_BUILD_TESTS:BOOL=ON...),
   within the option's declared STRINGS;
4. with --spack-packages GITDIR (a clone of spack/spack-packages, bare or
   not): every dependency is a package there and every variant the recipe
   asks of it is declared in its package.py (text search).

--selftest: the checks fail on copies of the recipe broken each way.
Exit 0 when all hold; else 1, one line per problem. Standard library only.
"""
import argparse
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import types

RECIPE = os.path.join("integrations", "spack", "spack_repo", "mpiarena",
                      "packages", "mpiarena", "package.py")
# CMake package -> Spack package (None: not Spack's to provide, with why).
DEPENDENCIES = {
    "nlohmann_json": "nlohmann-json", "spdlog": "spdlog",
    "valijson": "valijson", "ZLIB": "zlib-api", "SQLite3": "sqlite",
    "Boost": "boost", "MPI": "mpi", "GTest": "googletest",
    "Python3": "python",
    "Git": None,      # QUIET: the revision in the records, when there is one
    "Threads": None,  # the C library's
    "mpiarena": None,  # the project's own package, in its examples
}
# Dependencies only the tests need: the recipe's are `when="+tests"`.
TEST_ONLY = {"GTest", "Python3"}
# variant -> (CMake option, {variant value: the option's value}).
VARIANTS = {"tests": ("MPIARENA_BUILD_TESTS", {True: "ON", False: "OFF"})}
# MPI provider -> MPIARENA_MPI.
PROVIDERS = {"openmpi": "openmpi", "mpich": "mpich"}


class Recorded:
    def __init__(self):
        self.versions, self.variants, self.depends = [], {}, []
        self.requires = []


def stub_modules(rec):
    """Fake spack.package and spack_repo.builtin.build_systems.cmake."""
    pkg = types.ModuleType("spack.package")

    def depends_on(spec, when=None, type=None):
        rec.depends.append((spec, when))

    def variant(name, default=None, description="", values=None, **kw):
        rec.variants[name] = {"default": default, "values": values}

    names = {
        "version": lambda *a, **kw: rec.versions.append((a, kw)),
        "variant": variant, "depends_on": depends_on,
        "requires": lambda *s, **kw: rec.requires.append((s, kw)),
        "conflicts": lambda *a, **kw: None,
        "maintainers": lambda *a: None, "license": lambda *a, **kw: None,
        "join_path": os.path.join, "Executable": lambda p: None,
        "working_dir": None,
    }
    for k, v in names.items():
        setattr(pkg, k, v)
    pkg.__all__ = list(names)

    class CMakePackage:
        def define(self, name, value):
            if isinstance(value, bool):
                return f"-D{name}:BOOL={'ON' if value else 'OFF'}"
            return f"-D{name}:STRING={value}"

        def define_from_variant(self, name, variant):
            return self.define(name, self.spec.variants[variant])

    cm = types.ModuleType("spack_repo.builtin.build_systems.cmake")
    cm.CMakePackage = CMakePackage
    mods = {"spack": types.ModuleType("spack"), "spack.package": pkg,
            "spack_repo": types.ModuleType("spack_repo"),
            "spack_repo.builtin": types.ModuleType("spack_repo.builtin"),
            "spack_repo.builtin.build_systems":
                types.ModuleType("spack_repo.builtin.build_systems"),
            "spack_repo.builtin.build_systems.cmake": cm}
    return mods


class Spec:
    """A concrete spec as far as cmake_args asks: variants, the MPI
    provider, spec['mpi'].mpicc and .prefix.bin."""

    def __init__(self, variants, provider):
        self.variants, self.provider = variants, provider

    def satisfies(self, s):
        m = re.fullmatch(r"\^(?:\[virtuals=mpi\]\s*)?([\w-]+)", s.strip())
        if m:
            return m.group(1) == self.provider
        m = re.fullmatch(r"([+~])(\w+)", s.strip())
        if m:
            return self.variants[m.group(2)] == (m.group(1) == "+")
        raise ValueError(f"the stand-in spec cannot judge {s!r}")

    def __getitem__(self, name):
        prefix = f"/opt/{self.provider if name == 'mpi' else name}"
        return types.SimpleNamespace(
            mpicc=f"{prefix}/bin/mpicc",
            prefix=types.SimpleNamespace(bin=f"{prefix}/bin"))


def load(path):
    rec = Recorded()
    saved = {k: sys.modules.get(k) for k in stub_modules(rec)}
    sys.modules.update(stub_modules(rec))
    try:
        spec = importlib.util.spec_from_file_location("mpiarena_recipe", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return rec, mod.Mpiarena


def cmake_files(root):
    for top in ["CMakeLists.txt", "cmake", "core", "runner", "plugins",
                "tests"]:
        p = os.path.join(root, top)
        if os.path.isfile(p):
            yield p
        for d, _, files in os.walk(p):
            for f in files:
                if f == "CMakeLists.txt" or f.endswith(".cmake"):
                    yield os.path.join(d, f)


def cmake_facts(root):
    """find_package calls {name: (min version, components)}, the cache
    options {name: STRINGS or None}, cmake_minimum_required."""
    text = ""
    for f in cmake_files(root):
        with open(f) as h:
            text += "\n" + re.sub(r"#[^\n]*", "", h.read())
    variables = dict(re.findall(r"set\((\w+)\s+([\d.]+)\)", text))
    found = {}
    for args in re.findall(r"find_package\(([^)]*)\)", text):
        words = args.split()
        name, rest = words[0], words[1:]
        ver = rest[0] if rest and re.match(r"[\d$]", rest[0]) else None
        if ver and ver.startswith("${"):
            ver = variables.get(ver[2:-1])
        comps = []
        if "COMPONENTS" in rest:
            comps = [w for w in rest[rest.index("COMPONENTS") + 1:]
                     if w.isidentifier() and not w.isupper()]
        old = found.get(name, (None, []))
        found[name] = (ver or old[0], sorted(set(old[1] + comps)))
    options = {n: None for n in re.findall(r"option\((\w+)", text)}
    for n in re.findall(r"set\((\w+)\s+\"[^\"]*\"\s+CACHE\s+STRING", text):
        m = re.search(rf"set_property\(CACHE\s+{n}\s+PROPERTY\s+STRINGS"
                      r"([^)]*)\)", text)
        options[n] = m.group(1).split() if m else None
    cmin = re.search(r"cmake_minimum_required\(VERSION\s+([\d.]+)", text)
    return found, options, cmin.group(1) if cmin else None


def split_spec(s):
    """'boost@1.74: +a +b' -> ('boost', '1.74:', {'a', 'b'})."""
    m = re.match(r"([\w-]+)(?:@([\w.:]+))?(.*)", s.replace(" ", ""))
    return m.group(1), m.group(2), set(re.findall(r"\+(\w+)", m.group(3)))


def check_dependencies(rec, found, cmin):
    problems = []
    deps = {}
    for spec, when in rec.depends:
        name, ver, variants = split_spec(spec)
        deps[name] = (ver, variants, when)
    for cm, (ver, comps) in sorted(found.items()):
        if cm not in DEPENDENCIES:
            problems.append(f"find_package({cm}): not in this lint's "
                            "DEPENDENCIES (add it and a depends_on)")
            continue
        sp = DEPENDENCIES[cm]
        if sp is None:
            continue
        if sp not in deps:
            problems.append(f"find_package({cm}): no depends_on(\"{sp}\")")
            continue
        dver, variants, when = deps[sp]
        if ver and dver != f"{ver}:":
            problems.append(f"{sp}: the build needs {ver} or later, the "
                            f"recipe asks @{dver}")
        for c in comps if cm == "Boost" else ():
            if c not in variants:
                problems.append(f"{sp}: the build's COMPONENTS {c}, the "
                                f"recipe lacks +{c}")
        if (cm in TEST_ONLY) != (when == "+tests"):
            problems.append(f"{sp}: when={when!r}, expected "
                            f"{'+tests' if cm in TEST_ONLY else 'always'}")
    if cmin and deps.get("cmake", (None,))[0] != f"{cmin}:":
        problems.append(f"cmake: cmake_minimum_required {cmin}, the recipe "
                        f"asks {deps.get('cmake')}")
    return problems, deps


def check_variants(rec, cls, options):
    problems = []
    for v in rec.variants:
        if v not in VARIANTS:
            problems.append(f"variant {v!r}: not in this lint's VARIANTS")
    for v, (opt, values) in VARIANTS.items():
        if v not in rec.variants:
            problems.append(f"no variant {v!r}")
        if opt not in options:
            problems.append(f"variant {v!r}: the build declares no {opt}")
    if "MPIARENA_MPI" not in options:
        problems.append("the build declares no MPIARENA_MPI")
    for provider, family in PROVIDERS.items():
        for value in (True, False):
            pkg = cls.__new__(cls)
            pkg.spec = Spec({v: value for v in VARIANTS}, provider)
            args = pkg.cmake_args()
            want = [f"-D{opt}:BOOL={vals[value]}"
                    for opt, vals in VARIANTS.values()]
            want.append(f"-DMPIARENA_MPI:STRING={family}")
            for w in want:
                if w not in args:
                    problems.append(f"^{provider} tests={value}: cmake_args "
                                    f"{args} lack {w}")
            strings = options.get("MPIARENA_MPI") or []
            if family not in strings:
                problems.append(f"MPIARENA_MPI={family}: not in the build's "
                                f"STRINGS {strings}")
    return problems


def check_builtin(gitdir, deps):
    """Each dependency a package of spack-packages, its variants declared."""
    problems = []
    for name, (_, variants, _) in sorted(deps.items()):
        if name in ("c", "cxx"):
            continue
        path = ("repos/spack_repo/builtin/packages/"
                f"{name.replace('-', '_')}/package.py")
        p = subprocess.run(["git", "-C", gitdir, "show", f"HEAD:{path}"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            provided = subprocess.run(
                ["git", "-C", gitdir, "grep", "-l", f'provides("{name}"',
                 "HEAD", "--", "repos/spack_repo/builtin/packages"],
                capture_output=True, text=True).stdout
            if not provided:
                problems.append(f"{name}: no package and no provider")
            continue
        for v in variants:
            if not re.search(rf"variant\(\s*\"{v}\"|\"{v}\",", p.stdout):
                problems.append(f"{name}: no variant {v!r} in {path}")
    return problems


def lint(root, recipe, gitdir=None):
    rec, cls = load(recipe)
    found, options, cmin = cmake_facts(root)
    problems, deps = check_dependencies(rec, found, cmin)
    problems += check_variants(rec, cls, options)
    if not any(v[1].get("branch") == "main" for v in rec.versions):
        problems.append('no version("main", branch="main")')
    if gitdir:
        problems += check_builtin(gitdir, deps)
    return problems


def selftest(root, recipe):
    """Each broken copy must fail the lint."""
    with open(recipe) as f:
        good = f.read()
    breaks = {
        "a dependency dropped": ('    depends_on("sqlite")\n', ""),
        "a Boost component dropped": ("+serialization", ""),
        "an old lower bound": ("nlohmann-json@3.10:", "nlohmann-json@3.9:"),
        "the tests option renamed": ('"MPIARENA_BUILD_TESTS"', '"BUILD_TESTS"'),
        "the MPI family wrong": ('return "mpich"', 'return "openmpi"'),
    }
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for what, (old, new) in breaks.items():
            if old not in good:
                failures.append(f"{what}: {old!r} not in the recipe")
                continue
            path = os.path.join(tmp, "package.py")
            with open(path, "w") as f:
                f.write(good.replace(old, new, 1))
            if not lint(root, path):
                failures.append(f"{what}: the lint passed")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap.add_argument("--spack-packages")
    ap.add_argument("--selftest", action="store_true")
    a = ap.parse_args()
    recipe = os.path.join(a.root, RECIPE)
    if a.selftest:
        problems = selftest(a.root, recipe)
    else:
        problems = lint(a.root, recipe, a.spack_packages)
    for p in problems:
        print(p)
    print("spack_recipe:", "FAIL" if problems else "PASS")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
