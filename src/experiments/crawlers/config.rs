//! The crawlers experiment's configuration: the pages (generated or a page list), the
//! crawler and its own configuration file, the recrawl interval of crawlers without a
//! revisit rule of their own, the horizon; its checks and its cost.

use super::{job, pilot};
use crate::core::input::InputError;
use crate::core::limits::{Cost, Fix};
use crate::core::math::elementary::exp;
use crate::core::model::host::{Host, MIN_CAPACITY, Refusal, Refusals};
use crate::core::model::page_list::{self, CAPACITY, CRAWL_DELAY, Limit, ListShape, RESPONSE_MS};
use crate::core::model::rate_bins::RateBins;
use crate::core::model::seed_list;
use crate::core::model::source::{RepositorySource, takes_pages};
use crate::core::model::webbase::law_sizes_for_estimate;
use crate::core::policy::adaptive::{Intervals, PageStart, Rule};
use crate::core::policy::crawler_files::nutch::Nutch1564;
use crate::core::policy::crawler_files::nutch_hosts::{self, HostIntervals};
use crate::core::policy::crawler_files::nutch_mimes;
use crate::core::policy::crawler_files::tuning::{self, Objective, Typed};
use crate::core::policy::crawler_files::write::{self, Change};
use crate::core::policy::crawler_files::{self, Crawler, Loaded};
use crate::core::policy::crawler_files::{heritrix, heritrix_rules, heritrix_sheets, seed_metadata};
use crate::core::policy::fetch_list::FetchList;
use crate::core::policy::pushback::{Backoff, Reaction};
use crate::core::sim::freshness::{Account, Estimator};
use crate::core::sim::redrawn;
use crate::core::sim::request_cost::{repository_share, seconds_per_request};
use crate::core::units::Days;
use crate::experiments::Settings;
use serde::{Deserialize, Serialize};

takes_pages! {
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrawlersConfig {
    /// Whose configuration file it is (a file's own format must agree: a rule).
    pub crawler: Crawler = Crawler::Nutch; select("crawler");
    /// The crawler's configuration file's text (`--crawler-config FILE`); absent: the
    /// crawler's shipped defaults.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub crawler_config: Option<String> = None; internal;
    /// Nutch's `adaptive-host-specific-intervals.txt` (NUTCH-3029) text
    /// (`--host-intervals FILE`): each listed host's own bounds of the adaptive interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_intervals: Option<String> = None; internal;
    /// The host file's shape, in the page's form checks in place of its text (read once
    /// in the page's worker); a run needs the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host_shape: Option<Box<nutch_hosts::HostsShape>> = None; internal;
    /// Nutch's `adaptive-mimetypes.txt` text (`--mime-rates FILE`): MimeAdaptiveFetchSchedule's
    /// rates by a page's Content-Type (the page list's metadata).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mime_rates: Option<String> = None; internal;
    /// A seed list's text (`--seed-list FILE`, Nutch's Injector or StormCrawler's format):
    /// each page's `key=value` pairs, joined to the page list by page, in place of its
    /// `metadata` cell.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_list: Option<String> = None; internal;
    /// The seed list's shape, in the page's form checks in place of its text (read once in
    /// the page's worker: its size, pages and distinct pairs); a run needs the text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed_shape: Option<seed_list::SeedShape> = None; internal;
    /// Heritrix's overrides file, the one its configuration's PropertyOverrideConfigurer
    /// names as `location` (Java properties, `bean.property=value`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heritrix_overrides: Option<String> = None; internal;
    /// The estimate's pilot where servers have limits, as the page's worker ran it (its
    /// key and counts; [`pilot`]): the form's checks price the run with it, and without
    /// it until the worker answers (it takes milliseconds, too long for the page's main
    /// thread). Absent, the estimate runs it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limits_pilot: Option<pilot::LimitsPilot> = None; internal;
    /// Settings over the file (or the shipped defaults), each a name the crawler reads:
    /// `--set NAME=VALUE` on the command line, one field of the form and the link.
    pub crawler_settings: String = String::new();
        text("crawler settings over the file (name=value; …)").help("e.g. fetcher.server.delay=10; db.fetch.schedule.adaptive.max_interval=604800 — each setting the table under the chart lists; or as your crawler's command line gives them: Nutch's -D name=value (and its Generator's -topN N), Scrapy's -s NAME=VALUE");
    /// Nutch's AdaptiveFetchSchedule since NUTCH-1564's fix, or before it.
    pub nutch_1564: Nutch1564 = Nutch1564::Fixed; select("Nutch's sync delta");
    /// Nutch's batch cycle: generate, fetch and update every this many hours; a page
    /// due waits for the next cycle (0: fetched when due).
    pub nutch_cycle_hours: f64 = 0.0;
        number("Nutch: a crawl cycle every (hours; 0: continuous)").help("a page due is fetched in the next generate–fetch–update cycle").at_least(0.0).at_most(8760.0);
    /// Scrapy has no revisit rule of its own, nor Heritrix where its file reschedules
    /// nothing (no ReschedulingProcessor in its disposition chain): they recrawl every
    /// page this often.
    pub recrawl_days: Days = Days(30.0);
        number("recrawl every (days)").help("Scrapy, and Heritrix where its file's ReschedulingProcessor does not revisit: they have no revisit rule of their own").positive().at_most(3650.0);
    /// Every server's limits (issue 46: servers that push back).
    pub server_capacity: f64 = 0.0;
        number("server capacity (requests a second; 0: no limit)").help("over it a server refuses (its rate smoothed over a minute)").at_least(0.0).at_most(1e6);
    pub response_ms: f64 = 0.0;
        number("server response time when idle (ms)").help("grows as 1/(1 − load) toward capacity").at_least(0.0).at_most(600_000.0);
    pub crawl_delay_seconds: f64 = 0.0;
        number("robots.txt Crawl-delay (seconds; 0: none)").help("Nutch and StormCrawler skip a host asking more than their cap (StormCrawler waits the cap instead with fetcher.max.crawl.delay.force); a Crawl-delay shorter than the server delay is kept by StormCrawler, and by Nutch down to fetcher.min.crawl.delay").at_least(0.0).at_most(86_400.0);
    pub refusal: Refusal = Refusal::TooManyRequests; select("over capacity servers answer");
    pub retry_after: bool = true; bool("refusals carry Retry-After");
    /// MERGE's reaction to a server pushing back.
    pub merge_backoff: Backoff = Backoff::Freshlab;
        select("MERGE backs off by").help("Freshlab's rule, or Google's documented slow-down (server errors and slow answers lower a host's rate; Crawl-delay and Retry-After not read)");
    /// Under Freshlab's rule, MERGE's most load on a server, a share of its capacity:
    /// headroom that keeps its answers quick (at load ρ an answer takes base/(1 − ρ)).
    pub merge_load: f64 = 1.0;
        number("MERGE loads a server to at most (share of its capacity)").help("Freshlab's rule: at 0.8 an answer takes at most 5× the idle time, at 1 up to 20×").positive().at_most(1.0);
    /// Search the crawler's own settings for a configuration that keeps the pages
    /// fresher on no more requests, and re-simulate it (`--tuned FILE` writes it).
    pub tune: bool = false; bool("find a tuned configuration").help("tries the file's revisit settings one at a time (each a run), never more requests than as loaded");
    /// The freshness the tuning maximises: over the whole run, its cold start included,
    /// or once settled (the run's last quarter), as a crawl long running keeps it.
    pub tune_for: Objective = Objective::WholeRun;
        select("tune for").help("a new crawl: the whole run, its first weeks included; one long running: once settled");
    pub horizon_days: Days = Days(365.0); number("simulated days").positive().at_most(3650.0);
    pub bins: u64 = 100; integer("time bins of the freshness curves").count(10, 2000).why("more bins than pixels add nothing");
    pub seed: u64 = 1; seed();
}
}

/// Bytes per page: the repository (rate, weight, server) and the exact account (last
/// visit, first change), with the larger of the run's schedules: the crawler's, or
/// MERGE's allocation and order (the runs follow each other, each dropped at its end;
/// counting both at once was 1.95 times the peak of 1,000,000 pages, `npm run estimates`).
const BYTES_PER_PAGE: f64 = 16.0
    + Account::bytes_per_page(Estimator::Exact) as f64
    + max((crate::core::policy::adaptive::Adaptive::BYTES_PER_PAGE + crate::core::policy::adaptive::Adaptive::RETRY_BYTES_PER_PAGE) as f64, MERGE_BYTES_PER_PAGE);
