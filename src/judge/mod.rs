//! Judging: what a case's answers come to, as pure functions of the case and what the
//! implementation answered, with no target and no I/O.
//!
//! [`outcome`] holds the values every reporter reads; `contract` the contract a describe case
//! compares a published schema by.

pub(crate) mod contract;
pub mod outcome;
