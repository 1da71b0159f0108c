//! The readers on files written by the formats' documentation, the estimates they give,
//! the slices, the refusals and the round trip into a page list.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::core::model::history::estimate::Status;
use crate::core::model::history::{Format, Skip, detect};
use crate::core::model::page_list;
use crate::experiments::job::in_slices;
use crate::experiments::{Figures, Tabular};

fn config(files: &[(&str, &str)]) -> HistoryConfig {
    HistoryConfig {
        source: RecordSource::Files,
        files: files.iter().map(|(name, text)| RecordFile { name: name.to_string(), text: text.to_string(), ..Default::default() }).collect(),
        ..Default::default()
    }
}

fn run(files: &[(&str, &str)]) -> HistoryOutput {
    config(files).start().expect("starts").finish()
}

fn page<'a>(o: &'a HistoryOutput, url: &str) -> &'a PageHistory {
    o.pages.iter().find(|p| p.url == url).unwrap_or_else(|| panic!("no page {url} in {:?}", o.pages.iter().map(|p| &p.url).collect::<Vec<_>>()))
}

fn skipped(o: &HistoryOutput, why: Skip) -> u64 {
    o.skipped.iter().find(|s| s.0 == why).map_or(0, |s| s.1)
}

/// The CDX file format (the Wayback Machine's legend ` CDX N b a m s k r M S V g`):
/// daily captures of one page with digests A A B B(revisit) C give four intervals of a
/// day, two changed: 2/(e^λ − 1) = 2 → λ = ln 2; a redirect, an error, a capture without
/// digest, a non-HTTP record, a repeat of the same second and a conflicting one are left
/// out by reason; a page captured twice unchanged is never seen changed.
const CDX: &str = " CDX N b a m s k r M S V g
com,example)/ 20260101000000 http://example.com/ text/html 200 AAAA - - 100 0 a.warc.gz
com,example)/ 20260102000000 http://example.com/ text/html 200 AAAA - - 100 0 a.warc.gz
com,example)/ 20260102000000 http://example.com/ text/html 200 AAAA - - 100 0 a.warc.gz
com,example)/ 20260103000000 http://example.com/ text/html 200 BBBB - - 100 0 a.warc.gz
com,example)/ 20260104000000 http://example.com/ warc/revisit - BBBB - - 100 0 a.warc.gz
com,example)/ 20260105000000 http://example.com/ text/html 200 CCCC - - 100 0 a.warc.gz
com,example)/ 20260105000000 http://example.com/ text/html 200 DDDD - - 100 0 a.warc.gz
com,example)/a 20260101000000 http://example.com/a text/html 301 RRRR http://example.com/b - 100 0 a.warc.gz
com,example)/b 20260101 http://example.com/b text/html 200 EEEE - - 100 0 a.warc.gz
com,example)/b 20260201000000 http://example.com/b text/html 200 EEEE - - 100 0 a.warc.gz
com,example)/b 20260301000000 http://example.com/b text/html 404 - - - 100 0 a.warc.gz
com,example)/b 20260302000000 http://example.com/b text/html 200 - - - 100 0 a.warc.gz
filedesc:a.warc.gz 20260101000000 filedesc:a.warc.gz warc/warcinfo 200 ZZZZ - - 100 0 a.warc.gz
";

#[test]
fn cdx_captures_are_read_as_the_format_says() {
    assert_eq!(detect(CDX), Some(Format::Cdx));
    let o = run(&[("a.cdx", CDX)]);
    assert_eq!(o.refused, None);
    assert_eq!(o.format, Some(Format::Cdx));
    let home = page(&o, "http://example.com/");
    assert_eq!((home.estimate.observations, home.estimate.changes), (4, 2));
    assert!((home.estimate.rate.unwrap() - std::f64::consts::LN_2).abs() < 1e-12);
    assert_eq!(home.server.as_deref(), Some("example.com"));
    let b = page(&o, "http://example.com/b");
    assert_eq!((b.estimate.status, b.estimate.rate), (Status::NeverChanged, Some(0.0)));
    assert!((b.estimate.span_days - 31.0).abs() < 1e-12, "a date of 8 digits is its midnight");
    for (why, n) in [(Skip::Redirect, 1), (Skip::Error, 1), (Skip::NoDigest, 1), (Skip::NotPage, 1), (Skip::SameTime, 1), (Skip::Conflicting, 1)] {
        assert_eq!(skipped(&o, why), n, "{why:?}");
    }
    assert_eq!(o.pages.len(), 2, "the redirect's URL is no page of the history");
    assert_eq!(o.kept, 9);
}

/// A CDX file cut mid-line (a download stopped short): its last line has its digest cut
/// too, so it would read as a change; it is refused with its line, whether the legend or
/// the first capture gives the width.
#[test]
fn a_cdx_line_cut_short_is_refused() {
    let cut = format!("{}com,example)/ 20260106000000 http://example.com/ text/html 200 CC", CDX.lines().take(3).map(|l| format!("{l}\n")).collect::<String>());
    let o = run(&[("cut.cdx", &cut)]);
    let e = o.refused.expect("refused");
    assert!(e.contains("line 4: has 6 fields where the legend names 11: a line cut short"), "{e}");
    let bare: String = cut.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let e = run(&[("cut.cdx", &bare)]).refused.expect("refused");
    assert!(e.contains("line 3: has 6 fields where the file's first capture has 11"), "{e}");
}

/// The Wayback CDX server's default 7 fields (no legend), and CDXJ as Common Crawl serves
/// it (status and mime in the JSON; `mime-detected` is not the record's mime type).
#[test]
fn wayback_seven_fields_and_cdxj() {
    let seven = "org,example)/ 20250101000000 https://example.org/ text/html 200 X1 1000\norg,example)/ 20250111000000 https://example.org/ text/html 200 X2 1000\n";
    assert_eq!(detect(seven), Some(Format::Cdx));
    let o = run(&[("seven.cdx", seven)]);
    let p = page(&o, "https://example.org/");
    assert_eq!((p.estimate.status, p.estimate.observations, p.estimate.changes), (Status::AlwaysChanged, 1, 1));
    assert!(p.estimate.rate.is_none() && p.estimate.high.is_none() && p.estimate.low.unwrap() > 0.0);
    let cdxj = r#"org,example)/ 20250101000000 {"url": "https://example.org/", "mime": "text/html", "mime-detected": "text/html", "status": "200", "digest": "sha1:AAA", "length": "10", "offset": "0", "filename": "x.warc.gz"}
org,example)/ 20250102000000 {"url": "https://example.org/", "mime": "warc/revisit", "digest": "sha1:AAA"}
org,example)/ 20250103000000 {"url": "https://example.org/", "mime": "text/html", "status": "302", "digest": "sha1:RED", "redirect": "https://example.org/x"}
org,example)/ 20250104000000 {"url": "https://example.org/", "mime": "text/html", "status": "200", "digest": "sha1:BBB"}
"#;
    assert_eq!(detect(cdxj), Some(Format::Cdxj));
    let o = run(&[("x.cdxj", cdxj)]);
    let p = page(&o, "https://example.org/");
    assert_eq!((p.estimate.observations, p.estimate.changes), (2, 1), "the revisit is a capture of the same content");
    assert_eq!(skipped(&o, Skip::Redirect), 1);
}

