//! WARC records written by the WARC 1.1 specification's examples (ISO 28500:2017,
//! annex C), read as the capture index they imply.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;

/// A record: its type, target, date, other headers and block (CRLF line ends, the block
/// followed by the two CRLFs that end every record).
fn record(kind: &str, url: Option<&str>, date: &str, extra: &[(&str, &str)], block_type: &str, block: &str) -> String {
    let mut text = format!("WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:92283950-ef2f-4d72-b224-f54c6ec90bb0>\r\nWARC-Date: {date}\r\n");
    if let Some(url) = url {
        text += &format!("WARC-Target-URI: {url}\r\n");
    }
    for (name, value) in extra {
        text += &format!("{name}: {value}\r\n");
    }
    text + &format!("Content-Type: {block_type}\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n", block.len())
}

/// An HTTP response as a response record's block holds it.
fn http(status: &str, content_type: &str, body: &str) -> String {
    format!("HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\r\n{body}", body.len())
}

const HTTP: &str = "application/http; msgtype=response";

fn index(warc: &str) -> io::Result<String> {
    let mut text = String::new();
    Index::new(warc.as_bytes()).read_to_string(&mut text)?;
    Ok(text)
}

/// A crawl of one page over five days as a WARC holds it: its responses' payload
/// digests, an identical-payload revisit, a server-not-modified revisit; the requests,
/// metadata and warcinfo beside them; a resource record, a redirect, an error and a DNS
/// lookup.
pub fn crawl() -> String {
    let page = Some("http://example.com/");
    fn digest(d: &str) -> [(&str, &str); 1] {
        [("WARC-Payload-Digest", d)]
    }
    [
        record("warcinfo", None, "2026-01-01T00:00:00Z", &[], "application/warc-fields", "software: Heritrix/3.4\r\nformat: WARC File Format 1.1\r\n"),
        record("request", page, "2026-01-01T00:00:00Z", &[], "application/http; msgtype=request", "GET / HTTP/1.1\r\nHost: example.com\r\n\r\n"),
        record("response", page, "2026-01-01T00:00:00Z", &digest("sha1:AAAA"), HTTP, &http("200 OK", "text/html; charset=UTF-8", "<p>one</p>")),
        record("metadata", page, "2026-01-01T00:00:00Z", &[], "application/warc-fields", "outlinks: http://example.com/a\r\n"),
        record("response", page, "2026-01-02T00:00:00.123456Z", &digest("sha1:AAAA"), HTTP, &http("200 OK", "text/html", "<p>one</p>")),
        record(
            "revisit",
            page,
            "2026-01-03T00:00:00Z",
            &[("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"), ("WARC-Payload-Digest", "sha1:AAAA")],
            HTTP,
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n",
        ),
        record("response", page, "2026-01-04T00:00:00Z", &digest("sha1:BBBB"), HTTP, &http("200 OK", "text/html", "<p>two</p>")),
        record(
            "revisit",
            page,
            "2026-01-05T00:00:00Z",
            &[("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/server-not-modified")],
            HTTP,
            "HTTP/1.1 304 Not Modified\r\n\r\n",
        ),
        record("resource", Some("http://example.com/notes.txt"), "2026-01-01T00:00:00Z", &[("WARC-Block-Digest", "sha1:NNNN")], "text/plain", "notes"),
        record("response", Some("http://example.com/old"), "2026-01-01T00:00:00Z", &digest("sha1:RRRR"), HTTP, "HTTP/1.1 301 Moved Permanently\r\nLocation: /\r\n\r\n"),
        record("response", Some("http://example.com/gone"), "2026-01-01T00:00:00Z", &digest("sha1:EEEE"), HTTP, &http("404 Not Found", "text/html", "gone")),
        record("response", Some("dns:example.com"), "2026-01-01T00:00:00Z", &[], "text/dns", "20260101000000\nexample.com. 300 IN A 192.0.2.1\n"),
    ]
    .concat()
}

#[test]
fn a_warc_is_read_as_the_capture_index_it_implies() {
    let expected = " CDX a b m s k
- 20260101000000 warc/warcinfo - -
http://example.com/ 20260101000000 warc/request - -
http://example.com/ 20260101000000 text/html 200 AAAA
http://example.com/ 20260101000000 warc/metadata - -
http://example.com/ 20260102000000 text/html 200 AAAA
http://example.com/ 20260103000000 warc/revisit 200 AAAA
http://example.com/ 20260104000000 text/html 200 BBBB
http://example.com/ 20260105000000 warc/revisit 304 -
http://example.com/notes.txt 20260101000000 text/plain 200 NNNN
http://example.com/old 20260101000000 - 301 RRRR
http://example.com/gone 20260101000000 text/html 404 EEEE
dns:example.com 20260101000000 text/dns - -
";
    assert!(is_warc(crawl().as_bytes()));
    assert_eq!(index(&crawl()).unwrap(), expected);
    // read in any pieces (a reader asking a byte at a time)
    let mut bytes = Vec::new();
    let mut one = [0u8; 1];
    let warc = crawl();
    let mut reader = Index::new(warc.as_bytes());
    while reader.read(&mut one).unwrap() == 1 {
        bytes.push(one[0]);
    }
    assert_eq!(String::from_utf8(bytes).unwrap(), index(&crawl()).unwrap());
    // WARC/1.0, headers named in any case, a value continued on the next line, no
    // blank lines between records: read alike
    let old = "WARC/1.0\r\nwarc-type: response\r\nWARC-Target-URI: http://example.com/\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Payload-Digest:\r\n  sha1:AAAA\r\nContent-Type: application/http\r\nContent-Length: 0\r\n\r\n";
    assert_eq!(index(old).unwrap(), " CDX a b m s k\nhttp://example.com/ 20260101000000 - - AAAA\n");
}

