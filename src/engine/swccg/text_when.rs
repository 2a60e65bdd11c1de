//! Conditions a card's own game text puts on its modifiers, and the cards that text
//! names relative to itself, so a library card's text needs no scenario key:
//! "when piloting Red 5", "if Han, Chewie or Lando piloting", "at same location as
//! Han", "when at same site as Vader", "while Luke is not on Tatooine", "when in
//! battle" (AR Prepositions; Present versus Present With; Participating In Battle -
//! In A Battle Together), and "anything he pilots", "each Rebel present with her".

use super::model::{CardType, Filter, LocKind, SectorKind, Side};
use super::state::{CardIx, State, Zone};
use serde::Deserialize;

pub const PREPOSITIONS: &str = "swccg.ar.prepositions";
pub const PRESENT_WITH: &str = "swccg.ar.present-versus-present-with";
pub const IN_BATTLE_TOGETHER: &str = "swccg.ar.participating-in-battle-in-a-battle-together-in-battle-with-involved-in-the-same-battle";

pub const INITIATE_THE_BATTLE: &str = "swccg.ar.initiate-the-battle";
pub const ALONE: &str = "swccg.ar.alone-lone";
pub const EXTERIOR_SITES: &str = "swccg.ar.exterior-sites";

/// Every section this file cites.
pub const IDS: &[&str] = &[
    PREPOSITIONS,
    PRESENT_WITH,
    IN_BATTLE_TOGETHER,
    INITIATE_THE_BATTLE,
    ALONE,
    EXTERIOR_SITES,
];

/// The name a modifier's target uses for the starship or vehicle the card pilots
/// ("adds 2 to maneuver of anything he pilots").
pub const PILOTED: &str = "piloted";
/// The name a modifier's target uses for each card its `each:` selects.
pub const EACH: &str = "each";
/// The name a modifier's target uses for the card this card is deployed on
/// ("Character ... is power -1" on an Effect deployed on a character).
pub const HOST: &str = "host";

/// The card `s` is deployed on, if any.
fn host(st: &State, s: CardIx) -> Option<CardIx> {
    match st.zone[s] {
        Zone::On(h) => Some(h),
        _ => None,
    }
}

/// One condition on the card whose text it is (the source). Every key given must
/// hold; a modifier's `when:` list holds when each of its conditions does.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cond {
    /// The source pilots a starship or vehicle matching this ("when piloting Red 5").
    #[serde(default)]
    pub piloting: Option<Filter>,
    /// A pilot matching this (owner seen from the source) is aboard the source, a
    /// starship or vehicle ("if Han, Chewie or Lando piloting").
    #[serde(default)]
    pub piloted_by: Option<Filter>,
    /// Another active card matching this is at the same location ("with Han"); in a
    /// battle, for a number of destinies, it must participate too.
    #[serde(default)]
    pub with: Option<Filter>,
    /// Another active card matching this is at the same site ("at same site as Vader").
    #[serde(default)]
    pub same_site_as: Option<Filter>,
    /// The source is "on" this planet (present at a site or sector of it, or aboard a
    /// craft present there); `not_on` for its negation.
    #[serde(default)]
    pub on: Option<String>,
    #[serde(default)]
    pub not_on: Option<String>,
    /// The source is at a site of this planet or system ("at a Death Star site"), or a
    /// site whose title begins with this name and a colon ("at a Cloud City site":
    /// `Cloud City`, for the "Cloud City: …" sites of Bespin).
    #[serde(default)]
    pub at_site_of: Option<String>,
    /// The source is at a site that is not one of those ("at a site other than a
    /// Hoth site", "other than a Cloud City site").
    #[serde(default)]
    pub not_at_site_of: Option<String>,
    /// The source is at a site ("in battles at same site").
    #[serde(default)]
    pub at_site: bool,
    /// The source is at an exterior site ("at same exterior site"; AR Exterior Sites:
    /// a site with an exterior icon).
    #[serde(default)]
    pub at_exterior_site: bool,
    /// The source participates in a battle the opponent initiated ("when defending a
    /// battle").
    #[serde(default)]
    pub defending: bool,
    /// The source participates in the battle under way ("when in battle"), or is
    /// deployed on a card that does ("that character is power +3 in battles").
    #[serde(default)]
    pub in_battle: bool,
    /// The source is alone at its location (AR Alone/Lone): active, and its owner
    /// has no other card there that has ability or is a character.
    #[serde(default)]
    pub alone: bool,
    /// "While opponent has more characters here than you": at the source's location,
    /// the opponent has more active characters than its owner.
    #[serde(default)]
    pub outnumbered: bool,
    /// "Unless opponent's character of ability > 3 here": no other active card
    /// matching this (owner seen from the source) is at the same location.
    #[serde(default)]
    pub unless_here: Option<Filter>,
    /// The source is at the location with this title ("while at Audience Chamber").
    #[serde(default)]
    pub at_title: Option<String>,
    /// Another active card matching this is present with the source (AR Present
    /// versus Present With): both present at the same location, or both aboard the
    /// same enclosed starship or vehicle ("when present with an X-wing").
    #[serde(default)]
    pub present_with: Option<Filter>,
    /// The source is present at its location, not enclosed aboard a starship or
    /// vehicle ("while present"; AR Present; Where Present).
    #[serde(default)]
    pub present: bool,
    /// An active weapon matching this is deployed on the source ("while armed with a
    /// lightsaber"; AR Weapons).
    #[serde(default)]
    pub armed_with: Option<Filter>,
    /// The text's side occupies the location (has presence there: AR Occupy) with
    /// `true` ("if you occupy"), or does not with `false` ("unless you occupy").
    #[serde(default)]
    pub occupies: Option<bool>,
    /// This condition does not hold ("unless your battle droid present": `not:
    /// {present_with: …}`; "unless your droid control ship present").
    #[serde(default)]
    pub not: Option<Box<Cond>>,
    /// At least one of these conditions holds ("if your Lando or your Lobot here":
    /// `any_of: [{with: …}, {with: …}]`); at least two are listed.
    #[serde(default, deserialize_with = "alternatives")]
    pub any_of: Vec<Cond>,
}

