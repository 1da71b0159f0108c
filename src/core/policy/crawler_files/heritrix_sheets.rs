//! Heritrix's sheets ("Sheets (Site-specific Settings)" in its job configuration guide):
//! `org.archive.spring.Sheet` beans, each a map of `beanId.property` → value, laid over
//! the crawl's settings for the URLs whose SURT form begins with a prefix that a
//! `SurtPrefixesSheetAssociation` names: a host's prefix (`http://(com,example,`) over
//! every page of the hosts it covers, a path's (`http://(com,example,www,)/news/`) over
//! the pages under it. A sheet's politeness is owed after a fetch of one of its pages (as
//! DispositionProcessor reads the fetched URL's settings), on the host's one queue.

use super::{Crawler, Entry, Known, Model, Xml, heritrix, heritrix_rules, scrapy_slots, storm_threads};
use crate::core::model::history::server::{self, url_parts};
use crate::core::policy::pushback::Reaction;
use roxmltree::{Document, Node};
use serde::{Deserialize, Serialize};

const SHEET: &str = "org.archive.spring.Sheet";
const BY_SURT: &str = "org.archive.crawler.spring.SurtPrefixesSheetAssociation";
const BY_RULES: &str = "org.archive.crawler.spring.DecideRuledSheetAssociation";
const MANAGER: &str = "org.archive.crawler.spring.SheetOverlaysManager";
/// The bean that lays the sheets; without it Heritrix lays none.
const MANAGER_BEAN: &str = "<bean id=\"sheetOverlaysManager\" autowire=\"byType\" class=\"org.archive.crawler.spring.SheetOverlaysManager\"/>";

/// A sheet as it applies to the pages a SURT prefix covers, with its settings that
/// Freshlab reads; also a Scrapy `DOWNLOAD_SLOTS` slot, over its one host
/// ([`super::scrapy_slots`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SheetRule {
    /// The crawler whose settings it lays (their names in its [`rule_settings`]).
    #[serde(default = "heritrix")]
    pub crawler: Crawler,
    /// `http://(com,example,` (example.com and its subdomains), or with a path
    /// `http://(com,example,www,)/news/` (the pages under it); a Scrapy slot's host
    /// exactly, `http://(com,example,www,)`.
    pub prefix: String,
    /// The sheet's name (a Scrapy slot's: its host).
    pub sheet: String,
    /// The association's line.
    pub line: u64,
    /// Name, value and line of each setting in the sheet's map that Freshlab reads.
    pub settings: Vec<(String, String, u64)>,
    /// A DecideRuledSheetAssociation's rules: the sheet is laid over the URLs they
    /// accept, winning over every prefix's (its `prefix` then says where it stands).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decide: Option<heritrix_rules::Rule>,
    /// Such an association's place among the others: its `order`, then its bean's name
    /// (DecideRuledSheetAssociation.compareTo; the last so placed wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<(i32, String)>,
}

impl SheetRule {
    /// Whether it gives the setting `name`.
    pub fn sets(&self, name: &str) -> bool {
        self.settings.iter().any(|(n, ..)| n == name)
    }

    /// Where it applies: `the URLs under http://(com,example,`, or `the URLs the decide
    /// rules of line 12 accept`.
    pub fn over(&self) -> String {
        match (&self.decide, self.crawler) {
            (Some(_), _) => format!("the URLs the decide rules of line {} accept", self.line),
            (None, Crawler::Stormcrawler) => format!("the hosts {} matches", self.prefix),
            (None, _) => format!("the URLs under {}", self.prefix),
        }
    }
}

/// The file's sheets as read.
#[derive(Default)]
pub struct Sheets {
    /// Every (prefix, sheet) pair the associations name, in the file's order, with the
    /// sheet's settings that Freshlab reads.
    pub rules: Vec<SheetRule>,
    /// Each sheet's map entries, with the sheet's name.
    pub entries: Vec<(String, Entry)>,
    /// Associations whose sheets set what Freshlab reads but which it cannot apply, each
    /// with why.
    pub aside: Vec<(Entry, String)>,
}

