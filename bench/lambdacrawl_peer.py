"""Runs the LambdaCrawl peer (../shared/peers/optimal-freshness, Microsoft's MIT code)
on (importance, change rate) arrays read as JSON from the file named by the first
argument (or from stdin) and prints its rates.

Input: {"importances": [...], "change_rates": [...], "bandwidth": B, "epsilon": e,
"repeat": k}. Output: {"harmonic": [...], "binary": [...], "harmonic_seconds": t,
"binary_seconds": t} (the median time of k calls of each solver). With "observed":
[true/false per page], it instead runs the solvers for pages whose every change is
observed and prints {"observed_probs": LambdaCrawl_ComplObs's crawl probabilities of the
observed pages alone at the whole bandwidth, "mixed_rates": [...], "mixed_probs": [...]}:
LambdaCrawl (Algorithm 3) on both kinds, rates of the others and probabilities of the
observed, each in page order within its kind. Nothing of the
peer is changed or copied: it is imported from where it lies.
"""
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PEER = os.path.join(HERE, "..", "..", "shared", "peers", "optimal-freshness")
sys.path.insert(0, os.environ.get("FRESHLAB_PEER_DIR", PEER))

import numpy as np  # noqa: E402
import LambdaCrawlExps as peer  # noqa: E402


def timed(call, repeat):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = call()
        times.append(time.perf_counter() - start)
    return out, statistics.median(times)


def main():
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            job = json.load(f)
    else:
        job = json.load(sys.stdin)
    imp = np.array(job["importances"], dtype=float)
    ch = np.array(job["change_rates"], dtype=float)
    bandwidth, epsilon, repeat = job["bandwidth"], job["epsilon"], job.get("repeat", 1)
    if "observed" in job:
        seen = np.array(job["observed"], dtype=bool)
        alone = peer.LambdaCrawl_ComplObs(imp[seen], ch[seen], bandwidth)
        rates, probs = peer.LambdaCrawl(imp[~seen], ch[~seen], epsilon, imp[seen], ch[seen], bandwidth)
        json.dump({"observed_probs": list(map(float, alone)), "mixed_rates": list(map(float, rates)), "mixed_probs": list(map(float, probs))}, sys.stdout)
        return
    harmonic, th = timed(lambda: peer.LambdaCrawl_IncomplObs(imp, ch, bandwidth, epsilon), repeat)
    (binary, _), tb = timed(lambda: peer.LambdaCrawlBinary_Epsilon(imp, ch, 0.0, np.array([]), np.array([]), bandwidth), repeat)
    json.dump({"harmonic": list(map(float, harmonic)), "binary": list(map(float, binary)), "harmonic_seconds": th, "binary_seconds": tb}, sys.stdout)


if __name__ == "__main__":
    main()
