//! A crawler's configuration file with some settings changed, in its own format: the
//! file as loaded, each changed setting's value replaced where the file gives it (its
//! last occurrence: the one the crawler reads) or added where it does not; a crawler run
//! on its shipped defaults starts from the format's empty file. Each changed line says
//! what it was, in the format's comments. Read back by the same parser
//! ([`super::read`]), the file gives the changed settings and keeps every other.

use super::Crawler;
use super::heritrix::{self, OverrideAt};
use super::{nutch, stormcrawler};

/// A setting changed: its name in the file and its new value, as the file writes it.
pub type Change = (&'static str, String);

/// `original` (None: the shipped defaults) with `changes` made, each marked by a comment
/// naming `by` (who made it) and its value before (`was`).
pub fn write(crawler: Crawler, original: Option<&str>, changes: &[Change], by: &str, was: &dyn Fn(&str) -> String) -> Result<String, String> {
    let mut text = original.map_or_else(|| empty(crawler).to_string(), str::to_string);
    for (name, value) in changes {
        let note = format!("{by}; was {}", was(name));
        text = match crawler {
            Crawler::Nutch => nutch(&text, name, value, &(note + &nutch::command_line_note(name, value)))?,
            Crawler::Stormcrawler => yaml(&text, name, value, &(note + &stormcrawler::kept_note(name, value))),
            Crawler::Heritrix => heritrix(&text, name, value, &note)?,
            Crawler::Scrapy => scrapy(&text, name, value, &note),
        };
    }
    Ok(text)
}

/// The file each crawler reads its site's settings from, empty.
fn empty(crawler: Crawler) -> &'static str {
    match crawler {
        Crawler::Nutch => "<?xml version=\"1.0\"?>\n<configuration>\n</configuration>\n",
        Crawler::Stormcrawler => "config:\n",
        Crawler::Heritrix => "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<beans xmlns=\"http://www.springframework.org/schema/beans\">\n</beans>\n",
        Crawler::Scrapy => "",
    }
}

/// The file name each crawler gives its settings.
pub fn file_name(crawler: Crawler) -> &'static str {
    match crawler {
        Crawler::Nutch => "nutch-site.xml",
        Crawler::Stormcrawler => "crawler-conf.yaml",
        Crawler::Heritrix => "crawler-beans.cxml",
        Crawler::Scrapy => "settings.py",
    }
}