/// Whether `bean` is a sheet or an association (their properties are not settings).
fn is_sheet_bean(bean: Node) -> bool {
    bean.attribute("class").is_some_and(|c| [SHEET, BY_SURT, BY_RULES].contains(&c))
}

/// The beans read with the sheets (their properties are not settings): sheets,
/// associations, the decide rules inside an association and those its rules refer to by
/// `<ref bean>`, at any depth. A rule elsewhere (the crawl's scope) is not among them.
pub fn sheet_beans(doc: &Document) -> std::collections::HashSet<roxmltree::NodeId> {
    let beans = || doc.descendants().filter(|n| n.has_tag_name("bean"));
    let mut roots: Vec<Node> = beans().filter(|b| b.attribute("class") == Some(BY_RULES)).collect();
    let mut read: std::collections::HashSet<roxmltree::NodeId> = std::collections::HashSet::new();
    while let Some(root) = roots.pop() {
        if !read.insert(root.id()) {
            continue;
        }
        for id in root.descendants().filter(|n| n.has_tag_name("ref")).filter_map(|r| r.attribute("bean")) {
            roots.extend(beans().filter(|b| b.attribute("id") == Some(id)));
        }
    }
    beans().filter(|b| is_sheet_bean(*b) || b.ancestors().any(|a| read.contains(&a.id()))).map(|b| b.id()).collect()
}

