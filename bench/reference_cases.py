"""The cases of bench/reference: which reference program, run how, against
which mpiarena methods, and the reference's statistic computed from our
records. A case gives, per round, one value per (quantity, bytes) in
seconds for the reference (twice: run and control) and for mpiarena under
the reference's definition ("ours"), and where our default measures
something else, mpiarena's default figure beside it ("default")."""
import json
import os
import re
import statistics
import subprocess
import time

KiB, MiB = 1024, 1024 * 1024
P2P = [1, 8, 64, 1 * KiB, 64 * KiB, 1 * MiB, 4 * MiB]
BW = [8, 1 * KiB, 64 * KiB, 1 * MiB]
COLL = [8, 1 * KiB, 64 * KiB, 1 * MiB]


def mean(xs):
    return statistics.fmean(xs)


def sizes_arg(sizes):
    return ",".join(f"{b}B" for b in sizes)


def osu_rows(text, cols=1):
    """{bytes: [values]} from OSU's output (lines of numbers)."""
    out = {}
    for line in text.splitlines():
        f = line.split()
        if f and re.fullmatch(r"\d+", f[0]) and len(f) > cols:
            try:
                out[int(f[0])] = [float(x) for x in f[1:]]
            except ValueError:
                pass
    return out


def records(doc, method=None, payload=None):
    for r in doc["records"]:
        if method and r["method"] != method:
            continue
        if payload and r["payload"] != payload:
            continue
        if r["verification"]["status"] not in ("passed", "skipped"):
            raise RuntimeError(f"{r['method']} {r['bytes']}: verification "
                               f"{r['verification']}")
        yield r


def part(rec, name):
    return next(p for p in rec["parts"] if p["name"] == name)


def phase_avg(rec, name):
    ph = next(p for p in rec["phases_s"] if p["name"] == name)
    return mean(ph["samples_s"]["avg"])


# --- one function per kind of reference: (command, parse) ---------------

# OSU prints latencies in microseconds with two decimals: a figure of 70 ns
# is known to +-5 ns. A case's "step" is its reference's last printed digit
# in seconds; the band widens by half of it (bench/render_reference.py).
OSU_STEP = 1e-8

def osu_latency_like(exe, sizes, col=0, per_msg=False):
    """OSU's point-to-point and one-sided tests: one launch over the size
    range; col is the value column; per_msg: MB/s -> seconds per message."""
    lo, hi = min(sizes), max(sizes)

    def parse(text):
        rows = osu_rows(text)
        out = {}
        for b in sizes:
            v = rows[b][col]
            out[("time", b)] = b / (v * 1e6) if per_msg else v * 1e-6
        return out
    return [exe, "-m", f"{lo}:{hi}"], parse


def osu_collective(exe, sizes, extra=()):
    lo, hi = min(sizes), max(sizes)

    def parse(text):
        rows = osu_rows(text)
        return {("time", b): rows[b][0] * 1e-6 for b in sizes}
    return [exe, "-m", f"{lo}:{hi}", *extra], parse


# --- the cases ------------------------------------------------------------
#
# Each: name, ref (a key of bench/reference's builders), title, np, the
# reference command builder ref(bindir) -> (argv, parse), ours: runner
# arguments under the reference's definition and ours_stat(doc) ->
# {(quantity, bytes): s}; optional default: runner arguments of our default
# measurement, read by default_stat (default: the records' time_s.median).

# OSU's collectives put an MPI_Barrier between operations and time each
# one: mpiarena does the same with one operation per sample (-i 1), OSU's
# warm-up and iteration count, and OSU's statistic, the mean over
# operations of the rank average.
OSU_SYNC = ["-i", "1", "-r", "1000", "--warmup", "100", "--interleave", "off",
            "--noise", "off"]


def rank_avg_mean(method, sizes, payload=None):
    def stat(doc):
        return {("time", r["bytes"]): mean(r["samples_s"]["avg"])
                for r in records(doc, method, payload) if r["bytes"] in sizes}
    return stat


def rank_max_mean(method, sizes, payload=None):
    def stat(doc):
        return {("time", r["bytes"]): mean(r["samples_s"]["max"])
                for r in records(doc, method, payload) if r["bytes"] in sizes}
    return stat


def median_of_max(method, sizes, payload=None):
    def stat(doc):
        return {("time", r["bytes"]): r["time_s"]["median"]
                for r in records(doc, method, payload) if r["bytes"] in sizes}
    return stat


def comm_part(method, sizes):
    def stat(doc):
        return {("comm", r["bytes"]): mean(part(r, "comm")["samples_s"]["avg"])
                for r in records(doc, method) if r["bytes"] in sizes}
    return stat


CASES = []


