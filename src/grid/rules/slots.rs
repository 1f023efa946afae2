//! One cached value per geometry (side × rule set): layouts, band tables, dig orbits and
//! line groups are built once per process, on first use.

use super::Variant;
use crate::grid::{Geometry, SUPPORTED_SIZES};
use std::sync::OnceLock;

/// How many geometries there are: every supported size under every variant.
pub const GEOMETRY_SLOTS: usize = SUPPORTED_SIZES.len() * Variant::ALL.len();

/// One value per supported geometry (size and variant), built on first use.
pub type PerGeometry<T> = [OnceLock<T>; GEOMETRY_SLOTS];

/// The value of `slots` for geometry `g`, built by `build` the first time it is asked for.
pub fn per_geometry<T>(
    slots: &'static PerGeometry<T>,
    g: Geometry,
    build: impl FnOnce(Geometry) -> T,
) -> &'static T {
    let index = SUPPORTED_SIZES
        .iter()
        .position(|&n| n == g.n())
        .expect("supported geometry");
    slots[index * Variant::ALL.len() + g.variant().index()].get_or_init(|| build(g))
}
