//! Files a peer or a submitter can put where the harness reads or writes, met as `site`, `table`,
//! `readme` and `mcp-upstream` meet them: a submitted file that is a link to a secret, a FIFO, a
//! link to `/dev/zero`, a gigabyte template, and links already in the folder a site is written
//! to. None is read through, none hangs or exhausts the harness (each run is bounded in time and
//! memory, so a regression fails here rather than hanging), and nothing is written outside `--out`.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_tool-conformance");

/// What no published page may carry.
const SECRET: &str = "SECRET-TOKEN-4242";

/// Runs the binary with `args` in an address space of at most 300 MB, killed if it has not ended
/// within 30 s (a guard against a hang, not a measure of speed).
fn bounded(args: &[&Path]) -> Output {
    let quoted: Vec<String> = std::iter::once(Path::new(BIN))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.to_string_lossy().replace('\'', r"'\''")))
        .collect();
    let script = format!("ulimit -v {}; exec {} </dev/null", 300 * 1024, quoted.join(" "));
    // One malloc arena, so that the cap counts memory, not the address space arenas reserve.
    let child = Command::new("sh")
        .args(["-c", &script])
        .env("MALLOC_ARENA_MAX", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the binary");
    wait_within(child, Duration::from_secs(30))
        .unwrap_or_else(|| panic!("{args:?} did not end within 30 s (a FIFO read, or a file read without end?)"))
}

fn wait_within(mut child: Child, within: Duration) -> Option<Output> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if child.try_wait().expect("wait").is_some() {
            return Some(child.wait_with_output().expect("output"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("run mkfifo");
    assert!(made.success(), "mkfifo {}", path.display());
}

/// A folder `reports` in `dir` with one submitted standing, `reports/sub`: a real standing.json,
/// an about.yaml and its template `repro.py`.
fn submission(dir: &Path) -> PathBuf {
    let reports = dir.join("reports");
    let sub = reports.join("sub");
    std::fs::create_dir_all(&sub).expect("mkdir");
    let ran = Command::new(BIN)
        .args(["run", "--case", "RT-TOOL-8/keys/*", "--report"])
        .arg(dir.join("ran"))
        .output()
        .expect("run");
    assert!(ran.status.success(), "{}", text(&ran));
    let mut standing: Value =
        tool_conformance::json::from_str(&std::fs::read_to_string(dir.join("ran/standing.json")).expect("read")).expect("JSON");
    standing["cases"][0]["status"] = Value::String("fail".into());
    std::fs::write(sub.join("standing.json"), standing.to_string()).expect("write");
    std::fs::write(
        sub.join("about.yaml"),
        "package: sub\nversion: 1.0.0\nregistry: pypi\nlanguage: python\npath: function signature\n\
         api: \"`sub.tool`\"\nchoices:\n  - None.\nrepro: repro.py\n",
    )
    .expect("write");
    std::fs::write(sub.join("repro.py"), "print(__SCHEMA__)\n").expect("write");
    reports
}

/// Every byte of every file under `dir`, as text.
fn everything_under(dir: &Path) -> String {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| String::from_utf8_lossy(&std::fs::read(e.path()).expect("read")).into_owned())
        .collect()
}

fn site_publishes_nothing_a_submitted_link_points_to() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reports = submission(dir.path());
    let secret = dir.path().join("environ");
    std::fs::write(&secret, SECRET).expect("write");
    let repro = reports.join("sub/repro.py");
    std::fs::remove_file(&repro).expect("rm");
    std::os::unix::fs::symlink(&secret, &repro).expect("symlink");
    let out = dir.path().join("site");
    let output = bounded(&[Path::new("site"), &reports, Path::new("--out"), &out]);
    assert!(!text(&output).contains(SECRET), "{}", text(&output));
    assert!(!everything_under(&out).contains(SECRET), "the site publishes what repro.py links to");
    assert!(!output.status.success(), "site built a page from a link:\n{}", text(&output));
    assert!(text(&output).contains("repro.py") && text(&output).contains("symbolic link"), "{}", text(&output));

    // A standing folder that is itself a link is refused too.
    std::fs::remove_file(&repro).expect("rm");
    std::fs::write(&repro, "print(__SCHEMA__)\n").expect("write");
    let elsewhere = dir.path().join("elsewhere");
    std::fs::rename(reports.join("sub"), &elsewhere).expect("mv");
    std::os::unix::fs::symlink(&elsewhere, reports.join("sub")).expect("symlink");
    let output = bounded(&[Path::new("site"), &reports, Path::new("--out"), &out]);
    assert!(!output.status.success() && text(&output).contains("symbolic link"), "{}", text(&output));
}

