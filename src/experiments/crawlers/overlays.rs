//! Heritrix's sheets (Scrapy's DOWNLOAD_SLOTS, StormCrawler's fetcher.maxThreads patterns) on the pages' servers: which rules
//! each server's host falls under, kept as the few distinct sets they form (a run then
//! holds one set of rules a set, not one a server), and what the rules covered.

use super::output::{SheetsUsed, TunedRevisits};
use crate::chart::format::thousands;
use crate::core::model::repository::Repository;
use crate::core::policy::adaptive::{OwnStarts, PageStart};
use crate::core::policy::crawler_files::heritrix_sheets::{self, SheetRule};
use crate::core::policy::crawler_files::{self, Crawler, Model, read};
use crate::core::policy::crawler_files::{heritrix, tuning};
use crate::core::policy::pushback::Reaction;

/// Servers, or pages, apart from the crawler's settings, by the sheets over their hosts
/// and paths.
#[derive(Default)]
pub(super) struct Overlays {
    /// Each distinct set of rules (indices into the file's, the winner first); the first
    /// is the empty set: the crawler's own settings.
    sets: Vec<Vec<usize>>,
    /// Each server's set, its host's root's (empty: every server on the first).
    of: Vec<u16>,
    /// Each page's set, its URL's, where a sheet names a path and the pages' URLs are
    /// known (empty: each page on its server's).
    by_page: Vec<u16>,
}

impl Overlays {
    /// The sets of `rules` over the servers `names` gives and the pages' `urls` (in the
    /// repository's order; a generated repository has neither), checked on `base`; and
    /// what the sheets covered (None without sheets).
    pub fn of(rules: &[SheetRule], names: &[String], urls: &[String], repo: &Repository, base: &Model) -> Result<(Self, Option<SheetsUsed>), String> {
        if rules.is_empty() {
            return Ok((Overlays::default(), None));
        }
        let mut sets: Vec<Vec<usize>> = vec![Vec::new()];
        // each set's index by its rules (a tuning's sheets give every host its own)
        let mut index: std::collections::HashMap<Vec<usize>, usize> = std::collections::HashMap::from([(Vec::new(), 0)]);
        let mut intern = |set: Vec<usize>| -> Result<u16, String> {
            let k = match index.get(&set) {
                Some(&k) => k,
                None => {
                    if sets.len() > usize::from(u16::MAX) {
                        return Err(format!(
                            "its rules over hosts (Heritrix sheets, Scrapy slots) set the pages apart in more than {} ways; Freshlab runs at most {} sets of them",
                            u16::MAX,
                            u16::MAX
                        ));
                    }
                    index.insert(set.clone(), sets.len());
                    sets.push(set);
                    sets.len() - 1
                }
            };
            Ok(k as u16)
        };
        let prefixes = heritrix_sheets::Prefixes::of(rules);
        let mut of = Vec::with_capacity(repo.servers());
        for s in 0..repo.servers() {
            of.push(intern(names.get(s).map(|n| prefixes.matching(&heritrix_sheets::host_surt(n), &heritrix_sheets::host_root_url(n))).unwrap_or_default())?);
        }
        let mut by_page = Vec::new();
        if rules.iter().any(heritrix_sheets::sets_pages_apart) && urls.len() == repo.pages() {
            by_page.reserve_exact(repo.pages());
            for (s, &host) in of.iter().enumerate() {
                for i in repo.server_pages(s) {
                    // a page whose name is not an http(s) URL is its host's root
                    by_page.push(match heritrix_sheets::url_surt(&urls[i]) {
                        Some(surt) => intern(prefixes.matching(&surt, urls[i].trim()))?,
                        None => host,
                    });
                }
            }
        }
        let overlays = Overlays { sets, of, by_page };
        for set in &overlays.sets {
            heritrix_sheets::overlay(&overlays.rules(rules, set), base)?;
        }
        let covered = |s: usize| overlays.set(s) > 0 || repo.server_pages(s).any(|i| overlays.page_set(i, s) > 0);
        let hosts = (0..repo.servers()).filter(|&s| covered(s)).count() as u64;
        let pages = (0..repo.servers()).flat_map(|s| repo.server_pages(s).map(move |i| (i, s))).filter(|&(i, s)| overlays.page_set(i, s) > 0).count() as u64;
        // a sheet's prefix as written, a Scrapy slot's host
        fn named(r: &SheetRule) -> &str {
            if r.crawler == Crawler::Scrapy { &r.sheet } else { &r.prefix }
        }
        let mut prefixes: Vec<&str> = rules.iter().map(named).collect();
        prefixes.sort_unstable();
        prefixes.dedup();
        let used: std::collections::BTreeSet<u16> = overlays.of.iter().chain(&overlays.by_page).copied().collect();
        let matched: std::collections::BTreeSet<&str> = used.iter().flat_map(|&k| overlays.sets[usize::from(k)].iter().map(|&r| named(&rules[r]))).collect();
        let unmatched = prefixes.iter().filter(|p| !matched.contains(**p)).map(|p| p.to_string()).collect();
        let ruled = rules.iter().filter(|r| r.decide.is_some()).map(|r| r.line).collect::<std::collections::BTreeSet<u64>>().len();
        // hosts two StormCrawler patterns match (each gives the threads alone)
        let ambiguous = if rules[0].crawler == Crawler::Stormcrawler { (0..repo.servers()).filter(|&s| overlays.sets[overlays.set(s)].len() > 1).count() as u64 } else { 0 };
        let counts = [(prefixes.len() - ruled) as u64, ruled as u64, hosts, pages, ambiguous];
        Ok((overlays, Some(SheetsUsed::of(rules[0].crawler, counts, unmatched))))
    }