/// A writer that gives no payload digest (an older or homemade one): each response's
/// body after its HTTP head, and a resource's block, hashed as they pass (the digests
/// below by Python's hashlib and base64, an independent evaluation); a revisit has no
/// payload to hash, and a DNS response is no page.
#[test]
fn records_without_a_payload_digest_are_given_their_payloads_sha1() {
    let page = Some("http://example.com/");
    let warc = [
        record("response", page, "2026-01-01T00:00:00Z", &[], HTTP, &http("200 OK", "text/html", "<p>one</p>")),
        record("response", page, "2026-01-02T00:00:00Z", &[], HTTP, &http("200 OK", "text/html", "<p>one</p>")),
        record("response", page, "2026-01-03T00:00:00Z", &[], HTTP, &http("200 OK", "text/html", "<p>two</p>")),
        record("response", page, "2026-01-04T00:00:00Z", &[], HTTP, &http("200 OK", "text/html", "")),
        record("revisit", page, "2026-01-05T00:00:00Z", &[("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")], HTTP, "HTTP/1.1 200 OK\r\n\r\n"),
        record("resource", Some("http://example.com/notes.txt"), "2026-01-01T00:00:00Z", &[], "text/plain", "notes"),
        // a digest given is kept as given, never recomputed
        record("response", page, "2026-01-06T00:00:00Z", &[("WARC-Payload-Digest", "sha1:GIVEN")], HTTP, &http("200 OK", "text/html", "<p>two</p>")),
    ]
    .concat();
    let expected = " CDX a b m s k
http://example.com/ 20260101000000 text/html 200 3CURHRYR54XL2CVXV2KABN2Y3JA4O4B2
http://example.com/ 20260102000000 text/html 200 3CURHRYR54XL2CVXV2KABN2Y3JA4O4B2
http://example.com/ 20260103000000 text/html 200 FEME523OHNOXMNZD54NGSUDR67CV2UZO
http://example.com/ 20260104000000 text/html 200 3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ
http://example.com/ 20260105000000 warc/revisit 200 -
http://example.com/notes.txt 20260101000000 text/plain 200 HLOXXFQSCAXSU7N6J3KP5CDOA7UEPQSN
http://example.com/ 20260106000000 text/html 200 GIVEN
";
    assert_eq!(index(&warc).unwrap(), expected);
    // read to count its pages: the same lines, a stand-in where a payload was hashed
    let mut naming = String::new();
    Index::naming_pages(warc.as_bytes()).read_to_string(&mut naming).unwrap();
    let stand_in: Vec<String> = expected
        .lines()
        .map(|l| if l.ends_with(" GIVEN") || l.ends_with(" -") || l.starts_with(' ') { l.to_string() } else { format!("{} {UNHASHED}", &l[..l.rfind(' ').unwrap()]) })
        .collect();
    assert_eq!(naming.lines().collect::<Vec<_>>(), stand_in);
    assert_eq!(base32(&[]), "");
    assert_eq!(base32(b"f"), "MY");
    assert_eq!(base32(b"foobar"), "MZXW6YTBOI", "RFC 4648 §10");
}

#[test]
fn a_damaged_warc_is_refused_with_its_record_and_byte() {
    let good = record("resource", Some("http://example.com/"), "2026-01-01T00:00:00Z", &[], "text/plain", "hello");
    let at = good.len();
    let cases: [(String, &str); 6] = [
        (good.clone() + "HTTP/1.1 200 OK\r\n\r\n", "starts with “HTTP/1.1 200 OK”, not WARC/1.0 or WARC/1.1"),
        (good.clone() + "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Date: 2026-01-01T00:00:00Z\r\n\r\n", "has no Content-Length header"),
        (good.clone() + "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Date: 2026-01-01\r\nContent-Length: 0\r\n\r\n", "WARC-Date “2026-01-01” is not a UTC date and time"),
        (
            good.clone() + "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: 50\r\n\r\nshort",
            "the file ends 5 bytes into its 50-byte block: it was cut short",
        ),
        (good.clone() + "WARC/1.1\r\nWARC-Type resource\r\n", "header line “WARC-Type resource” has no colon"),
        (good.clone() + "WARC/1.1\r\nWARC-Type: resource\r\n", "the file ends inside its headers"),
    ];

    for (text, said) in cases {
        let error = index(&text).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        let message = error.to_string();
        assert!(message.starts_with(&format!("WARC record 2 (at byte {at} of the decompressed file): ")) && message.contains(said), "{message}");
    }
    let endless = format!("WARC/1.1\r\nWARC-Type: resource\r\nX: {}\r\n", "a".repeat(70_000));
    assert!(index(&endless).unwrap_err().to_string().contains("its headers run past 64 KB"));
    assert!(!is_warc(b"<?xml version=\"1.0\"?>") && !is_warc(b" CDX N b a m s k"));
}

/// A WARC file held whole, gzipped a record a member: the same index; cut short inside
/// its last member, refused as such.
#[test]
fn a_gzipped_warc_held_whole_gives_the_same_index() {
    use std::io::Write;
    let warc = crawl();
    let mut bytes = Vec::new();
    for record in warc.split_inclusive("\r\n\r\nWARC/") {
        let mut member = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        member.write_all(record.as_bytes()).unwrap();
        bytes.extend(member.finish().unwrap());
    }
    assert_eq!(index_of(&bytes).unwrap(), index(&warc).unwrap());
    assert_eq!(index_of(warc.as_bytes()).unwrap(), index(&warc).unwrap());
    let cut = index_of(&bytes[..bytes.len() - 30]).unwrap_err();
    assert!(cut.contains("cut short"), "{cut}");
}
