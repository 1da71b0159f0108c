#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use super::*;
use crate::core::policy::pushback::StormBackoff;

const NUTCH_SITE: &str = r#"<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<!-- a site's overrides -->
<configuration>
  <property>
    <name>http.agent.name</name>
    <value>mybot</value>
  </property>
  <property>
    <name>db.fetch.schedule.class</name>
    <value>org.apache.nutch.crawl.AdaptiveFetchSchedule</value>
  </property>
  <property>
    <name>db.fetch.interval.default</name>
    <value>86400</value>
  </property>
  <property>
    <name>db.fetch.schedule.adaptive.inc_rate</name>
    <value>0.3</value>
  </property>
  <property>
    <name>db.fetch.schedule.adaptive.sync_delta</name>
    <value>false</value>
  </property>
  <property>
    <name>fetcher.server.delay</name>
    <value>2.0</value>
  </property>
</configuration>
"#;

#[test]
fn nutch_site_overrides_the_defaults_and_lists_what_it_ignores() {
    let loaded = read(Crawler::Nutch, NUTCH_SITE, "crawler_config").unwrap();
    let i = loaded.model.intervals;
    assert_eq!(i.rule, Rule::Nutch);
    assert!((i.initial - 1.0).abs() < 1e-12, "86,400 s is a day");
    assert_eq!((i.inc_rate, i.dec_rate, i.sync_delta_rate), (0.3, 0.2, None));
    assert!((i.min - 60.0 * SECOND).abs() < 1e-15 && (i.max - 365.0).abs() < 1e-9, "the defaults kept");
    assert_eq!(loaded.model.politeness_s(), 2.0);
    let setting = |name: &str| loaded.settings.iter().find(|s| s.name == name).unwrap();
    assert!(setting("fetcher.server.delay").from_file && setting("fetcher.server.delay").line == Some(25));
    assert!(!setting("db.fetch.schedule.adaptive.dec_rate").from_file);
    assert_eq!(loaded.ignored, vec![("http.agent.name".to_string(), 5)]);
}

/// A name a letter or two from a setting is ignored like any other, and said as the
/// setting it may have meant (which keeps its default); a name far from every setting, or
/// as near to two, is not.
#[test]
fn an_ignored_name_near_a_setting_is_said_as_a_possible_typo() {
    let nutch = |name: &str| read(Crawler::Nutch, &format!("<configuration><property><name>{name}</name><value>0.3</value></property></configuration>"), "f").unwrap();
    let typo = nutch("db.fetch.schedule.adaptive.inc_rat");
    assert_eq!(typo.ignored, vec![("db.fetch.schedule.adaptive.inc_rat".to_string(), 1)]);
    assert_eq!(typo.meant, vec![("db.fetch.schedule.adaptive.inc_rat".to_string(), "db.fetch.schedule.adaptive.inc_rate".to_string())]);
    assert_eq!(typo.model.intervals.inc_rate, 0.4, "the setting keeps its default");
    assert!(nutch("http.agent.name").meant.is_empty());
    // as near to min_interval as to max_interval (two letters each): no guess
    assert!(nutch("db.fetch.schedule.adaptive.m_interval").meant.is_empty());
    let scrapy = read(Crawler::Scrapy, "DOWNLOAD_DELAYS = 2\nBOT_NAME = 'b'\n", "f").unwrap();
    assert_eq!(scrapy.meant, vec![("DOWNLOAD_DELAYS".to_string(), "DOWNLOAD_DELAY".to_string())]);
}

/// A setting given twice in one file: the last counts, as Hadoop's Configuration and a
/// Python module read it, and the lines it replaces are said; an overrides file beside
/// a Heritrix configuration is not a repetition.
#[test]
fn a_setting_given_twice_takes_the_last_and_says_the_line_it_replaces() {
    let nutch = "<configuration>\n<property><name>fetcher.server.delay</name><value>2</value></property>\n<property><name>fetcher.server.delay</name><value>3</value></property>\n</configuration>\n";
    let loaded = read(Crawler::Nutch, nutch, "f").unwrap();
    let delay = loaded.settings.iter().find(|s| s.name == "fetcher.server.delay").unwrap();
    assert_eq!((delay.value.as_str(), delay.line, delay.replaced.as_slice()), ("3", Some(3), &[2][..]));
    assert_eq!(loaded.model.server_delay_s, 3.0);
    let scrapy = read(Crawler::Scrapy, "DOWNLOAD_DELAY = 1\nDOWNLOAD_DELAY = 2\nDOWNLOAD_DELAY = 4\n", "f").unwrap();
    let delay = scrapy.settings.iter().find(|s| s.name == "DOWNLOAD_DELAY").unwrap();
    assert_eq!((delay.value.as_str(), delay.replaced.as_slice()), ("4", &[1, 2][..]));
    assert!(read(Crawler::Nutch, NUTCH_SITE, "f").unwrap().settings.iter().all(|s| s.replaced.is_empty()));
    // YAML: the last too, as SnakeYAML (StormCrawler's reader) keeps it; an unread key
    // and a list given twice are listed once, at their last line
    let yaml = "config:\n  fetchInterval.default: 1440\n  http.agent.name: a\n  fetchInterval.default: 0x3c\n  scheduler.class: org.apache.stormcrawler.persistence.AdaptiveScheduler\n  metadata.persist: [signature]\n  http.agent.name: b\n  metadata.persist:\n    - signature\n    - fetchInterval\n";
    let loaded = read(Crawler::Stormcrawler, yaml, "f").unwrap();
    let first = loaded.settings.iter().find(|s| s.name == "fetchInterval.default").unwrap();
    assert_eq!((first.value.as_str(), first.line, first.replaced.as_slice()), ("60", Some(4), &[2][..]));
    assert_eq!(loaded.model.intervals.initial, 60.0 * MINUTE);
    assert_eq!(loaded.ignored, vec![("http.agent.name".to_string(), 7)]);
    let kept: Vec<_> = loaded.settings.iter().filter(|s| s.name == "metadata.persist").collect();
    assert_eq!(kept.len(), 1);
    assert_eq!((kept[0].value.as_str(), kept[0].line, kept[0].replaced.as_slice()), ("signature, fetchInterval", Some(8), &[6][..]));
    assert!(kept[0].meaning.contains("it keeps AdaptiveScheduler's signature and fetchInterval") || kept[0].meaning.contains("with metadata.transfer"), "{}", kept[0].meaning);
    assert_eq!(loaded.model.intervals.rule, Rule::Stormcrawler, "the last list keeps the signature");
}

/// StormCrawler's YAML: each key's line is the parser's own (a key named in a comment
/// or inside a longer key does not move it); `config:` given twice, the last counts.
#[test]
fn yaml_lines_are_the_parsers_and_the_last_config_counts() {
    let yaml = "# fetchInterval.default: is set below\nconfig:\n  fetchInterval.default.x: 1\n  \"fetchInterval.default\": 30\nconfig:\n  fetchInterval.default: 90\n";
    let loaded = read(Crawler::Stormcrawler, yaml, "f").unwrap();
    let first = loaded.settings.iter().find(|s| s.name == "fetchInterval.default").unwrap();
    assert_eq!((first.value.as_str(), first.line), ("90", Some(6)));
    assert!(loaded.ignored.is_empty(), "{:?}", loaded.ignored);
    let one = read(Crawler::Stormcrawler, "config:\n  fetchInterval.default.x: 1\n  \"fetchInterval.default\": 30\n", "f").unwrap();
    assert_eq!(one.settings.iter().find(|s| s.name == "fetchInterval.default").unwrap().line, Some(3));
    assert_eq!(one.ignored, vec![("fetchInterval.default.x".to_string(), 2)]);
}

/// A file cut short (a copy that stopped) is still known by its first element, and
/// refused as cut short, with its last line, rather than as no crawler's file.
#[test]
fn a_configuration_cut_short_is_known_and_refused_as_cut_short() {
    let nutch = "<?xml version=\"1.0\"?>\n<!-- mine -->\n<configuration>\n  <property><name>fetcher.server.delay</name><value>2</value></property>\n";
    let beans = "<?xml version=\"1.0\"?>\n<beans xmlns=\"http://www.springframework.org/schema/beans\">\n <bean id=\"disposition\">\n";
    for (text, crawler, root) in [(nutch, Crawler::Nutch, "configuration"), (beans, Crawler::Heritrix, "beans")] {
        assert_eq!(detect(text), Some(crawler));
        let said = read(crawler, text, "f").unwrap_err().message;
        assert!(said.contains(&format!("ends (line {}) before its <{root}> element closes: is the file cut short?", text.lines().count())), "{said}");
    }
    assert_eq!(detect("<html><body>"), None);
}

#[test]
fn the_shipped_defaults_are_the_adaptive_rules_constants() {
    // the Nutch file's adaptive settings at their defaults are the rule the policies experiment runs
    let adaptive = read(
        Crawler::Nutch,
        "<configuration><property><name>db.fetch.schedule.class</name><value>org.apache.nutch.crawl.AdaptiveFetchSchedule</value></property></configuration>",
        "f",
    )
    .unwrap();
    assert_eq!(adaptive.model.intervals, Rule::Nutch.shipped());
    assert_eq!(shipped(Crawler::Nutch).model.intervals.rule, Rule::Fixed, "nutch-default.xml's schedule is DefaultFetchSchedule");
    let storm = "config:\n  scheduler.class: \"org.apache.stormcrawler.persistence.AdaptiveScheduler\"\n";
    let kept = read(Crawler::Stormcrawler, &format!("{storm}  metadata.persist: [signature, fetchInterval]\n"), "f").unwrap();
    assert_eq!(kept.model.intervals, Rule::Stormcrawler.shipped());
    // crawler-default.yaml's metadata.persist keeps no signature: the class alone falls back
    let alone = read(Crawler::Stormcrawler, storm, "f").unwrap();
    assert_eq!(alone.model.intervals.rule, Rule::Fixed);
    let row = alone.settings.iter().find(|s| s.name == "metadata.persist").unwrap();
    assert!(!row.from_file && row.overrules && row.value == "_redirTo, error.cause, error.source, isSitemap, isFeed", "{row:?}");
    assert!(row.meaning.contains("crawler-default.yaml's list (your file gives none) lacks signature and fetchInterval"), "{}", row.meaning);
    // MimeAdaptiveFetchSchedule gives a page without a Content-Type the configured rates
    let mime = |rates: &str| {
        let text = format!(
            "<configuration><property><name>db.fetch.schedule.class</name><value>org.apache.nutch.crawl.MimeAdaptiveFetchSchedule</value></property>{rates}</configuration>"
        );
        read(Crawler::Nutch, &text, "f").unwrap()
    };
    assert_eq!(mime("").model.intervals, Rule::Nutch.shipped());
    let set = mime(
        "<property><name>db.fetch.schedule.adaptive.inc_rate</name><value>0.1</value></property><property><name>db.fetch.schedule.mime.file</name><value>adaptive-mimetypes.txt</value></property>",
    );
    assert_eq!((set.model.intervals.rule, set.model.intervals.inc_rate), (Rule::Nutch, 0.1));
    assert!(set.ignored.is_empty());
    let file = set.settings.iter().find(|s| s.name == "db.fetch.schedule.mime.file").unwrap();
    assert!(file.from_file && file.meaning.contains("give that file beside this one"), "its per-type file is named, and how to give it: {}", file.meaning);
    assert!(set.model.by_type && !read(Crawler::Nutch, "<configuration></configuration>", "f").unwrap().model.by_type);
}

#[test]
fn nutch_refuses_what_it_cannot_read_with_the_line_and_the_fix() {
    let bad = |text: &str| read(Crawler::Nutch, text, "crawler_config").unwrap_err();
    let e = bad("<configuration><property><name>db.fetch.schedule.adaptive.dec_rate</name>\n<value>1.5</value></property></configuration>");
    assert_eq!(e.field, "crawler_config");
    assert!(e.message.contains("db.fetch.schedule.adaptive.dec_rate (line 1): must be a rate from 0 to 1"), "{e}");
    assert!(e.message.contains("remove the line to keep the default 0.2"), "{e}");
    assert!(
        bad("<configuration><property><name>x</property></configuration>").message.contains("is not XML that Nutch can read: expected 'name' tag, not 'property' at 1:"),
        "malformed"
    );
    assert!(bad("<configuration><property><name>x</name>").message.contains("is the file cut short?"), "cut short");
    assert!(bad("<beans/>").message.contains("not <configuration>"));
    assert!(bad("<configuration>\n<property><value>1</value></property></configuration>").message.contains("line 2: a <property> without a <name>"));
    assert!(
        bad("<configuration><property><name>db.fetch.schedule.class</name><value>my.OwnSchedule</value></property></configuration>")
            .message
            .contains("AdaptiveFetchSchedule or MimeAdaptiveFetchSchedule (the schedules Nutch ships)")
    );
    assert!(bad(&"x".repeat(MAX_BYTES + 1)).message.contains("over the"));
}

/// The fetcher's queue mode is read, not ignored: byDomain is shown as the file's, with
/// what Freshlab's queue is (a page's server as the list names it), in Nutch's file and
/// in StormCrawler's; a value the fetcher would force to byHost is refused with the three.
#[test]
fn the_fetchers_queue_mode_is_read_and_said() {
    let nutch = read(Crawler::Nutch, "<configuration><property><name>fetcher.queue.mode</name><value>byDomain</value></property></configuration>", "crawler_config").unwrap();
    let storm = read(Crawler::Stormcrawler, "config:\n  fetcher.queue.mode: \"byIP\"\n", "crawler_config").unwrap();
    for (loaded, value) in [(&nutch, "byDomain"), (&storm, "byIP")] {
        let mode = loaded.settings.iter().find(|s| s.name == "fetcher.queue.mode").expect("a setting of the fetcher");
        assert!(mode.from_file && mode.value == value, "{mode:?}");
        assert!(mode.meaning.contains("name each page's domain or address in the list's server column"), "{}", mode.meaning);
        assert!(loaded.ignored.is_empty(), "{:?}", loaded.ignored);
    }
    let shipped = read(Crawler::Nutch, "<configuration/>", "crawler_config").unwrap();
    assert!(shipped.settings.iter().any(|s| s.name == "fetcher.queue.mode" && s.value == "byHost" && !s.from_file));
    let e = read(Crawler::Nutch, "<configuration><property><name>fetcher.queue.mode</name><value>byHostname</value></property></configuration>", "crawler_config").unwrap_err();
    assert!(e.message.contains("fetcher.queue.mode (line 1): must be byHost, byDomain or byIP"), "{e}");
}

/// How each fetcher keeps a robots.txt Crawl-delay is read: Nutch's
/// `fetcher.min.crawl.delay` (by default the server delay, as nutch-default.xml writes
/// it), StormCrawler's `fetcher.max.crawl.delay.force` and `fetcher.server.delay.force`;
/// a value neither reads is refused with its line.
#[test]
fn the_crawl_delays_floor_and_force_are_read() {
    let nutch = |properties: &str| read(Crawler::Nutch, &format!("<configuration>{properties}</configuration>"), "crawler_config");
    let property = |name: &str, value: &str| format!("<property><name>{name}</name><value>{value}</value></property>");
    let shipped = nutch("").unwrap().model;
    assert_eq!(shipped.crawl_delay_floor, DelayFloor::ServerDelay);
    assert_eq!(shipped.crawl_delay_rule().floor_s, 5.0);
    let set = nutch(&[property("fetcher.server.delay", "2.0"), property("fetcher.min.crawl.delay", "0.5")].concat()).unwrap().model;
    assert_eq!((set.crawl_delay_floor, set.crawl_delay_rule().floor_s), (DelayFloor::Seconds(0.5), 0.5));
    let written = nutch(&[property("fetcher.server.delay", "2.0"), property("fetcher.min.crawl.delay", "${fetcher.server.delay}")].concat()).unwrap().model;
    assert_eq!(written.crawl_delay_rule().floor_s, 2.0);
    let e = nutch(&property("fetcher.min.crawl.delay", "soon")).unwrap_err();
    assert!(e.message.contains("fetcher.min.crawl.delay (line 1)") && e.message.contains("${fetcher.server.delay}"), "{e}");
    let threads = nutch(&property("fetcher.threads.per.queue", "2")).unwrap().model;
    assert!(!threads.crawl_delay_rule().spaces);
    let storm = |text: &str| read(Crawler::Stormcrawler, text, "crawler_config");
    let shipped = storm("config:\n  fetcher.server.delay: 2.0\n").unwrap().model;
    let rule = shipped.crawl_delay_rule();
    assert_eq!((rule.skips_over_cap, rule.floor_s, rule.cap_s), (true, 0.0, 30.0));
    let forced = storm("config:\n  fetcher.server.delay: 2.0\n  fetcher.max.crawl.delay.force: true\n  fetcher.server.delay.force: true\n").unwrap();
    let rule = forced.model.crawl_delay_rule();
    assert_eq!((rule.skips_over_cap, rule.floor_s), (false, 2.0));
    assert!(forced.ignored.is_empty(), "{:?}", forced.ignored);
    let e = storm("config:\n  fetcher.max.crawl.delay.force: sometimes\n").unwrap_err();
    assert!(e.message.contains("line 2: fetcher.max.crawl.delay.force is not a boolean (\"sometimes\"), which StormCrawler's ConfUtils.getBoolean cannot read"), "{e}");
}