# Adjustments: what the reference's own timing adds or removes, measured in
# the same round, so that the figure that would agree stands beside ours.
#   osu_loop: OSU's one-sided latency tests call MPI_Wtime twice in every
#     iteration of the timed loop (t_graph_start/t_graph_end, even without
#     -G or tail latencies). bench/rma_between runs OSU's loop with the pair
#     (osu) and without it (bare, what we time): ours x osu / bare.
#   barrier_loop: osu_barrier reads MPI_Wtime around every barrier of a
#     back-to-back loop; bench/barrier_between times OSU's loop and the bare
#     loop (ours): ours x osu / bare.
#   layout: OPBench packs from and unpacks into one region; our stencil
#     gives every exchange its own face and ghost. bench/stencil_between
#     runs OPBench's loop in both layouts: ours x opbench / ours.
#   harness_steps: one small collective after a barrier lasts as long as the
#     ranks' skew at the barrier's exit, and that skew depends on what each
#     rank did before the barrier: OSU's previous operation, or our harness's
#     reductions of the last sample. bench/coll_between runs OSU's loop as
#     OSU does (plain) and with our harness's steps before its barrier
#     (harness), in the same round: ours x plain / harness.
#   barrier_each: osu_latency_mp starts each round trip after its own
#     MPI_Barrier, so its round trip includes the ranks' skew at the
#     barrier's exit; ours are back to back. bench/latency_between runs the
#     ping-pong both ways: ours x osu / bare.
# Rows outside their band whose cause an experiment isolated (the case's
# note gives it with its figures): (case, quantity, bytes) -> the cause in
# a few words, printed as the row's verdict.
EXPLAINED = {
    ("osu_allgatherv", "time", 1 << 20):
        "OSU's send buffer is never written (bench/excess_split --untouched)",
    ("osu_gatherv", "time", 8):
        "our harness steps before the barrier (bench/excess_split)",
    ("opbench", "unpack", 1024):
        "below both programs' timer resolution",
}
ADJUST = {
    "barrier_each": "ours x OSU's ping-pong after a barrier each / back to "
                    "back (bench/latency_between)",
    "osu_loop": "ours x OSU's loop / the loop without its MPI_Wtime pair "
                "(bench/rma_between)",
    "barrier_loop": "ours x OSU's barrier loop / the bare loop "
                    "(bench/barrier_between)",
    "layout": "ours x OPBench's loop in its layout / in ours "
              "(bench/stencil_between)",
    "harness_steps": "ours x OSU's loop / OSU's loop after our harness "
                     "steps (bench/coll_between)",
}
# The experiment programs of the dict-valued adjustments: the program, its
# two modes (the reference's habit, then ours) and the iteration counts
# (OSU's: below 8 KiB, from 8 KiB).
BETWEEN = {
    # kind: (program, (the reference's mode, ours), argv(case, bytes, mode),
    #        the quantities it prints, in order)
    "harness_steps": (
        "coll_between", ("plain", "harness"),
        lambda c, b, m: [c["between"], str(b),
                         *(("1000", "100") if b < 8192 else ("100", "10")),
                         m],
        None),
    "barrier_each": (
        "latency_between", ("osu", "bare"),
        lambda c, b, m: [str(b), *(("10000", "1000") if b < 8192 else
                                   ("1000", "100")), m],
        None),
    "osu_loop": (
        "rma_between", ("osu", "bare"),
        lambda c, b, m: [c["between"], str(b),
                         *(("10000", "1000") if b < 8192 else
                           ("1000", "100")), m],
        None),
    "barrier_loop": (
        "barrier_between", ("osu", "bare"),
        lambda c, b, m: ["10000", "1000", m],
        None),
    "layout": (
        "stencil_between", ("opbench", "ours"),
        lambda c, b, m: [str(b), "4", "8", "300", m],
        ("pack", "comm", "unpack")),
}


def osu_p2p(name, exe, method, sizes, title, col=0, per_msg=False,
            ours=(), stat=rank_avg_mean, payload=None, adjust=None,
            refargs=(), between=None):
    def refcmd(d, e=exe, s=sizes):
        argv, parse = osu_latency_like(os.path.join(d, e), s, col, per_msg)
        return argv + list(refargs), parse
    CASES.append(dict(adjust=adjust, between=between, sizes=list(sizes),
        step=None if per_msg else OSU_STEP,
        name=name, ref="osu", suite=title.split()[0], title=title, np=2,
        refcmd=refcmd,
        ours=["-m", method, "-s", sizes_arg(sizes), *ours] +
        (["-p", payload] if payload else []),
        ours_stat=stat(method, sizes, payload)))


osu_p2p("osu_latency", "pt2pt/standard/osu_latency", "mpi_bytes", P2P,
        "pingpong: osu_latency / mpi_bytes (separate buffers, as OSU)")
osu_p2p("osu_bw", "pt2pt/standard/osu_bw", "isend_bw", BW,
        "stream: osu_bw / isend_bw (W 64), time per message", per_msg=True,
        ours=["--window", "64"])
osu_p2p("osu_bibw", "pt2pt/standard/osu_bibw", "isend_bibw", BW,
        "stream: osu_bibw / isend_bibw (W 64), time per message",
        per_msg=True, ours=["--window", "64"])