/// What the index servers answer a researcher's query with, read as the same captures
/// as their text: the Wayback CDX server's `output=json` (a header row naming the
/// fields, in any `fl=` order; a row a line, or all on one line; `showResumeKey`'s empty
/// row and key), its plain text with a resume key after a blank line, and the pywb /
/// Common Crawl index server's `output=json` (a JSON object a line).
#[test]
fn index_servers_json_answers_read_as_their_text() {
    let text = "org,archive)/ 19970126045828 http://www.archive.org:80/ text/html 200 Q4YU 1415
org,archive)/ 19971011050034 http://www.archive.org:80/ text/html 200 XAHD 1402
org,archive)/ 19971211122953 http://www.archive.org:80/ text/html 200 XAHD 1405
org,archive)/ 19980109140106 http://www.archive.org:80/ warc/revisit - XAHD 1402
org,archive)/ 19980209140106 http://www.archive.org:80/ text/html 302 RRRR 1402
";
    let want = run(&[("a.cdx", text)]);
    let p = page(&want, "http://www.archive.org:80/");
    assert_eq!((p.estimate.observations, p.estimate.changes, skipped(&want, Skip::Redirect)), (3, 1, 1));
    let json = r#"[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
 ["org,archive)/", "19970126045828", "http://www.archive.org:80/", "text/html", "200", "Q4YU", "1415"],
 ["org,archive)/", "19971011050034", "http://www.archive.org:80/", "text/html", "200", "XAHD", "1402"],
 ["org,archive)/", "19971211122953", "http://www.archive.org:80/", "text/html", "200", "XAHD", "1405"],
 ["org,archive)/", "19980109140106", "http://www.archive.org:80/", "warc/revisit", "-", "XAHD", "1402"],
 ["org,archive)/", "19980209140106", "http://www.archive.org:80/", "text/html", "302", "RRRR", "1402"],
 [],
 ["org%2Carchive%29%2F+19980209140106%21"]]"#;
    assert_eq!(detect(json), Some(Format::Cdx));
    let same = |o: &HistoryOutput, what: &str| {
        assert_eq!(o.refused, None, "{what}");
        assert_eq!((&o.pages, o.kept), (&want.pages, want.kept), "{what}");
        assert_eq!(skipped(o, Skip::Redirect), 1, "{what}");
    };
    let o = run(&[("a.json", json)]);
    same(&o, "a row a line");
    assert_eq!(skipped(&o, Skip::ResumeKey), 1);
    same(&run(&[("a.json", &json.replace('\n', ""))]), "on one line");
    // fl=digest,timestamp,statuscode,mimetype,original: the header row says where each is
    let rows: Vec<String> = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            serde_json::to_string(&[f[5], f[1], f[4], f[3], f[2]]).unwrap()
        })
        .collect();
    let reordered = format!("[[\"digest\",\"timestamp\",\"statuscode\",\"mimetype\",\"original\"],\n {}]", rows.join(",\n "));
    same(&run(&[("a.json", &reordered)]), "fl= in another order");
    let header = run(&[("a.json", "[[\"timestamp\",\"original\"],\n]")]).refused.unwrap();
    assert!(header.contains("must name original, timestamp, mimetype, statuscode and digest"), "{header}");
    assert!(run(&[("a.json", &json[..json.len() - 60])]).refused.unwrap().contains("is the file cut short?"));
    // the plain text's resume key, after a blank line
    let o = run(&[("a.cdx", &format!("{text}\norg%2Carchive%29%2F+19980209140106%21\n"))]);
    same(&o, "text with its resume key");
    assert_eq!(skipped(&o, Skip::ResumeKey), 1);
    // the index server's output=json: a capture a line
    let lines: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            format!(
                "{{\"urlkey\": \"{}\", \"timestamp\": \"{}\", \"url\": \"{}\", \"mime\": \"{}\", \"status\": \"{}\", \"digest\": \"{}\", \"length\": \"{}\"}}\n",
                f[0], f[1], f[2], f[3], f[4], f[5], f[6]
            )
        })
        .collect();
    assert_eq!(detect(&lines), Some(Format::Cdxj));
    same(&run(&[("a.json", &lines)]), "JSON lines");
    // a SURT key of an IPv6 host is CDX text, not JSON
    let ipv6 = "[2001:db8::1])/ 20260101000000 http://[2001:db8::1]/ text/html 200 AAAA 10\n[2001:db8::1])/ 20260102000000 http://[2001:db8::1]/ text/html 200 BBBB 10\n";
    assert_eq!(detect(ipv6), Some(Format::Cdx));
    assert_eq!(page(&run(&[("v6.cdx", ipv6)]), "http://[2001:db8::1]/").estimate.changes, 1);
    assert_eq!(detect(r#"{"batchcomplete": true, "query": {"pages": [{"title": "X", "revisions": [{"timestamp": "2026-01-01T00:00:00Z"}]}]}}"#), Some(Format::Mediawiki));
}

/// Heritrix's crawl.log (its documented columns): 200 with a sha1 digest, a 304 is the
/// content unchanged, a 404, a negative code (Heritrix's own failure), a dns: record.
#[test]
fn heritrix_crawl_log() {
    let log = "\
2026-01-01T00:00:00.000Z   200       1000 http://ex.net/ - - text/html #001 20260101000000000+10 sha1:AAA - -
2026-01-01T00:00:01.000Z     1         60 dns:ex.net P http://ex.net/ text/dns #002 20260101000001000+1 sha1:DNS - -
2026-01-03T00:00:00.000Z   304          0 http://ex.net/ - - text/html #001 20260103000000000+10 - - -
2026-01-05T00:00:00.000Z   200       1000 http://ex.net/ - - text/html #001 20260105000000000+10 sha1:BBB - -
2026-01-05T00:00:00.000Z   404        100 http://ex.net/gone - - text/html #001 20260105000000000+10 sha1:C - -
2026-01-06T00:00:00.000Z    -2          - http://down.net/ - - unknown #003 - - - -
";
    assert_eq!(detect(log), Some(Format::Heritrix));
    let o = run(&[("crawl.log", log)]);
    assert_eq!(o.refused, None);
    let p = page(&o, "http://ex.net/");
    // intervals: 2 days unchanged (304), then 2 days changed: (1 − e^{−2λ}) e^{−2λ} is largest at e^{−2λ} = 1/2
    assert_eq!((p.estimate.observations, p.estimate.changes), (2, 1));
    assert!((p.estimate.rate.unwrap() - std::f64::consts::LN_2 / 2.0).abs() < 1e-12);
    assert_eq!((skipped(&o, Skip::NotPage), skipped(&o, Skip::Error), skipped(&o, Skip::Failed)), (1, 1, 1));
    // cut inside the last line's digest: fewer fields than every line before, no line end
    let cut = format!("{}2026-01-07T00:00:00.000Z   200       1000 http://ex.net/ - - text/html #001 20260107000000000+10 sha1:B", log);
    let refused = run(&[("crawl.log", &cut)]).refused.expect("refused");
    assert!(refused.contains("line 7") && refused.contains("has 10 fields where every line before has at least 12"), "{refused}");
    assert_eq!(run(&[("crawl.log", &format!("{cut}\n"))]).refused, None, "with its line end: a line of its own");
}

/// A CSV crawl log, with changed flags or digests, and a weight column kept in the list.
#[test]
fn csv_crawl_logs() {
    let changed = "url,fetch_time,changed,weight\nhttp://a.org/,2026-01-01,0,2\nhttp://a.org/,2026-01-02,1,2\nhttp://a.org/,2026-01-03,0,2\n";
    assert_eq!(detect(changed), Some(Format::Csv));
    let o = run(&[("log.csv", changed)]);
    let p = page(&o, "http://a.org/");
    assert_eq!((p.estimate.observations, p.estimate.changes, p.weight), (2, 1, Some(2.0)));
    let digest = "url,fetch_time,digest\n\"http://a.org/?q=1,2\",1767225600,x\n\"http://a.org/?q=1,2\",1767312000,y\nhttp://b.org/,1767225600,-\n";
    let o = run(&[("log.csv", digest)]);
    assert_eq!(page(&o, "http://a.org/?q=1,2").estimate.changes, 1);
    assert_eq!(skipped(&o, Skip::NoDigest), 1);
    // any crawler's log may give each fetch's Content-Type: the page's type
    let typed = "url,fetch_time,changed,content_type\nhttp://a.org/feed,2026-01-01,0,application/xml\nhttp://a.org/feed,2026-01-02,1,application/atom+xml\n";
    assert_eq!(page(&run(&[("log.csv", typed)]), "http://a.org/feed").mime.as_deref(), Some("application/atom+xml"));
    assert!(run(&[("log.csv", "url,fetch_time,changed,kind\n")]).refused.unwrap().contains("weight and content_type (optional)"));
}

/// A CSV crawl log cut inside its last digest (no line end after it, the digest shorter
/// than every other's) is refused with the line, not read as a change; the same line with
/// its line end, a whole last line without one, or digests of several widths are read.
#[test]
fn a_csv_crawl_log_cut_inside_its_last_digest_is_refused() {
    let log = "url,fetch_time,digest\nhttp://a.org/,2026-01-01,sha1:AAAAAAAA\nhttp://a.org/,2026-01-02,sha1:AAAAAAAA\nhttp://a.org/,2026-01-03,sha1:AAA";
    let refused = run(&[("log.csv", log)]).refused.expect("refused");
    assert!(refused.contains("line 4") && refused.contains("its last field has 8 characters where every line before has 13: the file was cut inside this line"), "{refused}");
    let ended = run(&[("log.csv", &format!("{log}\n"))]);
    assert_eq!((ended.refused.as_deref(), page(&ended, "http://a.org/").estimate.changes), (None, 1), "a line end after it: a digest of its own");
    let whole = run(&[("log.csv", &format!("{log}AAAAA"))]);
    assert_eq!((whole.refused.as_deref(), page(&whole, "http://a.org/").estimate.changes), (None, 0));
    let mixed = log.replacen("sha1:AAAAAAAA", "md5:AAAAAAAAAAAAA", 1);
    assert_eq!(run(&[("log.csv", &mixed)]).refused, None, "widths vary: a cut cannot be told");
    // streamed from a file, as the command line reads it
    #[cfg(not(target_arch = "wasm32"))]
    {
        let path = std::env::temp_dir().join(format!("freshlab-cut-{}.csv", std::process::id()));
        std::fs::write(&path, log).unwrap();
        let c = HistoryConfig { source: RecordSource::Files, paths: vec![path.display().to_string()], ..Default::default() };
        let streamed = c.start().unwrap().finish();
        std::fs::remove_file(&path).ok();
        assert!(streamed.refused.as_deref().is_some_and(|r| r.contains("cut inside this line")), "{:?}", streamed.refused);
    }
}

/// Two snapshots of a sitemap, dated by their files' names (15 January, 15 March): the
/// home page's lastmod moved (changed; its last change 13 days before the second
/// snapshot), the about page's did not (59 days free of changes): X/S = 1 change over 72
/// days for the home page, none over 59 for the other (an upper bound); the declared
/// changefreq and the priority are kept; an index's sitemaps are listed.
#[test]
fn sitemaps_and_their_lastmod_histories() {
    let january = r#"<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://s.org/</loc><lastmod>2026-01-01</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>
  <url><loc>https://s.org/about</loc><lastmod>2025-06</lastmod><changefreq>yearly</changefreq></url>
  <url><loc>https://s.org/new</loc></url>
</urlset>"#;
    let march = january.replace("2026-01-01", "2026-03-02T00:00:00+00:00");
    assert_eq!(detect(january), Some(Format::Sitemap));
    let o = run(&[("sitemap-2026-01-15.xml", january), ("sitemap-20260315.xml", &march)]);
    assert_eq!(o.refused, None);
    let home = page(&o, "https://s.org/");
    assert_eq!((home.estimate.changes, home.declared, home.weight), (1, Some(crate::core::model::history::ChangeFreq::Daily), Some(0.8)));
    assert_eq!((home.estimate.status, home.estimate.observations), (Status::Estimated, 1));
    assert!((home.estimate.span_days - 59.0).abs() < 1e-12, "the snapshots' span");
    // a changed interval frees the time from its lastmod to the snapshot: 13 days
    assert!((home.estimate.rate.unwrap() - 1.0 / 13.0).abs() < 1e-12, "{:?}", home.estimate);
    let about = page(&o, "https://s.org/about").estimate.clone();
    assert_eq!((about.status, about.rate), (Status::NeverChanged, Some(0.0)), "the same lastmod at both snapshots");
    assert!((about.high.unwrap() - (-(1.0f64 - 0.95).ln()) / 59.0).abs() < 1e-12, "95 % upper bound over 59 days: {about:?}");
    assert_eq!(skipped(&o, Skip::NoLastmod), 2);
    assert_eq!(skipped(&o, Skip::SameTime), 0);
    assert_eq!(o.snapshots, (2, 0));
    assert!(o.said.contains("2 sitemap snapshots, each dated by its file's name"), "{}", o.said);
    // undated files: each snapshot is at its latest lastmod, the home page's own, so
    // nothing of its interval is known free of changes: no rate
    let undated = run(&[("jan.xml", january), ("mar.xml", &march)]);
    assert_eq!(page(&undated, "https://s.org/").estimate.rate, None);
    assert_eq!(page(&undated, "https://s.org/about").estimate.status, Status::NeverChanged);
    assert_eq!(undated.snapshots, (0, 2));
    assert!(undated.said.contains("0 dated by their files' names and 2 without a date in the name"), "{}", undated.said);
    // a lastmod after its snapshot's named date cannot be: left out, counted
    let late = march.replace("2026-03-02T00:00:00+00:00", "2026-04-01");
    let o = run(&[("sitemap-2026-01-15.xml", january), ("sitemap-2026-03-15.xml", &late)]);
    assert_eq!(skipped(&o, Skip::Conflicting), 1);
    assert_eq!(page(&o, "https://s.org/").estimate.status, Status::OneRecord);
    let index = r#"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://s.org/a.xml</loc></sitemap><sitemap><loc>https://s.org/b.xml</loc></sitemap></sitemapindex>"#;
    let o = run(&[("index.xml", index)]);
    assert_eq!(o.listed_sitemaps, ["https://s.org/a.xml", "https://s.org/b.xml"]);
    assert_eq!(skipped(&o, Skip::SitemapIndex), 2);
    assert!(o.said.contains("Left out, by reason: sitemap index entry (a sitemap to load, not a page) — 2 records."), "{}", o.said);
    assert!(o.said.contains("lists 2 sitemaps; not named like a file read here: a.xml, b.xml. Load them"), "{}", o.said);
    // the sitemaps it lists, read beside it (one of them as a dated snapshot), are not asked for
    let o = run(&[("index.xml", index), ("a.xml.gz", january), ("b-2026-03-15.xml", &march)]);
    assert!(o.said.contains("lists 2 sitemaps, each named like a file read here."), "{}", o.said);
    let o = run(&[("index.xml", index), ("b.xml", &march)]);
    assert!(o.said.contains("lists 2 sitemaps; not named like a file read here: a.xml. Load it"), "{}", o.said);
    let bad = january.replace("daily", "often");
    assert!(run(&[("bad.xml", &bad)]).refused.unwrap().contains("changefreq “often”"));
}

/// MediaWiki: the API's JSON (formatversion 1: pages by id; 2: a list) and a dump's XML;
/// each revision a change; the revisions as a trace the bursty experiment reads.
#[test]
fn mediawiki_revisions_and_their_trace() {
    let v1 = r#"{"batchcomplete":"","query":{"pages":{"736":{"pageid":736,"ns":0,"title":"Albert Einstein","revisions":[{"revid":3,"timestamp":"2026-01-03T00:00:00Z"},{"revid":2,"timestamp":"2026-01-02T00:00:00Z"},{"revid":1,"timestamp":"2026-01-01T00:00:00Z"}]}}}}"#;
    let o = run(&[("api.json", v1)]);
    let p = page(&o, "https://en.wikipedia.org/wiki/Albert_Einstein");
    assert!(p.exact_times);
    assert_eq!((p.estimate.changes, p.estimate.rate), (2, Some(1.0)));
    // a wiki page's address serves its HTML view: its type, said as such (not captured)
    assert_eq!(p.mime.as_deref(), Some("text/html"));
    assert!(o.said.contains("1 of 1 pages have a type, their view's text/html"), "{}", o.said);
    let v2 = r#"{"query":{"pages":[{"pageid":1,"title":"A","revisions":[{"timestamp":"2026-01-01T00:00:00Z"},{"timestamp":"2026-01-05T00:00:00Z"}]}]}}"#;
    assert_eq!(page(&run(&[("api.json", v2)]), "https://en.wikipedia.org/wiki/A").estimate.rate, Some(0.25));
    let dump = r#"<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/"><siteinfo><base>https://pt.wikipedia.org/wiki/P%C3%A1gina_principal</base></siteinfo>
<page><title>Rio de Janeiro</title><revision><id>1</id><timestamp>2026-01-01T00:00:00Z</timestamp></revision><revision><id>2</id><timestamp>2026-01-01T12:00:00Z</timestamp></revision></page>
</mediawiki>"#;
    assert_eq!(detect(dump), Some(Format::Mediawiki));
    let o = run(&[("dump.xml", dump)]);
    let p = page(&o, "https://pt.wikipedia.org/wiki/Rio_de_Janeiro");
    assert_eq!((p.estimate.rate, p.mime.as_deref()), (Some(2.0), Some("text/html")));
    let trace = crate::core::model::trace::parse(o.trace.as_ref().unwrap().as_bytes()).expect("the trace reads back");
    assert_eq!((trace.pages(), trace.total_changes()), (1, 2));
    // the CLI's --trace-out writes it; records of other kinds give none
    assert_eq!(Figures::file_out(&o, "trace_out"), o.trace);
    assert_eq!(Figures::file_out(&run(&[("a.cdx", CDX)]), "trace_out"), None);
}

/// Bad lines are refused with the file, the line and the fix, all of them, nothing
/// estimated; files of two formats are refused; the CLI and page say so.
#[test]
fn bad_records_are_refused_by_file_and_line() {
    let bad = "com,x)/ 20260101000000 http://x.com/ text/html 200 A - - 1 0 f\ncom,x)/ 2026010 http://x.com/ text/html 200 B - - 1 0 f\ncom,x)/ 20260103000000 http://x.com/ text/html abc B - - 1 0 f\n";
    let o = run(&[("x.cdx", bad)]);
    let why = o.refused.as_deref().unwrap();
    assert!(why.starts_with("x.cdx: has 2 bad rows") && why.contains("line 2: timestamp “2026010”") && why.contains("line 3: status “abc”"), "{why}");
    assert!(o.pages.is_empty() && o.figures().len() == 1);
    let mixed = run(&[("a.cdx", CDX), ("b.xml", "<urlset></urlset>")]);
    assert!(mixed.refused.as_deref().unwrap().contains("b.xml: is sitemap.xml"), "{:?}", mixed.refused);
    assert!(config(&[("a.txt", "hello world")]).validate().unwrap_err().message.contains("choose the format"));
    let none = HistoryConfig { source: RecordSource::Files, ..Default::default() };
    assert!(none.validate().unwrap_err().message.contains("not loaded"));
}

/// The result does not depend on how the reading is sliced.
#[test]
fn slices_do_not_change_the_result() {
    let whole = run(&[("a.cdx", CDX), ("b.cdx", "org,b)/ 20250101000000 https://b.org/ text/html 200 Q 1\n")]);
    let sliced = in_slices(config(&[("a.cdx", CDX), ("b.cdx", "org,b)/ 20250101000000 https://b.org/ text/html 200 Q 1\n")]).start().unwrap(), 7);
    assert_eq!(whole, sliced);
}

/// Round trip: the page list a history exports reads back with the same pages, servers,
/// rates and intervals (the page list's rate_low and rate_high columns); pages the
/// records cannot support are left out and counted.
#[test]
fn the_page_list_reads_back_the_same() {
    let text = include_str!("../../../www/samples/sample-captures.cdx");
    let o = run(&[("sample-captures.cdx", text)]);
    let csv = o.table().to_csv();
    let list = page_list::parse(csv.as_bytes(), "page_list").expect("the export is a page list");
    let listed: Vec<&PageHistory> = o.pages.iter().filter(|p| p.listed_rate().is_some()).collect();
    assert_eq!(list.names.len(), listed.len());
    assert_eq!(o.left_out, (o.pages.len() - listed.len()) as u64);
    assert!(o.left_out > 0);
    let bounds = list.rate_bounds.as_ref().expect("intervals read");
    for (k, p) in listed.iter().enumerate() {
        let i = list.position[k];
        assert_eq!(list.names[k], p.url);
        assert_eq!(list.repo.lambda[i], p.estimate.rate.unwrap());
        assert_eq!(bounds[i], [p.estimate.low.unwrap(), p.estimate.high.unwrap()]);
        assert_eq!(Some(&list.server_names[list.repo.server_of(i)]), p.server.as_ref());
    }
}

/// A page's latest captured mime type (CDX's m field, CDXJ's `mime`, crawl.log's 7th
/// column) goes into the page list as `Content-Type` metadata where asked (`types`) and
/// always for the crawlers, never for the experiments that refuse the column; a revisit
/// record, `-` and the Wayback Machine's `unk` keep the type the page had.
#[test]
fn captured_mime_types_go_to_the_crawlers_page_list() {
    let cdx = " CDX N b a m s k r M S V g
com,ex)/ 20260101000000 http://ex.com/ text/html 200 A - - 1 0 a
com,ex)/ 20260102000000 http://ex.com/ text/html 200 B - - 1 0 a
com,ex)/ 20260103000000 http://ex.com/ warc/revisit - B - - 1 0 a
com,ex)/feed 20260101000000 http://ex.com/feed application/xml 200 F1 - - 1 0 a
com,ex)/feed 20260102000000 http://ex.com/feed application/rss+xml 200 F2 - - 1 0 a
com,ex)/feed 20260103000000 http://ex.com/feed unk 200 F2 - - 1 0 a
com,ex)/feed 20260104000000 http://ex.com/feed - 200 F3 - - 1 0 a
com,ex)/x 20260101000000 http://ex.com/x unk 200 X - - 1 0 a
com,ex)/x 20260102000000 http://ex.com/x - 200 X - - 1 0 a
com,ex)/x 20260103000000 http://ex.com/x text/plain 404 Y - - 1 0 a
";
    let o = run(&[("a.cdx", cdx)]);
    assert_eq!(page(&o, "http://ex.com/").mime.as_deref(), Some("text/html"));
    assert_eq!(page(&o, "http://ex.com/feed").mime.as_deref(), Some("application/rss+xml"), "the latest readable type");
    assert_eq!(page(&o, "http://ex.com/x").mime, None, "unk, - and an error answer's type say nothing");
    assert_eq!(o.typed, 2);
    assert!(o.said.contains("2 of 3 pages have a captured mime type"), "{}", o.said);
    // the export leaves them out unless asked; the crawlers' copy carries them
    let plain = o.table().to_csv();
    assert!(!plain.contains("metadata"), "{plain}");
    assert_eq!(o.table_for("policies").to_csv(), plain);
    let typed = o.table_for("crawlers").to_csv();
    let list = page_list::parse(typed.as_bytes(), "page_list").expect("a page list with metadata");
    let metadata = list.metadata.as_ref().expect("metadata read");
    let kinds: Vec<String> = (0..list.names.len()).map(|k| metadata.kinds[metadata.of[list.position[k]] as usize].clone()).collect();
    assert_eq!(list.names, ["http://ex.com/", "http://ex.com/feed", "http://ex.com/x"]);
    assert_eq!(kinds, ["Content-Type=text/html", "Content-Type=application/rss+xml", ""]);
    let asked = HistoryConfig { types: true, ..config(&[("a.cdx", cdx)]) }.start().unwrap().finish();
    assert_eq!(asked.table().to_csv(), typed);
    // CDXJ with parameters, and Heritrix's crawl.log
    let cdxj = r#"com,ex)/ 20260101000000 {"url": "http://ex.com/", "mime": "text/html; charset=UTF-8", "status": "200", "digest": "A"}
