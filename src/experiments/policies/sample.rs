//! Server sampling [beyond the thesis]: an estimate of the repository's freshness from a
//! sample of its servers, with its confidence interval (issue 16: a full Fig 5.8 in
//! minutes).
//!
//! Under per-server policies the servers are independent once the allocation is fixed,
//! and repository freshness is F = Σ_s W_s F_s / W (W_s: a server's weight, W = Σ W_s).
//! The servers heavy enough to be drawn at least once in expectation (W_s ≥ W_rest / n,
//! applied until no more qualify) are taken whole; from the rest, n servers are drawn
//! with replacement with probability W_s / W_rest, and W_rest times the mean of the drawn
//! servers' F_s estimates their part without bias (Hansen–Hurwitz). The draws are dealt
//! round-robin to [`GROUPS`] groups, each an independent estimate; their spread gives a
//! 95 % interval with Student's t on GROUPS − 1 degrees of freedom. Each server is
//! simulated once, however often drawn, with the streams it has in the whole run, so its
//! curve is the one the whole run gives it.
//!
//! The groups' estimates are combined by a ratio estimator leaning on an auxiliary known
//! for every server ([`Auxiliary`]): the policy's expected stationary freshness in closed
//! form (Eq 5-2 for RANDOM, Lemma 4.2 for the others), computed for the whole repository
//! too. A server's simulated freshness follows it closely, so the interval is far
//! narrower than the plain Hansen–Hurwitz mean's on the same draws.

use crate::core::math::freshness::{a_star, random_freshness};
use crate::core::model::repository::Repository;
use crate::core::policy::PolicyKind;
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

/// Independent groups of draws (the interval's degrees of freedom + 1).
pub const GROUPS: usize = 16;

/// The servers to simulate, as a repository of their own, and how they are counted.
pub struct ServerSample {
    /// The whole repository's index of each simulated server, in increasing order.
    pub servers: Vec<usize>,
    /// How the simulated servers' results make the estimate.
    pub design: SampleDesign,
    /// The whole repository's index of each page of `repo`.
    pub pages: Vec<usize>,
    /// The simulated servers' pages, with their own weights.
    pub repo: Repository,
}

/// How a sample's simulated servers are counted: all a part of a split run needs to
/// join its servers' results with the other parts' (it travels with the part's output).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SampleDesign {
    /// Each simulated server's weight W_s.
    pub weights: Vec<f64>,
    /// Whether a simulated server is taken whole (else it was drawn).
    pub certain: Vec<bool>,
    /// Each group's draws, as indices into the simulated servers (a server drawn twice
    /// appears twice).
    pub groups: Vec<Vec<usize>>,
    /// W, and the weight of the servers not taken whole.
    pub total_weight: f64,
    pub rest_weight: f64,
}

/// The servers a sample of `draws` draws takes whole (take-all: until no server left
/// weighs W_rest / draws or more; servers of weight 0 never), and the weight of the
/// others, W_rest. Each round takes every server over the threshold and subtracts their
/// weights in server order. The cost model applies it to the generator's law of sizes,
/// which comes sorted, largest first, as generated repositories do: no sort then.
pub(super) fn take_whole(weight: &[f64], draws: f64) -> (Vec<bool>, f64) {
    let mut order: Vec<usize> = (0..weight.len()).collect();
    if !weight.is_sorted_by(|a, b| a >= b) {
        order.sort_by(|&a, &b| weight[b].total_cmp(&weight[a]));
    }
    let mut certain = vec![false; weight.len()];
    let mut rest_weight: f64 = weight.iter().sum();
    let mut taken = 0;
    loop {
        let threshold = rest_weight / draws;
        let end = taken + order[taken..].partition_point(|&s| weight[s] > 0.0 && weight[s] >= threshold);
        if end == taken {
            return (certain, rest_weight);
        }
        let mut round = order[taken..end].to_vec();
        round.sort_unstable();
        for s in round {
            certain[s] = true;
            rest_weight -= weight[s];
        }
        taken = end;
    }
}

