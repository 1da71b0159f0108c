//! A YAML document as StormCrawler's reader (SnakeYAML) takes it, read with yaml-rust2's
//! event parser: each key keeps its line, and a key given twice is kept twice, in order
//! (SnakeYAML keeps the last; yaml-rust2's own loader refuses the repeat). A merge key
//! (`<<: *defaults`, YAML 1.1's merge type, which SnakeYAML reads) brings in the pairs of
//! the map or maps it names that the map does not give itself.

use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

/// A node of the document: a scalar as text (a plain one as YAML resolves it: `0x10`
/// is 16, `~` is empty) with the type SnakeYAML gives it, a list, or a map's pairs in
/// the file's order.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Scalar(String, Kind),
    List(Vec<Node>),
    Map(Vec<Pair>),
}

/// The Java type SnakeYAML's SafeConstructor makes of a scalar: a quoted one is always
/// text; a plain one is typed by YAML 1.1's patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `~`, `null`, or nothing: Java's null.
    Null,
    /// Boolean.
    Bool,
    /// Integer, Long or BigInteger.
    Int,
    /// Double.
    Float,
    /// String.
    Text,
}

/// A map's key (None: a key that is not a scalar), its line and its value.
#[derive(Clone, Debug, PartialEq)]
pub struct Pair {
    pub key: Option<String>,
    pub line: u64,
    pub value: Node,
}

/// The first document of `text` (None: the text holds none).
pub fn read(text: &str) -> Result<Option<Node>, ScanError> {
    let mut tree = Tree::default();
    Parser::new_from_str(text).load(&mut tree, false)?;
    match tree.refused {
        Some(e) => Err(e),
        None => Ok(tree.root),
    }
}

/// The merge key (YAML 1.1's `<<`, plain).
const MERGE: &str = "<<";

/// A map's key read and awaiting its value: the key (None: not a scalar), its line, and
/// whether it is the merge key.
type Key = (Option<String>, u64, bool);

/// A container being read: its node, its anchor, a map's key awaiting its value, and
/// the maps its merge keys name (in order: the first giving a key wins).
struct Open {
    node: Node,
    anchor: usize,
    key: Option<Key>,
    merged: Vec<Vec<Pair>>,
}

impl Open {
    fn new(node: Node, anchor: usize) -> Self {
        Open { node, anchor, key: None, merged: Vec::new() }
    }

    /// The node, a map with the pairs its merge keys bring that it does not give itself
    /// (SnakeYAML's SafeConstructor.flattenMapping).
    fn finished(self) -> Node {
        let Node::Map(mut pairs) = self.node else { return self.node };
        for pair in self.merged.into_iter().flatten() {
            if !pairs.iter().any(|p| p.key == pair.key) {
                pairs.push(pair);
            }
        }
        Node::Map(pairs)
    }
}

#[derive(Default)]
struct Tree {
    open: Vec<Open>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
    /// The last scalar read was a plain `<<`.
    merge_key: bool,
    /// What the document holds that SnakeYAML refuses (a merge key's value not a map).
    refused: Option<ScanError>,
}

impl Tree {
    fn close(&mut self, node: Node, anchor: usize, mark: Marker) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let merge_key = std::mem::take(&mut self.merge_key);
        let Some(parent) = self.open.last_mut() else {
            self.root.get_or_insert(node);
            return;
        };
        match (&mut parent.node, parent.key.take()) {
            (Node::List(items), _) => items.push(node),
            (Node::Map(_), Some((_, _, true))) => {
                let maps = match node {
                    Node::Map(pairs) => vec![pairs],
                    Node::List(items) if items.iter().all(|i| matches!(i, Node::Map(_))) => {
                        items.into_iter().filter_map(|i| if let Node::Map(pairs) = i { Some(pairs) } else { None }).collect()
                    }
                    _ => {
                        self.refused.get_or_insert(ScanError::new(mark, "a merge key (<<) names neither a map nor a list of maps, which SnakeYAML refuses"));
                        return;
                    }
                };
                parent.merged.extend(maps);
            }
            (Node::Map(pairs), Some((key, line, false))) => pairs.push(Pair { key, line, value: node }),
            (Node::Map(_), None) => {
                let key = match node {
                    Node::Scalar(s, _) => Some(s),
                    _ => None,
                };
                parent.key = Some((key, mark.line() as u64, merge_key));
            }
            (Node::Scalar(..), _) => unreachable!("a scalar is never left open"),
        }
    }
}

