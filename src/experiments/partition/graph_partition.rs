//! Partitioning a graph among robots (thesis §5.1): an initial greedy partition, then
//! Kernighan–Lin / Fiduccia–Mattheyses refinement with the robots as fixed vertices —
//! exactly one robot per part, no part left without units, every part's pages within
//! the balance limit.

use super::graph::Graph;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// The balance limit (1 + ε)·W/p: no move or placement takes a part over it. Units are
/// indivisible, so a unit heavier than the limit seeds a part of its own, which then
/// takes nothing else.
pub fn balance_limit(weights: &[f64], parts: usize, imbalance: f64) -> f64 {
    (1.0 + imbalance) * weights.iter().sum::<f64>() / parts as f64
}

/// Pages per part.
pub fn loads(weights: &[f64], part: &[u32], parts: usize) -> Vec<f64> {
    let mut load = vec![0.0; parts];
    for (u, &q) in part.iter().enumerate() {
        load[q as usize] += weights[u];
    }
    load
}

/// The greedy start: units from the densest down, each to the part it is most
/// connected to (its robot edge plus edges to units already placed) among those with
/// room; the first `parts` units seed one part each; ties go to the lightest part.
pub fn initial(g: &Graph, limit: f64) -> Vec<u32> {
    let (n, p) = (g.units(), g.parts);
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| g.weight[b].total_cmp(&g.weight[a]).then(a.cmp(&b)));
    let mut part = vec![u32::MAX; n];
    let mut load = vec![0.0; p];
    let mut seeded = vec![false; p];
    let mut empty = p;
    let mut score = vec![0.0; p];
    for &u in &order {
        for (j, s) in score.iter_mut().enumerate() {
            *s = g.robot_edge(u, j);
        }
        for (v, w) in g.neighbours(u) {
            if part[v] != u32::MAX {
                score[part[v] as usize] += w;
            }
        }
        let allowed = |q: usize| if empty > 0 { !seeded[q] } else { load[q] + g.weight[u] <= limit };
        let better = |q: usize, best: usize| match score[q].total_cmp(&score[best]) {
            Ordering::Greater => true,
            Ordering::Equal => load[q] < load[best],
            Ordering::Less => false,
        };
        let mut choice: Option<usize> = None;
        for q in 0..p {
            if allowed(q) && choice.is_none_or(|b| better(q, b)) {
                choice = Some(q);
            }
        }
        // no part has room: the lightest takes it (refinement may then ease it)
        let q = choice.unwrap_or_else(|| (0..p).min_by(|&a, &b| load[a].total_cmp(&load[b])).unwrap_or(0));
        if empty > 0 {
            empty -= 1;
            seeded[q] = true;
        }
        part[u] = q as u32;
        load[q] += g.weight[u];
    }
    part
}

/// Max-heap entry: a unit's best gain when it was pushed, with a stamp to detect staleness.
#[derive(PartialEq)]
struct Candidate {
    gain: f64,
    unit: usize,
    stamp: u32,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        self.gain.total_cmp(&other.gain).then(other.unit.cmp(&self.unit))
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The refinement's working state: each unit's connection to each part.
struct Refiner<'a> {
    g: &'a Graph,
    part: &'a mut [u32],
    conn: Vec<f64>,
    load: Vec<f64>,
    members: Vec<usize>,
    limit: f64,
}

impl Refiner<'_> {
    /// The best move of u — (target part, gain in cut) — that keeps its part non-empty
    /// and the target within the balance limit.
    fn best_move(&self, u: usize) -> Option<(usize, f64)> {
        let (p, own) = (self.g.parts, self.part[u] as usize);
        if self.members[own] <= 1 {
            return None;
        }
        let row = &self.conn[u * p..(u + 1) * p];
        let mut best: Option<(usize, f64)> = None;
        for q in 0..p {
            if q != own && self.load[q] + self.g.weight[u] <= self.limit {
                let gain = row[q] - row[own];
                if best.is_none_or(|(_, b)| gain > b) {
                    best = Some((q, gain));
                }
            }
        }
        best
    }

    fn apply(&mut self, u: usize, to: usize) {
        let p = self.g.parts;
        let from = self.part[u] as usize;
        for (v, w) in self.g.neighbours(u) {
            self.conn[v * p + from] -= w;
            self.conn[v * p + to] += w;
        }
        self.load[from] -= self.g.weight[u];
        self.load[to] += self.g.weight[u];
        self.members[from] -= 1;
        self.members[to] += 1;
        self.part[u] = to as u32;
    }
}

/// How many moves without a new best a pass tries before it stops (the hill-climbing
/// that lets FM leave a local minimum).
const PATIENCE: usize = 64;

