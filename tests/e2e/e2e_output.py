#!/usr/bin/env python3
"""End-to-end tests of the -o result file (docs/output.md), under mpirun.

  nonregular    a directory, fifo, device or symlink to one is refused before
                measuring (exit 2, one message); a symlink to a regular or a
                new file is written through and stays a symlink
  lock          a second run with the same -o exits 2 before measuring and
                names the holder; a killed holder does not block the next run
  kill-anytime  a reader never sees a partial file; SIGKILL at random moments
                always leaves a valid file with complete: false
  disk-full     on a tiny tmpfs: a full disk exits 2 before any point; a disk
                that fills mid-run warns once with the reason, keeps measuring,
                recovers when space comes back, or exits 2 at the end with the
                last good file (root and a private mount namespace needed,
                else exit 77 = skipped)
  gzip          -o NAME.json.gz writes gzip data: every version a reader
                sees while the run goes is whole gzip data of a valid
                document, and the last one validates with every point
"""
import argparse
import gzip
import json
import os
import random
import signal
import socket
import stat
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e import Fail, add_mpi_args, check, env, launch, parse_args, VERIFY  # noqa: E402

SKIP = 77





def command(a, args, np=2):
    return launch(a, np) + [a.runner] + args


def mpirun(a, args, timeout=240, extra_env=None):
    cmd = command(a, args)
    print("$", " ".join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                       env=env(extra_env))
    print(p.stdout[-3000:])
    print(p.stderr[-3000:], file=sys.stderr)
    return p


def validate(a, path):
    p = subprocess.run([a.runner, "validate", path], capture_output=True, text=True,
                       timeout=60, env=env())
    check(p.returncode == 0, f"runner validate {path}: exit {p.returncode} {p.stderr}")
    with open(path) as f:
        return json.load(f)


def listing(d):
    return sorted(os.listdir(d))


def fresh_dir(a, name):
    d = os.path.join(a.workdir, name)
    subprocess.run(["rm", "-rf", d], check=True)
    os.makedirs(d)
    return d


FAST = VERIFY
ONE_POINT = ["--methods", "mpi_bytes", "--sizes", "1"] + FAST


def expect_refused(a, out, needles):
    """-o out is refused: exit 2 on every rank, one message, nothing measured."""
    p = mpirun(a, ["--methods", "mpi_bytes", "--sizes", "1,2,3", "-o", out] + FAST,
               timeout=60)
    check(p.returncode == 2, f"-o {out}: exit {p.returncode}, expected 2")
    count = p.stderr.count("runner: error:")
    check(count == 1, f"-o {out}: error printed {count} times, expected once")
    line = [l for l in p.stderr.splitlines() if "runner: error:" in l][0]
    for n in needles:
        check(n in line, f"-o {out}: message lacks '{n}': {line}")
    check("[1/" not in p.stderr, f"-o {out}: a point was measured before refusing")
    check("Aborted" not in p.stderr and "MPI_ABORT" not in p.stderr, "aborted")
    return line


ACCEPTED = "-o takes a regular file, a new file in an existing directory"


def test_nonregular(a):
    d = fresh_dir(a, "nonregular")
    sub = os.path.join(d, "adir")
    os.makedirs(sub)
    expect_refused(a, sub, ["it is a directory", ACCEPTED])
    check(listing(sub) == [], "the refused directory was written into")
    expect_refused(a, sub + "/", ["it is a directory"])

    fifo = os.path.join(d, "fifo")
    os.mkfifo(fifo)
    expect_refused(a, fifo, ["it is a named pipe", ACCEPTED])
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), "the fifo was replaced")

    os.symlink("adir", os.path.join(d, "to-dir"))
    expect_refused(a, os.path.join(d, "to-dir"), ["is a directory", ACCEPTED])

    # A character device of our own (as /dev/null is: 1,3), never the
    # system's: a writer that replaced it would only break this test.
    node = os.path.join(d, "null-node")
    try:
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, OSError) as e:
        print(f"no character device test: mknod: {e}")
        node = None
    if node:
        expect_refused(a, node, ["it is a character device", ACCEPTED])
        os.symlink("null-node", os.path.join(d, "to-node"))
        expect_refused(a, os.path.join(d, "to-node"),
                       [f"'{d}/null-node', where its symbolic link points, "
                        "is a character device"])
        check(stat.S_ISCHR(os.lstat(node).st_mode), "the device node was replaced")

    os.symlink("nowhere/r.json", os.path.join(d, "to-missing-dir"))
    expect_refused(a, os.path.join(d, "to-missing-dir"),
                   [f"directory '{d}/nowhere' does not exist"])

    # Written through: the link stays, its target is replaced.
    real = os.path.join(d, "real.json")
    with open(real, "w") as f:
        f.write("old")
    link = os.path.join(d, "link.json")
    os.symlink("real.json", link)
    p = mpirun(a, ONE_POINT + ["-o", link])
    check(p.returncode == 0, f"-o symlink: exit {p.returncode}")
    check(os.path.islink(link) and os.readlink(link) == "real.json",
          "the symlink was replaced")
    doc = validate(a, real)
    check(doc["complete"] is True and len(doc["records"]) == 1, "target not written")

    # A dangling symlink into an existing directory creates its target.
    os.symlink("adir/new.json", os.path.join(d, "dangling.json"))
    p = mpirun(a, ONE_POINT + ["-o", os.path.join(d, "dangling.json")])
    check(p.returncode == 0, f"-o dangling symlink: exit {p.returncode}")
    check(os.path.islink(os.path.join(d, "dangling.json")), "the symlink was replaced")
    validate(a, os.path.join(sub, "new.json"))
    want = sorted(["adir", "fifo", "to-dir", "to-missing-dir", "real.json", "link.json",
                   "dangling.json"] + (["null-node", "to-node"] if node else []))
    check(listing(d) == want, f"left behind: {listing(d)}")
    check(listing(sub) == ["new.json"], f"left behind: {listing(sub)}")


