//! A record given as JSON text, verified while its actions stream past.

use serde::Deserialize;

use super::{Variant, VariantError, find_in};
use crate::quote;
use crate::record::Replay;
use crate::record::{RecordHead, RecordStart, RecordVerdict, Repetition};
use crate::rules::{GameResult, Rights};

/// A record's JSON text that cannot be read as a record.
#[derive(Debug, thiserror::Error)]
pub enum RecordJsonError {
    #[error("line {line} column {column}: {message}")]
    Json {
        line: usize,
        column: usize,
        message: String,
    },
    #[error(transparent)]
    Variant(#[from] VariantError),
}

impl From<serde_json::Error> for RecordJsonError {
    fn from(e: serde_json::Error) -> RecordJsonError {
        RecordJsonError::Json {
            line: e.line(),
            column: e.column(),
            // serde_json's text ends with the position, given apart here.
            message: quote::bounded(
                e.to_string()
                    .rsplit_once(" at line ")
                    .map_or(e.to_string().as_str(), |(m, _)| m),
            )
            .into_owned(),
        }
    }
}

/// Verifies a record given as JSON text, streaming its actions: the text
/// is read twice, once for everything but the actions (skipped without
/// being kept) and once playing each action as it is read, so memory holds
/// the text, the current position and the history's compact keys, never
/// the list of actions.
pub fn verify_record_json(
    variants: &[&dyn Variant],
    text: &str,
) -> Result<RecordVerdict, RecordJsonError> {
    // The record's fields spelled out: `#[serde(flatten)]` would buffer
    // the whole action list before skipping it.
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Shape {
        variant: String,
        rules: String,
        start: RecordStart,
        #[allow(dead_code)] // checked for shape, then streamed in the second pass
        actions: serde::de::IgnoredAny,
        result: Option<GameResult>,
        #[serde(default)]
        final_position: Option<String>,
        #[serde(default)]
        format: Option<u32>,
        #[serde(default)]
        rights: Option<Rights>,
        #[serde(default)]
        repetitions: Option<Vec<Repetition>>,
    }
    let shape: Shape = serde_json::from_str(text)?;
    let head = RecordHead {
        format: shape.format,
        variant: shape.variant,
        rules: shape.rules,
        start: shape.start,
        result: shape.result,
        final_position: shape.final_position,
        rights: shape.rights,
        repetitions: shape.repetitions,
    };
    let variant = find_in(variants, &head.variant)?;
    let mut replay = match variant.replay(&head) {
        Ok(r) => r,
        Err(verdict) => return Ok(verdict),
    };
    let mut rejected = None;
    let mut de = serde_json::Deserializer::from_str(text);
    serde::de::Deserializer::deserialize_map(
        &mut de,
        StreamActions {
            replay: replay.as_mut(),
            rejected: &mut rejected,
        },
    )?;
    Ok(match rejected {
        Some(verdict) => verdict,
        None => replay.finish(),
    })
}

/// The second pass of [`verify_record_json`]: every field skipped but
/// `actions`, whose elements are played one by one.
struct StreamActions<'a> {
    replay: &'a mut dyn Replay,
    rejected: &'a mut Option<RecordVerdict>,
}

impl<'de> serde::de::Visitor<'de> for StreamActions<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a game record")
    }

    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut map: M) -> Result<(), M::Error> {
        while let Some(key) = map.next_key::<String>()? {
            if key == "actions" {
                map.next_value_seed(StreamActions {
                    replay: &mut *self.replay,
                    rejected: &mut *self.rejected,
                })?;
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(())
    }

    fn visit_seq<S: serde::de::SeqAccess<'de>>(self, mut seq: S) -> Result<(), S::Error> {
        while let Some(text) = seq.next_element::<String>()? {
            // After a rejection the rest is only read, to check the JSON.
            if self.rejected.is_none()
                && let Err(verdict) = self.replay.play(&text)
            {
                *self.rejected = Some(verdict);
            }
        }
        Ok(())
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for StreamActions<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}
