//! Every report of a run against a probe implementation whose answers are injections, read back
//! by real consumers: junit.xml by an independent XML 1.0 parser, standing.md by a CommonMark
//! renderer with GFM tables, the terminal output as a terminal would take its escape sequences.
//! The probe sends characters XML forbids, lone-surrogate stand-ins, backtick runs with HTML,
//! pipes and newlines, ESC sequences, BEL, CR, C1 controls, bidi overrides and zero-width
//! characters, in its description, its returned arguments (keys and values) and its errors. Each
//! must show escaped and act on nothing. A target that cannot start errors every case for one
//! reason, which the terminal shows once.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde_json::{Value, json};
use std::time::Duration;
use tool_conformance::Failure;
use tool_conformance::json::inert::is_hidden;
use tool_conformance::json::surrogate::stand_in;
use tool_conformance::report::{Report, html, junit, markdown, terminal};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Implementation, Invocation, Reference, Selection, Target, TargetError, Tool};
use tool_conformance::{Level, Outcome, Status, Transport, View};

/// Every character XML 1.0 forbids in a document.
fn forbidden_in_xml() -> String {
    ('\0'..='\u{8}').chain(['\u{b}', '\u{c}']).chain('\u{e}'..='\u{1f}').chain(['\u{fffe}', '\u{ffff}']).collect()
}

fn stand_ins() -> String {
    [0xD800, 0xDBFF, 0xDC00, 0xDFFF].into_iter().filter_map(stand_in).collect()
}

/// The injections, one per kind.
fn injections() -> Vec<String> {
    vec![
        format!("forbidden[{}]", forbidden_in_xml()),
        format!("lone[{}]", stand_ins()),
        "`` ` `` <img src=x onerror=alert(1)> <script>alert(1)</script>".into(),
        "cell | split\n# heading\n```\n<div>raw</div>\n| a | b |\n|---|---|".into(),
        "\u{1b}[2J\u{1b}]0;title\u{7} screen".into(),
        "bell\u{7} carriage\r return \u{9b}31m c1 \u{85}nel \u{7f}del".into(),
        "bidi \u{202e}desrever\u{202c} \u{2066}isolate\u{2069} \u{200e}\u{200f}\u{61c}".into(),
        "zero\u{200b}width\u{200c}\u{200d}\u{2060}\u{feff}".into(),
        "*em* _u_ ~~del~~ [link](javascript:alert(1)) ![img](x) &amp; &lt;b&gt; <!-- c -->".into(),
    ]
}

/// The reference behind a face of injections: its description is every injection, every object
/// it returns from normalize gains an injected key and value, every describe fails for one
/// reason, and every invoke on the structured transport fails for the next injection.
struct Probe {
    inner: Reference,
    calls: usize,
}

impl Probe {
    fn new() -> Probe {
        Probe { inner: Reference::new(), calls: 0 }
    }

    fn next(&mut self) -> String {
        let injections = injections();
        self.calls += 1;
        injections[self.calls % injections.len()].clone()
    }
}

/// The one reason every describe fails for.
fn describe_reason() -> String {
    format!("the schema could not be read: {}", injections().join(" "))
}

impl Target for Probe {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let mut implementation = self.inner.start()?;
        let all = injections();
        implementation.name = all.join(" ");
        implementation.version = all[4].clone();
        implementation.language = Some(all[2].clone());
        implementation.homepage = Some(all[1].clone());
        Ok(implementation)
    }
    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        let mut normalized = self.inner.normalize(input_schema, arguments)?;
        if let Some(object) = normalized.as_object_mut() {
            let (key, value) = (self.next(), self.next());
            object.insert(key, json!(value));
        }
        Ok(normalized)
    }
    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.inner.register(tools)
    }
    fn describe(&mut self, _tool: &str, _view: View) -> Result<Value, TargetError> {
        Err(TargetError::Broken(describe_reason()))
    }
    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        if transport == Transport::Structured {
            return Err(TargetError::Broken(self.next()));
        }
        self.inner.invoke(tool, transport, arguments)
    }
}

/// A target that cannot start.
struct Unstartable;

