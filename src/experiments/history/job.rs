//! Reading the records in slices of bytes (progress, partial counts, cancel between
//! slices), then each page's estimate. Line formats are read a line at a time from the
//! text or, on the command line, from the file as a stream (gzip decompressed as it is
//! read); documents are read whole.

use super::config::{HistoryConfig, RecordFile, RecordSource, floor_char};
use super::output::{HistoryOutput, PageHistory};
use crate::core::input::InputError;
use crate::core::model::csv_rows::Report;
use crate::core::model::history::documents::XmlReader;
use crate::core::model::history::lines::LineReader;
use crate::core::model::history::server::server_of;
use crate::core::model::history::{self, Format, Records, documents, warc};
use crate::experiments::Job;

/// Where a file's bytes come from.
enum Source {
    Text {
        text: String,
        at: usize,
    },
    #[cfg(not(target_arch = "wasm32"))]
    Stream(stream::Stream),
}

struct Input {
    name: String,
    source: Source,
    /// A WARC file, read as its capture index.
    warc: bool,
}

pub struct HistoryJob {
    config: HistoryConfig,
    inputs: Vec<Input>,
    /// The file being read, its format and line reader, its line number and bad lines.
    current: usize,
    format: Option<Format>,
    reader: Option<LineReader>,
    /// The current file's XML reader (sitemaps, MediaWiki dumps), with the bytes and
    /// lines it had read at the last step.
    xml: Option<(XmlReader, u64, usize)>,
    line: usize,
    report: Report,
    records: Records,
    /// The generated pages' true rates.
    truth: Vec<f64>,
    listed: Vec<String>,
    bytes_done: f64,
    /// The records' bytes, for the fraction read (sampled once: a gzip file's by
    /// inflating its first megabyte).
    bytes_total: f64,
    lines: u64,
    /// The files read so far that were WARC files.
    warc_files: u64,
    refused: Option<String>,
    output: Option<HistoryOutput>,
}

impl HistoryJob {
    pub fn new(mut config: HistoryConfig) -> Result<Self, InputError> {
        if config.source == RecordSource::Files && config.files.is_empty() && config.paths.is_empty() {
            return Err(InputError::new("files", "the records' text is needed to run (records_bytes only stands for it in checks); load the files"));
        }
        if let Some(head) = config.files.iter().find(|f| f.bytes.is_some_and(|b| b > f.text.len() as u64)) {
            let message = format!("{} is given by its first {} bytes only (they stand for it in checks); load the whole file to run", head.name, head.text.len());
            return Err(InputError::new("files", message));
        }
        let generated = config.source == RecordSource::Generator;
        let (records, truth) = if generated { config.generator().records() } else { (Records::default(), Vec::new()) };
        // the command line's paths join the texts (natively only)
        #[cfg_attr(target_arch = "wasm32", allow(unused_mut))]
        let mut inputs: Vec<Input> = std::mem::take(&mut config.files)
            .into_iter()
            .map(|f| {
                config.files.push(RecordFile { name: f.name.clone(), text: String::new(), bytes: Some(f.text.len() as u64), warc: f.warc, pages: f.pages, unsampled: false });
                Input { name: f.name, source: Source::Text { text: f.text, at: 0 }, warc: f.warc }
            })
            .collect();
        #[cfg(not(target_arch = "wasm32"))]
        for path in &config.paths {
            let stream = stream::Stream::open(path)?;
            inputs.push(Input { name: path.clone(), warc: false, source: Source::Stream(stream) });
        }
        #[cfg(target_arch = "wasm32")]
        if let Some(path) = config.paths.first() {
            return Err(InputError::new("paths", format!("{path}: files are read by the command line only; in the page, load them")));
        }
        let bytes_total = config.bytes().max(1.0);
        Ok(HistoryJob {
            config,
            inputs,
            current: 0,
            reader: None,
            xml: None,
            line: 0,
            report: Report::default(),
            format: generated.then_some(Format::Cdx),
            records,
            truth,
            listed: Vec::new(),
            bytes_done: 0.0,
            bytes_total,
            lines: 0,
            warc_files: 0,
            refused: None,
            output: None,
        })
    }

    /// The format of the current file: the configuration's, or detected from its head;
    /// every file of a run must be of one format.
    fn format_of(&mut self, head: &str) -> Result<Format, String> {
        let found = match self.config.format {
            Format::Auto if head.trim().is_empty() => return Err("is empty (or blank to its first 4 KB): there are no records in it; check the file".into()),
            Format::Auto => {
                history::detect(head).ok_or("its format is not one Freshlab knows from its first line; choose the format (cdx, cdxj, sitemap, heritrix, csv, mediawiki)")?
            }
            given => given,
        };
        match self.format {
            Some(before) if before != found => Err(format!("is {} where the files before are {}: read one format at a time", found.label(), before.label())),
            _ => Ok(found),
        }
    }

