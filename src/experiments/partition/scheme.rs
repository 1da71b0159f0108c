//! Who downloads what (spec §4): the hash partitioners — of the host name, the URL or
//! the IP — and graph partitioning of the combined proximity + hyperlink graph with the
//! host or the IP as unit.

use super::graph::{Graph, Unit, Units};
use super::graph_partition::{loads, partition};
use super::web::Web;
use crate::core::field::{Nested, settings};
use crate::core::input::InputError;
use crate::core::labels::labelled;
use crate::core::rng::hash;
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scheme {
    /// Hash of the host name (the thesis's baseline).
    HashHost => "hash of host",
    /// Hash of the whole URL: best balance, most exchanges, politeness shared by robots.
    HashUrl => "hash of URL",
    /// Hash of the server's IP.
    HashIp => "hash of IP",
    /// Graph partitioning of hosts: RTT and hyperlinks combined.
    GraphRtt => "graph (RTT + links), hosts",
    /// Graph partitioning of hosts: map distance and hyperlinks combined.
    GraphGeo => "graph (distance + links), hosts",
    /// Graph partitioning of IPs: RTT and hyperlinks combined.
    GraphRttIp => "graph (RTT + links), IPs",
}
}

impl Scheme {
    /// The unit kept whole (and the server politeness is kept for).
    pub fn unit(self) -> Unit {
        match self {
            Scheme::HashIp | Scheme::GraphRttIp => Unit::Ip,
            _ => Unit::Host,
        }
    }

    pub fn is_graph(self) -> bool {
        matches!(self, Scheme::GraphRtt | Scheme::GraphGeo | Scheme::GraphRttIp)
    }
}

settings! {
/// Weights of the graph partitioning (thesis §5.1).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GraphParams {
    /// ε: no part above (1 + ε)·pages/p (or the densest unit, if more).
    pub imbalance: f64 = 0.05; number("balance tolerance ε").at_least(0.0).at_most(10.0);
    /// Preference factor p_k of the proximity objective (RTT or distance).
    pub proximity_preference: f64 = 1.0; number("preference: proximity (RTT or distance)").at_least(0.0).at_most(1e6);
    /// Preference factor p_k of the hyperlink objective.
    pub links_preference: f64 = 1.0; number("preference: hyperlinks").at_least(0.0).at_most(1e6);
    /// Added to map distances (km) so that a robot on a server's spot is not infinitely near.
    pub near_km: f64 = 50.0; number("added to map distances (km)").help("so that a robot on a server's spot is not infinitely near").positive().at_most(1e5);
}
}

impl Nested for GraphParams {
    /// One of the two preferences positive.
    fn rules(&self, prefix: &str) -> Result<(), InputError> {
        if self.proximity_preference + self.links_preference <= 0.0 {
            return Err(InputError::new(format!("{prefix}links_preference"), "one of the two preference factors must be positive"));
        }
        Ok(())
    }
}

/// The units and hyperlink graph of a web for one kind of unit (they do not depend on
/// the number of robots, so a sweep builds them once).
pub struct Topology {
    pub units: Units,
    pub links: Graph,
}

impl Topology {
    pub fn new(web: &Web, unit: Unit) -> Topology {
        let units = Units::new(web, unit);
        let links = Graph::links(web, &units, 1);
        Topology { units, links }
    }
}

/// A partition of the web among robots.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// Robot of each page.
    pub owner: Vec<u32>,
    /// The politeness server of each host: itself, or its IP when the unit is the IP.
    pub server_of_host: Vec<u32>,
    pub servers: usize,
    /// Cut of the combined graph and of each objective's own partition (graph schemes).
    pub cut: Option<Cuts>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cuts {
    pub combined: f64,
    pub proximity: f64,
    pub links: f64,
}

impl Assignment {
    /// Pages per robot.
    pub fn loads(&self, robots: usize) -> Vec<f64> {
        let mut load = vec![0.0; robots];
        for &r in &self.owner {
            load[r as usize] += 1.0;
        }
        load
    }
}