fn site_never_writes_through_a_link_in_its_out_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reports = submission(dir.path());
    let out = dir.path().join("site");
    std::fs::create_dir_all(&out).expect("mkdir");
    let victim = dir.path().join("victim.html");
    std::fs::write(&victim, "precious").expect("write");
    std::os::unix::fs::symlink(&victim, out.join("index.html")).expect("symlink");
    let output = bounded(&[Path::new("site"), &reports, Path::new("--out"), &out]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(std::fs::read_to_string(&victim).expect("read"), "precious", "site wrote through out/index.html");
    assert!(std::fs::read_to_string(out.join("index.html")).expect("index").contains("<html"));

    // A folder of the site that is a link to a folder outside it is refused, and nothing is
    // written there.
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&outside).expect("mkdir");
    std::fs::remove_dir_all(out.join("case")).expect("rm");
    std::os::unix::fs::symlink(&outside, out.join("case")).expect("symlink");
    let output = bounded(&[Path::new("site"), &reports, Path::new("--out"), &out]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("symbolic link"), "{}", text(&output));
    assert_eq!(std::fs::read_dir(&outside).expect("read").count(), 0, "site wrote into a folder outside --out");
}

fn a_fifo_in_place_of_an_input_is_refused_at_once() {
    for (file, command) in [
        ("sub/timing.json", "table"),
        ("columns.txt", "table"),
        ("sub/timing.json", "readme"),
        ("sub/about.yaml", "site"),
        ("sub/repro.py", "site"),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let reports = submission(dir.path());
        let path = reports.join(file);
        let _ = std::fs::remove_file(&path);
        mkfifo(&path);
        let output = match command {
            "readme" => bounded(&[Path::new("readme"), &reports.join("sub")]),
            "site" => bounded(&[Path::new("site"), &reports, Path::new("--out"), &dir.path().join("site")]),
            _ => bounded(&[Path::new(command), &reports]),
        };
        assert!(!output.status.success(), "{command} with a FIFO at {file}:\n{}", text(&output));
        assert!(text(&output).contains("FIFO"), "{command} with a FIFO at {file}:\n{}", text(&output));
    }
}

fn dev_zero_and_a_gigabyte_template_cost_no_more_than_their_cap() {
    let dir = tempfile::tempdir().expect("tempdir");
    let reports = submission(dir.path());
    std::os::unix::fs::symlink("/dev/zero", reports.join("sub/timing.json")).expect("symlink");
    let output = bounded(&[Path::new("table"), &reports]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("timing.json") && text(&output).contains("symbolic link"), "{}", text(&output));
    std::fs::remove_file(reports.join("sub/timing.json")).expect("rm");

    // A sparse file of a gigabyte: no memory to speak of on disk, a gigabyte if read whole.
    let template = std::fs::OpenOptions::new().write(true).open(reports.join("sub/repro.py")).expect("open");
    template.set_len(1 << 30).expect("set_len");
    drop(template);
    let output = bounded(&[Path::new("site"), &reports, Path::new("--out"), &dir.path().join("site")]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("repro.py") && text(&output).contains("longer than"), "{}", text(&output));
}

fn mcp_upstream_refuses_a_fifo_or_a_link_as_its_manifest() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("manifest.json");
    mkfifo(&fifo);
    let record = dir.path().join("record.jsonl");
    let output = bounded(&[Path::new("mcp-upstream"), Path::new("--manifest"), &fifo, Path::new("--record"), &record]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("manifest.json") && text(&output).contains("FIFO"), "{}", text(&output));

    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("/dev/zero", &link).expect("symlink");
    let output = bounded(&[Path::new("mcp-upstream"), Path::new("--manifest"), &link, Path::new("--record"), &record]);
    assert!(!output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("link.json") && text(&output).contains("symbolic link"), "{}", text(&output));
}

tests![
    site_publishes_nothing_a_submitted_link_points_to,
    site_never_writes_through_a_link_in_its_out_folder,
    a_fifo_in_place_of_an_input_is_refused_at_once,
    dev_zero_and_a_gigabyte_template_cost_no_more_than_their_cap,
    mcp_upstream_refuses_a_fifo_or_a_link_as_its_manifest,
];