/// The sheets and their associations in `doc`, refused where an association names a
/// sheet the file does not define or a map entry has no key.
pub(super) fn read(doc: &Xml) -> Result<Sheets, String> {
    let line = |n: Node| doc.line(n);
    let beans = || doc.descendants().filter(|n| n.has_tag_name("bean"));
    let mut out = Sheets::default();
    let managed = beans().any(|b| b.attribute("class") == Some(MANAGER));
    let mut maps: Vec<(String, Vec<Entry>)> = Vec::new();
    for bean in beans().filter(|b| b.attribute("class") == Some(SHEET)) {
        let Some(name) = bean.attribute("id").or_else(|| bean.attribute("name")) else {
            return Err(format!("line {}: a sheet without an id; give it id=\"…\" for associations to name it", line(bean)));
        };
        let mut entries = Vec::new();
        for entry in property(bean, "map").into_iter().flat_map(|p| p.descendants()).filter(|n| n.has_tag_name("entry")) {
            let Some(key) = entry.attribute("key") else { return Err(format!("line {}: sheet {name}: an <entry> without a key; give it key=\"bean.property\"", line(entry))) };
            let value = entry.attribute("value").or_else(|| entry.children().find(|n| n.has_tag_name("value")).and_then(|v| v.text())).unwrap_or_default();
            entries.push(Entry { name: key.to_string(), value: value.trim().to_string(), line: line(entry), file: None, fixed: false, null: false });
        }
        out.entries.extend(entries.iter().map(|e| (name.to_string(), Entry { name: e.name.clone(), value: e.value.clone(), line: e.line, file: None, fixed: false, null: false })));
        maps.push((name.to_string(), entries));
    }
    let read_here = |sheet: &str| -> Vec<(String, String, u64)> {
        let entries = maps.iter().find(|(n, _)| n == sheet).map_or(&[][..], |(_, e)| e);
        entries.iter().filter(|e| heritrix::KNOWN.iter().any(|k| k.name == e.name)).map(|e| (e.name.clone(), e.value.clone(), e.line)).collect()
    };
    // Spring's name for a bean without id or name: its class, `#`, and a count of such beans
    let mut unnamed_ruled = 0;
    for bean in beans().filter(|b| matches!(b.attribute("class"), Some(BY_SURT | BY_RULES))) {
        let at = line(bean);
        let names = values(property(bean, "targetSheetNames"));
        if let Some(missing) = names.iter().find(|n| !maps.iter().any(|(m, _)| m == *n)) {
            return Err(format!(
                "line {at}: names sheet “{missing}”, which no {SHEET} bean defines (Heritrix warns “sheet referenced but absent” and applies nothing); define it or remove the name"
            ));
        }
        let reads = names.iter().any(|n| !read_here(n).is_empty());
        let aside = |name: &str, value: String, why: String| (Entry { name: name.to_string(), value, line: at, file: None, fixed: false, null: false }, why);
        if reads && !managed {
            let why = format!("no SheetOverlaysManager bean: Heritrix lays no sheet without one; add {MANAGER_BEAN}");
            out.aside.push(aside("SheetAssociation.targetSheetNames", names.join(", "), why));
            continue;
        }
        if bean.attribute("class") == Some(BY_RULES) {
            let name = bean_name(bean).unwrap_or_else(|| {
                unnamed_ruled += 1;
                format!("{BY_RULES}#{}", unnamed_ruled - 1)
            });
            let order = match values(property(bean, "order")).first() {
                None => 0,
                Some(v) => v
                    .parse::<i32>()
                    .map_err(|_| format!("line {at}: DecideRuledSheetAssociation's order “{v}” is not a whole number Java's int holds; write one such as 10 (the default 0)"))?,
            };
            let ruled = match property(bean, "rules") {
                Some(p) => heritrix_rules::read_property(doc, p)?,
                None => Err("it has no rules property".into()),
            };
            match ruled {
                Ok(rule) => out.rules.extend(names.iter().map(|n| SheetRule {
                    crawler: Crawler::Heritrix,
                    prefix: format!("the decide rules of line {at}"),
                    sheet: n.clone(),
                    line: at,
                    settings: read_here(n),
                    decide: Some(rule.clone()),
                    rank: Some((order, name.clone())),
                })),
                Err(why) if reads => {
                    let why = format!("Heritrix lays these sheets over the URLs its decide rules accept; {why}, so their settings are not in this run");
                    out.aside.push(aside("DecideRuledSheetAssociation.targetSheetNames", names.join(", "), why));
                }
                Err(_) => {}
            }
            continue;
        }
        for prefix in values(property(bean, "surtPrefixes")) {
            match not_http(&prefix) {
                Some(why) if reads => out.aside.push(aside("SurtPrefixesSheetAssociation.surtPrefixes", format!("{prefix} → {}", names.join(", ")), why)),
                Some(_) => {}
                None => out.rules.extend(names.iter().map(|n| SheetRule {
                    crawler: Crawler::Heritrix,
                    prefix: prefix.clone(),
                    sheet: n.clone(),
                    line: at,
                    settings: read_here(n),
                    decide: None,
                    rank: None,
                })),
            }
        }
    }
    out.rules.retain(|r| !r.settings.is_empty());
    Ok(out)
}

/// A bean's name as Spring gives it: its id, else the first of its `name`'s aliases
/// (split at commas, semicolons and spaces); None where it has neither.
fn bean_name(bean: Node) -> Option<String> {
    bean.attribute("id").or_else(|| bean.attribute("name").and_then(|n| n.split([',', ';', ' ']).find(|a| !a.is_empty()))).map(str::to_string)
}

/// The bean's property `name`.
fn property<'a, 'input>(bean: Node<'a, 'input>, name: &str) -> Option<Node<'a, 'input>> {
    bean.children().find(|p| p.has_tag_name("property") && p.attribute("name") == Some(name))
}

/// A list property's `<value>`s (or its `value` attribute), trimmed.
fn values(property: Option<Node>) -> Vec<String> {
    let Some(p) = property else { return Vec::new() };
    let listed: Vec<String> = p.descendants().filter(|n| n.has_tag_name("value")).filter_map(|v| v.text()).map(|t| t.trim().to_string()).collect();
    if listed.is_empty() { p.attribute("value").map(|v| vec![v.trim().to_string()]).unwrap_or_default() } else { listed }
}

