//! The `illinois_like` kind: seed 000 Table I "TCP Illinois", i(w) = α_max/w per ACK, d(w) =
//! β_min·w per loss (α_max = 10, β_min = 0.125): Illinois at its most aggressive (no queueing
//! delay), built as the general law of `aimd.rs`; the delay-dependent α, β of real
//! TCP-Illinois are not modelled, as in the table.

use serde::{Deserialize, Serialize};

use super::aimd::{Aimd, Law};
use super::{CcInit, CcKind, CongestionControl};
use crate::error::Result;

/// Parameters of the `illinois_like` kind (seed 000 Table I defaults).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IllinoisLikeConfig {
    /// α_max, segments per round trip (seed 000 Table I: 10).
    pub alpha_max: f64,
    /// β_min, fraction removed per loss (seed 000 Table I: 0.125).
    pub beta_min: f64,
}

/// The window law `illinois_like` (registered in `super::CcConfig`).
impl CcKind for IllinoisLikeConfig {
    fn build(&self, init: CcInit, field: &str) -> Result<Box<dyn CongestionControl>> {
        Ok(Box::new(Aimd::new(self.law(field)?, init.initial_window, init.initial_ssthresh)))
    }

    fn growth_bounds(&self, _max_window: f64) -> Vec<(&'static str, f64, f64, f64)> {
        vec![("alpha_max", self.alpha_max, 0.0, 1000.0)]
    }
}

impl Default for IllinoisLikeConfig {
    fn default() -> Self {
        IllinoisLikeConfig { alpha_max: 10.0, beta_min: 0.125 }
    }
}

impl IllinoisLikeConfig {
    /// Seed 000 Table I, TCP Illinois: i(w) = α_max/w, d(w) = β_min w.
    pub fn law(&self, field: &str) -> Result<Law> {
        let check = crate::queue::params::checker(field);
        check(
            self.alpha_max.is_finite() && self.alpha_max > 0.0,
            "alpha_max",
            self.alpha_max,
            "a positive number (seed 000 Table I: 10)",
        )?;
        check(
            self.beta_min > 0.0 && self.beta_min < 1.0,
            "beta_min",
            self.beta_min,
            "a fraction in (0, 1) (seed 000 Table I: 0.125)",
        )?;
        Ok(Law::Power { a: self.alpha_max, n: -1.0, b: self.beta_min, m: 1.0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::cc::test_events::{ack, congestion};

    #[test]
    fn follows_table_i() {
        let mut cc = Aimd::new(IllinoisLikeConfig::default().law("cc").unwrap(), 100.0, 100.0);
        cc.on_ack(&ack(1));
        assert!((cc.window() - 100.1).abs() < 1e-12, "α_max/w = 10/100");
        cc.on_loss(&congestion(100));
        assert!((cc.window() - 87.5).abs() < 1e-12, "β_min w = 0.125 · 100");
    }

    #[test]
    fn invalid_parameters_name_the_field() {
        let err = IllinoisLikeConfig { beta_min: 2.0, ..IllinoisLikeConfig::default() }.law("g.cc").err().unwrap();
        assert!(err.to_string().contains("g.cc.beta_min"), "{err}");
    }
}
