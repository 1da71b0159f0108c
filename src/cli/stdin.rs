//! Records that come as a stream — piped in (`curl … | freshlab history -`) or a pipe's
//! path (`freshlab history <(zcat a.cdx.gz)`) — kept in temporary files first, since a
//! history reads its files more than once (priced, their pages counted, then read).

use super::{Failure, size_words, usage_error};
use freshlab::experiments::Config;
use serde_json::{Map, Value};
use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;

/// The name the records from standard input go by (in the results and messages).
const STDIN: &str = "standard-input";

/// The streams kept in files, each (as given, where kept); the directory removed when
/// dropped.
pub struct Spooled {
    dir: PathBuf,
    kept: Vec<(String, String)>,
}

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Whether `path` names a stream: `-` (standard input), or a pipe or device (not a
/// file, not a directory; what does not exist is left to the history's own check).
fn is_stream(path: &str) -> bool {
    path == "-" || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The config's `paths` that are streams replaced by their records kept in files
/// (`config_piped`: the configuration itself came from standard input, which cannot
/// then hold records).
pub fn spool_streams(object: &mut Map<String, Value>, config_piped: bool, quiet: bool) -> Result<Option<Spooled>, Failure> {
    let Some(Value::Array(paths)) = object.get_mut("paths") else { return Ok(None) };
    let dashes = paths.iter().filter(|p| p.as_str() == Some("-")).count();
    if dashes > 1 || (dashes == 1 && config_piped) {
        return Err(usage_error("standard input ('-') is given twice: it can be read once; save one of them to a file"));
    }
    if !paths.iter().any(|p| p.as_str().is_some_and(is_stream)) {
        return Ok(None);
    }
    let dir = std::env::temp_dir().join(format!("freshlab-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| cannot_keep(&dir, &e))?;
    let mut spooled = Spooled { dir, kept: Vec::new() };
    for p in paths.iter_mut() {
        let Some(given) = p.as_str().filter(|p| is_stream(p)).map(str::to_string) else { continue };
        let kept = spooled.keep(&given, quiet)?;
        *p = Value::String(kept);
    }
    Ok(Some(spooled))
}

impl Spooled {
    /// The stream `given` copied whole into a file of the directory; its path. Said on
    /// standard error unless `quiet`.
    fn keep(&mut self, given: &str, quiet: bool) -> Result<String, Failure> {
        let name = if given == "-" { STDIN.to_string() } else { format!("{}-{}", self.kept.len() + 1, given.rsplit('/').next().unwrap_or("stream")) };
        let path = self.dir.join(name);
        let said = if given == "-" { "standard input".to_string() } else { given.to_string() };
        let mut source: Box<dyn Read> = if given == "-" {
            let stdin = std::io::stdin();
            if stdin.is_terminal() {
                return Err(usage_error(
                    "'-' reads the records from standard input, which is a terminal here: pipe them in (zcat index.cdx.gz | freshlab history -) or give the file's path",
                ));
            }
            Box::new(stdin.lock())
        } else {
            Box::new(std::fs::File::open(given).map_err(|e| usage_error(format!("cannot read {given} ({e}); give the path of a file of records")))?)
        };
        if !quiet {
            eprintln!("freshlab: keeping {said} in {} (the records are read more than once)…", path.display());
        }
        let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&path).map_err(|e| cannot_keep(&self.dir, &e))?);
        let bytes = std::io::copy(&mut source, &mut file).map_err(|e| cannot_keep(&self.dir, &e))?;
        file.flush().map_err(|e| cannot_keep(&self.dir, &e))?;
        if bytes == 0 {
            return Err(usage_error(format!("{said} is empty: give the records there, or the path of a file of records")));
        }
        if !quiet {
            eprintln!("freshlab: read {} from {said}", size_words(bytes));
        }
        let kept = path.to_string_lossy().into_owned();
        self.kept.push((given.to_string(), kept.clone()));
        Ok(kept)
    }
}

fn cannot_keep(dir: &std::path::Path, e: &std::io::Error) -> Failure {
    usage_error(format!("cannot keep the records piped in under {} ({e}); set TMPDIR to a directory with room, or save them to a file and give its path", dir.display()))
}

/// `config` as written out (`--estimate`, `--out`): each kept stream named as given
/// again, so that the records can be piped in once more.
pub fn named(config: &Config, spooled: Option<&Spooled>) -> Config {
    let mut config = config.clone();
    if let (Config::History(history), Some(s)) = (&mut config, spooled) {
        for p in history.paths.iter_mut() {
            if let Some((given, _)) = s.kept.iter().find(|(_, kept)| kept == p) {
                p.clone_from(given);
            }
        }
    }
    config
}
