//! Logic world engine: researchers propose, refute, extend and accept LaTeX conclusions;
//! the rule engine guards the world state; the event log replays every derivation.

// Formula language and rule checking (owned by the logic-rules work).
pub mod arith;
pub mod formula;
pub mod rules;

// World state, events, replay (owned by the logic-engine work).
pub mod engine;
pub mod events;
pub mod replay;

// Added by the logic-engine work: the state events act on, and the batch protocol.
pub mod dag;
pub mod document;
pub mod fitch;
pub mod fitch_export;
pub mod protocol;
pub mod researchers;
pub mod world;