# osu_bw's -b multiple: a buffer per message of the window on both sides
# (its default receives the whole window into one buffer, which MPI does
# not allow for pending receives; ours receives into distinct slots).
osu_p2p("osu_bw_multiple", "pt2pt/standard/osu_bw", "isend_bw", BW,
        "stream: osu_bw -b multiple / isend_bw (W 64), time per message",
        per_msg=True, ours=["--window", "64"], refargs=["-b", "multiple"])
# A bracket, not a reference to agree with: OSU's 64 receive buffers are a
# larger footprint than our slots, so ours is expected at or below OSU's
# time (bench/render_reference.py: "below, as the footprint predicts").
CASES[-1]["expect"] = "below"
osu_p2p("osu_bibw_multiple", "pt2pt/standard/osu_bibw", "isend_bibw", BW,
        "stream: osu_bibw -b multiple / isend_bibw (W 64), time per message",
        per_msg=True, ours=["--window", "64"], refargs=["-b", "multiple"])
CASES[-1]["expect"] = "below"
osu_p2p("osu_put_latency", "one-sided/osu_put_latency", "put_flush", BW,
        "rma: osu_put_latency / put_flush, allocate window",
        stat=rank_max_mean, payload="allocate", adjust="osu_loop",
        between="put")
osu_p2p("osu_get_latency", "one-sided/osu_get_latency", "get_flush", BW,
        "rma: osu_get_latency / get_flush, allocate window",
        stat=rank_max_mean, payload="allocate", adjust="osu_loop",
        between="get")
osu_p2p("osu_put_bw", "one-sided/osu_put_bw", "put_flush_bw", BW,
        "rma: osu_put_bw / put_flush_bw (W 64), time per put", per_msg=True,
        ours=["--window", "64"], stat=rank_max_mean, payload="allocate")
# osu_put_bibw: OSU's defaults, a window of MPI_Win_allocate and pscw.
osu_p2p("osu_put_bibw", "one-sided/osu_put_bibw", "put_pscw_bibw", BW,
        "rma: osu_put_bibw / put_pscw_bibw (W 64, both ways), time per put",
        per_msg=True, ours=["--window", "64"], stat=rank_max_mean,
        payload="allocate")
osu_p2p("osu_acc_latency", "one-sided/osu_acc_latency", "acc_flush",
        [8, 1 * KiB, 64 * KiB],
        "rma: osu_acc_latency / acc_flush, allocate window",
        stat=rank_max_mean, payload="allocate", adjust="osu_loop",
        between="acc")


def mbw_mr_stat(doc):
    out = {}
    for r in records(doc, "isend_bw"):
        m = next(x for x in r["metrics"] if x["name"] == "msg_rate")
        out[("time", r["bytes"])] = mean(1.0 / v for v in m["samples"])
    return out


def mbw_ref(d):
    def parse(text):  # size, MB/s, messages/s
        rows = osu_rows(text)
        return {("time", b): 1.0 / rows[b][1] for b in BW}
    return [os.path.join(d, "pt2pt/standard/osu_mbw_mr"), "-m",
            f"{min(BW)}:{max(BW)}"], parse


CASES.append(dict(
    name="osu_mbw_mr", ref="osu", suite="stream", np=2,
    title="stream: osu_mbw_mr / isend_bw --pairs all, time per message "
          "(1 / messages per second)",
    refcmd=mbw_ref,
    ours=["-m", "isend_bw", "-s", sizes_arg(BW), "--window", "64",
          "--pairs", "all"],
    ours_stat=mbw_mr_stat))

COLLECTIVES = [("allreduce", "allreduce", ["-T", "mpi_int"]),
               ("reduce", "reduce", ["-T", "mpi_int"]),
               ("allgather", "allgather", []), ("alltoall", "alltoall", []),
               ("bcast", "coll_bcast", []), ("gather", "gather", []),
               ("scatter", "scatter", [])]
for osu, method, extra in COLLECTIVES:
    CASES.append(dict(
        name=f"osu_{osu}", ref="osu", suite="collective", np=2,
        step=OSU_STEP,
        title=f"collective: osu_{osu} / {method}"
        + (" (both MPI_INT, OSU's -T mpi_int)" if extra else ""),
        refcmd=lambda d, o=osu, x=extra: osu_collective(
            os.path.join(d, f"collective/blocking/osu_{o}"), COLL, x),
        ours=["-m", method, "-s", sizes_arg(COLL), *OSU_SYNC],
        ours_stat=rank_avg_mean(method, COLL),
        default=["-m", method, "-s", sizes_arg(COLL)],
        default_stat=median_of_max(method, COLL),
        adjust="harness_steps", between=osu))


def barrier_ref(d):
    def parse(text):
        vals = [float(l) for l in text.split() if re.fullmatch(r"[\d.]+", l)]
        return {("time", 0): vals[-1] * 1e-6}
    return [os.path.join(d, "collective/blocking/osu_barrier")], parse


def barrier_stat(doc):
    r = next(records(doc, "barrier"))
    return {("time", 0): mean(r["samples_s"]["avg"])}


