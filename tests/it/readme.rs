//! The README and the pages of docs/, held to what they say: every ```console block of README.md
//! and docs/*.md is a command and the output the binary must print (trycmd), so the numbers they
//! show are the binary's. The Markdown standing snippet and the green badge text docs/publishing.md
//! quotes are checked against a run of the reference; the framework rows and kits the README
//! counts are counted in the checkout; the README's two commands are the ones CI runs; and every
//! page of docs/ is in its index, and every relative link of README.md and docs/*.md reaches a
//! file, and a heading of it when the link names one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::root;

fn readme_console_examples_print_what_the_readme_shows() {
    trycmd::TestCases::new()
        .register_bin("tool-conformance", PathBuf::from(env!("CARGO_BIN_EXE_tool-conformance")))
        .case("README.md")
        .case("docs/*.md");
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn readme() -> String {
    read("README.md")
}

/// The body of the `## {heading}` section of `text`, up to the next `## ` heading.
fn section<'a>(text: &'a str, heading: &str) -> &'a str {
    let start = text.find(&format!("\n## {heading}\n")).unwrap_or_else(|| panic!("no section {heading:?}")) + 1;
    let rest = &text[start..];
    &rest[..rest[3..].find("\n## ").map_or(rest.len(), |at| at + 3)]
}

fn readme_standing_snippet_rows_are_rows_of_the_reference_standing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let status = Command::new(PathBuf::from(env!("CARGO_BIN_EXE_tool-conformance")))
        .args(["run", "--report"])
        .arg(dir.path())
        .output()
        .expect("run the binary");
    assert_eq!(status.status.code(), Some(0), "{}", String::from_utf8_lossy(&status.stderr));
    let standing = std::fs::read_to_string(dir.path().join("standing.md")).expect("standing.md");
    let page = read("docs/publishing.md");
    let start = page.find("## RT-TOOL-8: conforms").expect("docs/publishing.md shows a standing.md snippet");
    let rows: Vec<&str> =
        page[start..].lines().skip(1).take_while(|l| !l.starts_with("```")).filter(|l| l.starts_with("| ")).collect();
    assert!(rows.len() >= 3, "the snippet has its header and rows: {rows:?}");
    for row in rows {
        assert!(
            standing.lines().any(|l| l == row),
            "docs/publishing.md's row {row:?} is not in the reference's standing.md:\n{standing}"
        );
    }
    let badge = std::fs::read_to_string(dir.path().join("badge-RT-TOOL-8.json")).expect("badge");
    let message = badge.split("\"message\": \"").nth(1).and_then(|m| m.split('"').next()).expect("a message");
    assert!(page.contains(&format!("`{message}` in green")), "docs/publishing.md's green badge is not {message:?}");
}

/// The framework adapter folders: those that publish a standing (with an about.yaml).
fn framework_rows() -> Vec<String> {
    let dir = root().join("examples/adapters");
    let mut folders: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/adapters")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("about.yaml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    folders
}

/// docs/adapters.md's table of framework adapters names every adapter folder that publishes a
/// standing (one with an about.yaml), and nothing else.
fn readme_adapter_table_names_every_framework_adapter() {
    let folders = framework_rows();
    let page = read("docs/adapters.md");
    let start = page.find("| adapter | framework (pinned) | path measured |").expect("docs/adapters.md's adapter table");
    let mut listed: Vec<String> = page[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.strip_prefix("| `")?.split_once("/` |").map(|(name, _)| name.to_string()))
        .collect();
    listed.sort();
    assert!(folders.len() > 20, "the adapters are found: {folders:?}");
    assert_eq!(listed, folders, "docs/adapters.md's adapter table against examples/adapters/*/about.yaml");
    // Each row's pin is its about.yaml's package and version; "the same ..." is the row above's.
    let mut above: Option<(String, String)> = None;
    for line in page[start..].lines().skip(2).take_while(|line| line.starts_with('|')) {
        let cells: Vec<&str> = line.split(" | ").collect();
        let name = cells[0].trim_start_matches("| `").trim_end_matches("/`");
        let about = std::fs::read_to_string(root().join("examples/adapters").join(name).join("about.yaml")).unwrap();
        let about = &yaml_rust2::YamlLoader::load_from_str(&about).expect("about.yaml parses")[0];
        let pin = (about["package"].as_str().unwrap().to_string(), about["version"].as_str().unwrap().to_string());
        if cells[1].starts_with("the same") {
            assert_eq!(above.as_ref(), Some(&pin), "{name}: \"the same\" is not the pin of the row above");
        } else {
            assert!(
                cells[1].contains(&format!("`{}` {}", pin.0, pin.1)),
                "{name}: docs/adapters.md pins {:?}, its about.yaml {pin:?}",
                cells[1]
            );
        }
        above = Some(pin);
    }
}

