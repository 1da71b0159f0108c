//! WARC files (ISO 28500: WARC/1.0 and WARC/1.1, as Heritrix, wget, warcio and
//! Browsertrix write them) read as the capture index they imply, a record at a time:
//! each `response`, `resource` and `revisit` record a capture — its target URI, its
//! date, the status and content type of the HTTP response it holds, its payload digest
//! (where the record gives none, the SHA-1 of its payload, hashed as it passes: a
//! response's body after its HTTP head as stored, a resource's block) — written as a CDX line under the legend ` CDX a b m s k`, which the CDX reader then
//! reads as any index's ([`super::lines`]). Every other record (`request`, `metadata`,
//! `warcinfo`, `conversion`, `continuation`) is written with the mime type
//! `warc/<type>`, as pywb's indexer writes them with `--allrecords`, and counted as not a
//! capture. The records' blocks pass, never held: memory stays that of one record's
//! headers.

use std::io::{self, BufRead, Read};

/// The legend line the index begins with: original URL, date, mime type, status, digest.
const LEGEND: &str = " CDX a b m s k\n";
/// A record's WARC headers, at most (they are a few hundred bytes).
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// An HTTP response's head read for its status and content type, at most.
const MAX_HTTP_HEAD: u64 = 64 * 1024;

/// A WARC file's capture index, read from `input` (decompressed) as CDX text.
pub struct Index<R: BufRead> {
    input: R,
    /// Records read; the bytes read before the current record, and where it starts.
    records: u64,
    consumed: u64,
    start: u64,
    /// The index text not yet read, from `at`.
    out: Vec<u8>,
    at: usize,
    ended: bool,
    /// Payloads without a digest hashed; else a stand-in where a digest would be
    /// computed ([`Index::naming_pages`]).
    hashing: bool,
}

/// The digest an index naming its pages writes where a payload would be hashed.
const UNHASHED: &str = "UNHASHED";

/// Whether `head` (a file's first bytes, decompressed) starts as a WARC file does.
pub fn is_warc(head: &[u8]) -> bool {
    head.starts_with(b"WARC/1.")
}

/// The capture index of a WARC file held whole (gzipped a record a member, as WARC
/// writers do, or not), as CDX text; Err says what cannot be read, and where.
pub fn index_of(bytes: &[u8]) -> Result<String, String> {
    let mut index = String::new();
    let read = if bytes.starts_with(&[0x1f, 0x8b]) {
        Index::new(io::BufReader::with_capacity(1 << 16, flate2::read::MultiGzDecoder::new(bytes))).read_to_string(&mut index)
    } else {
        Index::new(bytes).read_to_string(&mut index)
    };
    read.map_err(|e| {
        let said = e.to_string();
        if said.starts_with("WARC") { said } else { format!("its gzip data are damaged or cut short ({said}); download it again") }
    })?;
    Ok(index)
}

impl<R: BufRead> Index<R> {
    pub fn new(input: R) -> Self {
        Index { input, records: 0, consumed: 0, start: 0, out: LEGEND.as_bytes().to_vec(), at: 0, ended: false, hashing: true }
    }

    /// The same index for counting its pages before the run: the same lines, but a
    /// payload without a digest is passed unhashed, a stand-in written for its digest
    /// (the pages are the same; hashing is most of a WARC file's reading).
    pub fn naming_pages(input: R) -> Self {
        Index { hashing: false, ..Self::new(input) }
    }

