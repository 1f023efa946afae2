//! A row whatever the backend: the [`Value`]s a statement binds, a result row read by
//! column index ([`ReadRow`]), and records kept field after field in consecutive
//! columns: [`Column`] says how one field type reads back and what it binds, and
//! [`stored_row!`] declares a struct whose fields are all columns, with its reader and
//! its values from the one field list, so a row type's columns are written down once.

use crate::grid::Variant;
use anyhow::{anyhow, Result};
use std::str::FromStr;

/// A value to bind, typed the way both backends store it (integers as 64-bit).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(Option<i64>),
    Real(Option<f64>),
    Bool(Option<bool>),
    Text(Option<String>),
}

impl Value {
    /// The integer, `None` for NULL or another type.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(v) => *v,
            _ => None,
        }
    }

    /// The real, `None` for NULL or another type.
    pub fn as_real(&self) -> Option<f64> {
        match self {
            Value::Real(v) => *v,
            _ => None,
        }
    }

    /// The boolean, `None` for NULL or another type.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(v) => *v,
            _ => None,
        }
    }

    /// The text, `None` for NULL or another type.
    pub fn as_text(&self) -> Option<String> {
        match self {
            Value::Text(v) => v.clone(),
            _ => None,
        }
    }
}

/// An integer value (NULL when it does not fit an `i64`).
pub(crate) fn int(n: impl TryInto<i64>) -> Value {
    Value::Int(n.try_into().ok())
}

/// [`ReadRow`] for a driver's row type `$row`, whose method `$get(i)` reads column `i` into
/// any of the four value types (rusqlite's `get`, postgres's `try_get`): both backends'
/// rows read alike.
macro_rules! read_row_by {
    ($row:ty, $get:ident) => {
        impl $crate::bank::row::ReadRow for $row {
            fn int(&self, i: usize) -> anyhow::Result<Option<i64>> {
                Ok(self.$get(i)?)
            }
            fn real(&self, i: usize) -> anyhow::Result<Option<f64>> {
                Ok(self.$get(i)?)
            }
            fn boolean(&self, i: usize) -> anyhow::Result<Option<bool>> {
                Ok(self.$get(i)?)
            }
            fn text(&self, i: usize) -> anyhow::Result<Option<String>> {
                Ok(self.$get(i)?)
            }
        }
    };
}
pub(super) use read_row_by;

/// A result row, by column index, whatever the backend.
pub trait ReadRow {
    fn int(&self, i: usize) -> Result<Option<i64>>;
    fn real(&self, i: usize) -> Result<Option<f64>>;
    fn boolean(&self, i: usize) -> Result<Option<bool>>;
    fn text(&self, i: usize) -> Result<Option<String>>;

    /// A column that must not be NULL, converted to `T`.
    fn number<T: TryFrom<i64>>(&self, i: usize) -> Result<T> {
        let n = self.int(i)?.ok_or_else(|| anyhow!("column {i} is NULL"))?;
        T::try_from(n).map_err(|_| anyhow!("column {i}: {n} is out of range"))
    }

    /// A nullable integer column converted to `T`.
    fn opt_number<T: TryFrom<i64>>(&self, i: usize) -> Result<Option<T>> {
        self.int(i)?
            .map(|n| T::try_from(n).map_err(|_| anyhow!("column {i}: {n} is out of range")))
            .transpose()
    }

    /// A text column that must not be NULL.
    fn string(&self, i: usize) -> Result<String> {
        self.text(i)?.ok_or_else(|| anyhow!("column {i} is NULL"))
    }

    /// A nullable text column parsed into its type (seeds, routes, strategies).
    fn parsed<T: FromStr>(&self, i: usize) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        self.text(i)?
            .map(|t| {
                t.parse()
                    .map_err(|e: T::Err| anyhow!("column {i}: '{t}': {e}"))
            })
            .transpose()
    }
}

/// A field type stored in [`Column::WIDTH`] consecutive columns.
pub trait Column: Sized {
    /// How many columns it takes.
    const WIDTH: usize = 1;

    /// Reads it from the row's columns `first..first + WIDTH`.
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self>;

    /// Appends its `WIDTH` values.
    fn push_values(&self, out: &mut Vec<Value>);
}

/// Integers (NOT NULL) and nullable integers, stored as 64-bit.
macro_rules! integer_columns {
    ($($t:ty),*) => {$(
        impl Column for $t {
            fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
                r.number(first)
            }
            fn push_values(&self, out: &mut Vec<Value>) {
                out.push(int(*self));
            }
        }

        impl Column for Option<$t> {
            fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
                r.opt_number(first)
            }
            fn push_values(&self, out: &mut Vec<Value>) {
                out.push(Value::Int(self.and_then(|n| n.try_into().ok())));
            }
        }
    )*};
}
integer_columns!(i64, u32, u64, usize);

