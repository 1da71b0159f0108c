//! Heritrix's decide rules, as a `DecideRuledSheetAssociation` asks them whether its
//! sheets apply to a URL (SheetOverlaysManager.applyOverlays: `rules.accepts(curi)`, the
//! rule's decision is ACCEPT). The rules that judge a URL by its text are evaluated; a
//! rule that needs what a run does not have (hops, content, fetch status, seeds, a
//! script) makes the association's sheets stand aside, said with its line.

use super::Xml;
use regex_lite::Regex;
use roxmltree::{Document, Node};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// DecideResult.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Decision {
    Accept,
    Reject,
    None,
}

/// A rule as the file writes it; [`Rule::compile`] makes its patterns matchable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// AcceptDecideRule and RejectDecideRule (their decision on every URL); a rule with
    /// `enabled` false (DecideRule.decisionFor: NONE).
    Always(Decision),
    /// MatchesRegexDecideRule (one pattern) and MatchesListRegexDecideRule (`any`: its
    /// `listLogicalOr`, else all; an empty list matches nothing), the Not… forms
    /// `negated`: PredicatedDecideRule's `decision` where the URL (uri.toString()) matches
    /// as a whole (Pattern.matcher(…).matches()), NONE where not.
    Matches { patterns: Vec<String>, any: bool, negated: bool, decision: Decision },
    /// DecideRuleSequence.innerDecide: the last rule's decision that is not NONE.
    Sequence(Vec<Rule>),
}

/// A [`Rule`] with its patterns compiled, anchored at both ends.
pub enum Compiled {
    Always(Decision),
    Matches { regexes: Vec<Regex>, any: bool, negated: bool, decision: Decision },
    Sequence(Vec<Compiled>),
}

/// What reading an association's rules gave: the rule, or why Freshlab cannot evaluate it.
pub type Read = Result<Rule, String>;

impl Rule {
    /// The patterns it matches a URL against (each asked of every URL).
    pub fn patterns(&self) -> usize {
        match self {
            Rule::Always(_) => 0,
            Rule::Matches { patterns, .. } => patterns.len(),
            Rule::Sequence(rules) => rules.iter().map(Rule::patterns).sum(),
        }
    }

    /// Compiled, each pattern as a whole-text match; Err with the pattern and the
    /// engine's message where it cannot be.
    pub fn compile(&self) -> Result<Compiled, String> {
        Ok(match self {
            Rule::Always(d) => Compiled::Always(*d),
            Rule::Matches { patterns, any, negated, decision } => {
                Compiled::Matches { regexes: patterns.iter().map(|p| whole(p)).collect::<Result<_, _>>()?, any: *any, negated: *negated, decision: *decision }
            }
            Rule::Sequence(rules) => Compiled::Sequence(rules.iter().map(Rule::compile).collect::<Result<_, _>>()?),
        })
    }
}

/// `pattern` matching a whole text only, as Java's Matcher.matches does (StormCrawler's
/// `fetcher.maxThreads.` patterns too).
pub fn whole(pattern: &str) -> Result<Regex, String> {
    Regex::new(&format!("^(?:{pattern})$")).map_err(|e| {
        let engine = e.to_string().split_whitespace().collect::<Vec<_>>().join(" ");
        format!(
            "the regex “{pattern}” cannot be read by Freshlab's engine (Rust regex-lite: Java's syntax without look-around, back-references, possessive quantifiers or \\p{{…}} classes): {engine}"
        )
    })
}

impl Compiled {
    /// DecideRule.decisionFor on `url`.
    pub fn decide(&self, url: &str) -> Decision {
        match self {
            Compiled::Always(d) => *d,
            Compiled::Matches { regexes, any, negated, decision } => {
                let matched = if regexes.is_empty() {
                    false
                } else if *any {
                    regexes.iter().any(|r| r.is_match(url))
                } else {
                    regexes.iter().all(|r| r.is_match(url))
                };
                if matched != *negated { *decision } else { Decision::None }
            }
            Compiled::Sequence(rules) => rules.iter().rev().map(|r| r.decide(url)).find(|&d| d != Decision::None).unwrap_or(Decision::None),
        }
    }