#[test]
fn stormcrawler_yaml_under_config_with_comments_and_lists() {
    let text = "# crawler-conf.yaml\nconfig:\n  topology.workers: 1\n  scheduler.class: \"com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler\"\n  fetchInterval.default: 720\n  scheduler.adaptive.fetchInterval.rate.decr: .25\n  fetcher.threads.per.queue: 2\n  fetcher.server.min.delay: 0.5\n  metadata.persist:\n   - signature\n   - fetchInterval\n";
    let loaded = read(Crawler::Stormcrawler, text, "f").unwrap();
    let i = loaded.model.intervals;
    assert_eq!((i.rule, i.dec_rate), (Rule::Stormcrawler, 0.25));
    assert!((i.initial - 0.5).abs() < 1e-12, "720 minutes");
    assert_eq!(loaded.model.politeness_s(), 0.5, "two threads a queue: the min delay");
    let line = |name: &str| loaded.settings.iter().find(|s| s.name == name).unwrap().line;
    assert_eq!(line("fetchInterval.default"), Some(5));
    assert_eq!(loaded.ignored.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["topology.workers"]);
    let persist = loaded.settings.iter().find(|s| s.name == "metadata.persist").unwrap();
    assert_eq!((persist.value.as_str(), persist.line), ("signature, fetchInterval", Some(9)));
    // bounds that cannot hold: named by the crawler's settings, with their lines
    let e = read(Crawler::Stormcrawler, "config:\n  scheduler.adaptive.fetchInterval.min: 30000\n", "f").unwrap_err();
    assert!(
        e.message.contains("scheduler.adaptive.fetchInterval.min = 30000 (line 2) must be above 0 and at most scheduler.adaptive.fetchInterval.max = 20160 (its default): lower the one or raise the other"),
        "{e}"
    );
    let e = read(Crawler::Stormcrawler, "config:\n  fetcher.server.delay: soon\n", "f").unwrap_err();
    assert!(e.message.contains("line 2: fetcher.server.delay is text (\"soon\"), which StormCrawler's ConfUtils.getFloat cannot read"), "{e}");
    let e = read(Crawler::Stormcrawler, "config:\n  fetcher.server.delay: -2\n", "f").unwrap_err();
    assert!(e.message.contains("fetcher.server.delay (line 2): must be a number of seconds"), "{e}");
    // a list where a number is asked for: refused showing its items
    let e = read(Crawler::Stormcrawler, "config:\n  fetcher.server.delay: [1, 2]\n", "f").unwrap_err();
    assert!(e.message.contains("(got \"1, 2\")"), "{e}");
    assert!(read(Crawler::Stormcrawler, "config: [1, 2", "f").unwrap_err().message.contains("is not YAML"));
}

/// YAML 1.1's merge key, which SnakeYAML (StormCrawler's reader) reads: `<<: *name`
/// brings in the named map's settings the map does not give itself (the map's own win,
/// wherever they stand; of several maps merged, the first), each with its own line.
#[test]
fn stormcrawlers_yaml_merge_keys_bring_in_the_named_settings() {
    let text = "defaults: &d\n  fetcher.server.delay: 3\n  fetchInterval.default: 100\nslow: &s\n  fetcher.server.delay: 9\n  fetcher.threads.per.queue: 1\nconfig:\n  fetchInterval.default: 600\n  <<: [*d, *s]\n";
    let loaded = read(Crawler::Stormcrawler, text, "f").unwrap();
    let setting = |name: &str| loaded.settings.iter().find(|s| s.name == name).map(|s| (s.value.clone(), s.line)).unwrap();
    assert_eq!(setting("fetchInterval.default"), ("600".into(), Some(8)), "the map's own value wins over the merged one");
    assert_eq!(setting("fetcher.server.delay"), ("3".into(), Some(2)), "the first map merged wins, with its line");
    assert_eq!(setting("fetcher.threads.per.queue").1, Some(6));
    assert_eq!(loaded.model.server_delay_s, 3.0);
    assert!(loaded.ignored.iter().all(|(name, _)| name != "<<"), "{:?}", loaded.ignored);
    // a quoted "<<" is a key like any other; a merge of a scalar is refused, as SnakeYAML does
    let quoted = read(Crawler::Stormcrawler, "config:\n  \"<<\": 1\n", "f").unwrap();
    assert_eq!(quoted.ignored, [("<<".to_string(), 2)]);
    let e = read(Crawler::Stormcrawler, "config:\n  <<: 3\n", "f").unwrap_err();
    assert!(e.message.contains("a merge key (<<) names neither a map nor a list of maps"), "{e}");
}

/// Hadoop's loadProperty: a property made final (`<final>true</final>`, or the attribute)
/// keeps that line's value; the file's later lines for it are passed over, and said.
#[test]
fn nutchs_final_properties_keep_their_value() {
    let file = "<configuration>\n<property><name>fetcher.server.delay</name><value>2</value></property>\n<property><name>fetcher.server.delay</name><value>7</value><final>true</final></property>\n<property><name>fetcher.server.delay</name><value></value></property>\n<property name=\"db.fetch.interval.default\" value=\"86400\" final=\"true\"/>\n<property><name>db.fetch.interval.default</name><value>3600</value></property>\n<property><name>db.fetch.interval.max</name><value>${db.fetch.interval.default}</value></property>\n<property><name>fetcher.threads.per.queue</name><value>1</value><final> true </final></property>\n<property><name>fetcher.threads.per.queue</name><value>2</value></property>\n</configuration>\n";
    let loaded = read(Crawler::Nutch, file, "f").unwrap();
    let setting = |name: &str| loaded.settings.iter().find(|s| s.name == name).unwrap();
    let delay = setting("fetcher.server.delay");
    assert_eq!((delay.value.as_str(), delay.line, delay.replaced.as_slice()), ("7", Some(3), &[2][..]));
    assert!(delay.meaning.ends_with("; line 3 makes it final, so Nutch passes over line 4 (Hadoop ignores an attempt to override a final parameter)"), "{}", delay.meaning);
    assert!(!delay.meaning.contains("gives it no value"), "a line past the final one is said once: {}", delay.meaning);
    assert_eq!(loaded.model.server_delay_s, 7.0);
    // the attribute form, and a ${…} standing for the final value
    assert_eq!((setting("db.fetch.interval.default").value.as_str(), loaded.model.intervals.initial), ("86400", 1.0));
    assert_eq!(setting("db.fetch.interval.max").value, "${db.fetch.interval.default} = 86400");
    // " true " is not "true" to Hadoop's parser: not final, the last line wins
    assert_eq!(setting("fetcher.threads.per.queue").value, "2");
    // the old names of the intervals, in days: read, and passed over as Nutch does
    let old = read(Crawler::Nutch, "<configuration><property><name>db.default.fetch.interval</name><value>7</value></property></configuration>", "f").unwrap();
    assert!(old.ignored.is_empty(), "{:?}", old.ignored);
    let row = old.settings.iter().find(|s| s.name == "db.default.fetch.interval").expect("a row of its own");
    assert!(
        row.from_file && row.meaning.contains("the old name of db.fetch.interval.default (in days), which Nutch reads only where db.fetch.interval.default is 0"),
        "{}",
        row.meaning
    );
    assert_eq!(old.model, shipped(Crawler::Nutch).model);
}

/// Hadoop's getBoolean reads true or false in any case: Nutch's sync_delta `FALSE` is
/// off; `no`, which Nutch would pass over for its default, is refused saying so.
#[test]
fn nutchs_booleans_read_in_any_case() {
    let file = |v: &str| format!("<configuration><property><name>db.fetch.schedule.adaptive.sync_delta</name><value> {v} </value></property></configuration>");
    assert_eq!(read(Crawler::Nutch, &file("FALSE"), "f").unwrap().model.intervals.sync_delta_rate, None);
    assert_eq!(read(Crawler::Nutch, &file("True"), "f").unwrap().model.intervals.sync_delta_rate, Some(0.3));
    let e = read(Crawler::Nutch, &file("no"), "f").unwrap_err();
    assert!(e.message.contains("must be true or false (any case); Nutch would take its default, true, with a warning in its log"), "{e}");
}

/// A Flux topology file (StormCrawler's crawler.flux) as FluxParser reads it: its
/// `config:` over the shipped crawler-default.yaml; any other include refused with its
/// line (its settings would be lost); a placeholder Flux fills in refused saying so.
#[test]
fn stormcrawlers_flux_file_includes_and_placeholders() {
    let flux = |includes: &str, delay: &str| {
        format!(
            "name: \"crawler\"\n\nincludes:\n    - resource: true\n      file: \"/crawler-default.yaml\"\n      override: false\n{includes}\nconfig:\n  topology.workers: 1\n  fetcher.server.delay: {delay}\n\nspouts:\n  - id: \"spout\"\n    className: \"org.apache.stormcrawler.spout.MemorySpout\"\n"
        )
    };
    let loaded = read(Crawler::Stormcrawler, &flux("", "2.0"), "f").unwrap();
    assert_eq!(loaded.model.server_delay_s, 2.0);
    let delay = loaded.settings.iter().find(|s| s.name == "fetcher.server.delay").unwrap();
    assert_eq!((delay.from_file, delay.line), (true, Some(10)));
    // the archetype's own crawler-conf.yaml, read over this file's config
    let e = read(Crawler::Stormcrawler, &flux("\n    - resource: false\n      file: \"crawler-conf.yaml\"\n      override: true\n", "2.0"), "f").unwrap_err();
    assert!(e.message.contains("line 8: includes the file crawler-conf.yaml, whose config: Flux reads over this file's (override: true)"), "{e}");
    assert!(e.message.contains("load one file holding both files' settings"), "{e}");
    let e = read(Crawler::Stormcrawler, "includes:\n  - resource: true\n    file: \"/crawler-default.yaml\"\n    override: true\nconfig:\n  fetcher.server.delay: 2\n", "f")
        .unwrap_err();
    assert!(e.message.contains("line 2: includes the resource /crawler-default.yaml, whose config: Flux reads over this file's"), "{e}");
    let e = read(Crawler::Stormcrawler, "name: crawler\nincludes:\n  - file: \"crawler-conf.yaml\"\n    override: true\n", "f").unwrap_err();
    assert!(e.message.contains("line 3: includes the file crawler-conf.yaml, and this file has no config: of its own: load crawler-conf.yaml itself"), "{e}");
    let e = read(Crawler::Stormcrawler, "includes:\n  - resource: true\n    override: false\n", "f").unwrap_err();
    assert!(e.message.contains("line 2: an include names no file"), "{e}");
    let e = read(Crawler::Stormcrawler, "includes:\n  - file: a.yaml\n    override: maybe\n", "f").unwrap_err();
    assert!(e.message.contains("line 2: the include's override must be true or false"), "{e}");
    // Flux's --filter and --env-filter placeholders, which only Flux can fill in
    for placeholder in ["${ENV-DELAY}", "${fetcher.delay}"] {
        let e = read(Crawler::Stormcrawler, &flux("", placeholder), "f").unwrap_err();
        assert!(
            e.message.contains(&format!("fetcher.server.delay (line 10): must be a number of seconds, at least 0 (got \"{placeholder}\" — a placeholder Storm's Flux fills in")),
            "{e}"
        );
        assert!(e.message.contains("write the value Flux would put there"), "{e}");
    }
}

/// StormCrawler's DefaultScheduler.init reads `fetchInterval(.STATUS)?.key=value`
/// (minutes) for pages with that metadata; AdaptiveScheduler needs the page's
/// signature and fetchInterval kept in `metadata.persist` (or `metadata.transfer`).
#[test]
fn stormcrawlers_custom_intervals_and_kept_metadata() {
    let read_yaml = |body: &str| read(Crawler::Stormcrawler, &format!("config:\n{body}"), "f");
    let custom = read_yaml("  fetchInterval.isFeed=true: 10\n  fetchInterval.FETCH_ERROR.isFeed=true: 30\n  fetchInterval.isSitemap=true: -1\n").unwrap();
    assert!(custom.ignored.is_empty());
    let said = |name: &str| custom.settings.iter().find(|s| s.name == name).map(|s| (s.value.clone(), s.line, s.meaning.clone())).unwrap();
    let (value, line, meaning) = said("fetchInterval.isFeed=true");
    assert_eq!((value.as_str(), line), ("10", Some(2)));
    assert!(meaning.contains("metadata holds isFeed=true (any status)") && meaning.contains("applies to the pages of a page list"), "{meaning}");
    assert!(said("fetchInterval.FETCH_ERROR.isFeed=true").2.contains("isFeed=true when its status is FETCH_ERROR"));
    assert_eq!(said("fetchInterval.isSitemap=true").0, "-1");
    assert_eq!(custom.model, shipped(Crawler::Stormcrawler).model, "the rule is the file's: a page's metadata picks its own start");
    let merged: Vec<_> = custom.custom_intervals.iter().map(|c| (c.key.as_str(), c.value.as_str(), c.any, c.fetch_error)).collect();
    assert_eq!(merged, vec![("isFeed", "true", Some(10.0 * MINUTE), Some(30.0 * MINUTE)), ("isSitemap", "true", Some(f64::INFINITY), None)]);
    assert!(read_yaml("  fetchInterval.isFeed=true: 0\n").unwrap_err().message.contains("above 0"));
    let e = read_yaml("  fetchInterval.FETCHD.isFeed=true: 10\n").unwrap_err();
    assert!(e.message.contains("fetchInterval.FETCHD.isFeed=true (line 2): FETCHD is not a status") && e.message.contains("FETCH_ERROR"), "{e}");
    assert!(read_yaml("  fetchInterval.isFeed=true: soon\n").unwrap_err().message.contains("fetchInterval.isFeed=true is text (\"soon\")"));
    assert!(read_yaml("  fetchInterval.isFeed=true: -2\n").unwrap_err().message.contains("whole number of minutes above 0"));
    assert!(read_yaml("  fetchInterval.isFeed=true: 0.5\n").unwrap_err().message.contains("whole number of minutes above 0"), "read as 0");
    // a fraction: its whole part, as DefaultScheduler's getInt reads it, said
    let cut = read_yaml("  fetchInterval.isFeed=true: 90.7\n").unwrap();
    assert_eq!(cut.custom_intervals[0].any, Some(90.0 * MINUTE));
    let row = cut.settings.iter().find(|s| s.name == "fetchInterval.isFeed=true").unwrap();
    assert!(row.meaning.starts_with("a custom interval (minutes) (read as 90: ConfUtils.getInt keeps a fraction's whole part)"), "{}", row.meaning);

    let adaptive = "  scheduler.class: \"org.apache.stormcrawler.persistence.AdaptiveScheduler\"\n";
    // the archetype's list, without the signature: every fetch falls back to the default interval
    let archetype = read_yaml(&format!("{adaptive}  metadata.persist:\n   - _redirTo\n   - isFeed\n")).unwrap();
    assert_eq!(archetype.model.intervals.rule, Rule::Fixed);
    let row = archetype.settings.iter().find(|s| s.name == "metadata.persist").unwrap();
    assert!(row.meaning.contains("lacks signature and fetchInterval") && row.meaning.contains("the run here does so"), "{}", row.meaning);
    // the signature passed on by metadata.transfer counts; fetchInterval missing is said, not run
    let transfer = read_yaml(&format!("{adaptive}  metadata.transfer:\n   - signature\n  metadata.persist:\n   - _redirTo\n")).unwrap();
    assert_eq!(transfer.model.intervals.rule, Rule::Stormcrawler);
    assert!(transfer.settings.iter().any(|s| s.name == "metadata.persist" && s.meaning.contains("lacks fetchInterval")));
    // a DefaultScheduler keeps whatever metadata it likes
    assert_eq!(read_yaml("  metadata.persist:\n   - _redirTo\n").unwrap().model, shipped(Crawler::Stormcrawler).model);
}

#[test]
fn heritrix_beans_and_scrapy_settings() {
    let cxml = r#"<beans xmlns="http://www.springframework.org/schema/beans">
 <bean id="disposition" class="org.archive.crawler.postprocessor.DispositionProcessor">
  <property name="delayFactor" value="4.0" />
  <property name="minDelayMs" value="1500" />
  <property name="maxDelayMs"><value>20000</value></property>
 </bean>
</beans>"#;
    let h = read(Crawler::Heritrix, cxml, "f").unwrap();
    assert_eq!(h.model.politeness_s(), 1.5);
    assert!(h.settings.iter().any(|s| s.name == "disposition.maxDelayMs" && s.value == "20000" && s.line == Some(5)));
    // a Spring placeholder, which only Spring can fill in, refused saying so
    let e = read(Crawler::Heritrix, &cxml.replace("4.0", "${politeness.factor}"), "f").unwrap_err();
    assert!(e.message.contains("disposition.delayFactor (line 3): must be a number"), "{e}");
    assert!(e.message.contains("(got \"${politeness.factor}\" — a Spring placeholder, which a <context:property-placeholder> or PropertyPlaceholderConfigurer fills in"), "{e}");
    let py = "# Scrapy settings\nBOT_NAME = \"shop\"\nDOWNLOAD_DELAY = 2.5  # seconds\nITEM_PIPELINES = {\n    \"shop.pipelines.Save\": 300,\n}\nAUTOTHROTTLE_ENABLED = True\n";
    let s = read(Crawler::Scrapy, py, "f").unwrap();
    assert_eq!(s.model.politeness_s(), 2.5);
    assert_eq!(s.ignored, vec![("BOT_NAME".to_string(), 2), ("ITEM_PIPELINES".to_string(), 4)]);
    assert!(s.settings.iter().any(|x| x.name == "AUTOTHROTTLE_ENABLED" && x.value == "True" && x.from_file));
    let e = read(Crawler::Scrapy, "import os\nDOWNLOAD_DELAY = 1\n", "f").unwrap_err();
    assert!(e.message.contains("line 1: `import os` is not a plain NAME = value assignment"), "{e}");
    assert!(read(Crawler::Scrapy, "X = [1,\n", "f").unwrap_err().message.contains("never closes"));
    // the template's ROBOTSTXT_OBEY is read (Scrapy keeps no Crawl-delay, on or off)
    let obey = read(Crawler::Scrapy, "ROBOTSTXT_OBEY = True\n", "f").unwrap();
    assert!(obey.ignored.is_empty() && obey.settings.iter().any(|x| x.name == "ROBOTSTXT_OBEY" && x.from_file && x.meaning.contains("no Crawl-delay")));
    assert_eq!(obey.model, shipped(Crawler::Scrapy).model);
    assert!(read(Crawler::Scrapy, "ROBOTSTXT_OBEY = maybe\n", "f").unwrap_err().message.contains("ROBOTSTXT_OBEY (line 1)"));
}

