//! The standings site, built as a user builds it (`tool-conformance site DIR --out OUT`) and read
//! by a real browser: headless Chromium (Debian's `chromium`, which tests/run.sh installs, or the
//! binary in `CHROMIUM`) opens the index, a case page and a rule's page of every case against
//! every implementation, at a phone's width and a desktop's, with
//! its console logged. No console message may appear (the pages run no script, so any message is
//! an error: a blocked style, a policy violation), every file the browser loaded and every link
//! of the page must be a file of the site, and every published row must answer on the case page.
//! The screenshots are kept in `target/tmp/site/screenshots/`, to look at. Two builds of the same
//! standings give the same bytes.
//!
//! A hostile standing (its implementation, folder name, about.yaml, reasons, checks, values,
//! summaries and an unknown case are injections) is built beside a twin whose every injection is
//! a plain word: Chromium's DOM of each page must have exactly the twin's elements and
//! attributes, so that no injection became markup, and its links must stay within the site. A
//! submission whose corpus digest is not the suite's is listed apart, never on a case page, and
//! `table` says so. The Pages workflow is read as YAML and held to the documented command.

use serde_json::{Value, json};
use std::path::{Component, Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_tool-conformance");
const CASE: &str = "case/PLAT-162/scenarios/guessed-step-id.html";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A clean folder of this test's output, under `target/tmp/site/`.
fn output(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("site").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the output folder");
    dir
}

fn tool(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN).args(args).current_dir(root()).output().expect("run tool-conformance");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn build(dir: &Path, out: &Path) -> String {
    let (code, stdout, stderr) = tool(&["site", &dir.to_string_lossy(), "--out", &out.to_string_lossy()]);
    assert_eq!(code, 0, "site failed:\n{stdout}\n{stderr}");
    stdout
}

/// What Chromium did with one page.
struct Visit {
    /// Its stdout: the DOM, with `--dump-dom`.
    stdout: String,
    /// Every console message the page caused.
    console: Vec<String>,
    /// Every file the browser loaded for it.
    loaded: Vec<PathBuf>,
}

/// Opens `page` in headless Chromium at `width`×`height` with `mode` (`--dump-dom` or
/// `--screenshot=PATH`), logging its console and the files it loads.
fn chromium(page: &Path, width: u32, height: u32, mode: &str) -> Visit {
    let extra = ["--hide-scrollbars", "--enable-logging=stderr", "--v=1"].map(str::to_string);
    let size = format!("--window-size={width},{height}");
    let (stdout, stderr) = crate::util::chromium(page, mode, &[extra.as_slice(), &[size]].concat());
    let console = stderr.lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    let loaded = stderr
        .lines()
        .filter_map(|l| l.split_once("FileURLLoader::Start: file://").map(|(_, url)| PathBuf::from(url.trim())))
        .collect();
    Visit { stdout, console, loaded }
}

/// Every `href` attribute of the tags of `html` (a page as written, or as Chromium serializes
/// its DOM), with `&amp;` and `&quot;` read back.
fn hrefs(html: &str) -> Vec<String> {
    tags(html)
        .into_iter()
        .flat_map(|(_, attributes)| attributes)
        .filter(|(name, _)| name == "href")
        .map(|(_, value)| value.replace("&quot;", "\"").replace("&amp;", "&"))
        .collect()
}

/// The file of the site that `href`, on the page at `page` (relative to `site`), points to; an
/// error when it has a scheme, leaves the site, or names no file.
fn resolve(site: &Path, page: &str, href: &str) -> Result<PathBuf, String> {
    let path = href.split('#').next().unwrap_or_default();
    if path.is_empty() {
        return Ok(site.join(page));
    }
    if path.contains(':') || path.starts_with('/') || path.contains('%') || path.contains('\\') {
        return Err(format!("{page}: {href:?} is not a relative path within the site"));
    }
    let mut at: Vec<String> = page.split('/').map(str::to_string).collect();
    at.pop();
    for part in Path::new(path).components() {
        match part {
            Component::Normal(p) => at.push(p.to_string_lossy().into_owned()),
            Component::ParentDir if !at.is_empty() => {
                at.pop();
            }
            _ => return Err(format!("{page}: {href:?} leaves the site")),
        }
    }
    let file = site.join(at.join("/"));
    if file.is_file() { Ok(file) } else { Err(format!("{page}: {href:?} names no file ({})", file.display())) }
}

fn html_files(site: &Path) -> Vec<String> {
    walkdir::WalkDir::new(site)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .map(|e| e.path().strip_prefix(site).unwrap().to_string_lossy().replace('\\', "/"))
        .collect()
}

/// Every link of every page of `site` resolves to a file of it.
fn check_every_link(site: &Path) {
    let mut broken = Vec::new();
    let mut pages = 0;
    for page in html_files(site) {
        pages += 1;
        let text = std::fs::read_to_string(site.join(&page)).unwrap();
        for href in hrefs(&text) {
            match resolve(site, &page, &href) {
                Err(e) => broken.push(e),
                // A link to a place in a page reaches an element with that id.
                Ok(file) => match href.split_once('#') {
                    Some((_, fragment))
                        if !std::fs::read_to_string(&file).unwrap().contains(&format!("id=\"{fragment}\"")) =>
                    {
                        broken.push(format!("{page}: {href:?} names no element of {}", file.display()))
                    }
                    _ => {}
                },
            }
        }
    }
    assert!(pages > 1, "the site has no pages");
    assert!(broken.is_empty(), "{} broken links, e.g.:\n{}", broken.len(), broken[..broken.len().min(10)].join("\n"));
}

/// The published rows: every folder of reports/ with a standing.json.
fn published() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("reports"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("standing.json").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn the_published_standings_make_a_site_that_chromium_renders_at_two_widths() {
    let site = output("published");
    let said = build(&root().join("reports"), &site);
    let rows = published();
    assert!(rows.len() >= 3, "reports/ holds {} standings", rows.len());
    assert!(said.contains(&format!("{} standings", rows.len())), "{said}");
    assert!(site.join(CASE).is_file(), "the deep link {CASE} is not a file of the site");
    check_every_link(&site);
    let again = output("published-again");
    build(&root().join("reports"), &again);
    let files = |dir: &Path| -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<_> = walkdir::WalkDir::new(dir)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| (e.path().strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(e.path()).unwrap()))
            .collect();
        files.sort();
        files
    };
    assert!(files(&site) == files(&again), "two builds of the same standings differ");
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("site").join("screenshots");
    let _ = std::fs::remove_dir_all(&shots);
    std::fs::create_dir_all(&shots).unwrap();

    for page in ["index.html", CASE, "rule/PLAT-162.html"] {
        let file = site.join(page);
        let visit = chromium(&file, 1280, 900, "--dump-dom");
        let dom = &visit.stdout;
        assert!(visit.console.is_empty(), "{page}: console messages:\n{}", visit.console.join("\n"));
        assert!(visit.loaded.contains(&site.join("style.css")), "{page}: the style sheet was not loaded");
        for loaded in &visit.loaded {
            assert!(
                loaded.starts_with(&site) && loaded.is_file(),
                "{page}: loaded {} (not a file of the site)",
                loaded.display()
            );
        }
        for href in hrefs(dom) {
            resolve(&site, page, &href).unwrap_or_else(|e| panic!("in the DOM: {e}"));
        }
        for row in &rows {
            assert!(
                dom.contains(&format!("implementation/{row}.html\">{row}</a>")),
                "{page}: no link to the row {row}"
            );
        }
        for (width, height, name) in [(390, 844, "phone"), (1280, 900, "desktop")] {
            if page == "index.html" {
                // What each runtime does comes first: the first table is the behaviour table, and
                // a cell whose behaviour missed a check links to those cases on the row's page.
                let visit = chromium(&file, width, height, "--dump-dom");
                assert!(visit.console.is_empty(), "index at {width}px: console messages:\n{}", visit.console.join("\n"));
                let first = visit.stdout.split("<table").nth(1).expect("the index has a table");
                assert!(first.starts_with(" class=\"does\""), "index at {width}px: the first table is <table{}", &first[..40]);
                assert!(first.contains(".html#"), "no cell of the behaviour table links to its cases");
            }
            let stem = page.trim_end_matches(".html").replace('/', "-");
            let shot = shots.join(format!("{stem}-{name}.png"));
            let visit = chromium(&file, width, height, &format!("--screenshot={}", shot.display()));
            assert!(visit.console.is_empty(), "{page} at {width}px: console messages:\n{}", visit.console.join("\n"));
            let png = std::fs::read(&shot).expect("chromium wrote a screenshot");
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{} is a PNG", shot.display());
            assert!(png.len() > 20_000, "{} is nearly empty ({} bytes)", shot.display(), png.len());
        }
    }
    // The case page: every row's answer, in sections grouped by answer.
    let dom = chromium(&site.join(CASE), 1280, 900, "--dump-dom").stdout;
    let answers = dom.split("<section class=\"answer").skip(1).collect::<Vec<_>>();
    assert!(!answers.is_empty(), "the case page has no answer");
    for row in &rows {
        let link = format!("implementation/{row}.html\">{row}</a>");
        let n = answers.iter().filter(|a| a.split("</section>").next().unwrap_or("").contains(&link)).count();
        assert_eq!(n, 1, "{row} answers {n} times on the case page");
    }
    assert!(dom.contains("The call is rejected before the handler runs"), "what the text forces is not shown");
    assert!(dom.contains("update_message_sequence_step"), "what is sent is not shown");

    // The console check can fail: a stylesheet the page's policy refuses is reported.
    let control = site.join("control.html");
    let page =
        std::fs::read_to_string(site.join(CASE)).unwrap().replace("</head>", "<style>p { color: red }</style></head>");
    std::fs::write(&control, page).unwrap();
    let visit = chromium(&control, 390, 844, "--dump-dom");
    assert!(!visit.console.is_empty(), "a refused inline style left no console message: the check is blind");
}