def slow_run(a, out, points=40, delay_us=3000):
    """A run of the sleepy test plugin that lasts several seconds."""
    sizes = ",".join(str(i) for i in range(4, 4 + 4 * points, 4))
    return command(a, ["--plugin-dir", a.slow_plugins, "--methods", "sleepy",
                       "--payloads", "1d", "--sizes", sizes, "--min-time", "0.02",
                       "--repetitions", "3", "-o", out]), \
        env({"MPIARENA_TEST_DELAY_US": str(delay_us)})


def wait_for(cond, seconds, what):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if cond():
            return
        time.sleep(0.1)
    raise Fail(f"timed out waiting for {what}")


def records_in(path):
    try:
        with open(path) as f:
            return len(json.load(f)["records"])
    except (OSError, ValueError):
        return -1


def test_lock(a):
    d = fresh_dir(a, "lock")
    out = os.path.join(d, "r.json")
    os.symlink("r.json", os.path.join(d, "alias.json"))
    cmd, e = slow_run(a, out, points=100, delay_us=5000)
    print("$", " ".join(cmd), flush=True)
    first = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(lambda: records_in(out) >= 1, 120, "the first run's first point")
        with open(out + ".lock") as f:
            holder = f.read()
        host = socket.gethostname()
        check(f"on host {host}" in holder, f"lock file: {holder!r}")
        pid = holder.split()[1]
        check(pid.isdigit() and os.path.exists(f"/proc/{pid}"),
              f"lock file names no live pid: {holder!r}")
        for target in (out, os.path.join(d, "alias.json")):
            start = time.time()
            line = expect_refused(a, target, [
                "is in use by another run", f"(pid {pid} on host {host}",
                "choose another -o"])
            check(time.time() - start < 60, "the second run waited for the first")
            print("refused:", line)
        check(first.poll() is None, "the first run did not survive the second")
        validate(a, out)
    finally:
        if first.poll() is None:
            os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    # The killed run's lock is not held any more; its file and spare go.
    p = mpirun(a, ONE_POINT + ["-o", out])
    check(p.returncode == 0, f"the run after a killed holder: exit {p.returncode}")
    doc = validate(a, out)
    check(doc["complete"] is True and len(doc["records"]) == 1, "not rewritten")
    check(listing(d) == ["alias.json", "r.json"], f"left behind: {listing(d)}")