/// Why a prefix applies to no URL (None: it can apply).
fn not_http(prefix: &str) -> Option<String> {
    (!prefix.starts_with("http://(")).then(|| {
        "not a SURT prefix of an http URL: Heritrix compares it, as written, with each URL's SURT form (https read as http), so it applies to no URL; write http://(com,example, for example.com and its subdomains".into()
    })
}

/// Whether a rule may set pages of one host apart: a prefix naming part of a host (a
/// path after its `)`), or decide rules (which read the whole URL).
pub fn sets_pages_apart(rule: &SheetRule) -> bool {
    // (a StormCrawler pattern is a host's, whatever its parentheses)
    rule.decide.is_some() || (rule.crawler != Crawler::Stormcrawler && rule.prefix.split_once(')').is_some_and(|(_, path)| !path.is_empty() && path != "/"))
}

/// The SURT form of a host's root URL, as Heritrix's SURT.fromURI writes it:
/// `www.example.com` → `http://(com,example,www,)/`; a dotted-quad address is not
/// reversed; a port follows the host.
pub fn host_surt(host: &str) -> String {
    let host = host.trim().to_ascii_lowercase();
    let (name, port) = match host.rsplit_once(':') {
        Some((h, p)) if !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()) => (h.to_string(), format!(":{p}")),
        _ => (host.clone(), String::new()),
    };
    let quad = name.split('.').count() == 4 && name.split('.').all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()));
    let authority = if quad { name } else { name.split('.').rev().map(|l| format!("{l},")).collect() };
    format!("http://({authority}{port})/")
}

/// The SURT form of a page's URL as Heritrix compares it with the prefixes
/// (SurtPrefixSet.getCandidateSurt: https read as http, the host lowercased and
/// reversed, a default port, the user and the fragment dropped, the path and query kept):
/// `https://www.example.com/news/a?b` → `http://(com,example,www,)/news/a?b`. None for
/// what is not an http(s) URL.
pub fn url_surt(url: &str) -> Option<String> {
    let (scheme, authority, tail) = url_parts(url.trim())?;
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => ":80",
        "https" => ":443",
        _ => return None,
    };
    let path = tail.split('#').next().unwrap_or_default();
    let host = authority.strip_suffix(default_port).unwrap_or(authority);
    if host.is_empty() {
        return None;
    }
    let root = host_surt(host);
    let path = if path.is_empty() || path.starts_with('?') { format!("/{path}") } else { path.to_string() };
    Some(format!("{}{path}", root.strip_suffix('/').unwrap_or(&root)))
}

/// The URL a host's root stands for where no page's URL is known: `http://host/`.
pub fn host_root_url(host: &str) -> String {
    format!("http://{}/", host.trim())
}

/// The rules that apply to the root of `host` (their indices), the winner first (see
/// [`Prefixes::matching`]).
pub fn rules_for(rules: &[SheetRule], host: &str) -> Vec<usize> {
    Prefixes::of(rules).matching(&host_surt(host), &host_root_url(host))
}

/// The rules by their prefixes, to find a URL's among thousands: each of the URL's own
/// prefixes of a length some rule's has is looked up, rather than every rule tried; and
/// the rules decide rules associate, asked in turn.
pub struct Prefixes<'a> {
    by_prefix: std::collections::HashMap<&'a str, Vec<usize>>,
    /// The rules' prefix lengths, each once.
    lengths: Vec<usize>,
    /// Each DecideRuledSheetAssociation's rules, compiled once, with the indices of its
    /// sheets' rules, the winner first: asked once a URL however many sheets it names.
    ruled: Vec<(Vec<usize>, heritrix_rules::Compiled)>,
    /// StormCrawler's patterns over a URL's host, compiled once, in the file's order.
    by_host: Vec<(usize, regex_lite::Regex)>,
}