CASES.append(dict(
    name="osu_barrier", ref="osu", suite="collective", np=2, step=OSU_STEP,
    adjust="barrier_loop", sizes=[0],
    title="collective: osu_barrier / barrier (back to back, as OSU)",
    refcmd=barrier_ref, ours=["-m", "barrier"], ours_stat=barrier_stat))

for osu, method in (("iallreduce", "iallreduce"), ("ibcast", "ibcast")):
    CASES.append(dict(
        name=f"osu_{osu}", ref="osu", suite="overlap", np=2,
        step=OSU_STEP,
        title=f"overlap: osu_{osu} / {method}, pure communication",
        refcmd=lambda d, o=osu: (
            [os.path.join(d, f"collective/non_blocking/osu_{o}"), "-m",
             f"{min(COLL)}:{max(COLL)}"] +
            (["-T", "mpi_int"] if o == "iallreduce" else []),
            lambda t: {("comm", b): osu_rows(t)[b][2] * 1e-6 for b in COLL}),
        ours=["-m", method, "-s", sizes_arg(COLL), *OSU_SYNC],
        ours_stat=comm_part(method, COLL),
        adjust="harness_steps", between=osu))

# --- issue 45: the OSU programs that had no method --------------------
#
# osu_latency_persistent, osu_latency_mt (-t 1:2, its default; it exits 1
# after printing under Open MPI 4.1, at MPI_Finalize: its rows are read)
# and osu_latency_mp, as osu_latency.
osu_p2p("osu_latency_persistent", "pt2pt/persistent/osu_latency_persistent",
        "pingpong_persistent", P2P,
        "pingpong: osu_latency_persistent / pingpong_persistent")
osu_p2p("osu_latency_mp", "pt2pt/standard/osu_latency_mp", "latency_mp", P2P,
        "pingpong: osu_latency_mp / latency_mp (2 forked children, as OSU)",
        adjust="barrier_each")
osu_p2p("osu_latency_mt", "pt2pt/standard/osu_latency_mt", "latency_mt", P2P,
        "pingpong: osu_latency_mt / latency_mt (1 sender, 2 receiver "
        "threads, as OSU)", ours=["--thread-level", "multiple"])
CASES[-1]["ref_ok"] = (0, 1)
# osu_latency_mt -t 1:1: one thread a side, which 2 cores can run (OSU's
# default 1:2 spins 3 threads a rank and did not end in 80 s here).
osu_p2p("osu_latency_mt_1_1", "pt2pt/standard/osu_latency_mt", "latency_mt",
        P2P, "pingpong: osu_latency_mt -t 1:1 / latency_mt (1 sender, 1 "
        "receiver thread)", refargs=["-t", "1:1"],
        ours=["--thread-level", "multiple", "--set",
              "latency_mt.sender_threads=1",
              "--set", "latency_mt.receiver_threads=1"])
CASES[-1]["ref_ok"] = (0, 1)

# The collectives bench/coll_between.c runs (its OP list) beyond the first
# nine: the barrier-exit skew of the small sizes is measured for them too.
BETWEEN_OPS = {"allgatherv", "alltoallv", "gatherv", "scatterv", "igather",
               "iscatter", "iallgatherv", "ialltoallv", "igatherv",
               "iscatterv", "ireduce_scatter", "alltoallw", "ialltoallw",
               *(f"{i}neighbor_{o}" for i in ("", "i")
                 for o in ("allgather", "alltoall", "allgatherv",
                           "alltoallv", "alltoallw"))}

# The v-collectives with OSU's equal counts (counts=uniform), under OSU's
# definition (OSU_SYNC); the reductions in MPI_INT both (-T mpi_int).
VCOLLECTIVES = [("allgatherv", []), ("alltoallv", []), ("gatherv", []),
                ("scatterv", []), ("alltoallw", []),
                ("reduce_scatter", ["-T", "mpi_int"])]
for osu, extra in VCOLLECTIVES:
    CASES.append(dict(
        name=f"osu_{osu}", ref="osu", suite="collective", np=2,
        step=OSU_STEP, sizes=list(COLL),
        title=f"collective: osu_{osu} / {osu} (counts=uniform"
        + (", both MPI_INT" if extra else "")
        + (", MPI_INT to every peer as OSU, types=int"
           if osu == "alltoallw" else "")
        + ")",
        refcmd=lambda d, o=osu, x=extra: osu_collective(
            os.path.join(d, f"collective/blocking/osu_{o}"), COLL, x),
        ours=["-m", osu, "-s", sizes_arg(COLL), "--set",
              f"{osu}.counts=uniform", *OSU_SYNC]
        + (["--set", f"{osu}.types=int"] if osu == "alltoallw" else []),
        ours_stat=rank_avg_mean(osu, COLL),
        **(dict(adjust="harness_steps", between=osu)
           if osu in BETWEEN_OPS else {})))

