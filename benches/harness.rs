//! The benchmark: the harness's overhead and the reference's cost, measured side by side in one
//! run and printed as ratios next to their goals, through the library's public API only.
//!
//! ```sh
//! cargo bench --bench harness -- --repetitions 9 --only b --only c
//! ```
//!
//! Every figure is the median of [`BenchConfig::repetitions`] timed repetitions; the two sides of
//! a ratio are timed in turns, so that a change in the machine's load weighs on both. The transports
//! are measured against the package's `tool-conformance` executable (`serve --stdio`,
//! `serve --http`), each against a bare client sending the very request lines the harness sent;
//! the slow implementation of the `--jobs` measurement is this benchmark run as
//! `--serve-slow MS`, which serves the reference on stdio and sleeps before every answer
//! ([`Slow`]). The hostile inputs are timed at a size and at four times it:
//! a ratio near 4 is linear. Nothing here is a test; the figures depend on the machine.

use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tool_conformance::Reference;
use tool_conformance::case::tool::{Tool, Transport, View};
use tool_conformance::corpus::Corpus;
use tool_conformance::reference::registry::Registry;
use tool_conformance::run::config::{self, CommandLine, HttpUrl, Limits, RunConfig, Selection, TargetSpec};
use tool_conformance::serve::{self, Server};
use tool_conformance::target::{Implementation, Invocation, Target, TargetError};

/// What a bench run measures, and how often.
#[derive(Debug, Clone)]
pub struct BenchConfig {
    /// The executable spawned as `serve --stdio` and `serve --http`.
    pub executable: PathBuf,
    /// This benchmark's own executable, run as the slow implementation.
    pub slow: PathBuf,
    /// Timed repetitions of each measurement; the median is reported.
    pub repetitions: usize,
    /// How long the slow implementation sleeps before each answer.
    pub delay: Duration,
    /// How many cases the `--jobs` measurement runs against the slow implementation.
    pub slow_cases: usize,
    /// Only the measurements with these letters (`a` to `f`); all when empty.
    pub only: Vec<char>,
}

impl BenchConfig {
    fn measures(&self, letter: char) -> bool {
        self.only.is_empty() || self.only.contains(&letter)
    }
}

impl BenchConfig {
    /// The defaults, with the running executable.
    pub fn new() -> std::io::Result<BenchConfig> {
        Ok(BenchConfig {
            executable: PathBuf::from(env!("CARGO_BIN_EXE_tool-conformance")),
            slow: std::env::current_exe()?,
            repetitions: 5,
            delay: Duration::from_millis(2),
            slow_cases: 60,
            only: Vec::new(),
        })
    }
}

/// Whether a ratio should be at most or at least its goal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Goal {
    /// The ratio should be at most this.
    AtMost(f64),
    /// The ratio should be at least this.
    AtLeast(f64),
    /// Time linear in size or better: at four times the size, at most 1.5 times this ratio.
    Linear(f64),
}

impl Goal {
    /// Whether `ratio` meets the goal.
    pub fn met(self, ratio: f64) -> bool {
        match self {
            Goal::AtMost(goal) => ratio <= goal,
            Goal::AtLeast(goal) => ratio >= goal,
            Goal::Linear(goal) => ratio <= goal * 1.5,
        }
    }

    fn text(self) -> String {
        match self {
            Goal::AtMost(goal) => format!("<= {goal}"),
            Goal::AtLeast(goal) => format!(">= {goal}"),
            Goal::Linear(goal) => format!("~ {goal}"),
        }
    }
}

/// One measured ratio.
#[derive(Debug, Clone)]
pub struct Row {
    /// Which measurement (a, b, …) and on what.
    pub name: String,
    /// The measured time (the numerator, or the faster run for a speed-up).
    pub measured: Duration,
    /// The time it is compared with.
    pub baseline: Duration,
    /// The ratio reported.
    pub ratio: f64,
    /// Its goal.
    pub goal: Goal,
    /// Anything else worth printing (request counts, memory).
    pub note: String,
}

