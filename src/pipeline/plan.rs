//! What a fill is asked to make: per size and tier, how many, resolved against the
//! settings before anything runs.

use crate::bank::quota::StockCaps;
use crate::config::{Settings, Tier};
use crate::generate::{Route, Strategy};
use crate::grid::Geometry;
use crate::rng::Weighted;
use anyhow::Result;
use std::time::Duration;

/// How many puzzles of one size and tier to add.
#[derive(Clone, Debug)]
pub struct PlanItem {
    /// Grid geometry.
    pub geometry: Geometry,
    /// The tier.
    pub tier: Tier,
    /// Puzzles to add.
    pub count: u64,
    /// The digging strategies that fit the geometry, by weight.
    pub strategies: Weighted<Strategy>,
    /// The solution-grid routes that can make the geometry's grids, by weight.
    pub routes: Weighted<Route>,
}

impl PlanItem {
    /// `count` puzzles of `tier` on `geometry`; an error when no configured strategy can
    /// dig that geometry.
    pub fn new(settings: &Settings, geometry: Geometry, tier: &Tier, count: u64) -> Result<Self> {
        settings.generation.check_dedup(geometry)?;
        crate::config::check_variant_size(geometry)?;
        Ok(PlanItem {
            geometry,
            tier: tier.clone(),
            count,
            strategies: settings.generation.strategies_for(geometry)?,
            routes: settings.generation.routes_for(geometry)?,
        })
    }
}

/// What to fill.
#[derive(Clone, Debug)]
pub struct FillRequest {
    /// What to add, filled in this order.
    pub plan: Vec<PlanItem>,
    /// Run seed.
    pub run_seed: u64,
    /// Stop cleanly (status interrupted) once this much time has passed.
    pub max_duration: Option<Duration>,
    /// Whether a tier that its size never rates into is skipped (its share going to the
    /// size's other tiers) rather than failing the run: `fill --count` over every tier.
    pub skip_unreachable: bool,
    /// A quota run's quotas: unserved puzzles wanted per size and tier, which the bank
    /// never lets any writer pass (empty: `fill --count`, no quota).
    pub caps: StockCaps,
}

impl FillRequest {
    /// `count` puzzles of `geometry` split evenly over `tiers`, the first taking the remainder.
    pub fn split(
        settings: &Settings,
        count: u64,
        tiers: &[Tier],
        geometry: Geometry,
        run_seed: u64,
    ) -> Result<FillRequest> {
        let n = tiers.len() as u64;
        let plan = tiers
            .iter()
            .enumerate()
            .map(|(i, tier)| {
                let share = count / n + u64::from((i as u64) < count % n);
                PlanItem::new(settings, geometry, tier, share)
            })
            .collect::<Result<_>>()?;
        Ok(FillRequest {
            plan,
            run_seed,
            max_duration: None,
            skip_unreachable: tiers.len() > 1,
            caps: StockCaps::new(),
        })
    }

    /// The configured quotas that `keep` selects, in full (before what the bank holds).
    pub fn quotas(
        settings: &Settings,
        run_seed: u64,
        keep: impl Fn(Geometry, &Tier) -> bool,
    ) -> Result<FillRequest> {
        let quotas: Vec<_> = settings
            .quotas()
            .iter()
            .filter(|q| keep(q.geometry, &q.tier))
            .collect();
        let plan = quotas
            .iter()
            .map(|q| PlanItem::new(settings, q.geometry, &q.tier, q.count))
            .collect::<Result<_>>()?;
        Ok(FillRequest {
            plan,
            run_seed,
            max_duration: None,
            skip_unreachable: false,
            caps: quotas
                .iter()
                .map(|q| {
                    (
                        (q.geometry.n(), q.geometry.variant(), q.tier.name.clone()),
                        q.count,
                    )
                })
                .collect(),
        })
    }

    /// Puzzles wanted in all.
    pub fn total(&self) -> u64 {
        self.plan.iter().map(|p| p.count).sum()
    }
}
