//! Exact rational arithmetic for `algebra` and `linarith` steps (in progress).
