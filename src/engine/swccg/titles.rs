//! Identical cards (AR Title - Identical Cards, Virtual Cards): cards that look for
//! identical cards look solely at titles. A virtual card ("(V)" after its title) has
//! the same title as the original; two cards are identical only if their uniqueness
//! symbols match too (unique •, restricted ••/•••, diamond ♦): ♦ Tatooine: Desert and
//! •••Tatooine: Desert are different titles.

use super::model::CardDef;

/// The title without a trailing "(V)" (the virtual card's marker), trimmed.
pub fn base_title(t: &str) -> &str {
    let t = t.trim();
    let lower = t.to_ascii_lowercase();
    if lower.ends_with("(v)") {
        t[..t.len() - 3].trim_end()
    } else {
        t
    }
}

/// The persona name a title gives (AR Persona Lists: a persona is known by its short
/// name): the title without "(V)" and without what follows its first comma
/// ("Mara Jade, The Emperor's Hand" is the Mara Jade persona).
pub fn persona_name(t: &str) -> &str {
    let b = base_title(t);
    b.split_once(", ").map_or(b, |(name, _)| name.trim_end())
}

/// Do two titles name the same card title (a virtual card's "(V)" ignored)?
pub fn same_title(a: &str, b: &str) -> bool {
    base_title(a).eq_ignore_ascii_case(base_title(b))
}

/// Does a reference to the title `wanted` name a card titled `card`? Its own title,
/// or one of the titles of a combo card ("Imperial Arrest Order & Secret Plans").
pub fn names(wanted: &str, card: &str) -> bool {
    same_title(wanted, card)
        || (card.contains(" & ") && card.split(" & ").any(|part| same_title(wanted, part)))
}

/// The uniqueness symbols next to a title: (dots, diamonds). A unique card has one dot.
pub fn symbols(d: &CardDef) -> (u8, u8) {
    let dots = if d.dots > 0 {
        d.dots
    } else {
        u8::from(d.unique)
    };
    (dots, d.diamonds)
}

/// Identical card titles: the same title (virtual or not) and the same uniqueness symbols.
pub fn identical(a: &CardDef, b: &CardDef) -> bool {
    same_title(&a.title, &b.title) && symbols(a) == symbols(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn virtual_marker_is_ignored() {
        assert_eq!(base_title("Luke Skywalker (V)"), "Luke Skywalker");
        assert!(same_title("Luke Skywalker (v)", "luke skywalker"));
        assert!(!same_title("General Calrissian", "Lando Calrissian"));
        assert!(!same_title("Vehicle", "Vehicle (V) Extra"));
    }
}