impl Column for String {
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
        r.string(first)
    }
    fn push_values(&self, out: &mut Vec<Value>) {
        out.push(Value::Text(Some(self.clone())));
    }
}

impl Column for Option<String> {
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
        r.text(first)
    }
    fn push_values(&self, out: &mut Vec<Value>) {
        out.push(Value::Text(self.clone()));
    }
}

/// By its name.
impl Column for Variant {
    fn read_at(r: &impl ReadRow, first: usize) -> Result<Self> {
        Ok(r.string(first)?.parse()?)
    }
    fn push_values(&self, out: &mut Vec<Value>) {
        out.push(Value::Text(Some(self.name().to_string())));
    }
}

/// Declares a struct (attributes and doc comments as written) whose fields are
/// [`Column`]s in declaration order, with [`Column`] for it (so a row can hold another
/// row's columns), `read` from a row's first column and `values` for all of them.
macro_rules! stored_row {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $($(#[$field_meta:meta])* $field_vis:vis $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $($(#[$field_meta])* $field_vis $field: $ty,)*
        }

        impl $crate::bank::row::Column for $name {
            const WIDTH: usize = 0 $(+ <$ty as $crate::bank::row::Column>::WIDTH)*;

            fn read_at(
                r: &impl $crate::bank::row::ReadRow,
                first: usize,
            ) -> anyhow::Result<Self> {
                let mut next = first;
                let mut take = |width: usize| {
                    next += width;
                    next - width
                };
                Ok($name {
                    $($field: <$ty as $crate::bank::row::Column>::read_at(
                        r,
                        take(<$ty as $crate::bank::row::Column>::WIDTH),
                    )?,)*
                })
            }

            fn push_values(&self, out: &mut Vec<$crate::bank::row::Value>) {
                $($crate::bank::row::Column::push_values(&self.$field, out);)*
            }
        }

        impl $name {
            /// A row holding its columns from the first on.
            pub fn read(r: &impl $crate::bank::row::ReadRow) -> anyhow::Result<Self> {
                <Self as $crate::bank::row::Column>::read_at(r, 0)
            }

            /// Its values, in column order.
            pub fn values(&self) -> Vec<$crate::bank::row::Value> {
                let mut out = Vec::with_capacity(<Self as $crate::bank::row::Column>::WIDTH);
                $crate::bank::row::Column::push_values(self, &mut out);
                out
            }
        }
    };
}
pub(crate) use stored_row;

#[cfg(test)]
mod tests {
    use super::*;

    stored_row! {
        /// Two columns, one nullable.
        #[derive(Debug, PartialEq)]
        struct Pair {
            a: u32,
            b: Option<String>,
        }
    }

    stored_row! {
        /// A row holding another's columns in the middle.
        #[derive(Debug, PartialEq)]
        struct Outer {
            id: i64,
            pair: Pair,
            variant: Variant,
        }
    }

    /// Values as a row reads them back.
    struct Values(Vec<Value>);

    impl ReadRow for Values {
        fn int(&self, i: usize) -> Result<Option<i64>> {
            Ok(self.0[i].as_int())
        }
        fn real(&self, i: usize) -> Result<Option<f64>> {
            Ok(self.0[i].as_real())
        }
        fn boolean(&self, i: usize) -> Result<Option<bool>> {
            Ok(self.0[i].as_bool())
        }
        fn text(&self, i: usize) -> Result<Option<String>> {
            Ok(self.0[i].as_text())
        }
    }

    #[test]
    fn a_row_reads_back_what_it_binds_with_nested_rows_in_place() {
        let outer = Outer {
            id: 7,
            pair: Pair { a: 3, b: None },
            variant: Variant::Classic,
        };
        assert_eq!(Outer::WIDTH, 4);
        let values = outer.values();
        assert_eq!(
            values,
            vec![
                Value::Int(Some(7)),
                Value::Int(Some(3)),
                Value::Text(None),
                Value::Text(Some("classic".into())),
            ]
        );
        assert_eq!(Outer::read(&Values(values)).unwrap(), outer);
    }

    #[test]
    fn a_null_in_a_column_that_needs_a_value_is_an_error() {
        let pair = Pair {
            a: 1,
            b: Some("x".into()),
        };
        assert_eq!(Pair::read(&Values(pair.values())).unwrap(), pair);
        let row = Values(vec![Value::Int(None), Value::Text(None)]);
        assert!(Pair::read(&row).is_err());
    }
}
