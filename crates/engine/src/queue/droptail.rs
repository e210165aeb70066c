//! DropTail: accept every packet; the base queue drops on overflow.

use serde::{Deserialize, Serialize};

use super::{Limit, LinkContext, QueueKind, QueuePolicy, QueueView, Verdict};
use crate::error::Result;
use crate::packet::Packet;
use crate::rng::Rng;
use crate::time::Time;

/// Scenario description of a DropTail queue (`kind = "drop_tail"`): its buffer only.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropTailConfig {
    pub limit: Limit,
}

impl QueueKind for DropTailConfig {
    fn limit(&self) -> Limit {
        self.limit
    }
    fn build(&self, _link: LinkContext, _field: &str) -> Result<Box<dyn QueuePolicy>> {
        Ok(Box::new(DropTail))
    }
}

pub struct DropTail;

impl QueuePolicy for DropTail {
    fn decides_at_arrival(&self) -> bool {
        true
    }
    fn admits_every_arrival(&self) -> bool {
        true
    }
    fn on_arrival(&mut self, _packet: &Packet, _queue: &QueueView, _now: Time, _rng: &mut Rng) -> Verdict {
        Verdict::Enqueue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::queue::QueueConfig;

    #[test]
    fn is_registered_as_drop_tail_with_its_limit_only() {
        let json = r#"{"kind":"drop_tail","limit":{"packets":5}}"#;
        let config: QueueConfig = serde_json::from_str(json).unwrap();
        assert_eq!(config, QueueConfig::DropTail(DropTailConfig { limit: Limit::Packets(5) }));
        assert_eq!((config.kind_name(), config.limit()), ("drop_tail", Limit::Packets(5)));
        assert_eq!(serde_json::to_string(&config).unwrap(), json, "written back as read");
        let error = serde_json::from_str::<QueueConfig>(r#"{"kind":"drop_tail","limit":{"packets":5},"ecn":true}"#);
        assert!(error.unwrap_err().to_string().contains("unknown field `ecn`"));
    }
}
