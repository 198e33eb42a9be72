//! Typed values straight from a spanned YAML [`Node`], without building a
//! JSON tree first: what a log replay does for each of its thousands of
//! actions. It reads a node exactly as serde_json reads the node's JSON
//! (`rules::log::to_json`): keys that are not strings are written as text,
//! numbers that are not finite are null, an enum is a string or a mapping of
//! one entry. Its errors carry no path; callers that must point at a problem
//! deserialize the JSON with `serde_path_to_error` once this fails.

use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use super::yaml::{Node, Value};

/// Deserializes `T` from `node`.
pub fn from_node<T: de::DeserializeOwned>(node: &Node) -> Result<T, de::value::Error> {
    T::deserialize(NodeDe(node))
}

/// A deserializer over one node.
#[derive(Clone, Copy)]
pub struct NodeDe<'a>(pub &'a Node);

type Error = de::value::Error;

impl<'de> Deserializer<'de> for NodeDe<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.0.value {
            Value::Null => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            // serde_json keeps non-negative integers as unsigned.
            Value::Int(i) if *i >= 0 => visitor.visit_u64(*i as u64),
            Value::Int(i) => visitor.visit_i64(*i),
            Value::Float(f) if f.is_finite() => visitor.visit_f64(*f),
            Value::Float(_) => visitor.visit_unit(),
            Value::Str(s) => visitor.visit_str(s),
            Value::Seq(items) => visitor.visit_seq(Items(items.iter())),
            Value::Map(entries) => visitor.visit_map(Entries {
                entries: entries.iter(),
                value: None,
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.0.value {
            Value::Null => visitor.visit_none(),
            Value::Float(f) if !f.is_finite() => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match &self.0.value {
            Value::Str(s) => visitor.visit_enum(s.as_str().into_deserializer()),
            Value::Map(entries) if entries.len() == 1 => visitor.visit_enum(Variant(&entries[0].0, &entries[0].1)),
            Value::Map(_) => Err(de::Error::invalid_value(
                de::Unexpected::Map,
                &"a map with a single key",
            )),
            _ => Err(de::Error::invalid_type(unexpected(self.0), &"string or map")),
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match &self.0.value {
            Value::Null => visitor.visit_unit(),
            Value::Float(f) if !f.is_finite() => visitor.visit_unit(),
            _ => Err(de::Error::invalid_type(unexpected(self.0), &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit_struct seq tuple tuple_struct map struct identifier
    }
}

fn unexpected(node: &Node) -> de::Unexpected<'_> {
    match &node.value {
        Value::Null => de::Unexpected::Unit,
        Value::Bool(b) => de::Unexpected::Bool(*b),
        Value::Int(i) => de::Unexpected::Signed(*i),
        Value::Float(f) => de::Unexpected::Float(*f),
        Value::Str(s) => de::Unexpected::Str(s),
        Value::Seq(_) => de::Unexpected::Seq,
        Value::Map(_) => de::Unexpected::Map,
    }
}

/// A mapping key as serde_json has it: the string, or the value written as text.
fn key_text(key: &Node) -> std::borrow::Cow<'_, str> {
    match key.as_str() {
        Some(s) => s.into(),
        None => key.show().into(),
    }
}

struct Items<'a>(std::slice::Iter<'a, Node>);

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|n| seed.deserialize(NodeDe(n))).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

struct Entries<'a> {
    entries: std::slice::Iter<'a, (Node, Node)>,
    value: Option<&'a Node>,
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        let Some((k, v)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(v);
        let text = key_text(k);
        let key: de::value::StrDeserializer<'_, Error> = text.as_ref().into_deserializer();
        seed.deserialize(key).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let v = self
            .value
            .take()
            .ok_or_else(|| de::Error::custom("a value without its key"))?;
        seed.deserialize(NodeDe(v))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}

/// `{variant: content}`.
struct Variant<'a>(&'a Node, &'a Node);

impl<'de, 'a> de::EnumAccess<'de> for Variant<'a> {
    type Error = Error;
    type Variant = Content<'a>;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Content<'a>), Error> {
        let text = key_text(self.0);
        let key: de::value::StrDeserializer<'_, Error> = text.as_ref().into_deserializer();
        Ok((seed.deserialize(key)?, Content(self.1)))
    }
}

struct Content<'a>(&'a Node);