"#;
    assert_eq!(page(&run(&[("a.cdxj", cdxj)]), "http://ex.com/").mime.as_deref(), Some("text/html; charset=UTF-8"));
    let log = "2026-01-01T00:00:00.000Z 200 10 http://ex.net/a.pdf - - application/pdf #001 20260101000000000+10 sha1:A - -
";
    assert_eq!(page(&run(&[("crawl.log", log)]), "http://ex.net/a.pdf").mime.as_deref(), Some("application/pdf"));
}

/// The command line streams files — capture indexes a line at a time, sitemaps and
/// MediaWiki dumps an XML event at a time — gzip or not, to the same result as their
/// text, however the reading is sliced.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn streamed_and_gzip_files_give_the_same_result() {
    use std::io::Write;
    let dir = std::env::temp_dir().join(format!("freshlab-history-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sitemap = "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://s.org/</loc><lastmod>2026-01-01</lastmod><changefreq>daily</changefreq></url>\n<url><loc>https://s.org/b</loc></url>\n</urlset>\n";
    let dump = "<mediawiki><siteinfo><base>https://pt.wikipedia.org/wiki/X</base></siteinfo>\n<page><title>A b</title>\n<revision><timestamp>2026-01-01T00:00:00Z</timestamp><text>x</text></revision>\n<revision><timestamp>2026-01-02T06:00:00Z</timestamp></revision></page>\n</mediawiki>\n";
    for (name, text) in [("a.cdx", CDX), ("s.xml", sitemap), ("d.xml", dump)] {
        let plain = dir.join(name);
        std::fs::write(&plain, text).unwrap();
        let gz = dir.join(format!("{name}.gz"));
        let mut encoder = flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), flate2::Compression::default());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap();
        let from_text = run(&[(name, text)]);
        assert!(from_text.refused.is_none() && !from_text.pages.is_empty(), "{name}: {:?}", from_text.refused);
        for path in [&plain, &gz] {
            for slice in [1, 50] {
                let c = HistoryConfig { source: RecordSource::Files, paths: vec![path.display().to_string()], ..Default::default() };
                let o = in_slices(c.start().unwrap(), slice);
                assert_eq!((&o.pages, &o.skipped, o.kept), (&from_text.pages, &from_text.skipped, from_text.kept), "{} in slices of {slice}", path.display());
            }
        }
    }
    // a gzip file cut short: refused after the last line it gave
    let gz = std::fs::read(dir.join("a.cdx.gz")).unwrap();
    let cut = dir.join("cut.cdx.gz");
    std::fs::write(&cut, &gz[..gz.len() - 12]).unwrap();
    let c = HistoryConfig { source: RecordSource::Files, paths: vec![cut.display().to_string()], ..Default::default() };
    let refused = c.start().unwrap().finish().refused.expect("refused");
    assert!(refused.contains("after line") && refused.contains("a whole gzip file (not cut short)"), "{refused}");
    std::fs::remove_dir_all(&dir).ok();
}