/// A Heritrix profile setting the politeness through its overrides (Spring's
/// PropertyOverrideConfigurer), placed before the bean they override: `simpleOverrides`
/// in Java's properties format (each separator, both comment marks, a continued line),
/// `longerOverrides` as `<props>`.
const HERITRIX_PROFILE: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>
<beans xmlns=\"http://www.springframework.org/schema/beans\">
 <bean id=\"simpleOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">
  <property name=\"properties\">
   <value>
# This Properties map is specified in the Java 'property list' text format
! a comment of the other kind
metadata.jobName=basic
disposition.delayFactor=3.0
disposition.maxDelayMs : 45000
disposition.respectCrawlDelayUpToSeconds \\
    120
   </value>
  </property>
 </bean>
 <bean id=\"longerOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">
  <property name=\"properties\">
   <props>
    <prop key=\"disposition.minDelayMs\">7000</prop>
   </props>
  </property>
 </bean>
 <bean id=\"disposition\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\">
  <property name=\"delayFactor\" value=\"5.0\" />
  <property name=\"minDelayMs\" value=\"3000\" />
 </bean>
</beans>
";

/// Heritrix's profile overrides win over the beans, wherever they stand (Spring applies
/// them once every bean is defined), each setting with the line that gave it; what they
/// cannot say is refused with its line.
#[test]
fn heritrixs_overrides_set_the_beans_properties() {
    let h = read(Crawler::Heritrix, HERITRIX_PROFILE, "f").unwrap();
    assert_eq!(h.model.reaction, Reaction::Heritrix { delay_factor: 3.0, max_delay_s: 45.0 });
    assert_eq!(h.model.politeness_s(), 7.0);
    assert_eq!(h.model.crawl_delay_cap_s, 120.0);
    let line = |name: &str| h.settings.iter().find(|s| s.name == name).and_then(|s| s.line);
    assert_eq!(
        ["disposition.delayFactor", "disposition.maxDelayMs", "disposition.respectCrawlDelayUpToSeconds", "disposition.minDelayMs"].map(line),
        [Some(9), Some(10), Some(11), Some(19)]
    );
    // the overrides' own property is read, not ignored; the names Freshlab does not read are
    assert_eq!(h.ignored, vec![("metadata.jobName".to_string(), 8)]);
    let keyless = HERITRIX_PROFILE.replace("<prop key=\"disposition.minDelayMs\">", "<prop>");
    let message = read(Crawler::Heritrix, &keyless, "f").unwrap_err().message;
    assert!(message.contains("line 19: a <prop> without a key attribute"), "{message}");
    let escaped = HERITRIX_PROFILE.replace("disposition.delayFactor=3.0", "disposition.delayFactor=\\uZZ");
    let message = read(Crawler::Heritrix, &escaped, "f").unwrap_err().message;
    assert!(message.contains("line 9: the overrides' properties: malformed \\uxxxx escape"), "{message}");
    // overrides in a file beside the job: read as such, said not in the run
    let located = HERITRIX_PROFILE.replace(" <bean id=\"longerOverrides\"", " <bean id=\"fileOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">\n  <property name=\"location\" value=\"file:overrides.properties\" />\n </bean>\n <bean id=\"longerOverrides\"");
    let l = read(Crawler::Heritrix, &located, "f").unwrap();
    let row = l.settings.iter().find(|s| s.name == "fileOverrides.location").unwrap();
    assert_eq!((row.value.as_str(), row.line), ("file:overrides.properties", Some(17)));
    assert!(row.meaning.contains("paste its lines into the overrides' <value>"), "{}", row.meaning);
    assert_eq!(l.model, h.model);
}

/// Heritrix's overrides file beside the job (a PropertyOverrideConfigurer's `location`):
/// Spring sets its lines after the bean's own `properties` (PropertiesLoaderSupport
/// .mergeProperties), before them with `localOverride` true, and after the beans before
/// it in the file; each setting names the file and its line there.
/// Heritrix's sheets (its "Sheets (Site-specific Settings)"): each setting a sheet gives
/// over the URLs its SURT prefixes cover (hosts, or paths within them), the longest
/// prefix winning and, of one prefix, the sheet associated last
/// (SheetOverlaysManager.applyOverlays, KeyedProperties.get); what applies to no URL
/// said, what cannot be read refused with its line.
#[test]
fn heritrixs_sheets_set_hosts_apart() {
    fn model_for_host(l: &Loaded, host: &str) -> Model {
        let found: Vec<&heritrix_sheets::SheetRule> = rules_for(&l.sheets, host).into_iter().map(|k| &l.sheets[k]).collect();
        overlay(&found, &l.model).unwrap()
    }
    use super::heritrix_sheets::{Prefixes, host_surt, overlay, rules_for, url_surt};
    assert_eq!(host_surt("www.Example.com"), "http://(com,example,www,)/");
    assert_eq!(url_surt("https://user@WWW.Example.com:443/News/a?b=1#top").as_deref(), Some("http://(com,example,www,)/News/a?b=1"));
    assert_eq!(url_surt("http://example.org:8080").as_deref(), Some("http://(org,example,:8080)/"));
    assert_eq!(url_surt("http://example.org?q").as_deref(), Some("http://(org,example,)/?q"));
    assert_eq!((url_surt("ftp://example.org/a"), url_surt("example.org/a"), url_surt("http:///a")), (None, None, None));
    assert_eq!(host_surt("example.com:8443"), "http://(com,example,:8443)/");
    assert_eq!(host_surt("10.0.0.1"), "http://(10.0.0.1)/");
    let association = |prefixes: &[&str], sheets: &[&str]| {
        let list = |v: &[&str]| v.iter().map(|x| format!("<value>{x}</value>")).collect::<String>();
        format!(
            "<bean class=\"org.archive.crawler.spring.SurtPrefixesSheetAssociation\">\n<property name=\"surtPrefixes\"><list>{}</list></property>\n<property name=\"targetSheetNames\"><list>{}</list></property></bean>\n",
            list(prefixes),
            list(sheets)
        )
    };
    let sheet = |id: &str, entries: &[(&str, &str)]| {
        let map: String = entries.iter().map(|(k, v)| format!("<entry key=\"{k}\" value=\"{v}\"/>\n")).collect();
        format!("<bean id=\"{id}\" class=\"org.archive.spring.Sheet\"><property name=\"map\"><map>\n{map}</map></property></bean>\n")
    };
    let file = |body: &str| {
        format!(
            "<beans>\n<bean id=\"disposition\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\"><property name=\"minDelayMs\" value=\"3000\"/></bean><bean id=\"sheetOverlaysManager\" autowire=\"byType\" class=\"org.archive.crawler.spring.SheetOverlaysManager\"/>\n{body}</beans>"
        )
    };
    let body = [
        association(&["http://(com,example,"], &["a"]),
        association(&["http://(com,example,www,"], &["b"]),
        association(&["http://(com,example,"], &["c"]),
        association(&["https://(com,example,", "http://(org,example,)/forum/"], &["a"]),
        association(&["http://(net,example,"], &["names"]),
        sheet("a", &[("disposition.minDelayMs", "1000")]),
        sheet("b", &[("disposition.minDelayMs", "2000")]),
        sheet("c", &[("disposition.minDelayMs", "7000"), ("disposition.maxDelayMs", "5000"), ("fetchHttp.userAgent", "bot")]),
        sheet("names", &[("metadata.jobName", "x")]),
        // the shipped profile's veryPolite: a sheet no association names
        sheet("veryPolite", &[("disposition.delayFactor", "10")]),
    ]
    .concat();
    let l = read(Crawler::Heritrix, &file(&body), "f").unwrap();
    // a sheet laid over no URL is read but not in this run, and marked so; a laid one is not
    let idle = l.settings.iter().find(|s| s.name == "disposition.delayFactor (sheet veryPolite)").unwrap();
    assert!(idle.aside && idle.meaning.contains("not in this run"), "{idle:?}");
    assert!(l.settings.iter().filter(|s| s.name.ends_with("(sheet c)")).all(|s| !s.aside));
    // the crawl's own settings stand; the sheets' are listed beside, with their lines
    assert_eq!(l.model.server_delay_s, 3.0);
    let row = |name: &str| l.settings.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name}: {:?}", l.settings)).clone();
    assert_eq!((row("disposition.minDelayMs (sheet c)").value, row("disposition.minDelayMs (sheet c)").line), ("7000".into(), Some(25)));
    assert!(row("disposition.minDelayMs (sheet b)").meaning.starts_with("over the URLs under http://(com,example,www,:"));
    assert!(l.ignored.contains(&("fetchHttp.userAgent (sheet c)".to_string(), 27)), "{:?}", l.ignored);
    assert!(l.ignored.contains(&("metadata.jobName (sheet names)".to_string(), 30)), "{:?}", l.ignored);
    assert!(!l.ignored.iter().any(|(n, _)| n.contains(".map") || n.contains("surtPrefixes")), "{:?}", l.ignored);
    // an https prefix (Heritrix compares URLs in their http form): said, not applied
    let aside: Vec<&Setting> = l.settings.iter().filter(|s| s.name == "SurtPrefixesSheetAssociation.surtPrefixes").collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert!(aside[0].meaning.contains("applies to no URL"), "{aside:?}");
    // a path's: over the URLs under it, not over the rest of the host
    let on_url = |url: &str| overlay(&Prefixes::of(&l.sheets).matching(&url_surt(url).unwrap(), url).into_iter().map(|k| &l.sheets[k]).collect::<Vec<_>>(), &l.model).unwrap();
    assert_eq!((on_url("https://example.org/forum/t/1").server_delay_s, on_url("https://example.org/blog/1").server_delay_s), (1.0, 3.0));
    assert_eq!(model_for_host(&l, "example.org").server_delay_s, 3.0, "the host's root is not under the path");
    // www.example.com: b (the longest prefix), then c (associated after a), then a
    let model_for = |host: &str| model_for_host(&l, host);
    let www = model_for("www.example.com");
    assert_eq!((www.server_delay_s, www.reaction), (2.0, Reaction::Heritrix { delay_factor: 5.0, max_delay_s: 5.0 }));
    assert_eq!(model_for("EXAMPLE.com").server_delay_s, 7.0);
    // DispositionProcessor.politenessDelayFor: maxDelayMs caps the least gap too
    assert_eq!(model_for("EXAMPLE.com").politeness_s(), 5.0, "sheet c's 7 s least gap under its 5 s most");
    assert_eq!(model_for("example.org").server_delay_s, 3.0, "under no sheet it reads");
    assert!(rules_for(&l.sheets, "example.net").is_empty(), "a sheet of settings Freshlab does not read");
    // refused: a sheet no bean defines, a value Heritrix cannot take, an entry without a key
    let e = read(Crawler::Heritrix, &file(&association(&["http://(com,x,"], &["gone"])), "f").unwrap_err();
    assert!(e.field == "f" && e.message.contains("line 3: names sheet “gone”, which no org.archive.spring.Sheet bean defines"), "{e}");
    let e = read(Crawler::Heritrix, &file(&[association(&["http://(com,x,"], &["a"]), sheet("a", &[("disposition.minDelayMs", "soon")])].concat()), "f").unwrap_err();
    assert!(e.message.contains("sheet a, disposition.minDelayMs (line 7): must be a number of milliseconds"), "{e}");
    let e = read(Crawler::Heritrix, &file("<bean id=\"a\" class=\"org.archive.spring.Sheet\"><property name=\"map\"><map><entry value=\"1\"/></map></property></bean>"), "f")
        .unwrap_err();
    assert!(e.message.contains("line 3: sheet a: an <entry> without a key"), "{e}");
    // without a SheetOverlaysManager Heritrix lays no sheet: said, none applied
    let unmanaged = read(Crawler::Heritrix, &file(&body).replace("org.archive.crawler.spring.SheetOverlaysManager", "x.Y"), "f").unwrap();
    assert!(unmanaged.sheets.is_empty());
    assert!(unmanaged.settings.iter().any(|s| s.aside && s.meaning.starts_with("no SheetOverlaysManager bean: Heritrix lays no sheet without one")));
    // the sheets a tuning writes, read back: each host at its own gap
    // (d.example's 45 s over the crawl's 30 s most: its sheet raises the most with it)
    let hosts = [("a.example".into(), 20_000, false), ("b.example".into(), 5000, false), ("c.example".into(), 20_000, false), ("d.example".into(), 45_000, true)];
    let written = heritrix_sheets::insert(&file(""), &heritrix_sheets::host_gaps(&hosts, "tuned")).unwrap();
    assert!(written.contains("<entry key=\"disposition.maxDelayMs\" value=\"45000\"/>") && written.matches("maxDelayMs").count() == 1, "{written}");
    let back = read(Crawler::Heritrix, &written, "f").unwrap();
    let gap = |host: &str| overlay(&rules_for(&back.sheets, host).into_iter().map(|k| &back.sheets[k]).collect::<Vec<_>>(), &back.model).unwrap().politeness_s();
    assert_eq!((gap("a.example"), gap("b.example"), gap("c.example"), gap("d.example"), gap("www.a.example")), (20.0, 5.0, 20.0, 45.0, 3.0));
    let bare = heritrix_sheets::insert("<beans>\n</beans>", &heritrix_sheets::host_gaps(&[("a.example".into(), 1000, false)], "tuned")).unwrap();
    assert_eq!(heritrix_sheets::rules_for(&read(Crawler::Heritrix, &bare, "f").unwrap().sheets, "a.example").len(), 1, "a manager added");
}

/// The shared gaps of Heritrix's tuned sheets: never under 1/capacity, at most one
/// step of 10^(1/100) over it (2.3 %), and 100 a decade.
#[test]
fn a_shared_gap_keeps_to_the_capacity_within_one_step() {
    let mut seen = std::collections::BTreeSet::new();
    for k in 0..30_000 {
        // capacities over three decades, 0.01 to 10 requests a second, and round ones
        let capacity = if k % 3 == 0 { [0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 10.0][k % 10] } else { 0.01 * 1000f64.powf(k as f64 / 30_000.0) };
        let gap = heritrix_sheets::shared_gap_ms(capacity) as f64;
        let least = 1000.0 / capacity;
        assert!(gap >= least && gap <= (least * 10f64.powf(0.01)).ceil(), "{capacity}: {gap} ms for {least}");
        seen.insert(gap as u64);
    }
    assert!(seen.len() <= 301, "{} gaps over three decades", seen.len());
    assert_eq!(heritrix_sheets::shared_gap_ms(1.0), 1000, "a gap on the grid is itself");
}

/// The URL a decide rule reads, as UURIFactory.fixup makes it, by hand on each step.
#[test]
fn heritrixs_decide_rules_read_the_url_as_heritrix_holds_it() {
    use super::heritrix_rules::uuri_form;
    for (written, held) in [
        ("HTTP://WWW.Example.COM/News/A?Q=1#top", "http://www.example.com/News/A?Q=1"),
        ("  https://example.com:443  ", "https://example.com/"),
        ("http://example.com:80?x", "http://example.com/?x"),
        ("http://example.com:8080/a", "http://example.com:8080/a"),
        ("https://example.com:80/a", "https://example.com:80/a"),
        ("http:////example.com./a", "http://example.com/a"),
        ("http://User:Pw@Example.com/a", "http://User:Pw@example.com/a"),
        ("http://example.com/../a", "http://example.com/a"),
        ("http://example.com\\a\\b", "http://example.com/a/b"),
        ("http://example.com/a b/é", "http://example.com/a%20b/%C3%A9"),
        ("example.com/A", "example.com/A"),
    ] {
        assert_eq!(uuri_form(written), held, "{written}");
    }
}

