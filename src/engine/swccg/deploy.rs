//! Deployment (AR Ch.5): where a card may deploy (its destination, deployment
//! restrictions, deploying on immune cards), personas on table, and deploying
//! cards simultaneously.

use super::engine::{Decision, Engine, Rejection, rej};
use super::identify::persona_type;
use super::model::{CardState, CardType, LocKind, PileName, Side};
use super::rules as r;
use super::stack::{DeployTo, Tgt};
use super::state::{CardIx, Zone};
use crate::engine::Event;

impl Engine {
    /// Where a card deploys from hand: a location or a card for cards that deploy
    /// to locations; on a card, at a location, or on table for the others.
    pub(crate) fn deploy_destination(
        &self,
        p: Side,
        c: CardIx,
        d: Option<&Decision>,
    ) -> Result<DeployTo, Rejection> {
        let def = self.st.def(c);
        let title = &def.title;
        let Some(k) = d.and_then(|d| d.step.to.as_deref()) else {
            return if d.is_some() && def.card_type.deploys_to_location() {
                Err(rej(
                    format!("{title} must be deployed to a location (`to:`)"),
                    r::CHOOSING_TARGETS,
                ))
            } else if def.deploy_rules.on.is_some() && d.is_some() {
                Err(rej(
                    format!("{title} deploys on a card (`to:`)"),
                    r::DEPLOYMENT_RESTRICTIONS,
                ))
            } else {
                Ok(DeployTo::Table)
            };
        };
        let to = if let Some(l) = self.st.find_location(k) {
            DeployTo::Location(l)
        } else if let Some(h) = self.st.find(k).filter(|&h| self.st.on_table(h)) {
            if !self.st.active(h) {
                return Err(rej(
                    format!(
                        "{} is not active: nothing may deploy on it",
                        self.st.title(h)
                    ),
                    r::INACTIVE,
                ));
            }
            // An undercover spy is inactive: only its owner may still deploy Effects,
            // weapons and devices on it (AR Undercover Spy Rules).
            if self.st.undercover(h) && self.st.owner(h) != p {
                return Err(rej(
                    format!(
                        "{} is an undercover spy, inactive for its opponent: only its owner may deploy cards on it",
                        self.st.title(h)
                    ),
                    super::identify::UNDERCOVER,
                )
                .and(r::INACTIVE));
            }
            DeployTo::OnCard(h)
        } else {
            return Err(rej(
                format!("{k} is not a location or a card on table"),
                r::CHOOSING_TARGETS,
            ));
        };
        self.deploy_restrictions(p, c, to)?;
        Ok(to)
    }

