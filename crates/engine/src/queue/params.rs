//! The bounds check every policy (and window law) applies to its parameters: one error
//! shape, naming the field, the value and what is allowed.

use crate::error::{EngineError, Result};

/// A check for the parameters of the configuration `field` (e.g. `bottleneck.queue`):
/// `check(ok, name, value, allowed)` is `Ok` when `ok`, else an error naming `{field}.{name}`.
pub fn checker(field: &str) -> impl Fn(bool, &str, f64, &str) -> Result<()> + '_ {
    move |ok, name, value, allowed| {
        if ok {
            Ok(())
        } else {
            Err(EngineError::invalid(format!("{field}.{name}"), value, allowed))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_field_value_and_bound() {
        let check = checker("bottleneck.queue");
        assert!(check(true, "max_p", 0.1, "a probability").is_ok());
        let err = check(false, "max_p", 1.5, "a probability in (0, 1]").unwrap_err().to_string();
        assert!(err.contains("bottleneck.queue.max_p") && err.contains("1.5") && err.contains("(0, 1]"), "{err}");
    }
}
