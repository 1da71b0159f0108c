//! The graphs Exposto partitions (spec §4, thesis §5.1): vertices are partition units
//! (host names or IPs) weighted by their pages, plus one fixed vertex per robot. One
//! graph per objective — proximity (RTT or map distance) as unit–robot edges, hyperlinks
//! as unit–unit edges — and the combined graph w = Σ_k p_k·w_k/ec_k (Schloegel 1999).

use super::web::Web;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// What a partition assigns whole to one robot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Host,
    Ip,
}

/// The units of a web: which unit each host belongs to, and each unit's pages.
#[derive(Clone, Debug)]
pub struct Units {
    pub kind: Unit,
    pub of_host: Vec<u32>,
    pub pages: Vec<f64>,
    /// One host of each unit (its IP and place stand for the unit's).
    pub host: Vec<u32>,
}

impl Units {
    pub fn new(web: &Web, kind: Unit) -> Units {
        let of_host: Vec<u32> = match kind {
            Unit::Host => (0..web.hosts() as u32).collect(),
            Unit::Ip => web.host_ip.clone(),
        };
        let n = match kind {
            Unit::Host => web.hosts(),
            Unit::Ip => web.ips(),
        };
        let mut pages = vec![0.0; n];
        let mut host = vec![u32::MAX; n];
        for (h, &u) in of_host.iter().enumerate() {
            pages[u as usize] += web.host_pages(h) as f64;
            if host[u as usize] == u32::MAX {
                host[u as usize] = h as u32;
            }
        }
        Units { kind, of_host, pages, host }
    }

    pub fn len(&self) -> usize {
        self.pages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}

/// A graph over units and `parts` fixed robot vertices (robot j sits in part j).
#[derive(Clone, Debug, PartialEq)]
pub struct Graph {
    pub parts: usize,
    /// Vertex weights (pages).
    pub weight: Vec<f64>,
    /// Symmetric unit–unit edges in compressed rows: neighbours of u are
    /// adj[start[u] .. start[u + 1]], with weights w[..].
    pub start: Vec<u32>,
    pub adj: Vec<u32>,
    pub w: Vec<f64>,
    /// Unit–robot edge weights, units × parts (empty: none).
    pub robot: Vec<f64>,
}

impl Graph {
    pub fn units(&self) -> usize {
        self.weight.len()
    }

    pub fn neighbours(&self, u: usize) -> impl Iterator<Item = (usize, f64)> + '_ {
        let (a, b) = (self.start[u] as usize, self.start[u + 1] as usize);
        self.adj[a..b].iter().zip(&self.w[a..b]).map(|(&v, &w)| (v as usize, w))
    }

    /// Weight of the edge between unit u and robot j.
    pub fn robot_edge(&self, u: usize, j: usize) -> f64 {
        if self.robot.is_empty() { 0.0 } else { self.robot[u * self.parts + j] }
    }

    /// The edge cut: weights of the unit–unit edges between parts (each once) and of
    /// the unit–robot edges to other robots' parts.
    pub fn cut(&self, part: &[u32]) -> f64 {
        let mut cut = 0.0;
        for u in 0..self.units() {
            for (v, w) in self.neighbours(u) {
                if v > u && part[u] != part[v] {
                    cut += w;
                }
            }
            for j in 0..self.parts {
                if j != part[u] as usize {
                    cut += self.robot_edge(u, j);
                }
            }
        }
        cut
    }

    /// Total edge weight (the cut when every edge crosses).
    pub fn total(&self) -> f64 {
        self.w.iter().sum::<f64>() / 2.0 + self.robot.iter().sum::<f64>()
    }

    /// The hyperlink graph: edge weight = links between the two units, both ways.
    pub fn links(web: &Web, units: &Units, parts: usize) -> Graph {
        let mut pairs: HashMap<(u32, u32), f64> = HashMap::new();
        for page in 0..web.pages() {
            let a = units.of_host[web.host_of[page] as usize];
            for &t in web.links_of(page) {
                let b = units.of_host[web.host_of[t as usize] as usize];
                if a != b {
                    *pairs.entry((a.min(b), a.max(b))).or_insert(0.0) += 1.0;
                }
            }
        }
        let mut edges: Vec<(u32, u32, f64)> = pairs.into_iter().map(|((a, b), w)| (a, b, w)).collect();
        edges.sort_unstable_by_key(|e| (e.0, e.1));
        Graph::from_edges(units.pages.clone(), parts, &edges, Vec::new())
    }

    /// A proximity graph: unit–robot edges weighted pages × (nearest / this), so a unit
    /// is pulled hardest towards its nearest robot, and a dense unit pulls hardest.
    /// `far(u, j)` is the RTT or distance between unit u and robot j.
    pub fn proximity(units: &Units, parts: usize, far: impl Fn(usize, usize) -> f64) -> Graph {
        let n = units.len();
        let mut robot = vec![0.0; n * parts];
        for u in 0..n {
            let d: Vec<f64> = (0..parts).map(|j| far(u, j)).collect();
            let nearest = d.iter().copied().fold(f64::INFINITY, f64::min);
            for j in 0..parts {
                robot[u * parts + j] = units.pages[u] * nearest / d[j];
            }
        }
        Graph { parts, weight: units.pages.clone(), start: vec![0; n + 1], adj: Vec::new(), w: Vec::new(), robot }
    }