    /// Reads about `budget` bytes of the current file; false when it is over.
    fn read(&mut self, budget: u64) -> Result<bool, String> {
        if let Some((xml, bytes, lines)) = self.xml.as_mut() {
            let more = xml.read(budget, &mut self.records)?;
            self.bytes_done += (xml.position() - *bytes) as f64;
            self.lines += (xml.lines() - *lines) as u64;
            (*bytes, *lines) = (xml.position(), xml.lines());
            if !more {
                let (xml, _, _) = self.xml.take().expect("an XML reader");
                self.listed.extend(xml.listed);
            }
            return Ok(more);
        }
        // the head, to detect the format and begin an XML stream or read JSON whole
        let format = match self.reader.as_ref().map(|r| r.format) {
            Some(f) => f,
            None => {
                let input = &mut self.inputs[self.current];
                let head = match &mut input.source {
                    // a WARC file's text (a configuration's): read as the capture index it implies
                    Source::Text { text, at } if warc::is_warc(text.as_bytes()) => {
                        (*text, *at, input.warc) = (warc::index_of(text.as_bytes())?, 0, true);
                        text[..floor_char(text, 4096)].to_string()
                    }
                    Source::Text { text, .. } => text[..floor_char(text, 4096)].to_string(),
                    #[cfg(not(target_arch = "wasm32"))]
                    Source::Stream(s) => {
                        let head = s.head()?;
                        input.warc = s.warc;
                        head
                    }
                };
                self.warc_files += u64::from(self.inputs[self.current].warc);
                let format = self.format_of(&head)?;
                self.format = Some(format);
                if format == Format::Mediawiki && head.trim_start_matches('\u{feff}').trim_start().starts_with('{') {
                    // the API's JSON answer, read whole
                    let text = match &mut self.inputs[self.current].source {
                        Source::Text { text, at } => {
                            *at = text.len();
                            std::mem::take(text)
                        }
                        #[cfg(not(target_arch = "wasm32"))]
                        Source::Stream(s) => s.whole()?,
                    };
                    self.bytes_done += text.len() as f64;
                    self.lines += text.lines().count() as u64;
                    documents::mediawiki_json(&text, self.config.wiki(), &mut self.records)?;
                    return Ok(false);
                }
                if !format.by_line() {
                    let source = std::mem::replace(&mut self.inputs[self.current].source, Source::Text { text: String::new(), at: 0 });
                    let bytes: Box<dyn std::io::BufRead> = match source {
                        Source::Text { text, .. } => Box::new(std::io::Cursor::new(text.into_bytes())),
                        #[cfg(not(target_arch = "wasm32"))]
                        Source::Stream(s) => s.into_reader()?,
                    };
                    self.xml = Some((XmlReader::new(bytes, format, self.config.wiki(), &self.inputs[self.current].name), 0, 0));
                    return self.read(budget);
                }
                self.reader = Some(LineReader::new(format));
                format
            }
        };
        debug_assert!(format.by_line());
        let reader = self.reader.as_mut().expect("a line reader");
        let mut read = 0u64;
        let input = &mut self.inputs[self.current];
        loop {
            let (line, ended): (&str, bool) = match &mut input.source {
                Source::Text { text, at } => {
                    if *at >= text.len() {
                        return Ok(false);
                    }
                    let end = text[*at..].find('\n').map_or(text.len(), |k| *at + k);
                    let line = &text[*at..end];
                    let used = (end + 1).min(text.len()) - *at;
                    *at += used;
                    read += used as u64;
                    self.bytes_done += used as f64;
                    (line, end < text.len())
                }
                #[cfg(not(target_arch = "wasm32"))]
                Source::Stream(s) => match s.line().map_err(|e| format!("after line {}: {e}", self.line))? {
                    None => return Ok(false),
                    Some(used) => {
                        read += used as u64;
                        self.bytes_done += used as f64;
                        (s.text(), s.ended())
                    }
                },
            };
            self.line += 1;
            self.lines += 1;
            if let Err(reason) = reader.line(line, ended, &mut self.records) {
                if reason.starts_with("more than") {
                    return Err(format!("line {}: {reason}", self.line));
                }
                self.report.bad(self.line, reason);
            }
            if read >= budget {
                return Ok(true);
            }
        }
    }

