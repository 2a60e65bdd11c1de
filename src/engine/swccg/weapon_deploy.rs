//! Starship weapons deployed by a starship's permission (AR Ch.9 Weapons - Starship
//! Weapons - Special Deployment): a starship whose text lets weapons with an attribute
//! deploy on it takes such a weapon only if the weapon's own text lets it deploy on
//! another starship of the same type (capital or starfighter); a weapon the starship
//! names by title deploys on it regardless of its own text.

use super::engine::{Engine, Rejection, rej};
use super::model::{Filter, Side};
use super::rules as r;
use super::state::CardIx;
use super::statics::{Static, pick};

/// The starship type a weapon's own deployment text names (`subtype` of its `on` filter).
fn named_type(f: &Filter) -> Option<String> {
    f.subtype.as_ref().map(|s| s.to_ascii_lowercase())
}

impl Engine {
    /// Weapon `w` may not deploy on `h` by its own text (`own`): may it by `h`'s text?
    pub(super) fn special_weapon_deployment(
        &self,
        p: Side,
        w: CardIx,
        h: CardIx,
        own: &Filter,
    ) -> Result<(), Rejection> {
        let title = self.st.title(w).to_string();
        let host = self.st.title(h).to_string();
        let refused = || {
            rej(
                format!("{title} may deploy only on a card its text names; {host} is not one"),
                r::DEPLOYMENT_RESTRICTIONS,
            )
        };
        let Some(allow) = self.st.def(h).find_static(pick!(Static::AllowsWeapons)) else {
            return Err(refused());
        };
        if allow.named.iter().any(|n| n.eq_ignore_ascii_case(&title)) {
            return Ok(());
        }
        if !allow
            .filter
            .iter()
            .chain(&allow.any)
            .any(|f| self.st.matches(w, f, p))
        {
            return Err(refused());
        }
        let host_type = self
            .st
            .def(h)
            .subtype
            .as_deref()
            .map(str::to_ascii_lowercase);
        match named_type(own) {
            Some(t) if Some(&t) == host_type.as_ref() => Ok(()),
            own_type => Err(rej(
                format!(
                    "{host}'s text lets such weapons deploy on it only if they may deploy on another {} starship; {title} deploys only on {} starships",
                    host_type.as_deref().unwrap_or("such"),
                    own_type.as_deref().unwrap_or("other")
                ),
                r::STARSHIP_WEAPON_DEPLOYMENT,
            )),
        }
    }
}