/// A DecideRuledSheetAssociation lays its sheets over the URLs its rules accept
/// (SheetOverlaysManager.applyOverlaysTo), winning over every prefix's sheet, the
/// association placed last by its `order` then bean name winning (KeyedProperties.get
/// reads the URL's sheets from the last added); each rule as
/// Heritrix's code decides: a sequence's last decision not NONE, a regex matching the
/// whole URL, a list's OR and AND, the Not… forms, `enabled` false; what it cannot
/// evaluate stands aside with the line, what Spring would refuse is refused.
#[test]
fn heritrixs_decide_rules_lay_sheets_over_the_urls_they_accept() {
    use super::heritrix_rules::{Decision, Rule};
    use super::heritrix_sheets::{Prefixes, overlay, url_surt};
    let rule = |class: &str, props: &str| format!("<bean class=\"org.archive.modules.deciderules.{class}\">{props}</bean>\n");
    let regex = |r: &str| format!("<property name=\"regex\" value=\"{r}\"/>");
    let decision = |d: &str| format!("<property name=\"decision\" value=\"{d}\"/>");
    let ruled = |rules: &str, sheet: &str| {
        format!(
            "<bean class=\"org.archive.crawler.spring.DecideRuledSheetAssociation\">\n<property name=\"rules\">{rules}</property>\n<property name=\"targetSheetNames\"><list><value>{sheet}</value></list></property></bean>\n"
        )
    };
    let sequence = |rules: &[String]| rule("DecideRuleSequence", &format!("<property name=\"rules\"><list>\n{}</list></property>", rules.concat()));
    let sheet = |id: &str, ms: u32| {
        format!("<bean id=\"{id}\" class=\"org.archive.spring.Sheet\"><property name=\"map\"><map><entry key=\"disposition.minDelayMs\" value=\"{ms}\"/></map></property></bean>\n")
    };
    let file = |body: &str| {
        format!(
            "<beans>\n<bean id=\"disposition\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\"><property name=\"minDelayMs\" value=\"3000\"/></bean>\n<bean id=\"sheetOverlaysManager\" autowire=\"byType\" class=\"org.archive.crawler.spring.SheetOverlaysManager\"/>\n{body}</beans>"
        )
    };
    // forums slow (7 s), except the archive (a later REJECT wins); any .pdf faster (1 s)
    // unless disabled; a prefix's sheet over example.org (2 s) wins over both
    let body = [
        ruled(&sequence(&[rule("MatchesRegexDecideRule", &regex(".*/forum/.*")), rule("MatchesRegexDecideRule", &[regex(".*/forum/archive/.*"), decision("REJECT")].concat())]), "slow"),
        ruled(&rule("MatchesListRegexDecideRule", "<property name=\"regexList\"><list><value>.*\\.pdf</value><value>https://.*</value></list></property><property name=\"listLogicalOr\" value=\"false\"/>"), "fast"),
        "<bean class=\"org.archive.crawler.spring.SurtPrefixesSheetAssociation\"><property name=\"surtPrefixes\"><list><value>http://(org,example,</value></list></property><property name=\"targetSheetNames\"><list><value>org</value></list></property></bean>\n".into(),
        sheet("slow", 7000),
        sheet("fast", 1000),
        sheet("org", 2000),
    ]
    .concat();
    let l = read(Crawler::Heritrix, &file(&body), "f").unwrap();
    assert_eq!(l.sheets.iter().filter(|r| r.decide.is_some()).count(), 2, "{:?}", l.sheets);
    assert!(l.ignored.is_empty(), "the associations' rules are read, not ignored: {:?}", l.ignored);
    let gap = |url: &str| {
        let found = Prefixes::of(&l.sheets).matching(&url_surt(url).unwrap(), url);
        overlay(&found.into_iter().map(|k| &l.sheets[k]).collect::<Vec<_>>(), &l.model).unwrap().server_delay_s
    };
    assert_eq!(gap("http://example.com/forum/t/1"), 7.0, "accepted by the first rule");
    assert_eq!(gap("http://example.com/forum/archive/1"), 3.0, "the sequence's later REJECT");
    assert_eq!(gap("http://example.com/forum"), 3.0, "a regex matches the whole URL");
    assert_eq!((gap("https://example.com/a.pdf"), gap("http://example.com/a.pdf")), (1.0, 3.0), "a list's AND");
    assert_eq!(gap("https://example.com/forum/a.pdf"), 1.0, "of two decide-ruled sheets, the one placed last (…Association#1, after #0)");
    assert_eq!((gap("http://example.org/forum/1"), gap("http://example.org/blog/1")), (7.0, 2.0), "a decide-ruled sheet over a prefix's");
    // placed by `order`, then by bean name (an id, a name's first alias, or Spring's
    // class#count for a bean with neither): the last wins
    let placed = |slow: &str, slow_order: &str, fast: &str| {
        const OPEN: &str = "<bean class=\"org.archive.crawler.spring.DecideRuledSheetAssociation\">";
        let order = if slow_order.is_empty() { String::new() } else { format!("<property name=\"order\" value=\"{slow_order}\"/>") };
        let body = body.replacen(OPEN, &format!("{}{order}", OPEN.replace("<bean ", &format!("<bean {slow} "))), 1);
        let at = body.rfind(OPEN).unwrap();
        let body = format!("{}{}{}", &body[..at], OPEN.replace("<bean ", &format!("<bean {fast} ")), &body[at + OPEN.len()..]);
        let l = read(Crawler::Heritrix, &file(&body), "f").unwrap();
        let url = "https://example.com/forum/a.pdf";
        let found = Prefixes::of(&l.sheets).matching(&url_surt(url).unwrap(), url);
        overlay(&found.into_iter().map(|k| &l.sheets[k]).collect::<Vec<_>>(), &l.model).unwrap().server_delay_s
    };
    assert_eq!(placed("", "", ""), 1.0, "both unnamed: #0 then #1");
    assert_eq!(placed("id=\"zSlow\"", "", "id=\"aFast\""), 7.0, "zSlow after aFast");
    assert_eq!(placed("name=\" ;zSlow,other\"", "", "id=\"aFast\""), 7.0, "a name's first alias");
    assert_eq!(placed("", "", "id=\"aFast\""), 7.0, "org.archive.…#0 after aFast");
    assert_eq!(placed("", "1", ""), 7.0, "order 1 after the default 0");
    assert_eq!(placed("id=\"zSlow\"", "-2", ""), 1.0, "order −2 before 0, whatever the name");
    let e = read(Crawler::Heritrix, &file(&body.replacen("<property name=\"rules\">", "<property name=\"order\" value=\"first\"/><property name=\"rules\">", 1)), "f").unwrap_err();
    assert!(e.message.contains("line 4: DecideRuledSheetAssociation's order “first” is not a whole number"), "{e}");
    // the URL as Heritrix holds it: scheme and host lowercased, the default port and the
    // fragment dropped, the path's case kept
    assert_eq!(gap("HTTPS://Example.COM:443/Forum/a.PDF#p2"), 3.0, "the path's case is kept");
    assert_eq!(gap("HTTPS://Example.COM:443/forum/t/1#p2"), 7.0, "matched on https://example.com/forum/t/1");
    assert_eq!(gap("https://example.com:8443/a.pdf"), 1.0, "another port is kept, and matches");
    let row = l.settings.iter().find(|s| s.name == "disposition.minDelayMs (sheet slow)").unwrap();
    assert!(row.meaning.starts_with("over the URLs the decide rules of line 4 accept: "), "{}", row.meaning);
    // a reference to a rule bean by id, the Not… form, OR, and `enabled` false
    let by_ref = [
        ruled("<ref bean=\"notPdf\"/>", "slow"),
        rule("NotMatchesListRegexDecideRule", "<property name=\"regexList\"><list><value>.*\\.pdf</value><value>.*\\.zip</value></list></property>").replacen(
            "<bean ",
            "<bean id=\"notPdf\" ",
            1,
        ),
        ruled(&rule("AcceptDecideRule", "<property name=\"enabled\" value=\"false\"/>"), "fast"),
        sheet("slow", 7000),
        sheet("fast", 1000),
    ]
    .concat();
    // the crawl's scope (a sequence no association names) is not read: listed as ignored
    let scope = "<bean id=\"scope\" class=\"org.archive.modules.deciderules.DecideRuleSequence\"><property name=\"rules\"><list><bean class=\"org.archive.modules.deciderules.RejectDecideRule\"/></list></property></bean>\n";
    let l = read(Crawler::Heritrix, &file(&[by_ref, scope.to_string()].concat()), "f").unwrap();
    assert_eq!(l.ignored.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["scope.rules"], "the referred rule is read, the scope's is not");
    let decides = |url: &str| Prefixes::of(&l.sheets).matching(&url_surt(url).unwrap(), url).len();
    assert_eq!((decides("http://a.example/x.html"), decides("http://a.example/x.pdf"), decides("http://a.example/x.zip")), (1, 0, 0));
    assert_eq!(l.sheets[1].decide, Some(Rule::Always(Decision::None)), "a disabled rule decides nothing");
    // one association naming two sheets: its rules asked once, both laid, the last named first
    let two = ruled(&rule("MatchesRegexDecideRule", &regex(".*\\.pdf")), "slow").replace("<value>slow</value>", "<value>slow</value><value>fast</value>");
    let l = read(Crawler::Heritrix, &file(&[two, sheet("slow", 7000), sheet("fast", 1000)].concat()), "f").unwrap();
    assert_eq!(Prefixes::of(&l.sheets).matching(&url_surt("http://a.example/x.pdf").unwrap(), "http://a.example/x.pdf"), [1, 0]);
    assert!(Prefixes::of(&l.sheets).matching(&url_surt("http://a.example/x").unwrap(), "http://a.example/x").is_empty());
    // what Freshlab cannot evaluate: said with its line, not in the run
    let hops = read(Crawler::Heritrix, &file(&[ruled(&rule("TooManyHopsDecideRule", ""), "slow"), sheet("slow", 7000)].concat()), "f").unwrap();
    assert!(hops.sheets.is_empty());
    let aside = hops.settings.iter().find(|s| s.name == "DecideRuledSheetAssociation.targetSheetNames").expect("said");
    assert!(aside.meaning.contains("TooManyHopsDecideRule (line 5) decides on what a run does not have"), "{}", aside.meaning);
    let lookahead = read(Crawler::Heritrix, &file(&[ruled(&rule("MatchesRegexDecideRule", &regex("(?=a).*")), "slow"), sheet("slow", 7000)].concat()), "f").unwrap();
    let aside = lookahead.settings.iter().find(|s| s.name == "DecideRuledSheetAssociation.targetSheetNames").expect("said");
    assert!(aside.meaning.contains("the regex “(?=a).*” cannot be read by Freshlab's engine") && lookahead.sheets.is_empty(), "{}", aside.meaning);
    // what Spring refuses to start with: refused, with the line and the fix
    let e = read(Crawler::Heritrix, &file(&[ruled(&rule("MatchesRegexDecideRule", &decision("accept")), "slow"), sheet("slow", 7000)].concat()), "f").unwrap_err();
    assert!(e.message.contains("line 5: MatchesRegexDecideRule's decision “accept” is not ACCEPT, REJECT or NONE"), "{e}");
    let e = read(Crawler::Heritrix, &file(&[ruled("<ref bean=\"gone\"/>", "slow"), sheet("slow", 7000)].concat()), "f").unwrap_err();
    assert!(e.message.contains("line 5: refers to bean “gone”, which the file does not define"), "{e}");
    let looped = rule("DecideRuleSequence", "<property name=\"rules\"><list><ref bean=\"me\"/></list></property>").replacen("<bean ", "<bean id=\"me\" ", 1);
    let e = read(Crawler::Heritrix, &file(&[ruled("<ref bean=\"me\"/>", "slow"), looped, sheet("slow", 7000)].concat()), "f").unwrap_err();
    assert!(e.message.contains("nested more than 32 deep"), "{e}");
}

/// Heritrix's revisit: ReschedulingProcessor's rescheduleDelaySeconds where the bean runs
/// (named in the disposition chain, or in a part of a job with no chain), over 0 a
/// fixed interval after each fetch, at most 0 none (the default −1); a value Heritrix
/// cannot take refused with its line; where it would not run, or a sheet lays it over a
/// path, said with why and left out.
#[test]
fn heritrixs_rescheduler_is_its_revisit_where_it_runs() {
    let bean = |seconds: &str| {
        format!(
            "<bean id=\"rescheduler\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\">\n<property name=\"rescheduleDelaySeconds\" value=\"{seconds}\"/>\n</bean>\n"
        )
    };
    let chain = |refs: &str| {
        format!("<bean id=\"dispositionProcessors\" class=\"org.archive.modules.DispositionChain\"><property name=\"processors\"><list>{refs}</list></property></bean>\n")
    };
    let file = |body: &str| format!("<beans>\n{body}</beans>");
    let revisit = |l: &Loaded| (l.model.intervals.initial, l.model.intervals.min, l.model.intervals.max, l.model.retry_days);
    // a part of a job (no chain): its rescheduler runs, a week after each fetch
    let part = read(Crawler::Heritrix, &file(&bean("604800")), "f").unwrap();
    assert_eq!(revisit(&part), (7.0, 7.0, 7.0, 7.0));
    let row = part.settings.iter().find(|s| s.name == heritrix::RESCHEDULE).unwrap();
    assert!(row.from_file && !row.aside && row.line == Some(3), "{row:?}");
    // in the chain, as the profile names it; the shipped −1 and 0: no revisit
    assert_eq!(revisit(&read(Crawler::Heritrix, &file(&(bean("3600") + &chain("<ref bean=\"disposition\"/><ref bean=\"rescheduler\"/>"))), "f").unwrap()).0, 1.0 / 24.0);
    for none in ["-1", "0"] {
        assert_eq!(revisit(&read(Crawler::Heritrix, &file(&bean(none)), "f").unwrap()).1, heritrix::NO_REVISIT_DAYS, "{none}");
    }
    assert_eq!(revisit(&read(Crawler::Heritrix, &file(""), "f").unwrap()).1, heritrix::NO_REVISIT_DAYS, "no rescheduler");
    let e = read(Crawler::Heritrix, &file(&bean("1.5")), "f").unwrap_err();
    assert!(e.message.contains("rescheduler.rescheduleDelaySeconds (line 3): must be a whole number of seconds (-1: no revisit)"), "{e}");
    // out of the chain (the shipped profile's ref commented out): said, not run
    let out = read(Crawler::Heritrix, &file(&(bean("3600") + &chain("<ref bean=\"disposition\"/><!-- <ref bean=\"rescheduler\"/> -->"))), "f").unwrap();
    assert_eq!(revisit(&out).1, heritrix::NO_REVISIT_DAYS);
    let row = out.settings.iter().find(|s| s.name == heritrix::RESCHEDULE).unwrap();
    assert!(row.aside && row.meaning.starts_with("the ReschedulingProcessor of line 2 is not in the disposition chain"), "{row:?}");
    // an override of a bean the file does not define: said (Heritrix would not start)
    let overrides = "<bean id=\"simpleOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\"><property name=\"properties\"><value>\nrescheduler.rescheduleDelaySeconds=60\n</value></property></bean>\n";
    let row = read(Crawler::Heritrix, &file(overrides), "f").unwrap().settings.into_iter().find(|s| s.name == heritrix::RESCHEDULE).unwrap();
    assert!(row.aside && row.meaning.starts_with("no org.archive.crawler.postprocessor.ReschedulingProcessor bean with the id rescheduler"), "{row:?}");
    // sheets: a host's laid over it
    let sheets = "<bean id=\"sheetOverlaysManager\" autowire=\"byType\" class=\"org.archive.crawler.spring.SheetOverlaysManager\"/>\n\
        <bean id=\"daily\" class=\"org.archive.spring.Sheet\"><property name=\"map\"><map><entry key=\"rescheduler.rescheduleDelaySeconds\" value=\"86400\"/></map></property></bean>\n\
        <bean class=\"org.archive.crawler.spring.SurtPrefixesSheetAssociation\"><property name=\"surtPrefixes\"><list><value>http://(com,example,</value><value>http://(org,example,)/news/</value></list></property><property name=\"targetSheetNames\"><list><value>daily</value></list></property></bean>\n";
    let l = read(Crawler::Heritrix, &file(&(bean("604800") + sheets)), "f").unwrap();
    let host = |h: &str| {
        let rules: Vec<&heritrix_sheets::SheetRule> = heritrix_sheets::rules_for(&l.sheets, h).into_iter().map(|k| &l.sheets[k]).collect();
        heritrix_sheets::overlay(&rules, &l.model).unwrap().intervals.min
    };
    assert_eq!((host("www.example.com"), host("example.org")), (1.0, 7.0));
    // a path's too, over the pages under it (ReschedulingProcessor reads the fetched URL's)
    let row = l.settings.iter().find(|s| s.name == "rescheduler.rescheduleDelaySeconds (sheet daily)").expect("listed");
    assert!(!row.aside && row.meaning.starts_with("over the URLs under http://(com,example,, the URLs under http://(org,example,)/news/"), "{row:?}");
    let prefixes = heritrix_sheets::Prefixes::of(&l.sheets);
    let page = |url: &str| {
        let rules: Vec<&heritrix_sheets::SheetRule> = prefixes.matching(&heritrix_sheets::url_surt(url).unwrap(), url).into_iter().map(|k| &l.sheets[k]).collect();
        heritrix_sheets::overlay(&rules, &l.model).unwrap().intervals.min
    };
    assert_eq!((page("https://example.org/news/1"), page("https://example.org/about")), (1.0, 7.0));
}

/// A setting Freshlab reads, on a bean the file names otherwise than the shipped
/// profile (a DispositionProcessor `politeness`, a ReschedulingProcessor `mine`): listed
/// as not in the run with the fix, not as an unknown name, the crawl at its defaults.
#[test]
fn heritrix_settings_on_renamed_beans_are_said_with_the_fix() {
    let text = "<beans>\n<bean id=\"politeness\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\"><property name=\"minDelayMs\" value=\"9000\"/></bean>\n\
        <bean id=\"mine\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"><property name=\"rescheduleDelaySeconds\" value=\"3600\"/></bean>\n</beans>";
    let l = read(Crawler::Heritrix, text, "f").unwrap();
    assert_eq!(l.model.server_delay_s, 3.0);
    assert!(l.ignored.is_empty(), "{:?}", l.ignored);
    let row = |name: &str| l.settings.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name}: {:?}", l.settings));
    let politeness = row("politeness.minDelayMs");
    assert!(politeness.aside && politeness.line == Some(2), "{politeness:?}");
    assert_eq!(
        politeness.meaning,
        "minDelayMs of the bean politeness: Freshlab reads it (and its tuning writes it) on the shipped profile's bean id, disposition, so it is not in this run; give the bean that id (and its refs) to run it"
    );
    assert!(row("mine.rescheduleDelaySeconds").meaning.contains("on the shipped profile's bean id, rescheduler,"));
}

