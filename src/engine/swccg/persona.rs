//! Personas beyond uniqueness (AR Persona, Ch.5): persona replacement (your unique
//! character replaced by another version of it from hand), converting characters
//! (the opponent's character replaced by your version where its text allows it, or
//! crossing over to your side), cards deployed on a persona, and what transfers to
//! the new version.

use super::statics::{Static, pick};
use serde::Deserialize;

use super::battle::Target;
use super::engine::{Decision, Engine, Rejection, rej};
use super::model::{CardState, CardType, Filter, LocKind, PileName, Side};
use super::rules as r;
use super::state::{CardIx, Zone};
use super::values::Total;
use crate::engine::{Actor, Event};

/// "Can be replaced by opponent with any Light Side Lando": who may convert the card.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConvertRule {
    /// The cards (the opponent's, from hand) it may be replaced with.
    pub with: Filter,
    /// "If present at a site".
    #[serde(default)]
    pub at_site: bool,
}

/// The personas a card contains (its `personas:`, else its title).
fn personas(d: &super::model::CardDef) -> Vec<&str> {
    if d.personas.is_empty() {
        vec![d.title.as_str()]
    } else {
        d.personas.iter().map(String::as_str).collect()
    }
}

impl Engine {
    /// Rules for the card a card deploys on: "deploy on an alien or Imperial" (`on_any`),
    /// and a card deploying on a persona deploys only on a card of that persona's type,
    /// even where another card contains the persona (AR Persona).
    pub(crate) fn host_rules(&self, p: Side, c: CardIx, h: CardIx) -> Result<(), Rejection> {
        let rules = &self.st.def(c).deploy_rules;
        let (title, host) = (self.name(c), self.name(h));
        if !rules.on_any.is_empty() && !rules.on_any.iter().any(|f| self.st.matches(h, f, p)) {
            // A starship's text may still take the weapon (special deployment), if any
            // of the cards the weapon names is of the starship's type.
            let tries: Vec<_> = rules
                .on_any
                .iter()
                .map(|f| self.special_weapon_deployment(p, c, h, f))
                .collect();
            if !tries.iter().any(Result::is_ok) {
                return tries.into_iter().find(Result::is_err).unwrap_or(Ok(()));
            }
        }
        // The persona's type: as the card says (`persona_type`), else a weapon's own
        // kind (a character weapon deploys on a character).
        let def = self.st.def(c);
        let by_subtype = match (def.card_type, def.subtype.as_deref()) {
            (CardType::Weapon, Some("character")) => Some(CardType::Character),
            (CardType::Weapon, Some("starship")) => Some(CardType::Starship),
            (CardType::Weapon, Some("vehicle")) => Some(CardType::Vehicle),
            _ => None,
        };
        if let Some(f) = &rules.on
            && !f.persona.is_empty()
            && let Some(want) = rules.persona_type.or(by_subtype)
        {
            let is = self.st.def(h).card_type;
            if is != want {
                return Err(rej(
                    format!(
                        "{title} deploys on a {} persona: {host} contains that persona but is a {}, not a {}",
                        want.as_str(),
                        is.as_str(),
                        want.as_str()
                    ),
                    r::PERSONA,
                )
                .and(r::DEPLOYMENT_RESTRICTIONS));
            }
        }
        Ok(())
    }

    /// A card's power on table: printed, with the modifiers of active cards that name
    /// it (on it, at its location, or anywhere on table), each by its own operation
    /// (AR Modifiers; "may not be reduced", AR Reduce), and the cards they come from.
    /// Modifiers that need cards participating in a battle do not apply outside one.
    pub(super) fn power_on_table(&self, c: CardIx) -> (Total, Vec<String>) {
        use super::battle::{OpSpec, to_op};
        use super::values::{Base, Modifier, Rules, compute};
        let mut why = Vec::new();
        let mut mods = Vec::new();
        let mut guarded = false;
        let key = self.st.key(c).to_string();
        let at = self.st.location_of(c);
        for s in 0..self.st.cards.len() {
            if !self.st.active(s) {
                continue;
            }
            for m in &self.st.def(s).modifiers {
                let names = matches!(&m.target, Target::Power(n)
                    if *n == key || super::text_when::refers(&self.st, s, n, c));
                let names = names && super::text_when::holds(&self.st, s, &m.when, None);
                let near =
                    m.anywhere || self.st.location_of(s) == at || self.st.zone[s] == Zone::On(c);
                if !names || !near || !m.requires.is_empty() {
                    continue;
                }
                if let OpSpec::NotReduced(g) = m.op {
                    guarded |= g;
                    continue;
                }
                let mut md = Modifier::new(self.name(s), to_op(m.op));
                if m.cumulative {
                    md = md.cumulative();
                }
                if matches!(m.op, OpSpec::Free(_) | OpSpec::Lose(_)) {
                    md = md
                        .canceled("`free` and `lose` apply to a cost or to immunity, not to power");
                }
                mods.push(md);
                why.push(self.name(s));
            }
        }
        let name = self.name(c);
        let base = Base::of(name.clone(), self.st.def(c).stats.power.unwrap_or(0));
        let mods = super::reduce::guard(&base, mods, guarded);
        let total = compute(&format!("power of {name}"), &base, &mods, Rules::default());
        (total, why)
    }