    /// DecideRule.accepts: the decision is ACCEPT.
    pub fn accepts(&self, url: &str) -> bool {
        self.decide(url) == Decision::Accept
    }
}

/// The URL as Heritrix's decide rules read it (`uri.toString()` of the UURI that
/// UURIFactory.fixup makes of the text a list gives): trimmed, backslashes as slashes,
/// extra slashes after `http(s)://` dropped, the scheme and the host lowercased (not a
/// user before `@`), the host's leading and trailing dots and http's `:80` or https's
/// `:443` dropped, an empty path as `/`, a leading `/..` dropped, the fragment dropped,
/// spaces and non-ASCII characters percent-encoded (UTF-8). Not done: an IDN host's
/// punycode and RFC 2396's escaping of other characters, which stay as written. Text
/// with no `scheme://` stays as written (trimmed).
pub fn uuri_form(url: &str) -> String {
    let url = url.trim().replace('\\', "/");
    let Some((scheme, rest)) = url.split_once("://") else { return url };
    let scheme = scheme.to_ascii_lowercase();
    let rest = if matches!(scheme.as_str(), "http" | "https") { rest.trim_start_matches('/') } else { rest };
    let rest = rest.split('#').next().unwrap_or_default();
    let (authority, tail) = rest.split_at(rest.find(['/', '?']).unwrap_or(rest.len()));
    let (user, host) = match authority.rsplit_once('@') {
        Some((user, host)) => (Some(user), host),
        None => (None, authority),
    };
    let mut host = host.to_lowercase();
    let default_port = match scheme.as_str() {
        "http" => Some(":80"),
        "https" => Some(":443"),
        _ => None,
    };
    if let Some(port) = default_port.filter(|p| host.ends_with(p)) {
        host.truncate(host.len() - port.len());
    }
    let host = host.trim_matches('.');
    let tail = if tail.is_empty() || tail.starts_with('?') { format!("/{tail}") } else { tail.strip_prefix("/..").filter(|t| t.starts_with('/')).unwrap_or(tail).to_string() };
    let user = user.map(|u| format!("{u}@")).unwrap_or_default();
    let mut form = String::with_capacity(url.len() + 1);
    for c in format!("{scheme}://{user}{host}{tail}").chars() {
        if c.is_whitespace() || !c.is_ascii() {
            let mut bytes = [0; 4];
            for b in c.encode_utf8(&mut bytes).bytes() {
                let _ = write!(form, "%{b:02X}");
            }
        } else {
            form.push(c);
        }
    }
    form
}

const PACKAGE: &str = "org.archive.modules.deciderules.";

/// The rule `bean` (a `<bean>`, or a `<ref bean="…"/>` to one by id) declares in `doc`:
/// Ok(Err(why)) where Freshlab cannot evaluate it, Err where the file is wrong (a
/// reference to no bean, a decision Spring cannot convert), with the line.
pub(super) fn read(doc: &Xml, bean: Node) -> Result<Read, String> {
    read_at(doc, bean, 0)
}

