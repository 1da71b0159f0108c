//! A repository: pages grouped by server, each with a change rate and an importance.
//! Stored as flat arrays (struct of arrays) so that millions of pages stay compact.

use std::ops::Range;

/// The smallest positive change rate taken, per day (once in 2.7 billion years): below
/// it the allocation's marginals (≈ λ/2f² for the thesis's freshness) underflow, and a
/// page that changes so seldom is one that never changes (rate 0).
pub const MIN_CHANGE_RATE: f64 = 1e-12;

#[derive(Clone, Debug, PartialEq)]
pub struct Repository {
    /// Change rate λ of each page, in changes per day (0: never changes).
    pub lambda: Vec<f64>,
    /// Importance w of each page; `None` means every page weighs 1.
    pub weight: Option<Vec<f32>>,
    /// Pages of server s are `server_start[s]..server_start[s + 1]`.
    pub server_start: Vec<usize>,
    /// Which pages have every change observed (a sitemap or feed announces each one:
    /// Kolobov et al. 2019's complete-observation sources); `None`: none has.
    pub observed: Option<Vec<bool>>,
}

impl Repository {
    /// A repository from per-server page lists of change rates (weights 1).
    pub fn from_servers(servers: &[Vec<f64>]) -> Self {
        let mut server_start = vec![0];
        let mut lambda = Vec::new();
        for pages in servers {
            lambda.extend_from_slice(pages);
            server_start.push(lambda.len());
        }
        Repository { lambda, weight: None, server_start, observed: None }
    }

    pub fn pages(&self) -> usize {
        self.lambda.len()
    }

    pub fn servers(&self) -> usize {
        self.server_start.len() - 1
    }

    pub fn server_pages(&self, s: usize) -> Range<usize> {
        self.server_start[s]..self.server_start[s + 1]
    }

    /// The server of page i.
    pub fn server_of(&self, i: usize) -> usize {
        self.server_start.partition_point(|&start| start <= i) - 1
    }

    #[inline]
    pub fn weight(&self, i: usize) -> f64 {
        self.weight.as_ref().map_or(1.0, |w| w[i] as f64)
    }

    /// True when page i has every change observed.
    #[inline]
    pub fn observed(&self, i: usize) -> bool {
        self.observed.as_ref().is_some_and(|o| o[i])
    }

    pub fn total_weight(&self) -> f64 {
        self.weight.as_ref().map_or(self.pages() as f64, |w| w.iter().map(|&x| x as f64).sum())
    }

    /// Bytes per page held by the repository itself.
    pub fn bytes_per_page(&self) -> u64 {
        8 + if self.weight.is_some() { 4 } else { 0 } + if self.observed.is_some() { 1 } else { 0 }
    }
}
