//! Deploying a site from a deck or pile to a planet (AR Deploying Locations While There
//! Are Special Conditions; Generic Sites; Unique, Restricted & Non-Unique): the action
//! is performed only if the end result obeys every rule and condition. The player
//! `choose`s the card and, with `to:`, the planet system it deploys to (`generic`: only
//! ♦ sites). A pair (site,
//! planet) is valid when the site may go to that planet (its own sites, or a generic ♦
//! site, within its ♦ limit there), when — if the text asks for a battleground — the
//! site would be a battleground once deployed there, and — "not already on table" —
//! when no copy of it is on table there (deploying onto the opponent's copy would
//! convert it: an attempt to deploy a location already on table).

use serde::Deserialize;

use super::activation::LocFilter;
use super::effects::Applied;
use super::engine::{Engine, actor, rej};
use super::model::{Filter, LocKind, LocationDef, PileName, Side, Verb};
use super::rules as r;
use super::state::{CardIx, Location, Zone};
use crate::engine::Event;

/// `deploy_site: {from, filter, to, battleground, not_on_table, reshuffle}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SiteDeploy {
    pub from: PileName,
    #[serde(default)]
    pub filter: Filter,
    /// The planet systems it may deploy to (default: any planet system on table).
    #[serde(default)]
    pub to: Option<LocFilter>,
    /// "a ♦ site": a generic site (one with a ♦ in its title).
    #[serde(default)]
    pub generic: bool,
    /// "a battleground site": it must be a battleground once deployed.
    #[serde(default)]
    pub battleground: bool,
    /// "not already on table".
    #[serde(default)]
    pub not_on_table: bool,
    #[serde(default)]
    pub reshuffle: bool,
}

impl Engine {
    /// The planet systems on table (not mobile) that `spec` allows.
    fn site_planets(&self, me: Side, spec: &SiteDeploy) -> Vec<usize> {
        (0..self.st.locations.len())
            .filter(|&l| {
                let g = &self.st.locations[l].geo;
                g.kind == Some(LocKind::System)
                    && !g.mobile
                    && spec
                        .to
                        .as_ref()
                        .is_none_or(|f| self.loc_matches(l, f, me, true))
            })
            .collect()
    }

    /// The title a site takes at planet `sys`: a generic site takes the planet's name.
    fn site_title(&self, c: CardIx, sys: usize) -> String {
        let d = self.st.def(c);
        if d.diamonds > 0 {
            format!("{}: {}", self.st.locations[sys].title, d.title)
        } else {
            d.title.clone()
        }
    }

    /// The locations at planet `sys` with the title `c` would have there.
    fn copies_at(&self, c: CardIx, sys: usize) -> Vec<usize> {
        let (name, title) = (&self.st.locations[sys].name, self.site_title(c, sys));
        let plain = &self.st.def(c).title;
        (0..self.st.locations.len())
            .filter(|&l| {
                let lo = &self.st.locations[l];
                lo.geo.system.as_deref() == Some(name.as_str())
                    && (lo.title == title || lo.title == *plain)
            })
            .collect()
    }

    /// The location `c` would be at planet `sys`.
    fn site_location(&self, me: Side, c: CardIx, sys: usize) -> Location {
        let title = self.site_title(c, sys);
        let json = serde_json::json!({
            "name": self.st.key(c),
            "title": title,
            "kind": "site",
            "system": self.st.locations[sys].name,
            "owner": me.as_str(),
            "icons": self.st.def(c).stats.icons,
        });
        let geo: LocationDef = serde_json::from_value(json).expect("a plain site");
        Location {
            name: self.st.key(c).to_string(),
            title,
            icons: self.st.def(c).stats.icons.clone(),
            geo,
        }
    }

    /// Can `me` deploy site `c` to planet `sys` by `spec`? `Err`: why not, and the rule.
    fn site_fits(
        &mut self,
        me: Side,
        c: CardIx,
        sys: usize,
        spec: &SiteDeploy,
    ) -> Result<(), (String, &'static str)> {
        let special = r::LOCATION_SPECIAL_CONDITIONS;
        let (d, planet) = (self.st.def(c), self.st.locations[sys].title.clone());
        let own = super::prepositions::titled_under(&d.title, &planet);
        if d.diamonds == 0 && !own {
            return Err((
                format!("{} is not a {planet} site", d.title),
                r::GENERIC_SITES,
            ));
        }
        let copies = self.copies_at(c, sys);
        if spec.not_on_table && !copies.is_empty() {
            return Err((
                format!(
                    "{} is already on table at {planet}: deploying it there would convert a location already on table, which the text forbids (\"not already on table\")",
                    self.site_title(c, sys)
                ),
                special,
            ));
        }
        if d.diamonds > 0 && copies.len() >= usize::from(d.diamonds) {
            return Err((
                format!(
                    "{} ♦ cop(ies) of {} are already at {planet}",
                    copies.len(),
                    d.title
                ),
                r::UNIQUENESS,
            ));
        }
        if spec.battleground {
            self.st.locations.push(self.site_location(me, c, sys));
            let (bg, why, _) = self.battleground(self.st.locations.len() - 1);
            self.st.locations.pop();
            if !bg {
                return Err((
                    format!("deployed to {planet} it would not be a battleground ({why})"),
                    special,
                ));
            }
        }
        Ok(())
    }

