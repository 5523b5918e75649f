#!/usr/bin/env python3
"""Reference values of the two-sided Mann-Whitney U test for tests/test_compare.cpp.

Standard library only, and written independently of core/analysis/stats/rank_tests.cpp:

- U is counted pair by pair (x > y counts 1, x == y counts 1/2), not from ranks.
- "enumeration": the exact p-value by listing every split of the pooled
  samples into groups of n1 and n2 (itertools.combinations) and counting the
  splits whose U is at least as far from n1*n2/2 on each side: the exact
  permutation distribution, ties included (compare.cpp uses a dynamic
  programme over doubled mid-ranks instead).
- "recursion": without ties, the exact null distribution by Mann and
  Whitney's (1947) recurrence on counts, f(n1, n2, u) = f(n1-1, n2, u-n2) +
  f(n1, n2-1, u), for samples too large to enumerate.
- "normal": the normal approximation with the tie correction of the variance
  and a continuity correction of 0.5, p = erfc(z / sqrt(2)).

Run it with `python3 tests/reference/mannwhitney_reference.py`; its output is
pasted into tests/test_compare.cpp. scipy.stats.mannwhitneyu gives the same
values (checked with scipy 1.17.1: method="exact" for the cases without ties,
method="asymptotic" for the normal ones, method=PermutationMethod() for the
exact ones with ties); scipy's documentation example is case "scipy_doc".
"""
import itertools
import math
from functools import lru_cache


def u_statistic(x, y):
    return sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in x for b in y)


def p_enumeration(x, y):
    pooled = list(x) + list(y)
    n1 = len(x)
    u_obs = u_statistic(x, y)
    low = high = total = 0
    for chosen in itertools.combinations(range(len(pooled)), n1):
        cs = set(chosen)
        a = [pooled[i] for i in chosen]
        b = [pooled[i] for i in range(len(pooled)) if i not in cs]
        u = u_statistic(a, b)
        total += 1
        low += u <= u_obs
        high += u >= u_obs
    return min(1.0, 2 * min(low, high) / total)


@lru_cache(maxsize=None)
def count(n1, n2, u):
    """Orderings of n1 + n2 distinct values whose U (of the first) is u."""
    if u < 0:
        return 0
    if n1 == 0 or n2 == 0:
        return 1 if u == 0 else 0
    return count(n1 - 1, n2, u - n2) + count(n1, n2 - 1, u)


def p_recursion(x, y):
    n1, n2 = len(x), len(y)
    u_obs = u_statistic(x, y)
    assert u_obs == int(u_obs), "the recursion is for samples without ties"
    total = math.comb(n1 + n2, n1)
    low = sum(count(n1, n2, u) for u in range(0, int(u_obs) + 1))
    high = sum(count(n1, n2, u) for u in range(int(u_obs), n1 * n2 + 1))
    return min(1.0, 2 * min(low, high) / total)


def p_normal(x, y):
    n1, n2 = len(x), len(y)
    n = n1 + n2
    pooled = list(x) + list(y)
    ties = sum(t ** 3 - t for t in (pooled.count(v) for v in set(pooled)))
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    z = (abs(u_statistic(x, y) - n1 * n2 / 2) - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def lcg(seed, count, scale):
    """Deterministic pseudo-random values (a 31-bit LCG), no ties by design."""
    out = []
    for _ in range(count):
        seed = (1103515245 * seed + 12345) % 2**31
        out.append(round(scale * (1 + seed / 2**31), 9))
    return out


CASES = {
    # scipy.stats.mannwhitneyu documentation example (ages of men / women).
    "scipy_doc": ([19, 22, 16, 29, 24], [20, 11, 17, 12], "enumeration"),
    "separated_3v3": ([1, 2, 3], [4, 5, 6], "enumeration"),
    "separated_4v4": ([4, 5, 6, 7], [1, 2, 3, 0.5], "enumeration"),
    "separated_7v7": ([1.0 + i for i in range(7)], [10.0 + i for i in range(7)], "enumeration"),
    "interleaved_7v7": ([1, 3, 5, 7, 9, 11, 13], [2, 4, 6, 8, 10, 12, 14], "enumeration"),
    "ties_5v6": ([1, 2, 2, 3, 4], [2, 3, 3, 5, 6, 6], "enumeration"),
    "ties_7v7": ([3, 3, 4, 5, 5, 5, 6], [5, 6, 6, 7, 7, 8, 9], "enumeration"),
    "all_equal_3v3": ([2, 2, 2], [2, 2, 2], "enumeration"),
    "no_ties_20v20": (lcg(1, 20, 1.0), lcg(2, 20, 1.1), "recursion"),
    "no_ties_26v30": (lcg(3, 26, 1.0), lcg(4, 30, 1.15), "normal"),
    "ties_30v30": ([i % 7 for i in range(30)], [(i % 9) + 1 for i in range(30)], "normal"),
}


def main():
    for name, (x, y, how) in CASES.items():
        p = {"enumeration": p_enumeration, "recursion": p_recursion,
             "normal": p_normal}[how](x, y)
        print(f"{name}: n1={len(x)} n2={len(y)} U={u_statistic(x, y)!r} "
              f"p={p!r} ({how})")
    print(f"min p 3v3 = {2 / math.comb(6, 3)!r}, 4v4 = {2 / math.comb(8, 4)!r}, "
          f"7v7 = {2 / math.comb(14, 7)!r}")


if __name__ == "__main__":
    main()