    /// Is persona replacement (or converting) of `old` by `new` legal now? `Ok(true)`
    /// for converting (the opponent's character).
    fn check_replace(&self, p: Side, new: CardIx, old: CardIx) -> Result<bool, Rejection> {
        let (nd, od) = (self.st.def(new), self.st.def(old));
        let (nt, ot) = (self.name(new), self.name(old));
        if self.turn != p || self.phase != super::model::Phase::Deploy {
            return Err(rej(
                format!(
                    "{} may replace a character only during their own deploy phase",
                    p.name()
                ),
                r::PERSONA_REPLACEMENT,
            ));
        }
        if self.st.zone[new] != Zone::Pile(p, PileName::Hand) {
            return Err(rej(
                format!("{nt} is not in {}'s hand", p.name()),
                r::PERSONA_REPLACEMENT,
            ));
        }
        if !self.st.active(old) || od.card_type != CardType::Character {
            return Err(rej(
                format!("{ot} is not a character active on table"),
                r::PERSONA_REPLACEMENT,
            ));
        }
        if nd.card_type != CardType::Character {
            return Err(rej(
                format!(
                    "{nt} is a {}: only a character card may replace a character",
                    nd.card_type.as_str()
                ),
                r::PERSONA_REPLACEMENT,
            )
            .and(r::PERSONA));
        }
        if self.st.owner(old) != p {
            return self.check_convert(p, new, old).map(|()| true);
        }
        let shared = nd.unique
            && od.unique
            && personas(nd)
                .iter()
                .any(|a| personas(od).iter().any(|b| a.eq_ignore_ascii_case(b)));
        if !shared {
            return Err(rej(
                format!("{nt} and {ot} are not versions of the same unique persona; persona replacement applies only to unique personas"),
                r::PERSONA_REPLACEMENT,
            )
            .and(r::PERSONA_NON_UNIQUE));
        }
        if nd.title.eq_ignore_ascii_case(&od.title) {
            return Err(rej(
                format!("{nt} is not a different version of {ot} (same title)"),
                r::PERSONA_REPLACEMENT,
            ));
        }
        let (power, mods) = self.power_on_table(old);
        let power = power.value.unwrap_or(0);
        let np = nd.stats.power.unwrap_or(0);
        if np < power {
            let with = if mods.is_empty() {
                String::new()
            } else {
                format!(" (with {})", mods.join(", "))
            };
            return Err(rej(
                format!(
                    "{nt} has power {np}, less than {ot}'s {power}{with}: the new version must have power and ability at least equal"
                ),
                r::PERSONA_REPLACEMENT,
            ));
        }
        let (na, oa) = (nd.stats.ability.unwrap_or(0), od.stats.ability.unwrap_or(0));
        if na < oa {
            return Err(rej(
                format!(
                    "{nt} has ability {na}, less than {ot}'s {oa}: the new version must have power and ability at least equal"
                ),
                r::PERSONA_REPLACEMENT,
            ));
        }
        if let Some(l) = self.st.location_of(old) {
            self.card_location_rules(p, new, l)
                .map_err(|e| e.and(r::PERSONA_REPLACEMENT))?;
        }
        Ok(false)
    }

    /// Converting by game text: the opponent's character allows being replaced by
    /// this card (AR Persona - Converting Characters). No power, ability or deployment
    /// requirement: converting is not deployment.
    fn check_convert(&self, p: Side, new: CardIx, old: CardIx) -> Result<(), Rejection> {
        let (nt, ot) = (self.name(new), self.name(old));
        let Some(rule) = self.st.def(old).find_static(pick!(Static::ConvertedBy)) else {
            return Err(rej(
                format!("{ot} is {}'s: you may only persona replace your own characters, and its text does not let it be converted", p.other().name()),
                r::PERSONA_REPLACEMENT,
            )
            .and(r::CONVERTING));
        };
        if !self.st.matches(new, &rule.with, p) {
            return Err(rej(
                format!("{ot}'s text does not let it be replaced with {nt}"),
                r::CONVERTING,
            ));
        }
        let at_site = self
            .st
            .location_of(old)
            .is_some_and(|l| self.st.locations[l].geo.kind == Some(LocKind::Site));
        // Present at the site: standing there, or aboard an open (not enclosed) vehicle.
        let present = match self.st.zone[old] {
            Zone::At(_) => true,
            Zone::On(h) => {
                let hd = self.st.def(h);
                hd.card_type == CardType::Vehicle
                    && !hd
                        .keywords
                        .iter()
                        .any(|k| k.eq_ignore_ascii_case("enclosed"))
            }
            _ => false,
        };
        if rule.at_site && !(at_site && present) {
            return Err(rej(
                format!("{ot} may be converted only while present at a site"),
                r::CONVERTING,
            ));
        }
        Ok(())
    }

