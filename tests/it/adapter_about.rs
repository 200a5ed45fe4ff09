//! Every framework adapter says what its standing measures (docs/protocol.md, "The framework
//! adapter contract"): each `examples/adapters/<name>/` installed from a registry
//! (`install=venv`, `install=npm` or `install=cargo` in its adapter.conf) has an `about.yaml` that
//! `schemas/about.schema.json` accepts, naming a reproduction template that exists and holds the
//! placeholders, and pinning the version its requirements.txt, package.json or crate's Cargo.toml
//! pins; no two rows
//! of one package give the same path.

use std::path::{Path, PathBuf};
use tool_conformance::report::about::{ABOUT_FILE, About};
use tool_conformance::report::markdown::escape;

fn adapters() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/adapters");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("examples/adapters")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("adapter.conf").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// `install=` of an adapter.conf.
fn install(dir: &Path) -> String {
    let conf = std::fs::read_to_string(dir.join("adapter.conf")).expect("adapter.conf");
    conf.lines()
        .find_map(|l| l.trim().strip_prefix("install="))
        .map(|v| v.trim_matches(['\'', '"']).to_string())
        .unwrap_or_default()
}

/// The version `requirements.txt` (`package==version`), `package.json`, the crate's Cargo.toml or
/// the row's pom.xml (`groupId:artifactId`) pins for `package`.
fn pinned(dir: &Path, about: &About) -> Option<String> {
    match about.registry.as_str() {
        "pypi" => pinned_in(&dir.join("requirements.txt"), &about.package, 0),
        "npm" => {
            let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
            let json: tool_conformance::Value = tool_conformance::json::from_str(&text).ok()?;
            json["dependencies"][&about.package].as_str().map(str::to_string)
        }
        "crates" => {
            // The crate named by adapter.conf's `crate=` (from the repository root) pins it as
            // `name = { version = "=X", ... }` or `name = "=X"`.
            let conf = std::fs::read_to_string(dir.join("adapter.conf")).ok()?;
            let folder = conf.lines().find_map(|l| l.trim().strip_prefix("crate="))?.trim_matches(['\'', '"']);
            let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(folder).join("Cargo.toml");
            let text = std::fs::read_to_string(manifest).ok()?;
            text.lines().find_map(|line| {
                let rest = line.trim().strip_prefix(&about.package)?.trim_start().strip_prefix('=')?;
                let start = rest.find("\"=")? + 2;
                rest[start..].split('"').next().map(str::to_string)
            })
        }
        "go" => {
            // The module path, required in the row's own go.mod with its version.
            let text = std::fs::read_to_string(dir.join("go.mod")).ok()?;
            text.lines().find_map(|line| {
                let mut words = line.trim().trim_start_matches("require").split_whitespace();
                (words.next()? == about.package).then(|| words.next().map(str::to_string))?
            })
        }
        "maven" => {
            // `groupId:artifactId`, a <dependency> of the row's own pom.xml with its <version>.
            let (group, artifact) = about.package.split_once(':')?;
            let text = std::fs::read_to_string(dir.join("pom.xml")).ok()?;
            let tag = |block: &str, name: &str| {
                let open = format!("<{name}>");
                let start = block.find(&open)? + open.len();
                block[start..].split(&format!("</{name}>")).next().map(|v| v.trim().to_string())
            };
            text.split("<dependency>").skip(1).find_map(|block| {
                let block = block.split("</dependency>").next()?;
                (tag(block, "groupId")? == group && tag(block, "artifactId")? == artifact).then(|| tag(block, "version"))?
            })
        }
        _ => None,
    }
}

/// The version a requirements file pins for `package`, following `-r FILE` (relative to the file,
/// as pip reads it) a few levels deep.
fn pinned_in(file: &Path, package: &str, depth: u32) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let normalize = |name: &str| name.to_lowercase().replace(['_', '.'], "-");
    text.lines().find_map(|line| {
        if let Some(nested) = line.trim().strip_prefix("-r ") {
            return (depth < 3).then(|| pinned_in(&file.parent()?.join(nested.trim()), package, depth + 1)).flatten();
        }
        let (name, version) = line.split_once("==")?;
        (normalize(name.trim()) == normalize(package))
            .then(|| version.split(['#', ';', ' ']).next().unwrap_or("").trim().to_string())
    })
}