/// Records too big for memory are refused before they are read, with the estimate and
/// what to change.
#[test]
fn records_over_the_memory_limit_are_refused_before_the_run() {
    let huge = HistoryConfig { source: RecordSource::Files, records_bytes: Some(1 << 40), ..Default::default() };
    let error = huge.cost().check(&crate::core::limits::NATIVE).unwrap_err();
    assert_eq!(error.field, "files");
    assert!(error.message.contains("needs about") && error.message.contains("read fewer or smaller files"), "{}", error.message);
    let many = HistoryConfig { pages: 1_000_000, spacing_min: 1.0, spacing_max: 1.0, days: 36_500.0, ..Default::default() };
    assert!(many.start().err().unwrap().message.contains("generate fewer pages"));
    // the fuzzer's case: a spacing of a denormal's size, whose ratio to the longest
    // overflows; its captures are counted, not read as none, and it is refused
    let dense = HistoryConfig { spacing_min: 2.2250738585072014e-308, ..Default::default() };
    assert!(dense.generated_marks() > 1e300, "{}", dense.generated_marks());
    let refused = dense.start().err().unwrap();
    assert_eq!(refused.field, "spacing_min");
    assert!(refused.message.contains("make the shortest capture spacing longer"), "{}", refused.message);
}

/// A file's pages counted as the page loaded it price its memory; a count that is not one
/// is refused by its field.
#[test]
fn a_files_counted_pages_price_it_and_a_bad_count_is_refused() {
    let mut log = String::from("url,fetch_time,digest\n");
    for day in 1..=9 {
        log.extend((0..2_000).map(|p| format!("https://example.org/a/long/path/to/page/{p},2026-01-0{day}T00:00:00Z,D{p}V{}\n", day / 3)));
    }
    let head = |pages: Option<f64>| HistoryConfig {
        source: RecordSource::Files,
        files: vec![RecordFile { name: "log.csv".into(), text: log[..64 * 1024].to_string(), bytes: Some(1 << 30), pages, ..Default::default() }],
        ..Default::default()
    };
    let (counted, by_head) = (head(Some(2_000.0)).cost().bytes, head(None).cost().bytes);
    assert!(counted < by_head / 3.0, "2,000 pages counted: {counted:.0} bytes; a page a record: {by_head:.0}");
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let error = head(Some(bad)).validate().unwrap_err();
        assert_eq!(error.field, "files[0].pages", "{bad}");
    }
}

