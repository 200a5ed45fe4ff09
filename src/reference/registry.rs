//! PLAT-162's registry: one schema per registered tool, and one validating executor through which
//! every transport and every published view goes.
//!
//! Registering a tool compiles its validator once. An [`Executor`] is the wrapper the rule asks
//! for: it normalizes the arguments (RT-TOOL-8), validates them against the registered schema, and
//! only then calls the handler. The describe views read the same registered schema.

use super::normalize::normalize;
use super::validate::{ArgumentValidator, Rejection};
use crate::case::tool::{Tool, View};
use crate::reference::validate::{RegistrationError, RegistrationErrorKind};
use serde_json::Value;
use std::collections::BTreeMap;

/// The registered tools, by name.
#[derive(Default)]
pub struct Registry {
    executors: BTreeMap<String, Executor>,
}

/// One registered tool: its schema as registered, and its compiled validator.
pub struct Executor {
    tool: Tool,
    validator: ArgumentValidator,
}

impl Registry {
    /// A registry holding exactly these tools.
    pub fn new(tools: &[Tool]) -> Result<Registry, RegistrationError> {
        let mut executors = BTreeMap::new();
        for tool in tools {
            let executor = Executor { validator: ArgumentValidator::compile(tool)?, tool: tool.clone() };
            if executors.insert(tool.name.clone(), executor).is_some() {
                return Err(RegistrationError { tool: tool.name.clone(), kind: RegistrationErrorKind::Twice });
            }
        }
        Ok(Registry { executors })
    }

    /// The executor registered under `name`.
    pub fn executor(&self, name: &str) -> Option<&Executor> {
        self.executors.get(name)
    }

    /// The schema a view publishes: for every view, the one registered schema.
    pub fn published_schema(&self, name: &str, view: View) -> Option<&Value> {
        let executor = self.executor(name)?;
        match view {
            View::GetApiSpec | View::Direct => Some(&executor.tool.input_schema),
        }
    }
}

impl Executor {
    /// Runs a call: normalize, validate, and only then the handler, with the normalized arguments.
    pub fn execute(&self, arguments: &Value, handler: &mut dyn FnMut(Value)) -> Result<(), Rejection> {
        let normalized = normalize(&self.tool.input_schema, arguments);
        self.validator.validate(&normalized)?;
        handler(normalized);
        Ok(())
    }
}