const MERGE_BYTES_PER_PAGE: f64 = 40.0;
/// A page of a tuned seed list (Nutch's, StormCrawler's) beyond its name: a name's string
/// header (24), the interval's key and value (`\tnutch.fetchInterval.fixed=86400`, 32;
/// StormCrawler's shorter), its value (16, with "never") and a start's index (2).
const SEED_LINE_BYTES: f64 = 74.0;
/// A seed list given beside the page list, on top of the run's or the list's import's
/// peak: its text held about twice (the configuration's, the seeds read) and a little a
/// seed. Measured natively on 100,000 pages: 6.5 MB of seeds added 12.9 MB to the peak,
/// 8.8 MB added 17.6 MB (2.0 bytes a byte, nothing measurable a seed); counted as 2 and
/// 32 bytes a seed, the estimates are 1.07 of both peaks.
const SEED_INPUT_TEXTS: f64 = 2.0;
const SEED_INPUT_BYTES: f64 = 32.0;
/// A seed list's reading, a byte: a run reads it three times (its checks, its estimate,
/// the job; then joins it). Measured natively: 8.8 MB of seeds (100,000 pages) added
/// 0.36 s to `--estimate`'s three reads, 14 ns a byte each; the job's read and join
/// about as much again.
const SEED_SECONDS_PER_BYTE: f64 = 45e-9;
/// A server's step in a slice with nothing or little to do, on the reference machine
/// (measured on the sample hosts' tuning at two horizons: 28 ns on a host 1.75× slower).
const SECONDS_PER_SERVER_STEP: f64 = 16e-9;
/// A crawler's request against MERGE's (the policies experiment's, which the request
/// cost was measured on), both at the repository's size ([`repository_share`]: a small
/// repository's schedules stay in the cache): its rule, its server's answer and its
/// back-off on top. Adaptive Nutch on 1,000,000 pages (share 0.92) ran 1.85× its estimate
/// at 1; a tuning's candidates, measured apart on the sample hosts and the classroom
/// pages (3,000 and 10,000 pages, share 0.59), 0.88–1.00 without the share, 1.5–1.7 with
/// it. (Without the share, adaptive Nutch's sync-delta storm on 40,000 pages was
/// estimated at 2.19 times its time.)
const CRAWLER_REQUEST_COST: f64 = 1.7;
/// MERGE's requests over what its servers serve, at most, where it backs off from them
/// (its refusals and the cold start's: 1.04 after Scrapy on servers of one request in
/// 500 s, `the_estimate_follows_a_crawler_its_servers_hold_back`).
const MERGE_OVER_CAPACITY: f64 = 1.25;
/// A page due at a cycle's start, in the making of its fetch list: taken out of its
/// server's queue and put back, a draw among equal scores, its share of the sort.
/// Measured on the sample Nutch file with daily cycles (one thread, the run's time less
/// the estimate's other parts, over the estimate's list candidates, on a machine 1.13×
/// slower than the reference): 21 ns on the classroom pages with topN 300, 33 ns on
/// 50,000 pages with topN 1,000, 22 ns on 200,000 pages with 6-hour cycles and topN 3,000.
/// The estimate counts about twice the pages due the runs looked at (2.37 M against 1.33 M
/// on the first): some 40–60 ns a page looked at.
const SECONDS_PER_LIST_CANDIDATE: f64 = 30e-9;
/// The same where `generate.max.count` caps a host: the list is sorted whole to count
/// each host's. Measured as above: 58 ns on the classroom pages with 12-hour cycles and
/// a cap of 5, 59 ns on 50,000 pages on 5,000 servers with daily cycles and a cap of 2
/// (the estimate's pages due 1.11× and 1.06× those the runs looked at).
pub(super) const SECONDS_PER_SORTED_LIST_CANDIDATE: f64 = 60e-9;
/// A URL matched against one of Heritrix's decide-rule patterns (regex-lite's PikeVM):
/// measured 1.5 µs (0.75 s more for 500,000 URLs of about 45 bytes and one pattern, on
/// a machine 1.16× slower than the reference).
const SECONDS_PER_PATTERN_MATCH: f64 = 1.3e-6;
/// Bytes per server: its schedule, stream, politeness check, load, gate, answers and
/// fresh time in a run, and its tallies in the crawler's and MERGE's (the gap per server).
const SERVER_BYTES: f64 = 320.0;
/// The sets of limits a page list gives its servers that the estimate's pilot runs the
/// crawler against (those holding the most pages); the servers of others are counted at
/// what the intervals ask.
const PILOT_GROUPS: usize = 4;

