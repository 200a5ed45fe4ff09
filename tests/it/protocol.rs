//! Protocol v1's three descriptions kept in step: the message types (`src/protocol.rs`), the JSON
//! Schema (`schemas/protocol.schema.json`) and the prose (`docs/protocol.md`). Every message the
//! harness and the reference exchange over a whole run matches the schema, every field the schema
//! requires is in the prose, and broken messages are refused at the schema path an adapter author
//! needs.

use serde_json::{Value, json};
use tool_conformance::peer::protocol::{Answer, Command, Request, VERSION};
use tool_conformance::peer::protocol_schema::{ProtocolSchema, SCHEMA_TEXT};
use tool_conformance::run::config::{Limits, RunConfig, Selection};
use tool_conformance::run::{self as runner, jobs};
use tool_conformance::{Corpus, Reference, Status};

fn schema() -> Value {
    tool_conformance::json::from_str(SCHEMA_TEXT).expect("the schema is JSON")
}

fn docs() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/protocol.md")).expect("docs/protocol.md")
}

fn the_prose_documents_every_command_and_every_required_field() {
    let (schema, docs) = (schema(), docs());
    let defs = schema["$defs"].as_object().expect("$defs");
    for command in Command::ALL {
        assert!(docs.contains(&format!("### `{command}`")), "docs/protocol.md has no section for {command}");
        for kind in ["request", "response"] {
            let name = format!("{command}_{kind}");
            let mut def = defs.get(&name).unwrap_or_else(|| panic!("the schema has no $defs/{name}"));
            if let Some(target) = def.get("$ref").and_then(Value::as_str) {
                def = &defs[target.trim_start_matches("#/$defs/")];
            }
            let branches = def.get("oneOf").and_then(Value::as_array).into_iter().flatten();
            let required = std::iter::once(def).chain(branches).filter_map(|d| d.get("required")?.as_array());
            for field in required.flatten() {
                let field = field.as_str().expect("a name");
                assert!(docs.contains(&format!("\"{field}\"")), "docs/protocol.md never shows {name}'s {field:?}");
            }
        }
    }
    for special in ["unsupported", "error"] {
        assert!(docs.contains(&format!("\"{special}\":")), "docs/protocol.md never shows an {special} response");
        assert!(defs.contains_key(&format!("{special}_response")));
    }
}

fn every_message_of_a_whole_run_matches_the_schema() {
    // Through the in-process loopback with validation on, every request and every response of
    // the run is checked; a violation would be an error outcome.
    let corpus = Corpus::embedded().expect("the corpus loads");
    let config = RunConfig { validate_protocol: true, ..RunConfig::default() };
    let ran = jobs::run(&corpus, &config).expect("the schema loads");
    let errors: Vec<String> = ran
        .run
        .outcomes
        .iter()
        .filter_map(|o| match &o.status {
            Status::Error { reason } => Some(format!("{}: {reason}", o.id)),
            _ => None,
        })
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let in_process = runner::run(&corpus, &Selection::all(), &mut Reference::new());
    assert_eq!(ran.run, in_process, "through the protocol the run differs from in process");
}

fn every_request_the_harness_builds_matches_the_schema() {
    let schema = ProtocolSchema::load().expect("the schema compiles");
    let tool = tool_conformance::Tool { name: "t".into(), description: None, input_schema: json!({"type": "object"}) };
    let requests = [
        Request::Start { protocol: VERSION },
        Request::Normalize { input_schema: json!({}), arguments: json!("any value") },
        Request::Register { tools: vec![tool] },
        Request::Describe { tool: "t".into(), view: tool_conformance::View::Direct },
        Request::Invoke { tool: "t".into(), transport: tool_conformance::Transport::Structured, arguments: json!([1]) },
        Request::Stop,
    ];
    for (seq, request) in requests.iter().enumerate() {
        let wire = request.to_json(seq as u64);
        assert_eq!(schema.check_request(request.command(), &wire), Ok(()), "{wire}");
    }
    let bad = json!({"cmd": "start", "seq": 0, "protocol": 1, "extra": true});
    assert!(schema.check_request(Command::Start, &bad).is_err());
}

