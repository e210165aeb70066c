//! The field names of each resolved-scenario struct, as serde's derive knows them: what the
//! Python declarations (`aqmlab._declarations`) are tested against, so the two sides cannot
//! disagree on a field's name (issue 32).
//!
//! The names are read from the derive itself: a deserializer that only records the `fields`
//! argument serde's generated code passes to `deserialize_struct`, then stops. Nothing here is
//! written by hand except the list of structs; the kinds' come from their registries
//! (`crate::registry`).

use serde::de::{self, Deserialize, Deserializer, Visitor};

use crate::config::{BottleneckConfig, CoreLink, Dumbbell, FlowGroup, NetworkConfig, Scenario, TraceConfig};
use crate::error::{EngineError, Result};
use crate::queue::QueueConfig;
use crate::registry::KindVisitor;
use crate::tcp::cc::CcConfig;
use crate::tcp::TcpConfig;

/// Records the struct name and field names serde asks for, and fails every request.
struct FieldRecorder {
    found: Option<(&'static str, &'static [&'static str])>,
}

#[derive(Debug)]
struct Recorded;

impl std::fmt::Display for Recorded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("field names recorded")
    }
}

impl std::error::Error for Recorded {}

impl de::Error for Recorded {
    fn custom<T: std::fmt::Display>(_msg: T) -> Self {
        Recorded
    }
}

impl<'de> Deserializer<'de> for &mut FieldRecorder {
    type Error = Recorded;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> std::result::Result<V::Value, Recorded> {
        self.found = Some((name, fields));
        Err(Recorded)
    }

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> std::result::Result<V::Value, Recorded> {
        Err(Recorded)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

/// (struct name, field names) of one struct that derives `Deserialize`; None for a type
/// serde does not read as a struct (an enum, a map).
pub fn struct_fields<T: for<'de> Deserialize<'de>>() -> Option<(&'static str, &'static [&'static str])> {
    let mut recorder = FieldRecorder { found: None };
    let _ = T::deserialize(&mut recorder);
    recorder.found
}

/// Every struct of the resolved scenario with named fields: (struct name, field names).
pub fn scenario_structs() -> Vec<(&'static str, &'static [&'static str])> {
    let structs = [
        struct_fields::<Scenario>(),
        struct_fields::<TraceConfig>(),
        struct_fields::<Dumbbell>(),
        struct_fields::<BottleneckConfig>(),
        struct_fields::<NetworkConfig>(),
        struct_fields::<CoreLink>(),
        struct_fields::<FlowGroup>(),
        struct_fields::<TcpConfig>(),
    ];
    let mut structs: Vec<_> = structs.into_iter().flatten().collect();
    structs.extend(registered_kinds().into_iter().map(|kind| (kind.struct_name, kind.fields)));
    structs
}

/// A kind of a registry (`crate::registry`), with the struct its configuration is read into.
#[derive(Clone, Debug, PartialEq)]
pub struct RegisteredKind {
    /// `"queue"` (`QueueConfig`) or `"cc"` (`CcConfig`).
    pub registry: &'static str,
    /// The scenario's `kind`.
    pub kind: &'static str,
    pub struct_name: &'static str,
    pub fields: &'static [&'static str],
}

/// Every kind of the engine's registries, in registry order.
pub fn registered_kinds() -> Vec<RegisteredKind> {
    let mut kinds = KindRecorder { registry: "queue", found: Vec::new() };
    QueueConfig::visit_kinds(&mut kinds);
    kinds.registry = "cc";
    CcConfig::visit_kinds(&mut kinds);
    kinds.found
}

/// Records the kinds of one registry after another.
struct KindRecorder {
    registry: &'static str,
    found: Vec<RegisteredKind>,
}

impl KindVisitor for KindRecorder {
    fn visit<C: for<'de> Deserialize<'de>>(&mut self, kind: &'static str) {
        let (struct_name, fields) = struct_fields::<C>().expect("a kind's configuration is a struct");
        self.found.push(RegisteredKind { registry: self.registry, kind, struct_name, fields });
    }
}

/// A resolved scenario as the engine reads it, serialised back: every field the JSON leaves
/// out is filled with the engine's `#[serde(default)]`. The Python declarations' defaults are
/// tested against these.
pub fn with_engine_defaults(json: &str) -> Result<String> {
    let deserializer = &mut serde_json::Deserializer::from_str(json);
    let scenario: Scenario = serde_path_to_error::deserialize(deserializer)
        .map_err(|e| EngineError::Parse { path: e.path().to_string(), message: e.inner().to_string() })?;
    serde_json::to_string(&scenario)
        .map_err(|e| EngineError::Parse { path: String::new(), message: format!("serialising it back: {e}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_names_serde_derives() {
        let (name, fields) = struct_fields::<crate::queue::codel::CodelConfig>().unwrap();
        assert_eq!(name, "CodelConfig");
        assert_eq!(fields, ["limit", "target_ns", "interval_ns", "ecn", "mtu_bytes"]);
        assert!(struct_fields::<crate::queue::QueueConfig>().is_none(), "a tagged enum is not a struct");
    }

    #[test]
    fn every_listed_struct_is_read() {
        assert_eq!(scenario_structs().len(), 8 + 13 + 12);
        let queues: Vec<_> = registered_kinds().into_iter().filter(|kind| kind.registry == "queue").collect();
        assert_eq!(queues.len(), 13, "one per queue kind");
        assert_eq!(
            (queues[0].kind, queues[0].struct_name, queues[0].fields),
            ("drop_tail", "DropTailConfig", &["limit"][..])
        );
        assert_eq!((queues[12].kind, queues[12].struct_name), ("python", "ExternalQueueConfig"));
        let laws: Vec<_> = registered_kinds().into_iter().filter(|kind| kind.registry == "cc").collect();
        assert_eq!(laws.len(), 12, "one per window law");
        assert_eq!((laws[0].kind, laws[0].struct_name, laws[0].fields), ("reno", "RenoConfig", &[][..]));
        let africa = laws.iter().find(|law| law.kind == "africa_like").unwrap();
        assert_eq!(africa.struct_name, "HighSpeedConfig", "read into HighSpeed's struct");
    }

    #[test]
    fn fills_the_engine_defaults() {
        let json = r#"{"duration_ns": 1000, "measure_start_ns": 0, "topology": {"kind": "dumbbell",
            "bottleneck": {"rate_bps": 1000000, "delay_ns": 1, "queue": {"kind": "drop_tail", "limit": {"packets": 5}},
            "reverse_queue": {"kind": "drop_tail", "limit": {"packets": 5}}}, "groups": []}}"#;
        let filled: serde_json::Value = serde_json::from_str(&with_engine_defaults(json).unwrap()).unwrap();
        assert_eq!(filled["trace"]["flows"], 100);
        assert!(with_engine_defaults("{}").unwrap_err().to_string().contains("duration_ns"));
    }
}
