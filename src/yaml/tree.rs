//! Serde over a [`Tree`] read by [`super::subset`].
//!
//! Scalars are resolved as serde-saphyr resolves them, and only where that is
//! certain: anything in doubt (a float in an odd spelling, a plain `null` asked
//! for as a string, a type mismatch...) is an error here, and the file is then
//! read by serde-saphyr, whose answer stands. `Spanned<T>` values get the same
//! locations serde-saphyr gives, through the map form its `Deserialize` reads.

use super::subset::{Kind, Pos, Tree};
use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::fmt;

/// Any failure: the caller reads the file again with the full parser. It
/// says which line of this file failed, or the target type's message.
#[derive(Debug)]
pub(super) struct Failed(pub String);

impl fmt::Display for Failed {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Failed {}

impl de::Error for Failed {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Failed(msg.to_string())
    }
}

/// A failure of this reader's own, naming its source line.
macro_rules! failed {
    () => {
        Failed(format!("tree.rs:{}", line!()))
    };
}

type R<T> = Result<T, Failed>;

/// Deserialize a `T` from the tree.
pub(super) fn from_tree<T: de::DeserializeOwned>(tree: &Tree<'_>) -> Result<T, Failed> {
    T::deserialize(NodeDe::new(tree, tree.root))
}

/// The name serde-saphyr's `Spanned<T>` asks for, and the first key of the map
/// it then reads.
const SPANNED: &str = "__yaml_spanned";
const SPANNED_MARKER: &str = "__serde_saphyr_private_spanned";

#[derive(Clone, Copy)]
struct NodeDe<'t, 'a> {
    tree: &'t Tree<'a>,
    /// The node (an alias followed).
    id: u32,
    /// Where the node is referenced: the alias, or the node itself.
    referenced: Pos,
}

enum Plain {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str,
}

/// Whether a plain scalar is YAML's null.
fn is_null_word(s: &str) -> bool {
    matches!(s, "" | "~" | "null" | "Null" | "NULL")
}

/// What a plain scalar is, by YAML 1.2's core schema, where certain; `None` in doubt.
fn resolve(s: &str) -> Option<Plain> {
    if is_null_word(s) {
        return Some(Plain::Null);
    }
    match s {
        "true" | "True" | "TRUE" => return Some(Plain::Bool(true)),
        "false" | "False" | "FALSE" => return Some(Plain::Bool(false)),
        _ => {}
    }
    let first = s.as_bytes()[0];
    if first.is_ascii_digit() || matches!(first, b'-' | b'+' | b'.') {
        let digits = s.strip_prefix('-').unwrap_or(s);
        let plain_int = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits.len() == 1 || !digits.starts_with('0'));
        if plain_int {
            return if s.starts_with('-') {
                s.parse().ok().map(Plain::Int)
            } else {
                s.parse().ok().map(Plain::Uint)
            };
        }
        let simple_float = digits.split_once('.').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
                && (a.len() == 1 || !a.starts_with('0'))
        });
        if simple_float {
            return s.parse().ok().map(Plain::Float);
        }
        // Other spellings of numbers (`1e3`, `0x1F`, `+5`, `.inf`, `1_000`,
        // `12:30`) are in doubt; a word such as `3RD1` is text.
        let unsigned = s.trim_start_matches(['-', '+']);
        let radix = unsigned.len() > 1
            && unsigned.starts_with('0')
            && matches!(
                unsigned.as_bytes()[1],
                b'x' | b'X' | b'o' | b'O' | b'b' | b'B'
            );
        let numeric = unsigned.starts_with('.')
            || unsigned.bytes().all(|b| {
                b.is_ascii_digit() || matches!(b, b'_' | b'.' | b':' | b'e' | b'E' | b'+' | b'-')
            });
        if !radix && !numeric {
            return Some(Plain::Str);
        }
        return None;
    }
    // Words some YAML readers take for booleans or numbers.
    if s.len() <= 3
        && ["y", "n", "yes", "no", "on", "off", "nan", "inf"]
            .iter()
            .any(|w| s.eq_ignore_ascii_case(w))
    {
        return None;
    }
    Some(Plain::Str)
}

impl<'t, 'a> NodeDe<'t, 'a> {
    fn new(tree: &'t Tree<'a>, id: u32) -> Self {
        let node = &tree.nodes[id as usize];
        let referenced = node.at;
        let id = match node.kind {
            Kind::Alias(target) => target,
            _ => id,
        };
        NodeDe {
            tree,
            id,
            referenced,
        }
    }