impl ServerSample {
    /// The servers heavy enough for `draws` draws taken whole, and `draws` servers drawn
    /// from the others with probability ∝ their weight, from the stream of `seed`
    /// numbered `draws` (samples of other sizes are independent of it). Servers of
    /// weight 0 are never simulated; `draws` ≥ [`GROUPS`].
    pub fn draw(whole: &Repository, draws: usize, seed: u64) -> Self {
        let weight: Vec<f64> = (0..whole.servers()).map(|s| whole.server_pages(s).map(|i| whole.weight(i)).sum()).collect();
        let total_weight: f64 = weight.iter().sum();
        let (certain, rest_weight) = take_whole(&weight, draws as f64);
        let rest: Vec<usize> = (0..weight.len()).filter(|&s| !certain[s] && weight[s] > 0.0).collect();
        let mut cumulative = Vec::with_capacity(rest.len());
        let mut sum = 0.0;
        for &s in &rest {
            sum += weight[s];
            cumulative.push(sum);
        }
        let mut rng = Stream::of(seed, Purpose::ServerSample, draws as u64);
        let drawn: Vec<usize> = if rest.is_empty() {
            Vec::new()
        } else {
            (0..draws)
                .map(|_| {
                    let u = rng.uniform() * sum;
                    // the first server whose cumulative weight exceeds u
                    rest[cumulative.partition_point(|&c| c <= u).min(rest.len() - 1)]
                })
                .collect()
        };
        let mut servers: Vec<usize> = (0..weight.len()).filter(|&s| certain[s]).chain(drawn.iter().copied()).collect();
        servers.sort_unstable();
        servers.dedup();
        let place = |s: usize| servers.binary_search(&s).expect("a simulated server");
        let groups = (0..GROUPS).map(|g| drawn.iter().skip(g).step_by(GROUPS).map(|&s| place(s)).collect()).collect();
        let held: usize = servers.iter().map(|&s| whole.server_pages(s).len()).sum();
        let mut pages = Vec::with_capacity(held);
        let (mut lambda, mut weights, mut server_start) = (Vec::with_capacity(held), Vec::with_capacity(held), Vec::with_capacity(servers.len() + 1));
        server_start.push(0);
        for &s in &servers {
            for i in whole.server_pages(s) {
                pages.push(i);
                lambda.push(whole.lambda[i]);
                weights.push(whole.weight(i) as f32);
            }
            server_start.push(pages.len());
        }
        ServerSample {
            design: SampleDesign {
                weights: servers.iter().map(|&s| weight[s]).collect(),
                certain: servers.iter().map(|&s| certain[s]).collect(),
                groups,
                total_weight,
                rest_weight,
            },
            servers,
            pages,
            repo: Repository { server_start, lambda, weight: Some(weights), observed: None },
        }
    }
}

impl SampleDesign {
    /// Each group's estimate of a quantity given per simulated server as its total
    /// Σ_i w_i x_i (so that x̄_s = total_s / W_s): (Σ_taken-whole total_s + W_rest ×
    /// mean of the group's x̄_s over its draws) / W.
    pub fn group_estimates(&self, totals: &[f64]) -> Vec<f64> {
        let certain: f64 = (0..self.weights.len()).filter(|&k| self.certain[k]).map(|k| totals[k]).sum();
        self.groups
            .iter()
            .map(|draws| {
                let rest = if draws.is_empty() { 0.0 } else { self.rest_weight * draws.iter().map(|&k| totals[k] / self.weights[k]).sum::<f64>() / draws.len() as f64 };
                (certain + rest) / self.total_weight
            })
            .collect()
    }
}

/// What a sample's ratio estimator leans on: each simulated server's expected
/// stationary fresh weight under the run's policy at its allocation f, where a closed
/// form gives it, and the whole repository's over W, known exactly. RANDOM: Eq 5-2;
/// MERGE, DELAYED and UNPOLITE: Lemma 4.2's Σ_i w_i A*(λ_i, f_i), which equally spaced
/// visits reach and they approach.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Auxiliary {
    pub servers: Vec<f64>,
    pub whole: f64,
}