/// Runs every measurement, calling `each` with every row as soon as it is measured.
pub fn run(config: &BenchConfig, each: &mut dyn FnMut(&Row)) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    let mut push = |row: Row, rows: &mut Vec<Row>| {
        each(&row);
        rows.push(row);
    };
    if config.measures('a') {
        push(in_process(config)?, &mut rows);
    }
    if config.measures('b') {
        push(stdio(config)?, &mut rows);
    }
    if config.measures('c') {
        push(http(config)?, &mut rows);
    }
    if config.measures('d') {
        push(jobs(config)?, &mut rows);
    }
    if config.measures('e') {
        for row in reference_cost(config) {
            push(row, &mut rows);
        }
    }
    if config.measures('f') {
        for row in hostile(config) {
            push(row, &mut rows);
        }
    }
    Ok(rows)
}

/// The rows as a table.
pub fn render(rows: &[Row]) -> String {
    let mut out = format!(
        "{:<44} {:>12} {:>12} {:>8} {:>8}  {}\n",
        "measurement", "measured", "baseline", "ratio", "goal", "met"
    );
    for row in rows {
        out.push_str(&render_row(row));
    }
    out
}

/// One row of [`render`].
pub fn render_row(row: &Row) -> String {
    let met = if row.goal.met(row.ratio) { "yes" } else { "NO" };
    let mut line = format!(
        "{:<44} {:>12} {:>12} {:>8.2} {:>8}  {}",
        row.name,
        format_duration(row.measured),
        format_duration(row.baseline),
        row.ratio,
        row.goal.text(),
        met
    );
    if !row.note.is_empty() {
        line.push_str("  (");
        line.push_str(&row.note);
        line.push(')');
    }
    line.push('\n');
    line
}

fn format_duration(d: Duration) -> String {
    let micros = d.as_secs_f64() * 1e6;
    if micros < 1000.0 {
        format!("{micros:.1}µs")
    } else if micros < 1e6 {
        format!("{:.2}ms", micros / 1000.0)
    } else {
        format!("{:.2}s", micros / 1e6)
    }
}

/// The median of `repetitions` timings of `f` (after one untimed warm-up run).
fn median(repetitions: usize, mut f: impl FnMut()) -> Duration {
    f();
    let mut times: Vec<Duration> = (0..repetitions.max(1))
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[times.len() / 2]
}

/// The medians of `repetitions` timings of `f` and of `g`, taken in turns (after one untimed
/// warm-up of each), so that a change in the machine's load while measuring weighs on both alike.
fn medians(repetitions: usize, mut f: impl FnMut(), mut g: impl FnMut()) -> (Duration, Duration) {
    f();
    g();
    let time = |h: &mut dyn FnMut()| {
        let start = Instant::now();
        h();
        start.elapsed()
    };
    let (mut first, mut second): (Vec<Duration>, Vec<Duration>) =
        (0..repetitions.max(1)).map(|_| (time(&mut f), time(&mut g))).unzip();
    first.sort();
    second.sort();
    (first[first.len() / 2], second[second.len() / 2])
}

fn row(name: &str, measured: Duration, baseline: Duration, goal: Goal, note: String) -> Row {
    let ratio = measured.as_secs_f64() / baseline.as_secs_f64().max(1e-12);
    Row { name: name.into(), measured, baseline, ratio, goal, note }
}

fn run_config(target: TargetSpec, jobs: usize, selection: Selection) -> RunConfig {
    RunConfig {
        corpus: config::CorpusSource::Embedded,
        selection,
        report_dir: None,
        target,
        jobs,
        limits: Limits::default(),
        validate_protocol: false,
        transcript: false,
    }
}

fn load() -> anyhow::Result<Corpus> {
    Corpus::embedded().map_err(|e| anyhow::anyhow!("the embedded corpus does not load: {e}"))
}

