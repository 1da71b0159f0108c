//! A URL's server: its host name (RFC 3986 authority without user and port, lowercased),
//! or its registrable domain, approximated without the Public Suffix List.

use crate::core::labels::labelled;
use serde::{Deserialize, Serialize};

labelled! {
/// What groups pages into one server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerBy {
    /// The URL's host name: `news.example.com`.
    #[default]
    Host => "host name",
    /// The last two labels of the host (three under a two-letter country code whose
    /// second label has at most three letters: `example.co.uk`, `example.com.br`), an
    /// approximation of the Public Suffix List's registrable domain.
    Domain => "registrable domain (approximate)",
}
}

/// The host of `url` (`http://User@Example.COM:8080/a` → `example.com`), or None when it
/// has no `scheme://host`.
pub fn host(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if authority.starts_with('[') { authority.split_inclusive(']').next()? } else { authority.split(':').next()? };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// The server of `url` as `by` says.
pub fn server_of(url: &str, by: ServerBy) -> Option<String> {
    let host = host(url)?;
    Some(match by {
        ServerBy::Host => host,
        ServerBy::Domain => domain(&host),
    })
}

fn domain(host: &str) -> String {
    if host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return host.to_string(); // an IP address is its own domain
    }
    let labels: Vec<&str> = host.split('.').collect();
    let n = labels.len();
    let keep = if n >= 3 && labels[n - 1].len() == 2 && labels[n - 2].len() <= 3 { 3 } else { 2 };
    labels[n.saturating_sub(keep)..].join(".")
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn hosts_and_domains() {
        assert_eq!(host("http://User:pw@Example.COM:8080/a?b#c").as_deref(), Some("example.com"));
        assert_eq!(host("https://news.example.com./x").as_deref(), Some("news.example.com"));
        assert_eq!(host("http://[2001:db8::1]:80/").as_deref(), Some("[2001:db8::1]"));
        assert_eq!(host("example.com/a"), None);
        assert_eq!(host("http:///a"), None);
        assert_eq!(server_of("http://a.b.news.example.com/", ServerBy::Domain).as_deref(), Some("example.com"));
        assert_eq!(server_of("http://www.bbc.co.uk/", ServerBy::Domain).as_deref(), Some("bbc.co.uk"));
        assert_eq!(server_of("http://www.uol.com.br/", ServerBy::Domain).as_deref(), Some("uol.com.br"));
        assert_eq!(server_of("http://10.0.0.1/", ServerBy::Domain).as_deref(), Some("10.0.0.1"));
        assert_eq!(server_of("http://localhost/", ServerBy::Domain).as_deref(), Some("localhost"));
    }
}