    /// Ends the current file: its bad lines refuse the run, naming the file.
    fn end_file(&mut self) -> Result<(), String> {
        self.xml = None;
        // a stream's file and buffer let go (a text is kept, as the estimate prices it)
        #[cfg(not(target_arch = "wasm32"))]
        if let Source::Stream(_) = self.inputs[self.current].source {
            self.inputs[self.current].source = Source::Text { text: String::new(), at: 0 };
        }
        if let Some(message) = std::mem::take(&mut self.report).message() {
            return Err(message);
        }
        self.current += 1;
        self.reader = None;
        self.line = 0;
        Ok(())
    }

    fn result(&mut self, estimates: bool) -> HistoryOutput {
        let mut pages = Vec::new();
        let mut estimated = Vec::new();
        if estimates && self.refused.is_none() {
            estimated = self.records.estimates(self.config.confidence);
        }
        for (page, estimate) in estimated.into_iter().enumerate() {
            let url = &self.records.urls[page];
            pages.push(PageHistory {
                url: url.to_string(),
                server: server_of(url, self.config.server_by),
                weight: self.records.weights.get(&(page as u32)).copied(),
                declared: self.records.changefreq.get(&(page as u32)).copied(),
                exact_times: matches!(self.records.marks(page).first().map(|m| m.what), Some(history::What::Change)),
                mime: self.records.mime(page).map(str::to_string),
                true_rate: self.truth.get(page).copied(),
                estimate,
            });
        }
        let lines = (self.lines, self.warc_files);
        HistoryOutput::new(&self.config, self.format, self.bytes_done, lines, &self.records, &self.listed, self.refused.clone(), pages, self.trace_csv(estimates))
    }

    /// The revisions as a change trace (page,timestamp), for the bursty experiment.
    fn trace_csv(&self, estimates: bool) -> Option<String> {
        if !estimates || self.refused.is_some() || self.format != Some(Format::Mediawiki) {
            return None;
        }
        let mut writer = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        writer.write_record(["page", "timestamp"]).ok()?;
        for page in 0..self.records.pages() {
            let name = self.records.urls[page].rsplit("/wiki/").next().unwrap_or("").to_string();
            for m in self.records.marks(page) {
                writer.write_record([name.as_str(), &crate::core::model::trace::iso(m.time)]).ok()?;
            }
        }
        String::from_utf8(writer.into_inner().ok()?).ok()
    }
}

impl Job<HistoryOutput> for HistoryJob {
    fn advance(&mut self, budget: u64) -> f64 {
        let mut left = budget.max(1);
        while self.output.is_none() && left > 0 {
            if self.current == self.inputs.len() || self.refused.is_some() {
                self.output = Some(self.result(true));
                break;
            }
            let before = self.bytes_done;
            let step = self.read(left).and_then(|more| if more { Ok(()) } else { self.end_file() });
            if let Err(why) = step {
                self.refused = Some(format!("{}: {why}", self.inputs[self.current].name));
            }
            left = left.saturating_sub((self.bytes_done - before).max(1.0) as u64);
        }
        self.fraction()
    }

    fn done(&self) -> bool {
        self.output.is_some()
    }

    fn partial(&self) -> Option<HistoryOutput> {
        self.output.clone()
    }

    fn finish(mut self: Box<Self>) -> HistoryOutput {
        while !self.done() {
            self.advance(u64::MAX);
        }
        self.output.take().expect("a result")
    }

    fn work(&self) -> f64 {
        if self.config.source == RecordSource::Generator { self.records.kept as f64 } else { self.bytes_done }
    }
}

impl HistoryJob {
    fn fraction(&self) -> f64 {
        if self.output.is_some() {
            return 1.0;
        }
        if self.config.source == RecordSource::Generator {
            return 0.0;
        }
        (self.bytes_done / self.bytes_total).min(0.999)
    }
}

#[cfg(not(target_arch = "wasm32"))]
pub(super) use stream::Stream;

/// A file read as a stream, a line at a time (gzip decompressed by flate2 when the file
/// starts with gzip's magic bytes).
#[cfg(not(target_arch = "wasm32"))]
mod stream {
    use crate::core::input::InputError;
    use crate::core::model::history::warc;
    use std::io::{BufRead, BufReader, Read, Seek};

    /// A stream's buffer: a megabyte.
    const BUFFER: usize = 1 << 20;