/// KL/FM refinement: passes of single-unit moves, best gain first, each unit moved at
/// most once a pass, the pass rolled back to its best prefix; stops when a pass gains
/// nothing. The cut never increases. Returns the cut.
pub fn refine(g: &Graph, part: &mut [u32], limit: f64, max_passes: usize) -> f64 {
    let (n, p) = (g.units(), g.parts);
    let mut conn = vec![0.0; n * p];
    for u in 0..n {
        for j in 0..p {
            conn[u * p + j] = g.robot_edge(u, j);
        }
        for (v, w) in g.neighbours(u) {
            conn[u * p + part[v] as usize] += w;
        }
    }
    let load = loads(&g.weight, part, p);
    let mut members = vec![0usize; p];
    for &q in part.iter() {
        members[q as usize] += 1;
    }
    let scale = g.total().max(1e-300);
    let mut r = Refiner { g, part, conn, load, members, limit };
    for _ in 0..max_passes {
        let mut locked = vec![false; n];
        let mut stamp = vec![0u32; n];
        let mut heap: BinaryHeap<Candidate> = (0..n).filter_map(|u| r.best_move(u).map(|(_, gain)| Candidate { gain, unit: u, stamp: 0 })).collect();
        let mut moves: Vec<(usize, usize)> = Vec::new();
        let (mut sum, mut best, mut best_len) = (0.0, 0.0, 0);
        while let Some(c) = heap.pop() {
            if locked[c.unit] || c.stamp != stamp[c.unit] {
                continue;
            }
            let Some((to, gain)) = r.best_move(c.unit) else { continue };
            if gain != c.gain {
                heap.push(Candidate { gain, unit: c.unit, stamp: c.stamp });
                continue;
            }
            let from = r.part[c.unit] as usize;
            r.apply(c.unit, to);
            locked[c.unit] = true;
            moves.push((c.unit, from));
            sum += gain;
            if sum > best + 1e-12 * scale {
                best = sum;
                best_len = moves.len();
            } else if moves.len() - best_len >= PATIENCE {
                break;
            }
            for (v, _) in g.neighbours(c.unit) {
                if !locked[v] {
                    stamp[v] += 1;
                    if let Some((_, gain)) = r.best_move(v) {
                        heap.push(Candidate { gain, unit: v, stamp: stamp[v] });
                    }
                }
            }
        }
        for &(u, from) in moves[best_len..].iter().rev() {
            r.apply(u, from);
        }
        if best_len == 0 {
            break;
        }
    }
    g.cut(r.part)
}

/// Partitions `g`: the greedy start, then refinement. Returns (parts, cut).
pub fn partition(g: &Graph, imbalance: f64) -> (Vec<u32>, f64) {
    let limit = balance_limit(&g.weight, g.parts, imbalance);
    let mut part = initial(g, limit);
    let cut = refine(g, &mut part, limit, 16);
    (part, cut)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::core::rng::{Purpose, Stream};

    /// A random graph: n units of random weight, about `degree` edges each, p robots
    /// with random pulls.
    fn random_graph(n: usize, p: usize, degree: usize, seed: u64) -> Graph {
        let mut rng = Stream::of(seed, Purpose::Test, 0);
        let weight: Vec<f64> = (0..n).map(|_| (1.0 + 20.0 * rng.uniform()).floor()).collect();
        let mut edges = std::collections::BTreeMap::new();
        for _ in 0..n * degree / 2 {
            let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
            if a != b {
                *edges.entry((a.min(b), a.max(b))).or_insert(0.0) += 1.0 + rng.below(5) as f64;
            }
        }
        let edges: Vec<(u32, u32, f64)> = edges.into_iter().map(|((a, b), w)| (a, b, w)).collect();
        let robot = if seed.is_multiple_of(2) { (0..n * p).map(|_| 3.0 * rng.uniform()).collect() } else { Vec::new() };
        Graph::from_edges(weight, p, &edges, robot)
    }

    #[test]
    fn refinement_never_increases_the_cut_and_keeps_every_invariant() {
        for seed in 0..12 {
            let p = 2 + seed as usize % 5;
            let g = random_graph(120, p, 6, seed);
            let limit = balance_limit(&g.weight, p, 0.05);
            let mut part = initial(&g, limit);
            let before = g.cut(&part);
            let after = refine(&g, &mut part, limit, 16);
            assert!(after <= before + 1e-9, "seed {seed}: cut rose from {before} to {after}");
            assert_eq!(after, g.cut(&part), "the returned cut is the partition's");
            let load = loads(&g.weight, &part, p);
            let members = |q: usize| part.iter().filter(|&&x| x as usize == q).count();
            assert!((0..p).all(|q| load[q] <= limit + 1e-9 || members(q) == 1), "seed {seed}: {load:?} over {limit}");
            assert!((0..p as u32).all(|q| part.contains(&q)), "seed {seed}: a part is empty");
            assert!(part.iter().all(|&q| (q as usize) < p), "every unit in exactly one of the robots' parts");
        }
    }

    #[test]
    fn refinement_finds_the_obvious_split() {
        // two cliques joined by one light edge, each near its own robot, from a bad start
        let mut edges = Vec::new();
        for a in 0..4u32 {
            for b in a + 1..4 {
                edges.push((a, b, 10.0));
                edges.push((a + 4, b + 4, 10.0));
            }
        }
        edges.push((3, 4, 1.0));
        let mut robot = vec![0.0; 16];
        robot[0] = 1.0; // unit 0 to robot 0
        robot[7 * 2 + 1] = 1.0; // unit 7 to robot 1
        let g = Graph::from_edges(vec![1.0; 8], 2, &edges, robot);
        let mut part = vec![0, 1, 0, 1, 0, 1, 0, 1];
        let cut = refine(&g, &mut part, 5.0, 16);
        assert_eq!(part, vec![0, 0, 0, 0, 1, 1, 1, 1]);
        assert_eq!(cut, 1.0);
    }

    #[test]
    fn a_unit_over_the_limit_keeps_its_part_to_itself() {
        assert_eq!(balance_limit(&[1.0, 1.0, 1.0, 1.0], 2, 0.1), 2.2);
        // a giant unit (10 of 16 pages) and six small ones, three robots: limit 5.6
        let g = Graph::from_edges(vec![10.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], 3, &[(0, 1, 5.0), (0, 2, 5.0)], Vec::new());
        let (part, _) = partition(&g, 0.05);
        let load = loads(&g.weight, &part, 3);
        assert_eq!(part.iter().filter(|&&q| q == part[0]).count(), 1, "the giant is alone: {part:?}");
        assert_eq!(load.iter().filter(|&&l| l == 3.0).count(), 2, "the others share the rest evenly: {load:?}");
    }
}