/// Files past those whose heads the page's checks sample stand as the sampled ones do
/// together: 2,000 small crawl logs of a page each (the page's form had held its main
/// thread 133 ms a check with every head) priced from 63 heads at no less than their
/// whole texts (less the pages' count's error) and within 1.3 times (an unsampled file may be denser than those seen);
/// an unsampled file needs its size, and some file its head.
#[test]
fn unsampled_files_are_priced_as_the_sampled_ones() {
    let log = |f: usize| -> String {
        (1..=12).map(|m| format!("2025-{m:02}-01T05:00:00Z 200 10 http://s{}.example/p{f} - - text/html #001 20250101000000+1 sha1:D{f}x{} - -\n", f % 50, m / 4)).collect()
    };
    let whole = HistoryConfig {
        source: RecordSource::Files,
        files: (0..2_000).map(|f| RecordFile { name: format!("crawl-{f}.log"), text: log(f), ..Default::default() }).collect(),
        ..Default::default()
    };
    let stride = 2_000usize.div_ceil(64); // views/history.js, SAMPLED_FILES
    let mut stand_in = whole.clone();
    for (f, file) in stand_in.files.iter_mut().enumerate() {
        file.bytes = Some(file.text.len() as u64);
        file.pages = Some(1.0);
        if f % stride != 0 {
            file.text.clear();
            file.unsampled = true;
        }
    }
    assert!(stand_in.files.iter().filter(|f| !f.unsampled).count() <= 64);
    stand_in.validate().expect("a valid stand-in");
    let (a, b) = (whole.cost(), stand_in.cost());
    assert_eq!(a.work, b.work, "the bytes of records");
    for (what, whole, priced) in [("memory", a.bytes, b.bytes), ("time", a.seconds, b.seconds)] {
        // (every text's pages are counted by the sketch, within its 0.81 %)
        assert!((0.99..=1.3).contains(&(priced / whole)), "{what}: {priced} priced from the sampled heads against {whole} from every text");
    }
    // as the page sends them: the unsampled files as one entry
    let mut together = stand_in.clone();
    let (rest, mut kept): (Vec<RecordFile>, Vec<RecordFile>) = together.files.into_iter().partition(|f| f.unsampled);
    let (bytes, pages) = rest.iter().fold((0, 0.0), |(b, p), f| (b + f.bytes.unwrap(), p + f.pages.unwrap()));
    kept.push(RecordFile { name: format!("{} more files", rest.len()), bytes: Some(bytes), pages: Some(pages), unsampled: true, ..Default::default() });
    together.files = kept;
    let c = together.cost();
    assert!((c.bytes / b.bytes - 1.0).abs() < 1e-9 && (c.seconds / b.seconds - 1.0).abs() < 1e-9, "{c:?} against {b:?}");
    let mut sizeless = stand_in.clone();
    sizeless.files[1].bytes = None;
    assert_eq!(sizeless.validate().unwrap_err().field, "files[1]");
    let mut none_sampled = stand_in;
    none_sampled.files.iter_mut().for_each(|f| f.unsampled = true);
    assert!(none_sampled.validate().unwrap_err().message.contains("are all unsampled"));
}