const fn max(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

impl CrawlersConfig {
    /// The crawler's settings: its file read (or its shipped defaults), with the
    /// recrawl interval of a crawler without a revisit rule of its own.
    pub fn loaded(&self) -> Result<Loaded, InputError> {
        let mut loaded = self.loaded_from(self.crawler_config.as_deref())?;
        loaded.mime_rates = self.mime_rates(&loaded)?;
        Ok(loaded)
    }

    /// Nutch's rates by type (`adaptive-mimetypes.txt`) for the crawler as `loaded`;
    /// none without the file.
    fn mime_rates(&self, loaded: &Loaded) -> Result<Vec<nutch_mimes::MimeRates>, InputError> {
        let Some(text) = &self.mime_rates else { return Ok(Vec::new()) };
        let refuse = |why: &str| Err(InputError::new("mime_rates", why));
        if self.crawler != Crawler::Nutch {
            return refuse("is Nutch's adaptive-mimetypes.txt (MimeAdaptiveFetchSchedule's rates by type); choose crawler nutch or remove the file");
        }
        if !loaded.model.by_type {
            return refuse("gives MimeAdaptiveFetchSchedule's rates by type: set db.fetch.schedule.class to org.apache.nutch.crawl.MimeAdaptiveFetchSchedule, or remove the file");
        }
        nutch_mimes::read(text).map_err(|e| InputError::new("mime_rates", format!("({}) {e}", nutch_mimes::FILE_NAME)))
    }

    /// The seed list's pages (none without one): on a page list only, whose pages have
    /// URLs to join by. A run needs the text (its shape stands for it in checks only).
    pub fn seeds(&self) -> Result<Vec<seed_list::Seed>, InputError> {
        self.seeds_allowed()?;
        match &self.seed_list {
            Some(text) => seed_list::read(text).map_err(|e| InputError::new("seed_list", e)),
            None if self.seed_shape.is_some() => Err(InputError::new("seed_list", "a run needs the seed list itself; its shape stands for it in the form's checks only")),
            None => Ok(Vec::new()),
        }
    }

    /// A seed list (or its shape), if given, on a page list: the generated pages have no
    /// URLs to join it by.
    fn seeds_allowed(&self) -> Result<(), InputError> {
        if (self.seed_list.is_some() || self.seed_shape.is_some()) && self.source == RepositorySource::Generator {
            return Err(InputError::new("seed_list", "gives pages by URL, and the generated pages have none: load a page list whose page column holds your URLs"));
        }
        Ok(())
    }

    /// The seed list as the checks see it (None without one): its size, pages and
    /// distinct pairs, from its text or from the shape the page's worker read.
    pub fn seed_shape_of(&self) -> Result<Option<seed_list::SeedShape>, InputError> {
        self.seeds_allowed()?;
        match (&self.seed_list, &self.seed_shape) {
            (Some(_), Some(_)) => Err(InputError::new("seed_shape", "is given beside the seed list; it stands for a seed list left out of the page's checks, so remove it")),
            (Some(text), None) => crate::core::memo::read_once("seed shape", text, seed_list::SeedShape::of).map(Some).map_err(|e| InputError::new("seed_list", e)),
            (None, shape) => Ok(shape.clone()),
        }
    }

    /// The host file (or its shape) allowed beside the crawler as `loaded` and the pages:
    /// Nutch's AdaptiveFetchSchedule, on a page list naming hosts.
    fn hosts_allowed(&self, loaded: &Loaded) -> Result<(), InputError> {
        if self.host_intervals.is_none() && self.host_shape.is_none() {
            return Ok(());
        }
        let refuse = |why: &str| Err(InputError::new("host_intervals", why));
        if self.crawler != Crawler::Nutch {
            return refuse("is Nutch's adaptive-host-specific-intervals.txt (NUTCH-3029); choose crawler nutch or remove the file");
        }
        if loaded.model.intervals.rule != Rule::Nutch {
            return refuse("bounds AdaptiveFetchSchedule's intervals: set db.fetch.schedule.class to org.apache.nutch.crawl.AdaptiveFetchSchedule, or remove the file");
        }
        if self.source == RepositorySource::Generator {
            return refuse("names hosts, and the generated pages' servers have no host names: load a page list whose server column names your hosts");
        }
        Ok(())
    }

    /// The host file as the checks see it (None without one), from its text or from the
    /// shape the page's worker read, checked against the crawler as `loaded`.
    pub fn host_shape_of(&self, loaded: &Loaded) -> Result<Option<nutch_hosts::HostsShape>, InputError> {
        self.hosts_allowed(loaded)?;
        let hosts_error = |e: String| InputError::new("host_intervals", format!("({}) {e}", nutch_hosts::FILE_NAME));
        let shape = match (&self.host_intervals, &self.host_shape) {
            (Some(_), Some(_)) => {
                return Err(InputError::new("host_shape", "is given beside the host file; it stands for a host file left out of the page's checks, so remove it"));
            }
            (Some(text), None) => crate::core::memo::read_once("host shape", text, nutch_hosts::HostsShape::of).map_err(hosts_error)?,
            (None, Some(shape)) => {
                shape.consistent().map_err(|e| InputError::new("host_shape", e))?;
                shape.as_ref().clone()
            }
            (None, None) => return Ok(None),
        };
        let i = &loaded.model.intervals;
        shape.check(i).map_err(hosts_error)?;
        if let Some(m) = i.refetch_max.filter(|_| i.cycle == 0.0) {
            // the longest minimums first: those past db.fetch.interval.max lead them
            let past: Vec<(String, u64)> = shape.longest_mins.iter().filter(|&&(_, min, _)| min > m).map(|(host, _, line)| (host.clone(), *line)).collect();
            let all_shown = past.len() < nutch_hosts::LONGEST_LISTED || shape.hosts as usize == past.len();
            if !past.is_empty() {
                let count = if all_shown { past.len().to_string() } else { format!("{} or more", past.len()) };
                return Err(refetch_refusal(&count, &past, m, all_shown));
            }
        }
        Ok(Some(shape))
    }

    /// The hosts' own interval bounds (Nutch's `adaptive-host-specific-intervals.txt`)
    /// against the crawler as `loaded`, for a run; none without the file.
    pub fn host_bounds(&self, loaded: &Loaded) -> Result<Vec<HostIntervals>, InputError> {
        self.hosts_allowed(loaded)?;
        let Some(text) = &self.host_intervals else {
            return match self.host_shape {
                Some(_) => Err(InputError::new("host_intervals", "a run needs the host file itself; its shape stands for it in the form's checks only")),
                None => Ok(Vec::new()),
            };
        };
        let hosts = nutch_hosts::read(text, &loaded.model.intervals).map_err(|e| InputError::new("host_intervals", format!("({}) {e}", nutch_hosts::FILE_NAME)))?;
        let i = &loaded.model.intervals;
        if let Some(m) = i.refetch_max.filter(|_| i.cycle == 0.0) {
            let past: Vec<(String, u64)> = hosts.iter().filter(|h| h.min.is_some_and(|min| min > m)).map(|h| (h.host.clone(), h.line)).collect();
            if !past.is_empty() {
                return Err(refetch_refusal(&past.len().to_string(), &past[..past.len().min(nutch_hosts::LONGEST_LISTED)], m, past.len() <= nutch_hosts::LONGEST_LISTED));
            }
        }
        Ok(hosts)
    }

    /// `crawler_settings`, each a setting the crawler reads with a value it takes.
    pub fn overrides(&self) -> Result<Vec<Change>, InputError> {
        crawler_files::overrides(self.crawler, &self.crawler_settings).map_err(|e| InputError::new("crawler_settings", e))
    }

    /// `text` (None: the shipped defaults) with `crawler_settings` written over it, as
    /// the crawler would read it (each marked by a comment); `was`: a setting's value
    /// before.
    pub fn file_as_set(&self, text: Option<&str>, was: &dyn Fn(&str) -> String) -> Result<Option<String>, InputError> {
        let overrides = self.overrides()?;
        if overrides.is_empty() {
            return Ok(text.map(str::to_string));
        }
        write::write(self.crawler, text, &overrides, "set by crawler_settings", was).map(Some).map_err(|e| InputError::new("crawler_settings", e))
    }

    /// [`Self::loaded`] from `text` (None: the shipped defaults), with `crawler_settings`
    /// over it: each such setting marked `set`, the others where the file has them.
    pub fn loaded_from(&self, text: Option<&str>) -> Result<Loaded, InputError> {
        let file = self.read(text)?;
        let overrides = self.overrides()?;
        if overrides.is_empty() {
            return Ok(file);
        }
        let was = |name: &str| file.settings.iter().find(|s| s.name == name).map_or_else(|| "unset".into(), |s| s.value.clone());
        let written = self.file_as_set(text, &was)?;
        let mut loaded = self.read(written.as_deref()).map_err(|e| InputError::new("crawler_settings", e.message))?;
        for setting in &mut loaded.settings {
            if overrides.iter().any(|(name, _)| *name == setting.name) {
                (setting.set, setting.from_file, setting.line) = (true, false, None);
            } else if let Some(before) = file.settings.iter().find(|s| s.name == setting.name) {
                (setting.from_file, setting.line) = (before.from_file, before.line);
            }
        }
        loaded.ignored = file.ignored;
        Ok(loaded)
    }

    /// `text` (None: the shipped defaults) as the crawler reads it: the loaded file, or a
    /// candidate of the tuning (written with `crawler_settings` already).
    pub fn read(&self, text: Option<&str>) -> Result<Loaded, InputError> {
        let mut loaded = match text {
            Some(text) => {
                let found = crawler_files::detect(text);
                if let Some(found) = found.filter(|&f| f != self.crawler) {
                    return Err(InputError::new(
                        "crawler",
                        format!(
                            "is {} but the configuration file is {}'s; set crawler to {}",
                            self.crawler.label(),
                            found.label(),
                            serde_json::to_value(found).unwrap_or_default().as_str().unwrap_or("")
                        ),
                    ));
                }
                match self.located(text)? {
                    Some((name, located)) => crawler_files::read_beside(self.crawler, text, Some((&name, located)), ["crawler_config", "heritrix_overrides"])?,
                    None => crawler_files::read(self.crawler, text, "crawler_config")?,
                }
            }
            None => crawler_files::shipped(self.crawler),
        };
        if self.crawler == Crawler::Nutch {
            loaded.model.intervals.keeps_ahead = self.nutch_1564 == Nutch1564::Fixed;
            loaded.model.intervals.cycle = self.nutch_cycle_hours / 24.0;
            if let Reaction::Nutch { cycle_days, .. } = &mut loaded.model.reaction {
                *cycle_days = self.nutch_cycle_hours / 24.0;
            }
        }
        // Scrapy has no revisit of its own, nor Heritrix where its file reschedules nothing
        let revisits = self.crawler == Crawler::Heritrix && loaded.model.intervals.min < heritrix::NO_REVISIT_DAYS;
        if matches!(self.crawler, Crawler::Heritrix | Crawler::Scrapy) && !revisits {
            let i = &mut loaded.model.intervals;
            (i.initial, i.min, i.max) = (self.recrawl_days.0, self.recrawl_days.0, self.recrawl_days.0);
            // a refused page, past Scrapy's retries, waits for its next recrawl
            loaded.model.retry_days = self.recrawl_days.0;
        }
        Ok(loaded)
    }

    /// Heritrix's overrides file beside the configuration `text`, with the name its
    /// `location` gives it (None: no file given); refused where Heritrix would not read
    /// it, naming the fix.
    fn located<'a>(&'a self, text: &str) -> Result<Option<(String, &'a str)>, InputError> {
        let Some(located) = self.heritrix_overrides.as_deref() else { return Ok(None) };
        let refuse = |why: String| InputError::new("heritrix_overrides", why);
        if self.crawler != Crawler::Heritrix {
            return Err(refuse("is Heritrix's overrides file (a PropertyOverrideConfigurer's location); choose crawler heritrix or remove the file".into()));
        }
        let location = heritrix::location(text).map_err(|e| InputError::new("crawler_config", e))?.ok_or_else(|| {
            refuse("is an overrides file, but the crawler-beans.cxml names none (no PropertyOverrideConfigurer with a location): add one, paste its lines into the overrides' <value>, or remove the file".into())
        })?;
        heritrix::located_pairs(located).map_err(|e| refuse(format!("({location}) {e}")))?;
        let name = location.rsplit(['/', '\\', ':']).next().unwrap_or(&location).to_string();
        Ok(Some((name, located)))
    }

    /// Every server's limits, as set.
    pub fn host(&self) -> Host {
        Host {
            crawl_delay_s: self.crawl_delay_seconds,
            capacity: if self.server_capacity > 0.0 { self.server_capacity } else { f64::INFINITY },
            response_s: self.response_ms / 1000.0,
        }
    }

    pub fn refusals(&self) -> Refusals {
        Refusals { status: self.refusal, retry_after: self.retry_after }
    }

    pub fn politeness_days(&self, loaded: &Loaded) -> f64 {
        loaded.model.politeness_s() / 86_400.0
    }

    /// Requests the crawler makes, about: from a cold start every page once, then (an
    /// adaptive rule) about λ/0.92 a day a page — where about 60 % of its fetches find a
    /// change, as Nutch's and StormCrawler's rates balance — plus the fetches the rule
    /// makes of a page that never changes, its ramp from the first interval
    /// ([`crate::core::policy::adaptive::Intervals::unchanged_fetches`]), or (a fixed
    /// rule) once an interval; at most one every P a server (`sizes`: the servers' pages,
    /// when known).
    pub fn requests(&self, loaded: &Loaded, mix: &[(Option<PageStart>, f64)], pages: f64, servers: f64, rates: &RateBins, sizes: Option<&[f64]>) -> f64 {
        self.requests_and_seconds(loaded, mix, pages, servers, rates, sizes).0
    }

    /// [`Self::start_mix`] of a page list's `shape` with the seed list's pairs: the
    /// seeds' kinds for as many pages, the list's own kinds for the rest, each in its
    /// share (the join by page is the run's).
    fn start_mix_with_seeds(&self, loaded: &Loaded, shape: &page_list::ListShape, seeds: Option<&seed_list::SeedShape>, pages: u64) -> Vec<(Option<PageStart>, f64)> {
        let Some(seeds) = seeds.filter(|s| s.seeds > 0) else {
            return self.start_mix(loaded, shape.metadata.iter().map(|(k, n)| (k.as_str(), *n as f64)), shape.metadata_other as f64);
        };
        let rest = pages.saturating_sub(seeds.seeds) as f64 / pages.max(1) as f64;
        let tally = &seeds.kinds;
        let listed = shape.metadata.iter().map(|(k, n)| (k.as_str(), *n as f64 * rest));
        // a list without metadata: its other pages are of kind none
        let none = if shape.metadata.is_empty() { Some(("", pages as f64 * rest)) } else { None };
        let seeded = tally.iter().map(|(k, n)| (k.as_str(), *n as f64));
        self.start_mix(loaded, listed.chain(none).chain(seeded), shape.metadata_other as f64 * rest)
    }

    /// The pages' own starts (their metadata's custom intervals) with each one's share of
    /// the pages, from the kinds of metadata and their pages (`other`: pages of kinds not
    /// known, counted at the start that asks the most). Empty: every page the rule's.
    pub fn start_mix<'a>(&self, loaded: &Loaded, kinds: impl Iterator<Item = (&'a str, f64)>, other: f64) -> Vec<(Option<PageStart>, f64)> {
        // each distinct start once (a tuned seed list gives thousands)
        let mut table = seed_metadata::StartTable::default();
        let mut counts: Vec<f64> = Vec::new();
        let mut other = other;
        for (kind, n) in kinds {
            let start = seed_metadata::start_of(loaded, &loaded.model, kind).unwrap_or(None);
            match table.index(start).map(usize::from) {
                Some(k) if k < counts.len() => counts[k] += n,
                Some(_) => counts.push(n),
                None => other += n,
            }
        }
        let mut mix: Vec<(Option<PageStart>, f64)> = table.starts.into_iter().zip(counts).collect();
        if mix.iter().all(|(s, _)| s.is_none()) {
            return Vec::new();
        }
        if other > 0.0 {
            let horizon = self.horizon_days.0;
            let asks = |s: &Option<PageStart>| loaded.model.intervals.unchanged_fetches_from(*s, horizon);
            if let Some(most) = mix.iter_mut().max_by(|a, b| asks(&a.0).total_cmp(&asks(&b.0))) {
                most.1 += other;
            }
        }
        let total: f64 = mix.iter().map(|(_, n)| n).sum();
        mix.iter_mut().for_each(|(_, n)| *n /= total.max(1.0));
        mix
    }

    /// [`Self::requests`], and their native time on one thread: each server's requests at
    /// the policies experiment's measured cost of a request on a server of its size (a
    /// larger server's pages fall out of the cache). A crawler's request (an adaptive
    /// step, the server's answer, the exact account) measured 0.6–1.4 times that
    /// (estimate ÷ time 0.7–1.7: StormCrawler on 2,000 servers of 10 pages, the fuzz
    /// campaign's case 12,838; Nutch on 1,000,000 pages and 20,000 servers; 200,000 pages
    /// on 200 servers; Scrapy on 100,000 pages). One 0.2 µs a request, before, put case
    /// 12,838 at 2.9 s against 1.1 s.
    fn requests_and_seconds(&self, loaded: &Loaded, mix: &[(Option<PageStart>, f64)], pages: f64, servers: f64, rates: &RateBins, sizes: Option<&[f64]>) -> (f64, f64) {
        let asked = self.asked(loaded, mix, pages, rates);
        let seconds = |n: f64| asked(n) * seconds_per_request(n);
        match sizes {
            Some(sizes) if !sizes.is_empty() => sizes.iter().fold((0.0, 0.0), |(r, t), &n| (r + asked(n), t + seconds(n))),
            _ => {
                let n = pages / servers.max(1.0);
                (asked(n) * servers, seconds(n) * servers)
            }
        }
    }

    /// What the crawler's intervals ask of a server of n pages over the horizon (see
    /// [`Self::requests`]), its pages' own starts in their shares (`mix`), `rates` their
    /// change rates.
    fn asked(&self, loaded: &Loaded, mix: &[(Option<PageStart>, f64)], pages: f64, rates: &RateBins) -> impl Fn(f64) -> f64 + use<> {
        let i = loaded.model.intervals;
        let horizon = self.horizon_days.0;
        // Nutch's sync delta (Freshlab's reading of NUTCH-1564's fix, or before it): a
        // page unchanged for `quiet` days, (max − min) / sync_delta_rate, is refetched
        // at every chance until it changes — the fetches the rule without sync delta
        // does not make. A page of rate λ is so for about e^(−λ·quiet) of its days
        // (its rate's octave spread evenly in log rate); every page had been
        // counted as one that never changes, 17 times the requests of a file with a
        // 14-day longest interval
        let unsynced = Intervals { sync_delta_rate: None, ..i };
        let (quiet, storm_share) = match i.sync_delta_rate {
            Some(rate) if i.rule == Rule::Nutch && rate > 0.0 => {
                let quiet = (i.max - i.min).max(0.0) / rate;
                (quiet, rates.mean_within_octaves(pages, |lambda| exp(-lambda * quiet)))
            }
            _ => (0.0, 1.0),
        };
        let in_storm = if horizon > quiet { horizon / (horizon - quiet) } else { 1.0 };
        let ramp = move |start: Option<PageStart>| {
            let with = (i.unchanged_fetches_from(start, horizon) - 1.0).max(0.0) / horizon;
            let without = (unsynced.unchanged_fetches_from(start, horizon) - 1.0).max(0.0) / horizon;
            without.min(with) + (with - without).max(0.0) * in_storm * storm_share
        };
        // a fixed rule's fetches (or a page's fixed interval's) do not depend on changes:
        // the rule's own count (Nutch's forced refetch past db.fetch.interval.max included)
        // a Nutch host's shortest interval past db.fetch.interval.max: a refetch of each
        // page every cycle (without cycles, a tuning's candidate: every 0.9 × the maximum)
        let past_max = i.refetch_max.filter(|&m| i.min > m).map(|m| if i.cycle > 0.0 { i.cycle } else { 0.9 * m });
        // a changing page's fetches: where its interval settles shorter than the first,
        // its walk down to it (`Intervals::fetches_walking_to`; the first gap kept, then
        // within the bounds) beyond an unchanged page's, since over a horizon a few first
        // intervals long it is still walking (counted as settled from the start, Nutch's
        // adaptive rule, 30 days first, over 60 days had been priced at 4.4 times its
        // requests: 40,000 pages of 0.5 changes a day); else where it settles
        let walking = move |start: Option<PageStart>| {
            let own = match start {
                Some(s) if s.initial > 0.0 => Intervals { initial: s.initial, inc_rate: s.rates.map_or(i.inc_rate, |r| r[0]), dec_rate: s.rates.map_or(i.dec_rate, |r| r[1]), ..i },
                _ => i,
            };
            let longest = own.max.min(own.refetch_max.unwrap_or(f64::INFINITY)).max(own.min);
            let begun = Intervals { initial: own.initial.clamp(own.min, longest), ..own };
            let fetches = |settled: f64| match horizon - own.initial {
                _ if begun.initial == own.initial => own.fetches_walking_to(settled, horizon),
                after if after > 0.0 => 1.0 + begun.fetches_walking_to(settled, after),
                _ => 1.0,
            };
            let still = fetches(own.settled_interval(0.0));
            let per_day = |rate: f64| match own.settled_interval(rate) {
                settled if settled < begun.initial => (fetches(settled) - still).max(0.0) / horizon,
                _ => rate / own.settled_changes(),
            };
            rates.groups().map(|(rate, n)| n * per_day(rate)).sum::<f64>() / pages.max(1.0)
        };
        let per_page = |start: Option<PageStart>| {
            if let Some(every) = past_max {
                1.0 / every
            } else if i.rule == Rule::Fixed || start.is_some_and(|s| s.fixed) {
                ramp(start)
            } else {
                (walking(start) + ramp(start)).min(1.0 / i.min)
            }
        };
        let per_page_day = if mix.is_empty() { per_page(None) } else { mix.iter().map(|&(start, share)| share * per_page(start)).sum() };
        let p = self.politeness_days(loaded);
        move |n: f64| {
            let wanted = n * (1.0 + per_page_day * horizon);
            if p > 0.0 { (horizon / p + n).min(wanted) } else { wanted }
        }
    }

    /// Nutch's fetch lists (generate.topN, generate.max.count) in a run of `loaded`
    /// making `requests` (its retries `retries` a request): a run with cycles makes at
    /// most topN requests a cycle (and its retries); each cycle's list goes over the
    /// pages due, a backlog where a cap holds the crawler back (the pages' share its
    /// intervals ask beyond it). A run without cycles or caps has no lists.
    fn fetch_lists(
        &self,
        loaded: &Loaded,
        mix: &[(Option<PageStart>, f64)],
        [pages, servers]: [f64; 2],
        rates: &RateBins,
        sizes: Option<&[f64]>,
        [requests, retries]: [f64; 2],
    ) -> Lists {
        let i = &loaded.model.intervals;
        let cycles = self.crawler == Crawler::Nutch && i.cycle > 0.0 && (i.top_n > 0 || i.per_cycle > 0);
        if !cycles {
            return Lists { cycles: 0.0, listed: 1.0, seconds: 0.0 };
        }
        let cycle_count = (self.horizon_days.0 / i.cycle).ceil();
        let asked = requests / cycle_count;
        let (host_listed, host_due) = match i.per_cycle > 0 {
            true => self.host_capped(loaded, mix, [pages, servers], rates, sizes, [asked, i.per_cycle as f64 * (1.0 + retries)]),
            false => (asked, asked),
        };
        let top_n = if i.top_n > 0 { i.top_n as f64 * (1.0 + retries) } else { f64::INFINITY };
        let top_n_due = if top_n < asked { pages * (1.0 - top_n / asked) + top_n } else { asked };
        let per_candidate = if i.per_cycle > 0 { SECONDS_PER_SORTED_LIST_CANDIDATE } else { SECONDS_PER_LIST_CANDIDATE };
        Lists {
            cycles: cycle_count,
            listed: (host_listed.min(top_n) / asked.max(1e-300)).min(1.0),
            seconds: cycle_count * host_due.max(top_n_due) * per_candidate + cycle_count * servers * SECONDS_PER_SERVER_STEP,
        }
    }

    /// [`host_capped_lists`] for this configuration's hosts (the servers' sizes, or as
    /// many of the mean size): `asked` a cycle, at most `cap` a host.
    fn host_capped(
        &self,
        loaded: &Loaded,
        mix: &[(Option<PageStart>, f64)],
        [pages, servers]: [f64; 2],
        rates: &RateBins,
        sizes: Option<&[f64]>,
        [asked, cap]: [f64; 2],
    ) -> (f64, f64) {
        let ask = self.asked(loaded, mix, pages, rates);
        match sizes {
            Some(sizes) if !sizes.is_empty() => host_capped_lists(&ask, sizes, 1.0, asked, cap),
            _ => host_capped_lists(&ask, &[pages / servers.max(1.0)], servers, asked, cap),
        }
    }

    /// What Heritrix's sheets' revisits (`rescheduler.rescheduleDelaySeconds`) ask beyond
    /// the crawl's own, and its time ([`Self::asked`]; fewer where a sheet revisits
    /// later): where the page list's text is at hand (the command line, the page's
    /// worker), each host's pages under such a sheet counted together at its revisit —
    /// the pages by their URLs where a sheet over a path or by decide rules sets one, else
    /// the host's; with its shape only (the page's form checks), there the shares of its
    /// sample's pages at each revisit taken of every server's pages, else each sheet
    /// setting one counted as one host, the k-th as the k-th largest server (`sizes`).
    fn sheet_revisit_requests(&self, loaded: &Loaded, mix: &[(Option<PageStart>, f64)], pages: f64, rates: &RateBins, sizes: Option<&[f64]>) -> (f64, f64) {
        let revisits = |m: &crawler_files::Model| m.intervals.min.to_bits();
        let own = revisits(&loaded.model);
        let sets_revisit = |r: &heritrix_sheets::SheetRule| r.sets(heritrix::RESCHEDULE);
        if !loaded.sheets.iter().any(sets_revisit) {
            return (0.0, 0.0);
        }
        let plain = self.asked(loaded, mix, pages, rates);
        let mut sheeted = Loaded { settings: Vec::new(), ignored: Vec::new(), ..loaded.clone() };
        // hosts of the same revisit ask alike: each reckoned once
        let mut by_revisit: std::collections::HashMap<u64, Asked> = std::collections::HashMap::new();
        let (mut requests, mut seconds) = (0.0, 0.0);
        // `times` hosts of `n` pages at `model`'s revisit
        let mut count = |model: &crawler_files::Model, n: f64, times: f64| {
            let asked = by_revisit.entry(revisits(model)).or_insert_with(|| {
                sheeted.model.intervals = model.intervals;
                Box::new(self.asked(&sheeted, mix, pages, rates))
            });
            let more = times * (asked(n) - plain(n));
            (requests, seconds) = (requests + more, seconds + more * seconds_per_request(n));
        };
        // each host's pages by the revisit their sheets give (in order: the same sum on
        // every run), each set of sheets laid once; a page whose name is not an http(s)
        // URL is its host's root, as in the run
        let prefixes = heritrix_sheets::Prefixes::of(&loaded.sheets);
        let of_host = |host: &str| prefixes.matching(&heritrix_sheets::host_surt(host), &heritrix_sheets::host_root_url(host));
        let of_page = |host: &str, page: &str| heritrix_sheets::url_surt(page).map_or_else(|| of_host(host), |surt| prefixes.matching(&surt, page));
        let mut laid: std::collections::HashMap<Vec<usize>, Option<crawler_files::Model>> = std::collections::HashMap::new();
        let mut sheeted_revisit = |set: Vec<usize>| {
            laid.entry(set)
                .or_insert_with_key(|set| heritrix_sheets::overlay(&set.iter().map(|&k| &loaded.sheets[k]).collect::<Vec<_>>(), &loaded.model).ok())
                .filter(|m| revisits(m) != own)
        };
        let mut groups: std::collections::BTreeMap<(String, u64), (crawler_files::Model, u64)> = std::collections::BTreeMap::new();
        let mut add = |host: &str, set: Vec<usize>, n: u64| {
            if let Some(model) = sheeted_revisit(set) {
                groups.entry((host.to_ascii_lowercase(), revisits(&model))).or_insert((model, 0)).1 += n;
            }
        };
        let by_page = loaded.sheets.iter().any(|r| heritrix_sheets::sets_pages_apart(r) && sets_revisit(r));
        let listed = if by_page {
            self.pages().each_server_page(|host, page| add(host, of_page(host, page), 1))
        } else {
            self.pages().server_pages().map(|pages_of| pages_of.into_iter().for_each(|(host, n)| add(&host, of_host(&host), n))).is_some()
        };
        for (model, n) in groups.values() {
            count(model, *n as f64, 1.0);
        }
        // (a generated repository's servers have no names: no sheet applies)
        let sample = if listed || !by_page { Vec::new() } else { self.pages().list_shape().map_or_else(Vec::new, |shape| shape.sample) };
        if !sample.is_empty() {
            // with the list's shape only, its sample's shares: the pages of each revisit
            // a sampled page gets, that share of every server's pages (of each size)
            let mut shares: std::collections::BTreeMap<u64, (crawler_files::Model, f64)> = std::collections::BTreeMap::new();
            for (host, page) in &sample {
                if let Some(model) = sheeted_revisit(of_page(host, page)) {
                    shares.entry(revisits(&model)).or_insert((model, 0.0)).1 += 1.0 / sample.len() as f64;
                }
            }
            let servers = self.pages().shape().1.max(1) as f64;
            for (model, share) in shares.values() {
                match sizes.filter(|s| !s.is_empty()) {
                    Some(sizes) => sizes.iter().for_each(|n| count(model, share * n, 1.0)),
                    // (servers past those the shape sizes: all alike)
                    None => count(model, share * pages / servers, servers),
                }
            }
        } else if !listed && self.source == RepositorySource::PageList {
            for (k, rule) in loaded.sheets.iter().filter(|r| sets_revisit(r)).enumerate() {
                let n = sizes.map_or(pages / self.pages().shape().1.max(1) as f64, |s| s.get(k).copied().unwrap_or(0.0));
                if let Some(model) = heritrix_sheets::overlay(&[rule], &loaded.model).ok().filter(|m| revisits(m) != own) {
                    count(&model, n, 1.0);
                }
            }
        }
        (requests, seconds)
    }

    /// What a Nutch host file's own bounds ask beyond the rule's, and its time, each host
    /// at its own bounds ([`Self::asked`]): with the file's and the page list's texts at
    /// hand (the command line, the page's worker), each host at its server's pages (a
    /// host no page is on asks nothing); with their shapes only (the page's form checks),
    /// the k-th host listed counted as the k-th largest server (an upper bound: exact
    /// where, as such files do, it lists the busy hosts).
    fn host_file_requests(&self, loaded: &Loaded, mix: &[(Option<PageStart>, f64)], [pages, servers]: [f64; 2], rates: &RateBins, sizes: Option<&[f64]>) -> (f64, f64) {
        let plain = self.asked(loaded, mix, pages, rates);
        let mut bounded = Loaded { settings: Vec::new(), ignored: Vec::new(), ..loaded.clone() };
        let (mut requests, mut seconds) = (0.0, 0.0);
        let global = loaded.model.intervals;
        // the file read once here (its checks read it in `rules`), not its shape besides
        let named = match (self.hosts_allowed(loaded), self.host_intervals.as_deref()) {
            (Ok(_), Some(text)) => nutch_hosts::read(text, &global).ok().and_then(|listed| Some((listed, self.pages().server_pages()?))),
            _ => None,
        };
        if let Some((listed, pages_of)) = named {
            // hosts of the same bounds ask alike: each pair reckoned once
            let mut by_bounds: std::collections::HashMap<(Option<u64>, Option<u64>), Asked> = std::collections::HashMap::new();
            for host in &listed {
                let n = pages_of.get(&host.host).copied().unwrap_or(0) as f64;
                if n == 0.0 {
                    continue;
                }
                let asked = by_bounds.entry((host.min.map(f64::to_bits), host.max.map(f64::to_bits))).or_insert_with(|| {
                    bounded.model.intervals = host.bound(global);
                    Box::new(self.asked(&bounded, mix, pages, rates))
                });
                let more = (asked(n) - plain(n)).max(0.0);
                (requests, seconds) = (requests + more, seconds + more * seconds_per_request(n));
            }
            return (requests, seconds);
        }
        let shape = match self.host_shape_of(loaded) {
            Ok(Some(shape)) if shape.hosts > 0 => shape,
            _ => return (0.0, 0.0),
        };
        let sizes = sizes.filter(|s| !s.is_empty());
        // hosts of the same bounds ask alike: each of the file's first pairs of bounds
        // reckoned once, and the others at the shortest bounds among them (an upper
        // bound); the k-th host counted as the k-th largest server
        let mut by_pair: Vec<Option<Asked>> = (0..=shape.pairs.len()).map(|_| None).collect();
        let mut extra = |index: usize, n: f64| {
            let asked = by_pair[index].get_or_insert_with(|| {
                let (min, max) = shape.estimated(index, &global);
                bounded.model.intervals = HostIntervals { host: String::new(), min, max, line: 0 }.bound(global);
                Box::new(self.asked(&bounded, mix, pages, rates))
            });
            (asked(n) - plain(n)).max(0.0)
        };
        let listed = (shape.hosts as usize).min(servers as usize);
        let size = |k: usize| sizes.map_or(pages / servers.max(1.0), |s| s.get(k).copied().unwrap_or(0.0));
        for k in 0..listed.min(shape.pair_of.len()) {
            let (n, more) = (size(k), extra(shape.pair_index(k).unwrap_or(shape.pairs.len()), size(k)));
            (requests, seconds) = (requests + more, seconds + more * seconds_per_request(n));
        }
        // past the hosts in order (past a page list's sizes too: every server at the mean
        // size), each pair by its share of the hosts after them
        let (past, after) = (listed.saturating_sub(shape.pair_of.len()), shape.after.iter().sum::<u64>());
        if past > 0 && after > 0 {
            let n = size(shape.pair_of.len());
            for (index, &count) in shape.after.iter().enumerate().filter(|(_, c)| **c > 0) {
                let more = past as f64 * count as f64 / after as f64 * extra(index, n);
                (requests, seconds) = (requests + more, seconds + more * seconds_per_request(n));
            }
        }
        (requests, seconds)
    }

    /// The crawler's requests in one run, and their time, where servers have limits (a
    /// capacity, a Crawl-delay or a response time: the settings', or a page list's per
    /// server): by the pilot, which runs the crawler against them, on the
    /// [`PILOT_GROUPS`] sets of limits that hold the most pages; the servers of any
    /// other set, and those without limits, are counted at what the intervals ask (an
    /// upper bound). None without limits, or with a page list that may give limits but
    /// whose shape does not group them (over 20,000 servers): the intervals' estimate
    /// then bounds it.
    fn under_limits(&self, reckoned: &Reckoned, fly: &mut dyn FnMut(&pilot::Inputs) -> Option<pilot::Pilot>) -> Option<pilot::Pilot> {
        let Reckoned { loaded, mix, shape, rates, sizes, .. } = reckoned;
        let (loaded, shape, sizes) = (loaded, shape.as_ref(), sizes.as_deref());
        let [pages, servers] = [reckoned.pages as f64, reckoned.servers as f64];
        let set = self.host();
        // (the cost is asked before the checks: a pilot runs on a valid configuration
        // only, every field within its range: the fuzz campaign's 2^64 pages on one
        // server asked the pilot for 14 PB)
        if self.validate().is_err() {
            return None;
        }
        let r = &self.repository;
        let page_rates = match self.source {
            RepositorySource::Generator => pilot::PageRates::Law { never_changing: r.never_changing, min: r.rate_min, max: r.rate_max, exponent: r.rate_exponent },
            RepositorySource::PageList => pilot::PageRates::Mean(rates.sum / pages.max(1.0)),
        };
        let asked = self.asked(loaded, mix, pages, rates);
        if self.list_may_limit() {
            let groups = shape.map(|s| &s.limits[..]).filter(|g| !g.is_empty())?;
            let (mut piloted, mut requests, mut seconds) = (Vec::new(), 0.0, 0.0);
            for (k, group) in groups.iter().enumerate() {
                let host = group.limits.over(set);
                if k < PILOT_GROUPS && limited(&host) {
                    piloted.push((host, &group.sizes[..]));
                    continue;
                }
                for &n in &group.sizes {
                    (requests, seconds) = (requests + asked(n), seconds + asked(n) * seconds_per_request(n));
                }
            }
            if !piloted.is_empty() {
                let flown = fly(&pilot::Inputs::of(self, loaded, &piloted, page_rates, &asked))?;
                (requests, seconds) = (requests + flown.requests, seconds + flown.seconds);
            }
            return Some(pilot::Pilot { requests, seconds });
        }
        if !limited(&set) {
            return None;
        }
        match sizes {
            Some(sizes) if !sizes.is_empty() => fly(&pilot::Inputs::of(self, loaded, &[(set, sizes)], page_rates, &asked)),
            _ => {
                let one = fly(&pilot::Inputs::of(self, loaded, &[(set, &[pages / servers.max(1.0)])], page_rates, &asked))?;
                Some(pilot::Pilot { requests: one.requests * servers, seconds: one.seconds * servers })
            }
        }
    }

    /// Whether a server may have a capacity: one set for all, or a page list whose
    /// header, rows or shape give one (the estimate then counts the tuning's gap knob).
    /// Any page list counted, Heritrix's tuning of my list without limits was priced at
    /// 12.5 runs where it made 2.
    pub fn may_push_back(&self) -> bool {
        self.server_capacity > 0.0 || self.list_may_give(&[CAPACITY])
    }

    /// Whether a page list may give servers' limits.
    fn list_may_limit(&self) -> bool {
        self.list_may_give(&[CRAWL_DELAY, CAPACITY, RESPONSE_MS])
    }

    /// Whether a page list may give a server one of `limits`: its header names the
    /// column, its rows give one, or its shape says some server has one (or cannot say:
    /// a shape keeps no limits beyond [`page_list::SHAPE_SIZES`] servers).
    fn list_may_give(&self, limits: &[Limit]) -> bool {
        if self.source != RepositorySource::PageList {
            return false;
        }
        match (&self.page_list, &self.page_rows) {
            (Some(text), _) => text.lines().next().is_some_and(|header| limits.iter().any(|l| header.contains(l.column))),
            (None, Some(rows)) => rows.iter().any(|r| limits.iter().any(|l| (l.in_row)(r))),
            (None, None) => self
                .page_list_shape
                .as_ref()
                .is_none_or(|shape| shape.gives_limits && (shape.limits.is_empty() || shape.limits.iter().any(|g| limits.iter().any(|l| (l.of_server)(&g.limits))))),
        }
    }

    /// What the estimate reads of the pages and the crawler's files, once.
    fn reckoned(&self) -> Reckoned {
        let (pages, servers) = self.pages().shape();
        let shape = self.pages().list_shape();
        let rates = shape.as_ref().map_or_else(|| self.repository.rate_bins(pages), |s| s.rates.clone());
        let mut loaded = self.loaded().unwrap_or_else(|_| crawler_files::shipped(self.crawler));
        // Heritrix's sheets: every host counted at the fastest spacing a sheet gives
        loaded.model = heritrix_sheets::fastest(&loaded.sheets, &loaded.model);
        let sizes = self.sizes(shape.as_ref());
        // the seed list read once (its text, or its shape from the page's worker)
        let seeds = self.seed_shape_of().ok().flatten();
        let mix = shape.as_ref().map_or_else(Vec::new, |s| self.start_mix_with_seeds(&loaded, s, seeds.as_ref(), pages));
        Reckoned { loaded, mix, shape, rates, sizes, pages, servers, seeds }
    }

    /// The servers' sizes, largest first: the generator's law, or a page list's shape.
    fn sizes(&self, shape: Option<&ListShape>) -> Option<Vec<f64>> {
        match self.source {
            RepositorySource::Generator => law_sizes_for_estimate(&self.repository),
            RepositorySource::PageList => shape.map(|s| s.sizes.clone()).filter(|s| !s.is_empty()),
        }
    }
}

