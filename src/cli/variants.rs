//! `bank variants`: the rule sets, as scripts and people choose among them.

use crate::grid::{Geometry, Variant};

/// Prints one line per variant: its name, the sides it is made in, and the rule a printed
/// page states for it on 9×9 (or its first side), tab-separated.
pub fn run() {
    for v in Variant::ALL {
        let rules = v.rules();
        let sizes: Vec<String> = rules.sizes.iter().map(usize::to_string).collect();
        let side = if rules.made_in(9) { 9 } else { rules.sizes[0] };
        let first = Geometry::for_size(side).expect("a rule set is made in a supported size");
        println!(
            "{}\t{}\t{}",
            rules.name,
            sizes.join(","),
            first.with_variant(v).rules_line()
        );
    }
}
