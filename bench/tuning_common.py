"""What bench/tuning and bench/tuning_context share: the collectives and
sizes they tune, a launch's medians per point, and how many confirming
launches of each kind bound the claims of a file."""
import math

COLLECTIVES = ("allreduce,coll_bcast,reduce,allgather,alltoall,gather,scatter,"
               "barrier,reduce_scatter_block")
SIZES = "8B,64B,512B,4KiB,32KiB,128KiB,512KiB,1MiB"


def medians(doc):
    """A run's median per point, keyed method|size."""
    return {f"{r['method']}|{r['size_label']}": r["time_s"]["median"]
            for r in doc["records"]}


def confirm_needed(sizes, alpha=0.05):
    """The launches of each kind that bound the claims of a file with a
    winner at every point of the sweep: they hold together, each at
    1 - alpha / points, which n against n bound while all of one kind
    faster than all of the other (1 / C(2n, n)) is at most alpha / 2 /
    points (runner tune's confirm_launches_needed)."""
    points = len(COLLECTIVES.split(",")) * len(sizes.split(","))
    return points, next(n for n in range(1, 100)
                        if math.comb(2 * n, n) * alpha / 2 >= points)