fn broken_responses_are_refused_at_the_schema_path_to_look_at() {
    let schema = ProtocolSchema::load().expect("the schema compiles");
    let cases = [
        (
            Command::Start,
            json!({"seq": 0, "protocol": 1, "rules": [], "transports": []}),
            "#/$defs/start_response/required",
        ),
        (
            Command::Start,
            json!({"seq": 0, "protocol": 1, "implementation": {"name": "x", "version": "1"}, "rules": [], "transports": ["grpc"]}),
            "#/$defs/transport/enum",
        ),
        (Command::Normalize, json!({"seq": 1}), "#/$defs/normalize_response/oneOf"),
        (
            Command::Normalize,
            json!({"seq": 1, "rejected": {}}),
            "#/$defs/normalize_response/properties/rejected/required",
        ),
        (Command::Register, json!({"seq": 1, "ok": false}), "#/$defs/ok_response/properties/ok/const"),
        (Command::Describe, json!({"seq": -1, "input_schema": {}}), "#/$defs/seq/minimum"),
        (
            Command::Invoke,
            json!({"seq": 4, "outcome": "executed", "handler_calls": 1}),
            "#/$defs/invoke_response/allOf/0/then/required",
        ),
        (
            Command::Invoke,
            json!({"seq": 4, "outcome": "rejected", "handler_calls": 0, "error": {"message": "m", "problems": []}}),
            "#/$defs/rejection/required",
        ),
        (
            Command::Invoke,
            json!({"seq": 4, "outcome": "maybe", "handler_calls": 0}),
            "#/$defs/invoke_response/properties/outcome/enum",
        ),
        (
            Command::Describe,
            json!({"seq": 4, "unsupported": 7}),
            "#/$defs/unsupported_response/properties/unsupported/type",
        ),
    ];
    for (command, response, path) in cases {
        let violation = schema.check_response(command, &response).expect_err(&response.to_string());
        assert_eq!(violation.schema_path, path, "{response}: {violation}");
        assert!(violation.to_string().contains(&format!("the {command} response")), "{violation}");
    }
    for answer in [Answer::Unsupported("no".into()), Answer::Failed("broke".into()), Answer::Stopped] {
        assert_eq!(schema.check_response(Command::Stop, &answer.to_json(Some(3))), Ok(()));
    }
    for command in [Command::Normalize, Command::Invoke] {
        let ran = Answer::NotJson("{'a': nan} (Python's repr)".into()).to_json(Some(5));
        assert_eq!(schema.check_response(command, &ran), Ok(()), "{ran}");
        let violation = schema.check_response(command, &json!({"seq": 5, "not_json": 1})).unwrap_err();
        assert_eq!(violation.schema_path, "#/$defs/not_json_response/properties/not_json/type");
    }
}

fn a_failing_case_over_the_protocol_carries_the_exchange_that_led_to_it() {
    use tool_conformance::Limits;
    use tool_conformance::case::{Check, Expect};
    use tool_conformance::peer::remote::Remote;
    use tool_conformance::peer::transcript::WireLog;
    use tool_conformance::run::jobs::{Instance, run_cases};
    use tool_conformance::serve::Loopback;

    let corpus = Corpus::embedded().expect("the corpus loads");
    let mut case = corpus
        .cases
        .iter()
        .find(|c| matches!(&c.check, Check::Normalize { expect: Expect::One(_), .. }))
        .expect("a normalize case")
        .clone();
    if let Check::Normalize { expect, .. } = &mut case.check {
        *expect = Expect::One(json!({"something": "else"}));
    }
    let log = WireLog::new();
    let remote = Remote::new(Loopback::new(Reference::new), Limits::default(), log.clone());
    let ran = run_cases(&[&case], vec![Instance::new(Box::new(remote), Some(log))], false);
    let Status::Fail(failure) = &ran.run.outcomes[0].status else {
        panic!("the case should fail: {:?}", ran.run.outcomes[0].status);
    };
    assert_eq!(failure.exchange.len(), 2, "{:?}", failure.exchange);
    // Numbered from the case's first request (on the wire it was seq 1, after start).
    assert!(failure.exchange[0].starts_with("> {\"cmd\":\"normalize\",\"seq\":0,"), "{:?}", failure.exchange);
    assert!(failure.exchange[1].starts_with("< {\"seq\":0,\"arguments\":"), "{:?}", failure.exchange);
    let report = tool_conformance::report::Report::new(&corpus.catalog, &ran.run);
    let markdown = tool_conformance::report::markdown::render(&report);
    assert!(markdown.contains("The exchange that led to it:\n\n```text\n> {\"cmd\":\"normalize\""), "{markdown}");
    let json = tool_conformance::report::json::render(&report);
    assert!(json.contains("\"exchange\": ["), "{json}");
}

