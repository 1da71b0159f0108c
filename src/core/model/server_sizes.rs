//! Servers' sizes (pages per server, largest first) as they cross to the page and back:
//! runs of equal sizes, `[[pages, servers], …]`. A list's shape goes with every check of
//! the page's form; 20,000 servers' sizes read one by one held its main thread ~15 ms
//! at each of a check's three reads, and n servers of N pages have at most √(2N)
//! distinct sizes (1,414 for a million pages).

use super::page_list::SHAPE_SIZES;
use serde::de::Error;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Sizes as runs of equal values, in their order.
pub fn serialize<S: Serializer>(sizes: &[f64], serializer: S) -> Result<S::Ok, S::Error> {
    let mut runs: Vec<(f64, u64)> = Vec::new();
    for &size in sizes {
        match runs.last_mut() {
            Some((value, count)) if value.to_bits() == size.to_bits() => *count += 1,
            _ => runs.push((size, 1)),
        }
    }
    runs.serialize(serializer)
}

/// Runs back to sizes, refusing a size that is not a count of pages and more servers
/// than a shape keeps.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<f64>, D::Error> {
    let runs = Vec::<(f64, u64)>::deserialize(deserializer)?;
    let servers = runs.iter().try_fold(0u64, |sum, &(_, count)| sum.checked_add(count)).unwrap_or(u64::MAX);
    if servers > SHAPE_SIZES {
        return Err(D::Error::custom(format!(
            "the servers' sizes ([pages, servers] runs) count {servers} servers, over the {SHAPE_SIZES} a list's shape keeps; send the shape the worker read"
        )));
    }
    if let Some(&(size, _)) = runs.iter().find(|(size, _)| !(size.is_finite() && *size >= 0.0)) {
        return Err(D::Error::custom(format!("a server's size {size} is not a count of pages; give each run as [pages, servers] with pages ≥ 0")));
    }
    Ok(runs.into_iter().flat_map(|(size, count)| std::iter::repeat_n(size, count as usize)).collect())
}

#[cfg(test)]
mod tests {
    use serde::{Deserialize, Serialize};

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Held {
        #[serde(with = "super")]
        sizes: Vec<f64>,
    }

    #[test]
    fn equal_sizes_cross_as_runs_and_come_back_in_order() {
        let held = Held { sizes: vec![5.0, 5.0, 3.0, 1.0, 1.0, 1.0] };
        let json = serde_json::to_string(&held).unwrap();
        assert_eq!(json, r#"{"sizes":[[5.0,2],[3.0,1],[1.0,3]]}"#);
        assert_eq!(serde_json::from_str::<Held>(&json).unwrap(), held);
        assert_eq!(serde_json::to_string(&Held { sizes: vec![] }).unwrap(), r#"{"sizes":[]}"#);
    }

    #[test]
    fn runs_over_a_shapes_servers_or_not_counting_pages_are_refused() {
        let over = serde_json::from_str::<Held>(r#"{"sizes":[[2.0,15000],[1.0,5001]]}"#).unwrap_err().to_string();
        assert!(over.contains("20001 servers, over the 20000"), "{over}");
        let huge = serde_json::from_str::<Held>(r#"{"sizes":[[2.0,18446744073709551615],[1.0,1]]}"#).unwrap_err().to_string();
        assert!(huge.contains("over the 20000"), "{huge}");
        let negative = serde_json::from_str::<Held>(r#"{"sizes":[[-1.0,3]]}"#).unwrap_err().to_string();
        assert!(negative.contains("size -1 is not a count of pages"), "{negative}");
    }
}