/// Injections: each, if it ever ran or became markup, would add an element or an attribute.
const INJECTIONS: &[&str] = &[
    "<script>document.documentElement.setAttribute('data-pwned', 6*7)</script>",
    "<img src=x onerror=\"document.documentElement.setAttribute('data-pwned', 6*7)\">",
    "\"><svg onload=alert(1)></svg>",
    "'><iframe srcdoc=\"<script>alert(1)</script>\"></iframe>",
    "</pre></section></main><a href=\"javascript:alert(1)\">click</a>",
    "<style>body { display: none }</style><base href=\"https://example.com/\">",
    "cell | split\n# heading\n```\n<div>raw</div>\n| a | b |\n|---|---|",
    "[link](javascript:alert(1)) ![img](https://example.com/x.png) <https://example.com> *em*",
    "bidi \u{202e}desrever\u{202c} zero\u{200b}width \u{1b}[2J <!-- c -->",
];

/// The `i`-th string of a standing: an injection, or in the twin a plain word.
fn payload(hostile: bool, i: usize) -> String {
    if hostile { format!("{} #{i}", INJECTIONS[i % INJECTIONS.len()]) } else { format!("plain{i}") }
}

/// A published standing (fastmcp's: failures, skips and observations) with every string a
/// standing may carry replaced by [`payload`]s.
fn standing(hostile: bool) -> Value {
    let text = std::fs::read_to_string(root().join("reports/fastmcp/standing.json")).unwrap();
    let mut value: Value = tool_conformance::json::from_str(&text).unwrap();
    let mut n = 0;
    let mut next = || {
        n += 1;
        payload(hostile, n)
    };
    value["implementation"]["name"] = json!(next());
    value["implementation"]["version"] = json!(next());
    value["implementation"]["homepage"] = json!(format!("javascript:{}", next()));
    value["standing"]["rules"][0]["verdict"] = json!(next());
    for case in value["cases"].as_array_mut().unwrap() {
        case["summary"] = json!(next());
        for field in ["reason", "behaviour"] {
            if case.get(field).is_some_and(|v| !v.is_null()) {
                case[field] = json!(next());
            }
        }
        if case.get("check").is_some() {
            case["check"] = json!(format!("{} on direct", next()));
        }
        for field in ["expected", "actual"] {
            if case.get(field).is_some() {
                let (key, leaf) = (next(), next());
                case[field] = json!({ key: leaf, "list": [next()] });
            }
        }
    }
    let unknown = json!({"id": format!("PLAT-162/{}/x", next()), "rule": "PLAT-162", "clauses": [next()],
        "level": "required", "status": "fail", "summary": next(), "check": next(), "expected": next(), "actual": next()});
    value["cases"].as_array_mut().unwrap().push(unknown);
    for entry in value["expected_failures"]["expected"].as_array_mut().unwrap() {
        entry["reason"] = json!(next());
    }
    value
}