# The non-blocking collectives OSU 7.4 has and we had not: OSU's pure
# communication column (its third) against our "comm" part.
NONBLOCKING = [("ireduce", ["-T", "mpi_int"], False),
               ("igather", [], False), ("iscatter", [], False),
               ("ireduce_scatter_block", ["-T", "mpi_int"], False),
               ("iallgatherv", [], True), ("ialltoallv", [], True),
               ("igatherv", [], True), ("iscatterv", [], True),
               ("ireduce_scatter", ["-T", "mpi_int"], True),
               ("ialltoallw", [], True)]
for osu, extra, v in NONBLOCKING:
    CASES.append(dict(
        name=f"osu_{osu}", ref="osu", suite="overlap", np=2,
        step=OSU_STEP, sizes=list(COLL),
        title=f"overlap: osu_{osu} / {osu}, pure communication"
        + (" (counts=uniform)" if v else ""),
        refcmd=lambda d, o=osu, x=extra: (
            [os.path.join(d, f"collective/non_blocking/osu_{o}"), "-m",
             f"{min(COLL)}:{max(COLL)}", *x],
            lambda t: {("comm", b): osu_rows(t)[b][2] * 1e-6 for b in COLL}),
        ours=["-m", osu, "-s", sizes_arg(COLL), *OSU_SYNC]
        + (["--set", f"{osu}.counts=uniform"] if v else [])
        + (["--set", f"{osu}.types=int"] if osu == "ialltoallw" else []),
        ours_stat=comm_part(osu, COLL),
        **(dict(adjust="harness_steps", between=osu)
           if osu in BETWEEN_OPS else {})))


# osu_ibarrier: one row without a size (overall, compute, pure
# communication, overlap); ours at 0 bytes.
def ibarrier_ref(d):
    def parse(text):
        rows = [l.split() for l in text.splitlines()
                if re.fullmatch(r"(\s*[\d.]+){4}\s*", l)]
        return {("comm", 0): float(rows[-1][2]) * 1e-6}
    return [os.path.join(d, "collective/non_blocking/osu_ibarrier")], parse


CASES.append(dict(
    name="osu_ibarrier", ref="osu", suite="overlap", np=2, step=OSU_STEP,
    sizes=[0], title="overlap: osu_ibarrier / ibarrier, pure communication",
    refcmd=ibarrier_ref, ours=["-m", "ibarrier", "-s", "0", *OSU_SYNC],
    ours_stat=comm_part("ibarrier", [0])))

# The neighbourhood collectives on OSU's graph (dim 1, radius 1: a ring,
# which OSU builds from 3 ranks on): 3 ranks on the 2 cores here,
# oversubscribed.
NEIGHBOR = [("neighbor_allgather", False), ("neighbor_alltoall", False),
            ("neighbor_allgatherv", True), ("neighbor_alltoallv", True),
            ("neighbor_alltoallw", True)]
for osu, v in NEIGHBOR:
    CASES.append(dict(
        name=f"osu_{osu}", ref="osu", suite="collective", np=3,
        step=OSU_STEP, sizes=list(COLL),
        title=f"collective: osu_{osu} / {osu}, OSU's graph, 3 ranks on 2 "
        "cores (oversubscribed)" + (" (counts=uniform)" if v else ""),
        refcmd=lambda d, o=osu: osu_collective(
            os.path.join(d, f"collective/neighborhood/osu_{o}"), COLL),
        ours=["-m", osu, "-s", sizes_arg(COLL), *OSU_SYNC]
        + (["--set", f"{osu}.counts=uniform"] if v else []),
        ours_stat=rank_avg_mean(osu, COLL),
        adjust="harness_steps", between=osu))
# Their non-blocking forms: OSU's pure communication column against our
# "comm" part, as the other non-blocking collectives.
for osu, v in NEIGHBOR:
    CASES.append(dict(
        name=f"osu_i{osu}", ref="osu", suite="overlap", np=3,
        step=OSU_STEP, sizes=list(COLL),
        title=f"overlap: osu_i{osu} / i{osu}, OSU's graph, pure "
        "communication, 3 ranks on 2 cores (oversubscribed)"
        + (" (counts=uniform)" if v else ""),
        refcmd=lambda d, o=osu: (
            [os.path.join(d, f"collective/neighborhood/osu_i{o}"), "-m",
             f"{min(COLL)}:{max(COLL)}"],
            lambda t: {("comm", b): osu_rows(t)[b][2] * 1e-6 for b in COLL}),
        ours=["-m", f"i{osu}", "-s", sizes_arg(COLL), *OSU_SYNC]
        + (["--set", f"i{osu}.counts=uniform"] if v else []),
        ours_stat=comm_part(f"i{osu}", COLL),
        adjust="harness_steps", between=f"i{osu}"))

# OSU 7.3's persistent collectives under MPICH 4.0 (Open MPI 4.1 has no
# MPI_<C>_init, so OSU's programs do not build there), against our
# <c>_persistent twins, under OSU's definition as the blocking cases. Not
# allgather, gather and scatter: MPICH 4.0.2's delivers wrong data
# (pmodels/mpich#7078), so ours are skipped there.
PERSISTENT = [("allreduce", ["-T", "mpi_int"], []),
              ("alltoall", [], []), ("bcast", [], []),
              ("reduce", ["-T", "mpi_int"], []),
              ("allgatherv", [], ["counts=uniform"]),
              ("alltoallv", [], ["counts=uniform"]),
              ("alltoallw", [], ["counts=uniform", "types=int"]),
              ("gatherv", [], ["counts=uniform"]),
              ("scatterv", [], ["counts=uniform"]),
              ("reduce_scatter", ["-T", "mpi_int"], ["counts=uniform"])]