    /// The result of `deploy_site`: the player's `choose` (card, and `to:` the planet).
    pub(super) fn deploy_site(
        &mut self,
        ix: usize,
        me: Side,
        label: &str,
        spec: &SiteDeploy,
    ) -> Applied {
        let planets = self.site_planets(me, spec);
        let cards: Vec<CardIx> = self
            .st
            .pile(me, spec.from)
            .iter()
            .copied()
            .filter(|&c| {
                self.st.matches(c, &spec.filter, me)
                    && (!spec.generic || self.st.def(c).diamonds > 0)
            })
            .collect();
        let mut valid = Vec::new();
        for &c in &cards {
            for &l in &planets {
                if self.site_fits(me, c, l, spec).is_ok() {
                    valid.push((c, l));
                }
            }
        }
        if valid.is_empty() {
            self.log(
                actor(me),
                Event::Result,
                format!(
                    "{label}: no card in the {} can be deployed so that the end result obeys every rule and condition; the opponent may verify",
                    spec.from.title()
                ),
                &[r::LOCATION_SPECIAL_CONDITIONS, r::TAKING_CARDS],
            );
        }
        loop {
            let Some(d) = self.take_next_of(me, Verb::Choose) else {
                if valid.is_empty() {
                    break;
                }
                self.need_choice(
                    me,
                    format!(
                        "a site for {label} and the planet it deploys to (`choose` with `to:`)"
                    ),
                );
                return Applied::Stop;
            };
            let c = d.step.cards.first().and_then(|k| self.st.find(k));
            let Some(c) = c.filter(|c| cards.contains(c)) else {
                let reason = format!(
                    "{label} takes a card of the {} matching its text",
                    spec.from.title()
                );
                self.reject(&d, rej(reason, r::TAKING_CARDS));
                continue;
            };
            let to: Vec<usize> = match d.step.to.as_deref().and_then(|t| self.st.find_location(t)) {
                Some(l) => vec![l],
                None => planets.clone(),
            };
            let fits: Vec<usize> = to
                .iter()
                .copied()
                .filter(|&l| valid.contains(&(c, l)))
                .collect();
            match fits[..] {
                [l] if d.step.to.is_some() || to.len() == 1 || fits.len() == 1 => {
                    self.place_site(ix, me, c, l);
                    break;
                }
                [] => {
                    let (why, rule) = match to.first() {
                        Some(&l) if to.len() == 1 => self
                            .site_fits(me, c, l, spec)
                            .err()
                            .unwrap_or_else(|| (String::new(), r::LOCATION_SPECIAL_CONDITIONS)),
                        _ => (
                            format!(
                                "no planet system on table where {} may deploy",
                                self.name(c)
                            ),
                            r::LOCATION_SPECIAL_CONDITIONS,
                        ),
                    };
                    self.reject(&d, rej(why, rule));
                }
                _ => {
                    let reason = format!(
                        "{} may deploy to several planets: `to:` names one",
                        self.name(c)
                    );
                    self.reject(&d, rej(reason, r::LOCATION_SPECIAL_CONDITIONS));
                }
            }
        }
        if spec.reshuffle {
            self.reshuffle_note(me, spec.from);
        }
        Applied::Done
    }

    fn place_site(&mut self, ix: usize, me: Side, c: CardIx, sys: usize) {
        let loc = self.site_location(me, c, sys);
        let text = format!(
            "{} deploys {} to {} as {} (the end result obeys every rule and condition)",
            me.name(),
            self.name(c),
            self.st.locations[sys].title,
            loc.title
        );
        self.st.locations.push(loc);
        self.st.put(c, Zone::Table);
        let _ = ix;
        self.log(
            actor(me),
            Event::StateChange,
            text,
            &[r::LOCATION_SPECIAL_CONDITIONS, r::GENERIC_SITES],
        );
    }
}