/// A folder of standings: `good` (the reference, as published), a submission with `hostile` (or
/// plain) strings and about.yaml, and `y-other`, a standing of another corpus.
fn standings(hostile: bool) -> (PathBuf, String) {
    let dir = output(if hostile { "hostile-in" } else { "twin-in" });
    let folder = if hostile { "x-<img src=x onerror=alert(1)>\"'&amp;..%2F" } else { "x-plain" };
    let good = dir.join("good");
    std::fs::create_dir_all(&good).unwrap();
    std::fs::copy(root().join("reports/reference/standing.json"), good.join("standing.json")).unwrap();
    let submission = dir.join(folder);
    std::fs::create_dir_all(&submission).unwrap();
    std::fs::write(submission.join("standing.json"), serde_json::to_string(&standing(hostile)).unwrap()).unwrap();
    let (api, path, choice) = if hostile {
        (INJECTIONS[0].to_string(), INJECTIONS[2].to_string(), format!("{} .", INJECTIONS[1].replace('"', "'")))
    } else {
        ("plain api".to_string(), "plain path".to_string(), "plain choice.".to_string())
    };
    let about = json!({"package": "some-package", "version": "1.0.0", "registry": "npm", "language": "javascript",
        "path": path, "api": api, "choices": [choice], "repro": "repro.mjs"});
    std::fs::write(submission.join("about.yaml"), serde_json::to_string(&about).unwrap()).unwrap();
    std::fs::write(submission.join("repro.mjs"), "// __TOOL__ __SCHEMA__ __ARGUMENTS__\n").unwrap();
    let other = dir.join("y-other");
    std::fs::create_dir_all(&other).unwrap();
    let mut value: Value = tool_conformance::json::from_str(
        &std::fs::read_to_string(root().join("reports/python/standing.json")).unwrap(),
    )
    .unwrap();
    value["suite"]["corpus"]["digest"] = json!(format!("sha256:{}", "0".repeat(64)));
    std::fs::write(other.join("standing.json"), serde_json::to_string(&value).unwrap()).unwrap();
    (dir, folder.to_string())
}