impl<'a> Prefixes<'a> {
    pub fn of(rules: &'a [SheetRule]) -> Self {
        let mut by_prefix: std::collections::HashMap<&str, Vec<usize>> = std::collections::HashMap::new();
        let mut ruled: Vec<(Vec<usize>, heritrix_rules::Compiled)> = Vec::new();
        let mut by_host = Vec::new();
        for (i, rule) in rules.iter().enumerate() {
            match &rule.decide {
                // read once already: a pattern that compiled then compiles now
                None if rule.crawler == Crawler::Stormcrawler => by_host.extend(heritrix_rules::whole(&rule.prefix).ok().map(|r| (i, r))),
                // the association's next sheet (its rules read once, on its line)
                Some(_) if i > 0 && rules[i - 1].decide.is_some() && rules[i - 1].line == rule.line => {
                    if let Some((sheets, _)) = ruled.last_mut() {
                        sheets.push(i);
                    }
                }
                // read once already: a rule that compiled then compiles now
                Some(decide) => ruled.extend(decide.compile().ok().map(|c| (vec![i], c))),
                None => by_prefix.entry(rule.prefix.as_str()).or_default().push(i),
            }
        }
        // the winner first: the association placed last, and of its sheets the last named
        ruled.sort_by(|(a, _), (b, _)| rules[b[0]].rank.cmp(&rules[a[0]].rank));
        for (sheets, _) in &mut ruled {
            sheets.reverse();
        }
        let mut lengths: Vec<usize> = by_prefix.keys().map(|p| p.len()).collect();
        lengths.sort_unstable();
        lengths.dedup();
        Prefixes { by_prefix, lengths, ruled, by_host }
    }

    /// The rules that apply to a URL `url` of SURT form `surt` (their indices), first the
    /// one that wins. SheetOverlaysManager.applyOverlaysTo lists a URL's sheets: its
    /// prefixes' from the shortest (PrefixFinder.findKeys), each prefix's in the order
    /// associated; then the sheets of the DecideRuledSheetAssociations whose rules accept
    /// the URL (in the form Heritrix holds it, [`heritrix_rules::uuri_form`]), these
    /// sorted by their `order` then bean name; and KeyedProperties.get reads the list
    /// from its end. So a decide-ruled sheet wins over any prefix's, the one placed last
    /// first; then a longer prefix's over a shorter's, of one prefix the sheet associated
    /// later first. StormCrawler's patterns that match the URL's host as a whole, in the
    /// file's order ([`storm_threads`]).
    pub fn matching(&self, surt: &str, url: &str) -> Vec<usize> {
        let mut found: Vec<usize> = Vec::new();
        if !self.by_host.is_empty()
            && let Some(host) = server::host(url)
        {
            found.extend(self.by_host.iter().filter(|(_, pattern)| pattern.is_match(&host)).map(|&(i, _)| i));
        }
        if !self.ruled.is_empty() {
            let url = heritrix_rules::uuri_form(url);
            found.extend(self.ruled.iter().filter(|(_, rule)| rule.accepts(&url)).flat_map(|(sheets, _)| sheets.iter().copied()));
        }
        for &n in self.lengths.iter().rev().filter(|&&n| n <= surt.len() && surt.is_char_boundary(n)) {
            if let Some(rules) = self.by_prefix.get(&surt[..n]) {
                found.extend(rules.iter().rev());
            }
        }
        found
    }
}

fn heritrix() -> Crawler {
    Crawler::Heritrix
}

/// The settings a crawler's rules over hosts may give: a Heritrix sheet's map keys (its
/// crawl's own names), a Scrapy slot's keys.
pub fn rule_settings(crawler: Crawler) -> &'static [Known] {
    match crawler {
        Crawler::Heritrix => heritrix::KNOWN,
        Crawler::Scrapy => scrapy_slots::KNOWN,
        Crawler::Stormcrawler => storm_threads::KNOWN,
        Crawler::Nutch => &[],
    }
}

