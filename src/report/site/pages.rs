//! The pages of the standings site, each a pure function of the corpus and the standings: the
//! index, a page per implementation, a page per case, and the style sheet.

use super::Entry;
use super::page::{STYLE, case_path, esc, implementation_path, json, link, root_of, shell};
use crate::case::{Case, Check, Expect, InvokeExpectation, Level};
use crate::corpus::Corpus;
use crate::json::Value;
use crate::report::cell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Every file of the site, as (path relative to its root, contents).
pub(super) fn all(corpus: &Corpus, suite_digest: &str, entries: &[Entry]) -> Vec<(String, String)> {
    let mut files = vec![("style.css".to_string(), STYLE.to_string())];
    files.push(("index.html".into(), index(corpus, suite_digest, entries)));
    for entry in entries {
        let path = implementation_path(&entry.folder);
        let page = implementation(&path, corpus, suite_digest, entry);
        files.push((path, page));
    }
    let compared: Vec<&Entry> = entries.iter().filter(|e| e.same_corpus).collect();
    let apart = entries.len() - compared.len();
    for rule in &corpus.catalog.rules {
        let path = rule_path(&rule.id);
        let page = matrix(&path, corpus, &rule.id, &compared, suite_digest);
        files.push((path, page));
    }
    for case in &corpus.cases {
        let path = case_path(&case.id);
        let page = case_page(&path, corpus, case, &compared, apart, suite_digest);
        files.push((path, page));
    }
    files
}

fn footer(suite_digest: &str) -> String {
    format!(
        "Built by <code>tool-conformance site</code> {} from the published standings; corpus <code>{}</code>. \
         No script: every page reads as it is.",
        esc(crate::suite::SUITE_VERSION),
        esc(short(suite_digest))
    )
}

fn short(digest: &str) -> &str {
    let hex = digest.strip_prefix("sha256:").unwrap_or(digest);
    hex.get(..12).unwrap_or(hex)
}

/// The rule ids to show, in catalog order, then any other rule a standing names.
fn rules(corpus: &Corpus, entries: &[&Entry]) -> Vec<String> {
    let mut ids: Vec<String> = corpus.catalog.rules.iter().map(|r| r.id.clone()).collect();
    for entry in entries {
        for rule in &entry.published.rules {
            if !ids.contains(&rule.rule) {
                ids.push(rule.rule.clone());
            }
        }
    }
    ids
}

/// `package version` and the API path, or the implementation's own line.
fn what_is_measured(entry: &Entry) -> String {
    match &entry.about {
        Some(about) => format!(
            "<div class=\"meta\"><code>{}</code> {} · {}</div><div class=\"meta api\">{}</div>",
            esc(&about.package),
            esc(&about.version),
            esc(&about.registry),
            esc(&about.api)
        ),
        None => format!("<div class=\"meta\">{}</div>", esc(&entry.file.implementation_line())),
    }
}

fn verdict_cell(entry: &Entry, rule: &str) -> String {
    match entry.published.rules.iter().find(|r| r.rule == rule) {
        Some(r) => format!(
            "<td><span class=\"rule-name\">{}</span><span class=\"v v-{}\">{}</span><br><span class=\"n\">required {}</span><br><span class=\"meta\">interpretation {}</span></td>",
            esc(rule),
            esc(&slugged(&r.verdict)),
            esc(&r.verdict.replace('_', " ")),
            esc(&cell(&r.totals, Level::Required)),
            esc(&cell(&r.totals, Level::Interpretation))
        ),
        None => format!("<td class=\"meta\"><span class=\"rule-name\">{}</span>not run</td>", esc(rule)),
    }
}