/// What the estimate reads of the pages and the crawler's files: the crawler as loaded
/// (every host at the fastest spacing a Heritrix sheet gives), its pages' start mix, the
/// page list's shape, the rates, the servers' sizes, pages and servers, the seed list's shape.
struct Reckoned {
    loaded: Loaded,
    mix: Vec<(Option<PageStart>, f64)>,
    shape: Option<ListShape>,
    rates: RateBins,
    sizes: Option<Vec<f64>>,
    pages: u64,
    servers: u64,
    seeds: Option<seed_list::SeedShape>,
}

/// Whether servers of these limits may hold a crawler back (a capacity, a Crawl-delay or
/// a response time).
fn limited(host: &Host) -> bool {
    host.capacity.is_finite() || host.crawl_delay_s > 0.0 || host.response_s > 0.0
}

impl Settings for CrawlersConfig {
    /// The page's run over its estimate, against the command line's run over its own, on
    /// the same configuration (headless Chromium, 2026-12-06): 1.16 (Nutch's shipped file
    /// tuned on the classroom pages), 1.16 (Scrapy on 200,000 generated pages), 1.22
    /// (StormCrawler on 100,000), 1.27 (Heritrix on 200,000), 1.35 (Nutch on 300,000 on
    /// 3,000 servers). Beside them the learning experiment's was 0.97, bursty's 1.05 and
    /// 1.14: the probe speaks for those.
    const WASM_SLOWDOWN: f64 = 1.2;