    fn kind(&self) -> &'t Kind<'a> {
        &self.tree.nodes[self.id as usize].kind
    }

    fn defined(&self) -> Pos {
        self.tree.nodes[self.id as usize].at
    }

    /// The text of a scalar read as a string: any but a plain null (serde-saphyr
    /// reads a plain `5` or `true` asked for as a string as its text).
    fn string(&self) -> R<&'t str> {
        match self.kind() {
            Kind::Text(t) => Ok(t),
            Kind::Plain(t) if !is_null_word(t) => Ok(t),
            _ => Err(failed!()),
        }
    }

    fn plain(&self) -> R<Plain> {
        match self.kind() {
            Kind::Plain(t) => resolve(t).ok_or_else(|| failed!()),
            _ => Err(failed!()),
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.kind(), Kind::Plain(t) if is_null_word(t))
    }

    fn int<T: TryFrom<i64> + TryFrom<u64>>(&self) -> R<T> {
        match self.plain()? {
            Plain::Int(v) => T::try_from(v).map_err(|_| failed!()),
            Plain::Uint(v) => T::try_from(v).map_err(|_| failed!()),
            _ => Err(failed!()),
        }
    }

    fn float(&self) -> R<f64> {
        match self.plain()? {
            Plain::Float(v) => Ok(v),
            Plain::Int(v) => Ok(v as f64),
            Plain::Uint(v) => Ok(v as f64),
            _ => Err(failed!()),
        }
    }

    /// A mapping's keys and values, one after the other.
    fn pairs(&self) -> R<&'t [u32]> {
        match *self.kind() {
            Kind::Map { start, len } => {
                Ok(&self.tree.kids[start as usize..(start + 2 * len) as usize])
            }
            _ => Err(failed!()),
        }
    }

    fn map_access(&self) -> R<Pairs<'t, 'a>> {
        Ok(Pairs {
            tree: self.tree,
            kids: self.pairs()?,
            at: 0,
        })
    }

    fn seq_access(&self) -> R<Items<'t, 'a>> {
        match *self.kind() {
            Kind::Seq { start, len } => Ok(Items {
                tree: self.tree,
                kids: &self.tree.kids[start as usize..(start + len) as usize],
            }),
            _ => Err(failed!()),
        }
    }
}