/// `base` with `rules` laid over it, the first that gives a setting winning (as
/// [`Prefixes::matching`] orders them); refused with the sheet, line and why where a value cannot
/// be taken.
pub fn overlay(rules: &[&SheetRule], base: &Model) -> Result<Model, String> {
    let mut model = *base;
    // the winner last, so that its values stay
    for rule in rules.iter().rev() {
        for (name, value, line) in &rule.settings {
            if let Some(k) = rule_settings(rule.crawler).iter().find(|k| k.name == name) {
                (k.apply)(&mut model, value)
                    .map_err(|why| format!("{} (line {line}): {why} (got \"{value}\"); fix the value or remove the entry", said(rule.crawler, &rule.sheet, name)))?;
            }
        }
    }
    Ok(model)
}

/// How messages name a rule's setting: `sheet slowSite, disposition.minDelayMs`,
/// `DOWNLOAD_SLOTS['example.com']['delay']`.
pub fn said(crawler: Crawler, sheet: &str, key: &str) -> String {
    match crawler {
        Crawler::Scrapy => format!("{}['{sheet}']['{key}']", scrapy_slots::NAME),
        Crawler::Stormcrawler => format!("{}{sheet}", storm_threads::PREFIX),
        _ => format!("sheet {sheet}, {key}"),
    }
}

/// The fastest spacing any host may get: `base` with each setting at the least any
/// sheet gives it (an estimate's bound: a host under several sheets gets no faster).
pub fn fastest(rules: &[SheetRule], base: &Model) -> Model {
    let mut fast = *base;
    for rule in rules {
        let Ok(m) = overlay(&[rule], base) else { continue };
        fast.server_delay_s = fast.server_delay_s.min(m.server_delay_s);
        fast.min_delay_s = fast.min_delay_s.min(m.min_delay_s);
        fast.crawl_delay_cap_s = fast.crawl_delay_cap_s.min(m.crawl_delay_cap_s);
        // (StormCrawler's patterns: more threads, the min delay's spacing)
        fast.threads_per_queue = fast.threads_per_queue.max(m.threads_per_queue);
        match (&mut fast.reaction, m.reaction) {
            (Reaction::Heritrix { delay_factor, max_delay_s }, Reaction::Heritrix { delay_factor: f, max_delay_s: most }) => {
                *delay_factor = delay_factor.min(f);
                *max_delay_s = max_delay_s.min(most);
            }
            (Reaction::Scrapy { concurrency, start_delay_s, .. }, Reaction::Scrapy { concurrency: c, start_delay_s: start, .. }) => {
                *concurrency = concurrency.max(c);
                *start_delay_s = start_delay_s.min(start);
            }
            _ => {}
        }
    }
    fast
}

/// A host the tuning spaces apart: its name, its least gap in milliseconds, and whether
/// its sheet also raises `disposition.maxDelayMs` to that gap (Heritrix caps the least
/// gap at the most: a gap over the host's most would not apply otherwise).
pub type HostGap = (String, u64, bool);

/// Steps a decade of the gaps the tuning gives hosts ([`shared_gap_ms`]).
pub const GAPS_A_DECADE: f64 = 100.0;

/// The least gap, in whole milliseconds, that keeps a host of `capacity` requests a
/// second within it, rounded up to one of [`GAPS_A_DECADE`] gaps a decade (at most 2.3 %
/// slower than 1/capacity): hosts of near capacities share a sheet, and a tuned file for
/// thousands of hosts, one sheet a distinct gap, stays a few hundred sheets.
pub fn shared_gap_ms(capacity: f64) -> u64 {
    let exact = 1000.0 / capacity;
    // (the step's power of ten from the log, checked against the gap itself: a log a
    // rounding below a step's must not give a gap under 1/capacity)
    let mut step = (exact.log10() * GAPS_A_DECADE).ceil();
    while 10f64.powf((step - 1.0) / GAPS_A_DECADE) >= exact {
        step -= 1.0;
    }
    while 10f64.powf(step / GAPS_A_DECADE) < exact {
        step += 1.0;
    }
    10f64.powf(step / GAPS_A_DECADE).ceil() as u64
}

