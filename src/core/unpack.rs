//! A file's bytes as the text it holds, for the page's worker (which reads the files a
//! user drops, so that the page's main thread never holds them): gzip decompressed
//! member by member (RFC 1952 §2.2: one member or many, as Common Crawl's index shards
//! and WARC writers write them), a WARC file read as the capture index it implies
//! ([`warc`]), and the text checked as UTF-8 as every file is ([`csv_rows::decode`]).

use crate::chart::format::thousands;
use crate::core::model::csv_rows;
use crate::core::model::history::warc;
use std::io::Read;

/// What a file's bytes hold: its text, the size of that text in UTF-8, and whether it
/// is a WARC file's capture index.
#[derive(Debug, serde::Serialize)]
pub struct Unpacked {
    pub text: String,
    pub bytes: usize,
    pub warc: bool,
}

/// Whether `bytes` start as gzip does.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// `bytes` as text: decompressed when gzip, a WARC file (gzipped or not) as its capture
/// index when `warc_too`, at most `most` bytes of text. Err says what cannot be read and
/// where (the gzip member's byte, the text's line), to follow the file's name.
pub fn text_of(bytes: &[u8], most: usize, warc_too: bool) -> Result<Unpacked, String> {
    let gzip = is_gzip(bytes);
    if warc_too && warc::is_warc(&head(bytes, gzip)) {
        let text = warc::index_of(bytes)?;
        return Ok(Unpacked { bytes: text.len(), text, warc: true });
    }
    let unpacked = if gzip { gunzip(bytes, most)? } else { Vec::new() };
    let plain = if gzip { &unpacked[..] } else { bytes };
    // (a BOM dropped; UTF-16 and binary refused with the fix; a bad byte by its line)
    let text = csv_rows::decode(plain, "", most, "the command line reads any size").map_err(|e| if gzip { format!("once decompressed, {}", e.message) } else { e.message })?;
    Ok(Unpacked { bytes: text.len(), text: text.to_owned(), warc: false })
}

/// The first bytes the file holds (decompressed when gzip): enough to tell its kind;
/// empty where the gzip data are damaged (reading the whole says why).
fn head(bytes: &[u8], gzip: bool) -> Vec<u8> {
    let mut head = Vec::new();
    if gzip {
        let _ = flate2::bufread::GzDecoder::new(bytes).take(8).read_to_end(&mut head);
    } else {
        head.extend_from_slice(&bytes[..bytes.len().min(8)]);
    }
    head
}

/// Every gzip member of `bytes` decompressed in turn, stopping past `most` bytes of
/// output (the caller refuses the file). Err names the member's first byte where the
/// data are damaged or cut short.
fn gunzip(bytes: &[u8], most: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() && out.len() <= most {
        let start = bytes.len() - rest.len();
        let room = (most + 1 - out.len()) as u64;
        // the bufread decoder takes exactly one member from `rest`, trailer included
        flate2::bufread::GzDecoder::new(&mut rest).take(room).read_to_end(&mut out).map_err(|_| {
            format!("its gzip data are damaged or cut short in the member at byte {} of {}; download it again", thousands(start as f64), thousands(bytes.len() as f64))
        })?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