impl Auxiliary {
    /// For the sample's repository `sampled` at its share `sampled_f` of the allocation
    /// `f` of the whole repository `whole`.
    pub fn of(policy: PolicyKind, sampled: &Repository, sampled_f: &[f64], whole: &Repository, f: &[f64]) -> Self {
        let total: f64 = expected_fresh_weight(policy, whole, f).iter().sum();
        Auxiliary { servers: expected_fresh_weight(policy, sampled, sampled_f), whole: total / whole.total_weight() }
    }
}

/// Each server's Σ_i w_i A_i in stationarity under `policy` at allocation `f` (see
/// [`Auxiliary`]); the server is requested at f_s = Σ f_i over its pages.
fn expected_fresh_weight(policy: PolicyKind, repo: &Repository, f: &[f64]) -> Vec<f64> {
    (0..repo.servers())
        .map(|s| {
            let pages = repo.server_pages(s);
            let fs: f64 = f[pages.clone()].iter().sum();
            let fresh = |i: usize| match policy {
                PolicyKind::Random => random_freshness(repo.lambda[i], f[i], fs),
                _ => a_star(repo.lambda[i], f[i]),
            };
            pages.map(|i| repo.weight(i) * fresh(i)).sum()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn heavy_servers_are_taken_whole_and_the_rest_drawn_by_weight() {
        // server 0 weighs 1,000, server 1 nothing, then 200 servers of weight 1 and 200 of 3
        let mut weight = vec![1000.0, 0.0];
        weight.extend((0..400).map(|k| if k % 2 == 0 { 1.0 } else { 3.0 }));
        let repo = Repository { server_start: (0..=weight.len()).collect(), lambda: vec![1.0; weight.len()], weight: Some(weight.clone()), observed: None };
        // 256 draws: W_rest / n = 800/256 > 3, so only server 0 is taken whole
        let (n, mut heavy, mut all) = (256, 0, 0);
        for seed in 1..=20 {
            let ServerSample { servers, design: sample, pages, .. } = ServerSample::draw(&repo, n, seed);
            assert_eq!((servers[0], sample.certain[0]), (0, true));
            assert!(!servers.contains(&1), "a server of weight 0 is never drawn");
            assert!(sample.certain[1..].iter().all(|&c| !c));
            assert_eq!((sample.total_weight, sample.rest_weight), (1800.0, 800.0));
            assert!(sample.groups.iter().all(|g| g.len() == n / GROUPS));
            for &k in sample.groups.iter().flatten() {
                all += 1;
                heavy += usize::from(sample.weights[k] == 3.0);
            }
            assert_eq!(pages, servers, "one page a server");
        }
        // binomial(5,120, 0.75): within 4 sd
        let share = heavy as f64 / all as f64;
        assert!((share - 0.75).abs() < 4.0 * (0.75f64 * 0.25 / all as f64).sqrt(), "{share}");
        // each group's estimate: server 0's total, plus W_rest × its draws' mean
        let sample = ServerSample::draw(&repo, n, 1).design;
        let totals: Vec<f64> = sample.weights.iter().map(|&w| if w == 3.0 { 3.0 } else { 0.5 * w }).collect();
        for (g, e) in sample.groups.iter().zip(sample.group_estimates(&totals)) {
            let mean = g.iter().map(|&k| totals[k] / sample.weights[k]).sum::<f64>() / g.len() as f64;
            assert!((e - (500.0 + 800.0 * mean) / 1800.0).abs() < 1e-15);
        }
    }

    #[test]
    fn with_enough_draws_every_server_is_taken_whole() {
        let repo = Repository { server_start: vec![0, 2, 3, 6], lambda: vec![1.0; 6], weight: None, observed: None };
        let sample = ServerSample::draw(&repo, 16, 1).design;
        assert!(sample.certain.iter().all(|&c| c) && sample.groups.iter().all(|g| g.is_empty()));
        assert_eq!(sample.group_estimates(&[1.0, 0.5, 3.0]), vec![4.5 / 6.0; GROUPS]);
    }
}
