//! Tests that bound work by counting allocations (calls and bytes), which is
//! deterministic where time is not: a binary of their own, with the counting
//! allocator, so that no other test's allocations are counted.

#[path = "../it/common/mod.rs"]
mod common;

#[global_allocator]
static ALLOC: common::alloc::Counting = common::alloc::Counting;

mod bounds;
mod smoke;