    /// `replace`: the new version takes the old one's place; the cards on the old one
    /// transfer where they may deploy on the new one, the rest and the old version go
    /// to the old version's owner's Lost Pile (not "just lost"). Not deployment: no
    /// cost, no "just deployed".
    pub(super) fn replace_persona(&mut self, d: &Decision) -> Result<(), Rejection> {
        let p = d.by;
        let new = self.decision_card(d, r::ACTIONS)?;
        let old = self.card_named(d.step.to.as_deref().unwrap_or(""), r::ACTIONS)?;
        let (power, _) = self.power_on_table(old);
        if self.st.owner(old) == p && power.unresolved.is_some() {
            let what = format!("persona replacement compares power: {power}");
            let depth = self.depth();
            self.trace.not_modelled(
                depth,
                Actor::Rules,
                what.clone(),
                &[r::PERSONA_REPLACEMENT, r::MODIFIERS],
            );
            self.outcome = Some(crate::engine::End::NotModelled { what });
            return Ok(());
        }
        let converting = self.check_replace(p, new, old)?;
        let (nt, ot) = (self.name(new), self.name(old));
        let (what, rule) = if converting {
            ("converts", r::CONVERTING)
        } else {
            ("persona replaces", r::PERSONA_REPLACEMENT)
        };
        let owner = self.st.owner(old);
        self.st.put(new, self.st.zone[old]);
        self.st.card_state[new] = CardState::Active;
        self.log(
            super::actor(p),
            Event::StateChange,
            format!("{} {what} {ot} with {nt}: {nt} takes its place (not deployment: no cost, no \"just deployed\")", p.name()),
            &[rule],
        );
        for x in self.st.cards_on(old) {
            let xt = self.name(x);
            let fits = self.fits_on(p, x, new) && !self.jedi_test_lost_on(x, new);
            if fits {
                self.st.put(x, Zone::On(new));
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!("{xt} transfers to {nt}"),
                    &[rule],
                );
            } else {
                let xo = self.st.owner(x);
                self.st.to_pile(x, xo, PileName::LostPile);
                self.log(
                    Actor::Rules,
                    Event::StateChange,
                    format!(
                        "{xt} may not be on {nt}: it goes to {}'s Lost Pile",
                        xo.name()
                    ),
                    &[rule],
                );
            }
        }
        self.st.to_pile(old, owner, PileName::LostPile);
        self.log(
            Actor::Rules,
            Event::StateChange,
            format!(
                "{ot} goes to {}'s Lost Pile (it is not \"just lost\")",
                owner.name()
            ),
            &[rule],
        );
        Ok(())
    }

    /// May card `x` (on the replaced version) be on `h`: its deploy-on rules hold for `h`.
    fn fits_on(&self, p: Side, x: CardIx, h: CardIx) -> bool {
        let rules = &self.st.def(x).deploy_rules;
        let on = rules.on.as_ref().is_none_or(|f| self.st.matches(h, f, p));
        on && self.host_rules(p, x, h).is_ok()
    }

    /// Crossing over as another character: the card ceases being what it was and
    /// becomes `title` with these personas and characteristics; each card on it that
    /// may no longer be on it (its deploy-on rules) is lost, except Jedi Tests; then
    /// it crosses over with the cards still on it (AR Crossing Over Examples).
    pub(super) fn cross_over_as(
        &mut self,
        p: Side,
        c: CardIx,
        title: &str,
        personas: &[String],
        keywords: &[String],
    ) {
        let old = self.name(c);
        {
            let d = &mut self.st.cards[c].def;
            d.title = title.to_string();
            d.personas = personas.to_vec();
            d.keywords = keywords.to_vec();
        }
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{old} ceases being {old} and becomes {title} ({}; characteristics: {})",
                if personas.is_empty() {
                    title.to_string()
                } else {
                    personas.join(", ")
                },
                keywords.join(", ")
            ),
            &[r::CROSSING_OVER],
        );
        for x in self.st.cards_on(c) {
            if self.st.def(x).card_type == CardType::JediTest || self.fits_on(p, x, c) {
                continue;
            }
            let xo = self.st.owner(x);
            self.st.to_pile(x, xo, PileName::LostPile);
            let text = format!(
                "{} may no longer be on {title}: it goes to {}'s Lost Pile",
                self.name(x),
                xo.name()
            );
            self.log(Actor::Rules, Event::StateChange, text, &[r::CROSSING_OVER]);
        }
        self.cross_over(p, c);
    }

    /// "Crosses over to your side": the card and every card on it become `p`'s.
    pub(super) fn cross_over(&mut self, p: Side, c: CardIx) {
        let mut all = vec![c];
        let mut i = 0;
        while i < all.len() {
            all.extend(self.st.cards_on(all[i]));
            i += 1;
        }
        for &x in &all {
            self.st.cards[x].def.side = p;
        }
        let names: Vec<String> = all.iter().map(|&x| self.name(x)).collect();
        self.log(
            super::actor(p),
            Event::StateChange,
            format!(
                "{} crosses over to {}'s side: {} now {}'s (same location, same cards on it)",
                self.name(c),
                p.name(),
                names.join(", "),
                p.name()
            ),
            &[r::CONVERTING],
        );
    }
}