/// The numbers the README states are counted: its framework rows are the adapter folders that
/// run a framework (an adapter.conf and an about.yaml; the one adapter.conf without an about.yaml
/// is the plain Python example, which is no framework), and its kits are the folders of
/// adapters/, each linked by its README. The README stays short.
fn readme_numbers_are_the_checkouts() {
    let readme = readme();
    let rows = framework_rows();
    let dir = root().join("examples/adapters");
    let confs: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/adapters")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("adapter.conf").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    let examples: Vec<&String> = confs.iter().filter(|name| !rows.contains(name)).collect();
    assert_eq!(examples, ["python"], "the adapter.conf folders without an about.yaml");
    assert_eq!(confs.len(), rows.len() + 1, "every framework row has its adapter.conf");
    let said = format!("and {} framework rows", rows.len());
    assert!(readme.contains(&said), "the README does not say {said:?}: the count is {}", rows.len());

    let mut kits: Vec<String> = std::fs::read_dir(root().join("adapters"))
        .expect("adapters/")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    kits.sort();
    let words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    let said = format!("the {} adapter kits", words[kits.len()]);
    assert!(readme.contains(&said), "the README does not say {said:?}: the kits are {kits:?}");
    let first_hour = section(&readme, "Your runtime, in the first hour");
    for kit in &kits {
        assert!(first_hour.contains(&format!("](adapters/{kit}/README.md)")), "the README links no {kit} kit");
    }
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines: its detail belongs on a page of docs/");
}

/// The README's two commands: one runs the suite against the reference, the other is the test
/// command, which `.ci/run` runs as it is written.
fn readme_two_commands_are_the_ones_ci_runs() {
    let readme = readme();
    let two = section(&readme, "Two commands");
    let block = two.split("```sh\n").nth(1).and_then(|b| b.split("```").next()).expect("a sh block");
    let commands: Vec<&str> =
        block.lines().map(|line| line.split(" # ").next().unwrap_or_default().trim()).filter(|l| !l.is_empty()).collect();
    assert_eq!(commands, ["cargo run --release -- run", "bash tests/run.sh"], "the two commands");
    let ci = read(".ci/run");
    assert!(ci.lines().any(|line| line.trim() == commands[1]), ".ci/run does not run {:?}:\n{ci}", commands[1]);
    assert!(root().join("tests/run.sh").is_file());
    assert!(two.contains("```console\n$ tool-conformance run"), "the README shows what `run` prints");
}

/// The value in `text` after the first `before`, up to the first character of `until`.
fn after<'a>(text: &'a str, before: &str, until: &[char]) -> &'a str {
    let rest = &text[text.find(before).unwrap_or_else(|| panic!("no {before:?}")) + before.len()..];
    &rest[..rest.find(until).unwrap_or(rest.len())]
}

/// The minimum versions docs/install.md states are the ones the manifests declare.
fn docs_install_minimums_are_the_manifests() {
    let page = read("docs/install.md");
    let declared = [
        ("Rust", after(&read("Cargo.toml"), "rust-version = \"", &['"']).to_string()),
        ("Python", after(&read("adapters/python/pyproject.toml"), "requires-python = \">=", &['"']).to_string()),
        ("Node", after(&read("adapters/node/package.json"), "\"node\": \">=", &['"']).to_string()),
        ("Go", after(&read("adapters/go/go.mod"), "\ngo ", &['\n']).to_string()),
        ("Java", after(&read("adapters/java/pom.xml"), "<maven.compiler.release>", &['<']).to_string()),
    ];
    for (language, version) in declared {
        assert!(!version.is_empty(), "{language}: no version declared");
        let said = format!("{language} {version} or later");
        assert!(page.contains(&said), "docs/install.md does not say {said:?}, the declared minimum");
    }
}

/// docs/commands.md has a row for every command `--help` lists.
fn docs_commands_table_has_every_command() {
    let help = crate::util::text(&crate::util::tool(&["--help"]));
    let commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .expect("--help lists the commands")
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(commands.len() >= 10, "the commands are found: {commands:?}");
    let page = read("docs/commands.md");
    for command in commands {
        assert!(page.contains(&format!("| `tool-conformance {command}")), "docs/commands.md has no row for {command}");
    }
}

