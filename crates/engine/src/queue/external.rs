//! Queue policies implemented outside the engine, e.g. a Python class (docs/extending.md).
//!
//! The engine stays pure Rust: a scenario names the policy by reference (`"module:Class"`
//! or `"path/file.py:Class"`) with its parameters as JSON, and the program embedding the
//! engine installs one [`ExternalQueueFactory`] that turns such a configuration into a
//! [`QueuePolicy`] (the Python binding, `crates/py/src/hooks/`, builds an object that calls
//! the class). The policy gets the link's own random stream through
//! [`QueuePolicy::on_arrival`]'s `rng`, the very stream a built-in policy on that link draws
//! from, so a port of a built-in policy reproduces its runs.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::{Limit, LinkContext, QueuePolicy};
use crate::error::{EngineError, Result};

/// Scenario description of a queue policy implemented outside the engine (`kind = "python"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExternalQueueConfig {
    pub limit: Limit,
    /// The implementation: `"module:Class"` or `"path/file.py:Class"`.
    pub policy: String,
    /// Keyword arguments of the implementation's constructor.
    #[serde(default)]
    pub params: serde_json::Map<String, serde_json::Value>,
}

/// Builds queue policies implemented outside the engine.
pub trait ExternalQueueFactory: Send + Sync {
    /// The policy of `config` on a link of `link`; `field` names the configuration in errors.
    fn build(&self, config: &ExternalQueueConfig, link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>>;
}

static FACTORY: OnceLock<Box<dyn ExternalQueueFactory>> = OnceLock::new();

/// Install the process's factory (once; later calls return false and change nothing).
pub fn install_factory(factory: Box<dyn ExternalQueueFactory>) -> bool {
    FACTORY.set(factory).is_ok()
}

/// The registry's entry for `kind = "python"`.
pub fn build(config: &ExternalQueueConfig, link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>> {
    match FACTORY.get() {
        Some(factory) => factory.build(config, link, field),
        None => Err(EngineError::invalid(
            format!("{field}.kind"),
            "python",
            "a built-in policy: this program runs the engine without the Python binding (aqmlab._engine)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{Ecn, Packet};
    use crate::queue::{build_policy, Queue, QueueConfig, QueueView, Verdict};
    use crate::rng::{stream, Rng, RngCore, StreamKind};
    use crate::time::Time;

    /// Drops each arrival with the probability given in `params.p`, drawing from the link's
    /// stream: what an external policy sees and returns.
    struct Coin(f64);

    impl QueuePolicy for Coin {
        fn on_arrival(&mut self, _: &Packet, _: &QueueView, _: Time, rng: &mut Rng) -> Verdict {
            if rng.gen::<f64>() < self.0 {
                Verdict::Drop(crate::queue::DropReason::Early)
            } else {
                Verdict::Enqueue
            }
        }
        fn decides_at_arrival(&self) -> bool {
            true
        }
    }

    struct CoinFactory;

    impl ExternalQueueFactory for CoinFactory {
        fn build(&self, config: &ExternalQueueConfig, _: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>> {
            if config.policy != "tests:Coin" {
                return Err(EngineError::invalid(format!("{field}.policy"), &config.policy, "tests:Coin"));
            }
            Ok(Box::new(Coin(config.params["p"].as_f64().unwrap())))
        }
    }

    #[test]
    fn the_registry_builds_external_policies_through_the_installed_factory() {
        let json = r#"{"kind": "python", "limit": {"packets": 10}, "policy": "tests:Coin", "params": {"p": 0.5}}"#;
        let config: QueueConfig = serde_json::from_str(json).unwrap();
        assert_eq!(config.kind_name(), "python");
        assert_eq!(config.limit(), Limit::Packets(10));
        let link = LinkContext { rate_bps: 1_000_000, mean_packet_bytes: 1000 };
        install_factory(Box::new(CoinFactory));
        let policy = build_policy(&config, link, "topology.bottleneck.queue").unwrap();
        assert!(policy.decides_at_arrival());
        let mut queue = Queue::new(config.limit(), 1_000_000, policy);
        let mut rng = stream(1, StreamKind::Queue, 0);
        let mut expected = stream(1, StreamKind::Queue, 0);
        for _ in 0..8 {
            let dropped = expected.gen::<f64>() < 0.5;
            let verdict = queue.enqueue(Packet::test_data(1000, Ecn::NotEct, 0), 0, &mut rng);
            assert_eq!(matches!(verdict, Verdict::Drop(_)), dropped, "the link's own stream, draw for draw");
        }
        let bad: QueueConfig = serde_json::from_str(&json.replace("tests:Coin", "x:Y")).unwrap();
        let error = build_policy(&bad, link, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(error.contains("topology.bottleneck.queue.policy"), "{error}");
        assert!(serde_json::from_str::<QueueConfig>(&json.replace("params", "parameters")).is_err());
    }
}
