"""A peer implementation of MERGE page selection (thesis Fig 5.4) in plain Python with
heapq: one heap of pages per server, keyed by per-page equally spaced virtual times;
each request pops the earliest page and pushes it back one period later. It runs on
the workload Freshlab's benchmark writes (same servers, same frequencies) and prints
the cost per scheduled request as JSON.

usage: python3 bench/merge_peer.py WORKLOAD.bin REQUESTS RUNS
"""
import heapq
import json
import random
import struct
import sys
import time


def load(path):
    with open(path, "rb") as handle:
        data = handle.read()
    (servers,) = struct.unpack_from("<Q", data, 0)
    sizes = struct.unpack_from(f"<{servers}Q", data, 8)
    pages = sum(sizes)
    f = struct.unpack_from(f"<{pages}d", data, 8 + 8 * servers)
    return sizes, f


def run(sizes, f, requests, seed):
    rng = random.Random(seed)
    capacity = sum(f)
    horizon = requests / capacity
    heaps, periods, starts, counts = [], [], [], []
    first = 0
    for n in sizes:
        heap = [(rng.random() / f[i], i) for i in range(first, first + n) if f[i] > 0.0]
        heapq.heapify(heap)
        fs = sum(f[i] for _, i in heap)
        period = 1.0 / fs if fs > 0 else float("inf")
        start = rng.random() * period if fs > 0 else float("inf")
        heaps.append(heap)
        periods.append(period)
        starts.append(start)
        counts.append(0 if fs == 0 else int((horizon - start) / period) + 1 if start < horizon else 0)
        first += n
    began = time.perf_counter()
    done = 0
    for heap, count in zip(heaps, counts):
        replace = heapq.heapreplace
        for _ in range(count):
            key, page = heap[0]
            replace(heap, (key + 1.0 / f[page], page))
        done += count
    seconds = time.perf_counter() - began
    return done, seconds


def main():
    path, requests, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    sizes, f = load(path)
    results = sorted((run(sizes, f, requests, seed) for seed in range(runs)), key=lambda r: r[1] / r[0])
    done, seconds = results[len(results) // 2]
    print(json.dumps({"implementation": f"CPython {sys.version.split()[0]} heapq", "requests": done, "seconds": seconds, "ns_per_request": seconds * 1e9 / done,
                      "all_ns_per_request": [s * 1e9 / d for d, s in results]}))


if __name__ == "__main__":
    main()