    /// The combined graph (thesis §5.1): w = Σ_k p_k·w_k/ec_k over the objectives'
    /// graphs and the cuts of their own partitions. A cut of zero (an objective fully
    /// met) normalises by the objective's total weight instead.
    pub fn combined(objectives: &[(&Graph, f64, f64)]) -> Graph {
        let first = objectives[0].0;
        let (n, parts) = (first.units(), first.parts);
        let scale = |g: &Graph, p: f64, ec: f64| p / if ec > 0.0 { ec } else { g.total().max(1e-300) };
        let mut robot = vec![0.0; n * parts];
        let mut pairs: HashMap<(u32, u32), f64> = HashMap::new();
        for &(g, p, ec) in objectives {
            let s = scale(g, p, ec);
            for (k, &w) in g.robot.iter().enumerate() {
                robot[k] += s * w;
            }
            for u in 0..n {
                for (v, w) in g.neighbours(u) {
                    if v > u {
                        *pairs.entry((u as u32, v as u32)).or_insert(0.0) += s * w;
                    }
                }
            }
        }
        let mut edges: Vec<(u32, u32, f64)> = pairs.into_iter().map(|((a, b), w)| (a, b, w)).collect();
        edges.sort_unstable_by_key(|e| (e.0, e.1));
        let robot = if objectives.iter().all(|(g, _, _)| g.robot.is_empty()) { Vec::new() } else { robot };
        Graph::from_edges(first.weight.clone(), parts, &edges, robot)
    }

    /// Builds the symmetric rows from undirected edges (a < b).
    pub fn from_edges(weight: Vec<f64>, parts: usize, edges: &[(u32, u32, f64)], robot: Vec<f64>) -> Graph {
        let n = weight.len();
        let mut start = vec![0u32; n + 1];
        for &(a, b, _) in edges {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut adj = vec![0u32; 2 * edges.len()];
        let mut w = vec![0.0; 2 * edges.len()];
        for &(a, b, x) in edges {
            for (from, to) in [(a, b), (b, a)] {
                let k = fill[from as usize] as usize;
                adj[k] = to;
                w[k] = x;
                fill[from as usize] += 1;
            }
        }
        Graph { parts, weight, start, adj, w, robot }
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// Four units in a path 0–1–2–3 (weights 1, 2, 3), two robots; robot 0 near unit 0.
    fn path() -> Graph {
        Graph::from_edges(vec![1.0; 4], 2, &[(0, 1, 1.0), (1, 2, 2.0), (2, 3, 3.0)], vec![5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 4.0])
    }

    #[test]
    fn the_cut_counts_crossing_edges_once_and_robot_edges_to_other_parts() {
        let g = path();
        // parts {0,1} {2,3}: edge 1–2 (2) crosses; robot edges all at home
        assert_eq!(g.cut(&[0, 0, 1, 1]), 2.0);
        // parts {0} {1,2,3}: edge 0–1 (1) crosses
        assert_eq!(g.cut(&[0, 1, 1, 1]), 1.0);
        // everything in part 1: unit 0's edge to robot 0 (5) crosses
        assert_eq!(g.cut(&[1, 1, 1, 1]), 5.0);
        // everything in part 0: unit 3's edge to robot 1 (4) crosses
        assert_eq!(g.cut(&[0, 0, 0, 0]), 4.0);
        assert_eq!(g.total(), 6.0 + 9.0);
        assert_eq!(g.neighbours(1).collect::<Vec<_>>(), vec![(0, 1.0), (2, 2.0)]);
    }

    #[test]
    fn the_combined_graph_normalises_each_objective_by_its_cut() {
        let links = Graph::from_edges(vec![1.0; 2], 2, &[(0, 1, 10.0)], Vec::new());
        let near = Graph { parts: 2, weight: vec![1.0; 2], start: vec![0; 3], adj: Vec::new(), w: Vec::new(), robot: vec![4.0, 2.0, 1.0, 8.0] };
        let c = Graph::combined(&[(&links, 1.0, 10.0), (&near, 2.0, 4.0)]);
        assert_eq!(c.neighbours(0).collect::<Vec<_>>(), vec![(1, 1.0)]);
        assert_eq!(c.robot, vec![2.0, 1.0, 0.5, 4.0]);
        // an objective with a zero cut is normalised by its total
        let c = Graph::combined(&[(&links, 1.0, 0.0)]);
        assert_eq!(c.neighbours(1).collect::<Vec<_>>(), vec![(0, 1.0)]);
        assert!(c.robot.is_empty());
    }
}