    /// An error naming the record and where it starts, and what to do.
    fn damaged(&self, what: impl std::fmt::Display) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, format!("WARC record {} (at byte {} of the decompressed file): {what}", self.records + 1, self.start))
    }

    /// One line of the record's headers (without its line end), None at the end of the file.
    fn header_line(&mut self, used: &mut usize) -> io::Result<Option<String>> {
        let mut line = Vec::new();
        let limit = (MAX_HEADER_BYTES - *used) as u64 + 1;
        let n = (&mut self.input).take(limit).read_until(b'\n', &mut line)?;
        *used += n;
        if *used > MAX_HEADER_BYTES {
            return Err(self.damaged(format!("its headers run past {} KB without the blank line that ends them; the file is damaged", MAX_HEADER_BYTES / 1024)));
        }
        if n == 0 {
            return Ok(None);
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        Ok(Some(String::from_utf8_lossy(&line).into_owned()))
    }

    /// Reads the next record into `out`; at the end of the file, sets `ended`.
    fn next_record(&mut self) -> io::Result<()> {
        let mut used = 0;
        // the blank lines that end the record before
        let version = loop {
            self.start = self.consumed + used as u64;
            match self.header_line(&mut used)? {
                None => {
                    self.ended = true;
                    return Ok(());
                }
                Some(line) if line.trim().is_empty() => continue,
                Some(line) => break line,
            }
        };
        if !version.starts_with("WARC/1.") {
            let shown: String = version.chars().take(40).collect();
            return Err(self.damaged(format!("starts with “{shown}”, not WARC/1.0 or WARC/1.1: the file is damaged or cut here (or a record's Content-Length is wrong)")));
        }
        let mut headers = Headers::default();
        loop {
            let Some(line) = self.header_line(&mut used)? else {
                return Err(self.damaged("the file ends inside its headers: it was cut short; fetch it again"));
            };
            if line.is_empty() {
                break;
            }
            headers.add(&line).map_err(|e| self.damaged(e))?;
        }
        let length: u64 = match headers.get("content-length") {
            Some(n) => n.trim().parse().map_err(|_| self.damaged(format!("Content-Length “{n}” is not a number of bytes")))?,
            None => return Err(self.damaged("has no Content-Length header (every WARC record has one)")),
        };
        let kind = headers.get("warc-type").unwrap_or("").trim().to_ascii_lowercase();
        let block_type = headers.get("content-type").unwrap_or("").trim().to_ascii_lowercase();
        let given = headers.get("warc-payload-digest").is_some();
        // the HTTP response's head, where the block holds one; the payload after it hashed
        // where the record gives no digest of it
        let (http, computed) = if block_type.starts_with("application/http") && matches!(kind.as_str(), "response" | "revisit") {
            let mut head = Vec::new();
            let read = (&mut self.input).take(length.min(MAX_HTTP_HEAD)).read_until_blank_line(&mut head)?;
            let computed = self.block(length - read, kind == "response" && !given)?;
            (Some(HttpHead::of(&head)), computed)
        } else {
            // a resource is its own payload
            let hash = kind == "resource" && !given && headers.get("warc-block-digest").is_none();
            (None, self.block(length, hash)?)
        };
        let line = self.capture(&kind, &headers, &block_type, http.as_ref(), computed)?;
        self.out.extend_from_slice(line.as_bytes());
        self.records += 1;
        self.consumed += used as u64 + length;
        Ok(())
    }

    /// Passes `n` bytes of a block, their SHA-1 in base32 where `hash` (as WARC writers
    /// write a payload digest); the file ending first is an error.
    fn block(&mut self, n: u64, hash: bool) -> io::Result<Option<String>> {
        let mut sha1 = (hash && self.hashing).then(sha1_smol::Sha1::new);
        let passed = match &mut sha1 {
            Some(sha1) => io::copy(&mut (&mut self.input).take(n), &mut Hashing(sha1))?,
            None => io::copy(&mut (&mut self.input).take(n), &mut io::sink())?,
        };
        if passed < n {
            return Err(self.damaged(format!("the file ends {passed} bytes into its {n}-byte block: it was cut short; fetch it again")));
        }
        Ok(match sha1 {
            Some(sha1) => Some(base32(&sha1.digest().bytes())),
            None => (hash && !self.hashing).then(|| UNHASHED.to_string()),
        })
    }

    /// The record's index line: `url date mime status digest`.
    /// `computed`: the payload's digest where the record gives none (a response's, a
    /// resource's).
    fn capture(&self, kind: &str, headers: &Headers, block_type: &str, http: Option<&HttpHead>, computed: Option<String>) -> io::Result<String> {
        let url = headers
            .get("warc-target-uri")
            .map(|u| u.trim().trim_start_matches('<').trim_end_matches('>').replace(' ', "%20"))
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| "-".into());
        let date = headers.get("warc-date").ok_or_else(|| self.damaged("has no WARC-Date header (every WARC record has one)"))?;
        let date = cdx_date(date.trim()).map_err(|e| self.damaged(e))?;
        let digest = |name: &str| headers.get(name).map(|d| d.trim().rsplit(':').next().unwrap_or("").to_string()).filter(|d| !d.is_empty() && !d.contains(' '));
        let (mime, status, digest) = match kind {
            "response" => match http {
                Some(h) => (h.content_type.clone(), h.status.clone(), digest("warc-payload-digest").or(computed)),
                // a response of another protocol (dns:, whois:): the URL says it is not a page
                None => (first_word(block_type), "-".into(), digest("warc-payload-digest").or_else(|| digest("warc-block-digest"))),
            },
            // the resource itself, without a protocol's response around it
            "resource" => (first_word(block_type), "200".into(), digest("warc-payload-digest").or_else(|| digest("warc-block-digest")).or(computed)),
            "revisit" => {
                let profile = headers.get("warc-profile").unwrap_or("").to_ascii_lowercase();
                if profile.contains("server-not-modified") {
                    // the server said 304: unchanged since the capture it refers to
                    ("warc/revisit".into(), "304".into(), None)
                } else {
                    // identical-payload-digest: the same content as an earlier capture
                    ("warc/revisit".into(), http.map_or_else(|| "-".into(), |h| h.status.clone()), digest("warc-payload-digest"))
                }
            }
            "" => return Err(self.damaged("has no WARC-Type header (every WARC record has one)")),
            other => (format!("warc/{}", other.split_whitespace().next().unwrap_or("unknown")), "-".into(), None),
        };
        let mime = if mime.is_empty() { "-".into() } else { mime };
        Ok(format!("{url} {date} {mime} {status} {}\n", digest.unwrap_or_else(|| "-".into())))
    }
}

