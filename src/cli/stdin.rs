//! `freshlab history -`: records piped in (`curl … | freshlab history -`), kept in a
//! temporary file first, since a history reads its files more than once (priced, their
//! pages counted, then read).

use super::{Failure, size_words, usage_error};
use freshlab::experiments::Config;
use serde_json::{Map, Value};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// The name the records from standard input go by (in the results and messages).
const NAME: &str = "standard-input";

/// Standard input kept in a file, removed when dropped.
pub struct Spooled {
    dir: PathBuf,
    pub path: String,
}

impl Drop for Spooled {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `-` among the config's `paths` replaced by standard input kept in a file (`config_piped`:
/// the configuration itself came from standard input, which cannot then hold records).
pub fn spool_dash(object: &mut Map<String, Value>, config_piped: bool, quiet: bool) -> Result<Option<Spooled>, Failure> {
    let Some(Value::Array(paths)) = object.get_mut("paths") else { return Ok(None) };
    let dashes = paths.iter().filter(|p| p.as_str() == Some("-")).count();
    if dashes == 0 {
        return Ok(None);
    }
    if dashes > 1 || config_piped {
        return Err(usage_error("standard input ('-') is given twice: it can be read once; save one of them to a file"));
    }
    let spooled = spool(quiet)?;
    for p in paths.iter_mut().filter(|p| p.as_str() == Some("-")) {
        *p = Value::String(spooled.path.clone());
    }
    Ok(Some(spooled))
}

/// `config` as written out (`--estimate`, `--out`): the kept file named `-` again, so
/// that the records can be piped in once more.
pub fn named(config: &Config, spooled: Option<&Spooled>) -> Config {
    let mut config = config.clone();
    if let (Config::History(history), Some(s)) = (&mut config, spooled) {
        for p in history.paths.iter_mut().filter(|p| **p == s.path) {
            *p = "-".into();
        }
    }
    config
}

/// Standard input copied whole into a directory of its own under the system's
/// temporary directory (`TMPDIR`); said on standard error unless `quiet`.
fn spool(quiet: bool) -> Result<Spooled, Failure> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(usage_error(
            "'-' reads the records from standard input, which is a terminal here: pipe them in (zcat index.cdx.gz | freshlab history -) or give the file's path",
        ));
    }
    let dir = std::env::temp_dir().join(format!("freshlab-{}", std::process::id()));
    let cannot = |e: std::io::Error| {
        usage_error(format!("cannot keep standard input in {} ({e}); set TMPDIR to a directory with room, or save the records to a file and give its path", dir.display()))
    };
    std::fs::create_dir_all(&dir).map_err(cannot)?;
    let spooled = Spooled { path: dir.join(NAME).to_string_lossy().into_owned(), dir: dir.clone() };
    if !quiet {
        eprintln!("freshlab: keeping standard input in {} (the records are read more than once)…", spooled.path);
    }
    let mut file = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&spooled.path).map_err(cannot)?);
    let bytes = std::io::copy(&mut stdin.lock(), &mut file).map_err(cannot)?;
    file.flush().map_err(cannot)?;
    if bytes == 0 {
        return Err(usage_error("standard input is empty ('-' reads the records from it): pipe the records in, or give the file's path"));
    }
    if !quiet {
        eprintln!("freshlab: read {} from standard input", size_words(bytes));
    }
    Ok(spooled)
}