/// The tags of `html`, in order, each with its attributes (name, value as written). Both the
/// site's pages and Chromium's serialization write `<` in text and in attribute values as
/// `&lt;`, and every attribute value double-quoted, so every `<` opens a tag or a comment.
fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            out.push(("!--".into(), Vec::new()));
            rest = after.split_once("-->").map_or("", |(_, r)| r);
            continue;
        }
        let name: String = rest.chars().take_while(|c| !c.is_whitespace() && *c != '/' && *c != '>').collect();
        let name = match rest.strip_prefix('/') {
            Some(closing) => format!("/{}", closing.split(['>', ' ']).next().unwrap_or("")),
            None => name,
        };
        let mut inner = &rest[name.len().min(rest.len())..];
        let mut attributes = Vec::new();
        loop {
            inner = inner.trim_start();
            if inner.is_empty() || inner.starts_with('>') || inner.starts_with("/>") {
                break;
            }
            let attribute: String =
                inner.chars().take_while(|c| *c != '=' && *c != '>' && !c.is_whitespace()).collect();
            inner = &inner[attribute.len()..];
            let mut value = String::new();
            if let Some(quoted) = inner.strip_prefix("=\"") {
                let (v, r) = quoted.split_once('"').unwrap_or((quoted, ""));
                value = v.to_string();
                inner = r;
            }
            if attribute.is_empty() {
                inner = &inner[inner.chars().next().map_or(0, char::len_utf8)..];
                continue;
            }
            attributes.push((attribute, value));
        }
        rest = inner;
        out.push((name, attributes));
    }
    out
}