/// `any_of:` lists at least two conditions: one is the condition itself.
fn alternatives<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Cond>, D::Error> {
    let v = Vec::<Cond>::deserialize(d)?;
    if v.len() < 2 {
        return Err(serde::de::Error::custom(
            "`any_of` lists at least two conditions (one is written as the condition itself)",
        ));
    }
    Ok(v)
}

/// "Each Rebel present with her": the cards a modifier with target name `each`
/// changes, seen from the source's owner.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Each {
    pub filter: Filter,
    /// Present with the source (AR Present versus Present With); otherwise at the
    /// same location.
    #[serde(default)]
    pub present_with: bool,
    /// The source itself may be one of them (default: only the other cards).
    #[serde(default)]
    pub itself: bool,
}

/// What a battle tells the conditions: the cards participating in it, and whether the
/// value modified is a number of destinies (whose adders must participate: AR Battle
/// Destiny - Modifying The Number Of Destinies).
#[derive(Clone, Copy)]
pub struct InBattle<'a> {
    pub participants: &'a [CardIx],
    /// Every card the battle lists at its location: an excluded card is not one
    /// (inactive for the battle: AR Participating In Battle - Excluded From Battle).
    pub listed: &'a [CardIx],
    pub destinies: bool,
    /// The player who initiated the battle.
    pub initiator: Side,
}

/// The starship or vehicle card `s` pilots, if any: `s` is a pilot aboard it.
pub fn piloted_by(st: &State, s: CardIx) -> Option<CardIx> {
    let Zone::On(h) = st.zone[s] else {
        return None;
    };
    let craft = matches!(st.def(h).card_type, CardType::Starship | CardType::Vehicle);
    (craft && st.active(s) && super::movement::is_pilot(st, s)).then_some(h)
}

/// Does the name `n` in the text of `s` mean card `c`?
pub fn refers(st: &State, s: CardIx, n: &str, c: CardIx) -> bool {
    match n {
        "this" => s == c,
        PILOTED => piloted_by(st, s) == Some(c),
        HOST => host(st, s) == Some(c),
        _ => n == st.key(c),
    }
}

/// The card the name `n` in the text of `s` means, if any (`each` means several:
/// see [`each`]).
pub fn resolve(st: &State, s: CardIx, n: &str) -> Option<CardIx> {
    match n {
        "this" => Some(s),
        PILOTED => piloted_by(st, s),
        HOST => host(st, s),
        EACH => None,
        _ => st.find(n),
    }
}