    fn rules(&self) -> Result<(), InputError> {
        self.pages().validate()?;
        if self.server_capacity > 0.0 && self.server_capacity < MIN_CAPACITY {
            return Err(InputError::new(
                "server_capacity",
                format!(
                    "is {} requests a second: a server that slow refuses nearly every request; give at least {MIN_CAPACITY} (about one a day), or 0 for no limit",
                    self.server_capacity
                ),
            ));
        }
        if self.heritrix_overrides.is_some() && self.crawler_config.is_none() {
            return Err(InputError::new(
                "heritrix_overrides",
                "is an overrides file, and no crawler-beans.cxml is loaded to name it: load the configuration whose PropertyOverrideConfigurer gives it as location",
            ));
        }
        if self.crawler_config.as_ref().is_some_and(|t| t.len() > crawler_files::MAX_BYTES) {
            return Err(InputError::new("crawler_config", format!("is over the {} KB a crawler's configuration may have", crawler_files::MAX_BYTES >> 10)));
        }
        if self.merge_load < 1.0 && self.merge_backoff != Backoff::Freshlab {
            return Err(InputError::new(
                "merge_load",
                format!("is {}, but Google's slow-down reads no capacity to keep a share of: set it to 1, or let MERGE back off by Freshlab's rule", self.merge_load),
            ));
        }
        self.seed_shape_of()?;
        if let Some(pilot) = &self.limits_pilot {
            pilot.check()?;
        }
        let loaded = self.loaded()?;
        // a setting given over the file that the file would not run (Heritrix's revisit
        // without its ReschedulingProcessor in the disposition chain)
        if let Some(s) = loaded.settings.iter().find(|s| s.set && s.aside) {
            return Err(InputError::new("crawler_settings", format!("sets {}, but {}; remove it here", s.name, s.meaning)));
        }
        self.host_shape_of(&loaded).map(|_| ())
    }

