//! The typed row: each tool a handler taking `Parameters<Args>`, `Args` the types build.rs wrote
//! for its schema (typegen.rs), registered with the input schema rmcp's `#[tool]` macro gives
//! it (`schema_for_input::<Args>()`), so rmcp deserializes the arguments into `Args` before the
//! handler runs and publishes the schema schemars derives.

use crate::{Answer, Records, Server, ok_result, typegen};
use rmcp::handler::server::common::schema_for_input;
use rmcp::handler::server::router::tool::ToolRoute;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::Tool;
use serde_json::Value;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/typed_gen.rs"));
}

/// The tool `name` with a handler taking `Parameters<T>`, as `#[tool]` makes one.
pub(crate) fn make<T>(name: &str, description: Option<&str>, records: Records) -> Result<ToolRoute<Server>, String>
where
    T: serde::de::DeserializeOwned + serde::Serialize + schemars::JsonSchema + Send + Sync + 'static,
{
    let schema = schema_for_input::<T>()
        .map_err(|why| format!("rmcp refuses the input schema of Parameters<Args> (schema_for_input): {why}"))?;
    let tool = Tool::new_with_raw(name.to_string(), description.map(|d| d.to_string().into()), schema);
    Ok(ToolRoute::new(tool, move |Parameters(args): Parameters<T>| {
        let records = records.clone();
        async move {
            records.lock().expect("records").push(serde_json::to_value(&args).unwrap_or(Value::Null));
            ok_result()
        }
    }))
}

/// The Rust source of the types written for `schema`, when it is one of schemas.jsonl.
pub fn source(schema: &Value) -> Option<&'static str> {
    generated::route_for(&typegen::canonical(schema), "", None, Records::default()).map(|(_, source)| source)
}

pub(crate) fn route(
    name: &str,
    description: Option<&str>,
    schema: &Value,
    records: Records,
) -> Result<ToolRoute<Server>, Answer> {
    match generated::route_for(&typegen::canonical(schema), name, description, records) {
        Some((Ok(route), _)) => Ok(route),
        Some((Err(why), _)) => Err(Answer::Unsupported(why)),
        None => Err(Answer::Error(format!(
            "no Rust type was written for this schema: add {} as a line of examples/adapters/rmcp/schemas.jsonl (README.md says how) and rebuild",
            typegen::canonical(schema)
        ))),
    }
}
