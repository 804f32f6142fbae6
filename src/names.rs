//! Unit enums written as their names (`"derive"`, `"missing_premise"`): one place for the
//! `Serialize`/`Deserialize` that reads a name back to its variant and says "one of …" when it
//! is not one; and [`named_enum!`], which declares such an enum with its names once.

use std::fmt;

use serde::de::{self, Visitor};
use serde::Deserializer;

/// Reads a unit enum written as its name: the value of `all` whose `name` it is.
///
/// `Serialize`/`Deserialize` for an enum with `ALL` and `as_str`: written as its name, read by
/// `deserialize_name`.
macro_rules! serde_by_name {
    ($enum:ty) => {
        impl serde::Serialize for $enum {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $enum {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::names::deserialize_name(deserializer, &<$enum>::ALL, <$enum>::as_str)
            }
        }
    };
}
pub(crate) use serde_by_name;

/// The log's enums are written and read by hand with this rather than derived: a derived
/// `Deserialize` carries a visitor per enum and per deserializer, and accepts forms (variant
/// indexes, `{"derive": null}`) that no log contains.
pub(crate) fn deserialize_name<'de, D: Deserializer<'de>, T: Copy>(
    deserializer: D,
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> Result<T, D::Error> {
    deserializer.deserialize_str(NameVisitor { all, name })
}

struct NameVisitor<T: 'static> {
    all: &'static [T],
    name: fn(T) -> &'static str,
}

impl<T: Copy> Visitor<'_> for NameVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let names: Vec<&str> = self.all.iter().map(|v| (self.name)(*v)).collect();
        write!(f, "one of {}", names.join(", "))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<T, E> {
        match self.all.iter().find(|v| (self.name)(**v) == text) {
            Some(value) => Ok(*value),
            None => Err(E::invalid_value(de::Unexpected::Str(text), &self)),
        }
    }
}

/// Counts the tokens it is given (the length of an enum's `ALL`).
macro_rules! count {
    () => { 0usize };
    ($head:tt $($tail:tt)*) => { 1usize + $crate::names::count!($($tail)*) };
}
pub(crate) use count;

/// A unit enum declared once with its names: the enum (`Clone`, `Copy`, `Debug`, `PartialEq`,
/// `Eq`, `Hash`), `ALL` in declaration order (pickers list it), `as_str`, `from_name`, `FromStr`
/// with [`UnknownName`] ("`x` is not one of a, b, c"), [`NamedEnum`] and serde by name. Extra derives and
/// attributes (`#[derive(Default)]`, `#[default]`, docs) pass through.
///
/// ```ignore
/// crate::names::named_enum! {
///     /// How the endpoint is asked for JSON output.
///     #[derive(Default)]
///     pub enum JsonMode { #[default] None = "none", JsonObject = "json_object" }
/// }
/// ```
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        $vis enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: [$name; $crate::names::count!($($variant)+)] = [$($name::$variant),+];

            /// Its name in files, logs, URLs and pickers.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( $name::$variant => $text ),+
                }
            }

            /// The value named `name`, if one is (exact spelling).
            pub fn from_name(name: &str) -> Option<$name> {
                $name::ALL.into_iter().find(|v| v.as_str() == name)
            }
        }

        impl std::str::FromStr for $name {
            type Err = $crate::names::UnknownName;

            fn from_str(name: &str) -> Result<$name, $crate::names::UnknownName> {
                $name::from_name(name)
                    .ok_or_else(|| $crate::names::UnknownName::new(name, &$name::ALL.map($name::as_str)))
            }
        }

        impl $crate::names::NamedEnum for $name {
            fn all() -> &'static [$name] {
                &$name::ALL
            }

            fn name(self) -> &'static str {
                self.as_str()
            }
        }

        $crate::names::serde_by_name!($name);
    };
}
pub(crate) use named_enum;

/// What [`named_enum!`] gives every enum it declares, for a reader generic over them (one
/// reading and one error message for every vocabulary, not a table of names per type).
pub trait NamedEnum: Copy + 'static {
    /// Every value, in declaration order.
    fn all() -> &'static [Self];
    /// Its name (`as_str`).
    fn name(self) -> &'static str;
}

/// A name that is none of an enum's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{found}` is not one of {expected}")]
pub struct UnknownName {
    pub found: String,
    /// The names it could have been, `a, b, c`.
    pub expected: String,
}

impl UnknownName {
    pub fn new(found: &str, names: &[&str]) -> UnknownName {
        UnknownName {
            found: found.to_string(),
            expected: names.join(", "),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    named_enum! {
        /// A test enum.
        #[derive(Default)]
        enum Mode {
            #[default]
            Off = "off",
            /// The fast one.
            Fast = "fast_mode",
        }
    }

    #[test]
    fn names_round_trip_and_unknown_names_say_the_choices() {
        assert_eq!(Mode::ALL, [Mode::Off, Mode::Fast]);
        assert_eq!(Mode::default(), Mode::Off);
        for m in Mode::ALL {
            assert_eq!(Mode::from_str(m.as_str()), Ok(m));
            let json = serde_json::to_string(&m).unwrap();
            assert_eq!(json, format!("\"{}\"", m.as_str()));
            assert_eq!(serde_json::from_str::<Mode>(&json).unwrap(), m);
        }
        let e = Mode::from_str("FAST_MODE").unwrap_err();
        assert_eq!(e.to_string(), "`FAST_MODE` is not one of off, fast_mode");
        let e = serde_json::from_str::<Mode>("\"slow\"")
            .unwrap_err()
            .to_string();
        assert!(e.contains("one of off, fast_mode"), "{e}");
    }
}