/// The cards `e` selects for the text of `s`, in scenario order.
pub fn each(st: &State, s: CardIx, e: &Each) -> Vec<CardIx> {
    let me = st.owner(s);
    let mine = super::prepositions::present(st, s);
    let here = st.location_of(s);
    (0..st.cards.len())
        .filter(|&c| (c != s || e.itself) && st.active(c) && st.matches(c, &e.filter, me))
        .filter(|&c| {
            if e.present_with {
                mine.is_some() && super::prepositions::present(st, c) == mine
            } else {
                here.is_some() && st.location_of(c) == here
            }
        })
        .collect()
}

/// Is card `c` "on" planet `p` (AR Prepositions: present at a site, cloud or Death
/// Star II sector related to it, or aboard a craft present there)? "On Cloud City" is
/// at one of its sites ("Cloud City: …"), as deployment "only on Cloud City" reads it.
fn on_planet(st: &State, c: CardIx, p: &str) -> bool {
    let Some(l) = st.location_of(c) else {
        return false;
    };
    let g = &st.locations[l].geo;
    let surface = match g.kind {
        Some(LocKind::Site) => true,
        Some(LocKind::Sector) => g.sector != Some(SectorKind::Asteroid),
        _ => false,
    };
    surface
        && (super::prepositions::planet_title(st, l).is_some_and(|t| t.eq_ignore_ascii_case(p))
            || super::prepositions::site_of(st, l, p))
}

fn is_site(st: &State, l: usize) -> bool {
    st.locations[l].geo.kind == Some(LocKind::Site)
}

/// Another active card matching `f` (seen from `s`'s owner) at the same location as
/// `s`; `site`: that location is a site; `battle`: it is one of these (the
/// participants, or the cards a battle lists).
fn with(st: &State, s: CardIx, f: &Filter, site: bool, battle: Option<&[CardIx]>) -> bool {
    let Some(l) = st.location_of(s) else {
        return false;
    };
    if site && !is_site(st, l) {
        return false;
    }
    active_at(st, l, st.owner(s), f, Some(s), battle)
}

/// Is an active card other than `except` at location `l` matching `f` (owner seen
/// from `me`), one of `among` when that is given?
fn active_at(
    st: &State,
    l: usize,
    me: Side,
    f: &Filter,
    except: Option<CardIx>,
    among: Option<&[CardIx]>,
) -> bool {
    (0..st.cards.len()).any(|c| {
        Some(c) != except
            && st.active(c)
            && st.location_of(c) == Some(l)
            && st.matches(c, f, me)
            && among.is_none_or(|b| b.contains(&c))
    })
}

/// Is `s` alone at its location (AR Alone/Lone)? A character: active, and its owner
/// has no other active card there that has ability or is a character (a combo card
/// is never alone). A starship or vehicle: the only active characters, vehicles and
/// starships its owner has there are aboard it.
pub fn alone(st: &State, s: CardIx) -> bool {
    let Some(l) = st.location_of(s) else {
        return false;
    };
    let me = st.owner(s);
    let d = st.def(s);
    let craft = matches!(d.card_type, CardType::Starship | CardType::Vehicle);
    let aboard = |c: CardIx| {
        let mut z = st.zone[c];
        for _ in 0..16 {
            match z {
                Zone::On(h) if h == s => return true,
                Zone::On(h) => z = st.zone[h],
                _ => return false,
            }
        }
        false
    };
    let counts = |c: CardIx| {
        let t = st.def(c).card_type;
        if craft {
            matches!(
                t,
                CardType::Character | CardType::Starship | CardType::Vehicle
            ) && !aboard(c)
        } else {
            t == CardType::Character || st.def(c).stats.ability.is_some()
        }
    };
    st.active(s)
        && !d.title.contains(" & ")
        && !(0..st.cards.len()).any(|c| {
            c != s && st.active(c) && st.owner(c) == me && st.location_of(c) == Some(l) && counts(c)
        })
}

/// Does the opponent of `s`'s owner have more active characters at its location?
fn outnumbered(st: &State, s: CardIx) -> bool {
    let Some(l) = st.location_of(s) else {
        return false;
    };
    let me = st.owner(s);
    let count = |p: Side| {
        (0..st.cards.len())
            .filter(|&c| {
                st.active(c)
                    && st.owner(c) == p
                    && st.def(c).card_type == CardType::Character
                    && st.location_of(c) == Some(l)
            })
            .count()
    };
    count(me.other()) > count(me)
}

