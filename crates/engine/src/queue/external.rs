//! Queue policies implemented outside the engine, e.g. a Python class (docs/extending.md),
//! through the engine's one registry of external components (`crate::external`).
//!
//! The policy gets the link's own random stream through [`QueuePolicy::on_arrival`]'s `rng`,
//! the very stream a built-in policy on that link draws from, so a port of a built-in policy
//! reproduces its runs.

use serde::{Deserialize, Serialize};

use super::{Limit, LinkContext, QueueKind, QueuePolicy};
use crate::error::Result;
use crate::external::external_kind;

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

impl QueueKind for ExternalQueueConfig {
    fn limit(&self) -> Limit {
        self.limit
    }
    fn build(&self, link: LinkContext, field: &str) -> Result<Box<dyn QueuePolicy>> {
        POLICIES.build(self, link, field)
    }
}

// Built with the link the policy's queue feeds.
external_kind!(POLICIES: dyn QueuePolicy(ExternalQueueConfig, LinkContext), instead "a built-in policy");

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{EngineError, Result};
    use crate::external::ExternalFactory;
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

    impl ExternalFactory<dyn QueuePolicy> for CoinFactory {
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
        assert!(POLICIES.install(Box::new(CoinFactory)));
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