/// The reference, but refusing every normalize before any tool runs, as a framework whose
/// validation rejects arguments it was meant to repair.
struct Refusing(Reference);

impl tool_conformance::Target for Refusing {
    fn start(&mut self) -> Result<tool_conformance::Implementation, tool_conformance::TargetError> {
        self.0.start()
    }
    fn normalize(&mut self, _: &Value, _: &Value) -> Result<Value, tool_conformance::TargetError> {
        Err(tool_conformance::TargetError::Refused(json!({"message": "1 validation error: ops must be array"})))
    }
    fn register(&mut self, tools: &[tool_conformance::Tool]) -> Result<(), tool_conformance::TargetError> {
        self.0.register(tools)
    }
    fn describe(&mut self, tool: &str, view: tool_conformance::View) -> Result<Value, tool_conformance::TargetError> {
        self.0.describe(tool, view)
    }
    fn invoke(
        &mut self,
        tool: &str,
        transport: tool_conformance::Transport,
        arguments: &Value,
    ) -> Result<tool_conformance::Invocation, tool_conformance::TargetError> {
        self.0.invoke(tool, transport, arguments)
    }
}

fn a_normalize_answered_rejected_fails_its_case_unless_a_validating_runtime_must_refuse_too() {
    use tool_conformance::case::{Check, Expect};
    use tool_conformance::judge::passes_validation_as_sent;
    use tool_conformance::peer::remote::Remote;
    use tool_conformance::peer::transcript::WireLog;
    use tool_conformance::run::jobs::{Instance, run_cases};
    use tool_conformance::serve::Loopback;

    let corpus = Corpus::embedded().expect("the corpus loads");
    let cases: Vec<_> =
        corpus.cases.iter().filter(|c| matches!(&c.check, Check::Normalize { expect: Expect::One(_), .. })).collect();
    let schema = ProtocolSchema::load().expect("the schema compiles");
    let log = WireLog::new();
    let remote =
        Remote::new(Loopback::new(|| Refusing(Reference::new())), Limits::default(), log.clone()).validating(schema);
    let ran = run_cases(&cases, vec![Instance::new(Box::new(remote), Some(log))], false);
    let mut session = runner::Session::start(Refusing(Reference::new()));
    let (mut failed, mut skipped) = (0, 0);
    for (case, outcome) in cases.iter().zip(&ran.run.outcomes) {
        let Check::Normalize { input_schema, arguments, expect: Expect::One(expected) } = &case.check else {
            unreachable!()
        };
        let passes = passes_validation_as_sent(input_schema, expected, arguments);
        match &outcome.status {
            // Arguments that, normalized as expected (their numbers as sent, too), pass validation
            // should have reached the tool.
            Status::Fail(failure) if passes => {
                assert_eq!(failure.actual, json!({"rejected": {"message": "1 validation error: ops must be array"}}));
                assert!(failure.exchange.iter().any(|line| line.contains("\"rejected\":")), "{:?}", failure.exchange);
                failed += 1;
            }
            // Arguments that break the schema once normalized are refused by a validating runtime
            // too: what normalization made of them cannot be seen.
            Status::Skip { reason } if !passes => {
                assert!(reason.starts_with("not observable"), "{reason}");
                skipped += 1;
            }
            other => panic!("{}: {other:?}", case.id),
        }
        // In process, the same verdict.
        assert_eq!(session.run_case(case).status.kind(), outcome.status.kind(), "{}", case.id);
    }
    assert!(failed > 100 && skipped > 10, "{failed} failed, {skipped} skipped");
}