impl Target for Unstartable {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        Err(TargetError::Broken(format!("exec failed: {}", injections()[4])))
    }
    fn normalize(&mut self, _: &Value, _: &Value) -> Result<Value, TargetError> {
        Err(TargetError::Broken("not started".into()))
    }
    fn register(&mut self, _: &[Tool]) -> Result<(), TargetError> {
        Err(TargetError::Broken("not started".into()))
    }
    fn describe(&mut self, _: &str, _: View) -> Result<Value, TargetError> {
        Err(TargetError::Broken("not started".into()))
    }
    fn invoke(&mut self, _: &str, _: Transport, _: &Value) -> Result<Invocation, TargetError> {
        Err(TargetError::Broken("not started".into()))
    }
}

fn corpus() -> Corpus {
    Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"))
}

fn probe_report() -> Report {
    let corpus = corpus();
    Report::for_corpus(&corpus, &run(&corpus, &Selection::all(), &mut Probe::new()))
}

/// Escaped forms each report must show, one for each kind of injection.
const SHOWN: &[&str] = &[
    "\\u{0}",
    "\\u{1F}",
    "\\u{FFFE}",
    "\\u{FFFF}",
    "\\u{D800}",
    "\\u{DFFF}",
    "\\u{1B}[2J",
    "\\u{1B}]0;title\\u{7}",
    "carriage\\u{D} return",
    "\\u{9B}31m",
    "\\u{202E}desrever\\u{202C}",
    "\\u{2066}isolate\\u{2069}",
    "zero\\u{200B}width\\u{200C}\\u{200D}\\u{2060}\\u{FEFF}",
];

fn assert_shown(what: &str, text: &str) {
    for shown in SHOWN {
        assert!(text.contains(shown), "{what} does not show {shown}");
    }
}

/// The hidden characters of `text` other than the newline, as code points.
fn hidden_in(text: &str) -> Vec<String> {
    let mut found: Vec<String> =
        text.chars().filter(|&c| c != '\n' && is_hidden(c)).map(|c| format!("U+{:04X}", u32::from(c))).collect();
    found.dedup();
    found
}

fn the_probe_fails_errors_and_describes_with_injections() {
    let report = probe_report();
    let kinds = |f: fn(&Outcome) -> bool| report.cases.iter().filter(|o| f(o)).count();
    assert!(kinds(|o| matches!(o.status, Status::Fail(_))) > 10, "normalize cases fail");
    assert!(kinds(|o| matches!(&o.status, Status::Error { reason } if *reason == describe_reason())) > 1);
    assert!(report.cases.iter().any(|o| matches!(&o.status, Status::Fail(f) if hidden_in(&f.pointer).len() > 3)));
}

fn junit_xml_parses_as_xml_and_shows_what_xml_forbids() {
    let xml = junit::render(&probe_report());
    let document = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("junit.xml is not well-formed: {e}"));
    let elements =
        ["testsuites", "testsuite", "testcase", "properties", "property", "failure", "error", "skipped", "system-out"];
    let mut text = String::new();
    for node in document.descendants() {
        if node.is_element() {
            let name = node.tag_name().name();
            assert!(elements.contains(&name), "junit.xml holds a <{name}> element the report did not write");
            for attribute in node.attributes() {
                text.push_str(attribute.value());
                text.push('\n');
            }
        } else if let Some(t) = node.text() {
            text.push_str(t);
        }
    }
    assert_shown("junit.xml", &text);
    assert!(hidden_in(&text).is_empty(), "junit.xml holds hidden characters: {:?}", hidden_in(&text));
    for shown in ["<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "cell | split\n# heading"] {
        assert!(text.contains(shown), "junit.xml does not carry {shown:?} as text");
    }
    assert!(junit_parser::from_reader(std::io::Cursor::new(xml.as_bytes())).is_ok(), "junit-parser reads it too");
}

fn the_xml_parser_refuses_what_xml_forbids() {
    for c in ['\u{ffff}', '\u{fffe}'] {
        let mut report = quick_junit::Report::new("r");
        let mut suite = quick_junit::TestSuite::new("s");
        suite.add_test_case(quick_junit::TestCase::new(format!("case {c}"), quick_junit::TestCaseStatus::success()));
        report.add_test_suite(suite);
        let xml = report.to_string().unwrap();
        assert!(roxmltree::Document::parse(&xml).is_err(), "U+{:04X} unescaped parses", u32::from(c));
    }
}

