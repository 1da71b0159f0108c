//! The document formats, read whole: sitemaps (the sitemaps.org protocol: a `urlset` of
//! `url` entries with `loc`, `lastmod`, `changefreq`, `priority`, or a `sitemapindex`)
//! and MediaWiki revisions (the API's `prop=revisions` JSON, either `formatversion`, or
//! an XML dump's `page`/`revision`/`timestamp`). A sitemap is at most 50 MB and 50,000
//! URLs by the protocol; a dump is read up to the records' size limit.

use super::{ChangeFreq, Mark, Records, Skip, What};
use crate::core::model::trace::parse_time;

/// The sitemaps a sitemap index lists, kept to name them (at most this many).
pub const LISTED: usize = 1000;

/// Reads a sitemap (a snapshot: each URL's lastmod is its last change before it was
/// written). Returns the sitemaps an index lists.
pub fn sitemap(text: &str, records: &mut Records) -> Result<Vec<String>, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("is not well-formed XML ({e})"))?;
    let root = doc.root_element();
    let line = |node: roxmltree::Node| doc.text_pos_at(node.range().start).row;
    let mut listed = Vec::new();
    match root.tag_name().name() {
        "sitemapindex" => {
            for entry in root.children().filter(|c| c.tag_name().name() == "sitemap") {
                records.skip(Skip::SitemapIndex);
                if let Some(loc) = child(entry, "loc").filter(|_| listed.len() < LISTED) {
                    listed.push(loc.to_string());
                }
            }
        }
        "urlset" => {
            for entry in root.children().filter(|c| c.tag_name().name() == "url") {
                let at = line(entry);
                let loc = child(entry, "loc").filter(|l| !l.is_empty()).ok_or_else(|| format!("line {at}: a <url> without <loc>; every entry needs its page's address"))?;
                let page = match child(entry, "lastmod") {
                    Some(lastmod) => {
                        let time = w3c_time(lastmod).map_err(|e| format!("line {at}: lastmod {e}"))?;
                        records.add(loc, Mark { time, what: What::Lastmod }).map_err(|e| format!("line {at}: {e}"))?
                    }
                    None => {
                        records.skip(Skip::NoLastmod);
                        records.page(loc).ok_or_else(|| format!("line {at}: more than {} pages (the limit)", super::MAX_PAGES))?
                    }
                };
                if let Some(freq) = child(entry, "changefreq") {
                    let freq = ChangeFreq::parse(freq).ok_or_else(|| format!("line {at}: changefreq “{freq}” is not always, hourly, daily, weekly, monthly, yearly or never"))?;
                    records.changefreq.insert(page, freq);
                }
                if let Some(priority) = child(entry, "priority") {
                    let p: f64 =
                        priority.parse().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(|| format!("line {at}: priority “{priority}” is not a number from 0.0 to 1.0"))?;
                    records.weights.insert(page, p);
                }
            }
        }
        other => return Err(format!("its root element is <{other}>, not <urlset> or <sitemapindex>")),
    }
    Ok(listed)
}

/// A W3C Datetime (the sitemaps' lastmod): YYYY, YYYY-MM, YYYY-MM-DD, or a date and time
/// with a zone.
fn w3c_time(text: &str) -> Result<f64, String> {
    match text.len() {
        4 => parse_time(&format!("{text}-01-01")),
        7 => parse_time(&format!("{text}-01")),
        _ => parse_time(text),
    }
}

/// Reads MediaWiki revisions: each revision's timestamp is a change of its page, named
/// `https://<site>/wiki/<Title>` (the dump's own site from `siteinfo/base`, else `site`).
pub fn mediawiki(text: &str, site: &str, records: &mut Records) -> Result<(), String> {
    let url = |site: &str, title: &str| format!("https://{site}/wiki/{}", title.replace(' ', "_"));
    if text.trim_start().starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("is not JSON ({e})"))?;
        let pages = value.pointer("/query/pages").ok_or("has no query.pages: save the answer of action=query&prop=revisions&rvprop=timestamp")?;
        let pages: Vec<&serde_json::Value> = match pages {
            serde_json::Value::Object(map) => map.values().collect(),
            serde_json::Value::Array(list) => list.iter().collect(),
            _ => return Err("query.pages is neither an object nor a list".into()),
        };
        for page in pages {
            let title = page.get("title").and_then(|t| t.as_str()).ok_or("a page in query.pages has no title")?;
            let name = url(site, title);
            let revisions = page.get("revisions").and_then(|r| r.as_array()).map(Vec::as_slice).unwrap_or(&[]);
            if revisions.is_empty() {
                records.page(&name);
            }
            for revision in revisions {
                let stamp = revision.get("timestamp").and_then(|t| t.as_str()).ok_or_else(|| format!("a revision of “{title}” has no timestamp: ask for rvprop=timestamp"))?;
                let time = parse_time(stamp).map_err(|e| format!("a revision of “{title}”: {e}"))?;
                records.add(&name, Mark { time, what: What::Change })?;
            }
        }
        return Ok(());
    }
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("is not well-formed XML ({e})"))?;
    let root = doc.root_element();
    let dump_site = named(root, "siteinfo").and_then(|s| named(s, "base")).and_then(|b| b.text()).and_then(super::server::host);
    let site = dump_site.as_deref().unwrap_or(site);
    for page in root.children().filter(|c| c.tag_name().name() == "page") {
        let at = doc.text_pos_at(page.range().start).row;
        let title = named(page, "title").and_then(|t| t.text()).ok_or_else(|| format!("line {at}: a <page> without <title>"))?;
        let name = url(site, title);
        let mut any = false;
        for revision in page.children().filter(|c| c.tag_name().name() == "revision") {
            let at = doc.text_pos_at(revision.range().start).row;
            let stamp = named(revision, "timestamp").and_then(|t| t.text()).ok_or_else(|| format!("line {at}: a <revision> without <timestamp>"))?;
            let time = parse_time(stamp.trim()).map_err(|e| format!("line {at}: {e}"))?;
            records.add(&name, Mark { time, what: What::Change }).map_err(|e| format!("line {at}: {e}"))?;
            any = true;
        }
        if !any {
            records.page(&name);
        }
    }
    Ok(())
}

/// The first child element of `node` called `name`.
fn named<'a, 'input>(node: roxmltree::Node<'a, 'input>, name: &str) -> Option<roxmltree::Node<'a, 'input>> {
    node.children().find(|c| c.tag_name().name() == name)
}

/// The trimmed text of `node`'s child `name`.
fn child<'a>(node: roxmltree::Node<'a, '_>, name: &str) -> Option<&'a str> {
    named(node, name).and_then(|c| c.text()).map(str::trim)
}
