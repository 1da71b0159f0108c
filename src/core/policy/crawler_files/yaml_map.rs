//! A YAML document as StormCrawler's reader (SnakeYAML) takes it, read with yaml-rust2's
//! event parser: each key keeps its line, and a key given twice is kept twice, in order
//! (SnakeYAML keeps the last; yaml-rust2's own loader refuses the repeat). A merge key
//! (`<<: *defaults`, YAML 1.1's merge type, which SnakeYAML reads) brings in the pairs of
//! the map or maps it names that the map does not give itself.

use std::collections::HashMap;
use yaml_rust2::Yaml;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, ScanError, TScalarStyle};

/// A node of the document: a scalar as text (a plain one as YAML resolves it: `0x10`
/// is 16, `~` is empty), a list, or a map's pairs in the file's order.
#[derive(Clone, Debug, PartialEq)]
pub enum Node {
    Scalar(String),
    List(Vec<Node>),
    Map(Vec<Pair>),
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
                    Node::Scalar(s) => Some(s),
                    _ => None,
                };
                parent.key = Some((key, mark.line() as u64, merge_key));
            }
            (Node::Scalar(_), _) => unreachable!("a scalar is never left open"),
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
                let text = if plain { resolved(text) } else { text };
                // (the merge key only where a key is awaited: close() reads it there)
                self.merge_key = plain && text == MERGE;
                self.close(Node::Scalar(text), anchor, mark);
            }
            Event::Alias(anchor) => {
                // an alias to an anchor never declared: an empty scalar, as the loader's BadValue
                let node = self.anchors.get(&anchor).cloned().unwrap_or(Node::Scalar(String::new()));
                self.close(node, 0, mark);
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart | Event::DocumentEnd => {}
        }
    }
}

/// A plain scalar as YAML resolves it (yaml-rust2's rules: numbers in their decimal
/// form, null as empty).
fn resolved(text: String) -> String {
    match Yaml::from_str(&text) {
        Yaml::Integer(i) => i.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => String::new(),
        _ => text,
    }
}
