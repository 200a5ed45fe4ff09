//! The benchmark: the harness's overhead and the reference's cost, measured side by side in one
//! run and printed as ratios next to their goals, through the library's public API only.
//!
//! ```sh
//! cargo bench --bench harness -- --repetitions 9 --only b --only c
//! ```
//!
//! Every time is the median of [`BenchConfig::repetitions`] timed repetitions; the sides of a
//! ratio are timed in turns, so that a change in the machine's load weighs on all of them. The
//! transports are measured against the package's `tool-conformance` executable (`serve --stdio`,
//! `serve --http`), each against a bare client sending the very request lines the harness sent;
//! the slow implementation of the `--jobs` measurement is this benchmark run as
//! `--serve-slow MS`, which serves the reference on stdio and sleeps before every answer
//! ([`Slow`]). The hostile inputs are timed at a size and at four times it (a ratio near 4 is
//! linear), and their peak memory is measured in a child process per input and size (this
//! benchmark run as `--hostile-memory`), as is each corpus of the scale measurement
//! (`--scale-child`). Nothing here is a test; the figures depend on the machine.

use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tool_conformance::report::Report;
use tool_conformance::{
    CommandLine, Corpus, CorpusSource, HttpUrl, Limits, Reference, RunConfig, Selection, TargetSpec,
};
use tool_conformance::{Implementation, Invocation, Target, TargetError, Tool, Transport, View};

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
    /// The `--jobs` values measured; the first is the baseline of the speed-ups.
    pub jobs: Vec<usize>,
    /// How many times the corpus is copied for the scale measurement (1 is always measured).
    pub scales: Vec<usize>,
    /// Only the measurements with these letters (`a` to `g`); all when empty.
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
            delay: Duration::from_millis(10),
            slow_cases: 160,
            jobs: vec![1, 2, 4, 8],
            scales: vec![10, 100],
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
    /// No goal: printed for information.
    None,
}

impl Goal {
    /// Whether `ratio` meets the goal (`None` when there is none).
    pub fn met(self, ratio: f64) -> Option<bool> {
        match self {
            Goal::AtMost(goal) => Some(ratio <= goal),
            Goal::AtLeast(goal) => Some(ratio >= goal),
            Goal::None => None,
        }
    }

    fn text(self) -> String {
        match self {
            Goal::AtMost(goal) => format!("<= {goal}"),
            Goal::AtLeast(goal) => format!(">= {goal}"),
            Goal::None => "-".into(),
        }
    }
}

/// One measured ratio.
#[derive(Debug, Clone)]
pub struct Row {
    /// Which measurement (a, b, …) and on what.
    pub name: String,
    /// The measured quantity (the numerator, or the faster run for a speed-up), as printed.
    pub measured: String,
    /// The quantity it is compared with, as printed.
    pub baseline: String,
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
        for row in jobs(config)? {
            push(row, &mut rows);
        }
    }
    if config.measures('e') {
        for row in reference_cost(config) {
            push(row, &mut rows);
        }
    }
    if config.measures('f') {
        for row in hostile(config)? {
            push(row, &mut rows);
        }
    }
    if config.measures('g') {
        for row in scale(config)? {
            push(row, &mut rows);
        }
    }
    Ok(rows)
}

/// The rows as a table.
pub fn render(rows: &[Row]) -> String {
    let mut out = format!(
        "{:<50} {:>12} {:>12} {:>8} {:>8}  {}\n",
        "measurement", "measured", "baseline", "ratio", "goal", "met"
    );
    for row in rows {
        out.push_str(&render_row(row));
    }
    out
}

