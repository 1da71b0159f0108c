//! The thesis's published reductions (§5.2.2–5.2.5) beside the ones measured here.
//! A reduction of A against B is 100·(1 − ΣA/ΣB) over the numbers of robots both were
//! run with (the thesis: "redução média", averaged over 2 to 30 partitions).

use super::download::Politeness;
use super::scheme::Scheme;
use super::{AlgebraicPoint, SimPoint};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Comparison {
    pub name: String,
    /// The thesis's figure.
    pub figure: String,
    /// Published reduction, %.
    pub published: f64,
    /// Measured reduction, %, when both sides were run.
    pub measured: Option<f64>,
    /// What to add to the run to measure it.
    pub needs: String,
}

/// One side of a comparison.
#[derive(Clone, Copy)]
enum Side {
    /// Simulated download time.
    Time(Scheme, Politeness),
    /// Simulated share of routed URLs sent to another robot (the same under every politeness).
    Exchanges(Scheme),
    /// Eq 5.1–5.2.
    Download(Scheme),
    /// Eq 5.3.
    Exchange(Scheme),
    /// Eq 5.3 for the URLs moved when a robot is added.
    Redistribution(Scheme),
    /// Eq 5.1–5.2 with one robot.
    Central,
}

impl Side {
    /// The value at `robots` robots, if it was run.
    fn at(self, robots: u64, sims: &[SimPoint], alg: &[AlgebraicPoint], central: Option<f64>) -> Option<f64> {
        let a = |s: Scheme| alg.iter().find(|x| x.scheme == s && x.robots == robots);
        match self {
            Side::Time(s, p) => sims.iter().find(|x| x.scheme == s && x.politeness == p && x.robots == robots).map(|x| x.total_s),
            Side::Exchanges(s) => sims.iter().find(|x| x.scheme == s && x.robots == robots).map(|x| x.exchange_pct),
            Side::Download(s) => a(s).map(|x| x.download_s),
            Side::Exchange(s) => a(s).map(|x| x.exchange_s),
            Side::Redistribution(s) => a(s).and_then(|x| x.redistribution_s),
            Side::Central => central,
        }
    }

    fn needs(self) -> String {
        match self {
            Side::Time(s, p) => format!("{} with politeness {}", s.label(), p.label()),
            Side::Exchanges(s) | Side::Download(s) | Side::Exchange(s) | Side::Redistribution(s) => s.label().to_string(),
            Side::Central => "one central robot".into(),
        }
    }
}