    /// Server `s`'s set, its host's root's (0: the crawler's own settings).
    pub fn set(&self, s: usize) -> usize {
        self.of.get(s).map_or(0, |&k| usize::from(k))
    }

    /// Page `i`'s set, on server `s`.
    pub fn page_set(&self, i: usize, s: usize) -> usize {
        self.by_page.get(i).map_or_else(|| self.set(s), |&k| usize::from(k))
    }

    /// Each page's set, where a sheet sets pages apart within their host (empty: each
    /// page is its server's).
    pub fn by_page(&self) -> &[u16] {
        &self.by_page
    }

    /// The model of each set over `base` (the first: `base` itself).
    pub fn models(&self, rules: &[SheetRule], base: &Model) -> Vec<Model> {
        if self.sets.is_empty() {
            return vec![*base];
        }
        // every set was laid over the loaded model when the job began (Self::of), and a
        // value that was taken once is taken again on any model
        self.sets.iter().map(|set| heritrix_sheets::overlay(&self.rules(rules, set), base).unwrap_or(*base)).collect()
    }

    /// Each page's revisit, its own URL's sets' (ReschedulingProcessor reads the fetched
    /// URL's settings: a sheet over a path or by decide rules gives the pages under it
    /// their own), as a start a set of `models` ([`Self::models`]); None where pages are
    /// not set apart or every set revisits alike.
    pub fn revisit_starts(&self, models: &[Model]) -> Option<OwnStarts> {
        if self.by_page.is_empty() || models.iter().all(|m| m.intervals == models[0].intervals) {
            return None;
        }
        let starts = models.iter().map(|m| Some(PageStart { initial: m.intervals.initial, fixed: true, later: None, rates: None })).collect();
        Some(OwnStarts { starts, of: self.by_page.clone() })
    }

    /// The requests a tuning of the hosts' revisits leaves where they are over `days`:
    /// each page's first fetch, and the revisits of the pages whose own comes from a sheet
    /// over a path or by decide rules (which a host's sheet does not overrule), each at
    /// its set's model of `models` ([`Self::models`] of `rules`).
    pub fn unmoved_requests(&self, rules: &[SheetRule], models: &[Model], repo: &Repository, days: f64) -> f64 {
        let revisits = |i: usize, s: usize| if self.revisit_apart(rules, i, s) { days / models[self.page_set(i, s)].intervals.initial } else { 0.0 };
        (0..repo.servers()).flat_map(|s| repo.server_pages(s).map(move |i| (i, s))).map(|(i, s)| 1.0 + revisits(i, s)).sum()
    }

    /// Whether page `i` on server `s` takes its revisit from one of `rules` over a path
    /// or by decide rules, which a host's sheet does not overrule.
    pub fn revisit_apart(&self, rules: &[SheetRule], i: usize, s: usize) -> bool {
        let set = self.sets.get(self.page_set(i, s));
        set.and_then(|set| set.iter().map(|&r| &rules[r]).find(|r| r.sets(heritrix::RESCHEDULE))).is_some_and(heritrix_sheets::sets_pages_apart)
    }

    fn rules<'a>(&self, rules: &'a [SheetRule], set: &[usize]) -> Vec<&'a SheetRule> {
        set.iter().map(|&r| &rules[r]).collect()
    }
}