    /// Deployment restrictions of the card, of the location, and immunity of the card deployed on.
    pub(super) fn deploy_restrictions(
        &self,
        p: Side,
        c: CardIx,
        to: DeployTo,
    ) -> Result<(), Rejection> {
        let def = self.st.def(c);
        let title = &def.title;
        let host = match to {
            DeployTo::OnCard(h) => Some(h),
            _ => None,
        };
        if let Some(h) = host {
            // Deploying on a card targets it: a card immune to this one is not a valid target.
            if self
                .st
                .def(h)
                .immune_to
                .iter()
                .any(|x| x.eq_ignore_ascii_case(title))
            {
                return Err(rej(
                    format!(
                        "{} is immune to {title}: it is not a valid target, so {title} may not deploy on it",
                        self.st.title(h)
                    ),
                    r::IMMUNE,
                ));
            }
        }
        if let Some(h) = host {
            self.host_rules(p, c, h)?;
            self.aboard_ok(c, h)?;
            self.capacity_ok(h, &[c])?;
        }
        if let Some(f) = &def.deploy_rules.on {
            let ok = host.is_some_and(|h| self.st.matches(h, f, p));
            if !ok && let Some(h) = host {
                return self.special_weapon_deployment(p, c, h, f);
            }
            if !ok {
                return Err(rej(
                    format!("{title} may deploy only on a card its text names"),
                    r::DEPLOYMENT_RESTRICTIONS,
                ));
            }
        }
        if let (Some(f), Some(h)) = (&def.deploy_rules.on, host) {
            super::identify::character_persona_host(&self.st, c, h, f)?;
        }
        let loc = match to {
            DeployTo::Location(l) => Some(l),
            DeployTo::OnCard(h) => self.st.location_of(h),
            DeployTo::Table => None,
        };
        let Some(l) = loc else {
            return Ok(());
        };
        if host.is_none() {
            self.cloud_rules(c, l)?;
        }
        if self.deploy_permission(p, c, l).is_some() {
            // A permission lifts the location deployment restrictions (its own
            // "deploys only …" included), never the cost (AR Conditions Versus Costs).
            return Ok(());
        }
        self.card_location_rules(p, c, l)?;
        if let Some(why) = super::prepositions::remote_planet(&self.st, c, l, host.is_none()) {
            return Err(rej(why, r::DAGOBAH_AHCH_TO));
        }
        let lo = &self.st.locations[l];
        if !def.deploy_rules.ignore_location_restrictions
            && let Some(why) = self.location_bars(p, c, l)
        {
            return Err(rej(why, r::LOCATION_DEPLOYMENT_RESTRICTIONS));
        }
        // Vehicles may not deploy to interior-only sites unless their card allows it.
        if host.is_none()
            && def.card_type == CardType::Vehicle
            && lo.geo.kind == Some(LocKind::Site)
            && lo.geo.interior
            && !lo.geo.exterior
            && !def.moves.interior
        {
            return Err(rej(
                format!("{title} is a vehicle: it may not deploy to an interior-only site"),
                r::INTERIOR_SITES,
            ));
        }
        // Starships exist at sites only as starfighters at exterior sites (AR Never -
        // Location Restrictions).
        if host.is_none()
            && def.card_type == CardType::Starship
            && lo.geo.kind == Some(LocKind::Site)
            && (!lo.geo.exterior || def.subtype.as_deref() == Some("capital"))
        {
            return Err(rej(
                format!(
                    "{title} is a starship: it may not deploy to {}, a site where it cannot exist (starfighters only, at exterior sites)",
                    lo.title
                ),
                r::NEVER_LOCATION_RESTRICTIONS,
            ));
        }
        self.presence_or_icons(p, c, l)
    }

    /// The deployment restrictions listed on the card itself, for location `l`: where it
    /// deploys only (`only_at`, `kind`, `where_card`) and where it may not (`not_at`).
    /// Persona replacement obeys these, and not the location's own restrictions.
    pub(crate) fn card_location_rules(
        &self,
        p: Side,
        c: CardIx,
        l: usize,
    ) -> Result<(), Rejection> {
        let def = self.st.def(c);
        let title = &def.title;
        let lo = &self.st.locations[l];
        // Asteroid sectors are related to a system but are not part of its planet.
        let planet = super::prepositions::location_on(&self.st, l);
        let names = |n: &String| {
            n.eq_ignore_ascii_case(&lo.name)
                || n.eq_ignore_ascii_case(&lo.title)
                || (lo.geo.kind != Some(super::model::LocKind::Sector) || planet.is_some())
                    && lo
                        .geo
                        .system
                        .as_ref()
                        .is_some_and(|s| n.eq_ignore_ascii_case(s))
                || super::prepositions::titled_under(&lo.title, n)
        };
        // "On" a planet: at a site or sector of it (never the system), or at a site
        // whose title begins with the name ("Cloud City: …").
        let on_planet = |n: &String| {
            lo.geo.kind != Some(super::model::LocKind::System)
                && (planet.as_ref().is_some_and(|p| p.eq_ignore_ascii_case(n))
                    || super::prepositions::planet_title(&self.st, l)
                        .is_some_and(|p| p.eq_ignore_ascii_case(n))
                    || super::prepositions::titled_under(&lo.title, n))
        };
        let rules = &def.deploy_rules;
        if let Some(e) = super::epic::blown_away_refusal(title, &rules.only_at, lo) {
            return Err(e);
        }
        if !rules.only_at.is_empty() && !rules.only_at.iter().any(names) {
            return Err(rej(
                format!(
                    "{title} deploys only to {}; {} is not one of them",
                    rules.only_at.join(" or "),
                    lo.title
                ),
                r::DEPLOYMENT_RESTRICTIONS,
            ));
        }
        if !rules.only_on.is_empty() && !rules.only_on.iter().any(on_planet) {
            return Err(rej(
                format!(
                    "{title} deploys only on {}: to a site or cloud sector of it, not the system; {} is not one",
                    rules.only_on.join(" or "),
                    lo.title
                ),
                r::DEPLOYMENT_RESTRICTIONS,
            )
            .and(r::PREPOSITIONS));
        }
        if rules.never_to_opponents_site && self.opponent_occupies_site(p, l) {
            return Err(rej(
                format!(
                    "{title} never deploys to a site opponent occupies; {} occupies {}",
                    p.other().name(),
                    lo.title
                ),
                r::DEPLOYMENT_RESTRICTIONS,
            ));
        }
        if let Some(n) = rules.not_at.iter().find(|n| names(n)) {
            return Err(rej(
                format!("{title} may not deploy to {n} ({})", lo.title),
                r::DEPLOYMENT_RESTRICTIONS,
            ));
        }
        if let Some(k) = rules.kind
            && lo.geo.kind != Some(k)
        {
            return Err(rej(
                format!("{title} deploys only to a {k:?}; {} is not one", lo.title).to_lowercase(),
                r::DEPLOYMENT_RESTRICTIONS,
            ));
        }
        if let Some(f) = &rules.where_card
            && !(0..self.st.cards.len()).any(|x| {
                x != c
                    && self.st.active(x)
                    && self.st.location_of(x) == Some(l)
                    && self.st.matches(x, f, p)
            })
        {
            return Err(rej(
                format!(
                    "{title} deploys only where a card its text names is; there is none at {}",
                    lo.title
                ),
                r::DEPLOYMENT_RESTRICTIONS,
            ));
        }
        Ok(())
    }

