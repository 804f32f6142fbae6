//! The Compare page's decisions: what each side offers and says.

pub mod case;
pub mod side;
