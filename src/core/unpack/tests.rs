use super::*;
use crate::core::model::history::warc::tests::crawl;
use std::io::Write;

/// `text` gzipped as one member.
fn member(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

const LINES: [&str; 3] = ["a 20200101000000 x\n", "b 20200102000000 y\n", "c 20200103000000 z\n"];

#[test]
fn plain_text_is_read_as_it_is_and_sized_in_utf8() {
    let read = text_of("page,é\n".as_bytes(), 1 << 20, true).unwrap();
    assert_eq!((read.text.as_str(), read.bytes, read.warc), ("page,é\n", 8, false));
}

#[test]
fn gzip_in_one_member_or_several_reads_as_the_members_joined() {
    let whole = LINES.concat();
    assert_eq!(text_of(&member(whole.as_bytes()), 1 << 20, false).unwrap().text, whole);
    let members: Vec<u8> = LINES.iter().flat_map(|line| member(line.as_bytes())).collect();
    let read = text_of(&members, 1 << 20, false).unwrap();
    assert_eq!((read.text, read.bytes), (whole.clone(), whole.len()));
}

#[test]
fn a_damaged_or_cut_member_is_named_by_its_first_byte() {
    let members: Vec<Vec<u8>> = LINES.iter().map(|line| member(line.as_bytes())).collect();
    let second = members[0].len();
    let mut damaged = members.concat();
    // the second member's deflate data (past its 10-byte header) overwritten
    for b in &mut damaged[second + 10..second + 16] {
        *b = 0xff;
    }
    let said = text_of(&damaged, 1 << 20, false).unwrap_err();
    assert!(said.contains(&format!("in the member at byte {second} of {}", damaged.len())), "{said}");
    let all = members.concat();
    let third = members[0].len() + members[1].len();
    let said = text_of(&all[..all.len() - 3], 1 << 20, false).unwrap_err();
    assert!(said.contains(&format!("cut short in the member at byte {third} of")), "{said}");
}

#[test]
fn text_past_the_limit_is_refused_not_cut() {
    let text = "x".repeat(5000);
    assert!(text_of(text.as_bytes(), 5000, false).is_ok());
    let said = text_of(text.as_bytes(), 4999, false).unwrap_err();
    assert!(said.starts_with("is 0 MB, over the 0 MB limit") && said.contains("command line"), "{said}");
    let said = text_of(&member(text.as_bytes()), 4999, false).unwrap_err();
    assert!(said.starts_with("once decompressed, is"), "{said}");
}

#[test]
fn a_byte_that_is_not_utf8_is_named_by_its_line_and_utf16_by_its_fix() {
    let said = text_of(b"page\nok\nbad \xff here\n", 1 << 20, false).unwrap_err();
    assert!(said.starts_with("is not UTF-8 text (byte 13 on line 3 is not valid UTF-8)"), "{said}");
    let said = text_of(&member(b"a\n\xfe"), 1 << 20, false).unwrap_err();
    assert!(said.starts_with("once decompressed, is not UTF-8 text (byte 3 on line 2"), "{said}");
    let said = text_of(&[0xff, 0xfe, b'A', 0, b',', 0], 1 << 20, false).unwrap_err();
    assert!(said.starts_with("looks like UTF-16"), "{said}");
    // a BOM is no character of the text
    assert_eq!(text_of("\u{feff}page\n".as_bytes(), 1 << 20, false).unwrap().text, "page\n");
}

#[test]
fn a_warc_file_gzipped_or_not_reads_as_its_capture_index_where_asked() {
    let warc = crawl();
    let index = warc::index_of(warc.as_bytes()).unwrap();
    for bytes in [warc.as_bytes().to_vec(), member(warc.as_bytes())] {
        let read = text_of(&bytes, 1 << 20, true).unwrap();
        assert_eq!((read.text.as_str(), read.bytes, read.warc), (index.as_str(), index.len(), true));
    }
    // a page list's box takes no WARC file: its text is the file's own
    assert_eq!(text_of(warc.as_bytes(), 1 << 20, false).unwrap().text, warc);
}
