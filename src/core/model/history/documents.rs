//! The document formats: sitemaps (the sitemaps.org protocol: a `urlset` of `url`
//! entries with `loc`, `lastmod`, `changefreq`, `priority`, or a `sitemapindex`) and
//! MediaWiki XML dumps (`siteinfo/base`, then `page`/`title`/`revision`/`timestamp`), read
//! as they stream by quick-xml's pull parser ([`XmlReader`]): an entry at a time, memory
//! for the current entry only (a dump is gigabytes; its revisions' `<text>` is never
//! kept); and the MediaWiki API's `prop=revisions` JSON (either `formatversion`), read
//! whole ([`mediawiki_json`]: an answer holds at most a few thousand revisions).

use super::{ChangeFreq, Format, Mark, Records, Skip, What};
use crate::core::model::trace::parse_time;
use quick_xml::events::Event;
use std::io::BufRead;

/// The sitemaps a sitemap index lists, kept to name them (at most this many).
pub const LISTED: usize = 1000;

/// A MediaWiki page's address: `https://<site>/wiki/<Title>`.
fn wiki_url(site: &str, title: &str) -> String {
    format!("https://{site}/wiki/{}", title.replace(' ', "_"))
}

/// What a MediaWiki page's address serves: its view (`action=view`) is an HTML page
/// whatever the page's content model (wikitext, CSS, JSON…).
const WIKI_TYPE: &str = "text/html";

/// A MediaWiki page on `site`, with `mark` (None: a page without revisions), its type
/// its view's.
fn wiki_page(records: &mut Records, site: &str, title: &str, mark: Option<Mark>) -> Result<(), String> {
    let url = wiki_url(site, title);
    let page = match mark {
        Some(mark) => records.add(&url, mark)?,
        None => records.page(&url).ok_or_else(|| format!("more than {} pages (the limit); read fewer pages", super::MAX_PAGES))?,
    };
    records.saw_type(page, WIKI_TYPE);
    Ok(())
}

/// Reads MediaWiki API revisions (`action=query&prop=revisions&rvprop=timestamp`, JSON):
/// each revision's timestamp is a change of its page, on `site`.
pub fn mediawiki_json(text: &str, site: &str, records: &mut Records) -> Result<(), String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("is not JSON ({e})"))?;
    let pages = value.pointer("/query/pages").ok_or("has no query.pages: save the answer of action=query&prop=revisions&rvprop=timestamp")?;
    let pages: Vec<&serde_json::Value> = match pages {
        serde_json::Value::Object(map) => map.values().collect(),
        serde_json::Value::Array(list) => list.iter().collect(),
        _ => return Err("query.pages is neither an object nor a list".into()),
    };
    for page in pages {
        let title = page.get("title").and_then(|t| t.as_str()).ok_or("a page in query.pages has no title")?;
        let revisions = page.get("revisions").and_then(|r| r.as_array()).map(Vec::as_slice).unwrap_or(&[]);
        if revisions.is_empty() {
            wiki_page(records, site, title, None)?;
        }
        for revision in revisions {
            let stamp = revision.get("timestamp").and_then(|t| t.as_str()).ok_or_else(|| format!("a revision of “{title}” has no timestamp: ask for rvprop=timestamp"))?;
            let time = parse_time(stamp).map_err(|e| format!("a revision of “{title}”: {e}"))?;
            wiki_page(records, site, title, Some(Mark { time, what: What::Change }))?;
        }
    }
    Ok(())
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

/// What the root element says the document is.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Root {
    Urlset,
    SitemapIndex,
    Dump,
}

/// The fields of the entry being read: a sitemap's `url` or `sitemap`, or a dump's page
/// (`loc` holds its title) and the revision in it.
#[derive(Default)]
struct Entry {
    line: usize,
    loc: Option<String>,
    lastmod: Option<String>,
    changefreq: Option<String>,
    priority: Option<String>,
    revisions: u64,
    revision_line: usize,
    timestamp: Option<String>,
}

/// A sitemap or a MediaWiki XML dump read as it streams, an element at a time.
pub struct XmlReader {
    reader: quick_xml::Reader<Box<dyn BufRead>>,
    buf: Vec<u8>,
    format: Format,
    root: Option<Root>,
    /// The open elements' local names, the root first.
    path: Vec<String>,
    /// The text of the field being read (only fields Freshlab reads are collected).
    text: Option<String>,
    entry: Entry,
    /// The dump's own site (`siteinfo/base`), else the configured one.
    site: String,
    /// The line the reader is at (newlines of the events read so far, + 1).
    line: usize,
    /// The sitemaps an index lists.
    pub listed: Vec<String>,
    /// The date in the file's name (a sitemap snapshot's time), if any.
    named_time: Option<f64>,
    /// This sitemap's snapshot, once its first `url` is read.
    snapshot: Option<u32>,
}