/// Walks standing.md as a CommonMark renderer with GFM extensions would, and returns the text
/// of its Text and Code events, one per line, and its headings; panics on any element the report
/// does not write, and on a line break other than the two of the report's opening paragraph
/// (suite, corpus, claims).
fn walk_markdown(markdown: &str) -> (String, Vec<String>) {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM;
    let (mut text, mut headings, mut heading) = (String::new(), Vec::new(), None::<String>);
    let (mut cells, mut breaks) = (0, 0);
    for event in Parser::new_ext(markdown, options) {
        match event {
            Event::Text(t) | Event::Code(t) => {
                text.push_str(&t);
                text.push('\n');
                if let Some(h) = heading.as_mut() {
                    h.push_str(&t);
                }
            }
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::End(TagEnd::Heading(level)) => headings.push(format!("{level:?} {}", heading.take().unwrap())),
            Event::SoftBreak => breaks += 1,
            Event::Start(Tag::TableRow | Tag::TableHead) => cells = 0,
            Event::Start(Tag::TableCell) => cells += 1,
            // The behaviour table has 5 columns, the clause tables 4, the tables of checks beyond
            // the text 2.
            Event::End(TagEnd::TableRow | TagEnd::TableHead) => {
                assert!(cells == 5 || cells == 4 || cells == 2, "a table row of {cells} cells")
            }
            Event::Start(
                Tag::Paragraph | Tag::Table(_) | Tag::CodeBlock(_) | Tag::Strong | Tag::List(None) | Tag::Item,
            )
            | Event::End(_) => {}
            // The behaviour table's words link to the report's own headings of those behaviours.
            Event::Start(Tag::Link { dest_url, .. })
                if dest_url.starts_with('#')
                    && dest_url[1..].bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') => {}
            other => panic!("standing.md renders an element the report did not write: {other:?}"),
        }
    }
    assert!(breaks <= 2, "standing.md has {breaks} line breaks in paragraphs");
    (text, headings)
}

fn standing_md_renders_no_element_the_report_did_not_write() {
    let report = probe_report();
    let (text, headings) = walk_markdown(&markdown::render(&report));
    assert_shown("standing.md", &text);
    assert!(hidden_in(&text).is_empty(), "standing.md shows hidden characters: {:?}", hidden_in(&text));
    for shown in ["`` ` `` <img src=x onerror=alert(1)> <script>alert(1)</script>", "cell | split", "~~del~~"] {
        assert!(text.contains(shown), "standing.md does not show {shown:?} as text");
    }
    let problems = report.problems().count();
    // The title, the behaviours, a heading per rule, the checks that did not pass (one per such
    // behaviour), the failing cases (one per case).
    let missed = report.behaviours.iter().filter(|b| report.behaviour_misses(&b.id).next().is_some()).count();
    let behaviours = usize::from(!report.behaviours.is_empty());
    let by_behaviour = if missed > 0 { 1 + missed } else { 0 };
    assert_eq!(
        headings.len(),
        1 + behaviours + report.standing.rules.len() + by_behaviour + 1 + problems,
        "{headings:#?}"
    );
    assert!(headings[0].starts_with("H1 Standing of forbidden["), "{}", headings[0]);
    assert!(headings.iter().filter(|h| h.starts_with("H3 ")).all(|h| !h.contains("heading")), "{headings:#?}");
}

fn markdown_code_spans_hold_their_backticks() {
    let (text, _) = walk_markdown(&format!("a {} b\n", markdown::code("`` ` `` <img src=x>")));
    assert_eq!(text, "a \n`` ` `` <img src=x>\n b\n");
}