/// The tuning turns Heritrix's rescheduler on where it does not run: the shipped
/// profile's bean, commented out, defined before the chain and its ref added at the end
/// of the chain's list, indented as its items; a bean already defined only referenced; a
/// file where it runs unchanged; a bean of another class under its id, or the processor
/// under another id, refused, named.
#[test]
fn heritrixs_rescheduler_turned_on_by_the_tuning() {
    let shipped = "<beans>\n <!-- <bean id=\"rescheduler\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"/> -->\n <bean id=\"dispositionProcessors\" class=\"org.archive.modules.DispositionChain\">\n  <property name=\"processors\">\n   <list>\n    <ref bean=\"disposition\"/>\n    <!-- <ref bean=\"rescheduler\" /> -->\n   </list>\n  </property>\n </bean>\n</beans>\n";
    let on = heritrix::with_rescheduler(shipped).unwrap();
    assert_eq!(
        on,
        "<beans>\n <!-- <bean id=\"rescheduler\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"/> -->\n <bean id=\"rescheduler\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"/>\n <bean id=\"dispositionProcessors\" class=\"org.archive.modules.DispositionChain\">\n  <property name=\"processors\">\n   <list>\n    <ref bean=\"disposition\"/>\n    <!-- <ref bean=\"rescheduler\" /> -->\n    <ref bean=\"rescheduler\"/>\n   </list>\n  </property>\n </bean>\n</beans>\n"
    );
    assert!(read(Crawler::Heritrix, &on, "f").unwrap().reschedules && !read(Crawler::Heritrix, shipped, "f").unwrap().reschedules);
    assert_eq!(heritrix::with_rescheduler(&on).unwrap(), on, "running: unchanged");
    // defined, out of a one-line chain: only referenced
    let defined = "<beans><bean id=\"rescheduler\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"/><bean class=\"org.archive.modules.DispositionChain\"><property name=\"processors\"><list><ref bean=\"disposition\"/></list></property></bean></beans>";
    let on = heritrix::with_rescheduler(defined).unwrap();
    assert_eq!(on, defined.replace("<ref bean=\"disposition\"/></list>", "<ref bean=\"disposition\"/><ref bean=\"rescheduler\"/></list>"));
    assert!(read(Crawler::Heritrix, &on, "f").unwrap().reschedules);
    // a part of a job (no chain): the bean alone
    assert!(read(Crawler::Heritrix, &heritrix::with_rescheduler("<beans>\n</beans>").unwrap(), "f").unwrap().reschedules);
    let e = heritrix::with_rescheduler("<beans>\n<bean id=\"rescheduler\" class=\"my.Other\"/>\n</beans>").unwrap_err();
    assert!(e.starts_with("its bean of line 2 with the id rescheduler is a my.Other, not a ReschedulingProcessor"), "{e}");
    let e = heritrix::with_rescheduler("<beans>\n\n<bean id=\"mine\" class=\"org.archive.crawler.postprocessor.ReschedulingProcessor\"/>\n</beans>").unwrap_err();
    assert!(e.starts_with("its ReschedulingProcessor of line 3 has the id mine; Freshlab reads and tunes it under the shipped profile's id, rescheduler: rename it"), "{e}");
}

#[test]
fn heritrixs_overrides_file_beside_the_job() {
    let with = |local_override: &str| {
        HERITRIX_PROFILE.replace(
            " <bean id=\"longerOverrides\"",
            &format!(" <bean id=\"fileOverrides\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\">\n  <property name=\"location\" value=\"file:conf/over.properties\" />{local_override}\n  <property name=\"properties\"><value>disposition.maxDelayMs=50000</value></property>\n </bean>\n <bean id=\"longerOverrides\""),
        )
    };
    let file = "# beside the job\ndisposition.delayFactor=8.0\ndisposition.maxDelayMs=60000\ndisposition.minDelayMs=1000\nmetadata.operatorContactUrl=http://example.org\n";
    assert_eq!(heritrix::location(&with("")).unwrap().as_deref(), Some("file:conf/over.properties"));
    let l = read_beside(Crawler::Heritrix, &with(""), Some(("over.properties", file)), ["f", "g"]).unwrap();
    let row = |name: &str| l.settings.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("{name}")).clone();
    // over the profile's simpleOverrides (3.0) and the bean's own properties (50000)
    assert_eq!(
        (row("disposition.delayFactor").value, row("disposition.delayFactor").file.as_deref(), row("disposition.delayFactor").line),
        ("8.0".into(), Some("over.properties"), Some(2))
    );
    assert_eq!(row("disposition.maxDelayMs").value, "60000");
    // longerOverrides, later in the file, wins over it
    assert_eq!((row("disposition.minDelayMs").value, row("disposition.minDelayMs").file), ("7000".into(), None));
    assert!(l.ignored.contains(&("metadata.operatorContactUrl (over.properties)".to_string(), 5)), "{:?}", l.ignored);
    assert!(!l.settings.iter().any(|s| s.name.ends_with(".location")), "read, not listed as unread");
    // localOverride: the bean's own properties win over its file
    let local = read_beside(Crawler::Heritrix, &with("\n  <property name=\"localOverride\" value=\"true\" />"), Some(("over.properties", file)), ["f", "g"]).unwrap();
    assert_eq!(local.settings.iter().find(|s| s.name == "disposition.maxDelayMs").unwrap().value, "50000");
    // a value it gives that Heritrix cannot take: refused naming the file, line and field
    let e = read_beside(Crawler::Heritrix, &with(""), Some(("over.properties", "disposition.delayFactor=fast\n")), ["f", "g"]).unwrap_err();
    assert!(e.field == "g" && e.message.contains("disposition.delayFactor (over.properties, line 1)"), "{e}");
    assert!(heritrix::located_pairs("a=\\uZZ\n").unwrap_err().contains("line 1: malformed"));
    let twice = with("").replace(" <bean id=\"longerOverrides\"", " <bean id=\"more\" class=\"org.springframework.beans.factory.config.PropertyOverrideConfigurer\"><property name=\"location\" value=\"b.properties\"/></bean>\n <bean id=\"longerOverrides\"");
    assert!(heritrix::location(&twice).unwrap_err().contains("names 2 overrides files"));
    // a setting written over such a file goes into a last overrides bean of its own, which
    // Spring applies after the file: read back with the file, it holds
    let written =
        write::write(Crawler::Heritrix, Some(&with("")), &[("disposition.delayFactor", "2.5".into()), ("disposition.respectCrawlDelayUpToSeconds", "60".into())], "tuned", &|_| {
            String::new()
        })
        .unwrap();
    assert!(written.contains("<bean id=\"freshlabOverrides\""), "{written}");
    let back = read_beside(Crawler::Heritrix, &written, Some(("over.properties", file)), ["f", "g"]).unwrap();
    assert_eq!(back.model.reaction, Reaction::Heritrix { delay_factor: 2.5, max_delay_s: 60.0 });
    assert_eq!(back.model.crawl_delay_cap_s, 60.0);
    assert_eq!(written.matches("freshlabOverrides").count(), 1, "one bean for both");
}

/// Issue 46: each crawler's reaction to servers that push back, set from its file; the
/// shipped values where the file is silent.
#[test]
fn the_files_set_each_crawlers_reaction_to_refusals() {
    let prop = |name: &str, value: &str| format!("<property><name>{name}</name><value>{value}</value></property>");
    let nutch = format!("<configuration>{}{}</configuration>", prop("fetcher.exceptions.per.queue.delay", "10"), prop("fetcher.max.exceptions.per.queue", "-1"));
    assert_eq!(read(Crawler::Nutch, &nutch, "f").unwrap().model.reaction, Reaction::Nutch { exception_delay_s: 10.0, max_exceptions: -1, cycle_days: 0.0 });
    assert_eq!(shipped(Crawler::Nutch).model.reaction, Reaction::Nutch { exception_delay_s: 0.0, max_exceptions: 5, cycle_days: 0.0 });
    // checkExceptionThreshold purges once the count reaches the most: 0 or below (but -1), at the first
    for first in ["0", "-3"] {
        let at_first = format!("<configuration>{}</configuration>", prop("fetcher.max.exceptions.per.queue", first));
        assert!(matches!(read(Crawler::Nutch, &at_first, "f").unwrap().model.reaction, Reaction::Nutch { max_exceptions: 1, .. }), "{first}");
    }
    let bad = format!("<configuration>{}</configuration>", prop("fetcher.max.exceptions.per.queue", "2.5"));
    let message = read(Crawler::Nutch, &bad, "f").unwrap_err().message;
    assert!(message.contains("fetcher.max.exceptions.per.queue") && message.contains("Hadoop reads it with getInt"), "{message}");

    let storm = "config:\n  urlfrontier.max.retry.after: -1\n  urlfrontier.backoff.jitter: 0.25\n  fetchInterval.fetch.error: 30\n";
    let loaded = read(Crawler::Stormcrawler, storm, "f").unwrap();
    assert_eq!(loaded.model.reaction, Reaction::Stormcrawler { max_retry_after_s: -1.0, jitter: 0.25, backoff: StormBackoff::SHIPPED });
    assert!((loaded.model.retry_days - 30.0 * MINUTE).abs() < 1e-15);
    assert_eq!(shipped(Crawler::Stormcrawler).model.reaction, Reaction::Stormcrawler { max_retry_after_s: 86_400.0, jitter: 0.1, backoff: StormBackoff::SHIPPED });

    let heritrix = r#"<beans><bean id="disposition" class="org.archive.crawler.postprocessor.DispositionProcessor">
  <property name="delayFactor" value="2.5"/>
  <property name="maxDelayMs" value="60000"/>
</bean></beans>"#;
    assert_eq!(read(Crawler::Heritrix, heritrix, "f").unwrap().model.reaction, Reaction::Heritrix { delay_factor: 2.5, max_delay_s: 60.0 });

    let scrapy = "AUTOTHROTTLE_ENABLED = True\nAUTOTHROTTLE_TARGET_CONCURRENCY = 2.0\nRANDOMIZE_DOWNLOAD_DELAY = False\nCONCURRENT_REQUESTS_PER_DOMAIN = 4\n";
    assert_eq!(
        read(Crawler::Scrapy, scrapy, "f").unwrap().model.reaction,
        Reaction::Scrapy { randomize: false, concurrency: 4.0, autothrottle: true, start_delay_s: 5.0, max_delay_s: 60.0, target_concurrency: 2.0 }
    );
    let message = read(Crawler::Scrapy, "AUTOTHROTTLE_TARGET_CONCURRENCY = 0\n", "f").unwrap_err().message;
    assert!(message.contains("AUTOTHROTTLE_TARGET_CONCURRENCY") && message.contains("line 1"), "{message}");
}

/// StormCrawler's back-off as HostBackoff reads it: each `urlfrontier.backoff.*` setting
/// into the model, and what the QueueRegulatorBolt sees decided by what
/// MetadataTransfer.filter keeps (crawler-default.yaml's list keeps neither key: no
/// block at all; `protocol.*` keeps the header under the default prefix, a prefix of its
/// own needs its own key); values HostBackoff would change are refused saying so.
#[test]
fn stormcrawlers_backoff_settings_and_what_its_bolt_sees() {
    let storm = |text: &str| read(Crawler::Stormcrawler, &format!("config:\n{text}"), "f");
    let backoff = |text: &str| match storm(text).unwrap().model.reaction {
        Reaction::Stormcrawler { backoff, .. } => backoff,
        other => panic!("{other:?}"),
    };
    let codes_row = |text: &str| storm(text).unwrap().settings.into_iter().find(|s| s.name == "urlfrontier.backoff.status.codes").unwrap();
    assert_eq!(backoff("  fetcher.server.delay: 2\n"), StormBackoff::SHIPPED);
    assert!(codes_row("  fetcher.server.delay: 2\n").meaning.contains("crawler-default.yaml's metadata.persist keeps no fetch.statusCode"));
    let set = backoff(
        "  urlfrontier.backoff.base.secs: 30\n  urlfrontier.backoff.factor: 1.5\n  urlfrontier.backoff.max.secs: 3600\n  urlfrontier.backoff.decay.secs: 600\n  urlfrontier.backoff.status.codes:\n   - 429\n  metadata.persist:\n   - fetch.statusCode\n   - protocol.retry-after\n",
    );
    assert_eq!(
        set,
        StormBackoff { base_s: 30.0, factor: 1.5, max_s: 3600.0, decay_s: 600.0, on_429: true, on_503: false, sees_refusals: true, sees_retry_after: true, paces_up_to_s: 0.0 }
    );
    // a wildcard keeps what it begins; the header's key follows protocol.md.prefix
    let wild = backoff("  metadata.persist:\n   - fetch.*\n   - protocol.*\n");
    assert!(wild.sees_refusals && wild.sees_retry_after);
    // …and what AdaptiveScheduler needs kept alike (`signature*` keeps `signature`)
    let adaptive = "  scheduler.class: org.apache.stormcrawler.persistence.AdaptiveScheduler\n  metadata.persist:\n   - signature*\n   - fetchInterval\n";
    assert_eq!(storm(adaptive).unwrap().model.intervals.rule, Rule::Stormcrawler);
    let own_prefix = "  protocol.md.prefix: \"http.\"\n  metadata.transfer:\n   - fetch.statusCode\n  metadata.persist:\n   - protocol.retry-after\n";
    let b = backoff(own_prefix);
    assert!(b.sees_refusals && !b.sees_retry_after);
    assert!(codes_row(own_prefix).meaning.contains("keep fetch.statusCode but not http.retry-after"), "{}", codes_row(own_prefix).meaning);
    // refused as HostBackoff would change them
    for (text, says) in [
        ("  urlfrontier.backoff.factor: 0.5\n", "HostBackoff raises a factor below 1 to 1"),
        ("  urlfrontier.backoff.base.secs: 120\n  urlfrontier.backoff.max.secs: 60\n", "below urlfrontier.backoff.base.secs (120)"),
        ("  urlfrontier.backoff.base.secs: -1\n", "whole number of seconds"),
        ("  urlfrontier.backoff.jitter: -0.1\n", "raises a negative one to 0"),
    ] {
        let e = storm(text).unwrap_err();
        assert!(e.message.contains(says), "{text}: {e}");
    }
    // robots pacing: its conditions as QueueRegulatorBolt checks them at start-up
    let pacing = "  urlfrontier.robots.crawl.delay.enabled: true\n  fetcher.max.crawl.delay.force: true\n  urlfrontier.max.urls.per.bucket: 1\n  metadata.persist:\n   - robots.crawl.delay\n";
    assert_eq!(backoff(pacing).paces_up_to_s, 86_400.0);
    assert_eq!(backoff(&format!("{pacing}  urlfrontier.robots.delay.max.secs: 600\n")).paces_up_to_s, 600.0);
    assert_eq!(backoff("  urlfrontier.robots.delay.max.secs: 600\n").paces_up_to_s, 0.0, "off unless enabled");
    for (change, says) in [
        (pacing.replace("  fetcher.max.crawl.delay.force: true\n", ""), "requires fetcher.max.crawl.delay.force=true"),
        (pacing.replace("bucket: 1", "bucket: 10"), "requires urlfrontier.max.urls.per.bucket=1; found 10"),
        (pacing.replace("  urlfrontier.max.urls.per.bucket: 1\n", ""), "found 10"),
        (format!("{pacing}  partition.url.mode: byDomain\n"), "requires partition.url.mode=byHost; found byDomain"),
        (pacing.replace("robots.crawl.delay\n", "_redirTo\n"), "requires robots.crawl.delay in metadata.persist"),
        (format!("{pacing}  metadata.transfer:\n   - robots.*\n"), "kept out of metadata.transfer"),
    ] {
        let e = storm(&change).unwrap_err();
        assert!(e.message.contains("urlfrontier.robots.crawl.delay.enabled (line 2): robots crawl-delay pacing") && e.message.contains(says), "{change}: {e}");
    }
    // a jitter over 1 is HostBackoff's to take (it only raises a negative one)
    assert!(storm("  urlfrontier.backoff.jitter: 1.5\n").is_ok());
    let loaded = storm("  urlfrontier.backoff.on.exceptions: true\n  protocol.md.prefix: \"protocol.\"\n").unwrap();
    assert!(loaded.ignored.is_empty(), "{:?}", loaded.ignored);
}

/// ConfUtils as StormCrawler reads its map: a YAML null is a setting not given (the
/// default, the line said); a number quoted, a boolean where a number is read, a number
/// where a boolean or text is, stop the topology (ClassCastException) and are refused;
/// getInt and getLong keep a fraction's whole part, and getInt wraps past 2³¹ − 1; a list
/// given as one string is one item (loadListFromConf), refused where it holds a comma.
#[test]
fn stormcrawlers_settings_typed_as_confutils_reads_them() {
    let storm = |text: &str| read(Crawler::Stormcrawler, &format!("config:\n{text}"), "f");
    let row = |loaded: &Loaded, name: &str| loaded.settings.iter().find(|s| s.name == name).unwrap().clone();
    // null, ~ and nothing: the default, each line said
    let null = storm("  fetcher.server.delay: ~\n  fetchInterval.default:\n  fetcher.threads.per.queue: null\n").unwrap();
    assert_eq!(null.model, shipped(Crawler::Stormcrawler).model);
    let delay = row(&null, "fetcher.server.delay");
    assert_eq!((delay.value.as_str(), delay.from_file, delay.line, delay.passed_over.as_slice()), ("1.0", false, None, &[2][..]));
    assert!(delay.meaning.ends_with("; line 2 gives it null, which StormCrawler reads as not given (ConfUtils returns the default)"), "{}", delay.meaning);
    assert!(row(&null, "fetchInterval.default").meaning.contains("line 3 gives it null"));
    // an earlier value is not kept under a later null: SnakeYAML keeps the last, the null
    let later = storm("  fetcher.server.delay: 5\n  fetcher.server.delay: ~\n").unwrap();
    assert_eq!(later.model.server_delay_s, 1.0, "not passed over as Nutch's empty value is");
    assert!(row(&later, "fetcher.server.delay").meaning.contains("line 3 gives it null"));
    // a null custom interval: DefaultScheduler passes it over
    let custom = storm("  fetchInterval.isFeed=true: ~\n").unwrap();
    assert!(custom.custom_intervals.is_empty());
    assert!(row(&custom, "fetchInterval.isFeed=true").meaning.contains("given null, which DefaultScheduler passes over"));
    // a null list is an empty list (loadListFromConf), not crawler-default.yaml's
    assert_eq!(row(&storm("  metadata.persist: ~\n").unwrap(), "metadata.persist").value, "");
    // fractions where StormCrawler reads whole numbers: the whole part, said
    let cut = storm("  fetchInterval.default: 1440.9\n  urlfrontier.backoff.base.secs: 90.5\n").unwrap();
    assert!((cut.model.intervals.initial - 1.0).abs() < 1e-12, "1440 minutes");
    assert_eq!(
        match cut.model.reaction {
            Reaction::Stormcrawler { backoff, .. } => backoff.base_s,
            other => panic!("{other:?}"),
        },
        90.0
    );
    let default = row(&cut, "fetchInterval.default");
    assert_eq!(default.value, "1440.9 = 1440");
    assert!(default.meaning.ends_with("; StormCrawler reads a whole number here (ConfUtils.getInt keeps a fraction's whole part)"), "{}", default.meaning);
    assert!(row(&cut, "urlfrontier.backoff.base.secs").meaning.contains("ConfUtils.getLong keeps"));
    // a float without a fraction where an int is read: its whole number (-1.0: never again)
    let never = storm("  fetchInterval.default: -1.0\n").unwrap();
    assert_eq!((row(&never, "fetchInterval.default").value.as_str(), never.model.intervals.initial), ("-1.0 = -1", f64::INFINITY));
    // a fraction where a float is read is kept
    assert_eq!(row(&storm("  fetcher.server.delay: 2.5\n").unwrap(), "fetcher.server.delay").value, "2.5");
    // what stops StormCrawler at start-up
    for (text, says) in [
        (
            "  fetchInterval.default: \"720\"\n",
            "line 2: fetchInterval.default is quoted, so text (\"720\"), which StormCrawler's ConfUtils.getInt cannot read: the topology stops at start-up with a ClassCastException; write the number unquoted",
        ),
        ("  fetcher.server.delay: yes\n", "is a YAML boolean (\"true\"), which StormCrawler's ConfUtils.getFloat cannot read"),
        ("  fetcher.max.crawl.delay.force: \"true\"\n", "write true or false unquoted"),
        ("  urlfrontier.backoff.on.exceptions: 1\n", "is not a boolean (\"1\")"),
        ("  partition.url.mode: 3\n", "ConfUtils.getString cannot read"),
        ("  fetchInterval.default: 3000000000\n", "past Java's int (-2147483648 to 2147483647), which ConfUtils.getInt wraps round"),
        ("  fetchInterval.isFeed=true: \"60\"\n", "fetchInterval.isFeed=true is quoted, so text"),
        (
            "  metadata.persist: \"fetch.statusCode, protocol.retry-after\"\n",
            "which ConfUtils.loadListFromConf reads as one item, not split at its commas (so it names nothing): write a YAML list, [fetch.statusCode, protocol.retry-after]",
        ),
        ("  urlfrontier.backoff.status.codes: 429,503\n", "write a YAML list, [429, 503]"),
    ] {
        let e = storm(text).unwrap_err();
        assert!(e.message.contains(says), "{text}: {e}");
    }
    // what it reads: a long past int, one code as a scalar, one key as a string
    assert!(storm("  urlfrontier.backoff.max.secs: 3000000000\n").is_ok());
    let one = storm("  urlfrontier.backoff.status.codes: 503\n").unwrap();
    assert!(matches!(one.model.reaction, Reaction::Stormcrawler { backoff, .. } if backoff.on_503 && !backoff.on_429));
    assert_eq!(row(&storm("  metadata.persist: signature\n").unwrap(), "metadata.persist").value, "signature");
}

