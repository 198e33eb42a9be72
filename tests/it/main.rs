//! The integration tests, one binary: every file is a module, so the
//! expensive things (the shipped games checked, kits built) are made once
//! and the tests of all files share the two cores.
//!
//! (`tests/bounded/` is the other binary: tests that count allocations
//! need a counting allocator and nothing else running beside them.)

mod common;

mod assembly;
mod atomic;
mod batch;
mod budget;
mod cache;
mod check;
mod cli;
mod deck;
mod designer;
mod diff;
mod export;
mod formats;
mod gallery;
mod hostile;
mod i18n;
mod inventory;
mod layout;
mod manual;
mod odds;
mod outside;
mod pasted;
mod preflight;
mod raster;
mod render;
mod replay_html;
mod rules;
mod scaffold;
mod schemas;
mod sheet;
mod shop;
mod stats;
mod templates_doc;
mod watch;
