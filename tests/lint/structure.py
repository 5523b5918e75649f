#!/usr/bin/env python3
"""The shape of the code in core/ and runner/ (docs/architecture.md).

1. Layers: a quoted include names its room, the header's path from the
   repository's top ("core/results/records.hpp"), never a bare file name;
   each file of a layer includes only headers of its own layer and of the
   layers below it, and no header of a lower layer includes mpi.h where
   the layer is MPI-free (results, analysis, runner/files and the option
   parsing). In tests/, plugins/ and bench/, a quoted include is a file of
   the includer's own folder or a path from the top.
2. No source or header file over 400 lines.
3. No function over 80 lines (from the first line of its signature to its
   closing brace): free functions, member functions defined in or out of
   their class, constructors.
4. The map (docs/architecture.md, "The map") matches the tree: a "### `X/`"
   heading for every folder of core/ and runner/ that holds files and for
   no other, and under it every file of X named in backticks, by its name
   or its stem (`report` for report.hpp and report.cpp).

Exit 0 when all hold; else 1, one line per problem. Standard library only.
"""
import os
import re
import sys

MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80

# The rooms of core/analysis (core/analysis/CMakeLists.txt): room -> the
# rooms below it that it may use.
ROOMS = {
    "stats": set(),
    "svg": set(),
    "text": {"svg"},
    "report": {"stats", "text", "svg"},
    "compare": {"stats", "text"},
    "tuning": {"stats", "text"},
    "html": {"report", "compare", "stats", "text", "svg"},
    "trend": {"html", "compare", "report", "stats", "text", "svg"},
    "history": {"trend", "html", "compare", "report", "stats", "text", "svg"},
}
ANALYSIS = {f"core/analysis/{r}" for r in ROOMS}

# Folder -> the folders its files may include from (itself included).
LAYERS = {
    "core/results": {"core/results"},
    "core/sdk": {"core/sdk", "core/results"},
    "core/engine": {"core/engine", "core/sdk", "core/results"},
    "runner/files": {"runner/files", "runner", "core/results"} | ANALYSIS,
    "runner": {"runner", "runner/files", "core/engine", "core/sdk",
               "core/results"} | ANALYSIS,
    "runner/startup": {"runner/startup", "runner", "core/results"} | ANALYSIS,
}
for room, uses in ROOMS.items():
    LAYERS[f"core/analysis/{room}"] = {f"core/analysis/{u}" for u in
                                       uses | {room}} | {"core/results"}
# Files that must build without MPI, beside the MPI-free layers.
MPI_FREE_RUNNER = {"options.cpp", "options.hpp", "options_check.cpp",
                   "options_parse.hpp", "option_values.cpp", "settings.cpp",
                   "ranks.cpp", "reporters.cpp", "reporters.hpp",
                   "reporter_osu.cpp", "reporter_osu.hpp",
                   "osu_programs.cpp", "osu_programs.hpp"}
MPI_FREE_LAYERS = {"core/results", "runner/files"} | ANALYSIS
# Public headers a MPI-free layer may include: the pure ones.
PURE_PUBLIC = {"sizes.hpp", "stats.hpp", "payload.hpp", "operation.hpp",
               "suite_names.hpp"}

CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|else|do|try|return|"
                     r"namespace|struct|class|union|enum)\b")


def strip(line):
    """The code of a line: string and character literals emptied, the
    comment removed."""
    line = re.sub(r'"(\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(\\.|[^'\\])*'", "''", line)
    return line.split("//")[0]


def functions(lines):
    """(first line, last line, signature) of every function body."""
    code = [strip(l) for l in lines]
    found, stack = [], []
    for n, line in enumerate(code):
        for col, ch in enumerate(line):
            if ch == "{":
                before = line[:col].rstrip()
                # The signature may span lines: join back to the line after
                # the previous statement, block or blank line.
                k = n
                text = before
                while (k > 0 and not re.search(r"[;{}]\s*$", code[k - 1])
                       and code[k - 1].strip() and not text.lstrip()
                       .startswith("#")):
                    k -= 1
                    text = code[k].rstrip() + " " + text
                sig = text.strip()
                is_function = (
                    re.search(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?"
                              r"(final\s*)?(->\s*[\w:<>&*\s]+)?$", sig)
                    or re.search(r"\)\s*:\s*.*[\w>)\]}]$", sig))  # ctor init
                is_function = bool(is_function) and not CONTROL.match(sig) \
                    and "](" not in sig and not sig.startswith("[") \
                    and "=" not in sig.split("(")[0]
                stack.append((n, k, sig if is_function else None))
            elif ch == "}" and stack:
                opened, first, sig = stack.pop()
                if sig is not None:
                    found.append((first + 1, n + 1, sig[:70]))
    return found


