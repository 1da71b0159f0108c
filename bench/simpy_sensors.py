"""An independent implementation of Zemskov's robots-vs-sensors model in SimPy, the
article's own tool (spec §3, with the readings Freshlab states), for a side-by-side
benchmark. Integer time units; each page draws its changes and requests from its own
random.Random; the robot walks the list; sensors notify after 1–3 units and the robot
downloads at once, in parallel.

usage: python3 bench/simpy_sensors.py PAGES [HORIZON] [SEED]   (prints JSON)
"""
import json
import math
import random
import sys
import time

import simpy

WEEK = 6_048_000
STATES = [0.083, 0.125, 0.125, 0.25, 0.25, 0.166]
CUMULATIVE = [sum(STATES[: k + 1]) / sum(STATES) for k in range(6)]


def changes(previous, new):
    if new == previous and new in (1, 2, 3, 6):
        return False
    return not (new == 6 and previous in (4, 5))


class Page:
    def __init__(self, seed, index):
        self.rng = random.Random(seed * 1_000_003 + index)
        self.state, self.size, self.version = 6, self.rng.randint(65, 122_880), 0
        self.held, self.fresh = 0, True
        self.known = 0


class Model:
    def __init__(self, pages, horizon, seed, concept):
        self.env = simpy.Environment()
        self.horizon, self.concept = horizon, concept
        self.pages = [Page(seed, i) for i in range(pages)]
        self.events = 0
        self.samples = []
        self.bytes = 0
        self.downloads = self.useful = 0
        self.rng = random.Random(seed)
        for page in self.pages:
            self.env.process(self.life(page))
            if concept == "sensors":
                self.env.process(self.requests(page))
        if concept == "robot":
            self.env.process(self.robot())
        self.env.process(self.sampler())

    def life(self, page):
        rate, clock = 6 / WEEK, 0.0
        while True:
            clock += page.rng.expovariate(rate)
            unit = math.ceil(clock)
            yield self.env.timeout(unit - self.env.now)
            self.events += 1
            u = page.rng.random()
            new = next(k + 1 for k, c in enumerate(CUMULATIVE) if u < c or k == 5)
            if changes(page.state, new):
                if new == 4:
                    page.size = page.rng.randint(65, page.size)
                elif new == 5:
                    page.size = page.rng.randint(page.size, 122_880)
                page.version += 1
                page.fresh = False
            page.state = new

    def snapshot(self, page):
        self.downloads += 1
        self.events += 1
        self.bytes += 0 if page.state in (1, 2, 3) else page.size
        if page.held != page.version:
            self.useful += 1
        page.held, page.fresh = page.version, True

    def robot(self):
        while True:
            for page in self.pages:
                if page.state in (1, 2, 3):
                    self.snapshot(page)
                    continue
                yield self.env.timeout(self.rng.randint(1, 40))
                self.snapshot(page)

    def requests(self, page):
        rate, clock = 70 / WEEK, 0.0
        while True:
            clock += page.rng.expovariate(rate)
            yield self.env.timeout(math.ceil(clock) - self.env.now)
            self.events += 1
            if page.version != page.known:
                page.known = page.version
                self.events += 1
                self.env.process(self.download(page))

    def download(self, page):
        yield self.env.timeout(page.rng.randint(1, 3))
        if page.state not in (1, 2, 3):
            yield self.env.timeout(page.rng.randint(1, 40))
        self.snapshot(page)

    def sampler(self):
        while True:
            self.samples.append(sum(p.fresh for p in self.pages) / len(self.pages))
            yield self.env.timeout(10_000)

    def run(self):
        self.env.run(until=self.horizon + 1)
        stationary = self.samples[350:]
        return sum(stationary) / len(stationary)


def main():
    pages = int(sys.argv[1])
    horizon = int(sys.argv[2]) if len(sys.argv) > 2 else WEEK
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    began = time.perf_counter()
    results = {}
    events = 0
    for concept in ("robot", "sensors"):
        model = Model(pages, horizon, seed, concept)
        results[concept] = model.run()
        events += model.events
    seconds = time.perf_counter() - began
    print(json.dumps({"implementation": f"SimPy {simpy.__version__} on CPython {sys.version.split()[0]}", "pages": pages, "seconds": seconds, "events": events,
                      "events_per_second": events / seconds, "robot_freshness": results["robot"], "sensor_freshness": results["sensors"]}))


if __name__ == "__main__":
    main()