/// The reference, but executing every invoke: every call reaches its handler, as in a runtime
/// that validates nothing.
struct Executing(Reference);

impl tool_conformance::Target for Executing {
    fn start(&mut self) -> Result<tool_conformance::Implementation, tool_conformance::TargetError> {
        self.0.start()
    }
    fn normalize(&mut self, schema: &Value, arguments: &Value) -> Result<Value, tool_conformance::TargetError> {
        self.0.normalize(schema, arguments)
    }
    fn register(&mut self, tools: &[tool_conformance::Tool]) -> Result<(), tool_conformance::TargetError> {
        self.0.register(tools)
    }
    fn describe(&mut self, tool: &str, view: tool_conformance::View) -> Result<Value, tool_conformance::TargetError> {
        self.0.describe(tool, view)
    }
    fn invoke(
        &mut self,
        _: &str,
        _: tool_conformance::Transport,
        arguments: &Value,
    ) -> Result<tool_conformance::Invocation, tool_conformance::TargetError> {
        Ok(tool_conformance::Invocation::Executed { handler_calls: 1, received: arguments.clone() })
    }
}

fn a_failing_case_shows_the_same_exchange_whatever_ran_before_it_on_its_instance() {
    use tool_conformance::case::{Case, Check};
    use tool_conformance::peer::remote::Remote;
    use tool_conformance::peer::transcript::WireLog;
    use tool_conformance::run::jobs::{Instance, run_cases};
    use tool_conformance::serve::Loopback;

    let corpus = Corpus::embedded().expect("the corpus loads");
    let run = |cases: &[&Case]| {
        let log = WireLog::new();
        let remote = Remote::new(Loopback::new(|| Executing(Reference::new())), Limits::default(), log.clone());
        run_cases(cases, vec![Instance::new(Box::new(remote), Some(log))], false).run.outcomes
    };
    let exchange = |status: &Status| match status {
        Status::Fail(failure) => Some(failure.exchange.clone()),
        _ => None,
    };
    // Two failing invoke cases with the same tools: run after the first, the second registers
    // nothing (the tools are registered already), yet shows the same exchange as run alone.
    let invokes: Vec<&Case> = corpus.cases.iter().filter(|c| matches!(c.check, Check::Invoke { .. })).collect();
    let tools = |case: &Case| match &case.check {
        Check::Invoke { tools, .. } => tools.clone(),
        _ => Vec::new(),
    };
    let mut compared = 0;
    for pair in invokes.windows(2).filter(|pair| tools(pair[0]) == tools(pair[1])) {
        let together = run(pair);
        let alone = run(&pair[1..]);
        let (Some(first), Some(after), Some(alone)) =
            (exchange(&together[0].status), exchange(&together[1].status), exchange(&alone[0].status))
        else {
            continue;
        };
        assert!(first[0].starts_with("> {\"cmd\":\"register\",\"seq\":0,"), "{first:?}");
        assert_eq!(after, alone, "{}", pair[1].id);
        compared += 1;
        if compared == 5 {
            break;
        }
    }
    assert!(compared > 0, "no two failing invoke cases with the same tools");
}

tests![
    the_prose_documents_every_command_and_every_required_field,
    every_message_of_a_whole_run_matches_the_schema,
    every_request_the_harness_builds_matches_the_schema,
    broken_responses_are_refused_at_the_schema_path_to_look_at,
    a_failing_case_over_the_protocol_carries_the_exchange_that_led_to_it,
    a_normalize_answered_rejected_fails_its_case_unless_a_validating_runtime_must_refuse_too,
    a_failing_case_shows_the_same_exchange_whatever_ran_before_it_on_its_instance,
];
