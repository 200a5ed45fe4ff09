//! The README's example commands, run: every ```console block of README.md is a command and
//! the output the binary must print (trycmd), so the numbers the README shows are the binary's.
//! The Markdown standing snippet and the green badge text it quotes are checked against a run
//! of the reference too.

use std::process::Command;

fn readme_console_examples_print_what_the_readme_shows() {
    trycmd::TestCases::new()
        .register_bin("tool-conformance", std::path::PathBuf::from(env!("CARGO_BIN_EXE_tool-conformance")))
        .case("README.md");
}

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

fn readme_standing_snippet_rows_are_rows_of_the_reference_standing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let status = Command::new(std::path::PathBuf::from(env!("CARGO_BIN_EXE_tool-conformance")))
        .args(["run", "--report"])
        .arg(dir.path())
        .output()
        .expect("run the binary");
    assert_eq!(status.status.code(), Some(0), "{}", String::from_utf8_lossy(&status.stderr));
    let standing = std::fs::read_to_string(dir.path().join("standing.md")).expect("standing.md");
    let readme = readme();
    let start = readme.find("## RT-TOOL-8: conforms").expect("the README shows a standing.md snippet");
    let rows: Vec<&str> =
        readme[start..].lines().skip(1).take_while(|l| !l.starts_with("```")).filter(|l| l.starts_with("| ")).collect();
    assert!(rows.len() >= 3, "the snippet has its header and rows: {rows:?}");
    for row in rows {
        assert!(
            standing.lines().any(|l| l == row),
            "README row {row:?} is not in the reference's standing.md:\n{standing}"
        );
    }
    let badge = std::fs::read_to_string(dir.path().join("badge-RT-TOOL-8.json")).expect("badge");
    let message = badge.split("\"message\": \"").nth(1).and_then(|m| m.split('"').next()).expect("a message");
    assert!(readme.contains(&format!("`{message}` in green")), "the README's green badge is not {message:?}");
}

/// The README's table of framework adapters names every adapter folder that publishes a standing
/// (one with an about.yaml), and nothing else.
fn readme_adapter_table_names_every_framework_adapter() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/adapters");
    let mut folders: Vec<String> = std::fs::read_dir(&root)
        .expect("examples/adapters")
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("about.yaml").is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    let readme = readme();
    let start = readme.find("| adapter | framework (pinned) | path measured |").expect("the README's adapter table");
    let mut listed: Vec<String> = readme[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .filter_map(|line| line.strip_prefix("| `")?.split_once("/` |").map(|(name, _)| name.to_string()))
        .collect();
    listed.sort();
    assert!(folders.len() > 20, "the adapters are found: {folders:?}");
    assert_eq!(listed, folders, "README.md's adapter table against examples/adapters/*/about.yaml");
}

tests![
    readme_console_examples_print_what_the_readme_shows,
    readme_standing_snippet_rows_are_rows_of_the_reference_standing,
    readme_adapter_table_names_every_framework_adapter,
];