impl MarkedEventReceiver for Tree {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::SequenceStart(anchor, _) => self.open.push(Open::new(Node::List(Vec::new()), anchor)),
            Event::MappingStart(anchor, _) => self.open.push(Open::new(Node::Map(Vec::new()), anchor)),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(done) = self.open.pop() {
                    let anchor = done.anchor;
                    self.close(done.finished(), anchor, mark);
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                let plain = style == TScalarStyle::Plain;
                let (text, kind) = if plain { resolved(text) } else { (text, Kind::Text) };
                // (the merge key only where a key is awaited: close() reads it there)
                self.merge_key = plain && text == MERGE;
                self.close(Node::Scalar(text, kind), anchor, mark);
            }
            Event::Alias(anchor) => {
                // an alias to an anchor never declared: an empty scalar, as the loader's BadValue
                let node = self.anchors.get(&anchor).cloned().unwrap_or(Node::Scalar(String::new(), Kind::Null));
                self.close(node, 0, mark);
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart | Event::DocumentEnd => {}
        }
    }
}

/// A plain scalar as SnakeYAML's Resolver and SafeConstructor take it (YAML 1.1's
/// types): `yes`/`on` true and `no`/`off` false, integers with `_`, `0b`, `0x`, a leading
/// `0` (octal) or `:` (base 60) in their decimal form, a float's `_` dropped, null as
/// empty; anything else is text. With the type each is.
fn resolved(text: String) -> (String, Kind) {
    match text.as_str() {
        "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => return ("true".into(), Kind::Bool),
        "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => return ("false".into(), Kind::Bool),
        "" | "~" | "null" | "Null" | "NULL" => return (String::new(), Kind::Null),
        _ => {}
    }
    if let Some(n) = yaml11_int(&text) {
        return (n.to_string(), Kind::Int);
    }
    // [-+]?\.(inf|Inf|INF) | \.(nan|NaN|NAN): kept as text, a Double all the same
    let infinite = matches!(text.trim_start_matches(['-', '+']), ".inf" | ".Inf" | ".INF") || matches!(text.as_str(), ".nan" | ".NaN" | ".NAN");
    match yaml11_float(&text) {
        Some(v) => (v, Kind::Float),
        None if infinite => (text, Kind::Float),
        None => (text, Kind::Text),
    }
}

/// SnakeYAML's INT: `[-+]?(0b_*[01][01_]* | 0_*[0-7][0-7_]* | 0 | [1-9][0-9_]* |
/// 0x_*[0-9a-fA-F][0-9a-fA-F_]* | [1-9][0-9_]*(:[0-5]?[0-9])+)`, its value (None: not
/// one, or past i128).
fn yaml11_int(text: &str) -> Option<i128> {
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let digits = |rest: &str, radix: u32| -> Option<i128> {
        let kept: String = rest.chars().filter(|&c| c != '_').collect();
        if kept.is_empty() || rest.chars().any(|c| c != '_' && !c.is_digit(radix)) {
            return None;
        }
        i128::from_str_radix(&kept, radix).ok()
    };
    let value = if body == "0" {
        Some(0)
    } else if let Some(rest) = body.strip_prefix("0b") {
        digits(rest, 2)
    } else if let Some(rest) = body.strip_prefix("0x") {
        digits(rest, 16)
    } else if let Some(rest) = body.strip_prefix('0') {
        digits(rest, 8)
    } else if body.starts_with(|c: char| ('1'..='9').contains(&c)) {
        let mut parts = body.split(':');
        let first = digits(parts.next()?, 10)?;
        parts.try_fold(first, |sum, part| sixty(part).and_then(|d| sum.checked_mul(60)?.checked_add(d)))
    } else {
        None
    }?;
    Some(if negative { -value } else { value })
}

