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
}
