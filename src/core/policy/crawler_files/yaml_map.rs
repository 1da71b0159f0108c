//! A YAML document as StormCrawler's reader (SnakeYAML) takes it, read with yaml-rust2's
//! event parser: each key keeps its line, and a key given twice is kept twice, in order
//! (SnakeYAML keeps the last; yaml-rust2's own loader refuses the repeat).

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
    Ok(tree.root)
}

/// A container being read: its node, its anchor, and a map's key read and awaiting its
/// value.
struct Open {
    node: Node,
    anchor: usize,
    key: Option<(Option<String>, u64)>,
}

#[derive(Default)]
struct Tree {
    open: Vec<Open>,
    anchors: HashMap<usize, Node>,
    root: Option<Node>,
}

impl Tree {
    fn close(&mut self, node: Node, anchor: usize, mark: Marker) {
        if anchor != 0 {
            self.anchors.insert(anchor, node.clone());
        }
        let Some(parent) = self.open.last_mut() else {
            self.root.get_or_insert(node);
            return;
        };
        match (&mut parent.node, parent.key.take()) {
            (Node::List(items), _) => items.push(node),
            (Node::Map(pairs), Some((key, line))) => pairs.push(Pair { key, line, value: node }),
            (Node::Map(_), None) => {
                let key = match node {
                    Node::Scalar(s) => Some(s),
                    _ => None,
                };
                parent.key = Some((key, mark.line() as u64));
            }
            (Node::Scalar(_), _) => unreachable!("a scalar is never left open"),
        }
    }
}

impl MarkedEventReceiver for Tree {
    fn on_event(&mut self, event: Event, mark: Marker) {
        match event {
            Event::SequenceStart(anchor, _) => self.open.push(Open { node: Node::List(Vec::new()), anchor, key: None }),
            Event::MappingStart(anchor, _) => self.open.push(Open { node: Node::Map(Vec::new()), anchor, key: None }),
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some(done) = self.open.pop() {
                    self.close(done.node, done.anchor, mark);
                }
            }
            Event::Scalar(text, style, anchor, _) => {
                let text = if style == TScalarStyle::Plain { resolved(text) } else { text };
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