/// `text` without the SGR sequences a colored report writes; panics on any other ESC.
fn without_sgr(what: &str, text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find('\u{1b}') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let body = after.strip_prefix('[').unwrap_or_else(|| panic!("{what}: an ESC that is not a CSI: {after:.20?}"));
        let end = body.find(|c: char| !c.is_ascii_digit() && c != ';').unwrap_or(body.len());
        assert!(body[end..].starts_with('m'), "{what}: an escape sequence that is not SGR: {after:.20?}");
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

fn the_terminal_shows_controls_escaped_and_writes_only_its_own_colors() {
    let report = probe_report();
    let elapsed = Duration::from_millis(1234);
    let plain = terminal::render(&report) + &terminal::summary_line(&report, elapsed, false);
    assert_shown("the terminal output", &plain);
    assert!(hidden_in(&plain).is_empty(), "the terminal output holds {:?}", hidden_in(&plain));
    let colored = terminal::render_colored(&report) + &terminal::summary_line(&report, elapsed, true);
    assert!(colored.contains('\u{1b}'), "the colored output has colors");
    let uncolored = without_sgr("the colored output", &colored);
    assert!(hidden_in(&uncolored).is_empty(), "the colored output holds {:?}", hidden_in(&uncolored));
    assert_eq!(uncolored, plain, "colors are all the colored output adds");
}

fn cases_that_errored_for_one_reason_show_it_once() {
    let report = probe_report();
    let grouped =
        report.problems().filter(|o| matches!(&o.status, Status::Error { reason } if *reason == describe_reason()));
    let plain = terminal::render(&report);
    assert!(plain.contains(&format!("ERROR in {} cases, for one reason:\n", grouped.count())), "{plain}");
    assert_eq!(plain.matches("the schema could not be read").count(), 1);
}

fn an_implementation_that_did_not_start_is_shown_once_with_a_summary() {
    let corpus = corpus();
    let report = Report::for_corpus(&corpus, &run(&corpus, &Selection::all(), &mut Unstartable));
    let n = report.cases.len();
    assert!(n > 100 && report.cases.iter().all(|o| matches!(o.status, Status::Error { .. })));
    let plain = terminal::render(&report);
    assert_eq!(plain.matches("the implementation did not start").count(), 1, "{plain}");
    assert!(plain.contains(&format!("ERROR in {n} cases, for one reason:\n")), "{plain}");
    assert!(plain.contains("\u{5c}u{1B}[2J"), "{plain}");
    assert!(plain.contains(&format!(", and {} more\n", n - 5)), "{plain}");
    assert!(plain.lines().count() < 60, "{} lines", plain.lines().count());
    let summary = terminal::summary_line(&report, Duration::from_millis(2500), false);
    let verdicts: Vec<String> =
        report.standing.rules.iter().map(|r| format!("{} {}", r.rule, r.verdict.as_str())).collect();
    let expected = format!(
        "0 passed, 0 failed, {n} errored, 0 skipped, 0 observed, 0 not applicable; {}; in 2.50s",
        verdicts.join(", ")
    );
    assert_eq!(summary, expected);
}

fn the_summary_line_counts_every_status_and_never_enters_a_report_file() {
    let report = probe_report();
    let summary = terminal::summary_line(&report, Duration::from_secs(3), false);
    let count = |kind: &str| report.cases.iter().filter(|o| o.status.kind().as_str() == kind).count();
    let counts = format!(
        "{} passed, {} failed, {} errored, {} skipped, {} observed, {} not applicable; ",
        count("pass"),
        count("fail"),
        count("error"),
        count("skip"),
        count("observed"),
        count("not_applicable")
    );
    assert!(summary.starts_with(&counts), "{summary}");
    for rule in &report.standing.rules {
        assert!(summary.contains(&format!("{} {}", rule.rule, rule.verdict.as_str())), "{summary}");
    }
    assert!(summary.ends_with("; in 3.00s"), "{summary}");
    for (name, contents) in report.files() {
        assert!(!contents.contains("in 3.00s") && !contents.contains(&summary), "{name} holds the summary line");
    }
}

fn standing_html_shows_stand_ins_and_controls_escaped() {
    let page = html::render(&probe_report());
    assert_shown("standing.html", &page);
    assert!(hidden_in(&page).is_empty(), "standing.html holds {:?}", hidden_in(&page));
    assert!(!page.contains("<img src=x") && !page.contains("<script>alert"), "markup got through");
}

fn every_report_file_of_the_probe_run_is_written() {
    let report = probe_report();
    let dir = tempfile::tempdir().unwrap();
    report.write_dir(dir.path()).expect("the report is written");
    for (name, contents) in report.files() {
        assert_eq!(std::fs::read_to_string(dir.path().join(&name)).unwrap(), contents, "{name}");
        if name.ends_with(".json") {
            tool_conformance::json::from_str::<Value>(&contents).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"));
        }
    }
}

/// A failure whose values differ only in characters that render the same: a no-break space, a
/// decomposed accent, a zero-width space.
fn invisible_differences_show_in_every_format() {
    let failure = Failure::new(
        "arguments reaching the tool",
        json!({"a": "Ember Oak", "b": "caf\u{e9}", "c": "ab"}),
        json!({"a": "Ember\u{a0}Oak", "b": "cafe\u{301}", "c": "a\u{200b}b"}),
    );
    let mut report = probe_report();
    let outcome = report.cases.iter_mut().find(|o| o.level == Level::Required && o.rule == "RT-TOOL-8").unwrap();
    outcome.status = Status::Fail(failure);
    let diff_lines = ["Ember\\u{20}Oak", "Ember\\u{A0}Oak", "caf\\u{E9}", "cafe\\u{301}", "a\\u{200B}b"];
    let (md_text, _) = walk_markdown(&markdown::render(&report));
    for (what, text) in [
        ("the terminal", terminal::render(&report)),
        ("standing.md", md_text),
        ("junit.xml", junit::render(&report)),
        ("standing.html", html::render(&report)),
    ] {
        for line in diff_lines {
            assert!(text.contains(line), "{what} does not show {line}");
        }
    }
}

fn a_run_of_the_binary_ends_with_its_summary_line() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_tool-conformance"))
        .args(["run", "--rule", "PLAT-162"])
        .output()
        .expect("run the binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.contains(" passed, 0 failed, 0 errored, ") && last.contains("PLAT-162 conforms"), "{stdout}");
    let time = last.rsplit_once("; in ").map(|(_, t)| t).unwrap_or_default();
    assert!(time.ends_with('s') && time.trim_end_matches('s').parse::<f64>().is_ok(), "{last}");
}

/// Walks a generated reports/<name>/README.md as a CommonMark renderer with GFM extensions would:
/// returns the text of its Text and Code events, one per line, and the links it holds; panics on
/// any element the page does not write, on raw HTML other than its one generated-by comment, and
/// on a line break inside a paragraph.
fn walk_readme(markdown: &str) -> (String, Vec<String>) {
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_GFM;
    let (mut text, mut links, mut html) = (String::new(), Vec::new(), Vec::new());
    for event in Parser::new_ext(markdown, options) {
        // Every element but strong ends a block of text.
        let ends = matches!(&event, Event::End(end) if *end != TagEnd::Strong);
        match event {
            // A text is split into several events (at each escape): it is whole until its element ends.
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::Html(h) => html.push(h.to_string()),
            Event::Start(Tag::Link { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::SoftBreak | Event::HardBreak => panic!("the README has a line break inside a paragraph"),
            Event::Start(
                Tag::Paragraph
                | Tag::Heading { .. }
                | Tag::Table(_)
                | Tag::TableHead
                | Tag::TableRow
                | Tag::TableCell
                | Tag::CodeBlock(_)
                | Tag::Strong
                | Tag::List(None)
                | Tag::Item
                | Tag::HtmlBlock,
            )
            | Event::End(_) => {}
            other => panic!("the README renders an element the page did not write: {other:?}"),
        }
        if ends {
            text.push('\n');
        }
    }
    assert_eq!(html.len(), 1, "raw HTML in the README: {html:?}");
    assert!(html[0].starts_with("<!-- Generated by `tool-conformance readme"), "{html:?}");
    (text, links)
}

fn a_standing_readme_renders_no_element_the_page_did_not_write() {
    use tool_conformance::StatusKind;
    use tool_conformance::report::about::About;
    use tool_conformance::report::readme::{Adapter, Inputs, render};
    use tool_conformance::standing::expectations::{ExpectedFailure, Triage};
    use tool_conformance::standing::file::StandingFile;

    let corpus = corpus();
    let mut report = probe_report();
    let injections = injections();
    let expected = report
        .problems()
        .enumerate()
        .map(|(i, o)| ExpectedFailure {
            case: o.id.clone(),
            status: StatusKind::Fail,
            reason: injections[i % injections.len()].clone(),
            varies: Some(injections[(i + 1) % injections.len()].clone()),
        })
        .collect();
    report = report.with_expected_failures(Triage { expected, ..Triage::default() });
    let standing = StandingFile::parse(&tool_conformance::report::json::render(&report)).expect("standing.json reads");
    let adapter = Adapter {
        folder: "examples/adapters/probe".into(),
        about: About {
            package: injections[2].clone(),
            version: injections[4].clone(),
            registry: "npm".into(),
            language: "python".into(),
            path: injections[3].clone(),
            pinned_behind: Some(injections[1].clone()),
            api: injections.join(" "),
            choices: injections.clone(),
            repro: "repro.py".into(),
        },
        // A template of its own with fences, HTML and controls, around the placeholders.
        template: format!(
            "# ```\n<b>x</b> {}\nname = \"__TOOL__\"\ns = r'''__SCHEMA__'''\na = __ARGUMENTS__\n````\n",
            injections[4]
        ),
    };
    let inputs = Inputs { name: "probe".into(), standing, adapter: Some(adapter), timing: None };
    let page = render(&inputs, &corpus);
    assert_eq!(page, render(&inputs, &corpus), "the page is deterministic");
    let (text, links) = walk_readme(&page);
    assert_shown("README.md", &text);
    assert!(hidden_in(&text).is_empty(), "README.md shows hidden characters: {:?}", hidden_in(&text));
    for shown in
        ["`` ` `` <img src=x onerror=alert(1)> <script>alert(1)</script>", "cell | split", "~~del~~", "<b>x</b>"]
    {
        assert!(text.contains(shown), "README.md does not show {shown:?} as text");
    }
    // A link to a place in the page names a heading the page wrote: a behaviour's id.
    let (anchors, mut links): (Vec<&str>, Vec<&str>) = links.iter().map(String::as_str).partition(|l| l.starts_with('#'));
    assert!(!anchors.is_empty(), "the behaviour table links to no behaviour's cases");
    for anchor in anchors {
        assert!(page.contains(&format!("\n### {}\n", &anchor[1..])), "{anchor} names no heading of the README");
    }
    links.sort_unstable();
    links.dedup();
    assert_eq!(
        links,
        ["../../examples/adapters/probe/", "expected-failures.yaml", "standing.json", "standing.md"],
        "the README links only to what the page names"
    );
    assert!(page.contains("Minimal reproduction: "), "the page gives reproductions");
    assert!(!page.contains("__SCHEMA__") && !page.contains("__TOOL__"), "every placeholder is filled");
    let filled: Vec<&str> = page.lines().filter(|l| l.starts_with("s = r'''{") || l.starts_with("a = {")).collect();
    assert!(filled.len() >= 2, "the template is filled: {filled:?}");
    for line in filled {
        assert!(line.chars().all(|c| (' '..='~').contains(&c)), "filled with more than printable ASCII: {line}");
    }
}

tests![
    the_probe_fails_errors_and_describes_with_injections,
    junit_xml_parses_as_xml_and_shows_what_xml_forbids,
    the_xml_parser_refuses_what_xml_forbids,
    standing_md_renders_no_element_the_report_did_not_write,
    markdown_code_spans_hold_their_backticks,
    the_terminal_shows_controls_escaped_and_writes_only_its_own_colors,
    cases_that_errored_for_one_reason_show_it_once,
    an_implementation_that_did_not_start_is_shown_once_with_a_summary,
    the_summary_line_counts_every_status_and_never_enters_a_report_file,
    standing_html_shows_stand_ins_and_controls_escaped,
    every_report_file_of_the_probe_run_is_written,
    invisible_differences_show_in_every_format,
    a_run_of_the_binary_ends_with_its_summary_line,
    a_standing_readme_renders_no_element_the_page_did_not_write,
];