    /// Is `l` a site `p`'s opponent occupies (has presence at)?
    pub(crate) fn opponent_occupies_site(&self, p: Side, l: usize) -> bool {
        self.st.locations[l].geo.kind == Some(LocKind::Site) && self.has_presence(p.other(), l)
    }

    /// Persona: another version of a unique persona on table, on either side,
    /// prevents the deployment. `None` when no version is on table.
    pub(crate) fn persona_on_table(&self, c: CardIx) -> Option<Rejection> {
        let def = self.st.def(c);
        if !def.unique || !persona_type(def.card_type) {
            return None;
        }
        let mine = personas_of(def);
        (0..self.st.cards.len()).find_map(|x| {
            let dx = self.st.def(x);
            let same = personas_of(dx)
                .iter()
                .any(|t| mine.iter().any(|m| m.eq_ignore_ascii_case(t)));
            let both_sides = dx.side != def.side
                && (def.identity.persona_both_sides || dx.identity.persona_both_sides);
            let version = x != c
                && same
                && !both_sides
                && persona_type(dx.card_type)
                && (dx.side != def.side || !dx.title.eq_ignore_ascii_case(&def.title));
            (version
                && self.st.on_table(x)
                && self.st.card_state[x] != CardState::Supporting)
                .then(|| {
                    let state_rule = if self.st.active(x) {
                        r::ACTIVE
                    } else {
                        r::INACTIVE
                    };
                    rej(
                        format!(
                            "{} may not be deployed: {} ({}'s) is a version of the same persona and is on table; no more than one version of a unique persona may be on table, even on different sides of the Force",
                            def.title,
                            dx.title,
                            dx.side.name()
                        ),
                        r::PERSONA,
                    )
                    .and(state_rule)
                })
        })
    }