/// Every setting StormCrawler's rows read has the getter StormCrawler reads it with;
/// every numeric one of Nutch's (a number by default), Hadoop's.
#[test]
fn every_setting_has_its_getter() {
    for k in stormcrawler::KNOWN.iter().chain(&stormcrawler::FETCHER) {
        assert!(stormcrawler::getter(k.name).is_some(), "{}", k.name);
    }
    for k in nutch::KNOWN.iter().chain(&nutch::FETCHER).filter(|k| k.default.parse::<f64>().is_ok()) {
        assert!(nutch::getter(k.name).is_some(), "{}", k.name);
    }
}

/// Issue 46: a tuned file, in each format, read back by the same parser, gives the
/// changed settings and keeps every other, the unknown ones included; a file of shipped
/// defaults becomes one that sets the changes alone.
#[test]
fn a_written_file_reads_back_with_its_changes_and_everything_else_kept() {
    let was = |_: &str| "before".to_string();
    let cases: [(Crawler, Option<&str>, Vec<write::Change>); 10] = [
        (Crawler::Nutch, Some(NUTCH_SITE), vec![("db.fetch.schedule.adaptive.inc_rate", "0.25".into()), ("db.fetch.schedule.adaptive.max_interval", "7776000".into())]),
        (Crawler::Nutch, None, vec![("db.fetch.schedule.class", "org.apache.nutch.crawl.AdaptiveFetchSchedule".into())]),
        // a property given twice (the last counts) with a description, and a self-closed root
        (
            Crawler::Nutch,
            Some(
                "<configuration><property><name>fetcher.server.delay</name><value>1</value></property><property><name>fetcher.server.delay</name><value>2</value><description>d</description></property></configuration>",
            ),
            vec![("fetcher.server.delay", "9".into())],
        ),
        (Crawler::Nutch, Some("<configuration/>"), vec![("fetcher.server.delay", "9".into())]),
        (
            Crawler::Stormcrawler,
            Some("# mine\nconfig:\n  topology.workers: 1\n  fetchInterval.default: 720 # half a day\n"),
            vec![("fetchInterval.default", "1440".into()), ("scheduler.adaptive.fetchInterval.min", "30".into())],
        ),
        (Crawler::Stormcrawler, None, vec![("scheduler.class", "org.apache.stormcrawler.persistence.AdaptiveScheduler".into())]),
        (
            Crawler::Heritrix,
            Some(
                "<beans>\n <bean id=\"disposition\" class=\"x.DispositionProcessor\">\n  <property name=\"delayFactor\" value=\"4.0\"/>\n  <property name=\"maxDelayMs\"><value>20000</value></property>\n </bean>\n</beans>\n",
            ),
            vec![("disposition.minDelayMs", "5000".into()), ("disposition.maxDelayMs", "40000".into())],
        ),
        (Crawler::Scrapy, Some("BOT_NAME = \"shop\"\nDOWNLOAD_DELAY = 0  # none\n"), vec![("DOWNLOAD_DELAY", "2".into()), ("AUTOTHROTTLE_ENABLED", "True".into())]),
        // settings the profile's overrides give: changed there (a line, a continued line, a
        // <prop>), the beans' own values left as they were
        (
            Crawler::Heritrix,
            Some(HERITRIX_PROFILE),
            vec![("disposition.delayFactor", "2.0".into()), ("disposition.respectCrawlDelayUpToSeconds", "60".into()), ("disposition.minDelayMs", "9000".into())],
        ),
        (
            Crawler::Heritrix,
            Some("<beans><bean id=\"o\" class=\"x.PropertyOverrideConfigurer\"><property name=\"properties\"><value>disposition.minDelayMs=5000</value></property></bean></beans>"),
            vec![("disposition.minDelayMs", "6000".into())],
        ),
    ];
    for (crawler, original, changes) in cases {
        let text = write::write(crawler, original, &changes, "Freshlab's tuning", &was).unwrap();
        let back = read(crawler, &text, "f").unwrap_or_else(|e| panic!("{crawler:?}: {e}\n{text}"));
        for (name, value) in &changes {
            let s = back.settings.iter().find(|s| s.name == *name).unwrap();
            assert!(s.from_file && s.value == *value, "{crawler:?} {name}: {s:?}\n{text}");
        }
        assert!(text.contains("Freshlab's tuning; was before"), "{crawler:?}: each change marked\n{text}");
        if let Some(original) = original {
            let before = read(crawler, original, "f").unwrap();
            assert_eq!(back.ignored.iter().map(|(n, _)| n).collect::<Vec<_>>(), before.ignored.iter().map(|(n, _)| n).collect::<Vec<_>>(), "{crawler:?}: unknown names kept");
            for s in before.settings.iter().filter(|s| !changes.iter().any(|(n, _)| *n == s.name)) {
                let kept = back.settings.iter().find(|b| b.name == s.name).unwrap();
                assert_eq!((&kept.value, kept.from_file), (&s.value, s.from_file), "{crawler:?} {} kept\n{text}", s.name);
            }
        }
    }
}

/// Runs `search` to its end, each model scored by `run` (realised as it is), and checks
/// it never makes more runs than it announced; gives the runs made.
fn run_to_end(search: &mut tuning::Search, run: impl Fn(&Model) -> tuning::Score) -> usize {
    let mut realise = |m: &Model| Some(*m);
    let mut runs = 0;
    while let Some(m) = search.next(&mut realise) {
        search.report(run(&m), &mut realise);
        runs += 1;
        assert!(runs <= search.most(), "at most its announced runs");
    }
    runs
}

/// The tuning's search: a coordinate ascent that never keeps a candidate over the
/// budget, run here on a made-up crawler whose freshness and requests are known
/// functions of its decrement rate and shortest interval.
#[test]
fn the_search_keeps_the_freshest_candidate_within_the_budget() {
    use tuning::{Ground, Score, Search, Typed};
    let loaded = nutch::SHIPPED;
    let mut adaptive = loaded;
    adaptive.intervals.rule = Rule::Nutch;
    // freshness grows with dec_rate and falls with the shortest interval; requests grow
    // with dec_rate and fall with the increment rate (as the settled share says)
    let run = |m: &Model| {
        let i = m.intervals;
        let requests = 1000.0 * (1.0 + 4.0 * i.dec_rate) / (1.0 + 2.0 * i.inc_rate) / (1.0 + i.min);
        Score { freshness: 0.5 + 0.3 * i.dec_rate - 0.01 * i.min + 0.001 * i.inc_rate, requests: requests as u64, refused: 0 }
    };
    let start = run(&adaptive);
    let mut search = Search::new(Crawler::Nutch, adaptive, Ground::new(false, false), Typed::default(), 0, start);
    run_to_end(&mut search, run);
    let (best, score) = search.best();
    assert!(score.requests <= start.requests, "within the budget: {score:?} against {start:?}");
    assert!(score.freshness > start.freshness + 0.01, "fresher: {score:?} against {start:?}");
    assert!(best.intervals.dec_rate > adaptive.intervals.dec_rate, "by a larger decrement, its requests paid by the increment rate: {:?}", best.intervals);
    // the file as loaded stays the choice when nothing beats it
    let flat = |_: &Model| Score { freshness: 0.7, requests: 1000, refused: 0 };
    let mut search = Search::new(Crawler::Heritrix, heritrix::SHIPPED, Ground::new(true, false), Typed::default(), 0, flat(&heritrix::SHIPPED));
    run_to_end(&mut search, flat);
    assert_eq!(search.best().0, heritrix::SHIPPED);
}

/// The settings are searched once, before the last stages (a host file, a seed list):
/// when no candidate beats the file, one pass — 15 candidates of Nutch's adaptive rule
/// (four decrement rates besides the file's, two longer shortest intervals (60 s cannot
/// shrink), four of each other interval, sync delta), each one run at the budget — then
/// the host bounds' and the seed list's fits. A pass once began again after each of
/// those stages (45 settings' runs here, not 15).
#[test]
fn the_settings_are_searched_once_before_the_last_stages() {
    use tuning::{Ground, HostStage, Score, Search, Typed};
    let mut adaptive = nutch::SHIPPED;
    adaptive.intervals.rule = Rule::Nutch;
    let flat = Score { freshness: 0.7, requests: 1000, refused: 0 };
    let mut search = Search::new(Crawler::Nutch, adaptive, Ground::new(false, true), Typed::default(), 100, flat);
    let (mut realise, mut settings, mut last) = (|m: &Model| Some(*m), 0, 0);
    while search.next(&mut realise).is_some() {
        if search.hosts == HostStage::Trying || search.seeds == HostStage::Trying {
            last += 1;
        } else {
            settings += 1;
        }
        search.report(flat, &mut realise);
        assert!(settings + last <= search.most(), "at most its announced runs");
    }
    assert_eq!((settings, last), (15, 2), "one pass, then each last stage's one run");
    assert!(matches!(search.hosts, HostStage::Tried { .. }) && matches!(search.seeds, HostStage::Tried { .. }));
}

/// A fixed schedule's adaptive start that no increment rate fits to the budget (its
/// fast pages' requests go with the decrement rate alone, as Nutch's from the shipped
/// 30 days) still leads its branch: its first candidate that fits, a smaller decrement
/// rate, becomes the choice (the branch was once dropped: 1 candidate, 2 runs).
#[test]
fn an_adaptive_start_over_the_budget_still_leads_its_branch() {
    use tuning::{Ground, Score, Search, Typed};
    let loaded = nutch::SHIPPED;
    assert_eq!(loaded.intervals.rule, Rule::Fixed);
    let run = |m: &Model| match m.intervals.rule {
        Rule::Fixed => Score { freshness: 0.6, requests: 1000, refused: 0 },
        _ => Score { freshness: 0.65 - 0.1 * m.intervals.dec_rate, requests: (1000.0 * (0.7 + 2.0 * m.intervals.dec_rate)) as u64, refused: 0 },
    };
    let mut search = Search::new(Crawler::Nutch, loaded, Ground::new(false, false), Typed::default(), 0, run(&loaded));
    let runs = run_to_end(&mut search, run);
    let (best, score) = search.best();
    assert_eq!(best.intervals.rule, Rule::Nutch, "{score:?} after {runs} runs");
    assert_eq!(best.intervals.dec_rate, 0.1);
    assert!(score.requests < 1000 && (score.freshness - 0.64).abs() < 1e-12, "{score:?}");
    assert!(search.candidates > 1);
    assert_eq!(search.freshest, Some(score), "the freshest candidate, kept");
}

/// A candidate refused by the servers more often than the file as loaded is not kept,
/// however fresh: on a made-up crawler fresher with every larger decrement rate but
/// refused past 0.3, the search stops at 0.3.
#[test]
fn the_search_keeps_no_candidate_refused_more_than_the_file() {
    use tuning::{Ground, Score, Search, Typed};
    let mut adaptive = nutch::SHIPPED;
    adaptive.intervals.rule = Rule::Nutch;
    let run = |m: &Model| {
        let i = m.intervals;
        Score { freshness: 0.5 + 0.3 * i.dec_rate, requests: 1000, refused: if i.dec_rate > 0.3 { 10 } else { 0 } }
    };
    let start = run(&adaptive);
    let mut search = Search::new(Crawler::Nutch, adaptive, Ground::new(true, false), Typed::default(), 0, start);
    run_to_end(&mut search, run);
    let (best, score) = search.best();
    assert_eq!((best.intervals.dec_rate, score.refused), (0.3, 0), "{score:?}");
}

/// With Nutch's batch cycles, the caps the file sets are knobs too: on a made-up crawler
/// whose fetch list's `generate.topN` holds it back (a list of the highest-scored pages
/// only, fresher without it), the search drops the cap, pays the requests by the
/// increment rate, and writes `generate.topN` = -1, which Nutch reads back as none, its
/// comment saying the Generator takes it from its `-topN` argument. Without a cycle the
/// caps are not searched (they do nothing).
#[test]
fn the_search_tries_nutchs_cycle_caps() {
    use tuning::{Ground, Score, Search, Typed};
    let mut cycled = nutch::SHIPPED;
    cycled.intervals.rule = Rule::Nutch;
    (cycled.intervals.cycle, cycled.intervals.top_n, cycled.intervals.per_cycle) = (1.0, 300, 50);
    let run = |m: &Model| {
        let i = m.intervals;
        let asked = 1000.0 * (1.0 + 4.0 * i.dec_rate) / (1.0 + 4.0 * i.inc_rate);
        let requests = if i.top_n > 0 { asked.min(2.0 * i.top_n as f64) } else { asked };
        let capped = if i.top_n > 0 { 0.05 } else { 0.0 };
        Score { freshness: 0.6 + 0.001 * i.dec_rate - capped + 0.0001 * i.inc_rate, requests: requests as u64, refused: 0 }
    };
    let start = run(&cycled);
    assert_eq!(start.requests, 600, "the cap holds the crawler back");
    let mut search = Search::new(Crawler::Nutch, cycled, Ground::new(false, false), Typed::default(), 0, start);
    run_to_end(&mut search, run);
    let (best, score) = search.best();
    assert!(score.requests <= start.requests && score.freshness > start.freshness + 0.04, "{score:?} against {start:?}");
    assert_eq!(best.intervals.top_n, 0, "{:?}", best.intervals);
    let changes = tuning::changes(Crawler::Nutch, &cycled, &best);
    assert!(changes.contains(&("generate.topN", "-1".to_string())), "{changes:?}");
    let text = write::write(Crawler::Nutch, None, &changes, "test", &|_| String::new()).unwrap();
    assert_eq!(read(Crawler::Nutch, &text, "f").unwrap().model.intervals.top_n, 0);
    // the Generator writes its -topN argument over the file's: the comment says so
    assert!(text.contains("the Generator sets this from its -topN argument: run generate without one"), "{text}");
    let capped = write::write(Crawler::Nutch, None, &[("generate.topN", "500".to_string())], "test", &|_| String::new()).unwrap();
    assert!(capped.contains("run generate with -topN 500 (bin/crawl passes its fetch-list size: make it 500)"), "{capped}");
    // without a cycle: the same search never touches the caps
    let uncycled = Model { intervals: Intervals { cycle: 0.0, ..cycled.intervals }, ..cycled };
    let mut search = Search::new(Crawler::Nutch, uncycled, Ground::new(false, false), Typed::default(), 0, run(&uncycled));
    run_to_end(&mut search, |m| {
        assert_eq!((m.intervals.top_n, m.intervals.per_cycle), (300, 50));
        run(m)
    });
}