    /// The pilot where servers have limits (milliseconds: the page's worker runs it).
    fn pilot_key(&self) -> Option<crate::experiments::PilotKey> {
        // (asked at every edit: without limits it reads nothing)
        if !(limited(&self.host()) || self.list_may_limit()) {
            return None;
        }
        let mut key = None;
        self.under_limits(&self.reckoned(), &mut |inputs| {
            key = Some(inputs.key());
            None
        });
        key.map(|key| crate::experiments::PilotKey { field: "limits_pilot", key })
    }

    fn pilot(&self) -> Option<serde_json::Value> {
        let reckoned = self.reckoned();
        let mut given = None;
        self.under_limits(&reckoned, &mut |inputs| {
            let flown = pilot::flown(self, &reckoned.loaded, inputs);
            given = Some(pilot::LimitsPilot { key: inputs.key(), flown: Some(flown) });
            Some(flown)
        });
        given.and_then(|p| serde_json::to_value(p).ok())
    }

    /// The crawler's requests and MERGE's as many (estimated from the pages' rates), at
    /// the measured cost of a request; memory a page at a time.
    fn cost(&self) -> Cost {
        let reckoned = self.reckoned();
        let (pilot, free, free_seconds) = {
            // what the crawler's intervals ask (a run without the servers' limits), and a
            // run under them (the pilot's)
            let Reckoned { loaded, mix, rates, sizes, pages, servers, .. } = &reckoned;
            let (free, free_seconds) = self.requests_and_seconds(loaded, mix, *pages as f64, *servers as f64, rates, sizes.as_deref());
            (self.under_limits(&reckoned, &mut |inputs| pilot::under_limits(self, loaded, inputs)), free, free_seconds)
        };
        let Reckoned { loaded, mix, shape, rates, sizes, pages, servers, seeds } = reckoned;
        let (requests, request_seconds) = pilot.map_or((free, free_seconds), |p| (p.requests, p.seconds));
        // and what a Nutch host file's own bounds ask beyond
        let (hosts, hosts_seconds) = self.host_file_requests(&loaded, &mix, [pages as f64, servers as f64], &rates, sizes.as_deref());
        // and Heritrix's sheets' revisits
        let (sheets, sheets_seconds) = self.sheet_revisit_requests(&loaded, &mix, pages as f64, &rates, sizes.as_deref());
        let (hosts, hosts_seconds) = (hosts + sheets, hosts_seconds + sheets_seconds);
        let (free, free_seconds, requests, request_seconds) = (free + hosts, free_seconds + hosts_seconds, requests + hosts, request_seconds + hosts_seconds);
        // the crawler and MERGE; with the tuning, its candidates and the tuned file's run
        // and the crawler again without each cause of the gap it may have (the split);
        // without the servers' limits it makes what its intervals ask (stopped there)
        let cycles = self.crawler == Crawler::Nutch && self.nutch_cycle_hours > 0.0;
        let limits = self.server_capacity > 0.0 || self.crawl_delay_seconds > 0.0 || self.response_ms > 0.0 || self.list_may_limit();
        // with estimated rates the crawler (and the tuned file) run again on each redraw
        let redrawn = self.pages().estimated_rates();
        let reruns = if redrawn { (redrawn::REDRAWS * if self.tune { 2 } else { 1 }) as f64 } else { 0.0 };
        // every run but MERGE's is the crawler's, whose retries (Scrapy's) may each add
        // a request where a server may refuse it (the pilot counts them)
        let model = &loaded.model;
        let retried = match self.refusal {
            Refusal::TooManyRequests => model.retries_429,
            Refusal::Unavailable => model.retries_503,
        };
        let refusing = (self.server_capacity > 0.0 && model.politeness_s() < 1.0 / self.server_capacity) || self.list_may_limit();
        let retries = if retried && refusing && pilot.is_none() { f64::from(model.retry_times) } else { 0.0 };
        let lists = self.fetch_lists(&loaded, &mix, [pages as f64, servers as f64], &rates, sizes.as_deref(), [requests, retries]);
        let (cycle_count, listed, list_seconds) = (lists.cycles, lists.listed, lists.seconds);
        // the search's runs, about (`Search::expected_runs`: the candidates it makes from
        // the file, over one and a half passes; with MimeAdaptiveFetchSchedule, a knob for
        // each listed type the pages have and, every page typed, no decrement rate)
        let typed = match shape.as_ref().filter(|_| loaded.model.by_type) {
            Some(s) => Typed::of(&loaded.mime_rates, s.metadata.iter().map(|(kind, n)| (kind.as_str(), *n)), pages),
            None => Typed::default(),
        };
        // (what a model's intervals ask over the file's requests under the limits: a
        // candidate asking less than they allow is not held back)
        let spend = |model: &crawler_files::Model| {
            let tried = Loaded { model: *model, ..loaded.clone() };
            self.requests_and_seconds(&tried, &mix, pages as f64, servers as f64, &rates, sizes.as_deref()).0 / requests.max(1.0)
        };
        let expected = match self.tune {
            true => {
                // (a candidate's lists, at its requests against the file's: an adaptive
                // one lists the few pages due, one without a cap none)
                let asks = spend(&loaded.model).max(1e-300);
                let lists_of = |model: &crawler_files::Model| {
                    let tried = Loaded { model: *model, ..loaded.clone() };
                    let made = requests * (spend(model) / asks).min(1.0);
                    self.fetch_lists(&tried, &mix, [pages as f64, servers as f64], &rates, sizes.as_deref(), [made, retries]).seconds
                };
                let ground = tuning::Ground::new(self.may_push_back(), self.source == RepositorySource::PageList);
                tuning::Search::expected_runs(self.crawler, &loaded.model, ground, &typed, &tuning::Pricing { spend: &spend, lists: &lists_of })
            }
            false => tuning::Expected::default(),
        };
        let candidates = expected.runs;
        // the runs under the limits: MERGE's and the crawler's others (the candidates' at
        // what they spend)
        let crawler_runs = 1.0 + reruns + f64::from(u8::from(cycles)) + if self.tune { expected.spent + 1.0 } else { 0.0 };
        let free_runs = f64::from(u8::from(limits));
        let listed_runs = if cycle_count > 0.0 { crawler_runs - 1.0 } else { 0.0 };
        let crawled = (crawler_runs - listed_runs + listed_runs * listed) * (1.0 + retries);
        // with estimated rates MERGE's run also counts each request under the redrawn
        // rates and holds the rates and a last visit a page; a rerun holds its redraw's
        // rates (8 bytes a page)
        let redrawn_seconds = if redrawn { requests * redrawn::SECONDS_PER_REQUEST } else { 0.0 };
        let redrawn_bytes = if redrawn { (redrawn::BYTES_PER_PAGE + 16) as f64 } else { 0.0 };
        // every slice of every run steps every server: a candidate's slices are finer,
        // a run of the split's finer still (the sample hosts' tuning: 161 runs of 100
        // slices over 600 servers, 9.7 M steps beside 11 M requests)
        let slices = job::slices_for(free) as f64;
        let split_runs = f64::from(u8::from(cycles) + u8::from(limits));
        let steps = servers as f64
            * (slices * (if self.tune { 3.0 } else { 2.0 } + reruns) + split_runs * slices.max(job::SPLIT_SLICES as f64) + candidates * slices.max(job::CANDIDATE_SLICES as f64));
        // MERGE at the crawler's bandwidth (its requests a day, refused ones too) backs off
        // to about its servers' capacity where that is less (Scrapy retrying every refusal
        // made 8.3 M requests on 100 servers of one request in 500 s; MERGE after it 0.54 M)
        let capacity = self.host().capacity * self.merge_load * self.horizon_days.0 * 86_400.0 * servers as f64;
        let merge_requests = if listed_runs > 0.0 { requests * listed } else { requests };
        let merged = (MERGE_OVER_CAPACITY * capacity + pages as f64).min(merge_requests) / requests.max(1.0);
        let work = (crawled + merged) * requests + free_runs * free;
        let share = repository_share(pages as f64);
        let request_seconds = (crawled * CRAWLER_REQUEST_COST + merged) * request_seconds * share
            + free_runs * CRAWLER_REQUEST_COST * free_seconds * share
            + redrawn_seconds
            + steps * SECONDS_PER_SERVER_STEP
            // the lists of the runs on the file's settings, and each candidate's own
            + (listed_runs - expected.spent).max(0.0) * list_seconds
            + expected.lists;
        let n = pages as f64;
        let list_bytes = if cycle_count > 0.0 { FetchList::BYTES_PER_PAGE as f64 } else { 0.0 };
        // the pages' metadata: a kind a page (4 bytes), and where it gives them their own
        // starts, a start a page in the run and in its server's schedule (2 + 2), and
        // Nutch's injected scores (8)
        let metadata_bytes =
            match shape.as_ref().is_some_and(|s| !s.metadata.is_empty()) || seeds.as_ref().is_some_and(|s| s.seeds > 0) {
                true if !mix.is_empty() => 8.0,
                true => 4.0,
                false => 0.0,
            } + if self.crawler == Crawler::Nutch && shape.as_ref().is_some_and(|s| s.metadata.iter().any(|(k, _)| k.contains("nutch.score="))) { 8.0 } else { 0.0 };
        // Nutch's and StormCrawler's tuning on a page list holds the page names for its seed list, then the
        // list (a name, its metadata and an interval a line): twice the list's bytes and a
        // string's header a page, about
        let seed_bytes = if self.tune && seed_metadata::fixed_key(loaded.crawler).is_some() && self.source == RepositorySource::PageList {
            2.0 * self.pages().list_bytes() as f64 + n * (SEED_LINE_BYTES + metadata_bytes)
        } else {
            0.0
        };
        // Heritrix's sheets over paths: the page names, and a set a page in the file's
        // overlays and in the tuning's (made beside them); where one revisits, a start a
        // page in the run and in its server's schedule
        let path_bytes = if loaded.sheets.iter().any(heritrix_sheets::sets_pages_apart) && self.source == RepositorySource::PageList {
            let revisits = loaded.sheets.iter().any(|r| heritrix_sheets::sets_pages_apart(r) && r.sets(heritrix::RESCHEDULE));
            self.pages().list_bytes() as f64 + n * if revisits { 5.0 } else { 3.0 } * std::mem::size_of::<u16>() as f64
        } else {
            0.0
        };
        // Heritrix's decide rules: each association's patterns asked of every page's URL
        // and every host's root, in the run's overlays and three times more in a tuning's
        let mut associations: Vec<(u64, &heritrix_rules::Rule)> = loaded.sheets.iter().filter_map(|r| r.decide.as_ref().map(|d| (r.line, d))).collect();
        associations.dedup_by_key(|(line, _)| *line);
        let patterns: usize = associations.iter().map(|(_, rule)| rule.patterns()).sum();
        let rule_seconds = patterns as f64 * (n + servers as f64) * if self.tune { 4.0 } else { 1.0 } * SECONDS_PER_PATTERN_MATCH;
        // a seed list given: its text, its seeds read (a URL and pairs each), and the join
        let seed_input = seeds.as_ref().map_or(0.0, |s| SEED_INPUT_TEXTS * s.bytes as f64 + s.seeds as f64 * SEED_INPUT_BYTES);
        let seed_seconds = seeds.as_ref().map_or(0.0, |s| s.bytes as f64 * SEED_SECONDS_PER_BYTE);
        let bytes = (n * (BYTES_PER_PAGE + redrawn_bytes + list_bytes + metadata_bytes) + seed_bytes + path_bytes + servers as f64 * SERVER_BYTES + self.bins as f64 * 64.0 + 1e6)
            .max(self.pages().import_bytes(pages) as f64)
            + seed_input;
        Cost {
            work: work + n,
            unit: "requests".into(),
            bytes,
            seconds: request_seconds + n * 1e-6 + self.pages().import_seconds() + seed_seconds + rule_seconds,
            memory_fix: Fix::new(self.pages().size_field(), "use fewer pages"),
            time_fix: Fix::new("horizon_days", "simulate fewer days or pages"),
        }
    }
}

