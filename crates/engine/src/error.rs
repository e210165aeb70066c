//! The one error type of the engine; the binding maps it to Python exceptions in one place.

use std::fmt::Display;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A scenario field has a value outside what is allowed.
    #[error("invalid scenario: {field} = {value}: expected {allowed}")]
    InvalidScenario { field: String, value: String, allowed: String },
    /// The scenario JSON could not be parsed.
    #[error("cannot parse scenario at {path}: {message}")]
    Parse { path: String, message: String },
}

impl EngineError {
    pub fn invalid(field: impl Into<String>, value: impl Display, allowed: impl Into<String>) -> Self {
        EngineError::InvalidScenario { field: field.into(), value: value.to_string(), allowed: allowed.into() }
    }
}

pub type Result<T> = std::result::Result<T, EngineError>;