fn standings_table(out: &mut String, from: &str, rules: &[String], entries: &[&Entry]) {
    out.push_str("<div class=\"scroll\"><table class=\"standings\">\n<thead><tr><th>implementation</th>");
    for rule in rules {
        let _ = write!(out, "<th>{}</th>", esc(rule));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for entry in entries {
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}{}</th>",
            link(from, &implementation_path(&entry.folder), &entry.folder),
            what_is_measured(entry)
        );
        for rule in rules {
            out.push_str(&verdict_cell(entry, rule));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
}

/// What each implementation does: per rule, a row per implementation and a column per behaviour
/// (numbered, with the sentences as the key), each cell the share of the behaviour's required
/// checks that passed, in a word and a percentage, linked to the implementation's page.
fn behaviour_tables(out: &mut String, from: &str, corpus: &Corpus, entries: &[&Entry]) {
    if entries.iter().all(|e| e.published.behaviours.is_empty()) {
        return;
    }
    out.push_str("<h2 id=\"what-they-do\">What each runtime does</h2>\n");
    out.push_str(
        "<p class=\"note\">Each cell is the share of a behaviour's required checks that passed: <b>always</b>, \
         <b>mostly</b> (80% or more), <b>sometimes</b> (20% or more), <b>rarely</b>, <b>never</b>. A check the answer \
         cannot show (a refusal by a runtime that validates, an error with no structured problems) is not \
         measured, so validating never reads worse than doing nothing; a declined or errored case is measured. \
         <b>-</b>: not measured (the rule is not claimed, or nothing of it could be seen).</p>\n",
    );
    for rule in &corpus.catalog.rules {
        if rule.behaviours.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<h3 id=\"{}\">{}</h3>\n<ol class=\"key\">",
            esc(&format!("does-{}", rule.id)),
            esc(&rule.id)
        );
        for behaviour in &rule.behaviours {
            let _ =
                writeln!(out, "<li id=\"{}\">{}</li>", esc(&format!("b-{}", behaviour.id)), esc(&behaviour.sentence));
        }
        out.push_str("</ol>\n<div class=\"scroll\"><table class=\"does\">\n<thead><tr><th>implementation</th>");
        for (n, behaviour) in rule.behaviours.iter().enumerate() {
            let _ = write!(out, "<th title=\"{}\">{}</th>", esc(&behaviour.sentence), n + 1);
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for entry in entries {
            let page = implementation_path(&entry.folder);
            let _ = write!(out, "<tr><th scope=\"row\">{}</th>", link(from, &page, &entry.folder));
            for behaviour in &rule.behaviours {
                let counts = entry.published.behaviours.iter().find(|b| b.id == behaviour.id).map(|b| b.required);
                match counts.and_then(|c| c.percent().map(|p| (c, p))) {
                    Some((c, percent)) => {
                        let word = c.frequency().as_str();
                        // To the behaviour's cases on the row's page, when some check of it missed.
                        let to = if c.misses() {
                            format!("{page}#{}", crate::report::markdown::encoded(&behaviour.id))
                        } else {
                            page.clone()
                        };
                        let _ = write!(
                            out,
                            "<td class=\"f f-{}\" title=\"{}\">{}<br><span class=\"n\">{percent}%</span></td>",
                            esc(word),
                            esc(&c.over()),
                            link(from, &to, word)
                        );
                    }
                    None => out.push_str("<td class=\"f f-none\">-</td>"),
                }
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div>\n");
    }
}

fn index(corpus: &Corpus, suite_digest: &str, entries: &[Entry]) -> String {
    let from = "index.html";
    let compared: Vec<&Entry> = entries.iter().filter(|e| e.same_corpus).collect();
    let apart: Vec<&Entry> = entries.iter().filter(|e| !e.same_corpus).collect();
    let rules = rules(corpus, &compared);
    let mut out = String::new();
    out.push_str("<h1>Tool-argument conformance: the published standings</h1>\n");
    let _ = writeln!(
        out,
        "<p>{} implementations, each run against the same {} cases of the rules below (corpus <code>{}</code>). \
         A verdict is decided by the <b>required</b> cases alone, which follow from the rule text: passed/judged, \
         then failures, errors and skips (a declined case is never a pass). <b>Interpretation</b> cases read an open \
         point one way and never decide a verdict. Each case below links to every implementation's answer to it.</p>",
        compared.len(),
        corpus.cases.len(),
        esc(short(suite_digest))
    );
    behaviour_tables(&mut out, from, corpus, &compared);
    out.push_str("<h2 id=\"verdicts\">Verdicts</h2>\n");
    if compared.is_empty() {
        out.push_str("<p>No standing of this corpus has been published here yet.</p>\n");
    } else {
        standings_table(&mut out, from, &rules, &compared);
    }
    for rule in corpus.catalog.rules.iter().filter(|r| rules.contains(&r.id)) {
        let _ = writeln!(out, "<h3 id=\"{}\">{} by clause</h3>", esc(&format!("clauses-{}", rule.id)), esc(&rule.id));
        let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(&rule.title));
        out.push_str("<div class=\"scroll\"><table>\n<thead><tr><th>implementation</th>");
        for clause in &rule.clauses {
            let short = clause.id.strip_prefix(&rule.id).unwrap_or(&clause.id);
            let _ = write!(out, "<th title=\"{}\">{}</th>", esc(&clause.summary), esc(short));
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for entry in &compared {
            let _ = write!(
                out,
                "<tr><th scope=\"row\">{}</th>",
                link(from, &implementation_path(&entry.folder), &entry.folder)
            );
            let published = entry.published.rules.iter().find(|r| r.rule == rule.id);
            for clause in &rule.clauses {
                let counts = published.and_then(|r| r.clauses.iter().find(|(c, _)| *c == clause.id)).map(|(_, c)| c);
                let text = counts.map(|c| cell(c, Level::Required)).unwrap_or_else(|| "-".into());
                let class = counts.map_or("", clause_class);
                let _ = write!(out, "<td class=\"n{class}\">{}</td>", esc(&text));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</tbody></table></div>\n<ul class=\"note\">\n");
        for clause in &rule.clauses {
            let _ = writeln!(out, "<li><code>{}</code>: {}</li>", esc(&clause.id), esc(&clause.summary));
        }
        out.push_str("</ul>\n");
    }
    if !apart.is_empty() {
        out.push_str("<h2 id=\"other-corpora\">Standings of another corpus</h2>\n");
        let _ = writeln!(
            out,
            "<p class=\"banner\">These standings ran case files whose digest is not this suite's (<code>{}</code>): their \
             counts are not comparable, so they are listed here and left out of every case page.</p>",
            esc(short(suite_digest))
        );
        standings_table(&mut out, from, &rules, &apart);
    }
    out.push_str(
        "<h2 id=\"cases\">Cases</h2>\n<p class=\"note\">By rule and topic; beside each case, how many of the \
                  implementations above passed, failed, errored or skipped it.</p>\n",
    );
    for rule in &corpus.catalog.rules {
        let cases: Vec<&Case> = corpus.cases.iter().filter(|c| c.rule == rule.id).collect();
        if cases.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "<h3 id=\"{}\">{} ({} cases)</h3>\n<p>{}</p>",
            esc(&format!("cases-{}", rule.id)),
            esc(&rule.id),
            cases.len(),
            link(
                from,
                &rule_path(&rule.id),
                &format!("Every {} case against every implementation, on one page", rule.id)
            )
        );
        let mut topics: Vec<&str> = Vec::new();
        for case in &cases {
            let topic = case.id.split('/').nth(1).unwrap_or("");
            if !topics.contains(&topic) {
                topics.push(topic);
            }
        }
        for topic in topics {
            let in_topic: Vec<&&Case> = cases.iter().filter(|c| c.id.split('/').nth(1) == Some(topic)).collect();
            let _ = writeln!(
                out,
                "<details class=\"topic\"><summary>{} ({} cases)</summary>\n<ul class=\"cases\">",
                esc(topic),
                in_topic.len()
            );
            for case in in_topic {
                let name = case.id.rsplit('/').next().unwrap_or(&case.id);
                let _ = writeln!(
                    out,
                    "<li>{} <span class=\"meta\">{}</span> {}<br><span class=\"meta\">{}</span></li>",
                    link(from, &case_path(&case.id), name),
                    esc(case.level.as_str()),
                    tally(case, &compared),
                    esc(&case.summary)
                );
            }
            out.push_str("</ul></details>\n");
        }
    }
    shell(from, "Published standings: tool-conformance", &[], &out, &footer(suite_digest))
}

/// A clause's colour: a failing or erroring required case makes it red, every required case
/// judged and passed (none skipped) green, anything else plain.
fn clause_class(counts: &crate::standing::Counts) -> &'static str {
    use crate::judge::outcome::StatusKind as S;
    let judged = counts.judged(Level::Required);
    if counts.get(Level::Required, S::Fail) + counts.get(Level::Required, S::Error) > 0 {
        " s-fail"
    } else if judged > 0 && counts.get(Level::Required, S::Pass) == judged && counts.get(Level::Required, S::Skip) == 0
    {
        " s-pass"
    } else {
        ""
    }
}

/// The path of a rule's page of every case against every implementation.
fn rule_path(rule: &str) -> String {
    format!("rule/{}.html", super::page::slug(rule))
}

/// One letter per status, so that the matrix reads without colour too.
fn mark(status: &str) -> &'static str {
    match status {
        "pass" => "✓",
        "fail" => "✗",
        "error" => "!",
        "skip" => "–",
        "observed" => "●",
        "not_applicable" => "·",
        _ => "?",
    }
}

/// Every case of `rule` against every implementation: a row per case, a column per
/// implementation, a mark per answer, each row linked to the case's page.
fn matrix(path: &str, corpus: &Corpus, rule: &str, entries: &[&Entry], suite_digest: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "<h1>{}: every case, every implementation</h1>", esc(rule));
    out.push_str(
        "<p class=\"note\">✓ pass, ✗ fail, ! error, – skip, ● observed (informational), · not applicable. \
         A case's name links to every answer, side by side.</p>\n",
    );
    out.push_str(
        "<div class=\"scroll\"><table class=\"matrix\">\n<thead><tr><th>case</th><th class=\"lvl\">level</th>",
    );
    for entry in entries {
        let _ = write!(
            out,
            "<th class=\"who\"><span>{}</span></th>",
            link(path, &implementation_path(&entry.folder), &entry.folder)
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for case in corpus.cases.iter().filter(|c| c.rule == rule) {
        let name = case.id.strip_prefix(rule).unwrap_or(&case.id).trim_start_matches('/');
        let _ = write!(
            out,
            "<tr><th scope=\"row\">{}</th><td class=\"meta lvl\">{}</td>",
            link(path, &case_path(&case.id), name),
            esc(&case.level.as_str()[..3])
        );
        for entry in entries {
            let status = entry.case(&case.id).map(|c| c.status.as_str()).unwrap_or("missing");
            let _ = write!(
                out,
                "<td class=\"m s-{}\" title=\"{}: {}\">{}</td>",
                esc(&slugged(status)),
                esc(&entry.folder),
                esc(&status.replace('_', " ")),
                mark(status)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></div>\n");
    let crumb = (format!("index.html#cases-{rule}"), rule.to_string());
    shell(path, &format!("{rule}: every case, every implementation"), &[crumb], &out, &footer(suite_digest))
}

/// `9 pass · 3 fail · 2 skip` over the standings, each count in its status's colour.
fn tally(case: &Case, entries: &[&Entry]) -> String {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for entry in entries {
        let status = entry.case(&case.id).map(|c| c.status.as_str()).unwrap_or("missing");
        match counts.iter_mut().find(|(s, _)| *s == status) {
            Some((_, n)) => *n += 1,
            None => counts.push((status, 1)),
        }
    }
    counts.sort_by_key(|(s, _)| status_order(s));
    let parts: Vec<String> = counts
        .iter()
        .map(|(s, n)| format!("<span class=\"s-{}\">{n} {}</span>", esc(&slugged(s)), esc(&s.replace('_', " "))))
        .collect();
    format!("<span class=\"tally\">{}</span>", parts.join(" · "))
}

fn slugged(status: &str) -> String {
    status.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '-' }).collect()
}

fn status_order(status: &str) -> usize {
    ["pass", "observed", "fail", "error", "skip", "not_applicable", "missing"]
        .iter()
        .position(|s| *s == status)
        .unwrap_or(7)
}

fn implementation(path: &str, corpus: &Corpus, suite_digest: &str, entry: &Entry) -> String {
    let mut out = String::new();
    if !entry.same_corpus {
        let _ = writeln!(
            out,
            "<p class=\"banner\">This standing ran the corpus <code>{}</code>, not this suite's <code>{}</code>: its \
             counts are not comparable with the others, and the case pages leave it out.</p>",
            esc(short(&entry.published.corpus_digest)),
            esc(short(suite_digest))
        );
    }
    out.push_str("<div class=\"md\">\n");
    out.push_str(&markdown(&entry.readme, path, corpus));
    out.push_str("</div>\n");
    let title = format!("{}: standing", entry.folder);
    shell(path, &title, &[], &out, &footer(suite_digest))
}

/// The README's Markdown as HTML, for the page at `from`: text escaped by the renderer, raw HTML
/// in the source dropped (a block, such as the generated-file comment) or shown as text (inline),
/// links and images taken out, their text kept, since they point into the repository rather than
/// into the site; a code span that is the id of a case of `corpus` links to the case's page.
fn markdown(text: &str, from: &str, corpus: &Corpus) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
    let events: Vec<Event> = Parser::new_ext(text, Options::ENABLE_TABLES).collect();
    let ids = heading_ids(&events);
    let mut heading = 0;
    let events = events.into_iter().filter_map(|event| match event {
        Event::Start(Tag::Heading { level, classes, attrs, .. }) => {
            let id = ids.get(heading).cloned().map(CowStr::from);
            heading += 1;
            Some(Event::Start(Tag::Heading { level, id, classes, attrs }))
        }
        Event::Html(_) => None,
        Event::InlineHtml(html) => Some(Event::Text(html)),
        Event::Code(code) if corpus.cases.iter().any(|c| c.id == *code) => {
            let href = format!("{}{}", root_of(from), case_path(&code));
            Some(Event::InlineHtml(CowStr::from(format!("<a href=\"{}\"><code>{}</code></a>", esc(&href), esc(&code)))))
        }
        Event::Start(Tag::Link { .. } | Tag::Image { .. }) | Event::End(TagEnd::Link | TagEnd::Image) => None,
        other => Some(other),
    });
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// The id of each heading among `events`, in order, as GitHub gives a README's headings theirs,
/// so that a README's `#anchor` links reach the same heading on its page: the heading's text in
/// lower case, letters, digits, `-` and `_` kept, spaces as `-`, anything else dropped, and
/// `-1`, `-2`, … after a repeat.
fn heading_ids(events: &[pulldown_cmark::Event]) -> Vec<String> {
    use pulldown_cmark::{Event, Tag, TagEnd};
    let mut ids = Vec::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut text: Option<String> = None;
    for event in events {
        match event {
            Event::Start(Tag::Heading { .. }) => text = Some(String::new()),
            Event::Text(t) | Event::Code(t) if text.is_some() => text.as_mut().unwrap().push_str(t),
            Event::End(TagEnd::Heading(_)) => {
                let slug: String = text
                    .take()
                    .unwrap_or_default()
                    .to_lowercase()
                    .chars()
                    .filter_map(|c| match c {
                        ' ' => Some('-'),
                        c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                        _ => None,
                    })
                    .collect();
                let n = seen.entry(slug.clone()).or_insert(0);
                ids.push(if *n == 0 { slug } else { format!("{slug}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    ids
}

fn case_page(path: &str, corpus: &Corpus, case: &Case, entries: &[&Entry], apart: usize, suite_digest: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "<h1><code>{}</code></h1>\n<p>{}</p>", esc(&case.id), esc(&case.summary));
    let _ = writeln!(
        out,
        "<p class=\"meta\">{} · clauses {} · defined at <code>{}:{}</code></p>",
        esc(case.level.as_str()),
        esc(&case.clauses.join(", ")),
        esc(&case.location.file.to_string_lossy()),
        case.location.line
    );
    if let Some(note) = &case.note {
        let _ = writeln!(out, "<p><b>The reading taken:</b> {}</p>", esc(note));
    }
    let _ = writeln!(out, "<p><a href=\"#answers\">{} answers</a>: {}</p>", entries.len(), tally(case, entries));
    out.push_str("<h2>What the rule says</h2>\n");
    for clause in &case.clauses {
        let summary = corpus.catalog.clause(clause).map(|(_, c)| c.summary.clone()).unwrap_or_default();
        let _ = writeln!(out, "<h3><code>{}</code> <span class=\"summary\">{}</span></h3>", esc(clause), esc(&summary));
        match crate::corpus::specs::clause_sentences(clause) {
            Some((file, sentences)) => {
                for sentence in sentences {
                    let _ = writeln!(out, "<blockquote>{}</blockquote>", esc(&sentence));
                }
                let _ = writeln!(out, "<p class=\"meta\">from <code>{}</code></p>", esc(&file));
            }
            None => out.push_str("<p class=\"meta\">No rule text in specs/ for this clause: its summary is all.</p>\n"),
        }
    }
    out.push_str("<h2>What is sent</h2>\n");
    for (what, value) in crate::report::sent(case) {
        let _ = writeln!(out, "<h3>{}</h3>\n{}", esc(&what), json(&value));
    }
    out.push_str("<h2>What the text forces</h2>\n");
    expected(&mut out, case);
    let _ = writeln!(out, "<p class=\"note\">{}</p>", esc(why(case.level)));
    answers(&mut out, path, case, entries, apart);
    let rule_crumb = (format!("index.html#cases-{}", case.rule), case.rule.clone());
    let title = format!("{}: every answer", case.id);
    shell(path, &title, &[rule_crumb], &out, &footer(suite_digest))
}

fn why(level: Level) -> &'static str {
    match level {
        Level::Required => {
            "Required: this follows from the rule text alone; an implementation that fails it does not conform."
        }
        Level::Interpretation => {
            "Interpretation: the text is open here, and the case takes the reading above; it never decides a verdict."
        }
        Level::Informational => "Informational: the rule leaves this open; the answers are recorded, never judged.",
    }
}

fn expected(out: &mut String, case: &Case) {
    fn one_invoke(expectation: &InvokeExpectation) -> String {
        match expectation {
            InvokeExpectation::Executed { received } => {
                format!("<p>The handler runs once and receives exactly:</p>{}", json(received))
            }
            InvokeExpectation::Rejected { problems, problems_at_least, expected_fields } => {
                let problems = serde_json::to_value(problems).unwrap_or(Value::Null);
                let naming =
                    if *problems_at_least { "naming at least these problems" } else { "naming these problems" };
                let mut text =
                    format!("<p>The call is rejected before the handler runs, {naming}:</p>{}", json(&problems));
                if let Some(fields) = expected_fields {
                    let fields = serde_json::to_value(fields).unwrap_or(Value::Null);
                    let _ = write!(text, "<p>and listing these expected fields:</p>{}", json(&fields));
                }
                text
            }
        }
    }
    match &case.check {
        Check::Normalize { expect: Expect::One(value), .. } => {
            let _ = writeln!(out, "<p>The arguments that reach the tool:</p>{}", json(value));
        }
        Check::Invoke { expect: Expect::One(expectation), .. } => out.push_str(&one_invoke(expectation)),
        Check::Normalize { expect: Expect::Behaviours(behaviours), .. } => {
            out.push_str("<p>Nothing: the rule leaves it open. The behaviours the suite names:</p>\n");
            for (name, value) in behaviours {
                let _ = writeln!(out, "<h3><code>{}</code></h3>{}", esc(name), json(value));
            }
        }
        Check::Invoke { expect: Expect::Behaviours(behaviours), .. } => {
            out.push_str("<p>Nothing: the rule leaves it open. The behaviours the suite names:</p>\n");
            for (name, expectation) in behaviours {
                let _ = writeln!(out, "<h3><code>{}</code></h3>{}", esc(name), one_invoke(expectation));
            }
        }
        Check::Describe { tool, views, .. } => {
            let on: Vec<&str> = views.iter().map(|v| v.as_str()).collect();
            let _ = writeln!(
                out,
                "<p>Each of {} publishes the schema <code>{}</code> was registered with.</p>",
                esc(&on.join(", ")),
                esc(tool)
            );
        }
    }
}

/// One answer, as the standing recorded it: what grouped implementations share. The transport
/// a check first failed on is kept apart, so that the same answer on two transports is one group.
#[derive(PartialEq)]
struct Answer {
    status: String,
    check: Option<String>,
    expected: Option<String>,
    actual: Option<String>,
    reason: Option<String>,
    behaviour: Option<String>,
}

/// The check without the transport it ran on (`problems named on direct` → `problems named`,
/// `direct`).
fn without_transport(check: &str) -> (String, Option<&'static str>) {
    for transport in ["direct", "structured", "http"] {
        let on = format!(" on {transport}");
        if let Some(at) = check.find(&on) {
            let rest = &check[at + on.len()..];
            if rest.is_empty() || rest.starts_with([':', ' ', ',', ')']) {
                return (format!("{}{rest}", &check[..at]), Some(transport));
            }
        }
    }
    (check.to_string(), None)
}

/// An implementation that gave an answer, with the transport its check first failed on.
type Who<'a> = (&'a Entry, Option<&'static str>);

fn answers(out: &mut String, from: &str, case: &Case, entries: &[&Entry], apart: usize) {
    let mut groups: Vec<(Answer, Vec<Who>)> = Vec::new();
    for entry in entries {
        let shown = |v: &Option<Value>| v.as_ref().map(super::page::json_text);
        let (answer, transport) = match entry.case(&case.id) {
            Some(c) => {
                let (check, transport) = match &c.check {
                    Some(check) => {
                        let (check, transport) = without_transport(check);
                        (Some(check), transport)
                    }
                    None => (None, None),
                };
                use crate::judge::outcome::StatusKind as S;
                let answer = Answer {
                    status: c.status.as_str().to_string(),
                    check: check.filter(|_| c.status == S::Fail),
                    expected: if c.status == S::Fail { shown(&c.expected) } else { None },
                    actual: if matches!(c.status, S::Fail | S::Observed) { shown(&c.actual) } else { None },
                    reason: c.reason.clone().filter(|_| c.status != S::Pass),
                    behaviour: c.behaviour.clone().filter(|_| c.status == S::Observed),
                };
                (answer, transport.filter(|_| c.status == S::Fail))
            }
            None => (
                Answer {
                    status: "missing".into(),
                    check: None,
                    expected: None,
                    actual: None,
                    reason: None,
                    behaviour: None,
                },
                None,
            ),
        };
        match groups.iter_mut().find(|(a, _)| *a == answer) {
            Some((_, who)) => who.push((entry, transport)),
            None => groups.push((answer, vec![(entry, transport)])),
        }
    }
    groups.sort_by(|a, b| status_order(&a.0.status).cmp(&status_order(&b.0.status)).then(b.1.len().cmp(&a.1.len())));
    let _ = writeln!(
        out,
        "<h2 id=\"answers\">The answers</h2>\n<p>{} implementations, in {} group{} of the same answer.{}</p>",
        entries.len(),
        groups.len(),
        if groups.len() == 1 { "" } else { "s" },
        if apart > 0 {
            format!(
                " {apart} standing{} of another corpus {} left out.",
                if apart == 1 { "" } else { "s" },
                if apart == 1 { "is" } else { "are" }
            )
        } else {
            String::new()
        }
    );
    for (answer, who) in &groups {
        let status = slugged(&answer.status);
        let _ = write!(
            out,
            "<section class=\"answer s-{status}\">\n<h3><span class=\"s s-{status}\">{}</span>{}</h3>\n<p class=\"who\">",
            esc(&answer.status.replace('_', " ")),
            esc(&headline(answer))
        );
        let names: Vec<String> = who
            .iter()
            .map(|(e, transport)| {
                let name = link(from, &implementation_path(&e.folder), &e.folder);
                match transport {
                    Some(t) => format!("{name} <span class=\"meta\">(on {t})</span>"),
                    None => name,
                }
            })
            .collect();
        out.push_str(&names.join(", "));
        out.push_str("</p>\n");
        if let Some(check) = &answer.check {
            let _ = writeln!(out, "<p class=\"meta\">the check that failed first: {}</p>", esc(check));
        }
        if let Some(behaviour) = &answer.behaviour {
            let _ = writeln!(out, "<p>behaviour seen: <code>{}</code></p>", esc(behaviour));
        }
        match (&answer.actual, &answer.expected) {
            (Some(actual), Some(expected)) => {
                let _ = writeln!(
                    out,
                    "<div class=\"pair\"><div><p class=\"meta\">answered</p><pre>{}</pre></div>\
                     <div><p class=\"meta\">where the check expected</p><pre>{}</pre></div></div>",
                    esc(actual),
                    esc(expected)
                );
            }
            (Some(actual), None) => {
                let _ = writeln!(out, "<p class=\"meta\">answered</p><pre>{}</pre>", esc(actual));
            }
            _ => {}
        }
        if let Some(reason) = &answer.reason {
            let _ = writeln!(out, "<pre>{}</pre>", esc(reason));
        }
        out.push_str("</section>\n");
    }
}

/// What a group of implementations did, in a few words, from the check that failed and what it
/// saw: who ran the handler with what, who rejected and how.
fn headline(answer: &Answer) -> String {
    match answer.status.as_str() {
        "pass" => " answered as the text forces".into(),
        "observed" => " the rule leaves this open".into(),
        "error" => " the implementation broke".into(),
        "skip" => " declined or not observable".into(),
        "not_applicable" => " does not apply".into(),
        "missing" => " no result for this case in the standing".into(),
        _ => {
            let check = answer.check.as_deref().unwrap_or("");
            let actual: Option<Value> = answer.actual.as_deref().and_then(|a| crate::json::from_str(a).ok());
            let outcome = actual.as_ref().and_then(|a| a.get("outcome")).and_then(Value::as_str);
            if check.starts_with("arguments reaching the tool") {
                " the handler received other arguments".into()
            } else if outcome == Some("executed") {
                " ran the handler".into()
            } else if outcome == Some("rejected") {
                " rejected the call".into()
            } else if check.starts_with("problems named") {
                " rejected, naming other problems".into()
            } else if check.starts_with("expected_fields") {
                " rejected, with other expected fields".into()
            } else if check.contains("get_api_spec") && check.starts_with("the error") {
                " rejected, without pointing to get_api_spec".into()
            } else if check.contains("schema published") {
                " published another schema".into()
            } else {
                format!(" {check}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_is_grouped_without_its_transport() {
        assert_eq!(without_transport("problems named on direct"), ("problems named".into(), Some("direct")));
        assert_eq!(
            without_transport("expected_fields on http: the declared properties"),
            ("expected_fields: the declared properties".into(), Some("http"))
        );
        assert_eq!(
            without_transport("schema published by get_api_spec"),
            ("schema published by get_api_spec".into(), None)
        );
        assert_eq!(without_transport("invoke on directly"), ("invoke on directly".into(), None));
    }

    #[test]
    fn a_readme_renders_without_its_raw_html_and_links_and_a_case_id_links_to_its_page() {
        let corpus = Corpus::embedded().unwrap();
        let id = &corpus.cases[0].id;
        let text = format!(
            "<!-- generated -->\n\n# t\n\nsee [the adapter](../../x/) and ![i](x.png) <b>bold</b> `{id}` `other`\n\n\
             | a | b |\n|---|---|\n| 1 | 2 |\n"
        );
        let html = markdown(&text, "implementation/x.html", &corpus);
        assert!(!html.contains("<!--") && !html.contains("<b>") && html.contains("&lt;b&gt;bold&lt;/b&gt;"), "{html}");
        assert!(!html.contains("x/\"") && !html.contains("<img") && html.contains("the adapter"), "{html}");
        assert!(html.contains(&format!("<a href=\"../{}\"><code>{id}</code></a>", case_path(id))), "{html}");
        assert!(html.contains("<code>other</code>") && html.contains("<table>"), "{html}");
    }

    #[test]
    fn headings_get_the_ids_a_readme_links_to() {
        let corpus = Corpus::embedded().unwrap();
        let text = "# Standing\n\n## stops-invalid-calls\n\n### RT-TOOL-8.2: 3 failing cases (1 required)\n\n\
                    ### `x` \"quoted\" &lt;b&gt;\n\n## stops-invalid-calls\n";
        let html = markdown(text, "implementation/x.html", &corpus);
        for id in [
            "standing",
            "stops-invalid-calls",
            "rt-tool-82-3-failing-cases-1-required",
            "x-quoted-b",
            "stops-invalid-calls-1",
        ] {
            assert!(html.contains(&format!("id=\"{id}\"")), "no heading has the id {id}: {html}");
        }
    }
}