/// The elements and attribute names of a page, in order.
fn structure(html: &str) -> Vec<String> {
    tags(html)
        .into_iter()
        .map(|(name, attributes)| {
            let mut names: Vec<String> = attributes.into_iter().map(|(n, _)| n).collect();
            names.sort();
            format!("{name}[{}]", names.join(" "))
        })
        .collect()
}

fn a_hostile_standing_renders_inert_and_another_corpus_is_kept_apart() {
    let (hostile_in, folder) = standings(true);
    let (twin_in, _) = standings(false);
    let (hostile, twin) = (output("hostile"), output("twin"));
    let said = build(&hostile_in, &hostile);
    build(&twin_in, &twin);
    assert!(said.contains("y-other: ran the corpus sha256:000"), "the other corpus is not said: {said}");
    check_every_link(&hostile);
    let written = html_files(&hostile);
    assert_eq!(written.len(), html_files(&twin).len(), "the hostile site has other pages than its twin");
    let hostile_page = written.iter().find(|p| p.starts_with("implementation/x-~")).expect("the submission's page");
    for page in &written {
        assert!(!page.contains(['<', '>', '"', '\'', '&', '%']), "a file name holds markup: {page}");
    }
    for (page, twin_page) in [
        ("index.html", "index.html"),
        (CASE, CASE),
        (hostile_page.as_str(), "implementation/x-plain.html"),
        ("implementation/y-other.html", "implementation/y-other.html"),
        ("rule/PLAT-162.html", "rule/PLAT-162.html"),
    ] {
        let visit = chromium(&hostile.join(page), 1280, 900, "--dump-dom");
        let dom = &visit.stdout;
        assert!(visit.console.is_empty(), "{page}: console messages:\n{}", visit.console.join("\n"));
        let plain = chromium(&twin.join(twin_page), 1280, 900, "--dump-dom").stdout;
        // The same elements with the same attributes, counted: the order of rows may differ,
        // since some tables sort by the strings a standing gives.
        let (mut got, mut want) = (structure(dom), structure(&plain));
        got.sort();
        want.sort();
        if got != want {
            let extra: Vec<&String> = got
                .iter()
                .filter(|t| got.iter().filter(|x| x == t).count() > want.iter().filter(|x| x == t).count())
                .collect();
            let missing: Vec<&String> = want
                .iter()
                .filter(|t| want.iter().filter(|x| x == t).count() > got.iter().filter(|x| x == t).count())
                .collect();
            panic!("{page}: the hostile page's elements are not its twin's: more {extra:?}, fewer {missing:?}");
        }
        assert!(!dom.contains("data-pwned=\""), "{page}: an injected script ran");
        for href in hrefs(dom) {
            resolve(&hostile, page, &href).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    let index = chromium(&hostile.join("index.html"), 1280, 900, "--dump-dom").stdout;
    assert!(index.contains("Standings of another corpus"), "the other corpus is not marked on the index");
    let apart = index.split("Standings of another corpus").nth(1).unwrap();
    assert!(apart.contains("implementation/y-other.html"), "y-other is not listed apart");
    assert!(!index.split("Standings of another corpus").next().unwrap().contains("y-other"), "y-other is compared");
    let case = std::fs::read_to_string(hostile.join(CASE)).unwrap();
    assert!(!case.contains("y-other"), "a standing of another corpus answers on a case page");
    assert!(case.contains("1 standing of another corpus is left out"), "the case page does not say what it leaves out");
    let submission = std::fs::read_to_string(hostile.join(hostile_page)).unwrap();
    assert!(submission.contains("&lt;script&gt;document.documentElement"), "the injection is not shown as text");
    assert!(
        case.contains(&format!(
            ">{}</a>",
            folder
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;")
        )),
        "the hostile folder name is not shown"
    );

    // The table reads the same folder, and says which row ran another corpus.
    let (_, table, _) = tool(&["table", &hostile_in.to_string_lossy()]);
    assert!(table.contains("y-other"), "{table}");
    assert!(table.contains("not this suite's"), "the table does not mark the other corpus:\n{table}");
}

fn a_folder_the_github_action_writes_with_its_about_yaml_is_listed() {
    // The action runs `run --report DIR`; a submission adds about.yaml and its template.
    let dir = output("submission-in");
    let folder = dir.join("my-runtime");
    let (code, _, stderr) = tool(&["run", "--report", &folder.to_string_lossy()]);
    assert_eq!(code, 0, "{stderr}");
    std::fs::write(
        folder.join("about.yaml"),
        "package: my-runtime\nversion: 2.0.1\nregistry: pypi\nlanguage: python\npath: \"Runtime.tool\"\napi: \"Runtime.tool(fn)\"\n\
         choices:\n  - Every schema is registered as it is.\nrepro: repro.py\n",
    )
    .unwrap();
    std::fs::write(folder.join("repro.py"), "print(r'''__SCHEMA__''')\n").unwrap();
    let site = output("submission");
    let said = build(&dir, &site);
    assert!(said.contains("1 standings") && !said.contains("another corpus"), "{said}");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("<code>my-runtime</code> 2.0.1 · pypi"), "the package and version are not shown");
    assert!(index.contains("Runtime.tool(fn)"), "the API path is not shown");
    check_every_link(&site);
    let (code, table, _) = tool(&["table", &dir.to_string_lossy()]);
    assert_eq!(code, 0, "{table}");
    assert!(table.contains("[my-runtime](my-runtime/README.md)") && !table.contains("not this suite's"), "{table}");
}

fn the_pages_workflow_builds_the_documented_command_and_deploys_its_output() {
    use yaml_rust2::{Yaml, YamlLoader};
    let text = std::fs::read_to_string(root().join(".github/workflows/pages.yml")).expect("the Pages workflow");
    let doc = &YamlLoader::load_from_str(&text).expect("the workflow is YAML")[0];
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let publishing = std::fs::read_to_string(root().join("docs/publishing.md")).unwrap();
    let jobs = doc["jobs"].as_hash().expect("jobs");
    let steps: Vec<Yaml> = jobs.values().flat_map(|j| j["steps"].as_vec().cloned().unwrap_or_default()).collect();
    let run =
        steps.iter().filter_map(|s| s["run"].as_str()).find(|r| r.contains(" site ")).expect("a step runs `site`");
    let command = run.lines().find(|l| l.contains(" site ")).unwrap().trim();
    assert!(publishing.contains(command), "the workflow runs `{command}`, which docs/publishing.md does not document");
    let words: Vec<&str> = command.split_whitespace().collect();
    let site = words.iter().position(|w| *w == "site").unwrap();
    assert_eq!(words[site + 1], "reports", "the site is not built from reports/");
    let out = words.iter().position(|w| *w == "--out").map(|i| words[i + 1]).expect("--out");
    let uses = |action: &str| steps.iter().find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with(action)));
    let upload = uses("actions/upload-pages-artifact@").expect("the site is uploaded as a Pages artifact");
    assert_eq!(upload["with"]["path"].as_str(), Some(out), "the artifact is not the folder `site` writes");
    assert!(uses("actions/deploy-pages@").is_some(), "the artifact is not deployed");
    let permissions = &doc["permissions"];
    assert_eq!(permissions["pages"].as_str(), Some("write"));
    assert_eq!(permissions["id-token"].as_str(), Some("write"));
    assert!(
        readme.contains("(https://tool-conformance.github.io/tool-conformance/)"),
        "README has no link to the site"
    );
}

tests![
    the_published_standings_make_a_site_that_chromium_renders_at_two_widths,
    a_hostile_standing_renders_inert_and_another_corpus_is_kept_apart,
    a_folder_the_github_action_writes_with_its_about_yaml_is_listed,
    the_pages_workflow_builds_the_documented_command_and_deploys_its_output,
];
