//! standing.html in a real browser: headless Chromium (Debian's `chromium`, which tests/run.sh
//! installs) loads the page of a run against a hostile implementation, one whose name, version,
//! language, homepage, error messages, returned arguments and received arguments are script and
//! markup injections, and the DOM it builds is checked: the summary renders, every injection
//! shows as text, no element of an injection exists, and no script ran. The page is checked as
//! written and once more with its Content Security Policy taken out, so that the escaping alone
//! is shown to hold.
//!
//! The browser is /usr/bin/chromium, or the path in `CHROMIUM` when that is set. Without it the
//! test fails, saying how to get it: `bash tests/run.sh` (the README's test command) installs
//! Debian's chromium package where it can.

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use tool_conformance::report::{Report, html};
use tool_conformance::run::run;
use tool_conformance::{Corpus, Implementation, Invocation, Reference, Selection, Target, TargetError, Tool};
use tool_conformance::{Transport, View};

/// Each injection, if it ever ran, would leave `data-pwned="42"` on the root element or a
/// `<b id="pwned-42">` in the body; neither string appears in the injections' own text.
const INJECTIONS: &[&str] = &[
    "<script>document.documentElement.setAttribute('data-pwned', 6*7)</script>",
    "<img src=x onerror=\"document.documentElement.setAttribute('data-pwned', 6*7)\">",
    "<svg onload=\"document.documentElement.setAttribute('data-pwned', 6*7)\"></svg>",
    "\"><script>document.body.insertAdjacentHTML('beforeend', '<b id=pwned-' + 6*7 + '>x</b>')</script>",
    "'><iframe srcdoc=\"<script>parent.document.documentElement.setAttribute('data-pwned', 6*7)</script>\"></iframe>",
    "</pre></dd></dl></details></code></title><script>document.documentElement.setAttribute('data-pwned', 6*7)</script>",
    "<style>body { display: none }</style><base href=\"javascript:alert(1)//\">",
    "<!-- --><a href=\"javascript:document.documentElement.setAttribute('data-pwned', 6*7)\">click</a>",
];

fn injection(index: usize) -> String {
    INJECTIONS[index % INJECTIONS.len()].to_string()
}

/// The reference, behind a face of injections: its description, one extra returned argument per
/// normalize, one extra received argument per executed invoke, and every describe an error.
struct Hostile {
    inner: Reference,
    calls: usize,
}

impl Hostile {
    fn next(&mut self) -> String {
        self.calls += 1;
        injection(self.calls)
    }
}

impl Target for Hostile {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        let mut implementation = self.inner.start()?;
        implementation.name = format!("{} {}", injection(0), injection(3));
        implementation.version = injection(5);
        implementation.language = Some(injection(1));
        implementation.homepage = Some("javascript:document.documentElement.setAttribute('data-pwned', 6*7)".into());
        Ok(implementation)
    }
    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        let mut normalized = self.inner.normalize(input_schema, arguments)?;
        if let Some(object) = normalized.as_object_mut() {
            let payload = self.next();
            object.insert(payload.clone(), json!(payload));
        }
        Ok(normalized)
    }
    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.inner.register(tools)
    }
    fn describe(&mut self, _tool: &str, _view: View) -> Result<Value, TargetError> {
        Err(TargetError::Broken(format!("the schema could not be read: {}", self.next())))
    }
    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        let payload = self.next();
        Ok(match self.inner.invoke(tool, transport, arguments)? {
            Invocation::Executed { handler_calls, mut received } => {
                if let Some(object) = received.as_object_mut() {
                    object.insert("note".into(), json!(payload));
                }
                Invocation::Executed { handler_calls, received }
            }
            Invocation::Rejected { handler_calls, mut error } => {
                error["message"] = json!(format!("{payload} see get_api_spec"));
                Invocation::Rejected { handler_calls, error }
            }
            other => other,
        })
    }
}

fn hostile_page() -> String {
    let corpus = Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let selection = Selection::new(
        Vec::new(),
        Vec::new(),
        vec!["RT-TOOL-8/examples/*".into(), "PLAT-162/scenarios/*".into(), "PLAT-162/one-schema/*".into()],
    )
    .expect("the globs are valid");
    let run = run(&corpus, &selection, &mut Hostile { inner: Reference::new(), calls: 0 });
    html::render(&Report::for_corpus(&corpus, &run))
}

/// Runs Chromium on `page` with `mode` (`--dump-dom`, or `--screenshot=PATH`); its stdout.
fn chromium(page: &Path, mode: &str) -> String {
    crate::util::chromium(page, mode, &["--window-size=1280,2000".to_string()]).0
}

fn check_dom(what: &str, dom: &str) {
    assert!(dom.contains("<h2>Summary</h2>"), "{what}: the summary is missing:\n{dom}");
    assert!(dom.contains("<table class=\"summary\">"), "{what}: the summary table is missing");
    for rule in ["RT-TOOL-8", "PLAT-162"] {
        assert!(dom.contains(&format!("<a href=\"#rule-{rule}\">{rule}</a>")), "{what}: no summary row for {rule}");
    }
    assert!(dom.contains("does not conform"), "{what}: no verdict shown");
    assert!(!dom.contains("data-pwned=\""), "{what}: an injected script ran and set data-pwned");
    assert!(!dom.contains("id=\"pwned-"), "{what}: a <b id=pwned-…> exists: markup got through, or a script ran");
    for element in ["<script", "<img", "<svg", "<iframe", "<base", "<a href=\"javascript"] {
        assert!(!dom.contains(element), "{what}: an injected {element} element exists");
    }
    assert_eq!(dom.matches("<style").count(), 1, "{what}: an injected <style> element exists");
    for shown in [
        "&lt;script&gt;document.documentElement.setAttribute('data-pwned', 6*7)&lt;/script&gt;",
        "&lt;img src=x onerror=\"document.documentElement.setAttribute('data-pwned', 6*7)\"&gt;",
        "the schema could not be read: ",
        "javascript:document.documentElement.setAttribute('data-pwned', 6*7)",
    ] {
        assert!(dom.contains(shown), "{what}: the injection {shown:?} is not shown as text");
    }
    assert!(dom.contains("&quot;note&quot;") || dom.contains("\"note\""), "{what}: received arguments are not shown");
}

fn the_page_renders_its_summary_and_injections_stay_text() {
    crate::util::chromium_binary(); // fails, saying how to get one, where it is missing
    let page = hostile_page();
    for injected in &INJECTIONS[..2] {
        assert!(!page.contains(injected), "the page holds an injection unescaped: {injected}");
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let as_written = dir.path().join("standing.html");
    std::fs::write(&as_written, &page).expect("write the page");
    let policy =
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n";
    assert!(page.contains(policy), "the page has its Content Security Policy");
    let without_policy = dir.path().join("standing-without-policy.html");
    std::fs::write(&without_policy, page.replace(policy, "")).expect("write the page");

    for (what, file) in [("the page", &as_written), ("the page without its policy", &without_policy)] {
        let dom = chromium(file, "--dump-dom");
        check_dom(what, &dom);
    }
    let shot: PathBuf = dir.path().join("standing.png");
    chromium(&as_written, &format!("--screenshot={}", shot.display()));
    let png = std::fs::read(&shot).expect("chromium wrote a screenshot");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "the screenshot is a PNG");
    assert!(png.len() > 20_000, "the screenshot is nearly empty ({} bytes): the page did not render", png.len());
}

tests![
    the_page_renders_its_summary_and_injections_stay_text,
];