for osu, extra, sets in PERSISTENT:
    method = ("coll_bcast" if osu == "bcast" else osu) + "_persistent"
    CASES.append(dict(
        name=f"osu_{osu}_persistent", ref="osu_mpich", mpi="mpich", np=2,
        suite="collective", step=OSU_STEP, sizes=list(COLL),
        title=f"collective: osu_{osu}_persistent / {method}, MPICH"
        + (f" ({', '.join(sets)})" if sets else ""),
        refcmd=lambda d, o=osu, x=extra: osu_collective(
            os.path.join(d, f"collective/persistent/osu_{o}_persistent"),
            COLL, x),
        ours=["-m", method, "-s", sizes_arg(COLL), *OSU_SYNC]
        + [a for kv in sets for a in ("--set", f"{method}.{kv}")],
        ours_stat=rank_avg_mean(method, COLL)))
CASES.append(dict(
    name="osu_barrier_persistent", ref="osu_mpich", mpi="mpich", np=2,
    suite="collective", step=OSU_STEP, sizes=[0],
    title="collective: osu_barrier_persistent / barrier_persistent, MPICH "
    "(back to back, as OSU)",
    refcmd=lambda d: (
        [os.path.join(d, "collective/persistent/osu_barrier_persistent")],
        barrier_ref(d)[1]),
    ours=["-m", "barrier_persistent"],
    ours_stat=lambda doc: {("time", 0): mean(
        next(records(doc, "barrier_persistent"))["samples_s"]["avg"])}))

# osu_init and osu_hello against mpiarena-startup, which runs the launcher
# itself (one launch per sample): 3 launches of each per round, the mean.
# osu_init prints the rank average of MPI_Init in whole milliseconds (its
# step); osu_hello prints no time, so the launch is timed from outside, as
# mpiarena-startup's "launch" record is.
STARTUP_LAUNCHES = 3
STARTUP = ["./mpiarena-startup", "--launch", "mpirun --oversubscribe -np 2",
           "--launches", str(STARTUP_LAUNCHES), "--warmup", "0",
           "--format", "json"]


def startup_stat(record, column):
    def stat(doc):
        r = next(records(doc, record))
        return {(record, 0): mean(r["samples_s"][column])}
    return stat


CASES.append(dict(
    name="osu_init", ref="osu", suite="startup", np=2, step=1e-3,
    sizes=[0], ref_launches=STARTUP_LAUNCHES, ours_direct=True,
    title="startup: osu_init / mpiarena-startup init (rank average of "
    "MPI_Init, mean of 3 launches)",
    refcmd=lambda d: (
        [os.path.join(d, "startup/osu_init")],
        lambda t: {("init", 0): float(
            re.search(r"avg: (\d+) ms", t).group(1)) * 1e-3}),
    ours=STARTUP, ours_stat=startup_stat("init", "avg")))
CASES.append(dict(
    name="osu_hello", ref="osu", suite="startup", np=2, step=None,
    sizes=[0], ref_launches=STARTUP_LAUNCHES, ours_direct=True,
    ref_wall=True,
    title="startup: time mpirun osu_hello / mpiarena-startup launch (the "
    "whole launch from outside, mean of 3 launches)",
    refcmd=lambda d: (
        [os.path.join(d, "startup/osu_hello")],
        lambda t, wall: {("launch", 0): wall}),
    ours=STARTUP, ours_stat=startup_stat("launch", "max")))

# --- seed 002's NMPM -------------------------------------------------------
NMPM_SIZES = [64 * KiB, 256 * KiB, 1 * MiB]


def nmpm_ref(exe):
    def parse(text):
        rows = osu_rows(text, cols=4)
        out = {}
        for b in NMPM_SIZES:
            c, p, o, pct = rows[b][:4]
            out.update({("comm", b): c * 1e-6, ("overall", b): o * 1e-6,
                        ("overlap_pct", b): pct})
        return out
    return [exe], parse


def nmpm_stat(method):
    def stat(doc):
        out = {}
        for r in records(doc, method):
            b = r["bytes"]
            if b not in NMPM_SIZES:
                continue
            both = part(r, "both")
            comm = mean(part(r, "comm")["samples_s"]["avg"])
            comp = phase_avg(both, "compute")
            ovrl = mean(both["samples_s"]["avg"])
            tmin = min(comm, comp)
            pct = (100 * max(0.0, min(1.0, (comm + comp - ovrl) / tmin))
                   if tmin > 0 else 0.0)
            out.update({("comm", b): comm, ("overall", b): ovrl,
                        ("overlap_pct", b): pct})
        return out
    return stat