/// Sheets holding each listed host to its own least gap (`disposition.minDelayMs`, one
/// sheet a gap, its hosts' exact prefixes associated with it), with the comment
/// `comment`, as beans to insert into a crawler-beans.cxml.
pub fn host_gaps(hosts: &[HostGap], comment: &str) -> String {
    let mut by_gap: std::collections::BTreeMap<(u64, bool), Vec<&str>> = std::collections::BTreeMap::new();
    for (host, ms, most) in hosts {
        by_gap.entry((*ms, *most)).or_default().push(host);
    }
    let mut out = format!(" <!-- {comment} -->\n");
    for ((ms, most), over) in by_gap {
        let mut entries = vec![("disposition.minDelayMs", ms.to_string())];
        if most {
            entries.push(("disposition.maxDelayMs", ms.to_string()));
        }
        out.push_str(&sheet_over(&if most { format!("freshlabGap{ms}msAtMost") } else { format!("freshlabGap{ms}ms") }, &entries, &over));
    }
    out
}

/// Sheets giving each listed host its own revisit (`rescheduler.rescheduleDelaySeconds`,
/// seconds; −1: never), one sheet a delay, with the comment `comment`, as beans to insert
/// into a crawler-beans.cxml whose ReschedulingProcessor runs.
pub fn host_revisits(hosts: &[(String, i64)], comment: &str) -> String {
    let mut delays: Vec<i64> = hosts.iter().map(|&(_, s)| s).collect();
    delays.sort_unstable();
    delays.dedup();
    let mut out = format!(" <!-- {comment} -->\n");
    for delay in delays {
        let over: Vec<&str> = hosts.iter().filter(|&&(_, s)| s == delay).map(|(h, _)| h.as_str()).collect();
        let name = if delay > 0 { format!("freshlabRevisit{delay}s") } else { "freshlabNoRevisit".to_string() };
        out.push_str(&sheet_over(&name, &[(super::heritrix::RESCHEDULE, delay.to_string())], &over));
    }
    out
}

/// A sheet `name` of `entries` (key, value), and its association laying it over the
/// exact prefixes of `hosts`.
fn sheet_over(name: &str, entries: &[(&str, String)], hosts: &[&str]) -> String {
    let escaped = |t: String| t.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let prefixes: String = hosts.iter().map(|h| format!("    <value>{}</value>\n", escaped(host_surt(h)))).collect();
    let entries: String = entries.iter().map(|(key, value)| format!("   <entry key=\"{key}\" value=\"{value}\"/>\n")).collect();
    format!(
        " <bean class=\"{BY_SURT}\">\n  <property name=\"surtPrefixes\"><list>\n{prefixes}  </list></property>\n  <property name=\"targetSheetNames\"><list><value>{name}</value></list></property>\n </bean>\n <bean id=\"{name}\" class=\"{SHEET}\">\n  <property name=\"map\"><map>\n{entries}  </map></property>\n </bean>\n"
    )
}

/// `text` (a crawler-beans.cxml) with `beans` inserted before its closing `</beans>`, and
/// a SheetOverlaysManager where it has none.
pub fn insert(text: &str, beans: &str) -> Result<String, String> {
    let doc = super::xml(text, "Heritrix", "beans")?;
    let managed = doc.descendants().any(|b| b.has_tag_name("bean") && b.attribute("class") == Some(MANAGER));
    let end = text.rfind("</beans>").ok_or("has no closing </beans> to write the sheets before")?;
    let manager = if managed { String::new() } else { format!(" {MANAGER_BEAN}\n") };
    Ok(format!("{}{manager}{beans}{}", &text[..end], &text[end..]))
}
