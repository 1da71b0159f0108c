//! Where a repository's pages come from: the WEBBASE-like generator or a page list (CSV
//! text, or rows inline) — for every experiment that takes pages.

use super::page_list::{self, ListShape, PageList, PageRow};
use super::page_metadata;
use super::rate_bins::RateBins;
use super::repository::Repository;
use super::webbase::{RepositoryConfig, RepositorySummary, generate, rank_size_law, summarise};
use crate::core::field::Field;
use crate::core::input::InputError;
use crate::core::labels::labelled;
use crate::core::rng::{Purpose, Stream};
use serde::{Deserialize, Serialize};

labelled! {
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepositorySource {
    #[default]
    Generator => "the WEBBASE-like generator",
    PageList => "your page list (CSV below)",
}
}

/// A configuration that takes pages: the struct, with the four fields that name its
/// pages written here once — `source`, `repository`, `page_list`, `page_rows`, flat in
/// its JSON — and `pages()`, their [`Pages`] view (the struct needs a `seed`). Not serde's
/// `flatten`: through it an error inside `repository` loses its path (`repository.pages`
/// is reported at the root) and an unknown field loses the list of the known ones.
macro_rules! takes_pages {
    (repository = $repository:expr; $(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $crate::core::field::settings! {
        $(#[$meta])*
        pub struct $name {
            /// Where the pages come from: the WEBBASE-like generator (`repository`) or a
            /// page list (`page_list` as CSV text, or `page_rows` inline).
            pub source: $crate::core::model::source::RepositorySource = Default::default(); select("pages from");
            pub repository: $crate::core::model::webbase::RepositoryConfig = $repository; nested;
            /// A page list's CSV text: `page,server,change_rate[,weight][,frequency][,observed]`, rates
            /// and frequencies per day (a file input: `--page-list FILE`).
            #[serde(skip_serializing_if = "Option::is_none")]
            pub page_list: Option<String> = None; internal;
            /// The same pages as JSON objects {page, server, change_rate, weight?, frequency?, observed?}.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub page_rows: Option<Vec<$crate::core::model::page_list::PageRow>> = None; internal;
            /// The size in bytes of a page list the page holds but leaves out of its checks
            /// (checking a form must not copy hundreds of MB on the page's main thread); it
            /// stands for `page_list` in validation and the cost, and a run needs the list.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub page_list_bytes: Option<u64> = None; internal;
            /// The shape of a page list the page holds (its pages, servers, their sizes,
            /// its rates: what the cost depends on), computed in the page's worker when
            /// the list is loaded; it stands for `page_list` in the checks, as its size
            /// does, with a cost as close as the text's.
            #[serde(skip_serializing_if = "Option::is_none")]
            pub page_list_shape: Option<$crate::core::model::page_list::ListShape> = None; internal;
            $($fields)*
        }
        }

        impl $name {
            pub fn pages(&self) -> $crate::core::model::source::Pages<'_> {
                $crate::core::model::source::Pages {
                    source: self.source,
                    repository: &self.repository,
                    page_list: &self.page_list,
                    page_rows: &self.page_rows,
                    page_list_bytes: self.page_list_bytes,
                    page_list_shape: &self.page_list_shape,
                    seed: self.seed,
                }
            }
        }
    };
    ($(#[$meta:meta])* pub struct $name:ident { $($fields:tt)* }) => {
        $crate::core::model::source::takes_pages! {
            repository = $crate::core::model::webbase::RepositoryConfig::default();
            $(#[$meta])* pub struct $name { $($fields)* }
        }
    };
}
pub(crate) use takes_pages;

/// The fields of a configuration that name its pages, borrowed ([`takes_pages`]).
pub struct Pages<'a> {
    pub source: RepositorySource,
    pub repository: &'a RepositoryConfig,
    /// A page list's CSV text: `page,server,change_rate[,weight][,frequency][,observed]`.
    pub page_list: &'a Option<String>,
    /// The same pages as JSON objects.
    pub page_rows: &'a Option<Vec<PageRow>>,
    /// The size of a page list left out of the page's checks (not sent).
    pub page_list_bytes: Option<u64>,
    /// The shape of a page list left out of the page's checks.
    pub page_list_shape: &'a Option<ListShape>,
    pub seed: u64,
}

impl Pages<'_> {
    /// `observed_share`, the share of generated pages whose every change is observed
    /// ([`Pages::check_observed_share`]), described.
    pub fn observed_share_field() -> Field {
        Field::number("share of pages with every change observed")
            .help("generated pages whose changes a sitemap or feed announces: each is crawled on a change with probability f/λ, as in LambdaCrawl; a page list says which in its observed column")
            .at_least(0.0)
            .at_most(1.0)
    }

    /// The source and its fields, before anything is read.
    pub fn validate(&self) -> Result<(), InputError> {
        match self.source {
            RepositorySource::Generator => {
                let given = [
                    ("page_list", self.page_list.is_some()),
                    ("page_rows", self.page_rows.is_some()),
                    ("page_list_bytes", self.page_list_bytes.is_some()),
                    ("page_list_shape", self.page_list_shape.is_some()),
                ];
                if let Some((field, _)) = given.iter().find(|(_, given)| *given) {
                    return Err(InputError::new(*field, "is given but source is generator; set source to page_list to use it, or remove it"));
                }
            }
            RepositorySource::PageList => {
                if self.page_list_bytes.is_some() && (self.page_list.is_some() || self.page_rows.is_some()) {
                    return Err(InputError::new("page_list_bytes", "is given beside the pages; it stands for a page list left out of the page's checks, so remove it"));
                }
                if self.page_list_shape.is_some() && (self.page_list.is_some() || self.page_rows.is_some()) {
                    return Err(InputError::new("page_list_shape", "is given beside the pages; it stands for a page list left out of the page's checks, so remove it"));
                }
                match (self.page_list, self.page_rows) {
                    (None, None) if self.page_list_bytes.is_none() && self.page_list_shape.is_none() => {
                        return Err(InputError::new("page_list", "is missing: source page_list needs a CSV page list (page,server,change_rate[,weight][,frequency][,observed])"));
                    }
                    (Some(_), Some(_)) => return Err(InputError::new("page_rows", "is given beside page_list; give the pages once, as CSV text or as rows")),
                    _ if self.list_bytes() > page_list::MAX_BYTES => {
                        return Err(InputError::new("page_list", format!("is {} MB, over the {} MB limit; keep fewer pages", self.list_bytes() >> 20, page_list::MAX_BYTES >> 20)));
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The page list's size in bytes: its text's, or the shape or size that stands for it.
    pub fn list_bytes(&self) -> u64 {
        match (self.page_list, self.page_list_shape) {
            (Some(text), _) => text.len() as u64,
            (None, Some(shape)) => shape.bytes,
            (None, None) => self.page_list_bytes.unwrap_or(0),
        }
    }

    /// Each server's pages by its name lowercased, from a page list's text or rows; None
    /// for the generator, or where only the list's shape is at hand (the page's checks).
    pub fn server_pages(&self) -> Option<std::collections::HashMap<String, u64>> {
        let mut pages = std::collections::HashMap::new();
        self.each_server_page(|server, _| *pages.entry(server.to_ascii_lowercase()).or_default() += 1).then_some(pages)
    }

    /// Each page's server and name (trimmed), from a page list's text or rows, in the
    /// list's order (rows without a server left out); false where there are none to give
    /// (the generator, or only the list's shape at hand).
    pub fn each_server_page(&self, mut each: impl FnMut(&str, &str)) -> bool {
        if self.source != RepositorySource::PageList {
            return false;
        }
        match (self.page_list, self.page_rows) {
            (Some(text), _) => page_list::each_server_page(text, each),
            (None, Some(rows)) => rows.iter().filter(|r| !r.server.trim().is_empty()).for_each(|r| each(r.server.trim(), r.page.trim())),
            (None, None) => return false,
        }
        true
    }

    /// A page list's shape: read from its text or rows (a pass over them), or the shape
    /// the page sent; None for the generator, or for a list known only by its size.
    pub fn list_shape(&self) -> Option<ListShape> {
        if self.source != RepositorySource::PageList {
            return None;
        }
        match (self.page_list, self.page_rows, self.page_list_shape) {
            (Some(text), _, _) => Some(ListShape::of(text)),
            (None, Some(rows), _) => {
                let mut each: std::collections::HashMap<&str, (u64, page_list::ServerLimits)> = std::collections::HashMap::new();
                for row in rows {
                    let seen = each.entry(row.server.as_str()).or_default();
                    seen.0 += 1;
                    seen.1.add(row.crawl_delay, row.capacity, row.response_ms);
                }
                let (servers, sizes, gives_limits, limits) = page_list::servers_shape(each.into_values().collect());
                let rates = rows.iter().map(|r| r.change_rate).filter(|r| r.is_finite() && *r > 0.0);
                let mut kinds: std::collections::HashMap<String, u64> = std::collections::HashMap::new();
                let mut unread = 0;
                for m in rows.iter().map(|r| r.metadata.as_deref().unwrap_or("")) {
                    match page_metadata::canonical(m) {
                        Ok(kind) => *kinds.entry(kind).or_default() += 1,
                        Err(_) => unread += 1,
                    }
                }
                let (metadata, metadata_other) = page_list::metadata_shape(kinds, unread);
                Some(ListShape {
                    bytes: 0,
                    pages: rows.len() as u64,
                    servers,
                    sizes,
                    rates: RateBins::of(rates.clone()),
                    rate_max: rates.fold(0.0, f64::max),
                    separator: String::new(),
                    estimated_rates: rows.iter().any(|r| r.rate_low.is_some()),
                    gives_limits,
                    limits,
                    metadata,
                    metadata_other,
                    header_problem: None,
                    // (the rows themselves are at hand: each_server_page)
                    sample: Vec::new(),
                })
            }
            (None, None, Some(shape)) => Some(shape.clone()),
            (None, None, None) => None,
        }
    }

    /// A page list whose rates are estimates with intervals (a history's): from the
    /// header of its text, its rows, or the shape the page sent.
    pub fn estimated_rates(&self) -> bool {
        if self.source != RepositorySource::PageList {
            return false;
        }
        match (self.page_list, self.page_rows, self.page_list_shape) {
            (Some(text), _, _) => text.lines().next().is_some_and(|header| header.split([',', ';', '\t']).any(|f| f.trim().eq_ignore_ascii_case("rate_low"))),
            (None, Some(rows), _) => rows.iter().any(|r| r.rate_low.is_some()),
            (None, None, Some(shape)) => shape.estimated_rates,
            (None, None, None) => false,
        }
    }

    /// Pages and servers: the generator's, a page list's (read from its shape), or at
    /// most those a list of its size can hold (a row is at least 6 bytes, "a,s,1\n";
    /// servers at most the pages).
    pub fn shape(&self) -> (u64, u64) {
        match self.source {
            RepositorySource::Generator => (self.repository.pages, self.repository.servers),
            RepositorySource::PageList => match self.list_shape() {
                Some(shape) => (shape.pages.max(1), shape.servers.max(1)),
                None => {
                    let rows = self.list_bytes() / 6;
                    (rows.max(1), rows.max(1))
                }
            },
        }
    }

    /// Bytes the import holds at most while it reads the list (0 for the generator).
    pub fn import_bytes(&self, pages: u64) -> u64 {
        let text = self.list_bytes() + self.page_rows.as_ref().map_or(0, |r| 80 * r.len() as u64);
        if text > 0 { page_list::import_bytes(text, pages) } else { 0 }
    }

    /// Seconds an import takes: a pass that reads and checks each byte of the list, then
    /// groups its pages (about 25 ns a byte natively: 0.7 s for a list of 31 MB).
    pub fn import_seconds(&self) -> f64 {
        self.list_bytes() as f64 * 25e-9
    }

    /// The field to name when the pages are too many.
    pub fn size_field(&self) -> &'static str {
        if self.source == RepositorySource::PageList { "page_list" } else { "repository.pages" }
    }

    /// The repository: generated, or read from the page list. A list that marks pages
    /// observed is refused: only the allocate and learning experiments model them
    /// ([`Pages::load_observing`]), and an experiment that does not must not drop the
    /// column silently.
    pub fn load(&self) -> Result<(Repository, Option<PageList>, RepositorySummary), InputError> {
        let loaded = self.load_with_limits()?;
        self.refuse_limits(&loaded.1)?;
        Ok(loaded)
    }

    /// [`Pages::load`], keeping the servers' limits a list gives (`crawl_delay`,
    /// `capacity`, `response_ms`: the crawlers experiment models them).
    pub fn load_with_limits(&self) -> Result<(Repository, Option<PageList>, RepositorySummary), InputError> {
        let loaded = self.load_observed()?;
        if loaded.0.observed.is_some() {
            let field = if self.page_list.is_some() { "page_list" } else { "page_rows" };
            return Err(InputError::new(
                field,
                "marks pages observed (every change announced); only the allocate and learning experiments model them (LambdaCrawl, Kolobov et al. 2019), so drop the observed column to run these pages here",
            ));
        }
        Ok(loaded)
    }

    /// [`Pages::load`], keeping the pages a list marks observed, and marking each
    /// generated page observed with probability `share` (its own draw, in page order,
    /// from the seed's [`Purpose::ObservedPages`] stream).
    pub fn load_observing(&self, share: f64) -> Result<(Repository, Option<PageList>, RepositorySummary), InputError> {
        let (mut repo, list, summary) = self.load_observed()?;
        self.refuse_limits(&list)?;
        if list.is_none() && share > 0.0 {
            let mut stream = Stream::of(self.seed, Purpose::ObservedPages, 0);
            repo.observed = Some((0..repo.pages()).map(|_| stream.uniform() < share).collect());
        }
        Ok((repo, list, summary))
    }

    /// A list that gives servers' limits or pages' metadata, where the experiment does
    /// not model them.
    fn refuse_limits(&self, list: &Option<PageList>) -> Result<(), InputError> {
        if list.as_ref().is_some_and(|l| l.metadata.is_some()) {
            let field = if self.page_list.is_some() { "page_list" } else { "page_rows" };
            return Err(InputError::new(
                field,
                "gives pages' metadata; only the crawlers experiment reads it (the keys its crawler reads from a seed list), so drop the metadata column to run these pages here",
            ));
        }
        if list.as_ref().is_some_and(|l| l.servers.is_some()) {
            let field = if self.page_list.is_some() { "page_list" } else { "page_rows" };
            return Err(InputError::new(
                field,
                "gives servers' limits (crawl_delay, capacity or response_ms); only the crawlers experiment models servers that push back, so drop those columns to run these pages here",
            ));
        }
        Ok(())
    }

    /// Checks `observed_share` (its range declared by [`Pages::observed_share_field`]):
    /// 0 beside a page list, which marks its own observed pages.
    pub fn check_observed_share(&self, share: f64) -> Result<(), InputError> {
        if share > 0.0 && self.source == RepositorySource::PageList {
            return Err(InputError::new("observed_share", "applies to generated pages; a page list marks its observed pages in an observed column (1 or 0), so set this to 0"));
        }
        Ok(())
    }

    /// [`Pages::load`], keeping the pages a list marks observed.
    fn load_observed(&self) -> Result<(Repository, Option<PageList>, RepositorySummary), InputError> {
        match self.source {
            RepositorySource::Generator => {
                let repo = generate(self.repository, self.seed);
                let summary = summarise(&repo, Some(rank_size_law(self.repository)));
                Ok((repo, None, summary))
            }
            RepositorySource::PageList => {
                let list = match (self.page_list, self.page_rows) {
                    (Some(text), _) => page_list::parse(text.as_bytes(), "page_list")?,
                    (None, Some(rows)) => page_list::from_page_rows(rows, "page_rows")?,
                    (None, None) if self.page_list_bytes.is_some() || self.page_list_shape.is_some() => {
                        return Err(InputError::new("page_list", "is not given: its size or shape stands for it in the page's checks only; a run needs the list's text"));
                    }
                    (None, None) => return Err(InputError::new("page_list", "is missing")),
                };
                let mut summary = summarise(&list.repo, None);
                summary.estimated_rates = list.rate_bounds.as_ref().map(|b| b.len() as u64);
                Ok((list.repo.clone(), Some(list), summary))
            }
        }
    }
}
