//! Window laws implemented outside the engine, e.g. a Python class (docs/extending.md),
//! through the engine's one registry of external components (`crate::external`). The law
//! gets the flow's initial window and own random stream in its [`CcInit`].

use serde::{Deserialize, Serialize};

use super::{CcInit, CcKind, CongestionControl};
use crate::error::Result;
use crate::external::external_kind;

/// Scenario description of a window law implemented outside the engine (`kind = "python"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalCcConfig {
    /// The implementation: `"module:Class"` or `"path/file.py:Class"`.
    pub law: String,
    /// Keyword arguments of the implementation's constructor.
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

/// The window law `python` (registered in `super::CcConfig`).
impl CcKind for ExternalCcConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        LAWS.build(self, init, field)
    }
}

// Built with the flow's initial window and random stream.
external_kind!(LAWS: dyn CongestionControl(ExternalCcConfig, CcInit), instead "a built-in window law");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{EngineError, Result};
    use crate::external::ExternalFactory;
    use crate::tcp::cc::{reno::Reno, test_events, CcConfig};

    struct RenoFactory;

    impl ExternalFactory<dyn CongestionControl> for RenoFactory {
        fn build(&self, config: &ExternalCcConfig, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
            if config.law != "tests:Reno" {
                return Err(EngineError::invalid(format!("{field}.law"), &config.law, "tests:Reno"));
            }
            Ok(Box::new(Reno::new(init.initial_window, init.initial_ssthresh)))
        }
    }

    #[test]
    fn the_registry_builds_external_laws_through_the_installed_factory() {
        let init = || CcInit {
            initial_window: 2.0,
            initial_ssthresh: 1e9,
            rng: crate::rng::stream(1, crate::rng::StreamKind::Flow, 0),
        };
        let json = r#"{"kind": "python", "law": "tests:Reno", "params": {"a": 1}}"#;
        let config: CcConfig = serde_json::from_str(json).unwrap();
        assert_eq!(config.kind_name(), "python");
        assert!(LAWS.install(Box::new(RenoFactory)));
        let mut law = config.build(init(), "topology.groups[0].tcp.cc").unwrap();
        law.on_ack(&test_events::ack(1));
        assert_eq!(law.window(), 3.0, "slow start from the initial window it was given");
        let bad: CcConfig = serde_json::from_str(&json.replace("tests:Reno", "x:Y")).unwrap();
        let error = bad.build(init(), "topology.groups[0].tcp.cc").err().unwrap().to_string();
        assert!(error.contains("topology.groups[0].tcp.cc.law"), "{error}");
    }
}