/// The tuning's sheets (Heritrix) or slots (Scrapy's DOWNLOAD_SLOTS) on named hosts: each
/// host whose capacity the crawler's gap exceeds held to a request per 1/capacity, its
/// least gap in whole milliseconds (a Scrapy slot's delay, not randomised); and where
/// Heritrix runs the file's rescheduler, each host's own revisit; with the file's own
/// rules, as the tuned file has them.
pub(super) struct TunedSheets {
    pub rules: Vec<SheetRule>,
    pub overlays: Overlays,
    /// What the tuned file gets: Heritrix's beans (inserted before its `</beans>`), or
    /// Scrapy's DOWNLOAD_SLOTS assignment (appended: it replaces the file's own).
    pub beans: String,
    /// Hosts held to their capacity, and the pages of every host a sheet or slot names.
    pub hosts: u64,
    pub pages: u64,
    /// Hosts given their own revisit (None: none).
    pub revisits: Option<TunedRevisits>,
    /// Heritrix's gaps rounded up to shared ones ([`heritrix_sheets::shared_gap_ms`]): a
    /// sheet each host's own gap would have passed the 1 MB a crawler's file may have.
    pub shared_gaps: bool,
}

/// The comments over what the tuning writes.
const TUNED: &str = "Freshlab's tuning: each host whose capacity asks for it held to a request per 1/capacity";
const REVISITS: &str =
    "Freshlab's tuning: each host's revisit (rescheduler.rescheduleDelaySeconds; -1 never) from the optimum's marginal value for its pages, OPT_POLITE at your crawler's bandwidth";

/// Whether the tuned rules `beans` for `hosts` hosts, with the file `text` they go into,
/// stay within what Freshlab reads back as a crawler's configuration.
fn fits(beans: &str, text: Option<&str>, hosts: usize) -> Result<(), String> {
    let bytes = beans.len() + text.map_or(0, str::len);
    if bytes > crawler_files::MAX_BYTES {
        return Err(format!(
            "the rules for {} hosts would make the file {} KB, over the {} KB Freshlab reads as a crawler's configuration (each host is named in it); give fewer hosts a capacity",
            thousands(hosts as f64),
            thousands((bytes >> 10) as f64),
            thousands((crawler_files::MAX_BYTES >> 10) as f64)
        ));
    }
    Ok(())
}

