//! What a simulated request costs natively on one thread, as measured: the estimates'
//! time per request (and the policies shards' cut) read it.

/// Native time of a request on one thread, accounting included, on a server of 10^k
/// pages (k = 1 … 6): the slowest of MERGE, DELAYED, RANDOM and UNPOLITE, measured
/// on 2 M pages at 90 % of the maximum rate by `scripts/calibrate-requests.sh` (the
/// 10-day less the 1-day run, `--threads 1`). A larger server's pages fall out of the
/// cache: from 10 to 10⁶ pages a request costs 13 times as much. (Without the 10-page
/// point, the classroom's servers of about 10 pages were counted at 57 ns and its
/// estimate was 2.0 times its time.)
const NS_PER_REQUEST: [f64; 6] = [47.0, 57.0, 75.0, 156.0, 194.0, 621.0];

/// The measured cost of a request on a server of `pages` pages, in ns, at its power of
/// ten from 10² (integer arithmetic alone: the same natively and in WebAssembly, where the
/// cut of a run into shards uses it; the table's 10-page point is left out, so the cut is
/// the one it was before that point was measured).
pub fn request_ns_at_decade(pages: usize) -> f64 {
    NS_PER_REQUEST[(pages.max(1).ilog10() as usize).clamp(2, 6) - 1]
}

/// The cost of a request on a server of `pages` pages, interpolated in log₁₀(pages).
pub fn seconds_per_request(pages: f64) -> f64 {
    let k = pages.max(1.0).log10().clamp(1.0, 6.0) - 1.0;
    let i = (k.floor() as usize).min(NS_PER_REQUEST.len() - 2);
    let t = k - i as f64;
    1e-9 * (NS_PER_REQUEST[i] + t * (NS_PER_REQUEST[i + 1] - NS_PER_REQUEST[i]))
}

/// What the repository's size does to that cost: the table is of 2 M pages, whose
/// schedules are out of the cache; a smaller repository's stay in it. The share of the
/// 2 M pages' cost at 10⁴, 10⁵ and 10⁶ pages in all (MERGE and RANDOM on servers of 10
/// and 100 pages, the mean of the four ratios), measured by
/// `PAGES=… PER="10 100" POLICIES="merge random" scripts/calibrate-requests.sh`. (Without
/// it, the classroom's 10,000 pages were estimated at 2.06 times their time.)
const REPOSITORY_SHARE: [(f64, f64); 4] = [(4.0, 0.589), (5.0, 0.614), (6.0, 0.920), (6.30103, 1.0)];

/// The share of [`seconds_per_request`] a request costs in a repository of `pages`
/// pages in all, interpolated in log₁₀(pages); 1 from 2 M pages, the 10⁴ pages' share
/// below them.
pub fn repository_share(pages: f64) -> f64 {
    let points = &REPOSITORY_SHARE;
    let k = pages.max(1.0).log10().clamp(points[0].0, points[points.len() - 1].0);
    let i = points.windows(2).position(|w| k <= w[1].0).unwrap_or(0);
    let ((a, sa), (b, sb)) = (points[i], points[i + 1]);
    sa + (k - a) / (b - a) * (sb - sa)
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    /// A request costs the measured table at each power of ten, the line between two of
    /// them in between, and the ends beyond the table.
    #[test]
    fn a_request_costs_the_measured_table_at_powers_of_ten() {
        for (k, &ns) in NS_PER_REQUEST.iter().enumerate() {
            let at = seconds_per_request(10f64.powi(k as i32 + 1)) * 1e9;
            assert!((at - ns).abs() < 1e-9 * ns, "10^{}: {at} ns", k + 1);
        }
        let midway = seconds_per_request(10f64.powf(4.5)) * 1e9;
        assert!((midway - (NS_PER_REQUEST[3] + NS_PER_REQUEST[4]) / 2.0).abs() < 1e-6, "{midway}");
        assert_eq!(seconds_per_request(3.0), seconds_per_request(10.0));
        assert_eq!(seconds_per_request(1e9), seconds_per_request(1e6));
        // the shards' cut reads the table from 10² pages, as before its 10-page point
        assert_eq!([1, 100, 999, 1_000, 1_000_000, 1 << 30].map(request_ns_at_decade), [57.0, 57.0, 57.0, 75.0, 621.0, 621.0]);
    }

    /// A repository's share is the measured one at 10⁴, 10⁵ and 10⁶ pages, 1 from 2 M,
    /// the line between two points in log₁₀(pages), and the ends beyond them.
    #[test]
    fn a_repositorys_share_is_measured_at_its_points() {
        for &(k, share) in &REPOSITORY_SHARE {
            assert!((repository_share(10f64.powf(k)) - share).abs() < 1e-12, "10^{k}: {}", repository_share(10f64.powf(k)));
        }
        let [(_, small), (_, medium), ..] = REPOSITORY_SHARE;
        assert!((repository_share(10f64.powf(4.5)) - (small + medium) / 2.0).abs() < 1e-12);
        assert_eq!((repository_share(10.0), repository_share(1e9)), (small, 1.0));
        assert!(REPOSITORY_SHARE.windows(2).all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1), "a larger repository costs no less");
    }
}