/// Nutch's fetch lists under `generate.max.count` (`cap` a host a cycle, its retries
/// counted): a cycle's requests listed and pages due looked at, over hosts of `sizes`
/// pages (each `each` times), each asking its share (by `ask` of its size) of `asked` a
/// cycle. A capped host's pages due beyond the cap wait as a backlog its every list looks
/// at again (as topN's do over all hosts): at a steady state, of a host's n pages asking
/// a a cycle, n × (1 − cap/a) + cap are due.
pub(super) fn host_capped_lists(ask: &dyn Fn(f64) -> f64, sizes: &[f64], each: f64, asked: f64, cap: f64) -> (f64, f64) {
    let total: f64 = sizes.iter().map(|&n| ask(n) * each).sum();
    let share = asked / total.max(1e-300);
    sizes.iter().fold((0.0, 0.0), |(listed, due), &n| {
        let a = ask(n) * share;
        let (l, d) = if a > cap { (cap, n * (1.0 - cap / a) + cap) } else { (a, a) };
        (listed + l * each, due + d * each)
    })
}

/// A run's fetch lists, estimated: its cycles, the share of the requests its
/// intervals ask that the lists hold, and the time the lists take.
struct Lists {
    cycles: f64,
    listed: f64,
    seconds: f64,
}

/// What a crawler's intervals ask of a server of `n` pages, in requests (a pair of host
/// bounds reckoned once).
type Asked = Box<dyn Fn(f64) -> f64>;

/// A host file giving `count` hosts (`past`, at most ten of them, and whether that is
/// all) a shortest interval past db.fetch.interval.max `m` (days).
fn refetch_refusal(count: &str, past: &[(String, u64)], m: f64, all_shown: bool) -> InputError {
    InputError::new(
        "host_intervals",
        format!(
            "({}) gives {count} host(s) a shortest interval past db.fetch.interval.max ({} s): Nutch forces their pages to a refetch at every generate cycle, so set Nutch's batch cycle (nutch_cycle_hours) to run it, or give those hosts a minimum of at most {} s ({}{})",
            nutch_hosts::FILE_NAME,
            m / crawler_files::SECOND,
            m / crawler_files::SECOND,
            past.iter().map(|(host, line)| format!("{host}, line {line}")).collect::<Vec<_>>().join("; "),
            if all_shown { "" } else { "; …" }
        ),
    )
}
