//! The registries of kinds: a scenario's queue policies (`queue::QueueConfig`) and window laws
//! (`tcp::cc::CcConfig`) are each one enum tagged by `kind`, written by [`kind_registry!`] from
//! one line a kind. Each kind declares itself in its own file: its configuration struct
//! implements the registry's trait (`queue::QueueKind`, `tcp::cc::CcKind`), which builds it.

use serde::Deserialize;

/// Something done for the configuration type of every kind of a registry (`crate::fields`
/// reads their field names).
pub trait KindVisitor {
    /// Called once per kind, in registry order, with its name (the scenario's `kind`).
    fn visit<C: for<'de> Deserialize<'de>>(&mut self, kind: &'static str);
}

/// A registry of kinds: `Variant("kind", module::Config),` one line a kind. Declares each
/// kind's module (`pub mod module;`, the kind's file), the enum with one variant a kind (read
/// from `{"kind": "kind", ...the fields of Config}`, unknown fields refused), and on the enum
/// `kind_name()`, `kind()` (the configuration as the registry's trait object, which builds
/// it) and `visit_kinds()`.
macro_rules! kind_registry {
    (
        $(#[$enum_doc:meta])*
        pub enum $registry:ident: dyn $kind_trait:ident {
            $($(#[$doc:meta])* $variant:ident($kind:literal, $module:ident::$config:ident),)+
        }
    ) => {
        $(pub mod $module;)+

        $(#[$enum_doc])*
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(tag = "kind", deny_unknown_fields)]
        pub enum $registry {
            $($(#[$doc])* #[serde(rename = $kind)] $variant($module::$config),)+
        }

        impl $registry {
            /// The kind's name: the scenario's `kind`.
            pub fn kind_name(&self) -> &'static str {
                match self {
                    $($registry::$variant(_) => $kind,)+
                }
            }

            /// The configuration, as its kind declares itself.
            pub fn kind(&self) -> &dyn $kind_trait {
                match self {
                    $($registry::$variant(config) => config,)+
                }
            }

            /// Visit every kind's name and configuration type, in registry order.
            pub fn visit_kinds(visitor: &mut impl $crate::registry::KindVisitor) {
                $(visitor.visit::<$module::$config>($kind);)+
            }
        }
    };
}
pub(crate) use kind_registry;