    /// A file's stream, opened when its reading starts: a run of a thousand files (a
    /// year of daily sitemaps, an index's shards) holds one file open and one buffer.
    pub struct Stream {
        path: String,
        reader: Option<Box<dyn BufRead>>,
        line: String,
        /// A WARC file, read as its capture index (told once it is opened).
        pub warc: bool,
        /// Read to count its pages: a WARC file's payloads passed unhashed.
        naming_pages: bool,
    }

    impl Stream {
        /// The file at `path`, which can be opened (it is, when first read).
        pub fn open(path: &str) -> Result<Stream, InputError> {
            std::fs::File::open(path).map_err(|e| InputError::new("", format!("cannot read {path}: {e}")))?;
            Ok(Stream { path: path.to_string(), reader: None, line: String::new(), warc: false, naming_pages: false })
        }

        /// The file at `path`, read to count its pages ([`warc::Index::naming_pages`]).
        pub fn naming_pages(path: &str) -> Result<Stream, InputError> {
            Ok(Stream { naming_pages: true, ..Self::open(path)? })
        }

        /// Its reader: gzip decompressed, a WARC file as the capture index it implies.
        fn reader(&mut self) -> Result<&mut Box<dyn BufRead>, String> {
            if self.reader.is_none() {
                let cannot = |e: std::io::Error| format!("cannot be read ({e})");
                // opened once, its magic bytes read and the file rewound (2,000 small logs
                // had each been opened three times a reading)
                let mut file = std::fs::File::open(&self.path).map_err(cannot)?;
                let mut magic = [0u8; 2];
                let gzip = file.read_exact(&mut magic).is_ok() && magic == [0x1f, 0x8b];
                file.rewind().map_err(cannot)?;
                // a buffer of a megabyte, or the whole of a smaller file (a megabyte taken
                // and given back for each of 2,000 small logs was an mmap and munmap each)
                let size = file.metadata().map_or(u64::MAX, |m| m.len());
                let capacity = if gzip { BUFFER } else { BUFFER.min(size.saturating_add(1).max(8 * 1024).try_into().unwrap_or(BUFFER)) };
                let mut reader: Box<dyn BufRead> =
                    if gzip { Box::new(BufReader::with_capacity(capacity, flate2::read::MultiGzDecoder::new(file))) } else { Box::new(BufReader::with_capacity(capacity, file)) };
                // a WARC file: read as the capture index it implies, a record at a time
                self.warc = reader.fill_buf().is_ok_and(warc::is_warc);
                if self.warc {
                    let index = if self.naming_pages { warc::Index::naming_pages(reader) } else { warc::Index::new(reader) };
                    reader = Box::new(BufReader::with_capacity(1 << 16, index));
                }
                self.reader = Some(reader);
            }
            Ok(self.reader.as_mut().expect("opened"))
        }

        /// The first 4 KB (left in the buffer, read again as lines).
        pub fn head(&mut self) -> Result<String, String> {
            let buffer = self.reader()?.fill_buf().map_err(|e| format!("cannot be read ({e})"))?;
            Ok(String::from_utf8_lossy(&buffer[..buffer.len().min(4096)]).into_owned())
        }

        /// The next line into [`Self::text`]: its bytes with the line end, None at the end.
        pub fn line(&mut self) -> Result<Option<usize>, String> {
            let mut line = std::mem::take(&mut self.line);
            line.clear();
            let read = self.reader()?.read_line(&mut line);
            self.line = line;
            match read {
                Ok(0) => Ok(None),
                Ok(n) => Ok(Some(n)),
                Err(e) if e.to_string().starts_with("WARC") => Err(format!("cannot be read further: {e}")),
                Err(e) => Err(format!("cannot be read further ({e}); is it UTF-8 text, or a whole gzip file (not cut short)?")),
            }
        }

        pub fn text(&self) -> &str {
            self.line.trim_end_matches('\n')
        }

        /// Whether the line read ends with a line end (the file's last may not).
        pub fn ended(&self) -> bool {
            self.line.ends_with('\n')
        }

        /// The reader itself (for a stream of XML events), the head still in its buffer.
        pub fn into_reader(mut self) -> Result<Box<dyn BufRead>, String> {
            self.reader()?;
            Ok(self.reader.expect("opened"))
        }

        /// The rest, whole (JSON documents).
        pub fn whole(&mut self) -> Result<String, String> {
            let mut text = String::new();
            self.reader()?.read_to_string(&mut text).map_err(|e| format!("cannot be read ({e}); is it UTF-8 text, or a whole gzip file?"))?;
            Ok(text)
        }
    }
}
