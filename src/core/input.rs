//! Errors in user input: each names the field at fault and says how to fix it.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A rejected input. `field` is the configuration key (as in the JSON config, the URL
/// and the CLI flag of the same name); `message` says what is wrong and what to do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InputError {
    pub field: String,
    pub message: String,
    /// A problem between two fields (an inverted range) in the other field's words, so
    /// that the page can show it under whichever of the two the user is editing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pair: Option<Paired>,
    /// The bytes the page's worker keeps of earlier results, where they are why a run is
    /// refused ([`crate::core::limits::Cost::check`]): the page frees its own and runs again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<f64>,
}

/// The same problem, told from the other field of a pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Paired {
    pub field: String,
    pub message: String,
}

impl InputError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        InputError { field: field.into(), message: message.into(), pair: None, kept: None }
    }

    fn paired(mut self, field: &str, message: String) -> Self {
        self.pair = Some(Paired { field: field.into(), message });
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() { write!(f, "{}", self.message) } else { write!(f, "{}: {}", self.field, self.message) }
    }
}

impl std::error::Error for InputError {}

/// Checks a number against the rules most fields share.
pub struct Check<'a> {
    field: &'a str,
    value: f64,
}

/// Starts the checks of `value` for `field`; every number must be finite.
pub fn check(field: &str, value: f64) -> Result<Check<'_>, InputError> {
    if value.is_nan() {
        return Err(InputError::new(field, "is not a number; enter a number such as 1.5"));
    }
    if value.is_infinite() {
        return Err(InputError::new(field, "is infinite; enter a finite number"));
    }
    Ok(Check { field, value })
}

/// A number as a message shows it: in scientific notation when plain digits would run
/// long (1e300, 5e-324), else as written.
pub fn shown(value: f64) -> String {
    let a = value.abs();
    if a != 0.0 && !(1e-6..1e15).contains(&a) { format!("{value:e}") } else { format!("{value}") }
}

impl Check<'_> {
    pub fn positive(self) -> Result<Self, InputError> {
        if self.value > 0.0 { Ok(self) } else { Err(self.fail(format!("must be greater than 0 (got {})", shown(self.value)))) }
    }

    pub fn at_least(self, min: f64) -> Result<Self, InputError> {
        if self.value >= min { Ok(self) } else { Err(self.fail(format!("must be at least {} (got {})", shown(min), shown(self.value)))) }
    }

    pub fn at_most(self, max: f64) -> Result<Self, InputError> {
        if self.value <= max { Ok(self) } else { Err(self.fail(format!("must be at most {} (got {})", shown(max), shown(self.value)))) }
    }

    pub fn below(self, bound: f64) -> Result<Self, InputError> {
        if self.value < bound { Ok(self) } else { Err(self.fail(format!("must be less than {} (got {})", shown(bound), shown(self.value)))) }
    }

    pub fn integer(self) -> Result<Self, InputError> {
        if self.value.fract() == 0.0 { Ok(self) } else { Err(self.fail(format!("must be a whole number (got {})", shown(self.value)))) }
    }

    fn fail(&self, message: String) -> InputError {
        InputError::new(self.field, message)
    }
}

/// `lo < hi` for a range given by two fields.
pub fn ordered(lo_field: &str, lo: f64, hi_field: &str, hi: f64) -> Result<(), InputError> {
    if lo < hi {
        return Ok(());
    }
    let error = InputError::new(hi_field, format!("must be greater than {lo_field} ({hi} ≤ {lo}); swap the two or widen the range"));
    Err(error.paired(lo_field, format!("must be less than {hi_field} ({lo} ≥ {hi}); swap the two or widen the range")))
}