def gz_records_in(path):
    """Records of the gzip file at path (-1 when it is not whole gzip data
    of a document)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        if data[:2] != b"\x1f\x8b":
            return -2
        return len(json.loads(gzip.decompress(data))["records"])
    except (OSError, ValueError, EOFError, gzip.BadGzipFile):
        return -1


def test_gzip(a):
    d = fresh_dir(a, "gzip")
    out = os.path.join(d, "r.json.gz")
    points = 30
    cmd, e = slow_run(a, out, points=points, delay_us=3000)
    print("$", " ".join(cmd), flush=True)
    run = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
    seen = set()
    while run.poll() is None:
        if os.path.exists(out):
            n = gz_records_in(out)
            check(n >= 0, f"a reader saw {out} not whole gzip data ({n})")
            seen.add(n)
        time.sleep(0.05)
    err = run.stderr.read()
    check(run.returncode == 0, f"exit {run.returncode}: {err[-2000:]}")
    check(len(seen) >= 2, f"versions seen while running: {sorted(seen)}")
    check(gz_records_in(out) == points, f"records at the end: {gz_records_in(out)}")
    p = subprocess.run([a.runner, "validate", out], capture_output=True,
                       text=True, timeout=60, env=env())
    check(p.returncode == 0 and f"valid ({points} records" in p.stdout,
          f"runner validate {out}: exit {p.returncode} {p.stdout} {p.stderr}")
    check(listing(d) == ["r.json.gz"], f"left behind: {listing(d)}")


def test_kill_anytime(a):
    d = fresh_dir(a, "kill")
    out = os.path.join(d, "r.json")
    args = ["--methods", "mpi_bytes", "--sizes", "netpipe:1..64KiB",
            "--min-time", "0.0005", "--repetitions", "3", "-q", "-o", out]
    # 1. A reader polling the file during a whole run sees only complete
    # documents, each with at least the records of the one before.
    reads, problems = [], []
    done = threading.Event()

    def reader():
        last = -1
        while not done.is_set():
            try:
                with open(out, "rb") as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            try:
                n = len(json.loads(text)["records"])
            except ValueError as e:
                problems.append(f"partial file ({len(text)} B): {e}")
                continue
            if n < last:
                problems.append(f"{n} records after {last}")
            last = n
            reads.append(n)

    t = threading.Thread(target=reader)
    t.start()
    first_write = []
    watcher = threading.Thread(target=lambda: (
        wait_for(lambda: os.path.exists(out) or done.is_set(), 120, "the first write"),
        first_write.append(time.time())))
    watcher.start()
    p = mpirun(a, args)
    ended = time.time()
    done.set()
    watcher.join()
    t.join()
    check(p.returncode == 0, f"exit {p.returncode}")
    check(not problems, f"the reader saw: {problems[:3]}")
    check(len(reads) >= 10 and len(set(reads)) >= 5,
          f"the reader saw too few versions to judge: {len(reads)} reads")
    total = len(validate(a, out)["records"])
    print(f"reader: {len(reads)} reads, {len(set(reads))} versions, all whole")
    # 2. SIGKILL at random moments of the same run, while it writes points.
    writing = ended - first_write[0]
    print(f"the run wrote points for {writing:.2f} s")
    rng = random.Random(7)
    hits = 0
    for i in range(8):
        os.remove(out)
        cmd = command(a, args)
        proc = subprocess.Popen(cmd, env=env(), stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for(lambda: os.path.exists(out) or proc.poll() is not None, 60,
                 "the first write")
        time.sleep(rng.uniform(0.0, 0.7 * writing))
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        doc = validate(a, out)
        n = len(doc["records"])
        if doc["complete"]:
            check(n == total, f"kill {i}: complete with {n} of {total} records")
        else:
            hits += 1
        print(f"kill {i}: {n} records, complete {doc['complete']}")
    check(hits >= 3, f"only {hits} kills hit a running run")


def test_interrupted_table(a):
    """Ctrl-C on mpirun (SIGINT) in the middle of a run: rank 0 prints the
    table of every point measured before the stop, the same points the -o
    file keeps, and how to see them again (runner report FILE)."""
    d = fresh_dir(a, "interrupted")
    out = os.path.join(d, "r.json")
    cmd, e = slow_run(a, out, points=60, delay_us=3000)
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, env=e, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        wait_for(lambda: records_in(out) >= 4 or proc.poll() is not None, 120,
                 "four points written")
        check(proc.poll() is None, "the run ended before it was interrupted")
        os.kill(proc.pid, signal.SIGINT)  # what Ctrl-C sends the launcher
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    print(stdout[-3000:])
    print(stderr[-3000:], file=sys.stderr)
    doc = validate(a, out)
    kept = len(doc["records"])
    check(doc["complete"] is False and 4 <= kept < 60,
          f"the file: complete {doc['complete']}, {kept} records")
    rows = [l for l in stdout.splitlines() if "sleepy" in l and "passed" in l]
    check(len(rows) >= kept,
          f"{len(rows)} table rows on stdout, {kept} points in the file")
    check(f"runner report {out}" in stdout,
          f"no hint of 'runner report {out}' on stdout: {stdout[-500:]!r}")
    check("stopped by" in stderr, "no line saying the run was stopped")


# ---------------------------------------------------------------- disk full

def fill(path, leave_bytes):
    """Fills the file system of `path` but `leave_bytes` with a file `path`."""
    st = os.statvfs(os.path.dirname(path))
    free = st.f_bavail * st.f_frsize
    with open(path, "wb") as f:
        f.write(b"\0" * max(0, free - leave_bytes))


def stderr_lines(proc, lines, on_line):
    for line in proc.stderr:
        lines.append(line)
        sys.stderr.write(line)
        on_line(line)


def run_filling(a, out, room, free_on_warning):
    """A slow run on a disk that fills up; frees it at the first warning
    when `free_on_warning`. Returns (exit code, stderr lines)."""
    filler = os.path.join(os.path.dirname(out), "filler")
    fill(filler, room)
    cmd, e = slow_run(a, out, points=30, delay_us=1000)
    print("$", " ".join(cmd), flush=True)
    proc = subprocess.Popen(cmd, env=e, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    lines = []

    def on_line(line):
        if free_on_warning and "No space left on device" in line and \
                os.path.exists(filler):
            os.remove(filler)

    t = threading.Thread(target=stderr_lines, args=(proc, lines, on_line))
    t.start()
    try:
        proc.wait(timeout=240)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        t.join()
    return proc.returncode, lines


def disk_full_inside(a):
    d = fresh_dir(a, "diskfull")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "mpiarena-e2e", d],
                   check=True)
    out = os.path.join(d, "r.json")
    # 1. Already full: exit 2 before any point, with the reason; an earlier
    # file is left as it was.
    with open(out, "w") as f:
        f.write("earlier")
    fill(os.path.join(d, "filler"), 0)
    expect_refused(a, out, ["No space left on device"])
    check(open(out).read() == "earlier", "the earlier file was touched")
    check(listing(d) == ["filler", "r.json"], f"left behind: {listing(d)}")
    os.remove(os.path.join(d, "filler"))
    os.remove(out)

    # 2. Fills mid-run, space comes back: one warning, the run goes on and
    # the file catches up.
    code, lines = run_filling(a, out, room=28 * 1024, free_on_warning=True)
    text = "".join(lines)
    warnings = [l for l in lines if "No space left on device" in l]
    check(code == 0, f"recovered run: exit {code}")
    check(len(warnings) == 1, f"{len(warnings)} warnings, expected one")
    check("measuring goes on" in warnings[0], f"warning: {warnings[0]}")
    check("is written again" in text, "no word that the file was written again")
    check("[30/30]" in text, "the run did not measure every point")
    doc = validate(a, out)
    check(doc["complete"] is True and len(doc["records"]) == 30,
          f"recovered file: complete {doc['complete']}, {len(doc['records'])} records")
    check(listing(d) == ["r.json"], f"left behind: {listing(d)}")
    os.remove(out)

    # 3. Fills mid-run for good: warned, measured to the end, exit 2 with
    # the reason; the last good write stays, complete: false.
    code, lines = run_filling(a, out, room=28 * 1024, free_on_warning=False)
    text = "".join(lines)
    warnings = [l for l in lines if "[warning]" in l and "No space left" in l]
    again = text.count("is written again")
    check(code == 2, f"exit {code}, expected 2")
    check(len(warnings) == again + 1,
          f"{len(warnings)} warnings for {again} recoveries: warn once per failure")
    check("[30/30]" in text, "measuring stopped at the failure")
    finals = [l for l in lines if l.startswith("runner: error:")]
    check(len(finals) == 1 and "No space left on device" in finals[0] and
          "it keeps its last good write" in finals[0], f"final message: {finals}")
    kept = int(finals[0].split("last good write (")[1].split()[0])
    doc = validate(a, out)
    check(doc["complete"] is False, "the last good write says complete: true")
    check(len(doc["records"]) == kept and 1 <= kept < 30,
          f"{len(doc['records'])} records in the file, the message says {kept}")
    check(listing(d) == ["filler", "r.json"], f"left behind: {listing(d)}")


def test_disk_full(a):
    if os.geteuid() != 0:
        print("skipped: needs root to mount a tmpfs")
        return SKIP
    if os.environ.get("MPIARENA_E2E_NAMESPACE") != "1":
        # A private mount namespace: the tmpfs disappears with the test.
        e = dict(os.environ, MPIARENA_E2E_NAMESPACE="1")
        cmd = ["unshare", "--mount", "--propagation", "private", sys.executable] + sys.argv
        try:
            return subprocess.run(cmd, env=e).returncode
        except FileNotFoundError:
            print("skipped: no unshare")
            return SKIP
    probe = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "probe", "/mnt"],
                           capture_output=True)
    if probe.returncode != 0:
        print(f"skipped: cannot mount a tmpfs: {probe.stderr!r}")
        return SKIP
    subprocess.run(["umount", "/mnt"], check=True)
    disk_full_inside(a)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("test")
    add_mpi_args(ap)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--slow-plugins", required=True)
    ap.add_argument("--workdir", required=True)
    a = parse_args(ap)
    tests = {
        "nonregular": test_nonregular,
        "lock": test_lock,
        "kill-anytime": test_kill_anytime,
        "disk-full": test_disk_full,
        "gzip": test_gzip,
        "interrupted-table": test_interrupted_table,
    }
    os.makedirs(a.workdir, exist_ok=True)
    try:
        code = tests[a.test](a)
    except Fail as e:
        print(f"FAIL: {e}", file=sys.stderr)
        return 1
    if code:
        return code
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