def main(root):
    problems = []
    for top in ("core", "runner"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                folder = os.path.dirname(rel)
                lines = open(path, encoding="utf-8").read().split("\n")
                if lines and lines[-1] == "":
                    lines.pop()
                if len(lines) > MAX_FILE_LINES:
                    problems.append(f"{rel}: {len(lines)} lines, more than "
                                    f"{MAX_FILE_LINES}")
                for first, last, sig in functions(lines):
                    if last - first + 1 > MAX_FUNCTION_LINES:
                        problems.append(
                            f"{rel}:{first}: a function of {last - first + 1}"
                            f" lines, more than {MAX_FUNCTION_LINES}: {sig}")
                problems += includes(root, rel, folder, f, lines)
    problems += outside_includes(root)
    problems += map_problems(root)
    for p in problems:
        print(p)
    print(f"structure: {len(problems)} problem(s)")
    return 1 if problems else 0


MAP_DOC = os.path.join("docs", "architecture.md")
SOURCE_ENDINGS = (".cpp", ".hpp", ".in", "CMakeLists.txt")


def map_sections(root):
    """Folder -> the names in backticks of its section of the map."""
    text = open(os.path.join(root, MAP_DOC), encoding="utf-8").read()
    if "\n## The map\n" not in text:
        return None
    text = text.split("\n## The map\n", 1)[1].split("\n## ", 1)[0]
    sections, current = {}, None
    for line in text.split("\n"):
        m = re.match(r"###\s+`([^`]+)/`\s*$", line)
        if m:
            current = m.group(1)
            sections.setdefault(current, set())
        elif current is not None:
            sections[current].update(re.findall(r"`([^`]+)`", line))
    return sections


def map_problems(root):
    sections = map_sections(root)
    if sections is None:
        return [f"{MAP_DOC}: no section \"## The map\""]
    problems, folders = [], set()
    for top in ("core", "runner"):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            files = sorted(f for f in files if f.endswith(SOURCE_ENDINGS))
            if not files:
                continue
            folder = os.path.relpath(d, root)
            folders.add(folder)
            if folder not in sections:
                problems.append(f"{folder}/: a folder the map of {MAP_DOC} "
                                "does not name (add a \"### `" + folder +
                                "/`\" section)")
                continue
            for f in files:
                stem = f.split(".")[0]
                if f not in sections[folder] and stem not in sections[folder]:
                    problems.append(f"{folder}/{f}: not on the map of "
                                    f"{MAP_DOC} (name `{f}` or `{stem}` "
                                    f"under \"### `{folder}/`\")")
    for folder in sorted(set(sections) - folders):
        problems.append(f"{MAP_DOC}: the map names {folder}/, which holds no "
                        "source file")
    return problems


def includes(root, rel, folder, name, lines):
    """A quoted include names its room: the header's path from the
    repository's top (cmake/MpiarenaRooms.cmake), of a layer this folder
    may include from."""
    problems = []
    if folder == "core/include/mpiarena":
        return problems
    allowed = LAYERS.get(folder)
    if allowed is None:
        return [f"{rel}: a folder outside the layers of docs/architecture.md"]
    mpi_free = folder in MPI_FREE_LAYERS or (
        folder == "runner" and name in MPI_FREE_RUNNER)
    for n, line in enumerate(lines, 1):
        m = re.match(r'\s*#\s*include\s*([<"])([^>"]+)[>"]', line)
        if not m:
            continue
        kind, header = m.groups()
        if kind == "<":
            if mpi_free and (header == "mpi.h" or (
                    header.startswith("mpiarena/")
                    and header[len("mpiarena/"):] not in PURE_PUBLIC)):
                problems.append(f"{rel}:{n}: includes <{header}> in a layer "
                                "that builds without MPI")
            continue
        where = os.path.dirname(header)
        if "/" not in header:
            problems.append(f"{rel}:{n}: includes \"{header}\" by its bare "
                            "name; name its room, the path from the top "
                            f"(\"{folder}/{header}\" if it is this folder's)")
        elif not os.path.isfile(os.path.join(root, header)):
            problems.append(f"{rel}:{n}: includes \"{header}\", which no "
                            "layer holds")
        elif where not in allowed:
            problems.append(f"{rel}:{n}: includes \"{header}\" of "
                            f"{where}, a layer above {folder} or beside it")
        elif mpi_free and where == "runner" and \
                os.path.basename(header) not in MPI_FREE_RUNNER:
            problems.append(f"{rel}:{n}: includes \"{header}\", which needs "
                            "MPI, from a file that builds without it")
    return problems


def outside_includes(root):
    """tests/, plugins/ and bench/: a quoted include is a file of the
    includer's own folder or a path from the top."""
    problems = []
    for top in ("tests", "plugins", "bench"):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".hpp", ".c", ".h")):
                    continue
                path = os.path.join(d, f)
                rel = os.path.relpath(path, root)
                text = open(path, encoding="utf-8").read().split("\n")
                for n, line in enumerate(text, 1):
                    m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
                    if not m:
                        continue
                    header = m.group(1)
                    if os.path.isfile(os.path.join(d, header)) and \
                            "/" not in header:
                        continue
                    if not os.path.isfile(os.path.join(root, header)):
                        problems.append(
                            f"{rel}:{n}: includes \"{header}\", neither a "
                            "file of its folder nor a path from the top")
    return problems


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else
                  os.path.join(os.path.dirname(__file__), "..", "..")))