impl<R: BufRead> Read for Index<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() {
            if self.ended {
                return Ok(0);
            }
            self.out.clear();
            self.at = 0;
            self.next_record()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// A record's WARC headers: names compared without case, continuation lines joined.
#[derive(Default)]
struct Headers {
    fields: Vec<(String, String)>,
}

impl Headers {
    fn add(&mut self, line: &str) -> Result<(), String> {
        if line.starts_with([' ', '\t']) {
            let Some((_, value)) = self.fields.last_mut() else { return Err("its headers begin with a continuation line".into()) };
            value.push(' ');
            value.push_str(line.trim());
            return Ok(());
        }
        let Some((name, value)) = line.split_once(':') else {
            let shown: String = line.chars().take(40).collect();
            return Err(format!("header line “{shown}” has no colon (Name: value); the file is damaged"));
        };
        self.fields.push((name.trim().to_ascii_lowercase(), value.trim().to_string()));
        Ok(())
    }

    /// The first value of header `name` (lowercase).
    fn get(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// An HTTP response's status and content type (without its parameters).
struct HttpHead {
    status: String,
    content_type: String,
}

impl HttpHead {
    fn of(head: &[u8]) -> HttpHead {
        let text = String::from_utf8_lossy(head);
        let mut lines = text.lines();
        let status = lines.next().and_then(|l| l.split_whitespace().nth(1)).filter(|s| s.len() == 3 && s.bytes().all(|b| b.is_ascii_digit())).unwrap_or("-");
        let content_type = lines
            .filter_map(|l| l.split_once(':'))
            .find(|(n, _)| n.trim().eq_ignore_ascii_case("content-type"))
            .map(|(_, v)| first_word(&v.trim().to_ascii_lowercase()))
            .unwrap_or_default();
        HttpHead { status: status.to_string(), content_type }
    }
}

/// A block's bytes into a SHA-1.
struct Hashing<'a>(&'a mut sha1_smol::Sha1);

impl io::Write for Hashing<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A digest in base32 (RFC 4648, without padding: a SHA-1's 20 bytes are 32 letters),
/// as Heritrix, wget and warcio write `WARC-Payload-Digest: sha1:…`.
fn base32(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::new();
    let (mut bits, mut held) = (0u32, 0u32);
    for &b in bytes {
        bits = (bits << 8) | u32::from(b);
        held += 8;
        while held >= 5 {
            held -= 5;
            out.push(ALPHABET[((bits >> held) & 31) as usize] as char);
        }
    }
    if held > 0 {
        out.push(ALPHABET[((bits << (5 - held)) & 31) as usize] as char);
    }
    out
}

/// A content type without its parameters (`text/html; charset=utf-8` → `text/html`).
fn first_word(content_type: &str) -> String {
    content_type.split(';').next().unwrap_or("").trim().replace(' ', "")
}

/// A WARC-Date (`2024-03-05T17:20:14Z`, fractions of a second allowed in WARC/1.1) as
/// a CDX timestamp (`20240305172014`).
fn cdx_date(date: &str) -> Result<String, String> {
    let t: jiff::Timestamp = date.parse().map_err(|e| format!("WARC-Date “{date}” is not a UTC date and time such as 2024-03-05T17:20:14Z ({e})"))?;
    let d = jiff::tz::Offset::UTC.to_datetime(t);
    Ok(format!("{:04}{:02}{:02}{:02}{:02}{:02}", d.year(), d.month(), d.day(), d.hour(), d.minute(), d.second()))
}

/// Reads up to and including the blank line that ends an HTTP head.
trait ReadHead {
    fn read_until_blank_line(&mut self, head: &mut Vec<u8>) -> io::Result<u64>;
}

impl<R: BufRead> ReadHead for R {
    fn read_until_blank_line(&mut self, head: &mut Vec<u8>) -> io::Result<u64> {
        let mut read = 0;
        loop {
            let start = head.len();
            let n = self.read_until(b'\n', head)?;
            read += n as u64;
            let line = &head[start..];
            if n == 0 || line == b"\r\n" || line == b"\n" {
                return Ok(read);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