fn every_framework_adapter_has_a_valid_about_yaml_naming_its_template() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for dir in adapters() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let kind = install(&dir);
        if !dir.join(ABOUT_FILE).is_file() {
            if kind == "venv" || kind == "npm" || kind == "cargo" || kind == "maven" {
                problems.push(format!("{name}: install={kind} but no {ABOUT_FILE}"));
            }
            continue;
        }
        let about = match About::load(&dir) {
            Ok(about) => about,
            Err(error) => {
                problems.push(error.to_string());
                continue;
            }
        };
        checked += 1;
        let template = std::fs::read_to_string(dir.join(&about.repro)).unwrap_or_default();
        for placeholder in ["__TOOL__", "__SCHEMA__", "__ARGUMENTS__"] {
            if !template.contains(placeholder) {
                problems.push(format!("{name}: {} has no {placeholder}", about.repro));
            }
        }
        match pinned(&dir, &about) {
            Some(pin) if pin == about.version => {}
            Some(pin) => problems
                .push(format!("{name}: about.yaml says {} {}, the pins say {pin}", about.package, about.version)),
            None => problems.push(format!("{name}: the pins do not name {} ({})", about.package, about.registry)),
        }
    }
    // Two rows of one package are told apart by their path in the table of standings.
    let mut seen: std::collections::BTreeMap<(String, String), String> = Default::default();
    for dir in adapters() {
        let Ok(about) = About::load(&dir) else { continue };
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        if let Some(other) = seen.insert((about.package.clone(), about.path.clone()), name.clone()) {
            problems.push(format!("{other} and {name} both measure {} with the path {:?}", about.package, about.path));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked >= 3, "only {checked} about.yaml files were checked");
}

fn the_schema_refuses_what_the_contract_forbids() {
    let good = "package: mcp\nversion: 2.3.0\nregistry: pypi\nlanguage: python\npath: function signature\n\
                api: add_tool\nchoices: [One choice.]\nrepro: repro.py\n";
    let parsed = About::parse(Path::new("about.yaml"), good).expect("the good one parses");
    assert_eq!((parsed.path.as_str(), parsed.pinned_behind), ("function signature", None));
    let behind = good.replace("api:", "pinned_behind: mcp 3.0.0 needs Python 3.12\napi:");
    let parsed = About::parse(Path::new("about.yaml"), &behind).expect("a row pinned behind parses");
    assert_eq!(parsed.pinned_behind.as_deref(), Some("mcp 3.0.0 needs Python 3.12"));
    for bad in [
        good.replace("choices: [One choice.]", "choices: []"),
        good.replace("choices: [One choice.]", "choices: One choice."),
        good.replace("repro: repro.py", "repro: /tmp/repro.py"),
        good.replace("registry: pypi", "registry: conda"),
        good.replace("package: mcp\n", ""),
        // The path is what tells two rows of one package apart in the table: required, one
        // short line.
        good.replace("path: function signature\n", ""),
        good.replace("path: function signature", "path: ''"),
        good.replace("path: function signature", &format!("path: {}", "word ".repeat(20))),
        good.replace("path: function signature", "path: \"two\\nlines\""),
        behind.replace("mcp 3.0.0 needs Python 3.12", "''"),
    ] {
        assert!(About::parse(Path::new("about.yaml"), &bad).is_err(), "accepted:\n{bad}");
    }
}

/// `__TOOL__` is replaced by the tool's name verbatim, which a template may put between quotes:
/// the corpus names every tool with letters, digits and `_` only.
fn every_tool_name_in_the_corpus_can_sit_between_quotes() {
    use tool_conformance::case::Check;
    let corpus = tool_conformance::Corpus::embedded().unwrap_or_else(|errors| panic!("{errors}"));
    let plain = |name: &str| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    let mut odd = Vec::new();
    for case in &corpus.cases {
        let (tools, called) = match &case.check {
            Check::Invoke { tools, tool, .. } | Check::Describe { tools, tool, .. } => (tools, tool),
            Check::Normalize { .. } => continue,
        };
        for name in tools.iter().map(|t| &t.name).chain([called]) {
            if !plain(name) {
                odd.push(format!("{}: {name:?}", case.id));
            }
        }
    }
    assert!(odd.is_empty(), "tool names a template cannot quote as they are:\n{}", odd.join("\n"));
}

/// A row pinned behind its package's newest major release says so, with the reason, on its
/// published page (reports/<name>/README.md, which `tool-conformance readme` writes and
/// tests/published_standing.rs keeps current), and every row's path is on the table of standings.
fn a_row_pinned_behind_says_so_on_its_page_and_every_path_is_in_the_table() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let table = std::fs::read_to_string(root.join("reports/README.md")).expect("reports/README.md");
    let mut behind = 0;
    for dir in adapters() {
        let Ok(about) = About::load(&dir) else { continue };
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(page) = std::fs::read_to_string(root.join("reports").join(&name).join("README.md")) else { continue };
        assert!(
            table.contains(&format!("({})", escape(&about.path))),
            "reports/README.md does not give {name}'s path {:?}",
            about.path
        );
        if let Some(reason) = &about.pinned_behind {
            behind += 1;
            assert!(
                page.contains(&format!("| **pinned behind the newest major release** | {} |", escape(reason))),
                "reports/{name}/README.md does not say why it is pinned behind"
            );
        }
    }
    assert!(behind >= 1, "no row says it is pinned behind a newer major release");
}

