//! The `africa_like` kind: seed 000 Table I "AFRICA TCP", i(w) = a(w)/w per ACK, d(w) =
//! w·b(w) per loss with HighSpeed TCP's a(w), b(w) (RFC 3649 Section 5), built as the general
//! law of `aimd.rs` (`Law::africa_like`, which says how Table I's printed a(w) relates to the
//! RFC's): AFRICA's fast mode; its switch to Reno growth on delay is not modelled, as in the
//! table.

use serde::{Deserialize, Serialize};

use super::aimd::{Aimd, Law};
use super::highspeed::HighSpeedConfig;
use super::{CcInit, CcKind, CongestionControl};
use crate::error::Result;

/// Parameters of the `africa_like` kind: HighSpeed TCP's (the same fields and defaults).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct AfricaLikeConfig(pub HighSpeedConfig);

/// The window law `africa_like` (registered in `super::CcConfig`).
impl CcKind for AfricaLikeConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Aimd::new(Law::africa_like(&self.0, field)?, init.initial_window, init.initial_ssthresh)))
    }

    fn growth_bounds(&self, max_window: f64) -> Vec<(&'static str, f64, f64, f64)> {
        self.0.growth_bounds(max_window)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::CcConfig;

    #[test]
    fn reads_and_writes_highspeeds_fields_beside_its_kind() {
        let json = r#"{"kind":"africa_like","low_window":30.0}"#;
        let config: CcConfig = serde_json::from_str(json).unwrap();
        let expected = AfricaLikeConfig(HighSpeedConfig { low_window: 30.0, ..HighSpeedConfig::default() });
        assert_eq!(config, CcConfig::AfricaLike(expected));
        let written: serde_json::Value = serde_json::to_value(&config).unwrap();
        assert_eq!((written["kind"].as_str(), written["low_window"].as_f64()), (Some("africa_like"), Some(30.0)));
        assert!(serde_json::from_str::<CcConfig>(r#"{"kind":"africa_like","lowwindow":30}"#).is_err());
    }
}
