"""The METIS peer of `npm run bench` (issue 7): partitions the hosts' hyperlink graph that
`cargo bench --bench partitioning -- --dump-graph FILE` wrote, with METIS's multilevel
k-way partitioner (pymetis), as Freshlab's greedy + KL/FM does on the same graph.
METIS has no fixed robot vertices (why the thesis could not use it, §5.2), so only the
hyperlink objective is compared. Prints one JSON object: per number of parts, the median
seconds of 5 runs, the edge cut (each edge once) and the heaviest part over the mean.

usage: python metis_peer.py GRAPH.json PARTS[,PARTS…]"""
import array
import importlib.metadata
import json
import statistics
import sys
import time

import pymetis


def main():
    graph = json.load(open(sys.argv[1]))
    xadj, adjncy, ew, vw = graph["xadj"], graph["adjncy"], graph["eweights"], graph["vweights"]
    xadj, adjncy, ew, vw = (array.array("q", a) for a in (xadj, adjncy, ew, vw))
    adjacency = pymetis.CSRAdjacency(xadj, adjncy)
    cases = []
    for parts in [int(p) for p in sys.argv[2].split(",")]:
        runs = []
        for _ in range(5):
            options = pymetis.Options(ufactor=50, seed=1)  # 5 % imbalance, as Freshlab's ε
            start = time.perf_counter()
            cut, part = pymetis.part_graph(parts, adjacency=adjacency, vweights=vw, eweights=ew, options=options)
            runs.append((time.perf_counter() - start, part))
        seconds = statistics.median(r[0] for r in runs)
        part = runs[0][1]
        cut = sum(ew[j] for u in range(len(vw)) for j in range(xadj[u], xadj[u + 1]) if adjncy[j] > u and part[adjncy[j]] != part[u])
        load = [0] * parts
        for u, p in enumerate(part):
            load[p] += vw[u]
        cases.append({"parts": parts, "seconds": seconds, "all_seconds": [r[0] for r in runs], "cut": cut, "max_load_ratio": max(load) / (sum(vw) / parts)})
    print(json.dumps({"implementation": f"METIS 5 (multilevel k-way) via pymetis {importlib.metadata.version('pymetis')}", "cases": cases}))


main()