/// The ids of the limitations an about.yaml lists (the `id:` of each `limitations:` entry; the
/// schema checks their shape).
fn limitation_ids(about: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut inside = false;
    for line in about.lines() {
        if !line.starts_with(' ') && !line.starts_with('-') && !line.trim().is_empty() && !line.starts_with('#') {
            inside = line.starts_with("limitations:");
            continue;
        }
        if inside && let Some(id) = line.trim().trim_start_matches("- ").strip_prefix("id:") {
            ids.push(id.trim().trim_matches(['"', '\'']).to_string());
        }
    }
    ids
}

/// Whether the reason of an `unsupported` decline carries what the contract asks of it
/// (docs/protocol.md, "The framework adapter contract", rule 5): the error the framework itself
/// raised, quoted after the call that raised it (`<call> refused <what>: <the error>`), or a
/// documented limitation that about.yaml lists (`documented limitation <id>`).
fn decline_is_accounted_for(reason: &str, limitations: &[String]) -> bool {
    let quoted = reason
        .find(" refused ")
        .is_some_and(|at| reason[at..].split_once(": ").is_some_and(|(_, error)| !error.trim().is_empty()));
    quoted || limitations.iter().any(|id| reason.contains(&format!("documented limitation {id}")))
}

fn a_decline_without_the_frameworks_error_or_a_documented_limitation_is_caught() {
    let limitations = vec!["no-direct-call".to_string()];
    for accounted in [
        "unsupported: function_tool refused the function: UserError: additionalProperties should not be set",
        "unsupported: FastMCP refused the function: ValueError: Functions with **kwargs are not supported as tools",
        "unsupported: there is no direct call (documented limitation no-direct-call)",
    ] {
        assert!(decline_is_accounted_for(accounted, &limitations), "refused: {accounted}");
    }
    for shortcut in [
        "unsupported: no function signature says this schema: the root keyword 'anyOf': a function signature cannot say it",
        "unsupported: a zod raw shape cannot say this schema: the root declares additionalProperties: true",
        "unsupported: the adapter refused it:",
        "unsupported: there is no direct call (documented limitation not-listed)",
    ] {
        assert!(!decline_is_accounted_for(shortcut, &limitations), "accepted: {shortcut}");
    }
    let about = "package: x\nlimitations:\n  - id: no-direct-call\n    says: One.\n    source: a.py\nrepro: r.py\n";
    assert_eq!(limitation_ids(about), limitations);
}

/// Every published standing of a framework adapter declines a case (`unsupported`) only where the
/// framework itself refuses: each decline's reason quotes the framework's error, or names a
/// documented limitation listed in the adapter's about.yaml with its source.
fn every_published_decline_quotes_the_framework_or_a_documented_limitation() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut problems = Vec::new();
    let mut read = 0;
    for dir in adapters() {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(about) = std::fs::read_to_string(dir.join(ABOUT_FILE)) else { continue };
        let standing = root.join("reports").join(&name).join("standing.json");
        let text = std::fs::read_to_string(&standing)
            .unwrap_or_else(|e| panic!("{name} has an about.yaml but no published {}: {e}", standing.display()));
        let json: tool_conformance::json::Value = tool_conformance::json::from_str(&text).expect("standing.json");
        read += 1;
        let limitations = limitation_ids(&about);
        for case in json["cases"].as_array().expect("cases") {
            let reason = case["reason"].as_str().unwrap_or("");
            if case["status"].as_str() == Some("skip")
                && reason.starts_with("unsupported:")
                && !decline_is_accounted_for(reason, &limitations)
            {
                problems.push(format!(
                    "{name}: {}: {}",
                    case["id"].as_str().unwrap_or("?"),
                    reason.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(read >= 3, "only {read} published standings were read");
    assert!(
        problems.is_empty(),
        "declines that neither quote the framework's error nor name a documented limitation:\n{}",
        problems.join("\n")
    );
}

tests![
    every_framework_adapter_has_a_valid_about_yaml_naming_its_template,
    the_schema_refuses_what_the_contract_forbids,
    every_tool_name_in_the_corpus_can_sit_between_quotes,
    a_row_pinned_behind_says_so_on_its_page_and_every_path_is_in_the_table,
    a_decline_without_the_frameworks_error_or_a_documented_limitation_is_caught,
    every_published_decline_quotes_the_framework_or_a_documented_limitation,
];