/// a. The whole corpus against the reference, in process, against loading it alone.
fn in_process(config: &BenchConfig) -> anyhow::Result<Row> {
    let corpus = load()?;
    let cases = corpus.cases.len();
    let run = run_config(TargetSpec::Reference, 1, Selection::all());
    let (whole, loading) = medians(
        config.repetitions,
        || {
            let corpus = load().expect("loaded once already");
            let ran = tool_conformance::run::jobs::run(&corpus, &run).expect("the reference needs no schema");
            std::hint::black_box(ran);
        },
        || {
            std::hint::black_box(load().expect("loaded once already"));
        },
    );
    Ok(row("a. corpus in process / load only", whole, loading, Goal::AtMost(1.5), format!("{cases} cases")))
}

/// The request lines a run of the whole corpus sends, as the harness sent them.
fn request_lines() -> anyhow::Result<Vec<Vec<u8>>> {
    let corpus = load()?;
    let mut run = run_config(TargetSpec::Reference, 1, Selection::all());
    run.transcript = true;
    let ran = tool_conformance::run::jobs::run(&corpus, &run)?;
    Ok(ran.transcript.iter().flat_map(|t| &t.exchanges).map(|e| e.sent.clone().into_bytes()).collect())
}

fn command_line(program: &Path, args: &[&str]) -> CommandLine {
    let mut words = vec![shlex::try_quote(&program.to_string_lossy()).map(|c| c.into_owned()).unwrap_or_default()];
    words.extend(args.iter().map(|w| w.to_string()));
    CommandLine::parse(&words.join(" ")).expect("a command line built here")
}

fn serve_stdio(config: &BenchConfig) -> CommandLine {
    command_line(&config.executable, &["serve", "--stdio"])
}

/// b. `run --stdio` against `serve --stdio`, against a bare loop over the same lines.
fn stdio(config: &BenchConfig) -> anyhow::Result<Row> {
    let corpus = load()?;
    let lines = request_lines()?;
    let command = serve_stdio(config);
    let run = run_config(TargetSpec::Stdio(command), 1, Selection::all());
    let (harness, bare) = medians(
        config.repetitions,
        || {
            std::hint::black_box(tool_conformance::run::jobs::run(&corpus, &run).expect("no schema"));
        },
        || bare_stdio(config, &lines).expect("serve --stdio answers"),
    );
    let n = lines.len() as u32;
    Ok(row(
        "b. run --stdio / bare stdio loop",
        harness / n,
        bare / n,
        Goal::AtMost(1.2),
        format!("per request, {n} requests, process start included"),
    ))
}