/// Heritrix caps its least gap at `maxDelayMs` (DispositionProcessor.politenessDelayFor):
/// a search for a longer gap than the file's most raises the most with it, and the tuned
/// file, read back, keeps that gap — on a made-up crawler whose servers want a request a
/// minute at most (fresher the longer its effective gap, up to 60 s).
#[test]
fn heritrixs_tuned_gap_past_its_most_raises_the_most() {
    use tuning::{Ground, Score, Search, Typed};
    let file = |min_ms: u32| {
        format!(
            "<beans>\n <bean id=\"disposition\" class=\"org.archive.crawler.postprocessor.DispositionProcessor\">\n  <property name=\"minDelayMs\" value=\"{min_ms}\" />\n </bean>\n</beans>\n"
        )
    };
    let model = read(Crawler::Heritrix, &file(3000), "f").unwrap().model;
    assert!(matches!(model.reaction, Reaction::Heritrix { max_delay_s, .. } if max_delay_s == 30.0));
    let run = |m: &Model| Score { freshness: 0.5 + 0.005 * m.politeness_s().min(60.0), requests: 1000, refused: 0 };
    let mut search = Search::new(Crawler::Heritrix, model, Ground::new(true, false), Typed::default(), 0, run(&model));
    run_to_end(&mut search, run);
    let (best, _) = search.best();
    assert_eq!(best.politeness_s(), 60.0, "{best:?}");
    let changes = tuning::changes(Crawler::Heritrix, &model, &best);
    assert!(changes.contains(&("disposition.minDelayMs", "60000".to_string())) && changes.contains(&("disposition.maxDelayMs", "60000".to_string())), "{changes:?}");
    let text = write::write(Crawler::Heritrix, Some(&file(3000)), &changes, "test", &|_| String::new()).unwrap();
    assert_eq!(read(Crawler::Heritrix, &text, "f").unwrap().model.politeness_s(), 60.0, "{text}");
    // a file's least gap over its most runs at the most
    let over = read(Crawler::Heritrix, &file(45_000), "f").unwrap();
    assert_eq!(over.model.politeness_s(), 30.0);
    let least = over.settings.iter().find(|s| s.name == "disposition.minDelayMs").unwrap();
    assert!(least.meaning.ends_with("here over maxDelayMs, so Heritrix waits 30000 ms: raise maxDelayMs with it for a longer gap"), "{least:?}");
}

/// Nutch's caps of a crawl cycle, per host (`generate.max.count`) and in all
/// (`generate.topN`): read into the rule, −1 (the shipped value) for none (and any
/// count at most 0, which the Generator does not cap by), 0 and fractions of topN and a
/// fraction of the count refused by name.
#[test]
fn nutch_reads_the_caps_of_a_cycle() {
    let prop = |name: &str, value: &str| format!("<configuration><property><name>{name}</name><value>{value}</value></property></configuration>");
    let caps = |name: &str, value: &str| read(Crawler::Nutch, &prop(name, value), "f").map(|l| (l.model.intervals.per_cycle, l.model.intervals.top_n));
    assert_eq!(caps("generate.max.count", "50").unwrap(), (50, 0));
    assert_eq!(caps("generate.topN", "50000").unwrap(), (0, 50_000));
    assert_eq!(caps("generate.max.count", "-1").unwrap(), (0, 0));
    assert_eq!(caps("generate.topN", "-1").unwrap(), (0, 0));
    let shipped = shipped(Crawler::Nutch).model.intervals;
    assert_eq!((shipped.per_cycle, shipped.top_n), (0, 0));
    for bad in ["0", "2.5", "-3"] {
        let message = caps("generate.topN", bad).unwrap_err().message;
        assert!(message.contains("generate.topN") && message.contains("-1 for no limit"), "{bad}: {message}");
    }
    assert_eq!((caps("generate.max.count", "0").unwrap(), caps("generate.max.count", "-3").unwrap()), ((0, 0), (0, 0)), "no cap, as maxCount > 0 checks");
    assert!(caps("generate.max.count", "2.5").unwrap_err().message.contains("generate.max.count (line 1): must be a whole number of pages per host (Hadoop reads it with getInt"));
}

/// Scrapy's RetryMiddleware from settings.py: RETRY_TIMES, RETRY_ENABLED (off wins
/// wherever it stands) and whether RETRY_HTTP_CODES holds 429 and 503.
#[test]
fn scrapy_reads_its_retries() {
    let shipped = shipped(Crawler::Scrapy).model;
    assert_eq!((shipped.retry_times, shipped.retries_429, shipped.retries_503), (2, true, true));
    let m = read(Crawler::Scrapy, "RETRY_TIMES = 5\nRETRY_HTTP_CODES = [500, 503]\n", "f").unwrap().model;
    assert_eq!((m.retry_times, m.retries_429, m.retries_503), (5, false, true));
    let off = read(Crawler::Scrapy, "RETRY_ENABLED = False\nRETRY_TIMES = 5\n", "f").unwrap().model;
    assert_eq!(off.retry_times, 0);
    for (bad, says) in
        [("RETRY_TIMES = 2.5\n", "whole number of retries"), ("RETRY_HTTP_CODES = [503, 'x']\n", "not a status code"), ("RETRY_HTTP_CODES = 503\n", "list of status codes")]
    {
        let message = read(Crawler::Scrapy, bad, "f").unwrap_err().message;
        assert!(message.contains(says), "{bad}: {message}");
    }
}

/// The tuning's host file (NUTCH-3029) from the optimum's request rates, by hand: a
/// host's bounds are its pages' shortest and longest interval 1/f in whole seconds,
/// strictly within the global bounds (else `default`) and at most db.fetch.interval.max
/// (90 days: past it Nutch forces a refetch); a host the optimum never requests is held
/// to that less a second; a host with both bounds global is left out.
#[test]
fn the_host_file_takes_each_hosts_bounds_from_the_optimums_intervals() {
    let global = Rule::Nutch.shipped();
    assert_eq!(((global.min / SECOND).round(), (global.max / SECOND).round()), (60.0, 31_536_000.0));
    let names: Vec<String> = ["A.example", "b.example", "c.example", "d.example", "e.example"].iter().map(|s| s.to_string()).collect();
    // a day and a half and two days; never; every second; every 400 days; 10 s and 12 h
    let f = [2.0 / 3.0, 0.5, 0.0, 0.0, 86_400.0, 1.0 / 400.0, 8_640.0, 2.0];
    let pages = |s: usize| [0..2, 2..4, 4..5, 5..6, 6..8][s].clone();
    let hosts = tuning::host_bounds_from(&f, pages, &names, &global, 1.0);
    let seconds = |b: Option<f64>| b.map(|d| (d / SECOND).round());
    let got: Vec<(usize, &str, Option<f64>, Option<f64>)> = hosts.iter().map(|(s, h)| (*s, h.host.as_str(), seconds(h.min), seconds(h.max))).collect();
    let ninety = 7_776_000.0;
    assert_eq!(
        got,
        vec![
            (0, "a.example", Some(129_600.0), Some(172_800.0)),
            (1, "b.example", Some(ninety - 1.0), Some(ninety)),
            (3, "d.example", Some(ninety), Some(ninety)),
            (4, "e.example", None, Some(43_200.0))
        ]
    );
    // stretched (a fit to a budget): e.example's ten seconds become 100, within the bounds
    let stretched = tuning::host_bounds_from(&f, pages, &names, &global, 10.0);
    assert_eq!(
        stretched.iter().map(|(s, h)| (*s, seconds(h.min), seconds(h.max))).collect::<Vec<_>>(),
        vec![(0, Some(1_296_000.0), Some(1_728_000.0)), (1, Some(ninety - 1.0), Some(ninety)), (3, Some(ninety), Some(ninety)), (4, Some(100.0), Some(432_000.0))]
    );
    // the file Nutch reads back gives the same bounds
    let listed: Vec<_> = hosts.into_iter().map(|(_, h)| h).collect();
    let read = nutch_hosts::read(&nutch_hosts::write(&listed, "a test"), &global).unwrap();
    assert_eq!(read.iter().map(|h| (seconds(h.min), seconds(h.max))).collect::<Vec<_>>(), listed.iter().map(|h| (seconds(h.min), seconds(h.max))).collect::<Vec<_>>());
}

/// Scrapy's DOWNLOAD_SLOTS (Downloader._get_slot): each slot's `delay`, `concurrency` and
/// `randomize_delay` over the file's settings for its one host (the URL's host name:
/// neither subdomains nor parent), the keys a slot leaves out at the file's values; each
/// key listed with its line, unknown ones ignored, the last of a repeated slot winning;
/// a value that is no plain literal refused with the line and the fix.
#[test]
fn scrapys_download_slots_set_their_hosts_apart() {
    use super::heritrix_sheets::{overlay, rules_for};
    let text = "DOWNLOAD_DELAY = 3\nRANDOMIZE_DOWNLOAD_DELAY = False  # fixed gaps\nDOWNLOAD_SLOTS = {\n    'Slow.Example': {'delay': 60},  # asked by its owner\n    \"fast.example\": {\n        \"concurrency\": 2, \"delay\": 0.0,\n        'throttle': False,\n    },\n    'slow.example': {'delay': 90, 'randomize_delay': True},\n}\nBOT_NAME = 'b'\n";
    let l = read(Crawler::Scrapy, text, "f").unwrap();
    let model_for = |host: &str| overlay(&rules_for(&l.sheets, host).into_iter().map(|k| &l.sheets[k]).collect::<Vec<_>>(), &l.model).unwrap();
    // the later slow.example wins, randomised; the file's gap elsewhere
    let slow = model_for("slow.example");
    assert_eq!(slow.server_delay_s, 90.0);
    assert!(matches!(slow.reaction, Reaction::Scrapy { randomize: true, concurrency, .. } if concurrency == 8.0), "{:?}", slow.reaction);
    let fast = model_for("fast.example");
    assert_eq!(fast.server_delay_s, 0.0);
    assert!(matches!(fast.reaction, Reaction::Scrapy { randomize: false, concurrency, .. } if concurrency == 2.0), "{:?}", fast.reaction);
    for other in ["www.fast.example", "example", "slow.example:8080"] {
        assert_eq!(model_for(other), l.model, "{other} is no slot's host");
    }
    assert_eq!(l.model.server_delay_s, 3.0);
    // each key with its line; the unknown key ignored with its own
    let line = |name: &str| l.settings.iter().find(|s| s.name == name).and_then(|s| s.line);
    assert_eq!(line("DOWNLOAD_SLOTS['slow.example']['delay']"), Some(4));
    assert_eq!(line("DOWNLOAD_SLOTS['fast.example']['concurrency']"), Some(6));
    assert_eq!(line("DOWNLOAD_SLOTS['slow.example']['randomize_delay']"), Some(9));
    assert!(l.settings.iter().filter(|s| s.name.starts_with("DOWNLOAD_SLOTS")).all(|s| s.meaning.contains("that host exactly")));
    assert_eq!(l.ignored, vec![("BOT_NAME".to_string(), 11)]);
    // throttle False without AutoThrottle: nothing (fast.example above is as its keys say)
    assert_eq!(line("DOWNLOAD_SLOTS['fast.example']['throttle']"), Some(7));
    // with AutoThrottle a slot's delay is where its delay starts; the least stays the file's
    let auto = read(Crawler::Scrapy, "AUTOTHROTTLE_ENABLED = True\nDOWNLOAD_DELAY = 1\nDOWNLOAD_SLOTS = {'a.example': {'delay': 20}}\n", "f").unwrap();
    let a = overlay(&rules_for(&auto.sheets, "a.example").into_iter().map(|k| &auto.sheets[k]).collect::<Vec<_>>(), &auto.model).unwrap();
    assert!(a.server_delay_s == 1.0 && matches!(a.reaction, Reaction::Scrapy { start_delay_s, .. } if start_delay_s == 20.0), "{a:?}");
    // a slot's throttle False (Scrapy 2.11.1): AutoThrottle leaves it at its delay, the
    // slot's own or the spider's start (max of DOWNLOAD_DELAY 1 and the start 5), the
    // key read after the delay wherever it stands
    for (slot, delay) in [("{'delay': 20, 'throttle': False}", 20.0), ("{'throttle': False, 'delay': 20}", 20.0), ("{'throttle': False}", 5.0), ("{'throttle': True}", 1.0)] {
        let held = read(Crawler::Scrapy, &format!("AUTOTHROTTLE_ENABLED = True\nDOWNLOAD_DELAY = 1\nDOWNLOAD_SLOTS = {{'a.example': {slot}}}\n"), "f").unwrap();
        let a = overlay(&rules_for(&held.sheets, "a.example").into_iter().map(|k| &held.sheets[k]).collect::<Vec<_>>(), &held.model).unwrap();
        let off = slot.contains("False");
        assert!(a.server_delay_s == delay && matches!(a.reaction, Reaction::Scrapy { autothrottle, .. } if autothrottle != off), "{slot}: {a:?}");
    }
    let e = read(Crawler::Scrapy, "DOWNLOAD_SLOTS = {'a.example': {'throttle': 0}}\n", "f").unwrap_err();
    assert!(e.message.contains("DOWNLOAD_SLOTS['a.example']['throttle'] (line 1): must be true or false"), "{e}");
    // refused, naming the setting, the line and the fix
    for (value, says) in [
        ("{'a.example': {'delay': -1}}", "DOWNLOAD_SLOTS['a.example']['delay'] (line 1): must be a number of seconds"),
        ("{'a.example': {'delay': '2'}}", "is the string '2'"),
        ("{'a.example': 2}", "slot 'a.example' must be a dict"),
        ("[('a.example', 2)]", "a list or tuple"),
        ("{'a.example': {'delay': float('inf')}}", "“float('inf')” is not a plain value"),
        ("{'a.example/x': {'delay': 1}}", "is not a host name"),
        ("{'a.example': {'delay': 1} 'b': {}}", "separate a dict's items with commas"),
        ("{'a.example': {'delay': 1}} + X", "after the value's end"),
        ("{a: {'delay': 1}}", "“a” is not a plain value"),
        ("{1: {'delay': 1}}", "a dict key that is not a quoted string"),
    ] {
        let e = read(Crawler::Scrapy, &format!("DOWNLOAD_SLOTS = {value}\n"), "f").unwrap_err();
        assert!(e.field == "f" && e.message.contains(says), "{value}: {e}");
    }
    // none: nothing set apart
    assert!(read(Crawler::Scrapy, "DOWNLOAD_SLOTS = {}\n", "f").unwrap().sheets.is_empty());
}

/// The tuning's DOWNLOAD_SLOTS: the file's own slots kept as written (every key, a
/// repeated one at its last value), a listed host's delay replaced and its randomising
/// stopped where it was on, the other listed hosts added; appended to the file, the
/// assignment replaces the file's own, and reads back to those hosts and delays.
#[test]
fn the_tuned_download_slots_keep_the_files_own_and_hold_the_listed_hosts() {
    let file =
        "DOWNLOAD_DELAY = 1\nDOWNLOAD_SLOTS = {\n    'own.example': {'delay': 2, 'concurrency': 4, 'throttle': True},\n    'Busy.example': {'delay': 0.5, 'delay': 0.25},\n}\n";
    let hosts = vec![("busy.example".to_string(), 20_000, true, false), ("new.example".to_string(), 1_500, false, true)];
    let slots = scrapy_slots::assignment(file, &hosts, "the tuning").unwrap();
    assert_eq!(
        slots,
        "# the tuning\nDOWNLOAD_SLOTS = {\n    'own.example': {'delay': 2, 'concurrency': 4, 'throttle': True},\n    'busy.example': {'delay': 20, 'randomize_delay': False},\n    'new.example': {'delay': 1.5, 'throttle': False},\n}\n"
    );
    let tuned = format!("{file}{slots}");
    let back = read(Crawler::Scrapy, &tuned, "f").unwrap();
    let delay = |host: &str| back.sheets.iter().find(|r| r.sheet == host).and_then(|r| r.settings.iter().find(|s| s.0 == "delay")).map(|s| s.1.clone());
    assert_eq!((delay("own.example"), delay("busy.example"), delay("new.example")), (Some("2".into()), Some("20".into()), Some("1.5".into())));
    assert_eq!(back.sheets.len(), 3, "the file's own assignment is replaced, not added to");
    assert_eq!(back.model.server_delay_s, 1.0);
    // a file whose slots cannot be read gives no assignment
    assert!(scrapy_slots::assignment("DOWNLOAD_SLOTS = [1]\n", &hosts, "t").is_err());
    // the shipped defaults: the listed hosts alone
    assert_eq!(scrapy_slots::assignment("", &hosts[1..], "t").unwrap(), "# t\nDOWNLOAD_SLOTS = {\n    'new.example': {'delay': 1.5, 'throttle': False},\n}\n");
}

/// Lines by binary search over the line starts: the same as roxmltree's count from the
/// start, on every byte of a text with empty lines, CRLF and no final newline.
#[test]
fn rows_are_roxmltrees_lines() {
    let text = "<configuration>\r\n\n<property><name>a</name>\n<value>1</value></property>\n\n</configuration>";
    let doc = roxmltree::Document::parse(text).unwrap();
    let rows = Rows::of(text);
    for at in 0..text.len() {
        assert_eq!(rows.at(at), u64::from(doc.text_pos_at(at).row), "byte {at}");
    }
}

/// A read kept from before answers only the same file, crawler and fields: another file,
/// or the same named otherwise, is read anew, and an earlier file is found again after it.
#[test]
fn a_kept_read_answers_only_what_it_was_given() {
    let bad = "<configuration><property><name>db.fetch.schedule.adaptive.dec_rate</name>\n<value>1.5</value></property></configuration>";
    let first = read(Crawler::Nutch, NUTCH_SITE, "crawler_config").unwrap();
    assert_eq!(read(Crawler::Nutch, bad, "crawler_config").unwrap_err().field, "crawler_config");
    assert_eq!(read(Crawler::Nutch, bad, "tuned").unwrap_err().field, "tuned", "the field is part of what was read");
    assert_eq!(read(Crawler::Nutch, NUTCH_SITE, "crawler_config").unwrap(), first);
    let edited = NUTCH_SITE.replace("<value>0.3</value>", "<value>0.35</value>");
    assert_eq!(read(Crawler::Nutch, &edited, "crawler_config").unwrap().model.intervals.inc_rate, 0.35);
    assert_eq!(read(Crawler::Nutch, NUTCH_SITE, "crawler_config").unwrap().model.intervals.inc_rate, 0.3);
    assert!(read(Crawler::Stormcrawler, NUTCH_SITE, "crawler_config").is_err(), "the crawler is part of it");
}