/// A WARC file's capture index in time order (as the page's worker sends it), and a
/// sitemap's snapshots of under a megabyte, are priced by the pages they name together,
/// not a page a record: each file's pages given as its own (what pricing them one file
/// at a time took) cost some three times as much.
#[test]
fn a_warc_files_index_and_a_sitemaps_snapshots_are_priced_by_their_pages() {
    let mut index = String::from(" CDX a b m s k\n");
    for day in 1..=9 {
        index.extend((0..4_000).map(|p| format!("http://example.org/p{p} 2026010{day}120000 text/html 200 D{p}V{}\n", day / 3)));
    }
    assert!(index.len() > 1 << 20, "past its first megabyte");
    let warc = |pages: Option<f64>| HistoryConfig {
        source: RecordSource::Files,
        files: vec![RecordFile { name: "crawl.warc".into(), text: index.clone(), warc: true, pages, ..Default::default() }],
        ..Default::default()
    };
    let (counted, each_record) = (warc(None).cost().bytes, warc(Some(36_000.0)).cost().bytes);
    assert!(counted < each_record / 3.0, "counted {counted:.0}; a page a record {each_record:.0}");
    let snapshot = |day: usize| {
        let urls: String = (0..2_000).map(|p| format!("<url><loc>https://example.org/p{p}</loc><lastmod>2026-01-{:02}</lastmod></url>\n", day - day % (1 + p % 3))).collect();
        format!("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{urls}</urlset>\n")
    };
    let snapshots = |pages: Option<f64>| HistoryConfig {
        source: RecordSource::Files,
        files: (1..=12).map(|day| RecordFile { name: format!("sitemap-2026-01-{day:02}.xml"), text: snapshot(day), pages, ..Default::default() }).collect(),
        ..Default::default()
    };
    let (together, one_by_one) = (snapshots(None).cost().bytes, snapshots(Some(2_000.0)).cost().bytes);
    assert!(together < one_by_one / 2.5, "counted together {together:.0}; each file's own {one_by_one:.0}");
}

