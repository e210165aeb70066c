//! Random drop with a fixed probability, independent of the queue (seed 003 Section II-B
//! measures the queue law G(p) this way: every arriving packet is dropped with probability p).
//! With `ecn`, ECN-capable packets are marked instead of dropped (RFC 3168 Section 5), which
//! gives per-packet marks of a known probability (seed 002's per-marked-ACK law).

use serde::{Deserialize, Serialize};

use super::{Limit, QueuePolicy, QueueView, Verdict};
use crate::error::{EngineError, Result};
use crate::packet::Packet;
use crate::rng::{Rng, RngCore};
use crate::time::Time;

/// Scenario description of random drop (`kind = "random_drop"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomDropConfig {
    pub limit: Limit,
    /// Fixed drop probability for every arriving packet (seed 003 Section II-B).
    pub probability: f64,
    /// Mark ECN-capable packets instead of dropping them.
    #[serde(default)]
    pub ecn: bool,
}

// The queue kind `random_drop` (registered in `super::QueueConfig`): its buffer limit, its policy.
super::queue_kind!(|config: RandomDropConfig, _link, field| config.limit, RandomDrop::new(config, field));

pub struct RandomDrop {
    probability: f64,
    ecn: bool,
}

impl RandomDrop {
    pub fn new(config: &RandomDropConfig, field: &str) -> Result<Self> {
        let probability = &config.probability;
        if !(0.0..=1.0).contains(probability) {
            return Err(EngineError::invalid(format!("{field}.probability"), probability, "a probability in [0, 1]"));
        }
        Ok(RandomDrop { probability: config.probability, ecn: config.ecn })
    }
}

impl QueuePolicy for RandomDrop {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, packet: &Packet, _queue: &QueueView, _now: Time, rng: &mut Rng) -> Verdict {
        // seed 003 Section II-B: drop each arrival independently with probability p.
        if self.probability > 0.0 && rng.gen::<f64>() < self.probability {
            super::early::early_signal(self.ecn, packet)
        } else {
            Verdict::Enqueue
        }
    }

    fn drop_probability(&self) -> f64 {
        self.probability
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::{build_policy, LinkContext, QueueConfig};

    #[test]
    fn is_registered_as_random_drop_with_ecn_off_by_default() {
        let json = r#"{"kind": "random_drop", "limit": {"bytes": 9000}, "probability": 0.25}"#;
        let config: QueueConfig = serde_json::from_str(json).unwrap();
        let expected = RandomDropConfig { limit: Limit::Bytes(9000), probability: 0.25, ecn: false };
        assert_eq!(config, QueueConfig::RandomDrop(expected));
        assert_eq!((config.kind_name(), config.limit()), ("random_drop", Limit::Bytes(9000)));
        let missing = serde_json::from_str::<QueueConfig>(r#"{"kind": "random_drop", "limit": {"packets": 1}}"#);
        assert!(missing.unwrap_err().to_string().contains("missing field `probability`"));
    }

    #[test]
    fn a_probability_outside_0_1_names_the_field() {
        let config = QueueConfig::RandomDrop(RandomDropConfig { limit: Limit::Packets(5), probability: 1.5, ecn: true });
        let link = LinkContext { rate_bps: 1_000_000, mean_packet_bytes: 1000 };
        let error = build_policy(&config, link, "topology.bottleneck.queue").err().unwrap().to_string();
        assert!(error.contains("topology.bottleneck.queue.probability") && error.contains("[0, 1]"), "{error}");
    }
}