# NMPM: a barrier after each of 1000 iterations, the first 101 skipped.
NMPM_SYNC = ["-i", "1", "-r", "900", "--warmup", "100", "--interleave", "off",
             "--noise", "off"]
CASES.append(dict(
    name="nmpm", ref="nmpm", suite="overlap", np=4,
    title="overlap: NMPM / nob_halo2d_open, 4 ranks (oversubscribed on 2 "
          "cores)",
    refcmd=nmpm_ref, ours=["-m", "nob_halo2d_open", "-s",
                           sizes_arg(NMPM_SIZES), *NMPM_SYNC],
    ours_stat=nmpm_stat("nob_halo2d_open"),
    default=["-m", "nob_halo2d", "-s", sizes_arg(NMPM_SIZES)],
    default_stat=nmpm_stat("nob_halo2d")))

# --- seed 004's OPBench ----------------------------------------------------
OPB_SIZES = [1 * KiB, 64 * KiB, 1 * MiB, 4 * MiB]


def opbench_ref(exe):
    def parse(text):
        out = {}
        for line in text.splitlines():
            f = line.split()
            if len(f) == 8 and all(re.fullmatch(r"\d+", x) for x in f[:4]):
                b = int(f[3])
                if b in OPB_SIZES:
                    for i, q in enumerate(("pack", "comm", "unpack")):
                        out[(q, b)] = float(f[4 + i]) * 1e-6
        return out
    return ["env", "BENCH_ITERS=500", "COMM_ITERS=4", "BUF_STRIDE=8", exe], \
        parse


def opbench_stat(doc):
    out = {}
    for r in records(doc, "opbench_mpi"):
        if r["bytes"] in OPB_SIZES:
            for q in ("pack", "comm", "unpack"):  # per exchange, rank average
                out[(q, r["bytes"])] = phase_avg(r, q) / 4
    return out


CASES.append(dict(
    name="opbench", ref="opbench", suite="stencil", np=2,
    title="stencil: OPBench (MPI mode, COMM_ITERS 4, stride 8) / "
          "opbench_mpi, per exchange, rank average",
    refcmd=opbench_ref,
    ours=["-m", "opbench_mpi", "-s", sizes_arg(OPB_SIZES), "--exchanges", "4",
          "--stride", "8"],
    ours_stat=opbench_stat, adjust="layout", sizes=OPB_SIZES))

# --- seed 000's runner -----------------------------------------------------
SEED_METHODS = [("Raw", "raw", "2d"), ("Pack", "pack", "2d"),
                ("Boost", "boost", "2d"), ("Datatype", "datatype", "2d"),
                ("Bcast", "bcast", "1d")]
SEED_BASE = 5000  # the "large" preset: 55 x 5000 ints, 1.1 MB


def seed_ref(exe):
    """One launch per method, as a user runs one benchmark: the seed's
    figure for a method depends on what ran before it in the same process
    (glibc's heap state: docs/methods.md, "What a transfer's time
    includes"), so each starts from a fresh process."""
    cmds = []
    for seed, method, payload in SEED_METHODS:
        name = (f"BM_{seed}MPI_1D/{55 * SEED_BASE}/" if payload == "1d"
                else f"BM_{seed}MPI/5/{SEED_BASE}/")

        def parse(text, method=method, payload=payload):
            doc = json.loads(text[text.index("{"):])
            b = doc["benchmarks"][0]
            return {(f"{method} {payload}", 220 * SEED_BASE):
                    b["real_time"] * 1e-6}
        cmds.append(([exe, f"--benchmark_filter=^{name}",
                      "--benchmark_format=json"], parse))
    return cmds


def seed_stat(doc):
    out = {}
    for seed, method, payload in SEED_METHODS:
        for r in records(doc, method, payload):
            out[(f"{method} {payload}", r["bytes"])] = \
                mean(r["samples_s"]["max"])
    return out


CASES.append(dict(
    name="seed000", ref="seed000", suite="transfer", np=2,
    title="transfer: the MPI & Boost benchmark's own runner / raw, pack, boost, datatype (2d), "
          "bcast (1d), large, max over ranks",
    refcmd=seed_ref,
    # The seed's receiver builds a new vector<vector<int>> (and the pack
    # method a new receive buffer) in every operation (--receive fresh).
    # Whether that costs page faults depends on glibc's heap state, which
    # depends on what the process freed before (its dynamic mmap and trim
    # thresholds): both programs run with the threshold fixed at glibc's
    # initial 128 KiB, the same allocator policy whatever their history.
    ours=["-m", "raw,pack,boost,datatype,bcast", "-s", "large", "--payloads",
          "1d,2d", "--receive", "fresh"],
    ours_env={"MALLOC_MMAP_THRESHOLD_": "131072"},
    ref_env={"MALLOC_MMAP_THRESHOLD_": "131072"},
    ours_stat=seed_stat,
    default=["-m", "raw,pack,boost,datatype,bcast", "-s", "large",
             "--payloads", "1d,2d"],
    default_stat=seed_stat))