impl TunedSheets {
    /// For `model`'s gap over the servers `names` with `capacities` (requests a second),
    /// the crawler's file being `text` (None: its shipped defaults), and where given each
    /// server's revisit in days (`revisits`, [`tuning::host_revisits_from`]; None: never);
    /// None where no host's capacity asks for a longer gap and no revisit is given; why
    /// not where the sheets cannot be written or run.
    #[allow(clippy::too_many_arguments)]
    pub fn of(
        crawler: Crawler,
        text: Option<&str>,
        own: &[SheetRule],
        model: &Model,
        names: &[String],
        urls: &[String],
        capacities: &[f64],
        revisits: Option<&[Option<f64>]>,
        repo: &Repository,
    ) -> Result<Option<Self>, String> {
        // each host's gap under the file's own rules: a tuned one only ever lengthens it
        let (file, _) = Overlays::of(own, names, urls, repo, model)?;
        let models = file.models(own, model);
        let hosts: Vec<(usize, String, u64, bool, bool)> = (0..repo.servers())
            .filter_map(|s| {
                let (name, cap, host) = (names.get(s)?, capacities[s], &models[file.set(s)]);
                let ms = (1000.0 / cap).ceil();
                // Heritrix: the gap past the crawl's most, which caps it (the sheet raises
                // it too); Scrapy: a randomised delay (the slot stops randomising)
                let flag = match host.reaction {
                    Reaction::Heritrix { max_delay_s, .. } => ms > 1000.0 * max_delay_s,
                    Reaction::Scrapy { randomize, .. } => randomize,
                    _ => false,
                };
                // Scrapy: AutoThrottle would move the delay (the slot turns it off)
                let throttled = matches!(host.reaction, Reaction::Scrapy { autothrottle: true, .. });
                (cap.is_finite() && cap > 0.0 && host.politeness_s() < 1.0 / cap).then(|| (s, name.clone(), ms as u64, flag, throttled))
            })
            .collect();
        let delays: Vec<(usize, String, i64)> = match revisits {
            Some(days) if crawler == Crawler::Heritrix => (0..repo.servers()).filter_map(|s| Some((s, names.get(s)?.clone(), tuning::revisit_seconds(days[s])))).collect(),
            _ => Vec::new(),
        };
        if hosts.is_empty() && delays.is_empty() {
            return Ok(None);
        }
        let mut turned_on = false;
        let mut shared_gaps = false;
        let (beans, rules) = if crawler == Crawler::Scrapy {
            // the whole assignment, the file's own slots in it: read alone, it gives every rule
            let slots: Vec<_> = hosts.iter().map(|(_, n, ms, flag, throttled)| (n.clone(), *ms, *flag, *throttled)).collect();
            let beans = crate::core::policy::crawler_files::scrapy_slots::assignment(text.unwrap_or_default(), &slots, TUNED)?;
            fits(&beans, text, hosts.len())?;
            let rules = read(Crawler::Scrapy, &beans, "tuned slots").map_err(|e| e.to_string())?.sheets;
            (beans, rules)
        } else {
            let each: Vec<(String, i64)> = delays.iter().map(|(_, n, d)| (n.clone(), *d)).collect();
            let revisits = if each.is_empty() { String::new() } else { heritrix_sheets::host_revisits(&each, REVISITS) };
            // each host at its own gap, or, where that is too long a file, at a shared one
            let beans_at = |gap: &dyn Fn(usize, u64) -> u64| {
                let listed: Vec<(String, u64, bool)> = hosts.iter().map(|(s, n, ms, flag, _)| (n.clone(), gap(*s, *ms), *flag)).collect();
                (if listed.is_empty() { String::new() } else { heritrix_sheets::host_gaps(&listed, TUNED) }) + &revisits
            };
            let mut beans = beans_at(&|_, ms| ms);
            if fits(&beans, text, hosts.len().max(delays.len())).is_err() {
                beans = beans_at(&|s, _| heritrix_sheets::shared_gap_ms(capacities[s]));
                shared_gaps = true;
            }
            fits(&beans, text, hosts.len().max(delays.len()))?;
            // the file's rescheduler turned on where it is off (said where it cannot be)
            turned_on = match (delays.is_empty(), text) {
                (true, _) => false,
                (false, Some(text)) => heritrix::with_rescheduler(text)? != text,
                (false, None) => true,
            };
            // read back as Heritrix would, after the file's own sheets (with the file's
            // rescheduler, which runs, where they give revisits)
            let rescheduler = if delays.is_empty() { String::new() } else { format!("{}\n", heritrix::RESCHEDULER_BEAN) };
            let alone = heritrix_sheets::insert(&format!("<beans>\n{rescheduler}</beans>"), &beans)?;
            let mut rules = own.to_vec();
            rules.extend(read(Crawler::Heritrix, &alone, "tuned sheets").map_err(|e| e.to_string())?.sheets);
            (beans, rules)
        };
        let (overlays, _) = Overlays::of(&rules, names, urls, repo, model)?;
        let mut named = vec![false; repo.servers()];
        for s in hosts.iter().map(|h| h.0).chain(delays.iter().map(|d| d.0)) {
            named[s] = true;
        }
        let pages = (0..repo.servers()).filter(|&s| named[s]).map(|s| repo.server_pages(s).len() as u64).sum();
        let revisits = (!delays.is_empty()).then(|| {
            let positive = || delays.iter().map(|d| d.2).filter(|&d| d > 0);
            TunedRevisits {
                hosts: delays.len() as u64,
                shortest_s: positive().min().unwrap_or(0) as u64,
                longest_s: positive().max().unwrap_or(0) as u64,
                never: delays.iter().filter(|d| d.2 <= 0).count() as u64,
                turned_on,
            }
        });
        Ok(Some(TunedSheets { rules, overlays, beans, hosts: hosts.len() as u64, pages, revisits, shared_gaps }))
    }

    /// `text` (the tuned file) with the rules written into it.
    pub fn written_into(&self, crawler: Crawler, text: &str) -> Result<String, String> {
        if crawler == Crawler::Scrapy {
            let newline = if text.is_empty() || text.ends_with('\n') { "" } else { "\n" };
            Ok(format!("{text}{newline}{}", self.beans))
        } else if self.revisits.is_some() {
            heritrix::with_rescheduler(&heritrix_sheets::insert(text, &self.beans)?)
        } else {
            heritrix_sheets::insert(text, &self.beans)
        }
    }

    /// The same sheets as the tuned file `read_back` has them.
    pub fn read_back(mut self, read_back: &[SheetRule], names: &[String], urls: &[String], repo: &Repository, model: &Model) -> Self {
        if let Ok((overlays, _)) = Overlays::of(read_back, names, urls, repo, model) {
            (self.rules, self.overlays) = (read_back.to_vec(), overlays);
        }
        self
    }
}