/// One row of [`render`].
pub fn render_row(row: &Row) -> String {
    let met = match row.goal.met(row.ratio) {
        Some(true) => "yes",
        Some(false) => "NO",
        None => "-",
    };
    let mut line = format!(
        "{:<50} {:>12} {:>12} {:>8.2} {:>8}  {}",
        row.name,
        row.measured,
        row.baseline,
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

/// The CPU time this thread has had so far, user and system (page faults included):
/// `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`. The machine's other work does not inflate it as it
/// inflates wall time.
#[cfg(target_os = "linux")]
fn thread_cpu() -> Option<Duration> {
    let time = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Some(Duration::new(u64::try_from(time.tv_sec).ok()?, u32::try_from(time.tv_nsec).ok()?))
}

#[cfg(not(target_os = "linux"))]
fn thread_cpu() -> Option<Duration> {
    None
}

/// The medians of `repetitions` CPU times (this thread's) of `f` and of `g`, taken in turns
/// after one untimed warm-up of each; wall times where there is no thread CPU clock.
fn cpu_medians(repetitions: usize, mut f: impl FnMut(), mut g: impl FnMut()) -> (Duration, Duration) {
    if thread_cpu().is_none() {
        return medians(repetitions, f, g);
    }
    f();
    g();
    let time = |h: &mut dyn FnMut()| {
        let start = thread_cpu().unwrap_or_default();
        h();
        thread_cpu().unwrap_or_default().saturating_sub(start)
    };
    let (first, second): (Vec<Duration>, Vec<Duration>) =
        (0..repetitions.max(1)).map(|_| (time(&mut f), time(&mut g))).unzip();
    (median_of(first), median_of(second))
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
    Row {
        name: name.into(),
        measured: format_duration(measured),
        baseline: format_duration(baseline),
        ratio,
        goal,
        note,
    }
}

fn format_bytes(bytes: f64) -> String {
    if bytes < 1024.0 * 1024.0 {
        format!("{:.1}KB", bytes / 1024.0)
    } else {
        format!("{:.1}MB", bytes / 1024.0 / 1024.0)
    }
}

/// The median of some durations (sorted here).
fn median_of(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times.get(times.len() / 2).copied().unwrap_or_default()
}

fn run_config(target: TargetSpec, jobs: usize, selection: Selection) -> RunConfig {
    RunConfig {
        corpus: CorpusSource::Embedded,
        selection,
        report_dir: None,
        target,
        jobs,
        limits: Limits::default(),
        validate_protocol: false,
        transcript: false,
        spec_pointer: None,
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
            let ran = tool_conformance::run_config(&corpus, &run).expect("the reference needs no schema");
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
    let ran = tool_conformance::run_config(&corpus, &run)?;
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
            std::hint::black_box(tool_conformance::run_config(&corpus, &run).expect("no schema"));
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
            std::hint::black_box(tool_conformance::run_config(&corpus, &run).expect("no schema"));
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

/// d. `--jobs N` for each of [`BenchConfig::jobs`] against the first, for an implementation
/// that answers slowly; and whether every run's report has the same bytes.
fn jobs(config: &BenchConfig) -> anyhow::Result<Vec<Row>> {
    let corpus = load()?;
    let delay = config.delay.as_millis().to_string();
    let command = command_line(&config.slow, &["--serve-slow", &delay]);
    let ids: Vec<String> = corpus.cases.iter().take(config.slow_cases).map(|c| c.id.clone()).collect();
    let selection = Selection::new(Vec::new(), Vec::new(), ids)?;
    let runs: Vec<RunConfig> = config
        .jobs
        .iter()
        .map(|&jobs| {
            let mut run = run_config(TargetSpec::Stdio(command.clone()), jobs, selection.clone());
            run.transcript = true;
            run
        })
        .collect();
    let repetitions = config.repetitions.min(3);
    let mut times = vec![Vec::new(); runs.len()];
    let mut requests = vec![0; runs.len()];
    let mut first: Option<Vec<(String, String)>> = None;
    let mut differing = Vec::new();
    // In turns: every --jobs value once per repetition.
    for _ in 0..repetitions {
        for (index, run) in runs.iter().enumerate() {
            let start = Instant::now();
            let ran = tool_conformance::run_config(&corpus, run)?;
            times[index].push(start.elapsed());
            requests[index] = ran.transcript.iter().map(|t| t.exchanges.len()).sum::<usize>();
            let files = Report::for_corpus(&corpus, &ran.run).files();
            match &first {
                None => first = Some(files),
                Some(first) => {
                    for ((name, one), (_, other)) in first.iter().zip(&files) {
                        if one != other {
                            differing.push(format!("{name} at --jobs {}", run.jobs));
                        }
                    }
                    if first.len() != files.len() {
                        differing.push(format!("the file list at --jobs {}", run.jobs));
                    }
                }
            }
        }
    }
    let medians: Vec<Duration> = times.into_iter().map(median_of).collect();
    let mut rows = Vec::new();
    let base = config.jobs.first().copied().unwrap_or(1);
    for (index, &jobs) in config.jobs.iter().enumerate().skip(1) {
        let goal = match jobs {
            2 => Goal::AtLeast(1.9),
            8 => Goal::AtLeast(6.0),
            _ => Goal::None,
        };
        rows.push(Row {
            name: format!("d. speed-up, --jobs {jobs} / --jobs {base}"),
            measured: format_duration(medians[index]),
            baseline: format_duration(medians[0]),
            ratio: medians[0].as_secs_f64() / medians[index].as_secs_f64().max(1e-12),
            goal,
            note: format!(
                "{} cases, {delay}ms per answer, {} requests at --jobs {jobs} and {} at --jobs {base}",
                config.slow_cases.min(corpus.cases.len()),
                requests[index],
                requests[0]
            ),
        });
    }
    rows.push(Row {
        name: "d. report files differing from the first run".into(),
        measured: format!("{} runs", repetitions * config.jobs.len()),
        baseline: String::new(),
        ratio: differing.len() as f64,
        goal: Goal::AtMost(0.0),
        note: if differing.is_empty() {
            "every report file byte for byte the same at every --jobs".into()
        } else {
            differing.join(", ")
        },
    });
    Ok(rows)
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

/// The reference with one tool, `bench`, of `schema` registered.
fn registry(schema: Value) -> Reference {
    let tool = Tool { name: "bench".into(), description: None, input_schema: schema };
    let mut reference = Reference::new();
    reference.register(&[tool]).expect("the bench schema compiles");
    reference
}

/// Normalize + validate (the executor's whole work) of `arguments`, called directly, with what
/// the handler received or the rejection.
fn execute(reference: &mut Reference, arguments: &Value) {
    std::hint::black_box(reference.invoke("bench", Transport::Direct, arguments).expect("registered"));
}

/// e. The reference's normalize + validate against serde_json parsing the same bytes.
fn reference_cost(config: &BenchConfig) -> Vec<Row> {
    let mut rows = Vec::new();
    for (label, bytes) in [("1 KB", 1024), ("64 KB", 64 * 1024), ("1 MB", 1024 * 1024)] {
        let (schema, text) = sized_arguments(bytes);
        let mut registry = registry(schema);
        let arguments: Value = tool_conformance::json::from_slice(&text).expect("valid JSON");
        let repetitions = if bytes < 100_000 { config.repetitions * 20 } else { config.repetitions };
        let (reference, parse) = medians(
            repetitions,
            || execute(&mut registry, &arguments),
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

/// The hostile inputs: label, size N, and how to make one.
const HOSTILE: [(&str, usize, Hostile); 4] = [
    ("1 MB of nested &amp;amp;…", 1024 * 1024, nested_escapes),
    ("10,000 unknown fields", 10_000, unknown_fields),
    ("10,000-deep array text", 10_000, deep_array_text),
    ("1 MB string, no references", 1024 * 1024, plain_string),
];

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

/// A field of `/proc/self/status` in KB (Linux only).
fn status_kb(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The most memory one call may take above what the process held before it, as a multiple of
/// the input's JSON text: the goal of the hostile inputs.
const MEMORY_GOAL: f64 = 16.0;

/// The child of the memory measurement (`--hostile-memory INDEX SIZE`): builds the input, resets
/// the process's high-water mark (`/proc/self/clear_refs`), runs one call and prints the input's
/// JSON text size, the resident set before the call, the high-water mark after it, and the size of
/// what the call gave as JSON text (the arguments the handler received, or the error object), in
/// bytes.
fn hostile_memory_child(index: usize, size: usize) -> anyhow::Result<()> {
    let (_, _, make) = HOSTILE.get(index).ok_or_else(|| anyhow::anyhow!("no hostile input {index}"))?;
    let (schema, arguments) = make(size);
    let text = serde_json::to_vec(&arguments)?.len();
    let mut registry = registry(schema);
    let before = status_kb("VmRSS:").ok_or_else(|| anyhow::anyhow!("no VmRSS in /proc/self/status"))?;
    std::fs::write("/proc/self/clear_refs", "5")?;
    let result = registry.invoke("bench", Transport::Direct, &arguments).expect("registered");
    let peak = status_kb("VmHWM:").ok_or_else(|| anyhow::anyhow!("no VmHWM in /proc/self/status"))?;
    let output = match result {
        Invocation::Rejected { error, .. } => serde_json::to_vec(&error)?.len(),
        Invocation::Executed { received, .. } => serde_json::to_vec(&received)?.len(),
        Invocation::RejectedUnstructured { message, .. } => message.len(),
    };
    println!("{text} {} {} {output}", before * 1024, peak * 1024);
    Ok(())
}

/// What one [`hostile_memory_child`] printed.
struct Peak {
    text: u64,
    before: u64,
    peak: u64,
    output: u64,
}

impl Peak {
    /// The memory the call took above what the process held before it.
    fn call(&self) -> u64 {
        self.peak.saturating_sub(self.before)
    }
}

fn hostile_memory(config: &BenchConfig, index: usize, size: usize) -> anyhow::Result<Peak> {
    let out = Command::new(&config.slow)
        .args(["--hostile-memory", &index.to_string(), &size.to_string()])
        .stderr(Stdio::inherit())
        .output()?;
    anyhow::ensure!(out.status.success(), "--hostile-memory {index} {size} failed");
    let printed = String::from_utf8(out.stdout)?;
    let numbers: Vec<u64> = printed.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
    let [text, before, peak, output] = numbers[..] else { anyhow::bail!("--hostile-memory printed {printed:?}") };
    Ok(Peak { text, before, peak, output })
}

/// f. Hostile inputs at size N and 4N: the time of one call (less than 4 times is better than
/// linear), and the peak memory of one call, each in a process of its own.
fn hostile(config: &BenchConfig) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    for (index, (label, n, make)) in HOSTILE.into_iter().enumerate() {
        let ((small_schema, small_arguments), (large_schema, large_arguments)) = (make(n), make(4 * n));
        let (mut small_registry, mut large_registry) = (registry(small_schema), registry(large_schema));
        let (small, large) = cpu_medians(
            config.repetitions,
            || execute(&mut small_registry, &small_arguments),
            || execute(&mut large_registry, &large_arguments),
        );
        let (small_wall, large_wall) = medians(
            config.repetitions,
            || execute(&mut small_registry, &small_arguments),
            || execute(&mut large_registry, &large_arguments),
        );
        drop((small_registry, large_registry, small_arguments, large_arguments));
        let wall = large_wall.as_secs_f64() / small_wall.as_secs_f64().max(1e-12);
        rows.push(row(
            &format!("f. CPU time 4N / N: {label}"),
            large,
            small,
            Goal::AtMost(4.5),
            format!(
                "one call, this thread's CPU time; wall time {} / {} = {wall:.2}",
                format_duration(large_wall),
                format_duration(small_wall)
            ),
        ));
        let (at_n, at_4n) = (hostile_memory(config, index, n)?, hostile_memory(config, index, 4 * n)?);
        rows.push(Row {
            name: format!("f. memory of a call at 4N / input: {label}"),
            measured: format_bytes(at_4n.call() as f64),
            baseline: format_bytes(at_4n.text as f64),
            ratio: at_4n.call() as f64 / at_4n.text.max(1) as f64,
            goal: Goal::AtMost(MEMORY_GOAL),
            note: format!(
                "at N {} for {} of input ({:.1}x); output as JSON text {} at 4N; process peak {} at 4N, {} at N",
                format_bytes(at_n.call() as f64),
                format_bytes(at_n.text as f64),
                at_n.call() as f64 / at_n.text.max(1) as f64,
                format_bytes(at_4n.output as f64),
                format_bytes(at_4n.peak as f64),
                format_bytes(at_n.peak as f64),
            ),
        });
    }
    Ok(rows)
}

/// A corpus `copies` times the size of `cases/`: the rule files once, and every case file
/// `copies` times (`topic.yaml`, `topic-x1.yaml`, …), so each copy's cases get ids of their own
/// and the kinds of case keep their proportions. Written under `dir`.
fn write_corpus(dir: &Path, copies: usize) -> anyhow::Result<()> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("cases");
    for entry in walkdir::WalkDir::new(&source).sort_by_file_name() {
        let entry = entry?;
        let yaml = matches!(entry.path().extension().and_then(|e| e.to_str()), Some("yaml" | "yml"));
        if !entry.file_type().is_file() || !yaml {
            continue;
        }
        let path = entry.path().strip_prefix(&source)?.to_path_buf();
        let text = std::fs::read_to_string(entry.path())?;
        let parent = dir.join(path.parent().unwrap_or(Path::new("")));
        std::fs::create_dir_all(&parent)?;
        if path.file_name().is_some_and(|name| name == "rule.yaml") {
            std::fs::write(dir.join(&path), text)?;
            continue;
        }
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("cases").to_string();
        for copy in 0..copies {
            let name = if copy == 0 { format!("{stem}.yaml") } else { format!("{stem}-x{copy}.yaml") };
            std::fs::write(parent.join(name), &text)?;
        }
    }
    Ok(())
}

/// The child of the scale measurement (`--scale-child CORPUS REPORT`): loads and lints the
/// corpus, runs it against the reference in process (on this thread), writes the report, and
/// prints the number of cases, the CPU time of each of the three in microseconds, their wall
/// time likewise, and the process's peak resident memory in bytes.
fn scale_child(corpus_dir: &Path, report_dir: &Path) -> anyhow::Result<()> {
    let cpu = || thread_cpu().map(|d| d.as_nanos() as u64).ok_or_else(|| anyhow::anyhow!("no thread CPU clock"));
    let (start, cpu_start) = (Instant::now(), cpu()?);
    let corpus = Corpus::from_dir(corpus_dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    std::hint::black_box(corpus.coverage());
    let (load, load_cpu) = (start.elapsed(), cpu()? - cpu_start);
    let (start, cpu_start) = (Instant::now(), cpu()?);
    let ran = tool_conformance::run(&corpus, &Selection::all(), &mut Reference::new());
    let (run, run_cpu) = (start.elapsed(), cpu()? - cpu_start);
    let (start, cpu_start) = (Instant::now(), cpu()?);
    Report::for_corpus(&corpus, &ran).write_dir(report_dir)?;
    let (report, report_cpu) = (start.elapsed(), cpu()? - cpu_start);
    let peak = status_kb("VmHWM:").ok_or_else(|| anyhow::anyhow!("no VmHWM in /proc/self/status"))?;
    println!(
        "{} {} {} {} {} {} {} {}",
        corpus.cases.len(),
        load_cpu / 1000,
        run_cpu / 1000,
        report_cpu / 1000,
        load.as_micros(),
        run.as_micros(),
        report.as_micros(),
        peak * 1024
    );
    Ok(())
}

/// What the [`scale_child`]ren of one corpus printed.
#[derive(Default, Clone)]
struct Scaled {
    cases: u64,
    /// CPU time of load + lint, run, report.
    stages: [Vec<Duration>; 3],
    /// Wall time of the same.
    walls: [Vec<Duration>; 3],
    peaks: Vec<u64>,
}

/// g. Load + lint, a run against the reference and writing the report, for a corpus of 1×, and of
/// each of [`BenchConfig::scales`] times, `cases/`; each in a process of its own, in turns. The
/// ratios are of CPU time (the thread's, page faults included), which the machine's other work
/// does not inflate as it does wall time; the wall times are in the notes.
fn scale(config: &BenchConfig) -> anyhow::Result<Vec<Row>> {
    let root = std::env::temp_dir().join(format!("tool-conformance-bench-scale-{}", std::process::id()));
    let factors: Vec<usize> = std::iter::once(1).chain(config.scales.iter().copied()).collect();
    let mut scaled = vec![Scaled::default(); factors.len()];
    let measured = (|| -> anyhow::Result<()> {
        for &factor in &factors {
            write_corpus(&root.join(format!("x{factor}")), factor)?;
        }
        for _ in 0..config.repetitions.min(3) {
            for (index, &factor) in factors.iter().enumerate() {
                let (corpus, report) = (root.join(format!("x{factor}")), root.join(format!("report-x{factor}")));
                let out = Command::new(&config.slow)
                    .arg("--scale-child")
                    .args([&corpus, &report])
                    .stderr(Stdio::inherit())
                    .output()?;
                anyhow::ensure!(out.status.success(), "--scale-child failed on the {factor}x corpus");
                let printed = String::from_utf8(out.stdout)?;
                let numbers: Vec<u64> = printed.split_whitespace().map(str::parse).collect::<Result<_, _>>()?;
                let [cases, load, run, report, load_wall, run_wall, report_wall, peak] = numbers[..] else {
                    anyhow::bail!("--scale-child printed {printed:?}")
                };
                let entry = &mut scaled[index];
                entry.cases = cases;
                for (stage, micros) in [load, run, report].into_iter().enumerate() {
                    entry.stages[stage].push(Duration::from_micros(micros));
                }
                for (stage, micros) in [load_wall, run_wall, report_wall].into_iter().enumerate() {
                    entry.walls[stage].push(Duration::from_micros(micros));
                }
                entry.peaks.push(peak);
            }
        }
        Ok(())
    })();
    let _ = std::fs::remove_dir_all(&root);
    measured?;
    let mut rows = Vec::new();
    let one = &scaled[0];
    let peak = |s: &Scaled| {
        let mut peaks = s.peaks.clone();
        peaks.sort();
        peaks.get(peaks.len() / 2).copied().unwrap_or_default()
    };
    for (index, &factor) in factors.iter().enumerate().skip(1) {
        let many = &scaled[index];
        let goal = Goal::AtMost(factor as f64 * 1.1);
        for (stage, label) in ["load + lint", "run, reference in process", "write the report"].into_iter().enumerate() {
            let (at_one, at_many) = (median_of(one.stages[stage].clone()), median_of(many.stages[stage].clone()));
            let (wall_one, wall_many) = (median_of(one.walls[stage].clone()), median_of(many.walls[stage].clone()));
            rows.push(row(
                &format!("g. {factor}x / 1x: {label}, CPU time"),
                at_many,
                at_one,
                goal,
                format!(
                    "{} and {} cases; wall time {} / {} = {:.2}",
                    many.cases,
                    one.cases,
                    format_duration(wall_many),
                    format_duration(wall_one),
                    wall_many.as_secs_f64() / wall_one.as_secs_f64().max(1e-12)
                ),
            ));
        }
        let (at_one, at_many) = (peak(one), peak(many));
        rows.push(Row {
            name: format!("g. {factor}x / 1x: peak memory of the process"),
            measured: format_bytes(at_many as f64),
            baseline: format_bytes(at_one as f64),
            ratio: at_many as f64 / at_one.max(1) as f64,
            goal,
            note: "VmHWM after load, run and report".into(),
        });
    }
    Ok(rows)
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

const USAGE: &str = "usage: cargo bench --bench harness -- [--repetitions N] [--delay-ms MS] [--slow-cases N] \
                     [--jobs 1,2,4,8] [--scales 10,100] [--only LETTER]...";

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
            "--hostile-memory" => {
                let index: usize = value("--hostile-memory", &mut args)?.parse()?;
                let size: usize = value("--hostile-memory", &mut args)?.parse()?;
                return hostile_memory_child(index, size);
            }
            "--scale-child" => {
                let corpus = PathBuf::from(value("--scale-child", &mut args)?);
                let report = PathBuf::from(value("--scale-child", &mut args)?);
                return scale_child(&corpus, &report);
            }
            "--jobs" => {
                let list = value("--jobs", &mut args)?;
                config.jobs = list.split(',').map(str::parse).collect::<Result<_, _>>()?;
                anyhow::ensure!(!config.jobs.is_empty(), "--jobs takes a list such as 1,2,4,8");
            }
            "--scales" => {
                let list = value("--scales", &mut args)?;
                config.scales = list.split(',').map(str::parse).collect::<Result<_, _>>()?;
            }
            "--slow-cases" => config.slow_cases = value("--slow-cases", &mut args)?.parse()?,
            "--repetitions" => config.repetitions = value("--repetitions", &mut args)?.parse::<usize>()?.max(1),
            "--delay-ms" => config.delay = Duration::from_millis(value("--delay-ms", &mut args)?.parse()?),
            "--only" => {
                let letter = value("--only", &mut args)?;
                match letter.as_str() {
                    "a" | "b" | "c" | "d" | "e" | "f" | "g" => config.only.extend(letter.chars()),
                    _ => anyhow::bail!("--only takes a letter from a to g; {USAGE}"),
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
    tool_conformance::serve_stdio(Slow::new(Reference::new(), delay))?;
    Ok(())
}