macro_rules! ints {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
            v.$visit(self.int::<$t>()?)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for NodeDe<'_, '_> {
    type Error = Failed;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        match self.kind() {
            Kind::Text(t) => v.visit_str(t),
            Kind::Plain(t) => match resolve(t).ok_or_else(|| failed!())? {
                Plain::Null => v.visit_unit(),
                Plain::Bool(b) => v.visit_bool(b),
                Plain::Int(i) => v.visit_i64(i),
                Plain::Uint(u) => v.visit_u64(u),
                Plain::Float(f) => v.visit_f64(f),
                Plain::Str => v.visit_str(t),
            },
            Kind::Map { .. } => v.visit_map(self.map_access()?),
            Kind::Seq { .. } => v.visit_seq(self.seq_access()?),
            Kind::Alias(_) => Err(failed!()),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        match self.plain()? {
            Plain::Bool(b) => v.visit_bool(b),
            _ => Err(failed!()),
        }
    }

    ints!(deserialize_i8 visit_i8 i8, deserialize_i16 visit_i16 i16, deserialize_i32 visit_i32 i32,
          deserialize_i64 visit_i64 i64, deserialize_u8 visit_u8 u8, deserialize_u16 visit_u16 u16,
          deserialize_u32 visit_u32 u32, deserialize_u64 visit_u64 u64);

    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_f32(self.float()? as f32)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_f64(self.float()?)
    }

    fn deserialize_char<V: Visitor<'de>>(self, _: V) -> R<V::Value> {
        Err(failed!())
    }

    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_str(self.string()?)
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_str(self.string()?)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_str(self.string()?)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, _: V) -> R<V::Value> {
        Err(failed!())
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, _: V) -> R<V::Value> {
        Err(failed!())
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        if self.is_null() {
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        if self.is_null() {
            v.visit_unit()
        } else {
            Err(failed!())
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> R<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, v: V) -> R<V::Value> {
        if name == SPANNED {
            v.visit_newtype_struct(SpannedDe(self))
        } else {
            v.visit_newtype_struct(self)
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_seq(self.seq_access()?)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _: usize, v: V) -> R<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: usize,
        v: V,
    ) -> R<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_map(self.map_access()?)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> R<V::Value> {
        self.deserialize_map(v)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> R<V::Value> {
        match self.kind() {
            Kind::Map { len: 1, .. } => {
                let kids = self.pairs()?;
                v.visit_enum(Variant {
                    key: NodeDe::new(self.tree, kids[0]),
                    value: Some(NodeDe::new(self.tree, kids[1])),
                })
            }
            Kind::Text(_) | Kind::Plain(_) => v.visit_enum(Variant {
                key: self,
                value: None,
            }),
            _ => Err(failed!()),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_unit()
    }
}

struct Pairs<'t, 'a> {
    tree: &'t Tree<'a>,
    kids: &'t [u32],
    at: usize,
}

impl<'de> de::MapAccess<'de> for Pairs<'_, '_> {
    type Error = Failed;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        match self.kids.get(self.at) {
            None => Ok(None),
            Some(&k) => {
                self.at += 1;
                seed.deserialize(NodeDe::new(self.tree, k)).map(Some)
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        let &k = self.kids.get(self.at).ok_or_else(|| failed!())?;
        self.at += 1;
        seed.deserialize(NodeDe::new(self.tree, k))
    }

    fn size_hint(&self) -> Option<usize> {
        Some((self.kids.len() - self.at) / 2)
    }
}

struct Items<'t, 'a> {
    tree: &'t Tree<'a>,
    kids: &'t [u32],
}

impl<'de> de::SeqAccess<'de> for Items<'_, '_> {
    type Error = Failed;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> R<Option<T::Value>> {
        match self.kids.split_first() {
            None => Ok(None),
            Some((&k, rest)) => {
                self.kids = rest;
                seed.deserialize(NodeDe::new(self.tree, k)).map(Some)
            }
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.kids.len())
    }
}

struct Variant<'t, 'a> {
    key: NodeDe<'t, 'a>,
    value: Option<NodeDe<'t, 'a>>,
}

impl<'de, 't, 'a> de::EnumAccess<'de> for Variant<'t, 'a> {
    type Error = Failed;
    type Variant = Payload<'t, 'a>;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> R<(S::Value, Self::Variant)> {
        let name = self.key.string()?;
        let tag = seed.deserialize(name.into_deserializer())?;
        Ok((tag, Payload(self.value)))
    }
}

/// What follows a variant's name: nothing (a unit variant) or its value.
struct Payload<'t, 'a>(Option<NodeDe<'t, 'a>>);

impl<'de> de::VariantAccess<'de> for Payload<'_, '_> {
    type Error = Failed;

    fn unit_variant(self) -> R<()> {
        match self.0 {
            None => Ok(()),
            Some(_) => Err(failed!()),
        }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> R<T::Value> {
        seed.deserialize(self.0.ok_or_else(|| failed!())?)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _: usize, v: V) -> R<V::Value> {
        de::Deserializer::deserialize_seq(self.0.ok_or_else(|| failed!())?, v)
    }

    fn struct_variant<V: Visitor<'de>>(self, _: &'static [&'static str], v: V) -> R<V::Value> {
        de::Deserializer::deserialize_map(self.0.ok_or_else(|| failed!())?, v)
    }
}

/// `Spanned<T>`: a map of the marker, the value, and its two locations.
struct SpannedDe<'t, 'a>(NodeDe<'t, 'a>);

impl<'de> de::Deserializer<'de> for SpannedDe<'_, '_> {
    type Error = Failed;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> R<V::Value> {
        v.visit_map(SpannedFields {
            node: self.0,
            state: 0,
        })
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

struct SpannedFields<'t, 'a> {
    node: NodeDe<'t, 'a>,
    state: u8,
}

impl<'de> de::MapAccess<'de> for SpannedFields<'_, '_> {
    type Error = Failed;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> R<Option<K::Value>> {
        let key = match self.state {
            0 => SPANNED_MARKER,
            1 => "value",
            2 => "referenced",
            3 => "defined",
            _ => return Ok(None),
        };
        seed.deserialize(key.into_deserializer()).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> R<V::Value> {
        self.state += 1;
        match self.state {
            1 => seed.deserialize(().into_deserializer()),
            2 => seed.deserialize(self.node),
            3 => seed.deserialize(location(self.node.referenced)),
            4 => seed.deserialize(location(self.node.defined())),
            _ => Err(failed!()),
        }
    }
}

type Location<'de> =
    de::value::MapDeserializer<'de, std::array::IntoIter<(&'static str, u64), 2>, Failed>;

fn location<'de>(at: Pos) -> Location<'de> {
    de::value::MapDeserializer::new(
        [("line", u64::from(at.line)), ("column", u64::from(at.col))].into_iter(),
    )
}
