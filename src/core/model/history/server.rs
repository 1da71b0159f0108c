//! A URL's server: its host name (RFC 3986 authority without user and port, lowercased),
//! or its registrable domain by the Public Suffix List (the `psl2` crate's copy, its
//! version in [`psl_version`]).

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
    /// The registrable domain: the public suffix and one label more, by the Public
    /// Suffix List, its private entries included (`example.co.uk`; `a.github.io` stays
    /// its own). A host with none (an IP address, a suffix itself, `localhost`) is its
    /// own server.
    Domain => "registrable domain (Public Suffix List)",
}
}

/// A URL's scheme, its authority without the user (`Example.COM:8080`) and what follows
/// (path, query and fragment), or None without `scheme://`.
pub fn url_parts(url: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = url.split_once("://")?;
    let (authority, tail) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
    Some((scheme, authority.rsplit_once('@').map_or(authority, |(_, h)| h), tail))
}

/// The host of `url` (`http://User@Example.COM:8080/a` → `example.com`), or None when it
/// has no `scheme://host`.
pub fn host(url: &str) -> Option<String> {
    let (_, authority, _) = url_parts(url)?;
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

/// The Public Suffix List's version the domains are read with (a UTC time).
pub fn psl_version() -> &'static str {
    psl2::psl_version()
}

fn domain(host: &str) -> String {
    if host.starts_with('[') || host.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return host.to_string(); // an IP address is its own domain
    }
    psl2::lookup(host).and_then(|d| d.registrable_domain()).unwrap_or(host).to_string()
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
        // where a two-label rule goes wrong, the list does not
        assert_eq!(server_of("http://www.city.kawasaki.jp/", ServerBy::Domain).as_deref(), Some("city.kawasaki.jp"));
        assert_eq!(server_of("http://a.b.example.com.au/", ServerBy::Domain).as_deref(), Some("example.com.au"));
        assert_eq!(server_of("http://alice.github.io/x", ServerBy::Domain).as_deref(), Some("alice.github.io"));
        assert_eq!(server_of("http://de.wikipedia.org/", ServerBy::Domain).as_deref(), Some("wikipedia.org"));
        assert_eq!(server_of("http://example.travel/", ServerBy::Domain).as_deref(), Some("example.travel"));
        assert_eq!(server_of("http://co.uk/", ServerBy::Domain).as_deref(), Some("co.uk"));
        assert_eq!(server_of("http://localhost/", ServerBy::Domain).as_deref(), Some("localhost"));
    }
}