/// `lo ≤ hi` for two whole-number fields bounding a range (`hi` within `lo..=max`).
pub fn not_below(lo_field: &str, lo: u64, hi_field: &str, hi: u64, max: u64) -> Result<(), InputError> {
    if hi < lo {
        let error = InputError::new(hi_field, format!("must be at least {lo_field} ({hi} < {lo}); swap the two or widen the range"));
        return Err(error.paired(lo_field, format!("must be at most {hi_field} ({lo} > {hi}); swap the two or widen the range")));
    }
    count(hi_field, hi, 0, max, "beyond what the model holds")
}

/// A list whose items must all differ: the first repeat is named by its index.
pub fn distinct<T: PartialEq + fmt::Debug>(field: &str, items: &[T]) -> Result<(), InputError> {
    for (k, item) in items.iter().enumerate() {
        if let Some(first) = items[..k].iter().position(|x| x == item) {
            return Err(InputError::new(format!("{field}[{k}]"), format!("repeats item {} ({item:?}); list each once", first + 1)));
        }
    }
    Ok(())
}

/// A whole number of items within [min, max] (grid sizes, counts).
pub fn count(field: &str, value: u64, min: u64, max: u64, why_max: &str) -> Result<(), InputError> {
    if value < min {
        Err(InputError::new(field, format!("{} (got {value})", whole_range(min, max))))
    } else if value > max {
        let why = if why_max.is_empty() { String::new() } else { format!(": {why_max}") };
        Err(InputError::new(field, format!("{} (got {value}){why}", whole_range(min, max))))
    } else {
        Ok(())
    }
}

/// "must be a whole number from 2 to 1,000" (the words [`count`] uses for its range).
pub fn whole_range(min: u64, max: u64) -> String {
    format!("must be a whole number from {min} to {max}")
}

/// The edits (insertions, deletions, substitutions, swaps of two neighbours: optimal
/// string alignment) that make `a` into `b`.
pub fn edits(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            // a swap of two neighbours is one edit (r_mni, r_min)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

/// A word and its letters' counts, folded into 64 bins: counted once, measured against
/// many ([`edits_within`]).
pub struct Letters {
    word: String,
    count: usize,
    bins: [i32; 64],
}

impl Letters {
    pub fn of(word: &str) -> Letters {
        let mut bins = [0i32; 64];
        for c in word.chars() {
            bins[c as usize % 64] += 1;
        }
        Letters { word: word.into(), count: word.chars().count(), bins }
    }
}

/// [`edits`] where they are at most `most` (None: more). The letters' counts bound them
/// first (an edit changes the counts by two at most, a swap by none), so that a name far
/// from every candidate is never aligned: a settings file of 37,000 names unread took
/// 0.36 s to measure against Scrapy's settings one by one.
pub fn edits_within(a: &Letters, b: &Letters, most: usize) -> Option<usize> {
    if a.count.abs_diff(b.count) > most {
        return None;
    }
    let apart: u32 = a.bins.iter().zip(&b.bins).map(|(x, y)| x.abs_diff(*y)).sum();
    if apart as usize > 2 * most {
        return None;
    }
    Some(edits(&a.word, &b.word)).filter(|&d| d <= most)
}

/// The candidate nearest to `word` by [`edits`] (`-` and `_` alike), if one is near
/// enough to be what was meant: at most a third of the word's letters apart, or its
/// prefix (`politeness` for `politeness_seconds`).
pub fn nearest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let norm = |s: &str| s.to_lowercase().replace('-', "_");
    let word = norm(word);
    candidates
        .into_iter()
        .map(|c| (c, norm(c)))
        .filter(|(_, n)| !n.is_empty())
        .map(|(c, n)| (c, if n.starts_with(&word) && word.len() >= 3 { 0 } else { edits(&word, &n) }))
        .filter(|&(c, d)| d <= (c.chars().count().max(word.chars().count()) / 3).max(1))
        .min_by_key(|&(_, d)| d)
        .map(|(c, _)| c)
}

