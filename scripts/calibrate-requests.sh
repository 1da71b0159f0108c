#!/bin/bash
# Measures the policies experiment's native cost of a request on one thread against
# the size of its server (the table NS_PER_REQUEST in src/experiments/policies/config.rs):
# 2 M pages on servers of 10 … 10^6 pages, each policy at 90 % of the maximum rate,
# 1 and 10 days; prints "pages-per-server policy ns-per-request". Run it on an idle
# machine after `cargo build --release` (about 12 minutes). With PAGES, PER and POLICIES
# set it measures other repositories: the share REPOSITORY_SHARE of request_cost.rs is
# `PAGES=10000 PER="10 100" POLICIES="merge random"` (and 10⁵, 10⁶) against 2 M.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=target/release/freshlab
pages=${PAGES:-2000000}
run() { # days → "seconds requests"
  local start end out
  start=$(date +%s.%N)
  out=$("$bin" policies --repository.pages $pages --repository.servers "$servers" --repository.top_share "$top" \
    --politeness-seconds "$politeness" --capacities 0.9 --policies "$policy" --crawlers [] --horizon-days "$1" --threads 1 --quiet --json)
  end=$(date +%s.%N)
  echo "$(python3 -c "print($end - $start)") $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["capacities"][0]["curves"][0]["requests"])')"
}
for per in ${PER:-10 100 1000 10000 100000 1000000}; do
  servers=$((pages / per))
  # every server the same size; the maximum rate #servers/P is 10^7 requests a day
  top=$(python3 -c "import math; print(math.ceil(0.01 * $servers) / $servers)")
  politeness=$(python3 -c "print($servers * 86400 / 1e7)")
  for policy in ${POLICIES:-merge random delayed unpolite}; do
    read -r s1 r1 <<<"$(run 1)"
    read -r s10 r10 <<<"$(run 10)"
    echo "$per $policy $(python3 -c "print(round(1e9 * ($s10 - $s1) / ($r10 - $r1)))")"
  done
done