fn escape_xml(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

fn splice(text: &str, at: std::ops::Range<usize>, with: &str) -> String {
    format!("{}{with}{}", &text[..at.start], &text[at.end..])
}

/// Nutch: the last `<property>` named `name` gets `<value>` replaced (a comment before
/// it says what it was); else a property is added before `</configuration>`.
fn nutch(text: &str, name: &str, value: &str, note: &str) -> Result<String, String> {
    let doc = roxmltree::Document::parse(text).map_err(|e| format!("the loaded file no longer parses: {e}"))?;
    let root = doc.root_element();
    let named = |p: &roxmltree::Node| p.children().find(|n| n.has_tag_name("name")).and_then(|n| n.text()).map(str::trim) == Some(name);
    let property = root.children().filter(|n| n.has_tag_name("property")).rfind(named);
    let element = format!("<value>{}</value>", escape_xml(value));
    match property {
        Some(p) => {
            let at = match p.children().find(|n| n.has_tag_name("value")) {
                Some(v) => v.range(),
                // a property without a value: the value goes after its name
                None => {
                    let end = p.children().find(|n| n.has_tag_name("name")).map_or(p.range().start, |n| n.range().end);
                    end..end
                }
            };
            let edited = splice(text, at, &element);
            let start = p.range().start;
            let indent = line_indent(&edited, start);
            Ok(splice(&edited, start..start, &format!("<!-- {} -->\n{indent}", escape_xml(note))))
        }
        None => {
            let block = format!("  <!-- {} -->\n  <property>\n    <name>{}</name>\n    {element}\n  </property>\n", escape_xml(note), escape_xml(name));
            insert_before_close(text, root.range(), "configuration", &block)
        }
    }
}

/// Heritrix: `bean.property` — where the profile's overrides give it, the last override
/// (the one Spring applies) replaced; else the bean with that id, its property's `value`
/// attribute (or `<value>` text) replaced; else the property added to the bean; else the
/// bean (the DispositionProcessor, for `disposition`) added before `</beans>`.
///
/// Where an overrides bean names a file beside the job (`location`), which Spring applies
/// after the file's own values, the setting goes into a last overrides bean of its own
/// (`freshlabOverrides`, added before `</beans>` if missing): Spring applies overrides
/// beans in the file's order, so it wins over that file whatever the file says.
fn heritrix(text: &str, name: &str, value: &str, note: &str) -> Result<String, String> {
    let (bean_id, property) = name.split_once('.').ok_or_else(|| format!("{name} is not bean.property"))?;
    let doc = super::xml(text, "Heritrix", "beans").map_err(|e| format!("the loaded file no longer parses: {e}"))?;
    let comment = format!("<!-- {} -->", escape_xml(note));
    let last = doc.descendants().find(|n| n.has_tag_name("bean") && n.attribute("id") == Some(LAST_OVERRIDES)).map(|b| b.range());
    let located = heritrix::location(text)?.is_some();
    let overrides = heritrix::overrides(&doc)?.into_iter().filter(|o| {
        let at = match &o.at {
            OverrideAt::Lines { within, .. } => within.start,
            OverrideAt::Prop(at) => at.start,
        };
        !located || last.as_ref().is_some_and(|b| b.contains(&at))
    });
    if let (true, None) = (located, &last) {
        let block = format!(
            "  <!-- after the overrides file: Spring applies this bean's overrides last -->\n  <bean id=\"{LAST_OVERRIDES}\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">\n    <property name=\"properties\">\n      <value>\n# {}\n{}={}\n      </value>\n    </property>\n  </bean>\n",
            escape_xml(note),
            escape_xml(name),
            escape_xml(value)
        );
        return insert_before_close(text, doc.root_element().range(), "beans", &block);
    }
    let found = overrides.collect::<Vec<_>>().into_iter().rfind(|o| o.entry.name == name);
    if let (true, None, Some(bean)) = (located, &found, &last) {
        // a new line at the end of the last bean's properties
        let node = doc.descendants().find(|n| n.range() == *bean).expect("the bean found above");
        let value_text = node.descendants().find(|n| n.has_tag_name("value")).and_then(|v| v.first_child().filter(|t| t.is_text()));
        let Some(t) = value_text else { return Err(format!("the {LAST_OVERRIDES} bean has no <value> to add {name} to; remove the bean to have it written anew")) };
        let end = t.range().end;
        let body = &text[t.range()];
        let at = t.range().start + body.trim_end().len();
        return Ok(splice(text, at..end, &format!("\n# {}\n{}={}\n      ", escape_xml(note), escape_xml(name), escape_xml(value))));
    }
    if let Some(o) = found {
        let (at, with) = match o.at {
            // the line (and those it continues on) rewritten, a properties comment above it
            OverrideAt::Lines { row, count, within } => {
                let lines = rows(text, row, count);
                let at = lines.start.max(within.start)..lines.end.min(within.end);
                let indent: String = text[at.clone()].chars().take_while(|c| c.is_whitespace()).collect();
                (at, format!("{indent}# {}\n{indent}{}={}", escape_xml(note), escape_xml(name), escape_xml(value)))
            }
            OverrideAt::Prop(at) => {
                let indent = line_indent(text, at.start);
                (at, format!("{comment}\n{indent}<prop key=\"{}\">{}</prop>", escape_xml(name), escape_xml(value)))
            }
        };
        return Ok(splice(text, at, &with));
    }
    let Some(bean) = doc.descendants().rfind(|n| n.has_tag_name("bean") && n.attribute("id") == Some(bean_id)) else {
        let class = if bean_id == "disposition" { "org.archive.crawler.postprocessor.DispositionProcessor" } else { "" };
        let block = format!(
            "  {comment}\n  <bean id=\"{}\" class=\"{class}\">\n    <property name=\"{}\" value=\"{}\"/>\n  </bean>\n",
            escape_xml(bean_id),
            escape_xml(property),
            escape_xml(value)
        );
        return insert_before_close(text, doc.root_element().range(), "beans", &block);
    };
    let found = bean.children().rfind(|n| n.has_tag_name("property") && n.attribute("name") == Some(property));
    match found {
        Some(p) => {
            let edited = if let Some(a) = p.attributes().find(|a| a.name() == "value") {
                splice(text, a.range_value(), &escape_xml(value))
            } else if let Some(v) = p.children().find(|n| n.has_tag_name("value")) {
                splice(text, v.range(), &format!("<value>{}</value>", escape_xml(value)))
            } else {
                return Err(format!("{name}: its property gives neither a value attribute nor a <value>; set one"));
            };
            let start = p.range().start;
            let indent = line_indent(&edited, start);
            Ok(splice(&edited, start..start, &format!("{comment}\n{indent}")))
        }
        None => {
            let block = format!("    {comment}\n    <property name=\"{}\" value=\"{}\"/>\n", escape_xml(property), escape_xml(value));
            insert_before_close(text, bean.range(), "bean", &block)
        }
    }
}

/// The overrides bean a Heritrix file with an overrides file beside it gets its settings in.
const LAST_OVERRIDES: &str = "freshlabOverrides";

/// `block` inserted on its own line before the closing tag `</tag>` that ends `range`
/// (a self-closed element is opened first).
fn insert_before_close(text: &str, range: std::ops::Range<usize>, tag: &str, block: &str) -> Result<String, String> {
    let element = &text[range.clone()];
    if let Some(open) = element.strip_suffix("/>") {
        let opened = format!("{}>\n{block}</{tag}>", open.trim_end());
        return Ok(splice(text, range, &opened));
    }
    let close = range.start + element.rfind("</").ok_or_else(|| format!("<{tag}> has no closing tag"))?;
    let line_start = text[..close].rfind('\n').map_or(0, |k| k + 1);
    // the closing tag alone on its line: the block goes above it; else on a line of its own
    if text[line_start..close].trim().is_empty() { Ok(splice(text, line_start..line_start, block)) } else { Ok(splice(text, close..close, &format!("\n{block}"))) }
}

/// The bytes of `count` lines of `text` from line `row` (1-based), without the last
/// one's end.
fn rows(text: &str, row: u64, count: u64) -> std::ops::Range<usize> {
    let mut starts = std::iter::once(0).chain(text.match_indices('\n').map(|(k, _)| k + 1));
    let start = starts.nth(row as usize - 1).unwrap_or(text.len());
    let end = starts.nth(count as usize - 1).map_or(text.len(), |k| k - 1);
    start..end.max(start)
}

/// The spaces before `at` on its line.
fn line_indent(text: &str, at: usize) -> String {
    let start = text[..at].rfind('\n').map_or(0, |k| k + 1);
    text[start..at].chars().take_while(|c| c.is_whitespace()).collect()
}

/// StormCrawler's YAML: the last line `name: …` gets its value replaced (a list's items
/// below it, or a flow list's lines, with it); else the setting is added under `config:`
/// (with its settings' indentation), or at the end of a root map. A list setting
/// (`metadata.persist`) given as `a, b` is written as a flow list, `[a, b]`.
fn yaml(text: &str, name: &str, value: &str, note: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let key_of = |line: &str| {
        let t = line.trim_start();
        let (key, _) = t.split_once(':')?;
        Some(key.trim().trim_matches(['"', '\'']).to_string())
    };
    let value = match stormcrawler::LISTS.contains(&name) && !value.trim_start().starts_with('[') {
        true => stormcrawler::flow_list(value.split(',').map(str::trim).filter(|k| !k.is_empty())),
        false => value.to_string(),
    };
    let row = format!("{name}: {value} # {note}");
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    if let Some(k) = lines.iter().rposition(|l| !l.trim_start().starts_with('#') && key_of(l).as_deref() == Some(name)) {
        let at = indent_of(&lines[k]);
        // the old value's own lines: a block list's items (`- x`, at the key's indentation
        // or deeper) and anything deeper, comments and blank lines among them
        let mut last = k;
        for (j, l) in lines.iter().enumerate().skip(k + 1) {
            let t = l.trim_start();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            if indent_of(l) > at || (indent_of(l) == at && (t == "-" || t.starts_with("- "))) {
                last = j;
            } else {
                break;
            }
        }
        lines.drain(k + 1..=last);
        lines[k] = format!("{}{row}", line_indent(&lines[k], at));
    } else if let Some(k) = lines.iter().position(|l| l.trim_end() == "config:") {
        let indent =
            lines[k + 1..].iter().find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).map_or("  ".to_string(), |l| line_indent(l, l.len() - l.trim_start().len()));
        let indent = if indent.is_empty() { "  ".to_string() } else { indent };
        lines.insert(k + 1, format!("{indent}{row}"));
    } else {
        lines.push(row);
    }
    lines.join("\n") + "\n"
}

/// Scrapy: the last `NAME = …` line gets its value replaced; else the line is added.
fn scrapy(text: &str, name: &str, value: &str, note: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let row = format!("{name} = {value}  # {note}");
    match lines.iter().rposition(|l| l.split_once('=').is_some_and(|(n, _)| n.trim() == name && !l.trim_start().starts_with('#'))) {
        Some(k) => lines[k] = row,
        None => lines.push(row),
    }
    lines.join("\n") + "\n"
}
