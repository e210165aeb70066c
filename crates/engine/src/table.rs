//! Columnar result tables (the link and flow traces and records of `trace.rs`, the packet
//! trace of `packet_trace.rs`): each column declared once, with [`table!`], and handed over by
//! name through `columns()` (to the Python binding, to the golden dump of `examples/`).

/// A column of a result table, borrowed: what the binding hands to Python and the golden dump
/// writes, whatever the table.
pub enum Column<'a> {
    F64(&'a [f64]),
    U64(&'a [u64]),
    U32(&'a [u32]),
    U8(&'a [u8]),
    Bool(&'a [bool]),
    Text(Vec<&'a str>),
}

/// The element types of result columns.
pub trait ColumnElement: Sized {
    fn column(values: &[Self]) -> Column<'_>;
}

macro_rules! numeric_element {
    ($($type:ty => $variant:ident),*) => {$(
        impl ColumnElement for $type {
            fn column(values: &[Self]) -> Column<'_> {
                Column::$variant(values)
            }
        }
    )*};
}
numeric_element!(f64 => F64, u64 => U64, u32 => U32, u8 => U8, bool => Bool);

impl ColumnElement for String {
    fn column(values: &[Self]) -> Column<'_> {
        Column::Text(values.iter().map(String::as_str).collect())
    }
}

impl ColumnElement for &'static str {
    fn column(values: &[Self]) -> Column<'_> {
        Column::Text(values.to_vec())
    }
}

/// Rows reserved up front at most (larger traces grow as needed).
pub(crate) const MAX_RESERVED_ROWS: usize = 1 << 24;

/// A columnar table, each column declared once as `name: element type`: the struct of
/// `Vec` columns, `with_capacity` and `columns()` (every column by name, in declaration order).
macro_rules! table {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$doc:meta])* $column:ident: $element:ty,)* }) => {
        $(#[$meta])*
        #[derive(Default, Debug, Clone, PartialEq)]
        pub struct $name {
            $($(#[$doc])* pub $column: Vec<$element>,)*
        }

        impl $name {
            /// Room for `rows` rows, so the columns never reallocate (and never double in size).
            pub fn with_capacity(rows: usize) -> Self {
                let rows = rows.min($crate::table::MAX_RESERVED_ROWS);
                $name { $($column: Vec::with_capacity(rows),)* }
            }

            /// Every column by name, in declaration order.
            pub fn columns(&self) -> Vec<(&'static str, $crate::table::Column<'_>)> {
                vec![$((stringify!($column), $crate::table::ColumnElement::column(&self.$column)),)*]
            }
        }
    };
}
pub(crate) use table;