/// A date in a file's name — `2026-03-02`, `20260302` or a Wayback timestamp
/// `20260302120000` — as Unix seconds (midnight UTC, or the timestamp's second).
pub fn date_in_name(name: &str) -> Option<f64> {
    let bytes = name.as_bytes();
    for start in 0..bytes.len() {
        let rest = &name[start..];
        if start > 0 && bytes[start - 1].is_ascii_digit() {
            continue;
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let stamp = match digits {
            4 if rest.len() >= 10 && rest.as_bytes()[4] == b'-' && rest.as_bytes()[7] == b'-' => rest[..10].to_string(),
            8 => format!("{}-{}-{}", &rest[..4], &rest[4..6], &rest[6..8]),
            14 => format!("{}-{}-{}T{}:{}:{}Z", &rest[..4], &rest[4..6], &rest[6..8], &rest[8..10], &rest[10..12], &rest[12..14]),
            _ => continue,
        };
        if let Ok(t) = parse_time(&stamp) {
            return Some(t);
        }
    }
    None
}

impl XmlReader {
    /// Reads `source` as `format` (Sitemap or Mediawiki); `site` names a dump's pages
    /// unless its `siteinfo/base` does.
    pub fn new(source: Box<dyn BufRead>, format: Format, site: &str, name: &str) -> Self {
        XmlReader {
            reader: quick_xml::Reader::from_reader(source),
            buf: Vec::new(),
            format,
            root: None,
            path: Vec::new(),
            text: None,
            entry: Entry::default(),
            site: site.to_string(),
            line: 1,
            listed: Vec::new(),
            named_time: date_in_name(name),
            snapshot: None,
        }
    }

    /// Bytes read so far.
    pub fn position(&self) -> u64 {
        self.reader.buffer_position()
    }

    /// Lines ended so far (newlines read).
    pub fn lines(&self) -> usize {
        self.line - 1
    }

    /// Reads about `budget` bytes of events into `records`; false at the document's end.
    pub fn read(&mut self, budget: u64, records: &mut Records) -> Result<bool, String> {
        let start = self.position();
        loop {
            self.buf.clear();
            let event = self.reader.read_event_into(&mut self.buf).map_err(|e| format!("line {}: is not well-formed XML ({e})", self.line))?;
            let newlines = match &event {
                Event::Eof => 0,
                other => other.as_ref().iter().filter(|&&b| b == b'\n').count(),
            };
            match event {
                Event::Start(e) => {
                    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                    self.open(name)?;
                }
                Event::Empty(e) => {
                    let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                    self.open(name)?;
                    self.close(records)?;
                }
                Event::End(_) => self.close(records)?,
                Event::Text(t) => {
                    if let Some(text) = self.text.as_mut() {
                        text.push_str(&t.xml_content().map_err(|e| format!("line {}: {e}", self.line))?);
                    }
                }
                Event::CData(t) => {
                    if let Some(text) = self.text.as_mut() {
                        text.push_str(&String::from_utf8_lossy(&t));
                    }
                }
                Event::GeneralRef(r) => {
                    if let Some(text) = self.text.as_mut() {
                        let name = r.decode().map_err(|e| format!("line {}: {e}", self.line))?;
                        match r.resolve_char_ref() {
                            Ok(Some(c)) => text.push(c),
                            _ => match quick_xml::escape::resolve_predefined_entity(&name) {
                                Some(s) => text.push_str(s),
                                None => return Err(format!("line {}: the entity &{name}; is not one XML defines", self.line)),
                            },
                        }
                    }
                }
                Event::Eof => {
                    return match (self.root, self.path.last()) {
                        (None, _) => Err(self.not_this("it has no root element")),
                        (_, Some(open)) => Err(format!("line {}: ends inside <{open}>; is the file cut short?", self.line)),
                        _ => Ok(false),
                    };
                }
                _ => {}
            }
            self.line += newlines;
            if self.position() - start >= budget {
                return Ok(true);
            }
        }
    }

    /// The message for a document of another kind.
    fn not_this(&self, found: &str) -> String {
        match self.format {
            Format::Sitemap => format!("{found}, not <urlset> or <sitemapindex>"),
            _ => format!("{found}, not <mediawiki> (a MediaWiki XML dump)"),
        }
    }

    /// Whether the open elements are `names`, the root first.
    fn at(&self, names: &[&str]) -> bool {
        self.path.len() == names.len() && self.path.iter().zip(names).all(|(a, b)| a == b)
    }

    /// An element opens: the root says the kind; an entry starts; a field is collected.
    fn open(&mut self, name: String) -> Result<(), String> {
        if self.root.is_none() {
            self.root = Some(match (self.format, name.as_str()) {
                (Format::Sitemap, "urlset") => Root::Urlset,
                (Format::Sitemap, "sitemapindex") => Root::SitemapIndex,
                (Format::Mediawiki, "mediawiki") => Root::Dump,
                _ => return Err(self.not_this(&format!("its root element is <{name}>"))),
            });
        }
        self.path.push(name);
        let line = self.line;
        let path: Vec<&str> = self.path.iter().map(String::as_str).collect();
        match (self.root, path.as_slice()) {
            (Some(Root::Urlset), ["urlset", "url"]) | (Some(Root::SitemapIndex), ["sitemapindex", "sitemap"]) | (Some(Root::Dump), ["mediawiki", "page"]) => {
                self.entry = Entry { line, ..Entry::default() };
            }
            (Some(Root::Dump), ["mediawiki", "page", "revision"]) => {
                self.entry.revision_line = line;
                self.entry.timestamp = None;
            }
            (Some(Root::Urlset), ["urlset", "url", "loc" | "lastmod" | "changefreq" | "priority"])
            | (Some(Root::SitemapIndex), ["sitemapindex", "sitemap", "loc"])
            | (Some(Root::Dump), ["mediawiki", "siteinfo", "base"] | ["mediawiki", "page", "title"] | ["mediawiki", "page", "revision", "timestamp"]) => {
                self.text = Some(String::new());
            }
            _ => {}
        }
        Ok(())
    }

    /// An element closes: a field is kept, an entry read into `records`.
    fn close(&mut self, records: &mut Records) -> Result<(), String> {
        let text = self.text.take().map(|t| t.trim().to_string());
        let field = self.path.last().cloned().unwrap_or_default();
        let entry_ends = self.at(&["urlset", "url"]) || self.at(&["sitemapindex", "sitemap"]) || self.at(&["mediawiki", "page"]);
        let revision_ends = self.at(&["mediawiki", "page", "revision"]);
        if let Some(text) = text {
            match field.as_str() {
                "loc" | "title" => self.entry.loc = Some(text),
                "lastmod" => self.entry.lastmod = Some(text),
                "changefreq" => self.entry.changefreq = Some(text),
                "priority" => self.entry.priority = Some(text),
                "timestamp" => self.entry.timestamp = Some(text),
                "base" => {
                    if let Some(host) = super::server::host(&text) {
                        self.site = host;
                    }
                }
                _ => {}
            }
        }
        if revision_ends {
            self.revision(records)?;
        }
        if entry_ends {
            match self.root {
                Some(Root::Urlset) => self.url(records)?,
                Some(Root::SitemapIndex) => {
                    records.skip(Skip::SitemapIndex);
                    if let Some(loc) = self.entry.loc.take().filter(|_| self.listed.len() < LISTED) {
                        self.listed.push(loc);
                    }
                }
                Some(Root::Dump) => {
                    let at = self.entry.line;
                    let title = self.entry.loc.as_deref().ok_or_else(|| format!("line {at}: a <page> without <title>"))?;
                    if self.entry.revisions == 0 {
                        wiki_page(records, &self.site, title, None).map_err(|e| format!("line {at}: {e}"))?;
                    }
                }
                None => {}
            }
        }
        self.path.pop();
        Ok(())
    }

    /// A dump's revision: its timestamp is a change of the page.
    fn revision(&mut self, records: &mut Records) -> Result<(), String> {
        let at = self.entry.revision_line;
        let title = self.entry.loc.as_deref().ok_or_else(|| format!("line {at}: a <revision> before its page's <title>"))?;
        let stamp = self.entry.timestamp.take().ok_or_else(|| format!("line {at}: a <revision> without <timestamp>"))?;
        let time = parse_time(&stamp).map_err(|e| format!("line {at}: {e}"))?;
        wiki_page(records, &self.site, title, Some(Mark { time, what: What::Change })).map_err(|e| format!("line {at}: {e}"))?;
        self.entry.revisions += 1;
        Ok(())
    }

    /// A sitemap's `url` entry (a snapshot: its lastmod is the page's last change before
    /// the sitemap was written).
    fn url(&mut self, records: &mut Records) -> Result<(), String> {
        let entry = std::mem::take(&mut self.entry);
        let at = entry.line;
        let loc = entry.loc.filter(|l| !l.is_empty()).ok_or_else(|| format!("line {at}: a <url> without <loc>; every entry needs its page's address"))?;
        let page = match entry.lastmod {
            Some(lastmod) => {
                let time = w3c_time(&lastmod).map_err(|e| format!("line {at}: lastmod {e}"))?;
                let snapshot = *self.snapshot.get_or_insert_with(|| records.start_snapshot(self.named_time));
                records.saw_lastmod(snapshot, time);
                records.add(&loc, Mark { time, what: What::Lastmod { snapshot } }).map_err(|e| format!("line {at}: {e}"))?
            }
            None => {
                records.skip(Skip::NoLastmod);
                records.page(&loc).ok_or_else(|| format!("line {at}: more than {} pages (the limit)", super::MAX_PAGES))?
            }
        };
        if let Some(freq) = entry.changefreq {
            let parsed = ChangeFreq::parse(&freq).ok_or_else(|| format!("line {at}: changefreq “{freq}” is not always, hourly, daily, weekly, monthly, yearly or never"))?;
            records.changefreq.insert(page, parsed);
        }
        if let Some(priority) = entry.priority {
            let p: f64 = priority.parse().ok().filter(|p| (0.0..=1.0).contains(p)).ok_or_else(|| format!("line {at}: priority “{priority}” is not a number from 0.0 to 1.0"))?;
            records.weights.insert(page, p);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    fn read(text: &str, format: Format, budget: u64) -> Result<(Records, Vec<String>, usize), String> {
        let mut records = Records::default();
        let mut reader = XmlReader::new(Box::new(std::io::Cursor::new(text.as_bytes().to_vec())), format, "en.wikipedia.org", "");
        while reader.read(budget, &mut records)? {}
        Ok((records, reader.listed.clone(), reader.lines()))
    }

    /// Entities and CDATA in a field, comments and processing instructions between; the
    /// same result however small the slices; a revision's `<text>` never collected.
    #[test]
    fn fields_read_as_xml_says_in_any_slices() {
        let dump = "<?xml version=\"1.0\"?>\n<!-- a dump -->\n<mediawiki><siteinfo><base>https://fr.wikipedia.org/wiki/Accueil</base></siteinfo>\n<page><title>AT&amp;T &#x26; Co</title>\n<revision><timestamp>2026-01-01T00:00:00Z</timestamp><text>long &lt;text&gt; here</text></revision>\n<revision><timestamp><![CDATA[2026-01-03T00:00:00Z]]></timestamp></revision></page>\n<page><title>Empty</title></page></mediawiki>\n";
        let (whole, _, lines) = read(dump, Format::Mediawiki, u64::MAX).unwrap();
        assert_eq!(lines, 7);
        for budget in [1, 7, 64] {
            let (sliced, _, _) = read(dump, Format::Mediawiki, budget).unwrap();
            assert_eq!((sliced.urls.clone(), sliced.marks(0).len()), (whole.urls.clone(), whole.marks(0).len()));
        }
        assert_eq!(whole.pages(), 2);
        assert_eq!(&*whole.urls[0], "https://fr.wikipedia.org/wiki/AT&T_&_Co");
        assert_eq!(whole.marks(0).len(), 2, "two revisions");
        assert_eq!(&*whole.urls[1], "https://fr.wikipedia.org/wiki/Empty");
    }

    /// What cannot be read is refused with its line and the fix.
    #[test]
    fn bad_documents_are_refused_by_line() {
        let refused = |text: &str, format| read(text, format, u64::MAX).err().unwrap();
        assert!(refused("<urlset><url><loc>a</loc></urlset>", Format::Sitemap).contains("not well-formed"));
        assert!(refused("<urlset>\n<url><loc>https://a/</loc>", Format::Sitemap).contains("line 2: ends inside <url>"));
        assert!(refused("<html/>", Format::Sitemap).contains("root element is <html>, not <urlset>"));
        assert!(refused("<urlset/>", Format::Mediawiki).contains("not <mediawiki>"));
        assert!(refused("", Format::Sitemap).contains("no root element"));
        assert!(
            refused("<mediawiki>\n<page><revision><timestamp>2026-01-01T00:00:00Z</timestamp></revision></page></mediawiki>", Format::Mediawiki)
                .contains("line 2: a <revision> before")
        );
        assert!(
            refused("<mediawiki><page><title>A</title>\n<revision><id>1</id></revision></page></mediawiki>", Format::Mediawiki)
                .contains("line 2: a <revision> without <timestamp>")
        );
        assert!(refused("<urlset><url><loc>&nbsp;</loc></url></urlset>", Format::Sitemap).contains("&nbsp;"));
    }
}