/// Nutch reads every value through Hadoop's Configuration.substituteVars: a `${name}`
/// stands for the file's property (or a nutch-default.xml setting), leftmost first and
/// again within what it brings, up to 20 times; a name no property has is kept as
/// written and refused by the setting that cannot read it; the property read through a
/// variable is said as such, not ignored.
#[test]
fn nutch_values_are_read_through_hadoops_variable_substitution() {
    let nutch = |properties: &str| read(Crawler::Nutch, &format!("<configuration>{properties}</configuration>"), "crawler_config");
    let property = |name: &str, value: &str| format!("<property><name>{name}</name><value>{value}</value></property>");
    let from_file = nutch(&[property("db.fetch.interval.default", "86400"), property("db.fetch.interval.max", "${db.fetch.interval.default}")].concat()).unwrap();
    assert_eq!((from_file.model.intervals.initial, from_file.model.intervals.refetch_max), (1.0, Some(1.0)));
    let max = from_file.settings.iter().find(|s| s.name == "db.fetch.interval.max").unwrap();
    assert_eq!(max.value, "${db.fetch.interval.default} = 86400");
    // nutch-default.xml's value where the file gives none (30 days)
    let from_default = nutch(&property("db.fetch.interval.max", "${db.fetch.interval.default}")).unwrap().model;
    assert_eq!(from_default.intervals.refetch_max, Some(30.0));
    // within a value, and a property of the file's own naming
    let joined = nutch(&[property("my.delay", "3"), property("fetcher.server.delay", "${my.delay}.5")].concat()).unwrap();
    assert_eq!(joined.model.server_delay_s, 3.5);
    assert!(joined.ignored.is_empty(), "{:?}", joined.ignored);
    let mine = joined.settings.iter().find(|s| s.name == "my.delay").expect("said as read");
    assert!(mine.meaning.contains("${my.delay} in fetcher.server.delay"), "{}", mine.meaning);
    // a chain: the variable's value names another
    let chained = nutch(&[property("a", "${b}"), property("b", "7"), property("fetcher.server.delay", "${a}")].concat()).unwrap().model;
    assert_eq!(chained.server_delay_s, 7.0);
    // unbound: kept as written, refused with why
    let e = nutch(&property("fetcher.server.delay", "${no.such}")).unwrap_err();
    assert!(e.message.contains("fetcher.server.delay (line 1)") && e.message.contains("names no property"), "{e}");
    // a loop: Hadoop gives up after 20
    let e = nutch(&[property("a", "${b}"), property("b", "${a}"), property("fetcher.server.delay", "${a}")].concat()).unwrap_err();
    assert!(e.message.contains("more than 20 times"), "{e}");
    // not a variable (Hadoop's pattern: no `$` or space in the name): read as written
    assert_eq!(super::nutch::substitute("${a b}${x$}${y}", |n| (n == "y").then(|| "1".to_string())), Ok("${a b}${x$}1".to_string()));
    // the Crawl-delay floor's ${fetcher.server.delay} stays the server delay's (a tuning moves it)
    let floor = nutch(&property("fetcher.min.crawl.delay", "${fetcher.server.delay}")).unwrap().model;
    assert_eq!(floor.crawl_delay_floor, DelayFloor::ServerDelay);
}

/// Hadoop's Configuration.Parser, as Nutch reads nutch-site.xml: a property's name and
/// value may be attributes (a child element wins where it has text), a property inside
/// another element is read, an empty value sets nothing (said), and an XInclude, whose file Hadoop reads in its place, is
/// refused with its line and the fix (its properties would otherwise be lost).
#[test]
fn nutch_properties_are_read_as_hadoops_parser_reads_them() {
    let nutch = |text: &str| read(Crawler::Nutch, text, "crawler_config");
    let attributes = nutch("<configuration>\n<property name=\"fetcher.server.delay\" value=\"2\"/>\n<property name=\"db.fetch.interval.default\" value=\"1\"><value>86400</value></property>\n</configuration>").unwrap();
    assert_eq!((attributes.model.server_delay_s, attributes.model.intervals.initial), (2.0, 1.0));
    let delay = attributes.settings.iter().find(|s| s.name == "fetcher.server.delay").unwrap();
    assert_eq!((delay.value.as_str(), delay.line), ("2", Some(2)));
    let nested = nutch("<configuration>\n<group>\n<property><name>fetcher.server.delay</name><value>3</value></property>\n</group>\n</configuration>").unwrap();
    assert_eq!(nested.model.server_delay_s, 3.0);
    // an empty value sets nothing (Hadoop's loadProperty): the default, or an earlier line's
    let empty = nutch("<configuration>\n<property><name>fetcher.server.delay</name><value>2</value></property>\n<property><name>fetcher.server.delay</name><value></value></property>\n<property><name>db.fetch.interval.default</name><value/></property>\n</configuration>").unwrap();
    assert_eq!((empty.model.server_delay_s, empty.model.intervals.initial), (2.0, 30.0));
    let delay = empty.settings.iter().find(|s| s.name == "fetcher.server.delay").unwrap();
    assert_eq!((delay.value.as_str(), delay.line), ("2", Some(2)));
    assert!(delay.meaning.contains("line 3 gives it no value, which Nutch passes over"), "{}", delay.meaning);
    // nor does it stand for a ${name}: the default's value does
    let through = nutch("<configuration><property><name>db.fetch.interval.default</name><value></value></property><property><name>db.fetch.interval.max</name><value>${db.fetch.interval.default}</value></property></configuration>").unwrap();
    assert_eq!(through.model.intervals.refetch_max, Some(30.0));
    let first = empty.settings.iter().find(|s| s.name == "db.fetch.interval.default").unwrap();
    assert!(!first.from_file && first.meaning.contains("line 4 gives it no value"), "{first:?}");
    let e = nutch("<configuration xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n<xi:include href=\"common.xml\"/>\n</configuration>").unwrap_err();
    assert!(e.message.contains("line 2: <include href=\"common.xml\"> (XInclude)") && e.message.contains("copy its <property> elements in place of the include"), "{e}");
}

/// Nutch reads `db.fetch.interval.default` and `db.fetch.interval.max` with Hadoop's
/// getInt: hexadecimal after 0x is read, a fraction stops the job (NumberFormatException)
/// and is refused naming the setting, as is a number past Java's int.
#[test]
fn nutchs_whole_number_settings_are_read_as_hadoops_get_int() {
    use super::nutch::hadoop_int;
    assert_eq!(hadoop_int("86400", "seconds"), Ok(86_400));
    assert_eq!(hadoop_int("+86400", "seconds"), Ok(86_400));
    assert_eq!(hadoop_int("2147483647", "seconds"), Ok(i32::MAX as u32));
    for bad in ["86400.5", "8.64e4", "2147483648", "0x", "0x1G", "+0x10", "", "ten", "+-5"] {
        assert!(hadoop_int(bad, "seconds").unwrap_err().contains("getInt"), "{bad}");
    }
    assert!(hadoop_int("-16", "seconds").unwrap_err().contains("Nutch reads -16"));
    let file = |name: &str, value: &str| format!("<configuration><property><name>{name}</name><value>{value}</value></property></configuration>");
    let hex = read(Crawler::Nutch, &file("db.fetch.interval.default", "0x15180"), "f").unwrap();
    assert!((hex.model.intervals.initial - 1.0).abs() < 1e-12, "a day");
    let e = read(Crawler::Nutch, &file("db.fetch.interval.default", "-0x10"), "f").unwrap_err();
    assert!(e.message.contains("(got \"-0x10\", read as \"-16\")") && e.message.contains("Nutch reads -16"), "{e}");
    let e = read(Crawler::Nutch, &file("db.fetch.interval.max", "604800.5"), "f").unwrap_err();
    assert!(e.message.contains("db.fetch.interval.max (line 1): must be a whole number of seconds (Hadoop reads it with getInt"), "{e}");
}

/// Hadoop's getters as Nutch reads its numbers: getInt and getLong take hexadecimal
/// after 0x (past the type refused), getFloat Java's float literals (a suffix f or d,
/// hexadecimal with a binary exponent); each shown as written and as read.
#[test]
fn nutchs_numbers_read_as_hadoops_getters_parse_them() {
    use super::nutch::hadoop_form;
    let form = |name: &str, v: &str| hadoop_form(name, v);
    assert_eq!(form("generate.max.count", "0x10"), Some(Ok("16".into())));
    assert_eq!(form("generate.max.count", "-0x1"), Some(Ok("-1".into())));
    assert_eq!(form("generate.topN", "0x100000000"), Some(Ok("4294967296".into())), "a long");
    assert!(form("generate.max.count", "0x100000000").unwrap().unwrap_err().contains("past Java's int"));
    assert_eq!(form("generate.max.count", "16"), None, "decimal: the setting's own reader");
    assert_eq!(form("generate.max.count", "+0x10"), None, "not Hadoop's: refused by the setting");
    assert_eq!(form("fetcher.server.delay", "5f"), Some(Ok("5".into())));
    assert_eq!(form("fetcher.server.delay", "2.5D"), Some(Ok("2.5".into())));
    assert_eq!(form("fetcher.server.delay", "1e1d"), Some(Ok("10".into())));
    assert_eq!(form("fetcher.server.delay", "0x1.8p1"), Some(Ok("3".into())));
    assert_eq!(form("fetcher.server.delay", "0x1p-2f"), Some(Ok("0.25".into())));
    assert_eq!(form("fetcher.server.delay", "0x1f"), None, "no binary exponent: not a float");
    assert_eq!(form("fetcher.server.delay", "inff"), None);
    assert_eq!(form("fetcher.server.delay", "2.5"), None);
    assert_eq!(form("db.fetch.schedule.class", "0x10"), None, "not a number setting");
    // in a file: each shown as written and read, the model as Nutch runs it
    let file = "<configuration>\n<property><name>fetcher.server.delay</name><value>5f</value></property>\n<property><name>generate.max.count</name><value>0x20</value></property>\n<property><name>db.fetch.schedule.adaptive.inc_rate</name><value>0.25F</value></property>\n<property><name>db.fetch.interval.default</name><value>0x15180</value></property>\n</configuration>\n";
    let loaded = read_file(file);
    let value = |name: &str| loaded.settings.iter().find(|s| s.name == name).unwrap().value.clone();
    assert_eq!((value("fetcher.server.delay"), value("generate.max.count"), value("db.fetch.interval.default")), ("5f = 5".into(), "0x20 = 32".into(), "0x15180 = 86400".into()));
    assert_eq!((loaded.model.server_delay_s, loaded.model.intervals.per_cycle, loaded.model.intervals.inc_rate, loaded.model.intervals.initial), (5.0, 32, 0.25, 1.0));
    let e = super::read(Crawler::Nutch, &file.replace("0x20", "0x80000000"), "f").unwrap_err();
    assert!(e.message.contains("generate.max.count (line 3): is past Java's int"), "{e}");

    fn read_file(text: &str) -> Loaded {
        super::read(Crawler::Nutch, text, "f").unwrap()
    }
}

/// StormCrawler's `fetcher.maxThreads.<pattern>` (FetcherBolt.FetchItemQueues): a rule
/// over the hosts the pattern matches as a whole, its value cast as intValue casts it
/// (a fraction's whole part), the last of a key kept; refused where the topology would
/// stop (null, quoted, a boolean), where no queue could fetch (0), and where Freshlab's
/// engine cannot read the pattern; never listed as ignored.
#[test]
fn stormcrawlers_max_threads_patterns_are_rules_over_hosts() {
    use super::heritrix_sheets::{overlay, rules_for};
    let storm = |text: &str| read(Crawler::Stormcrawler, &format!("config:\n  fetcher.server.delay: 2\n  fetcher.server.min.delay: 0.5\n{text}"), "f");
    let loaded =
        storm("  fetcher.maxThreads.fast\\.example\\.com: 3\n  fetcher.maxThreads.(fast|news)\\.example\\.com: 1\n  fetcher.maxThreads.(fast|news)\\.example\\.com: 2.9\n")
            .unwrap();
    assert!(loaded.ignored.is_empty() && loaded.meant.is_empty(), "{:?} {:?}", loaded.ignored, loaded.meant);
    let rules = &loaded.sheets;
    assert_eq!(
        rules.iter().map(|r| (r.prefix.as_str(), r.line, r.settings[0].1.as_str())).collect::<Vec<_>>(),
        [("fast\\.example\\.com", 4, "3"), ("(fast|news)\\.example\\.com", 6, "2")]
    );
    let row = loaded.settings.iter().find(|s| s.name == "fetcher.maxThreads.(fast|news)\\.example\\.com").expect("its row");
    assert_eq!((row.value.as_str(), row.line, row.aside), ("2.9 = 2", Some(6), false));
    assert!(row.meaning.contains("StormCrawler reads 2 (intValue keeps a fraction's whole part)"), "{}", row.meaning);
    // the whole host, in lower case; the first pattern in the file where two match
    let threads = |host: &str| {
        let set = rules_for(rules, host);
        overlay(&set.iter().map(|&k| &rules[k]).collect::<Vec<_>>(), &loaded.model).unwrap().threads_per_queue
    };
    assert_eq!([threads("fast.example.com"), threads("NEWS.example.com"), threads("www.news.example.com"), threads("example.com")], [3.0, 2.0, 1.0, 1.0]);
    let news = overlay(&rules_for(rules, "news.example.com").iter().map(|&k| &rules[k]).collect::<Vec<_>>(), &loaded.model).unwrap();
    assert_eq!((news.politeness_s(), loaded.model.politeness_s()), (0.5, 2.0), "several threads: the min delay");
    // what StormCrawler cannot start with, or Freshlab cannot read
    let refused = |text: &str| storm(text).unwrap_err().to_string();
    for (text, said) in [
        ("  fetcher.maxThreads.a\\.org: ~\n", "line 4: fetcher.maxThreads.a\\.org is null, which stops StormCrawler at start-up"),
        ("  fetcher.maxThreads.a\\.org: \"2\"\n", "is quoted, so text (\"2\"), which StormCrawler's FetchItemQueues' cast to Number cannot read"),
        ("  fetcher.maxThreads.a\\.org: yes\n", "is a YAML boolean"),
        ("  fetcher.maxThreads.a\\.org: 0\n", "a queue of no thread never hands out a URL"),
        ("  fetcher.maxThreads.(?!slow).*: 2\n", "look-around is not supported"),
    ] {
        assert!(refused(text).contains(said), "{text}: {}", refused(text));
    }
    // the form's settings over the file name it where it is read
    let form = overrides(Crawler::Stormcrawler, "fetcher.maxThreads.a\\.org=2").unwrap_err();
    assert!(form.contains("read from your crawler-conf.yaml, not set over it"), "{form}");
}

/// Settings as the crawler's own command line takes them, pasted: Nutch's `-D name=value`
/// (Hadoop's GenericOptionsParser, `bin/crawl -D`), also joined (`-Dname=value`) and
/// quoted as the shell reads them, and the Generator's `-topN N` (generate.topN);
/// Scrapy's `-s NAME=VALUE`; mixed with name=value lines.
/// The same settings as name=value; a whole command's other words, a -D with nothing
/// after it and an unclosed quote are refused by name; StormCrawler's lines are read as
/// name=value only.
#[test]
fn settings_pasted_from_the_crawlers_command_line() {
    let nutch = overrides(Crawler::Nutch, "-D fetcher.server.delay=10 -Dgenerate.topN=500 -D 'fetcher.queue.mode=byHost'\ndb.fetch.interval.default=86400").unwrap();
    let plain = overrides(Crawler::Nutch, "fetcher.server.delay=10; generate.topN=500; fetcher.queue.mode=byHost; db.fetch.interval.default=86400");
    assert_eq!(Ok(nutch.clone()), plain);
    assert_eq!(nutch[2], ("fetcher.queue.mode", "byHost".to_string()));
    // the Generator's -topN, which it writes over generate.topN
    assert_eq!(
        overrides(Crawler::Nutch, "-D fetcher.server.delay=10 -topN 1000").unwrap(),
        vec![("fetcher.server.delay", "10".to_string()), ("generate.topN", "1000".to_string())]
    );
    assert!(overrides(Crawler::Nutch, "-topN").unwrap_err().contains("ends with -topN and no count after it"));
    assert!(overrides(Crawler::Nutch, "-topN 2.5").unwrap_err().contains("generate.topN"));
    assert_eq!(command_line(Crawler::Nutch, "-D \"a.b=My Bot\"").unwrap(), vec!["a.b=My Bot".to_string()], "quoted as the shell reads it");
    let scrapy = overrides(Crawler::Scrapy, "-s DOWNLOAD_DELAY=2 -s 'AUTOTHROTTLE_ENABLED=True'").unwrap();
    assert_eq!(scrapy, vec![("DOWNLOAD_DELAY", "2".to_string()), ("AUTOTHROTTLE_ENABLED", "True".to_string())]);
    let whole = overrides(Crawler::Scrapy, "scrapy crawl news -s DOWNLOAD_DELAY=2").unwrap_err();
    assert!(whole.contains("“scrapy” is not a -s option; give only the settings, each as -s name=value or name=value"), "{whole}");
    assert!(whole.ends_with("name=value"), "no -topN for Scrapy: {whole}");
    let dangling = overrides(Crawler::Nutch, "-D fetcher.server.delay=10 -D").unwrap_err();
    assert!(dangling.contains("ends with -D and no name=value after it"), "{dangling}");
    let unclosed = overrides(Crawler::Nutch, "-D \"fetcher.server.delay=10").unwrap_err();
    assert!(unclosed.contains("a quote that is not closed"), "{unclosed}");
    // a value with a dash inside is not an option
    assert_eq!(command_line(Crawler::Nutch, "a.b=bot -Dash").unwrap(), vec!["a.b=bot -Dash".to_string()]);
    let storm = overrides(Crawler::Stormcrawler, "-D fetcher.server.delay=10").unwrap_err();
    assert!(storm.contains("is not a setting Freshlab reads"), "{storm}");
}