fn read_at(doc: &Xml, node: Node, depth: usize) -> Result<Read, String> {
    let line = |n: Node| doc.line(n);
    if depth > 32 {
        return Err(format!("line {}: decide rules nested more than 32 deep (a bean that refers to itself?); flatten them", line(node)));
    }
    let bean = if node.has_tag_name("ref") { bean_by_id(doc, node.attribute("bean").unwrap_or_default(), line(node))? } else { node };
    let class = bean.attribute("class").unwrap_or_default();
    let short = class.strip_prefix(PACKAGE).unwrap_or(class);
    let at = line(bean);
    let property = |name: &str| bean.children().find(|p| p.has_tag_name("property") && p.attribute("name") == Some(name));
    let text = |name: &str| {
        property(name).and_then(|p| p.attribute("value").map(str::to_string).or_else(|| p.children().find(|n| n.has_tag_name("value")).and_then(|v| v.text()).map(str::to_string)))
    };
    if text("enabled").is_some_and(|v| v.trim() == "false") {
        return Ok(Ok(Rule::Always(Decision::None)));
    }
    let decision = match text("decision") {
        None => Decision::Accept,
        Some(v) => match v.trim() {
            "ACCEPT" => Decision::Accept,
            "REJECT" => Decision::Reject,
            "NONE" => Decision::None,
            other => return Err(format!("line {at}: {short}'s decision “{other}” is not ACCEPT, REJECT or NONE (Spring refuses to start); write one of them")),
        },
    };
    let list = |name: &str| -> Vec<String> {
        property(name).map_or_else(Vec::new, |p| p.descendants().filter(|n| n.has_tag_name("value")).filter_map(|v| v.text()).map(str::to_string).collect())
    };
    let rule = match short {
        "AcceptDecideRule" => Rule::Always(Decision::Accept),
        "RejectDecideRule" => Rule::Always(Decision::Reject),
        "MatchesRegexDecideRule" | "NotMatchesRegexDecideRule" => {
            let pattern = text("regex").unwrap_or_else(|| ".".into());
            Rule::Matches { patterns: vec![pattern], any: true, negated: short.starts_with("Not"), decision }
        }
        "MatchesListRegexDecideRule" | "NotMatchesListRegexDecideRule" => {
            let any = text("listLogicalOr").is_none_or(|v| v.trim() != "false");
            Rule::Matches { patterns: list("regexList"), any, negated: short.starts_with("Not"), decision }
        }
        "DecideRuleSequence" => {
            let Some(rules) = property("rules") else { return Ok(Ok(Rule::Sequence(Vec::new()))) };
            let mut inner = Vec::new();
            let members = rules.descendants().filter(|n| (n.has_tag_name("bean") || n.has_tag_name("ref")) && n.ancestors().skip(1).find(|a| a.has_tag_name("bean")) == Some(bean));
            for member in members {
                match read_at(doc, member, depth + 1)? {
                    Ok(rule) => inner.push(rule),
                    Err(why) => return Ok(Err(why)),
                }
            }
            Rule::Sequence(inner)
        }
        _ => {
            return Ok(Err(format!(
                "{short} (line {at}) decides on what a run does not have (Freshlab evaluates AcceptDecideRule, RejectDecideRule, DecideRuleSequence and the Matches/NotMatches (List) Regex rules on the URL's text)"
            )));
        }
    };
    Ok(match rule.compile() {
        Ok(_) => Ok(rule),
        Err(why) => Err(format!("{short} (line {at}): {why}")),
    })
}

/// The rule an association's `rules` property holds (a `<bean>` in it, a `<ref
/// bean="…"/>`, or its `ref` attribute); Ok(Err(why)) where it holds none.
pub(super) fn read_property(doc: &Xml, property: Node) -> Result<Read, String> {
    if let Some(id) = property.attribute("ref") {
        return read(doc, bean_by_id(doc, id, doc.line(property))?);
    }
    match property.children().find(|n| n.has_tag_name("bean") || n.has_tag_name("ref")) {
        Some(rule) => read(doc, rule),
        None => Ok(Err("its rules property holds no rule".into())),
    }
}

/// The bean of id (or name) `id`, which a reference on line `line` names.
fn bean_by_id<'a, 'input>(doc: &'a Document<'input>, id: &str, line: u64) -> Result<Node<'a, 'input>, String> {
    doc.descendants()
        .find(|b| b.has_tag_name("bean") && (b.attribute("id") == Some(id) || b.attribute("name") == Some(id)))
        .ok_or_else(|| format!("line {line}: refers to bean “{id}”, which the file does not define (Spring refuses to start); define it or remove the reference"))
}