impl<'de> de::VariantAccess<'de> for Content<'_> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(NodeDe(self.0))
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(NodeDe(self.0))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        NodeDe(self.0).deserialize_seq(visitor)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, Error> {
        NodeDe(self.0).deserialize_map(visitor)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;

    use super::*;
    use crate::diag::FileId;

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
    enum Action {
        Move {
            unit: String,
            to: Vec<u32>,
            #[serde(default)]
            free: Option<bool>,
        },
        Roll {
            dice: Vec<i8>,
            #[serde(default)]
            why: Option<Why>,
        },
        Pass,
    }

    #[derive(Debug, PartialEq, Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Why {
        Fear,
        Aura { range: f64 },
        Pair(u8, u8),
    }

    #[derive(Debug, PartialEq, Deserialize)]
    struct Doc {
        actions: Vec<Action>,
        #[serde(default)]
        tally: BTreeMap<String, i64>,
        #[serde(default)]
        note: Option<String>,
        #[serde(default)]
        unit: (),
    }

    /// The node's value read both ways: directly and through its JSON.
    fn both<T: de::DeserializeOwned + PartialEq + std::fmt::Debug>(yaml: &str) -> (Option<T>, Option<T>) {
        let node = crate::pack::yaml::parse(yaml, FileId(0), &crate::pack::yaml::Limits::default()).expect("yaml");
        let direct = from_node::<T>(&node).ok();
        let json = serde_json::from_value::<T>(crate::rules::log::to_json(&node)).ok();
        (direct, json)
    }

    #[test]
    fn a_node_reads_exactly_as_its_json_does() {
        let cases = [
            "actions: [{do: move, unit: a, to: [1, 2]}, {do: pass}]",
            "actions: [{do: roll, dice: [1, -2], why: fear}]",
            "actions: [{do: roll, dice: [3], why: {aura: {range: 2}}}]",
            "actions: [{do: roll, dice: [3], why: {pair: [1, 2]}}]",
            "actions: [{do: move, unit: a, to: [1], free: null}]",
            "actions: []\ntally: {1: 2, true: -3, x: 4}",
            "actions: []\nnote: ~\nunit: ~",
            // Each of these fails both ways.
            "actions: [{do: move, unit: a, to: [-1]}]",
            "actions: [{do: roll, dice: [300]}]",
            "actions: [{do: roll, dice: [1], why: {aura: {range: 2}, fear: ~}}]",
            "actions: [{do: roll, dice: [1], why: 3}]",
            "actions: [{do: move, unit: a, to: [1], extra: 1}]",
            "actions: [{do: jump}]",
            "actions: [{unit: a}]",
            "actions: {do: pass}",
            "actions: []\nunit: 1",
            "actions: [{do: roll, dice: [1.0]}]",
            "actions: [{do: roll, dice: [1], why: {aura: {range: 2.5}}}]",
        ];
        for yaml in cases {
            let (direct, json) = both::<Doc>(yaml);
            assert_eq!(direct, json, "{yaml}");
        }
        // Plain values.
        assert_eq!(both::<Option<f64>>("~"), (Some(None), Some(None)));
        assert_eq!(both::<Option<f64>>("2"), (Some(Some(2.0)), Some(Some(2.0))));
        assert_eq!(both::<u64>("7"), (Some(7), Some(7)));
        assert_eq!(both::<i8>("-129"), (None, None));
        assert_eq!(both::<String>("[a]"), (None, None));
    }
}