/// serde's message about a field in the user's words: what the field must be, what was
/// given, and a hint where one helps (a decimal comma).
pub fn serde_message(message: &str) -> String {
    let got = |text: &str| -> Option<String> {
        let start = text.find('`')? + 1;
        let end = start + text[start..].find('`')?;
        Some(text[start..end].to_string())
    };
    let quoted = |text: &str| -> Option<String> {
        let start = text.find('"')? + 1;
        let end = start + text[start..].rfind('"')?;
        Some(text[start..end].to_string())
    };
    let expected = message.rsplit_once("expected ").map(|(_, e)| e.trim_end_matches('.').to_string()).unwrap_or_default();
    let integer = matches!(expected.as_str(), "u64" | "u32" | "u16" | "u8" | "usize");
    let want = if integer {
        "a whole number of at least 0".to_string()
    } else if matches!(expected.as_str(), "f64" | "f32") {
        "a number".to_string()
    } else if expected == "a boolean" {
        "true or false".to_string()
    } else {
        expected.replace("a sequence", "a list")
    };
    if message.starts_with("invalid type: null") {
        return "is not a number (empty, NaN or infinite); enter a number".into();
    }
    if let Some(rest) = message.strip_prefix("invalid value: integer ") {
        return format!("must be {want} (got {})", got(rest).unwrap_or_default());
    }
    if let Some(rest) = message.strip_prefix("invalid type: floating point ") {
        return format!("must be {want} (got {})", got(rest).unwrap_or_default());
    }
    if let Some(rest) = message.strip_prefix("invalid type: string ") {
        let text = quoted(rest).unwrap_or_default();
        let comma = text.contains(',') && text.replace(',', ".").parse::<f64>().is_ok();
        let hint = if comma { format!("; write {} with a decimal point", text.replace(',', ".")) } else { String::new() };
        return format!("must be {want} (got \"{text}\"){hint}");
    }
    if message.starts_with("invalid type: sequence") {
        return format!("must be {want}, not a list");
    }
    if message.starts_with("invalid type: map") {
        return format!("must be {want}, not an object");
    }
    if message.starts_with("invalid type: integer") || message.starts_with("invalid type: boolean") {
        return format!("must be {want} (got {})", got(message).unwrap_or_default());
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        let value = got(rest).unwrap_or_default();
        let options = rest.split_once("expected ").map(|(_, o)| o.replace("one of ", "").replace(" or ", ", ").replace('`', "")).unwrap_or_default();
        return format!("must be one of {options} (got \"{value}\")");
    }
    if let Some(rest) = message.strip_prefix("invalid length ") {
        let n = rest.split(',').next().unwrap_or("");
        return format!("must have {} (got {n})", expected.replace("an array of length ", "exactly ").replace("a tuple of size ", "exactly ") + " values");
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_nearest_name_is_suggested_only_when_near() {
        let known = ["politeness_seconds", "horizon_days", "capacity", "capacities", "seed"];
        assert_eq!(nearest("politeness-secs", known), Some("politeness_seconds"));
        assert_eq!(nearest("politness_seconds", known), Some("politeness_seconds"));
        assert_eq!(nearest("capacty", known), Some("capacity"));
        assert_eq!(nearest("sed", known), Some("seed"));
        assert_eq!(nearest("horizon", known), Some("horizon_days"));
        assert_eq!(nearest("r_mni", ["r_min", "r_max"]), Some("r_min"));
        assert_eq!(nearest("zebra", known), None);
    }

    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    /// The bounded measure agrees with the full alignment on every pair of short words
    /// over three letters, two of them in one bin ('a' and '¡', 97 and 161, both 33 mod 64).
    #[test]
    fn edits_within_agree_with_the_full_alignment() {
        let mut words = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> =
                words.iter().filter(|w| w.chars().count() == words.last().unwrap().chars().count()).flat_map(|w| ['a', 'b', '¡'].map(|c| format!("{w}{c}"))).collect();
            words.extend(longer);
        }
        assert_eq!(words.len(), 1 + 3 + 9 + 27 + 81);
        for a in &words {
            for b in &words {
                let d = edits(a, b);
                for most in 0..=3 {
                    assert_eq!(edits_within(&Letters::of(a), &Letters::of(b), most), (d <= most).then_some(d), "{a:?} {b:?} within {most}");
                }
            }
        }
    }

    use super::*;

    #[test]
    fn messages_name_the_field_and_the_fix() {
        let e = check("r_min", f64::NAN).err().unwrap();
        assert_eq!(e.field, "r_min");
        assert!(e.message.contains("not a number"));
        let e = check("c_min", 0.5).unwrap().at_least(1.0).err().unwrap();
        assert_eq!(e.to_string(), "c_min: must be at least 1 (got 0.5)");
        let e = ordered("r_min", 5.0, "r_max", 1.0).unwrap_err();
        assert_eq!(e.field, "r_max");
        assert!(e.message.contains("swap"));
        // an inverted range, told from either end (the page shows the one being edited)
        let pair = e.pair.expect("the other field's words");
        assert_eq!((pair.field.as_str(), pair.message.as_str()), ("r_min", "must be less than r_max (5 ≥ 1); swap the two or widen the range"));
        let e = not_below("download_min", 50, "download_max", 10, 1000).unwrap_err();
        assert_eq!((e.field.as_str(), e.pair.unwrap().field.as_str()), ("download_max", "download_min"));
        assert!(not_below("download_min", 5, "download_max", 5, 1000).is_ok());
        // a count names its whole range whichever end is crossed, and the reason only at the end it explains
        assert_eq!(count("replications", 1, 2, 1000, "more adds nothing").unwrap_err().message, "must be a whole number from 2 to 1000 (got 1)");
        assert_eq!(count("replications", 5000, 2, 1000, "more adds nothing").unwrap_err().message, "must be a whole number from 2 to 1000 (got 5000): more adds nothing");
        assert!(count("grid", 10_000, 2, 1000, "a finer grid would not change the picture").is_err());
        assert!(check("x", f64::INFINITY).is_err());
        assert!(check("x", 2.5).unwrap().integer().is_err());
        let e = distinct("policies", &["merge", "random", "merge"]).unwrap_err();
        assert_eq!(e.field, "policies[2]");
        assert!(e.message.contains("repeats item 1"), "{e}");
        assert!(distinct("n", &[1.0, 2.0]).is_ok());
    }

    /// Issue 15: serde's words turned into the user's.
    #[test]
    fn type_errors_speak_the_users_language() {
        assert_eq!(serde_message("invalid value: integer `-5`, expected u64"), "must be a whole number of at least 0 (got -5)");
        assert_eq!(serde_message("invalid type: floating point `2.5`, expected u64"), "must be a whole number of at least 0 (got 2.5)");
        assert_eq!(serde_message("invalid type: string \"0,5\", expected f64"), "must be a number (got \"0,5\"); write 0.5 with a decimal point");
        assert_eq!(serde_message("invalid type: string \"abc\", expected f64"), "must be a number (got \"abc\")");
        assert!(serde_message("invalid type: null, expected f64").contains("not a number"));
        assert_eq!(serde_message("unknown variant `sorcery`, expected one of `merge`, `random`"), "must be one of merge, random (got \"sorcery\")");
        assert_eq!(serde_message("unknown variant `psychic`, expected `expected` or `exact`"), "must be one of expected, exact (got \"psychic\")");
        assert_eq!(serde_message("invalid type: sequence, expected f64"), "must be a number, not a list");
        assert_eq!(serde_message("invalid length 7, expected an array of length 6"), "must have exactly 6 values (got 7)");
        assert_eq!(serde_message("invalid type: integer `3`, expected a string"), "must be a string (got 3)");
        assert_eq!(serde_message("invalid type: boolean `true`, expected f64"), "must be a number (got true)");
    }
}
