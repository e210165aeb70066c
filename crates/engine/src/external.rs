//! Components implemented outside the engine, e.g. a Python class (docs/extending.md): one
//! registry type for every kind of component, parameterised by the trait object it builds.
//!
//! The engine stays pure Rust: a scenario names the implementation by reference
//! (`"module:Class"` or `"path/file.py:Class"`) with its parameters as JSON (`kind =
//! "python"`), and the program embedding the engine installs one [`ExternalFactory`] per kind
//! that turns such a configuration into the component (the Python binding,
//! `crates/py/src/hooks/`, builds objects that call the class). Each kind registers itself
//! with one line, [`external_kind!`]: queue policies in `queue/external.rs`, window laws in
//! `tcp/cc/external.rs` (as pydantic-core and polars keep one registration path for every kind
//! of plug-in).

use std::sync::OnceLock;

use crate::error::{EngineError, Result};

/// A kind of component that may be implemented outside the engine, declared on its trait
/// object (`dyn QueuePolicy`, `dyn CongestionControl`).
pub trait ExternalKind: 'static {
    /// The scenario's description of an external implementation of this kind.
    type Config;
    /// What the engine hands the implementation at construction.
    type Context;
    /// What to use instead when no factory is installed, for the error message.
    const BUILT_IN: &'static str;
}

/// Builds external components of kind `T`.
pub trait ExternalFactory<T: ExternalKind + ?Sized>: Send + Sync {
    /// The component of `config`; `field` names the configuration in errors.
    fn build(&self, config: &T::Config, context: T::Context, field: &str) -> Result<Box<T>>;
}

/// The process's factory for components of kind `T` (installed once).
pub struct ExternalRegistry<T: ExternalKind + ?Sized> {
    factory: OnceLock<Box<dyn ExternalFactory<T>>>,
}

impl<T: ExternalKind + ?Sized> ExternalRegistry<T> {
    pub const fn new() -> Self {
        ExternalRegistry { factory: OnceLock::new() }
    }

    /// Install the process's factory (once; later calls return false and change nothing).
    pub fn install(&self, factory: Box<dyn ExternalFactory<T>>) -> bool {
        self.factory.set(factory).is_ok()
    }

    /// The registry's entry for `kind = "python"`.
    pub fn build(&self, config: &T::Config, context: T::Context, field: &str) -> Result<Box<T>> {
        match self.factory.get() {
            Some(factory) => factory.build(config, context, field),
            None => Err(EngineError::invalid(
                format!("{field}.kind"),
                "python",
                format!("{}: this program runs the engine without the Python binding (aqmlab._engine)", T::BUILT_IN),
            )),
        }
    }
}

impl<T: ExternalKind + ?Sized> Default for ExternalRegistry<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// Register `dyn $component` as a kind of external component, described in the scenario by
/// `$config` and built with `$context`, with its registry `$registry`; `$built_in` says what to
/// use instead where no factory is installed.
macro_rules! external_kind {
    ($registry:ident: dyn $component:ident($config:ty, $context:ty), instead $built_in:literal) => {
        impl $crate::external::ExternalKind for dyn $component {
            type Config = $config;
            type Context = $context;
            const BUILT_IN: &'static str = $built_in;
        }

        #[doc = concat!("The factory of external `", stringify!($component), "`s (the registry's `kind = \"python\"`).")]
        pub static $registry: $crate::external::ExternalRegistry<dyn $component> =
            $crate::external::ExternalRegistry::new();
    };
}
pub(crate) use external_kind;

#[cfg(test)]
mod tests {
    use super::*;

    pub trait Shape {
        fn sides(&self) -> u32;
    }

    external_kind!(SHAPES: dyn Shape(String, u32), instead "a built-in shape");

    struct Polygon(u32);

    impl Shape for Polygon {
        fn sides(&self) -> u32 {
            self.0
        }
    }

    struct Polygons;

    impl ExternalFactory<dyn Shape> for Polygons {
        fn build(&self, config: &String, sides: u32, field: &str) -> Result<Box<dyn Shape>> {
            match config.as_str() {
                "polygon" => Ok(Box::new(Polygon(sides))),
                other => Err(EngineError::invalid(format!("{field}.name"), other, "polygon")),
            }
        }
    }

    #[test]
    fn builds_through_the_installed_factory_only() {
        let registry = &SHAPES;
        let missing = registry.build(&"polygon".to_string(), 3, "shapes[0]").err().unwrap().to_string();
        assert!(missing.contains("shapes[0].kind") && missing.contains("a built-in shape"), "{missing}");
        assert!(registry.install(Box::new(Polygons)));
        assert!(!registry.install(Box::new(Polygons)), "installed once");
        assert_eq!(registry.build(&"polygon".to_string(), 5, "shapes[0]").unwrap().sides(), 5);
        let wrong = registry.build(&"circle".to_string(), 0, "shapes[1]").err().unwrap().to_string();
        assert!(wrong.contains("shapes[1].name"), "{wrong}");
    }
}