/// The rates chart's summary names the rates' own lowest and highest, not the decades
/// of its axis.
#[test]
fn the_rates_summary_gives_the_rates_own_range() {
    let o = HistoryConfig::default().start().expect("starts").finish();
    let rates: Vec<f64> = o.pages.iter().filter_map(|p| p.estimate.rate).filter(|r| *r > 0.0).collect();
    let (lo, hi) = rates.iter().fold((f64::INFINITY, 0.0f64), |(a, b), &r| (a.min(r), b.max(r)));
    let summary = &o.figures()[0].summary;
    let said = format!("from {} to {} a day", crate::chart::format::sig(lo, 3), crate::chart::format::sig(hi, 3));
    assert!(summary.contains(&said), "{summary} should say {said}");
}

/// Records a byte, by hand, in each format's head: a line each in the line formats, a
/// `<url>` in a sitemap, a `<revision>` in a dump, a `"timestamp"` in the API's JSON;
/// none where the head shows no record. A file read past its head counts its head's
/// density with a margin (1.25 for lines, 2 for XML and JSON); a file given by its head alone stands for it in checks and is
/// refused by a run.
#[test]
fn the_cost_counts_records_a_byte_in_each_files_head() {
    use super::cost::marks_per_byte;
    let cdx = "a 20250101000000 http://a/ text/html 200 X - - 1 0 w\nb 20250101000000 http://b/ text/html 200 Y - - 1 0 w\n";
    assert_eq!(marks_per_byte(cdx, Format::Auto), Some((2.0 / cdx.len() as f64, 1.25)));
    let sitemap = "<?xml version=\"1.0\"?><urlset><url><loc>a</loc></url><url ><loc>b</loc></url></urlset>";
    assert_eq!(marks_per_byte(sitemap, Format::Auto), Some((2.0 / sitemap.len() as f64, 1.25)));
    let dump = "<mediawiki><page><revision><id>1</id></revision><revision><id>2</id></revision></page>";
    assert_eq!(marks_per_byte(dump, Format::Auto), Some((2.0 / dump.len() as f64, 2.0)));
    assert_eq!(marks_per_byte("<mediawiki><page><title>A long first text", Format::Auto), None);
    // an empty file of a given format (`history empty.cdx --format cdx`) showed no record,
    // not one in no bytes: its density was 1/0 and its cost NaN, "more memory than any machine has"
    assert_eq!(marks_per_byte("", Format::Cdx), None);
    let api = r#"{"query":{"pages":[{"revisions":[{"timestamp":"2025-01-01T00:00:00Z"},{"timestamp":"2025-01-02T00:00:00Z"}]}]}}"#;
    assert_eq!(marks_per_byte(api, Format::Mediawiki), Some((2.0 / api.len() as f64, 2.0)));
    // the same lines: the whole file counted, a file eight times its head at 1.25 times the density
    let whole = HistoryConfig { source: RecordSource::Files, files: vec![RecordFile { name: "a.cdx".into(), text: cdx.repeat(1000), ..Default::default() }], ..Default::default() };
    let headed =
        HistoryConfig { files: vec![RecordFile { name: "a.cdx".into(), text: cdx.repeat(1000), bytes: Some(8 * cdx.len() as u64 * 1000), ..Default::default() }], ..whole.clone() };
    let marks = |c: &HistoryConfig| c.cost().bytes - c.bytes() - 1e6;
    assert!((marks(&headed) / marks(&whole) - 10.0).abs() < 1e-9, "{} against {}", marks(&headed), marks(&whole));
    let refused = headed.start().err().expect("a head alone does not run");
    assert!(refused.message.contains("a.cdx is given by its first 106000 bytes only") && refused.message.contains("load the whole file"), "{}", refused.message);
}

/// A WARC file (a crawl of one page over five days, beside its requests, metadata and
/// other records) is read as the capture index it implies: its responses and
/// identical-payload revisits by their payload digests, a server-not-modified revisit as
/// unchanged, the other records left out by reason. As a configuration's text and, by
/// the command line, as a file gzipped a record a member (as WARC writers do).
#[test]
fn a_warc_file_is_read_as_its_captures() {
    let warc = crate::core::model::history::warc::tests::crawl();
    let check = |o: &HistoryOutput, how: &str| {
        assert_eq!(o.refused, None, "{how}");
        assert!(o.said.contains("; 1 WARC file read as its capture index, a line a record)"), "{how}: {}", o.said);
        let home = page(o, "http://example.com/");
        // A A A(revisit) B B(304): four intervals of a day, one changed
        assert_eq!((home.estimate.observations, home.estimate.changes), (4, 1), "{how}");
        assert_eq!(page(o, "http://example.com/notes.txt").estimate.observations, 0, "{how}: one capture");
        for (why, n) in [(Skip::NotCapture, 2), (Skip::NotPage, 2), (Skip::Redirect, 1), (Skip::Error, 1)] {
            assert_eq!(skipped(o, why), n, "{how}: {why:?}");
        }
    };
    check(&run(&[("crawl.warc", &warc)]), "text");
    #[cfg(not(target_arch = "wasm32"))]
    {
        use std::io::Write;
        let path = std::env::temp_dir().join(format!("freshlab-{}-crawl.warc.gz", std::process::id()));
        let mut bytes = Vec::new();
        for record in warc.split_inclusive("\r\n\r\n\r\n").flat_map(|r| r.split_inclusive("\r\n\r\nWARC/")) {
            let mut member = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            member.write_all(record.as_bytes()).unwrap();
            bytes.extend(member.finish().unwrap());
        }
        std::fs::write(&path, &bytes).unwrap();
        let config = HistoryConfig { source: RecordSource::Files, paths: vec![path.to_string_lossy().into_owned()], ..Default::default() };
        let o = config.start().expect("starts").finish();
        std::fs::remove_file(&path).unwrap();
        check(&o, "gzip path");
    }
}