/// Is `s` present with another active card matching `f` (seen from `s`'s owner)?
fn present_with(st: &State, s: CardIx, f: &Filter) -> bool {
    let Some(mine) = super::prepositions::present(st, s) else {
        return false;
    };
    present_at(st, mine, st.owner(s), f, Some(s))
}

/// Is a card other than `except` present at `place` (a location, or `Err` aboard an
/// enclosed craft) matching `f` (owner seen from `me`)?
fn present_at(
    st: &State,
    place: Result<usize, CardIx>,
    me: Side,
    f: &Filter,
    except: Option<CardIx>,
) -> bool {
    // Where a card is comes first: a face-down card in a pile is present nowhere, and
    // its identity is never read.
    (0..st.cards.len()).any(|c| {
        Some(c) != except
            && super::prepositions::present(st, c) == Some(place)
            && st.matches(c, f, me)
    })
}

/// Is an active weapon matching `f` (seen from `s`'s owner) deployed on `s`?
fn armed_with(st: &State, s: CardIx, f: &Filter) -> bool {
    let me = st.owner(s);
    st.cards_on(s)
        .into_iter()
        .any(|w| st.active(w) && st.def(w).card_type == CardType::Weapon && st.matches(w, f, me))
}

/// Does one condition hold for the text of `s`?
fn one(st: &State, s: CardIx, k: &Cond, battle: Option<InBattle>) -> bool {
    if k.not.as_deref().is_some_and(|n| one(st, s, n, battle))
        || !(k.any_of.is_empty() || k.any_of.iter().any(|a| one(st, s, a, battle)))
    {
        return false;
    }
    let me = st.owner(s);
    if let Some(t) = &k.at_title
        && !st
            .location_of(s)
            .is_some_and(|l| st.locations[l].title.eq_ignore_ascii_case(t))
    {
        return false;
    }
    if let Some(f) = &k.piloting
        && !piloted_by(st, s).is_some_and(|h| st.matches(h, f, me))
    {
        return false;
    }
    if let Some(f) = &k.piloted_by
        && !st
            .cards_on(s)
            .into_iter()
            .any(|x| st.active(x) && super::movement::is_pilot(st, x) && st.matches(x, f, me))
    {
        return false;
    }
    let together = battle.filter(|b| b.destinies).map(|b| b.participants);
    if let Some(f) = &k.with
        && !with(st, s, f, false, together)
    {
        return false;
    }
    if let Some(f) = &k.same_site_as
        && !with(st, s, f, true, together)
    {
        return false;
    }
    if k.on.as_deref().is_some_and(|p| !on_planet(st, s, p))
        || k.not_on.as_deref().is_some_and(|p| on_planet(st, s, p))
    {
        return false;
    }
    let l = st.location_of(s);
    if k.at_site && !l.is_some_and(|l| is_site(st, l)) {
        return false;
    }
    if k.at_exterior_site && !l.is_some_and(|l| is_site(st, l) && st.locations[l].geo.exterior) {
        return false;
    }
    let site_of = |name: &str| l.is_some_and(|l| super::prepositions::site_of(st, l, name));
    if k.at_site_of.as_deref().is_some_and(|x| !site_of(x)) {
        return false;
    }
    if let Some(x) = &k.not_at_site_of
        && (!l.is_some_and(|l| is_site(st, l)) || site_of(x))
    {
        return false;
    }
    if k.alone && !alone(st, s) {
        return false;
    }
    if k.outnumbered && !outnumbered(st, s) {
        return false;
    }
    if k.present_with
        .as_ref()
        .is_some_and(|f| !present_with(st, s, f))
        || k.armed_with.as_ref().is_some_and(|f| !armed_with(st, s, f))
    {
        return false;
    }
    if k.present && !matches!(super::prepositions::present(st, s), Some(Ok(_))) {
        return false;
    }
    if let Some(o) = k.occupies
        && l.is_none_or(|l| super::control::presence(st, l, me) != o)
    {
        return false;
    }
    // In a battle where the source is, a card excluded from it is inactive.
    if let Some(f) = &k.unless_here
        && with(
            st,
            s,
            f,
            false,
            battle.map(|b| b.listed).filter(|l| l.contains(&s)),
        )
    {
        return false;
    }
    // A card deployed on a participating card (a weapon, a device, an Effect on a
    // character) is in the battle with it.
    let fights = battle.is_some_and(|b| {
        b.participants.contains(&s) || host(st, s).is_some_and(|h| b.participants.contains(&h))
    });
    if k.defending && !(fights && battle.is_some_and(|b| b.initiator != st.owner(s))) {
        return false;
    }
    !k.in_battle || fights
}

