//! Enums of named values — policies, allocations, sources, readings — whose every value
//! has a label: the one the charts, the page's forms, the tables and the CLI's help use.

/// An enum written with each variant's label beside it: `Variant => "label"`. Gives the
/// enum as declared (its attributes and docs kept), `ALL` (every value, in the
/// declaration's order) and `label()`, so that a new value cannot be left out of either.
macro_rules! labelled {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident => $label:expr),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        pub enum $name {
            $($(#[$variant_meta])* $variant),+
        }

        impl $name {
            /// Every value, in the declaration's order.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];

            /// The value's name on charts, forms, tables and the CLI's help.
            pub fn label(self) -> &'static str {
                match self {
                    $($name::$variant => $label),+
                }
            }
        }

        /// A named value holds no number for a range to check.
        impl $crate::core::field::Numbers for $name {
            fn numbers(&self) -> Vec<f64> {
                Vec::new()
            }
        }
    };
}
pub(crate) use labelled;

#[cfg(test)]
mod tests {
    labelled! {
        /// Attributes and docs pass through, the variants' too.
        #[derive(Clone, Copy, Debug, Default, PartialEq)]
        pub enum Speed {
            Slow => "slow",
            /// The default.
            #[default]
            Steady => "steady",
            Fast => concat!("fa", "st"),
        }
    }

    #[test]
    fn every_value_in_order_with_its_label() {
        assert_eq!(Speed::ALL, [Speed::Slow, Speed::Steady, Speed::Fast]);
        assert_eq!(Speed::ALL.map(Speed::label), ["slow", "steady", "fast"]);
        assert_eq!(Speed::default(), Speed::Steady);
    }
}
