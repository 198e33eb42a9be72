//! pnpkit: game packs in YAML → checked model → print-and-play kits, deck
//! checks and rules checking.
//!
//! Data flows one way: [`pack`] reads YAML with positions, [`check`] turns it
//! into the validated [`model`] while collecting [`diag`]nostics, and the
//! commands in [`cmd`] orchestrate I/O. Only `main` prints and picks the exit
//! code.

pub mod budget;
pub mod builtin;
pub mod check;
pub mod cli;
pub mod cmd;
pub mod deck;
pub mod diag;
pub mod diff;
pub mod export;
pub mod fonts;
pub mod fsx;
pub mod gallery;
pub mod i18n;
pub mod markup;
pub mod model;
pub mod pack;
pub mod progress;
pub mod project;
pub mod reference;
pub mod render;
pub mod rules;
pub mod schema;
pub mod sheet;
pub mod shop;
pub mod stats;
pub mod terminal;
pub mod text;
pub mod viewer;
