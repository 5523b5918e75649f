"""Reading the raw data under docs/results, plain or gzip-compressed.

docs/results keeps its raw data gzip-compressed (`gzip -9n`: FILE.json.gz,
FILE.jsonl.gz, FILE.txt.gz). The renderers name the plain file; these
helpers read FILE, or FILE.gz when FILE is not there, and decompress any
file whose bytes are gzip data (1f 8b), whatever its name:

    from bench_io import open, exists, glob

`open` in a write mode is the built-in one. A bench that writes raw data
into docs/results ends with gzip_tree(DIR) before it renders. `glob` gives the
names without `.gz`, so a renderer sees the same names either way."""
import builtins
import glob as _glob
import gzip
import os
import shutil
import subprocess

GZIP_MAGIC = b"\x1f\x8b"


def stored(path):
    """The file that holds PATH's data: PATH, or PATH.gz when only that
    exists (PATH itself when neither does, so that the error names it)."""
    if not os.path.exists(path) and os.path.exists(str(path) + ".gz"):
        return str(path) + ".gz"
    return path


def is_gzip(path):
    with builtins.open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


def open(path, mode="r", *args, **kwargs):  # noqa: A001 (the built-in's name)
    """The built-in open, except that reading PATH reads PATH.gz when PATH
    is not there, and decompresses gzip data; appending to PATH when only
    PATH.gz is there decompresses PATH.gz back to PATH first (gzip_tree
    compresses it again at the end of the bench)."""
    if "a" in mode and not os.path.exists(path) and os.path.exists(str(path) + ".gz"):
        subprocess.run(["gzip", "-d", str(path) + ".gz"], check=True)
    if any(m in mode for m in "wax+"):
        return builtins.open(path, mode, *args, **kwargs)
    real = stored(path)
    if os.path.isfile(real) and is_gzip(real):
        return gzip.open(real, mode if "b" in mode else mode.replace("t", "") + "t",
                         *args, **kwargs)
    return builtins.open(real, mode, *args, **kwargs)


def copy(src, dst):
    """shutil.copyfile of SRC's data to DST: SRC.gz to DST.gz when SRC is
    stored compressed."""
    real = stored(src)
    if real != src and real.endswith(".gz"):
        dst = str(dst) + ".gz"
    shutil.copyfile(real, dst)
    return dst


RAW = (".json", ".jsonl", ".txt", ".tsv", ".np")


def gzip_tree(top):
    """The raw data under TOP compressed in place with `gzip -9n` (no name
    or time stored: the same data gives the same bytes), as docs/results
    keeps it (bench/out_dir.sh's bench_gzip). A file with FILE.md beside it
    (a library's file of runner tune, tuning.json) stays plain: MPICH reads
    it as it is."""
    files = [os.path.join(d, n) for d, _, names in os.walk(top) for n in names
             if n.endswith(RAW) and not os.path.exists(os.path.join(d, n + ".md"))]
    if files:
        subprocess.run(["gzip", "-9nf", "--"] + sorted(files), check=True)


def read(path):
    with open(path) as f:
        return f.read()


def exists(path):
    """Whether PATH or PATH.gz exists."""
    return os.path.exists(path) or os.path.exists(str(path) + ".gz")


def glob(pattern):
    """glob.glob(PATTERN) over the plain names: FILE.gz matches as FILE."""
    names = _glob.glob(pattern)
    names += [p[:-3] for p in _glob.glob(pattern + ".gz")]
    return list(dict.fromkeys(names))


def listdir(path):
    """os.listdir(PATH) with FILE.gz named FILE."""
    return list(dict.fromkeys(n[:-3] if n.endswith(".gz") else n
                              for n in os.listdir(path)))