/// A WARC file's reading time is priced by its records, the payloads it must hash (those
/// without a digest) and the gzip it inflates, as measured (config.rs): by hand, 200
/// responses of 2,000-byte payloads, with their digests, without, and gzipped a record a
/// member (its bytes then its first megabyte's inflated ratio times its size: here the
/// whole file's); each path 25 µs more, its opening.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_warc_files_time_is_priced_by_its_records_digests_and_gzip() {
    use std::io::Write;
    let record = |k: usize, digest: bool| {
        let body = format!("{k:06}{}", "x".repeat(1994));
        let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2000\r\n\r\n{body}");
        let digest = if digest { "WARC-Payload-Digest: sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n" } else { "" };
        format!(
            "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.example/p{k}\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n{digest}Content-Length: {}\r\n\r\n{http}\r\n\r\n",
            http.len()
        )
    };
    let dir = std::env::temp_dir().join(format!("freshlab-warc-cost-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let seconds = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        HistoryConfig { source: RecordSource::Files, paths: vec![path.to_string_lossy().into_owned()], ..Default::default() }.cost().seconds
    };
    let with: String = (0..200).map(|k| record(k, true)).collect();
    let without: String = (0..200).map(|k| record(k, false)).collect();
    let (a, b) = (with.len() as f64, without.len() as f64);
    let close = |got: f64, want: f64, what: &str| assert!((got / want - 1.0).abs() < 1e-9, "{what}: {got} against {want}");
    let opening = 25e-6;
    close(seconds("with.warc", with.as_bytes()), opening + 200.0 * 2.2e-6 + a / 6e9, "with digests");
    close(seconds("without.warc", without.as_bytes()), opening + 200.0 * 2.2e-6 + b / 6e9 + b / 1.1e9, "without");
    let mut gzipped = Vec::new();
    for k in 0..200 {
        let mut member = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        member.write_all(record(k, true).as_bytes()).unwrap();
        gzipped.extend(member.finish().unwrap());
    }
    close(seconds("with.warc.gz", &gzipped), opening + 200.0 * 2.2e-6 + a / 6e9 + gzipped.len() as f64 / 150e6, "gzipped a record a member");
    // a gzip file that inflates a thousand times (100 MB of zeros in about 100 KB): its
    // size priced by the ratio its first bytes inflate by, without inflating the megabyte
    // sampled whole (64 MB at most)
    let mut zeros = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for _ in 0..100 {
        zeros.write_all(&[0u8; 1 << 20]).unwrap();
    }
    let path = dir.join("zeros.gz");
    std::fs::write(&path, zeros.finish().unwrap()).unwrap();
    let config = HistoryConfig { source: RecordSource::Files, paths: vec![path.to_string_lossy().into_owned()], ..Default::default() };
    assert!((config.bytes() / 104_857_600.0 - 1.0).abs() < 0.05, "{} bytes", config.bytes());
    // a line format: its bytes at the line readers' speed, and its one page's estimate
    close(seconds("a.cdx", "a 20250101000000 http://a/ text/html 200 X - - 1 0 w\n".repeat(100).as_bytes()), opening + 5300.0 / 150e6 + 0.9e-6, "a capture index");
    // a sitemap: its bytes at the same speed, and its two pages, each 0.4 µs more
    let sitemap = "<urlset><url><loc>https://a.org/x</loc></url><url><loc>https://a.org/y</loc></url></urlset>\n";
    close(seconds("sitemap.xml", sitemap.as_bytes()), opening + sitemap.len() as f64 / 150e6 + 2.0 * (0.9e-6 + 0.4e-6), "a sitemap");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What crosses to the page: the ten fastest-changing pages (ties in the records'
/// order), everything else as it is; the CSV and the figures come from the whole.
#[test]
fn the_page_is_sent_the_ten_fastest_changing_pages() {
    let output = HistoryConfig { pages: 200, servers: 8, seed: 3, ..Default::default() }.start().expect("starts").finish();
    let shown = output.fastest_only();
    let mut rated: Vec<&PageHistory> = output.pages.iter().filter(|p| p.estimate.rate.is_some_and(|r| r > 0.0)).collect();
    assert!(rated.len() > 10);
    let cut = rated.iter().map(|p| p.estimate.rate.unwrap()).fold(Vec::new(), |mut top: Vec<f64>, r| {
        top.push(r);
        top.sort_by(|a, b| b.total_cmp(a));
        top.truncate(10);
        top
    });
    assert_eq!(shown.pages.iter().map(|p| p.estimate.rate.unwrap()).collect::<Vec<_>>(), cut);
    rated.sort_by(|a, b| b.estimate.rate.unwrap().total_cmp(&a.estimate.rate.unwrap()));
    assert_eq!(shown.pages[0].url, rated[0].url);
    assert_eq!(HistoryOutput { pages: output.pages.clone(), ..shown.clone() }, output, "only the pages are cut");
    assert_eq!(output.shown(), Some(shown));
}

/// A path that is not a file is refused before anything reads it, naming it and the fix:
/// a directory (give its files), a pipe's records, which would be read once to price
/// them and be gone for the run (save them to a file: a FIFO here), and a path that
/// does not exist.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn a_path_that_is_not_a_file_is_refused_before_it_is_read() {
    let dir = std::env::temp_dir().join(format!("freshlab-not-a-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let named = |path: String| HistoryConfig { source: RecordSource::Files, paths: vec![path], ..Default::default() };
    let fifo = dir.join("pipe");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success()), "mkfifo makes a pipe");
    for (path, says) in [
        (dir.to_string_lossy().into_owned(), "is a directory; give the files of records in it"),
        (dir.join("none.cdx").to_string_lossy().into_owned(), "cannot be read"),
        (fifo.to_string_lossy().into_owned(), "is not a file (a pipe or a device)"),
    ] {
        let e = named(path.clone()).validate().expect_err(&path);
        assert_eq!(e.field, "paths");
        assert!(e.message.contains(&path) && e.message.contains(says), "{}", e.message);
        assert!(named(path).start().is_err());
    }
    let file = dir.join("one.cdx");
    std::fs::write(&file, "a 20250101000000 http://a/ text/html 200 X - - 1 0 w\n").unwrap();
    assert!(named(file.to_string_lossy().into_owned()).validate().is_ok());
    std::fs::remove_dir_all(&dir).unwrap();
}