/// Partitions `web` among `robots` robots (at sites 0..robots) by `scheme`.
/// `topology` must be built for `scheme.unit()` when the scheme is a graph one.
pub fn assign(web: &Web, scheme: Scheme, robots: usize, params: &GraphParams, topology: Option<&Topology>, seed: u64) -> Assignment {
    let unit_of_host: Vec<u32> = match scheme.unit() {
        Unit::Host => (0..web.hosts() as u32).collect(),
        Unit::Ip => web.host_ip.clone(),
    };
    let servers = match scheme.unit() {
        Unit::Host => web.hosts(),
        Unit::Ip => web.ips(),
    };
    let p = robots as u64;
    let by_unit = |part: &[u32]| (0..web.pages()).map(|page| part[unit_of_host[web.host_of[page] as usize] as usize]).collect::<Vec<u32>>();
    let (owner, cut) = match scheme {
        Scheme::HashHost | Scheme::HashIp => {
            let part: Vec<u32> = (0..servers).map(|u| (hash(seed, u as u64) % p) as u32).collect();
            (by_unit(&part), None)
        }
        Scheme::HashUrl => ((0..web.pages()).map(|page| (hash(seed, page as u64) % p) as u32).collect(), None),
        Scheme::GraphRtt | Scheme::GraphGeo | Scheme::GraphRttIp => {
            let t = topology.expect("graph schemes need their topology");
            let units = &t.units;
            let links = Graph { parts: robots, ..t.links.clone() };
            let proximity = if scheme == Scheme::GraphGeo {
                Graph::proximity(units, robots, |u, j| web.km(units.host[u] as usize, j) + params.near_km)
            } else {
                Graph::proximity(units, robots, |u, j| web.rtt(units.host[u] as usize, j))
            };
            let (_, ec_links) = partition(&links, params.imbalance);
            let (_, ec_proximity) = partition(&proximity, params.imbalance);
            let combined = Graph::combined(&[(&links, params.links_preference, ec_links), (&proximity, params.proximity_preference, ec_proximity)]);
            let (part, cut) = partition(&combined, params.imbalance);
            debug_assert_eq!(loads(&combined.weight, &part, robots).iter().filter(|&&l| l == 0.0).count(), 0);
            (by_unit(&part), Some(Cuts { combined: cut, proximity: ec_proximity, links: ec_links }))
        }
    };
    Assignment { owner, server_of_host: unit_of_host, servers, cut }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::experiments::partition::web::WebConfig;

    #[test]
    fn every_scheme_gives_every_page_one_robot_and_keeps_units_whole() {
        let web = WebConfig { hosts: 120, ips: 40, mean_pages: 12.0, max_pages: 300, ..WebConfig::default() }.generate(3).unwrap();
        for scheme in [Scheme::HashHost, Scheme::HashUrl, Scheme::HashIp, Scheme::GraphRtt, Scheme::GraphGeo, Scheme::GraphRttIp] {
            let topology = scheme.is_graph().then(|| Topology::new(&web, scheme.unit()));
            let a = assign(&web, scheme, 5, &GraphParams::default(), topology.as_ref(), 9);
            assert_eq!(a.owner.len(), web.pages());
            assert!(a.owner.iter().all(|&r| r < 5), "{scheme:?}");
            if scheme != Scheme::HashUrl {
                // a unit's pages all go to one robot
                let mut robot_of_unit = vec![u32::MAX; a.servers];
                for page in 0..web.pages() {
                    let u = a.server_of_host[web.host_of[page] as usize] as usize;
                    assert!(robot_of_unit[u] == u32::MAX || robot_of_unit[u] == a.owner[page], "{scheme:?}: unit {u} split");
                    robot_of_unit[u] = a.owner[page];
                }
            }
            assert_eq!(a.cut.is_some(), scheme.is_graph());
            assert!(a.loads(5).iter().all(|&l| l > 0.0), "{scheme:?}: a robot without pages");
        }
    }
}