LAUNCHERS = {"openmpi": ["mpirun", "--oversubscribe"],
             "mpich": ["mpiexec.mpich"]}


class Runner:
    """builds: {mpi: mpiarena build dir}; a case's "mpi" (default
    openmpi) picks the build and the launcher."""

    def __init__(self, builds, refs, tmp, env):
        self.builds, self.refs, self.tmp, self.env = builds, refs, tmp, env
        self.mpi = "openmpi"

    @property
    def build(self):
        return self.builds[self.mpi]

    def mpirun(self, np, argv, ok=(0,)):
        cmd = [*LAUNCHERS[self.mpi], "-np", str(np), *argv]
        p = subprocess.run(cmd, cwd=self.build, env=self.env, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode not in ok:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: "
                               f"{p.stderr[-500:]}")
        return p.stdout

    def reference(self, c):
        """The reference's figures; a case with ref_launches K runs each
        command K times and takes the mean (the start-up cases, one
        launch per sample), and a parse taking `wall` gets the launch's
        time from outside (osu_hello prints none)."""
        cmds = c["refcmd"](self.refs[c["ref"]])
        if isinstance(cmds, tuple):
            cmds = [cmds]
        xs = [a for k, v in c.get("ref_env", {}).items()
              for a in ("-x", f"{k}={v}")]
        got = {}
        for argv, parse in cmds:
            for _ in range(c.get("ref_launches", 1)):
                t0 = time.perf_counter()
                text = self.mpirun(c["np"], [*xs, *argv],
                                   c.get("ref_ok", (0,)))
                wall = time.perf_counter() - t0
                vals = (parse(text, wall=wall) if c.get("ref_wall")
                        else parse(text))
                for k, v in vals.items():
                    got.setdefault(k, []).append(v)
        return {k: mean(v) for k, v in got.items()}

    def ours(self, c, args, stat, env=None):
        out = os.path.join(self.tmp, "ours.json")
        if c.get("ours_direct"):  # a program that runs the launcher itself
            subprocess.run([*args, "-o", out], cwd=self.build, env=self.env,
                           check=True, stdout=subprocess.DEVNULL)
        else:
            xs = [a for k, v in (env or {}).items()
                  for a in ("-x", f"{k}={v}")]
            self.mpirun(c["np"], [*xs, "./runner", "-q", *args, "-o", out])
        with open(out) as f:
            return stat(json.load(f))

    def between(self, c):
        """The reference's habit over ours, per size and quantity, from our
        experiment program (BETWEEN), run in the same round: the factor
        that turns ours into the figure that would agree."""
        prog, (habit, mine), argv, qs = BETWEEN[c["adjust"]]
        qs = qs or ("comm" if c["suite"] == "overlap" else "time",)
        out = {}
        for b in c.get("sizes", COLL):
            t = {m: [float(x) for x in self.mpirun(
                c["np"], [self.refs[prog], *argv(c, b, m)]).split()[:len(qs)]]
                for m in (habit, mine)}
            for i, q in enumerate(qs):
                out[(q, b)] = t[habit][i] / t[mine][i]
        return out

    def state(self):
        """The machine's state before a launch: the core-to-core round trip
        of two threads pinned to CPUs 0 and 1 (bench/core_to_core.c; the
        VM's fast and slow states, docs/results/machine_states.md), the
        lowest of two readings, ns; None without the probe."""
        exe = self.refs.get("core_to_core")
        if not exe:
            return None
        out = subprocess.run([exe, "0.2", "0.1"], text=True,
                             stdout=subprocess.PIPE).stdout.split()
        return min(float(x) for x in out[1::2]) if out else None

    def round(self, c, r):
        self.mpi = c.get("mpi", "openmpi")
        steps = ["ref", "control", "ours"]
        if "default" in c:
            steps.append("default")
        if r % 2 == 0:
            steps.reverse()
        got = {}
        adj = self.between(c) if c.get("adjust") else {}
        state = {}
        for s in steps:
            state[s] = self.state()
            if s in ("ref", "control"):
                got[s] = self.reference(c)
            elif s == "ours":
                got[s] = self.ours(c, c["ours"], c["ours_stat"],
                                   c.get("ours_env"))
            else:
                got[s] = self.ours(c, c["default"], c["default_stat"])
        rows = []
        for key, ref in sorted(got["ref"].items(), key=lambda kv: (
                kv[0][1], kv[0][0])):
            q, b = key
            row = dict(case=c["name"], suite=c["suite"], ref=c["ref"],
                       mpi=self.mpi,
                       quantity=q, bytes=b, round=r, np=c["np"],
                       ref_value=ref, control_value=got["control"].get(key),
                       ours_value=got["ours"].get(key))
            if "default" in got:
                row["default_value"] = got["default"].get(key)
            row["state_ns"] = state
            if row["ours_value"] is not None and key in adj:
                row["adjusted_value"] = row["ours_value"] * adj[key]
                row["adjustment_factor"] = adj[key]
            rows.append(row)
        return rows