/// The case file docs/corpus.md shows is one: `check` accepts it beside the built-in corpus, and
/// the reference passes its case.
fn docs_case_example_is_a_case_the_reference_passes() {
    let page = read("docs/corpus.md");
    let example = section(&page, "Adding a case")
        .split("```yaml\n")
        .nth(1)
        .and_then(|block| block.split("```").next())
        .expect("a yaml example");
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("RT-TOOL-8")).unwrap();
    std::fs::write(dir.path().join("RT-TOOL-8/docs-example.yaml"), example).unwrap();
    let cases = dir.path().to_str().unwrap();
    let check = crate::util::tool(&["check", cases]);
    assert_eq!(check.status.code(), Some(0), "{}", crate::util::text(&check));
    let run = crate::util::tool(&["run", "--add-cases", cases, "--case", "RT-TOOL-8/docs-example/*", "--compact"]);
    let said = crate::util::text(&run);
    assert_eq!(run.status.code(), Some(0), "{said}");
    assert!(said.contains("1 passed"), "{said}");
}

/// README.md and every docs/*.md, by path from the root.
fn pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(Result::ok)
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages.insert(0, "README.md".into());
    pages
}

/// The link targets of a Markdown text, and the ids GitHub gives its headings: the heading's
/// text in lower case, letters, digits, `-` and `_` kept, spaces as `-`, anything else dropped,
/// and `-1`, `-2`, … after a repeat. Code blocks hold neither.
fn links_and_ids(text: &str) -> (Vec<String>, BTreeSet<String>) {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut links = Vec::new();
    let mut ids = BTreeSet::new();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut heading: Option<String> = None;
    for event in Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match event {
            Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => links.push(dest_url.to_string()),
            Event::Start(Tag::Heading { .. }) => heading = Some(String::new()),
            Event::Text(t) | Event::Code(t) if heading.is_some() => heading.as_mut().unwrap().push_str(&t),
            Event::End(TagEnd::Heading(_)) => {
                let slug: String = heading
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
                ids.insert(if *n == 0 { slug } else { format!("{slug}-{n}") });
                *n += 1;
            }
            _ => {}
        }
    }
    (links, ids)
}

fn docs_heading_ids_are_made_as_github_makes_them() {
    let (_, ids) = links_and_ids("# A `run`, in the first hour\n\n## Two commands\n\n## Two commands\n\n```\n# not one\n```\n");
    assert_eq!(ids, BTreeSet::from(["a-run-in-the-first-hour".into(), "two-commands".into(), "two-commands-1".into()]));
}

fn docs_every_page_is_in_the_index() {
    let (links, _) = links_and_ids(&read("docs/README.md"));
    let missing: Vec<String> = pages()
        .into_iter()
        .filter_map(|page| page.strip_prefix("docs/").map(str::to_string))
        .filter(|name| name != "README.md" && !links.iter().any(|link| link == name))
        .collect();
    assert!(missing.is_empty(), "docs/README.md does not list {missing:?}");
}

fn docs_every_relative_link_reaches_a_file_and_its_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let (links, _) = links_and_ids(&read(&page));
        let dir = Path::new(&page).parent().unwrap_or(Path::new("")).to_path_buf();
        for link in links {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = link.split_once('#').map_or((link.as_str(), None), |(p, f)| (p, Some(f)));
            let target = if path.is_empty() { PathBuf::from(&page) } else { dir.join(path) };
            let file = root().join(&target);
            if !file.exists() {
                broken.push(format!("{page}: {link}: no {}", target.display()));
                continue;
            }
            if let Some(fragment) = fragment {
                let text = std::fs::read_to_string(&file).unwrap_or_default();
                if !links_and_ids(&text).1.contains(fragment) {
                    broken.push(format!("{page}: {link}: {} has no heading #{fragment}", target.display()));
                }
            }
        }
    }
    assert!(checked > 50, "the links are found: {checked}");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

tests![
    readme_console_examples_print_what_the_readme_shows,
    readme_standing_snippet_rows_are_rows_of_the_reference_standing,
    readme_adapter_table_names_every_framework_adapter,
    readme_numbers_are_the_checkouts,
    readme_two_commands_are_the_ones_ci_runs,
    docs_install_minimums_are_the_manifests,
    docs_commands_table_has_every_command,
    docs_case_example_is_a_case_the_reference_passes,
    docs_heading_ids_are_made_as_github_makes_them,
    docs_every_page_is_in_the_index,
    docs_every_relative_link_reaches_a_file_and_its_heading,
];