/// The keys of [`Cond`] a location's own text may set: a location's conditions look
/// at the cards there ("If Maul here", "Unless your Jedi here", "If your battle
/// droid present") and at who occupies it; the others are about a card's own place.
/// `not` and `any_of` take these keys in turn.
const HERE_KEYS: &[&str] = &[
    "with",
    "unless_here",
    "present_with",
    "occupies",
    "not",
    "any_of",
];

/// The keys of `k` a location's text may not set (see [`HERE_KEYS`]), at any depth
/// of `not` and `any_of`.
fn not_here_keys(k: &Cond) -> Vec<&'static str> {
    let set = [
        ("piloting", k.piloting.is_some()),
        ("piloted_by", k.piloted_by.is_some()),
        ("same_site_as", k.same_site_as.is_some()),
        ("on", k.on.is_some()),
        ("not_on", k.not_on.is_some()),
        ("at_site_of", k.at_site_of.is_some()),
        ("not_at_site_of", k.not_at_site_of.is_some()),
        ("at_site", k.at_site),
        ("at_exterior_site", k.at_exterior_site),
        ("defending", k.defending),
        ("in_battle", k.in_battle),
        ("alone", k.alone),
        ("outnumbered", k.outnumbered),
        ("at_title", k.at_title.is_some()),
        ("present", k.present),
        ("armed_with", k.armed_with.is_some()),
    ];
    let inner = k.not.as_deref().into_iter().chain(&k.any_of);
    set.into_iter()
        .filter(|(_, s)| *s)
        .map(|(n, _)| n)
        .chain(inner.flat_map(not_here_keys))
        .collect()
}

/// A location's conditions take only [`HERE_KEYS`]: the first other key set in
/// `when`, as the tail of a load error ("condition `alone` is about a card's own
/// place; …").
pub fn here_keys_only<'a>(when: impl IntoIterator<Item = &'a Cond>) -> Result<(), String> {
    match when.into_iter().flat_map(not_here_keys).next() {
        Some(k) => Err(format!(
            "condition `{k}` is about a card's own place; a location's conditions take {}",
            HERE_KEYS.join(", ")
        )),
        None => Ok(()),
    }
}

/// Do the conditions of a location's text hold at location `l`, for the text of side
/// `me`: `with` an active card matching it there (owner seen from `me`; AR
/// Prepositions: "here" is at this location), `unless_here` none, `present_with` an
/// active card matching it present there (not enclosed aboard a starship or vehicle:
/// AR Present), `occupies` whether `me` has presence there (AR Occupy), `not` the
/// inner condition does not hold, `any_of` one of its conditions does?
pub fn holds_here(st: &State, l: usize, me: Side, when: &[Cond]) -> bool {
    when.iter().all(|k| one_here(st, l, me, k))
}

/// Does one condition of a location's text hold (see [`holds_here`])?
fn one_here(st: &State, l: usize, me: Side, k: &Cond) -> bool {
    let at = |f: &Filter| active_at(st, l, me, f, None, None);
    let present = |f: &Filter| present_at(st, Ok(l), me, f, None);
    k.with.as_ref().is_none_or(&at)
        && k.unless_here.as_ref().is_none_or(|f| !at(f))
        && k.present_with.as_ref().is_none_or(present)
        && k.occupies
            .is_none_or(|o| super::control::presence(st, l, me) == o)
        && k.not.as_deref().is_none_or(|n| !one_here(st, l, me, n))
        && (k.any_of.is_empty() || k.any_of.iter().any(|a| one_here(st, l, me, a)))
}

/// Do all the conditions hold for the text of `s`? Outside a battle (`battle` none),
/// "when in battle" never holds.
pub fn holds(st: &State, s: CardIx, when: &[Cond], battle: Option<InBattle>) -> bool {
    when.iter().all(|k| one(st, s, k, battle))
}