fn bare_stdio(config: &BenchConfig, lines: &[Vec<u8>]) -> std::io::Result<()> {
    let mut child = Command::new(&config.executable)
        .args(["serve", "--stdio"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let mut stdout = BufReader::new(child.stdout.take().expect("piped"));
    let mut reply = Vec::new();
    let mut buffer = Vec::new();
    for line in lines {
        buffer.clear();
        buffer.extend_from_slice(line);
        buffer.push(b'\n');
        stdin.write_all(&buffer)?;
        stdin.flush()?;
        reply.clear();
        if stdout.read_until(b'\n', &mut reply)? == 0 {
            break;
        }
    }
    drop(stdin);
    child.wait()?;
    Ok(())
}

/// A child process that is killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// c. `run --http` against `serve --http`, against a bare keep-alive client.
fn http(config: &BenchConfig) -> anyhow::Result<Row> {
    let corpus = load()?;
    let lines = request_lines()?;
    let mut child = Killed(
        Command::new(&config.executable)
            .args(["serve", "--http", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?,
    );
    let mut first = String::new();
    BufReader::new(child.0.stdout.take().expect("piped")).read_line(&mut first)?;
    let url = first.trim().rsplit(' ').next().unwrap_or_default().to_string();
    let address = url.trim_start_matches("http://").trim_end_matches('/').to_string();
    let run = run_config(TargetSpec::Http(vec![HttpUrl::parse(&url)?]), 1, Selection::all());
    let (harness, bare) = medians(
        config.repetitions,
        || {
            std::hint::black_box(tool_conformance::run::jobs::run(&corpus, &run).expect("no schema"));
        },
        || bare_http(&address, &lines).expect("serve --http answers"),
    );
    drop(child);
    let n = lines.len() as u32;
    Ok(row(
        "c. run --http / bare keep-alive client",
        harness / n,
        bare / n,
        Goal::AtMost(2.0),
        format!("per request, {n} requests, one connection"),
    ))
}

fn bare_http(address: &str, lines: &[Vec<u8>]) -> std::io::Result<()> {
    let stream = TcpStream::connect(address)?;
    stream.set_nodelay(true)?;
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    let mut request = Vec::new();
    let mut head = String::new();
    let mut body = Vec::new();
    for line in lines {
        request.clear();
        write!(
            request,
            "POST / HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            line.len()
        )?;
        request.extend_from_slice(line);
        writer.write_all(&request)?;
        let mut length = 0;
        loop {
            head.clear();
            reader.read_line(&mut head)?;
            let header = head.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':') {
                if name.eq_ignore_ascii_case("content-length") {
                    length = value.trim().parse().unwrap_or(0);
                }
            }
        }
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(())
}

/// d. `--jobs 2` against `--jobs 1` for an implementation that answers slowly.
fn jobs(config: &BenchConfig) -> anyhow::Result<Row> {
    let corpus = load()?;
    let delay = config.delay.as_millis().to_string();
    let command = command_line(&config.slow, &["--serve-slow", &delay]);
    let ids: Vec<String> = corpus.cases.iter().take(config.slow_cases).map(|c| c.id.clone()).collect();
    let selection = Selection::new(Vec::new(), Vec::new(), ids)?;
    let one = run_config(TargetSpec::Stdio(command.clone()), 1, selection.clone());
    let two = run_config(TargetSpec::Stdio(command), 2, selection);
    let repetitions = config.repetitions.min(3);
    let serial = median(repetitions, || {
        std::hint::black_box(tool_conformance::run::jobs::run(&corpus, &one).expect("no schema"));
    });
    let parallel = median(repetitions, || {
        std::hint::black_box(tool_conformance::run::jobs::run(&corpus, &two).expect("no schema"));
    });
    Ok(Row {
        name: "d. --jobs 1 / --jobs 2, slow implementation".into(),
        measured: parallel,
        baseline: serial,
        ratio: serial.as_secs_f64() / parallel.as_secs_f64().max(1e-12),
        goal: Goal::AtLeast(1.8),
        note: format!("{} cases, {delay}ms per answer; speed-up", config.slow_cases),
    })
}

/// An argument object of about `bytes` bytes, and a schema declaring each of its fields.
fn sized_arguments(bytes: usize) -> (Value, Vec<u8>) {
    let mut arguments = Map::new();
    let mut properties = Map::new();
    let mut index = 0;
    let mut size = 2;
    while size < bytes {
        let name = format!("field_{index}");
        let text = format!("Ember &amp; Oak, item {index}: plain words about a tool argument");
        size += name.len() + text.len() + 6;
        properties.insert(name.clone(), json!({"type": "string"}));
        arguments.insert(name, Value::String(text));
        index += 1;
    }
    let schema = json!({"type": "object", "properties": properties});
    (schema, serde_json::to_vec(&Value::Object(arguments)).expect("serializable"))
}

fn registry(schema: Value) -> Registry {
    let tool = Tool { name: "bench".into(), description: None, input_schema: schema };
    Registry::new(&[tool]).expect("the bench schema compiles")
}

/// Normalize + validate (the executor's whole work) of `arguments`, or its rejection.
fn execute(registry: &Registry, arguments: &Value) {
    let executor = registry.executor("bench").expect("registered");
    let result = executor.execute(arguments, &mut |received| {
        std::hint::black_box(received);
    });
    std::hint::black_box(result.map_err(|rejection| rejection.to_json()).err());
}

/// e. The reference's normalize + validate against serde_json parsing the same bytes.
fn reference_cost(config: &BenchConfig) -> Vec<Row> {
    let mut rows = Vec::new();
    for (label, bytes) in [("1 KB", 1024), ("64 KB", 64 * 1024), ("1 MB", 1024 * 1024)] {
        let (schema, text) = sized_arguments(bytes);
        let registry = registry(schema);
        let arguments: Value = tool_conformance::json::from_slice(&text).expect("valid JSON");
        let repetitions = if bytes < 100_000 { config.repetitions * 20 } else { config.repetitions };
        let (reference, parse) = medians(
            repetitions,
            || execute(&registry, &arguments),
            || {
                std::hint::black_box(tool_conformance::json::from_slice::<Value>(&text).expect("valid JSON"));
            },
        );
        rows.push(row(
            &format!("e. normalize+validate / parse, {label}"),
            reference,
            parse,
            Goal::AtMost(2.0),
            String::new(),
        ));
    }
    rows
}

/// A hostile input of size `n`: the schema and the arguments.
type Hostile = fn(usize) -> (Value, Value);

fn nested_escapes(n: usize) -> (Value, Value) {
    let text = format!("&{}", "amp;".repeat(n / 4));
    (json!({"type": "object", "properties": {"t": {"type": "string"}}}), json!({"t": text}))
}

fn unknown_fields(n: usize) -> (Value, Value) {
    let fields: Map<String, Value> = (0..n).map(|i| (format!("unknown_{i}"), json!(i))).collect();
    (json!({"type": "object", "properties": {"t": {"type": "string"}}}), Value::Object(fields))
}

fn deep_array_text(n: usize) -> (Value, Value) {
    let text = format!("{}{}", "[".repeat(n), "]".repeat(n));
    (json!({"type": "object", "properties": {"ops": {"type": "array"}}}), json!({"ops": text}))
}

fn plain_string(n: usize) -> (Value, Value) {
    let text = "plain words without any reference ".repeat(n / 34 + 1);
    (json!({"type": "object", "properties": {"t": {"type": "string"}}}), json!({"t": &text[..n]}))
}

/// The peak resident memory of this process so far, in MB (Linux only).
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// The minor page faults of this process so far (Linux only).
fn minor_faults() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    fields.get(7)?.parse().ok()
}

/// The minor page faults one call of `f` causes.
fn faults_of(f: impl FnOnce()) -> Option<u64> {
    let before = minor_faults()?;
    f();
    Some(minor_faults()?.saturating_sub(before))
}

/// f. Hostile inputs at size N and 4N (less than 4 times the time is better than linear).
fn hostile(config: &BenchConfig) -> Vec<Row> {
    let inputs: [(&str, usize, Hostile); 4] = [
        ("1 MB of nested &amp;amp;…", 1024 * 1024, nested_escapes),
        ("10,000 unknown fields", 10_000, unknown_fields),
        ("10,000-deep array text", 10_000, deep_array_text),
        ("1 MB string, no references", 1024 * 1024, plain_string),
    ];
    let mut rows = Vec::new();
    for (label, n, make) in inputs {
        let ((small_schema, small_arguments), (large_schema, large_arguments)) = (make(n), make(4 * n));
        let (small_registry, large_registry) = (registry(small_schema), registry(large_schema));
        let (small, large) = medians(
            config.repetitions,
            || execute(&small_registry, &small_arguments),
            || execute(&large_registry, &large_arguments),
        );
        let mut memory = peak_rss_mb().map(|mb| format!("; peak RSS so far {mb:.0} MB")).unwrap_or_default();
        let faults = (
            faults_of(|| execute(&small_registry, &small_arguments)),
            faults_of(|| execute(&large_registry, &large_arguments)),
        );
        if let (Some(small), Some(large)) = faults {
            memory.push_str(&format!("; page faults per call {small} and {large}"));
        }
        rows.push(row(&format!("f. 4N / N: {label}"), large, small, Goal::Linear(4.0), format!("N and 4N{memory}")));
    }
    rows
}

/// A target that sleeps before every answer but `start` and `stop`: the slow implementation of
/// the `--jobs` measurement (`--serve-slow N`).
pub struct Slow<T: Target> {
    target: T,
    delay: Duration,
}

impl<T: Target> Slow<T> {
    /// `target`, answering `delay` late.
    pub fn new(target: T, delay: Duration) -> Slow<T> {
        Slow { target, delay }
    }

    fn wait(&self) {
        std::thread::sleep(self.delay);
    }
}

impl<T: Target> Target for Slow<T> {
    fn start(&mut self) -> Result<Implementation, TargetError> {
        self.target.start()
    }

    fn normalize(&mut self, input_schema: &Value, arguments: &Value) -> Result<Value, TargetError> {
        self.wait();
        self.target.normalize(input_schema, arguments)
    }

    fn register(&mut self, tools: &[Tool]) -> Result<(), TargetError> {
        self.wait();
        self.target.register(tools)
    }

    fn describe(&mut self, tool: &str, view: View) -> Result<Value, TargetError> {
        self.wait();
        self.target.describe(tool, view)
    }

    fn invoke(&mut self, tool: &str, transport: Transport, arguments: &Value) -> Result<Invocation, TargetError> {
        self.wait();
        self.target.invoke(tool, transport, arguments)
    }

    fn stop(&mut self) -> Result<(), TargetError> {
        self.target.stop()
    }
}

fn main() -> std::process::ExitCode {
    match main_with(std::env::args().skip(1).collect()) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            std::process::ExitCode::from(2)
        }
    }
}

const USAGE: &str = "usage: cargo bench --bench harness -- [--repetitions N] [--delay-ms MS] [--only LETTER]...";

fn main_with(args: Vec<String>) -> anyhow::Result<()> {
    let mut config = BenchConfig::new()?;
    let mut args = args.into_iter();
    let value = |name: &str, args: &mut dyn Iterator<Item = String>| {
        args.next().ok_or_else(|| anyhow::anyhow!("{name} needs a value; {USAGE}"))
    };
    while let Some(arg) = args.next() {
        match arg.as_str() {
            // What `cargo bench` passes to every benchmark.
            "--bench" => {}
            "--serve-slow" => {
                let delay: u64 = value("--serve-slow", &mut args)?.parse()?;
                return serve_slow(Duration::from_millis(delay));
            }
            "--repetitions" => config.repetitions = value("--repetitions", &mut args)?.parse::<usize>()?.max(1),
            "--delay-ms" => config.delay = Duration::from_millis(value("--delay-ms", &mut args)?.parse()?),
            "--only" => {
                let letter = value("--only", &mut args)?;
                match letter.as_str() {
                    "a" | "b" | "c" | "d" | "e" | "f" => config.only.extend(letter.chars()),
                    _ => anyhow::bail!("--only takes a letter from a to f; {USAGE}"),
                }
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            other => anyhow::bail!("unknown argument {other:?}; {USAGE}"),
        }
    }
    if cfg!(debug_assertions) {
        eprintln!("warning: a debug build; measure with `cargo bench --bench harness`");
    }
    let mut out = std::io::stdout();
    let _ = writeln!(out, "{}", render(&[]).trim_end());
    run(&config, &mut |row| {
        let _ = write!(std::io::stdout(), "{}", render_row(row));
    })?;
    Ok(())
}

/// The slow implementation: the reference on stdio, `delay` late with every answer.
fn serve_slow(delay: Duration) -> anyhow::Result<()> {
    let mut server = Server::new(Slow::new(Reference::new(), delay));
    serve::stdio::serve(
        &mut server,
        std::io::stdin().lock(),
        std::io::stdout().lock(),
        serve::stdio::MAX_REQUEST_BYTES,
    )?;
    Ok(())
}