/// A base-60 digit: `[0-5]?[0-9]`.
fn sixty(part: &str) -> Option<i128> {
    let ok = match part.as_bytes() {
        [d] => d.is_ascii_digit(),
        [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
        _ => false,
    };
    ok.then(|| part.parse().ok()).flatten()
}

/// SnakeYAML's FLOAT (its `.inf` and `.nan` left as text, which no setting takes): the
/// number as Rust reads it, the `_` dropped, a base-60 one (`1:30.5`) in decimal.
fn yaml11_float(text: &str) -> Option<String> {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    let sign = if text.starts_with('-') { "-" } else { "" };
    let kept: String = body.chars().filter(|&c| c != '_').collect();
    if let Some((whole, fraction)) = body.split_once('.').filter(|(w, _)| w.contains(':')) {
        // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*
        let mut parts = whole.split(':');
        let first = parts.next().filter(|p| p.starts_with(|c: char| c.is_ascii_digit()) && p.chars().all(|c| c.is_ascii_digit() || c == '_'))?;
        let mut value: f64 = first.replace('_', "").parse().ok()?;
        for part in parts {
            value = value * 60.0 + sixty(part)? as f64;
        }
        if !fraction.chars().all(|c| c.is_ascii_digit() || c == '_') {
            return None;
        }
        let fraction: f64 = format!("0.{}", fraction.replace('_', "")).parse().ok()?;
        return Some(format!("{sign}{}", value + fraction));
    }
    // [0-9][0-9_]*\.[0-9_]*([eE][-+]?[0-9]+)? | [0-9][0-9_]*[eE][-+]?[0-9]+ | \.[0-9_]+([eE][-+]?[0-9]+)?
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(k) => (&body[..k], Some(&body[k + 1..])),
        None => (body, None),
    };
    let exponent_ok = exponent.is_none_or(|e| {
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.chars().all(|c| c.is_ascii_digit())
    });
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let number_ok = |part: &str| part.chars().all(|c| c.is_ascii_digit() || c == '_');
    let mantissa_ok = match fraction {
        Some(f) if whole.is_empty() => f.starts_with(|c: char| c.is_ascii_digit() || c == '_') && f.chars().any(|c| c.is_ascii_digit()) && number_ok(f),
        Some(f) => whole.starts_with(|c: char| c.is_ascii_digit()) && number_ok(whole) && number_ok(f),
        None => exponent.is_some() && whole.starts_with(|c: char| c.is_ascii_digit()) && number_ok(whole),
    };
    (exponent_ok && mantissa_ok).then(|| format!("{sign}{kept}"))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::{Kind, resolved};

    /// Plain scalars as SnakeYAML's Resolver (YAML 1.1) types them, each written out by
    /// hand from its patterns and SafeConstructor's conversions.
    #[test]
    fn plain_scalars_resolve_as_snakeyaml_types_them() {
        let cases = [
            ("yes", "true"),
            ("On", "true"),
            ("OFF", "false"),
            ("no", "false"),
            ("y", "y"),
            ("~", ""),
            ("Null", ""),
            ("1_000", "1000"),
            ("-42", "-42"),
            ("+7", "7"),
            ("0", "0"),
            ("017", "15"),
            ("0o17", "0o17"),
            ("09", "09"),
            ("0b1010", "10"),
            ("0x_1F", "31"),
            ("1:30", "90"),
            ("1:60", "1:60"),
            ("0.25", "0.25"),
            (".5", ".5"),
            ("1_000.5", "1000.5"),
            ("1e3", "1e3"),
            ("-2.5E-1", "-2.5E-1"),
            ("1:30.5", "90.5"),
            (".inf", ".inf"),
            ("1.2.3", "1.2.3"),
            ("60s", "60s"),
            ("org.apache.stormcrawler.persistence.AdaptiveScheduler", "org.apache.stormcrawler.persistence.AdaptiveScheduler"),
        ];
        for (plain, want) in cases {
            assert_eq!(resolved(plain.into()).0, want, "{plain}");
        }
    }

    /// Each plain scalar's Java type as SafeConstructor makes it.
    #[test]
    fn plain_scalars_take_snakeyamls_java_types() {
        let cases = [
            ("~", Kind::Null),
            ("", Kind::Null),
            ("NULL", Kind::Null),
            ("off", Kind::Bool),
            ("0x1F", Kind::Int),
            ("1:30", Kind::Int),
            ("1440.5", Kind::Float),
            ("-.inf", Kind::Float),
            (".NaN", Kind::Float),
            ("1.2.3", Kind::Text),
            ("nan", Kind::Text),
            ("byHost", Kind::Text),
        ];
        for (plain, want) in cases {
            assert_eq!(resolved(plain.into()).1, want, "{plain}");
        }
    }
}