/// Every published comparison, measured where the run holds both sides.
pub fn comparisons(robots: &[u64], sims: &[SimPoint], alg: &[AlgebraicPoint], central: Option<f64>) -> Vec<Comparison> {
    use Politeness::*;
    use Scheme::*;
    use Side::*;
    let rows: [(&str, &str, f64, Side, Side); 16] = [
        ("download time, graph vs hash, fixed politeness", "Fig 5.12", 0.03, Time(GraphRtt, Fixed), Time(HashHost, Fixed)),
        ("URL exchanges, graph vs hash", "Fig 5.13", 76.0, Exchanges(GraphRtt), Exchanges(HashHost)),
        ("URL exchanges, RTT vs map distance", "Fig 5.15", 2.3, Exchanges(GraphRtt), Exchanges(GraphGeo)),
        ("download time, hosts vs IPs as the unit", "Fig 5.16", 22.0, Time(GraphRtt, Fixed), Time(GraphRttIp, Fixed)),
        ("download time, graph with Eq 5.4 vs hash with 15 s", "Fig 5.18", 91.0, Time(GraphRtt, Density), Time(HashHost, Fixed)),
        ("download time, graph with Eq 5.4 vs hash fixed at Eq 5.4's mean", "Fig 5.20", 69.0, Time(GraphRtt, Density), Time(HashHost, FixedMean)),
        ("download time, both with Eq 5.4: graph vs hash", "Fig 5.21", 6.0, Time(GraphRtt, Density), Time(HashHost, Density)),
        ("download time with Eq 5.4, RTT vs map distance", "Fig 5.22", 57.0, Time(GraphRtt, Density), Time(GraphGeo, Density)),
        ("download time, distance graph with Eq 5.4 vs hash fixed at the mean", "Fig 5.22", 28.0, Time(GraphGeo, Density), Time(HashHost, FixedMean)),
        ("download time, dynamic politeness: graph vs hash", "Fig 5.23", 14.0, Time(GraphRtt, Dynamic), Time(HashHost, Dynamic)),
        ("Eq 5.1–5.2 download time, hash vs one central robot", "Fig 5.4", 82.0, Download(HashHost), Central),
        ("Eq 5.1–5.2 download time, graph vs one central robot", "Fig 5.4", 88.0, Download(GraphRtt), Central),
        ("Eq 5.1–5.2 download time, graph vs hash", "Fig 5.4", 33.0, Download(GraphRtt), Download(HashHost)),
        ("Eq 5.1–5.2 download time, hosts vs IPs as the unit", "Fig 5.5", 8.0, Download(GraphRtt), Download(GraphRttIp)),
        ("Eq 5.3 exchange time, graph vs hash", "Fig 5.6", 50.0, Exchange(GraphRtt), Exchange(HashHost)),
        ("redistribution time (a robot added), graph vs hash", "Fig 5.8", 35.0, Redistribution(GraphRtt), Redistribution(HashHost)),
    ];
    rows.iter()
        .map(|&(name, figure, published, a, b)| {
            let (mut sa, mut sb, mut n) = (0.0, 0.0, 0);
            for &p in robots {
                if let (Some(x), Some(y)) = (a.at(p, sims, alg, central), b.at(p, sims, alg, central)) {
                    sa += x;
                    sb += y;
                    n += 1;
                }
            }
            let measured = (n > 0 && sb > 0.0).then(|| 100.0 * (1.0 - sa / sb));
            let ran = |side: Side| robots.iter().any(|&p| side.at(p, sims, alg, central).is_some());
            let missing: Vec<String> = [a, b].into_iter().filter(|&side| !ran(side)).map(Side::needs).collect();
            let needs = match (measured.is_some(), missing.is_empty()) {
                (true, _) => String::new(),
                (false, false) => missing.join(" and "),
                (false, true) => "a number of robots both sides ran".into(),
            };
            Comparison { name: name.into(), figure: figure.into(), published, measured, needs }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn sim(scheme: Scheme, politeness: Politeness, robots: u64, total_s: f64, exchange_pct: f64) -> SimPoint {
        SimPoint { scheme, politeness, robots, total_s, exchange_pct, violations: 0, downloads: 1, mean_wait_s: 1.0, load_ratio: 1.0 }
    }

    #[test]
    fn reductions_average_over_the_robot_counts_both_sides_ran() {
        let sims = [
            sim(Scheme::GraphRtt, Politeness::Fixed, 2, 90.0, 10.0),
            sim(Scheme::HashHost, Politeness::Fixed, 2, 100.0, 40.0),
            sim(Scheme::GraphRtt, Politeness::Fixed, 4, 50.0, 10.0),
            sim(Scheme::HashHost, Politeness::Fixed, 4, 100.0, 60.0),
            // only one side at 8 robots: left out
            sim(Scheme::HashHost, Politeness::Fixed, 8, 1000.0, 60.0),
        ];
        let c = comparisons(&[2, 4, 8], &sims, &[], None);
        assert!((c[0].measured.unwrap() - 100.0 * (1.0 - 140.0 / 200.0)).abs() < 1e-9);
        assert!((c[1].measured.unwrap() - 80.0).abs() < 1e-9, "exchanges: 1 − 20/100");
        assert_eq!(c[2].measured, None);
        assert_eq!(c[2].needs, "graph (distance + links), hosts", "only the side not run");
        assert_eq!(c.len(), 16);
    }
}