    /// Cards deployed simultaneously (`with:`): each from hand, each deploys aboard
    /// the main card; their costs are added to its cost.
    pub(crate) fn check_with(
        &self,
        p: Side,
        c: CardIx,
        d: &Decision,
    ) -> Result<Vec<CardIx>, Rejection> {
        let mut with = Vec::new();
        for k in &d.step.with {
            let x = self.card_named(k, r::ACTIONS)?;
            let title = self.st.title(x);
            if self.st.zone[x] != Zone::Pile(p, PileName::Hand) {
                return Err(rej(
                    format!("{title} is not in {}'s hand", p.name()),
                    r::ACTIONS,
                ));
            }
            let carrier = matches!(
                self.st.def(c).card_type,
                CardType::Starship | CardType::Vehicle
            );
            if !carrier || self.st.def(x).card_type != CardType::Character {
                return Err(rej(
                    format!(
                        "{} and {title} deploy simultaneously, so one must deploy on the other; it cannot",
                        self.st.title(c)
                    ),
                    r::SIMULTANEOUS_DEPLOYMENT,
                ));
            }
            if let Some(e) = self.persona_on_table(x) {
                return Err(e);
            }
            with.push(x);
        }
        self.capacity_ok(c, &with)?;
        Ok(with)
    }

    /// The deploy cost of the cards deployed with the main card.
    pub(crate) fn with_cost(&self, with: &[CardIx]) -> usize {
        with.iter()
            .map(|&x| self.st.def(x).stats.deploy.unwrap_or(0).max(0) as usize)
            .sum()
    }

    /// The cards deployed with the card just pushed: on the stack with it, their cost used.
    pub(crate) fn push_with(&mut self, p: Side, with: Vec<CardIx>) {
        if with.is_empty() {
            return;
        }
        let cost = self.with_cost(&with) as u32;
        let names: Vec<String> = with.iter().map(|&x| self.st.title(x).to_string()).collect();
        for &x in &with {
            self.st.put(x, Zone::Stack);
            self.note_deployed(x);
        }
        let main = self.stack.len() - 1;
        self.stack[main]
            .targets
            .push(("with".into(), Tgt::Cards(with)));
        let text = format!(
            "{} deploys {} simultaneously: aboard {}",
            p.name(),
            names.join(", "),
            self.stack[main].label
        );
        self.log(
            super::actor(p),
            Event::Push,
            text,
            &[r::SIMULTANEOUS_DEPLOYMENT, r::INITIATION],
        );
        self.pay_use(p, cost, &format!("to deploy {}", names.join(", ")));
    }

    /// The deployment of the main card has its result: the cards deployed with it go aboard.
    pub(crate) fn place_with(&mut self, ix: usize, c: CardIx) {
        let Some(Tgt::Cards(with)) = self.stack[ix].target("with").cloned() else {
            return;
        };
        for x in with {
            self.st.put(x, Zone::On(c));
            self.st.card_state[x] = CardState::Active;
            let text = format!(
                "{} is deployed aboard {} (deployed simultaneously)",
                self.st.title(x),
                self.st.title(c)
            );
            self.log(
                super::actor(self.stack[ix].actor),
                Event::StateChange,
                text,
                &[r::SIMULTANEOUS_DEPLOYMENT, r::RESULT],
            );
        }
    }
}

fn personas_of(d: &super::model::CardDef) -> Vec<&str> {
    if d.personas.is_empty() {
        vec![super::titles::persona_name(&d.title)]
    } else {
        d.personas.iter().map(String::as_str).collect()
    }
}

impl Engine {
    /// Why location `l`'s own text bars `c` deployed by `p` there, if it does: a
    /// restriction whose cards `c` matches (owner seen from the side whose text it
    /// is) and whose conditions hold (AR Location Deployment Restrictions - Game Text).
    fn location_bars(&self, p: Side, c: CardIx, l: usize) -> Option<String> {
        let lo = &self.st.locations[l];
        let nd = lo.geo.no_deploy.iter().find(|nd| {
            let side = nd.side.unwrap_or(p);
            self.st.matches(c, &nd.filter, side)
                && super::text_when::holds_here(&self.st, l, side, &nd.when)
        })?;
        let half = nd
            .side
            .map_or(String::new(), |s| format!(" ({} half)", s.name()));
        let cond = if nd.when.is_empty() {
            ""
        } else {
            " (its condition holds)"
        };
        Some(format!(
            "{}'s game text{half}: {} may not deploy there{cond}",
            lo.title,
            self.name(c)
        ))
    }
}
